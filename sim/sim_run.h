/*
 * sim_run.h — private to the simulator: the state of one running
 * simulation and what its parts give each other.  The parts, from the
 * bottom up (each uses only those before it):
 *
 *   sim_time.c   devices on the timing model (--timing-model): one
 *                struct ztime per device, zone operations charged
 *   sim_io.c     the way down: workers that reorder bios, device time,
 *                transaction commits, fs-core's owner callbacks
 *   sim_clean.c  cleaning: picking victims and driving their relocation
 *   sim_acct.c   accounting: the measured window, CSV samples, results
 *   sim_req.c    requests: arrival to completion of all their pieces
 *   sim_issue.c  the workload path: records from the source into requests,
 *                write bios, reads, discards and flushes
 *   sim_fail.c   a device failure and fs-core's rebuild onto a new device
 *                (--fail-dev): its steps timed, paced by --rebuild-prio
 *   sim_loop.c   the event loop: each event to the part that owns it
 *   sim_run.c    sim_run(): setup, the loop, results, teardown
 *
 * The one way back up: the pipeline tells the workload that a piece of a
 * request is over and that there is room to issue more through the hooks
 * in struct sim_up_ops (set by sim_run.c), as fs-core tells its owner.
 * Not an interface: nothing outside sim/ includes it.
 */
#ifndef SIM_RUN_H
#define SIM_RUN_H

#include <errno.h>

#include "fsc_int.h"
#include "sim_wl.h"
#include "ztime.h"

/* Events on the heap (struct sim_event.type). */
enum {
	EV_WORKER_DONE = 1, EV_DEV_DONE, EV_COMMIT_TIMER, EV_EXPIRE, EV_SAMPLE, EV_READ_DONE,
	EV_USER_READ_DONE, EV_ARRIVAL, EV_COMMIT_FLUSHED, EV_RB_STEP, EV_RB_WRITES, EV_RB_DONE,
};

/* I/Os one rebuild step may report (fsc_replace_step(): at least
 * FSC_MAX_STRIPES + 4). */
#define SIM_RB_IOS 64u
/* Target writes one batch of the rebuild keeps, merged (a batch ends
 * before it could have more).  SIM_RB_DEPTH_MAX is in sim.h. */
#define SIM_RB_RUNS 256u

/* One batch of the copy (sim_fail.c): its target writes, merged into runs
 * (the zone order kept), timed once its reads are in. */
struct sim_rb_batch {
	uint64_t start_ns;                 /* dispatched: its reads went to the sources */
	uint64_t reads_ns;                 /* its last read done */
	uint64_t phys[SIM_RB_RUNS], len_bytes[SIM_RB_RUNS];
	uint32_t nr_runs;
	bool last;                         /* it copied the rest: finish after it */
};

/* The failure and rebuild of a run (sim_fail.c). */
struct sim_fail {
	bool on;                           /* --fail-dev given */
	bool running;                      /* fs-core's replace is running */
	bool wait_idle;                    /* idle priority: the next batch waits */
	bool copied;                       /* fs-core has nothing more to copy */
	bool dispatch_armed;               /* an EV_RB_STEP is queued */
	bool blocked;                      /* a dispatch found --rebuild-depth batches in flight */
	uint32_t spare;                    /* the new device: s->devs.blk[spare] */
	uint32_t tdev[FSC_MAX_DEVS];       /* fs-core's slot -> the device timed */
	uint64_t dev_inflight;             /* bios dispatched, not completed */
	uint64_t wr_tail_ns;               /* the newest batch's writes were timed at */
	uint64_t done_tail_ns;             /* the newest batch's writes done */
	struct fsc_rio ios[SIM_RB_IOS];    /* one fsc_replace_step()'s I/O */
	/* batches in flight, oldest first: [head, head + nr) of the ring;
	 * nr_timed of them have had their writes timed */
	struct sim_rb_batch b[SIM_RB_DEPTH_MAX];
	uint32_t head, nr, nr_timed;
	uint64_t nr_batches;               /* dispatched (the first goes at the failure) */
};

#define NO_REQ UINT32_MAX
#define SIM_LA 8u  /* records read ahead of the one being issued */

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

struct sim;

/* What the pipeline (sim_io.c) calls back up into: the workload's side. */
struct sim_up_ops {
	/* A piece of request @req is over: a user write bio, a waited commit. */
	void (*piece_done)(struct sim *s, uint32_t req);
	/* A bio is over: room may have freed, issue what can go. */
	void (*kick)(struct sim *s);
};

struct sim {
	const struct sim_cfg *cfg;         /* = &eff */
	struct sim_cfg eff;                /* the caller's, with the device's geometry */
	struct sim_result *res;
	const struct sim_up_ops *up;
	struct zl_rng rng;
	struct sim_heap heap;
	uint64_t now;
	struct sim_devs devs;
	struct fsc *fs;
	struct sim_fail fl;                /* --fail-dev (sim_fail.c) */
	uint64_t busy_until[FSC_MAX_DEVS];
	uint64_t last_zone[FSC_MAX_DEVS];
	/* --timing-model (sim_time.c): one drive per device, or NULL */
	struct ztime *zt[FSC_MAX_DEVS];
	struct sim_tops *tops;             /* their zblk ops with zone ops timed */
	/* workers */
	struct fsc_bio *q_head, *q_tail;   /* waiting for a worker */
	uint32_t workers_busy, workers_max;
	/* workload */
	struct sim_wl wl;                  /* its source's plan: file, request counts */
	struct trc_source *src;            /* owned */
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
	bool wb_run;                       /* --buffered: w_lbn/w_left is a writeback run, one extent */
	bool in_issue;                     /* sim_issue() is running (no re-entry) */
	/* the write bio at w_lbn waits for space (ENOSPC, the throttle, the
	 * metadata reservation) or for the commit that frees it: the rebuild's
	 * idle priority takes the foreground as idle then (sim_fail.c) */
	bool w_space_wait;
	uint64_t issued, done_user;        /* user write bios issued / finished */
	uint32_t inflight_user;
	/* requests: a record without TRC_HAS_CONT starts one */
	struct sim_req *reqs;              /* slots, indexed by bio->worker / event arg */
	uint32_t nr_reqs_cap, req_free;    /* free list through ->next_free */
	uint32_t cur_req;                  /* the last request started, while open */
	uint64_t nr_req_started;
	uint32_t inflight_reqs;
	uint64_t done_reqs;
	bool arrival_armed;                /* timed: an EV_ARRIVAL is pending */
	uint32_t reads_inflight;           /* device reads of user reads */
	/* requests waiting for a commit (flushes): FIFO of (request, commit number) */
	uint32_t *fw_req;
	uint64_t *fw_target;
	uint32_t fw_head, fw_nr, fw_cap;
	uint64_t commits_started, commits_done;
	bool measuring;
	uint64_t snap_user, snap_dev[FSC_NR_KINDS], snap_finish;
	/* commits */
	bool in_commit, commit_pending;
	/* Linux 6.1 reclaim (--reclaim linux-6.1, sim_clean.c): a commit woke
	 * the cleaner (a flush, or the commit timer); a pass is running */
	bool cleaner_wake, rc_wanted, rc_active;
	struct fsc_bg *rc_victim;     /* --space-resv linux-6.12: the reclaim victim whose
				      * reservation waits for a commit */
	bool resv_held;             /* --space-resv: the next bio's reservation is made */
	bool resv_wait;             /* ... it waits for the commit it asked for */
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

/* An event at @t; out of memory ends the run. */
static inline void sim_push(struct sim *s, uint64_t t, uint32_t type, void *ptr)
{
	if (sim_heap_push(&s->heap, t, type, 0, ptr) && !s->err)
		s->err = -ENOMEM;
}

static inline void sim_push_arg(struct sim *s, uint64_t t, uint32_t type, uint32_t arg)
{
	if (sim_heap_push(&s->heap, t, type, arg, NULL) && !s->err)
		s->err = -ENOMEM;
}

/* ---- the timing model (sim_time.c) ---- */

/*
 * sim_time_open() - with --timing-model: one struct ztime per device and
 * their zone operations timed.  0, or -EINVAL with the text, the device,
 * its geometry and the model's reason in res->msg (a text that does not
 * parse, a disk the drive cannot hold).  sim_time_close() in any case.
 */
int sim_time_open(struct sim *s);
void sim_time_close(struct sim *s);
/*
 * sim_time_cmd() - command @op of @bytes at device byte @off on device @d,
 * dispatched now: its completion on the model (@extra_ns of injected
 * latency added).  Zone operations block the device until they are over.
 */
uint64_t sim_time_cmd(struct sim *s, uint32_t d, enum ztime_op op, uint64_t off, uint64_t bytes,
		      uint64_t extra_ns);

/* ---- the way down (sim_io.c) ---- */

/* fs-core's callbacks to the simulator (fsc_set_owner(), the run as arg). */
extern const struct fsc_owner_ops sim_owner_ops;

/*
 * sim_dev_time() - completion time of command @op (ZTIME_READ or
 * ZTIME_WRITE) of @bytes on device @d at @zone (physical byte address of
 * the zone), byte @off, @extra_ns of injected latency included.  On the
 * timing model when there is one (sim_time_cmd()), else the first-order
 * model: overhead + bytes / bandwidth + a zone switch, the device busy
 * until then.
 */
uint64_t sim_dev_time(struct sim *s, uint32_t d, enum ztime_op op, uint64_t zone, uint64_t off,
		      uint64_t bytes, uint64_t extra_ns);
/* sim_enqueue() - a bio enters the worker stage (or, without workers, submission). */
void sim_enqueue(struct sim *s, struct fsc_bio *bio);
/* sim_worker_done() - @bio's worker finished: submit it, start the next queued. */
void sim_worker_done(struct sim *s, struct fsc_bio *bio);
/* sim_dev_done() - the devices finished @bio: fs-core completes it, its owner hears. */
void sim_dev_done(struct sim *s, struct fsc_bio *bio);
/* sim_expire() - the submit buffer's deadline: release what expired, arm the next. */
void sim_expire(struct sim *s);
/* sim_commit_start() - start a commit, or mark one pending behind the running one. */
void sim_commit_start(struct sim *s);
/* sim_commit_end() - the running commit is over (its writes and, timed, its
 * flushes): fs-core finishes it, waiters hear, a pending one starts. */
void sim_commit_end(struct sim *s);
/*
 * sim_commit_wait() - request @req is told (up->piece_done) when the
 * commit starting now, or pending behind the running one, has finished.
 * Starts nothing.  0 or -ENOMEM.
 */
int sim_commit_wait(struct sim *s, uint32_t req);

/* ---- cleaning (sim_clean.c) ---- */

/*
 * sim_clean() - relocate victims until the free zones are above the
 * reserve (their copies enter the write path, after a read of the source
 * with --reloc-reads); with nothing to pick, a commit to unpin.
 */
void sim_clean(struct sim *s);

/* ---- accounting (sim_acct.c) ---- */

/* sim_acct_snapshot() - the measured window starts now. */
void sim_acct_snapshot(struct sim *s);
/* sim_acct_workload() - the file and the oracles at its utilization, into the result. */
void sim_acct_workload(struct sim *s);
/* sim_acct_csv_headers() - the header rows of the time-series and zone CSVs. */
void sim_acct_csv_headers(struct sim *s);
/* sim_acct_sample() - one row of each CSV asked for (columns: docs/SIM.md). */
void sim_acct_sample(struct sim *s);
/* sim_acct_results() - fs-core's counters over the measured window into the result. */
void sim_acct_results(struct sim *s);

/* ---- requests (sim_req.c) ---- */

/* sim_req_new() - a new request of @op arriving at @t_ns; NO_REQ when out of memory. */
uint32_t sim_req_new(struct sim *s, uint8_t op, uint64_t t_ns);
/* sim_req_piece_done() - a piece of request @i is over; the last one ends it. */
void sim_req_piece_done(struct sim *s, uint32_t i);
/* sim_req_close() - no more records of the current request: it ends with its last piece. */
void sim_req_close(struct sim *s);
/* sim_req_flush() - request @i (a flush) waits for the next commit to start and finish. */
int sim_req_flush(struct sim *s, uint32_t i);

/* ---- the workload path (sim_issue.c) ---- */

/* sim_issue() - issue records of the workload until one must wait. */
void sim_issue(struct sim *s);

/* Every request issued and finished. */
static inline bool sim_workload_is_over(const struct sim *s)
{
	return s->src_done && !s->inflight_reqs;
}

/* ---- a device failure and fs-core's rebuild (sim_fail.c) ---- */

/* sim_fail_init() - before the devices open: the spare's slot, the timing map. */
void sim_fail_init(struct sim *s);
/* sim_fail_poll() - after every event: the failures when due, an idle step. */
void sim_fail_poll(struct sim *s);
/* sim_fail_event() - EV_RB_STEP, EV_RB_WRITES, EV_RB_DONE. */
void sim_fail_event(struct sim *s, const struct sim_event *ev);
/* sim_fail_req_done() - a request that arrived at @t_arrive_ns is over:
 * its latency into the before / during histograms. */
void sim_fail_req_done(struct sim *s, uint64_t t_arrive_ns);
/* sim_fail_end() - after the loop: the result's error when data was lost
 * or the data check failed (FSC_E_DATA_LOST, FSC_E_VERIFY), else 0. */
int sim_fail_end(struct sim *s);
/*
 * sim_read_stripe() - the stripe a read of stripe @st of @bg goes to: @st
 * when its device is present, else a present mirror (RAID1, DUP: any other
 * stripe; RAID10: its pair), else SIM_NO_DEV (no copy left).  Inline: the
 * way down (sim_io.c, sim_clean.c, sim_issue.c) uses it below sim_fail.c.
 */
static inline uint32_t sim_read_stripe(const struct sim *s, const struct fsc_bg *bg, uint32_t st)
{
	uint32_t sub = bg->sub_stripes ? bg->sub_stripes : 1, lo = 0, hi = 0, i;

	if (s->fs->devs[bg->stripes[st].dev].blk)
		return st;
	switch (bg->profile) {
	case FSC_DUP:
	case FSC_RAID1:
	case FSC_RAID5:  /* the hypothetical RAID5/6: any stripe (all end together) */
	case FSC_RAID6:
		hi = bg->nr_stripes;
		break;
	case FSC_RAID10:
		lo = st / sub * sub;
		hi = lo + sub;
		break;
	default:
		return SIM_NO_DEV;
	}
	for (i = lo; i < hi; i++)
		if (i != st && s->fs->devs[bg->stripes[i].dev].blk)
			return i;
	return SIM_NO_DEV;
}

/*
 * sim_r56_read() - the stripes a read of stripe @st of a RAID5/6 @bg (the
 * hypothetical profile) goes to, in @out: @st when its device is present
 * (1), else the first N-1 (RAID5) / N-2 (RAID6) present others, the same
 * range of each, to reconstruct it from (a degraded read); 0: too few left.
 */
static inline uint32_t sim_r56_read(const struct sim *s, const struct fsc_bg *bg, uint32_t st,
				    uint32_t *out)
{
	uint32_t need = bg->nr_stripes - fsc_r56_nr_parity(bg), n = 0, i;

	if (s->fs->devs[bg->stripes[st].dev].blk) {
		out[0] = st;
		return 1;
	}
	for (i = 0; i < bg->nr_stripes && n < need; i++)
		if (i != st && s->fs->devs[bg->stripes[i].dev].blk)
			out[n++] = i;
	return n == need ? n : 0;
}

/*
 * sim_write_dev() - the device that times a write to stripe @st of @bg:
 * fs-core's slot mapped to the device that holds it now; the new device
 * for a write fs-core duplicates to it (fsc_rp_dup_write(): the replace
 * running, its source, a block group not "to copy"); SIM_NO_DEV for a
 * missing device (a degraded write).
 */
static inline uint32_t sim_write_dev(const struct sim *s, const struct fsc_bg *bg, uint32_t st)
{
	uint32_t d = bg->stripes[st].dev;

	if (s->fs->devs[d].blk)
		return s->fl.tdev[d];
	if (s->fl.running && d == s->fs->rp.src && !bg->rp_to_copy)
		return s->fl.spare;
	return SIM_NO_DEV;
}

/* ---- the event loop (sim_loop.c) ---- */

/*
 * sim_loop() - run the events until none is left, then the final commit
 * and what it drains.  s->err: what stopped it (-EDEADLK: the workload
 * stopped with requests waiting and nothing in flight).
 */
void sim_loop(struct sim *s);

#endif /* SIM_RUN_H */
