/*
 * sim_io.c — the way down from the workload to the devices: async workers
 * between allocation and submission that reorder bios (the reason the RFC
 * needs a submit buffer), fs-core's submission and its expiry deadline,
 * devices that take time (per-command overhead, bandwidth, zone switches),
 * and transaction commits with the requests that wait for them.  What a
 * completed bio means to the workload is not decided here: it goes back
 * up through s->up (sim_run.h), the only call upwards.
 */
#include <stdlib.h>

#include "sim_run.h"

/* ---- workers ---- */

static void worker_start(struct sim *s, struct fsc_bio *bio)
{
	s->workers_busy++;
	sim_push(s, s->now + sim_dist_draw(&s->rng, s->cfg->worker_dist, s->cfg->worker_mean_ns,
					   s->cfg->pareto_alpha), EV_WORKER_DONE, bio);
}

static void submit(struct sim *s, struct fsc_bio *bio);

/* A processed or unprocessed bio enters the worker stage (or skips it). */
void sim_enqueue(struct sim *s, struct fsc_bio *bio)
{
	if (!s->workers_max) {
		submit(s, bio);
		return;
	}
	if (s->workers_busy < s->workers_max) {
		worker_start(s, bio);
		return;
	}
	bio->next = NULL;
	if (s->q_tail)
		s->q_tail->next = bio;
	else
		s->q_head = bio;
	s->q_tail = bio;
}

void sim_worker_done(struct sim *s, struct fsc_bio *bio)
{
	struct fsc_bio *next = s->q_head;

	s->workers_busy--;
	if (next) {
		s->q_head = next->next;
		if (!s->q_head)
			s->q_tail = NULL;
		worker_start(s, next);
	}
	submit(s, bio);
}

static void arm_expiry(struct sim *s)
{
	uint64_t t;

	if (s->expire_armed || s->cfg->order == FSC_ORDER_NONE)
		return;
	t = fsc_next_expiry_ns(s->fs);
	if (t == UINT64_MAX)
		return;
	s->expire_armed = true;
	sim_push(s, t > s->now ? t : s->now, EV_EXPIRE, NULL);
}

static void submit(struct sim *s, struct fsc_bio *bio)
{
	fsc_submit(s->fs, bio, s->now);
	if (s->fs->st.sbuf_now)
		arm_expiry(s);
}

void sim_expire(struct sim *s)
{
	s->expire_armed = false;
	fsc_expire(s->fs, s->now);
	arm_expiry(s);
}

/* ---- devices ---- */

uint64_t sim_dev_time(struct sim *s, uint32_t d, enum ztime_op op, uint64_t zone, uint64_t off,
		      uint64_t bytes, uint64_t extra_ns)
{
	const struct sim_cfg *c = s->cfg;
	uint64_t t = c->dev_cmd_ns + extra_ns, start;

	if (s->zt[d])
		return sim_time_cmd(s, d, op, off, bytes, extra_ns);

	if (c->dev_bw_bps)
		t += (uint64_t)((unsigned __int128)bytes * 1000000000ULL / c->dev_bw_bps);
	if (c->zone_switch_ns && s->last_zone[d] != zone)
		t += c->zone_switch_ns;
	s->last_zone[d] = zone;
	start = s->busy_until[d] > s->now ? s->busy_until[d] : s->now;
	s->busy_until[d] = start + t;
	return start + t;
}

static void sim_dispatch(void *arg, struct fsc_bio *bio)
{
	struct sim *s = arg;
	struct fsc_bg *bg = bio->bg;
	uint32_t i, data = bg->nr_stripes / bg->sub_stripes;
	uint64_t done = s->now, t, per, off = 0, phys, run;

	ana_hist_add(&s->res->reorder, bio->t_dispatch_ns - bio->t_ready_ns);
	for (i = 0; i < bg->nr_stripes; i++)  /* a missing device (--fail-dev) has none */
		if (s->fs->devs[bg->stripes[i].dev].blk)
			s->fs->devs[bg->stripes[i].dev].blk->last_delay_ns = 0;
	s->fl.dev_inflight++;
	/* in dispatch order: what the device sees; the first refusal is the
	 * run's error (later ones in the same event are its consequences) */
	if (fsc_bio_execute(s->fs, bio) && s->cfg->dev_error_abort && !s->err)
		s->err = bio->status;
	per = bg->profile == FSC_RAID0 || bg->profile == FSC_RAID10 ?
	      (bio->len_bytes + data - 1) / data : bio->len_bytes;
	if (s->zt[0]) {  /* where in the zone (after execute: an append's position is known) */
		fsc_map_stripe(bg, bio->logical - bg->start, bio->len_bytes, &i, &phys, &run);
		off = phys;
	}
	if (fsc_bg_is_r56(bg)) {
		/* whole rows on every stripe, data, padding and parity
		 * (fs-core's write_r56()) */
		uint64_t full = fsc_r56_full(bg);

		off = (bio->logical - bg->start) / full * FSC_RAID0_STRIPE_BYTES;
		per = (bio->len_bytes + full - 1) / full * FSC_RAID0_STRIPE_BYTES;
	}
	for (i = 0; i < bg->nr_stripes; i++) {
		struct zblk *b = s->fs->devs[bg->stripes[i].dev].blk;
		uint32_t d = sim_write_dev(s, bg, i);  /* the new device, or none: degraded */

		if (d == SIM_NO_DEV)
			continue;
		t = sim_dev_time(s, d, ZTIME_WRITE, bg->stripes[i].phys, bg->stripes[i].phys + off,
				 per, b ? b->last_delay_ns : 0);
		if (t > done)
			done = t;
	}
	sim_push(s, done, EV_DEV_DONE, bio);
}

/* ---- commits ---- */

/* A commit finished: the requests that waited for it (flushes) have a piece less. */
static void commit_done(struct sim *s)
{
	s->commits_done++;
	if (s->cleaner_wake) {  /* the cleaner thread runs after this commit */
		s->cleaner_wake = false;
		s->rc_wanted = true;
	}
	while (s->fw_nr && s->fw_target[s->fw_head] <= s->commits_done) {
		uint32_t i = s->fw_req[s->fw_head];

		s->fw_head = (s->fw_head + 1) % s->fw_cap;
		s->fw_nr--;
		s->up->piece_done(s, i);
	}
}

/*
 * The commit's writes are done.  On the timing model the commit ends when a
 * cache flush on every device has completed (btrfs's commit writes its
 * super blocks with PREFLUSH | FUA: what the drive cached must be on the
 * media first): EV_COMMIT_FLUSHED at the latest flush's completion.
 * Without a model (no cache), at once.
 */
static void commit_writes_done(struct sim *s)
{
	uint64_t t = s->now, done;
	uint32_t d;

	if (s->zt[0]) {
		for (d = 0; d < s->cfg->nr_devs; d++) {
			uint32_t td = s->fs->devs[d].blk ? s->fl.tdev[d] :
				      s->fl.running && d == s->fs->rp.src ? s->fl.spare : SIM_NO_DEV;

			if (td == SIM_NO_DEV)
				continue;  /* a missing device */
			done = sim_time_cmd(s, td, ZTIME_FLUSH, 0, 0, 0);
			if (done > t)
				t = done;
			s->res->nr_commit_flushes++;
		}
		s->res->commit_flush_ns += t - s->now;
		sim_push(s, t, EV_COMMIT_FLUSHED, NULL);
		return;
	}
	sim_commit_end(s);
}

void sim_commit_end(struct sim *s)
{
	fsc_commit_finish(s->fs, s->now);
	s->in_commit = false;
	commit_done(s);
	if (s->commit_pending) {
		s->commit_pending = false;
		sim_commit_start(s);
	}
}

void sim_commit_start(struct sim *s)
{
	struct fsc_bio *list, *b, *next;
	int n;

	if (s->in_commit) {
		s->commit_pending = true;
		return;
	}
	s->bytes_since_commit = 0;
	n = fsc_commit_start(s->fs, s->now, &list);
	if (n < 0) {
		s->err = n;
		return;
	}
	s->commits_started++;
	s->in_commit = true;
	s->commit_left = (uint32_t)n;
	if (!n) {
		commit_writes_done(s);
		return;
	}
	for (b = list; b; b = next) {
		next = b->next;
		sim_enqueue(s, b);
	}
}

int sim_commit_wait(struct sim *s, uint32_t req)
{
	uint64_t target = s->commits_started + 1;  /* the one starting now or pending */
	uint32_t k;

	if (s->fw_nr == s->fw_cap) {
		uint32_t cap = s->fw_cap ? s->fw_cap * 2 : 16;
		uint32_t *rq = malloc(cap * sizeof(*rq));
		uint64_t *tg = malloc(cap * sizeof(*tg));

		if (!rq || !tg) {
			free(rq);
			free(tg);
			return -ENOMEM;
		}
		for (k = 0; k < s->fw_nr; k++) {
			rq[k] = s->fw_req[(s->fw_head + k) % s->fw_cap];
			tg[k] = s->fw_target[(s->fw_head + k) % s->fw_cap];
		}
		free(s->fw_req);
		free(s->fw_target);
		s->fw_req = rq;
		s->fw_target = tg;
		s->fw_head = 0;
		s->fw_cap = cap;
	}
	k = (s->fw_head + s->fw_nr) % s->fw_cap;
	s->fw_req[k] = req;
	s->fw_target[k] = target;
	s->fw_nr++;
	return 0;
}

/* ---- completions ---- */

/* A bio is over (completed or failed): the owner's side. */
static void bio_over(struct sim *s, uint32_t kind, uint32_t req, uint32_t owner)
{
	if (kind == FSC_KIND_USER || (kind == FSC_KIND_META && owner == FSC_LOG_OWNER)) {
		/* a tree-log block (fsc_log_sync()): a piece of its fsync */
		if (kind == FSC_KIND_META) {
			s->up->piece_done(s, req);
			s->up->kick(s);
			return;
		}
		s->inflight_user--;
		s->done_user++;
		s->up->piece_done(s, req);
	} else if (kind == FSC_KIND_META || kind == FSC_KIND_REDIRTY || kind == FSC_KIND_ZEROS) {
		if (s->commit_left && --s->commit_left == 0)
			commit_writes_done(s);
	}
	s->up->kick(s);
}

static void sim_failed(void *arg, struct fsc_bio *bio)
{
	bio_over(arg, bio->kind, bio->worker, bio->owner);
}

static void sim_bg_removed(void *arg, uint32_t type, uint64_t life_ns)
{
	struct sim *s = arg;

	ana_hist_add(&s->res->bg_life, life_ns);
}

const struct fsc_owner_ops sim_owner_ops = { sim_dispatch, sim_failed, sim_bg_removed };

void sim_dev_done(struct sim *s, struct fsc_bio *bio)
{
	uint32_t kind = bio->kind, req = bio->worker, owner = bio->owner;

	s->fl.dev_inflight--;
	fsc_bio_complete(s->fs, bio, s->now);  /* may reset a victim */
	bio_over(s, kind, req, owner);
}
