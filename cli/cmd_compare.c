/*
 * cmd_compare.c — `zonelab compare DIR_A DIR_B [--tolerance X]`: the
 * points both result directories hold, matched by id, metric by metric
 * (every leaf outside "config." and "point."): the change of each, and a
 * flag on those beyond the tolerance, on points only one side has, and on
 * points run with other arguments.  Exit 1 when anything is flagged, so a
 * change to fs-core shows what it moved.
 */
#include <dirent.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ana_plot.h"
#include "ana_results.h"
#include "cli.h"

static const char compare_help[] =
"usage: zonelab compare DIR_A DIR_B [--tolerance X[%]] [--metrics PREFIX,...] [-v]\n"
"                       [--plot [--y METRIC]]\n"
"  per point (by id) and metric: A, B and the relative change; flags changes\n"
"  beyond the tolerance (default 1%; 0 flags any change), points only one side\n"
"  has and points run with other arguments.  Exit 0: nothing flagged, 1: flagged,\n"
"  2: error.  -v lists every change, not only the flagged ones.\n"
"  --plot: also draw DIR_B/plots/compare.{png,svg,pdf}: METRIC (default wa.data)\n"
"  of every configuration before (A) and after (B) with 95% CIs over the seeds,\n"
"  and the change in percent (docs/ANALYSIS.md).\n";

static gint cmp_name(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every points/<id>.json of @dir, sorted by name. */
static int load(const char *dir, struct ana_set *set)
{
	char *pdir = g_build_filename(dir, "points", NULL);
	GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
	GDir *d = g_dir_open(pdir, 0, NULL);
	const char *n;
	int r = 0;

	if (!d) {
		fprintf(stderr, "zonelab: compare: %s: not a result directory (no points/)\n", dir);
		r = -1;
		goto out;
	}
	while ((n = g_dir_read_name(d)))
		if (g_str_has_suffix(n, ".json"))
			g_ptr_array_add(names, g_strdup(n));
	g_dir_close(d);
	g_ptr_array_sort(names, cmp_name);
out:
	for (guint i = 0; !r && i < names->len; i++) {
		char *p = g_build_filename(pdir, names->pdata[i], NULL);
		GError *e = NULL;

		if (ana_set_add_file(set, p, &e)) {
			fprintf(stderr, "zonelab: compare: %s\n", e->message);
			g_error_free(e);
			r = -1;
		}
		g_free(p);
	}
	g_ptr_array_free(names, TRUE);
	g_free(pdir);
	return r;
}

static const struct ana_point *find(const struct ana_set *set, const char *id)
{
	for (guint i = 0; i < set->points->len; i++) {
		const struct ana_point *p = set->points->pdata[i];

		if (!strcmp(p->id, id))
			return p;
	}
	return NULL;
}

static bool wanted(char **prefixes, const char *m)
{
	if (g_str_has_prefix(m, "config."))
		return false;
	if (!prefixes)
		return true;
	for (char **p = prefixes; *p; p++)
		if (g_str_has_prefix(m, *p))
			return true;
	return false;
}

/**
 * cmd_compare() - see compare_help.  0 nothing flagged, 1 something
 * flagged, 2 usage or unreadable directories.
 */
/* --plot: DIR_B/plots/compare.*; 0, or -1 after a message. */
static int draw(const char *dir_b, struct ana_set *a, struct ana_set *b, const char *metric)
{
	char *pdir = g_build_filename(dir_b, "plots", NULL);
	GError *e = NULL;
	int r;

	ana_set_group(a);
	ana_set_group(b);
	g_mkdir_with_parents(pdir, 0755);
	r = ana_plot_compare(a, b, metric, pdir, "compare", &e);
	if (!r)
		r = ana_plot_render(pdir, "compare", &e);
	if (r < 0) {
		fprintf(stderr, "zonelab: compare: %s\n", e->message);
		g_error_free(e);
	} else {
		printf("zonelab: compare: %s/compare.%s (script compare.gp, data compare.dat)\n",
		       pdir, r ? "gp (gnuplot is not installed)" : "{png,svg}");
		r = 0;
	}
	g_free(pdir);
	return r;
}

int cmd_compare(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "tolerance", 1, 0, 't' }, { "metrics", 1, 0, 'm' }, { "verbose", 0, 0, 'v' },
		{ "plot", 0, 0, 'p' }, { "y", 1, 0, 'y' }, { "help", 0, 0, 'h' }, { 0, 0, 0, 0 },
	};
	static const struct cli_opts cli = { .cmd = "compare", .help = "compare",
					     .shortopts = "t:m:vh", .longopts = opts };
	double tol = 0.01;
	char **prefixes = NULL;
	bool verbose = false, plot = false;
	const char *metric = "wa.data";
	struct ana_set *a = NULL, *b = NULL;
	unsigned flagged = 0, compared = 0, changed = 0;
	int o, r = 2;

	cli_opt_start();
	while ((o = cli_getopt(argc, argv, &cli)) != -1) {
		char *end;

		switch (o) {
		case 't':
			tol = g_ascii_strtod(optarg, &end);
			if (*end == '%') {
				tol /= 100;
				end++;
			}
			if (end == optarg || *end || !(tol >= 0) || isinf(tol)) {
				fprintf(stderr, "zonelab: compare: --tolerance '%s': a number >= 0 "
					"(0.01 or 1%%)\n", optarg);
				goto out;
			}
			break;
		case 'm':
			g_strfreev(prefixes);
			prefixes = g_strsplit(optarg, ",", -1);
			break;
		case 'v': verbose = true; break;
		case 'p': plot = true; break;
		case 'y': metric = optarg; break;
		case 'h':
			fputs(compare_help, stdout);
			r = 0;
			goto out;
		default:
			goto out;
		}
	}
	if (optind + 2 != argc) {
		if (optind + 2 < argc)
			cli_unexpected(&cli, argv[optind + 2]);
		else
			fputs(compare_help, stderr);
		goto out;
	}
	a = ana_set_create();
	b = ana_set_create();
	if (load(argv[optind], a) || load(argv[optind + 1], b))
		goto out;
	printf("%-24s %-36s %14s %14s %9s\n", "point", "metric", "A", "B", "change");
	for (guint i = 0; i < a->points->len; i++) {
		const struct ana_point *pa = a->points->pdata[i], *pb = find(b, pa->id);
		const struct zl_json_leaf *xa, *xb;

		if (!pb) {
			printf("%-24s only in A                                                  FLAG\n",
			       pa->id);
			flagged++;
			continue;
		}
		xa = zl_json_get(pa->json, "point.args");
		xb = zl_json_get(pb->json, "point.args");
		if (!xa || !xb || strcmp(xa->text, xb->text)) {
			printf("%-24s other arguments: A: %s  B: %s  FLAG\n", pa->id,
			       xa ? xa->text : "?", xb ? xb->text : "?");
			flagged++;
			continue;
		}
		compared++;
		for (guint k = 0; k < pa->json->leaves->len; k++) {
			const struct zl_json_leaf *la = pa->json->leaves->pdata[k], *lb;
			double rel;
			bool flag;

			if (g_str_has_prefix(la->path, "point.") || ana_path_is_hist(la->path) ||
			    !wanted(prefixes, la->path))
				continue;
			lb = zl_json_get(pb->json, la->path);
			if (!lb) {
				printf("%-24s %-36s %14s %14s %9s FLAG\n", pa->id, la->path, la->text,
				       "-", "gone");
				flagged++;
				continue;
			}
			if (la->kind != ZL_JSON_NUM || lb->kind != ZL_JSON_NUM) {
				if (!strcmp(la->text, lb->text))
					continue;
				printf("%-24s %-36s %14s %14s %9s FLAG\n", pa->id, la->path, la->text,
				       lb->text, "differs");
				flagged++;
				changed++;
				continue;
			}
			if (la->num == lb->num)
				continue;
			changed++;
			rel = la->num ? (lb->num - la->num) / fabs(la->num) : INFINITY;
			flag = fabs(rel) > tol;
			flagged += flag;
			if (flag || verbose)
				printf("%-24s %-36s %14s %14s %+8.2f%%%s\n", pa->id, la->path, la->text,
				       lb->text, rel * 100, flag ? " FLAG" : "");
		}
	}
	for (guint i = 0; i < b->points->len; i++) {
		const struct ana_point *pb = b->points->pdata[i];

		if (!find(a, pb->id)) {
			printf("%-24s only in B                                                  FLAG\n",
			       pb->id);
			flagged++;
		}
	}
	printf("zonelab: compare: %u points compared, %u metric changes, %u flagged "
	       "(tolerance %g%%)\n", compared, changed, flagged, tol * 100);
	r = flagged ? 1 : 0;
	if (plot && draw(argv[optind + 1], a, b, metric))
		r = 2;
out:
	g_strfreev(prefixes);
	ana_set_destroy(a);
	ana_set_destroy(b);
	return r;
}
