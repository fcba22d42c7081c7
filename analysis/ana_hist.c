/*
 * ana_hist.c — the log-linear histogram (32 sub-buckets per power of two)
 * that latency and lifetime metrics are counted in, and its quantiles.
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

static uint64_t hist_upper(uint32_t i)
{
	uint32_t e, sub;

	if (i < 64)
		return i;
	e = (i - 64) / 32 + 6;
	sub = (i - 64) % 32;
	return ((32ULL + sub + 1) << (e - 5)) - 1;
}

void ana_hist_add(struct ana_hist *h, uint64_t v)
{
	h->count[hist_idx(v)]++;
	h->n++;
	h->sum += v;
	if (v > h->max)
		h->max = v;
}

uint64_t ana_hist_quantile(const struct ana_hist *h, double q)
{
	uint64_t want, acc = 0, v;
	uint32_t i;

	if (!h->n)
		return 0;
	want = (uint64_t)ceil(q * (double)h->n);
	if (want < 1)
		want = 1;
	for (i = 0; i < ANA_HIST_BUCKETS; i++) {
		acc += h->count[i];
		if (acc >= want) {
			v = hist_upper(i);
			return v > h->max ? h->max : v;
		}
	}
	return h->max;
}
