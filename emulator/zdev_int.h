/*
 * zdev_int.h — the zone model's private structures, shared by zdev.c (state
 * machine), zdev_report.c (report iteration), zdev_pack.c (persistence
 * words) and zdev_geo.c (geometry checks).  Not for other modules.
 */
#ifndef ZDEV_INT_H
#define ZDEV_INT_H

#include "zdev.h"
#include "zbitmap.h"

/*
 * Per-zone state: 8 bytes, 8-aligned (zdev_read_common() loads a slot in one
 * atomic load).  Zone start and length derive from the index.
 */
struct zdev_zone {
	_Alignas(8) uint32_t wp_off;   /* write pointer, LBAs from the zone start (<= cap) */
	uint8_t type;      /* enum zl_zone_type: CONV, SWR or SWP */
	uint8_t cond;      /* enum zl_zone_cond */
	uint8_t flags;     /* ZDEV_ZF_* */
	uint8_t pad;
};

_Static_assert(sizeof(struct zdev_zone) == 8, "a zone slot is one 64-bit word");

/* A slot read as one word (zdev_read_common()). */
typedef uint64_t __attribute__((may_alias)) zdev_zone_word;

#define ZDEV_ZF_NON_SEQ   0x01
#define ZDEV_ZF_RESET_REC 0x02

/*
 * Bitmaps kept per zone slot (report filters and ALL operations): one per
 * condition, kept by set_cond() in zdev.c (ZS_NOT_WP: conventional zones in
 * condition NOT WP), one per attribute, and the static zone type.
 */
enum zdev_set {
	ZS_EMPTY, ZS_IMP_OPEN, ZS_EXP_OPEN, ZS_CLOSED, ZS_FULL, ZS_READ_ONLY,
	ZS_OFFLINE, ZS_NOT_WP, ZS_RESET_REC, ZS_NON_SEQ,
	ZS_CONV_TYPE,      /* static: conventional slots, whatever their condition */
	ZS_NR
};

struct zdev {
	struct zdev_cfg cfg;
	uint32_t nr_zones;
	uint32_t zone_shift;       /* log2(zone size) when a power of two, else 0 */
	bool zone_pow2;
	uint64_t cap_lba;          /* sequential zone capacity (<= zone size) */
	uint64_t last_len_lba;     /* length of the last slot (the runt zone, if any) */
	uint64_t pblock_lbas;      /* LBAs per physical block */
	struct zdev_zone *zones;
	struct zbitmap set[ZS_NR];
	uint32_t nr_imp_open, nr_exp_open, nr_closed;
	uint32_t imp_close_cursor; /* round-robin choice of the zone to close implicitly */
	zdev_changed_fn changed;
	void *changed_arg;
};

static inline uint64_t zdev_zone_start(const struct zdev *d, uint32_t idx)
{
	return (uint64_t)idx * d->cfg.zone_size_lba;
}

/* Slot length: zone size, or less for the last (runt) zone. */
static inline uint64_t zdev_zone_len(const struct zdev *d, uint32_t idx)
{
	return idx + 1 == d->nr_zones ? d->last_len_lba : d->cfg.zone_size_lba;
}

/* Writable LBAs of a slot: all of a conventional one, the capacity of a sequential one. */
static inline uint64_t zdev_zone_cap(const struct zdev *d, uint32_t idx)
{
	uint64_t len = zdev_zone_len(d, idx);

	if (d->zones[idx].type == ZL_ZONE_TYPE_CONV)
		return len;
	return len < d->cap_lba ? len : d->cap_lba;
}

/* True if slot @idx has LBAs past its capacity that form a ZBC-2 gap zone. */
static inline bool zdev_zone_has_gap(const struct zdev *d, uint32_t idx)
{
	return d->cfg.gap_zones && d->zones[idx].type != ZL_ZONE_TYPE_CONV &&
	       zdev_zone_cap(d, idx) < zdev_zone_len(d, idx);
}

static inline bool zdev_zone_is_seq(const struct zdev *d, uint32_t idx)
{
	return d->zones[idx].type != ZL_ZONE_TYPE_CONV;
}

/*
 * Put zone @idx in the given state, keeping the condition bitmaps and
 * counters (zdev.c); no notification.  For zdev_zone_unpack(), which has
 * checked that the state is one the model can be in.
 */
void zdev_zone_restore(struct zdev *d, uint32_t idx, uint32_t wp_off, uint8_t flags, uint8_t cond);

#endif /* ZDEV_INT_H */
