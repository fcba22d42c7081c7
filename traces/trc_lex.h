/*
 * trc_lex.h — the lexing helpers every format reader uses (trc_lex.c): a
 * buffered byte/line input over one file, the error-message helpers, and
 * the field splitters and number parsers of the text formats.  Private to
 * traces/ and below the readers: nothing here knows a format or the
 * format table (trc_read.c, trc_int.h).
 */
#ifndef TRC_LEX_H
#define TRC_LEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct trc_reader;                   /* trc_int.h */

#define TRC_IN_BUF (1u << 20)        /* input buffer (large: a read() is a costly syscall here); also the longest line */
#define TRC_IN_PAD 64                /* allocated past the buffer's end: a decoder may load 8-byte words a little past its data */

/* A buffered input over one file descriptor. */
struct trc_in {
	int fd;
	uint8_t *buf;
	size_t pos, len;             /* unread bytes are buf[pos, len) */
	uint64_t base;               /* file offset of buf[0] */
	uint64_t size;               /* file size (0 if unknown) */
	uint64_t line;               /* number of the line last returned, from 1 */
	size_t cap;                  /* bytes at buf */
	bool eof;
};

int trc_in_open(struct trc_in *in, const char *path);
/* The same with a buffer of @cap bytes (the longest line / record it can hold). */
int trc_in_open_cap(struct trc_in *in, const char *path, size_t cap);
void trc_in_close(struct trc_in *in);
/* Make at least @need bytes readable at in->buf + in->pos (less at EOF).
 * Returns the bytes available, or -errno. */
long trc_in_fill(struct trc_in *in, size_t need);

/*
 * The next line, without its '\n' (and a '\r' before it).  1 with
 * @line and @len set (valid until the next call), 0 at the end, -EINVAL for a
 * last line without '\n' (truncated: consumed, *len set) or a line longer
 * than the buffer (-E2BIG), -errno on read errors.
 */
int trc_in_line(struct trc_in *in, const char **line, size_t *len);

/* The next non-empty line of a text trace, with the errors of
 * trc_in_line() turned into messages (truncated last line: -EINVAL). */
int trc_next_line(struct trc_reader *r, const char **line, size_t *len);

/* Message helpers: "PATH:LINE: ..." and "PATH: byte OFF: ...".  Return @err. */
int trc_err_line(struct trc_reader *r, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int trc_err_off(struct trc_reader *r, int err, uint64_t off, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* A comma-separated field list: up to @max fields of @line; returns the count
 * (max + 1 when there are more). */
struct trc_field {
	const char *p;
	size_t n;
};
int trc_split(const char *line, size_t len, char sep, struct trc_field *f, int max);
/*
 * trc_next_csv() - the next data line of a CSV reader split into exactly
 * @nr fields (f[] holds nr + 1), a first line that @is_header() accepts
 * skipped.  1, 0 at the end, or a line error naming the field count and
 * @names (the columns, for the message).
 */
int trc_next_csv(struct trc_reader *r, bool (*is_header)(const char *p, size_t n),
		 struct trc_field *f, int nr, const char *names);
/* Whitespace-separated fields (runs of spaces/tabs). */
int trc_split_ws(const char *line, size_t len, struct trc_field *f, int max);

/* Decimal unsigned integer that is the whole field (optional surrounding
 * spaces); false on anything else or overflow. */
bool trc_parse_u64(struct trc_field f, uint64_t *out);
/* Non-negative decimal "S[.FFFFFFFFF]" scaled by 1e9 -> ns. */
bool trc_parse_sec_ns(struct trc_field f, uint64_t *out);
bool trc_field_is(struct trc_field f, const char *s);
/* printf arguments for "%.*s" showing at most 40 bytes of a field. */
#define TRC_FLD(f) (int)((f).n > 40 ? 40 : (f).n), (f).p

/* Same tests on the raw first bytes (detect): the first line of @buf. */
size_t trc_first_line(const uint8_t *buf, size_t len, bool *complete);

#endif /* TRC_LEX_H */
