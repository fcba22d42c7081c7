/*
 * scn_load.c — read a scenario file (scn.h, docs/SCENARIOS.md): a line
 * scan of our own (GKeyFile gives no line numbers for values) finds every
 * section and key and its line, GKeyFile reads the values; then keys are
 * checked against the simulator's getopt table, sweeps are expanded and
 * counted, and the points are enumerated on demand.  Nothing runs here.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "scn.h"

G_DEFINE_QUARK(scn-error-quark, scn_error)

/* Sections whose keys are simulator options: all the same namespace, the
 * names only group a file the way docs/SIM.md groups the options. */
static const char *const opt_sections[] = {
	"sim", "devices", "fs-core", "reorder", "workload", "cleaning", "output", NULL,
};

struct scn_ld {
	const char *path;
	const char *text;
	size_t len;
	GHashTable *lines;      /* "section\nkey" or "section" -> line (GINT_TO_POINTER) */
	GPtrArray *order;       /* "section\nkey" in file order (owned by lines) */
	const struct option *opts;
	const char *const *reserved;
	GError **err;
	struct scn *s;
};

static int ld_fail(struct scn_ld *l, int code, int line, const char *fmt, ...) G_GNUC_PRINTF(4, 5);
static int ld_fail(struct scn_ld *l, int code, int line, const char *fmt, ...)
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

static bool strv_has(const char *const *v, const char *s)
{
	for (; v && *v; v++)
		if (!strcmp(*v, s))
			return true;
	return false;
}

static int line_of(struct scn_ld *l, const char *section, const char *key)
{
	char *k = key ? g_strconcat(section, "\n", key, NULL) : g_strdup(section);
	int line = GPOINTER_TO_INT(g_hash_table_lookup(l->lines, k));

	g_free(k);
	return line;
}

/* The line scan: syntax, duplicates, known sections, every key's line. */
static int ld_scan(struct scn_ld *l)
{
	const char *p = l->text, *end = l->text + l->len;
	char *section = NULL;
	int line = 0, r = -1;

	if (memchr(l->text, 0, l->len)) {
		const char *z = memchr(l->text, 0, l->len);

		for (const char *c = l->text; c < z; c++)
			line += *c == '\n';
		return ld_fail(l, SCN_ERROR_SYNTAX, line + 1, "a NUL byte: a scenario is a text file");
	}
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		char *t = g_strndup(p, n), *s;

		line++;
		p += n + (nl ? 1 : 0);
		if (!g_utf8_validate(t, -1, NULL)) {
			g_free(t);
			ld_fail(l, SCN_ERROR_SYNTAX, line, "not valid UTF-8 text");
			goto out;
		}
		s = g_strstrip(t);
		if (!*s || *s == '#' || *s == ';') {
			g_free(t);
			continue;
		}
		if (*s == '[') {
			size_t sl = strlen(s);

			if (s[sl - 1] != ']' || sl < 3) {
				g_free(t);
				ld_fail(l, SCN_ERROR_SYNTAX, line, "a section header is [name]");
				goto out;
			}
			g_free(section);
			section = g_strndup(s + 1, sl - 2);
			g_free(t);
			if (strcmp(section, "scenario") && strcmp(section, "expect") &&
			    !strv_has(opt_sections, section)) {
				char *acc = g_strjoinv("], [", (char **)opt_sections);

				ld_fail(l, SCN_ERROR_KEY, line, "unknown section [%s]; accepted: "
					"[scenario], [expect], [%s]", section, acc);
				g_free(acc);
				goto out;
			}
			if (g_hash_table_contains(l->lines, section)) {
				ld_fail(l, SCN_ERROR_SYNTAX, line, "section [%s] again (first on line %d)",
					section, line_of(l, section, NULL));
				goto out;
			}
			g_hash_table_insert(l->lines, g_strdup(section), GINT_TO_POINTER(line));
			continue;
		}
		{
			char *eq = strchr(s, '='), *key, *k;

			if (!eq) {
				g_free(t);
				ld_fail(l, SCN_ERROR_SYNTAX, line,
					"not 'key = value', a [section] or a # comment");
				goto out;
			}
			if (!section) {
				g_free(t);
				ld_fail(l, SCN_ERROR_SYNTAX, line, "a key before any [section]");
				goto out;
			}
			*eq = 0;
			key = g_strstrip(s);
			if (!*key) {
				g_free(t);
				ld_fail(l, SCN_ERROR_SYNTAX, line, "a value without a key");
				goto out;
			}
			k = g_strconcat(section, "\n", key, NULL);
			if (g_hash_table_contains(l->lines, k)) {
				ld_fail(l, SCN_ERROR_KEY, line, "[%s] %s set again (first on line %d)",
					section, key, line_of(l, section, key));
				g_free(k);
				g_free(t);
				goto out;
			}
			g_hash_table_insert(l->lines, k, GINT_TO_POINTER(line));
			g_ptr_array_add(l->order, k);
			g_free(t);
		}
	}
	r = 0;
out:
	g_free(section);
	return r;
}

static bool is_name(const char *s)
{
	if (!*s || strlen(s) > 64)
		return false;
	for (; *s; s++)
		if (!g_ascii_isalnum(*s) && !strchr("_.-", *s))
			return false;
	return true;
}

/* Split @text on commas outside double quotes; items trimmed and unquoted. */
static int split_list(const char *text, GPtrArray *out, char **why)
{
	GString *cur = g_string_new(NULL);
	bool q = false, quoted = false;
	unsigned item = 1;

	for (const char *c = text;; c++) {
		if (*c == '"' && !quoted) {
			/* an item is either bare or one quoted string (blanks around) */
			if (*g_strstrip(cur->str)) {
				*why = g_strdup_printf("item %u: a quote inside a bare item", item);
				goto out_fail;
			}
			g_string_truncate(cur, 0);
			q = quoted = true;
			continue;
		}
		if (*c == '"' && q) {
			q = false;
			continue;
		}
		if (*c && q) {
			g_string_append_c(cur, *c);
			continue;
		}
		if (*c && *c != ',') {
			if (quoted && *c != ' ' && *c != '\t') {
				*why = g_strdup_printf("item %u: text after its closing quote", item);
				goto out_fail;
			}
			if (!quoted)
				g_string_append_c(cur, *c);
			continue;
		}
		if (q) {
			*why = g_strdup("a \"quoted\" item without its closing quote");
			goto out_fail;
		}
		{
			char *v = g_strdup(quoted ? cur->str : g_strstrip(cur->str));

			if (!*v && !quoted) {
				g_free(v);
				*why = g_strdup_printf("item %u of the list is empty", item);
				goto out_fail;
			}
			g_ptr_array_add(out, v);
		}
		g_string_truncate(cur, 0);
		quoted = false;
		item++;
		if (!*c)
			break;
	}
	g_string_free(cur, TRUE);
	return 0;
out_fail:
	g_string_free(cur, TRUE);
	return -1;
}

static int parse_num(const char *s, double *v, bool *integral)
{
	char *end;

	*v = g_ascii_strtod(s, &end);
	if (end == s || *end || !isfinite(*v))
		return -1;
	*integral = !strpbrk(s, ".eE") && fabs(*v) < 9e15;
	return 0;
}

int scn_sweep_parse(const char *text, GPtrArray *values, char **why)
{
	const char *dots = strstr(text, "..");
	char *lo_s, *hi_s, *step_s = NULL, *st;
	double lo, hi, step = 1;
	bool ilo, ihi, istep = true;
	double n;
	int r = -1;

	*why = NULL;
	if (!dots || strchr(text, '"'))
		return split_list(text, values, why);
	lo_s = g_strstrip(g_strndup(text, (size_t)(dots - text)));
	hi_s = g_strdup(dots + 2);
	st = strstr(hi_s, "step");
	if (st) {
		step_s = g_strstrip(g_strdup(st + 4));
		*st = 0;
	}
	g_strstrip(hi_s);
	if (parse_num(lo_s, &lo, &ilo) || parse_num(hi_s, &hi, &ihi) ||
	    (step_s && parse_num(step_s, &step, &istep))) {
		*why = g_strdup("a range is [LOW .. HIGH] or [LOW .. HIGH step STEP] with plain numbers");
		goto out;
	}
	if (!(step > 0)) {
		*why = g_strdup_printf("the step must be above 0, not %s", step_s);
		goto out;
	}
	if (hi < lo) {
		*why = g_strdup_printf("the range %s .. %s expands to nothing (HIGH below LOW)",
				       lo_s, hi_s);
		goto out;
	}
	n = floor((hi - lo) / step + 1e-9) + 1;
	if (n > SCN_MAX_VALUES) {
		*why = g_strdup_printf("the range expands to %.0f values (at most %u)", n,
				       SCN_MAX_VALUES);
		goto out;
	}
	for (unsigned i = 0; i < (unsigned)n; i++) {
		double v = lo + step * i;

		if (ilo && istep)
			g_ptr_array_add(values, g_strdup_printf("%lld", (long long)llround(v)));
		else
			g_ptr_array_add(values, g_strdup_printf("%.10g", v));
	}
	r = 0;
out:
	g_free(lo_s);
	g_free(hi_s);
	g_free(step_s);
	return r;
}

/* One value or a [sweep] into @vals (char *, owned). */
static int ld_value_list(struct scn_ld *l, GKeyFile *kf, const char *section, const char *key,
			 GPtrArray *vals)
{
	int line = line_of(l, section, key);
	GError *e = NULL;
	char *why = NULL, *v = g_key_file_get_string(kf, section, key, &e);
	size_t n;

	if (!v) {
		ld_fail(l, SCN_ERROR_VALUE, line, "[%s] %s: %s", section, key, e->message);
		g_error_free(e);
		return -1;
	}
	g_strstrip(v);
	n = strlen(v);
	if (n && v[0] == '[') {
		if (v[n - 1] != ']') {
			ld_fail(l, SCN_ERROR_SWEEP, line, "[%s] %s: a sweep is [a, b, ...] or "
				"[LOW .. HIGH step STEP], closed by ']'", section, key);
			g_free(v);
			return -1;
		}
		v[n - 1] = 0;
		if (!*g_strstrip(v + 1)) {
			ld_fail(l, SCN_ERROR_SWEEP, line, "[%s] %s: the sweep [] expands to nothing",
				section, key);
			g_free(v);
			return -1;
		}
		if (scn_sweep_parse(v + 1, vals, &why)) {
			ld_fail(l, SCN_ERROR_SWEEP, line, "[%s] %s: %s", section, key, why);
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
		if (!strcmp(o->name, "help") || strv_has(l->reserved, o->name) ||
		    !strcmp(o->name, "seed"))
			continue;
		g_string_append_printf(g, "%s%s", g->len ? " " : "", o->name);
	}
	return g_string_free(g, FALSE);
}

static void axis_free(gpointer data)
{
	struct scn_axis *a = data;

	g_free(a->key);
	g_strfreev(a->values);
	g_free(a);
}

static void expect_free(gpointer data)
{
	scn_expect_fini(data);
	g_free(data);
}

static int ld_option(struct scn_ld *l, GKeyFile *kf, const char *section, const char *key)
{
	int line = line_of(l, section, key);
	const struct option *o = find_opt(l->opts, key);
	struct scn_axis *a;
	GPtrArray *vals;

	if (!strcmp(key, "seed"))
		return ld_fail(l, SCN_ERROR_KEY, line, "[%s] seed: the seeds are the replicates: "
			       "set them in [scenario] seeds = [1 .. 3]", section);
	if (!o || !strcmp(key, "help") || strv_has(l->reserved, key)) {
		char *acc = accepted_opts(l);

		ld_fail(l, SCN_ERROR_KEY, line, "[%s] unknown key '%s'%s; accepted: the options of "
			"`zonelab sim`: %s", section, key,
			o ? " (the runner sets it itself)" : "", acc);
		g_free(acc);
		return -1;
	}
	for (guint i = 0; i < l->s->axes->len; i++) {
		struct scn_axis *b = l->s->axes->pdata[i];

		if (!strcmp(b->key, key))
			return ld_fail(l, SCN_ERROR_KEY, line, "[%s] %s set again (first on line %d)",
				       section, key, b->line);
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
			return ld_fail(l, SCN_ERROR_VALUE, line, "[%s] %s: '%s' is not true or false "
				       "(--%s takes no argument: true sets it)", section, key,
				       a->values[i], key);
	for (unsigned i = 0; !a->flag && i < a->nr_values; i++)
		if (!*a->values[i])
			return ld_fail(l, SCN_ERROR_VALUE, line, "[%s] %s: an empty value (--%s "
				       "needs an argument)", section, key, key);
	return 0;
}

static int ld_u64(struct scn_ld *l, int line, const char *key, const char *v, uint64_t max,
		  uint64_t *out)
{
	guint64 x;
	GError *e = NULL;

	if (!g_ascii_string_to_unsigned(v, 10, 1, max, &x, &e)) {
		g_error_free(e);
		return ld_fail(l, SCN_ERROR_VALUE, line, "[scenario] %s: '%s' is not a whole number "
			       "from 1 to %llu", key, v, (unsigned long long)max);
	}
	*out = x;
	return 0;
}

static int ld_scenario_key(struct scn_ld *l, GKeyFile *kf, const char *key)
{
	int line = line_of(l, "scenario", key);
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
				r = ld_fail(l, SCN_ERROR_VALUE, line, "[scenario] seeds: 0 is not a "
					    "seed (from 1)");
			else
				r = ld_u64(l, line, key, vals->pdata[i], UINT64_MAX, &seed);
			for (guint k = 0; !r && k < s->seeds->len; k++)
				if (g_array_index(s->seeds, uint64_t, k) == seed)
					r = ld_fail(l, SCN_ERROR_VALUE, line, "[scenario] seeds: %llu "
						    "twice", (unsigned long long)seed);
			g_array_append_val(s->seeds, seed);
		}
		g_ptr_array_free(vals, TRUE);
		return r;
	}
	v = g_key_file_get_string(kf, "scenario", key, &e);
	if (!v) {
		ld_fail(l, SCN_ERROR_VALUE, line, "[scenario] %s: %s", key, e->message);
		g_error_free(e);
		return -1;
	}
	g_strstrip(v);
	if (!strcmp(key, "name")) {
		if (!is_name(v))
			r = ld_fail(l, SCN_ERROR_VALUE, line, "[scenario] name: '%s': 1 to 64 of "
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

		if (split_list(v, s->zip, &why)) {
			r = ld_fail(l, SCN_ERROR_VALUE, line, "[scenario] zip: %s", why);
			g_free(why);
		}
	} else if (!strcmp(key, "max_points")) {
		uint64_t m = 0;

		r = ld_u64(l, line, key, v, SCN_MAX_POINTS_LIMIT, &m);
		s->max_points = (unsigned)m;
	} else {
		r = ld_fail(l, SCN_ERROR_KEY, line, "[scenario] unknown key '%s'; accepted: name "
			    "description seeds zip max_points", key);
	}
	g_free(v);
	return r;
}

static int ld_expect(struct scn_ld *l, GKeyFile *kf, const char *key)
{
	int line = line_of(l, "expect", key);
	struct scn_expect *e;
	GError *ge = NULL;
	char *v, *why = NULL;

	if (!is_name(key))
		return ld_fail(l, SCN_ERROR_KEY, line, "[expect] '%s': an expectation's name is 1 "
			       "to 64 of A-Z a-z 0-9 _ . -", key);
	v = g_key_file_get_string(kf, "expect", key, &ge);
	if (!v) {
		ld_fail(l, SCN_ERROR_VALUE, line, "[expect] %s: %s", key, ge->message);
		g_error_free(ge);
		return -1;
	}
	e = g_new0(struct scn_expect, 1);
	if (scn_expect_parse(g_strstrip(v), e, &why)) {
		ld_fail(l, SCN_ERROR_VALUE, line, "[expect] %s: %s (an expectation is FIELD OP "
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

static struct scn_axis *find_axis(struct scn *s, const char *key)
{
	for (guint i = 0; i < s->axes->len; i++) {
		struct scn_axis *a = s->axes->pdata[i];

		if (!strcmp(a->key, key))
			return a;
	}
	return NULL;
}

/* zip checks, then the point count against max_points. */
static int ld_count(struct scn_ld *l)
{
	struct scn *s = l->s;
	int zline = line_of(l, "scenario", "zip");
	uint64_t configs = 1;
	unsigned zip_len = 0;

	for (guint i = 0; i < s->zip->len; i++) {
		struct scn_axis *a = find_axis(s, s->zip->pdata[i]);

		for (guint k = 0; k < i; k++)
			if (!strcmp(s->zip->pdata[k], s->zip->pdata[i]))
				return ld_fail(l, SCN_ERROR_SWEEP, zline, "[scenario] zip: %s twice",
					       (char *)s->zip->pdata[i]);
		if (!a)
			return ld_fail(l, SCN_ERROR_SWEEP, zline, "[scenario] zip: '%s' is not a "
				       "simulator option this file sets", (char *)s->zip->pdata[i]);
		if (i && a->nr_values != zip_len)
			return ld_fail(l, SCN_ERROR_SWEEP, zline, "[scenario] zip: %s has %u values "
				       "(line %d), %s has %u: zipped lists need the same length",
				       a->key, a->nr_values, a->line, (char *)s->zip->pdata[0], zip_len);
		zip_len = a->nr_values;
		a->swept = true;
	}
	if (s->zip->len == 1)
		return ld_fail(l, SCN_ERROR_SWEEP, zline, "[scenario] zip: name at least two swept "
			       "keys (they move together)");
	if (zip_len)
		configs = zip_len;
	for (guint i = 0; i < s->axes->len; i++) {
		struct scn_axis *a = s->axes->pdata[i];

		if (strv_has((const char *const *)s->zip->pdata, a->key))
			continue;
		configs *= a->nr_values;
		if (configs * s->seeds->len > s->max_points)
			return ld_fail(l, SCN_ERROR_SWEEP, a->line, "the sweep expands to more than "
				       "max_points = %u points (%llu so far, with %u seeds, at %s): "
				       "raise [scenario] max_points (up to %u) or sweep less",
				       s->max_points, (unsigned long long)(configs * s->seeds->len),
				       s->seeds->len, a->key, SCN_MAX_POINTS_LIMIT);
	}
	if (configs * s->seeds->len > s->max_points)
		return ld_fail(l, SCN_ERROR_SWEEP, line_of(l, "scenario", "seeds"),
			       "%llu points: more than max_points = %u",
			       (unsigned long long)(configs * s->seeds->len), s->max_points);
	s->nr_configs = (unsigned)configs;
	s->nr_points = (unsigned)(configs * s->seeds->len);
	return 0;
}

int scn_load_data(const char *path, const char *text, size_t len, const struct option *opts,
		  const char *const *reserved, struct scn **out, GError **err)
{
	struct scn_ld l = { .path = path, .text = text, .len = len, .opts = opts,
			    .reserved = reserved, .err = err };
	GKeyFile *kf = g_key_file_new();
	GError *e = NULL;
	struct scn *s;
	char *base;
	int r = -1;

	l.lines = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	l.order = g_ptr_array_new();
	s = l.s = g_new0(struct scn, 1);
	s->path = g_strdup(path);
	s->text = g_strndup(text, len);
	s->text_len = len;
	base = g_path_get_basename(path);
	if (g_str_has_suffix(base, ".ini"))
		base[strlen(base) - 4] = 0;
	s->name = base;
	s->axes = g_ptr_array_new_with_free_func(axis_free);
	s->zip = g_ptr_array_new_with_free_func(g_free);
	s->seeds = g_array_new(FALSE, FALSE, sizeof(uint64_t));
	s->expects = g_ptr_array_new_with_free_func(expect_free);
	s->max_points = SCN_MAX_POINTS_DEFAULT;
	{
		uint64_t one = 1;

		g_array_append_val(s->seeds, one);
	}
	if (ld_scan(&l))
		goto out;
	if (!g_key_file_load_from_data(kf, text, len, G_KEY_FILE_NONE, &e)) {
		ld_fail(&l, SCN_ERROR_SYNTAX, 0, "%s", e->message);
		g_error_free(e);
		goto out;
	}
	for (guint i = 0; i < l.order->len; i++) {
		char *sk = g_strdup(l.order->pdata[i]), *nl = strchr(sk, '\n');
		int rr;

		*nl = 0;
		if (!strcmp(sk, "scenario"))
			rr = ld_scenario_key(&l, kf, nl + 1);
		else if (!strcmp(sk, "expect"))
			rr = ld_expect(&l, kf, nl + 1);
		else
			rr = ld_option(&l, kf, sk, nl + 1);
		g_free(sk);
		if (rr)
			goto out;
	}
	g_ptr_array_add(s->zip, NULL);      /* NULL-terminated for strv_has */
	g_ptr_array_set_size(s->zip, s->zip->len - 1);
	if (ld_count(&l))
		goto out;
	if (!is_name(s->name)) {
		ld_fail(&l, SCN_ERROR_VALUE, 0, "the file name '%s' cannot name results: set "
			"[scenario] name (1 to 64 of A-Z a-z 0-9 _ . -)", s->name);
		goto out;
	}
	*out = s;
	s = NULL;
	r = 0;
out:
	scn_destroy(s);
	g_key_file_free(kf);
	g_ptr_array_free(l.order, TRUE);
	g_hash_table_destroy(l.lines);
	return r;
}

int scn_load(const char *path, const struct option *opts, const char *const *reserved,
	     struct scn **out, GError **err)
{
	char *text;
	gsize len;
	GError *e = NULL;
	int r;

	if (!g_file_get_contents(path, &text, &len, &e)) {
		g_set_error(err, SCN_ERROR, SCN_ERROR_IO, "%s", e->message);
		g_error_free(e);
		return -1;
	}
	r = scn_load_data(path, text, len, opts, reserved, out, err);
	g_free(text);
	return r;
}

void scn_destroy(struct scn *s)
{
	if (!s)
		return;
	g_free(s->path);
	g_free(s->text);
	g_free(s->name);
	g_free(s->description);
	g_ptr_array_free(s->axes, TRUE);
	g_ptr_array_free(s->zip, TRUE);
	g_array_free(s->seeds, TRUE);
	g_ptr_array_free(s->expects, TRUE);
	g_free(s);
}

static bool in_zip(const struct scn *s, const char *key)
{
	for (guint i = 0; i < s->zip->len; i++)
		if (!strcmp(s->zip->pdata[i], key))
			return true;
	return false;
}

void scn_point_init(const struct scn *s, unsigned i, struct scn_point *p)
{
	unsigned rest, zip_idx = 0;
	GArray *idx = g_array_sized_new(FALSE, TRUE, sizeof(unsigned), s->axes->len);

	memset(p, 0, sizeof(*p));
	p->index = i;
	p->config = i / s->seeds->len;
	p->seed = g_array_index(s->seeds, uint64_t, i % s->seeds->len);
	p->id = g_strdup_printf("%s-%04u", s->name, i);
	p->keys = g_ptr_array_new();
	p->values = g_ptr_array_new_with_free_func(g_free);
	p->flags = g_ptr_array_new();
	p->swept = g_ptr_array_new();
	g_array_set_size(idx, s->axes->len);
	/* mixed radix, the last axis fastest; the zip group is one digit at
	 * the place of its first key */
	rest = p->config;
	for (guint k = s->axes->len; k-- > 0;) {
		const struct scn_axis *a = s->axes->pdata[k];
		bool first_zip = false;

		if (in_zip(s, a->key)) {
			first_zip = true;
			for (guint m = 0; m < k; m++)
				first_zip &= !in_zip(s, ((struct scn_axis *)s->axes->pdata[m])->key);
			if (!first_zip)
				continue;
		}
		g_array_index(idx, unsigned, k) = rest % a->nr_values;
		rest /= a->nr_values;
		if (first_zip)
			zip_idx = g_array_index(idx, unsigned, k);
	}
	for (guint k = 0; k < s->axes->len; k++)
		if (in_zip(s, ((struct scn_axis *)s->axes->pdata[k])->key))
			g_array_index(idx, unsigned, k) = zip_idx;
	for (guint k = 0; k < s->axes->len; k++) {
		const struct scn_axis *a = s->axes->pdata[k];

		g_ptr_array_add(p->keys, a->key);
		g_ptr_array_add(p->values, g_strdup(a->values[g_array_index(idx, unsigned, k)]));
		g_ptr_array_add(p->flags, GINT_TO_POINTER(a->flag));
		if (a->swept)
			g_ptr_array_add(p->swept, a->key);
	}
	g_ptr_array_add(p->keys, (gpointer)"seed");
	g_ptr_array_add(p->values, g_strdup_printf("%llu", (unsigned long long)p->seed));
	g_ptr_array_add(p->flags, GINT_TO_POINTER(0));
	if (s->seeds->len > 1)
		g_ptr_array_add(p->swept, (gpointer)"seed");
	g_array_free(idx, TRUE);
}

void scn_point_fini(struct scn_point *p)
{
	g_free(p->id);
	if (p->keys) {
		g_ptr_array_free(p->keys, TRUE);
		g_ptr_array_free(p->values, TRUE);
		g_ptr_array_free(p->flags, TRUE);
		g_ptr_array_free(p->swept, TRUE);
	}
	memset(p, 0, sizeof(*p));
}

char *scn_point_label(const struct scn_point *p)
{
	GString *g = g_string_new(NULL);

	for (guint k = 0; k < p->keys->len; k++) {
		const char *key = p->keys->pdata[k];
		bool swept = false;

		for (guint i = 0; i < p->swept->len; i++)
			swept |= !strcmp(p->swept->pdata[i], key);
		if (!swept || !strcmp(key, "seed"))
			continue;
		g_string_append_printf(g, "%s%s=%s", g->len ? " " : "", key,
				       (char *)p->values->pdata[k]);
	}
	if (!g->len)
		g_string_append(g, "-");
	return g_string_free(g, FALSE);
}
