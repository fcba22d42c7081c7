/*
 * scn_plot.c — a scenario's own plots: the keys of a [plot NAME] section
 * (docs/SCENARIOS.md), the same names `zonelab plot` takes as options,
 * checked and stored as an ana_plot_spec (analysis/ana_plot.h) that the
 * collect step draws beside the built-in ones.  One table row per key.
 * It reads values only: scn_keys.c finds the section and reports the
 * error with FILE:LINE; whether a metric or parameter exists is known only
 * when the points are (analysis/ says so then).
 */
#include <stdlib.h>
#include <string.h>

#include "ana_plot.h"
#include "scn_ld.h"

static int set_str(struct ana_plot_spec *p, size_t off, const char *v, char **why)
{
	char **dst = (char **)((char *)p + off);

	if (!*v) {
		*why = g_strdup("an empty value");
		return -1;
	}
	g_free(*dst);
	*dst = g_strdup(v);
	return 0;
}

static int set_kind(struct ana_plot_spec *p, size_t off, const char *v, char **why)
{
	int k = ana_kind_parse(v);

	(void)off;
	if (k < 0) {
		char *acc = g_strjoinv(" ", (char **)ana_kind_names);

		*why = g_strdup_printf("'%s' is not a kind of plot; accepted: %s", v, acc);
		g_free(acc);
		return -1;
	}
	p->kind = (enum ana_kind)k;
	return 0;
}

static int set_ccdf(struct ana_plot_spec *p, size_t off, const char *v, char **why)
{
	(void)off;
	if (strcmp(v, "true") && strcmp(v, "false")) {
		*why = g_strdup_printf("'%s' is not true or false", v);
		return -1;
	}
	p->ccdf = !strcmp(v, "true");
	return 0;
}

static int set_smooth(struct ana_plot_spec *p, size_t off, const char *v, char **why)
{
	guint64 n;

	(void)off;
	if (!g_ascii_string_to_unsigned(v, 10, 1, 100000, &n, NULL)) {
		*why = g_strdup_printf("'%s' is not a number of samples from 1 to 100000", v);
		return -1;
	}
	p->smooth = (unsigned)n;
	return 0;
}

static const struct {
	const char *key;
	int (*set)(struct ana_plot_spec *p, size_t off, const char *v, char **why);
	size_t off;
} plot_keys[] = {
	{ "kind", set_kind, 0 },
	{ "x", set_str, offsetof(struct ana_plot_spec, x) },
	{ "y", set_str, offsetof(struct ana_plot_spec, y) },
	{ "series", set_str, offsetof(struct ana_plot_spec, series) },
	{ "facet", set_str, offsetof(struct ana_plot_spec, facet) },
	{ "point", set_str, offsetof(struct ana_plot_spec, point) },
	{ "ccdf", set_ccdf, 0 },
	{ "smooth", set_smooth, 0 },
};

int scn_plot_key(struct scn *s, const char *name, const char *key, const char *value, char **why)
{
	struct ana_plot_spec *p = NULL;

	if (!scn_is_name(name)) {
		*why = g_strdup_printf("'%s': a plot's name is 1 to 64 of A-Z a-z 0-9 _ . - "
				       "(it names the files in plots/)", name);
		return -1;
	}
	for (guint i = 0; i < s->plots->len && !p; i++)
		if (!strcmp(((struct ana_plot_spec *)s->plots->pdata[i])->name, name))
			p = s->plots->pdata[i];
	if (!p) {
		p = g_new0(struct ana_plot_spec, 1);
		p->name = g_strdup(name);
		p->kind = ANA_KIND_LINE;
		g_ptr_array_add(s->plots, p);
	}
	for (size_t i = 0; i < G_N_ELEMENTS(plot_keys); i++)
		if (!strcmp(plot_keys[i].key, key))
			return plot_keys[i].set(p, plot_keys[i].off, value, why);
	{
		GString *acc = g_string_new(NULL);

		for (size_t i = 0; i < G_N_ELEMENTS(plot_keys); i++)
			g_string_append_printf(acc, "%s%s", i ? " " : "", plot_keys[i].key);
		*why = g_strdup_printf("unknown key '%s'; accepted: %s (the options of `zonelab "
				       "plot`)", key, acc->str);
		g_string_free(acc, TRUE);
	}
	return -1;
}
