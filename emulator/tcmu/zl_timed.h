/*
 * zl_timed.h — completing commands when a device timing model (ztime) says
 * they complete, in real time: the tcmu handler's timed mode
 * (docs/TIMING.md "In the handler").
 *
 * The handler executes a command at once (zone state and data change at
 * submit) and hands its completion to zl_timed_submit() with the model's
 * view of it (struct ztime_req).  One struct ztime per disk, serialised by
 * this object's mutex:
 *   - sched=fifo: the command is given to ztime_submit() at its arrival;
 *     the model serves commands in arrival order (one mechanism, or the
 *     flash dies in parallel) and returns the completion time;
 *   - sched=sptf (hard disk): commands wait in arrival order; whenever the
 *     mechanism is idle, the one among the first params.qd waiting with the
 *     least ztime_position_ns() (seek + rotation) is given to the model.
 * A timer thread keeps the submitted commands in a heap ordered by
 * completion time (ties: arrival order) and calls @complete for each at that
 * time, outside the lock.  Tests run without the thread and with a fake
 * clock: zl_timed_run_until() completes, in order, what is due by then.
 */
#ifndef ZL_TIMED_H
#define ZL_TIMED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ztime.h"

struct zl_timed;

struct zl_timed_cfg {
	const struct ztime_params *params;
	struct ztime_geo geo;
	/* called once per command, at its completion time, from the timer thread
	   (or zl_timed_run_until()'s caller), never with the lock held */
	void (*complete)(void *arg, void *ctx, uint64_t due_ns);
	void *arg;
	bool thread;          /* start the timer thread (false: tests drive zl_timed_run_until()) */
};

/*
 * An idle start whose gap is at least this long counts also in idle_long_*:
 * the time between two jobs (the e2e check leaves a disk idle this long
 * before each job it judges by the idle starts), not a gap in one job's
 * feed (the guest's stalls within a job were under 0.9 s in every run).
 */
#define ZL_TIMED_IDLE_LONG_NS 2000000000ULL

struct zl_timed_stats {
	uint64_t timed;       /* commands completed through the model */
	uint64_t service_ns;  /* sum of (completion - start of service) */
	uint64_t wait_ns;     /* sum of (start of service - arrival): queueing */
	uint64_t pending;     /* submitted, not completed yet */
	uint64_t max_ns;      /* the longest (completion - arrival): completion when
				 the timer took the command (its clock, so the timer's
				 lateness included), before @complete */
	uint64_t max_model_ns;/* the longest (model's completion time - arrival) */
	uint64_t choices;     /* SPTF: choices made (a data command given to the model) */
	uint64_t candidates;  /* SPTF: sum over them of the commands chosen among
				 (waiting, arrived by then, within qd): their mean
				 is the queue depth the reordering saw */
	uint64_t idle_starts; /* positional (read/write) commands given to the model
				 with the mechanism idle (arrival after it was free)
				 once it had served something: each may lose up to a
				 turn (no read look-ahead is modelled) */
	uint64_t idle_ns;     /* sum over them of (given at - mechanism free) */
	uint64_t idle_long_starts; /* of them, those whose gap was at least
				 ZL_TIMED_IDLE_LONG_NS: a job boundary, not a feed
				 that ran dry within a job */
	uint64_t idle_long_ns;     /* ... their gaps */
	uint64_t jump_starts; /* positional commands given to the model with the
				 mechanism busy (not idle starts: those are counted
				 above, each start once) whose first byte is not where
				 the previous one given to it ended: a stream served
				 out of LBA order; each may wait up to a turn (and a
				 short seek) that a contiguous start would not */
	uint64_t back_starts; /* of them, those starting before that end (a late
				 partner: served after its successor) */
	uint64_t job_start_ns; /* the arrival (zl_timed_submit()'s @now_ns) of the
				 last positional command that found the mechanism
				 idle for at least ZL_TIMED_IDLE_LONG_NS, or of the
				 first positional command of all: where the job now
				 running (or last run) began, as the drive saw it;
				 0 before any */
	uint64_t last_done_ns; /* when the last positional command's completion,
				 or a flush's given to the model while the
				 mechanism was busy (a write job's flush,
				 waiting for the cache's destages), was taken
				 (the timer's clock, its lateness
				 included; zl_timed_run_until()'s @now_ns): with
				 job_start_ns, read after a job, the time the drive
				 held that job's commands; what the job's own
				 clock measured beyond it was spent outside the
				 drive (the host's path to it and back) */
};

/* Monotonic clock (CLOCK_MONOTONIC), ns: the handler's "now". */
uint64_t zl_timed_clock_ns(void);

/**
 * zl_timed_create() - the model for @cfg (ztime_create(): -EINVAL with
 * @msg when the drive cannot hold the geometry), and the timer thread if
 * cfg->thread.  Returns 0 or -errno.
 */
int zl_timed_create(const struct zl_timed_cfg *cfg, struct zl_timed **out, char *msg,
		    size_t msg_len);
/* Completes whatever is still queued at once (in order), stops the thread, frees.  NULL ok. */
void zl_timed_destroy(struct zl_timed *t);

/**
 * zl_timed_submit() - command @ctx, described by @r, arrived at @now_ns
 * (not before an earlier submit's).  @r NULL: a command that does not
 * reach the media (INQUIRY, REPORT ZONES, a refused command): it completes
 * after the command overhead (params.cmd_ns), beside the model.  Returns
 * 0, or -ENOMEM (nothing queued: the caller completes it itself).
 */
int zl_timed_submit(struct zl_timed *t, uint64_t now_ns, const struct ztime_req *r, void *ctx);

/*
 * Without the thread: complete, in completion-time order, every command due
 * at or before @now_ns (SPTF dispatches as the mechanism frees up).
 * Returns how many were completed.
 */
unsigned zl_timed_run_until(struct zl_timed *t, uint64_t now_ns);

/* The counters (a read changes nothing). */
void zl_timed_stats(struct zl_timed *t, struct zl_timed_stats *out);
const struct ztime_params *zl_timed_params(const struct zl_timed *t);

#endif /* ZL_TIMED_H */
