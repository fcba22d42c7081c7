/*
 * cmd_collect.c — `zonelab collect DIR` (the collect step after
 * `zonelab run --points` or a Slurm job) and `zonelab plot DIR` (redraw the
 * plots): their options and arguments only; the step itself is
 * run_collect.c's, the scenarios of DIR run_scn.c's.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "ana_results.h"
#include "cli.h"
#include "run.h"

static const char collect_help[] =
"usage: zonelab collect DIR [--check] [--junit FILE] [--no-plots] [-q]\n"
"  build results.csv, summary.csv, report.md and plots/ from DIR/points (after\n"
"  `zonelab run --points` or a Slurm job); --check: exit 1 if an expectation fails\n"
"  or a point is missing\n";

enum { C_CHECK = 256, C_JUNIT, C_NOPLOTS };

/**
 * cmd_collect() - `zonelab collect DIR`.  0, 1 (--check: an expectation
 * failed or a point is missing), 2 (usage, not a result directory, I/O).
 */
int cmd_collect(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "check", 0, 0, C_CHECK }, { "junit", 1, 0, C_JUNIT },
		{ "no-plots", 0, 0, C_NOPLOTS }, { "quiet", 0, 0, 'q' }, { "help", 0, 0, 'h' },
		{ 0, 0, 0, 0 },
	};
	static const struct cli_opts cli = { .cmd = "collect", .help = "collect", .shortopts = "qh",
					     .longopts = opts };
	struct run_collect_opts co = { 0 };
	GPtrArray *scns;
	int o, r;

	cli_opt_start();
	while ((o = cli_getopt(argc, argv, &cli)) != -1) {
		switch (o) {
		case C_CHECK: co.check = true; break;
		case C_JUNIT: co.junit = optarg; break;
		case C_NOPLOTS: co.no_plots = true; break;
		case 'q': co.quiet = true; break;
		case 'h':
			fputs(collect_help, stdout);
			return 0;
		default:
			return 2;
		}
	}
	if (optind + 1 != argc) {
		if (optind + 1 < argc)
			cli_unexpected(&cli, argv[optind + 1]);
		else
			fputs(collect_help, stderr);
		return 2;
	}
	scns = g_ptr_array_new_with_free_func((GDestroyNotify)scn_destroy);
	r = run_load_dir(argv[optind], scns);
	if (!r)
		r = run_collect(argv[optind], scns, &co);
	g_ptr_array_free(scns, TRUE);
	return r;
}

/**
 * cmd_plot() - `zonelab plot DIR`: redraw DIR/plots from DIR/points.  0,
 * 1 when gnuplot is missing (data and scripts written), 2 on an error.
 */
int cmd_plot(int argc, char **argv)
{
	static const char plot_help[] =
		"usage: zonelab plot DIR    (redraw DIR/plots: docs/ANALYSIS.md)\n";
	static const struct option opts[] = { { "help", 0, 0, 'h' }, { 0, 0, 0, 0 } };
	static const struct cli_opts cli = { .cmd = "plot", .help = "plot", .shortopts = "h",
					     .longopts = opts };
	GPtrArray *scns, *made;
	struct ana_set *set;
	GString *notes;
	const char *dir;
	int o, r;

	cli_opt_start();
	while ((o = cli_getopt(argc, argv, &cli)) != -1) {
		if (o != 'h')
			return 2;
		fputs(plot_help, stdout);
		return 0;
	}
	if (optind + 1 != argc) {
		if (optind + 1 < argc)
			cli_unexpected(&cli, argv[optind + 1]);
		else
			fputs(plot_help, stderr);
		return 2;
	}
	dir = argv[optind];
	scns = g_ptr_array_new_with_free_func((GDestroyNotify)scn_destroy);
	r = run_load_dir(dir, scns);
	if (r) {
		g_ptr_array_free(scns, TRUE);
		return r;
	}
	set = ana_set_create();
	for (guint i = 0; i < scns->len; i++) {
		const struct scn *s = scns->pdata[i];

		for (unsigned k = 0; k < s->nr_points; k++) {
			struct scn_point p;
			char *path;
			GError *e = NULL;

			scn_point_init(s, k, &p);
			path = g_strdup_printf("%s/points/%s.json", dir, p.id);
			if (g_file_test(path, G_FILE_TEST_EXISTS) && ana_set_add_file(set, path, &e)) {
				fprintf(stderr, "zonelab: %s\n", e->message);
				g_error_free(e);
			}
			g_free(path);
			scn_point_fini(&p);
		}
	}
	ana_set_group(set);
	made = g_ptr_array_new_with_free_func(g_free);
	notes = g_string_new(NULL);
	r = run_draw(dir, set, made, notes, false);
	if (r >= 0)
		printf("zonelab: %u plots in %s/plots\n", made->len, dir);
	r = r < 0 ? 2 : r;
	g_string_free(notes, TRUE);
	g_ptr_array_free(made, TRUE);
	ana_set_destroy(set);
	g_ptr_array_free(scns, TRUE);
	return r;
}
