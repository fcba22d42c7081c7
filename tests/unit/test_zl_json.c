/*
 * test_zl_json.c — the JSON string escaper: a table of exact spellings
 * (quotes, backslashes, controls, DEL, well-formed and malformed UTF-8),
 * snprintf-style sizing and cutting, NULL as null, the FILE writer equal
 * to the buffer one, and for seeded random bytes an output that is a valid
 * JSON string (checked with GLib's UTF-8 validator) whose escapes give the
 * input back.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <glib.h>

#include "zl_json.h"
#include "zl_test.h"

static const struct {
	const char *in;
	const char *out;
} cases[] = {
	{ "", "\"\"" },
	{ "/var/lib/disk0.img", "\"/var/lib/disk0.img\"" },
	{ "a\"b", "\"a\\\"b\"" },
	{ "a\\b", "\"a\\\\b\"" },
	{ "\n\t\x01\x1f", "\"\\u000a\\u0009\\u0001\\u001f\"" },
	{ " ~\x7f", "\" ~\\u007f\"" },
	{ "caf\xc3\xa9", "\"caf\xc3\xa9\"" },                     /* U+00E9: copied */
	{ "\xe2\x82\xac", "\"\xe2\x82\xac\"" },                   /* U+20AC */
	{ "\xf0\x9f\x92\xbe", "\"\xf0\x9f\x92\xbe\"" },           /* U+1F4BE */
	{ "\xf4\x8f\xbf\xbf", "\"\xf4\x8f\xbf\xbf\"" },           /* U+10FFFF, the last */
	{ "\xff", "\"\\u00ff\"" },
	{ "\x80", "\"\\u0080\"" },                                /* stray continuation */
	{ "\xc0\xaf", "\"\\u00c0\\u00af\"" },                     /* overlong '/' */
	{ "\xe0\x9f\xbf", "\"\\u00e0\\u009f\\u00bf\"" },          /* overlong 3-byte */
	{ "\xed\xa0\x80", "\"\\u00ed\\u00a0\\u0080\"" },          /* surrogate U+D800 */
	{ "\xf0\x8f\xbf\xbf", "\"\\u00f0\\u008f\\u00bf\\u00bf\"" }, /* overlong 4-byte */
	{ "\xf4\x90\x80\x80", "\"\\u00f4\\u0090\\u0080\\u0080\"" }, /* above U+10FFFF */
	{ "\xe2\x82", "\"\\u00e2\\u0082\"" },                     /* cut short by the end */
	{ "\xe2\x82x", "\"\\u00e2\\u0082x\"" },                   /* cut short by ASCII */
	{ "a \"q\" \\ \n\x01\xff", "\"a \\\"q\\\" \\\\ \\u000a\\u0001\\u00ff\"" },
};

static void test_zl_json_str_spells_each_case_exactly(void **state)
{
	char buf[128];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t n = zl_json_str(buf, sizeof(buf), cases[i].in);

		if (strcmp(buf, cases[i].out))
			fail_msg("case %zu: got [%s], want [%s]", i, buf, cases[i].out);
		assert_int_equal(n, strlen(cases[i].out));
	}
}

static void test_zl_json_str_null_is_the_literal_null(void **state)
{
	char buf[8];

	(void)state;
	assert_int_equal(zl_json_str(buf, sizeof(buf), NULL), 4);
	assert_string_equal(buf, "null");
}

static void test_zl_json_str_sizes_and_cuts_like_snprintf(void **state)
{
	const char *s = "a\"\x01";        /* "a\"\u0001" : 11 bytes */
	char buf[16];

	(void)state;
	assert_int_equal(zl_json_str(NULL, 0, s), 11);
	memset(buf, 'X', sizeof(buf));
	assert_int_equal(zl_json_str(buf, 1, s), 11);
	assert_int_equal(buf[0], '\0');
	assert_int_equal(buf[1], 'X');
	memset(buf, 'X', sizeof(buf));
	assert_int_equal(zl_json_str(buf, 6, s), 11);
	assert_string_equal(buf, "\"a\\\"\\");
	assert_int_equal(buf[6], 'X');
	assert_int_equal(zl_json_str(buf, 11, s), 11);
	assert_string_equal(buf, "\"a\\\"\\u0001");
	assert_int_equal(zl_json_str(buf, 12, s), 11);
	assert_string_equal(buf, "\"a\\\"\\u0001\"");
}

static void test_zl_json_fprint_str_writes_what_zl_json_str_gives(void **state)
{
	char want[128], *got = NULL;
	size_t got_len = 0;
	FILE *f;

	(void)state;
	for (size_t i = 0; i <= sizeof(cases) / sizeof(cases[0]); i++) {
		const char *in = i < sizeof(cases) / sizeof(cases[0]) ? cases[i].in : NULL;

		f = open_memstream(&got, &got_len);
		assert_non_null(f);
		zl_json_fprint_str(f, in);
		assert_int_equal(fclose(f), 0);
		zl_json_str(want, sizeof(want), in);
		assert_string_equal(got, want);
		free(got);
		got = NULL;
	}
}

/*
 * Check @j is one JSON string literal (RFC 8259 section 7) and decode it,
 * taking \u00XX as the byte XX (the escaper spells malformed bytes so):
 * returns the decoded length, or -1 if @j is not valid.
 */
static long json_decode_bytes(const char *j, size_t len, char *out)
{
	size_t o = 0;

	if (!g_utf8_validate(j, (gssize)len, NULL) || len < 2 || j[0] != '"' ||
	    j[len - 1] != '"')
		return -1;
	for (size_t i = 1; i < len - 1; i++) {
		unsigned char c = (unsigned char)j[i];

		if (c < 0x20 || c == '"')
			return -1;
		if (c != '\\') {
			out[o++] = (char)c;
			continue;
		}
		if (i + 1 >= len - 1)
			return -1;
		c = (unsigned char)j[++i];
		if (c == '"' || c == '\\' || c == '/') {
			out[o++] = (char)c;
		} else if (c == 'u') {
			unsigned v = 0;

			if (i + 4 >= len - 1)
				return -1;
			for (int k = 1; k <= 4; k++) {
				if (!g_ascii_isxdigit(j[i + k]))
					return -1;
				v = v << 4 | (unsigned)g_ascii_xdigit_value(j[i + k]);
			}
			if (v > 0xff)
				return -1;      /* the escaper never writes more */
			out[o++] = (char)v;
			i += 4;
		} else {
			return -1;
		}
	}
	return (long)o;
}

/* Pieces the random strings are made of: every class the escaper tells apart. */
static const char *const pieces[] = {
	"a", "Z", " ", "~", "/", "\"", "\\", "\n", "\x01", "\x1f", "\x7f",
	"\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x92\xbe", "\xed\x9f\xbf", "\xf4\x8f\xbf\xbf",
	"\xc0", "\xc1", "\xed\xa0", "\xf4\x90", "\xf5", "\x80", "\xbf", "\xe0\x80",
};

static void test_zl_json_str_of_any_bytes_is_valid_json_that_decodes_back(void **state)
{
	char in[64], out[64 * 6 + 3], dec[sizeof(out)];
	uint64_t seed = 42;

	(void)state;
	for (int round = 0; round < 20000; round++) {
		size_t n = 0, len;
		long d;

		while (n < 48) {
			uint64_t r = zl_test_rand(&seed);

			if (r % 5 == 0)
				break;
			if (r % 3 == 0) {
				in[n++] = (char)(r / 8 % 255 + 1);      /* any byte but NUL */
			} else {
				const char *p = pieces[r / 8 % (sizeof(pieces) / sizeof(pieces[0]))];

				memcpy(in + n, p, strlen(p));
				n += strlen(p);
			}
		}
		in[n] = '\0';
		len = zl_json_str(out, sizeof(out), in);
		assert_true(len < sizeof(out));
		d = json_decode_bytes(out, len, dec);
		if (d < 0)
			fail_msg("round %d: not a valid JSON string: %s", round, out);
		assert_int_equal(d, n);
		assert_memory_equal(dec, in, n);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zl_json_str_spells_each_case_exactly),
		cmocka_unit_test(test_zl_json_str_null_is_the_literal_null),
		cmocka_unit_test(test_zl_json_str_sizes_and_cuts_like_snprintf),
		cmocka_unit_test(test_zl_json_fprint_str_writes_what_zl_json_str_gives),
		cmocka_unit_test(test_zl_json_str_of_any_bytes_is_valid_json_that_decodes_back),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
