/*
 * test_zl_crc.c — zl_crc32c() against the published CRC-32C check values
 * (RFC 3720 appendix B.4 and the "123456789" check), chaining, and the
 * slicing-by-8 path against a bitwise reference at every length/alignment.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "zl_crc.h"
#include "zl_test.h"

static uint32_t crc_bitwise(const unsigned char *p, size_t len)
{
	uint32_t c = ~0u;

	while (len--) {
		c ^= *p++;
		for (int k = 0; k < 8; k++)
			c = (c & 1) ? (c >> 1) ^ 0x82f63b78u : c >> 1;
	}
	return ~c;
}

static void test_zl_crc32c_matches_published_check_values(void **state)
{
	unsigned char buf[32];

	(void)state;
	assert_int_equal(zl_crc32c(0, "123456789", 9), 0xe3069283u);
	memset(buf, 0, sizeof(buf));
	assert_int_equal(zl_crc32c(0, buf, sizeof(buf)), 0x8a9136aau);
	memset(buf, 0xff, sizeof(buf));
	assert_int_equal(zl_crc32c(0, buf, sizeof(buf)), 0x62a8ab43u);
	for (int i = 0; i < 32; i++)
		buf[i] = (unsigned char)i;
	assert_int_equal(zl_crc32c(0, buf, sizeof(buf)), 0x46dd794eu);
	assert_int_equal(zl_crc32c(0, NULL, 0), 0);
}

static void test_zl_crc32c_chains_across_calls(void **state)
{
	const char *s = "zonelab header checksum";
	size_t n = strlen(s);

	(void)state;
	for (size_t cut = 0; cut <= n; cut++)
		assert_int_equal(zl_crc32c(zl_crc32c(0, s, cut), s + cut, n - cut),
				 zl_crc32c(0, s, n));
}

static void test_zl_crc32c_equals_bitwise_reference_at_any_length_and_alignment(void **state)
{
	unsigned char buf[200];
	uint64_t st = 1;

	(void)state;
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (unsigned char)zl_test_rand(&st);
	for (size_t off = 0; off < 8; off++)
		for (size_t len = 0; len + off <= sizeof(buf); len += 7)
			assert_int_equal(zl_crc32c(0, buf + off, len), crc_bitwise(buf + off, len));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zl_crc32c_matches_published_check_values),
		cmocka_unit_test(test_zl_crc32c_chains_across_calls),
		cmocka_unit_test(test_zl_crc32c_equals_bitwise_reference_at_any_length_and_alignment),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
