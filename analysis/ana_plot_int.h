/*
 * ana_plot_int.h — private to analysis/'s plotting files: one plot being
 * written (struct anp), and the shared frame every kind draws in: the
 * script's terminals, the panel grid and where its legends go, the
 * Okabe-Ito palette with a dash and a point type per series, axis labels
 * with units, the title with the scenario and the fixed parameters.
 * ana_plot_gp.c holds these; ana_plot_xy.c (line, bars), ana_plot_dist.c
 * (cdf) and ana_plot_ts.c (timeseries, zones) use them; ana_plot.c
 * dispatches.  Not a public header: other rooms use ana_plot.h.
 */
#ifndef ZL_ANA_PLOT_INT_H
#define ZL_ANA_PLOT_INT_H

#include <stdio.h>

#include "ana_plot.h"

/* One plot being written. */
struct anp {
	const struct ana_set *set;
	const struct ana_plot_spec *spec;
	const char *dir;
	GString *notes;
	GError **err;
};

/* @dir/@spec->name.@ext for writing; NULL with *err set. */
FILE *anp_open(const struct anp *pl, const char *ext);
/* Close @f; 0, or -1 with *err set on a write error. */
int anp_close(const struct anp *pl, FILE *f, const char *ext);
/* @s as a gnuplot double-quoted string (caller frees). */
char *anp_quote(const char *s);
/* A legend entry: @label quoted, cut to what a legend column holds. */
char *anp_key_quote(const char *label);
/* Set an ANA_ERROR_SPEC error; returns -1. */
int anp_spec_error(const struct anp *pl, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

/* ---- the points' parameters ---- */

/* The value of parameter @key of @p, or NULL. */
const char *anp_param(const struct ana_point *p, const char *key);
/* The parameters that differ between points, seed excluded (char *, borrowed). */
GPtrArray *anp_swept(const struct ana_set *set);
/* Every value of @key is a number. */
bool anp_param_is_numeric(const struct ana_set *set, const char *key);
/* "k=v k=v" of @p's parameters in @keys (borrowed char *), "" when none. */
char *anp_label(const struct ana_point *p, GPtrArray *keys);

/* Mean and 95% CI of @metric over @g's seeds (NAN where none has it). */
void anp_group_mean(const struct ana_group *g, const char *metric, double *mean, double *ci);

/* ---- style ---- */

#define ANP_NR_STYLES 6
/* Series @i's colour (Okabe-Ito), dash type and point type, as gnuplot words. */
void anp_style(FILE *f, unsigned i);
const char *anp_color(unsigned i);
/* One titled line of a plot command: block @block of NAME.dat, column
 * @col against column 1, style @style; ", \" before it unless @first. */
void anp_line(FILE *f, const char *name, unsigned block, unsigned col, double lw, unsigned style,
	      const char *label, bool first);
/* An axis label with its unit for @name (a metric path or parameter), and
 * the factor to scale values by (ns shown in us, bytes in MiB). */
char *anp_axis(const char *name, double *scale);

/* ---- the frame: canvas, panels, legends ---- */

#define ANP_KEY_W 290            /* pixels: a legend column of 34-character entries */

struct anp_frame {
	unsigned nr_panels, rows, cols;
	unsigned width, height;         /* pixels */
	unsigned title_px, cell_w, cell_h, key_w;
	bool shared_key;                /* one legend at the right for all panels */
	bool key_first_row;             /* else: a legend beside the first row's panels only */
};

/*
 * anp_frame_init() - the grid for @nr_panels panels (@max_cols across),
 * each @cell_w x @cell_h pixels of plot with its labels; a legend column
 * @key_w wide at the right, shared by all panels when @shared_key, else one
 * per panel column.  @title: the title lines (decides its height).
 */
void anp_frame_init(struct anp_frame *fr, unsigned nr_panels, unsigned max_cols, unsigned cell_w,
		    unsigned cell_h, unsigned key_w, bool shared_key, const char *title);
/* The script's head: terminals (png, svg, pdf if gnuplot has pdfcairo),
 * the multiplot with @title.  Closed by anp_end(). */
void anp_begin(FILE *f, const struct anp *pl, const struct anp_frame *fr, const char *what,
	       const char *title);
/* Before panel @k's plot command: its margins, its title, where its key goes. */
void anp_panel(FILE *f, const struct anp_frame *fr, unsigned k, const char *ptitle);
void anp_end(FILE *f);
/* The title: scenario(s), what is plotted, the parameters fixed in every
 * point, wrapped to @width_px (caller frees). */
char *anp_title(const struct ana_set *set, const char *what, unsigned width_px);

/* ---- the kinds (1 written, 0 nothing to draw: a note, -1 error) ---- */

int anp_xy(const struct anp *pl, bool bars);           /* ana_plot_xy.c */
int anp_cdf(const struct anp *pl);                     /* ana_plot_dist.c */
int anp_timeseries(const struct anp *pl);              /* ana_plot_ts.c */
int anp_zones(const struct anp *pl);                   /* ana_plot_ts.c */

#endif
