/*
 * ana_plot_ts.c — the kinds over virtual time: timeseries (one panel per
 * metric: interval WA, free zones, submit-buffer occupancy, from each
 * configuration's first seed, points/<id>.csv; interval WA smoothed over a
 * window of samples the spec sets; configurations beyond
 * ANA_PLOT_MAX_SERIES in further columns) and zones (the zone conditions
 * of one point's device 0 as a discrete map: points/<id>.zones.csv).
 */
#include <stdlib.h>
#include <string.h>

#include "ana_plot_int.h"

/* The time-series columns a panel can show (docs/SIM.md's CSV). */
static const struct {
	const char *name, *ylabel;
} ts_metrics[] = {
	{ "interval_wa", "interval WA (device / user bytes)" },
	{ "free_zones", "free zones (fewest device)" },
	{ "sbuf_now", "submit buffer (bios held)" },
};

struct ts_row {
	double t_ns, user, dev, free_zones, sbuf;
};

/* Read @path into @rows; -1 when a column is missing. */
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

/* One block: t_s, interval WA (smoothed over @win samples), free zones, sbuf. */
static void ts_block(FILE *d, GArray *rows, unsigned win)
{
	double *wa = g_new0(double, rows->len + 1);
	bool *ok = g_new0(bool, rows->len + 1);

	for (guint k = 1; k < rows->len; k++) {
		struct ts_row *a = &g_array_index(rows, struct ts_row, k - 1);
		struct ts_row *b = &g_array_index(rows, struct ts_row, k);

		ok[k] = b->user > a->user;
		wa[k] = ok[k] ? (b->dev - a->dev) / (b->user - a->user) : 0;
	}
	for (guint k = 1; k < rows->len; k++) {
		struct ts_row *b = &g_array_index(rows, struct ts_row, k);
		double s = 0;
		unsigned n = 0;

		for (guint j = k + 1 > win ? k + 1 - win : 1; j <= k; j++)
			if (ok[j]) {
				s += wa[j];
				n++;
			}
		if (n)
			fprintf(d, "%.6f %.6f %.0f %.0f\n", b->t_ns / 1e9, s / n, b->free_zones,
				b->sbuf);
		else
			fprintf(d, "%.6f NaN %.0f %.0f\n", b->t_ns / 1e9, b->free_zones, b->sbuf);
	}
	g_free(wa);
	g_free(ok);
}

int anp_timeseries(const struct anp *pl)
{
	const struct ana_plot_spec *sp = pl->spec;
	GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
	GPtrArray *swept = anp_swept(pl->set);
	GArray *rows = g_array_new(FALSE, FALSE, sizeof(struct ts_row));
	unsigned win = sp->smooth > 1 ? sp->smooth : 1, m0 = 0, nm = G_N_ELEMENTS(ts_metrics);
	unsigned nch;
	struct anp_frame fr;
	char *title = NULL, *what = NULL;
	FILE *d, *f;
	int r = -1;

	if (sp->y) {
		for (m0 = 0; m0 < G_N_ELEMENTS(ts_metrics); m0++)
			if (!strcmp(ts_metrics[m0].name, sp->y))
				break;
		if (m0 == G_N_ELEMENTS(ts_metrics)) {
			anp_spec_error(pl, "unknown time-series metric '%s'; accepted: interval_wa "
				       "free_zones sbuf_now", sp->y);
			goto out;
		}
		nm = 1;
	}
	d = anp_open(pl, "dat");
	if (!d)
		goto out;
	fprintf(d, "# time series of each configuration's first seed (points/<id>.csv): one "
		"block per configuration\n# t_s interval_wa (moving average of %u samples) "
		"free_zones sbuf_now\n", win);
	for (guint i = 0; i < pl->set->groups->len; i++) {
		const struct ana_group *g = pl->set->groups->pdata[i];
		const struct ana_point *p = g->points->pdata[0];
		char *l;

		g_array_set_size(rows, 0);
		if (!p->csv_path || read_ts(p->csv_path, rows) || rows->len < 2)
			continue;
		l = anp_label(p, swept);
		g_ptr_array_add(names, *l ? l : g_strdup("all"));
		if (!*l)
			g_free(l);
		fprintf(d, "# block %u: %s (%s)\n", names->len - 1,
			(char *)names->pdata[names->len - 1], p->id);
		ts_block(d, rows, win);
		fprintf(d, "\n\n");
	}
	if (anp_close(pl, d, "dat"))
		goto out;
	if (!names->len) {
		g_string_append_printf(pl->notes, "%s: no point has a time series with two samples "
				       "or more (raise the run length or lower --sample-ms)\n",
				       sp->name);
		r = 0;
		goto out;
	}
	nch = (names->len + ANA_PLOT_MAX_SERIES - 1) / ANA_PLOT_MAX_SERIES;
	what = win > 1 ? g_strdup_printf("time series, first seed, interval WA averaged over %u "
					 "samples", win) : g_strdup("time series, first seed");
	anp_frame_init(&fr, nm * nch, nch, 470, 250, ANP_KEY_W, false, NULL);
	title = anp_title(pl->set, what, fr.width);
	anp_frame_init(&fr, nm * nch, nch, 470, 250, ANP_KEY_W, false, title);
	fr.key_first_row = true;        /* the same configurations in every row */
	f = anp_open(pl, "gp");
	if (!f)
		goto out;
	anp_begin(f, pl, &fr, what, title);
	for (unsigned m = 0; m < nm; m++)
		for (unsigned ch = 0; ch < nch; ch++) {
			unsigned k = 0, mi = m0 + m;
			char *pt = nch > 1 ? g_strdup_printf("configurations %u-%u",
							     ch * ANA_PLOT_MAX_SERIES + 1,
							     MIN(names->len, (ch + 1) * ANA_PLOT_MAX_SERIES)) :
				   g_strdup("");

			anp_panel(f, &fr, m * nch + ch, pt);
			g_free(pt);
			fprintf(f, "  set xlabel \"virtual time (s)\"\n  set ylabel \"%s\"\n  plot \\\n",
				ts_metrics[mi].ylabel);
			for (guint s = ch * ANA_PLOT_MAX_SERIES;
			     s < names->len && s < (ch + 1) * ANA_PLOT_MAX_SERIES; s++, k++)
				anp_line(f, sp->name, s, mi + 2, 1.5, k, names->pdata[s], !k);
			fprintf(f, "\n");
		}
	anp_end(f);
	r = anp_close(pl, f, "gp") ? -1 : 1;
out:
	g_free(title);
	g_free(what);
	g_array_free(rows, TRUE);
	g_ptr_array_free(swept, TRUE);
	g_ptr_array_free(names, TRUE);
	return r;
}

/* ZBC condition code -> the map's category (its row in the palette). */
static int zone_category(int cond)
{
	switch (cond) {
	case 0: return 0;       /* not write pointer (conventional) */
	case 1: return 1;       /* empty */
	case 2: case 3: return 2;       /* implicitly / explicitly open */
	case 4: return 3;       /* closed */
	case 14: return 4;      /* full */
	case 13: return 5;      /* read-only */
	case 15: return 6;      /* offline */
	default: return -1;
	}
}

int anp_zones(const struct anp *pl)
{
	const struct ana_plot_spec *sp = pl->spec;
	const struct ana_point *p = NULL;
	char *path, *text = NULL, **lines, *title = NULL, *what = NULL;
	unsigned rows = 0, nz = 0;
	struct anp_frame fr;
	FILE *d, *f;
	int r = -1;

	for (guint i = 0; i < pl->set->points->len && !p; i++)
		if (!sp->point || !strcmp(((struct ana_point *)pl->set->points->pdata[i])->id,
					   sp->point))
			p = pl->set->points->pdata[i];
	if (!p && sp->point)
		return anp_spec_error(pl, "no point '%s' in this directory (points/<id>.json)",
				      sp->point);
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
	d = anp_open(pl, "dat");
	if (!d)
		goto out;
	fprintf(d, "# zone conditions of device 0 of point %s (%s), from points/%s.zones.csv\n"
		"# t_s zone category (0 not write pointer, 1 empty, 2 open, 3 closed, 4 full, "
		"5 read-only, 6 offline)\n", p->id, p->label, p->id);
	lines = g_strsplit(text, "\n", -1);
	for (int i = 1; lines[i] && *lines[i]; i++) {
		char **c = g_strsplit(lines[i], ",", -1);
		double t = g_ascii_strtod(c[0], NULL) / 1e9;
		unsigned z;

		for (z = 0; c[0] && c[z + 1]; z++)
			fprintf(d, "%.6f %u %d\n", t, z, zone_category(atoi(c[z + 1])));
		fputc('\n', d);
		nz = z > nz ? z : nz;
		rows++;
		g_strfreev(c);
	}
	g_strfreev(lines);
	if (anp_close(pl, d, "dat"))
		goto out;
	if (rows < 2 || !nz) {
		g_string_append_printf(pl->notes, "%s: fewer than two samples\n", sp->name);
		r = 0;
		goto out;
	}
	what = g_strdup_printf("zone conditions of point %s (%s), device 0", p->id, p->label);
	anp_frame_init(&fr, 1, 1, 640, 400, 150, false, NULL);
	title = anp_title(pl->set, what, fr.width);
	anp_frame_init(&fr, 1, 1, 640, 400, 150, false, title);
	f = anp_open(pl, "gp");
	if (!f)
		goto out;
	anp_begin(f, pl, &fr, what, title);
	anp_panel(f, &fr, 0, "");
	fprintf(f, "  unset key\n  unset grid\n"
		"  set xlabel \"virtual time (s)\"\n  set ylabel \"zone\"\n"
		"  set cbrange [-0.5:6.5]\n"
		"  set palette maxcolors 7\n"
		"  set palette defined (0 \"#bbbbbb\", 1 \"#ffffff\", 2 \"#009E73\", 3 \"#E69F00\", "
		"4 \"#0072B2\", 5 \"#CC79A7\", 6 \"#D55E00\")\n"
		"  set cbtics (\"not write pointer\" 0, \"empty\" 1, \"open\" 2, \"closed\" 3, "
		"\"full\" 4, \"read-only\" 5, \"offline\" 6) scale 0\n"
		"  set colorbox user origin screen %.4f,0.25 size screen 0.025,0.5\n"
		"  set yrange [-0.5:%u.5]\n"
		"  plot \"%s.dat\" using 1:2:3 with image\n",
		(double)(fr.cell_w + 6) / fr.width, nz - 1, sp->name);
	anp_end(f);
	r = anp_close(pl, f, "gp") ? -1 : 1;
	goto out;
none:
	g_string_append_printf(pl->notes, "%s: no zone-condition CSV (points/<id>.zones.csv)\n",
			       sp->name);
	r = 0;
out:
	g_free(text);
	g_free(title);
	g_free(what);
	return r;
}
