/*
 * test_scn.c — scenario files: every loader error (FILE:LINE, what was
 * wrong, what is accepted), sweep expansion (lists, ranges, product order,
 * zip, seeds, limits), points and their labels, and expectations that
 * pass, fail (with the measured and expected values) and do not apply.
 * The JSON reader is tested in test_zl_json_read.c, the result tables in
 * test_ana.c.
 * The option table is a small stand-in for `zonelab sim`'s (the loader is
 * given a table; the real one is exercised by tests/scripts/090).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ana_plot.h"
#include "scn.h"

static const struct option opts[] = {
	{ "zones", 1, 0, 1 }, { "util", 1, 0, 2 }, { "clean", 1, 0, 3 },
	{ "no-metadata", 0, 0, 4 }, { "faults", 1, 0, 5 }, { "csv", 1, 0, 6 },
	{ "seed", 1, 0, 7 }, { "help", 0, 0, 8 }, { "writes", 1, 0, 9 }, { 0, 0, 0, 0 },
};
static const char *const reserved[] = { "csv", NULL };

static struct scn *load_ok(const char *text)
{
	struct scn *s = NULL;
	GError *e = NULL;

	if (scn_load_data("t.ini", text, strlen(text), opts, reserved, &s, &e)) {
		fprintf(stderr, "unexpected: %s\n", e->message);
		g_error_free(e);
	}
	assert_non_null(s);
	return s;
}

/* Each refused file: the message starts with where and says what. */
static const struct {
	const char *text, *where, *what;
} bad[] = {
	{ "[sim]\nutl = 1\n", "t.ini:2: ", "unknown key 'utl'; accepted: the options of `zonelab sim`: zones util" },
	{ "[simx]\n", "t.ini:1: ", "unknown section [simx]; accepted: [scenario], [expect], [sim]" },
	{ "zones = 1\n", "t.ini:1: ", "a key before any [section]" },
	{ "[sim]\n\n# c\nzones\n", "t.ini:4: ", "not 'key = value'" },
	{ "[sim]\nzones = 1\n[sim]\n", "t.ini:3: ", "section [sim] again (first on line 1)" },
	{ "[sim]\nzones = 1\nzones = 2\n", "t.ini:3: ", "[sim] zones set again (first on line 2)" },
	{ "[sim]\nzones = 1\n[devices]\nzones = 2\n", "t.ini:4: ", "zones set again (first on line 2)" },
	{ "[sim]\n = 2\n", "t.ini:2: ", "a value without a key" },
	{ "[sim\n", "t.ini:1: ", "a section header is [name]" },
	{ "[scenario]\ncolour = red\n", "t.ini:2: ", "unknown key 'colour'; accepted: name description seeds zip max_points" },
	{ "[scenario]\nname = a b\n", "t.ini:2: ", "name: 'a b': 1 to 64 of" },
	{ "[scenario]\nseeds = [0, 1]\n", "t.ini:2: ", "seeds: 0 is not a seed" },
	{ "[scenario]\nseeds = [1, 2, 1]\n", "t.ini:2: ", "seeds: 1 twice" },
	{ "[scenario]\nseeds = abc\n", "t.ini:2: ", "seeds: 'abc' is not a whole number" },
	{ "[scenario]\nmax_points = 2000000\n", "t.ini:2: ", "max_points: '2000000' is not a whole number from 1 to 1000000" },
	{ "[sim]\nno-metadata = yes\n", "t.ini:2: ", "'yes' is not true or false" },
	{ "[sim]\nzones =\n", "t.ini:2: ", "zones: an empty value" },
	{ "[sim]\nutil = [0.5, 0.6\n", "t.ini:2: ", "a sweep is [a, b, ...]" },
	{ "[sim]\nutil = []\n", "t.ini:2: ", "the sweep [] expands to nothing" },
	{ "[sim]\nutil = [0.9 .. 0.5]\n", "t.ini:2: ", "expands to nothing (HIGH below LOW)" },
	{ "[sim]\nutil = [0.1 .. 0.5 step 0]\n", "t.ini:2: ", "the step must be above 0" },
	{ "[sim]\nzones = [1 .. 200000]\n", "t.ini:2: ", "the range expands to 200000 values (at most 100000)" },
	{ "[sim]\nzones = [1 .. x]\n", "t.ini:2: ", "a range is [LOW .. HIGH]" },
	{ "[sim]\nzones = [1, , 3]\n", "t.ini:2: ", "item 2 of the list is empty" },
	{ "[sim]\nfaults = [\"a, \"b\"]\n", "t.ini:2: ", "text after its closing quote" },
	{ "[sim]\nfaults = [\"a\n", "t.ini:2: ", "a sweep is" },
	{ "[sim]\nfaults = [\"a, b]\n", "t.ini:2: ", "without its closing quote" },
	{ "[scenario]\nzip = util, clean\n[sim]\nutil = [1, 2]\n", "t.ini:2: ", "zip: 'clean' is not a simulator option this file sets" },
	{ "[scenario]\nzip = util, clean\n[sim]\nutil = [1, 2]\nclean = [a, b, c]\n", "t.ini:2: ", "zipped lists need the same length" },
	{ "[scenario]\nzip = util\n[sim]\nutil = [1, 2]\n", "t.ini:2: ", "name at least two swept keys" },
	{ "[scenario]\nzip = util, util\n[sim]\nutil = [1, 2]\n", "t.ini:2: ", "zip: util twice" },
	{ "[scenario]\nmax_points = 5\n[sim]\nutil = [1, 2]\nzones = [1, 2, 3]\n", "t.ini:5: ", "more than max_points = 5 points (6 so far" },
	{ "[scenario]\nmax_points = 5\nseeds = [1 .. 3]\n[sim]\nutil = [1, 2]\n", "t.ini:5: ", "more than max_points = 5" },
	{ "[sim]\ncsv = x.csv\n", "t.ini:2: ", "unknown key 'csv' (the runner sets it itself)" },
	{ "[sim]\nhelp = true\n", "t.ini:2: ", "unknown key 'help'" },
	{ "[sim]\nseed = 3\n", "t.ini:2: ", "the seeds are the replicates" },
	{ "[expect]\nx = wa.data ~ 3\n", "t.ini:2: ", "expected one of == != < <= > >= within" },
	{ "[expect]\nx = 3 < wa.data\n", "t.ini:2: ", "the left side must be a field" },
	{ "[expect]\nx = wa.data within of 3\n", "t.ini:2: ", "'within' needs a tolerance" },
	{ "[expect]\nx = wa.data within -1%% of 3\n", "t.ini:2: ", "'within' needs a tolerance" },
	{ "[expect]\nx = wa.data within 3%% 3\n", "t.ini:2: ", "expected 'of' after the tolerance" },
	{ "[expect]\nx = wa.data == \"abc\n", "t.ini:2: ", "without its closing" },
	{ "[expect]\nx = wa.data == 1 if a within 1 of 2\n", "t.ini:2: ", "'within' is not allowed in an 'if'" },
	{ "[expect]\nx = wa.data == 1 1\n", "t.ini:2: ", "unexpected '1' after the expectation" },
	{ "[expect]\nx = wa.data ==\n", "t.ini:2: ", "expected a field, a number or a \"string\"" },
	{ "[expect]\nx y = wa.data == 1\n", "t.ini:2: ", "an expectation's name is 1 to 64" },
	{ "[sim]\nzones = 1\n\xff\n", "t.ini:3: ", "not valid UTF-8" },
	{ "[plot w]\nkind = pie\n", "t.ini:2: ", "[plot w] kind: 'pie' is not a kind of plot; accepted: line bars cdf timeseries zones" },
	{ "[plot w]\ncolour = red\n", "t.ini:2: ", "[plot w] colour: unknown key 'colour'; accepted: kind x y series facet point ccdf smooth" },
	{ "[plot w]\nccdf = yes\n", "t.ini:2: ", "[plot w] ccdf: 'yes' is not true or false" },
	{ "[plot w]\nsmooth = 0\n", "t.ini:2: ", "smooth: '0' is not a number of samples from 1 to 100000" },
	{ "[plot w]\nx =\n", "t.ini:2: ", "[plot w] x: an empty value" },
	{ "[plot a b]\nx = util\n", "t.ini:2: ", "'a b': a plot's name is 1 to 64" },
	{ "[plot w]\nx = util\n[plot w]\n", "t.ini:3: ", "section [plot w] again (first on line 1)" },
	{ "[plotx]\n", "t.ini:1: ", "unknown section [plotx]; accepted: [scenario], [expect], [sim], [devices], [fs-core], [reorder], [workload], [cleaning], [output], [plot NAME], [table NAME]" },
	{ "[table t]\ncolour = red\n", "t.ini:2: ", "[table t] colour: unknown key 'colour'; accepted: columns title" },
	{ "[table t]\ncolumns =\n", "t.ini:2: ", "[table t] columns: no column" },
	{ "[table t]\ncolumns = a.b, a b\n", "t.ini:2: ", "'a b' is not a metric's dotted path" },
	{ "[table t]\ncolumns = wa.data, .x\n", "t.ini:2: ", "'.x' is not a metric's dotted path" },
	{ "[table t]\ncolumns = wa.data, wa.data\n", "t.ini:2: ", "'wa.data' twice" },
	{ "[table t]\ntitle =\n", "t.ini:2: ", "[table t] title: an empty value" },
	{ "[table t]\ntitle = x\n", "t.ini:2: ", "[table t]: no columns key" },
	{ "[table a b]\ncolumns = x\n", "t.ini:2: ", "'a b': a table's name is 1 to 64" },
	{ "[table ]\ncolumns = x\n", "t.ini:1: ", "unknown section [table ]" },
};

static void test_scn_table_sections(void **state)
{
	struct scn *s = load_ok("[sim]\nutil = [0.5, 0.8]\n[table r]\ntitle = Hours\n"
				"columns = [rebuild.hours, fg.during.p99_ms]\n[table w]\n"
				"columns = wa.data\n");
	const struct scn_table *t;

	(void)state;
	assert_int_equal(s->tables->len, 2);
	t = s->tables->pdata[0];
	assert_string_equal(t->name, "r");
	assert_string_equal(t->title, "Hours");
	assert_int_equal(t->columns->len, 2);
	assert_string_equal(t->columns->pdata[0], "rebuild.hours");
	assert_string_equal(t->columns->pdata[1], "fg.during.p99_ms");
	t = s->tables->pdata[1];
	assert_null(t->title);
	assert_int_equal(t->columns->len, 1);
	/* the tables change no point */
	assert_int_equal(s->nr_points, 2);
	scn_destroy(s);
}

static void test_scn_plot_sections_become_plot_specs(void **state)
{
	struct scn *s = load_ok("[sim]\nutil = [0.5, 0.8]\nclean = [fifo, greedy]\n"
				"[plot w]\nkind = bars\ny = device.zone_resets\nseries = clean\n"
				"[plot c]\nkind = cdf\nccdf = true\n[plot t]\nkind = timeseries\n"
				"smooth = 4\n");
	const struct ana_plot_spec *p;

	(void)state;
	assert_int_equal(s->plots->len, 3);
	p = s->plots->pdata[0];
	assert_string_equal(p->name, "w");
	assert_int_equal(p->kind, ANA_KIND_BARS);
	assert_string_equal(p->y, "device.zone_resets");
	assert_string_equal(p->series, "clean");
	assert_null(p->x);
	assert_null(p->facet);
	p = s->plots->pdata[1];
	assert_int_equal(p->kind, ANA_KIND_CDF);
	assert_true(p->ccdf);
	p = s->plots->pdata[2];
	assert_int_equal(p->kind, ANA_KIND_TIMESERIES);
	assert_int_equal(p->smooth, 4);
	/* the plots change no point */
	assert_int_equal(s->nr_points, 4);
	scn_destroy(s);
}

static void test_scn_every_loader_error_names_file_line_and_what(void **state)
{
	(void)state;
	for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
		struct scn *s = NULL;
		GError *e = NULL;
		char *text = g_strdup(bad[i].text), *pct;

		while ((pct = strstr(text, "%%")))        /* the table's %% is one % */
			memmove(pct, pct + 1, strlen(pct));
		assert_int_equal(scn_load_data("t.ini", text, strlen(text), opts, reserved, &s, &e), -1);
		assert_null(s);
		assert_non_null(e);
		if (!g_str_has_prefix(e->message, bad[i].where) || !strstr(e->message, bad[i].what))
			fail_msg("case %zu: '%s': want '%s' ... '%s'", i, e->message, bad[i].where,
				 bad[i].what);
		g_error_free(e);
		g_free(text);
	}
}

static void test_scn_nul_byte_is_refused_with_its_line(void **state)
{
	static const char text[] = "[sim]\nzones = 1\x00\n";
	struct scn *s = NULL;
	GError *e = NULL;

	(void)state;
	assert_int_equal(scn_load_data("t.ini", text, sizeof(text) - 1, opts, reserved, &s, &e), -1);
	assert_string_equal(e->message, "t.ini:2: a NUL byte: a scenario is a text file");
	g_error_free(e);
}

static void test_scn_product_order_seeds_fastest_last_key_next(void **state)
{
	struct scn *s = load_ok("[scenario]\nname = p\nseeds = [7, 9]\n[sim]\nzones = 64\n"
				"util = [0.5, 0.8]\nclean = [fifo, greedy, x]\nno-metadata = true\n");
	static const char *const want[][3] = {
		{ "0.5", "fifo", "7" }, { "0.5", "fifo", "9" }, { "0.5", "greedy", "7" },
		{ "0.5", "greedy", "9" }, { "0.5", "x", "7" }, { "0.5", "x", "9" },
		{ "0.8", "fifo", "7" },
	};
	struct scn_point p;
	char *label;

	(void)state;
	assert_int_equal(s->nr_configs, 6);
	assert_int_equal(s->nr_points, 12);
	for (unsigned i = 0; i < G_N_ELEMENTS(want); i++) {
		scn_point_init(s, i, &p);
		assert_int_equal(p.keys->len, 5);      /* zones util clean no-metadata seed */
		assert_string_equal(p.keys->pdata[0], "zones");
		assert_string_equal(p.values->pdata[0], "64");
		assert_string_equal(p.values->pdata[1], want[i][0]);
		assert_string_equal(p.values->pdata[2], want[i][1]);
		assert_string_equal(p.values->pdata[3], "true");
		assert_true(GPOINTER_TO_INT(p.flags->pdata[3]));
		assert_string_equal(p.keys->pdata[4], "seed");
		assert_string_equal(p.values->pdata[4], want[i][2]);
		scn_point_fini(&p);
	}
	scn_point_init(s, 11, &p);
	assert_string_equal(p.id, "p-0011");
	label = scn_point_label(&p);
	assert_string_equal(label, "util=0.8 clean=x");
	g_free(label);
	scn_point_fini(&p);
	scn_destroy(s);
}

static void test_scn_zip_moves_keys_together(void **state)
{
	struct scn *s = load_ok("[scenario]\nzip = util, clean\n[sim]\nutil = [0.5, 0.8]\n"
				"zones = [10, 20]\nclean = [fifo, greedy]\n");
	static const char *const want[][3] = {
		{ "0.5", "10", "fifo" }, { "0.5", "20", "fifo" },
		{ "0.8", "10", "greedy" }, { "0.8", "20", "greedy" },
	};

	(void)state;
	assert_int_equal(s->nr_points, 4);
	for (unsigned i = 0; i < 4; i++) {
		struct scn_point p;

		scn_point_init(s, i, &p);
		for (unsigned k = 0; k < 3; k++)
			assert_string_equal(p.values->pdata[k], want[i][k]);
		scn_point_fini(&p);
	}
	scn_destroy(s);
}

static void test_scn_ranges_lists_and_quotes_expand(void **state)
{
	static const struct { const char *in; const char *out; } cases[] = {
		{ "1 .. 4", "1|2|3|4" },
		{ "0 .. 10 step 5", "0|5|10" },
		{ "0.5 .. 0.9 step 0.1", "0.5|0.6|0.7|0.8|0.9" },
		{ "0.1 .. 0.3 step 0.1", "0.1|0.2|0.3" },
		{ "3 .. 3", "3" },
		{ "a, b ,c", "a|b|c" },
		{ "\"x,y\", \" z\" , w", "x,y| z|w" },
		{ "4K, 1M", "4K|1M" },
	};

	(void)state;
	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		GPtrArray *v = g_ptr_array_new_with_free_func(g_free);
		char *why = NULL, *joined;

		assert_int_equal(scn_sweep_parse(cases[i].in, v, &why), 0);
		g_ptr_array_add(v, NULL);
		joined = g_strjoinv("|", (char **)v->pdata);
		assert_string_equal(joined, cases[i].out);
		g_free(joined);
		g_ptr_array_free(v, TRUE);
	}
}

static void test_scn_defaults_name_from_file_one_seed(void **state)
{
	struct scn *s = NULL;
	GError *e = NULL;
	const char *text = "# nothing swept\n[sim]\nzones = 32\nfaults = \"a,b\"\n";

	(void)state;
	assert_int_equal(scn_load_data("dir/my-exp.ini", text, strlen(text), opts, reserved, &s,
				       &e), 0);
	assert_string_equal(s->name, "my-exp");
	assert_int_equal(s->nr_points, 1);
	assert_int_equal(s->seeds->len, 1);
	assert_int_equal(g_array_index(s->seeds, uint64_t, 0), 1);
	assert_string_equal(((struct scn_axis *)s->axes->pdata[1])->values[0], "a,b");
	assert_false(((struct scn_axis *)s->axes->pdata[0])->swept);
	scn_destroy(s);
}

static const char point_json[] =
	"{ \"point\": { \"id\": \"x-0001\", \"scenario\": \"x\", \"index\": 1, \"label\": \"util=0.8\", "
	"\"seed\": 2, \"exit_status\": 0, \"params\": { \"util\": \"0.8\", \"seed\": \"2\" } },\n"
	"  \"config\": { \"clean\": \"fifo\", \"metadata\": false },\n"
	"  \"error\": \"none\", \"wa\": { \"data\": 2.5, \"oracle_fifo\": 2.52, \"oracle_greedy\": 2.4 },\n"
	"  \"reorder_latency_ns\": { \"p99\": 1500000, \"max\": 3000000 },\n"
	"  \"device\": { \"write_errors\": 0 }, \"list\": [ 1, [2, 3], {\"k\": \"a\\\"b\\u00e9\"} ] }\n";

static enum scn_verdict eval(const char *expr, char **msg)
{
	struct scn_expect e = { 0 };
	struct zl_json_doc *j = zl_json_parse(point_json, strlen(point_json), NULL);
	char *why = NULL;
	enum scn_verdict v;

	assert_non_null(j);
	if (scn_expect_parse(expr, &e, &why))
		fail_msg("%s: %s", expr, why);
	v = scn_expect_eval(&e, j, msg);
	scn_expect_fini(&e);
	zl_json_destroy(j);
	return v;
}

static void test_scn_expectations_pass_fail_and_skip(void **state)
{
	static const struct { const char *expr; enum scn_verdict v; const char *msg; } cases[] = {
		{ "wa.data within 1% of wa.oracle_fifo", SCN_PASS, NULL },
		{ "wa.data within 1% of wa.oracle_greedy", SCN_FAIL,
		  "wa.data = 2.5, expected within 1% of wa.oracle_greedy = 2.4 (off by 0.1, +4.17%)" },
		{ "wa.data within 0.05 of 2.52", SCN_PASS, NULL },
		{ "wa.data within 0.01 of 2.52", SCN_FAIL, "expected within 0.01 of 2.52" },
		{ "device.write_errors == 0", SCN_PASS, NULL },
		{ "device.write_errors > 0", SCN_FAIL, "device.write_errors = 0, expected > 0" },
		{ "reorder_latency_ns.p99 < 2ms", SCN_PASS, NULL },
		{ "reorder_latency_ns.p99 <= 1.5ms", SCN_PASS, NULL },
		{ "reorder_latency_ns.p99 < 1ms", SCN_FAIL, "reorder_latency_ns.p99 = 1500000, expected < 1ms" },
		{ "reorder_latency_ns.max >= 3000us", SCN_PASS, NULL },
		{ "error == \"none\"", SCN_PASS, NULL },
		{ "error != \"none\"", SCN_FAIL, "error = \"none\", expected != \"none\"" },
		{ "config.metadata == false", SCN_PASS, NULL },
		{ "point.exit_status == 0", SCN_PASS, NULL },
		{ "list.1.0 == 2", SCN_PASS, NULL },
		{ "wa.data > 1 if config.clean == \"fifo\"", SCN_PASS, NULL },
		{ "wa.data > 9 if config.clean == \"greedy\"", SCN_SKIP,
		  "not applicable (config.clean == greedy is false)" },
		{ "wa.nope == 1", SCN_FAIL, "field 'wa.nope' is not in the results" },
		{ "wa.data == wa.nope", SCN_FAIL, "field 'wa.nope' is not in the results" },
		{ "error < 3", SCN_FAIL, "only == and != compare text" },
		{ "wa.data < 1 if wa.nope == 2", SCN_SKIP, "field 'wa.nope' is not in the results" },
		{ "wa.data == 2.5", SCN_PASS, NULL },
		{ "wa.data > wa.oracle_greedy", SCN_PASS, NULL },
	};

	(void)state;
	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		char *msg = NULL;
		enum scn_verdict v = eval(cases[i].expr, &msg);

		if (v != cases[i].v)
			fail_msg("%s: verdict %d, want %d (%s)", cases[i].expr, v, cases[i].v,
				 msg ? msg : "");
		if (cases[i].msg && (!msg || !strstr(msg, cases[i].msg)))
			fail_msg("%s: message '%s', want '%s'", cases[i].expr, msg ? msg : "(none)",
				 cases[i].msg);
		g_free(msg);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scn_every_loader_error_names_file_line_and_what),
		cmocka_unit_test(test_scn_plot_sections_become_plot_specs),
		cmocka_unit_test(test_scn_table_sections),
		cmocka_unit_test(test_scn_nul_byte_is_refused_with_its_line),
		cmocka_unit_test(test_scn_product_order_seeds_fastest_last_key_next),
		cmocka_unit_test(test_scn_zip_moves_keys_together),
		cmocka_unit_test(test_scn_ranges_lists_and_quotes_expand),
		cmocka_unit_test(test_scn_defaults_name_from_file_one_seed),
		cmocka_unit_test(test_scn_expectations_pass_fail_and_skip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
