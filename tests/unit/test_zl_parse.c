/*
 * test_zl_parse.c — the shared number and size parser: a table of accepted
 * spellings with their values, a table of refusals with the exact reason
 * text each gives (the CLI and the cfgstring print these), the 64-bit
 * edges, and that nothing is written on a refusal.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "zl_parse.h"

#define NOT_A_SIZE "not a size (e.g. 4096, 64K, 256M, 2G)"
#define EMPTY_SIZE "empty, expected a size (e.g. 4096, 64K, 256M, 2G)"
#define BAD_SUFFIX "unknown size suffix (K, M, G or T)"
#define STRAY "stray characters after the size suffix (K, M, G or T, optionally followed by iB)"

static const struct {
	const char *in;
	uint64_t bytes;
} sizes_ok[] = {
	{ "0", 0 },
	{ "512", 512 },
	{ "4096", 4096 },
	{ "010", 10 },                          /* never octal */
	{ "4k", 4096 },
	{ "4K", 4096 },
	{ "512K", 512ull << 10 },
	{ "64M", 64ull << 20 },
	{ "3m", 3ull << 20 },
	{ "4G", 4ull << 30 },
	{ "1T", 1ull << 40 },
	{ "64KiB", 64ull << 10 },
	{ "64kib", 64ull << 10 },
	{ "2GiB", 2ull << 30 },
	{ "0x1000", 4096 },
	{ "0X10M", 16ull << 20 },
	{ "0x1B", 27 },                         /* B is a hex digit there */
	{ "18446744073709551615", UINT64_MAX },
	{ "0xffffffffffffffff", UINT64_MAX },
	{ "16777215T", 16777215ull << 40 },     /* the largest in T */
	{ "17179869183G", 17179869183ull << 30 },
};

static const struct {
	const char *in;
	int ret;
	const char *why;
} sizes_bad[] = {
	{ "", -EINVAL, EMPTY_SIZE },
	{ "-1", -EINVAL, "negative, a size is 0 or more" },
	{ "-0", -EINVAL, "negative, a size is 0 or more" },
	{ "M", -EINVAL, NOT_A_SIZE },
	{ "abc", -EINVAL, NOT_A_SIZE },
	{ " 64M", -EINVAL, NOT_A_SIZE },        /* no blanks */
	{ "+64M", -EINVAL, NOT_A_SIZE },        /* no sign */
	{ "64Q", -EINVAL, BAD_SUFFIX },
	{ "64 M", -EINVAL, BAD_SUFFIX },
	{ "64B", -EINVAL, BAD_SUFFIX },
	{ "0x", -EINVAL, BAD_SUFFIX },          /* the number 0, then 'x' */
	{ "1.5G", -EINVAL, BAD_SUFFIX },
	{ "1MB", -EINVAL, STRAY },              /* ambiguous: 10^6 or 2^20 */
	{ "1Mi", -EINVAL, STRAY },
	{ "1MiBs", -EINVAL, STRAY },
	{ "1KK", -EINVAL, STRAY },
	{ "18446744073709551616", -ERANGE, "overflows 64 bits" },
	{ "99999999999999999999", -ERANGE, "overflows 64 bits" },
	{ "0x10000000000000000", -ERANGE, "overflows 64 bits" },
	{ "17179869184G", -ERANGE, "overflows 64 bits" },
	{ "16777216T", -ERANGE, "overflows 64 bits" },
};

static void test_zl_parse_size_accepts_documented_forms(void **state)
{
	for (size_t i = 0; i < sizeof(sizes_ok) / sizeof(sizes_ok[0]); i++) {
		uint64_t b = 12345;
		char why[128] = "";
		int ret = zl_parse_size(sizes_ok[i].in, &b, why, sizeof(why));

		if (ret || b != sizes_ok[i].bytes)
			fail_msg("'%s': ret %d '%s', %llu bytes, want %llu", sizes_ok[i].in, ret, why,
				 (unsigned long long)b, (unsigned long long)sizes_ok[i].bytes);
	}
}

static void test_zl_parse_size_refusals_give_exact_reason(void **state)
{
	for (size_t i = 0; i < sizeof(sizes_bad) / sizeof(sizes_bad[0]); i++) {
		uint64_t b = 12345;
		char why[128] = "";
		int ret = zl_parse_size(sizes_bad[i].in, &b, why, sizeof(why));

		if (ret != sizes_bad[i].ret || strcmp(why, sizes_bad[i].why))
			fail_msg("'%s': ret %d '%s', want %d '%s'", sizes_bad[i].in, ret, why,
				 sizes_bad[i].ret, sizes_bad[i].why);
		assert_int_equal(b, 12345);     /* untouched */
	}
}

static void test_zl_parse_size_null_is_empty_and_why_is_optional(void **state)
{
	uint64_t b = 7;
	char why[128];

	assert_int_equal(zl_parse_size(NULL, &b, why, sizeof(why)), -EINVAL);
	assert_string_equal(why, EMPTY_SIZE);
	assert_int_equal(zl_parse_size("64Q", &b, NULL, 0), -EINVAL);
	assert_int_equal(zl_parse_size("64M", &b, NULL, 0), 0);
	assert_int_equal(b, 64ull << 20);
	/* a short buffer holds the start of the reason, terminated */
	assert_int_equal(zl_parse_size("64Q", &b, why, 8), -EINVAL);
	assert_string_equal(why, "unknown");
}

static void test_zl_parse_u64_accepts_decimal_and_hex(void **state)
{
	static const struct {
		const char *in;
		uint64_t v;
	} ok[] = {
		{ "0", 0 }, { "42", 42 }, { "010", 10 }, { "0x10", 16 }, { "0XfF", 255 },
		{ "18446744073709551615", UINT64_MAX }, { "0xFFFFFFFFFFFFFFFF", UINT64_MAX },
	};

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		uint64_t v = 1;
		char why[128] = "";

		if (zl_parse_u64(ok[i].in, &v, why, sizeof(why)) || v != ok[i].v)
			fail_msg("'%s': '%s', %llu", ok[i].in, why, (unsigned long long)v);
	}
}

static void test_zl_parse_u64_refusals_give_exact_reason(void **state)
{
	static const struct {
		const char *in;
		int ret;
		const char *why;
	} bad[] = {
		{ "", -EINVAL, "not a non-negative integer" },
		{ "-1", -EINVAL, "not a non-negative integer" },
		{ "12x", -EINVAL, "not an integer (stray 'x')" },
		{ "abc", -EINVAL, "not an integer (stray 'abc')" },
		{ "4K", -EINVAL, "not an integer (stray 'K')" },  /* numbers take no suffix */
		{ "0x", -EINVAL, "not an integer (stray 'x')" },
		{ " 1", -EINVAL, "not an integer (stray ' 1')" },
		{ "+1", -EINVAL, "not an integer (stray '+1')" },
		{ "18446744073709551616", -ERANGE, "too large" },
		{ "0x10000000000000000", -ERANGE, "too large" },
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		uint64_t v = 99;
		char why[128] = "";
		int ret = zl_parse_u64(bad[i].in, &v, why, sizeof(why));

		if (ret != bad[i].ret || strcmp(why, bad[i].why))
			fail_msg("'%s': ret %d '%s', want %d '%s'", bad[i].in, ret, why, bad[i].ret,
				 bad[i].why);
		assert_int_equal(v, 99);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zl_parse_size_accepts_documented_forms),
		cmocka_unit_test(test_zl_parse_size_refusals_give_exact_reason),
		cmocka_unit_test(test_zl_parse_size_null_is_empty_and_why_is_optional),
		cmocka_unit_test(test_zl_parse_u64_accepts_decimal_and_hex),
		cmocka_unit_test(test_zl_parse_u64_refusals_give_exact_reason),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
