/*
 * zl_types.h — dependency-free zone types shared by every layer of zonelab.
 *
 * Enum values equal the ZBC-2 codes (ZONE TYPE, ZONE CONDITION, REPORTING
 * OPTIONS) so that zscsi can put them on the wire unchanged and the kernel's
 * zoned ioctls map one to one.  This header includes nothing but <stdint.h>
 * and <stdbool.h>; it holds no functions except trivial inline predicates.
 */
#ifndef ZL_TYPES_H
#define ZL_TYPES_H

#include <stdbool.h>
#include <stdint.h>

/* ZBC-2 ZONE TYPE (REPORT ZONES descriptor byte 0, bits 3:0). */
enum zl_zone_type {
	ZL_ZONE_TYPE_CONV = 0x1, /* conventional: no write pointer */
	ZL_ZONE_TYPE_SWR = 0x2,  /* sequential write required (host-managed) */
	ZL_ZONE_TYPE_SWP = 0x3,  /* sequential write preferred (host-aware) */
	ZL_ZONE_TYPE_GAP = 0x5,  /* gap zone (ZBC-2): no data, no access */
};

/* ZBC-2 ZONE CONDITION (descriptor byte 1, bits 7:4). */
enum zl_zone_cond {
	ZL_COND_NOT_WP = 0x0,
	ZL_COND_EMPTY = 0x1,
	ZL_COND_IMP_OPEN = 0x2,
	ZL_COND_EXP_OPEN = 0x3,
	ZL_COND_CLOSED = 0x4,
	ZL_COND_INACTIVE = 0x5,
	ZL_COND_READ_ONLY = 0xd,
	ZL_COND_FULL = 0xe,
	ZL_COND_OFFLINE = 0xf,
};

/* ZBC-2 REPORT ZONES reporting options (CDB byte 14, bits 5:0). */
enum zl_report_opt {
	ZL_RO_ALL = 0x00,
	ZL_RO_EMPTY = 0x01,
	ZL_RO_IMP_OPEN = 0x02,
	ZL_RO_EXP_OPEN = 0x03,
	ZL_RO_CLOSED = 0x04,
	ZL_RO_FULL = 0x05,
	ZL_RO_READ_ONLY = 0x06,
	ZL_RO_OFFLINE = 0x07,
	ZL_RO_INACTIVE = 0x08,
	ZL_RO_RWP_RECOMMENDED = 0x10,
	ZL_RO_NON_SEQ = 0x11,
	ZL_RO_ALL_BUT_GAP = 0x3e,
	ZL_RO_NOT_WP = 0x3f,
};

/* Zone management operations (ZBC OUT service actions; values are the SA). */
enum zl_zone_op {
	ZL_ZOP_CLOSE = 0x1,
	ZL_ZOP_FINISH = 0x2,
	ZL_ZOP_OPEN = 0x3,
	ZL_ZOP_RESET = 0x4,
};

/* Device model. */
enum zl_model {
	ZL_MODEL_HM = 0, /* host-managed: sequential write required zones */
	ZL_MODEL_HA = 1, /* host-aware: sequential write preferred zones */
};

/* One zone as reported (REPORT ZONES descriptor, in LBAs). */
struct zl_zone_info {
	uint64_t start_lba;   /* ZONE START LBA */
	uint64_t len_lba;     /* ZONE LENGTH */
	uint64_t cap_lba;     /* writable LBAs from start (ZNS-style capacity) */
	uint64_t wp_lba;      /* WRITE POINTER LBA; UINT64_MAX when not valid */
	uint8_t type;         /* enum zl_zone_type */
	uint8_t cond;         /* enum zl_zone_cond */
	bool non_seq;         /* NON_SEQ attribute */
	bool reset_rec;       /* RESET (reset write pointer recommended) */
};

#define ZL_WP_INVALID UINT64_MAX

static inline bool zl_cond_is_open(uint8_t cond)
{
	return cond == ZL_COND_IMP_OPEN || cond == ZL_COND_EXP_OPEN;
}

static inline bool zl_cond_is_active(uint8_t cond)
{
	return zl_cond_is_open(cond) || cond == ZL_COND_CLOSED;
}

#endif /* ZL_TYPES_H */
