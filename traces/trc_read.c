/*
 * trc_read.c — the reader interface: the format table (one row per format,
 * in detection order), opening by name or by sniffing the first bytes, the
 * filters every reader shares (device, op, time window), --lenient, and the
 * buffered input and small parsers the format files use.  No format is
 * parsed here: each lives in its own trc_<format>.c.
 */
#include "trc_int.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Binary formats first (magic numbers), then text by its first line. */
const struct trc_format trc_formats[] = {
	{ "native", "zonelab native binary trace (docs/TRACES.md)", trc_native_detect, trc_native_open },
	{ "ztrace", "zonelab command trace (docs/TRACE-FORMAT.md)", trc_ztrace_detect, trc_ztrace_open },
	{ "blktrace", "blktrace binary, NAME.blktrace.N per CPU (v7, v8; either byte order)",
	  trc_blktrace_detect, trc_blktrace_open },
	{ "iolog", "fio iolog version 2 or 3", trc_iolog_detect, trc_iolog_open },
	{ "blkparse", "blkparse default text output", trc_blkparse_detect, trc_blkparse_open },
	{ "msr", "MSR Cambridge CSV (SNIA IOTTA)", trc_msr_detect, trc_msr_open },
	{ "alibaba", "Alibaba Cloud block trace CSV (2020)", trc_alibaba_detect, trc_alibaba_open },
	{ "tencent", "Tencent CBS CSV (OSCA, 2018)", trc_tencent_detect, trc_tencent_open },
	{ "spc", "SPC ASCII (UMass Financial / WebSearch)", trc_spc_detect, trc_spc_open },
};
const size_t trc_nr_formats = sizeof(trc_formats) / sizeof(trc_formats[0]);

const struct trc_format *trc_format_find(const char *name)
{
	for (size_t i = 0; i < trc_nr_formats; i++)
		if (!strcmp(trc_formats[i].name, name))
			return &trc_formats[i];
	return NULL;
}

void trc_reader_cfg_init(struct trc_reader_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->event = TRC_EV_DISPATCH;
}

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

/* ---- the reader ----------------------------------------------------------- */

int trc_reader_open(const char *path, const struct trc_reader_cfg *cfg, struct trc_reader **out,
		    char *msg, size_t msg_len)
{
	struct trc_reader *r;
	const struct trc_format *fmt = NULL;
	long got;
	int ret;

	r = calloc(1, sizeof(*r));
	if (!r) {
		snprintf(msg, msg_len, "%s: out of memory", path);
		return -ENOMEM;
	}
	if (cfg)
		r->cfg = *cfg;
	else
		trc_reader_cfg_init(&r->cfg);
	snprintf(r->path, sizeof(r->path), "%s", path);
	if (r->cfg.format && strcmp(r->cfg.format, "auto")) {
		fmt = trc_format_find(r->cfg.format);
		if (!fmt) {
			char *p = msg;
			size_t left = msg_len;
			int n = snprintf(p, left, "unknown trace format '%s' (formats: auto", r->cfg.format);

			for (size_t i = 0; i < trc_nr_formats && n > 0 && (size_t)n < left; i++) {
				p += n;
				left -= (size_t)n;
				n = snprintf(p, left, ", %s", trc_formats[i].name);
			}
			if (n > 0 && (size_t)n < left)
				snprintf(p + n, left - (size_t)n, ")");
			free(r);
			return -EINVAL;
		}
	}
	ret = trc_in_open(&r->in, path);
	if (ret) {
		snprintf(msg, msg_len, "%s: cannot open: %s", path, strerror(-ret));
		free(r);
		return ret;
	}
	got = trc_in_fill(&r->in, TRC_DETECT_BYTES);
	if (got < 0) {
		snprintf(msg, msg_len, "%s: cannot read: %s", path, strerror((int)-got));
		ret = (int)got;
		goto out_close;
	}
	if (!fmt) {
		for (size_t i = 0; i < trc_nr_formats; i++)
			if (trc_formats[i].detect(r->in.buf, (size_t)got)) {
				fmt = &trc_formats[i];
				break;
			}
		if (!fmt) {
			char *p = msg;
			size_t left = msg_len;
			int n = snprintf(p, left, "%s: %s; formats tried:", path,
					 got ? "not a trace format zonelab reads" : "empty file");

			for (size_t i = 0; i < trc_nr_formats && n > 0 && (size_t)n < left; i++) {
				p += n;
				left -= (size_t)n;
				n = snprintf(p, left, "%s %s", i ? "," : "", trc_formats[i].name);
			}
			ret = -EPROTO;
			goto out_close;
		}
	}
	r->fmt = fmt;
	r->plain = !r->cfg.lenient && !r->cfg.dev_filter && !r->cfg.op_mask && !r->cfg.from_ns && !r->cfg.to_ns;
	ret = fmt->open(r);
	if (ret) {
		snprintf(msg, msg_len, "%s", r->msg[0] ? r->msg : strerror(-ret));
		if (r->close)
			r->close(r);
		goto out_close;
	}
	*out = r;
	return 0;

out_close:
	trc_in_close(&r->in);
	free(r);
	return ret;
}

static bool keep(struct trc_reader *r, const struct trc_rec *rec)
{
	const struct trc_reader_cfg *c = &r->cfg;

	if (!r->have_first) {
		r->have_first = true;
		r->first_ns = rec->ts_ns;
	}
	if (c->dev_filter && (rec->has & TRC_HAS_DEV) && rec->dev != c->dev)
		return false;
	if (c->op_mask && !(c->op_mask & (1u << rec->op)))
		return false;
	if (c->from_ns || c->to_ns) {
		uint64_t t = rec->ts_ns >= r->first_ns ? rec->ts_ns - r->first_ns : 0;

		if (t < c->from_ns || (c->to_ns && t >= c->to_ns))
			return false;
	}
	return true;
}

/* The error a batch left for the next call: returned once, then the end. */
static int take_pending(struct trc_reader *r)
{
	int ret = r->pending;

	r->pending = 0;
	r->done = true;
	return ret;
}

int trc_reader_next(struct trc_reader *r, struct trc_rec *rec)
{
	if (__builtin_expect(r->pending, 0))     /* behind a batch (trc_reader_batch()) */
		return take_pending(r);
	if (r->ahead != r->ahead_end && r->plain) {   /* decoded ahead, nothing to filter */
		*rec = *r->ahead++;
		return 1;
	}
	if (r->plain) {                  /* nothing to filter or skip: the format's own next() */
		int ret = r->done ? 0 : r->next(r, rec);

		if (ret != 1)
			r->done = true;
		return ret;
	}
	for (;;) {
		int ret;

		if (r->done)
			return 0;
		if (r->ahead != r->ahead_end) {
			*rec = *r->ahead++;
			ret = 1;
		} else {
			ret = r->next(r, rec);
		}
		if (ret == 1) {
			if (keep(r, rec))
				return 1;
			continue;
		}
		if (ret == 0) {
			r->done = true;
			return 0;
		}
		if (ret == -EINVAL && r->cfg.lenient) {
			r->nr_bad++;
			continue;
		}
		r->done = true;
		return ret;
	}
}

int trc_reader_batch(struct trc_reader *r, const struct trc_rec **recs)
{
	int k, ret;

	if (r->pending)                  /* found behind the last batch */
		return take_pending(r);
	if (r->plain && r->ahead != r->ahead_end) {   /* decoded ahead, nothing to filter */
		*recs = r->ahead;
		k = (int)(r->ahead_end - r->ahead);
		r->ahead = r->ahead_end;
		return k;
	}
	if (r->plain && r->batch) {      /* the format's own */
		if (r->done)
			return 0;
		ret = r->batch(r, recs);
		if (ret <= 0)
			r->done = true;
		return ret;
	}
	for (k = 0; k < TRC_BATCH; k++) {
		ret = trc_reader_next(r, &r->slots[k]);
		if (ret != 1)
			break;
	}
	if (k == 0)
		return ret;
	if (k < TRC_BATCH && ret < 0)
		r->pending = ret;
	*recs = r->slots;
	return k;
}

const char *trc_reader_msg(const struct trc_reader *r)
{
	return r->msg;
}

const char *trc_reader_format(const struct trc_reader *r)
{
	return r->fmt->name;
}

uint64_t trc_reader_nr_bad(const struct trc_reader *r)
{
	return r->nr_bad;
}

uint64_t trc_reader_pos(const struct trc_reader *r)
{
	return r->pos ? r->pos(r) : r->in.base + r->in.pos;
}

uint64_t trc_reader_size(const struct trc_reader *r)
{
	return r->size ? r->size(r) : r->in.size;
}

void trc_reader_close(struct trc_reader *r)
{
	if (!r)
		return;
	if (r->close)
		r->close(r);
	trc_in_close(&r->in);
	free(r);
}

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
