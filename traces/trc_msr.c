/*
 * trc_msr.c — MSR Cambridge block traces (SNIA IOTTA, Narayanan et al.
 * FAST '08): CSV lines "Timestamp,Hostname,DiskNumber,Type,Offset,Size,
 * ResponseTime", times in Windows FILETIME (100 ns ticks since 1601),
 * offset and size in bytes, Type "Read" or "Write".  No header in the
 * published files; a first line starting with "Timestamp" is skipped.
 * Times become Unix ns; DiskNumber is the device; ResponseTime the latency.
 */
#include "trc_int.h"

#include <errno.h>
#include <string.h>
#include <strings.h>

#define FILETIME_UNIX_EPOCH 116444736000000000ull

static bool is_header(const char *p, size_t n)
{
	return n >= 9 && !strncasecmp(p, "timestamp", 9);
}

static bool op_of(struct trc_field f, uint8_t *op)
{
	if (trc_field_is(f, "Write") || trc_field_is(f, "write") || trc_field_is(f, "W")) {
		*op = TRC_OP_WRITE;
		return true;
	}
	if (trc_field_is(f, "Read") || trc_field_is(f, "read") || trc_field_is(f, "R")) {
		*op = TRC_OP_READ;
		return true;
	}
	return false;
}

bool trc_msr_detect(const uint8_t *buf, size_t len)
{
	struct trc_field f[8];
	uint64_t v;
	uint8_t op;
	bool complete;
	size_t n = trc_first_line(buf, len, &complete);

	if (is_header((const char *)buf, n) && complete) {
		buf += n + 1;
		len -= n + 1;
		while (len && (*buf == '\n' || *buf == '\r')) {
			buf++;
			len--;
		}
		n = trc_first_line(buf, len, &complete);
	}
	if (trc_split((const char *)buf, n, ',', f, 7) != 7)
		return false;
	return trc_parse_u64(f[0], &v) && f[0].n >= 15 && op_of(f[3], &op) &&
	       trc_parse_u64(f[2], &v) && trc_parse_u64(f[4], &v);
}

/* Digits up to @stop at *p; false on anything else, an empty field or
 * overflow.  Up to 19 digits cannot overflow: only the 20th is checked. */
static inline bool num(const char **p, const char *end, char stop, uint64_t *out)
{
	const char *q = *p, *lim = end - q > 19 ? q + 19 : end;
	uint64_t v = 0;

	if (q == end || *q == stop)
		return false;
	for (; q < lim; q++) {
		unsigned d = (unsigned)(*q - '0');

		if (d > 9)
			break;
		v = v * 10 + d;
	}
	if (q < end && *q != stop) {
		unsigned d = (unsigned)(*q - '0');

		if (q != lim || d > 9 || __builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, d, &v))
			return false;
		q++;
		if (q < end && *q != stop)
			return false;
	}
	if (stop && q == end)
		return false;
	*p = q + (q < end);
	*out = v;
	return true;
}

/*
 * The common line in one pass: "digits,host,digits,Read|Write,digits,digits,digits".
 * False (nothing set) for anything else: the general parser then decides and
 * says what is wrong.  test_trc's malformed cases go through both.
 */
static bool msr_fast(const char *p, size_t len, struct trc_rec *rec)
{
	const char *end = p + len, *c;
	uint64_t ft, disk, off, size, resp;
	uint8_t op;

	if (!num(&p, end, ',', &ft))
		return false;
	c = memchr(p, ',', (size_t)(end - p));
	if (!c)
		return false;
	p = c + 1;
	if (!num(&p, end, ',', &disk) || disk > UINT32_MAX)
		return false;
	if (end - p >= 6 && !memcmp(p, "Write,", 6)) {
		op = TRC_OP_WRITE;
		p += 6;
	} else if (end - p >= 5 && !memcmp(p, "Read,", 5)) {
		op = TRC_OP_READ;
		p += 5;
	} else {
		return false;
	}
	if (!num(&p, end, ',', &off) || !num(&p, end, ',', &size) || !num(&p, end, 0, &resp) || p != end)
		return false;
	if (ft < FILETIME_UNIX_EPOCH || ft - FILETIME_UNIX_EPOCH > UINT64_MAX / 100 || size > UINT64_MAX - off ||
	    resp > UINT64_MAX / 100)
		return false;
	rec->ts_ns = (ft - FILETIME_UNIX_EPOCH) * 100;
	rec->offset_bytes = off;
	rec->len_bytes = size;
	rec->latency_ns = resp * 100;
	rec->dev = (uint32_t)disk;
	rec->op = op;
	rec->pid = 0;
	rec->status = 0;
	rec->hint = 0;
	rec->has = TRC_HAS_DEV | TRC_HAS_LATENCY;
	return true;
}

static int msr_next(struct trc_reader *r, struct trc_rec *rec)
{
	const char *line;
	size_t len;
	struct trc_field f[8];
	uint64_t ft, disk, off, size, resp;
	int ret, nf;

	do {
		ret = trc_next_line(r, &line, &len);
		if (ret <= 0)
			return ret;
	} while (r->in.line == 1 && is_header(line, len));
	if (msr_fast(line, len, rec))
		return 1;
	nf = trc_split(line, len, ',', f, 7);
	if (nf != 7)
		return trc_err_line(r, -EINVAL, "%s fields, MSR lines have 7 "
				    "(Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime)",
				    nf > 7 ? "more than 7" : nf == 1 ? "1 field" : "fewer");
	if (!trc_parse_u64(f[0], &ft))
		return trc_err_line(r, -EINVAL, "Timestamp '%.*s' is not a FILETIME (unsigned integer)",
				    (int)(f[0].n > 40 ? 40 : f[0].n), f[0].p);
	if (ft < FILETIME_UNIX_EPOCH || ft - FILETIME_UNIX_EPOCH > UINT64_MAX / 100)
		return trc_err_line(r, -EINVAL, "Timestamp %llu is outside 1970..2554",
				    (unsigned long long)ft);
	if (!op_of(f[3], &rec->op))
		return trc_err_line(r, -EINVAL, "Type '%.*s' is neither Read nor Write",
				    (int)(f[3].n > 40 ? 40 : f[3].n), f[3].p);
	if (!trc_parse_u64(f[2], &disk) || disk > UINT32_MAX)
		return trc_err_line(r, -EINVAL, "DiskNumber '%.*s' is not a 32-bit unsigned integer",
				    (int)(f[2].n > 40 ? 40 : f[2].n), f[2].p);
	if (!trc_parse_u64(f[4], &off))
		return trc_err_line(r, -EINVAL, "Offset '%.*s' is not an unsigned integer",
				    (int)(f[4].n > 40 ? 40 : f[4].n), f[4].p);
	if (!trc_parse_u64(f[5], &size) || size > UINT64_MAX - off)
		return trc_err_line(r, -EINVAL, "Size '%.*s' is not an unsigned integer (or Offset + Size overflows)",
				    (int)(f[5].n > 40 ? 40 : f[5].n), f[5].p);
	if (!trc_parse_u64(f[6], &resp) || resp > UINT64_MAX / 100)
		return trc_err_line(r, -EINVAL, "ResponseTime '%.*s' is not an unsigned integer",
				    (int)(f[6].n > 40 ? 40 : f[6].n), f[6].p);
	rec->ts_ns = (ft - FILETIME_UNIX_EPOCH) * 100;
	rec->offset_bytes = off;
	rec->len_bytes = size;
	rec->latency_ns = resp * 100;
	rec->dev = (uint32_t)disk;
	rec->pid = 0;
	rec->status = 0;
	rec->hint = 0;
	rec->has = TRC_HAS_DEV | TRC_HAS_LATENCY;
	return 1;
}

int trc_msr_open(struct trc_reader *r)
{
	r->next = msr_next;
	return 0;
}
