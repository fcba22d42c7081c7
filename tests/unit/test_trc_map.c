/*
 * test_trc_map.c — the mapping of a trace onto the simulated file: compact
 * in first-touch order (a request split where its blocks are not
 * contiguous), direct, scale (moved back at the file's end), widening of
 * unaligned requests, ops without a range, arrival times over loops, the
 * pre-pass descriptors, the hash at scale, and the errors (input errors,
 * ranges past 2^64, a file below the need, a trace that changed between
 * passes).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "trc_src_array.h"
#include "zl_rng.h"

#define B 4096ULL

static struct trc_rec rec(uint8_t op, uint64_t off, uint64_t len, uint64_t ts)
{
	struct trc_rec r;

	memset(&r, 0, sizeof(r));
	r.op = op;
	r.offset_bytes = off;
	r.len_bytes = len;
	r.ts_ns = ts;
	return r;
}

/* A scanned map of @mode over @recs with the file at @file_blocks (0: the need). */
static struct trc_map *scanned(enum trc_map_mode mode, struct trc_array_input *ai,
			       const struct trc_rec *recs, size_t nr, uint64_t file_blocks)
{
	struct trc_map *m = NULL;
	char msg[256] = "";

	trc_array_input_init(ai, recs, nr, "mem");
	assert_int_equal(trc_map_create(mode, &m), 0);
	assert_int_equal(trc_map_scan(m, &ai->in, NULL, msg, sizeof(msg)), 0);
	assert_int_equal(trc_map_set_file(m, file_blocks ? file_blocks : trc_map_need_blocks(m)),
			 0);
	return m;
}

/* Every record of @loops passes into @out (at most @max); the count. */
static size_t replay_all(struct trc_array_input *ai, struct trc_map *m, uint32_t loops,
			 struct trc_rec *out, size_t max)
{
	struct trc_map_source_cfg c = { .in = &ai->in, .map = m, .loops = loops };
	struct trc_source *src = NULL;
	size_t n = 0;
	int ret;

	assert_int_equal(trc_map_source_create(&c, &src), 0);
	while ((ret = trc_source_next(src, &out[n])) > 0)
		assert_true(++n < max);
	assert_int_equal(ret, 0);
	assert_int_equal(trc_source_next(src, &out[n]), 0);  /* stays at the end */
	trc_source_destroy(src);
	return n;
}

static void expect(const struct trc_rec *r, uint8_t op, uint64_t off, uint64_t len, bool cont)
{
	assert_int_equal(r->op, op);
	assert_int_equal(r->offset_bytes, off);
	assert_int_equal(r->len_bytes, len);
	assert_int_equal(!!(r->has & TRC_HAS_CONT), cont);
}

static void test_trc_map_compact_numbers_blocks_in_first_touch_order(void **state)
{
	const struct trc_rec recs[] = {
		rec(TRC_OP_WRITE, 2 * B, 2 * B, 0),     /* blocks 2, 3 -> 0, 1 */
		rec(TRC_OP_WRITE, 0, B, 10),            /* block 0 -> 2 */
		rec(TRC_OP_READ, B, 3 * B, 20),         /* 1 -> 3 (new); 2, 3 -> 0, 1 */
		rec(TRC_OP_DISCARD, 2 * B, 2 * B, 30),  /* 0, 1: contiguous */
	};
	struct trc_array_input ai;
	struct trc_map *m = scanned(TRC_MAP_COMPACT, &ai, recs, 4, 0);
	struct trc_rec out[16];
	uint64_t fb;

	assert_int_equal(trc_map_need_blocks(m), 4);
	assert_int_equal(trc_map_desc(m)->fp_blocks, 4);
	assert_int_equal(trc_map_desc(m)->fp_written_blocks, 3);
	assert_int_equal(trc_map_desc(m)->fp_read_blocks, 3);
	assert_int_equal(trc_map_desc(m)->fp_discarded_blocks, 2);
	assert_int_equal(trc_map_desc(m)->max_end_bytes, 4 * B);
	assert_int_equal(trc_map_block(m, 1, 1, &fb), 0);
	assert_int_equal(fb, 3);
	assert_int_equal(trc_map_block(m, 7, 1, &fb), -ENOENT);  /* never touched */
	assert_int_equal(replay_all(&ai, m, 1, out, 16), 5);
	expect(&out[0], TRC_OP_WRITE, 0, 2 * B, false);
	expect(&out[1], TRC_OP_WRITE, 2 * B, B, false);
	expect(&out[2], TRC_OP_READ, 3 * B, B, false);  /* block 1 */
	expect(&out[3], TRC_OP_READ, 0, 2 * B, true);   /* blocks 2, 3: the same request */
	assert_int_equal(out[3].ts_ns, out[2].ts_ns);
	expect(&out[4], TRC_OP_DISCARD, 0, 2 * B, false);
	trc_map_destroy(m);
}

static void test_trc_map_unaligned_requests_widen_to_blocks(void **state)
{
	const struct trc_rec recs[] = {
		rec(TRC_OP_WRITE, 1000, 100, 0),        /* inside block 0 */
		rec(TRC_OP_WRITE, 4000, 200, 1),        /* blocks 0 and 1 */
		rec(TRC_OP_WRITE, 3 * B, B, 2),         /* aligned */
	};
	struct trc_array_input ai;
	struct trc_map *m = scanned(TRC_MAP_DIRECT, &ai, recs, 3, 0);
	struct trc_rec out[8];

	assert_int_equal(trc_map_desc(m)->nr_unaligned, 2);
	assert_int_equal(trc_map_desc(m)->bytes_ops[TRC_OP_WRITE], 100 + 200 + B);
	assert_int_equal(trc_map_need_blocks(m), 4);  /* direct: up to block 3 */
	assert_int_equal(trc_map_desc(m)->fp_blocks, 3);
	assert_int_equal(replay_all(&ai, m, 1, out, 8), 3);
	expect(&out[0], TRC_OP_WRITE, 0, B, false);
	expect(&out[1], TRC_OP_WRITE, 0, 2 * B, false);
	expect(&out[2], TRC_OP_WRITE, 3 * B, B, false);
	trc_map_destroy(m);
}

static void test_trc_map_direct_keeps_offsets_in_a_larger_file(void **state)
{
	const struct trc_rec recs[] = {
		rec(TRC_OP_WRITE, 100 * B, 8 * B, 0),
		rec(TRC_OP_READ, 7 * B, B, 5),
	};
	struct trc_array_input ai;
	struct trc_map *m = scanned(TRC_MAP_DIRECT, &ai, recs, 2, 1000);
	struct trc_rec out[8];

	assert_int_equal(trc_map_need_blocks(m), 108);
	assert_int_equal(trc_map_file_blocks(m), 1000);
	assert_int_equal(replay_all(&ai, m, 1, out, 8), 2);
	expect(&out[0], TRC_OP_WRITE, 100 * B, 8 * B, false);  /* one run: contiguous */
	expect(&out[1], TRC_OP_READ, 7 * B, B, false);
	trc_map_destroy(m);
}

static void test_trc_map_scale_maps_starts_and_moves_back_at_the_end(void **state)
{
	const struct trc_rec recs[] = {
		rec(TRC_OP_WRITE, 0, B, 0),
		rec(TRC_OP_WRITE, 500 * B, 2 * B, 1),   /* 500 x 100 / 1000 = 50 */
		rec(TRC_OP_WRITE, 998 * B, 2 * B, 2),   /* 99.8 -> 99, + 2 > 100: 98 */
		rec(TRC_OP_READ, 250 * B, 4 * B, 3),    /* 25 */
	};
	struct trc_array_input ai;
	struct trc_map *m = scanned(TRC_MAP_SCALE, &ai, recs, 4, 100);
	struct trc_rec out[8];

	assert_int_equal(trc_map_need_blocks(m), 4);  /* the largest request */
	assert_int_equal(replay_all(&ai, m, 1, out, 8), 4);
	expect(&out[0], TRC_OP_WRITE, 0, B, false);
	expect(&out[1], TRC_OP_WRITE, 50 * B, 2 * B, false);
	expect(&out[2], TRC_OP_WRITE, 98 * B, 2 * B, false);
	expect(&out[3], TRC_OP_READ, 25 * B, 4 * B, false);
	assert_int_equal(trc_map_set_file(m, 3), -EINVAL);  /* below the largest request */
	trc_map_destroy(m);
}

static void test_trc_map_ops_without_range_pass_with_zero_range(void **state)
{
	const struct trc_rec recs[] = {
		rec(TRC_OP_WRITE, 0, B, 0),
		rec(TRC_OP_FLUSH, 777, 0, 1),
		rec(TRC_OP_ZONE_RESET, 256 * B, 256 * B, 2),
		rec(TRC_OP_WRITE, B, 0, 3),             /* zero length: no block */
	};
	struct trc_array_input ai;
	struct trc_map *m = scanned(TRC_MAP_COMPACT, &ai, recs, 4, 0);
	struct trc_rec out[8];

	assert_int_equal(trc_map_desc(m)->fp_blocks, 1);  /* the zone op touched nothing */
	assert_int_equal(trc_map_desc(m)->nr_ops[TRC_OP_ZONE_RESET], 1);
	assert_int_equal(replay_all(&ai, m, 1, out, 8), 4);
	expect(&out[1], TRC_OP_FLUSH, 0, 0, false);
	expect(&out[2], TRC_OP_ZONE_RESET, 0, 0, false);
	expect(&out[3], TRC_OP_WRITE, 0, 0, false);
	trc_map_destroy(m);
}

static void test_trc_map_loops_shift_arrivals_by_the_period(void **state)
{
	const struct trc_rec recs[] = {
		rec(TRC_OP_WRITE, 0, B, 100),
		rec(TRC_OP_WRITE, B, B, 300),
		rec(TRC_OP_WRITE, 2 * B, B, 200),       /* earlier than the previous one */
	};
	/* span 200, mean gap 100: period 300; arrivals never go back */
	static const uint64_t want[] = { 0, 200, 200, 300, 500, 500 };
	struct trc_array_input ai;
	struct trc_map *m = scanned(TRC_MAP_COMPACT, &ai, recs, 3, 0);
	struct trc_rec out[16];
	size_t i;

	assert_int_equal(trc_map_desc(m)->min_ts_ns, 100);
	assert_int_equal(trc_map_desc(m)->max_ts_ns, 300);
	assert_int_equal(replay_all(&ai, m, 2, out, 16), 6);
	for (i = 0; i < 6; i++) {
		assert_int_equal(out[i].ts_ns, want[i]);
		assert_int_equal(out[i].offset_bytes, (i % 3) * B);  /* the same mapping each pass */
	}
	trc_map_destroy(m);
}

static void test_trc_map_hash_grows_and_stays_a_bijection(void **state)
{
	enum { N = 200000 };
	struct trc_rec *recs = calloc(N, sizeof(*recs));
	uint8_t *seen = calloc(N, 1);
	struct trc_array_input ai;
	struct zl_rng rng;
	struct trc_map *m;
	uint64_t fb, distinct;
	size_t i;

	assert_non_null(recs);
	assert_non_null(seen);
	zl_rng_seed(&rng, 7);
	for (i = 0; i < N; i++)  /* sparse blocks of a 1 PiB volume, some repeated */
		recs[i] = rec(TRC_OP_WRITE, (zl_rng_next(&rng) % (1ULL << 38)) * B * (i % 4 ? 1 : 0),
			      B, i);
	m = scanned(TRC_MAP_COMPACT, &ai, recs, N, 0);
	distinct = trc_map_desc(m)->fp_blocks;
	assert_true(distinct > N / 2 && distinct < N);  /* every 4th record is block 0 */
	assert_true(trc_map_desc(m)->mem_bytes <= 64 * distinct + 16384);
	for (i = 0; i < N; i++) {
		assert_int_equal(trc_map_block(m, recs[i].offset_bytes / B, 1, &fb), 0);
		assert_true(fb < distinct);
		seen[fb] = 1;
	}
	for (i = 0; i < distinct; i++)
		assert_true(seen[i]);
	trc_map_destroy(m);
	free(seen);
	free(recs);
}

/* A source that fails at its second record, and an input over it. */
static int bad_next(struct trc_source *src, struct trc_rec *r)
{
	int *n = (int *)(src + 1);

	if ((*n)++ == 0) {
		*r = rec(TRC_OP_WRITE, 0, B, 0);
		return 1;
	}
	snprintf(src->msg, sizeof(src->msg), "t.csv:2: not a number: 'x'");
	return -EINVAL;
}

static void bad_destroy(struct trc_source *src)
{
	free(src);
}

static const struct trc_source_ops bad_ops = { bad_next, bad_destroy };

static int bad_open(void *arg, struct trc_source **out, char *msg, size_t msg_len)
{
	struct trc_source *s = calloc(1, sizeof(*s) + sizeof(int));

	if (!s)
		return -ENOMEM;
	s->ops = &bad_ops;
	*out = s;
	return 0;
}

static void test_trc_map_scan_reports_the_inputs_error(void **state)
{
	struct trc_input in = { bad_open, NULL, "t.csv" };
	struct trc_map *m;
	char msg[256] = "";

	assert_int_equal(trc_map_create(TRC_MAP_COMPACT, &m), 0);
	assert_int_equal(trc_map_scan(m, &in, NULL, msg, sizeof(msg)), -EINVAL);
	assert_string_equal(msg, "t.csv:2: not a number: 'x'");
	assert_int_equal(trc_map_set_file(m, 10), -EINVAL);  /* not scanned */
	trc_map_destroy(m);
}

static void test_trc_map_range_past_2_64_is_refused(void **state)
{
	const struct trc_rec recs[] = {
		rec(TRC_OP_WRITE, 0, B, 0),
		rec(TRC_OP_READ, UINT64_MAX - 100, 200, 1),
	};
	struct trc_array_input ai;
	struct trc_map *m;
	char msg[256] = "";

	trc_array_input_init(&ai, recs, 2, "big.csv");
	assert_int_equal(trc_map_create(TRC_MAP_COMPACT, &m), 0);
	assert_int_equal(trc_map_scan(m, &ai.in, NULL, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "big.csv: record 2:"));
	assert_non_null(strstr(msg, "past 2^64"));
	trc_map_destroy(m);
	assert_int_equal(trc_map_create((enum trc_map_mode)7, &m), -EINVAL);
}

/* An input whose second pass differs from the first. */
static struct trc_rec pass_recs[2][1];
static int pass_nr;

static int changing_open(void *arg, struct trc_source **out, char *msg, size_t msg_len)
{
	return trc_src_array_create(pass_recs[pass_nr++ ? 1 : 0], 1, out);
}

static void test_trc_map_trace_changed_between_passes_is_an_error(void **state)
{
	struct trc_input in = { changing_open, NULL, "moving.csv" };
	struct trc_map_source_cfg c;
	struct trc_source *src;
	struct trc_map *m;
	struct trc_rec r;
	char msg[256] = "";

	pass_recs[0][0] = rec(TRC_OP_WRITE, 0, B, 0);
	pass_recs[1][0] = rec(TRC_OP_WRITE, 5 * B, B, 0);
	pass_nr = 0;
	assert_int_equal(trc_map_create(TRC_MAP_COMPACT, &m), 0);
	assert_int_equal(trc_map_scan(m, &in, NULL, msg, sizeof(msg)), 0);
	assert_int_equal(trc_map_set_file(m, 1), 0);
	c = (struct trc_map_source_cfg){ .in = &in, .map = m, .loops = 1 };
	assert_int_equal(trc_map_source_create(&c, &src), 0);
	assert_int_equal(trc_source_next(src, &r), -EINVAL);
	assert_non_null(strstr(src->msg, "moving.csv: block 5"));
	assert_non_null(strstr(src->msg, "not in the pre-pass"));
	assert_int_equal(trc_source_next(src, &r), 0);
	trc_source_destroy(src);
	c.loops = 0;
	assert_int_equal(trc_map_source_create(&c, &src), -EINVAL);
	trc_map_destroy(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trc_map_compact_numbers_blocks_in_first_touch_order),
		cmocka_unit_test(test_trc_map_unaligned_requests_widen_to_blocks),
		cmocka_unit_test(test_trc_map_direct_keeps_offsets_in_a_larger_file),
		cmocka_unit_test(test_trc_map_scale_maps_starts_and_moves_back_at_the_end),
		cmocka_unit_test(test_trc_map_ops_without_range_pass_with_zero_range),
		cmocka_unit_test(test_trc_map_loops_shift_arrivals_by_the_period),
		cmocka_unit_test(test_trc_map_hash_grows_and_stays_a_bijection),
		cmocka_unit_test(test_trc_map_scan_reports_the_inputs_error),
		cmocka_unit_test(test_trc_map_range_past_2_64_is_refused),
		cmocka_unit_test(test_trc_map_trace_changed_between_passes_is_an_error),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
