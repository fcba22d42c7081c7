/*
 * zl_json.h — the one JSON string escaper of zonelab, for every place that
 * prints a string we do not control (paths, messages, fault rules) into
 * JSON: the control socket replies (zctl_cmd.c), `zonelab disk info --json`
 * and the simulator summary (sim_out.c).  It only escapes; building the
 * rest of an object stays with the caller.  No JSON parser here.
 *
 * The rule, so the output is valid JSON (RFC 8259) whatever the bytes of
 * the input: '"' and '\' get a backslash; control characters (below 0x20),
 * DEL and every byte that is not part of a well-formed UTF-8 sequence
 * (stray continuation byte, overlong form, surrogate, above U+10FFFF, cut
 * short) become \u00XX, XX the byte; well-formed UTF-8 is copied as is.
 */
#ifndef ZL_JSON_H
#define ZL_JSON_H

#include <stddef.h>
#include <stdio.h>

/**
 * zl_json_str() - @s as a JSON string literal, quotes included, into @buf.
 * @buf: where to write; may be NULL when @len is 0
 * @len: size of @buf in bytes
 * @s:   NUL-terminated string (borrowed), or NULL for the literal null
 *
 * Like snprintf: writes at most @len - 1 characters and a NUL (nothing when
 * @len is 0) and returns the length of the whole literal without the NUL,
 * so a return >= @len means the output was cut.  A cut may fall inside an
 * escape.
 */
size_t zl_json_str(char *buf, size_t len, const char *s);

/**
 * zl_json_fprint_str() - the literal of zl_json_str() written to @f.
 * Write errors are left in ferror(@f).
 */
void zl_json_fprint_str(FILE *f, const char *s);

#endif /* ZL_JSON_H */
