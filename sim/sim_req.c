/*
 * sim_req.c — the requests of a workload: a record without TRC_HAS_CONT
 * starts one, its pieces (write bios, device reads, the commit a flush
 * waits for) end it, and its latency from arrival to completion goes into
 * the per-op histograms when it arrived in the measured window.  Slots
 * are recycled through a free list, so a bio carries its request's index.
 * Issuing the pieces is the workload path's (sim_issue.c), not this file's.
 */
#include <stdlib.h>

#include "sim_run.h"

/* A new request of @op arriving at @t_ns; NO_REQ when out of memory. */
uint32_t sim_req_new(struct sim *s, uint8_t op, uint64_t t_ns)
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
	if (r->op == TRC_OP_READ || r->op == TRC_OP_WRITE)
		sim_fail_req_done(s, r->t_arrive_ns);
	s->inflight_reqs--;
	s->done_reqs++;
	r->next_free = s->req_free;
	s->req_free = i;
}

void sim_req_piece_done(struct sim *s, uint32_t i)
{
	if (i == NO_REQ || i >= s->nr_reqs_cap)
		return;
	if (!--s->reqs[i].pieces && !s->reqs[i].open)
		req_finish(s, i);
}

/* No more records of the current request: it ends with its last piece. */
void sim_req_close(struct sim *s)
{
	uint32_t i = s->cur_req;

	if (i == NO_REQ)
		return;
	s->cur_req = NO_REQ;
	s->reqs[i].open = false;
	if (!s->reqs[i].pieces)
		req_finish(s, i);
}

int sim_req_flush(struct sim *s, uint32_t i)
{
	int ret = sim_commit_wait(s, i);

	if (ret)
		return ret;
	s->reqs[i].pieces++;
	s->res->nr_flush_commits++;
	s->cleaner_wake = true;  /* sync wakes the transaction thread, which wakes the cleaner */
	sim_commit_start(s);  /* or pending behind the running one */
	return 0;
}
