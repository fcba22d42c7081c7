/*
 * ana_plot_cmp.c — `zonelab compare A B --plot`: a metric of every
 * configuration before (A) and after (B), mean and 95% CI over the seeds
 * each, as a forest plot (one row per configuration, labels horizontal on
 * the left, the change in percent on the right axis).  Configurations are
 * matched by scenario and label; one side only is drawn alone, with no
 * change.  Not here: the point-by-point table (cli/cmd_compare.c).
 */
#include <math.h>
#include <string.h>

#include "ana_plot_int.h"

static const struct ana_group *match(const struct ana_set *set, const struct ana_group *g)
{
	for (guint i = 0; i < set->groups->len; i++) {
		const struct ana_group *h = set->groups->pdata[i];

		if (!strcmp(h->scenario, g->scenario) && !strcmp(h->label, g->label))
			return h;
	}
	return NULL;
}

int ana_plot_compare(const struct ana_set *a, const struct ana_set *b, const char *metric,
		     const char *dir, const char *name, GError **err)
{
	struct ana_plot_spec spec = { .name = (char *)name, .y = (char *)metric };
	struct anp pl = { .set = b, .spec = &spec, .dir = dir, .err = err };
	GPtrArray *rows = g_ptr_array_new();   /* struct ana_group * of B, then of A only */
	unsigned label_chars = 8, n;
	struct anp_frame fr;
	double scale;
	char *xl = anp_axis(metric, &scale), *title = NULL, *what;
	FILE *d = NULL, *f;
	int r = -1;

	if (!g_ptr_array_find_with_equal_func(a->metrics, metric, g_str_equal, NULL) &&
	    !g_ptr_array_find_with_equal_func(b->metrics, metric, g_str_equal, NULL)) {
		anp_spec_error(&pl, "unknown metric '%s' in both directories", metric);
		goto out;
	}
	for (guint i = 0; i < b->groups->len; i++)
		g_ptr_array_add(rows, b->groups->pdata[i]);
	for (guint i = 0; i < a->groups->len; i++)
		if (!match(b, a->groups->pdata[i]))
			g_ptr_array_add(rows, a->groups->pdata[i]);
	n = rows->len;
	if (!n) {
		anp_spec_error(&pl, "no points in either directory");
		goto out;
	}
	d = anp_open(&pl, "dat");
	if (!d)
		goto out;
	fprintf(d, "# %s per configuration: before (A) and after (B), mean and 95%% CI over the "
		"seeds, change in percent\n# row A_mean A_ci95 B_mean B_ci95 change_pct "
		"\"configuration\"\n", metric);
	for (guint i = 0; i < n; i++) {
		const struct ana_group *g = rows->pdata[i];
		const struct ana_group *ga = match(a, g), *gb = match(b, g);
		double ma = NAN, ca = NAN, mb = NAN, cb = NAN;
		char *q;

		if (ga)
			anp_group_mean(ga, metric, &ma, &ca);
		if (gb)
			anp_group_mean(gb, metric, &mb, &cb);
		q = anp_quote(g->label);
		fprintf(d, "%u %.6g %.6g %.6g %.6g %.6g %s\n", n - 1 - i, ma * scale,
			isnan(ca) ? 0 : ca * scale, mb * scale, isnan(cb) ? 0 : cb * scale,
			ma ? (mb - ma) / fabs(ma) * 100 : NAN, q);
		label_chars = MAX(label_chars, (unsigned)strlen(g->label));
		g_free(q);
	}
	if (anp_close(&pl, d, "dat"))
		goto out;
	what = g_strdup_printf("%s before (A) and after (B), mean and 95%% CI", metric);
	anp_frame_init(&fr, 1, 1, 520 + label_chars * 8, 90 + n * 20, ANP_KEY_W, false, NULL);
	title = anp_title(b, what, fr.width);
	anp_frame_init(&fr, 1, 1, 520 + label_chars * 8, 90 + n * 20, ANP_KEY_W, false, title);
	f = anp_open(&pl, "gp");
	if (!f) {
		g_free(what);
		goto out;
	}
	anp_begin(f, &pl, &fr, what, title);
	g_free(what);
	anp_panel(f, &fr, 0, "");
	{
		char *q = anp_quote(xl);

		fprintf(f, "  set lmargin at screen %.4f\n  set rmargin at screen %.4f\n"
			"  set xlabel %s\n  set border 11\n  set yrange [-0.7:%u.7]\n"
			"  set ytics scale 0\n  set y2tics scale 0\n  set y2range [-0.7:%u.7]\n"
			"  set y2label \"change B vs A\"\n"
			"  plot \"%s.dat\" using 2:1:3:ytic(7) with xerrorbars pt 7 ps 1 lc rgb "
			"\"#0072B2\" title \"A (before)\", \\\n"
			"    \"\" using 4:($1-0.25):5 with xerrorbars pt 5 ps 1 lc rgb \"#D55E00\" "
			"title \"B (after)\", \\\n"
			"    \"\" using (NaN):1:y2tic(sprintf(\"%%+.1f%%%%\", $6)) axes x1y2 notitle\n",
			(label_chars * 7.4 + 16) / fr.width,
			(fr.cell_w - 80.0) / fr.width, q, n - 1, n - 1, name);
		g_free(q);
	}
	anp_end(f);
	r = anp_close(&pl, f, "gp");
out:
	g_free(xl);
	g_free(title);
	g_ptr_array_free(rows, TRUE);
	return r;
}
