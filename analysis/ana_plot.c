/*
 * ana_plot.c — the plots of a result directory (ana_plot.h,
 * docs/ANALYSIS.md): the table of kinds, the built-in plots `zonelab run`
 * draws (chosen from what the points sweep), writing one plot's data and
 * script, and running gnuplot on them.  What a kind draws is its own file
 * (ana_plot_xy.c, ana_plot_dist.c, ana_plot_ts.c); the frame they share
 * is ana_plot_gp.c.
 */
#include <errno.h>
#include <string.h>

#include "ana_plot_int.h"

static int write_line(const struct anp *pl)
{
	return anp_xy(pl, false);
}

static int write_bars(const struct anp *pl)
{
	return anp_xy(pl, true);
}

/* One row per kind: its name and the function that writes it. */
const char *const ana_kind_names[ANA_NR_KINDS + 1] = {
	[ANA_KIND_LINE] = "line", [ANA_KIND_BARS] = "bars", [ANA_KIND_CDF] = "cdf",
	[ANA_KIND_TIMESERIES] = "timeseries", [ANA_KIND_ZONES] = "zones", NULL,
};
static int (*const kind_write[ANA_NR_KINDS])(const struct anp *pl) = {
	[ANA_KIND_LINE] = write_line, [ANA_KIND_BARS] = write_bars, [ANA_KIND_CDF] = anp_cdf,
	[ANA_KIND_TIMESERIES] = anp_timeseries, [ANA_KIND_ZONES] = anp_zones,
};

int ana_kind_parse(const char *s)
{
	for (int i = 0; i < ANA_NR_KINDS; i++)
		if (!strcmp(ana_kind_names[i], s))
			return i;
	return -1;
}

void ana_plot_spec_fini(struct ana_plot_spec *s)
{
	g_free(s->name);
	g_free(s->x);
	g_free(s->y);
	g_free(s->series);
	g_free(s->facet);
	g_free(s->point);
	memset(s, 0, sizeof(*s));
}

void ana_plot_spec_free(struct ana_plot_spec *s)
{
	if (!s)
		return;
	ana_plot_spec_fini(s);
	g_free(s);
}

struct ana_plot_spec *ana_plot_spec_dup(const struct ana_plot_spec *s)
{
	struct ana_plot_spec *c = g_new0(struct ana_plot_spec, 1);

	*c = *s;
	c->name = g_strdup(s->name);
	c->x = g_strdup(s->x);
	c->y = g_strdup(s->y);
	c->series = g_strdup(s->series);
	c->facet = g_strdup(s->facet);
	c->point = g_strdup(s->point);
	return c;
}

static void add(GPtrArray *specs, const char *name, enum ana_kind kind, const char *y)
{
	struct ana_plot_spec *s = g_new0(struct ana_plot_spec, 1);

	s->name = g_strdup(name);
	s->kind = kind;
	s->y = g_strdup(y);
	g_ptr_array_add(specs, s);
}

void ana_plot_defaults(const struct ana_set *set, GPtrArray *specs)
{
	(void)set;      /* x, series and facets are chosen when drawn (ana_plot_xy.c) */
	add(specs, "wa_util", ANA_KIND_LINE, "wa.data");
	add(specs, "wa_bars", ANA_KIND_BARS, "wa.data");
	add(specs, "latency_cdf", ANA_KIND_CDF, "reorder_latency_ns");
	add(specs, "timeseries", ANA_KIND_TIMESERIES, NULL);
	add(specs, "zone_timeline", ANA_KIND_ZONES, NULL);
}

int ana_plot_write(const struct ana_set *set, const struct ana_plot_spec *spec, const char *dir,
		   GPtrArray *made, GString *notes, GError **err)
{
	struct anp pl = { .set = set, .spec = spec, .dir = dir, .notes = notes, .err = err };
	int r;

	if (!set->points->len) {
		g_set_error(err, ANA_ERROR, ANA_ERROR_SPEC, "plot %s: no points to plot (points/ "
			    "is empty: run the scenario first)", spec->name);
		return -1;
	}
	if ((unsigned)spec->kind >= ANA_NR_KINDS) {
		g_set_error(err, ANA_ERROR, ANA_ERROR_SPEC, "plot %s: no such kind", spec->name);
		return -1;
	}
	r = kind_write[spec->kind](&pl);
	if (r > 0)
		g_ptr_array_add(made, g_strdup(spec->name));
	return r;
}

static int run_gnuplot(const char *dir, const char *name, GError **err)
{
	char *script = g_strdup_printf("%s.gp", name);
	char *argv[] = { "gnuplot", script, NULL };
	char *out = NULL, *errs = NULL;
	GError *e = NULL;
	int status = 0, r = 0;

	if (!g_spawn_sync(dir, argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, &errs,
			  &status, &e)) {
		g_set_error(err, ANA_ERROR, ANA_ERROR_IO, "gnuplot %s: %s", script, e->message);
		g_error_free(e);
		r = -1;
	} else if (!g_spawn_check_wait_status(status, NULL)) {
		g_set_error(err, ANA_ERROR, ANA_ERROR_IO, "gnuplot %s/%s failed: %s", dir, script,
			    errs ? errs : "");
		r = -1;
	}
	g_free(out);
	g_free(errs);
	g_free(script);
	return r;
}

int ana_plot_render(const char *dir, const char *name, GError **err)
{
	char *gp = g_find_program_in_path("gnuplot");
	int r = gp ? run_gnuplot(dir, name, err) : 1;

	g_free(gp);
	return r;
}

int ana_plot_all(const struct ana_set *set, GPtrArray *specs, const char *dir, bool strict,
		 GPtrArray *made, GString *notes, GError **err)
{
	char *gp = g_find_program_in_path("gnuplot");
	guint first = made->len;
	int r = -1;

	if (g_mkdir_with_parents(dir, 0755)) {
		g_set_error(err, ANA_ERROR, ANA_ERROR_IO, "%s: %s", dir, g_strerror(errno));
		goto out;
	}
	for (guint i = 0; i < specs->len; i++) {
		GError *e = NULL;

		if (ana_plot_write(set, specs->pdata[i], dir, made, notes, &e) >= 0)
			continue;
		if (strict || e->code != ANA_ERROR_SPEC) {
			g_propagate_error(err, e);
			goto out;
		}
		g_string_append_printf(notes, "%s\n", e->message);
		g_error_free(e);
	}
	if (!gp) {
		g_string_append_printf(notes, "gnuplot is not installed: the data (.dat) and "
				       "scripts (.gp) are in %s; install it (apt-get install "
				       "gnuplot-nox) and run `zonelab plot` on the result "
				       "directory\n", dir);
		r = 1;
		goto out;
	}
	for (guint i = first; i < made->len; i++)
		if (run_gnuplot(dir, made->pdata[i], err))
			goto out;
	r = 0;
out:
	g_free(gp);
	return r;
}
