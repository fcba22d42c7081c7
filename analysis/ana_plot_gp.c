/*
 * ana_plot_gp.c — the frame every plot kind draws in (ana_plot_int.h):
 * files, quoting, the parameters of the points, the Okabe-Ito palette with
 * a dash and point type per series (readable in grayscale), axis labels
 * with units, the title, and the panel grid with legends outside the data
 * (a shared column at the right, or one beside each panel).  Pixel sizes
 * are chosen for a paper's column: 10-point Sans, panels about 400 pixels
 * wide.  Nothing here knows what a kind plots.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "ana_plot_int.h"

#define ANP_LABEL_MAX 34        /* characters: what a legend column holds */

FILE *anp_open(const struct anp *pl, const char *ext)
{
	char *path = g_strdup_printf("%s/%s.%s", pl->dir, pl->spec->name, ext);
	FILE *f = fopen(path, "w");

	if (!f)
		g_set_error(pl->err, ANA_ERROR, ANA_ERROR_IO, "%s: %s", path, g_strerror(errno));
	g_free(path);
	return f;
}

int anp_close(const struct anp *pl, FILE *f, const char *ext)
{
	bool bad = ferror(f);

	if (fclose(f) || bad) {
		g_set_error(pl->err, ANA_ERROR, ANA_ERROR_IO, "%s/%s.%s: write error", pl->dir,
			    pl->spec->name, ext);
		return -1;
	}
	return 0;
}

char *anp_quote(const char *s)
{
	GString *g = g_string_new("\"");

	for (; *s; s++) {
		if (*s == '\n') {
			g_string_append(g, "\\n");
			continue;
		}
		if (*s == '"' || *s == '\\')
			g_string_append_c(g, '\\');
		g_string_append_c(g, *s);
	}
	g_string_append_c(g, '"');
	return g_string_free(g, FALSE);
}

char *anp_key_quote(const char *label)
{
	char *t = strlen(label) > ANP_LABEL_MAX ? g_strdup_printf("%.*s...", ANP_LABEL_MAX - 3, label) :
		  g_strdup(label);
	char *q = anp_quote(t);

	g_free(t);
	return q;
}

int anp_spec_error(const struct anp *pl, const char *fmt, ...)
{
	va_list ap;
	char *m;

	va_start(ap, fmt);
	m = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	g_set_error(pl->err, ANA_ERROR, ANA_ERROR_SPEC, "plot %s: %s", pl->spec->name, m);
	g_free(m);
	return -1;
}

const char *anp_param(const struct ana_point *p, const char *key)
{
	for (guint i = 0; i < p->pkeys->len; i++)
		if (!strcmp(p->pkeys->pdata[i], key))
			return p->pvals->pdata[i];
	return NULL;
}

/* The first value of @key, and whether every point has that one. */
static bool param_is_fixed(const struct ana_set *set, const char *key, const char **first)
{
	*first = NULL;
	for (guint i = 0; i < set->points->len; i++) {
		const char *v = anp_param(set->points->pdata[i], key);

		if (!i)
			*first = v;
		else if ((v == NULL) != (*first == NULL) || (v && strcmp(v, *first)))
			return false;
	}
	return true;
}

GPtrArray *anp_swept(const struct ana_set *set)
{
	GPtrArray *a = g_ptr_array_new();
	const char *v;

	for (guint k = 0; k < set->param_keys->len; k++) {
		const char *key = set->param_keys->pdata[k];

		if (strcmp(key, "seed") && !param_is_fixed(set, key, &v))
			g_ptr_array_add(a, (char *)key);
	}
	return a;
}

bool anp_param_is_numeric(const struct ana_set *set, const char *key)
{
	for (guint i = 0; i < set->points->len; i++) {
		const char *v = anp_param(set->points->pdata[i], key);
		char *end;

		if (!v)
			continue;
		g_ascii_strtod(v, &end);
		if (end == v || *end)
			return false;
	}
	return true;
}

char *anp_label(const struct ana_point *p, GPtrArray *keys)
{
	GString *g = g_string_new(NULL);

	for (guint i = 0; keys && i < keys->len; i++) {
		const char *v = anp_param(p, keys->pdata[i]);

		g_string_append_printf(g, "%s%s=%s", g->len ? " " : "", (char *)keys->pdata[i],
				       v ? v : "-");
	}

	return g_string_free(g, FALSE);
}

void anp_group_mean(const struct ana_group *g, const char *metric, double *mean, double *ci)
{
	double *v = g_new(double, g->points->len + 1);
	unsigned n = 0;

	for (guint i = 0; i < g->points->len; i++) {
		double y = ana_point_num(g->points->pdata[i], metric);

		if (!isnan(y))
			v[n++] = y;
	}
	ana_mean_ci95(v, n, mean, ci);
	g_free(v);
}

void anp_line(FILE *f, const char *name, unsigned block, unsigned col, double lw, unsigned style,
	      const char *label, bool first)
{
	char *t = anp_key_quote(label);

	fprintf(f, "%s    \"%s.dat\" index %u using 1:%u with lines lw %g ", first ? "" : ", \\\n",
		name, block, col, lw);
	anp_style(f, style);
	fprintf(f, " title %s", t);
	g_free(t);
}

/* Okabe & Ito (2008), without yellow and black (too light / the axes'). */
static const char *const colors[ANP_NR_STYLES] = {
	"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9",
};
static const char *const dashes[ANP_NR_STYLES] = {
	"1", "2", "3", "4", "5", "(10,4,2,4,2,4)",
};
static const unsigned points[ANP_NR_STYLES] = { 7, 5, 9, 13, 11, 4 };

const char *anp_color(unsigned i)
{
	return colors[i % ANP_NR_STYLES];
}

void anp_style(FILE *f, unsigned i)
{
	unsigned k = i % ANP_NR_STYLES;

	fprintf(f, "lc rgb \"%s\" dt %s pt %u", colors[k], dashes[k], points[k]);
}

static const struct {
	const char *name, *label;
	double scale;
} axes[] = {
	{ "wa.data", "write amplification (data)", 1 },
	{ "wa.total", "write amplification (all device writes)", 1 },
	{ "wa.util_effective", "effective utilization (live / usable)", 1 },
	{ "util", "utilization (live data / capacity)", 1 },
	{ "workers", "reordering workers", 1 },
};

char *anp_axis(const char *name, double *scale)
{
	*scale = 1;
	for (size_t i = 0; i < G_N_ELEMENTS(axes); i++)
		if (!strcmp(axes[i].name, name)) {
			*scale = axes[i].scale;
			return g_strdup(axes[i].label);
		}
	if (strstr(name, "_ns")) {      /* reorder_latency_ns.p99: "reorder_latency.p99 (us)" */
		char **w = g_strsplit(name, "_ns", -1), *j = g_strjoinv("", w), *l;

		*scale = 1e-3;
		l = g_strdup_printf("%s (us)", j);
		g_strfreev(w);
		g_free(j);
		return l;
	}
	if (strstr(name, "_bytes")) {
		*scale = 1.0 / 1048576;
		return g_strdup_printf("%s (MiB)", name);
	}
	return g_strdup(name);
}

#define ANP_TITLE_LINE_PX 18
#define ANP_PAD_L 72            /* y tics and label */
#define ANP_PAD_R 16
#define ANP_PAD_T 26            /* the panel's title */
#define ANP_PAD_B 52            /* x tics and label */

void anp_frame_init(struct anp_frame *fr, unsigned nr_panels, unsigned max_cols, unsigned cell_w,
		    unsigned cell_h, unsigned key_w, bool shared_key, const char *title)
{
	unsigned lines = 1;

	for (const char *s = title; s && *s; s++)
		lines += *s == '\n';
	memset(fr, 0, sizeof(*fr));
	fr->nr_panels = nr_panels ? nr_panels : 1;
	fr->cols = fr->nr_panels < max_cols ? fr->nr_panels : max_cols;
	fr->rows = (fr->nr_panels + fr->cols - 1) / fr->cols;
	fr->cell_w = cell_w;
	fr->cell_h = cell_h;
	fr->key_w = key_w;
	fr->shared_key = shared_key;
	fr->title_px = 16 + lines * ANP_TITLE_LINE_PX;
	fr->width = fr->cols * (cell_w + (shared_key ? 0 : key_w)) + (shared_key ? key_w : 0) + 8;
	fr->height = fr->title_px + fr->rows * cell_h + 8;
}

void anp_begin(FILE *f, const struct anp *pl, const struct anp_frame *fr, const char *what,
	       const char *title)
{
	const char *n = pl->spec->name;
	char *t = anp_quote(title);

	fprintf(f, "# %s.gp — %s\n# Written by `zonelab plot`; redraw with: gnuplot %s.gp "
		"(in this directory).\n# Data: %s.dat (see the comments in it).\n"
		"# frame: %u panels in %u rows x %u columns, legend %s; canvas %ux%u\n", n, what,
		n, n, fr->nr_panels, fr->rows, fr->cols, fr->shared_key ? "shared, right" :
		"beside each panel", fr->width, fr->height);
	fprintf(f, "do for [fmt in \"png svg pdf\"] {\n"
		"  if (fmt eq \"pdf\" && strstrt(GPVAL_TERMINALS, \"pdfcairo\") == 0) { continue }\n"
		"  if (fmt eq \"png\") { set terminal pngcairo noenhanced size %u,%u font \"Sans,10\" }\n"
		"  if (fmt eq \"svg\") { set terminal svg noenhanced size %u,%u fixed font \"Sans,10\" }\n"
		"  if (fmt eq \"pdf\") { set terminal pdfcairo noenhanced size %.2fin,%.2fin font \"Sans,10\" }\n"
		"  set output \"%s.\".fmt\n"
		"  reset\n"
		"  set grid lc rgb \"#dddddd\"\n"
		"  set border 3\n  set tics nomirror\n"
		"  set multiplot title %s\n", fr->width, fr->height, fr->width, fr->height,
		fr->width / 96.0, fr->height / 96.0, n, t);
	g_free(t);
}

void anp_panel(FILE *f, const struct anp_frame *fr, unsigned k, const char *ptitle)
{
	unsigned c = k % fr->cols, r = k / fr->cols;
	unsigned stride = fr->cell_w + (fr->shared_key ? 0 : fr->key_w);
	double W = fr->width, H = fr->height;
	double x0 = c * stride, y0 = fr->title_px + r * fr->cell_h;
	char *t = anp_quote(ptitle ? ptitle : "");

	fprintf(f, "  # panel %u\n  set lmargin at screen %.4f\n  set rmargin at screen %.4f\n"
		"  set tmargin at screen %.4f\n  set bmargin at screen %.4f\n  set title %s\n",
		k, (x0 + ANP_PAD_L) / W, (x0 + fr->cell_w - ANP_PAD_R) / W,
		1 - (y0 + ANP_PAD_T) / H, 1 - (y0 + fr->cell_h - ANP_PAD_B) / H, t);
	g_free(t);
	if ((fr->shared_key && k) || (fr->key_first_row && r))
		fprintf(f, "  unset key\n");
	else if (fr->shared_key)
		fprintf(f, "  set key at screen %.4f,%.4f left top Left reverse vertical "
			"samplen 3 spacing 1.1 box lc rgb \"#999999\"\n",
			(fr->cols * stride + 6) / W, 1 - (y0 + ANP_PAD_T) / H);
	else
		fprintf(f, "  set key at screen %.4f,%.4f left top Left reverse vertical "
			"samplen 3 spacing 1.1 box lc rgb \"#999999\"\n",
			(x0 + fr->cell_w + 4) / W, 1 - (y0 + ANP_PAD_T) / H);
}

void anp_end(FILE *f)
{
	fprintf(f, "  unset multiplot\n  set output\n}\n");
}

char *anp_title(const struct ana_set *set, const char *what, unsigned width_px)
{
	GString *t = g_string_new(NULL), *line = g_string_new(NULL);
	GPtrArray *words = g_ptr_array_new_with_free_func(g_free);
	unsigned max_chars = width_px / 7, seeds = 0;
	const char *v;

	for (guint i = 0; i < set->groups->len; i++) {
		const struct ana_group *g = set->groups->pdata[i];
		bool seen = false;

		for (guint k = 0; k < i; k++)
			seen |= !strcmp(((struct ana_group *)set->groups->pdata[k])->scenario,
					g->scenario);
		if (!seen)
			g_ptr_array_add(words, g_strdup_printf("%s%s", i ? "+ " : "", g->scenario));
		seeds = MAX(seeds, g->points->len);
	}
	g_ptr_array_add(words, g_strdup_printf("— %s (%u seed%s);", what, seeds,
					       seeds == 1 ? "" : "s"));
	for (guint k = 0; k < set->param_keys->len; k++) {
		const char *key = set->param_keys->pdata[k];

		if (strcmp(key, "seed") && param_is_fixed(set, key, &v) && v)
			g_ptr_array_add(words, g_strdup_printf("%s=%s", key, v));
	}
	for (guint i = 0; i < words->len; i++) {
		const char *w = words->pdata[i];

		if (line->len && line->len + 1 + strlen(w) > max_chars) {
			g_string_append_printf(t, "%s%s", t->len ? "\n" : "", line->str);
			g_string_truncate(line, 0);
		}
		g_string_append_printf(line, "%s%.*s", line->len ? " " : "", (int)max_chars, w);
	}
	if (line->len)
		g_string_append_printf(t, "%s%s", t->len ? "\n" : "", line->str);
	g_string_free(line, TRUE);
	g_ptr_array_free(words, TRUE);
	return g_string_free(t, FALSE);
}
