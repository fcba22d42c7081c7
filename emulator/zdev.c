/*
 * zdev.c — the ZBC-2 zone state machine: conditions, write pointers,
 * open/active accounting, and the checks every read, write and zone
 * operation passes.  Beside it: geometry validation (zdev_geo.c), report
 * iteration (zdev_report.c) and the persistence word (zdev_pack.c); they
 * call into this file, never the other way but for zdev_cfg_check().
 *
 * This file does no I/O and knows nothing of SCSI: every refusal returns a
 * ZL_E_* reason that zscsi maps to sense data.  It is not thread-safe; zdisk
 * serializes calls.
 *
 * Zone condition transitions for a sequential zone (host-managed, SWR).
 * "-" = success, no change.  Clauses are ZBC-2 (INCITS 550) section numbers.
 *
 *   cond \ event   write(ok)      OPEN          CLOSE          FINISH   RESET
 *   EMPTY          IMP_OPEN (1)   EXP_OPEN (1)  -              FULL     -
 *   IMP_OPEN       - / FULL (2)   EXP_OPEN      CLOSED|EMPTY(3) FULL    EMPTY
 *   EXP_OPEN       - / FULL (2)   -             CLOSED|EMPTY(3) FULL    EMPTY
 *   CLOSED         IMP_OPEN (1)   EXP_OPEN (1)  -              FULL     EMPTY
 *   FULL           ZONE_FULL      - (4)         -              -        EMPTY
 *   READ ONLY      READ_ONLY      READ_ONLY     READ_ONLY      READ_ONLY READ_ONLY
 *   OFFLINE        OFFLINE        OFFLINE       OFFLINE        OFFLINE  OFFLINE
 *
 * (1) 4.4.3.2 / 5.6 (OPEN ZONE): opening needs an active resource when the
 *     zone was EMPTY (max active) and an open resource (max open).  With the
 *     open limit reached, an implicit open, or an explicit open, closes an
 *     IMPLICITLY open zone (chosen round-robin, like null_blk); if every open
 *     zone is explicitly open the command fails with INSUFFICIENT ZONE
 *     RESOURCES (55h/0Eh).  A zero-length write at the write pointer opens
 *     implicitly, as libzbc's state-machine tests expect.
 * (2) 4.4.3.4: the zone becomes FULL when the write pointer reaches the
 *     zone capacity, releasing its open and active resources.
 * (3) 5.3 (CLOSE ZONE): a zone whose write pointer is at its start becomes
 *     EMPTY, otherwise CLOSED.
 * (4) 5.6: OPEN of a FULL or explicitly open zone succeeds without change
 *     (tcmu file_zbc, scsi_debug, libzbc's fake backend agree; NVMe differs).
 * READ ONLY and OFFLINE zones refuse writes and zone operations with their
 * own reason (ZONE IS READ ONLY 27h/08h, ZONE IS OFFLINE 2Ch/0Eh); READ ONLY
 * zones can be read.
 *
 * ALL variants (ZBC OUT with the ALL bit, 5.x): OPEN ALL opens every CLOSED
 * zone and fails up front if explicitly open + closed > max open; CLOSE ALL
 * closes every open zone; FINISH ALL finishes every open or closed zone;
 * RESET ALL resets every open, closed and full zone.  READ ONLY and OFFLINE
 * zones are skipped by ALL operations.
 *
 * Host-aware (SWP) zones: writes anywhere are accepted and may cross zone
 * boundaries; a write not at the write pointer sets NON_SEQ; the write
 * pointer becomes the highest LBA written.  The open/active limits apply to
 * SWR zones only (ZBC-2 B6h reports them as MAXIMUM NUMBER OF OPEN SWR
 * ZONES), so host-aware implicit opens never fail.
 */
#include "zdev_int.h"
#include "zl_hot.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ---- bookkeeping --------------------------------------------------------- */

static int cond_set(uint8_t cond)
{
	switch (cond) {
	case ZL_COND_NOT_WP: return ZS_NOT_WP;
	case ZL_COND_EMPTY: return ZS_EMPTY;
	case ZL_COND_IMP_OPEN: return ZS_IMP_OPEN;
	case ZL_COND_EXP_OPEN: return ZS_EXP_OPEN;
	case ZL_COND_CLOSED: return ZS_CLOSED;
	case ZL_COND_FULL: return ZS_FULL;
	case ZL_COND_READ_ONLY: return ZS_READ_ONLY;
	case ZL_COND_OFFLINE: return ZS_OFFLINE;
	default: return -1;
	}
}

static void count_cond(struct zdev *d, uint8_t cond, int delta)
{
	switch (cond) {
	case ZL_COND_IMP_OPEN: d->nr_imp_open += delta; break;
	case ZL_COND_EXP_OPEN: d->nr_exp_open += delta; break;
	case ZL_COND_CLOSED: d->nr_closed += delta; break;
	default: break;
	}
}

static void notify(struct zdev *d, uint32_t idx, uint8_t old_cond)
{
	if (d->changed)
		d->changed(d->changed_arg, idx, old_cond);
}

/* Move zone @idx to @cond, keeping bitmaps and counters; does not notify.
 * Returns the condition it had. */
static uint8_t set_cond(struct zdev *d, uint32_t idx, uint8_t cond)
{
	struct zdev_zone *z = &d->zones[idx];
	uint8_t old = z->cond;
	int s;

	if (old == cond)
		return old;
	s = cond_set(z->cond);
	if (s >= 0)
		zbitmap_clear(&d->set[s], idx);
	count_cond(d, z->cond, -1);
	z->cond = cond;
	s = cond_set(cond);
	if (s >= 0)
		zbitmap_set(&d->set[s], idx);
	count_cond(d, cond, +1);
	return old;
}

static void set_flags(struct zdev *d, uint32_t idx, uint8_t flags)
{
	struct zdev_zone *z = &d->zones[idx];
	uint8_t diff = z->flags ^ flags;

	if (diff & ZDEV_ZF_NON_SEQ) {
		if (flags & ZDEV_ZF_NON_SEQ)
			zbitmap_set(&d->set[ZS_NON_SEQ], idx);
		else
			zbitmap_clear(&d->set[ZS_NON_SEQ], idx);
	}
	if (diff & ZDEV_ZF_RESET_REC) {
		if (flags & ZDEV_ZF_RESET_REC)
			zbitmap_set(&d->set[ZS_RESET_REC], idx);
		else
			zbitmap_clear(&d->set[ZS_RESET_REC], idx);
	}
	z->flags = flags;
}

/* Close one implicitly open zone to free an open resource (round-robin). */
static void close_one_imp_open(struct zdev *d)
{
	uint32_t idx = zbitmap_next(&d->set[ZS_IMP_OPEN], d->imp_close_cursor);
	uint8_t old;

	if (idx == ZBITMAP_NONE)
		idx = zbitmap_next(&d->set[ZS_IMP_OPEN], 0);
	if (idx == ZBITMAP_NONE)
		return;
	old = set_cond(d, idx, d->zones[idx].wp_off ? ZL_COND_CLOSED : ZL_COND_EMPTY);
	d->imp_close_cursor = idx + 1 < d->nr_zones ? idx + 1 : 0;
	notify(d, idx, old);
}

/*
 * Get an open (and, from EMPTY, an active) resource for zone @idx, closing
 * an implicitly open zone when needed.  Host-aware zones never run out.
 */
static int get_open_resource(struct zdev *d, uint32_t idx)
{
	const struct zdev_zone *z = &d->zones[idx];

	if (z->type != ZL_ZONE_TYPE_SWR)
		return 0;
	if (z->cond == ZL_COND_EMPTY && d->cfg.max_active &&
	    d->nr_imp_open + d->nr_exp_open + d->nr_closed >= d->cfg.max_active)
		return ZL_E_NO_RESOURCES;
	if (d->cfg.max_open && d->nr_imp_open + d->nr_exp_open >= d->cfg.max_open) {
		if (d->nr_imp_open == 0)
			return ZL_E_NO_RESOURCES;
		close_one_imp_open(d);
	}
	return 0;
}

/* ---- creation ------------------------------------------------------------ */

static bool is_conv_slot(const struct zdev_cfg *c, uint32_t idx)
{
	if (idx < c->nr_conv_start)
		return true;
	for (uint32_t i = 0; i < c->nr_conv_ranges; i++)
		if (idx >= c->conv_ranges[i].first &&
		    idx - c->conv_ranges[i].first < c->conv_ranges[i].count)
			return true;
	return false;
}

static uint8_t seq_type(const struct zdev_cfg *c)
{
	return c->model == ZL_MODEL_HA ? ZL_ZONE_TYPE_SWP : ZL_ZONE_TYPE_SWR;
}

int zdev_create(const struct zdev_cfg *cfg, struct zdev **out)
{
	struct zdev *d;
	int ret;

	ret = zdev_cfg_check(cfg, NULL, 0);
	if (ret)
		return ret;
	d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	d->cfg = *cfg;
	if (!d->cfg.pblock_size)
		d->cfg.pblock_size = d->cfg.lba_size;
	if (!d->cfg.zone_cap_lba)
		d->cfg.zone_cap_lba = d->cfg.zone_size_lba;
	d->cap_lba = d->cfg.zone_cap_lba;
	d->pblock_lbas = d->cfg.pblock_size / d->cfg.lba_size;
	d->nr_zones = (uint32_t)((cfg->capacity_lba + cfg->zone_size_lba - 1) / cfg->zone_size_lba);
	d->last_len_lba = cfg->capacity_lba - (uint64_t)(d->nr_zones - 1) * cfg->zone_size_lba;
	d->zone_pow2 = (cfg->zone_size_lba & (cfg->zone_size_lba - 1)) == 0;
	if (d->zone_pow2)
		d->zone_shift = (uint32_t)__builtin_ctzll(cfg->zone_size_lba);
	d->zones = calloc(d->nr_zones, sizeof(*d->zones));
	if (!d->zones)
		goto out_destroy;
	for (int s = 0; s < ZS_NR; s++)
		if (zbitmap_init(&d->set[s], d->nr_zones))
			goto out_destroy;

	/* Every zone starts NOT WP (conventional) or EMPTY (sequential). */
	for (uint32_t i = 0; i < d->nr_zones; i++) {
		struct zdev_zone *z = &d->zones[i];

		if (is_conv_slot(cfg, i)) {
			z->type = ZL_ZONE_TYPE_CONV;
			z->cond = ZL_COND_NOT_WP;
			zbitmap_set(&d->set[ZS_CONV_TYPE], i);
		} else {
			z->type = seq_type(cfg);
			z->cond = ZL_COND_EMPTY;
		}
		zbitmap_set(&d->set[cond_set(z->cond)], i);
	}
	*out = d;
	return 0;

out_destroy:
	zdev_destroy(d);    /* frees what was allocated: the rest is zeroed */
	return -ENOMEM;
}

void zdev_destroy(struct zdev *d)
{
	if (!d)
		return;
	for (int s = 0; s < ZS_NR; s++)
		zbitmap_fini(&d->set[s]);
	free(d->zones);
	free(d);
}

void zdev_set_changed_cb(struct zdev *d, zdev_changed_fn fn, void *arg)
{
	d->changed = fn;
	d->changed_arg = arg;
}

const struct zdev_cfg *zdev_cfg(const struct zdev *d) { return &d->cfg; }
uint32_t zdev_nr_zones(const struct zdev *d) { return d->nr_zones; }
uint32_t zdev_nr_open(const struct zdev *d) { return d->nr_imp_open + d->nr_exp_open; }
uint32_t zdev_nr_imp_open(const struct zdev *d) { return d->nr_imp_open; }
uint32_t zdev_nr_exp_open(const struct zdev *d) { return d->nr_exp_open; }
uint32_t zdev_nr_closed(const struct zdev *d) { return d->nr_closed; }
uint32_t zdev_nr_active(const struct zdev *d)
{
	return d->nr_imp_open + d->nr_exp_open + d->nr_closed;
}

size_t zdev_mem_bytes(const struct zdev *d)
{
	size_t sz = sizeof(*d) + (size_t)d->nr_zones * sizeof(*d->zones);

	for (int s = 0; s < ZS_NR; s++)
		sz += zbitmap_mem_bytes(&d->set[s]);
	return sz;
}

uint32_t zdev_zone_of(const struct zdev *d, uint64_t lba)
{
	if (d->zone_pow2)
		return (uint32_t)(lba >> d->zone_shift);
	return (uint32_t)(lba / d->cfg.zone_size_lba);
}

uint8_t zdev_zone_cond(const struct zdev *d, uint32_t idx)
{
	return d->zones[idx].cond;
}

bool zdev_zone_is_conv(const struct zdev *d, uint32_t idx)
{
	return d->zones[idx].type == ZL_ZONE_TYPE_CONV;
}

void zdev_zone_get(const struct zdev *d, uint32_t idx, struct zl_zone_info *zi)
{
	const struct zdev_zone *z = &d->zones[idx];

	zi->start_lba = zdev_zone_start(d, idx);
	zi->len_lba = zdev_zone_len(d, idx);
	zi->type = z->type;
	zi->cond = z->cond;
	zi->non_seq = z->flags & ZDEV_ZF_NON_SEQ;
	zi->reset_rec = z->flags & ZDEV_ZF_RESET_REC;
	zi->cap_lba = zdev_zone_cap(d, idx);
	if (z->type == ZL_ZONE_TYPE_CONV || z->cond == ZL_COND_OFFLINE ||
	    z->cond == ZL_COND_READ_ONLY)
		zi->wp_lba = ZL_WP_INVALID;
	else
		zi->wp_lba = zi->start_lba + z->wp_off;
}

/* ---- writes -------------------------------------------------------------- */

static int range_check(const struct zdev *d, uint64_t lba, uint64_t nr_lba)
{
	if (lba >= d->cfg.capacity_lba || nr_lba > d->cfg.capacity_lba - lba)
		return ZL_E_LBA_RANGE;
	return 0;
}

static int fault_cond_err(uint8_t cond)
{
	if (cond == ZL_COND_OFFLINE)
		return ZL_E_OFFLINE;
	if (cond == ZL_COND_READ_ONLY)
		return ZL_E_READ_ONLY;
	return 0;
}

/* Conventional write: may cross into further conventional zones only. */
static int write_check_conv(const struct zdev *d, uint32_t idx, uint64_t end)
{
	for (;;) {
		int ret = fault_cond_err(d->zones[idx].cond);
		uint64_t zend;

		if (ret)
			return ret;
		zend = zdev_zone_start(d, idx) + zdev_zone_len(d, idx);
		if (end <= zend)
			return 0;
		idx++;
		if (d->zones[idx].type != ZL_ZONE_TYPE_CONV)
			return ZL_E_WRITE_BOUNDARY;
	}
}

/* Host-aware write: any LBA, may cross zones, never past a capacity gap. */
static int write_check_ha(struct zdev *d, uint32_t idx, uint64_t lba, uint64_t end)
{
	uint32_t first = idx;

	for (;;) {
		const struct zdev_zone *z = &d->zones[idx];
		uint64_t start = zdev_zone_start(d, idx);
		uint64_t zend = start + zdev_zone_len(d, idx);
		int ret = fault_cond_err(z->cond);

		if (ret)
			return ret;
		if (z->type == ZL_ZONE_TYPE_CONV)
			return ZL_E_WRITE_BOUNDARY;
		if (zdev_zone_cap(d, idx) < zdev_zone_len(d, idx) &&
		    (end > start + zdev_zone_cap(d, idx) || lba >= start + zdev_zone_cap(d, idx)))
			return d->cfg.gap_zones ? ZL_E_GAP_ZONE : ZL_E_WRITE_BOUNDARY;
		if (end <= zend)
			break;
		idx++;
	}
	for (uint32_t i = first; i <= idx; i++) {
		uint8_t c = d->zones[i].cond;

		if (c == ZL_COND_EMPTY || c == ZL_COND_CLOSED) {
			set_cond(d, i, ZL_COND_IMP_OPEN);
			notify(d, i, c);
		}
	}
	return 0;
}

int zdev_write_check(struct zdev *d, uint64_t lba, uint64_t nr_lba)
{
	struct zdev_zone *z;
	uint64_t start, cap, end;
	uint32_t idx;
	int ret;

	ret = range_check(d, lba, nr_lba);
	if (ret)
		return ret;
	idx = zdev_zone_of(d, lba);
	z = &d->zones[idx];
	end = lba + nr_lba;
	if (z->type == ZL_ZONE_TYPE_CONV)
		return write_check_conv(d, idx, end);
	if (z->type == ZL_ZONE_TYPE_SWP)
		return write_check_ha(d, idx, lba, end);

	ret = fault_cond_err(z->cond);
	if (ret)
		return ret;
	start = zdev_zone_start(d, idx);
	cap = zdev_zone_cap(d, idx);
	if (lba >= start + cap)
		return d->cfg.gap_zones ? ZL_E_GAP_ZONE : ZL_E_WRITE_BOUNDARY;
	/* Order as scsi_debug: boundary, then full, then write pointer. */
	if (end > start + cap)
		return ZL_E_WRITE_BOUNDARY;
	if (z->cond == ZL_COND_FULL)
		return ZL_E_ZONE_FULL;
	if (lba != start + z->wp_off || nr_lba % d->pblock_lbas)
		return ZL_E_UNALIGNED;
	if (z->cond == ZL_COND_EMPTY || z->cond == ZL_COND_CLOSED) {
		ret = get_open_resource(d, idx);
		if (ret)
			return ret;
		notify(d, idx, set_cond(d, idx, ZL_COND_IMP_OPEN));
	}
	return 0;
}

void zdev_write_commit(struct zdev *d, uint64_t lba, uint64_t nr_done_lba)
{
	uint64_t end = lba + nr_done_lba;

	if (nr_done_lba == 0 || range_check(d, lba, nr_done_lba))
		return;
	for (uint32_t idx = zdev_zone_of(d, lba); lba < end; idx++) {
		struct zdev_zone *z = &d->zones[idx];
		uint64_t start = zdev_zone_start(d, idx);
		uint64_t zend = start + zdev_zone_len(d, idx);
		uint64_t cap = zdev_zone_cap(d, idx);
		uint64_t seg_end = end < zend ? end : zend;
		uint8_t old = z->cond;
		uint64_t new_wp;

		if (z->type == ZL_ZONE_TYPE_CONV || z->cond == ZL_COND_OFFLINE ||
		    z->cond == ZL_COND_READ_ONLY || lba - start >= cap) {
			lba = seg_end;
			continue;
		}
		if (seg_end > start + cap)
			seg_end = start + cap;
		new_wp = seg_end - start;
		if (z->type == ZL_ZONE_TYPE_SWP) {
			if (lba != start + z->wp_off)
				set_flags(d, idx, z->flags | ZDEV_ZF_NON_SEQ);
			if (new_wp < z->wp_off)
				new_wp = z->wp_off;
		}
		z->wp_off = (uint32_t)new_wp;
		if (z->wp_off >= cap)
			set_cond(d, idx, ZL_COND_FULL);
		else if (z->cond == ZL_COND_EMPTY || z->cond == ZL_COND_CLOSED)
			set_cond(d, idx, ZL_COND_IMP_OPEN);
		notify(d, idx, old);
		lba = zend;
	}
}

/* ---- reads --------------------------------------------------------------- */

int zdev_read_check(const struct zdev *d, uint64_t lba, uint64_t nr_lba)
{
	uint32_t idx, first;
	uint64_t end;
	int ret;

	ret = range_check(d, lba, nr_lba);
	if (ret)
		return ret;
	end = lba + nr_lba;
	first = idx = zdev_zone_of(d, lba);
	for (;;) {
		const struct zdev_zone *z = &d->zones[idx];
		uint64_t start = zdev_zone_start(d, idx);
		uint64_t zend = start + zdev_zone_len(d, idx);
		uint64_t s = lba > start ? lba : start;
		uint64_t e = end < zend ? end : zend;
		uint64_t gap_start = start + zdev_zone_cap(d, idx);

		/* [s, e) is the part of the read in this slot. */
		if (zdev_zone_has_gap(d, idx) && (nr_lba ? e > gap_start : s >= gap_start))
			return ZL_E_GAP_ZONE;
		if (z->cond == ZL_COND_OFFLINE)
			return ZL_E_OFFLINE;
		if (d->cfg.model == ZL_MODEL_HM) {
			bool conv = z->type == ZL_ZONE_TYPE_CONV;

			if (conv != (d->zones[first].type == ZL_ZONE_TYPE_CONV))
				return ZL_E_READ_CROSS_TYPE;
			if (!conv && !d->cfg.urswrz) {
				if (idx != first)
					return ZL_E_READ_BOUNDARY;
				if (z->cond != ZL_COND_FULL && e > start + z->wp_off)
					return ZL_E_READ_INVALID;
			}
		}
		if (end <= zend)
			return 0;
		idx++;
	}
}

/* On the READ path: inlined into zdisk_read_try() (zl_hot.h; zdev.h declares it without inline). */
ZL_HOT_INLINE bool zdev_read_common(const struct zdev *d, uint64_t lba, uint64_t nr_lba)
{
	struct zdev_zone z;
	uint64_t start, w;
	uint32_t idx;

	if (!nr_lba || lba >= d->cfg.capacity_lba || nr_lba > d->cfg.capacity_lba - lba)
		return false;
	idx = zdev_zone_of(d, lba);
	/*
	 * One load of the whole 8-byte slot: a reader without the lock (a
	 * seqcount reader, zdisk.c) sees one consistent slot or a torn set it
	 * discards, and never reads a field twice.  Everything else read here
	 * is geometry, fixed at zdev_create().
	 */
	w = __atomic_load_n((const zdev_zone_word *)&d->zones[idx], __ATOMIC_RELAXED);
	memcpy(&z, &w, sizeof(z));
	start = zdev_zone_start(d, idx);
	if (z.cond == ZL_COND_OFFLINE)
		return false;
	/*
	 * Below the write pointer of a sequential zone is written data, inside
	 * the zone and its capacity (so never in the gap past the capacity).
	 * A conventional slot is data to its end.
	 */
	if (z.type != ZL_ZONE_TYPE_CONV)
		return lba + nr_lba <= start + z.wp_off;
	return lba + nr_lba <= start + zdev_zone_len(d, idx);
}

int zdev_read_prep(const struct zdev *d, uint64_t lba, uint64_t nr_lba, uint64_t *run,
		   bool *has_data)
{
	int ret;

	if (zdev_read_common(d, lba, nr_lba)) {
		*has_data = true;
		*run = nr_lba;
		return 0;
	}
	ret = zdev_read_check(d, lba, nr_lba);
	if (ret)
		return ret;
	*run = zdev_read_run(d, lba, nr_lba, has_data);
	return 0;
}

uint64_t zdev_read_run(const struct zdev *d, uint64_t lba, uint64_t nr_lba, bool *has_data)
{
	uint32_t idx;
	const struct zdev_zone *z;
	uint64_t start, zend, wp, run;

	if (nr_lba == 0 || lba >= d->cfg.capacity_lba) {
		*has_data = false;
		return nr_lba;
	}
	idx = zdev_zone_of(d, lba);
	z = &d->zones[idx];
	start = zdev_zone_start(d, idx);
	zend = start + zdev_zone_len(d, idx);
	if (z->type == ZL_ZONE_TYPE_CONV) {
		*has_data = true;
		run = zend - lba;
	} else {
		wp = start + z->wp_off;
		if (lba < wp) {
			*has_data = true;
			run = wp - lba;
		} else {
			*has_data = false;
			run = zend - lba;
		}
	}
	return run < nr_lba ? run : nr_lba;
}

/* ---- zone management ----------------------------------------------------- */

static int zone_open(struct zdev *d, uint32_t idx)
{
	struct zdev_zone *z = &d->zones[idx];
	int ret;

	switch (z->cond) {
	case ZL_COND_EXP_OPEN:
	case ZL_COND_FULL:
		return 0;
	case ZL_COND_IMP_OPEN:
		break;
	case ZL_COND_EMPTY:
	case ZL_COND_CLOSED:
		ret = get_open_resource(d, idx);
		if (ret)
			return ret;
		break;
	default:
		return fault_cond_err(z->cond);
	}
	notify(d, idx, set_cond(d, idx, ZL_COND_EXP_OPEN));
	return 0;
}

static int zone_close(struct zdev *d, uint32_t idx)
{
	struct zdev_zone *z = &d->zones[idx];

	if (!zl_cond_is_open(z->cond))
		return fault_cond_err(z->cond);
	notify(d, idx, set_cond(d, idx, z->wp_off ? ZL_COND_CLOSED : ZL_COND_EMPTY));
	return 0;
}

/*
 * FINISH and RESET: put the write pointer at @wp_off, clear the attributes
 * (NON_SEQ, RESET recommended) and move the zone to @cond; no change and no
 * notification when the zone is already there.
 */
static int zone_move_wp(struct zdev *d, uint32_t idx, uint32_t wp_off, uint8_t cond)
{
	struct zdev_zone *z = &d->zones[idx];
	int ret = fault_cond_err(z->cond);

	if (ret)
		return ret;
	if (z->cond == cond && z->wp_off == wp_off && !z->flags)
		return 0;
	z->wp_off = wp_off;
	set_flags(d, idx, 0);
	notify(d, idx, set_cond(d, idx, cond));
	return 0;
}

static int zone_finish(struct zdev *d, uint32_t idx)
{
	return zone_move_wp(d, idx, (uint32_t)zdev_zone_cap(d, idx), ZL_COND_FULL);
}

static int zone_reset(struct zdev *d, uint32_t idx)
{
	return zone_move_wp(d, idx, 0, ZL_COND_EMPTY);
}

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Apply @fn to every zone in the bitmaps @sets (ascending within each). */
static void for_each_in(struct zdev *d, const int *sets, size_t nr_sets,
			int (*fn)(struct zdev *, uint32_t))
{
	for (size_t s = 0; s < nr_sets; s++) {
		uint32_t idx = zbitmap_next(&d->set[sets[s]], 0);

		while (idx != ZBITMAP_NONE) {
			/* fn moves idx out of this set; continue after it. */
			fn(d, idx);
			idx = zbitmap_next(&d->set[sets[s]], idx + 1);
		}
	}
}

/*
 * OPEN ALL opens the zones that were CLOSED when the command arrived: zones
 * closed implicitly while it runs (to free open resources) stay closed.
 */
static int zone_open_all(struct zdev *d)
{
	uint32_t *list, n = 0, idx;

	if (d->cfg.max_open && d->cfg.model == ZL_MODEL_HM &&
	    (uint64_t)d->nr_exp_open + d->nr_closed > d->cfg.max_open)
		return ZL_E_NO_RESOURCES;
	if (d->nr_closed == 0)
		return 0;
	list = malloc(sizeof(*list) * d->nr_closed);
	if (!list)
		return -ENOMEM;
	for (idx = zbitmap_next(&d->set[ZS_CLOSED], 0); idx != ZBITMAP_NONE;
	     idx = zbitmap_next(&d->set[ZS_CLOSED], idx + 1))
		list[n++] = idx;
	for (uint32_t i = 0; i < n; i++)
		zone_open(d, list[i]);
	free(list);
	return 0;
}

static int zone_op_all(struct zdev *d, enum zl_zone_op op)
{
	static const int close_sets[] = { ZS_IMP_OPEN, ZS_EXP_OPEN };
	static const int finish_sets[] = { ZS_IMP_OPEN, ZS_EXP_OPEN, ZS_CLOSED };
	static const int reset_sets[] = { ZS_IMP_OPEN, ZS_EXP_OPEN, ZS_CLOSED, ZS_FULL,
					  ZS_NON_SEQ, ZS_RESET_REC };

	switch (op) {
	case ZL_ZOP_OPEN:
		return zone_open_all(d);
	case ZL_ZOP_CLOSE:
		for_each_in(d, close_sets, ARRAY_SIZE(close_sets), zone_close);
		return 0;
	case ZL_ZOP_FINISH:
		for_each_in(d, finish_sets, ARRAY_SIZE(finish_sets), zone_finish);
		return 0;
	case ZL_ZOP_RESET:
		for_each_in(d, reset_sets, ARRAY_SIZE(reset_sets), zone_reset);
		return 0;
	}
	return -EINVAL;
}

int zdev_zone_op(struct zdev *d, enum zl_zone_op op, uint64_t lba, bool all)
{
	uint32_t idx;
	uint64_t start;

	if (op < ZL_ZOP_CLOSE || op > ZL_ZOP_RESET)
		return -EINVAL;
	if (all)
		return zone_op_all(d, op);
	if (lba >= d->cfg.capacity_lba)
		return ZL_E_LBA_RANGE;
	idx = zdev_zone_of(d, lba);
	start = zdev_zone_start(d, idx);
	if (lba != start) {
		if (zdev_zone_has_gap(d, idx) && lba == start + zdev_zone_cap(d, idx))
			return ZL_E_NOT_WP_ZONE;   /* the start of a gap zone */
		return ZL_E_NOT_ZONE_START;
	}
	if (d->zones[idx].type == ZL_ZONE_TYPE_CONV)
		return ZL_E_NOT_WP_ZONE;
	switch (op) {
	case ZL_ZOP_OPEN: return zone_open(d, idx);
	case ZL_ZOP_CLOSE: return zone_close(d, idx);
	case ZL_ZOP_FINISH: return zone_finish(d, idx);
	case ZL_ZOP_RESET: return zone_reset(d, idx);
	}
	return -EINVAL;
}

/* ---- fault hooks --------------------------------------------------------- */

int zdev_zone_set_cond(struct zdev *d, uint32_t idx, enum zl_zone_cond cond)
{
	uint8_t old;

	if (idx >= d->nr_zones || (cond != ZL_COND_READ_ONLY && cond != ZL_COND_OFFLINE))
		return -EINVAL;
	if (d->zones[idx].cond == cond)
		return 0;
	old = set_cond(d, idx, cond);
	notify(d, idx, old);
	return 0;
}

/* The condition a zone has when no fault holds it, from its write pointer. */
static uint8_t natural_cond(const struct zdev *d, uint32_t idx)
{
	const struct zdev_zone *z = &d->zones[idx];

	if (z->type == ZL_ZONE_TYPE_CONV)
		return ZL_COND_NOT_WP;
	if (z->wp_off == 0)
		return ZL_COND_EMPTY;
	if (z->wp_off >= zdev_zone_cap(d, idx))
		return ZL_COND_FULL;
	return ZL_COND_CLOSED;
}

int zdev_zone_clear_fault(struct zdev *d, uint32_t idx)
{
	struct zdev_zone *z;
	uint8_t old;

	if (idx >= d->nr_zones)
		return -EINVAL;
	z = &d->zones[idx];
	if (z->cond != ZL_COND_READ_ONLY && z->cond != ZL_COND_OFFLINE)
		return 0;
	old = set_cond(d, idx, natural_cond(d, idx));
	notify(d, idx, old);
	return 0;
}

int zdev_zone_set_reset_rec(struct zdev *d, uint32_t idx, bool on)
{
	struct zdev_zone *z;

	if (idx >= d->nr_zones)
		return -EINVAL;
	z = &d->zones[idx];
	if (z->type == ZL_ZONE_TYPE_CONV)
		return ZL_E_NOT_WP_ZONE;
	set_flags(d, idx, on ? (z->flags | ZDEV_ZF_RESET_REC) : (z->flags & ~ZDEV_ZF_RESET_REC));
	notify(d, idx, z->cond);
	return 0;
}

/* ---- restore (zdev_pack.c) ------------------------------------------------ */

void zdev_zone_restore(struct zdev *d, uint32_t idx, uint32_t wp_off, uint8_t flags, uint8_t cond)
{
	d->zones[idx].wp_off = wp_off;
	set_flags(d, idx, flags);
	set_cond(d, idx, cond);
}
