/*
 * scn_load.c — read a scenario file (scn.h, docs/SCENARIOS.md): a line
 * scan of our own (GKeyFile gives no line numbers for values) finds every
 * section and key and its line, GKeyFile reads the values, and each key is
 * handed to its section's reader (scn_keys.c); then the points are
 * counted (scn_point.c).  This file owns struct scn's life (create,
 * destroy).  Nothing runs here, and no key's meaning is known here.
 */
#include <string.h>

#include "ana_plot.h"
#include "scn_ld.h"

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
		return scn_ld_fail(l, SCN_ERROR_SYNTAX, line + 1,
				   "a NUL byte: a scenario is a text file");
	}
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		char *t = g_strndup(p, n), *s;

		line++;
		p += n + (nl ? 1 : 0);
		if (!g_utf8_validate(t, -1, NULL)) {
			g_free(t);
			scn_ld_fail(l, SCN_ERROR_SYNTAX, line, "not valid UTF-8 text");
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
				scn_ld_fail(l, SCN_ERROR_SYNTAX, line,
					    "a section header is [name]");
				goto out;
			}
			g_free(section);
			section = g_strndup(s + 1, sl - 2);
			g_free(t);
			if (scn_ld_section_check(l, line, section))
				goto out;
			if (g_hash_table_contains(l->lines, section)) {
				scn_ld_fail(l, SCN_ERROR_SYNTAX, line,
					    "section [%s] again (first on line %d)",
					    section, scn_ld_line_of(l, section, NULL));
				goto out;
			}
			g_hash_table_insert(l->lines, g_strdup(section), GINT_TO_POINTER(line));
			continue;
		}
		{
			char *eq = strchr(s, '='), *key, *k;

			if (!eq) {
				g_free(t);
				scn_ld_fail(l, SCN_ERROR_SYNTAX, line,
					    "not 'key = value', a [section] or a # comment");
				goto out;
			}
			if (!section) {
				g_free(t);
				scn_ld_fail(l, SCN_ERROR_SYNTAX, line,
					    "a key before any [section]");
				goto out;
			}
			*eq = 0;
			key = g_strstrip(s);
			if (!*key) {
				g_free(t);
				scn_ld_fail(l, SCN_ERROR_SYNTAX, line, "a value without a key");
				goto out;
			}
			k = g_strconcat(section, "\n", key, NULL);
			if (g_hash_table_contains(l->lines, k)) {
				scn_ld_fail(l, SCN_ERROR_KEY, line,
					    "[%s] %s set again (first on line %d)",
					    section, key, scn_ld_line_of(l, section, key));
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
	s->plots = g_ptr_array_new_with_free_func((GDestroyNotify)ana_plot_spec_free);
	s->tables = g_ptr_array_new_with_free_func((GDestroyNotify)scn_table_free);
	s->max_points = SCN_MAX_POINTS_DEFAULT;
	{
		uint64_t one = 1;

		g_array_append_val(s->seeds, one);
	}
	if (ld_scan(&l))
		goto out;
	if (!g_key_file_load_from_data(kf, text, len, G_KEY_FILE_NONE, &e)) {
		scn_ld_fail(&l, SCN_ERROR_SYNTAX, 0, "%s", e->message);
		g_error_free(e);
		goto out;
	}
	for (guint i = 0; i < l.order->len; i++) {
		char *sk = g_strdup(l.order->pdata[i]), *nl = strchr(sk, '\n');
		int rr;

		*nl = 0;
		rr = scn_ld_key(&l, kf, sk, nl + 1);
		g_free(sk);
		if (rr)
			goto out;
	}
	g_ptr_array_add(s->zip, NULL);      /* NULL-terminated for scn_strv_has */
	g_ptr_array_set_size(s->zip, s->zip->len - 1);
	for (guint i = 0; i < s->tables->len; i++) {
		const struct scn_table *t = s->tables->pdata[i];

		if (!t->columns->len) {
			scn_ld_fail(&l, SCN_ERROR_KEY, t->line, "[table %s]: no columns key; give "
				    "the metrics' dotted paths, e.g. 'columns = rebuild.hours, "
				    "fg.during.p99_ms'", t->name);
			goto out;
		}
	}
	if (scn_ld_count(&l))
		goto out;
	if (!scn_is_name(s->name)) {
		scn_ld_fail(&l, SCN_ERROR_VALUE, 0, "the file name '%s' cannot name results: set "
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
	g_ptr_array_free(s->plots, TRUE);
	g_ptr_array_free(s->tables, TRUE);
	g_free(s);
}
