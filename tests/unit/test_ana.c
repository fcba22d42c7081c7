/*
 * test_ana.c — analysis/: the metrics library (the log-linear histogram:
 * exact small values, bucket error bound, interpolation inside a bucket,
 * quantile edges, empty, bucket bounds; the
 * write-amplification oracles against the published values of
 * wa-models.md and their limits) and the result tables (mean and 95% CI,
 * replicates grouped, CSV rows quoted, a file that is no point refused).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "ana.h"
#include "ana_results.h"
#include "zl_test.h"

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

	/* one value per histogram: exact (kept within [min, max]); two values
	 * in one bucket: within the bucket, at most 1/32 of the value away */
	for (v = 100; v < (1ULL << 62); v = v * 3 + 7) {
		uint64_t q, w = v + v / 64;

		memset(&h, 0, sizeof(h));
		ana_hist_add(&h, v);
		ana_hist_add(&h, v);
		assert_int_equal(ana_hist_quantile(&h, 0.5), v);
		assert_int_equal(ana_hist_quantile(&h, 1.0), v);
		ana_hist_add(&h, w);
		q = ana_hist_quantile(&h, 0.5);
		assert_true(q >= v && q <= w);
		assert_true(fabs((double)q - (double)v) <= (double)v / 32.0);
		assert_int_equal(ana_hist_quantile(&h, 1.0), w);
	}
	memset(&h, 0, sizeof(h));
	ana_hist_add(&h, UINT64_MAX);
	assert_int_equal(ana_hist_quantile(&h, 0.5), UINT64_MAX);
}

static void test_ana_hist_quantile_interpolates_inside_a_bucket(void **state)
{
	static struct ana_hist h;
	uint64_t v;

	/* 1024..2047: buckets 32 wide; the upper bound (the old answer) would
	 * put the median at 1535 + up to 31, interpolation at the true one */
	memset(&h, 0, sizeof(h));
	for (v = 1024; v < 2048; v++)
		ana_hist_add(&h, v);
	assert_in_range(ana_hist_quantile(&h, 0.5), 1534, 1536);
	assert_in_range(ana_hist_quantile(&h, 0.1), 1124, 1127);
	assert_int_equal(ana_hist_quantile(&h, 0.0), 1024);
	assert_int_equal(h.min, 1024);
	/* monotone in q */
	for (int i = 1; i <= 100; i++)
		assert_true(ana_hist_quantile(&h, (i - 1) / 100.0) <= ana_hist_quantile(&h, i / 100.0));
	/* bucket bounds tile the line: each starts after the last ends */
	for (uint32_t i = 1; i < ANA_HIST_BUCKETS; i++)
		assert_true(ana_hist_bucket_lo(i) == ana_hist_bucket_hi(i - 1) + 1);
	assert_int_equal(ana_hist_bucket_hi(ANA_HIST_BUCKETS - 1), UINT64_MAX);
	(void)state;
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

static void test_ana_mean_ci95_student_t(void **state)
{
	static const double x[] = { 1, 2, 3 };
	double m, ci;

	(void)state;
	ana_mean_ci95(x, 3, &m, &ci);
	assert_true(fabs(m - 2) < 1e-12);
	assert_true(fabs(ci - 4.303 / sqrt(3)) < 1e-9);       /* s = 1, t(0.975, 2) */
	ana_mean_ci95(x, 1, &m, &ci);
	assert_true(m == 1 && isnan(ci));
	ana_mean_ci95(x, 0, &m, &ci);
	assert_true(isnan(m));
}

static void test_ana_tables_group_seeds_and_quote(void **state)
{
	static const char *const pts[] = {
		"{\"point\": {\"id\": \"s-0000\", \"scenario\": \"s\", \"index\": 0, \"label\": \"u=1\", "
		"\"seed\": 1, \"exit_status\": 0, \"params\": {\"u\": \"1\", \"seed\": \"1\"}}, "
		"\"wa\": {\"data\": 2}, \"error\": \"none\", \"config\": {\"faults\": \"a,b\"}}",
		"{\"point\": {\"id\": \"s-0001\", \"scenario\": \"s\", \"index\": 1, \"label\": \"u=1\", "
		"\"seed\": 2, \"exit_status\": 0, \"params\": {\"u\": \"1\", \"seed\": \"2\"}}, "
		"\"wa\": {\"data\": 4}, \"error\": \"none\", \"config\": {\"faults\": \"a,b\"}}",
	};
	struct ana_set *set = ana_set_create();
	char *dir = zl_test_mkdtemp("ana"), *res = g_build_filename(dir, "r.csv", NULL);
	char *sum = g_build_filename(dir, "s.csv", NULL), *text;

	(void)state;
	for (int i = 0; i < 2; i++)
		assert_int_equal(ana_set_add(set, pts[i], strlen(pts[i]), NULL, NULL), 0);
	ana_set_group(set);
	assert_int_equal(set->groups->len, 1);
	assert_int_equal(ana_write_results(set, res, NULL), 0);
	assert_true(g_file_get_contents(res, &text, NULL, NULL));
	assert_string_equal(text, "id,scenario,index,label,exit_status,u,seed,wa.data,error,config.faults\n"
			    "s-0000,s,0,u=1,0,1,1,2,none,\"a,b\"\n"
			    "s-0001,s,1,u=1,0,1,2,4,none,\"a,b\"\n");
	g_free(text);
	assert_int_equal(ana_write_summary(set, sum, NULL), 0);
	assert_true(g_file_get_contents(sum, &text, NULL, NULL));
	/* mean 3, s = sqrt(2), t(0.975, 1) = 12.706: 12.706 * sqrt(2) / sqrt(2) */
	assert_string_equal(text, "scenario,label,u,n,wa.data.mean,wa.data.ci95\ns,u=1,1,2,3,12.706\n");
	g_free(text);
	assert_int_equal(ana_set_add(set, "{\"a\": 1}", 8, NULL, NULL), -1);
	ana_set_destroy(set);
	zl_test_rmdir(dir);
	g_free(res);
	g_free(sum);
	g_free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ana_hist_quantiles),
		cmocka_unit_test(test_ana_hist_small_values_are_exact),
		cmocka_unit_test(test_ana_hist_relative_error_is_bounded),
		cmocka_unit_test(test_ana_hist_quantile_interpolates_inside_a_bucket),
		cmocka_unit_test(test_ana_oracles_match_published_values),
		cmocka_unit_test(test_ana_oracles_limits_and_order),
		cmocka_unit_test(test_ana_mean_ci95_student_t),
		cmocka_unit_test(test_ana_tables_group_seeds_and_quote),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
