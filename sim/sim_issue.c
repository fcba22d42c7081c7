/*
 * sim_issue.c — the workload path: records from the workload's source
 * (a generator or a trace, sim_wl.h) through a read-ahead that lets
 * fs-core prefetch, into requests (sim_req.c) and their pieces: writes
 * cut into bios that fs-core allocates (throttled while cleaning or a
 * commit must free space), reads of the devices where the blocks live,
 * discards, flushes that wait for a commit.  It is called when the run
 * starts, at arrivals and whenever a bio is over (s->up->kick); what
 * happens to a bio after allocation is the pipeline's (sim_io.c).
 */
#include "sim_run.h"

/* fs-core's prefetch of @r's first block (reads and writes), @stage. */
static inline void la_prefetch(struct sim *s, const struct trc_rec *r, unsigned int stage)
{
	if ((r->op == TRC_OP_WRITE || r->op == TRC_OP_READ) && r->len_bytes)
		fsc_prefetch_file(s->fs, r->offset_bytes / SIM_BLOCK, stage);
}

/*
 * The source's next record through the read-ahead: as it passes from the
 * back of the ring to the front, each record's chain (file map entry, block
 * group map, block group, owner slot) is prefetched a stage at a time, two
 * records apart, so the loads are in flight while earlier records are
 * issued.  The order and content of records do not change.
 */
static int src_next(struct sim *s, struct trc_rec *out)
{
	uint32_t k;
	int ret;

	if (s->cfg->no_prefetch)
		return trc_source_next(s->src, out);
	while (!s->la_ended && s->la_nr < SIM_LA) {
		struct trc_rec *r = &s->la[(s->la_head + s->la_nr) % SIM_LA];

		ret = trc_source_next(s->src, r);
		if (ret <= 0) {
			s->la_ended = true;
			s->la_end = ret;
			break;
		}
		s->la_nr++;
		la_prefetch(s, r, 0);
	}
	if (!s->la_nr)
		return s->la_end;
	*out = s->la[s->la_head];
	s->la_head = (s->la_head + 1) % SIM_LA;
	s->la_nr--;
	/* stage 3 for the record right after this one, 2 two after, 1 four after */
	for (k = 1; k <= 3; k++) {
		uint32_t pos = 2 * (3 - k);

		if (pos < s->la_nr)
			la_prefetch(s, &s->la[(s->la_head + pos) % SIM_LA], k);
	}
	return 1;
}

/* The source's next record into s->next (a lookahead of one, so the end
 * of the workload is known when its last request is issued). */
static void fetch(struct sim *s)
{
	int ret;

	if (s->have_next || s->src_done)
		return;
	ret = src_next(s, &s->next);
	if (ret > 0) {
		s->have_next = true;
		s->next_started = false;
		if (!(s->next.has & TRC_HAS_CONT))
			sim_req_close(s);
	} else {
		s->src_done = true;
		sim_req_close(s);
		if (ret < 0 && !s->err) {
			zl_msgf(s->res->msg, sizeof(s->res->msg), "workload: %s", s->src->msg);
			s->err = ret;
		}
	}
}

/* Arrival of the next record in virtual time (timed replay). */
static inline uint64_t arrival_ns(const struct sim *s)
{
	return (uint64_t)((double)s->next.ts_ns / s->cfg->speed);
}

/*
 * --space-resv linux-6.1: the metadata reservation for the next write bio
 * of @bytes (fs-core's fsc_resv.c).  One that does not fit after the
 * delayed refs and a chunk asks for a commit (the flusher's COMMIT_TRANS)
 * and waits for it to end; fs-core says ENOSPC after three.  1 reserved,
 * 0 wait, negative on error.
 */
static int reserve(struct sim *s, uint64_t bytes)
{
	int ret;

	if (s->resv_held)
		return 1;  /* made before the bio waited for something else */
	for (;;) {
		if (s->in_commit && s->resv_wait)
			return 0;  /* its end kicks us */
		ret = fsc_resv_write(s->fs, bytes, s->now);
		if (ret <= 0) {
			s->resv_wait = false;
			s->resv_held = !ret;
			if (ret && !s->res->msg[0])
				zl_msgf(s->res->msg, sizeof(s->res->msg), "no room for the metadata "
					"reservation of a %llu-byte write after three commits "
					"(--space-resv %s: the kernel's ENOSPC)",
					(unsigned long long)bytes,
					sim_space_resv_name(s->cfg));
			return ret ? ret : 1;
		}
		s->resv_wait = true;
		sim_commit_start(s);
		if (s->err)
			return s->err;
	}
}

/*
 * One write bio of the current write record: 1 when issued, 0 when it must
 * wait (cleaning, a commit, space in flight), negative on error.
 */
static int issue_write_bio(struct sim *s, uint32_t req)
{
	const struct sim_cfg *c = s->cfg;
	/* a writeback run is one extent: one bio (fsc_writeback_next() capped it) */
	uint32_t n = s->wb_run || s->w_left < s->wl.max_bio_blocks ? s->w_left : s->wl.max_bio_blocks;
	struct fsc_bio *bio;
	uint64_t lbn = s->w_lbn;
	int ret;

	sim_clean(s);
	if (s->rc_active)
		return 0;  /* Linux 6.1 reclaim pass: the phase waits for it (docs/VALIDATION.md) */
	/* throttle: wait for relocations or a commit rather than run out */
	if (fsc_min_free_zones(s->fs) <= 1 &&
	    (fsc_stats(s->fs)->nr_relocating || s->in_commit)) {
		/* relocated tree blocks are only freed by a commit */
		if (fsc_stats(s->fs)->nr_relocating_meta && !s->in_commit)
			sim_commit_start(s);
		s->w_space_wait = true;
		return 0;
	}
	if (c->resv_linux61) {
		ret = reserve(s, (uint64_t)n * SIM_BLOCK);
		s->w_space_wait = !ret;
		if (ret <= 0)
			return ret;
	}
	ret = fsc_write_file_hint(s->fs, lbn, n, s->next.has & TRC_HAS_HINT ? s->next.hint :
				  FSC_HINT_NOT_SET, s->now, &bio);
	if (ret == -ENOSPC || ret == -EBUSY) {  /* EBUSY: waiting for an active zone */
		/* like btrfs: commit to unpin, wait for what is in flight */
		if (c->metadata && !s->in_commit)
			sim_commit_start(s);
		if (s->inflight_user || s->in_commit || fsc_stats(s->fs)->nr_relocating) {
			s->w_space_wait = true;
			return 0;
		}
	}
	if (ret)
		return ret;
	s->w_space_wait = false;
	s->resv_held = false;
	s->w_lbn += n;
	s->w_left -= n;
	s->issued++;
	s->inflight_user++;
	bio->worker = req;
	s->reqs[req].pieces++;
	if (c->metadata && c->release_prob > 0 && zl_rng_unit(&s->rng) < c->release_prob) {
		ret = fsc_tree_release(s->fs, lbn, s->now);
		if (ret)
			return ret;
	}
	sim_enqueue(s, bio);
	s->bytes_since_commit += bio->len_bytes;
	if (c->metadata && c->commit_bytes && s->bytes_since_commit >= c->commit_bytes)
		sim_commit_start(s);
	if (c->progress && !(s->issued & 0xfffff))
		fprintf(stderr, "\rsim: %llu/%llu requests", (unsigned long long)s->nr_req_started,
			(unsigned long long)s->wl.total_reqs);
	return 1;
}

/*
 * A read of @len bytes at @phys of RAID5/6 stripe @st (the hypothetical
 * profile): that stripe, or, its device missing, the same range of N-1
 * (N-2) others (sim_r56_read()), each a piece of request @req timed on its
 * device; none left: a read error.
 */
static void read_r56(struct sim *s, uint32_t req, const struct fsc_bg *bg, uint32_t st,
		     uint64_t phys, uint64_t len)
{
	uint32_t src[FSC_MAX_STRIPES], n = sim_r56_read(s, bg, st, src), i;
	int ret;

	if (!n) {  /* too few stripes left (--fail2-dev, --fail3-dev) */
		s->res->nr_user_read_errors++;
		return;
	}
	for (i = 0; i < n; i++) {
		const struct fsc_stripe *x = &bg->stripes[src[i]];
		struct zblk *blk = s->fs->devs[x->dev].blk;

		blk->last_delay_ns = 0;
		ret = zblk_read(blk, x->phys + phys, NULL, len);
		if (ret) {
			s->res->nr_user_read_errors++;
			if (s->cfg->dev_error_abort && !s->err)
				s->err = ret;
		} else if (!i) {  /* the user's bytes once */
			s->res->nr_user_reads++;
			s->res->user_read_bytes += len;
		}
		s->reqs[req].pieces++;
		s->reads_inflight++;
		sim_push_arg(s, sim_dev_time(s, s->fl.tdev[x->dev], ZTIME_READ, x->phys,
					     x->phys + phys, len, blk->last_delay_ns),
			     EV_USER_READ_DONE, req);
	}
}

/*
 * A read reads the blocks where they live now: stored ones on the device
 * (the first copy; device time like any command, so it queues behind
 * cleaning), those still on their way to the device from memory, holes not
 * at all.
 */
static int issue_read(struct sim *s, uint32_t req, uint64_t lbn, uint32_t nr)
{
	struct fsc_file_loc loc;
	int n;

	while (nr) {
		n = fsc_file_locate(s->fs, lbn, nr, &loc);
		if (n < 0)
			return n;
		if (loc.where == FSC_WHERE_HOLE)
			s->res->read_blocks_hole += (uint64_t)n;
		else if (loc.where == FSC_WHERE_PENDING)
			s->res->read_blocks_pending += (uint64_t)n;
		else {
			const struct fsc_bg *bg = loc.bg;
			uint64_t off = loc.logical - bg->start, left = (uint64_t)n * SIM_BLOCK;
			uint64_t phys, run;
			uint32_t idx, st;
			struct zblk *blk;
			int ret;

			while (left) {
				fsc_map_stripe(bg, off, left, &idx, &phys, &run);
				if (fsc_bg_is_r56(bg)) {  /* degraded: N-1 / N-2 reads */
					read_r56(s, req, bg, idx, phys, run);
					off += run;
					left -= run;
					continue;
				}
				st = bg->profile == FSC_RAID0 || bg->profile == FSC_RAID10 ?
				     idx * bg->sub_stripes : 0;
				st = sim_read_stripe(s, bg, st);  /* a missing device: its mirror */
				if (st == SIM_NO_DEV) {  /* no copy left (--fail2-dev) */
					s->res->nr_user_read_errors++;
					off += run;
					left -= run;
					continue;
				}
				blk = s->fs->devs[bg->stripes[st].dev].blk;
				blk->last_delay_ns = 0;
				ret = zblk_read(blk, bg->stripes[st].phys + phys, NULL, run);
				if (ret) {
					s->res->nr_user_read_errors++;
					if (s->cfg->dev_error_abort && !s->err)
						s->err = ret;
				} else {
					s->res->nr_user_reads++;
					s->res->user_read_bytes += run;
				}
				s->reqs[req].pieces++;
				s->reads_inflight++;
				sim_push_arg(s, sim_dev_time(s, s->fl.tdev[bg->stripes[st].dev], ZTIME_READ,
							     bg->stripes[st].phys,
							     bg->stripes[st].phys + phys, run,
							     blk->last_delay_ns),
					     EV_USER_READ_DONE, req);
				off += run;
				left -= run;
			}
		}
		lbn += (uint64_t)n;
		nr -= (uint32_t)n;
	}
	return 0;
}

/* tree blocks an fsync's log writes: the inode's log leaf (its new file
 * extent items and checksums: 16 x 64 KiB extents fit one) and the log
 * root tree's leaf, each CoW'd once per log transaction
 * (btrfs_sync_log()) */
#define SIM_LOG_NODES 2u

static inline bool c_buffered(const struct sim *s)
{
	return s->cfg->buffered_bytes > 0;
}

/*
 * --buffered: a write only dirties its blocks (fsc_buffer_write()); a
 * flush first writes every dirty block back, in file order, one extent per
 * contiguous run (fsc_writeback_next(); btrfs_sync_file() ->
 * btrfs_fdatawrite_range()), its bios pieces of the flush's request.  Then
 * a datasync (the file's fsync) is done: no commit (the kernel writes its
 * tree log instead, not modelled: docs/VALIDATION.md); a sync waits for a
 * commit as with direct writes.
 */
static int issue_buffered(struct sim *s, uint32_t req)
{
	const struct trc_rec *r = &s->next;
	int ret;

	if (r->op == TRC_OP_WRITE) {
		ret = s->w_left ? fsc_buffer_write(s->fs, s->w_lbn, s->w_left) : 0;
		if (ret < 0)
			return ret;
		s->w_left = 0;
		return 1;
	}
	for (;;) {
		if (!s->w_left) {
			ret = fsc_writeback_next(s->fs, (uint32_t)(s->cfg->buffered_bytes / SIM_BLOCK),
						 &s->w_lbn);
			if (ret < 0)
				return ret;
			s->wb_run = ret > 0;
			if (!ret)
				break;
			s->w_left = (uint32_t)ret;
		}
		while (s->w_left && (ret = issue_write_bio(s, req)) > 0)
			;
		if (ret <= 0)
			return ret;  /* waits (0) with the run's rest in w_lbn/w_left */
	}
	if (!s->cfg->metadata)
		return 1;
	if ((r->has & TRC_HAS_DATASYNC) && s->cfg->meta_model == FSC_META_BTRFS) {
		struct fsc_bio *list, *b, *next;

		/* the fsync's tree log, in its own block group (fsc_log_sync()) */
		ret = fsc_log_sync(s->fs, SIM_LOG_NODES, s->now, &list);
		if (ret > 0) {
			for (b = list; b; b = next) {
				next = b->next;
				b->worker = req;
				s->reqs[req].pieces++;
				sim_enqueue(s, b);
			}
			return 1;
		}
		if (ret != -ENOSPC)
			return ret;
		/* no room for the log: btrfs_sync_file() commits instead */
	} else if (r->has & TRC_HAS_DATASYNC) {
		return 1;  /* the file model has no tree log */
	}
	ret = sim_req_flush(s, req);
	return ret ? ret : 1;
}

/*
 * The current record, from where it stopped: 1 when all of it is issued,
 * 0 when it must wait, negative on error.  Writes go through fs-core's
 * allocation in bios; reads read the devices; a discard frees the blocks;
 * a flush waits for a commit (metadata on; else nothing to do); zone ops
 * and other commands are counted and ignored.
 */
static int issue_rec(struct sim *s)
{
	const struct trc_rec *r = &s->next;
	uint64_t lbn = r->offset_bytes / SIM_BLOCK;
	uint32_t nr = (uint32_t)(r->len_bytes / SIM_BLOCK), req;
	int ret = 0;

	if (!s->next_started) {
		if (!(r->has & TRC_HAS_CONT)) {
			s->cur_req = sim_req_new(s, r->op, s->cfg->timing == SIM_TIMING_TIMED ?
						 arrival_ns(s) : s->now);
			if (s->cur_req == NO_REQ)
				return -ENOMEM;
		}
		if (s->cur_req == NO_REQ)
			return -EINVAL;  /* a continuation without its request */
		if (s->reqs[s->cur_req].measured && r->op < TRC_NR_OPS) {
			s->res->req_nr[r->op] += !(r->has & TRC_HAS_CONT);
			s->res->req_bytes[r->op] += r->len_bytes;
		}
		s->next_started = true;
		s->w_lbn = lbn;
		s->w_left = nr;
	}
	req = s->cur_req;
	if (c_buffered(s) && (r->op == TRC_OP_WRITE || r->op == TRC_OP_FLUSH))
		return issue_buffered(s, req);
	switch (r->op) {
	case TRC_OP_WRITE:
		while (s->w_left && (ret = issue_write_bio(s, req)) > 0)
			;
		return ret < 0 ? ret : !s->w_left;
	case TRC_OP_READ:
		ret = nr ? issue_read(s, req, lbn, nr) : 0;
		return ret < 0 ? ret : 1;
	case TRC_OP_DISCARD:
		if (!nr)
			return 1;
		ret = fsc_discard_file(s->fs, lbn, nr, s->now);
		if (ret == -ENOSPC) {
			if (s->cfg->metadata && !s->in_commit)
				sim_commit_start(s);
			if (s->inflight_user || s->in_commit || fsc_stats(s->fs)->nr_relocating)
				return 0;
		}
		if (ret < 0)
			return ret;
		s->res->discarded_blocks += (uint64_t)ret;
		return 1;
	case TRC_OP_FLUSH:
		if (!s->cfg->metadata)
			return 1;  /* nothing to commit */
		ret = sim_req_flush(s, req);
		return ret ? ret : 1;
	default:
		s->res->nr_ignored++;
		return 1;
	}
}

void sim_issue(struct sim *s)
{
	const struct sim_cfg *c = s->cfg;
	int ret;

	if (s->in_issue)
		return;  /* a bio failed inside: the running loop goes on */
	s->in_issue = true;
	for (fetch(s); !s->err && s->have_next; fetch(s)) {
		if (!s->next_started && !(s->next.has & TRC_HAS_CONT)) {
			/* a new request: the queue depth, its arrival, the window */
			if (c->qd && s->inflight_reqs >= c->qd)
				break;
			if (c->timing == SIM_TIMING_TIMED && arrival_ns(s) > s->now) {
				if (!s->arrival_armed) {
					s->arrival_armed = true;
					sim_push(s, arrival_ns(s), EV_ARRIVAL, NULL);
				}
				break;
			}
			if (!s->measuring && s->nr_req_started == s->wl.warm_reqs)
				sim_acct_snapshot(s);
		}
		ret = issue_rec(s);
		if (ret < 0 && !s->err)
			s->err = ret;
		if (ret <= 0)
			break;
		s->have_next = false;
	}
	/* the workload is over: a reclaim pass the last commit woke still runs */
	if (!s->have_next && s->src_done && !s->err && (s->rc_wanted || s->rc_active))
		sim_clean(s);
	s->in_issue = false;
}
