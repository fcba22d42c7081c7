/*
 * scn_point.c — the points of a loaded scenario: how many there are (the
 * zip rules, then the product of the axes times the seeds against
 * max_points, at load time) and each one by its index (the seeds vary
 * fastest, then the last swept key; a zip group is one digit), with its
 * label.  The count and the enumeration are the same mixed-radix number,
 * so they live together.  Not here: reading the file (scn_load.c,
 * scn_keys.c) or running a point (cli/cmd_run.c).
 */
#include <string.h>

#include "scn_ld.h"

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
int scn_ld_count(struct scn_ld *l)
{
	struct scn *s = l->s;
	int zline = scn_ld_line_of(l, "scenario", "zip");
	uint64_t configs = 1;
	unsigned zip_len = 0;

	for (guint i = 0; i < s->zip->len; i++) {
		struct scn_axis *a = find_axis(s, s->zip->pdata[i]);

		for (guint k = 0; k < i; k++)
			if (!strcmp(s->zip->pdata[k], s->zip->pdata[i]))
				return scn_ld_fail(l, SCN_ERROR_SWEEP, zline,
						   "[scenario] zip: %s twice", (char *)s->zip->pdata[i]);
		if (!a)
			return scn_ld_fail(l, SCN_ERROR_SWEEP, zline,
					   "[scenario] zip: '%s' is not a simulator option this file sets",
					   (char *)s->zip->pdata[i]);
		if (i && a->nr_values != zip_len)
			return scn_ld_fail(l, SCN_ERROR_SWEEP, zline,
					   "[scenario] zip: %s has %u values (line %d), %s has %u: "
					   "zipped lists need the same length", a->key, a->nr_values,
					   a->line, (char *)s->zip->pdata[0], zip_len);
		zip_len = a->nr_values;
		a->swept = true;
	}
	if (s->zip->len == 1)
		return scn_ld_fail(l, SCN_ERROR_SWEEP, zline,
				   "[scenario] zip: name at least two swept keys (they move together)");
	if (zip_len)
		configs = zip_len;
	for (guint i = 0; i < s->axes->len; i++) {
		struct scn_axis *a = s->axes->pdata[i];

		if (scn_strv_has((const char *const *)s->zip->pdata, a->key))
			continue;
		configs *= a->nr_values;
		if (configs * s->seeds->len > s->max_points)
			return scn_ld_fail(l, SCN_ERROR_SWEEP, a->line,
					   "the sweep expands to more than max_points = %u points "
					   "(%llu so far, with %u seeds, at %s): raise [scenario] "
					   "max_points (up to %u) or sweep less", s->max_points,
					   (unsigned long long)(configs * s->seeds->len), s->seeds->len,
					   a->key, SCN_MAX_POINTS_LIMIT);
	}
	if (configs * s->seeds->len > s->max_points)
		return scn_ld_fail(l, SCN_ERROR_SWEEP, scn_ld_line_of(l, "scenario", "seeds"),
				   "%llu points: more than max_points = %u",
				   (unsigned long long)(configs * s->seeds->len), s->max_points);
	s->nr_configs = (unsigned)configs;
	s->nr_points = (unsigned)(configs * s->seeds->len);
	return 0;
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
