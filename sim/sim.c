/*
 * sim.c — one simulation run: N devices behind zblk (sim_dev.c: data-less
 * zone models, emulated disks with a store and faults, or a Linux zoned
 * block device), one fs-core instance, and the things that make the RFC's design interesting:
 * async workers between allocation and submission that reorder writes,
 * devices that take time (per-command overhead, bandwidth, zone switches),
 * transaction commits on a timer or by size, a workload source (traces/:
 * the generators of trc_gen.c; the simulator holds no workload code), and
 * cleaning by relocation.  Everything runs from one event heap in virtual ns with one
 * seeded generator.  It is not a benchmark of the host: no wall clock.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fsc_int.h"
#include "sim_int.h"
#include "trc_gen.h"

enum {
	EV_WORKER_DONE = 1, EV_DEV_DONE, EV_COMMIT_TIMER, EV_EXPIRE, EV_SAMPLE, EV_READ_DONE,
	EV_USER_READ_DONE, EV_ARRIVAL,
};

#define SECTOR 4096u
#define NO_REQ UINT32_MAX
#define SIM_LA 8u  /* records read ahead of the one being issued */
#define REPLAY_BIO_BLOCKS 32u  /* a trace write is cut into bios of at most 128 KiB */

/* One request of the workload: arrival to completion of all its pieces
 * (write bios, device reads, the commit a flush waits for). */
struct sim_req {
	uint64_t t_arrive_ns;
	uint32_t pieces;                   /* in flight */
	uint32_t next_free;
	uint8_t op;
	bool open;                         /* records of it may still come */
	bool measured;
};

struct sim {
	const struct sim_cfg *cfg;         /* = &eff */
	struct sim_cfg eff;                /* the caller's, with the device's geometry */
	struct sim_result *res;
	struct zl_rng rng;
	struct sim_heap heap;
	uint64_t now;
	struct sim_devs devs;
	struct fsc *fs;
	uint64_t busy_until[FSC_MAX_DEVS];
	uint64_t last_zone[FSC_MAX_DEVS];
	/* workers */
	struct fsc_bio *q_head, *q_tail;   /* waiting for a worker */
	uint32_t workers_busy, workers_max;
	/* workload */
	struct trc_source *src;            /* owned */
	struct trc_map *map;               /* owned (trace replay) */
	struct trc_rec next;               /* the source's next record, when have_next */
	bool have_next, src_done;
	/* read-ahead: the records after next, so fs-core can prefetch what
	 * they will touch (at 100,000 zones the file map and block groups
	 * miss the caches); la_end is the source's end (0) or error after them */
	struct trc_rec la[SIM_LA];
	uint32_t la_head, la_nr;
	bool la_ended;
	int la_end;
	bool next_started;                 /* next's request exists; w_lbn/w_left: what is left */
	uint64_t w_lbn;                    /* a write record being cut into bios */
	uint32_t w_left;
	uint32_t max_bio_blocks;           /* largest user bio (a trace write is cut) */
	bool in_issue;                     /* issue_user() is running (no re-entry) */
	uint64_t file_blocks;
	uint64_t issued, done_user;        /* user write bios issued / finished */
	uint64_t total_writes;             /* fill + warmup + measured */
	uint64_t fill_writes;
	uint32_t inflight_user;
	/* requests: a record without TRC_HAS_CONT starts one */
	struct sim_req *reqs;              /* slots, indexed by bio->worker / event arg */
	uint32_t nr_reqs_cap, req_free;    /* free list through ->next_free */
	uint32_t cur_req;                  /* the last request started, while open */
	uint64_t nr_req_started, warm_reqs, total_reqs;
	uint32_t inflight_reqs;
	uint64_t done_reqs;
	bool arrival_armed;                /* timed: an EV_ARRIVAL is pending */
	uint32_t reads_inflight;           /* device reads of user reads */
	/* flushes waiting for a commit: FIFO of (request, commit number) */
	uint32_t *fw_req;
	uint64_t *fw_target;
	uint32_t fw_head, fw_nr, fw_cap;
	uint64_t commits_started, commits_done;
	bool measuring;
	uint64_t snap_user, snap_dev[FSC_NR_KINDS], snap_finish;
	/* commits */
	bool in_commit, commit_pending;
	uint32_t commit_left;
	uint64_t bytes_since_commit;
	bool expire_armed;
	uint64_t last_tick_done;     /* stall detection at each commit tick */
	uint32_t reserve_free_zones;       /* --reserve block groups, in zones of one device */
	/* submit buffer occupancy, integrated over the measured window */
	double sbuf_area;                  /* bios x ns */
	uint64_t t_meas_ns;                /* start of the measured window */
	int err;
};

void sim_cfg_init(struct sim_cfg *c)
{
	memset(c, 0, sizeof(*c));
	c->seed = 1;
	c->nr_devs = 1;
	c->zone_bytes = 256ULL << 20;
	c->nr_zones = 64;
	c->nr_conv = 1;
	c->dev_cmd_ns = 20000;
	c->dev_bw_bps = 200ULL << 20;
	c->zone_switch_ns = 0;
	c->data_profile = c->meta_profile = FSC_SINGLE;
	c->order = FSC_ORDER_SUBMIT_BUFFER;
	c->release = FSC_RELEASE_REDIRTY;
	c->expire_ns = 90ULL * 1000000000ULL;
	c->metadata = true;
	c->tree_fanout = 121;
	c->leaf_items = 128;
	c->release_prob = 0.001;
	c->commit_interval_ns = 30ULL * 1000000000ULL;
	c->commit_bytes = 32ULL << 20;
	c->nr_workers = 8;
	c->worker_dist = SIM_DIST_EXP;
	c->worker_mean_ns = 50000;
	c->pareto_alpha = 1.5;
	c->workload = SIM_WL_UNIFORM;
	c->util = 0.8;
	c->bio_blocks = 1;
	c->hot_r = 0.9;
	c->hot_f = 0.1;
	c->zipf_theta = 0.99;
	c->qd = 32;
	c->warmup_writes = 0;
	c->writes = 100000;
	c->map = TRC_MAP_COMPACT;
	c->timing = SIM_TIMING_CLOSED;
	c->speed = 1.0;
	c->loops = 1;
	c->clean = FSC_CLEAN_GREEDY;
	fsc_clean_params_init(&c->clean_params);
	fsc_place_params_init(&c->place_params);
	c->reserve_zones = 2;
	c->sample_ns = 1000000000ULL;
	c->dev_error_abort = true;
	c->reloc_reads = true;
}

static void push(struct sim *s, uint64_t t, uint32_t type, void *ptr)
{
	if (sim_heap_push(&s->heap, t, type, 0, ptr) && !s->err)
		s->err = -ENOMEM;
}

/* ---- workers ---- */

static void worker_start(struct sim *s, struct fsc_bio *bio)
{
	s->workers_busy++;
	push(s, s->now + sim_dist_draw(&s->rng, s->cfg->worker_dist, s->cfg->worker_mean_ns,
				       s->cfg->pareto_alpha), EV_WORKER_DONE, bio);
}

static void submit(struct sim *s, struct fsc_bio *bio);

/* A processed or unprocessed bio enters the worker stage (or skips it). */
static void enqueue(struct sim *s, struct fsc_bio *bio)
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

static void worker_done(struct sim *s, struct fsc_bio *bio)
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
	push(s, t > s->now ? t : s->now, EV_EXPIRE, NULL);
}

static void submit(struct sim *s, struct fsc_bio *bio)
{
	fsc_submit(s->fs, bio, s->now);
	if (s->fs->st.sbuf_now)
		arm_expiry(s);
}

/* ---- devices ---- */

/* Completion time of a command of @bytes on device @d at @zone (physical
 * byte address of the zone), @extra_ns of injected latency included. */
static uint64_t dev_time(struct sim *s, uint32_t d, uint64_t zone, uint64_t bytes,
			 uint64_t extra_ns)
{
	const struct sim_cfg *c = s->cfg;
	uint64_t t = c->dev_cmd_ns + extra_ns, start;

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
	uint64_t done = s->now, t, per;

	ana_hist_add(&s->res->reorder, bio->t_dispatch_ns - bio->t_ready_ns);
	for (i = 0; i < bg->nr_stripes; i++)  /* every device of a run is present */
		s->devs.blk[bg->stripes[i].dev]->last_delay_ns = 0;
	/* in dispatch order: what the device sees; the first refusal is the
	 * run's error (later ones in the same event are its consequences) */
	if (fsc_bio_execute(s->fs, bio) && s->cfg->dev_error_abort && !s->err)
		s->err = bio->status;
	per = bg->profile == FSC_RAID0 || bg->profile == FSC_RAID10 ?
	      (bio->len_bytes + data - 1) / data : bio->len_bytes;
	for (i = 0; i < bg->nr_stripes; i++) {
		uint32_t d = bg->stripes[i].dev;

		t = dev_time(s, d, bg->stripes[i].phys, per, s->devs.blk[d]->last_delay_ns);
		if (t > done)
			done = t;
	}
	push(s, done, EV_DEV_DONE, bio);
}

static void issue_user(struct sim *s);
static void commit_start(struct sim *s);
static void req_piece_done(struct sim *s, uint32_t r);
static void commit_done(struct sim *s);

/* A bio is over (completed or failed): the owner's side. */
static void bio_over(struct sim *s, uint32_t kind, uint32_t req)
{
	if (kind == FSC_KIND_USER) {
		s->inflight_user--;
		s->done_user++;
		req_piece_done(s, req);
	} else if (kind == FSC_KIND_META || kind == FSC_KIND_REDIRTY || kind == FSC_KIND_ZEROS) {
		if (s->commit_left && --s->commit_left == 0) {
			fsc_commit_finish(s->fs, s->now);
			s->in_commit = false;
			commit_done(s);
			if (s->commit_pending) {
				s->commit_pending = false;
				commit_start(s);
			}
		}
	}
	issue_user(s);
}

static void sim_failed(void *arg, struct fsc_bio *bio)
{
	bio_over(arg, bio->kind, bio->worker);
}

static void sim_bg_removed(void *arg, uint32_t type, uint64_t life_ns)
{
	struct sim *s = arg;

	ana_hist_add(&s->res->bg_life, life_ns);
}

static const struct fsc_owner_ops sim_ops = { sim_dispatch, sim_failed, sim_bg_removed };

/* ---- commits ---- */

static void commit_start(struct sim *s)
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
		fsc_commit_finish(s->fs, s->now);
		s->in_commit = false;
		commit_done(s);
		return;
	}
	for (b = list; b; b = next) {
		next = b->next;
		enqueue(s, b);
	}
}

/* ---- cleaning ---- */

/*
 * A relocation copy first reads its source (one copy of a mirror, the
 * mapped stripe of RAID0/10) on the device, which takes device time like a
 * write; the copy enters the write path when the read completed.
 */
static void reloc_read(struct sim *s, struct fsc_bio *b)
{
	const struct fsc_bg *src = b->src_bg;
	uint64_t phys, run;
	uint32_t idx, st;
	struct zblk *blk;
	int ret;

	fsc_map_stripe(src, b->src_logical - src->start, b->len_bytes, &idx, &phys, &run);
	/* the first copy (every device of a run is present) */
	st = src->profile == FSC_RAID0 || src->profile == FSC_RAID10 ? idx * src->sub_stripes : 0;
	blk = s->devs.blk[src->stripes[st].dev];
	blk->last_delay_ns = 0;
	ret = zblk_read(blk, src->stripes[st].phys + phys, NULL, b->len_bytes);
	if (ret) {
		s->res->nr_read_errors++;
		if (s->cfg->dev_error_abort && !s->err)
			s->err = ret;
	}
	push(s, dev_time(s, src->stripes[st].dev, src->stripes[st].phys, b->len_bytes,
			 blk->last_delay_ns), EV_READ_DONE, b);
}

static void clean(struct sim *s)
{
	struct fsc_bio *list, *b, *next;
	struct fsc_bg *victim;
	int n, guard = 0;

	while (fsc_min_free_zones(s->fs) + fsc_stats(s->fs)->nr_relocating < s->reserve_free_zones &&
	       guard++ < 64) {
		victim = fsc_clean_pick(s->fs);
		if (!victim) {
			/* unpin what the running transaction freed, at most once
			 * per zone of user data (no commit storms) */
			if (s->cfg->metadata && !s->in_commit &&
			    s->bytes_since_commit >= s->cfg->zone_bytes)
				commit_start(s);
			return;
		}
		n = fsc_relocate(s->fs, victim, s->now, &list);
		if (n < 0)
			return;  /* ENOSPC shows up at the next allocation */
		for (b = list; b; b = next) {
			next = b->next;
			if (s->cfg->reloc_reads)
				reloc_read(s, b);  /* then the normal write path */
			else
				enqueue(s, b);  /* the normal write path (checksums) */
		}
	}
}

/* ---- requests ---- */

static void push_arg(struct sim *s, uint64_t t, uint32_t type, uint32_t arg)
{
	if (sim_heap_push(&s->heap, t, type, arg, NULL) && !s->err)
		s->err = -ENOMEM;
}

/* A new request of @op arriving at @t_ns; NO_REQ when out of memory. */
static uint32_t req_new(struct sim *s, uint8_t op, uint64_t t_ns)
{
	struct sim_req *r;
	uint32_t i;

	if (s->req_free == NO_REQ) {
		uint32_t cap = s->nr_reqs_cap ? s->nr_reqs_cap * 2 : 64, k;
		struct sim_req *v = realloc(s->reqs, cap * sizeof(*v));

		if (!v) {
			s->err = -ENOMEM;
			return NO_REQ;
		}
		for (k = s->nr_reqs_cap; k < cap; k++)
			v[k].next_free = k + 1 < cap ? k + 1 : NO_REQ;
		s->reqs = v;
		s->req_free = s->nr_reqs_cap;
		s->nr_reqs_cap = cap;
	}
	i = s->req_free;
	r = &s->reqs[i];
	s->req_free = r->next_free;
	r->t_arrive_ns = t_ns;
	r->pieces = 0;
	r->op = op;
	r->open = true;
	r->measured = s->measuring;
	s->inflight_reqs++;
	s->nr_req_started++;
	return i;
}

static void req_finish(struct sim *s, uint32_t i)
{
	struct sim_req *r = &s->reqs[i];

	if (r->measured && r->op < SIM_NR_LAT_OPS)
		ana_hist_add(&s->res->req_lat[r->op], s->now - r->t_arrive_ns);
	s->inflight_reqs--;
	s->done_reqs++;
	r->next_free = s->req_free;
	s->req_free = i;
}

static void req_piece_done(struct sim *s, uint32_t i)
{
	if (i == NO_REQ || i >= s->nr_reqs_cap)
		return;
	if (!--s->reqs[i].pieces && !s->reqs[i].open)
		req_finish(s, i);
}

/* No more records of the current request: it ends with its last piece. */
static void req_close(struct sim *s)
{
	uint32_t i = s->cur_req;

	if (i == NO_REQ)
		return;
	s->cur_req = NO_REQ;
	s->reqs[i].open = false;
	if (!s->reqs[i].pieces)
		req_finish(s, i);
}

/* A commit finished: the flushes that waited for it are done. */
static void commit_done(struct sim *s)
{
	s->commits_done++;
	while (s->fw_nr && s->fw_target[s->fw_head] <= s->commits_done) {
		uint32_t i = s->fw_req[s->fw_head];

		s->fw_head = (s->fw_head + 1) % s->fw_cap;
		s->fw_nr--;
		req_piece_done(s, i);
	}
}

/* Request @i (a flush) waits for the next commit to start and finish. */
static int flush_wait(struct sim *s, uint32_t i)
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
	s->fw_req[k] = i;
	s->fw_target[k] = target;
	s->fw_nr++;
	s->reqs[i].pieces++;
	s->res->nr_flush_commits++;
	commit_start(s);  /* or pending behind the running one */
	return 0;
}

/* ---- workload ---- */

/* fs-core's prefetch of @r's first block (reads and writes), @stage. */
static inline void la_prefetch(struct sim *s, const struct trc_rec *r, unsigned int stage)
{
	if ((r->op == TRC_OP_WRITE || r->op == TRC_OP_READ) && r->len_bytes)
		fsc_prefetch_file(s->fs, r->offset_bytes / SECTOR, stage);
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
			req_close(s);
	} else {
		s->src_done = true;
		req_close(s);
		if (ret < 0 && !s->err) {
			zl_msgf(s->res->msg, sizeof(s->res->msg), "workload: %s", s->src->msg);
			s->err = ret;
		}
	}
}

/* Every request issued and finished. */
static inline bool workload_is_over(const struct sim *s)
{
	return s->src_done && !s->inflight_reqs;
}

static void snapshot(struct sim *s)
{
	const struct fsc_stats *st = fsc_stats(s->fs);

	s->measuring = true;
	s->t_meas_ns = s->now;
	s->snap_user = st->user_bytes;
	memcpy(s->snap_dev, st->dev_bytes, sizeof(s->snap_dev));
	s->snap_finish = st->finish_waste_bytes;
}

/* Arrival of the next record in virtual time (timed replay). */
static inline uint64_t arrival_ns(const struct sim *s)
{
	return (uint64_t)((double)s->next.ts_ns / s->cfg->speed);
}

/*
 * One write bio of the current write record: 1 when issued, 0 when it must
 * wait (cleaning, a commit, space in flight), negative on error.
 */
static int issue_write_bio(struct sim *s, uint32_t req)
{
	const struct sim_cfg *c = s->cfg;
	uint32_t n = s->w_left < s->max_bio_blocks ? s->w_left : s->max_bio_blocks;
	struct fsc_bio *bio;
	uint64_t lbn = s->w_lbn;
	int ret;

	clean(s);
	/* throttle: wait for relocations or a commit rather than run out */
	if (fsc_min_free_zones(s->fs) <= 1 &&
	    (fsc_stats(s->fs)->nr_relocating || s->in_commit)) {
		/* relocated tree blocks are only freed by a commit */
		if (fsc_stats(s->fs)->nr_relocating_meta && !s->in_commit)
			commit_start(s);
		return 0;
	}
	ret = fsc_write_file_hint(s->fs, lbn, n, s->next.has & TRC_HAS_HINT ? s->next.hint :
				  FSC_HINT_NOT_SET, s->now, &bio);
	if (ret == -ENOSPC || ret == -EBUSY) {  /* EBUSY: waiting for an active zone */
		/* like btrfs: commit to unpin, wait for what is in flight */
		if (c->metadata && !s->in_commit)
			commit_start(s);
		if (s->inflight_user || s->in_commit || fsc_stats(s->fs)->nr_relocating)
			return 0;
	}
	if (ret)
		return ret;
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
	enqueue(s, bio);
	s->bytes_since_commit += bio->len_bytes;
	if (c->metadata && c->commit_bytes && s->bytes_since_commit >= c->commit_bytes)
		commit_start(s);
	if (c->progress && !(s->issued & 0xfffff))
		fprintf(stderr, "\rsim: %llu/%llu requests", (unsigned long long)s->nr_req_started,
			(unsigned long long)s->total_reqs);
	return 1;
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
			uint64_t off = loc.logical - bg->start, left = (uint64_t)n * SECTOR;
			uint64_t phys, run;
			uint32_t idx, st;
			struct zblk *blk;
			int ret;

			while (left) {
				fsc_map_stripe(bg, off, left, &idx, &phys, &run);
				st = bg->profile == FSC_RAID0 || bg->profile == FSC_RAID10 ?
				     idx * bg->sub_stripes : 0;
				blk = s->devs.blk[bg->stripes[st].dev];
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
				push_arg(s, dev_time(s, bg->stripes[st].dev, bg->stripes[st].phys, run,
						     blk->last_delay_ns), EV_USER_READ_DONE, req);
				off += run;
				left -= run;
			}
		}
		lbn += (uint64_t)n;
		nr -= (uint32_t)n;
	}
	return 0;
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
	uint64_t lbn = r->offset_bytes / SECTOR;
	uint32_t nr = (uint32_t)(r->len_bytes / SECTOR), req;
	int ret = 0;

	if (!s->next_started) {
		if (!(r->has & TRC_HAS_CONT)) {
			s->cur_req = req_new(s, r->op, s->cfg->timing == SIM_TIMING_TIMED ?
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
				commit_start(s);
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
		ret = flush_wait(s, req);
		return ret ? ret : 1;
	default:
		s->res->nr_ignored++;
		return 1;
	}
}

static void issue_user(struct sim *s)
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
					push(s, arrival_ns(s), EV_ARRIVAL, NULL);
				}
				break;
			}
			if (!s->measuring && s->nr_req_started == s->warm_reqs)
				snapshot(s);
		}
		ret = issue_rec(s);
		if (ret < 0 && !s->err)
			s->err = ret;
		if (ret <= 0)
			break;
		s->have_next = false;
	}
	s->in_issue = false;
}

/* ---- setup ---- */

static uint32_t copies(enum fsc_profile p)
{
	return p == FSC_DUP || p == FSC_RAID1 || p == FSC_RAID10 ? 2 : 1;
}

/* Zones a block group of @p takes on one device (DUP: both copies). */
static uint32_t bg_zones_per_dev(enum fsc_profile p)
{
	return p == FSC_DUP ? 2 : 1;
}

/* Data zones cleaning can use: free sequential zones, less superblock zones,
 * the first zone, the reserve, the open zone and (estimated) metadata. */
double sim_usable_data_zones(const struct sim_cfg *c)
{
	/* zone 0 is skipped (007) and conventional zones hold superblocks;
	 * without conventional zones, zones 0 and 1 hold the superblock log */
	uint32_t lost = c->nr_conv ? c->nr_conv : 2;
	double z = (double)(c->nr_zones - lost) * c->nr_devs / copies(c->data_profile);

	/* cleaning reserve, an open zone per data log (no 32-bit wrap) */
	z -= (double)c->reserve_zones + fsc_place_nr_logs(c->place, &c->place_params);
	if (c->metadata && c->leaf_items) {
		/* the tree twice (committed + being written) per metadata copy,
		 * plus two partly used block groups: an estimate */
		double leaves = z * c->util * (double)(c->zone_bytes / SECTOR) / c->leaf_items;

		z -= 2.0 * leaves * 16384 / (double)c->zone_bytes * copies(c->meta_profile) + 2;
	}
	return z;
}

/* Fields sim_json() prints by name: a value outside its table is refused. */
static int check_names(const struct sim_cfg *c, char *msg, size_t msg_len)
{
	const struct {
		const char *opt;
		const char *const *names;
		int v;
	} f[] = {
		{ "--profile", sim_profile_names, c->data_profile },
		{ "--meta-profile", sim_profile_names, c->meta_profile },
		{ "--order", sim_order_names, c->order },
		{ "--release", sim_release_names, c->release },
		{ "--worker-dist", sim_dist_names, c->worker_dist },
		{ "--workload", sim_workload_names, c->workload },
		{ "--clean", sim_clean_names, c->clean },
		{ "--placement", fsc_place_names, c->place },
		{ "--store", sim_store_names, c->store },
	};
	size_t i, n;
	int k;

	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		if (sim_name_of(f[i].names, f[i].v))
			continue;
		n = (size_t)snprintf(msg, msg_len, "%s %d: not a known value (one of:", f[i].opt,
				     f[i].v);
		for (k = 0; f[i].names[k] && n < msg_len; k++)
			n += (size_t)snprintf(msg + n, msg_len - n, " %s", f[i].names[k]);
		if (n < msg_len)
			snprintf(msg + n, msg_len - n, ")");
		return -EINVAL;
	}
	return 0;
}

/* Values out of their range, each on its own. */
static int check_values(const struct sim_cfg *c, char *msg, size_t msg_len)
{
	if (!c->nr_devs || c->nr_devs > FSC_MAX_DEVS)
		zl_msgf(msg, msg_len, "--devices %u: between 1 and %u", c->nr_devs, FSC_MAX_DEVS);
	else if (!c->zone_bytes || c->zone_bytes % SECTOR)
		zl_msgf(msg, msg_len, "--zone-size %llu: a positive multiple of 4 KiB",
			(unsigned long long)c->zone_bytes);
	else if (c->nr_zones < 4)
		zl_msgf(msg, msg_len, "--zones %u: at least 4", c->nr_zones);
	else if (c->nr_conv >= c->nr_zones)
		zl_msgf(msg, msg_len, "--conv %u: fewer than --zones (%u)", c->nr_conv, c->nr_zones);
	else if (!c->bio_blocks || (uint64_t)c->bio_blocks * SECTOR > c->zone_bytes)
		zl_msgf(msg, msg_len, "--bio-blocks %u: between 1 and one zone (%llu blocks of 4 KiB)",
			c->bio_blocks, (unsigned long long)(c->zone_bytes / SECTOR));
	else if (!c->qd && !c->trace)
		zl_msgf(msg, msg_len, "--qd 0: at least 1 write in flight");
	else if (!(c->util > 0 && c->util < 1))
		zl_msgf(msg, msg_len, "--util %g: between 0 and 1, exclusive", c->util);
	else if (!(c->hot_f > 0 && c->hot_f < 1))
		zl_msgf(msg, msg_len, "--hot-f %g: between 0 and 1, exclusive", c->hot_f);
	else if (!(c->hot_r >= 0 && c->hot_r <= 1))
		zl_msgf(msg, msg_len, "--hot-r %g: between 0 and 1", c->hot_r);
	else if (!(c->zipf_theta > 0 && c->zipf_theta <= 100))
		zl_msgf(msg, msg_len, "--zipf-theta %g: above 0 and at most 100", c->zipf_theta);
	else if (!(c->release_prob >= 0 && c->release_prob <= 1))
		zl_msgf(msg, msg_len, "--release-prob %g: between 0 and 1", c->release_prob);
	else if (c->worker_dist == SIM_DIST_PARETO && !(c->pareto_alpha > 1))
		zl_msgf(msg, msg_len, "--pareto-alpha %g: above 1 (else the mean is infinite)",
			c->pareto_alpha);
	else if (c->blkdev && c->nr_devs != 1)
		zl_msgf(msg, msg_len, "--devices %u: --blkdev runs on one device", c->nr_devs);
	else if (c->store == SIM_STORE_FILE && (!c->store_path || !*c->store_path))
		zl_msgf(msg, msg_len, "--store file:PATH: no PATH");
	else if (c->max_open && c->max_active && c->max_open > c->max_active)
		zl_msgf(msg, msg_len, "--max-open %u --max-active %u: open zones are active: "
			"--max-open at most --max-active", c->max_open, c->max_active);
	else if (fsc_clean_params_check(c->clean, &c->clean_params, msg, msg_len))
		return -EINVAL;
	else if (c->metadata && (c->tree_fanout < 2 || !c->leaf_items))
		zl_msgf(msg, msg_len, "--fanout %u --leaf-items %u: a tree needs a fanout of 2 or "
			"more and 1 item per leaf or more (or --no-metadata)", c->tree_fanout,
			c->leaf_items);
	else
		return 0;
	return -EINVAL;
}

/* Profiles fs-core cannot build on --devices (RAID5/6 are left to fs-core:
 * the run reports the HMZONED refusal), and zone append beyond SINGLE. */
static int check_profiles(const struct sim_cfg *c, char *msg, size_t msg_len)
{
	uint32_t need = fsc_profile_min_devs(c->data_profile);

	if (c->nr_devs < need) {
		zl_msgf(msg, msg_len, "--profile %s --devices %u: %s needs at least %u devices",
			sim_profile_names[c->data_profile], c->nr_devs,
			sim_profile_names[c->data_profile], need);
		return -EINVAL;
	}
	need = fsc_profile_min_devs(c->meta_profile);
	if (c->metadata && c->nr_devs < need) {
		zl_msgf(msg, msg_len, "--meta-profile %s --devices %u: %s needs at least %u "
			"devices (or --no-metadata)", sim_profile_names[c->meta_profile],
			c->nr_devs, sim_profile_names[c->meta_profile], need);
		return -EINVAL;
	}
	if (c->order == FSC_ORDER_APPEND && c->data_profile != FSC_SINGLE) {
		zl_msgf(msg, msg_len, "--order append --profile %s: a zone append goes to one "
			"zone of one device: data needs --profile single",
			sim_profile_names[c->data_profile]);
		return -EINVAL;
	}
	return 0;
}

/*
 * A superblock location (fsc_sb_layout(), 004): a fixed copy in a
 * conventional zone, or the log on zones 0-1 when there is none.  With
 * conventional zones that end before the first copy (64 KiB + 4 KiB)
 * neither works: fs-core would refuse to create (enospc, no write done).
 * Tree blocks need a zone that holds one (node 16 KiB).
 */
static int check_layout(const struct sim_cfg *c, char *msg, size_t msg_len)
{
	uint64_t need = 64 * 1024 + 4096;

	if (fsc_sb_layout(c->zone_bytes, c->nr_zones, c->nr_conv) < 0) {
		zl_msgf(msg, msg_len, "--zone-size %llu --conv %u: no superblock location: "
			"conventional zones end at %llu bytes, before the copy at 64 KiB, and "
			"the log needs zones 0-1 sequential; give --conv %llu, --zone-size %lluK "
			"or more, or --conv 0", (unsigned long long)c->zone_bytes, c->nr_conv,
			(unsigned long long)(c->nr_conv * c->zone_bytes),
			(unsigned long long)((need + c->zone_bytes - 1) / c->zone_bytes),
			(unsigned long long)(((need + c->nr_conv - 1) / c->nr_conv + 4095) / 4096 * 4));
		return -EINVAL;
	}
	if (c->metadata && c->zone_bytes < 16384) {
		zl_msgf(msg, msg_len, "--zone-size %llu: smaller than a tree block (16384 bytes); "
			"give --zone-size 16K or more, or --no-metadata",
			(unsigned long long)c->zone_bytes);
		return -EINVAL;
	}
	return 0;
}

/*
 * Active zones fs-core needs at once: one per data log, the metadata and
 * system logs, the superblock log, one more to relocate into while a
 * victim's copies fly (x 2 with DUP).  Fewer and it could wait forever.
 */
static int check_active(const struct sim_cfg *c, char *msg, size_t msg_len)
{
	uint32_t need = fsc_place_nr_logs(c->place, &c->place_params) + 1 +
			(c->metadata ? 2 : 0) + (c->nr_conv ? 0 : 1);

	if (c->data_profile == FSC_DUP || c->meta_profile == FSC_DUP)
		need *= 2;
	if (c->max_active && c->max_active < need) {
		zl_msgf(msg, msg_len, "--max-active %u: fs-core needs %u active zones at once "
			"(%u data logs, relocation%s%s); give --max-active %u or more",
			c->max_active, need, fsc_place_nr_logs(c->place, &c->place_params),
			c->metadata ? ", metadata, system" : "", c->nr_conv ? "" : ", superblock log",
			need);
		return -EINVAL;
	}
	return 0;
}

/* A data zone at least, and a file of one write at least. */
static int check_room(const struct sim_cfg *c, char *msg, size_t msg_len)
{
	double zones = sim_usable_data_zones(c), np = (double)(c->zone_bytes / SECTOR);
	unsigned long long short_by;

	if (zones < 1) {
		/* all counted in zones, the metadata estimate too: a larger
		 * --zone-size leaves the same shortfall */
		short_by = (unsigned long long)(1 - zones);
		if (short_by < 1 - zones)
			short_by++;
		zl_msgf(msg, msg_len, "%u zones of %llu bytes leave %.1f zones for data (1 needed) "
			"after superblocks, --reserve %u, the open zone and the metadata estimate: "
			"short by %llu zones; give more --zones%s", c->nr_zones,
			(unsigned long long)c->zone_bytes, zones, c->reserve_zones, short_by,
			c->reserve_zones ? " or a smaller --reserve" : "");
		return -EINVAL;
	}
	if ((uint64_t)(c->util * zones * np) < c->bio_blocks) {
		zl_msgf(msg, msg_len, "the file (--util %g of %.1f data zones: %llu blocks) is "
			"smaller than one write (--bio-blocks %u)", c->util, zones,
			(unsigned long long)(c->util * zones * np), c->bio_blocks);
		return -EINVAL;
	}
	return 0;
}

int sim_cfg_check(const struct sim_cfg *c, char *msg, size_t msg_len)
{
	/* a replay derives --zones from its trace (sim_replay_size()): until
	 * then only what does not depend on the zone count is checked */
	bool derive = c->trace && !c->nr_zones && !c->blkdev;
	struct sim_cfg t = *c;
	int ret;

	if (derive)
		t.nr_zones = UINT32_MAX - 1;
	ret = check_names(&t, msg, msg_len);
	if (!ret)
		ret = sim_replay_check(c, msg, msg_len);
	if (!ret)
		ret = check_values(&t, msg, msg_len);
	if (!ret && !derive)
		ret = sim_devs_geometry_check(c, msg, msg_len);
	if (!ret)
		ret = check_profiles(c, msg, msg_len);
	if (!ret)
		ret = check_layout(&t, msg, msg_len);
	if (!ret)
		ret = check_active(c, msg, msg_len);
	if (!ret && !derive)
		ret = check_room(c, msg, msg_len);
	return ret;
}

/* One row of the zone-condition CSV: the time, then each zone of device 0. */
static void sample_zones(struct sim *s)
{
	struct zblk_zone z[128];
	uint64_t pos = 0;
	int n;

	fprintf(s->cfg->zone_csv, "%llu", (unsigned long long)s->now);
	while ((n = zblk_report(s->devs.blk[0], pos, z, 128)) > 0) {
		for (int i = 0; i < n; i++)
			fprintf(s->cfg->zone_csv, ",%u", z[i].cond);
		pos = z[n - 1].start_bytes + z[n - 1].len_bytes;
	}
	fputc('\n', s->cfg->zone_csv);
}

/* One CSV row (the columns are documented in docs/SIM.md). */
static void sample(struct sim *s)
{
	const struct fsc_stats *st = fsc_stats(s->fs);
	uint64_t dev = 0;
	uint32_t k;

	if (s->cfg->zone_csv)
		sample_zones(s);
	if (!s->cfg->csv)
		return;

	for (k = 0; k < FSC_NR_KINDS; k++)
		dev += st->dev_bytes[k];
	fprintf(s->cfg->csv, "%llu,%llu,%llu,%llu,%llu,%llu,%u,%llu,%llu,%llu,%llu\n",
		(unsigned long long)s->now, (unsigned long long)st->user_bytes,
		(unsigned long long)dev, (unsigned long long)st->dev_bytes[FSC_KIND_RELOC],
		(unsigned long long)st->dev_bytes[FSC_KIND_META],
		(unsigned long long)st->sbuf_now, fsc_min_free_zones(s->fs),
		(unsigned long long)st->nr_zone_resets, (unsigned long long)st->nr_expired,
		(unsigned long long)st->nr_dev_errors, (unsigned long long)s->res->nr_read_errors);
}

static void dev_done(struct sim *s, struct fsc_bio *bio)
{
	uint32_t kind = bio->kind, req = bio->worker;

	fsc_bio_complete(s->fs, bio, s->now);  /* may reset a victim */
	bio_over(s, kind, req);
}

/* One event; @draining: the workload is over, only completions matter. */
static void handle(struct sim *s, const struct sim_event *ev, bool draining)
{
	const struct sim_cfg *c = s->cfg;
	const struct fsc_stats *st = fsc_stats(s->fs);

	if (ev->type == EV_EXPIRE && !st->sbuf_now) {
		/* a stale deadline: nothing is held, time does not move for it
		 * (else the run would end 90 s after its last write) */
		s->expire_armed = false;
		return;
	}
	if (s->measuring)  /* occupancy held since the previous event */
		s->sbuf_area += (double)st->sbuf_now * (double)(ev->t_ns - s->now);
	s->now = ev->t_ns;
	s->res->nr_events++;
	switch (ev->type) {
	case EV_WORKER_DONE:
		worker_done(s, ev->ptr);
		break;
	case EV_READ_DONE:
		enqueue(s, ev->ptr);
		break;
	case EV_USER_READ_DONE:
		s->reads_inflight--;
		req_piece_done(s, ev->arg);
		issue_user(s);
		break;
	case EV_ARRIVAL:
		s->arrival_armed = false;
		issue_user(s);
		break;
	case EV_DEV_DONE:
		dev_done(s, ev->ptr);
		break;
	case EV_EXPIRE:
		s->expire_armed = false;
		fsc_expire(s->fs, s->now);
		arm_expiry(s);
		break;
	case EV_COMMIT_TIMER:
		if (draining || workload_is_over(s))
			break;  /* stop ticking when the workload is over */
		if (s->done_reqs == s->last_tick_done && !s->inflight_user && !s->reads_inflight &&
		    !s->fw_nr && !s->arrival_armed) {
			s->err = -EDEADLK;  /* nothing moves: a stalled pipeline */
			break;
		}
		s->last_tick_done = s->done_reqs;
		commit_start(s);
		push(s, s->now + c->commit_interval_ns, EV_COMMIT_TIMER, NULL);
		break;
	case EV_SAMPLE:
		if (draining)
			break;
		if (c->csv || c->zone_csv)
			sample(s);
		if (!workload_is_over(s))
			push(s, s->now + c->sample_ns, EV_SAMPLE, NULL);
		break;
	}
	/* a refused write or zone op ends the run, as a read-only fs would */
	if (c->dev_error_abort && st->nr_dev_errors && !s->err)
		s->err = st->last_dev_error;
}

static void results(struct sim *s)
{
	const struct sim_cfg *c = s->cfg;
	const struct fsc_stats *st = fsc_stats(s->fs);
	struct sim_result *res = s->res;
	uint64_t dev = 0;
	uint32_t k;

	res->error = s->err;
	res->t_end_ns = s->now;
	res->user_bytes = st->user_bytes - s->snap_user;
	for (k = 0; k < FSC_NR_KINDS; k++) {
		res->dev_bytes[k] = st->dev_bytes[k] - s->snap_dev[k];
		dev += res->dev_bytes[k];
	}
	if (res->user_bytes) {
		res->wa = (double)dev / (double)res->user_bytes;
		res->wa_data = (double)(res->dev_bytes[FSC_KIND_USER] +
					res->dev_bytes[FSC_KIND_RELOC]) /
			       (double)res->user_bytes / copies(c->data_profile);
	}
	res->sbuf_mean = s->now > s->t_meas_ns ?
			 s->sbuf_area / (double)(s->now - s->t_meas_ns) : 0;
	res->sbuf_max = st->sbuf_max;
	res->nr_user_bios = s->issued;
	res->nr_bios = st->nr_bios_dispatched;
	res->nr_held = st->nr_held;
	res->nr_expired = st->nr_expired;
	res->nr_bg_expired = st->nr_bg_expired;
	res->nr_submit_unaligned = st->nr_submit_unaligned;
	res->nr_dev_errors = st->nr_dev_errors;
	res->last_dev_error = st->last_dev_error;
	res->nr_zone_resets = st->nr_zone_resets;
	res->nr_bg_created = st->nr_bg_created;
	res->nr_bg_removed = st->nr_bg_removed;
	res->nr_relocations = st->nr_relocations;
	res->nr_commits = st->nr_commits;
	res->finish_waste_bytes = st->finish_waste_bytes - s->snap_finish;
	res->nr_zone_finishes = st->nr_zone_finishes;
	res->active_max = st->active_max;
	res->nr_redirty = st->nr_redirty;
	res->nr_zeros = st->nr_zeros;
	res->bg_life_mean_ns = st->nr_bg_removed ?
			       (double)st->bg_life_ns_sum / (double)st->nr_bg_removed : 0;
	res->bg_life_max_ns = st->bg_life_ns_max;
}

/* File size from the usable capacity (room: sim_cfg_check()), and the
 * oracles at that utilization. */
static void size_workload(struct sim *s)
{
	const struct sim_cfg *c = s->cfg;
	struct sim_result *res = s->res;
	double zones = sim_usable_data_zones(c), np = (double)(c->zone_bytes / SECTOR), u;

	if (!c->trace)  /* a replay's file is sized by sim_replay_size() */
		s->file_blocks = (uint64_t)(c->util * zones * np);
	res->file_blocks = s->file_blocks;
	u = res->util_effective = (double)s->file_blocks / (zones * np);
	res->oracle_fifo = ana_wa_fifo(u);
	res->oracle_greedy = ana_wa_greedy(u, np);
	if (c->workload == SIM_WL_HOTCOLD && !c->trace) {
		res->oracle_hc_fifo = ana_wa_hotcold_fifo(u, c->hot_r, c->hot_f);
		res->oracle_hc_greedy = ana_wa_hotcold_greedy(u, c->hot_r, c->hot_f, np);
		res->oracle_twolog = ana_wa_twolog(u, c->hot_r, c->hot_f, np);
	}
}

/* The workload: a generator of traces/ over the file sized above. */
static int open_source(struct sim *s)
{
	static const enum trc_gen_kind kind_of[] = {
		[SIM_WL_SEQ] = TRC_GEN_SEQ, [SIM_WL_UNIFORM] = TRC_GEN_UNIFORM,
		[SIM_WL_HOTCOLD] = TRC_GEN_HOTCOLD, [SIM_WL_ZIPF] = TRC_GEN_ZIPF,
	};
	const struct sim_cfg *c = s->cfg;
	struct trc_map_source_cfg rc = { .in = c->trace, .map = s->map, .loops = c->loops };
	struct trc_gen_cfg g = {
		.kind = kind_of[c->workload],
		.seed = c->seed,
		.file_bytes = s->file_blocks * SECTOR,
		.req_bytes = c->bio_blocks * SECTOR,
		.nr_fill = s->fill_writes,
		.nr_reqs = s->total_writes,
		.hot_r = c->hot_r,
		.hot_f = c->hot_f,
		.zipf_theta = c->zipf_theta,
	};
	int ret;

	if (c->trace) {
		ret = trc_map_source_create(&rc, &s->src);
		if (ret)
			zl_msgf(s->res->msg, sizeof(s->res->msg), "replay: %s", strerror(-ret));
		return ret;
	}
	ret = trc_gen_create(&g, &s->src);
	if (ret)
		zl_msgf(s->res->msg, sizeof(s->res->msg),
			"workload %s: the generator refused its configuration (%s)",
			sim_workload_names[c->workload], strerror(-ret));
	return ret;
}

int sim_run(const struct sim_cfg *cfg, struct sim_result *res)
{
	const struct sim_cfg *c;
	struct sim *s;
	struct fsc_cfg fc;
	struct sim_event ev;
	uint32_t i;
	int ret;

	memset(res, 0, sizeof(*res));
	ret = sim_cfg_check(cfg, res->msg, sizeof(res->msg));
	if (ret)
		return res->error = ret;
	s = calloc(1, sizeof(*s));
	if (!s)
		return res->error = -ENOMEM;
	s->eff = *cfg;
	s->cfg = c = &s->eff;
	s->res = res;
	s->req_free = s->cur_req = NO_REQ;
	zl_rng_seed(&s->rng, c->seed);
	for (i = 0; i < FSC_MAX_DEVS; i++)
		s->last_zone[i] = UINT64_MAX;
	if (c->trace) {
		res->replay = true;
		ret = sim_replay_scan(c, &s->map, &res->trace_stat, res->msg, sizeof(res->msg));
		if (ret)
			goto out_free;
		res->trace = *trc_map_desc(s->map);
		if (!c->blkdev) {  /* before the devices: it may derive --zones */
			ret = sim_replay_size(&s->eff, s->map, &s->file_blocks, res->msg,
					      sizeof(res->msg));
			if (!ret)
				ret = sim_cfg_check(c, res->msg, sizeof(res->msg));
			if (ret)
				goto out_free;
		}
	}
	ret = sim_devs_open(&s->eff, &s->devs, res->msg, sizeof(res->msg));
	if (ret)
		goto out_free;
	res->zone_bytes = c->zone_bytes;
	res->nr_zones = c->nr_zones;
	res->nr_conv = c->nr_conv;
	if (c->blkdev && sim_cfg_check(c, res->msg, sizeof(res->msg))) {
		/* its geometry replaced --zones, --zone-size and --conv */
		char why[sizeof(res->msg)];

		memcpy(why, res->msg, sizeof(why));
		zl_msgf(res->msg, sizeof(res->msg), "%s: geometry not usable: %s", c->blkdev, why);
		ret = -EINVAL;
		goto out_free;
	}
	if (c->trace && c->blkdev) {
		ret = sim_replay_size(&s->eff, s->map, &s->file_blocks, res->msg, sizeof(res->msg));
		if (ret)
			goto out_free;
	}
	size_workload(s);

	fsc_cfg_init(&fc);
	fc.nr_devs = c->nr_devs;
	for (i = 0; i < c->nr_devs; i++)
		fc.devs[i] = s->devs.blk[i];
	fc.data_profile = c->data_profile;
	fc.meta_profile = c->meta_profile;
	fc.order = c->order;
	fc.release = c->release;
	fc.expire_ns = c->expire_ns;
	fc.file_bytes = s->file_blocks * SECTOR;
	fc.tree_fanout = c->metadata ? c->tree_fanout : 0;
	fc.leaf_items = c->leaf_items;
	fc.clean = c->clean;
	fc.clean_params = c->clean_params;
	fc.seed = c->seed;
	fc.place = c->place;
	fc.place_params = c->place_params;
	fc.max_active_zones = c->max_active;
	ret = fsc_create(&fc, &s->fs);
	if (ret)
		goto out_free;
	fsc_set_owner(s->fs, &sim_ops, s);

	/* --reserve counts block groups (as usable_data_zones() does): with DUP
	 * a free zone pair is one block group, and a reserve of zones that
	 * makes one DUP block group can strand relocation at ENOSPC */
	s->reserve_free_zones = c->reserve_zones *
		(bg_zones_per_dev(c->data_profile) > bg_zones_per_dev(c->meta_profile) ?
		 bg_zones_per_dev(c->data_profile) : bg_zones_per_dev(c->meta_profile));
	s->workers_max = c->order == FSC_ORDER_SERIALIZE && c->nr_workers ? 1 : c->nr_workers;
	if (c->trace) {
		/* the last pass is measured */
		s->warm_reqs = (uint64_t)(c->loops - 1) * res->trace.nr_recs;
		s->total_reqs = (uint64_t)c->loops * res->trace.nr_recs;
		res->loops_warmup = c->loops - 1;
		s->max_bio_blocks = REPLAY_BIO_BLOCKS < c->zone_bytes / SECTOR ?
				    REPLAY_BIO_BLOCKS : (uint32_t)(c->zone_bytes / SECTOR);
	} else {
		s->fill_writes = (s->file_blocks + c->bio_blocks - 1) / c->bio_blocks;
		s->total_writes = s->fill_writes + c->warmup_writes + c->writes;
		s->warm_reqs = s->fill_writes + c->warmup_writes;
		s->total_reqs = s->total_writes;
		s->max_bio_blocks = c->bio_blocks;
	}
	ret = open_source(s);
	if (ret)
		goto out_free;
	if (c->metadata && c->commit_interval_ns)
		push(s, c->commit_interval_ns, EV_COMMIT_TIMER, NULL);
	if (c->csv)
		fprintf(c->csv, "t_ns,user_bytes,dev_bytes,reloc_bytes,meta_bytes,sbuf_now,"
			"free_zones,zone_resets,expired,dev_errors,read_errors\n");
	if (c->zone_csv) {
		struct zblk_zone z[128];
		uint64_t pos = 0;
		uint32_t nr = 0;
		int n;

		fprintf(c->zone_csv, "t_ns");
		while ((n = zblk_report(s->devs.blk[0], pos, z, 128)) > 0) {
			for (int k = 0; k < n; k++)
				fprintf(c->zone_csv, ",z%u", nr++);
			pos = z[n - 1].start_bytes + z[n - 1].len_bytes;
		}
		fputc('\n', c->zone_csv);
	}
	if (c->sample_ns)
		push(s, 0, EV_SAMPLE, NULL);
	issue_user(s);

	while (!s->err && sim_heap_pop(&s->heap, &ev))
		handle(s, &ev, false);
	if (!s->err && !workload_is_over(s)) {
		/* nothing left to happen, and requests still wait */
		zl_msgf(res->msg, sizeof(res->msg), "the workload stopped: %u requests could not "
			"go on and nothing was in flight", s->inflight_reqs);
		s->err = -EDEADLK;
	}
	if (!s->err && c->metadata)
		commit_start(s);  /* final commit, drained below */
	while (!s->err && sim_heap_pop(&s->heap, &ev))
		handle(s, &ev, true);
	if (c->progress)
		fprintf(stderr, "\n");
	if (!s->measuring)
		snapshot(s);
	results(s);
	ret = s->err;

out_free:
	if (ret && !res->error)
		res->error = ret;
	/* a run that stopped early leaves bios in events and the worker
	 * queue: back to fs-core's pool, which fsc_destroy() frees */
	while (s->fs && sim_heap_pop(&s->heap, &ev))
		if (ev.ptr)
			fsc_bio_put(s->fs, ev.ptr);
	while (s->fs && s->q_head) {
		struct fsc_bio *b = s->q_head;

		s->q_head = b->next;
		fsc_bio_put(s->fs, b);
	}
	fsc_destroy(s->fs);
	trc_source_destroy(s->src);
	trc_map_destroy(s->map);
	free(s->reqs);
	free(s->fw_req);
	free(s->fw_target);
	sim_devs_close(&s->devs, res);
	sim_heap_fini(&s->heap);
	free(s);
	return ret;
}
