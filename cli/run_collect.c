/*
 * run_collect.c — the collect step that `zonelab run`, `collect` and `plot`
 * share: read DIR/points/<id>.json of every point of the scenarios kept in
 * DIR, write results.csv and summary.csv (analysis/), check every
 * expectation on every point (JUnit XML on request), write report.md and
 * the plots.  No command-line parsing (cmd_collect.c, cmd_run.c) and
 * nothing here runs the simulator.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ana_plot.h"
#include "ana_results.h"
#include "cli.h"
#include "run.h"

struct verdicts {
	unsigned pass, fail, skip, missing, crashed;
	GString *fail_lines;    /* report.md list items */
	GString *junit;         /* <testsuite> elements */
	GString *table;         /* report.md expectation table rows */
};

static char *xml(const char *s)
{
	return g_markup_escape_text(s, -1);
}

static void check_scenario(const char *dir, const struct scn *s, struct ana_set *set,
			   struct verdicts *v)
{
	GString *cases = g_string_new(NULL);
	unsigned tests = 0, fails = 0, skips = 0;
	unsigned *ep = g_new0(unsigned, s->expects->len + 1), *ef = g_new0(unsigned,
									s->expects->len + 1);
	unsigned *es = g_new0(unsigned, s->expects->len + 1);

	for (unsigned i = 0; i < s->nr_points; i++) {
		struct scn_point p;
		char *path, *label, *cls, *xl;
		GError *e = NULL;
		const struct ana_point *ap;
		bool ran;

		scn_point_init(s, i, &p);
		label = scn_point_label(&p);
		path = g_strdup_printf("%s/points/%s.json", dir, p.id);
		cls = g_strdup_printf("%s.%s", s->name, p.id);
		xl = xml(cls);
		tests++;
		if (!g_file_test(path, G_FILE_TEST_EXISTS) || ana_set_add_file(set, path, &e)) {
			char *m = e ? xml(e->message) : g_strdup("not run (no point file)");

			if (e)
				fprintf(stderr, "zonelab: %s\n", e->message);
			g_clear_error(&e);
			v->missing++;
			fails++;
			g_string_append_printf(cases, "    <testcase classname=\"%s\" name=\"ran\">"
					       "<failure message=\"%s\"/></testcase>\n", xl, m);
			g_string_append_printf(v->fail_lines, "- %s, point %s (%s seed=%llu): not "
					       "run or unreadable\n", s->name, p.id, label,
					       (unsigned long long)p.seed);
			g_free(m);
			goto next;
		}
		ap = set->points->pdata[set->points->len - 1];
		ran = ap->exit_status == 0 || ap->exit_status == 1;
		if (!ran) {
			const struct zl_json_leaf *se = zl_json_get(ap->json, "point.stderr");
			char *m = g_strdup_printf("zonelab sim exited with %d: %s", ap->exit_status,
						  se ? se->text : "");
			char *xm = xml(m);

			v->crashed++;
			fails++;
			g_string_append_printf(cases, "    <testcase classname=\"%s\" name=\"ran\">"
					       "<failure message=\"%s\"/></testcase>\n", xl, xm);
			g_string_append_printf(v->fail_lines, "- %s, point %s (%s seed=%llu): %s\n",
					       s->name, p.id, label, (unsigned long long)p.seed, m);
			g_free(m);
			g_free(xm);
		} else {
			g_string_append_printf(cases, "    <testcase classname=\"%s\" name=\"ran\"/>\n",
					       xl);
		}
		for (guint k = 0; k < s->expects->len; k++) {
			const struct scn_expect *x = s->expects->pdata[k];
			char *msg = NULL, *xn = xml(x->name), *xt = xml(x->text);
			enum scn_verdict vd = scn_expect_eval(x, ap->json, &msg);
			char *xm = xml(msg ? msg : "");

			tests++;
			switch (vd) {
			case SCN_PASS:
				v->pass++;
				ep[k]++;
				g_string_append_printf(cases, "    <testcase classname=\"%s\" "
						       "name=\"%s\"/>\n", xl, xn);
				break;
			case SCN_SKIP:
				v->skip++;
				es[k]++;
				skips++;
				g_string_append_printf(cases, "    <testcase classname=\"%s\" name=\"%s\">"
						       "<skipped message=\"%s\"/></testcase>\n", xl, xn, xm);
				break;
			case SCN_FAIL:
				v->fail++;
				ef[k]++;
				fails++;
				g_string_append_printf(cases, "    <testcase classname=\"%s\" name=\"%s\">"
						       "<failure message=\"%s\">%s</failure></testcase>\n",
						       xl, xn, xm, xt);
				g_string_append_printf(v->fail_lines, "- %s, point %s (%s seed=%llu): "
						       "%s: %s\n", s->name, p.id, label,
						       (unsigned long long)p.seed, x->name, msg);
				break;
			}
			g_free(msg);
			g_free(xn);
			g_free(xt);
			g_free(xm);
		}
next:
		g_free(xl);
		g_free(cls);
		g_free(path);
		g_free(label);
		scn_point_fini(&p);
	}
	{
		char *xs = xml(s->name);

		g_string_append_printf(v->junit, "  <testsuite name=\"%s\" tests=\"%u\" "
				       "failures=\"%u\" errors=\"0\" skipped=\"%u\">\n%s  </testsuite>\n",
				       xs, tests, fails, skips, cases->str);
		g_free(xs);
	}
	for (guint k = 0; k < s->expects->len; k++) {
		const struct scn_expect *x = s->expects->pdata[k];

		g_string_append_printf(v->table, "| %s | %s | `%s` | %u | %u | %u |\n", s->name,
				       x->name, x->text, ep[k], ef[k], es[k]);
	}
	g_free(ep);
	g_free(ef);
	g_free(es);
	g_string_free(cases, TRUE);
}

static void fmt_ci(GString *g, const struct ana_group *gr, const char *m, double scale,
		   const char *fmt)
{
	double *x = g_new(double, gr->points->len + 1), mean, ci;
	unsigned n = 0;

	for (guint i = 0; i < gr->points->len; i++) {
		double v = ana_point_num(gr->points->pdata[i], m);

		if (!isnan(v))
			x[n++] = v / scale;
	}
	ana_mean_ci95(x, n, &mean, &ci);
	g_string_append(g, " ");
	if (isnan(mean))
		g_string_append(g, "–");
	else
		g_string_append_printf(g, fmt, mean);
	if (!isnan(ci)) {
		g_string_append(g, " ± ");
		g_string_append_printf(g, fmt, ci);
	}
	g_string_append(g, " |");
	g_free(x);
}

/* A cell of a [table NAME] column: the mean (± CI) of a number over the
 * group's points, a text leaf as the first point has it, "–" if none has it.
 * Returns whether any point has the leaf. */
static bool table_cell(GString *g, const struct ana_group *gr, const char *m)
{
	for (guint i = 0; i < gr->points->len; i++) {
		const struct ana_point *p = gr->points->pdata[i];
		const struct zl_json_leaf *l = zl_json_get(p->json, m);

		if (!l || l->kind == ZL_JSON_NULL)
			continue;
		if (l->kind == ZL_JSON_NUM || l->kind == ZL_JSON_BOOL) {
			fmt_ci(g, gr, m, 1, "%.4g");
			return true;
		}
		g_string_append_c(g, ' ');
		for (const char *c = l->text; *c; c++) {
			if (*c == '|')
				g_string_append_c(g, '\\');
			g_string_append_c(g, *c == '\n' ? ' ' : *c);
		}
		g_string_append(g, " |");
		return true;
	}
	g_string_append(g, " – |");
	return false;
}

/* The scenarios' own tables ([table NAME], scenarios/scn_table.c): one row
 * per configuration of the scenario; a column no point has is a note. */
static void write_tables(GString *g, GPtrArray *scns, const struct ana_set *set,
			 GString *notes)
{
	for (guint i = 0; scns && i < scns->len; i++) {
		const struct scn *s = scns->pdata[i];

		for (guint k = 0; k < s->tables->len; k++) {
			const struct scn_table *t = s->tables->pdata[k];
			bool *seen = g_new0(bool, t->columns->len);

			g_string_append_printf(g, "## %s (scenario %s)\n\n", t->name, s->name);
			if (t->title)
				g_string_append_printf(g, "%s\n\n", t->title);
			g_string_append(g, "Mean ± 95% CI over the seeds.\n\n| configuration | seeds |");
			for (guint c = 0; c < t->columns->len; c++)
				g_string_append_printf(g, " %s |", (char *)t->columns->pdata[c]);
			g_string_append(g, "\n|---|---|");
			for (guint c = 0; c < t->columns->len; c++)
				g_string_append(g, "---|");
			g_string_append_c(g, '\n');
			for (guint j = 0; j < set->groups->len; j++) {
				const struct ana_group *gr = set->groups->pdata[j];

				if (strcmp(gr->scenario, s->name))
					continue;
				g_string_append_printf(g, "| %s | %u |", gr->label, gr->points->len);
				for (guint c = 0; c < t->columns->len; c++)
					seen[c] |= table_cell(g, gr, t->columns->pdata[c]);
				g_string_append_c(g, '\n');
			}
			g_string_append_c(g, '\n');
			for (guint c = 0; c < t->columns->len; c++)
				if (!seen[c])
					g_string_append_printf(notes, "table %s: column '%s' is in no "
							       "point of scenario %s\n", t->name,
							       (char *)t->columns->pdata[c], s->name);
			g_free(seen);
		}
	}
}

static int write_report(const char *dir, GPtrArray *scns, const struct ana_set *set,
			const struct verdicts *v, GPtrArray *made, const GString *notes,
			GString *tnotes)
{
	GString *g = g_string_new("# zonelab results\n\n");
	char *path = g_build_filename(dir, "report.md", NULL);
	GError *e = NULL;
	int r = 0;

	g_string_append(g, "Written by `zonelab run` / `zonelab collect` (docs/SCENARIOS.md, "
			"docs/ANALYSIS.md). Every point's JSON is in `points/`, one row per point "
			"in `results.csv`, mean and 95% confidence interval over the seeds in "
			"`summary.csv`.\n\n## Scenarios\n\n"
			"| scenario | description | points | seeds | expectations |\n|---|---|---|---|---|\n");
	for (guint i = 0; i < scns->len; i++) {
		const struct scn *s = scns->pdata[i];

		g_string_append_printf(g, "| %s | %s | %u | %u | %u |\n", s->name,
				       s->description ? s->description : "", s->nr_points,
				       s->seeds->len, s->expects->len);
	}
	g_string_append_printf(g, "\n## Expectations\n\n%u passed, %u failed, %u not applicable; "
			       "%u points missing, %u points where `zonelab sim` did not finish."
			       "\n\n", v->pass, v->fail, v->skip, v->missing, v->crashed);
	if (v->table->len)
		g_string_append_printf(g, "| scenario | expectation | expression | passed | "
				       "failed | n/a |\n|---|---|---|---|---|---|\n%s\n",
				       v->table->str);
	if (v->fail_lines->len)
		g_string_append_printf(g, "Failures:\n\n%s\n", v->fail_lines->str);
	g_string_append(g, "## Summary (mean ± 95% CI over the seeds)\n\n"
			"| scenario | configuration | seeds | WA (data) | WA (total) | "
			"reorder p99 (us) | free-zone resets | error |\n|---|---|---|---|---|---|---|---|\n");
	for (guint i = 0; i < set->groups->len; i++) {
		const struct ana_group *gr = set->groups->pdata[i];
		const struct ana_point *p0 = gr->points->pdata[0];
		const struct zl_json_leaf *err = zl_json_get(p0->json, "error");

		g_string_append_printf(g, "| %s | %s | %u |", gr->scenario, gr->label,
				       gr->points->len);
		fmt_ci(g, gr, "wa.data", 1, "%.3f");
		fmt_ci(g, gr, "wa.total", 1, "%.3f");
		fmt_ci(g, gr, "reorder_latency_ns.p99", 1e3, "%.1f");
		fmt_ci(g, gr, "device.zone_resets", 1, "%.0f");
		g_string_append_printf(g, " %s |\n", err ? err->text : "–");
	}
	g_string_append_c(g, '\n');
	write_tables(g, scns, set, tnotes);
	g_string_append(g, "## Plots\n\n");
	for (guint i = 0; i < made->len; i++)
		g_string_append_printf(g, "![%s](plots/%s.png)\n\n`plots/%s.png`, `.svg`; script "
				       "`plots/%s.gp`, data `plots/%s.dat`\n\n",
				       (char *)made->pdata[i], (char *)made->pdata[i],
				       (char *)made->pdata[i], (char *)made->pdata[i],
				       (char *)made->pdata[i]);
	for (const GString *n = notes; n; n = n == notes ? tnotes : NULL) {
		char **lines = g_strsplit(n->str, "\n", -1);

		for (char **l = lines; *l; l++)
			if (**l)
				g_string_append_printf(g, "- %s\n", *l);
		g_strfreev(lines);
	}
	if (!g_file_set_contents(path, g->str, (gssize)g->len, &e)) {
		fprintf(stderr, "zonelab: %s\n", e->message);
		g_error_free(e);
		r = -1;
	}
	g_free(path);
	g_string_free(g, TRUE);
	return r;
}

/* The built-in plots, then each scenario's own (a name seen before replaces it). */
static GPtrArray *plot_specs(const struct ana_set *set, GPtrArray *scns)
{
	GPtrArray *specs = g_ptr_array_new_with_free_func((GDestroyNotify)ana_plot_spec_free);

	ana_plot_defaults(set, specs);
	for (guint i = 0; scns && i < scns->len; i++) {
		const struct scn *s = scns->pdata[i];

		for (guint k = 0; k < s->plots->len; k++) {
			const struct ana_plot_spec *p = s->plots->pdata[k];
			struct ana_plot_spec *c = ana_plot_spec_dup(p);

			for (guint j = 0; j < specs->len; j++)
				if (!strcmp(((struct ana_plot_spec *)specs->pdata[j])->name, c->name))
					g_ptr_array_remove_index(specs, j--);
			g_ptr_array_add(specs, c);
		}
	}
	return specs;
}

int run_draw(const char *dir, const struct ana_set *set, GPtrArray *scns, GPtrArray *made,
	     GString *notes, bool quiet)
{
	char *pdir = g_build_filename(dir, "plots", NULL);
	GPtrArray *specs = plot_specs(set, scns);
	GError *e = NULL;
	int r = ana_plot_all(set, specs, pdir, false, made, notes, &e);

	if (r < 0) {
		fprintf(stderr, "zonelab: plot: %s\n", e->message);
		g_error_free(e);
	}
	if (!quiet && notes->len)
		fprintf(stderr, "zonelab: plot: %s", notes->str);
	g_free(pdir);
	g_ptr_array_free(specs, TRUE);
	return r;
}

int run_collect(const char *dir, GPtrArray *scns, const struct run_collect_opts *o)
{
	struct verdicts v = { .fail_lines = g_string_new(NULL), .junit = g_string_new(NULL),
			      .table = g_string_new(NULL) };
	struct ana_set *set = ana_set_create();
	GPtrArray *made = g_ptr_array_new_with_free_func(g_free);
	GString *notes = g_string_new(NULL), *tnotes = g_string_new(NULL);
	char *res = g_build_filename(dir, "results.csv", NULL);
	char *sum = g_build_filename(dir, "summary.csv", NULL);
	GError *e = NULL;
	int r = 2;

	for (guint i = 0; i < scns->len; i++)
		check_scenario(dir, scns->pdata[i], set, &v);
	ana_set_group(set);
	if (ana_write_results(set, res, &e) || ana_write_summary(set, sum, &e)) {
		fprintf(stderr, "zonelab: %s\n", e->message);
		g_error_free(e);
		goto out;
	}
	if (o->junit) {
		char *x = g_strdup_printf("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
					  "<testsuites name=\"zonelab\" tests=\"%u\" failures=\"%u\">\n"
					  "%s</testsuites>\n", v.pass + v.fail + v.skip + v.missing,
					  v.fail + v.missing + v.crashed, v.junit->str);

		if (!g_file_set_contents(o->junit, x, -1, &e)) {
			fprintf(stderr, "zonelab: %s\n", e->message);
			g_error_free(e);
			g_free(x);
			goto out;
		}
		g_free(x);
	}
	if (!o->no_plots && run_draw(dir, set, scns, made, notes, o->quiet) < 0)
		goto out;
	if (write_report(dir, scns, set, &v, made, notes, tnotes))
		goto out;
	if (!o->quiet && tnotes->len)
		fprintf(stderr, "zonelab: %s", tnotes->str);
	if (v.fail_lines->len)
		fprintf(stderr, "zonelab: expectations not met:\n%s", v.fail_lines->str);
	if (!o->quiet)
		printf("zonelab: %u points; expectations: %u passed, %u failed, %u n/a; %u missing"
		       "\n  report:  %s/report.md\n  tables:  %s/results.csv %s/summary.csv\n"
		       "  plots:   %s/plots/ (%u)\n", set->points->len, v.pass, v.fail, v.skip,
		       v.missing, dir, dir, dir, dir, made->len);
	r = o->check && (v.fail || v.missing || v.crashed) ? 1 : 0;
out:
	g_free(res);
	g_free(sum);
	g_string_free(notes, TRUE);
	g_string_free(tnotes, TRUE);
	g_ptr_array_free(made, TRUE);
	ana_set_destroy(set);
	g_string_free(v.fail_lines, TRUE);
	g_string_free(v.junit, TRUE);
	g_string_free(v.table, TRUE);
	return r;
}
