/*
 * sim_fail.c — a device failure during a run and fs-core's rebuild of it
 * onto a new device (--fail-dev, --fail-at-write, --rebuild-prio,
 * --fail2-dev, --fail2-at; docs/SIM.md "Device failure and rebuild"),
 * while the workload goes on.  When fs-core's user bytes reach
 * --fail-at-write, device N fails (fsc_dev_fail(): writes go on degraded,
 * reads go to the mirror) and fs-core's zoned replace starts onto the
 * spare the run opened beside the array (fsc_replace_start(): a rebuild,
 * the source missing).  The rebuild runs in steps of rb_step_bytes of the
 * source's space (fsc_replace_step(): executed on the zone models at once,
 * the I/O it made reported): each step's reads are timed on the surviving
 * devices, then its writes on the new device, on the run's device timing
 * (the drive model with --timing-model).  Foreground writes to block groups
 * already copied are duplicated to the new device by fs-core and timed
 * there (sim_write_dev()).  After the last step the new device takes the
 * slot (fsc_replace_finish()) and the data check reads every live block
 * back from it (fsc_dev_verify()).  A second failure during the rebuild
 * (--fail2-dev, when the rebuild has walked --fail2-at bytes) is a second
 * fsc_dev_fail(): on RAID1 every block group on both devices is lost,
 * fs-core counts it, and the run ends with FSC_E_DATA_LOST.
 *
 * Pacing (--rebuild-prio).  The simulator has no device queues (sim_time.c:
 * a command goes to the drive when it is dispatched), so priority is the
 * time a step is dispatched: idle = only when no foreground bio, read or
 * commit is in flight (requests may wait for space: degraded, fs-core
 * allocates on the present devices only, and the new device's free zones
 * come at the end; a step in the drive still delays a foreground arrival:
 * up to one step); share:X = after a step that took D from its
 * dispatch to its last write, the next waits D (1 - X) / X, so the rebuild
 * holds at most X of the time (not work-conserving: the pause is kept
 * even when the foreground leaves the drives idle).
 *
 * Not here: the extent-level rebuild model of big arrays (sim_rebuild.c),
 * the copy itself (fs-core's fsc_replace.c), RAID5/6 (not a --profile of a
 * failure run), a failure of the new device.
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
	sim_push(s, s->now, EV_RB_STEP, NULL);
}

static void fail_second(struct sim *s)
{
	struct sim_fail_result *r = &s->res->fail;

	r->fail2 = true;
	r->fail2_ns = s->now;
	if (fsc_dev_fail(s->fs, s->cfg->fail2_dev) && !s->err)
		s->err = -EINVAL;
}

/* The devices have nothing of the foreground: no bio, no read, no commit in
 * flight (requests may wait, e.g. for space the rebuild will bring). */
static bool fg_idle(const struct sim *s)
{
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
		sim_push(s, s->now, EV_RB_STEP, NULL);
	}
}

/* ---- the steps ---- */

static void step_start(struct sim *s)
{
	const struct sim_cfg *c = s->cfg;
	const struct fsc_replace_progress *pr = fsc_replace_progress(s->fs);
	uint64_t done = s->now, t;
	uint32_t i, n = 0, dev;
	bool writes = false;
	int ret;

	if (c->fail2_dev != SIM_NO_DEV && !s->res->fail.fail2 && pr->walked_bytes >= c->fail2_at_bytes)
		fail_second(s);
	ret = fsc_replace_step(s->fs, c->rb_step_bytes, s->now, s->fl.ios, SIM_RB_IOS, &n);
	if (ret < 0 && ret != FSC_E_DATA_LOST) {
		zl_msgf(s->res->msg, sizeof(s->res->msg), "rebuild of device %u: step: %s",
			c->fail_dev, fsc_strerror(ret));
		s->err = ret;
		return;
	}
	s->res->fail.nr_steps++;
	s->fl.step_busy = true;
	s->fl.last = ret == 0;
	s->fl.step_start_ns = s->now;
	s->fl.nr_ios = n;
	for (i = 0; i < n; i++) {
		const struct fsc_rio *io = &s->fl.ios[i];

		if (io->write) {
			writes = true;
			continue;
		}
		dev = s->fl.tdev[io->dev];
		t = sim_dev_time(s, dev, ZTIME_READ, io->phys / c->zone_bytes * c->zone_bytes,
				 io->phys, io->len_bytes, 0);
		if (t > done)
			done = t;
	}
	/* a piece is written once its reads are in (the kernel's scrub copy:
	 * read the extent, then write it to the target) */
	sim_push(s, done, writes ? EV_RB_WRITES : EV_RB_DONE, NULL);
}

static void step_writes(struct sim *s)
{
	const struct sim_cfg *c = s->cfg;
	uint64_t done = s->now, t;
	uint32_t i;

	for (i = 0; i < s->fl.nr_ios; i++) {
		const struct fsc_rio *io = &s->fl.ios[i];

		if (!io->write)
			continue;
		t = sim_dev_time(s, s->fl.spare, ZTIME_WRITE, io->phys / c->zone_bytes * c->zone_bytes,
				 io->phys, io->len_bytes, 0);
		if (t > done)
			done = t;
	}
	sim_push(s, done, EV_RB_DONE, NULL);
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
	uint64_t took;

	switch (ev->type) {
	case EV_RB_STEP:
		step_start(s);
		break;
	case EV_RB_WRITES:
		step_writes(s);
		break;
	case EV_RB_DONE:
		s->fl.step_busy = false;
		if (s->fl.last) {
			rebuild_finish(s);
			break;
		}
		if (s->cfg->rb_prio == SIM_RB_SHARE) {
			took = s->now - s->fl.step_start_ns;
			sim_push(s, s->now + (uint64_t)((double)took * (1 - s->cfg->rb_share) /
							s->cfg->rb_share), EV_RB_STEP, NULL);
		} else {
			s->fl.wait_idle = true;  /* sim_fail_poll() */
		}
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
	}
	if (r->lost_blocks)
		return FSC_E_DATA_LOST;
	if (r->verified && r->verify_ret)
		return FSC_E_VERIFY;
	return 0;
}
