/*
 * ana_plot_xy.c — the line and bars kinds: a metric (mean over the seeds,
 * 95% CI error bars) against a parameter, one colour per series, one panel
 * per facet value, at most ANA_PLOT_MAX_SERIES series a panel.  Bars are
 * grouped: one group per x value, one bar per series, labels horizontal.
 * With y = wa.data, each configuration's analytic WA is drawn (thin, in its
 * series' colour) where a model applies to it, and nowhere else:
 *   uniform writes, FIFO:            Eq. 4  (wa.oracle_fifo)
 *   uniform writes, greedy:          Eq. 12 (wa.oracle_greedy)
 *   hot/cold, one log, FIFO/greedy:  Eq. 14 / Eq. 16 (wa.oracle_hotcold_*)
 *   hot/cold, hint placement:        the two-log bound (wa.oracle_two_log_bound)
 * The oracles' values are the simulator's (ana.h computes them); this
 * file only chooses which applies.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ana_plot_int.h"

struct cell {
	unsigned facet, series, panel, slot;    /* slot: series index within the panel */
	double x, y, ci, oracle;                /* x: value or category index */
	const char *model;                      /* the oracle's name, or NULL */
};

struct xy {
	const char *x, *y;
	bool x_is_param, x_numeric, bars;
	GPtrArray *facet_keys, *series_keys;    /* char * (borrowed) */
	GPtrArray *facets, *series, *xcats;     /* char * labels (owned) */
	GPtrArray *panels;                      /* char * panel titles (owned) */
	GArray *cells;                          /* struct cell */
	bool shared_key;
};

static unsigned intern(GPtrArray *a, const char *s)
{
	for (guint i = 0; i < a->len; i++)
		if (!strcmp(a->pdata[i], s))
			return i;
	g_ptr_array_add(a, g_strdup(s));
	return a->len - 1;
}

static bool has(GPtrArray *a, const char *s)
{
	for (guint i = 0; a && i < a->len; i++)
		if (!strcmp(a->pdata[i], s))
			return true;
	return false;
}

static const char *json_str(const struct ana_point *p, const char *path)
{
	const struct zl_json_leaf *l = zl_json_get(p->json, path);

	return l ? l->text : "";
}

/* The analytic WA that models @p's configuration, or NULL (see the top). */
static const char *oracle_of(const struct ana_point *p, const char **model)
{
	const char *wl = json_str(p, "config.workload"), *clean = json_str(p, "config.clean");
	const char *place = json_str(p, "config.placement");
	size_t pl = strcspn(place, ":");
	bool fifo = !strcmp(clean, "fifo"), greedy = !strcmp(clean, "greedy");

	if (!strcmp(wl, "uniform") && (fifo || greedy)) {
		*model = fifo ? "Eq. 4" : "Eq. 12";
		return fifo ? "wa.oracle_fifo" : "wa.oracle_greedy";
	}
	if (!strcmp(wl, "hotcold") && pl == 4 && !strncmp(place, "hint", 4)) {
		*model = "two-log bound";
		return "wa.oracle_two_log_bound";
	}
	if (!strcmp(wl, "hotcold") && pl == 7 && !strncmp(place, "one-log", 7) && (fifo || greedy)) {
		*model = fifo ? "Eq. 14" : "Eq. 16";
		return fifo ? "wa.oracle_hotcold_fifo" : "wa.oracle_hotcold_greedy";
	}
	return NULL;
}

static char *list_names(GPtrArray *a, unsigned max)
{
	GString *g = g_string_new(NULL);

	for (guint i = 0; i < a->len && i < max; i++)
		g_string_append_printf(g, "%s%s", i ? " " : "", (char *)a->pdata[i]);
	if (a->len > max)
		g_string_append_printf(g, " ... (%u in all; results.csv's columns)", a->len);
	if (!a->len)
		g_string_append(g, "(none)");
	return g_string_free(g, FALSE);
}

/* Check the names of the spec and choose the defaults; 0 or -1. */
static int xy_resolve(const struct anp *pl, struct xy *xy, GPtrArray *swept)
{
	const struct ana_plot_spec *sp = pl->spec;
	const char *series = sp->series;
	char *l;

	xy->y = sp->y ? sp->y : "wa.data";
	if (!has(pl->set->metrics, xy->y)) {
		l = list_names(pl->set->metrics, 12);
		anp_spec_error(pl, "unknown metric '%s' (a dotted path of the points' JSON); "
			       "metrics: %s", xy->y, l);
		g_free(l);
		return -1;
	}
	xy->x = sp->x;
	for (guint i = 0; !xy->x && i < swept->len; i++)      /* the first numeric one */
		if (anp_param_is_numeric(pl->set, swept->pdata[i]))
			xy->x = swept->pdata[i];
	if (!xy->x && swept->len)
		xy->x = swept->pdata[0];
	if (!xy->x)
		return anp_spec_error(pl, "no parameter is swept in these points: name --x");
	xy->x_is_param = has(pl->set->param_keys, xy->x);
	if (!xy->x_is_param && (xy->bars || !has(pl->set->metrics, xy->x))) {
		l = list_names(swept, 50);
		anp_spec_error(pl, "unknown parameter '%s'; swept: %s%s", xy->x, l,
			       xy->bars ? "" : " (or a numeric metric such as wa.util_effective)");
		g_free(l);
		return -1;
	}
	xy->x_numeric = !xy->bars && (!xy->x_is_param || anp_param_is_numeric(pl->set, xy->x));
	for (int k = 0; k < 2; k++) {
		const char *n = k ? sp->facet : sp->series;

		if (n && !has(pl->set->param_keys, n)) {
			l = list_names(swept, 50);
			anp_spec_error(pl, "unknown parameter '%s' for --%s; swept: %s", n,
				       k ? "facet" : "series", l);
			g_free(l);
			return -1;
		}
	}
	for (guint i = 0; !series && i < swept->len; i++) {      /* a categorical one first */
		const char *k = swept->pdata[i];

		if (strcmp(k, xy->x) && (!sp->facet || strcmp(k, sp->facet)) &&
		    !anp_param_is_numeric(pl->set, k))
			series = k;
	}
	for (guint i = 0; !series && i < swept->len; i++)
		if (strcmp(swept->pdata[i], xy->x) && (!sp->facet || strcmp(swept->pdata[i], sp->facet)))
			series = swept->pdata[i];
	if (series)
		g_ptr_array_add(xy->series_keys, (char *)series);
	if (sp->facet)
		g_ptr_array_add(xy->facet_keys, sp->facet);
	for (guint i = 0; i < swept->len; i++) {         /* the rest */
		const char *k = swept->pdata[i];

		if (strcmp(k, xy->x) && !has(xy->series_keys, k) && !has(xy->facet_keys, k))
			g_ptr_array_add(sp->facet ? xy->series_keys : xy->facet_keys, (char *)k);
	}
	return 0;
}

static int cmp_cell(const void *a, const void *b)
{
	const struct cell *p = a, *q = b;

	if (p->panel != q->panel)
		return p->panel < q->panel ? -1 : 1;
	if (p->slot != q->slot)
		return p->slot < q->slot ? -1 : 1;
	return (p->x > q->x) - (p->x < q->x);
}

/* One cell per configuration; then the panels (facets split by 6 series). */
static void xy_cells(const struct anp *pl, struct xy *xy)
{
	for (guint i = 0; i < pl->set->groups->len; i++) {
		const struct ana_group *g = pl->set->groups->pdata[i];
		const struct ana_point *p = g->points->pdata[0];
		char *f = anp_label(p, xy->facet_keys), *s = anp_label(p, xy->series_keys);
		const char *of, *xv = xy->x_is_param ? anp_param(p, xy->x) : NULL;
		struct cell c = { 0 };

		anp_group_mean(g, xy->y, &c.y, &c.ci);
		if (xy->x_is_param && !xv)
			c.y = NAN;
		else if (xy->x_numeric && xv)
			c.x = g_ascii_strtod(xv, NULL);
		else if (xv)
			c.x = intern(xy->xcats, xv);
		else
			anp_group_mean(g, xy->x, &c.x, &c.oracle);
		if (isnan(c.y) || isnan(c.x) || !strcmp(json_str(p, "error"), "enospc")) {
			g_free(f);
			g_free(s);
			continue;
		}
		c.facet = intern(xy->facets, f);
		c.series = intern(xy->series, *s ? s : "all");
		c.oracle = NAN;
		of = !strcmp(xy->y, "wa.data") ? oracle_of(p, &c.model) : NULL;
		if (of) {
			double ci;

			anp_group_mean(g, of, &c.oracle, &ci);
		}
		if (isnan(c.oracle))
			c.model = NULL;
		g_array_append_val(xy->cells, c);
		g_free(f);
		g_free(s);
	}
	xy->shared_key = xy->series->len <= ANA_PLOT_MAX_SERIES;
	for (guint f = 0; f < xy->facets->len; f++) {
		GArray *in = g_array_new(FALSE, FALSE, sizeof(unsigned));     /* series in facet f */
		unsigned nch;

		for (guint s = 0; s < xy->series->len; s++)
			for (guint i = 0; i < xy->cells->len; i++) {
				struct cell *c = &g_array_index(xy->cells, struct cell, i);

				if (c->facet == f && c->series == s) {
					g_array_append_val(in, s);
					break;
				}
			}
		nch = (in->len + ANA_PLOT_MAX_SERIES - 1) / ANA_PLOT_MAX_SERIES;
		for (guint k = 0; k < in->len; k++) {
			unsigned s = g_array_index(in, unsigned, k);
			unsigned panel = xy->panels->len + k / ANA_PLOT_MAX_SERIES;

			for (guint i = 0; i < xy->cells->len; i++) {
				struct cell *c = &g_array_index(xy->cells, struct cell, i);

				if (c->facet == f && c->series == s) {
					c->panel = panel;
					c->slot = xy->shared_key ? s : k % ANA_PLOT_MAX_SERIES;
				}
			}
		}
		for (unsigned ch = 0; ch < nch; ch++) {
			const char *fl = xy->facets->pdata[f];

			g_ptr_array_add(xy->panels, nch > 1 ?
					g_strdup_printf("%s%s(%u/%u)", fl, *fl ? " " : "", ch + 1, nch) :
					g_strdup(fl));
		}
		g_array_free(in, TRUE);
	}
	g_array_sort(xy->cells, cmp_cell);
}

/* The data: one block per (panel, series), x ascending. */
static int xy_data(const struct anp *pl, struct xy *xy, GArray *blk_series, GArray *blk_panel)
{
	FILE *d = anp_open(pl, "dat");

	if (!d)
		return -1;
	fprintf(d, "# %s against %s, mean and 95%% CI over the seeds: one block (gnuplot index) "
		"per panel and series\n# %s %s_mean %s_ci95 analytic_mean\n", xy->y, xy->x,
		xy->bars || !xy->x_numeric ? "x_position" : xy->x, xy->y, xy->y);
	for (guint i = 0; i < xy->cells->len; i++) {
		struct cell *c = &g_array_index(xy->cells, struct cell, i);

		if (!i || c->panel != c[-1].panel || c->series != c[-1].series) {
			if (i)
				fprintf(d, "\n\n");
			fprintf(d, "# block %u: panel %u \"%s\", series \"%s\"%s%s\n", blk_series->len,
				c->panel, (char *)xy->panels->pdata[c->panel],
				(char *)xy->series->pdata[c->series], c->model ? ", analytic: " : "",
				c->model ? c->model : "");
			g_array_append_val(blk_series, c->series);
			g_array_append_val(blk_panel, c->panel);
		}
		fprintf(d, "%.6g %.6g %.6g %.6g\n", c->x, c->y, isnan(c->ci) ? 0 : c->ci, c->oracle);
	}
	fprintf(d, "\n\n");
	return anp_close(pl, d, "dat");
}

static void panel_models(const struct xy *xy, unsigned panel, GString *out)
{
	GPtrArray *m = g_ptr_array_new();

	for (guint i = 0; i < xy->cells->len; i++) {
		struct cell *c = &g_array_index(xy->cells, struct cell, i);

		if (c->panel == panel && c->model && !has(m, c->model))
			g_ptr_array_add(m, (char *)c->model);
	}
	for (guint i = 0; i < m->len; i++)
		g_string_append_printf(out, "%s%s", i ? ", " : out->len ? "; analytic: " :
				       "analytic: ", (char *)m->pdata[i]);
	g_ptr_array_free(m, TRUE);
}

static int xy_script(const struct anp *pl, struct xy *xy, GArray *blk_series, GArray *blk_panel)
{
	struct anp_frame fr;
	double xs, ys;
	char *xl = anp_axis(xy->x, &xs), *yl = anp_axis(xy->y, &ys), *title, *what;
	FILE *f;
	int r = -1;

	if (xy->x_is_param && !xy->x_numeric)
		xs = 1;
	what = g_strdup_printf("%s against %s, mean and 95%% CI", xy->y, xy->x);
	anp_frame_init(&fr, xy->panels->len, 3, 430, 330, ANP_KEY_W, xy->shared_key, NULL);
	title = anp_title(pl->set, what, fr.width);
	anp_frame_init(&fr, xy->panels->len, 3, 430, 330, ANP_KEY_W, xy->shared_key, title);
	f = anp_open(pl, "gp");
	if (!f)
		goto out;
	anp_begin(f, pl, &fr, what, title);
	{
		char *qx = anp_quote(xl), *qy = anp_quote(yl);

		fprintf(f, "  set xlabel %s\n  set ylabel %s\n", qx, qy);
		g_free(qx);
		g_free(qy);
	}
	fprintf(f, "  set style fill solid 0.8 border lc rgb \"#333333\"\n");
	if (xy->bars || !xy->x_numeric) {
		fprintf(f, "  set xtics (");
		for (guint k = 0; k < xy->xcats->len; k++) {
			char *q = anp_quote(xy->xcats->pdata[k]);

			fprintf(f, "%s%s %u", k ? ", " : "", q, k);
			g_free(q);
		}
		fprintf(f, ") scale 0\n  set xrange [-0.6:%u.6]\n", xy->xcats->len - 1);
		if (xy->bars)
			fprintf(f, "  set yrange [0:*]\n");
	}
	for (guint p = 0; p < xy->panels->len; p++) {
		GString *pt = g_string_new(xy->panels->pdata[p]);
		unsigned nb = 0, nser = 0, k = 0;
		bool oracle = false;

		panel_models(xy, p, pt);
		anp_panel(f, &fr, p, pt->str);
		g_string_free(pt, TRUE);
		for (guint b = 0; b < blk_panel->len; b++)
			nser += g_array_index(blk_panel, unsigned, b) == p;
		if (xy->bars)
			fprintf(f, "  set boxwidth %.4f absolute\n", 0.8 / nser);
		fprintf(f, "  plot \\\n");
		for (guint b = 0; b < blk_panel->len; b++) {
			unsigned s = g_array_index(blk_series, unsigned, b);
			char *t;

			if (g_array_index(blk_panel, unsigned, b) != p)
				continue;
			for (guint i = 0; i < xy->cells->len; i++) {
				struct cell *c = &g_array_index(xy->cells, struct cell, i);

				oracle |= c->panel == p && c->series == s && c->model;
			}
			t = anp_key_quote(xy->series->pdata[s]);
			if (xy->bars)
				fprintf(f, "%s    \"%s.dat\" index %u using ($1%+.4f):($2*%g):($3*%g) "
					"with boxerrorbars lw 1 ", nb ? ", \\\n" : "", pl->spec->name,
					b, (k - (nser - 1) / 2.0) * 0.8 / nser, ys, ys);
			else
				fprintf(f, "%s    \"%s.dat\" index %u using ($1*%g):($2*%g):($3*%g) "
					"with yerrorlines lw 2 ps 0.9 ", nb ? ", \\\n" : "",
					pl->spec->name, b, xs, ys, ys);
			anp_style(f, xy->shared_key ? s : k);
			fprintf(f, " title %s", t);
			g_free(t);
			if (xy->bars)
				fprintf(f, ", \\\n    \"%s.dat\" index %u using ($1%+.4f):($4*%g) with "
					"points pt 2 ps 1.1 lc rgb \"#000000\" notitle", pl->spec->name, b,
					(k - (nser - 1) / 2.0) * 0.8 / nser, ys);
			else
				fprintf(f, ", \\\n    \"%s.dat\" index %u using ($1*%g):($4*%g) with "
					"lines lw 1 dt (2,4) lc rgb \"%s\" notitle", pl->spec->name, b, xs,
					ys, anp_color(xy->shared_key ? s : k));
			nb++;
			k++;
		}
		if (oracle && (!xy->shared_key || !p))
			fprintf(f, ", \\\n    NaN with %s title \"analytic model (thin)\"", xy->bars ?
				"points pt 2 ps 1.1 lc rgb \"#000000\"" :
				"lines lw 1 dt (2,4) lc rgb \"#000000\"");
		fprintf(f, "\n");
	}
	anp_end(f);
	r = anp_close(pl, f, "gp");
out:
	g_free(xl);
	g_free(yl);
	g_free(title);
	g_free(what);
	return r;
}

int anp_xy(const struct anp *pl, bool bars)
{
	struct xy xy = { .bars = bars };
	GPtrArray *swept = anp_swept(pl->set);
	GArray *bs = g_array_new(FALSE, FALSE, sizeof(unsigned));
	GArray *bp = g_array_new(FALSE, FALSE, sizeof(unsigned));
	int r = -1;

	xy.facet_keys = g_ptr_array_new();
	xy.series_keys = g_ptr_array_new();
	xy.facets = g_ptr_array_new_with_free_func(g_free);
	xy.series = g_ptr_array_new_with_free_func(g_free);
	xy.xcats = g_ptr_array_new_with_free_func(g_free);
	xy.panels = g_ptr_array_new_with_free_func(g_free);
	xy.cells = g_array_new(FALSE, FALSE, sizeof(struct cell));
	if (xy_resolve(pl, &xy, swept))
		goto out;
	xy_cells(pl, &xy);
	if (!xy.cells->len) {
		g_string_append_printf(pl->notes, "%s: no configuration has %s and %s\n",
				       pl->spec->name, xy.y, xy.x);
		r = 0;
		goto out;
	}
	r = xy_data(pl, &xy, bs, bp) || xy_script(pl, &xy, bs, bp) ? -1 : 1;
out:
	g_array_free(bs, TRUE);
	g_array_free(bp, TRUE);
	g_ptr_array_free(swept, TRUE);
	g_ptr_array_free(xy.facet_keys, TRUE);
	g_ptr_array_free(xy.series_keys, TRUE);
	g_ptr_array_free(xy.facets, TRUE);
	g_ptr_array_free(xy.series, TRUE);
	g_ptr_array_free(xy.xcats, TRUE);
	g_ptr_array_free(xy.panels, TRUE);
	g_array_free(xy.cells, TRUE);
	return r;
}
