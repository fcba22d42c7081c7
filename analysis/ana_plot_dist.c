/*
 * ana_plot_dist.c — the cdf kind: the whole distribution of a histogram
 * the simulator keeps in a point's JSON (PATH.hist.lo / .hi / .count, the
 * non-empty buckets: reorder_latency_ns, replay.requests.<op>.latency_ns),
 * one line per configuration with its seeds' counts summed, on a log x
 * axis; --ccdf draws 1 - F on log-log axes for the tail.  Within a bucket
 * the line is straight from (lo, F before) to (hi, F after), the same
 * assumption ana_hist_quantile() makes.  Configurations beyond
 * ANA_PLOT_MAX_SERIES go to further panels.
 */
#include <math.h>
#include <string.h>

#include "ana_plot_int.h"

struct bucket {
	double lo, hi, count;
};

static int cmp_bucket(const void *a, const void *b)
{
	const struct bucket *p = a, *q = b;

	return (p->lo > q->lo) - (p->lo < q->lo);
}

/* Add @p's histogram at @path into @bs; the number of buckets read. */
static unsigned hist_add(const struct ana_point *p, const char *path, GArray *bs)
{
	unsigned n = 0;

	for (;; n++) {
		char *k[3];
		const struct zl_json_leaf *l[3];

		k[0] = g_strdup_printf("%s.hist.lo.%u", path, n);
		k[1] = g_strdup_printf("%s.hist.hi.%u", path, n);
		k[2] = g_strdup_printf("%s.hist.count.%u", path, n);
		for (int i = 0; i < 3; i++) {
			l[i] = zl_json_get(p->json, k[i]);
			g_free(k[i]);
		}
		if (!l[0] || !l[1] || !l[2] || l[0]->kind != ZL_JSON_NUM || l[1]->kind != ZL_JSON_NUM ||
		    l[2]->kind != ZL_JSON_NUM || l[2]->num < 0 || l[1]->num < l[0]->num)
			break;
		for (guint i = 0; i <= bs->len; i++) {
			struct bucket *b = i < bs->len ? &g_array_index(bs, struct bucket, i) : NULL;

			if (b && b->lo == l[0]->num) {
				b->count += l[2]->num;
				break;
			}
			if (!b) {
				struct bucket nb = { l[0]->num, l[1]->num, l[2]->num };

				g_array_append_val(bs, nb);
				break;
			}
		}
	}
	return n;
}

static char *list_dists(const struct ana_set *set)
{
	GPtrArray *seen = g_ptr_array_new_with_free_func(g_free);
	GString *g = g_string_new(NULL);

	for (guint i = 0; i < set->points->len && i < 4; i++) {
		const struct ana_point *p = set->points->pdata[i];

		for (guint k = 0; k < p->json->leaves->len; k++) {
			const char *path = ((struct zl_json_leaf *)p->json->leaves->pdata[k])->path;
			size_t n = strlen(path);
			bool dup = false;

			if (n < 10 || strcmp(path + n - 10, ".hist.lo.0"))
				continue;
			for (guint s = 0; s < seen->len; s++)
				dup |= !strncmp(seen->pdata[s], path, n - 10) &&
				       !((char *)seen->pdata[s])[n - 10];
			if (!dup)
				g_ptr_array_add(seen, g_strndup(path, n - 10));
		}
	}
	for (guint s = 0; s < seen->len; s++)
		g_string_append_printf(g, "%s%s", s ? " " : "", (char *)seen->pdata[s]);
	if (!seen->len)
		g_string_append(g, "(none in these points)");
	g_ptr_array_free(seen, TRUE);
	return g_string_free(g, FALSE);
}

/* Every panel shows the same series labels in the same order. */
static bool same_series(GArray *panel_of, GPtrArray *labels, unsigned nr_panels)
{
	GPtrArray *first = g_ptr_array_new();
	bool same = true;

	for (guint s = 0; s < panel_of->len; s++)
		if (!g_array_index(panel_of, unsigned, s))
			g_ptr_array_add(first, labels->pdata[s]);
	for (unsigned p = 1; p < nr_panels && same; p++) {
		unsigned k = 0;

		for (guint s = 0; s < panel_of->len && same; s++)
			if (g_array_index(panel_of, unsigned, s) == p)
				same = k < first->len && !strcmp(first->pdata[k++], labels->pdata[s]);
		same &= k == first->len;
	}
	g_ptr_array_free(first, TRUE);
	return same;
}

/* The most configurations sharing one facet label of @fkeys. */
static unsigned most_per_facet(const struct ana_set *set, GPtrArray *fkeys)
{
	GHashTable *n = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	unsigned most = 0;

	for (guint i = 0; i < set->groups->len; i++) {
		const struct ana_group *g = set->groups->pdata[i];
		char *l = anp_label(g->points->pdata[0], fkeys);
		unsigned c = GPOINTER_TO_UINT(g_hash_table_lookup(n, l)) + 1;

		most = MAX(most, c);
		g_hash_table_replace(n, l, GUINT_TO_POINTER(c));
	}
	g_hash_table_destroy(n);
	return most;
}

/* Facets until no panel has more than ANA_PLOT_MAX_SERIES configurations:
 * the numeric swept parameters first (utilization: one panel per value,
 * the policies compared inside it), then the others. */
static void choose_facets(const struct ana_set *set, GPtrArray *swept, GPtrArray *fkeys)
{
	for (int numeric = 1; numeric >= 0; numeric--)
		for (guint i = 0; i < swept->len; i++) {
			if (most_per_facet(set, fkeys) <= ANA_PLOT_MAX_SERIES)
				return;
			if (anp_param_is_numeric(set, swept->pdata[i]) == (bool)numeric)
				g_ptr_array_add(fkeys, swept->pdata[i]);
		}
}

int anp_cdf(const struct anp *pl)
{
	const struct ana_plot_spec *sp = pl->spec;
	const char *y = sp->y ? sp->y : "reorder_latency_ns";
	GPtrArray *swept = anp_swept(pl->set), *fkeys = g_ptr_array_new(), *skeys = g_ptr_array_new();
	GPtrArray *labels = g_ptr_array_new_with_free_func(g_free);
	GPtrArray *ptitles = g_ptr_array_new_with_free_func(g_free);
	GArray *panel_of = g_array_new(FALSE, FALSE, sizeof(unsigned));
	GArray *bs = g_array_new(FALSE, FALSE, sizeof(struct bucket));
	unsigned nfound = 0, nser = 0, nhist = 0, npts;
	GString *pts = g_string_new(NULL);
	bool shared;
	struct anp_frame fr;
	char *title = NULL, *what = NULL, *xl = NULL;
	double xs;
	FILE *d = NULL, *f;
	int r = -1;

	if (sp->facet && !g_ptr_array_find_with_equal_func(pl->set->param_keys, sp->facet,
							   g_str_equal, NULL)) {
		anp_spec_error(pl, "unknown parameter '%s' for --facet", sp->facet);
		goto out;
	}
	if (sp->facet)
		g_ptr_array_add(fkeys, sp->facet);
	else
		choose_facets(pl->set, swept, fkeys);
	for (guint i = 0; i < swept->len; i++)
		if (!g_ptr_array_find_with_equal_func(fkeys, swept->pdata[i], g_str_equal, NULL))
			g_ptr_array_add(skeys, swept->pdata[i]);
	d = anp_open(pl, "dat");
	if (!d)
		goto out;
	xl = anp_axis(y, &xs);
	fprintf(d, "# %s: %s per configuration, the seeds' histograms summed: one block "
		"(gnuplot index) per configuration\n# %s fraction (%s)\n", y,
		sp->ccdf ? "complementary CDF (1 - F)" : "CDF", xl, sp->ccdf ? "above" : "at or below");
	/* facets in first-seen order, series within them */
	for (guint i = 0; i < pl->set->groups->len; i++) {
		const struct ana_group *g = pl->set->groups->pdata[i];
		char *fl = anp_label(g->points->pdata[0], fkeys);
		double n = 0, cum = 0;
		unsigned panel = 0, in_panel = 0;

		g_array_set_size(bs, 0);
		for (guint k = 0; k < g->points->len; k++)
			hist_add(g->points->pdata[k], y, bs);
		for (guint k = 0; k < bs->len; k++)
			n += g_array_index(bs, struct bucket, k).count;
		if (n <= 0) {
			g_free(fl);
			continue;
		}
		nhist++;
		/* the points: two a bucket; not 0 on the log axis, nor 1 - F = 0 */
		g_array_sort(bs, cmp_bucket);
		g_string_truncate(pts, 0);
		npts = 0;
		for (guint k = 0; k < bs->len; k++) {
			struct bucket *b = &g_array_index(bs, struct bucket, k);
			double f0 = cum / n, f1 = (cum + b->count) / n;

			cum += b->count;
			if (sp->ccdf) {
				f0 = 1 - f0;
				f1 = 1 - f1;
			}
			if (b->lo > 0 && (!sp->ccdf || f0 > 0)) {
				g_string_append_printf(pts, "%.6g %.9g\n", b->lo * xs, f0);
				npts++;
			}
			if (b->hi > 0 && (!sp->ccdf || f1 > 0)) {
				g_string_append_printf(pts, "%.6g %.9g\n", b->hi * xs, f1);
				npts++;
			}
		}
		if (npts < 2) {         /* every value 0 (or in one bucket of a CCDF) */
			g_free(fl);
			continue;
		}
		nfound++;
		/* the panel: the last of this facet with room, or a new one */
		for (panel = 0; panel < ptitles->len; panel++) {
			in_panel = 0;
			for (guint s = 0; s < panel_of->len; s++)
				in_panel += g_array_index(panel_of, unsigned, s) == panel;
			if (!strcmp(ptitles->pdata[panel], fl) && in_panel < ANA_PLOT_MAX_SERIES)
				break;
		}
		if (panel == ptitles->len)
			g_ptr_array_add(ptitles, g_strdup(fl));
		g_array_append_val(panel_of, panel);
		{
			char *sl = anp_label(g->points->pdata[0], skeys);

			g_ptr_array_add(labels, *sl ? sl : g_strdup("all"));
			if (!*sl)
				g_free(sl);
		}
		fprintf(d, "# block %u: panel %u, \"%s\", %u seeds, %.0f values\n%s\n\n", nser,
			panel, (char *)labels->pdata[nser], g->points->len, n, pts->str);
		nser++;
		g_free(fl);
	}
	if (anp_close(pl, d, "dat"))
		goto out;
	if (!nfound) {
		char *l = list_dists(pl->set);

		if (!strcmp(l, "(none in these points)") || strstr(l, y) == NULL) {
			anp_spec_error(pl, "unknown distribution '%s' (no point has %s.hist); "
				       "distributions: %s", y, y, l);
			g_free(l);
			goto out;
		}
		g_free(l);
		g_string_append_printf(pl->notes, "%s: %s %s in every configuration%s\n", sp->name,
				       y, nhist ? "is 0" : "is empty",
				       g_str_has_prefix(y, "reorder") ? " (no workers?)" : "");
		r = 0;
		goto out;
	}
	what = g_strdup_printf("%s of %s, seeds merged", sp->ccdf ? "CCDF" : "CDF", y);
	shared = same_series(panel_of, labels, ptitles->len);
	anp_frame_init(&fr, ptitles->len, 3, 430, 330, ANP_KEY_W, shared, NULL);
	title = anp_title(pl->set, what, fr.width);
	anp_frame_init(&fr, ptitles->len, 3, 430, 330, ANP_KEY_W, shared, title);
	f = anp_open(pl, "gp");
	if (!f)
		goto out;
	anp_begin(f, pl, &fr, what, title);
	{
		char *q = anp_quote(xl);

		fprintf(f, "  set logscale x\n  set xlabel %s\n  set format x \"%%g\"\n", q);
		g_free(q);
	}
	if (sp->ccdf)
		fprintf(f, "  set logscale y\n  set ylabel \"fraction above (1 - F)\"\n");
	else
		fprintf(f, "  set ylabel \"fraction at or below (F)\"\n  set yrange [0:1.02]\n");
	for (guint p = 0; p < ptitles->len; p++) {
		unsigned k = 0;

		anp_panel(f, &fr, p, ptitles->pdata[p]);
		fprintf(f, "  plot \\\n");
		for (guint s = 0; s < nser; s++) {
			if (g_array_index(panel_of, unsigned, s) != p)
				continue;
			anp_line(f, sp->name, s, 2, 2, k, labels->pdata[s], !k);
			k++;
		}
		fprintf(f, "\n");
	}
	anp_end(f);
	r = anp_close(pl, f, "gp") ? -1 : 1;
out:
	g_free(title);
	g_free(what);
	g_free(xl);
	g_string_free(pts, TRUE);
	g_array_free(bs, TRUE);
	g_array_free(panel_of, TRUE);
	g_ptr_array_free(labels, TRUE);
	g_ptr_array_free(ptitles, TRUE);
	g_ptr_array_free(fkeys, TRUE);
	g_ptr_array_free(skeys, TRUE);
	g_ptr_array_free(swept, TRUE);
	return r;
}
