/*
 * zdev.h — the zone model: geometry, write pointers and the ZBC-2 zone state
 * machine.  The only place where zone rules live.
 *
 * zdev is pure: no I/O, no SCSI, no GLib, no locking.  It counts LBAs.  The
 * caller (zdisk) serializes calls and stores the bytes; zdev says whether an
 * access is allowed, keeps the conditions and write pointers, and tells its
 * owner which zones changed so they can be persisted.
 *
 * Geometry.  The device is cut into zone "slots" of zone_size_lba LBAs (the
 * last one may be shorter: the runt zone).  A slot is conventional or
 * sequential (SWR for host-managed, SWP for host-aware).  A sequential slot
 * may have a capacity below its size; the LBAs past the capacity are either a
 * ZBC-2 gap zone (gap_zones = true: REPORT ZONES shows two zones, the
 * sequential one with length = capacity, then a GAP zone) or a ZNS-style
 * unwritable tail (gap_zones = false: one zone, length = size, cap < size).
 * Zone index i always means slot i: start_lba = i * zone_size_lba.
 *
 * Writes are two-phase so a failed store never moves a write pointer:
 *   zdev_write_check()  validates, and implicitly opens the zone (a real drive
 *                       also opens a zone for a write that later fails);
 *   ...caller stores the bytes...
 *   zdev_write_commit() advances the write pointer over what was stored.
 * The caller must not have two writes to one sequential zone between check
 * and commit (zdisk holds a per-zone write lock, as the kernel does).
 */
#ifndef ZDEV_H
#define ZDEV_H

#include <stddef.h>
#include <stdint.h>

#include "zl_types.h"
#include "zl_err.h"

struct zdev;

/* A range of zone indexes [first, first + count). */
struct zdev_range {
	uint32_t first;
	uint32_t count;
};

#define ZDEV_MAX_CONV_RANGES 64

struct zdev_cfg {
	uint32_t lba_size;         /* bytes per logical block: 512 or 4096 */
	uint32_t pblock_size;      /* bytes per physical block: 512 or 4096, >= lba_size (0 = lba_size) */
	uint64_t capacity_lba;     /* LBAs in the device */
	uint64_t zone_size_lba;    /* LBAs per zone slot; a multiple of the physical block */
	uint64_t zone_cap_lba;     /* writable LBAs per sequential zone; 0 = zone_size_lba */
	bool gap_zones;            /* cap < size shown as ZBC-2 gap zones (else ZNS-style capacity) */
	uint32_t nr_conv_start;    /* conventional zones at LBA 0 */
	uint32_t nr_conv_ranges;   /* further conventional zone ranges anywhere */
	struct zdev_range conv_ranges[ZDEV_MAX_CONV_RANGES];
	enum zl_model model;       /* host-managed or host-aware */
	uint32_t max_open;         /* max open zones (implicit + explicit); 0 = no limit */
	uint32_t max_active;       /* max open + closed zones; 0 = no limit */
	bool urswrz;               /* unrestricted reads of SWR zones (Linux requires true) */
};

/*
 * Zone change notification: called once per zone whose condition, write
 * pointer or attributes changed, after the change, with the condition the
 * zone had before it.  May be NULL.
 */
typedef void (*zdev_changed_fn)(void *arg, uint32_t zone_idx, uint8_t old_cond);

/**
 * zdev_cfg_init() - fill @cfg with defaults: 512-byte blocks, 256 MiB zones,
 * no conventional zones, HM, no limits, URSWRZ on, capacity 0 (must be set).
 */
void zdev_cfg_init(struct zdev_cfg *cfg);

/**
 * zdev_cfg_check() - validate a geometry.
 * Returns 0, or ZL_E_GEOMETRY with a precise message in @msg (what, which
 * value, why) when @msg is not NULL.
 */
int zdev_cfg_check(const struct zdev_cfg *cfg, char *msg, size_t msg_len);

/**
 * zdev_create() - a device with every sequential zone EMPTY.
 * *@out is set only on success; caller owns it (zdev_destroy()).
 * Returns 0, ZL_E_GEOMETRY or -ENOMEM.
 */
int zdev_create(const struct zdev_cfg *cfg, struct zdev **out);
void zdev_destroy(struct zdev *d);

/* Register the change callback (see zdev_changed_fn). */
void zdev_set_changed_cb(struct zdev *d, zdev_changed_fn fn, void *arg);

const struct zdev_cfg *zdev_cfg(const struct zdev *d);
uint32_t zdev_nr_zones(const struct zdev *d);          /* zone slots */
uint32_t zdev_nr_open(const struct zdev *d);           /* implicitly + explicitly open */
uint32_t zdev_nr_imp_open(const struct zdev *d);
uint32_t zdev_nr_exp_open(const struct zdev *d);
uint32_t zdev_nr_closed(const struct zdev *d);
uint32_t zdev_nr_active(const struct zdev *d);         /* open + closed */
size_t zdev_mem_bytes(const struct zdev *d);           /* memory held by the model */

/* Zone index of an LBA (LBA must be < capacity). */
uint32_t zdev_zone_of(const struct zdev *d, uint64_t lba);

/* Condition of zone slot @idx (enum zl_zone_cond). */
uint8_t zdev_zone_cond(const struct zdev *d, uint32_t idx);
/* True if slot @idx is conventional. */
bool zdev_zone_is_conv(const struct zdev *d, uint32_t idx);

/* Fill @zi for zone slot @idx in the ZNS-style view (len = slot size, cap). */
void zdev_zone_get(const struct zdev *d, uint32_t idx, struct zl_zone_info *zi);

/*
 * Write.  @nr_lba may be 0 (a zero-length write at the write pointer
 * implicitly opens the zone; it moves nothing).
 * Returns 0 or: ZL_E_LBA_RANGE, ZL_E_UNALIGNED, ZL_E_WRITE_BOUNDARY,
 * ZL_E_GAP_ZONE, ZL_E_ZONE_FULL, ZL_E_NO_RESOURCES, ZL_E_READ_ONLY,
 * ZL_E_OFFLINE.  May implicitly close another implicitly open zone.
 */
int zdev_write_check(struct zdev *d, uint64_t lba, uint64_t nr_lba);

/*
 * Advance the write pointer(s) over [lba, lba + nr_done_lba): the part of a
 * checked write that was stored (a torn write commits its prefix).  Zones
 * that become full by capacity go FULL.  Conventional LBAs are ignored.
 */
void zdev_write_commit(struct zdev *d, uint64_t lba, uint64_t nr_done_lba);

/*
 * Read.  Returns 0 or ZL_E_LBA_RANGE, ZL_E_GAP_ZONE, ZL_E_OFFLINE,
 * ZL_E_READ_INVALID, ZL_E_READ_BOUNDARY, ZL_E_READ_CROSS_TYPE.
 */
int zdev_read_check(const struct zdev *d, uint64_t lba, uint64_t nr_lba);

/*
 * The common read only: true if every LBA of [lba, lba + nr_lba) is data
 * inside one zone that is not offline: below the write pointer of a
 * sequential zone, or in a conventional one.  zdev_read_prep() then answers
 * 0 with *run = nr_lba and *has_data = true.  False for anything else,
 * including reads that are allowed but meet unwritten LBAs (zdev_read_prep()
 * decides those).  It reads the zone slot with one atomic load and nothing
 * else that changes, so a lock-free reader may call it if it discards the
 * answer when a writer ran meanwhile (zdisk's sequence count).
 */
bool zdev_read_common(const struct zdev *d, uint64_t lba, uint64_t nr_lba);

/*
 * zdev_read_check() and the first zdev_read_run() in one call, with a fast
 * path for the common read inside one zone.  Same errors as
 * zdev_read_check().
 */
int zdev_read_prep(const struct zdev *d, uint64_t lba, uint64_t nr_lba, uint64_t *run,
		   bool *has_data);

/*
 * Split a checked read into runs: returns the number of LBAs from @lba
 * (at most @nr_lba, at least 1 when @nr_lba > 0) that are all data
 * (*@has_data = true: below the write pointer, or conventional) or all
 * unwritten (*@has_data = false: read as zeros).
 */
uint64_t zdev_read_run(const struct zdev *d, uint64_t lba, uint64_t nr_lba, bool *has_data);

/*
 * Zone management on the zone starting at @lba, or on all zones if @all
 * (then @lba is ignored).  ZBC-2 5.x semantics; see zdev.c for the table.
 * Returns 0 or ZL_E_LBA_RANGE, ZL_E_NOT_ZONE_START, ZL_E_NOT_WP_ZONE (also
 * for the start of a gap zone), ZL_E_NO_RESOURCES, ZL_E_READ_ONLY,
 * ZL_E_OFFLINE; -EINVAL for an unknown @op, -ENOMEM (OPEN ALL only).
 */
int zdev_zone_op(struct zdev *d, enum zl_zone_op op, uint64_t lba, bool all);

/*
 * Fault hooks (used by zfault and the control channel, not by hosts):
 * turn a sequential or conventional zone READ ONLY or OFFLINE, or give it
 * back its normal condition (derived from its write pointer: EMPTY, CLOSED
 * or FULL; NOT WP for conventional).  Set or clear the RESET recommended
 * attribute (sequential zones only).  Each notifies a change.  Return 0, or
 * -EINVAL (@idx out of range; @cond not READ ONLY or OFFLINE), and for
 * zdev_zone_set_reset_rec() ZL_E_NOT_WP_ZONE on a conventional zone.
 */
int zdev_zone_set_cond(struct zdev *d, uint32_t idx, enum zl_zone_cond cond);
int zdev_zone_clear_fault(struct zdev *d, uint32_t idx);
int zdev_zone_set_reset_rec(struct zdev *d, uint32_t idx, bool on);

/*
 * Report iteration.  Fills up to @max descriptors of zones matching @opt,
 * starting with the zone that contains @start_lba, in the ZBC view (gap
 * zones as separate descriptors when cfg.gap_zones).  *@next is the LBA to
 * continue from (or capacity when done).  Cost is O(zones returned +
 * log(zones)), not O(zones on the device).
 * Returns the number filled, or ZL_E_LBA_RANGE, or -EINVAL for an unknown
 * reporting option.
 */
int zdev_report(const struct zdev *d, uint64_t start_lba, enum zl_report_opt opt,
		struct zl_zone_info *out, uint32_t max, uint64_t *next);

/*
 * Count the zones matching @opt from @start_lba to the end (what REPORT
 * ZONES puts in ZONE LIST LENGTH with PARTIAL=0).  O(matching zones).
 */
int64_t zdev_report_count(const struct zdev *d, uint64_t start_lba, enum zl_report_opt opt);

/* Persistence: a zone's state packed in one 64-bit word (see docs/FORMAT.md).
 * The word holds the write pointer offset, condition, attributes, type and a
 * 16-bit check over the zone index; an 8-byte aligned store is atomic. */
uint64_t zdev_zone_pack(const struct zdev *d, uint32_t idx);

/*
 * Restore a zone from a packed word (at open).  Open conditions come back
 * CLOSED (or EMPTY at the zone start), as after a power cycle.
 * Returns 0 or ZL_E_CORRUPT (bad check, impossible WP or condition, or a
 * type that differs from the geometry).
 */
int zdev_zone_unpack(struct zdev *d, uint32_t idx, uint64_t word);

/* Human-readable names. */
const char *zl_cond_name(uint8_t cond);
const char *zl_type_name(uint8_t type);
const char *zl_report_opt_name(enum zl_report_opt opt);
int zl_report_opt_parse(const char *s, enum zl_report_opt *opt);

#endif /* ZDEV_H */
