/*
 * cmd_collect.c — `zonelab collect DIR` (the collect step after
 * `zonelab run --points` or a Slurm job) and `zonelab plot DIR` (redraw the
 * plots): their options and arguments only; the step itself is
 * run_collect.c's, the scenarios of DIR run_scn.c's.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "ana_plot.h"
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

static const char plot_help[] =
"usage: zonelab plot DIR [--kind KIND] [--x PARAM] [--y METRIC] [--series PARAM]\n"
"                        [--facet PARAM] [--ccdf] [--smooth N] [--point ID] [-o NAME]\n"
"  Without options: redraw DIR/plots (the built-in plots and the scenarios'\n"
"  [plot NAME] sections).  With any: draw one plot, DIR/plots/NAME.{png,svg,pdf}\n"
"  beside its script NAME.gp and data NAME.dat (docs/ANALYSIS.md).\n"
"  --kind KIND      line (default), bars, cdf, timeseries, zones\n"
"  --x PARAM        a swept parameter (or a numeric metric, line only);\n"
"                   default: the numeric swept one\n"
"  --y METRIC       a dotted path of the points' JSON (wa.data, device.zone_resets);\n"
"                   cdf: a histogram's path (reorder_latency_ns,\n"
"                   replay.requests.read.latency_ns); timeseries: interval_wa,\n"
"                   free_zones or sbuf_now (default: all three)\n"
"  --series PARAM   one colour per value (default: a categorical swept one)\n"
"  --facet PARAM    one panel per value (default: the swept parameters left)\n"
"  --ccdf           cdf: 1 - F on log-log axes\n"
"  --smooth N       timeseries: interval WA averaged over N samples\n"
"  --point ID       zones: the point to show (default: the first)\n"
"  -o NAME          the files' name (default: KIND_METRIC)\n";

enum { P_KIND = 256, P_X, P_Y, P_SERIES, P_FACET, P_CCDF, P_SMOOTH, P_POINT };

/* Every point file of the scenarios of @dir into @set (grouped). */
static struct ana_set *load_points(const char *dir, GPtrArray *scns)
{
	struct ana_set *set = ana_set_create();

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
	return set;
}

/* The one plot the options describe into DIR/plots; 0, 1 (no gnuplot), 2. */
static int plot_one(const char *dir, const struct ana_set *set, struct ana_plot_spec *spec)
{
	GPtrArray *specs = g_ptr_array_new(), *made = g_ptr_array_new_with_free_func(g_free);
	char *pdir = g_build_filename(dir, "plots", NULL);
	GString *notes = g_string_new(NULL);
	GError *e = NULL;
	int r;

	g_ptr_array_add(specs, spec);
	r = ana_plot_all(set, specs, pdir, true, made, notes, &e);
	if (r < 0) {
		fprintf(stderr, "zonelab: %s\n", e->message);
		g_error_free(e);
		r = 2;
	} else if (!made->len) {
		fprintf(stderr, "zonelab: plot %s: nothing to draw: %s", spec->name, notes->str);
		r = 2;
	} else {
		if (notes->len)
			fprintf(stderr, "zonelab: plot: %s", notes->str);
		printf("zonelab: %s/%s.{png,svg%s}, script %s.gp, data %s.dat\n", pdir, spec->name,
		       r ? "" : ",pdf", spec->name, spec->name);
	}
	g_string_free(notes, TRUE);
	g_free(pdir);
	g_ptr_array_free(made, TRUE);
	g_ptr_array_free(specs, TRUE);
	return r;
}

/**
 * cmd_plot() - `zonelab plot DIR [options]`: redraw DIR/plots from
 * DIR/points, or draw the one plot the options describe.  0, 1 when
 * gnuplot is missing (data and scripts written), 2 on an error (usage, an
 * unknown metric, parameter or kind, no points).
 */
int cmd_plot(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "kind", 1, 0, P_KIND }, { "x", 1, 0, P_X }, { "y", 1, 0, P_Y },
		{ "series", 1, 0, P_SERIES }, { "facet", 1, 0, P_FACET }, { "ccdf", 0, 0, P_CCDF },
		{ "smooth", 1, 0, P_SMOOTH }, { "point", 1, 0, P_POINT }, { "output", 1, 0, 'o' },
		{ "help", 0, 0, 'h' }, { 0, 0, 0, 0 },
	};
	static const struct cli_opts cli = { .cmd = "plot", .help = "plot", .shortopts = "o:h",
					     .longopts = opts };
	struct ana_plot_spec spec = { .kind = ANA_KIND_LINE };
	bool one = false;
	GPtrArray *scns, *made;
	struct ana_set *set;
	GString *notes;
	const char *dir;
	guint64 n;
	int o, r = 2, k;

	cli_opt_start();
	while ((o = cli_getopt(argc, argv, &cli)) != -1) {
		one = true;
		switch (o) {
		case P_KIND:
			k = ana_kind_parse(optarg);
			if (k < 0) {
				char *acc = g_strjoinv(" ", (char **)ana_kind_names);

				fprintf(stderr, "zonelab plot: --kind '%s': not a kind of plot; "
					"accepted: %s\n", optarg, acc);
				g_free(acc);
				goto out;
			}
			spec.kind = (enum ana_kind)k;
			break;
		case P_X: g_free(spec.x); spec.x = g_strdup(optarg); break;
		case P_Y: g_free(spec.y); spec.y = g_strdup(optarg); break;
		case P_SERIES: g_free(spec.series); spec.series = g_strdup(optarg); break;
		case P_FACET: g_free(spec.facet); spec.facet = g_strdup(optarg); break;
		case P_POINT: g_free(spec.point); spec.point = g_strdup(optarg); break;
		case P_CCDF: spec.ccdf = true; break;
		case P_SMOOTH:
			if (!g_ascii_string_to_unsigned(optarg, 10, 1, 100000, &n, NULL)) {
				fprintf(stderr, "zonelab plot: --smooth '%s': a number of samples "
					"from 1 to 100000\n", optarg);
				goto out;
			}
			spec.smooth = (unsigned)n;
			break;
		case 'o':
			if (!*optarg || strchr(optarg, '/') || optarg[0] == '.') {
				fprintf(stderr, "zonelab plot: -o '%s': a file name without '/' "
					"(the plot goes into DIR/plots)\n", optarg);
				goto out;
			}
			g_free(spec.name);
			spec.name = g_strdup(optarg);
			break;
		case 'h':
			fputs(plot_help, stdout);
			r = 0;
			goto out;
		default:
			goto out;
		}
	}
	if (optind + 1 != argc) {
		if (optind + 1 < argc)
			cli_unexpected(&cli, argv[optind + 1]);
		else
			fputs(plot_help, stderr);
		goto out;
	}
	dir = argv[optind];
	scns = g_ptr_array_new_with_free_func((GDestroyNotify)scn_destroy);
	r = run_load_dir(dir, scns);
	if (r) {
		g_ptr_array_free(scns, TRUE);
		goto out;
	}
	set = load_points(dir, scns);
	if (one) {
		if (!spec.name) {
			char *y = g_strdup(spec.y ? spec.y : "default");

			g_strdelimit(y, "./", '_');
			spec.name = g_strdup_printf("%s_%s", ana_kind_names[spec.kind], y);
			g_free(y);
		}
		r = plot_one(dir, set, &spec);
	} else if (!set->points->len) {
		fprintf(stderr, "zonelab: %s: no points to plot (points/ is empty: run the "
			"scenario first)\n", dir);
		r = 2;
	} else {
		made = g_ptr_array_new_with_free_func(g_free);
		notes = g_string_new(NULL);
		r = run_draw(dir, set, scns, made, notes, false);
		if (r >= 0)
			printf("zonelab: %u plots in %s/plots\n", made->len, dir);
		r = r < 0 ? 2 : r;
		g_string_free(notes, TRUE);
		g_ptr_array_free(made, TRUE);
	}
	ana_set_destroy(set);
	g_ptr_array_free(scns, TRUE);
out:
	ana_plot_spec_fini(&spec);
	return r;
}
