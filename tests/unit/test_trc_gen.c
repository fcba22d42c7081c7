/*
 * test_trc_gen.c — the synthetic workload sources: the sequential fill and
 * its wrap, uniform offsets inside the span, hot/cold shares and hints,
 * Zipf rank frequencies against 1/k^theta, determinism per seed, the end of
 * the stream, and the configurations they refuse.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "trc_gen.h"

static struct trc_source *gen(enum trc_gen_kind kind, uint64_t file_blocks, uint32_t req_blocks,
			      uint64_t nr_fill, uint64_t nr_reqs)
{
	struct trc_gen_cfg c = {
		.kind = kind, .seed = 42, .file_bytes = file_blocks * 4096,
		.req_bytes = req_blocks * 4096, .nr_fill = nr_fill, .nr_reqs = nr_reqs,
		.hot_r = 0.9, .hot_f = 0.1, .zipf_theta = 0.99, .ts_step_ns = 10,
	};
	struct trc_source *s = NULL;

	assert_int_equal(trc_gen_create(&c, &s), 0);
	assert_non_null(s);
	return s;
}

static void test_trc_gen_fill_is_sequential_and_wraps(void **state)
{
	struct trc_source *s = gen(TRC_GEN_SEQ, 10, 3, 0, 7);
	static const uint64_t want[] = { 0, 3, 6, 0, 3, 6, 0 };  /* 9 + 3 > 10: back to 0 */
	struct trc_rec r;

	for (int i = 0; i < 7; i++) {
		assert_int_equal(trc_source_next(s, &r), 1);
		assert_int_equal(r.op, TRC_OP_WRITE);
		assert_int_equal(r.offset_bytes, want[i] * 4096);
		assert_int_equal(r.len_bytes, 3 * 4096);
		assert_int_equal(r.ts_ns, (uint64_t)i * 10);
	}
	assert_int_equal(trc_source_next(s, &r), 0);  /* the end, and it stays there */
	assert_int_equal(trc_source_next(s, &r), 0);
	trc_source_destroy(s);
}

static void test_trc_gen_uniform_stays_in_span_after_the_fill(void **state)
{
	struct trc_source *s = gen(TRC_GEN_UNIFORM, 1000, 4, 250, 100250);
	uint64_t hits_first = 0, hits_last = 0;
	struct trc_rec r;

	for (uint64_t i = 0; i < 250; i++) {
		assert_int_equal(trc_source_next(s, &r), 1);
		assert_int_equal(r.offset_bytes, i * 4 * 4096);
	}
	for (int i = 0; i < 100000; i++) {
		assert_int_equal(trc_source_next(s, &r), 1);
		assert_true(r.offset_bytes / 4096 + 4 <= 1000);
		hits_first += r.offset_bytes == 0;
		hits_last += r.offset_bytes == 996 * 4096;
	}
	/* both ends of the span are reachable, about 1 in 997 */
	assert_in_range(hits_first, 50, 200);
	assert_in_range(hits_last, 50, 200);
	assert_int_equal(trc_source_next(s, &r), 0);
	trc_source_destroy(s);
}

static void test_trc_gen_hotcold_shares_and_hints(void **state)
{
	struct trc_source *s = gen(TRC_GEN_HOTCOLD, 10000, 1, 0, 200000);
	uint64_t hot = 0, n = 200000;
	struct trc_rec r;

	for (uint64_t i = 0; i < n; i++) {
		assert_int_equal(trc_source_next(s, &r), 1);
		assert_true(r.has & TRC_HAS_HINT);
		if (r.offset_bytes / 4096 < 1000) {
			hot++;
			assert_int_equal(r.hint, TRC_HINT_SHORT);
		} else {
			assert_int_equal(r.hint, TRC_HINT_LONG);
		}
	}
	assert_true(fabs((double)hot / (double)n - 0.9) < 0.005);
	trc_source_destroy(s);
}

static void test_trc_gen_zipf_follows_the_power_law(void **state)
{
	enum { N = 1000 };
	static uint64_t cnt[N];
	uint64_t n = 400000;
	double hn = 0;
	struct trc_source *s = gen(TRC_GEN_ZIPF, N, 1, 0, n);
	struct trc_rec r;

	for (uint64_t i = 0; i < n; i++) {
		assert_int_equal(trc_source_next(s, &r), 1);
		assert_true(r.offset_bytes / 4096 < N);
		cnt[r.offset_bytes / 4096]++;
	}
	for (int k = 1; k <= N; k++)
		hn += 1.0 / pow(k, 0.99);
	/* ranks 1, 2, 10 and 100: within 5% of n / (k^theta H) */
	static const int ks[] = { 1, 2, 10, 100 };
	for (int i = 0; i < 4; i++) {
		double want = (double)n / (pow(ks[i], 0.99) * hn);

		assert_true(fabs((double)cnt[ks[i] - 1] - want) < 0.05 * want);
	}
	trc_source_destroy(s);
}

static void test_trc_gen_same_seed_same_stream(void **state)
{
	struct trc_source *a = gen(TRC_GEN_ZIPF, 5000, 2, 100, 5000);
	struct trc_source *b = gen(TRC_GEN_ZIPF, 5000, 2, 100, 5000);
	struct trc_rec ra, rb;

	while (trc_source_next(a, &ra) == 1) {
		assert_int_equal(trc_source_next(b, &rb), 1);
		assert_int_equal(ra.offset_bytes, rb.offset_bytes);
	}
	assert_int_equal(trc_source_next(b, &rb), 0);
	trc_source_destroy(a);
	trc_source_destroy(b);
}

static void test_trc_gen_refuses_what_it_cannot_generate(void **state)
{
	struct trc_gen_cfg ok = {
		.kind = TRC_GEN_HOTCOLD, .file_bytes = 1 << 20, .req_bytes = 4096,
		.nr_reqs = 1, .hot_r = 0.9, .hot_f = 0.1, .zipf_theta = 1,
	}, c;
	struct trc_source *s = NULL;

	c = ok; c.req_bytes = 0;
	assert_int_equal(trc_gen_create(&c, &s), -EINVAL);
	c = ok; c.req_bytes = 1000;
	assert_int_equal(trc_gen_create(&c, &s), -EINVAL);
	c = ok; c.req_bytes = 2 << 20;
	assert_int_equal(trc_gen_create(&c, &s), -EINVAL);
	c = ok; c.file_bytes = 5000;
	assert_int_equal(trc_gen_create(&c, &s), -EINVAL);
	c = ok; c.hot_f = 1;
	assert_int_equal(trc_gen_create(&c, &s), -EINVAL);
	c = ok; c.hot_r = 1.5;
	assert_int_equal(trc_gen_create(&c, &s), -EINVAL);
	c = ok; c.kind = TRC_GEN_ZIPF; c.zipf_theta = 0;
	assert_int_equal(trc_gen_create(&c, &s), -EINVAL);
	c = ok; c.kind = (enum trc_gen_kind)9;
	assert_int_equal(trc_gen_create(&c, &s), -EINVAL);
	assert_null(s);  /* *out untouched on error */
	trc_source_destroy(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trc_gen_fill_is_sequential_and_wraps),
		cmocka_unit_test(test_trc_gen_uniform_stays_in_span_after_the_fill),
		cmocka_unit_test(test_trc_gen_hotcold_shares_and_hints),
		cmocka_unit_test(test_trc_gen_zipf_follows_the_power_law),
		cmocka_unit_test(test_trc_gen_same_seed_same_stream),
		cmocka_unit_test(test_trc_gen_refuses_what_it_cannot_generate),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
