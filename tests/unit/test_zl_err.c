/*
 * test_zl_err.c — every zonelab error code has a distinct stable name and a
 * real message; -errno goes through the C library's text; values that are
 * no code at all still get a non-NULL string.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "zl_err.h"

static void test_zl_err_every_code_has_a_distinct_name_and_text(void **state)
{
	(void)state;
	for (int e = ZL_E_BASE + 1; e < ZL_E_LAST; e++) {
		const char *name = zl_errname(e), *text = zl_strerror(e);

		assert_true(zl_is_own_error(e));
		assert_non_null(name);
		assert_non_null(text);
		assert_true(strlen(name) > 0);
		assert_true(strlen(text) > 0);
		assert_null(strstr(text, "unknown"));
		assert_string_not_equal(name, "unknown");
		for (size_t i = 0; name[i]; i++)
			assert_true((name[i] >= 'a' && name[i] <= 'z') || name[i] == '_');
		for (int o = ZL_E_BASE + 1; o < e; o++) {
			assert_string_not_equal(name, zl_errname(o));
			assert_string_not_equal(text, zl_strerror(o));
		}
	}
}

static void test_zl_err_names_are_stable(void **state)
{
	(void)state;
	assert_string_equal(zl_errname(ZL_E_UNALIGNED), "unaligned");
	assert_string_equal(zl_errname(ZL_E_ZONE_FULL), "zone_full");
	assert_string_equal(zl_errname(ZL_E_BAD_MAGIC), "bad_magic");
	assert_string_equal(zl_errname(ZL_E_GEOMETRY_MISMATCH), "geometry_mismatch");
	assert_string_equal(zl_errname(ZL_E_FAULT_SYNTAX), "fault_syntax");
}

static void test_zl_err_negative_errno_uses_libc_text(void **state)
{
	(void)state;
	assert_string_equal(zl_strerror(-EIO), strerror(EIO));
	assert_string_equal(zl_strerror(-ENOSPC), strerror(ENOSPC));
	assert_string_equal(zl_errname(-EIO), "EIO");
	assert_string_equal(zl_errname(-EEXIST), "EEXIST");
}

static void test_zl_err_zero_is_success(void **state)
{
	(void)state;
	assert_string_equal(zl_strerror(0), "success");
	assert_string_equal(zl_errname(0), "ok");
}

static void test_zl_err_unknown_values_are_not_null(void **state)
{
	static const int odd[] = { ZL_E_BASE, ZL_E_LAST, ZL_E_LAST + 1, -4096, -4097,
				   -100000, -9999, -4000 };

	(void)state;
	for (size_t i = 0; i < sizeof(odd) / sizeof(odd[0]); i++) {
		assert_non_null(zl_strerror(odd[i]));
		assert_non_null(zl_errname(odd[i]));
	}
	assert_false(zl_is_own_error(ZL_E_BASE));
	assert_false(zl_is_own_error(ZL_E_LAST));
	assert_string_equal(zl_errname(ZL_E_LAST), "unknown");
	/* the reserved range is never read as -errno */
	assert_string_equal(zl_strerror(ZL_E_BASE), "unknown zonelab error");
	assert_string_equal(zl_strerror(-4096), "unknown zonelab error");
	assert_string_equal(zl_errname(-4096), "unknown");
	/* an errno value the C library does not know */
	assert_string_equal(zl_strerror(-4000), "unknown error");
	assert_string_equal(zl_errname(-4000), "unknown");
}

static void test_zl_msgf_formats_and_truncates_and_accepts_no_buffer(void **state)
{
	char msg[8];

	(void)state;
	zl_msgf(msg, sizeof(msg), "zone %u: %s", 12u, "offline");
	assert_string_equal(msg, "zone 12");           /* truncated, terminated */
	memset(msg, 'x', sizeof(msg));
	zl_msgf(msg, 0, "zone %u", 1u);
	assert_int_equal(msg[0], 'x');                 /* @len 0: nothing written */
	zl_msgf(NULL, 100, "zone %u", 1u);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zl_err_every_code_has_a_distinct_name_and_text),
		cmocka_unit_test(test_zl_err_names_are_stable),
		cmocka_unit_test(test_zl_err_negative_errno_uses_libc_text),
		cmocka_unit_test(test_zl_err_zero_is_success),
		cmocka_unit_test(test_zl_err_unknown_values_are_not_null),
		cmocka_unit_test(test_zl_msgf_formats_and_truncates_and_accepts_no_buffer),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
