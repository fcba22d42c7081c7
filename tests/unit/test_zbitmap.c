/*
 * test_zbitmap.c — the hierarchical bitmap against a plain reference bitmap
 * under a seeded random sequence of sets and clears.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "zbitmap.h"
#include "zl_test.h"

static uint32_t ref_next(const uint8_t *ref, uint32_t n, uint32_t i)
{
	for (; i < n; i++)
		if (ref[i])
			return i;
	return ZBITMAP_NONE;
}

static void check_sizes(uint32_t n, uint64_t seed, int ops)
{
	struct zbitmap b;
	uint8_t *ref = calloc(n, 1);
	uint64_t st = seed;

	assert_non_null(ref);
	assert_int_equal(zbitmap_init(&b, n), 0);
	assert_int_equal(zbitmap_next(&b, 0), ZBITMAP_NONE);
	for (int k = 0; k < ops; k++) {
		uint32_t i = (uint32_t)(zl_test_rand(&st) % n);

		if (zl_test_rand(&st) & 1) {
			zbitmap_set(&b, i);
			ref[i] = 1;
		} else {
			zbitmap_clear(&b, i);
			ref[i] = 0;
		}
		uint32_t q = (uint32_t)(zl_test_rand(&st) % (n + 2));

		assert_int_equal(zbitmap_next(&b, q), q < n ? ref_next(ref, n, q) : ZBITMAP_NONE);
		assert_int_equal(zbitmap_test(&b, i), ref[i]);
	}
	/* count_from at the start, inside and at the edges of words, and past the end */
	for (uint32_t q = 0; q <= n + 1; q = q < 130 ? q + 1 : q * 2 + 63) {
		uint64_t cnt = 0;

		for (uint32_t i = q; i < n; i++)
			cnt += ref[i];
		assert_int_equal(zbitmap_count_from(&b, q), cnt);
	}
	zbitmap_fini(&b);
	free(ref);
}

static void test_zbitmap_next_matches_reference_on_many_sizes(void **state)
{
	static const uint32_t sizes[] = { 1, 63, 64, 65, 4095, 4096, 4097, 262145, 1u << 20 };

	(void)state;
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		check_sizes(sizes[i], 42 + i, 20000);
}

static void test_zbitmap_sparse_bit_found_across_levels(void **state)
{
	struct zbitmap b;

	(void)state;
	assert_int_equal(zbitmap_init(&b, 1u << 22), 0);
	zbitmap_set(&b, (1u << 22) - 1);
	assert_int_equal(zbitmap_next(&b, 0), (1u << 22) - 1);
	zbitmap_set(&b, 5);
	assert_int_equal(zbitmap_next(&b, 0), 5);
	assert_int_equal(zbitmap_next(&b, 6), (1u << 22) - 1);
	zbitmap_clear(&b, (1u << 22) - 1);
	assert_int_equal(zbitmap_next(&b, 6), ZBITMAP_NONE);
	assert_int_equal(zbitmap_count_from(&b, 5), 1);
	assert_int_equal(zbitmap_count_from(&b, 6), 0);
	zbitmap_fini(&b);
}

/* Sizes next to 2^32: the word counts must not wrap (a 0-word level once). */
static void test_zbitmap_size_near_2_32_is_whole(void **state)
{
	const uint32_t n = UINT32_MAX - 10;
	struct zbitmap b;

	(void)state;
	assert_int_equal(zbitmap_init(&b, n), 0);
	assert_true(zbitmap_mem_bytes(&b) >= ((uint64_t)n + 63) / 64 * 8);
	zbitmap_set(&b, n - 1);
	assert_true(zbitmap_test(&b, n - 1));
	assert_int_equal(zbitmap_next(&b, 0), n - 1);
	assert_int_equal(zbitmap_count_from(&b, 0), 1);
	zbitmap_fini(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zbitmap_next_matches_reference_on_many_sizes),
		cmocka_unit_test(test_zbitmap_sparse_bit_found_across_levels),
		cmocka_unit_test(test_zbitmap_size_near_2_32_is_whole),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
