/*
 * sim_engine.c — the simulator's deterministic pieces: the generator
 * (xoshiro256** seeded by splitmix64, from emulator/zl_rng.h), service-time
 * distributions, a binary-heap event queue ordered by (time, insertion), a
 * log-linear histogram, and the closed-form write-amplification oracles of
 * wa-models.md.  No simulation logic here.
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

static uint32_t hist_idx(uint64_t v)
{
	int e;

	if (v < 64)
		return (uint32_t)v;
	e = 63 - __builtin_clzll(v);              /* 6..63 */
	return 64 + (uint32_t)(e - 6) * 32 + (uint32_t)((v >> (e - 5)) & 31);
}

static uint64_t hist_upper(uint32_t i)
{
	uint32_t e, sub;

	if (i < 64)
		return i;
	e = (i - 64) / 32 + 6;
	sub = (i - 64) % 32;
	return ((32ULL + sub + 1) << (e - 5)) - 1;
}

void sim_hist_add(struct sim_hist *h, uint64_t v)
{
	h->count[hist_idx(v)]++;
	h->n++;
	h->sum += v;
	if (v > h->max)
		h->max = v;
}

uint64_t sim_hist_quantile(const struct sim_hist *h, double q)
{
	uint64_t want, acc = 0, v;
	uint32_t i;

	if (!h->n)
		return 0;
	want = (uint64_t)ceil(q * (double)h->n);
	if (want < 1)
		want = 1;
	for (i = 0; i < SIM_HIST_BUCKETS; i++) {
		acc += h->count[i];
		if (acc >= want) {
			v = hist_upper(i);
			return v > h->max ? h->max : v;
		}
	}
	return h->max;
}

/* Root in (0,1) of x = exp(-alpha (1 - x)), alpha > 1, by bisection. */
static double fifo_x(double alpha)
{
	double lo = 0, hi = 1 - 1e-12;

	for (int i = 0; i < 200; i++) {
		double mid = (lo + hi) / 2;

		if (mid - exp(-alpha * (1 - mid)) < 0)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

double sim_wa_fifo(double u)
{
	if (u <= 0 || u >= 1)
		return u <= 0 ? 1.0 : INFINITY;
	return 1.0 / (1.0 - fifo_x(1.0 / u));
}

double sim_wa_greedy(double u, double np)
{
	double k = 1.0 + 1.0 / (2.0 * np);

	return sim_wa_fifo(u / k) / k;
}

/* Eq. 14's residual: positive below the root A, negative above it. */
static double hotcold_h(double a, double alpha, double r, double f)
{
	double h = 1 - a;

	if (r > 0)
		h += r / expm1(r / f * alpha / a);
	if (r < 1)
		h += (1 - r) / expm1((1 - r) / (1 - f) * alpha / a);
	return h;
}

double sim_wa_hotcold_fifo(double u, double r, double f)
{
	double alpha, lo = 1, hi = 2;

	if (u <= 0 || u >= 1 || f <= 0 || f >= 1)
		return u <= 0 ? 1.0 : INFINITY;
	alpha = 1.0 / u;
	while (hotcold_h(hi, alpha, r, f) > 0 && hi < 1e12)
		hi *= 2;
	for (int i = 0; i < 200; i++) {
		double mid = (lo + hi) / 2;

		if (hotcold_h(mid, alpha, r, f) > 0)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

double sim_wa_hotcold_greedy(double u, double r, double f, double np)
{
	double k = 1.0 + 1.0 / (2.0 * np);

	return sim_wa_hotcold_fifo(u / k, r, f) / k;
}

/* Eqs. 20-22 at a given share @p of the spare space for the hot log. */
static double twolog_at(double alpha, double r, double f, double np, double p)
{
	double ah = (p * (alpha - 1) + f) / f;
	double ac = ((1 - p) * (alpha - 1) + (1 - f)) / (1 - f);

	return r * sim_wa_greedy(1.0 / ah, np) + (1 - r) * sim_wa_greedy(1.0 / ac, np);
}

double sim_wa_twolog(double u, double r, double f, double np)
{
	double alpha, best = INFINITY, best_p = 0.5, lo, hi, p, w;
	int i;

	if (u <= 0 || u >= 1 || f <= 0 || f >= 1)
		return u <= 0 ? 1.0 : INFINITY;
	alpha = 1.0 / u;
	for (i = 1; i < 1000; i++) {  /* grid, then refine around the best */
		p = i / 1000.0;
		w = twolog_at(alpha, r, f, np, p);
		if (w < best) {
			best = w;
			best_p = p;
		}
	}
	lo = best_p - 0.001;
	hi = best_p + 0.001;
	for (i = 0; i < 100; i++) {  /* ternary search: convex near the minimum */
		double m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3;

		if (twolog_at(alpha, r, f, np, m1) < twolog_at(alpha, r, f, np, m2))
			hi = m2;
		else
			lo = m1;
	}
	w = twolog_at(alpha, r, f, np, (lo + hi) / 2);
	return w < best ? w : best;
}
