/*
 * ana.h — the metrics library of analysis/: the histogram and percentile
 * code every run counts latencies in, and the analytic write-amplification
 * oracles results are compared with.  The simulator links it; the plotting
 * and comparison side of analysis/ reads result files only.  Pure: no I/O,
 * no allocation, no GLib.
 */
#ifndef ANA_H
#define ANA_H

#include <stdint.h>

/* Log-linear histogram: exact below 64, then 32 sub-buckets per power of
 * two (relative error under 3.2%).  Zero-initialise before use. */
#define ANA_HIST_BUCKETS (64 + 58 * 32)
struct ana_hist {
	uint64_t count[ANA_HIST_BUCKETS];
	uint64_t n, min, max, sum;  /* values counted, smallest, largest, their sum (unit of the values) */
};
void ana_hist_add(struct ana_hist *h, uint64_t v);
/* Value at quantile @q (0..1): the value of rank ceil(q n), interpolated
 * inside its bucket as if the bucket's values were spread evenly over it
 * (rank k of c at lo + width (k - 1/2) / c, rounded down), kept within the
 * bucket and within [min, max]; the first rank is min, the last max.
 * Exact below 64 and for a histogram of one value; otherwise within one
 * bucket width (under 3.2%) either way.  0 for an empty histogram. */
uint64_t ana_hist_quantile(const struct ana_hist *h, double q);
/* Bucket @i's smallest and largest value (inclusive); 0..ANA_HIST_BUCKETS-1. */
uint64_t ana_hist_bucket_lo(uint32_t i);
uint64_t ana_hist_bucket_hi(uint32_t i);

/* Write-amplification oracles (reference: wa-models.md), u = live data /
 * physical capacity in (0, 1); u <= 0 gives 1, u >= 1 infinity. */
/* FIFO cleaning, uniform random overwrites (Eq. 4). */
double ana_wa_fifo(double u);
/* Greedy cleaning with @np pages (blocks) per segment (Eq. 12). */
double ana_wa_greedy(double u, double np);
/* Hot/cold, one log: a fraction @r of the writes to a fraction @f of the
 * space.  Eq. 14 (FIFO) and Eq. 16 (greedy, Np = @np). */
double ana_wa_hotcold_fifo(double u, double r, double f);
double ana_wa_hotcold_greedy(double u, double r, double f, double np);
/* Hot/cold in two logs with the best split of spare space (Eqs. 20-22):
 * a lower bound for any two-stream placement. */
double ana_wa_twolog(double u, double r, double f, double np);

#endif /* ANA_H */
