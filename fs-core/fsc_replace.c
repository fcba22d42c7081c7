/*
 * fsc_replace.c — device replace and RAID rebuild as zoned btrfs does them
 * since Linux 5.12 (cfg.replace = FSC_REPLACE_ZONED; the RFC refuses, 006),
 * in steps the caller interleaves with foreground writes:
 *
 *   start   every block group with a stripe on the source is "to copy"
 *           (dev-replace.c: mark_block_group_to_copy()), listed in the
 *           source's zone order (the dev tree order scrub_enumerate_chunk()
 *           walks);
 *   step    block group after block group, its stripes on the source walked
 *           from zone offset 0 up to the source zone's write pointer (read
 *           again each step: writes go on arriving): live blocks are read
 *           (from the source, or in a rebuild from a surviving mirror) and
 *           written to the same offset of the target; a dead gap before them
 *           is written with zeroes (scrub.c: fill_writer_pointer_gap()), and
 *           so is the tail up to the source's write pointer when the walk
 *           ends (sync_write_pointer_for_zoned() ->
 *           zoned.c: btrfs_sync_zone_write_pointer()): the target zone is
 *           written strictly sequentially and ends with the source's write
 *           pointer.  Then the block group is copied
 *           (btrfs_finish_block_group_to_copy()); a DUP block group's two
 *           stripes are walked in lockstep, as the kernel keeps it read-only
 *           until its last stripe is copied;
 *   writes  to a block group no longer "to copy" (copied, or created since
 *           start) go to the target too, at the same offset
 *           (volumes.c: handle_ops_on_dev_replace() from btrfs_map_block());
 *           zone resets too (extent-tree.c: do_discard_extent()), and
 *           finishes (fsc_rp_dup_write(), fsc_rp_zone_op(): the hooks
 *           fsc_submit.c and fsc_bg.c call).  A write to a block group still
 *           being walked goes to the source only and is copied when the walk
 *           reaches it: the kernel makes that block group read-only
 *           (btrfs_inc_block_group_ro()) instead, so its writes go elsewhere;
 *           here fs-core's allocator is left alone, the result is the same;
 *   finish  the target takes the source's slot (btrfs_dev_replace_finishing()).
 *
 * Not here: timing (the simulator times the I/O a step reports), the
 * superblock copies (the caller's next commit writes them), the parity
 * arithmetic of the hypothetical RAID5/6 (fsc_r56.c: here only which
 * stripes are read), a target failing.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fsc_int.h"

#define FSC_RP_IO_BYTES (1u << 20)  /* largest copy I/O */
/* I/O of one walk chunk: per stripe on the source (DUP: 2) a zero fill, its
 * reads (RAID5/6 reconstruction: up to N - 1) and a write */
#define RP_IOS_PER_CHUNK (FSC_MAX_STRIPES + 4)

/* ---- the layout: which stripes hold the same bytes, where a byte lives ---- */

static bool bg_is_striped(const struct fsc_bg *bg)
{
	return bg->profile == FSC_RAID0 || bg->profile == FSC_RAID10;
}

/* Stripes of @bg holding the same bytes as stripe @s (its mirrors), in @m. */
static uint32_t rp_mirrors(const struct fsc_bg *bg, uint32_t s, uint32_t *m)
{
	uint32_t i, n = 0, sub = bg->sub_stripes ? bg->sub_stripes : 1, lo = 0, hi = 0;

	switch (bg->profile) {
	case FSC_DUP:
	case FSC_RAID1:
		lo = 0;
		hi = bg->nr_stripes;
		break;
	case FSC_RAID10:
		lo = s / sub * sub;
		hi = lo + sub;
		break;
	default:  /* SINGLE, RAID0: one copy */
		return 0;
	}
	for (i = lo; i < hi; i++)
		if (i != s)
			m[n++] = i;
	return n;
}

/* Offset in @bg of byte @p of stripe @s's zone; *@lim = bytes of the zone
 * from @p that map contiguously. */
static uint64_t rp_off(const struct fsc_bg *bg, uint32_t s, uint64_t p, uint64_t *lim)
{
	uint32_t sub = bg->sub_stripes ? bg->sub_stripes : 1, data = bg->nr_stripes / sub;
	uint64_t row = p / FSC_RAID0_STRIPE_BYTES, in = p % FSC_RAID0_STRIPE_BYTES;

	if (!bg_is_striped(bg)) {
		*lim = UINT64_MAX;
		return p;
	}
	*lim = FSC_RAID0_STRIPE_BYTES - in;
	return (row * data + s / sub) * FSC_RAID0_STRIPE_BYTES + in;
}

/* Is the block at offset @off of @bg live (allocated, not freed)? */
static bool rp_live(const struct fsc_bg *bg, uint64_t off)
{
	if (off >= bg->len_bytes)
		return false;
	return off < bg->loaded_bytes || bg->owner[off / bg->unit_bytes] != 0;
}

/*
 * What byte @p of stripe @s's zone holds: 0 nothing live, RP_DATA a live
 * block, RP_PARITY (RAID5/6) the parity, or a dead data unit (freed or
 * padding), of a row position where some data unit holds a live block:
 * the parity covers it, so it is rebuilt too (zeroes there would make the
 * parity wrong for the next reconstruction); *@off = its offset in @bg
 * (data only).
 */
enum { RP_DEAD = 0, RP_DATA = 1, RP_PARITY = 2 };

static int rp_block(const struct fsc_bg *bg, uint32_t s, uint64_t p, uint64_t *off)
{
	uint64_t lim, row, in, full;
	uint32_t nr, np, rel, k;

	if (!fsc_bg_is_r56(bg)) {
		*off = rp_off(bg, s, p, &lim);
		return rp_live(bg, *off) ? RP_DATA : RP_DEAD;
	}
	nr = bg->nr_stripes;
	np = fsc_r56_nr_parity(bg);
	full = fsc_r56_full(bg);
	row = p / FSC_RAID0_STRIPE_BYTES;
	in = p % FSC_RAID0_STRIPE_BYTES;
	rel = (s + nr - fsc_r56_pstripe(bg, row)) % nr;
	if (rel >= np) {
		*off = row * full + (rel - np) * FSC_RAID0_STRIPE_BYTES + in;
		if (rp_live(bg, *off))
			return RP_DATA;
	}
	*off = FSC_NO_ADDR;
	for (k = 0; k < nr - np; k++)
		if (rp_live(bg, row * full + k * FSC_RAID0_STRIPE_BYTES + in))
			return RP_PARITY;
	return RP_DEAD;
}

/* From byte @p of stripe @s's zone, bytes (up to @end) of one liveness: *@live. */
static uint64_t rp_run(const struct fsc_bg *bg, uint32_t s, uint64_t p, uint64_t end, bool *live)
{
	uint64_t q = p, off;

	*live = rp_block(bg, s, p, &off) != RP_DEAD;
	while (q < end) {
		if ((rp_block(bg, s, q, &off) != RP_DEAD) != *live)
			break;
		q += bg->unit_bytes - q % bg->unit_bytes;  /* units divide 64 KiB */
	}
	return (q < end ? q : end) - p;
}

/* The write pointer of the zone at @phys of @blk as an offset into the zone
 * (a conventional zone: its capacity), in *@wp.  0 or a report error,
 * FSC_E_ZONE_OFFLINE for an offline / read-only zone. */
static int rp_zone_wp(struct zblk *blk, uint64_t phys, uint64_t *wp)
{
	struct zblk_zone z;
	int ret = zblk_zone_get(blk, phys, &z);

	if (ret)
		return ret;
	switch (z.cond) {
	case ZL_COND_OFFLINE:
	case ZL_COND_READ_ONLY:
		return FSC_E_ZONE_OFFLINE;
	case ZL_COND_EMPTY:
		*wp = 0;
		break;
	case ZL_COND_FULL:
		*wp = z.cap_bytes;
		break;
	default:
		*wp = z.type == ZL_ZONE_TYPE_CONV ? z.cap_bytes : z.wp_bytes - z.start_bytes;
		break;
	}
	return 0;
}

/* Does @blk keep data?  zblk_zdev refuses buffers (-EOPNOTSUPP): NULL
 * transfers only.  A zero-length read probes it without counting. */
static bool rp_dataless(struct zblk *blk, uint8_t *buf)
{
	return blk->ops->read(blk, 0, buf, 0) == -EOPNOTSUPP;
}

/* What stripe @s's bytes are read from now (the zones at @phys[i] of
 * devices @dev[i]): the source itself; or a present mirror; or, RAID5/6,
 * N - 1 (RAID5) or N - 2 (RAID6) of the other stripes, the first present
 * ones, to reconstruct from.  Returns how many, 0: no surviving copy. */
static uint32_t rp_sources(const struct fsc *fs, const struct fsc_bg *bg, uint32_t s,
			   uint32_t *dev, uint64_t *phys, uint32_t *sidx)
{
	uint32_t m[FSC_MAX_STRIPES], n, i, got = 0, need;

	if (fs->devs[bg->stripes[s].dev].blk) {
		dev[0] = bg->stripes[s].dev;
		phys[0] = bg->stripes[s].phys;
		sidx[0] = s;
		return 1;
	}
	if (fsc_bg_is_r56(bg)) {
		need = bg->nr_stripes - fsc_r56_nr_parity(bg);
		for (i = 0; i < bg->nr_stripes && got < need; i++)
			if (i != s && fs->devs[bg->stripes[i].dev].blk) {
				dev[got] = bg->stripes[i].dev;
				sidx[got] = i;
				phys[got++] = bg->stripes[i].phys;
			}
		return got == need ? got : 0;
	}
	n = rp_mirrors(bg, s, m);
	for (i = 0; i < n; i++)
		if (fs->devs[bg->stripes[m[i]].dev].blk) {
			dev[0] = bg->stripes[m[i]].dev;
			phys[0] = bg->stripes[m[i]].phys;
			sidx[0] = m[i];
			return 1;
		}
	return 0;
}

/* ---- the hooks of the write path and block group removal ---- */

int fsc_rp_dup_write(struct fsc *fs, const struct fsc_bg *bg, uint32_t dev, uint64_t phys,
		     uint64_t len, uint32_t kind)
{
	return fsc_rp_dup_write_buf(fs, bg, dev, phys, len, kind, NULL);
}

int fsc_rp_dup_write_buf(struct fsc *fs, const struct fsc_bg *bg, uint32_t dev, uint64_t phys,
			 uint64_t len, uint32_t kind, const void *buf)
{
	struct fsc_rp *rp = &fs->rp;
	int ret;

	if (dev != rp->src || bg->rp_to_copy)
		return 0;  /* the copy will bring it (is_block_group_to_copy()) */
	ret = zblk_write(rp->tgt, phys, rp->tgt_dataless ? NULL : buf, len);
	if (ret)
		return ret;
	rp->pr.dup_bytes += len;
	rp->pr.tgt_write_bytes += len;
	if (kind < FSC_NR_KINDS)
		fs->st.dev_bytes[kind] += len;  /* a copy like any other */
	return 0;
}

void fsc_rp_zone_op(struct fsc *fs, const struct fsc_bg *bg, uint32_t dev, uint64_t phys,
		    enum zl_zone_op op)
{
	struct fsc_rp *rp = &fs->rp;
	int ret;

	if (dev != rp->src || (op == ZL_ZOP_FINISH && bg->rp_to_copy))
		return;
	ret = zblk_zone_mgmt(rp->tgt, op, phys);
	if (ret) {
		fs->st.nr_dev_errors++;
		fs->st.last_dev_error = ret;
	}
	/* the block group under the walk is going: the next step skips it */
	if (op == ZL_ZOP_RESET && rp->pos < rp->nr_ents && rp->ents[rp->pos].start == bg->start) {
		rp->cursor = 0;
		memset(rp->tgt_wp, 0, sizeof(rp->tgt_wp));
	}
}

/* ---- start ---- */

static int ent_cmp(const void *a, const void *b)
{
	const struct fsc_rp_ent *x = a, *y = b;

	return x->phys < y->phys ? -1 : x->phys > y->phys;
}

/* The lowest stripe of @bg on device @d, or FSC_NO_ADDR. */
static uint64_t bg_phys_on(const struct fsc_bg *bg, uint32_t d)
{
	uint64_t phys = FSC_NO_ADDR;
	uint32_t s;

	for (s = 0; s < bg->nr_stripes; s++)
		if (bg->stripes[s].dev == d && bg->stripes[s].phys < phys)
			phys = bg->stripes[s].phys;
	return phys;
}

/* The target against the source: zone size, size, zone types, emptiness. */
static int rp_check_target(struct fsc *fs, uint32_t src, struct zblk *tgt)
{
	struct fsc_dev t;
	uint64_t need = 0;
	uint32_t i, s, z;
	int ret;

	if (!tgt->zoned || tgt->zone_size_bytes != fs->zone_bytes)
		return FSC_E_TGT_ZONES;
	if (fs->devs[src].blk)
		need = fs->devs[src].blk->capacity_bytes;
	for (i = 0; i < fs->nr_slots; i++) {
		const struct fsc_bg *bg = fs->bgs[i];

		for (s = 0; bg && s < bg->nr_stripes; s++)
			if (bg->stripes[s].dev == src && bg->stripes[s].phys + fs->zone_bytes > need)
				need = bg->stripes[s].phys + fs->zone_bytes;
	}
	if (tgt->capacity_bytes < need)
		return FSC_E_TGT_SMALL;
	ret = fsc_dev_zone_info(&t, tgt);
	if (ret)
		return ret;
	for (z = 0; z < t.nr_zones && !ret; z++)
		if (fsc_bit(t.seq_bits, z) && !fsc_bit(t.empty_bits, z))
			ret = FSC_E_TGT_NOT_EMPTY;
	for (i = 0; i < fs->nr_slots && !ret; i++) {
		const struct fsc_bg *bg = fs->bgs[i];

		for (s = 0; bg && s < bg->nr_stripes && !ret; s++) {
			if (bg->stripes[s].dev != src)
				continue;
			z = (uint32_t)(bg->stripes[s].phys / fs->zone_bytes);
			if (fsc_bit(t.seq_bits, z) != (bg->alloc_type == FSC_ALLOC_SEQ))
				ret = FSC_E_TGT_ZONES;
		}
	}
	fsc_dev_fini(&t);
	return ret;
}

int fsc_replace_start(struct fsc *fs, uint32_t src_dev, struct zblk *tgt, uint64_t now_ns)
{
	struct fsc_rp *rp = &fs->rp;
	uint32_t i, s, n = 0;
	int ret;

	if (!fs->cfg.hmzoned || fs->cfg.replace != FSC_REPLACE_ZONED)
		return -EOPNOTSUPP;
	if (fsc_rp_on(fs))
		return FSC_E_REPLACE_RUNNING;
	if (src_dev >= fs->nr_devs || !tgt)
		return -EINVAL;
	for (i = 0; i < fs->nr_devs; i++)
		if (fs->devs[i].blk == tgt || fs->cfg.devs[i] == tgt)
			return -EEXIST;  /* "target device is in the filesystem!" */
	ret = rp_check_target(fs, src_dev, tgt);
	if (ret)
		return ret;
	memset(rp, 0, sizeof(*rp));
	rp->buf = aligned_alloc(4096, FSC_RP_IO_BYTES);
	rp->ents = calloc(fs->nr_bgs ? fs->nr_bgs : 1, sizeof(*rp->ents));
	if (!rp->buf || !rp->ents) {
		fsc_rp_fini(fs);
		return -ENOMEM;
	}
	rp->src = src_dev;
	rp->pr.src_dev = src_dev;
	rp->pr.rebuild = !fs->devs[src_dev].blk;
	rp->pr.start_ns = now_ns;
	for (i = 0; i < fs->nr_slots; i++) {
		struct fsc_bg *bg = fs->bgs[i];
		uint64_t phys = bg ? bg_phys_on(bg, src_dev) : FSC_NO_ADDR;

		if (phys == FSC_NO_ADDR)
			continue;
		bg->rp_to_copy = true;
		rp->ents[n].start = bg->start;
		rp->ents[n].phys = phys;
		n++;
		for (s = 0; s < bg->nr_stripes; s++) {
			uint32_t d[FSC_MAX_STRIPES], si[FSC_MAX_STRIPES];
			uint64_t p[FSC_MAX_STRIPES], wp;

			if (bg->stripes[s].dev == src_dev && rp_sources(fs, bg, s, d, p, si) &&
			    !rp_zone_wp(fs->devs[d[0]].blk, p[0], &wp))
				rp->pr.alloc_bytes += wp;
		}
	}
	qsort(rp->ents, n, sizeof(*rp->ents), ent_cmp);
	rp->nr_ents = n;
	rp->pr.nr_bgs = n;
	rp->src_dataless = false;
	rp->tgt_dataless = rp_dataless(tgt, rp->buf);
	rp->tgt = tgt;
	rp->pr.running = true;
	return 0;
}

/* ---- step ---- */

struct rp_step {
	struct fsc_rio *ios;
	uint32_t max_ios, nr_ios;
};

static void rp_report(struct rp_step *st, uint32_t dev, bool write, uint8_t kind, uint64_t phys,
		      uint64_t len)
{
	if (!st->ios || st->nr_ios >= st->max_ios)
		return;
	st->ios[st->nr_ios++] = (struct fsc_rio){ .dev = dev, .write = write, .kind = kind,
						  .phys = phys, .len_bytes = len };
}

/* Zeroes on the target over [@phys, @phys + @len) (btrfs_zoned_issue_zeroout()). */
static int rp_zero(struct fsc *fs, struct rp_step *st, uint64_t phys, uint64_t len)
{
	struct fsc_rp *rp = &fs->rp;
	int ret;

	if (!len)
		return 0;
	if (!rp->tgt_dataless)
		memset(rp->buf, 0, len < FSC_RP_IO_BYTES ? len : FSC_RP_IO_BYTES);
	for (uint64_t done = 0; done < len;) {
		uint64_t n = len - done < FSC_RP_IO_BYTES ? len - done : FSC_RP_IO_BYTES;

		ret = zblk_write(rp->tgt, phys + done, rp->tgt_dataless ? NULL : rp->buf, n);
		if (ret)
			return ret;
		done += n;
	}
	rp_report(st, FSC_RIO_TARGET, true, FSC_RIO_ZERO, phys, len);
	rp->pr.zero_bytes += len;
	rp->pr.tgt_write_bytes += len;
	rp->pr.nr_writes++;
	return 0;
}

/* Live bytes of stripe @x of @bg at zone offset @p: read at @rphys[i] of
 * the @nr devices @rdev[i], stripes @ridx[i] (one: a copy; more: a RAID5/6
 * reconstruction, fsc_r56_rebuild() from what was read), written at @wphys
 * of the target. */
static int rp_copy(struct fsc *fs, struct rp_step *st, const struct fsc_bg *bg, uint32_t x,
		   uint64_t p, uint32_t nr, const uint32_t *rdev, const uint32_t *ridx,
		   const uint64_t *rphys, uint64_t wphys, uint64_t len)
{
	struct fsc_rp *rp = &fs->rp;
	uint8_t *src[FSC_MAX_STRIPES] = { 0 };
	bool data = !rp->tgt_dataless;
	uint32_t i;
	int ret;

	for (i = 0; i < nr && data; i++)
		data = !rp_dataless(fs->devs[rdev[i]].blk, rp->buf);
	if (data && nr > 1 && !rp->rbuf) {
		rp->rbuf = aligned_alloc(4096, (size_t)FSC_MAX_STRIPES * FSC_RP_IO_BYTES);
		if (!rp->rbuf)
			return -ENOMEM;
	}
	for (i = 0; i < nr; i++) {
		uint8_t *b = !data ? NULL : nr == 1 ? rp->buf :
			     rp->rbuf + (size_t)ridx[i] * FSC_RP_IO_BYTES;

		ret = zblk_read(fs->devs[rdev[i]].blk, rphys[i], b, len);
		if (ret)
			return ret;
		if (nr > 1)
			src[ridx[i]] = b;
		rp_report(st, rdev[i], false, FSC_RIO_COPY, rphys[i], len);
		rp->pr.read_bytes[rdev[i]] += len;
		rp->pr.nr_reads++;
	}
	/* RAID5/6: the lost stripe's bytes computed from the others' (data
	 * and parity as they are on the devices); a data-less device: the
	 * target's stamp blocks stand for the bytes */
	if (data && nr > 1) {
		ret = fsc_r56_rebuild(bg, x, src, p, len, rp->buf);
		if (ret)
			return ret;
		rp->pr.r56_rebuilt_bytes += len;
	}
	ret = zblk_write(rp->tgt, wphys, data ? rp->buf : NULL, len);
	if (ret)
		return ret;
	rp_report(st, FSC_RIO_TARGET, true, FSC_RIO_COPY, wphys, len);
	rp->pr.copied_bytes += len;
	rp->pr.tgt_write_bytes += len;
	rp->pr.nr_writes++;
	return 0;
}

/* The current entry is done (copied, lost or gone): the next one. */
static void rp_next(struct fsc *fs, struct fsc_bg *bg)
{
	struct fsc_rp *rp = &fs->rp;

	if (bg)
		bg->rp_to_copy = false;  /* btrfs_finish_block_group_to_copy() */
	rp->pos++;
	rp->cursor = 0;
	memset(rp->tgt_wp, 0, sizeof(rp->tgt_wp));
	rp->pr.nr_bgs_done++;
}

/* Stripe @s of @bg has no surviving copy: count its live bytes from @from
 * (those not copied yet) lost, finish
 * its target zone (no data there: the data check reports each block) and
 * take no further allocation into @bg. */
static void rp_lose(struct fsc *fs, struct fsc_bg *bg, uint32_t s, uint64_t from)
{
	struct fsc_rp *rp = &fs->rp;
	uint64_t p, off, lost = 0;

	for (p = from / fs->cfg.sector_bytes * fs->cfg.sector_bytes; p < fs->zone_bytes;
	     p += fs->cfg.sector_bytes)
		if (rp_block(bg, s, p, &off) == RP_DATA)
			lost += fs->cfg.sector_bytes;
	rp->pr.lost_bytes += lost;
	rp->pr.lost_blocks += lost / fs->cfg.sector_bytes;
	(void)zblk_zone_mgmt(rp->tgt, ZL_ZOP_FINISH, bg->stripes[s].phys);
	bg->alloc_done = true;
	for (uint32_t t = 0; t < 3 + FSC_MAX_STREAMS; t++)
		if (fs->cur[t] == bg)
			fs->cur[t] = NULL;
}

int fsc_replace_step(struct fsc *fs, uint64_t max_bytes, uint64_t now_ns, struct fsc_rio *ios,
		     uint32_t max_ios, uint32_t *nr_ios)
{
	struct fsc_rp *rp = &fs->rp;
	struct rp_step st = { .ios = ios, .max_ios = max_ios };
	uint64_t budget = max_bytes ? max_bytes : UINT64_MAX;
	bool lost = false;
	int ret = 0;

	(void)now_ns;
	if (nr_ios)
		*nr_ios = 0;
	if (!fsc_rp_on(fs))
		return FSC_E_NO_REPLACE;
	if (ios && max_ios < RP_IOS_PER_CHUNK)
		return -EINVAL;
	while (rp->pos < rp->nr_ents && budget) {
		const struct fsc_rp_ent *e = &rp->ents[rp->pos];
		struct fsc_bg *bg = fsc_bg_lookup(fs, e->start);
		uint32_t ss[FSC_MAX_STRIPES], n = 0, s, i, k, rdev[FSC_MAX_STRIPES][FSC_MAX_STRIPES];
		uint32_t ridx[FSC_MAX_STRIPES][FSC_MAX_STRIPES];
		uint64_t end[FSC_MAX_STRIPES], rphys[FSC_MAX_STRIPES][FSC_MAX_STRIPES], max_end = 0;
		uint32_t have[FSC_MAX_STRIPES];  /* sources of each stripe on the source */

		if (!bg || bg->start != e->start || bg_phys_on(bg, rp->src) != e->phys) {
			rp_next(fs, NULL);  /* removed since start: nothing to copy */
			continue;
		}
		/* zone appends in flight: their blocks are known at completion
		 * (the kernel waits for them: finish_extent_writes_for_zoned()) */
		if (fs->cfg.order == FSC_ORDER_APPEND && bg->type == FSC_BG_DATA && bg->nr_inflight) {
			ret = -EAGAIN;
			break;
		}
		for (s = 0; s < bg->nr_stripes; s++) {
			if (bg->stripes[s].dev != rp->src)
				continue;
			ss[n] = s;
			have[n] = rp_sources(fs, bg, s, rdev[n], rphys[n], ridx[n]);
			end[n] = 0;
			for (k = 0; k < have[n]; k++) {  /* RAID5/6: all rows end together */
				uint64_t wp;

				ret = rp_zone_wp(fs->devs[rdev[n][k]].blk, rphys[n][k], &wp);
				if (ret)
					goto out;
				if (wp > end[n])
					end[n] = wp;
			}
			if (end[n] > max_end)
				max_end = end[n];
			n++;
		}
		for (i = 0; i < n; i++)
			if (!have[i] && rp->tgt_wp[ss[i]] != UINT64_MAX) {
				rp_lose(fs, bg, ss[i], rp->cursor);
				rp->tgt_wp[ss[i]] = UINT64_MAX;  /* counted once */
				lost = true;
			}
		/* walk [cursor, max_end): every stripe of @bg on the source in
		 * lockstep, the same offsets */
		while (rp->cursor < max_end && budget) {
			uint64_t p = rp->cursor, len, lim = max_end - p;
			bool live;

			if (ios && st.nr_ios + RP_IOS_PER_CHUNK > max_ios)
				goto out;
			if (lim > budget)
				lim = budget;
			if (lim > FSC_RP_IO_BYTES)
				lim = FSC_RP_IO_BYTES;
			len = rp_run(bg, ss[0], p, p + lim, &live);
			for (i = 0; i < n && live; i++) {
				uint64_t l = len, w = bg->stripes[ss[i]].phys;

				if (!have[i] || p >= end[i])
					continue;
				if (p + l > end[i])
					l = end[i] - p;
				ret = rp_zero(fs, &st, w + rp->tgt_wp[ss[i]], p - rp->tgt_wp[ss[i]]);
				for (k = 0; k < have[i]; k++)
					rphys[i][k] += p;
				if (!ret)
					ret = rp_copy(fs, &st, bg, ss[i], p, have[i], rdev[i], ridx[i],
						      rphys[i], w + p, l);
				for (k = 0; k < have[i]; k++)
					rphys[i][k] -= p;
				if (ret)
					goto out;
				rp->tgt_wp[ss[i]] = p + l;
			}
			rp->cursor += len;
			rp->pr.walked_bytes += len;
			budget -= len < budget ? len : budget;
		}
		if (rp->cursor < max_end)
			break;  /* out of budget */
		if (ios && st.nr_ios + RP_IOS_PER_CHUNK > max_ios)
			break;
		/* the tail: the target's write pointer to the source's */
		for (i = 0; i < n; i++) {
			if (!have[i] || rp->tgt_wp[ss[i]] >= end[i])
				continue;
			ret = rp_zero(fs, &st, bg->stripes[ss[i]].phys + rp->tgt_wp[ss[i]],
				      end[i] - rp->tgt_wp[ss[i]]);
			if (ret)
				goto out;
			rp->tgt_wp[ss[i]] = end[i];
		}
		rp_next(fs, bg);
	}
out:
	if (nr_ios)
		*nr_ios = st.nr_ios;
	if (ret)
		return ret;
	if (lost)
		return FSC_E_DATA_LOST;
	return rp->pos < rp->nr_ents;
}

const struct fsc_replace_progress *fsc_replace_progress(const struct fsc *fs)
{
	return &fs->rp.pr;
}

/* ---- finish, cancel, failure ---- */

void fsc_rp_fini(struct fsc *fs)
{
	struct fsc_rp *rp = &fs->rp;
	uint32_t i;

	for (i = 0; i < fs->nr_slots; i++)
		if (fs->bgs[i])
			fs->bgs[i]->rp_to_copy = false;
	free(rp->buf);
	free(rp->rbuf);
	free(rp->ents);
	rp->buf = NULL;
	rp->rbuf = NULL;
	rp->ents = NULL;
	rp->nr_ents = rp->pos = 0;
	rp->tgt = NULL;
	rp->pr.running = false;
}

int fsc_replace_finish(struct fsc *fs, uint64_t now_ns)
{
	struct fsc_rp *rp = &fs->rp;
	struct fsc_dev old, *dev;
	uint32_t d = rp->src, i, s, z;
	int ret;

	if (!fsc_rp_on(fs))
		return FSC_E_NO_REPLACE;
	if (rp->pos < rp->nr_ents)
		return -EBUSY;
	old = fs->devs[d];
	dev = &fs->devs[d];
	ret = fsc_dev_zone_info(dev, rp->tgt);
	if (!ret)
		ret = fsc_sb_place_dev(fs, d);
	if (ret) {
		fsc_dev_fini(dev);
		fs->devs[d] = old;
		return ret;
	}
	fsc_bit_set(dev->used_bits, 0);  /* 007: first zone skipped */
	for (i = 0; i < fs->nr_slots; i++) {
		const struct fsc_bg *bg = fs->bgs[i];

		for (s = 0; bg && s < bg->nr_stripes; s++)
			if (bg->stripes[s].dev == d)
				fsc_zone_take(dev, (uint32_t)(bg->stripes[s].phys / fs->zone_bytes));
	}
	for (z = 1; z < dev->nr_zones; z++)
		if (fsc_zone_is_free(dev, z)) {
			dev->nr_free++;
			zbitmap_set(&dev->free_map, z);
		}
	for (z = 0; old.resets && z < old.nr_zones && z < dev->nr_zones; z++)
		dev->resets[z] = old.resets[z];
	dev->cursor = old.cursor;
	dev->nr_active = old.nr_active + (dev->sb_log && !old.sb_log);
	fsc_dev_fini(&old);
	fs->cfg.devs[d] = rp->tgt;
	rp->pr.end_ns = now_ns;
	fsc_rp_fini(fs);
	return rp->pr.lost_bytes ? FSC_E_DATA_LOST : 0;
}

int fsc_replace_cancel(struct fsc *fs)
{
	if (!fsc_rp_on(fs))
		return FSC_E_NO_REPLACE;
	fsc_rp_fini(fs);
	return 0;
}

int fsc_dev_fail(struct fsc *fs, uint32_t dev)
{
	if (dev >= fs->nr_devs)
		return -EINVAL;
	fs->devs[dev].blk = NULL;
	fs->cfg.devs[dev] = NULL;
	if (fsc_rp_on(fs) && dev == fs->rp.src)
		fs->rp.pr.rebuild = true;  /* the copy goes on from the mirrors */
	return 0;
}

/* ---- the data check ---- */

static uint64_t le64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

int fsc_dev_verify(struct fsc *fs, uint32_t d, struct fsc_verify *out)
{
	uint32_t sb = fs->cfg.sector_bytes, i, s, k, m[FSC_MAX_STRIPES], nm;
	struct zblk *blk;
	uint8_t *buf, *want;
	uint64_t p, wp, mwp;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	out->first_bad = UINT64_MAX;
	if (d >= fs->nr_devs || !(blk = fs->devs[d].blk))
		return -EINVAL;
	buf = aligned_alloc(4096, 2 * (sb < 4096 ? 4096 : sb));
	if (!buf)
		return -ENOMEM;
	want = buf + (sb < 4096 ? 4096 : sb);
	out->stamps = !rp_dataless(blk, buf);
	for (i = 0; i < fs->nr_slots; i++) {
		struct fsc_bg *bg = fs->bgs[i];

		for (s = 0; bg && s < bg->nr_stripes; s++) {
			uint64_t phys = bg->stripes[s].phys;

			if (bg->stripes[s].dev != d)
				continue;
			nm = rp_mirrors(bg, s, m);
			if (bg->alloc_type == FSC_ALLOC_SEQ && !rp_zone_wp(blk, phys, &wp))
				for (k = 0; k < nm; k++) {
					struct zblk *mb = fs->devs[bg->stripes[m[k]].dev].blk;

					if (mb && !rp_zone_wp(mb, bg->stripes[m[k]].phys, &mwp) &&
					    mwp != wp)
						out->nr_wp_bad++;
				}
			for (p = 0; p < fs->zone_bytes; p += sb) {
				uint64_t off, stamp;
				int what = rp_block(bg, s, p, &off);
				bool ok;

				if (what == RP_DEAD)
					continue;
				out->nr_blocks++;
				ok = !zblk_read(blk, phys + p, out->stamps ? buf : NULL, sb);
				if (what == RP_PARITY)
					out->nr_r56_blocks++;
				if (ok && out->stamps && fsc_bg_is_r56(bg)) {
					/* the whole block: data its stamp, parity
					 * the parity of the row's data stamps */
					fsc_r56_fill(bg, s, p, sb, want);
					ok = !memcmp(buf, want, sb);
				} else if (ok && out->stamps) {
					stamp = le64(buf);
					ok = stamp == phys + p;
					for (k = 0; k < nm && !ok; k++)
						ok = stamp == bg->stripes[m[k]].phys + p;
				}
				if (!ok) {
					out->nr_bad++;
					if (what == RP_DATA && bg->start + off < out->first_bad)
						out->first_bad = bg->start + off;
				}
			}
		}
	}
	free(buf);
	if (out->nr_bad || out->nr_wp_bad)
		ret = FSC_E_VERIFY;
	return ret;
}
