/*
 * fsc_submit.c — the write path after allocation: the file write (CoW of
 * data blocks), the per block group submit buffer (009: out-of-order bios
 * held sorted by logical address, sent when they continue the sequence;
 * below the submit offset = the unaligned case), its expiry (010), and the
 * replacements: no ordering at all, per-BG serialization (the caller holds
 * the lock between allocation and submission, so bios arrive in order),
 * zone append for data (the device picks the position, the file map is
 * fixed up at completion).  Execution on the devices and completion.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fsc_int.h"

int fsc_write_file(struct fsc *fs, uint64_t lbn, uint32_t nr_blocks, uint64_t now_ns,
		   struct fsc_bio **out)
{
	return fsc_write_file_hint(fs, lbn, nr_blocks, FSC_HINT_NOT_SET, now_ns, out);
}

int fsc_write_file_hint(struct fsc *fs, uint64_t lbn, uint32_t nr_blocks, uint32_t hint,
			uint64_t now_ns, struct fsc_bio **out)
{
	uint64_t len = (uint64_t)nr_blocks * fs->cfg.sector_bytes, logical, i, old;
	bool append = fs->cfg.order == FSC_ORDER_APPEND, bt = fsc_bt_on(fs);
	struct fsc_bio *bio;
	struct fsc_bg *bg;
	uint32_t ext_id = 0;
	int ret;

	if (!nr_blocks || lbn + nr_blocks > fs->nr_file_blocks)
		return -EINVAL;
	if (fs->bt.err)
		return fs->bt.err;  /* the btrfs model aborted a transaction: read-only */
	if (fs->ext.err)
		return fs->ext.err;  /* extent tracking ran out of memory: stuck */
	/* the tree first: a failure leaves at most some extra CoW, no data */
	for (i = 0; i < nr_blocks; i++)
		if (i == 0 || (lbn + i) % fs->cfg.leaf_items == 0) {
			ret = fsc_tree_dirty(fs, lbn + i, now_ns);
			if (ret)
				return ret;
		}
	bio = fsc_bio_get(fs);
	if (!bio)
		return -ENOMEM;
	if (fs->ext.of) {  /* before allocating: nothing to undo */
		ret = fsc_ext_new(fs, &ext_id);
		if (ret) {
			fsc_bio_put(fs, bio);
			return ret;
		}
	}
	ret = fsc_alloc_stream(fs, FSC_BG_DATA, fsc_place_user(fs, lbn, hint), len,
			       append ? FSC_NO_OWNER : (uint32_t)lbn, now_ns, &bg, &logical);
	if (ret) {
		if (fs->ext.of)  /* unused: back to the free ids */
			(void)fsc_push_u32(&fs->ext.free, &fs->ext.nr_free, &fs->ext.free_cap, ext_id);
		fsc_bio_put(fs, bio);
		return ret;
	}
	fsc_resv_spent(fs);  /* its reservation is the delayed refs' now */
	if (append)
		bio->token = FSC_TOKEN_BIT | ++fs->bio_seq;
	if (bt)  /* its extent item and checksums (errors stick in bt.err) */
		(void)fsc_bt_data(fs, bg, logical, true, now_ns);
	for (i = 0; i < nr_blocks; i++) {
		old = fs->file_map[lbn + i];
		if (bt)
			(void)fsc_bt_data_free(fs, old, now_ns);  /* the old extent's */
		fs->file_map[lbn + i] = append ? bio->token : logical + i * fs->cfg.sector_bytes;
		if (fs->ext.of) {  /* the old extent freed whole, or a bookend */
			if (old != FSC_NO_ADDR && (ret = fsc_ext_drop(fs, lbn + i, old, now_ns)) &&
			    !fs->ext.err)
				fs->ext.err = ret;
			fsc_ext_ref(fs, lbn + i, ext_id);
		} else if (!(old & FSC_TOKEN_BIT)) {  /* a token: that append frees itself */
			fsc_free_extent(fs, old, fs->cfg.sector_bytes, now_ns);
		}
	}
	bio->logical = logical;
	bio->len_bytes = len;
	bio->bg = bg;
	bio->kind = FSC_KIND_USER;
	bio->owner = (uint32_t)lbn;
	bio->t_alloc_ns = now_ns;
	bio->trans_id = fs->trans_id;
	fs->st.user_bytes += len;
	*out = bio;
	return 0;
}

static void dispatch(struct fsc *fs, struct fsc_bio *bio, uint64_t now_ns)
{
	fsc_active_dispatched(fs, bio->bg, fsc_bg_span(bio->bg, bio->len_bytes));
	bio->t_dispatch_ns = now_ns;
	fs->st.nr_bios_dispatched++;
	if (fs->ops.dispatch) {
		fs->ops.dispatch(fs->ops_arg, bio);
		return;
	}
	fsc_bio_execute(fs, bio);
	fsc_bio_complete(fs, bio, now_ns);
}

/* Held bios are sorted by logical address, highest first: pop from the end. */
static int held_insert(struct fsc_bg *bg, struct fsc_bio *bio)
{
	struct fsc_bio **v = fsc_grow(bg->held, &bg->held_cap, bg->nr_held, sizeof(*bg->held));
	uint32_t i;

	if (!v)
		return -ENOMEM;
	bg->held = v;
	for (i = bg->nr_held; i > 0 && bg->held[i - 1]->logical < bio->logical; i--)
		bg->held[i] = bg->held[i - 1];
	bg->held[i] = bio;
	bg->nr_held++;
	return 0;
}

static bool uses_submit_buffer(const struct fsc *fs, const struct fsc_bio *bio)
{
	if (bio->bg->alloc_type != FSC_ALLOC_SEQ)
		return false;
	switch (fs->cfg.order) {
	case FSC_ORDER_SUBMIT_BUFFER:
		return true;
	case FSC_ORDER_APPEND:      /* data by zone append; the rest keeps the buffer */
		return !fsc_bio_is_append(fs, bio);
	default:
		return false;
	}
}

int fsc_submit(struct fsc *fs, struct fsc_bio *bio, uint64_t now_ns)
{
	struct fsc_bg *bg = bio->bg;
	int ret = 0;

	bio->t_ready_ns = now_ns;
	if (!uses_submit_buffer(fs, bio)) {
		/* a high-water mark here: what was sent, in whatever order */
		if (bg->alloc_type == FSC_ALLOC_SEQ && !bio->token &&
		    bio->logical + fsc_bg_span(bg, bio->len_bytes) > bg->submit_offset)
			bg->submit_offset = bio->logical + fsc_bg_span(bg, bio->len_bytes);
		dispatch(fs, bio, now_ns);
		return 0;
	}
	if (bg->expired) {
		bio->status = FSC_E_EXPIRED;
		fs->st.nr_expired++;
		if (fs->ops.failed)
			fs->ops.failed(fs->ops_arg, bio);
		fsc_bio_finish(fs, bio, now_ns);
		return FSC_E_EXPIRED;
	}
	if (bio->logical > bg->submit_offset) {
		ret = held_insert(bg, bio);
		if (ret)
			return ret;
		fs->st.nr_held++;
		if (++fs->st.sbuf_now > fs->st.sbuf_max)
			fs->st.sbuf_max = fs->st.sbuf_now;
		bg->last_submit_ns = now_ns;
		return 0;
	}
	if (bio->logical < bg->submit_offset) {
		/* 009: the RFC warns and sends it; the device will refuse it */
		fs->st.nr_submit_unaligned++;
		dispatch(fs, bio, now_ns);
		return FSC_E_SUBMIT_UNALIGNED;
	}
	bg->submit_offset += fsc_bg_span(bg, bio->len_bytes);
	dispatch(fs, bio, now_ns);
	while (bg->nr_held && bg->held[bg->nr_held - 1]->logical == bg->submit_offset) {
		struct fsc_bio *next = bg->held[--bg->nr_held];

		fs->st.sbuf_now--;
		bg->submit_offset += fsc_bg_span(bg, next->len_bytes);
		dispatch(fs, next, now_ns);
	}
	bg->last_submit_ns = bg->nr_held ? now_ns : 0;
	return 0;
}

/*
 * RAID5/6 (hypothetical, cfg.raid56_model): the bio's whole rows, data,
 * padding and parity, on every stripe: one write per stripe (a stripe's
 * units of consecutive rows are consecutive in its zone).  The choice for
 * a partial row: every write is padded to whole rows at once (fs-core
 * allocates them, fsc_bg_span()), none is held back for the next write to
 * fill: no read-modify-write ever, at the price of padding.  Data units
 * are stamp blocks; P and Q are computed from them (fsc_r56_fill()) and
 * written as they are, on a device that keeps data.
 */
static int write_r56(struct fsc *fs, struct fsc_bio *bio)
{
	struct fsc_bg *bg = bio->bg;
	uint64_t full = fsc_r56_full(bg), off = bio->logical - bg->start;
	uint64_t span = fsc_bg_span(bg, bio->len_bytes);
	uint64_t phys = off / full * FSC_RAID0_STRIPE_BYTES, len = span / full * FSC_RAID0_STRIPE_BYTES;
	uint8_t *buf = NULL;
	uint32_t s;
	int ret, first = 0;

	for (s = 0; s < bg->nr_stripes; s++) {
		const struct fsc_stripe *st = &bg->stripes[s];
		struct zblk *blk = fs->devs[st->dev].blk;
		bool on_tgt = fsc_rp_on(fs) && st->dev == fs->rp.src && !bg->rp_to_copy;

		if ((blk && fsc_blk_keeps_data(blk)) || (on_tgt && !fs->rp.tgt_dataless)) {
			if (!buf && !(buf = aligned_alloc(4096, len))) {
				if (!first)
					first = -ENOMEM;
				break;
			}
			fsc_r56_fill(bg, s, phys, len, buf);
		}
		if (fsc_rp_on(fs)) {
			ret = fsc_rp_dup_write_buf(fs, bg, st->dev, st->phys + phys, len, bio->kind,
						   buf);
			if (ret && !first)
				first = ret;
		}
		if (!blk)
			continue;  /* degraded */
		ret = zblk_write(blk, st->phys + phys, fsc_blk_keeps_data(blk) ? buf : NULL, len);
		if (ret) {
			fs->st.nr_dev_errors++;
			fs->st.last_dev_error = ret;
			if (!first)
				first = ret;
			continue;
		}
		fs->st.dev_bytes[bio->kind] += len;
	}
	free(buf);
	fs->st.r56_parity_bytes += fsc_r56_nr_parity(bg) * len;
	fs->st.r56_pad_bytes += span - bio->len_bytes;
	return first;
}

static int write_copies(struct fsc *fs, struct fsc_bio *bio)
{
	struct fsc_bg *bg = bio->bg;
	uint64_t off = bio->logical - bg->start, left = bio->len_bytes, phys, run;
	uint32_t idx, s, sub = bg->sub_stripes;
	bool mirror_all = bg->profile != FSC_RAID0 && bg->profile != FSC_RAID10;
	int ret, first = 0;

	if (fsc_bg_is_r56(bg))
		return write_r56(fs, bio);

	while (left) {
		fsc_map_stripe(bg, off, left, &idx, &phys, &run);
		uint32_t s0 = mirror_all ? 0 : idx * sub;
		uint32_t s1 = mirror_all ? bg->nr_stripes : s0 + sub;

		for (s = s0; s < s1; s++) {
			const struct fsc_stripe *st = &bg->stripes[s];
			struct zblk *blk = fs->devs[st->dev].blk;

			if (fsc_rp_on(fs)) {  /* device replace: the target too */
				ret = fsc_rp_dup_write(fs, bg, st->dev, st->phys + phys, run,
						       bio->kind);
				if (ret) {
					fs->st.nr_dev_errors++;
					fs->st.last_dev_error = ret;
					if (!first)
						first = ret;
				}
			}
			if (!blk)
				continue;  /* degraded mirror */
			ret = zblk_write(blk, st->phys + phys, NULL, run);
			if (ret) {
				fs->st.nr_dev_errors++;
				fs->st.last_dev_error = ret;
				if (!first)
					first = ret;
				continue;
			}
			fs->st.dev_bytes[bio->kind] += run;
		}
		off += run;
		left -= run;
	}
	return first;
}

int fsc_bio_execute(struct fsc *fs, struct fsc_bio *bio)
{
	struct fsc_bg *bg = bio->bg;
	const struct fsc_stripe *st = &bg->stripes[0];
	struct zblk *blk;
	uint64_t pos;
	int ret;

	if (!fsc_bio_is_append(fs, bio)) {
		bio->status = write_copies(fs, bio);
		return bio->status;
	}
	/* zone append: one zone only (SINGLE data) */
	blk = fs->devs[st->dev].blk;
	if (bg->nr_stripes != 1 || !blk) {
		bio->status = -EOPNOTSUPP;
		return bio->status;
	}
	ret = zblk_append(blk, st->phys, NULL, bio->len_bytes, &pos);
	if (ret) {
		fs->st.nr_dev_errors++;
		fs->st.last_dev_error = ret;
		bio->status = ret;
		return ret;
	}
	fs->st.dev_bytes[bio->kind] += bio->len_bytes;
	bio->logical = bg->start + (pos - st->phys);
	if (fsc_rp_on(fs)) {  /* device replace: the target's wp is in step */
		ret = fsc_rp_dup_write(fs, bg, st->dev, pos, bio->len_bytes, bio->kind);
		if (ret) {
			fs->st.nr_dev_errors++;
			fs->st.last_dev_error = ret;
			bio->status = ret;
			return ret;
		}
	}
	return 0;
}

/* Zone append completion: the file map learns where the blocks went. */
static void append_fixup(struct fsc *fs, struct fsc_bio *bio, uint64_t now_ns)
{
	struct fsc_bg *bg = bio->bg;
	uint64_t i, nr = bio->len_bytes / fs->cfg.sector_bytes, old = bg->used_bytes;

	for (i = 0; i < nr; i++) {
		uint64_t lbn = bio->owner + i, addr = bio->logical + i * fs->cfg.sector_bytes;

		if (fs->file_map[lbn] == bio->token && !bio->status) {
			fs->file_map[lbn] = addr;
			bg->owner[(addr - bg->start) / bg->unit_bytes] = (uint32_t)lbn + 1;
			continue;
		}
		if (fs->file_map[lbn] == bio->token)
			fs->file_map[lbn] = FSC_NO_ADDR;  /* lost with the failed write */
		bg->used_bytes -= fs->cfg.sector_bytes;  /* overwritten while in flight */
	}
	if (bg->used_bytes < old)
		fsc_reclaim_freed(fs, bg, old);
}

/* Bookkeeping shared by completion and failure. */
void fsc_bio_finish(struct fsc *fs, struct fsc_bio *bio, uint64_t now_ns)
{
	struct fsc_bg *bg = bio->bg, *src = bio->src_bg;

	if (bio->token)
		append_fixup(fs, bio, now_ns);
	bg->nr_inflight--;
	fsc_bg_put(fs, bg, now_ns);
	if (src) {
		src->nr_inflight--;
		fsc_bg_put(fs, src, now_ns);
	}
	fsc_bio_put(fs, bio);
}

void fsc_bio_complete(struct fsc *fs, struct fsc_bio *bio, uint64_t now_ns)
{
	fsc_bio_finish(fs, bio, now_ns);
}

/* 010: fail everything @bg holds, and the block group with it. */
static int expire_bg(struct fsc *fs, struct fsc_bg *bg, uint64_t now_ns)
{
	struct fsc_bio **held = bg->held;
	uint32_t k, nr = bg->nr_held;

	bg->expired = true;
	bg->alloc_done = true;
	for (k = 0; k < 3; k++)
		if (fs->cur[k] == bg)
			fs->cur[k] = NULL;
	fs->st.nr_bg_expired++;
	bg->held = NULL;
	bg->nr_held = bg->held_cap = 0;
	bg->nr_inflight++;  /* keep @bg alive while its bios fail */
	for (k = 0; k < nr; k++) {
		struct fsc_bio *bio = held[k];

		bio->status = FSC_E_EXPIRED;
		fs->st.nr_expired++;
		fs->st.sbuf_now--;
		if (fs->ops.failed)
			fs->ops.failed(fs->ops_arg, bio);
		fsc_bio_finish(fs, bio, now_ns);
	}
	free(held);
	bg->last_submit_ns = 0;
	bg->nr_inflight--;
	fsc_bg_put(fs, bg, now_ns);
	return (int)nr;
}

int fsc_expire(struct fsc *fs, uint64_t now_ns)
{
	uint32_t i = 0;
	int n = 0;

	while (i < fs->nr_slots) {
		struct fsc_bg *bg = fs->bgs[i];

		if (!bg || !bg->nr_held || bg->last_submit_ns + fs->cfg.expire_ns > now_ns) {
			i++;
			continue;
		}
		n += expire_bg(fs, bg, now_ns);
		/* failing its bios may remove @bg and any number of relocation
		 * sources before it: scan again.  This ends: an expired block
		 * group holds nothing and never holds again. */
		i = 0;
	}
	return n;
}

uint64_t fsc_next_expiry_ns(const struct fsc *fs)
{
	uint64_t best = UINT64_MAX;
	uint32_t i;

	for (i = 0; i < fs->nr_slots; i++) {
		const struct fsc_bg *bg = fs->bgs[i];

		if (bg && bg->nr_held && bg->last_submit_ns + fs->cfg.expire_ns < best)
			best = bg->last_submit_ns + fs->cfg.expire_ns;
	}
	return best;
}
