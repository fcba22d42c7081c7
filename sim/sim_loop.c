/*
 * sim_loop.c — the event loop of a run: events come off the heap in
 * (virtual time, insertion) order and each goes to the part that owns it
 * (the pipeline, the requests, the workload path, the accounting); the
 * commit timer doubles as a stall detector.  After the workload, a final
 * commit and what it drains.  It keeps the clock (s->now) and the
 * submit-buffer occupancy integral; it decides nothing about bios itself.
 */
#include <stdio.h>
#include <stdlib.h>
#include "sim_run.h"

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
	if (c->max_events && s->res->nr_events > c->max_events) {
		zl_msgf(s->res->msg, sizeof(s->res->msg), "the run passed %llu events "
			"(the watchdog)", (unsigned long long)c->max_events);
		s->err = -ETIMEDOUT;
		/* back on the heap, so that run_destroy() returns its bio */
		if (sim_heap_push(&s->heap, ev->t_ns, ev->type, ev->arg, ev->ptr) && ev->ptr)
			fsc_bio_put(s->fs, ev->ptr);
		return;
	}
	switch (ev->type) {
	case EV_WORKER_DONE:
		sim_worker_done(s, ev->ptr);
		break;
	case EV_READ_DONE:
		sim_enqueue(s, ev->ptr);  /* a relocation read: now its write */
		break;
	case EV_USER_READ_DONE:
		s->reads_inflight--;
		sim_req_piece_done(s, ev->arg);
		sim_issue(s);
		break;
	case EV_ARRIVAL:
		s->arrival_armed = false;
		sim_issue(s);
		break;
	case EV_DEV_DONE:
		sim_dev_done(s, ev->ptr);
		break;
	case EV_COMMIT_FLUSHED:
		sim_commit_end(s);
		s->up->kick(s);
		break;
	case EV_EXPIRE:
		sim_expire(s);
		break;
	case EV_RB_STEP:
	case EV_RB_WRITES:
	case EV_RB_DONE:
		sim_fail_event(s, ev);
		break;
	case EV_COMMIT_TIMER:
		if (draining || sim_workload_is_over(s))
			break;  /* stop ticking when the workload is over */
		if (s->done_reqs == s->last_tick_done && !s->inflight_user && !s->reads_inflight &&
		    !s->fw_nr && !s->arrival_armed && !s->fl.running) {
			/* (a running rebuild moves: it brings the new device's space) */
			s->err = -EDEADLK;  /* nothing moves: a stalled pipeline */
			break;
		}
		s->last_tick_done = s->done_reqs;
		s->cleaner_wake = true;  /* the transaction thread wakes the cleaner each tick */
		sim_commit_start(s);
		sim_push(s, s->now + c->commit_interval_ns, EV_COMMIT_TIMER, NULL);
		break;
	case EV_SAMPLE:
		if (draining)
			break;
		if (c->csv || c->zone_csv)
			sim_acct_sample(s);
		if (!sim_workload_is_over(s))
			sim_push(s, s->now + c->sample_ns, EV_SAMPLE, NULL);
		break;
	}
	sim_fail_poll(s);  /* --fail-dev: a failure due, an idle moment for the rebuild */
	/* a refused write or zone op ends the run, as a read-only fs would */
	if (c->dev_error_abort && st->nr_dev_errors && !s->err)
		s->err = st->last_dev_error;
}


void sim_loop(struct sim *s)
{
	struct sim_event ev;

	while (!s->err && sim_heap_pop(&s->heap, &ev))
		handle(s, &ev, false);
	if (!s->err && !sim_workload_is_over(s)) {
		/* nothing left to happen, and requests still wait */
		zl_msgf(s->res->msg, sizeof(s->res->msg), "the workload stopped: %u requests "
			"could not go on and nothing was in flight", s->inflight_reqs);
		s->err = -EDEADLK;
	}
	if (!s->err && s->cfg->metadata)
		sim_commit_start(s);  /* final commit, drained below */
	while (!s->err && sim_heap_pop(&s->heap, &ev))
		handle(s, &ev, true);
}
