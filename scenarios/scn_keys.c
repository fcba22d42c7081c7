/*
 * scn_keys.c — what the keys of a scenario file mean: one row per section
 * in a table ([scenario] settings, [expect] expectations, and the sections
 * whose keys are the simulator's own options), and a reader per kind of
 * key that checks it and stores it in struct scn.  Also the loader's
 * FILE:LINE error (scn_ld_fail()), which every step of loading reports
 * with.  Not here: finding the keys and their lines in the text
 * (scn_load.c), expanding a sweep (scn_sweep.c), counting points
 * (scn_point.c), parsing an expectation (scn_expect.c).
 */
#include <stdarg.h>
#include <string.h>

#include "scn_ld.h"

G_DEFINE_QUARK(scn-error-quark, scn_error)

int scn_ld_fail(struct scn_ld *l, int code, int line, const char *fmt, ...)
{
	va_list ap;
	char *m;

	va_start(ap, fmt);
	m = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	if (line > 0)
		g_set_error(l->err, SCN_ERROR, code, "%s:%d: %s", l->path, line, m);
	else
		g_set_error(l->err, SCN_ERROR, code, "%s: %s", l->path, m);
	g_free(m);
	return -1;
}

int scn_ld_line_of(struct scn_ld *l, const char *section, const char *key)
{
	char *k = key ? g_strconcat(section, "\n", key, NULL) : g_strdup(section);
	int line = GPOINTER_TO_INT(g_hash_table_lookup(l->lines, k));

	g_free(k);
	return line;
}

/* One value or a [sweep] into @vals (char *, owned). */
static int ld_value_list(struct scn_ld *l, GKeyFile *kf, const char *section, const char *key,
			 GPtrArray *vals)
{
	int line = scn_ld_line_of(l, section, key);
	GError *e = NULL;
	char *why = NULL, *v = g_key_file_get_string(kf, section, key, &e);
	size_t n;

	if (!v) {
		scn_ld_fail(l, SCN_ERROR_VALUE, line, "[%s] %s: %s", section, key, e->message);
		g_error_free(e);
		return -1;
	}
	g_strstrip(v);
	n = strlen(v);
	if (n && v[0] == '[') {
		if (v[n - 1] != ']') {
			scn_ld_fail(l, SCN_ERROR_SWEEP, line, "[%s] %s: a sweep is [a, b, ...] or "
				    "[LOW .. HIGH step STEP], closed by ']'", section, key);
			g_free(v);
			return -1;
		}
		v[n - 1] = 0;
		if (!*g_strstrip(v + 1)) {
			scn_ld_fail(l, SCN_ERROR_SWEEP, line,
				    "[%s] %s: the sweep [] expands to nothing", section, key);
			g_free(v);
			return -1;
		}
		if (scn_sweep_parse(v + 1, vals, &why)) {
			scn_ld_fail(l, SCN_ERROR_SWEEP, line, "[%s] %s: %s", section, key, why);
			g_free(why);
			g_free(v);
			return -1;
		}
	} else if (n >= 2 && v[0] == '"' && v[n - 1] == '"') {
		g_ptr_array_add(vals, g_strndup(v + 1, n - 2));
	} else {
		g_ptr_array_add(vals, g_strdup(v));
	}
	g_free(v);
	return 0;
}

static const struct option *find_opt(const struct option *opts, const char *name)
{
	for (; opts->name; opts++)
		if (!strcmp(opts->name, name))
			return opts;
	return NULL;
}

static char *accepted_opts(struct scn_ld *l)
{
	GString *g = g_string_new(NULL);

	for (const struct option *o = l->opts; o->name; o++) {
		if (!strcmp(o->name, "help") || scn_strv_has(l->reserved, o->name) ||
		    !strcmp(o->name, "seed"))
			continue;
		g_string_append_printf(g, "%s%s", g->len ? " " : "", o->name);
	}
	return g_string_free(g, FALSE);
}

static int ld_option(struct scn_ld *l, GKeyFile *kf, const char *section, const char *key)
{
	int line = scn_ld_line_of(l, section, key);
	const struct option *o = find_opt(l->opts, key);
	struct scn_axis *a;
	GPtrArray *vals;

	if (!strcmp(key, "seed"))
		return scn_ld_fail(l, SCN_ERROR_KEY, line,
				   "[%s] seed: the seeds are the replicates: "
				   "set them in [scenario] seeds = [1 .. 3]", section);
	if (!o || !strcmp(key, "help") || scn_strv_has(l->reserved, key)) {
		char *acc = accepted_opts(l);

		scn_ld_fail(l, SCN_ERROR_KEY, line,
			    "[%s] unknown key '%s'%s; accepted: the options of "
			    "`zonelab sim`: %s", section, key,
			    o ? " (the runner sets it itself)" : "", acc);
		g_free(acc);
		return -1;
	}
	for (guint i = 0; i < l->s->axes->len; i++) {
		struct scn_axis *b = l->s->axes->pdata[i];

		if (!strcmp(b->key, key))
			return scn_ld_fail(l, SCN_ERROR_KEY, line,
					   "[%s] %s set again (first on line %d)", section, key,
					   b->line);
	}
	vals = g_ptr_array_new_with_free_func(g_free);  /* freed only on failure */
	if (ld_value_list(l, kf, section, key, vals)) {
		g_ptr_array_free(vals, TRUE);
		return -1;
	}
	a = g_new0(struct scn_axis, 1);
	a->key = g_strdup(key);
	a->line = line;
	a->flag = o->has_arg == no_argument;
	a->nr_values = vals->len;
	a->swept = vals->len > 1;
	g_ptr_array_add(vals, NULL);
	a->values = (char **)g_ptr_array_free(vals, FALSE);
	g_ptr_array_add(l->s->axes, a);
	for (unsigned i = 0; a->flag && i < a->nr_values; i++)
		if (strcmp(a->values[i], "true") && strcmp(a->values[i], "false"))
			return scn_ld_fail(l, SCN_ERROR_VALUE, line,
					   "[%s] %s: '%s' is not true or false "
					   "(--%s takes no argument: true sets it)", section, key,
					   a->values[i], key);
	for (unsigned i = 0; !a->flag && i < a->nr_values; i++)
		if (!*a->values[i])
			return scn_ld_fail(l, SCN_ERROR_VALUE, line,
					   "[%s] %s: an empty value (--%s needs an argument)",
					   section, key, key);
	return 0;
}

static int ld_u64(struct scn_ld *l, int line, const char *key, const char *v, uint64_t max,
		  uint64_t *out)
{
	guint64 x;
	GError *e = NULL;

	if (!g_ascii_string_to_unsigned(v, 10, 1, max, &x, &e)) {
		g_error_free(e);
		return scn_ld_fail(l, SCN_ERROR_VALUE, line,
				   "[scenario] %s: '%s' is not a whole number from 1 to %llu",
				   key, v, (unsigned long long)max);
	}
	*out = x;
	return 0;
}

static int ld_scenario_key(struct scn_ld *l, GKeyFile *kf, const char *section, const char *key)
{
	int line = scn_ld_line_of(l, "scenario", key);
	struct scn *s = l->s;
	GPtrArray *vals;
	GError *e = NULL;
	char *v;
	int r = 0;

	if (!strcmp(key, "seeds")) {
		vals = g_ptr_array_new_with_free_func(g_free);
		if (ld_value_list(l, kf, "scenario", key, vals)) {
			g_ptr_array_free(vals, TRUE);
			return -1;
		}
		g_array_set_size(s->seeds, 0);
		for (guint i = 0; i < vals->len && !r; i++) {
			uint64_t seed = 0;

			if (!strcmp(vals->pdata[i], "0"))
				r = scn_ld_fail(l, SCN_ERROR_VALUE, line,
						"[scenario] seeds: 0 is not a seed (from 1)");
			else
				r = ld_u64(l, line, key, vals->pdata[i], UINT64_MAX, &seed);
			for (guint k = 0; !r && k < s->seeds->len; k++)
				if (g_array_index(s->seeds, uint64_t, k) == seed)
					r = scn_ld_fail(l, SCN_ERROR_VALUE, line,
							"[scenario] seeds: %llu twice",
							(unsigned long long)seed);
			g_array_append_val(s->seeds, seed);
		}
		g_ptr_array_free(vals, TRUE);
		return r;
	}
	v = g_key_file_get_string(kf, "scenario", key, &e);
	if (!v) {
		scn_ld_fail(l, SCN_ERROR_VALUE, line, "[scenario] %s: %s", key, e->message);
		g_error_free(e);
		return -1;
	}
	g_strstrip(v);
	if (!strcmp(key, "name")) {
		if (!scn_is_name(v))
			r = scn_ld_fail(l, SCN_ERROR_VALUE, line,
					"[scenario] name: '%s': 1 to 64 of "
					"A-Z a-z 0-9 _ . - (it names the result files)", v);
		else {
			g_free(s->name);
			s->name = g_strdup(v);
		}
	} else if (!strcmp(key, "description")) {
		g_free(s->description);
		s->description = g_strdup(v);
	} else if (!strcmp(key, "zip")) {
		char *why = NULL;

		if (scn_list_split(v, s->zip, &why)) {
			r = scn_ld_fail(l, SCN_ERROR_VALUE, line, "[scenario] zip: %s", why);
			g_free(why);
		}
	} else if (!strcmp(key, "max_points")) {
		uint64_t m = 0;

		r = ld_u64(l, line, key, v, SCN_MAX_POINTS_LIMIT, &m);
		s->max_points = (unsigned)m;
	} else {
		r = scn_ld_fail(l, SCN_ERROR_KEY, line,
				"[scenario] unknown key '%s'; accepted: name description "
				"seeds zip max_points", key);
	}
	g_free(v);
	return r;
}

static int ld_expect(struct scn_ld *l, GKeyFile *kf, const char *section, const char *key)
{
	int line = scn_ld_line_of(l, "expect", key);
	struct scn_expect *e;
	GError *ge = NULL;
	char *v, *why = NULL;

	if (!scn_is_name(key))
		return scn_ld_fail(l, SCN_ERROR_KEY, line,
				   "[expect] '%s': an expectation's name is 1 to 64 of "
				   "A-Z a-z 0-9 _ . -", key);
	v = g_key_file_get_string(kf, "expect", key, &ge);
	if (!v) {
		scn_ld_fail(l, SCN_ERROR_VALUE, line, "[expect] %s: %s", key, ge->message);
		g_error_free(ge);
		return -1;
	}
	e = g_new0(struct scn_expect, 1);
	if (scn_expect_parse(g_strstrip(v), e, &why)) {
		scn_ld_fail(l, SCN_ERROR_VALUE, line, "[expect] %s: %s (an expectation is FIELD OP "
			    "VALUE or FIELD within TOL[%%] of VALUE, optionally followed by "
			    "'if FIELD OP VALUE')", key, why);
		g_free(why);
		g_free(v);
		g_free(e);
		return -1;
	}
	g_free(v);
	e->name = g_strdup(key);
	e->line = line;
	g_ptr_array_add(l->s->expects, e);
	return 0;
}

/* [plot NAME]: a key of one of the scenario's own plots (scn_plot.c). */
static int ld_plot(struct scn_ld *l, GKeyFile *kf, const char *section, const char *key)
{
	int line = scn_ld_line_of(l, section, key);
	GError *e = NULL;
	char *v = g_key_file_get_string(kf, section, key, &e), *why = NULL;
	int r = 0;

	if (!v) {
		scn_ld_fail(l, SCN_ERROR_VALUE, line, "[%s] %s: %s", section, key, e->message);
		g_error_free(e);
		return -1;
	}
	if (scn_plot_key(l->s, section + 5, key, g_strstrip(v), &why)) {
		r = scn_ld_fail(l, SCN_ERROR_VALUE, line, "[%s] %s: %s", section, key, why);
		g_free(why);
	}
	g_free(v);
	return r;
}

/* [table NAME]: a key of one of the scenario's own report tables (scn_table.c). */
static int ld_table(struct scn_ld *l, GKeyFile *kf, const char *section, const char *key)
{
	int line = scn_ld_line_of(l, section, key);
	GError *e = NULL;
	char *v = g_key_file_get_string(kf, section, key, &e), *why = NULL;
	int r = 0;

	if (!v) {
		scn_ld_fail(l, SCN_ERROR_VALUE, line, "[%s] %s: %s", section, key, e->message);
		g_error_free(e);
		return -1;
	}
	if (scn_table_key(l->s, section + 6, line, key, g_strstrip(v), &why)) {
		r = scn_ld_fail(l, SCN_ERROR_VALUE, line, "[%s] %s: %s", section, key, why);
		g_free(why);
	}
	g_free(v);
	return r;
}

/* The sections a scenario may have, in the order an error lists them.  The
 * option sections all mean the same namespace (the simulator's options);
 * their names only group a file the way docs/SIM.md groups the options. */
static const struct {
	const char *name;
	int (*read_key)(struct scn_ld *l, GKeyFile *kf, const char *section, const char *key);
} sections[] = {
	{ "scenario", ld_scenario_key }, { "expect", ld_expect },
	{ "sim", ld_option }, { "devices", ld_option }, { "fs-core", ld_option },
	{ "reorder", ld_option }, { "workload", ld_option }, { "cleaning", ld_option },
	{ "output", ld_option },
};

int scn_ld_section_check(struct scn_ld *l, int line, const char *section)
{
	GString *acc;

	for (size_t i = 0; i < G_N_ELEMENTS(sections); i++)
		if (!strcmp(sections[i].name, section))
			return 0;
	if ((g_str_has_prefix(section, "plot ") && section[5]) ||
	    (g_str_has_prefix(section, "table ") && section[6]))
		return 0;       /* its name is checked with its first key (scn_plot.c, scn_table.c) */
	acc = g_string_new(NULL);
	for (size_t i = 0; i < G_N_ELEMENTS(sections); i++)
		g_string_append_printf(acc, "%s[%s]", i ? ", " : "", sections[i].name);
	scn_ld_fail(l, SCN_ERROR_KEY, line, "unknown section [%s]; accepted: %s, [plot NAME], [table NAME]",
		    section, acc->str);
	g_string_free(acc, TRUE);
	return -1;
}

int scn_ld_key(struct scn_ld *l, GKeyFile *kf, const char *section, const char *key)
{
	for (size_t i = 0; i < G_N_ELEMENTS(sections); i++)
		if (!strcmp(sections[i].name, section))
			return sections[i].read_key(l, kf, section, key);
	if (g_str_has_prefix(section, "plot "))
		return ld_plot(l, kf, section, key);
	if (g_str_has_prefix(section, "table "))
		return ld_table(l, kf, section, key);
	return scn_ld_section_check(l, scn_ld_line_of(l, section, NULL), section);
}
