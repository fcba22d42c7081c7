/*
 * run_scn.c — the scenarios of `zonelab run` and of a result directory
 * (what run, collect and plot share before the collect step): scenario
 * files loaded against the simulator's own option table, duplicate names
 * refused, and DIR/scenarios/list read back.  It neither runs points
 * (cmd_run.c) nor reads their results (run_collect.c).
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "run.h"

const char *const run_reserved_keys[] = { "csv", "zone-csv", "check-config", NULL };

int run_load_scenarios(char **paths, int n, GPtrArray *scns)
{
	const struct option *opts = cmd_sim_options();

	for (int i = 0; i < n; i++) {
		struct scn *s;
		GError *e = NULL;

		if (scn_load(paths[i], opts, run_reserved_keys, &s, &e)) {
			fprintf(stderr, "zonelab: %s\n", e->message);
			g_error_free(e);
			return 2;
		}
		for (guint k = 0; k < scns->len; k++)
			if (!strcmp(((struct scn *)scns->pdata[k])->name, s->name)) {
				fprintf(stderr, "zonelab: %s: scenario name '%s' is also %s's: names "
					"the result files, must differ\n", paths[i], s->name,
					((struct scn *)scns->pdata[k])->path);
				scn_destroy(s);
				return 2;
			}
		g_ptr_array_add(scns, s);
	}
	return 0;
}

int run_load_dir(const char *dir, GPtrArray *scns)
{
	char *list = g_build_filename(dir, "scenarios", "list", NULL), *text = NULL;
	char **names;
	GPtrArray *paths = g_ptr_array_new_with_free_func(g_free);
	int r;

	if (!g_file_get_contents(list, &text, NULL, NULL)) {
		fprintf(stderr, "zonelab: %s: not a result directory of `zonelab run` (no "
			"scenarios/list)\n", dir);
		g_free(list);
		g_ptr_array_free(paths, TRUE);
		return 2;
	}
	names = g_strsplit(text, "\n", -1);
	for (char **p = names; *p; p++)
		if (**p)
			g_ptr_array_add(paths, g_build_filename(dir, "scenarios", *p, NULL));
	r = run_load_scenarios((char **)paths->pdata, (int)paths->len, scns);
	g_strfreev(names);
	g_free(text);
	g_free(list);
	g_ptr_array_free(paths, TRUE);
	return r;
}
