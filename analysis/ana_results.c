/*
 * ana_results.c — the points of a result directory as a table: read the
 * point files, group replicates (same scenario and parameters, other
 * seed), write results.csv (one row per point, every parameter and every
 * metric as the JSON wrote it) and summary.csv (per group: mean and 95%
 * confidence interval of every numeric metric).  Plots: ana_plot.c.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "ana_results.h"

G_DEFINE_QUARK(ana-error-quark, ana_error)

static void point_free(gpointer data)
{
	struct ana_point *p = data;

	g_free(p->id);
	g_free(p->scenario);
	g_free(p->label);
	g_ptr_array_free(p->pkeys, TRUE);
	g_ptr_array_free(p->pvals, TRUE);
	zl_json_destroy(p->json);
	g_free(p->csv_path);
	g_free(p);
}

static void group_free(gpointer data)
{
	struct ana_group *g = data;

	g_ptr_array_free(g->points, TRUE);
	g_free(g);
}

struct ana_set *ana_set_create(void)
{
	struct ana_set *set = g_new0(struct ana_set, 1);

	set->points = g_ptr_array_new_with_free_func(point_free);
	set->param_keys = g_ptr_array_new_with_free_func(g_free);
	set->metrics = g_ptr_array_new_with_free_func(g_free);
	set->groups = g_ptr_array_new_with_free_func(group_free);
	return set;
}

void ana_set_destroy(struct ana_set *set)
{
	if (!set)
		return;
	g_ptr_array_free(set->groups, TRUE);
	g_ptr_array_free(set->points, TRUE);
	g_ptr_array_free(set->param_keys, TRUE);
	g_ptr_array_free(set->metrics, TRUE);
	g_free(set);
}

static bool has_str(GPtrArray *a, const char *s)
{
	for (guint i = 0; i < a->len; i++)
		if (!strcmp(a->pdata[i], s))
			return true;
	return false;
}

static const char *leaf_text(const struct zl_json_doc *j, const char *path, const char *dflt)
{
	const struct zl_json_leaf *l = zl_json_get(j, path);

	return l ? l->text : dflt;
}

int ana_set_add(struct ana_set *set, const char *text, size_t len, const char *csv_path,
		GError **err)
{
	struct zl_json_doc *j = zl_json_parse(text, len, err);
	struct ana_point *p;
	const char *pre = "point.params.";

	if (!j)
		return -1;
	if (!zl_json_get(j, "point.id") || !zl_json_get(j, "point.scenario")) {
		g_set_error(err, ANA_ERROR, ANA_ERROR_SYNTAX, "no point.id or point.scenario: "
			    "not a point file of `zonelab run`");
		zl_json_destroy(j);
		return -1;
	}
	p = g_new0(struct ana_point, 1);
	p->json = j;
	p->id = g_strdup(leaf_text(j, "point.id", ""));
	p->scenario = g_strdup(leaf_text(j, "point.scenario", ""));
	p->label = g_strdup(leaf_text(j, "point.label", "-"));
	p->index = (unsigned)g_ascii_strtoull(leaf_text(j, "point.index", "0"), NULL, 10);
	p->seed = g_ascii_strtoull(leaf_text(j, "point.seed", "0"), NULL, 10);
	p->exit_status = (int)g_ascii_strtoll(leaf_text(j, "point.exit_status", "-1"), NULL, 10);
	p->pkeys = g_ptr_array_new_with_free_func(g_free);
	p->pvals = g_ptr_array_new_with_free_func(g_free);
	p->csv_path = g_strdup(csv_path);
	for (guint i = 0; i < j->leaves->len; i++) {
		const struct zl_json_leaf *l = j->leaves->pdata[i];

		if (g_str_has_prefix(l->path, pre)) {
			g_ptr_array_add(p->pkeys, g_strdup(l->path + strlen(pre)));
			g_ptr_array_add(p->pvals, g_strdup(l->text));
			if (!has_str(set->param_keys, l->path + strlen(pre)))
				g_ptr_array_add(set->param_keys, g_strdup(l->path + strlen(pre)));
		} else if (!g_str_has_prefix(l->path, "point.") && !ana_path_is_hist(l->path) &&
			   !has_str(set->metrics, l->path)) {
			g_ptr_array_add(set->metrics, g_strdup(l->path));
		}
	}
	g_ptr_array_add(set->points, p);
	return 0;
}

int ana_set_add_file(struct ana_set *set, const char *path, GError **err)
{
	char *text, *csv = NULL;
	gsize len;
	GError *e = NULL;
	int r;

	if (!g_file_get_contents(path, &text, &len, err))
		return -1;
	if (g_str_has_suffix(path, ".json")) {
		char *stem = g_strndup(path, strlen(path) - 5);

		csv = g_strconcat(stem, ".csv", NULL);
		g_free(stem);
	}
	r = ana_set_add(set, text, len, csv && g_file_test(csv, G_FILE_TEST_EXISTS) ? csv : NULL,
			&e);
	if (r) {
		g_set_error(err, ANA_ERROR, ANA_ERROR_SYNTAX, "%s: %s", path, e->message);
		g_error_free(e);
	}
	g_free(csv);
	g_free(text);
	return r;
}

void ana_set_group(struct ana_set *set)
{
	g_ptr_array_set_size(set->groups, 0);
	for (guint i = 0; i < set->points->len; i++) {
		struct ana_point *p = set->points->pdata[i];
		struct ana_group *g = NULL;

		for (guint k = 0; k < set->groups->len && !g; k++) {
			struct ana_group *h = set->groups->pdata[k];

			if (!strcmp(h->scenario, p->scenario) && !strcmp(h->label, p->label))
				g = h;
		}
		if (!g) {
			g = g_new0(struct ana_group, 1);
			g->scenario = p->scenario;
			g->label = p->label;
			g->points = g_ptr_array_new();
			g_ptr_array_add(set->groups, g);
		}
		g_ptr_array_add(g->points, p);
	}
}

/* Student t, 97.5% quantile, by degrees of freedom (1..30), then steps. */
static double t975(unsigned df)
{
	static const double t[] = {
		0, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
		2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
		2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
	};

	if (df < G_N_ELEMENTS(t))
		return t[df];
	if (df < 40)
		return 2.021;
	if (df < 60)
		return 2.000;
	if (df < 120)
		return 1.980;
	return 1.960;
}

void ana_mean_ci95(const double *x, unsigned n, double *mean, double *ci95)
{
	double s = 0, ss = 0;

	*mean = NAN;
	*ci95 = NAN;
	if (!n)
		return;
	for (unsigned i = 0; i < n; i++)
		s += x[i];
	*mean = s / n;
	if (n < 2)
		return;
	for (unsigned i = 0; i < n; i++)
		ss += (x[i] - *mean) * (x[i] - *mean);
	*ci95 = t975(n - 1) * sqrt(ss / (n - 1)) / sqrt(n);
}

double ana_point_num(const struct ana_point *p, const char *path)
{
	const struct zl_json_leaf *l = zl_json_get(p->json, path);

	return l && (l->kind == ZL_JSON_NUM || l->kind == ZL_JSON_BOOL) ? l->num : NAN;
}

static void csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static const char *param_of(const struct ana_point *p, const char *key)
{
	for (guint i = 0; i < p->pkeys->len; i++)
		if (!strcmp(p->pkeys->pdata[i], key))
			return p->pvals->pdata[i];
	return "";
}

static int close_checked(FILE *f, const char *path, GError **err)
{
	bool bad = ferror(f);

	if (fclose(f) || bad) {
		g_set_error(err, ANA_ERROR, ANA_ERROR_IO, "%s: write error", path);
		return -1;
	}
	return 0;
}

static FILE *open_w(const char *path, GError **err)
{
	FILE *f = fopen(path, "w");

	if (!f)
		g_set_error(err, ANA_ERROR, ANA_ERROR_IO, "%s: %s", path, g_strerror(errno));
	return f;
}

int ana_write_results(const struct ana_set *set, const char *path, GError **err)
{
	FILE *f = open_w(path, err);

	if (!f)
		return -1;
	fputs("id,scenario,index,label,exit_status", f);
	for (guint k = 0; k < set->param_keys->len; k++) {
		fputc(',', f);
		csv_field(f, set->param_keys->pdata[k]);
	}
	for (guint k = 0; k < set->metrics->len; k++) {
		fputc(',', f);
		csv_field(f, set->metrics->pdata[k]);
	}
	fputc('\n', f);
	for (guint i = 0; i < set->points->len; i++) {
		const struct ana_point *p = set->points->pdata[i];

		csv_field(f, p->id);
		fputc(',', f);
		csv_field(f, p->scenario);
		fprintf(f, ",%u,", p->index);
		csv_field(f, p->label);
		fprintf(f, ",%d", p->exit_status);
		for (guint k = 0; k < set->param_keys->len; k++) {
			fputc(',', f);
			csv_field(f, param_of(p, set->param_keys->pdata[k]));
		}
		for (guint k = 0; k < set->metrics->len; k++) {
			const struct zl_json_leaf *l = zl_json_get(p->json, set->metrics->pdata[k]);

			fputc(',', f);
			if (l)
				csv_field(f, l->text);
		}
		fputc('\n', f);
	}
	return close_checked(f, path, err);
}

/* Metrics worth a mean: numeric in every point that has them, not config. */
static bool metric_is_summable(const struct ana_set *set, const char *m)
{
	bool any = false;

	if (g_str_has_prefix(m, "config."))
		return false;
	for (guint i = 0; i < set->points->len; i++) {
		const struct ana_point *p = set->points->pdata[i];
		const struct zl_json_leaf *l = zl_json_get(p->json, m);

		if (!l)
			continue;
		if (l->kind != ZL_JSON_NUM)
			return false;
		any = true;
	}
	return any;
}

int ana_write_summary(const struct ana_set *set, const char *path, GError **err)
{
	GPtrArray *ms = g_ptr_array_new();
	FILE *f = open_w(path, err);
	double *x = g_new(double, set->points->len + 1);

	if (!f) {
		g_ptr_array_free(ms, TRUE);
		g_free(x);
		return -1;
	}
	for (guint k = 0; k < set->metrics->len; k++)
		if (metric_is_summable(set, set->metrics->pdata[k]))
			g_ptr_array_add(ms, set->metrics->pdata[k]);
	fputs("scenario,label", f);
	for (guint k = 0; k < set->param_keys->len; k++)
		if (strcmp(set->param_keys->pdata[k], "seed")) {
			fputc(',', f);
			csv_field(f, set->param_keys->pdata[k]);
		}
	fputs(",n", f);
	for (guint k = 0; k < ms->len; k++)
		fprintf(f, ",%s.mean,%s.ci95", (char *)ms->pdata[k], (char *)ms->pdata[k]);
	fputc('\n', f);
	for (guint g = 0; g < set->groups->len; g++) {
		const struct ana_group *gr = set->groups->pdata[g];
		const struct ana_point *p0 = gr->points->pdata[0];

		csv_field(f, gr->scenario);
		fputc(',', f);
		csv_field(f, gr->label);
		for (guint k = 0; k < set->param_keys->len; k++)
			if (strcmp(set->param_keys->pdata[k], "seed")) {
				fputc(',', f);
				csv_field(f, param_of(p0, set->param_keys->pdata[k]));
			}
		fprintf(f, ",%u", gr->points->len);
		for (guint k = 0; k < ms->len; k++) {
			unsigned n = 0;
			double mean, ci;

			for (guint i = 0; i < gr->points->len; i++) {
				double v = ana_point_num(gr->points->pdata[i], ms->pdata[k]);

				if (!isnan(v))
					x[n++] = v;
			}
			ana_mean_ci95(x, n, &mean, &ci);
			if (isnan(mean))
				fputs(",,", f);
			else if (isnan(ci))
				fprintf(f, ",%.6g,", mean);
			else
				fprintf(f, ",%.6g,%.6g", mean, ci);
		}
		fputc('\n', f);
	}
	g_free(x);
	g_ptr_array_free(ms, TRUE);
	return close_checked(f, path, err);
}
