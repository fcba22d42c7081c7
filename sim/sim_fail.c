/*
 * sim_fail.c — a device failure during a run and fs-core's rebuild of it
 * onto a new device (--fail-dev, --fail-at-write, --rebuild-prio,
 * --rebuild-depth, --fail2-dev, --fail2-at; docs/SIM.md "Device failure and rebuild"),
 * while the workload goes on.  When fs-core's user bytes reach
 * --fail-at-write, device N fails (fsc_dev_fail(): writes go on degraded,
 * reads go to the mirror) and fs-core's zoned replace starts onto the
 * spare the run opened beside the array (fsc_replace_start(): a rebuild,
 * the source missing).  The rebuild runs in batches of rb_step_bytes (8
 * MiB) of the source's space, as Linux's scrub-based copy does
 * (SCRUB_TOTAL_STRIPES x BTRFS_STRIPE_LEN, fs/btrfs/scrub.c:49-59 in 6.12):
 * fsc_replace_step() until the batch is full, executed on the zone models
 * at once, the I/O it made reported; the batch's reads are all queued on
 * the surviving devices at its dispatch (contiguous ones merged), and its
 * writes go to the new device in order once its reads are in and the
 * batch before it has been written (flush_scrub_stripes(), scrub.c:1853:
 * wait for the reads, scrub_write_sectors(), wait for the writes).  With
 * --rebuild-depth N above 1 up to N batches are in flight: the next
 * batch's reads go while this one's writes stream (not Linux: it waits for
 * the writes before it scans on; 1 is the default).  All on the run's
 * device timing (the drive model with --timing-model).  Foreground writes
 * to block groups already copied are duplicated to the new device by
 * fs-core and timed there (sim_write_dev()).  After the last batch the new
 * device takes the slot (fsc_replace_finish()) and the data check reads
 * every live block back from it (fsc_dev_verify()).  A second failure
 * during the rebuild (--fail2-dev, when the rebuild has walked --fail2-at
 * bytes) is a second fsc_dev_fail(): on RAID1 every block group on both
 * devices is lost, fs-core counts it, and the run ends with
 * FSC_E_DATA_LOST.
 *
 * Pacing (--rebuild-prio).  The simulator has no device queues (sim_time.c:
 * a command goes to the drive when it is dispatched), so priority is the
 * time a batch is dispatched: idle = only when no foreground bio, read or
 * commit is in flight, or when the foreground's writer waits for space
 * (degraded, fs-core allocates on the present devices only, and the new
 * device's free zones come at the end: that wait only the rebuild ends;
 * a batch in the drive still delays a foreground arrival: up to one
 * batch); share:X = after a batch that took D from its dispatch to its
 * last write (depth 1; above: D = its reads), the next waits
 * D (1 - X) / X, so the rebuild holds at most X of the time (not
 * work-conserving: the pause is kept even when the foreground leaves the
 * drives idle).
 *
 * RAID5/6 (--raid56-model, HYPOTHETICAL): the same, the batch's reads
 * being N-1 (RAID5) / N-2 (RAID6) survivors' for each byte rebuilt
 * (fs-core reconstructs from what they hold); --fail3-dev fails a third
 * device with the second (RAID6 survives the second, not the third).
 *
 * Not here: the extent-level rebuild model of big arrays (sim_rebuild.c),
 * the copy itself (fs-core's fsc_replace.c), a failure of the new device.
 */
#include <string.h>

#include "sim_run.h"

void sim_fail_init(struct sim *s)
{
	uint32_t i;

	for (i = 0; i < FSC_MAX_DEVS; i++)
		s->fl.tdev[i] = i;
	s->fl.on = s->cfg->fail_dev != SIM_NO_DEV;
	s->fl.spare = s->cfg->nr_devs;
	s->res->fail.dev = s->cfg->fail_dev;
	s->res->fail.dev2 = s->cfg->fail2_dev;
}

/* ---- the failures ---- */

static void arm_dispatch(struct sim *s, uint64_t t)
{
	if (s->fl.dispatch_armed || s->fl.copied || s->err)
		return;
	s->fl.dispatch_armed = true;
	sim_push(s, t, EV_RB_STEP, NULL);
}

static void fail_first(struct sim *s)
{
	struct sim_fail_result *r = &s->res->fail;
	const struct sim_cfg *c = s->cfg;
	int ret;

	r->failed = true;
	r->fail_ns = s->now;
	ret = fsc_dev_fail(s->fs, c->fail_dev);
	if (!ret)
		ret = fsc_replace_start(s->fs, c->fail_dev, s->devs.blk[s->fl.spare], s->now);
	if (ret) {
		zl_msgf(s->res->msg, sizeof(s->res->msg), "--fail-dev %u: the rebuild did not "
			"start: %s", c->fail_dev, fsc_strerror(ret));
		s->err = ret;
		return;
	}
	r->started = true;
	r->start_ns = s->now;
	r->alloc_bytes = fsc_replace_progress(s->fs)->alloc_bytes;
	s->fl.running = true;
	arm_dispatch(s, s->now);
}

static void fail_second(struct sim *s)
{
	struct sim_fail_result *r = &s->res->fail;

	r->fail2 = true;
	r->fail2_ns = s->now;
	if (fsc_dev_fail(s->fs, s->cfg->fail2_dev) && !s->err)
		s->err = -EINVAL;
	/* --fail3-dev: with it (RAID6 survives a second failure, not a third) */
	if (s->cfg->fail3_dev != SIM_NO_DEV && fsc_dev_fail(s->fs, s->cfg->fail3_dev) && !s->err)
		s->err = -EINVAL;
}

/* The devices have nothing of the foreground: no bio, no read, no commit in
 * flight; or the foreground's writer waits for space (or the commit that
 * frees it), which only the rebuild may bring: degraded, fs-core allocates
 * on the present devices, and the new device's zones come at the end.  Such
 * a wait is idle for the rebuild's priority: else the writer's commits,
 * started again each time one ends without room, would keep the rebuild
 * out, and neither would move (test_sim_fail.c: the second failure). */
static bool fg_idle(const struct sim *s)
{
	if (s->w_space_wait)
		return true;
	return !s->fl.dev_inflight && !s->reads_inflight && !s->in_commit;
}

void sim_fail_poll(struct sim *s)
{
	if (!s->fl.on || s->err)
		return;
	if (!s->res->fail.failed) {
		if (fsc_stats(s->fs)->user_bytes >= s->cfg->fail_at_bytes)
			fail_first(s);
		return;
	}
	if (s->fl.wait_idle && fg_idle(s)) {
		s->fl.wait_idle = false;
		arm_dispatch(s, s->now);
	}
}

/* ---- the batches ---- */

/* A read run of the batch goes to its source (the reads of a batch are all
 * queued at once, in the source's order: scrub's reads, 8 stripes at a
 * time as the scan finds them, submit_initial_group_read()). */
static void read_run(struct sim *s, struct sim_rb_batch *b, uint32_t dev, uint64_t phys,
		     uint64_t len)
{
	uint64_t zb = s->cfg->zone_bytes, t;

	if (!len)
		return;
	t = sim_dev_time(s, s->fl.tdev[dev], ZTIME_READ, phys / zb * zb, phys, len, 0);
	if (t > b->reads_ns)
		b->reads_ns = t;
}

/*
 * Dispatch the next batch: fs-core's copy of up to rb_step_bytes more of the
 * source's space (fsc_replace_step() until then, executed on the zone
 * models at once), its reads timed on the sources now, contiguous ones
 * merged into one command (the block layer merges the scrub's queued
 * contiguous bios); its target writes kept, merged into runs in their
 * order, for when its reads are in.
 */
static void batch_start(struct sim *s)
{
	const struct sim_cfg *c = s->cfg;
	const struct fsc_replace_progress *pr = fsc_replace_progress(s->fs);
	struct sim_fail *f = &s->fl;
	struct sim_rb_batch *b;
	uint64_t walked0 = pr->walked_bytes, rphys = 0, rlen = 0, t, w;
	uint32_t i, n, rdev = 0;
	int ret = 1;

	f->dispatch_armed = false;
	if (s->err || f->copied)
		return;
	if (f->nr >= c->rb_depth) {
		f->blocked = true;  /* EV_RB_DONE dispatches */
		return;
	}
	if (c->rb_prio == SIM_RB_IDLE && f->nr_batches && !fg_idle(s)) {
		f->wait_idle = true;  /* sim_fail_poll() dispatches */
		return;
	}
	b = &f->b[(f->head + f->nr) % SIM_RB_DEPTH_MAX];
	memset(b, 0, sizeof(*b));
	b->start_ns = b->reads_ns = s->now;
	while (pr->walked_bytes - walked0 < c->rb_step_bytes &&
	       b->nr_runs + SIM_RB_IOS <= SIM_RB_RUNS) {
		if (c->fail2_dev != SIM_NO_DEV && !s->res->fail.fail2 &&
		    pr->walked_bytes >= c->fail2_at_bytes)
			fail_second(s);
		n = 0;
		w = pr->walked_bytes;
		ret = fsc_replace_step(s->fs, c->rb_step_bytes - (pr->walked_bytes - walked0), s->now,
				       f->ios, SIM_RB_IOS, &n);
		if (ret < 0 && ret != FSC_E_DATA_LOST) {
			zl_msgf(s->res->msg, sizeof(s->res->msg), "rebuild of device %u: step: %s",
				c->fail_dev, fsc_strerror(ret));
			s->err = ret;
			return;
		}
		s->res->fail.nr_steps++;
		for (i = 0; i < n; i++) {
			const struct fsc_rio *io = &f->ios[i];

			if (io->write) {
				uint32_t k = b->nr_runs;

				if (k && b->phys[k - 1] + b->len_bytes[k - 1] == io->phys) {
					b->len_bytes[k - 1] += io->len_bytes;
				} else {
					b->phys[k] = io->phys;
					b->len_bytes[k] = io->len_bytes;
					b->nr_runs++;
				}
				continue;
			}
			if (rlen && io->dev == rdev && rphys + rlen == io->phys) {
				rlen += io->len_bytes;
				continue;
			}
			read_run(s, b, rdev, rphys, rlen);
			rdev = io->dev;
			rphys = io->phys;
			rlen = io->len_bytes;
		}
		if (ret == 0 || (!n && pr->walked_bytes == w))
			break;  /* done, or no progress: the next batch calls again */
	}
	read_run(s, b, rdev, rphys, rlen);
	b->last = ret == 0;
	f->copied = b->last;
	f->nr++;
	f->nr_batches++;
	s->res->fail.nr_batches++;
	/* a batch is written once its reads are in (flush_scrub_stripes(): wait
	 * for the reads, then scrub_write_sectors()), after the batch before
	 * it (the target's zones are written in order) */
	t = b->reads_ns > f->wr_tail_ns ? b->reads_ns : f->wr_tail_ns;
	f->wr_tail_ns = t;
	sim_push(s, t, EV_RB_WRITES, NULL);
}

/* The oldest batch whose writes are not timed: its reads are in, time them
 * on the new device; with --rebuild-depth above 1 the next batch's reads
 * may go now (paced), while these writes stream. */
static void batch_writes(struct sim *s)
{
	const struct sim_cfg *c = s->cfg;
	struct sim_fail *f = &s->fl;
	struct sim_rb_batch *b = &f->b[(f->head + f->nr_timed) % SIM_RB_DEPTH_MAX];
	uint64_t zb = c->zone_bytes, done = s->now, t;
	uint32_t i;

	for (i = 0; i < b->nr_runs; i++) {
		t = sim_dev_time(s, f->spare, ZTIME_WRITE, b->phys[i] / zb * zb, b->phys[i],
				 b->len_bytes[i], 0);
		if (t > done)
			done = t;
	}
	if (done < f->done_tail_ns)
		done = f->done_tail_ns;
	f->done_tail_ns = done;
	f->nr_timed++;
	sim_push(s, done, EV_RB_DONE, NULL);
	if (c->rb_depth > 1) {
		t = s->now;
		if (c->rb_prio == SIM_RB_SHARE)  /* the sources' time: the batch's reads */
			t += (uint64_t)((double)(b->reads_ns - b->start_ns) * (1 - c->rb_share) /
					c->rb_share);
		arm_dispatch(s, t);
	}
}

/* Bytes of the zone at @phys of @b below its write pointer (0: conventional). */
static uint64_t zone_used(struct zblk *b, uint64_t phys)
{
	struct zblk_zone z;

	if (!b || zblk_zone_get(b, phys, &z) || z.type == ZL_ZONE_TYPE_CONV)
		return 0;
	if (z.cond == ZL_COND_EMPTY)
		return 0;
	if (z.cond == ZL_COND_FULL)
		return z.cap_bytes;
	return z.wp_bytes - z.start_bytes;
}

/* At the end of the copy: the failed device's allocated space as its
 * mirrors show it, and what the new device holds, over all its zones. */
static void rebuild_sizes(struct sim *s, struct sim_fail_result *r)
{
	const struct fsc *fs = s->fs;
	struct zblk *tgt = s->devs.blk[s->fl.spare];
	uint32_t d = s->cfg->fail_dev, i, k, m;
	uint64_t z;

	r->alloc_end_bytes = r->tgt_used_bytes = 0;
	for (i = 0; i < fs->nr_slots; i++) {
		const struct fsc_bg *bg = fs->bgs[i];

		for (k = 0; bg && k < bg->nr_stripes; k++) {
			if (bg->stripes[k].dev != d || (m = sim_read_stripe(s, bg, k)) == SIM_NO_DEV)
				continue;
			r->alloc_end_bytes += zone_used(fs->devs[bg->stripes[m].dev].blk,
							bg->stripes[m].phys);
		}
	}
	for (z = 0; z < tgt->capacity_bytes; z += s->cfg->zone_bytes)
		r->tgt_used_bytes += zone_used(tgt, z);
}

/* The copy is over: the new device takes the slot, the data check. */
static void rebuild_finish(struct sim *s)
{
	struct sim_fail_result *r = &s->res->fail;
	const struct fsc_replace_progress *pr = fsc_replace_progress(s->fs);
	uint32_t d = s->cfg->fail_dev;
	int ret;

	r->walked_bytes = pr->walked_bytes;
	r->copied_bytes = pr->copied_bytes;
	r->zero_bytes = pr->zero_bytes;
	r->lost_bytes = pr->lost_bytes;
	r->lost_blocks = pr->lost_blocks;
	r->r56_rebuilt_bytes = pr->r56_rebuilt_bytes;
	r->read_bytes = 0;
	for (uint32_t i = 0; i < FSC_MAX_DEVS; i++)
		r->read_bytes += pr->read_bytes[i];
	rebuild_sizes(s, r);
	ret = fsc_replace_finish(s->fs, s->now);
	s->fl.running = false;
	/* the counters of the whole replace, the duplicated writes included */
	r->dup_bytes = pr->dup_bytes;
	r->tgt_write_bytes = pr->tgt_write_bytes;
	if (ret && ret != FSC_E_DATA_LOST) {
		zl_msgf(s->res->msg, sizeof(s->res->msg), "rebuild of device %u: finish: %s", d,
			fsc_strerror(ret));
		s->err = ret;
		return;
	}
	r->finished = true;
	r->end_ns = s->now;
	s->fl.tdev[d] = s->fl.spare;  /* the slot's I/O is timed on the new device */
	r->verify_ret = fsc_dev_verify(s->fs, d, &r->verify);
	r->verified = r->verify_ret == 0 || r->verify_ret == FSC_E_VERIFY;
	s->up->kick(s);  /* the new device's free zones: writes that waited for space */
}

void sim_fail_event(struct sim *s, const struct sim_event *ev)
{
	struct sim_fail *f = &s->fl;
	struct sim_rb_batch *b;
	uint64_t took;

	switch (ev->type) {
	case EV_RB_STEP:
		batch_start(s);
		break;
	case EV_RB_WRITES:
		batch_writes(s);
		break;
	case EV_RB_DONE:  /* the oldest batch's writes are done */
		b = &f->b[f->head];
		f->head = (f->head + 1) % SIM_RB_DEPTH_MAX;
		f->nr--;
		f->nr_timed--;
		if (b->last) {
			rebuild_finish(s);
			break;
		}
		if (s->cfg->rb_depth > 1) {
			if (f->blocked) {
				f->blocked = false;
				arm_dispatch(s, s->now);
			}
			break;
		}
		took = s->now - b->start_ns;
		if (s->cfg->rb_prio == SIM_RB_SHARE)
			arm_dispatch(s, s->now + (uint64_t)((double)took * (1 - s->cfg->rb_share) /
							    s->cfg->rb_share));
		else
			arm_dispatch(s, s->now);  /* batch_start() waits for the idle */
		break;
	}
}

void sim_fail_req_done(struct sim *s, uint64_t t_arrive_ns)
{
	struct sim_fail_result *r = &s->res->fail;
	uint64_t lat = s->now - t_arrive_ns;

	if (!s->fl.on)
		return;
	if (!r->failed || t_arrive_ns < r->fail_ns)
		ana_hist_add(&r->lat_before, lat);
	else if (r->started && (!r->finished || t_arrive_ns < r->end_ns))
		ana_hist_add(&r->lat_during, lat);
}

int sim_fail_end(struct sim *s)
{
	struct sim_fail_result *r = &s->res->fail;
	const struct fsc_replace_progress *pr;

	if (!s->fl.on || !r->started)
		return 0;
	if (!r->finished) {  /* stopped by an error: what the rebuild had done */
		pr = fsc_replace_progress(s->fs);
		r->walked_bytes = pr->walked_bytes;
		r->copied_bytes = pr->copied_bytes;
		r->zero_bytes = pr->zero_bytes;
		r->dup_bytes = pr->dup_bytes;
		r->tgt_write_bytes = pr->tgt_write_bytes;
		r->lost_bytes = pr->lost_bytes;
		r->lost_blocks = pr->lost_blocks;
		r->r56_rebuilt_bytes = pr->r56_rebuilt_bytes;
	}
	if (r->lost_blocks)
		return FSC_E_DATA_LOST;
	if (r->verified && r->verify_ret)
		return FSC_E_VERIFY;
	return 0;
}
