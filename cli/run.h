/*
 * run.h — what `zonelab run`, `collect` and `plot` share, below their
 * cmd_*.c files: the scenarios of a result directory (run_scn.c;
 * DIR/scenarios/list names the copies `run` keeps, in order) and the
 * collect step (run_collect.c: tables, expectations, JUnit, report,
 * plots).  Private to cli/.
 */
#ifndef ZL_CLI_RUN_H
#define ZL_CLI_RUN_H

#include <stdbool.h>

#include <glib.h>

#include "scn.h"

/* Keys a scenario may not set: the runner passes them itself. */
extern const char *const run_reserved_keys[];

/* Load @paths (@n of them) into @scns (struct scn *); 0, or 2 after messages. */
int run_load_scenarios(char **paths, int n, GPtrArray *scns);
/* The scenarios a result directory was run with; 0, or 2 after a message. */
int run_load_dir(const char *dir, GPtrArray *scns);

struct run_collect_opts {
	const char *junit;      /* JUnit XML file, or NULL */
	bool check;             /* exit 1 when an expectation fails or a point is missing */
	bool no_plots;
	bool quiet;
};

/* results.csv, summary.csv, report.md, plots/; 0, 1 (--check failed), 2 (error). */
int run_collect(const char *dir, GPtrArray *scns, const struct run_collect_opts *o);

struct ana_set;
/*
 * The plots of @set into DIR/plots: the built-in ones and the [plot NAME]
 * sections of @scns (struct scn *, may be NULL) (names of those made appended to @made,
 * notes to @notes, and printed on stderr unless @quiet).  0, 1 when
 * gnuplot is missing (data and scripts written), -1 after a message.
 */
int run_draw(const char *dir, const struct ana_set *set, GPtrArray *scns, GPtrArray *made,
	     GString *notes, bool quiet);

#endif
