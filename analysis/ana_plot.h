/*
 * ana_plot.h — plots of a result directory (docs/ANALYSIS.md): any metric
 * of the points' JSON against any swept parameter, in the grammar of
 * seaborn/ggplot (x, y, series = hue, facet = small multiples), as gnuplot
 * data + script, drawn to PNG, SVG (and PDF when gnuplot has pdfcairo).
 *
 * A plot is a struct ana_plot_spec: its kind, and the names it plots.
 * `x`, `series` and `facet` name swept parameters (point.params.*; `x` may
 * also be a numeric metric such as wa.util_effective); `y` names a metric
 * by its dotted JSON path (a distribution's prefix for --kind cdf, e.g.
 * reorder_latency_ns; a time-series column for --kind timeseries).
 * Swept parameters a spec does not name go to the facets when it names no
 * facet, to the series otherwise; a panel holds at most ANA_PLOT_MAX_SERIES
 * series, more are split into further panels.  Values are the mean over the
 * seeds with the 95% confidence interval (Student t); the analytic WA
 * curves are drawn for the configurations they model only (ana_plot_xy.c).
 *
 * What it is not: it reads no scenario file and runs no point; it reads
 * the points an ana_set holds (ana_results.h).
 */
#ifndef ZL_ANA_PLOT_H
#define ZL_ANA_PLOT_H

#include <stdbool.h>

#include <glib.h>

#include "ana_results.h"

#define ANA_PLOT_MAX_SERIES 6   /* per panel: more are small multiples */

enum ana_kind { ANA_KIND_LINE, ANA_KIND_BARS, ANA_KIND_CDF, ANA_KIND_TIMESERIES,
		ANA_KIND_ZONES, ANA_NR_KINDS };

/* "line", "bars", "cdf", "timeseries", "zones" (NULL-terminated). */
extern const char *const ana_kind_names[];
/* The kind named @s, or -1. */
int ana_kind_parse(const char *s);

struct ana_plot_spec {
	char *name;             /* file stem in the plot directory */
	enum ana_kind kind;
	char *x, *y;            /* NULL: the kind's default */
	char *series, *facet;   /* NULL: chosen (see above) */
	char *point;            /* zones: the point id (NULL: the first point) */
	bool ccdf;              /* cdf: 1 - F on log-log axes */
	unsigned smooth;        /* timeseries: moving average over this many samples (0, 1: none) */
};
void ana_plot_spec_fini(struct ana_plot_spec *s);
void ana_plot_spec_free(struct ana_plot_spec *s);
/* A copy of @s (caller frees with ana_plot_spec_free()). */
struct ana_plot_spec *ana_plot_spec_dup(const struct ana_plot_spec *s);

/*
 * ana_plot_defaults() - append to @specs (struct ana_plot_spec *, owned
 * by the array's free function) the built-in plots of @set: wa_util (line,
 * x the numeric swept parameter, series a categorical one, facets the
 * rest), wa_bars (the same as grouped bars), latency_cdf, timeseries,
 * zone_timeline.
 */
void ana_plot_defaults(const struct ana_set *set, GPtrArray *specs);

/*
 * ana_plot_write() - NAME.dat and NAME.gp of @spec in @dir (which exists).
 * Returns 1 (written; @spec->name appended to @made), 0 (nothing to draw:
 * why on a line of @notes) or -1 and *@err: ANA_ERROR_SPEC for a name
 * that is not a parameter, metric or point of @set (the message lists
 * what is), ANA_ERROR_IO for a file not written.
 */
int ana_plot_write(const struct ana_set *set, const struct ana_plot_spec *spec, const char *dir,
		   GPtrArray *made, GString *notes, GError **err);

/*
 * ana_plot_all() - create @dir, write every plot of @specs there and run
 * gnuplot on those written (names appended to @made, caller frees; what
 * was skipped and why to @notes, and, unless @strict, a spec that names
 * what the points lack: the built-in plots of a run that sweeps nothing).
 * 0, 1 when gnuplot is not installed (data and scripts written), -1 with
 * *@err (a spec error when @strict, I/O, gnuplot).
 */
int ana_plot_all(const struct ana_set *set, GPtrArray *specs, const char *dir, bool strict,
		 GPtrArray *made, GString *notes, GError **err);

/*
 * ana_plot_compare() - @dir/@name.dat and .gp: @metric of every
 * configuration of @a (before) and @b (after), mean and 95% CI, the change
 * in percent (ana_plot_cmp.c).  0, or -1 with *@err (ANA_ERROR_SPEC: the
 * metric is in neither; ANA_ERROR_IO).  Run it with ana_plot_render().
 */
int ana_plot_compare(const struct ana_set *a, const struct ana_set *b, const char *metric,
		     const char *dir, const char *name, GError **err);
/* Draw @dir/@name.gp with gnuplot: 0, 1 when gnuplot is not installed, -1 with *@err. */
int ana_plot_render(const char *dir, const char *name, GError **err);

#endif
