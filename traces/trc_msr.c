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

/*
 * The fast path: the common line "digits,host,digits,Write|Read,digits,
 * digits,digits\n" parsed where it lies in the input buffer.  One 64-byte
 * window gives, as bit masks, the newline, the commas and the bytes that
 * are not digits (SSE2, the x86-64 baseline; 8-byte words elsewhere): the
 * line is well formed when its only non-digits are the six commas and the
 * host and type fields, so each number is then converted 8 digits at a
 * time without further checks (Lemire's "parse_eight_digits_unrolled").
 * Anything else (a longer line, spaces, other spellings, an empty, too long
 * or overflowing number, '\r', the first line, the end of the file)
 * returns false with nothing consumed, and the general parser below decides
 * and says what is wrong; the unit tests run malformed lines through both.
 */
#define FAST_WIN 64                  /* the longest line the fast path takes, with its '\n' */
#define FAST_NEED (FAST_WIN + 8)     /* bytes it may load: the window, and 8 past a field's start */

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define HAVE_FAST 1

struct masks {
	uint64_t nl, comma, nondigit;  /* bit k: p[k] is '\n', ',', not '0'..'9' */
};

#ifdef __SSE2__
#include <emmintrin.h>

static inline __attribute__((always_inline)) void masks64(const uint8_t *p, struct masks *m)
{
	const __m128i nl = _mm_set1_epi8('\n'), comma = _mm_set1_epi8(','), zero = _mm_set1_epi8('0'),
		      nine = _mm_set1_epi8('9');

	m->nl = m->comma = m->nondigit = 0;
	for (int k = 0; k < 4; k++) {
		__m128i v = _mm_loadu_si128((const __m128i *)(p + 16 * k));
		__m128i nd = _mm_or_si128(_mm_cmplt_epi8(v, zero), _mm_cmpgt_epi8(v, nine));   /* signed: >= 0x80 too */

		m->nl |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, nl)) << (16 * k);
		m->comma |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, comma)) << (16 * k);
		m->nondigit |= (uint64_t)(uint16_t)_mm_movemask_epi8(nd) << (16 * k);
	}
}
#else
/* Bit b set for each byte b of @t whose top bit is set. */
static inline uint64_t top_bits(uint64_t t)
{
	return (((t & 0x8080808080808080ull) >> 7) * 0x0102040810204080ull) >> 56;
}

static inline void masks64(const uint8_t *p, struct masks *m)
{
	const uint64_t lo7 = 0x7f7f7f7f7f7f7f7full, ones = 0x0101010101010101ull;

	m->nl = m->comma = m->nondigit = 0;
	for (int k = 0; k < 8; k++) {
		uint64_t v, a, b, d;

		memcpy(&v, p + 8 * k, 8);
		a = v ^ (ones * '\n');
		b = v ^ (ones * ',');
		d = v ^ (ones * '0');
		m->nl |= top_bits(~(((a & lo7) + lo7) | a)) << (8 * k);              /* zero bytes */
		m->comma |= top_bits(~(((b & lo7) + lo7) | b)) << (8 * k);
		m->nondigit |= top_bits(((d & lo7) + ones * 0x76) | d) << (8 * k);   /* d >= 10 */
	}
}
#endif

/* The value of 8 digits, the first at the lowest address. */
static inline uint64_t eight_value(uint64_t v)
{
	v = ((v & 0x0f0f0f0f0f0f0f0full) * 2561) >> 8;
	v = ((v & 0x00ff00ff00ff00ffull) * 6553601) >> 16;
	return ((v & 0x0000ffff0000ffffull) * 42949672960001ull) >> 32;
}

/* The first @n (1-8) digits at @p (8 bytes readable) as a number. */
static inline __attribute__((always_inline)) uint64_t some_digits(const uint8_t *p, unsigned n)
{
	unsigned sh = 8 * (8 - n);
	uint64_t v;

	memcpy(&v, p, 8);
	return eight_value(v << sh);         /* the zero bytes shifted in are leading zeros */
}

/* The number of the @n digits at @p (8 bytes past p + n - 8 readable):
 * false for an empty field, more than 20 digits or a value past UINT64_MAX
 * (like trc_parse_u64() without its trimming). */
static inline __attribute__((always_inline)) bool fast_num(const uint8_t *p, size_t n, uint64_t *out)
{
	uint64_t a;

	if (n - 1 >= 20)
		return false;
	if (n <= 8) {
		*out = some_digits(p, (unsigned)n);
		return true;
	}
	if (n <= 16) {
		*out = some_digits(p, (unsigned)n - 8) * 100000000u + some_digits(p + n - 8, 8);
		return true;
	}
	a = some_digits(p, (unsigned)n - 16);
	return !__builtin_mul_overflow(a, 10000000000000000ull, &a) &&
	       !__builtin_add_overflow(a, some_digits(p + n - 16, 8) * 100000000u + some_digits(p + n - 8, 8), out);
}

/* Bits strictly between @a and @b (a < b < 64). */
static inline uint64_t between(unsigned a, unsigned b)
{
	return ((1ull << b) - 1) & ~((2ull << a) - 1);
}

/* The next line if it is a common one: the record, and the line consumed. */
static bool msr_fast(struct trc_in *in, struct trc_rec *rec)
{
	const uint8_t *p = in->buf + in->pos;
	uint64_t cm, line, ft, disk, off, size, resp;
	struct masks m;
	unsigned c[6], nl;
	uint8_t op;

	masks64(p, &m);
	if (!m.nl)
		return false;
	nl = (unsigned)__builtin_ctzll(m.nl);
	line = (1ull << nl) - 1;
	cm = m.comma & line;
	for (int k = 0; k < 6; k++) {
		if (!cm)
			return false;
		c[k] = (unsigned)__builtin_ctzll(cm);
		cm &= cm - 1;
	}
	if (cm || (m.nondigit & line & ~(m.comma | between(c[0], c[1]) | between(c[2], c[3]))))
		return false;
	if (c[3] - c[2] == 6 && !memcmp(p + c[2] + 1, "Write", 5))
		op = TRC_OP_WRITE;
	else if (c[3] - c[2] == 5 && !memcmp(p + c[2] + 1, "Read", 4))
		op = TRC_OP_READ;
	else
		return false;
	if (!fast_num(p, c[0], &ft) || !fast_num(p + c[1] + 1, c[2] - c[1] - 1, &disk) ||
	    !fast_num(p + c[3] + 1, c[4] - c[3] - 1, &off) || !fast_num(p + c[4] + 1, c[5] - c[4] - 1, &size) ||
	    !fast_num(p + c[5] + 1, nl - c[5] - 1, &resp))
		return false;
	if (disk > UINT32_MAX || ft < FILETIME_UNIX_EPOCH || ft - FILETIME_UNIX_EPOCH > UINT64_MAX / 100 ||
	    size > UINT64_MAX - off || resp > UINT64_MAX / 100)
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
	in->pos += nl + 1;
	in->line++;
	return true;
}
#else
#define HAVE_FAST 0
#endif

static int msr_next(struct trc_reader *r, struct trc_rec *rec)
{
	const char *line;
	size_t len;
	struct trc_field f[8];
	uint64_t ft, disk, off, size, resp;
	int ret, nf;

#if HAVE_FAST
	if (r->in.line) {
		if (r->in.len - r->in.pos < FAST_NEED)
			trc_in_fill(&r->in, FAST_NEED);      /* an error comes again below */
		if (r->in.len - r->in.pos >= FAST_NEED && msr_fast(&r->in, rec))
			return 1;
	}
#endif
	do {
		ret = trc_next_line(r, &line, &len);
		if (ret <= 0)
			return ret;
	} while (r->in.line == 1 && is_header(line, len));
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
