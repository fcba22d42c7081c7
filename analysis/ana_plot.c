/*
 * ana_plot.c — the plots of a result directory (docs/ANALYSIS.md): for each
 * one a data file, a gnuplot script that draws it as PNG and SVG (run it
 * again after editing it: the data stays), and the two images when gnuplot
 * is installed.  Plots: WA against utilization per policy with the
 * analytic curves; WA per configuration as bars with 95% confidence
 * intervals; reorder-latency CDF; a time series of each configuration (its
 * first seed); the zone-condition timeline when the run wrote one.  This
 * file computes what the plots show; the tables are ana_results.c.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ana_results.h"
#include "ana.h"

#define ANA_MAX_SERIES 10       /* more would not be readable at a column's width */

struct plot {
	const char *dir;
	GPtrArray *made;
	GString *notes;
	GPtrArray *scripts;     /* char *: scripts to run */
	GError **err;
};

static char *qstr(const char *s)
{
	GString *g = g_string_new("\"");

	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			g_string_append_c(g, '\\');
		g_string_append_c(g, *s);
	}
	g_string_append_c(g, '"');
	return g_string_free(g, FALSE);
}

static FILE *plot_open(struct plot *pl, const char *name, const char *ext)
{
	char *path = g_strdup_printf("%s/%s.%s", pl->dir, name, ext);
	FILE *f = fopen(path, "w");

	if (!f)
		g_set_error(pl->err, ANA_ERROR, ANA_ERROR_IO, "%s: %s", path, g_strerror(errno));
	g_free(path);
	return f;
}

static int plot_close(struct plot *pl, FILE *f, const char *name)
{
	bool bad = ferror(f);

	if (fclose(f) || bad) {
		g_set_error(pl->err, ANA_ERROR, ANA_ERROR_IO, "%s/%s: write error", pl->dir, name);
		return -1;
	}
	return 0;
}

/* The script's frame: both formats from one body. */
static void gp_begin(FILE *f, const char *name, const char *what, unsigned height)
{
	fprintf(f, "# %s.gp — %s\n# Written by `zonelab plot`; redraw with: gnuplot %s.gp "
		"(in this directory).\n# Data: %s.dat (see the comments in it).\n", name, what,
		name, name);
	fprintf(f, "do for [fmt in \"png svg\"] {\n"
		"  if (fmt eq \"png\") {\n"
		"    set terminal pngcairo noenhanced size 800,%u font \"Sans,11\"\n"
		"  } else {\n"
		"    set terminal svg noenhanced size 800,%u font \"Sans,11\" dynamic\n"
		"  }\n"
		"  set output \"%s.\".fmt\n"
		"  reset\n"
		"  set key outside right top box\n"
		"  set grid\n", height, height, name);
}

static void gp_end(FILE *f)
{
	fprintf(f, "  unset multiplot\n  set output\n}\n");
}

/* The label of @g without one key ("util=0.8" out of "clean=fifo util=0.8"). */
static char *label_without(const struct ana_set *set, const struct ana_group *g, const char *key)
{
	char **w = g_strsplit(g->label, " ", -1);
	GString *s = g_string_new(NULL);
	bool many = false;
	size_t kl = key ? strlen(key) : 0;

	for (guint i = 1; i < set->groups->len; i++)
		many |= strcmp(((struct ana_group *)set->groups->pdata[i])->scenario,
			       ((struct ana_group *)set->groups->pdata[0])->scenario) != 0;
	if (many)
		g_string_append(s, g->scenario);
	for (char **p = w; *p; p++) {
		if (!strcmp(*p, "-") || (key && !strncmp(*p, key, kl) && (*p)[kl] == '='))
			continue;
		g_string_append_printf(s, "%s%s", s->len ? " " : "", *p);
	}
	g_strfreev(w);
	if (!s->len)
		g_string_append(s, "all");
	return g_string_free(s, FALSE);
}

static void group_mean(const struct ana_group *g, const char *metric, double *mean, double *ci)
{
	double *x = g_new(double, g->points->len + 1);
	unsigned n = 0;

	for (guint i = 0; i < g->points->len; i++) {
		double v = ana_point_num(g->points->pdata[i], metric);

		if (!isnan(v))
			x[n++] = v;
	}
	ana_mean_ci95(x, n, mean, ci);
	g_free(x);
}

static const char *group_str(const struct ana_group *g, const char *path)
{
	const struct ana_point *p = g->points->pdata[0];
	const struct zl_json_leaf *l = zl_json_get(p->json, path);

	return l ? l->text : "";
}

struct xy {
	double x, y, ci;
};

static int cmp_xy(const void *a, const void *b)
{
	const struct xy *p = a, *q = b;

	return (p->x > q->x) - (p->x < q->x);
}

/* WA (data) against effective utilization, a series per policy, the oracles. */
static int plot_wa_util(struct plot *pl, const struct ana_set *set)
{
	GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
	GPtrArray *series = g_ptr_array_new_with_free_func((GDestroyNotify)g_array_unref);
	GPtrArray *curves = g_ptr_array_new_with_free_func(g_free);    /* "fifo" / "greedy NP" */
	FILE *d = NULL, *f = NULL;
	double umin = 1, umax = 0;
	int r = -1;

	for (guint i = 0; i < set->groups->len; i++) {
		const struct ana_group *g = set->groups->pdata[i];
		char *name = label_without(set, g, "util");
		struct xy v;
		guint k;

		group_mean(g, "wa.util_effective", &v.x, &v.ci);
		group_mean(g, "wa.data", &v.y, &v.ci);
		if (isnan(v.x) || isnan(v.y) || !strcmp(group_str(g, "error"), "enospc")) {
			g_free(name);
			continue;
		}
		for (k = 0; k < names->len; k++)
			if (!strcmp(names->pdata[k], name))
				break;
		if (k == names->len) {
			if (names->len == ANA_MAX_SERIES) {
				g_free(name);
				continue;
			}
			g_ptr_array_add(names, name);
			g_ptr_array_add(series, g_array_new(FALSE, FALSE, sizeof(struct xy)));
		} else {
			g_free(name);
		}
		g_array_append_val(series->pdata[k], v);
		umin = fmin(umin, v.x);
		umax = fmax(umax, v.x);
		if (!strcmp(group_str(g, "config.workload"), "uniform")) {
			const char *clean = group_str(g, "config.clean");
			double zb = ana_point_num(g->points->pdata[0], "config.zone_bytes");
			char *c = !strcmp(clean, "fifo") ? g_strdup("fifo") :
				  !strcmp(clean, "greedy") ? g_strdup_printf("greedy %.0f", zb / 4096) :
				  NULL;
			bool have = !c;

			for (guint m = 0; c && m < curves->len; m++)
				have |= !strcmp(curves->pdata[m], c);
			if (have)
				g_free(c);
			else
				g_ptr_array_add(curves, c);
		}
	}
	if (!names->len) {
		g_string_append(pl->notes, "wa_util: no point has wa.data and wa.util_effective\n");
		r = 0;
		goto out;
	}
	d = plot_open(pl, "wa_util", "dat");
	if (!d)
		goto out;
	fprintf(d, "# WA (data) against effective utilization: one block per series "
		"(gnuplot index), then one per analytic curve\n");
	for (guint k = 0; k < names->len; k++) {
		GArray *a = series->pdata[k];

		qsort(a->data, a->len, sizeof(struct xy), cmp_xy);
		fprintf(d, "# series %u: %s\n# util_effective wa_data_mean wa_data_ci95\n", k,
			(char *)names->pdata[k]);
		for (guint i = 0; i < a->len; i++) {
			struct xy *v = &g_array_index(a, struct xy, i);

			fprintf(d, "%.6f %.6f %.6f\n", v->x, v->y, isnan(v->ci) ? 0 : v->ci);
		}
		fprintf(d, "\n\n");
	}
	umin = fmax(0.05, umin - 0.05);
	umax = fmin(0.97, umax + 0.05);
	for (guint m = 0; m < curves->len; m++) {
		const char *c = curves->pdata[m];
		double np = !strncmp(c, "greedy", 6) ? atof(c + 7) : 0;

		fprintf(d, "# curve %u: %s (ana_wa_%s)\n# util wa\n", m, c, np ? "greedy" : "fifo");
		for (int i = 0; i <= 60; i++) {
			double u = umin + (umax - umin) * i / 60;

			fprintf(d, "%.6f %.6f\n", u, np ? ana_wa_greedy(u, np) : ana_wa_fifo(u));
		}
		fprintf(d, "\n\n");
	}
	if (plot_close(pl, d, "wa_util.dat"))
		goto out;
	f = plot_open(pl, "wa_util", "gp");
	if (!f)
		goto out;
	gp_begin(f, "wa_util", "write amplification against utilization, per policy", 500);
	fprintf(f, "  set xlabel \"utilization (live data / usable capacity)\"\n"
		"  set ylabel \"write amplification (data)\"\n"
		"  set yrange [1:*]\n"
		"  plot \\\n");
	for (guint k = 0; k < names->len; k++) {
		char *t = qstr(names->pdata[k]);

		fprintf(f, "    \"wa_util.dat\" index %u using 1:2:3 with yerrorlines lw 2 pt 7 "
			"title %s%s\n", k, t, k + 1 < names->len + curves->len ? ", \\" : "");
		g_free(t);
	}
	for (guint m = 0; m < curves->len; m++) {
		const char *c = curves->pdata[m];
		char *t = !strncmp(c, "greedy", 6) ? g_strdup_printf("analytic greedy, Np=%s", c + 7) :
			  g_strdup_printf("analytic %s", c);
		char *q = qstr(t);

		fprintf(f, "    \"wa_util.dat\" index %u using 1:2 with lines dt %u lw 1.5 lc rgb "
			"\"#555555\" title %s%s\n", names->len + m, m + 2, q,
			m + 1 < curves->len ? ", \\" : "");
		g_free(t);
		g_free(q);
	}
	gp_end(f);
	if (plot_close(pl, f, "wa_util.gp"))
		goto out;
	g_ptr_array_add(pl->made, g_strdup("wa_util"));
	r = 0;
out:
	g_ptr_array_free(names, TRUE);
	g_ptr_array_free(series, TRUE);
	g_ptr_array_free(curves, TRUE);
	return r;
}

/* Bars: WA (data) per configuration, mean and 95% CI over the seeds. */
static int plot_wa_bars(struct plot *pl, const struct ana_set *set)
{
	FILE *d, *f;
	unsigned n = 0, with_oracle = 0;

	d = plot_open(pl, "wa_bars", "dat");
	if (!d)
		return -1;
	fprintf(d, "# WA (data) per configuration over its seeds\n"
		"# x wa_data_mean wa_data_ci95 oracle seeds \"configuration\"\n");
	for (guint i = 0; i < set->groups->len && n < 4 * ANA_MAX_SERIES; i++) {
		const struct ana_group *g = set->groups->pdata[i];
		char *name = label_without(set, g, NULL), *q = qstr(name);
		const char *clean = group_str(g, "config.clean");
		double m, ci, om, oci = 0;
		char *opath = g_strdup_printf("wa.oracle_%s%s",
					      !strcmp(group_str(g, "config.workload"), "hotcold") ?
					      "hotcold_" : "", clean);

		group_mean(g, "wa.data", &m, &ci);
		group_mean(g, opath, &om, &oci);
		g_free(opath);
		if (!isnan(m)) {
			fprintf(d, "%u %.6f %.6f %.6f %u %s\n", n++, m, isnan(ci) ? 0 : ci,
				isnan(om) ? NAN : om, g->points->len, q);
			with_oracle += !isnan(om);
		}
		g_free(name);
		g_free(q);
	}
	if (plot_close(pl, d, "wa_bars.dat"))
		return -1;
	if (!n) {
		g_string_append(pl->notes, "wa_bars: no point has wa.data\n");
		return 0;
	}
	f = plot_open(pl, "wa_bars", "gp");
	if (!f)
		return -1;
	gp_begin(f, "wa_bars", "write amplification per configuration, 95% confidence "
		 "interval over the seeds", 500);
	fprintf(f, "  set ylabel \"write amplification (data)\"\n"
		"  set style fill solid 0.5 border -1\n"
		"  set boxwidth 0.6\n"
		"  set xtics rotate by -30 left\n"
		"  set xrange [-0.7:%u.7]\n"
		"  set yrange [0:*]\n"
		"  set bmargin 8\n"
		"  plot \"wa_bars.dat\" using 1:2:3:xtic(6) with boxerrorbars lc rgb \"#4477aa\" "
		"title \"measured (mean, 95%% CI)\"%s\n", n - 1,
		with_oracle ? ", \\\n    \"wa_bars.dat\" using 1:4 with points pt 9 ps 1.5 lc rgb "
			      "\"#cc3311\" title \"analytic\"" : "");
	gp_end(f);
	if (plot_close(pl, f, "wa_bars.gp"))
		return -1;
	g_ptr_array_add(pl->made, g_strdup("wa_bars"));
	return 0;
}

/* Reorder latency: the CDF through the percentiles the simulator reports. */
static int plot_latency(struct plot *pl, const struct ana_set *set)
{
	static const struct { const char *f; double q; } pts[] = {
		{ "reorder_latency_ns.p50", 0.5 }, { "reorder_latency_ns.p90", 0.9 },
		{ "reorder_latency_ns.p99", 0.99 }, { "reorder_latency_ns.p99_9", 0.999 },
		{ "reorder_latency_ns.max", 1.0 },
	};
	GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
	FILE *d, *f;
	int r = -1;

	d = plot_open(pl, "latency_cdf", "dat");
	if (!d)
		goto out;
	fprintf(d, "# reorder latency (ready to dispatch): one block per configuration\n"
		"# latency_us fraction_at_or_below (percentiles: mean over the seeds)\n");
	for (guint i = 0; i < set->groups->len && names->len < ANA_MAX_SERIES; i++) {
		const struct ana_group *g = set->groups->pdata[i];
		double v[G_N_ELEMENTS(pts)], ci;
		unsigned pos = 0;

		for (size_t k = 0; k < G_N_ELEMENTS(pts); k++) {
			group_mean(g, pts[k].f, &v[k], &ci);
			pos += !isnan(v[k]) && v[k] > 0;
		}
		if (pos < 2)    /* log scale: a CDF needs two values above 0 */
			continue;
		g_ptr_array_add(names, label_without(set, g, NULL));
		fprintf(d, "# series %u: %s\n", names->len - 1, (char *)names->pdata[names->len - 1]);
		for (size_t k = 0; k < G_N_ELEMENTS(pts); k++)
			if (!isnan(v[k]) && v[k] > 0)   /* 0 on a log axis: not drawn */
				fprintf(d, "%.4f %.4f\n", v[k] / 1e3, pts[k].q);
		fprintf(d, "\n\n");
	}
	if (plot_close(pl, d, "latency_cdf.dat"))
		goto out;
	if (!names->len) {
		g_string_append(pl->notes, "latency_cdf: no configuration has two reorder-latency "
				"percentiles above 0 (no workers?)\n");
		r = 0;
		goto out;
	}
	f = plot_open(pl, "latency_cdf", "gp");
	if (!f)
		goto out;
	gp_begin(f, "latency_cdf", "reorder latency CDF (ready to dispatch) per configuration", 500);
	fprintf(f, "  set logscale x\n"
		"  set xlabel \"reorder latency (us, log scale)\"\n"
		"  set ylabel \"fraction of bios at or below\"\n"
		"  set yrange [0:1.02]\n"
		"  set key outside right bottom box\n"
		"  plot \\\n");
	for (guint k = 0; k < names->len; k++) {
		char *t = qstr(names->pdata[k]);

		fprintf(f, "    \"latency_cdf.dat\" index %u using 1:2 with linespoints lw 2 "
			"title %s%s\n", k, t, k + 1 < names->len ? ", \\" : "");
		g_free(t);
	}
	gp_end(f);
	if (plot_close(pl, f, "latency_cdf.gp"))
		goto out;
	g_ptr_array_add(pl->made, g_strdup("latency_cdf"));
	r = 0;
out:
	g_ptr_array_free(names, TRUE);
	return r;
}

/* One CSV row of the simulator's time series: the columns used here. */
struct ts_row {
	double t_ns, user, dev, free_zones, sbuf;
};

/* Read @path (docs/SIM.md's CSV) into @rows; -1 when a column is missing. */
static int read_ts(const char *path, GArray *rows)
{
	static const char *const want[] = { "t_ns", "user_bytes", "dev_bytes", "free_zones",
					    "sbuf_now" };
	int col[G_N_ELEMENTS(want)];
	char *text = NULL, **lines;
	int r = -1;

	if (!g_file_get_contents(path, &text, NULL, NULL))
		return -1;
	lines = g_strsplit(text, "\n", -1);
	if (lines[0]) {
		char **h = g_strsplit(lines[0], ",", -1);

		r = 0;
		for (size_t k = 0; k < G_N_ELEMENTS(want); k++) {
			col[k] = -1;
			for (int c = 0; h[c]; c++)
				if (!strcmp(g_strstrip(h[c]), want[k]))
					col[k] = c;
			if (col[k] < 0)
				r = -1;
		}
		g_strfreev(h);
	}
	for (int i = 1; !r && lines[i]; i++) {
		char **c = g_strsplit(lines[i], ",", -1);
		guint n = g_strv_length(c);
		double v[G_N_ELEMENTS(want)];
		bool ok = true;

		for (size_t k = 0; k < G_N_ELEMENTS(want); k++) {
			ok &= (guint)col[k] < n;
			v[k] = ok ? g_ascii_strtod(c[col[k]], NULL) : 0;
		}
		if (ok) {
			struct ts_row row = { v[0], v[1], v[2], v[3], v[4] };

			g_array_append_val(rows, row);
		}
		g_strfreev(c);
	}
	g_strfreev(lines);
	g_free(text);
	return r;
}

/* Interval WA, free zones and submit-buffer occupancy of each configuration. */
static int plot_timeseries(struct plot *pl, const struct ana_set *set)
{
	GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
	GArray *rows = g_array_new(FALSE, FALSE, sizeof(struct ts_row));
	FILE *d, *f;
	int r = -1;
	static const struct { unsigned col; const char *ylabel; } panels[] = {
		{ 2, "interval WA" }, { 3, "free zones (fewest device)" },
		{ 4, "submit buffer (bios held)" },
	};

	d = plot_open(pl, "timeseries", "dat");
	if (!d)
		goto out;
	fprintf(d, "# time series of each configuration's first seed (from points/<id>.csv): "
		"one block per configuration\n# t_s interval_wa free_zones sbuf_now\n");
	for (guint i = 0; i < set->groups->len && names->len < ANA_MAX_SERIES; i++) {
		const struct ana_group *g = set->groups->pdata[i];
		const struct ana_point *p = g->points->pdata[0];

		g_array_set_size(rows, 0);
		if (!p->csv_path || read_ts(p->csv_path, rows) || rows->len < 2)
			continue;
		g_ptr_array_add(names, label_without(set, g, NULL));
		fprintf(d, "# series %u: %s (%s)\n", names->len - 1,
			(char *)names->pdata[names->len - 1], p->id);
		for (guint k = 1; k < rows->len; k++) {
			struct ts_row *a = &g_array_index(rows, struct ts_row, k - 1);
			struct ts_row *b = &g_array_index(rows, struct ts_row, k);
			double du = b->user - a->user;

			if (du > 0)
				fprintf(d, "%.6f %.6f %.0f %.0f\n", b->t_ns / 1e9,
					(b->dev - a->dev) / du, b->free_zones, b->sbuf);
			else
				fprintf(d, "%.6f NaN %.0f %.0f\n", b->t_ns / 1e9, b->free_zones,
					b->sbuf);
		}
		fprintf(d, "\n\n");
	}
	if (plot_close(pl, d, "timeseries.dat"))
		goto out;
	if (!names->len) {
		g_string_append(pl->notes, "timeseries: no point has a time series with two "
				"samples or more (raise the run length or lower --sample-ms)\n");
		r = 0;
		goto out;
	}
	f = plot_open(pl, "timeseries", "gp");
	if (!f)
		goto out;
	gp_begin(f, "timeseries", "interval WA, free zones and submit-buffer occupancy over "
		 "virtual time, first seed of each configuration", 800);
	fprintf(f, "  set multiplot layout 3,1\n  set rmargin at screen 0.68\n");
	for (size_t k = 0; k < G_N_ELEMENTS(panels); k++) {
		fprintf(f, "  set ylabel \"%s\"\n  set xlabel \"%s\"\n", panels[k].ylabel,
			k + 1 == G_N_ELEMENTS(panels) ? "virtual time (s)" : "");
		if (k)
			fprintf(f, "  unset key\n");
		fprintf(f, "  plot \\\n");
		for (guint s = 0; s < names->len; s++) {
			char *t = qstr(names->pdata[s]);

			fprintf(f, "    \"timeseries.dat\" index %u using 1:%u with lines lw 1.5 "
				"lc %u title %s%s\n", s, panels[k].col, s + 1, t,
				s + 1 < names->len ? ", \\" : "");
			g_free(t);
		}
	}
	gp_end(f);
	if (plot_close(pl, f, "timeseries.gp"))
		goto out;
	g_ptr_array_add(pl->made, g_strdup("timeseries"));
	r = 0;
out:
	g_array_free(rows, TRUE);
	g_ptr_array_free(names, TRUE);
	return r;
}

/* Zones x time of one disk: the first configuration's first seed. */
static int plot_zones(struct plot *pl, const struct ana_set *set)
{
	const struct ana_point *p = set->points->len ? set->points->pdata[0] : NULL;
	char *path, *text = NULL, **lines;
	unsigned rows = 0, nz = 0;
	FILE *d, *f;

	if (!p || !p->csv_path)
		goto none;
	text = g_strndup(p->csv_path, strlen(p->csv_path) - 4);       /* ".csv" */
	path = g_strconcat(text, ".zones.csv", NULL);
	g_free(text);
	text = NULL;
	if (!g_file_get_contents(path, &text, NULL, NULL)) {
		g_free(path);
		goto none;
	}
	g_free(path);
	d = plot_open(pl, "zone_timeline", "dat");
	if (!d) {
		g_free(text);
		return -1;
	}
	fprintf(d, "# zone conditions of device 0 of point %s (%s), from points/%s.zones.csv\n"
		"# t_s zone cond (ZBC: 0 not write pointer, 1 empty, 2 implicitly open, "
		"3 explicitly open, 4 closed, 13 read-only, 14 full, 15 offline)\n", p->id, p->label,
		p->id);
	lines = g_strsplit(text, "\n", -1);
	for (int i = 1; lines[i] && *lines[i]; i++) {
		char **c = g_strsplit(lines[i], ",", -1);
		double t = g_ascii_strtod(c[0], NULL) / 1e9;
		unsigned z;

		for (z = 0; c[0] && c[z + 1]; z++)
			fprintf(d, "%.6f %u %s\n", t, z, c[z + 1]);
		fputc('\n', d);
		nz = z > nz ? z : nz;
		rows++;
		g_strfreev(c);
	}
	g_strfreev(lines);
	g_free(text);
	if (plot_close(pl, d, "zone_timeline.dat"))
		return -1;
	if (rows < 2 || !nz) {
		g_string_append(pl->notes, "zone_timeline: fewer than two samples\n");
		return 0;
	}
	f = plot_open(pl, "zone_timeline", "gp");
	if (!f)
		return -1;
	gp_begin(f, "zone_timeline", "zone conditions of one disk over virtual time", 500);
	fprintf(f, "  unset key\n  unset grid\n"
		"  set xlabel \"virtual time (s)\"\n  set ylabel \"zone\"\n"
		"  set title \"%s: zone conditions, device 0\"\n"
		"  set cbrange [0:15]\n"
		"  set palette defined (0 \"#999999\", 1 \"#ffffff\", 2 \"#44aa44\", 3 \"#44aa44\", "
		"4 \"#ddcc33\", 5 \"#ddcc33\", 12.5 \"#ddcc33\", 13 \"#ee8833\", 14 \"#3366bb\", "
		"15 \"#cc2222\")\n"
		"  set cbtics (\"not WP\" 0, \"empty\" 1, \"open\" 2.5, \"closed\" 4, "
		"\"read-only\" 13, \"full\" 14, \"offline\" 15)\n"
		"  set yrange [-0.5:%u.5]\n"
		"  plot \"zone_timeline.dat\" using 1:2:3 with image\n", p->label, nz - 1);
	gp_end(f);
	if (plot_close(pl, f, "zone_timeline.gp"))
		return -1;
	g_ptr_array_add(pl->made, g_strdup("zone_timeline"));
	return 0;
none:
	g_string_append(pl->notes, "zone_timeline: no zone-condition CSV (points/<id>.zones.csv)\n");
	return 0;
}

static int run_gnuplot(struct plot *pl, const char *name)
{
	char *script = g_strdup_printf("%s.gp", name);
	char *argv[] = { "gnuplot", script, NULL };
	char *out = NULL, *errs = NULL;
	GError *e = NULL;
	int status = 0, r = 0;

	if (!g_spawn_sync(pl->dir, argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, &errs,
			  &status, &e)) {
		g_set_error(pl->err, ANA_ERROR, ANA_ERROR_IO, "gnuplot %s: %s", script, e->message);
		g_error_free(e);
		r = -1;
	} else if (!g_spawn_check_wait_status(status, NULL)) {
		g_set_error(pl->err, ANA_ERROR, ANA_ERROR_IO, "gnuplot %s/%s failed: %s", pl->dir,
			    script, errs ? errs : "");
		r = -1;
	}
	g_free(out);
	g_free(errs);
	g_free(script);
	return r;
}

int ana_plot_all(const struct ana_set *set, const char *dir, GPtrArray *made, GString *notes,
		 GError **err)
{
	struct plot pl = { .dir = dir, .made = made, .notes = notes, .err = err };
	char *gp = g_find_program_in_path("gnuplot");
	guint first = made->len;
	int r = -1;

	if (g_mkdir_with_parents(dir, 0755)) {
		g_set_error(err, ANA_ERROR, ANA_ERROR_IO, "%s: %s", dir, g_strerror(errno));
		goto out;
	}
	if (plot_wa_util(&pl, set) || plot_wa_bars(&pl, set) || plot_latency(&pl, set) ||
	    plot_timeseries(&pl, set) || plot_zones(&pl, set))
		goto out;
	if (!gp) {
		g_string_append_printf(notes, "gnuplot is not installed: the data (.dat) and "
				       "scripts (.gp) are in %s; install it (apt-get install "
				       "gnuplot-nox) and run `zonelab plot` on the result "
				       "directory\n", dir);
		r = 1;
		goto out;
	}
	for (guint i = first; i < made->len; i++)
		if (run_gnuplot(&pl, made->pdata[i]))
			goto out;
	r = 0;
out:
	g_free(gp);
	return r;
}
