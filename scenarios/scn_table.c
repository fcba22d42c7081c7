/*
 * scn_table.c — a scenario's own tables: the keys of a [table NAME]
 * section (docs/SCENARIOS.md), stored as a struct scn_table that the
 * collect step (cli/run_collect.c) writes into report.md, one row per
 * configuration of the scenario, the mean (± 95% CI over the seeds) of each
 * column.  A scenario whose results are not write amplification (the
 * rebuild sweep: hours, bounds, latencies) shows them where a reader looks.
 * It reads values only: scn_keys.c finds the section and reports the error
 * with FILE:LINE; whether a column exists is known only when the points are
 * (a column in no point is a note in report.md).
 */
#include <string.h>

#include "scn_ld.h"

void scn_table_free(struct scn_table *t)
{
	if (!t)
		return;
	g_free(t->name);
	g_free(t->title);
	g_ptr_array_free(t->columns, TRUE);
	g_free(t);
}

/* A JSON leaf's dotted path: 1 to 128 of A-Z a-z 0-9 _ . - , not starting or
 * ending with a dot. */
static bool is_path(const char *s)
{
	size_t n = strlen(s);

	if (!n || n > 128 || s[0] == '.' || s[n - 1] == '.')
		return false;
	for (; *s; s++)
		if (!g_ascii_isalnum(*s) && !strchr("_.-", *s))
			return false;
	return true;
}

static int set_columns(struct scn_table *t, const char *v, char **why)
{
	GPtrArray *cols = g_ptr_array_new_with_free_func(g_free);
	size_t n = strlen(v);
	/* "a, b" or the sweep syntax "[a, b]": both mean the list */
	char *x = n >= 2 && v[0] == '[' && v[n - 1] == ']' ? g_strndup(v + 1, n - 2) : g_strdup(v);

	if (!*g_strstrip(x)) {
		*why = g_strdup("no column: give the metrics' dotted paths, e.g. "
				"'rebuild.hours, fg.during.p99_ms'");
		goto bad;
	}
	if (scn_list_split(x, cols, why))
		goto bad;
	if (cols->len > SCN_TABLE_MAX_COLUMNS) {
		*why = g_strdup_printf("%u columns; at most %d", cols->len, SCN_TABLE_MAX_COLUMNS);
		goto bad;
	}
	for (guint i = 0; i < cols->len; i++) {
		const char *c = cols->pdata[i];

		if (!is_path(c)) {
			*why = g_strdup_printf("'%s' is not a metric's dotted path (1 to 128 of "
					       "A-Z a-z 0-9 _ . -, e.g. 'wa.data')", c);
			goto bad;
		}
		for (guint j = 0; j < i; j++)
			if (!strcmp(c, cols->pdata[j])) {
				*why = g_strdup_printf("'%s' twice", c);
				goto bad;
			}
	}
	g_ptr_array_free(t->columns, TRUE);
	t->columns = cols;
	g_free(x);
	return 0;
bad:
	g_free(x);
	g_ptr_array_free(cols, TRUE);
	return -1;
}

int scn_table_key(struct scn *s, const char *name, int line, const char *key, const char *value,
		  char **why)
{
	struct scn_table *t = NULL;

	if (!scn_is_name(name)) {
		*why = g_strdup_printf("'%s': a table's name is 1 to 64 of A-Z a-z 0-9 _ . -",
				       name);
		return -1;
	}
	for (guint i = 0; i < s->tables->len && !t; i++)
		if (!strcmp(((struct scn_table *)s->tables->pdata[i])->name, name))
			t = s->tables->pdata[i];
	if (!t) {
		t = g_new0(struct scn_table, 1);
		t->name = g_strdup(name);
		t->line = line;
		t->columns = g_ptr_array_new_with_free_func(g_free);
		g_ptr_array_add(s->tables, t);
	}
	if (!strcmp(key, "columns"))
		return set_columns(t, value, why);
	if (!strcmp(key, "title")) {
		if (!*value) {
			*why = g_strdup("an empty value");
			return -1;
		}
		g_free(t->title);
		t->title = g_strdup(value);
		return 0;
	}
	*why = g_strdup_printf("unknown key '%s'; accepted: columns title", key);
	return -1;
}
