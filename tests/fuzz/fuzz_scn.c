/*
 * fuzz_scn.c — libFuzzer target for what reads scenario files and result
 * JSON (scenarios/, common/zl_json_read.c): the input is loaded as a scenario (scn_load_data(),
 * with a stand-in for `zonelab sim`'s option table) and, when it loads,
 * up to 64 of its points are enumerated and labelled; the same bytes are
 * parsed as JSON (zl_json_parse()) and, when they parse, a few
 * expectations are evaluated on them.  Invariants: an error is a message
 * starting with "fuzz.ini:"; a loaded scenario has 1..max_points points,
 * each with "seed" as its last key.  Built with clang only (make fuzz /
 * make check).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scn.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const struct option opts[] = {
	{ "zones", 1, 0, 1 }, { "util", 1, 0, 2 }, { "clean", 1, 0, 3 },
	{ "no-metadata", 0, 0, 4 }, { "faults", 1, 0, 5 }, { "csv", 1, 0, 6 },
	{ "seed", 1, 0, 7 }, { "help", 0, 0, 8 }, { "writes", 1, 0, 9 },
	{ "order", 1, 0, 10 }, { 0, 0, 0, 0 },
};
static const char *const reserved[] = { "csv", NULL };

static const char *const exprs[] = {
	"wa.data within 1% of wa.oracle_fifo", "device.write_errors == 0",
	"reorder_latency_ns.p99 < 2ms", "error == \"none\" if config.clean == \"fifo\"",
	"a.0.b != a.1", "x >= y",
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct scn *s = NULL;
	struct zl_json_doc *j;
	GError *e = NULL;

	if (scn_load_data("fuzz.ini", (const char *)data, size, opts, reserved, &s, &e)) {
		if (!e || strncmp(e->message, "fuzz.ini", 8))
			abort();
		g_clear_error(&e);
	} else {
		if (!s->nr_points || s->nr_points > s->max_points)
			abort();
		for (unsigned i = 0; i < s->nr_points && i < 64; i++) {
			struct scn_point p;
			char *label;

			scn_point_init(s, i, &p);
			if (strcmp(p.keys->pdata[p.keys->len - 1], "seed"))
				abort();
			label = scn_point_label(&p);
			g_free(label);
			scn_point_fini(&p);
		}
		scn_destroy(s);
	}
	j = zl_json_parse((const char *)data, size, &e);
	if (!j) {
		if (!e || strncmp(e->message, "byte ", 5))
			abort();
		g_error_free(e);
		return 0;
	}
	for (size_t k = 0; k < sizeof(exprs) / sizeof(exprs[0]); k++) {
		struct scn_expect x = { 0 };
		char *why = NULL, *msg = NULL;

		if (scn_expect_parse(exprs[k], &x, &why))
			abort();
		scn_expect_eval(&x, j, &msg);
		g_free(msg);
		scn_expect_fini(&x);
	}
	zl_json_destroy(j);
	return 0;
}
