/*
 * ana_oracle.c — the closed-form write-amplification models of
 * wa-models.md (Desnoyers 2012): FIFO and greedy cleaning under uniform
 * random overwrites (Eqs. 4 and 12), hot/cold in one log (Eqs. 14, 16) and
 * the two-log bound (Eqs. 20-22).  Pure functions of the model's
 * parameters; the simulator prints them beside what it measured.
 */
#include <math.h>

#include "ana.h"

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

double ana_wa_fifo(double u)
{
	if (u <= 0 || u >= 1)
		return u <= 0 ? 1.0 : INFINITY;
	return 1.0 / (1.0 - fifo_x(1.0 / u));
}

double ana_wa_greedy(double u, double np)
{
	double k = 1.0 + 1.0 / (2.0 * np);

	return ana_wa_fifo(u / k) / k;
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

double ana_wa_hotcold_fifo(double u, double r, double f)
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

double ana_wa_hotcold_greedy(double u, double r, double f, double np)
{
	double k = 1.0 + 1.0 / (2.0 * np);

	return ana_wa_hotcold_fifo(u / k, r, f) / k;
}

/* Eqs. 20-22 at a given share @p of the spare space for the hot log. */
static double twolog_at(double alpha, double r, double f, double np, double p)
{
	double ah = (p * (alpha - 1) + f) / f;
	double ac = ((1 - p) * (alpha - 1) + (1 - f)) / (1 - f);

	return r * ana_wa_greedy(1.0 / ah, np) + (1 - r) * ana_wa_greedy(1.0 / ac, np);
}

double ana_wa_twolog(double u, double r, double f, double np)
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
