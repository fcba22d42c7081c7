/*
 * scn.h — scenario files: one experiment described once (docs/SCENARIOS.md).
 *
 * A scenario is an INI file read with GLib's GKeyFile: a [scenario] section
 * (name, description, seeds, zip, max_points), simulator options in [sim]
 * (or the grouping sections [devices], [fs-core], [reorder], [workload],
 * [cleaning], [output], which mean the same), [expect] (named
 * expectations), [plot NAME] (the scenario's own plots, with the keys
 * of `zonelab plot`: scn_plot.c) and [table NAME] (its own tables in
 * report.md: scn_table.c); the sections are one table in scn_keys.c.  The
 * option names are not a list kept here: the loader is given the
 * simulator's own getopt table (cli/cmd_sim.c), so an option added to
 * `zonelab sim` is a scenario key the same day.  A value is one argument
 * of that option, or a sweep: a list `[a, b, "c,d"]` or a range
 * `[lo .. hi step s]`.  Points are the cartesian product of the swept keys
 * (the keys named in `zip` move together), times the seeds.
 *
 * What this module is not: it runs nothing (cli/cmd_run.c runs every point
 * as a `zonelab sim` child) and it draws nothing (analysis/).  Errors are
 * GErrors whose message starts with "FILE:LINE: ", says what was wrong and
 * what is accepted; GError does not leave the command-line layer.
 *
 * Expectations are checked on a point's JSON (the simulator's output plus
 * the runner's "point" object) as common/zl_json_read.h flattens it: every
 * leaf a dotted path ("wa.data", "reorder_latency_ns.p99"), so
 * expectations, tables and plots name fields as the JSON does.
 */
#ifndef ZL_SCN_H
#define ZL_SCN_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <glib.h>

#include "zl_json_read.h"

#define SCN_ERROR (scn_error_quark())
GQuark scn_error_quark(void);
enum { SCN_ERROR_SYNTAX = 1, SCN_ERROR_KEY, SCN_ERROR_VALUE, SCN_ERROR_SWEEP, SCN_ERROR_IO };

#define SCN_MAX_POINTS_DEFAULT 10000u   /* points of one file unless max_points says */
#define SCN_MAX_POINTS_LIMIT 1000000u   /* max_points can go up to this */
#define SCN_MAX_VALUES 100000u          /* values of one list or range */

/* ---- expectations ---- */

enum scn_op { SCN_OP_EQ, SCN_OP_NE, SCN_OP_LT, SCN_OP_LE, SCN_OP_GT, SCN_OP_GE, SCN_OP_WITHIN };

struct scn_operand {
	bool is_field;          /* a dotted path into the point's JSON */
	bool is_str;            /* a quoted string (or true/false/none) */
	double num;             /* a number, its unit applied (2ms = 2e6) */
	char *text;             /* the field path, the string, or the number as written */
};

struct scn_cond {
	struct scn_operand lhs, rhs;
	enum scn_op op;
	double tol;             /* SCN_OP_WITHIN: the tolerance */
	bool tol_rel;           /* tolerance in % of |rhs| */
};

struct scn_expect {
	char *name;             /* the key in [expect] */
	char *text;             /* the expression as written */
	int line;
	struct scn_cond cond;
	bool has_if;            /* "... if FIELD OP VALUE": applies only where true */
	struct scn_cond when;
};

enum scn_verdict { SCN_PASS, SCN_FAIL, SCN_SKIP };

/*
 * scn_expect_parse() - "FIELD OP VALUE", "FIELD within TOL[%] of VALUE",
 * either followed by "if FIELD OP VALUE".  OP: == != < <= > >=.  VALUE: a
 * number with an optional unit (ns us ms s, K M G T, %), a "string", or a
 * field.  0, or -1 with *@why (caller frees) saying what was expected.
 */
int scn_expect_parse(const char *text, struct scn_expect *e, char **why);
void scn_expect_fini(struct scn_expect *e);
/* Evaluate on one point; *@msg (caller frees) explains a FAIL or SKIP. */
enum scn_verdict scn_expect_eval(const struct scn_expect *e, const struct zl_json_doc *j,
				  char **msg);

/* ---- scenario files ---- */

struct scn_axis {
	char *key;              /* the simulator's long option name */
	char **values;          /* NULL-terminated; a flag's are "true"/"false" */
	unsigned nr_values;
	bool flag;              /* the option takes no argument */
	bool swept;             /* varies between points */
	int line;
};

/* A [table NAME] section: report.md's table of these columns, one row per
 * configuration (cli/run_collect.c). */
#define SCN_TABLE_MAX_COLUMNS 24
struct scn_table {
	char *name;
	char *title;            /* or NULL */
	GPtrArray *columns;     /* char *: metrics' dotted paths, at least one once loaded */
	int line;               /* the section's first key */
};
void scn_table_free(struct scn_table *t);

struct scn {
	char *path;             /* as given */
	char *text;             /* the file's bytes (the runner keeps a copy) */
	size_t text_len;
	char *name;             /* [scenario] name, or the file's base name */
	char *description;
	GPtrArray *axes;        /* struct scn_axis *: every option set, file order (one
				 * value: fixed; more, or named in zip: swept) */
	GPtrArray *zip;         /* char *: keys that move together (or empty) */
	GArray *seeds;          /* uint64_t, at least one */
	unsigned max_points;
	GPtrArray *expects;     /* struct scn_expect * */
	GPtrArray *plots;       /* struct ana_plot_spec *: the [plot NAME] sections, file order */
	GPtrArray *tables;      /* struct scn_table *: the [table NAME] sections, file order */
	unsigned nr_configs;    /* points without the seeds */
	unsigned nr_points;     /* nr_configs x seeds */
};

/*
 * scn_load_data() - parse a scenario from @len bytes named @path (for
 * messages).  @opts is the simulator's getopt table (has_arg 0: a flag,
 * scenario value true/false; "help" and the keys in @reserved, a
 * NULL-terminated list, are refused).  0 and *@out (caller destroys), or -1
 * and *@err with FILE:LINE.
 */
int scn_load_data(const char *path, const char *text, size_t len, const struct option *opts,
		  const char *const *reserved, struct scn **out, GError **err);
/* The same from a file. */
int scn_load(const char *path, const struct option *opts, const char *const *reserved,
	     struct scn **out, GError **err);
void scn_destroy(struct scn *s);

/*
 * One point: @i in 0..nr_points-1 (the seeds vary fastest, then the last
 * swept key).  Its keys and values are every option the file sets, in file
 * order, then "seed".  scn_point_fini() frees what init allocated.
 */
struct scn_point {
	unsigned index;
	unsigned config;        /* index / nr_seeds */
	uint64_t seed;
	char *id;               /* "<name>-<index, 4 digits>" */
	GPtrArray *keys;        /* const char *: every option set, "seed" last (borrowed) */
	GPtrArray *values;      /* char *: the matching values (owned) */
	GPtrArray *flags;       /* GINT_TO_POINTER(1) where the key is a flag */
	GPtrArray *swept;       /* const char *: the keys that vary (borrowed) */
};
void scn_point_init(const struct scn *s, unsigned i, struct scn_point *p);
void scn_point_fini(struct scn_point *p);
/* The point's label without the seed: "clean=fifo util=0.8" ("-" if nothing is swept). */
char *scn_point_label(const struct scn_point *p);

/* Parse "lo .. hi step s" / "a, b" inside brackets: helper exposed for tests. */
int scn_sweep_parse(const char *text, GPtrArray *values, char **why);

#endif
