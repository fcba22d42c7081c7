/*
 * test_zfault.c — unit tests of the fault rules: the text parser and
 * formatter (table-driven, good and bad inputs, round trips over many
 * generated rules) and the engine (matching, after/prob/count, combining,
 * determinism, latency distributions, remove/clear/list).
 *
 * Only the real zfault code is used; no zone model, no store, no clock.
 * Randomness comes from fixed seeds.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <math.h>

#include <cmocka.h>

#include "zfault.h"
#include "zl_test.h"

/* Fresh engine per test. */
static int setup_engine(void **state)
{
	struct zfault *f = NULL;

	if (zfault_create(42, &f))
		return -1;
	*state = f;
	return 0;
}

static int teardown_engine(void **state)
{
	zfault_destroy(*state);
	return 0;
}

static uint32_t add(struct zfault *f, const char *text)
{
	struct zfault_rule r;
	char msg[256];
	uint32_t id = 0;

	if (zfault_parse(text, &r, msg, sizeof(msg)))
		fail_msg("%s", msg);
	assert_int_equal(zfault_add(f, &r, &id), 0);
	assert_true(id > 0);
	return id;
}

/* ---- parser: good inputs ---------------------------------------------- */

static const struct {
	const char *text;
	const char *canon;        /* zfault_format() of the parsed rule */
} good[] = {
	{ "medium-error", "medium-error:once" },
	{ "  medium-error:op=read  ", "medium-error:op=read,once" },
	{ "medium-error:op=read,lba=4096-8191,prob=0.01,count=0",
	  "medium-error:op=read,lba=4096-8191,prob=0.01,repeat" },
	{ "medium-error:op=read|write,lba=0x10+0x10", "medium-error:op=read|write,lba=16-31,once" },
	{ "medium-error:op=write|read|any", "medium-error:once" },
	{ "medium-error:op=read|write|zone|flush", "medium-error:once" },
	{ "medium-error:lba=0-18446744073709551615", "medium-error:once" },
	{ "medium-error:lba=7", "medium-error:lba=7,once" },
	{ "read-only:zone=3", "read-only:zone=3,once" },
	{ "offline:zone=2-9,after=5,count=3", "offline:zone=2-9,after=5,count=3" },
	{ "offline:zone=0-4294967295", "offline:once" },
	{ "stall:op=flush,prob=25%,repeat", "stall:op=flush,prob=0.25,repeat" },
	{ "stall:once", "stall:once" },
	{ "power-loss:after=100", "power-loss:after=100,once" },
	{ "power-loss:prob=1e-3", "power-loss:prob=0.001,once" },
	{ "power-loss:prob=0", "power-loss:prob=0,once" },
	{ "power-loss:prob=1.0", "power-loss:once" },
	{ "power-loss:prob=100%", "power-loss:once" },
	{ "torn-write", "torn-write:once,keep=50%" },
	{ "torn-write:op=write,keep=3", "torn-write:op=write,once,keep=3" },
	{ "torn-write:keep=0", "torn-write:once,keep=0%" },
	{ "torn-write:keep=100%,repeat", "torn-write:repeat,keep=100%" },
	{ "latency:ms=5", "latency:once,ms=5" },
	{ "latency:us=1500,repeat", "latency:repeat,us=1500" },
	{ "latency:ns=1234", "latency:once,ns=1234" },
	{ "latency:ns=0", "latency:once,ns=0" },
	{ "latency:a=2s", "latency:once,ms=2000" },
	{ "latency:dist=fixed,a=7us", "latency:once,us=7" },
	{ "latency:op=write,dist=uniform,a=100us,b=2ms",
	  "latency:op=write,once,dist=uniform,a=100us,b=2ms" },
	{ "latency:dist=exp,a=1ms,count=0", "latency:repeat,dist=exp,a=1ms" },
	{ "latency:dist=pareto,a=10us,b=3", "latency:once,dist=pareto,a=10us,b=3" },
	{ "latency:dist=uniform,a=0,b=0x10", "latency:once,dist=uniform,a=0ns,b=16ns" },
};

static void test_zfault_parse_good_inputs_give_canonical_text(void **state)
{
	char msg[256], buf[256];
	struct zfault_rule r, r2;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		if (zfault_parse(good[i].text, &r, msg, sizeof(msg)))
			fail_msg("\"%s\": %s", good[i].text, msg);
		assert_true(zfault_format(&r, buf, sizeof(buf)) > 0);
		if (strcmp(buf, good[i].canon))
			fail_msg("\"%s\" formats as \"%s\", want \"%s\"", good[i].text, buf,
				 good[i].canon);
		if (zfault_parse(buf, &r2, msg, sizeof(msg)))
			fail_msg("canonical \"%s\" of \"%s\": %s", buf, good[i].text, msg);
		assert_true(zl_test_zfault_rule_is_equal(&r, &r2));
	}
}

static void test_zfault_parse_fills_fields(void **state)
{
	struct zfault_rule r;
	char msg[256];

	(void)state;
	assert_int_equal(zfault_parse("medium-error:op=read,lba=4096-8191,prob=0.01,count=0",
				      &r, msg, sizeof(msg)), 0);
	assert_int_equal(r.action, ZFAULT_MEDIUM_ERROR);
	assert_int_equal(r.ops, ZFAULT_OP_READ);
	assert_int_equal(r.lba_first, 4096);
	assert_int_equal(r.lba_last, 8191);
	assert_int_equal(r.zone_first, 0);
	assert_int_equal(r.zone_last, UINT32_MAX);
	assert_true(r.prob == 0.01);
	assert_int_equal(r.count, 0);

	assert_int_equal(zfault_parse("latency:op=write,dist=uniform,a=100us,b=2ms", &r, msg,
				      sizeof(msg)), 0);
	assert_int_equal(r.dist, ZFAULT_DIST_UNIFORM);
	assert_int_equal(r.lat_a_ns, 100000);
	assert_int_equal(r.lat_b_ns, 2000000);
	assert_int_equal(r.count, 1);           /* default: once */

	assert_int_equal(zfault_parse("torn-write:keep=25%", &r, msg, sizeof(msg)), 0);
	assert_int_equal(r.torn_keep_lba, 0);
	assert_int_equal(r.torn_keep_pct, 25);
	assert_int_equal(zfault_parse("torn-write:keep=8", &r, msg, sizeof(msg)), 0);
	assert_int_equal(r.torn_keep_lba, 8);
	assert_int_equal(r.torn_keep_pct, 0);

	assert_int_equal(zfault_parse("offline:lba=10+5,zone=1-2", &r, msg, sizeof(msg)), 0);
	assert_int_equal(r.lba_first, 10);
	assert_int_equal(r.lba_last, 14);
	assert_int_equal(r.zone_first, 1);
	assert_int_equal(r.zone_last, 2);
}

/* ---- parser: bad inputs ------------------------------------------------ */

static const struct {
	const char *text;
	int column;
	const char *words;        /* must appear in the message */
} bad[] = {
	{ "medium-error:op=rd", 17,
	  "unknown operation \"rd\" (expected read, write, zone, flush, any)" },
	{ "", 1, "empty rule" },
	{ "   ", 1, "empty rule" },
	{ "bogus", 1, "unknown action \"bogus\" (expected medium-error, read-only" },
	{ "medium_error:op=read", 1, "unknown action \"medium_error\"" },
	{ ":op=read", 1, "missing action" },
	{ "stall:", 7, "expected key=value after ':'" },
	{ "stall:once,", 12, "expected key=value after ','" },
	{ "stall:once,,op=read", 12, "empty key=value" },
	{ "stall:foo=1", 7, "unknown key \"foo\"" },
	{ "stall:count", 12, "missing '=' after key \"count\"" },
	{ "stall:count=", 13, "missing value after \"count=\"" },
	{ "stall:once=1", 11, "flag \"once\" takes no value" },
	{ "stall:count=abc", 13, "bad number \"abc\"" },
	{ "stall:count=0x", 13, "bad number \"0x\"" },
	{ "stall:count=-1", 13, "bad number \"-1\"" },
	{ "stall:count=18446744073709551616", 13, "does not fit in 64 bits" },
	{ "stall:count=0x10000000000000000", 13, "does not fit in 64 bits" },
	{ "stall:count=18446744073709551615", 0, NULL },  /* max is fine */
	{ "stall:count=5x", 14, "trailing garbage \"x\" after number" },
	{ "stall:after=1.5", 14, "trailing garbage \".5\"" },
	{ "stall:lba=200-100", 11, "range reversed: 200 > 100" },
	{ "stall:lba=5+0", 13, "empty range: length 0" },
	{ "stall:lba=18446744073709551615+2", 11, "runs past the last LBA" },
	{ "stall:lba=5-", 13, "bad number \"\"" },
	{ "stall:lba=5*3", 12, "trailing garbage \"*3\"" },
	{ "stall:zone=9-3", 12, "range reversed: 9 > 3" },
	{ "stall:zone=4294967296", 12, "zone 4294967296 out of range" },
	{ "stall:zone=1+2", 13, "trailing garbage \"+2\"" },
	{ "stall:prob=1.5", 12, "prob 1.5 out of [0, 1]" },
	{ "stall:prob=150%", 12, "prob 150% out of [0, 1]" },
	{ "stall:prob=1e400", 12, "out of [0, 1]" },
	{ "stall:prob=-0.1", 12, "bad probability \"-0.1\"" },
	{ "stall:prob=nan", 12, "bad probability \"nan\"" },
	{ "stall:prob=0x1p-2", 12, "bad probability" },
	{ "stall:prob=.", 12, "bad probability" },
	{ "stall:prob=1e", 12, "bad probability" },
	{ "stall:keep=3", 7, "key \"keep\" only applies to torn-write" },
	{ "medium-error:ms=3", 14, "key \"ms\" only applies to latency" },
	{ "stall:op=read,op=write", 15, "duplicate key \"op\"" },
	{ "stall:once,count=3", 12, "duplicate key \"count\" (already set by \"once\")" },
	{ "stall:repeat,once", 14, "duplicate key \"once\" (already set by \"repeat\")" },
	{ "torn-write:keep=101%", 17, "keep 101% out of" },
	{ "torn-write:keep=3x", 18, "trailing garbage \"x\"" },
	{ "torn-write:op=read", 12, "torn-write only applies to writes" },
	{ "read-only:op=flush", 11, "needs a command with a zone" },
	{ "latency", 8, "latency needs a delay" },
	{ "latency:once", 13, "latency needs a delay" },
	{ "latency:ms=1,us=2", 14, "duplicate key \"us\" (already set by \"ms\")" },
	{ "latency:ms=1,dist=exp", 14, "key \"dist\" conflicts with \"ms\"" },
	{ "latency:a=1,ms=1", 13, "key \"ms\" conflicts with dist=/a=/b=" },
	{ "latency:ms=18446744073709551615", 12, "does not fit in 64-bit ns" },
	{ "latency:ms=5ms", 13, "trailing garbage \"ms\"" },
	{ "latency:dist=gauss,a=1", 14, "unknown distribution \"gauss\" (expected fixed, uniform, exp, pareto)" },
	{ "latency:dist=exp", 9, "dist=exp needs a=" },
	{ "latency:dist=uniform,a=1ms", 9, "dist=uniform needs b=" },
	{ "latency:dist=uniform,a=2ms,b=1ms", 28, "range reversed: a=2000000ns > b=1000000ns" },
	{ "latency:dist=exp,a=1ms,b=2ms", 24, "key \"b\" only applies to dist=uniform or dist=pareto" },
	{ "latency:dist=pareto,a=1ms,b=1", 29, "pareto shape b must be an integer >= 2" },
	{ "latency:dist=pareto,a=1ms,b=2us", 29, "pareto shape b takes no unit" },
	{ "latency:a=5xs", 12, "unknown unit \"xs\" (expected ns, us, ms, s)" },
	{ "latency:a=18446744073709551615s", 11, "does not fit in 64-bit ns" },
	{ "stall:op=read;power-loss", 14, "';' separates rules" },
	{ "stall:op=read, once", 15, "unexpected blank" },
	{ "stall:op=", 10, "missing value" },
	{ "stall:op=read|", 15, "unknown operation \"\"" },
};

static void test_zfault_parse_bad_inputs_say_where_and_why(void **state)
{
	struct zfault_rule r;
	char msg[512], col[32];
	size_t i;
	int ret;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(msg, 0, sizeof(msg));
		zfault_rule_init(&r, ZFAULT_STALL);
		ret = zfault_parse(bad[i].text, &r, msg, sizeof(msg));
		if (!bad[i].words) {
			if (ret)
				fail_msg("\"%s\" should parse: %s", bad[i].text, msg);
			continue;
		}
		if (ret != ZL_E_FAULT_SYNTAX)
			fail_msg("\"%s\" should fail, got %d", bad[i].text, ret);
		snprintf(col, sizeof(col), ": column %d: ", bad[i].column);
		if (!strstr(msg, col) || !strstr(msg, bad[i].words) ||
		    strncmp(msg, "fault rule \"", 12))
			fail_msg("\"%s\": got message '%s', want column %d and '%s'",
				 bad[i].text, msg, bad[i].column, bad[i].words);
		/* *r untouched on failure */
		assert_int_equal(r.action, ZFAULT_STALL);
	}
}

static void test_zfault_parse_message_matches_documented_example(void **state)
{
	struct zfault_rule r;
	char msg[256];

	(void)state;
	assert_int_equal(zfault_parse("medium-error:op=rd", &r, msg, sizeof(msg)),
			 ZL_E_FAULT_SYNTAX);
	assert_string_equal(msg, "fault rule \"medium-error:op=rd\": column 17: unknown operation "
			    "\"rd\" (expected read, write, zone, flush, any)");
	/* tiny and absent message buffers are fine */
	assert_int_equal(zfault_parse("x", &r, msg, 4), ZL_E_FAULT_SYNTAX);
	assert_int_equal(strlen(msg), 3);
	assert_int_equal(zfault_parse("x", &r, NULL, 0), ZL_E_FAULT_SYNTAX);
	assert_int_equal(zfault_parse(NULL, &r, NULL, 0), -EINVAL);
}

/* ---- round trip over generated rules ----------------------------------- */

static uint64_t pick_u64(uint64_t *s)
{
	switch (zl_test_rand(s) % 4) {
	case 0: return zl_test_rand(s) % 10;
	case 1: return zl_test_rand(s) % 100000;
	case 2: return UINT64_MAX - zl_test_rand(s) % 3;
	default: return zl_test_rand(s);
	}
}

/* A random rule of the kind the parser produces. */
static void random_rule(uint64_t *s, struct zfault_rule *r)
{
	enum zfault_action a = (enum zfault_action)(1 + zl_test_rand(s) % 7);
	uint64_t x, y;

	zfault_rule_init(r, a);
	if (zl_test_rand(s) % 2)
		r->ops = (uint32_t)(zl_test_rand(s) % 15);  /* 0xf is written as 0 */
	if (a == ZFAULT_TORN_WRITE && r->ops && !(r->ops & ZFAULT_OP_WRITE))
		r->ops |= ZFAULT_OP_WRITE;
	if ((a == ZFAULT_READ_ONLY || a == ZFAULT_OFFLINE) && r->ops == ZFAULT_OP_FLUSH)
		r->ops |= ZFAULT_OP_ZONE;
	if (r->ops == ZFAULT_OP_ANY)
		r->ops = 0;
	if (zl_test_rand(s) % 2) {
		x = pick_u64(s);
		y = pick_u64(s);
		r->lba_first = x < y ? x : y;
		r->lba_last = x < y ? y : x;
	}
	if (zl_test_rand(s) % 2) {
		x = zl_test_rand(s) % 3 ? zl_test_rand(s) % 1000 : (uint32_t)zl_test_rand(s);
		y = zl_test_rand(s) % 3 ? zl_test_rand(s) % 1000 : (uint32_t)zl_test_rand(s);
		r->zone_first = (uint32_t)(x < y ? x : y);
		r->zone_last = (uint32_t)(x < y ? y : x);
	}
	if (zl_test_rand(s) % 2)
		r->after = pick_u64(s);
	switch (zl_test_rand(s) % 4) {
	case 0: r->prob = (double)(zl_test_rand(s) >> 11) * 0x1.0p-53; break;
	case 1: r->prob = (double)(zl_test_rand(s) % 101) / 100.0; break;
	case 2: r->prob = 1e-9 * (double)(zl_test_rand(s) % 1000); break;
	default: break;
	}
	r->count = zl_test_rand(s) % 3 ? zl_test_rand(s) % 3 : pick_u64(s);
	if (a == ZFAULT_TORN_WRITE) {
		if (zl_test_rand(s) % 2)
			r->torn_keep_lba = pick_u64(s), r->torn_keep_pct = 0;
		else
			r->torn_keep_pct = (uint32_t)(zl_test_rand(s) % 101);
		if (r->torn_keep_lba)
			r->torn_keep_pct = 0;
	}
	if (a == ZFAULT_LATENCY) {
		r->dist = (enum zfault_dist)(zl_test_rand(s) % 4);
		r->lat_a_ns = pick_u64(s);
		if (zl_test_rand(s) % 2)
			r->lat_a_ns = (r->lat_a_ns % 5000) * (zl_test_rand(s) % 2 ? 1000000 : 1000);
		if (r->dist == ZFAULT_DIST_UNIFORM) {
			r->lat_b_ns = pick_u64(s);
			if (r->lat_b_ns < r->lat_a_ns) {
				x = r->lat_a_ns;
				r->lat_a_ns = r->lat_b_ns;
				r->lat_b_ns = x;
			}
		} else if (r->dist == ZFAULT_DIST_PARETO) {
			r->lat_b_ns = 2 + zl_test_rand(s) % 10;
		}
	}
}

static void test_zfault_format_round_trips_many_rules(void **state)
{
	uint64_t s = 20240601;
	char buf[512], buf2[512], msg[256];
	struct zfault_rule r, back;
	int i, n;

	(void)state;
	for (i = 0; i < 20000; i++) {
		random_rule(&s, &r);
		n = zfault_format(&r, buf, sizeof(buf));
		assert_true(n > 0 && (size_t)n == strlen(buf));
		if (zfault_parse(buf, &back, msg, sizeof(msg)))
			fail_msg("rule %d: \"%s\" does not parse: %s", i, buf, msg);
		if (!zl_test_zfault_rule_is_equal(&r, &back))
			fail_msg("rule %d: \"%s\" parses to a different rule", i, buf);
		assert_int_equal(zfault_format(&back, buf2, sizeof(buf2)), n);
		assert_string_equal(buf, buf2);
	}
}

static void test_zfault_format_reports_enospc(void **state)
{
	struct zfault_rule r;
	char buf[32];
	int n;

	(void)state;
	zfault_rule_init(&r, ZFAULT_MEDIUM_ERROR);
	n = zfault_format(&r, NULL, 0);
	assert_int_equal(n, -ENOSPC);
	assert_int_equal(zfault_format(&r, buf, 8), -ENOSPC);
	assert_string_equal(buf, "");
	assert_int_equal(zfault_format(&r, buf, 17), -ENOSPC);  /* no room for the NUL */
	assert_int_equal(zfault_format(&r, buf, 18), 17);   /* "medium-error:once" */
	assert_string_equal(zfault_action_name(ZFAULT_POWER_LOSS), "power-loss");
	assert_string_equal(zfault_action_name((enum zfault_action)99), "unknown");
}

/* ---- engine: add / remove / clear / list ------------------------------- */

static void test_zfault_ids_increase_and_remove_clear_work(void **state)
{
	struct zfault *f = *state;
	struct zfault_rule r;
	uint32_t a, b, c, d;
	char *list;

	a = add(f, "stall");
	b = add(f, "power-loss");
	c = add(f, "medium-error");
	assert_true(a < b && b < c);
	assert_int_equal(zfault_nr_rules(f), 3);
	assert_int_equal(zfault_remove(f, b), 0);
	assert_int_equal(zfault_remove(f, b), -ENOENT);
	assert_int_equal(zfault_remove(f, 999), -ENOENT);
	assert_int_equal(zfault_nr_rules(f), 2);
	list = zfault_list(f);
	assert_non_null(list);
	assert_non_null(strstr(list, "1: stall:once (matched 0, fired 0)\n"));
	assert_null(strstr(list, "power-loss"));
	assert_non_null(strstr(list, "3: medium-error:once (matched 0, fired 0)\n"));
	free(list);
	zfault_clear(f);
	assert_int_equal(zfault_nr_rules(f), 0);
	list = zfault_list(f);
	assert_string_equal(list, "");
	free(list);
	d = add(f, "stall");
	assert_true(d > c);                     /* ids are never reused */

	/* invalid rules through the C API */
	zfault_rule_init(&r, ZFAULT_STALL);
	r.prob = 1.5;
	assert_int_equal(zfault_add(f, &r, NULL), -EINVAL);
	zfault_rule_init(&r, ZFAULT_STALL);
	r.lba_first = 10;
	r.lba_last = 5;
	assert_int_equal(zfault_add(f, &r, NULL), -EINVAL);
	zfault_rule_init(&r, (enum zfault_action)0);
	assert_int_equal(zfault_add(f, &r, NULL), -EINVAL);
	zfault_rule_init(&r, ZFAULT_LATENCY);
	r.dist = ZFAULT_DIST_PARETO;
	r.lat_b_ns = 1;
	assert_int_equal(zfault_add(f, &r, NULL), -EINVAL);
	assert_int_equal(zfault_nr_rules(f), 1);
}

static void test_zfault_add_text_is_all_or_none(void **state)
{
	struct zfault *f = *state;
	char msg[256];

	assert_int_equal(zfault_add_text(f, "stall;power-loss:after=3;medium-error:op=rd",
					 msg, sizeof(msg)), ZL_E_FAULT_SYNTAX);
	assert_int_equal(zfault_nr_rules(f), 0);
	assert_string_equal(msg, "fault rule \"medium-error:op=rd\": column 17: unknown operation "
			    "\"rd\" (expected read, write, zone, flush, any)");
	assert_int_equal(zfault_add_text(f, "stall;;power-loss", msg, sizeof(msg)),
			 ZL_E_FAULT_SYNTAX);
	assert_non_null(strstr(msg, "empty rule"));
	assert_int_equal(zfault_add_text(f, "stall;", msg, sizeof(msg)), ZL_E_FAULT_SYNTAX);
	assert_int_equal(zfault_nr_rules(f), 0);

	assert_int_equal(zfault_add_text(f, "  ", msg, sizeof(msg)), 0);
	assert_int_equal(zfault_nr_rules(f), 0);
	assert_int_equal(zfault_add_text(f, "stall:op=flush ; power-loss:after=3;latency:ms=1",
					 msg, sizeof(msg)), 0);
	assert_int_equal(zfault_nr_rules(f), 3);
}

static void test_zfault_list_shows_counters(void **state)
{
	struct zfault *f = *state;
	struct zfault_verdict v;
	char *list;
	int i;

	add(f, "medium-error:op=read,lba=10-19,after=1,count=2");
	for (i = 0; i < 5; i++)
		zfault_eval(f, ZFAULT_OP_READ, 15, 1, 0, 0, &v);
	list = zfault_list(f);
	/* matches 1 (skipped), 2, 3 fire; then the rule is exhausted and inert */
	assert_string_equal(list, "1: medium-error:op=read,lba=10-19,after=1,count=2 (matched 3, fired 2)\n");
	free(list);
}

/* ---- engine: matching ---------------------------------------------------- */

static void test_zfault_op_mask_selects_commands(void **state)
{
	struct zfault *f = *state;
	struct zfault_verdict v;

	add(f, "medium-error:op=read|zone,repeat");
	zfault_eval(f, ZFAULT_OP_WRITE, 0, 8, 0, 0, &v);
	assert_int_equal(v.err, 0);
	zfault_eval(f, ZFAULT_OP_FLUSH, 0, 0, 0, 0, &v);
	assert_int_equal(v.err, 0);
	zfault_eval(f, ZFAULT_OP_READ, 0, 8, 0, 0, &v);
	assert_int_equal(v.err, ZL_E_MEDIUM_READ);
	assert_int_equal(v.rule_id, 1);
	zfault_eval(f, ZFAULT_OP_ZONE, 0, 256, 0, 0, &v);
	assert_int_equal(v.err, ZL_E_MEDIUM_WRITE);
}

static void test_zfault_medium_error_code_follows_the_operation(void **state)
{
	struct zfault *f = *state;
	struct zfault_verdict v;

	add(f, "medium-error:repeat");
	zfault_eval(f, ZFAULT_OP_READ, 0, 1, 0, 0, &v);
	assert_int_equal(v.err, ZL_E_MEDIUM_READ);
	zfault_eval(f, ZFAULT_OP_WRITE, 0, 1, 0, 0, &v);
	assert_int_equal(v.err, ZL_E_MEDIUM_WRITE);
	zfault_eval(f, ZFAULT_OP_ZONE, 0, 1, 0, 0, &v);
	assert_int_equal(v.err, ZL_E_MEDIUM_WRITE);
	zfault_eval(f, ZFAULT_OP_FLUSH, 0, 0, 0, UINT32_MAX, &v);
	assert_int_equal(v.err, ZL_E_MEDIUM_WRITE);
}

/*
 * The failing LBA a medium error reports: the first LBA of the command that
 * the deciding rule covers.  Zone ranges come back as err_zone (zdisk turns
 * it into an LBA); a torn write fails at its first LBA not stored.
 */
static const struct {
	const char *rules;
	enum zfault_op op;
	uint64_t lba, nr;
	uint32_t zone_first, zone_last;
	int err;
	uint64_t err_lba;
	uint32_t err_zone;
} err_lba_cases[] = {
	/* LBA range starting inside the command: its start */
	{ "medium-error:lba=100-199", ZFAULT_OP_READ, 96, 8, 0, 0, ZL_E_MEDIUM_READ, 100, 0 },
	{ "medium-error:lba=100-199", ZFAULT_OP_WRITE, 96, 8, 0, 0, ZL_E_MEDIUM_WRITE, 100, 0 },
	{ "medium-error:lba=100-199", ZFAULT_OP_READ, 0, 1000, 0, 3, ZL_E_MEDIUM_READ, 100, 0 },
	/* the command starts inside the range: the command's start */
	{ "medium-error:lba=100-199", ZFAULT_OP_READ, 150, 100, 0, 0, ZL_E_MEDIUM_READ, 150, 0 },
	{ "medium-error:lba=100-199", ZFAULT_OP_READ, 100, 1, 0, 0, ZL_E_MEDIUM_READ, 100, 0 },
	/* the range's last LBA is the command's first */
	{ "medium-error:lba=100-199", ZFAULT_OP_READ, 199, 8, 0, 0, ZL_E_MEDIUM_READ, 199, 0 },
	/* no LBA range: the command's start */
	{ "medium-error", ZFAULT_OP_READ, 96, 8, 2, 3, ZL_E_MEDIUM_READ, 96, 2 },
	{ "medium-error", ZFAULT_OP_ZONE, 512, 256, 2, 2, ZL_E_MEDIUM_WRITE, 512, 2 },
	/* zone range only: the command's start, and the first covered zone */
	{ "medium-error:zone=4-6", ZFAULT_OP_READ, 1000, 100, 3, 4, ZL_E_MEDIUM_READ, 1000, 4 },
	{ "medium-error:zone=4-6", ZFAULT_OP_READ, 1300, 8, 5, 5, ZL_E_MEDIUM_READ, 1300, 5 },
	/* both ranges: the LBA one here, the zone one applied by the caller */
	{ "medium-error:lba=1100-1199,zone=4", ZFAULT_OP_READ, 1000, 200, 3, 4,
	  ZL_E_MEDIUM_READ, 1100, 4 },
	/* two firing rules: the lower id decides, with its range */
	{ "medium-error:lba=200-299;medium-error:lba=100-199", ZFAULT_OP_READ, 150, 100, 0, 0,
	  ZL_E_MEDIUM_READ, 200, 0 },
	/* a torn write: its first LBA not stored */
	{ "torn-write:keep=3", ZFAULT_OP_WRITE, 96, 8, 0, 0, ZL_E_TORN_WRITE, 99, 0 },
	/* no error: no failing LBA */
	{ "medium-error:lba=100-199", ZFAULT_OP_READ, 0, 100, 0, 0, 0, 0, 0 },
	{ "latency:ns=5", ZFAULT_OP_READ, 96, 8, 0, 0, 0, 0, 0 },
};

static void test_zfault_verdict_names_the_first_covered_lba(void **state)
{
	struct zfault_verdict v;
	struct zfault *f;
	char msg[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(err_lba_cases) / sizeof(err_lba_cases[0]); i++) {
		assert_int_equal(zfault_create(42, &f), 0);
		if (zfault_add_text(f, err_lba_cases[i].rules, msg, sizeof(msg)))
			fail_msg("%s", msg);
		zfault_eval(f, err_lba_cases[i].op, err_lba_cases[i].lba, err_lba_cases[i].nr,
			    err_lba_cases[i].zone_first, err_lba_cases[i].zone_last, &v);
		if (v.err != err_lba_cases[i].err || v.err_lba != err_lba_cases[i].err_lba ||
		    v.err_zone != err_lba_cases[i].err_zone)
			fail_msg("case %zu \"%s\" lba %llu nr %llu: err %d lba %llu zone %u, "
				 "want err %d lba %llu zone %u", i, err_lba_cases[i].rules,
				 (unsigned long long)err_lba_cases[i].lba,
				 (unsigned long long)err_lba_cases[i].nr, v.err,
				 (unsigned long long)v.err_lba, v.err_zone, err_lba_cases[i].err,
				 (unsigned long long)err_lba_cases[i].err_lba,
				 err_lba_cases[i].err_zone);
		zfault_destroy(f);
	}
}

static const struct {
	uint64_t lba, nr;
	bool hit;
} lba_cases[] = {
	{ 90, 10, false },        /* [90, 99] ends before 100 */
	{ 90, 11, true },         /* touches 100 */
	{ 150, 1, true },
	{ 199, 1, true },
	{ 199, 100, true },
	{ 200, 5, false },
	{ 0, 1000, true },        /* covers the range */
	{ 100, 0, true },         /* zero length: the LBA it names */
	{ 99, 0, false },
	{ UINT64_MAX - 1, 10, false },  /* saturates, no wrap */
};

static void test_zfault_lba_range_overlap(void **state)
{
	struct zfault *f = *state;
	struct zfault_verdict v;
	size_t i;

	add(f, "medium-error:lba=100-199,repeat");
	for (i = 0; i < sizeof(lba_cases) / sizeof(lba_cases[0]); i++) {
		zfault_eval(f, ZFAULT_OP_READ, lba_cases[i].lba, lba_cases[i].nr, 0, 0, &v);
		if ((v.err != 0) != lba_cases[i].hit)
			fail_msg("lba %llu nr %llu: hit %d, want %d",
				 (unsigned long long)lba_cases[i].lba,
				 (unsigned long long)lba_cases[i].nr, v.err != 0, lba_cases[i].hit);
	}
}

static void test_zfault_zone_range_overlap(void **state)
{
	struct zfault *f = *state;
	struct zfault_verdict v;

	add(f, "offline:zone=4-6,repeat");
	zfault_eval(f, ZFAULT_OP_WRITE, 0, 8, 3, 3, &v);
	assert_int_equal(v.set_cond, 0);
	zfault_eval(f, ZFAULT_OP_WRITE, 0, 8, 7, 9, &v);
	assert_int_equal(v.set_cond, 0);
	zfault_eval(f, ZFAULT_OP_WRITE, 0, 8, 5, 5, &v);
	assert_int_equal(v.set_cond, ZL_COND_OFFLINE);
	assert_int_equal(v.set_zone, 5);
	assert_int_equal(v.rule_id, 1);
	/* a command spanning zones 2..4: the first zone of the intersection */
	zfault_eval(f, ZFAULT_OP_READ, 0, 8, 2, 4, &v);
	assert_int_equal(v.set_zone, 4);
	/* reversed zone arguments are normalised */
	zfault_eval(f, ZFAULT_OP_READ, 0, 8, 6, 5, &v);
	assert_int_equal(v.set_zone, 5);
	/* flush has no zone: never turns one read-only/offline */
	zfault_eval(f, ZFAULT_OP_FLUSH, 0, 0, 0, UINT32_MAX, &v);
	assert_int_equal(v.set_cond, 0);
}

static void test_zfault_read_only_takes_the_command_zone(void **state)
{
	struct zfault *f = *state;
	struct zfault_verdict v;

	add(f, "read-only:lba=1000-1999,repeat");
	zfault_eval(f, ZFAULT_OP_WRITE, 1500, 8, 3, 3, &v);
	assert_int_equal(v.set_cond, ZL_COND_READ_ONLY);
	assert_int_equal(v.set_zone, 3);
	assert_int_equal(v.err, 0);
}

static void test_zfault_flush_matches_only_unrestricted_rules(void **state)
{
	struct zfault *f = *state;
	struct zfault_verdict v;
	char *list;

	add(f, "stall:lba=0-10,repeat");
	add(f, "stall:zone=0,repeat");
	add(f, "latency:op=flush,us=5,repeat");
	zfault_eval(f, ZFAULT_OP_FLUSH, 0, 0, 0, 0, &v);
	assert_false(v.stall);
	assert_int_equal(v.delay_ns, 5000);
	assert_int_equal(v.rule_id, 0);         /* latency alone decides nothing */
	/* the restricted rules were not even counted as matches */
	list = zfault_list(f);
	assert_string_equal(list, "1: stall:lba=0-10,repeat (matched 0, fired 0)\n"
			    "2: stall:zone=0,repeat (matched 0, fired 0)\n"
			    "3: latency:op=flush,repeat,us=5 (matched 1, fired 1)\n");
	free(list);
}

/* ---- engine: after / count / prob --------------------------------------- */

static void test_zfault_after_skips_first_matches(void **state)
{
	struct zfault *f = *state;
	struct zfault_verdict v;
	int i;

	add(f, "power-loss:op=write,after=3");
	for (i = 0; i < 3; i++) {
		zfault_eval(f, ZFAULT_OP_WRITE, 0, 1, 0, 0, &v);
		assert_int_equal(v.err, 0);
		zfault_eval(f, ZFAULT_OP_READ, 0, 1, 0, 0, &v);        /* not a match */
		assert_int_equal(v.err, 0);
	}
	zfault_eval(f, ZFAULT_OP_WRITE, 0, 1, 0, 0, &v);
	assert_int_equal(v.err, ZL_E_POWER_LOSS);
	zfault_eval(f, ZFAULT_OP_WRITE, 0, 1, 0, 0, &v);   /* once: exhausted */
	assert_int_equal(v.err, 0);
}

static void test_zfault_count_limits_fires_and_zero_repeats(void **state)
{
	struct zfault *f = *state;
	struct zfault_verdict v;
	int i, fired = 0;

	add(f, "medium-error:op=read,count=3");
	add(f, "stall:op=write,repeat");
	for (i = 0; i < 10; i++) {
		zfault_eval(f, ZFAULT_OP_READ, 0, 1, 0, 0, &v);
		fired += v.err != 0;
	}
	assert_int_equal(fired, 3);
	for (i = 0; i < 1000; i++) {
		zfault_eval(f, ZFAULT_OP_WRITE, 0, 1, 0, 0, &v);
		assert_true(v.stall);
		assert_int_equal(v.rule_id, 2);
	}
	assert_int_equal(zfault_nr_rules(f), 2);    /* exhausted rules stay listed */
}

static void test_zfault_prob_fires_at_the_given_rate(void **state)
{
	struct zfault *f = *state;
	struct zfault_verdict v;
	int i, fired = 0, n = 20000;

	add(f, "medium-error:prob=25%,repeat");
	for (i = 0; i < n; i++) {
		zfault_eval(f, ZFAULT_OP_READ, 0, 1, 0, 0, &v);
		fired += v.err != 0;
	}
	assert_in_range(fired, n / 4 - 500, n / 4 + 500);

	zfault_clear(f);
	add(f, "medium-error:prob=0,repeat");
	for (i = 0; i < 1000; i++) {
		zfault_eval(f, ZFAULT_OP_READ, 0, 1, 0, 0, &v);
		assert_int_equal(v.err, 0);
	}
}

/* ---- engine: determinism ---------------------------------------------------- */

static const char *const mix =
	"medium-error:op=read,prob=0.1,repeat;"
	"torn-write:prob=0.05,keep=30%,repeat;"
	"latency:dist=exp,a=100us,repeat;"
	"latency:op=write,dist=uniform,a=10us,b=1ms,prob=0.5,repeat;"
	"stall:zone=3-5,prob=0.01,repeat;"
	"offline:zone=7,after=20,prob=0.2,count=2;"
	"power-loss:after=4000,prob=0.5";

/* Run a fixed command sequence and hash the verdicts. */
static uint64_t run_mix(uint64_t seed, const char *rules, uint32_t watch_id, uint64_t *watch_bits)
{
	struct zfault *f;
	struct zfault_verdict v;
	uint64_t s = 777, h = 1469598103934665603ULL, x;
	char msg[256];
	int i;

	assert_int_equal(zfault_create(seed, &f), 0);
	if (zfault_add_text(f, rules, msg, sizeof(msg)))
		fail_msg("%s", msg);
	*watch_bits = 0;
	for (i = 0; i < 5000; i++) {
		enum zfault_op op = (enum zfault_op)(1u << (zl_test_rand(&s) % 4));
		uint32_t z = (uint32_t)(zl_test_rand(&s) % 10);

		zfault_eval(f, op, z * 256 + zl_test_rand(&s) % 256, 1 + zl_test_rand(&s) % 64, z, z, &v);
		x = (uint64_t)(uint32_t)v.err ^ v.torn_keep_lba << 8 ^ v.delay_ns << 16 ^
		    (uint64_t)v.stall << 60 ^ (uint64_t)v.set_cond << 40 ^ (uint64_t)v.set_zone << 48 ^
		    (uint64_t)v.rule_id << 56;
		h = (h ^ x) * 1099511628211ULL;
		if (i < 64 && v.rule_id == watch_id && v.err)
			*watch_bits |= 1ULL << i;
	}
	zfault_destroy(f);
	return h;
}

static void test_zfault_same_seed_same_verdicts_other_seed_differs(void **state)
{
	uint64_t w1, w2, w3;

	(void)state;
	assert_true(run_mix(1, mix, 1, &w1) == run_mix(1, mix, 1, &w2));
	assert_true(w1 == w2);
	assert_true(run_mix(1, mix, 1, &w1) != run_mix(2, mix, 1, &w3));
}

static void test_zfault_adding_a_rule_keeps_other_rules_draws(void **state)
{
	uint64_t alone, with_more;

	(void)state;
	/* rule 1 fires on the same commands whether or not later rules draw */
	run_mix(9, "medium-error:op=read,prob=0.3,repeat", 1, &alone);
	run_mix(9, "medium-error:op=read,prob=0.3,repeat;latency:dist=exp,a=1us,prob=0.5,repeat;"
		"stall:prob=0.5,repeat", 1, &with_more);
	assert_true(alone != 0);
	assert_true(alone == with_more);
}

/* ---- engine: combining ---------------------------------------------------- */

static void test_zfault_latencies_add_and_first_error_wins(void **state)
{
	struct zfault *f = *state;
	struct zfault_verdict v;

	add(f, "latency:us=100,repeat");
	add(f, "torn-write:keep=2,repeat");
	add(f, "medium-error:op=write,repeat");
	add(f, "latency:ns=7,repeat");
	add(f, "stall:op=read,repeat");
	zfault_eval(f, ZFAULT_OP_WRITE, 0, 10, 0, 0, &v);
	assert_int_equal(v.delay_ns, 100007);
	assert_int_equal(v.err, ZL_E_TORN_WRITE);      /* rule 2 before rule 3 */
	assert_int_equal(v.torn_keep_lba, 2);
	assert_int_equal(v.rule_id, 2);
	assert_false(v.stall);
	/* single-LBA write: torn-write does not apply, medium error does */
	zfault_eval(f, ZFAULT_OP_WRITE, 0, 1, 0, 0, &v);
	assert_int_equal(v.err, ZL_E_MEDIUM_WRITE);
	assert_int_equal(v.rule_id, 3);
	assert_int_equal(v.torn_keep_lba, 0);
	/* read: latency + stall */
	zfault_eval(f, ZFAULT_OP_READ, 0, 10, 0, 0, &v);
	assert_int_equal(v.err, 0);
	assert_true(v.stall);
	assert_int_equal(v.rule_id, 5);
	assert_int_equal(v.delay_ns, 100007);
}

static void test_zfault_power_loss_wins_over_everything(void **state)
{
	struct zfault *f = *state;
	struct zfault_verdict v;
	uint32_t pl;

	add(f, "medium-error:repeat");
	add(f, "offline:repeat");
	add(f, "stall:repeat");
	add(f, "latency:ms=1,repeat");
	pl = add(f, "power-loss:op=write");
	zfault_eval(f, ZFAULT_OP_WRITE, 0, 4, 1, 1, &v);
	assert_int_equal(v.err, ZL_E_POWER_LOSS);
	assert_int_equal(v.rule_id, pl);
	assert_false(v.stall);
	assert_int_equal(v.set_cond, 0);
	assert_int_equal(v.delay_ns, 0);
	/* the next command sees the others again (the power-loss rule fired once) */
	zfault_eval(f, ZFAULT_OP_WRITE, 0, 4, 1, 1, &v);
	assert_int_equal(v.err, ZL_E_MEDIUM_WRITE);
	assert_int_equal(v.rule_id, 1);
	assert_int_equal(v.set_cond, ZL_COND_OFFLINE);
	assert_int_equal(v.set_zone, 1);
	assert_true(v.stall);
	assert_int_equal(v.delay_ns, 1000000);
}

static const struct {
	const char *rule;
	uint64_t nr;
	bool fires;
	uint64_t keep;
} torn_cases[] = {
	{ "torn-write:keep=3,repeat", 1, false, 0 },
	{ "torn-write:keep=3,repeat", 2, true, 1 },     /* capped to nr - 1 */
	{ "torn-write:keep=3,repeat", 10, true, 3 },
	{ "torn-write:keep=50%,repeat", 7, true, 3 },   /* rounded down */
	{ "torn-write:keep=100%,repeat", 7, true, 6 },
	{ "torn-write:keep=0%,repeat", 7, true, 0 },
	{ "torn-write:keep=0,repeat", 7, true, 0 },
	{ "torn-write:keep=99%,repeat", 3, true, 2 },
	{ "torn-write:keep=10%,repeat", 0x8000000000000000ULL, true, 0xccccccccccccccc },
};

static void test_zfault_torn_write_keeps_a_prefix(void **state)
{
	struct zfault *f = *state;
	struct zfault_verdict v;
	size_t i;

	for (i = 0; i < sizeof(torn_cases) / sizeof(torn_cases[0]); i++) {
		zfault_clear(f);
		add(f, torn_cases[i].rule);
		zfault_eval(f, ZFAULT_OP_WRITE, 0, torn_cases[i].nr, 0, 0, &v);
		assert_int_equal(v.err != 0, torn_cases[i].fires);
		if (torn_cases[i].fires) {
			assert_int_equal(v.err, ZL_E_TORN_WRITE);
			assert_int_equal(v.torn_keep_lba, torn_cases[i].keep);
		}
		zfault_eval(f, ZFAULT_OP_READ, 0, 10, 0, 0, &v);  /* never applies to reads */
		assert_int_equal(v.err, 0);
	}
}

/* ---- engine: latency distributions -------------------------------------- */

static void draw_stats(struct zfault *f, const char *rule, int n, uint64_t *min, uint64_t *max,
		       double *mean)
{
	struct zfault_verdict v;
	double sum = 0;
	int i;

	zfault_clear(f);
	add(f, rule);
	*min = UINT64_MAX;
	*max = 0;
	for (i = 0; i < n; i++) {
		zfault_eval(f, ZFAULT_OP_READ, 0, 1, 0, 0, &v);
		if (v.delay_ns < *min)
			*min = v.delay_ns;
		if (v.delay_ns > *max)
			*max = v.delay_ns;
		sum += (double)v.delay_ns;
	}
	*mean = sum / n;
}

static void test_zfault_latency_distributions_bounds_and_means(void **state)
{
	struct zfault *f = *state;
	uint64_t lo, hi;
	double mean, want;
	int n = 200000;

	draw_stats(f, "latency:us=250,repeat", 100, &lo, &hi, &mean);
	assert_int_equal(lo, 250000);
	assert_int_equal(hi, 250000);

	draw_stats(f, "latency:dist=uniform,a=100us,b=2ms,repeat", n, &lo, &hi, &mean);
	assert_true(lo >= 100000 && hi <= 2000000);
	assert_true(lo < 110000 && hi > 1990000);
	assert_true(fabs(mean - 1050000.0) < 0.01 * 1050000.0);

	draw_stats(f, "latency:dist=uniform,a=5,b=5,repeat", 100, &lo, &hi, &mean);
	assert_int_equal(lo, 5);
	assert_int_equal(hi, 5);

	draw_stats(f, "latency:dist=exp,a=1ms,repeat", n, &lo, &hi, &mean);
	assert_true(fabs(mean - 1e6) < 0.02 * 1e6);
	assert_true(hi > 5000000);              /* a tail exists */

	/* Pareto scale a, shape 3: mean a*3/2 (truncation at 1000a is negligible) */
	draw_stats(f, "latency:dist=pareto,a=10us,b=3,repeat", n, &lo, &hi, &mean);
	assert_true(lo >= 10000);
	assert_true(hi <= 10000ULL * 1000);
	assert_true(fabs(mean - 15000.0) < 0.03 * 15000.0);

	/* Shape 2: truncated mean a*(1 + (1 - 1/1000)) = 1.999a; heavy tail */
	draw_stats(f, "latency:dist=pareto,a=1us,b=2,repeat", n, &lo, &hi, &mean);
	want = 1999.0;
	assert_true(lo >= 1000 && hi <= 1000000);
	assert_true(fabs(mean - want) < 0.05 * want);
	assert_true(hi > 100000);
}

static void test_zfault_latency_saturates_instead_of_wrapping(void **state)
{
	struct zfault *f = *state;
	struct zfault_verdict v;

	add(f, "latency:ns=18446744073709551615,repeat");
	add(f, "latency:ms=1,repeat");
	zfault_eval(f, ZFAULT_OP_READ, 0, 1, 0, 0, &v);
	assert_true(v.delay_ns == UINT64_MAX);
	zfault_clear(f);
	add(f, "latency:dist=pareto,a=18446744073709551615,b=2,repeat");
	zfault_eval(f, ZFAULT_OP_READ, 0, 1, 0, 0, &v);
	assert_true(v.delay_ns == UINT64_MAX);
	zfault_clear(f);
	add(f, "latency:dist=uniform,a=0,b=18446744073709551615,repeat");
	zfault_eval(f, ZFAULT_OP_READ, 0, 1, 0, 0, &v);   /* full range: any value is fine */
}

static void test_zfault_release_generation_counts_up(void **state)
{
	struct zfault *f = *state;
	struct zfault_verdict v;

	assert_int_equal(zfault_release_gen(f), 0);
	zfault_release_all(f);
	zfault_release_all(f);
	assert_int_equal(zfault_release_gen(f), 2);
	/* NULL engine: an empty verdict */
	memset(&v, 0xff, sizeof(v));
	zfault_eval(NULL, ZFAULT_OP_READ, 0, 1, 0, 0, &v);
	assert_int_equal(v.err, 0);
	assert_int_equal(v.delay_ns, 0);
	assert_false(v.stall);
	zfault_destroy(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zfault_parse_good_inputs_give_canonical_text),
		cmocka_unit_test(test_zfault_parse_fills_fields),
		cmocka_unit_test(test_zfault_parse_bad_inputs_say_where_and_why),
		cmocka_unit_test(test_zfault_parse_message_matches_documented_example),
		cmocka_unit_test(test_zfault_format_round_trips_many_rules),
		cmocka_unit_test(test_zfault_format_reports_enospc),
		cmocka_unit_test_setup_teardown(test_zfault_ids_increase_and_remove_clear_work,
						setup_engine, teardown_engine),
		cmocka_unit_test_setup_teardown(test_zfault_add_text_is_all_or_none,
						setup_engine, teardown_engine),
		cmocka_unit_test_setup_teardown(test_zfault_list_shows_counters,
						setup_engine, teardown_engine),
		cmocka_unit_test_setup_teardown(test_zfault_op_mask_selects_commands,
						setup_engine, teardown_engine),
		cmocka_unit_test_setup_teardown(test_zfault_medium_error_code_follows_the_operation,
						setup_engine, teardown_engine),
		cmocka_unit_test(test_zfault_verdict_names_the_first_covered_lba),
		cmocka_unit_test_setup_teardown(test_zfault_lba_range_overlap,
						setup_engine, teardown_engine),
		cmocka_unit_test_setup_teardown(test_zfault_zone_range_overlap,
						setup_engine, teardown_engine),
		cmocka_unit_test_setup_teardown(test_zfault_read_only_takes_the_command_zone,
						setup_engine, teardown_engine),
		cmocka_unit_test_setup_teardown(test_zfault_flush_matches_only_unrestricted_rules,
						setup_engine, teardown_engine),
		cmocka_unit_test_setup_teardown(test_zfault_after_skips_first_matches,
						setup_engine, teardown_engine),
		cmocka_unit_test_setup_teardown(test_zfault_count_limits_fires_and_zero_repeats,
						setup_engine, teardown_engine),
		cmocka_unit_test_setup_teardown(test_zfault_prob_fires_at_the_given_rate,
						setup_engine, teardown_engine),
		cmocka_unit_test(test_zfault_same_seed_same_verdicts_other_seed_differs),
		cmocka_unit_test(test_zfault_adding_a_rule_keeps_other_rules_draws),
		cmocka_unit_test_setup_teardown(test_zfault_latencies_add_and_first_error_wins,
						setup_engine, teardown_engine),
		cmocka_unit_test_setup_teardown(test_zfault_power_loss_wins_over_everything,
						setup_engine, teardown_engine),
		cmocka_unit_test_setup_teardown(test_zfault_torn_write_keeps_a_prefix,
						setup_engine, teardown_engine),
		cmocka_unit_test_setup_teardown(test_zfault_latency_distributions_bounds_and_means,
						setup_engine, teardown_engine),
		cmocka_unit_test_setup_teardown(test_zfault_latency_saturates_instead_of_wrapping,
						setup_engine, teardown_engine),
		cmocka_unit_test_setup_teardown(test_zfault_release_generation_counts_up,
						setup_engine, teardown_engine),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
