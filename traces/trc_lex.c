/*
 * trc_lex.c — what every format reader lexes with: the buffered input over
 * one file (bytes and lines), the "PATH:LINE:" / "PATH: byte OFF:" error
 * messages, and the field splitters and number parsers of the text formats.
 * It knows no format and no format table: those are trc_read.c (the table,
 * detection, filters) and one trc_<format>.c each, which call down into
 * this file and never the other way.
 */
#include "trc_int.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- input ---------------------------------------------------------------- */

int trc_in_open(struct trc_in *in, const char *path)
{
	return trc_in_open_cap(in, path, TRC_IN_BUF);
}

int trc_in_open_cap(struct trc_in *in, const char *path, size_t cap)
{
	struct stat st;

	memset(in, 0, sizeof(*in));
	in->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (in->fd < 0)
		return -errno;
	if (fstat(in->fd, &st) == 0 && S_ISREG(st.st_mode))
		in->size = (uint64_t)st.st_size;
	/* a file smaller than the buffer gets a buffer its size (still the
	 * longest line it can hold): small files, as the fuzzer's, stay cheap */
	if (in->size && in->size < cap - (64u << 10))
		cap = (size_t)in->size + (64u << 10);
	in->cap = cap;
	in->buf = malloc(cap + TRC_IN_PAD);
	if (!in->buf) {
		close(in->fd);
		in->fd = -1;
		return -ENOMEM;
	}
	memset(in->buf + cap, 0, TRC_IN_PAD);
	posix_fadvise(in->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	return 0;
}

void trc_in_close(struct trc_in *in)
{
	if (in->fd >= 0)
		close(in->fd);
	in->fd = -1;
	free(in->buf);
	in->buf = NULL;
}

long trc_in_fill(struct trc_in *in, size_t need)
{
	if (need > in->cap)
		need = in->cap;
	while (in->len - in->pos < need && !in->eof) {
		ssize_t n;

		if (in->pos) {
			memmove(in->buf, in->buf + in->pos, in->len - in->pos);
			in->base += in->pos;
			in->len -= in->pos;
			in->pos = 0;
		}
		n = read(in->fd, in->buf + in->len, in->cap - in->len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			in->eof = true;
		in->len += (size_t)n;
	}
	return (long)(in->len - in->pos);
}

int trc_in_line(struct trc_in *in, const char **line, size_t *len)
{
	for (;;) {
		const uint8_t *s = in->buf + in->pos;
		size_t avail = in->len - in->pos;
		const uint8_t *nl = memchr(s, '\n', avail);
		long got;

		if (nl) {
			size_t n = (size_t)(nl - s);

			in->pos += n + 1;
			in->line++;
			if (n && s[n - 1] == '\r')
				n--;
			*line = (const char *)s;
			*len = n;
			return 1;
		}
		if (in->eof) {
			if (!avail)
				return 0;
			in->line++;
			*line = (const char *)s;
			*len = avail;
			in->pos = in->len;
			return -EINVAL;        /* truncated: no newline at the end */
		}
		if (avail >= in->cap) {
			in->line++;
			*len = avail;
			in->pos = in->len;     /* give up on this buffer */
			in->eof = true;
			return -E2BIG;
		}
		got = trc_in_fill(in, avail + 1);
		if (got < 0)
			return (int)got;
	}
}

/* ---- messages ------------------------------------------------------------- */

int trc_err_line(struct trc_reader *r, int err, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(r->msg, sizeof(r->msg), "%s:%" PRIu64 ": ", r->path, r->in.line);
	if (n < 0 || (size_t)n >= sizeof(r->msg))
		return err;
	va_start(ap, fmt);
	vsnprintf(r->msg + n, sizeof(r->msg) - (size_t)n, fmt, ap);
	va_end(ap);
	return err;
}

int trc_err_off(struct trc_reader *r, int err, uint64_t off, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(r->msg, sizeof(r->msg), "%s: byte %" PRIu64 ": ", r->path, off);
	if (n < 0 || (size_t)n >= sizeof(r->msg))
		return err;
	va_start(ap, fmt);
	vsnprintf(r->msg + n, sizeof(r->msg) - (size_t)n, fmt, ap);
	va_end(ap);
	return err;
}

/* ---- fields --------------------------------------------------------------- */

int trc_split(const char *line, size_t len, char sep, struct trc_field *f, int max)
{
	const char *p = line, *end = line + len;
	int n = 0;

	for (;;) {
		const char *q = memchr(p, sep, (size_t)(end - p));

		if (n == max)
			return max + 1;
		f[n].p = p;
		f[n].n = (size_t)((q ? q : end) - p);
		n++;
		if (!q)
			return n;
		p = q + 1;
	}
}

int trc_split_ws(const char *line, size_t len, struct trc_field *f, int max)
{
	size_t i = 0;
	int n = 0;

	for (;;) {
		size_t s;

		while (i < len && (line[i] == ' ' || line[i] == '\t'))
			i++;
		if (i == len)
			return n;
		if (n == max)
			return max + 1;
		s = i;
		while (i < len && line[i] != ' ' && line[i] != '\t')
			i++;
		f[n].p = line + s;
		f[n].n = i - s;
		n++;
	}
}

static struct trc_field trim(struct trc_field f)
{
	while (f.n && (*f.p == ' ' || *f.p == '\t')) {
		f.p++;
		f.n--;
	}
	while (f.n && (f.p[f.n - 1] == ' ' || f.p[f.n - 1] == '\t'))
		f.n--;
	return f;
}

bool trc_parse_u64(struct trc_field f, uint64_t *out)
{
	uint64_t v = 0;

	f = trim(f);
	if (!f.n || f.n > 20)
		return false;
	for (size_t i = 0; i < f.n; i++) {
		unsigned d = (unsigned)(f.p[i] - '0');

		if (d > 9)
			return false;
		if (v > (UINT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*out = v;
	return true;
}

bool trc_parse_sec_ns(struct trc_field f, uint64_t *out)
{
	struct trc_field ip, fp = { NULL, 0 };
	const char *dot;
	uint64_t s, frac = 0;
	size_t i;

	f = trim(f);
	dot = memchr(f.p, '.', f.n);
	ip.p = f.p;
	ip.n = dot ? (size_t)(dot - f.p) : f.n;
	if (dot) {
		fp.p = dot + 1;
		fp.n = f.n - ip.n - 1;
	}
	if (ip.n == 0 && fp.n == 0)
		return false;
	s = 0;
	if (ip.n && !trc_parse_u64(ip, &s))
		return false;
	for (i = 0; i < fp.n; i++) {
		unsigned d = (unsigned)(fp.p[i] - '0');

		if (d > 9)
			return false;
		if (i < 9)
			frac = frac * 10 + d;
	}
	for (; i < 9; i++)
		frac *= 10;
	if (s > (UINT64_MAX - frac) / 1000000000ull)
		return false;
	*out = s * 1000000000ull + frac;
	return true;
}

bool trc_field_is(struct trc_field f, const char *s)
{
	f = trim(f);
	return strlen(s) == f.n && !memcmp(f.p, s, f.n);
}

size_t trc_first_line(const uint8_t *buf, size_t len, bool *complete)
{
	const uint8_t *nl = memchr(buf, '\n', len);
	size_t n = nl ? (size_t)(nl - buf) : len;

	*complete = nl != NULL;
	if (n && buf[n - 1] == '\r')
		n--;
	return n;
}

/* ---- lines and CSV records of a text trace --------------------------------- */

int trc_next_line(struct trc_reader *r, const char **line, size_t *len)
{
	for (;;) {
		int ret = trc_in_line(&r->in, line, len);

		if (ret == 0)
			return 0;
		if (ret == -EINVAL)
			return trc_err_line(r, -EINVAL, "truncated last line (no newline at the end of the file)");
		if (ret == -E2BIG)
			return trc_err_line(r, -EBADMSG, "line longer than %zu bytes", r->in.cap);
		if (ret < 0)
			return trc_err_line(r, ret, "read error: %s", strerror(-ret));
		if (*len)
			return 1;
	}
}

int trc_next_csv(struct trc_reader *r, bool (*is_header)(const char *p, size_t n),
		 struct trc_field *f, int nr, const char *names)
{
	const char *line;
	size_t len;
	int ret, nf;

	do {
		ret = trc_next_line(r, &line, &len);
		if (ret <= 0)
			return ret;
	} while (r->in.line == 1 && is_header(line, len));
	nf = trc_split(line, len, ',', f, nr);
	if (nf != nr)
		return trc_err_line(r, -EINVAL, "%s than %d fields (%s)", nf > nr ? "more" : "fewer", nr,
				    names);
	return 1;
}
