/*
 * zl_json_read.h — the one JSON reader of zonelab: a document flattened into
 * its leaves, each named by a dotted path ("wa.data",
 * "reorder_latency_ns.p99", "point.params.util"; array items ".0", ".1"...)
 * in document order, with the value's text kept exactly as written, so a
 * table copies a number the way the JSON had it.  It reads what the
 * simulator and `zonelab run` write (an object at the top; objects, arrays,
 * strings, numbers, true/false/null inside) and refuses anything else with
 * the byte offset.
 *
 * What it is not: a writer (the string escaper is zl_json.h) or a tree
 * (no navigation but by path).  Unlike the rest of common/ it uses GLib:
 * the document is a GPtrArray and a GHashTable its readers walk, and
 * errors are GErrors ("byte N: why") for the command-line layer to print;
 * that is why it has its own header and zl_json.h stays GLib-free.
 */
#ifndef ZL_JSON_READ_H
#define ZL_JSON_READ_H

#include <stddef.h>

#include <glib.h>

#define ZL_JSON_ERROR (zl_json_error_quark())
GQuark zl_json_error_quark(void);
enum { ZL_JSON_ERROR_SYNTAX = 1 };      /* the only code: the text is not JSON we read */

#define ZL_JSON_MAX_DEPTH 64            /* objects and arrays nested deeper are refused */

enum zl_json_kind { ZL_JSON_NUM, ZL_JSON_STR, ZL_JSON_BOOL, ZL_JSON_NULL };

struct zl_json_leaf {
	char *path;             /* "wa.data"; array items ".0", ".1"... */
	enum zl_json_kind kind;
	double num;             /* ZL_JSON_NUM; ZL_JSON_BOOL: 1 or 0 */
	char *text;             /* the value as written (a string unescaped) */
};

struct zl_json_doc {
	GPtrArray *leaves;      /* struct zl_json_leaf *, document order */
	GHashTable *by_path;    /* path -> leaf (borrowed); a repeated path: the last */
};

/**
 * zl_json_parse() - flatten @len bytes of JSON text.
 * @text: the document (borrowed; need not be NUL-terminated)
 * @len:  its length in bytes
 * @err:  where to put the error, or NULL
 *
 * Return: the document (caller destroys with zl_json_destroy()), or NULL
 * and *@err (ZL_JSON_ERROR_SYNTAX, "byte N: why") when the text is not one
 * JSON object, nests deeper than ZL_JSON_MAX_DEPTH, or has text after it.
 * A \u escape of NUL or of a lone surrogate reads as U+FFFD.
 */
struct zl_json_doc *zl_json_parse(const char *text, size_t len, GError **err);

/** zl_json_destroy() - free @j and its leaves; NULL is a no-op. */
void zl_json_destroy(struct zl_json_doc *j);

/**
 * zl_json_get() - the leaf at @path ("wa.data"), or NULL when the document
 * has none there (a path that names an object or array is not a leaf).
 * Borrowed: valid until zl_json_destroy(@j).
 */
const struct zl_json_leaf *zl_json_get(const struct zl_json_doc *j, const char *path);

#endif /* ZL_JSON_READ_H */
