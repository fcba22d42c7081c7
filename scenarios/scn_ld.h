/*
 * scn_ld.h — private to scenarios/: the state of one scenario load and what
 * the loader's files share.  scn_load.c scans the file and drives the
 * load; scn_keys.c reads each section's keys (the section table) and owns
 * the FILE:LINE error every step reports with; scn_point.c counts the
 * points and enumerates them; scn_sweep.c expands lists and ranges.  The
 * calls go one way: load -> keys, point; point -> keys; keys -> sweep,
 * expect.  Not a public header: other rooms use scn.h.
 */
#ifndef ZL_SCN_LD_H
#define ZL_SCN_LD_H

#include <stdbool.h>
#include <string.h>

#include "scn.h"

/* One load in progress (scn_load_data()). */
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

/**
 * scn_ld_fail() - set *@l->err to "PATH:LINE: message" (or "PATH: message"
 * when @line is 0), domain SCN_ERROR, code @code.  Returns -1, so a caller
 * can `return scn_ld_fail(...)`.
 */
int scn_ld_fail(struct scn_ld *l, int code, int line, const char *fmt, ...) G_GNUC_PRINTF(4, 5);

/* The line of [@section] @key (@key NULL: of the section header); 0 if absent. */
int scn_ld_line_of(struct scn_ld *l, const char *section, const char *key);

/* 0 if [@section] is one a scenario may have; else -1 naming the accepted ones. */
int scn_ld_section_check(struct scn_ld *l, int line, const char *section);

/*
 * scn_ld_key() - read [@section] @key of @kf into @l->s by the section
 * table: scenario settings, an expectation, or a simulator option (one
 * value or a sweep).  0, or -1 with the error set.
 */
int scn_ld_key(struct scn_ld *l, GKeyFile *kf, const char *section, const char *key);

/*
 * scn_ld_count() - check [scenario] zip against the options read, then set
 * @l->s->nr_configs and nr_points, refusing more than max_points.  0 or -1.
 */
int scn_ld_count(struct scn_ld *l);

/*
 * scn_list_split() - split @text on commas outside double quotes into
 * @out (char *, appended, owned by @out's free function); items are trimmed
 * and unquoted.  0, or -1 and *@why (caller frees).
 */
int scn_list_split(const char *text, GPtrArray *out, char **why);

/*
 * scn_plot_key() - set @key = @value of the plot @name of @s (created at
 * its first key; scn_plot.c).  0, or -1 and *@why (caller frees).
 */
int scn_plot_key(struct scn *s, const char *name, const char *key, const char *value, char **why);

/*
 * scn_table_key() - set @key = @value of the table @name of @s (created at
 * its first key, @line; scn_table.c).  0, or -1 and *@why (caller frees).
 */
int scn_table_key(struct scn *s, const char *name, int line, const char *key, const char *value,
		  char **why);

/* @s is in the NULL-terminated list @v (which may be NULL). */
static inline bool scn_strv_has(const char *const *v, const char *s)
{
	for (; v && *v; v++)
		if (!strcmp(*v, s))
			return true;
	return false;
}

/* 1 to 64 of A-Z a-z 0-9 _ . - (a scenario or expectation name). */
static inline bool scn_is_name(const char *s)
{
	if (!*s || strlen(s) > 64)
		return false;
	for (; *s; s++)
		if (!g_ascii_isalnum(*s) && !strchr("_.-", *s))
			return false;
	return true;
}

#endif /* ZL_SCN_LD_H */
