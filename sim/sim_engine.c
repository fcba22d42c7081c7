/*
 * sim_engine.c — the simulator's deterministic pieces: the generator
 * (xoshiro256** seeded by splitmix64, from common/zl_rng.h), service-time
 * distributions and a binary-heap event queue ordered by (time, insertion).
 * No simulation logic here; histograms and the write-amplification oracles
 * are in analysis/.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"
#include "zl_rng.h"

uint64_t sim_dist_draw(struct zl_rng *r, enum sim_dist d, uint64_t mean_ns, double alpha)
{
	double u;

	switch (d) {
	case SIM_DIST_EXP:
		u = zl_rng_unit(r);
		return (uint64_t)(-log(1.0 - u) * (double)mean_ns);
	case SIM_DIST_PARETO:
		/* scale xm so that the mean is mean_ns: xm * alpha / (alpha - 1) */
		u = zl_rng_unit(r);
		return (uint64_t)((double)mean_ns * (alpha - 1) / alpha / pow(1.0 - u, 1.0 / alpha));
	default:
		return mean_ns;
	}
}

static inline bool ev_less(const struct sim_event *a, const struct sim_event *b)
{
	return a->t_ns < b->t_ns || (a->t_ns == b->t_ns && a->seq < b->seq);
}

int sim_heap_push(struct sim_heap *h, uint64_t t_ns, uint32_t type, uint32_t arg, void *ptr)
{
	struct sim_event e = { t_ns, h->seq++, type, arg, ptr };
	uint32_t i;

	if (h->nr == h->cap) {
		uint32_t cap = h->cap ? h->cap * 2 : 256;
		struct sim_event *v = realloc(h->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		h->v = v;
		h->cap = cap;
	}
	for (i = h->nr++; i > 0; ) {
		uint32_t p = (i - 1) / 2;

		if (!ev_less(&e, &h->v[p]))
			break;
		h->v[i] = h->v[p];
		i = p;
	}
	h->v[i] = e;
	return 0;
}

bool sim_heap_pop(struct sim_heap *h, struct sim_event *out)
{
	struct sim_event last;
	uint32_t i = 0, c;

	if (!h->nr)
		return false;
	*out = h->v[0];
	last = h->v[--h->nr];
	while ((c = 2 * i + 1) < h->nr) {
		if (c + 1 < h->nr && ev_less(&h->v[c + 1], &h->v[c]))
			c++;
		if (!ev_less(&h->v[c], &last))
			break;
		h->v[i] = h->v[c];
		i = c;
	}
	h->v[i] = last;
	return true;
}

void sim_heap_fini(struct sim_heap *h)
{
	free(h->v);
	memset(h, 0, sizeof(*h));
}
