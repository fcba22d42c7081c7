/*
 * test_zl_codec.c — the byte-order codecs: zl_be.h (SCSI fields) and
 * zl_le.h (image header, trace), against hand-written byte patterns, at
 * every alignment, and as round trips.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "zl_be.h"
#include "zl_le.h"
#include "zl_test.h"

static const uint8_t pat[8] = { 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef };

static void test_zl_be_loads_and_stores_are_big_endian_at_any_alignment(void **state)
{
	uint8_t buf[24], want[24];

	(void)state;
	for (size_t off = 0; off < 8; off++) {
		memcpy(buf + off, pat, 8);
		assert_int_equal(zl_get_be16(buf + off), 0x0123);
		assert_int_equal(zl_get_be24(buf + off), 0x012345);
		assert_int_equal(zl_get_be32(buf + off), 0x01234567u);
		assert_true(zl_get_be64(buf + off) == 0x0123456789abcdefull);
		memset(buf, 0x5a, sizeof(buf));
		memcpy(want, buf, sizeof(want));
		memcpy(want + off, pat, 8);
		zl_put_be64(buf + off, 0x0123456789abcdefull);
		assert_memory_equal(buf, want, sizeof(buf));       /* and nothing around it */
		zl_put_be32(buf + off, 0x89abcdefu);
		zl_put_be16(buf + off + 4, 0x0123);
		assert_int_equal(zl_get_be32(buf + off), 0x89abcdefu);
		assert_int_equal(zl_get_be16(buf + off + 4), 0x0123);
		assert_int_equal(buf[off + 6], 0xcd);
	}
}

static void test_zl_le_loads_and_stores_are_little_endian_at_any_alignment(void **state)
{
	uint8_t buf[24];

	(void)state;
	for (size_t off = 0; off < 8; off++) {
		memcpy(buf + off, pat, 8);
		assert_int_equal(zl_get_le16(buf + off), 0x2301);
		assert_int_equal(zl_get_le32(buf + off), 0x67452301u);
		assert_true(zl_get_le64(buf + off) == 0xefcdab8967452301ull);
		zl_put_le64(buf + off, 0x0123456789abcdefull);
		assert_int_equal(buf[off], 0xef);
		assert_int_equal(buf[off + 7], 0x01);
	}
}

static void test_zl_codecs_round_trip_random_values(void **state)
{
	uint64_t seed = 7;
	uint8_t b[8];

	(void)state;
	for (int i = 0; i < 10000; i++) {
		uint64_t v = zl_test_rand(&seed);

		zl_put_be64(b, v);
		assert_true(zl_get_be64(b) == v);
		assert_true(zl_get_le64(b) == __builtin_bswap64(v));
		zl_put_be32(b, (uint32_t)v);
		assert_int_equal(zl_get_be32(b), (uint32_t)v);
		assert_int_equal(zl_get_be24(b), (uint32_t)v >> 8);
		zl_put_be16(b, (uint16_t)v);
		assert_int_equal(zl_get_be16(b), (uint16_t)v);
		zl_put_le32(b, (uint32_t)v);
		assert_int_equal(zl_get_le32(b), (uint32_t)v);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zl_be_loads_and_stores_are_big_endian_at_any_alignment),
		cmocka_unit_test(test_zl_le_loads_and_stores_are_little_endian_at_any_alignment),
		cmocka_unit_test(test_zl_codecs_round_trip_random_values),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
