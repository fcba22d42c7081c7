/*
 * test_zl_json_read.c — the JSON reader (common/zl_json_read.h): dotted
 * paths in document order, array items by index, string escapes unescaped,
 * numbers kept as written beside their value, true/false as numbers, and
 * every refusal naming the byte where it happened (nesting limit included).
 * The fixture is a point file as `zonelab run` writes one.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "zl_json_read.h"

static const char point_json[] =
	"{ \"point\": { \"id\": \"x-0001\", \"scenario\": \"x\", \"index\": 1, \"label\": \"util=0.8\", "
	"\"seed\": 2, \"exit_status\": 0, \"params\": { \"util\": \"0.8\", \"seed\": \"2\" } },\n"
	"  \"config\": { \"clean\": \"fifo\", \"metadata\": false },\n"
	"  \"error\": \"none\", \"wa\": { \"data\": 2.5, \"oracle_fifo\": 2.52, \"oracle_greedy\": 2.4 },\n"
	"  \"reorder_latency_ns\": { \"p99\": 1500000, \"max\": 3000000 },\n"
	"  \"device\": { \"write_errors\": 0 }, \"list\": [ 1, [2, 3], {\"k\": \"a\\\"b\\u00e9\"} ] }\n";

static void test_zl_json_read_paths_and_escapes(void **state)
{
	struct zl_json_doc *j = zl_json_parse(point_json, strlen(point_json), NULL);
	const struct zl_json_leaf *l;

	(void)state;
	assert_non_null(j);
	l = zl_json_get(j, "list.2.k");
	assert_non_null(l);
	assert_int_equal(l->kind, ZL_JSON_STR);
	assert_string_equal(l->text, "a\"b\xc3\xa9");
	l = zl_json_get(j, "wa.oracle_fifo");
	assert_int_equal(l->kind, ZL_JSON_NUM);
	assert_true(l->num == 2.52);
	assert_string_equal(l->text, "2.52");
	l = zl_json_get(j, "config.metadata");
	assert_int_equal(l->kind, ZL_JSON_BOOL);
	assert_string_equal(((struct zl_json_leaf *)j->leaves->pdata[0])->path, "point.id");
	zl_json_destroy(j);
}

static void test_zl_json_read_errors_name_the_byte(void **state)
{
	static const struct { const char *in; const char *msg; } cases[] = {
		{ "", "byte 0: expected '{'" },
		{ "[1]", "byte 0: expected '{'" },
		{ "{\"a\": }", "byte 6: expected a value" },
		{ "{\"a\" 1}", "byte 5: expected ':'" },
		{ "{\"a\": 1,}", "byte 8: expected a member name" },
		{ "{\"a\": 1} x", "byte 9: text after the document" },
		{ "{\"a\": \"x", "unterminated string" },
		{ "{\"a\": \"\\q\"}", "unknown escape" },
		{ "{\"a\": \"\\u12\"}", "\\u needs 4 hex digits" },
		{ "{\"a\": -}", "not a number" },
		{ "{\"a\": [1 2]}", "expected ',' or ']'" },
		{ "{\"a\": tru}", "expected a value" },
	};

	(void)state;
	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		GError *e = NULL;

		assert_null(zl_json_parse(cases[i].in, strlen(cases[i].in), &e));
		if (!e || !strstr(e->message, cases[i].msg))
			fail_msg("'%s': '%s', want '%s'", cases[i].in, e ? e->message : "(none)",
				 cases[i].msg);
		g_error_free(e);
	}
	{
		GString *deep = g_string_new("{\"a\":");
		GError *e = NULL;

		for (int i = 0; i < 100; i++)
			g_string_append(deep, "[");
		assert_null(zl_json_parse(deep->str, deep->len, &e));
		assert_non_null(strstr(e->message, "nested too deep"));
		g_error_free(e);
		g_string_free(deep, TRUE);
	}
}

static void test_zl_json_read_numbers_keep_their_text(void **state)
{
	static const char doc[] = "{\"a\": 2.50, \"b\": 1e3, \"c\": -0, \"d\": [true, null]}";
	struct zl_json_doc *j = zl_json_parse(doc, strlen(doc), NULL);
	static const struct { const char *path, *text; enum zl_json_kind kind; double num; } want[] = {
		{ "a", "2.50", ZL_JSON_NUM, 2.5 }, { "b", "1e3", ZL_JSON_NUM, 1000 },
		{ "c", "-0", ZL_JSON_NUM, 0 }, { "d.0", "true", ZL_JSON_BOOL, 1 },
		{ "d.1", "null", ZL_JSON_NULL, 0 },
	};

	(void)state;
	assert_non_null(j);
	assert_int_equal(j->leaves->len, G_N_ELEMENTS(want));
	for (size_t i = 0; i < G_N_ELEMENTS(want); i++) {
		const struct zl_json_leaf *l = zl_json_get(j, want[i].path);

		assert_ptr_equal(l, j->leaves->pdata[i]);
		assert_string_equal(l->text, want[i].text);
		assert_int_equal(l->kind, want[i].kind);
		assert_true(l->num == want[i].num);
	}
	assert_null(zl_json_get(j, "d"));
	zl_json_destroy(j);
	zl_json_destroy(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zl_json_read_paths_and_escapes),
		cmocka_unit_test(test_zl_json_read_errors_name_the_byte),
		cmocka_unit_test(test_zl_json_read_numbers_keep_their_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
