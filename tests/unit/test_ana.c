/*
 * test_ana.c — analysis/'s metrics library: the log-linear histogram
 * (exact small values, bucket error bound, quantile edges, empty) and the
 * write-amplification oracles against the published values of
 * wa-models.md and their limits.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "ana.h"

static void test_ana_hist_quantiles(void **state)
{
	static struct ana_hist h;
	uint64_t v;

	memset(&h, 0, sizeof(h));
	for (v = 1; v <= 10000; v++)
		ana_hist_add(&h, v);
	assert_in_range(ana_hist_quantile(&h, 0.5), 5000, 5200);
	assert_in_range(ana_hist_quantile(&h, 0.99), 9900, 10000);
	assert_int_equal(ana_hist_quantile(&h, 1.0), 10000);
	assert_int_equal(h.max, 10000);
	assert_int_equal(h.n, 10000);
	assert_int_equal(h.sum, 10000ULL * 10001 / 2);
}

static void test_ana_hist_small_values_are_exact(void **state)
{
	static struct ana_hist h;

	memset(&h, 0, sizeof(h));
	assert_int_equal(ana_hist_quantile(&h, 0.5), 0);  /* empty */
	for (uint64_t v = 0; v < 64; v++)
		ana_hist_add(&h, v);
	assert_int_equal(ana_hist_quantile(&h, 0.0), 0);
	assert_int_equal(ana_hist_quantile(&h, 0.5), 31);
	assert_int_equal(ana_hist_quantile(&h, 1.0), 63);
}

static void test_ana_hist_relative_error_is_bounded(void **state)
{
	static struct ana_hist h;
	uint64_t v;

	/* one value per histogram: the quantile is its bucket's upper bound,
	 * at most 1/32 above it, and never above the maximum */
	for (v = 100; v < (1ULL << 62); v = v * 3 + 7) {
		uint64_t q;

		memset(&h, 0, sizeof(h));
		ana_hist_add(&h, v);
		ana_hist_add(&h, v);
		q = ana_hist_quantile(&h, 0.5);
		assert_true(q >= v);
		assert_true((double)(q - v) <= (double)v / 32.0);
		assert_int_equal(ana_hist_quantile(&h, 1.0), v);
	}
	memset(&h, 0, sizeof(h));
	ana_hist_add(&h, UINT64_MAX);
	assert_int_equal(ana_hist_quantile(&h, 0.5), UINT64_MAX);
}

static void test_ana_oracles_match_published_values(void **state)
{
	assert_true(fabs(ana_wa_fifo(0.5) - 1.255) < 0.001);
	assert_true(fabs(ana_wa_fifo(0.7) - 1.876) < 0.001);
	assert_true(fabs(ana_wa_fifo(0.8) - 2.693) < 0.001);
	assert_true(fabs(ana_wa_fifo(0.9) - 5.179) < 0.001);
	assert_true(fabs(ana_wa_greedy(0.8, 64) - 2.598) < 0.001);
	assert_true(fabs(ana_wa_greedy(0.9, 64) - 4.816) < 0.001);
	/* hot/cold 90/10: one log (Eq. 14), two logs (Eqs. 20-22) */
	assert_true(fabs(ana_wa_hotcold_fifo(0.7, 0.9, 0.1) - 2.586) < 0.001);
	assert_true(fabs(ana_wa_hotcold_fifo(0.9, 0.9, 0.1) - 6.168) < 0.001);
	assert_true(fabs(ana_wa_twolog(0.8, 0.9, 0.1, 64) - 1.445) < 0.001);
	/* r = f is the uniform case */
	assert_true(fabs(ana_wa_hotcold_fifo(0.8, 0.5, 0.5) - ana_wa_fifo(0.8)) < 1e-6);
}

static void test_ana_oracles_limits_and_order(void **state)
{
	assert_true(ana_wa_fifo(0.0) == 1.0);
	assert_true(isinf(ana_wa_fifo(1.0)));
	assert_true(isinf(ana_wa_twolog(1.0, 0.9, 0.1, 64)));
	/* greedy never worse than FIFO; two logs never worse than one */
	for (double u = 0.5; u < 0.96; u += 0.05) {
		assert_true(ana_wa_greedy(u, 64) <= ana_wa_fifo(u) + 1e-9);
		assert_true(ana_wa_twolog(u, 0.9, 0.1, 64) <=
			    ana_wa_hotcold_greedy(u, 0.9, 0.1, 64) + 1e-9);
		assert_true(ana_wa_fifo(u) < ana_wa_fifo(u + 0.01));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ana_hist_quantiles),
		cmocka_unit_test(test_ana_hist_small_values_are_exact),
		cmocka_unit_test(test_ana_hist_relative_error_is_bounded),
		cmocka_unit_test(test_ana_oracles_match_published_values),
		cmocka_unit_test(test_ana_oracles_limits_and_order),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
