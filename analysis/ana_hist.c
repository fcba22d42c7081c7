/*
 * ana_hist.c — the log-linear histogram (32 sub-buckets per power of two)
 * that latency and lifetime metrics are counted in, and its quantiles
 * (interpolated inside a bucket).
 * Fixed size, no allocation; not a general statistics library.
 */
#include <math.h>

#include "ana.h"

static uint32_t hist_idx(uint64_t v)
{
	int e;

	if (v < 64)
		return (uint32_t)v;
	e = 63 - __builtin_clzll(v);              /* 6..63 */
	return 64 + (uint32_t)(e - 6) * 32 + (uint32_t)((v >> (e - 5)) & 31);
}

uint64_t ana_hist_bucket_hi(uint32_t i)
{
	uint32_t e, sub;

	if (i < 64)
		return i;
	e = (i - 64) / 32 + 6;
	sub = (i - 64) % 32;
	return ((32ULL + sub + 1) << (e - 5)) - 1;
}

uint64_t ana_hist_bucket_lo(uint32_t i)
{
	return i ? ana_hist_bucket_hi(i - 1) + 1 : 0;
}

void ana_hist_add(struct ana_hist *h, uint64_t v)
{
	h->count[hist_idx(v)]++;
	h->n++;
	h->sum += v;
	if (h->n == 1 || v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
}

/* Rank @k (1..@c) of the @c values of bucket @i, spread evenly over it. */
static uint64_t bucket_interp(uint32_t i, uint64_t k, uint64_t c)
{
	uint64_t lo = ana_hist_bucket_lo(i), hi = ana_hist_bucket_hi(i);
	double w = (double)(hi - lo) + 1.0, off = w * ((double)k - 0.5) / (double)c;

	if (off >= (double)(hi - lo))
		return hi;
	return lo + (uint64_t)off;
}

uint64_t ana_hist_quantile(const struct ana_hist *h, double q)
{
	uint64_t want, acc = 0, v;
	uint32_t i;

	if (!h->n)
		return 0;
	want = (uint64_t)ceil(q * (double)h->n);
	if (want <= 1)
		return h->min;
	if (want >= h->n)
		return h->max;
	for (i = 0; i < ANA_HIST_BUCKETS; i++) {
		if (acc + h->count[i] >= want) {
			v = bucket_interp(i, want - acc, h->count[i]);
			v = v > h->max ? h->max : v;
			return v < h->min ? h->min : v;
		}
		acc += h->count[i];
	}
	return h->max;
}
