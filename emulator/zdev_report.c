/*
 * zdev_report.c — REPORT ZONES iteration over the zone model, in the ZBC
 * view: a sequential slot whose capacity is below its size shows as two
 * zones when gap zones are on (the sequential zone, length = capacity, then
 * a GAP zone).  Filters walk the per-condition bitmaps, so a filtered report
 * costs O(zones returned), not O(zones).  Also the names of types,
 * conditions and reporting options.  Not the SCSI encoding: zscsi does that.
 */
#include "zdev_int.h"

#include <errno.h>
#include <string.h>
#include <strings.h>

/* A position in the ZBC view: slot @idx, part 0 (the zone) or 1 (its gap). */
struct pos {
	uint32_t idx;
	int part;
};

static void fill_main(const struct zdev *d, uint32_t idx, struct zl_zone_info *zi)
{
	zdev_zone_get(d, idx, zi);
	if (zdev_zone_has_gap(d, idx))
		zi->len_lba = zi->cap_lba;
}

static void fill_gap(const struct zdev *d, uint32_t idx, struct zl_zone_info *zi)
{
	uint64_t cap = zdev_zone_cap(d, idx);

	memset(zi, 0, sizeof(*zi));
	zi->start_lba = zdev_zone_start(d, idx) + cap;
	zi->len_lba = zdev_zone_len(d, idx) - cap;
	zi->cap_lba = 0;
	zi->wp_lba = ZL_WP_INVALID;
	zi->type = ZL_ZONE_TYPE_GAP;
	zi->cond = ZL_COND_NOT_WP;
}

static int opt_set(enum zl_report_opt opt)
{
	switch (opt) {
	case ZL_RO_EMPTY: return ZS_EMPTY;
	case ZL_RO_IMP_OPEN: return ZS_IMP_OPEN;
	case ZL_RO_EXP_OPEN: return ZS_EXP_OPEN;
	case ZL_RO_CLOSED: return ZS_CLOSED;
	case ZL_RO_FULL: return ZS_FULL;
	case ZL_RO_READ_ONLY: return ZS_READ_ONLY;
	case ZL_RO_OFFLINE: return ZS_OFFLINE;
	case ZL_RO_RWP_RECOMMENDED: return ZS_RESET_REC;
	case ZL_RO_NON_SEQ: return ZS_NON_SEQ;
	default: return -1;
	}
}

static bool opt_valid(enum zl_report_opt opt)
{
	return opt == ZL_RO_ALL || opt == ZL_RO_ALL_BUT_GAP || opt == ZL_RO_NOT_WP ||
	       opt == ZL_RO_INACTIVE || opt_set(opt) >= 0;
}

static bool any_gaps(const struct zdev *d)
{
	return d->cfg.gap_zones && d->cap_lba < d->cfg.zone_size_lba;
}

/* Check the arguments common to zdev_report() and zdev_report_count(); *@p
 * is the position that holds @start_lba. */
static int report_start(const struct zdev *d, uint64_t start_lba, enum zl_report_opt opt,
			struct pos *p)
{
	if (!opt_valid(opt))
		return -EINVAL;
	if (start_lba >= d->cfg.capacity_lba)
		return ZL_E_LBA_RANGE;
	p->idx = zdev_zone_of(d, start_lba);
	p->part = zdev_zone_has_gap(d, p->idx) &&
		  start_lba >= zdev_zone_start(d, p->idx) + zdev_zone_cap(d, p->idx);
	return 0;
}

/* First slot whose main zone (not its gap) is at or after @p. */
static uint32_t first_main(struct pos p)
{
	return p.part ? p.idx + 1 : p.idx;
}

static uint64_t pos_lba(const struct zdev *d, struct pos p)
{
	if (p.idx >= d->nr_zones)
		return d->cfg.capacity_lba;
	return zdev_zone_start(d, p.idx) + (p.part ? zdev_zone_cap(d, p.idx) : 0);
}

static struct pos pos_next(const struct zdev *d, struct pos p)
{
	if (p.part == 0 && zdev_zone_has_gap(d, p.idx))
		return (struct pos){ p.idx, 1 };
	return (struct pos){ p.idx + 1, 0 };
}

/*
 * Fill descriptors for the zones of bitmap @b from slot @idx on, up to @max
 * in all (*@n counts them); return the slot to resume from: the next match,
 * or nr_zones when there is none.
 */
static uint32_t walk_set(const struct zdev *d, const struct zbitmap *b, uint32_t idx,
			 struct zl_zone_info *out, uint32_t max, uint32_t *n)
{
	while (*n < max && (idx = zbitmap_next(b, idx)) != ZBITMAP_NONE) {
		fill_main(d, idx, &out[(*n)++]);
		idx++;
	}
	if (idx != ZBITMAP_NONE && *n == max)
		idx = zbitmap_next(b, idx);
	return idx == ZBITMAP_NONE ? d->nr_zones : idx;
}

int zdev_report(const struct zdev *d, uint64_t start_lba, enum zl_report_opt opt,
		struct zl_zone_info *out, uint32_t max, uint64_t *next)
{
	struct pos p;
	uint32_t n = 0;
	int s, ret;

	ret = report_start(d, start_lba, opt, &p);
	if (ret)
		return ret;
	s = opt_set(opt);

	if (opt == ZL_RO_INACTIVE) {
		p.idx = d->nr_zones;            /* no zone domains: never inactive */
	} else if (s >= 0) {
		/* Condition or attribute filter: walk its bitmap. */
		p.idx = walk_set(d, &d->set[s], first_main(p), out, max, &n);
		p.part = 0;
	} else if (opt == ZL_RO_NOT_WP && !any_gaps(d)) {
		p.idx = walk_set(d, &d->set[ZS_NOT_WP], p.idx, out, max, &n);
		p.part = 0;
	} else if (!any_gaps(d)) {
		/* ALL or ALL_BUT_GAP without gap zones: one descriptor per slot. */
		uint32_t idx = p.idx;
		uint32_t end = max < d->nr_zones - idx ? idx + max : d->nr_zones;

		for (; idx < end; idx++)
			zdev_zone_get(d, idx, &out[n++]);
		p.idx = idx;
		p.part = 0;
	} else {
		/* ALL, ALL_BUT_GAP, or NOT_WP with gap zones: walk positions. */
		for (; p.idx < d->nr_zones && n < max; p = pos_next(d, p)) {
			const struct zdev_zone *z = &d->zones[p.idx];

			if (p.part == 1) {
				if (opt == ZL_RO_ALL_BUT_GAP)
					continue;
				fill_gap(d, p.idx, &out[n++]);
				continue;
			}
			if (opt == ZL_RO_NOT_WP && z->cond != ZL_COND_NOT_WP)
				continue;
			fill_main(d, p.idx, &out[n++]);
		}
	}
	if (next)
		*next = pos_lba(d, p);
	return (int)n;
}

int64_t zdev_report_count(const struct zdev *d, uint64_t start_lba, enum zl_report_opt opt)
{
	struct pos p;
	int s, ret;
	uint64_t slots, conv, seq, gaps;

	ret = report_start(d, start_lba, opt, &p);
	if (ret)
		return ret;
	if (opt == ZL_RO_INACTIVE)
		return 0;
	s = opt_set(opt);
	if (s >= 0)
		return (int64_t)zbitmap_count_from(&d->set[s], first_main(p));

	slots = d->nr_zones - p.idx;
	conv = zbitmap_count_from(&d->set[ZS_CONV_TYPE], p.idx);
	seq = slots - conv;
	gaps = 0;
	if (any_gaps(d)) {
		gaps = seq;
		/* The runt zone may be no longer than the capacity: no gap. */
		if (!zdev_zone_has_gap(d, d->nr_zones - 1) &&
		    zdev_zone_is_seq(d, d->nr_zones - 1) && gaps)
			gaps--;
	}
	switch (opt) {
	case ZL_RO_ALL:
		return (int64_t)(slots + gaps - (uint64_t)p.part);
	case ZL_RO_ALL_BUT_GAP:
		return (int64_t)(slots - (uint64_t)p.part);
	case ZL_RO_NOT_WP:
		return (int64_t)(zbitmap_count_from(&d->set[ZS_NOT_WP], p.idx) + gaps);
	default:
		return -EINVAL;
	}
}

/* ---- names ---------------------------------------------------------------- */

const char *zl_cond_name(uint8_t cond)
{
	switch (cond) {
	case ZL_COND_NOT_WP: return "not-wp";
	case ZL_COND_EMPTY: return "empty";
	case ZL_COND_IMP_OPEN: return "imp-open";
	case ZL_COND_EXP_OPEN: return "exp-open";
	case ZL_COND_CLOSED: return "closed";
	case ZL_COND_INACTIVE: return "inactive";
	case ZL_COND_READ_ONLY: return "read-only";
	case ZL_COND_FULL: return "full";
	case ZL_COND_OFFLINE: return "offline";
	default: return "unknown";
	}
}

const char *zl_type_name(uint8_t type)
{
	switch (type) {
	case ZL_ZONE_TYPE_CONV: return "conv";
	case ZL_ZONE_TYPE_SWR: return "seq-req";
	case ZL_ZONE_TYPE_SWP: return "seq-pref";
	case ZL_ZONE_TYPE_GAP: return "gap";
	default: return "unknown";
	}
}

static const struct {
	enum zl_report_opt opt;
	const char *name;
} opt_names[] = {
	{ ZL_RO_ALL, "all" }, { ZL_RO_EMPTY, "empty" }, { ZL_RO_IMP_OPEN, "imp-open" },
	{ ZL_RO_EXP_OPEN, "exp-open" }, { ZL_RO_CLOSED, "closed" }, { ZL_RO_FULL, "full" },
	{ ZL_RO_READ_ONLY, "read-only" }, { ZL_RO_OFFLINE, "offline" },
	{ ZL_RO_INACTIVE, "inactive" }, { ZL_RO_RWP_RECOMMENDED, "reset-rec" },
	{ ZL_RO_NON_SEQ, "non-seq" }, { ZL_RO_ALL_BUT_GAP, "all-but-gap" },
	{ ZL_RO_NOT_WP, "not-wp" },
};

const char *zl_report_opt_name(enum zl_report_opt opt)
{
	for (size_t i = 0; i < sizeof(opt_names) / sizeof(opt_names[0]); i++)
		if (opt_names[i].opt == opt)
			return opt_names[i].name;
	return "unknown";
}

int zl_report_opt_parse(const char *s, enum zl_report_opt *opt)
{
	for (size_t i = 0; i < sizeof(opt_names) / sizeof(opt_names[0]); i++)
		if (!strcasecmp(s, opt_names[i].name)) {
			*opt = opt_names[i].opt;
			return 0;
		}
	return -EINVAL;
}
