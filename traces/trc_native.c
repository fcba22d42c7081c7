/*
 * trc_native.c — the native binary trace, a 64-byte header then records
 * holding every field of struct trc_rec (docs/TRACES.md has the layouts).
 * Version 2, what `zonelab trace convert --to native` (trc_write.c) writes:
 * blocks of records, each a 16-bit control word (op and the byte width of
 * each variable field) in the block's control array and its fields, delta
 * coded, in the block's data area, ~12 bytes a record where version 1 took
 * 48; a checksum per block and an end block, so corruption and truncation
 * are found.  Version 1: fixed 48-byte little-endian records, still read.
 * This file has both codecs and the reader.
 */
#include "trc_int.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "zl_crc.h"
#include "zl_le.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#define HAS_KNOWN (TRC_HAS_DEV | TRC_HAS_LATENCY | TRC_HAS_STATUS | TRC_HAS_PID | TRC_HAS_HINT | TRC_HAS_ALL)

void trc_native_rec_encode(const struct trc_rec *rec, uint8_t b[TRC_NATIVE_REC_SIZE])
{
	zl_put_le64(b + 0, rec->ts_ns);
	zl_put_le64(b + 8, rec->offset_bytes);
	zl_put_le64(b + 16, rec->len_bytes);
	zl_put_le64(b + 24, rec->latency_ns);
	zl_put_le32(b + 32, rec->dev);
	zl_put_le32(b + 36, rec->pid);
	zl_put_le32(b + 40, rec->status);
	b[44] = rec->op;
	b[45] = rec->hint;
	zl_put_le16(b + 46, rec->has);
}

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* On a little-endian host a record is struct trc_rec byte for byte: decoding
 * is one copy (native_next()). */
#define REC_IS_LAYOUT 1
_Static_assert(sizeof(struct trc_rec) == TRC_NATIVE_REC_SIZE && offsetof(struct trc_rec, offset_bytes) == 8 &&
	       offsetof(struct trc_rec, len_bytes) == 16 && offsetof(struct trc_rec, latency_ns) == 24 &&
	       offsetof(struct trc_rec, dev) == 32 && offsetof(struct trc_rec, pid) == 36 &&
	       offsetof(struct trc_rec, status) == 40 && offsetof(struct trc_rec, op) == 44 &&
	       offsetof(struct trc_rec, hint) == 45 && offsetof(struct trc_rec, has) == 46,
	       "struct trc_rec is not the native record layout");
#else
#define REC_IS_LAYOUT 0
#endif

/* The checks of a decoded record: 0 or -EINVAL. */
static inline int rec_check(const struct trc_rec *rec)
{
	if (rec->op >= TRC_NR_OPS || (rec->has & ~HAS_KNOWN) || rec->hint > 5 ||
	    rec->len_bytes > UINT64_MAX - rec->offset_bytes)
		return -EINVAL;
	return 0;
}

bool trc_native_rec_valid(const struct trc_rec *rec)
{
	return rec_check(rec) == 0;
}

int trc_native_rec_decode(const uint8_t b[TRC_NATIVE_REC_SIZE], struct trc_rec *rec)
{
	rec->ts_ns = zl_get_le64(b + 0);
	rec->offset_bytes = zl_get_le64(b + 8);
	rec->len_bytes = zl_get_le64(b + 16);
	rec->latency_ns = zl_get_le64(b + 24);
	rec->dev = zl_get_le32(b + 32);
	rec->pid = zl_get_le32(b + 36);
	rec->status = zl_get_le32(b + 40);
	rec->op = b[44];
	rec->hint = b[45];
	rec->has = zl_get_le16(b + 46);
	return rec_check(rec);
}

/* ---- version 2: the codec ------------------------------------------------ */

/*
 * The control word (16 bits, little-endian, docs/TRACES.md):
 *   bits 0-3   OP, or 15: an extension (new dev/pid/status/has/hint) leads the data
 *   bits 4-6   TS code: width of zigzag(ts - previous ts)
 *   bits 7-9   OFF code: width of zigzag(offset - previous record's end)
 *   bits 10-11 LEN code: width of the length (0, 1, 2 or 8 bytes)
 *   bit  12    SECT: the offset delta and the length are in 512-byte units
 *   bits 13-15 LAT code: width of the latency
 * A 3-bit code c is c bytes, 7 is 8; a field of width 0 is 0.  The widths
 * make a record's size known from its control word alone, and the control
 * words lie apart from the data, so the decoder's only chain from one record
 * to the next is the data pointer's add.
 */
#define C_OP_EXT 15
#define C_SECT (1u << 12)
#define E_DEV 0x10
#define E_PID 0x20
#define E_STATUS 0x40
#define E_HAS 0x80

/* Width and mask of each code: 0-7 the 3-bit codes, 8-11 the LEN codes
 * (one table: one base register in the decoder's loop). */
static const struct {
	uint64_t mask, width;
} wt[12] = {
	{ 0, 0 }, { 0xff, 1 }, { 0xffff, 2 }, { 0xffffff, 3 },
	{ 0xffffffffull, 4 }, { 0xffffffffffull, 5 }, { 0xffffffffffffull, 6 }, { ~0ull, 8 },
	{ 0, 0 }, { 0xff, 1 }, { 0xffff, 2 }, { ~0ull, 8 },
};
/* The mask of a width (0-8 bytes). */
static const uint64_t wmask[9] = {
	0, 0xff, 0xffff, 0xffffff, 0xffffffffull, 0xffffffffffull, 0xffffffffffffull, 0xffffffffffffffull, ~0ull,
};
#define W3(c) wt[c].width
#define W2(c) wt[8 + (c)].width

static inline uint64_t zz(uint64_t v)
{
	return v << 1 ^ (uint64_t)((int64_t)v >> 63);
}

static inline uint64_t unzz(uint64_t v)
{
	return v >> 1 ^ (0 - (v & 1));
}

/* The 3-bit code of a value: its byte width, 7 for 7 or 8 bytes. */
static inline unsigned code3(uint64_t v)
{
	unsigned b = v ? (unsigned)(71 - __builtin_clzll(v)) / 8 : 0;

	return b > 7 ? 7 : b;
}

/* Block checksum: two 64-bit lanes over 16-byte chunks (the last one
 * zero-padded), each a running sum a and a sum of running sums b, all mod
 * 2^64, mixed with odd / even multipliers so that any error confined to one
 * 8-byte word changes the result.  Four adds per 16 bytes: CRC-32C in
 * software (zl_crc32c) takes longer than decoding the records. */
#define SUM_K1 0x9e3779b97f4a7c15ull   /* odd */
#define SUM_K2 0xc2b2ae3d27d4eb4eull   /* even */
#define SUM_K3 0x165667b19e3779f8ull   /* even */

uint64_t trc_nat2_sum(const uint8_t *p, size_t len)
{
	uint64_t a0 = 0, a1 = 0, b0 = 0, b1 = 0;

#ifdef __SSE2__
	{
		/* the two lanes side by side in one register: the same sums */
		__m128i a = _mm_setzero_si128(), b = a;
		uint64_t t[4];

		for (; len >= 16; p += 16, len -= 16) {
			a = _mm_add_epi64(a, _mm_loadu_si128((const __m128i *)(const void *)p));
			b = _mm_add_epi64(b, a);
		}
		_mm_storeu_si128((__m128i *)(void *)t, a);
		_mm_storeu_si128((__m128i *)(void *)(t + 2), b);
		a0 = t[0];                   /* x86: lanes are little-endian, like the loads */
		a1 = t[1];
		b0 = t[2];
		b1 = t[3];
	}
#endif
	for (; len >= 16; p += 16, len -= 16) {
		a0 += zl_get_le64(p);
		a1 += zl_get_le64(p + 8);
		b0 += a0;
		b1 += a1;
	}
	if (len) {
		uint8_t t[16] = { 0 };

		memcpy(t, p, len);
		a0 += zl_get_le64(t);
		a1 += zl_get_le64(t + 8);
		b0 += a0;
		b1 += a1;
	}
	return a0 + SUM_K1 * a1 + SUM_K2 * b0 + SUM_K3 * b1;
}

/* Fuzz builds take blocks whatever their checksum says, so that the
 * fuzzer's mutations reach the decoder instead of stopping at the sum. */
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
#define N2_SUM_CHECKED 0
#else
#define N2_SUM_CHECKED 1
#endif

/* The state a block starts from (both sides): everything 0. */
static void enc_reset(struct trc_nat2_enc *e)
{
	e->ts = 0;
	e->next_off = 0;
	memset(&e->prev, 0, sizeof(e->prev));
	e->nr = 0;
	e->len = 0;
}

void trc_nat2_enc_init(struct trc_nat2_enc *e)
{
	enc_reset(e);
}

/* @v's low @w bytes at @q; 8 bytes are written (the buffers have room). */
static inline uint8_t *put_w(uint8_t *q, uint64_t v, unsigned w)
{
	zl_put_le64(q, v);
	return q + w;
}

void trc_nat2_enc_put(struct trc_nat2_enc *e, const struct trc_rec *rec)
{
	uint8_t *q = e->data + e->len;
	uint64_t dts = zz(rec->ts_ns - e->ts), d = rec->offset_bytes - e->next_off, len = rec->len_bytes;
	unsigned c, lc;

	c = rec->op;
	if (rec->dev != e->prev.dev || rec->pid != e->prev.pid || rec->status != e->prev.status ||
	    rec->has != e->prev.has || rec->hint != e->prev.hint) {
		uint8_t ext = rec->op, wid = 0, *x = q++;

		c = C_OP_EXT;
		if (rec->dev != e->prev.dev || rec->pid != e->prev.pid || rec->status != e->prev.status)
			q++;        /* the widths byte */
		if (rec->dev != e->prev.dev) {
			unsigned w = code3(rec->dev);

			w = w ? w : 1;
			ext |= E_DEV;
			wid |= (uint8_t)(w - 1);
			q = put_w(q, rec->dev, w);
		}
		if (rec->pid != e->prev.pid) {
			unsigned w = code3(rec->pid);

			w = w ? w : 1;
			ext |= E_PID;
			wid |= (uint8_t)((w - 1) << 2);
			q = put_w(q, rec->pid, w);
		}
		if (rec->status != e->prev.status) {
			unsigned w = code3(rec->status);

			w = w ? w : 1;
			ext |= E_STATUS;
			wid |= (uint8_t)((w - 1) << 4);
			q = put_w(q, rec->status, w);
		}
		if (rec->has != e->prev.has || rec->hint != e->prev.hint) {
			ext |= E_HAS;
			*q++ = (uint8_t)rec->has;
			*q++ = rec->hint;
		}
		x[0] = ext;
		if (ext & (E_DEV | E_PID | E_STATUS))
			x[1] = wid;
		e->prev.dev = rec->dev;
		e->prev.pid = rec->pid;
		e->prev.status = rec->status;
		e->prev.has = rec->has;
		e->prev.hint = rec->hint;
	}
	if (len % 512 == 0 && d % 512 == 0) {
		c |= C_SECT;
		d = (uint64_t)((int64_t)d >> 9);
		len >>= 9;
	}
	d = zz(d);
	lc = !len ? 0 : len <= 0xff ? 1 : len <= 0xffff ? 2 : 3;
	c |= code3(dts) << 4 | code3(d) << 7 | lc << 10 | code3(rec->latency_ns) << 13;
	q = put_w(q, dts, (unsigned)W3(code3(dts)));
	q = put_w(q, d, (unsigned)W3(code3(d)));
	q = put_w(q, len, (unsigned)W2(lc));
	q = put_w(q, rec->latency_ns, (unsigned)W3(code3(rec->latency_ns)));
	zl_put_le16(e->ctl + 2 * e->nr, (uint16_t)c);
	e->len = (size_t)(q - e->data);
	e->nr++;
	e->ts = rec->ts_ns;
	e->next_off = rec->offset_bytes + rec->len_bytes;
}

size_t trc_nat2_enc_block(struct trc_nat2_enc *e, const uint8_t **out)
{
	uint8_t *b = e->blk;
	size_t n = 8;

	zl_put_le32(b, e->nr);
	zl_put_le32(b + 4, (uint32_t)e->len);
	memcpy(b + n, e->ctl, 2 * (size_t)e->nr);
	n += 2 * (size_t)e->nr;
	memcpy(b + n, e->data, e->len);
	n += e->len;
	zl_put_le64(b + n, trc_nat2_sum(b, n));
	n += 8;
	enc_reset(e);
	*out = b;
	return n;
}

/* ---- the reader ------------------------------------------------------------ */

bool trc_native_detect(const uint8_t *buf, size_t len)
{
	return len >= 8 && !memcmp(buf, TRC_NATIVE_MAGIC, 8);
}

struct native {
	uint64_t nr;                 /* records returned */
	struct trc_rec batch[TRC_BATCH];   /* native_batch() when records cannot be handed out in place */
};

static int native_next(struct trc_reader *r, struct trc_rec *rec)
{
	struct native *n = r->priv;
	uint64_t off = r->in.base + r->in.pos;
	long got;

	if (r->in.len - r->in.pos < TRC_NATIVE_REC_SIZE) {
		got = trc_in_fill(&r->in, TRC_NATIVE_REC_SIZE);
		if (got < 0)
			return trc_err_off(r, (int)got, off, "read error: %s", strerror((int)-got));
		if (got == 0)
			return 0;
		if (got < TRC_NATIVE_REC_SIZE) {
			r->in.pos = r->in.len;
			return trc_err_off(r, -EINVAL, off, "record %" PRIu64 " is truncated (%ld of %d bytes)",
					   n->nr, got, TRC_NATIVE_REC_SIZE);
		}
	}
	r->in.pos += TRC_NATIVE_REC_SIZE;
	n->nr++;
	if (REC_IS_LAYOUT)
		memcpy(rec, r->in.buf + r->in.pos - TRC_NATIVE_REC_SIZE, TRC_NATIVE_REC_SIZE);
	if (REC_IS_LAYOUT ? rec_check(rec) : trc_native_rec_decode(r->in.buf + r->in.pos - TRC_NATIVE_REC_SIZE, rec))
		return trc_err_off(r, -EINVAL, off, "record %" PRIu64 ": op %u, has 0x%x or hint %u out of range, "
				   "or offset + length overflows", n->nr - 1, rec->op, rec->has, rec->hint);
	return 1;
}

/* Version 1, many records: where they lie in the input buffer when that
 * is struct trc_rec's layout and alignment, else decoded into n->batch. */
static int native_batch(struct trc_reader *r, const struct trc_rec **recs)
{
	struct native *n = r->priv;
	const uint8_t *b;
	size_t avail, k, i;
	long got;

	avail = r->in.len - r->in.pos;
	if (avail < TRC_NATIVE_REC_SIZE) {
		got = trc_in_fill(&r->in, TRC_NATIVE_REC_SIZE * TRC_BATCH);
		if (got < TRC_NATIVE_REC_SIZE) {      /* the end, an error or a truncated record */
			int ret = native_next(r, &n->batch[0]);

			*recs = n->batch;
			return ret;
		}
		avail = (size_t)got;
	}
	k = avail / TRC_NATIVE_REC_SIZE;
	if (k > TRC_BATCH)
		k = TRC_BATCH;
	b = r->in.buf + r->in.pos;
	if (REC_IS_LAYOUT && (uintptr_t)b % _Alignof(struct trc_rec) == 0) {
		const struct trc_rec *rec = (const struct trc_rec *)(const void *)b;

		for (i = 0; i < k && !rec_check(&rec[i]); i++)
			;
		*recs = rec;
	} else {
		for (i = 0; i < k && !trc_native_rec_decode(b + i * TRC_NATIVE_REC_SIZE, &n->batch[i]); i++)
			;
		*recs = n->batch;
	}
	if (i == 0)                          /* the first is malformed: its message */
		return native_next(r, &n->batch[0]);
	r->in.pos += i * TRC_NATIVE_REC_SIZE;
	n->nr += i;
	return (int)i;
}

/*
 * Version 2.  A block is loaded whole into the input buffer and checked
 * (sizes, checksum) before any of its records is returned; its records are
 * then decoded where they lie, one per call.  The delta state starts from
 * zero in every block, so a block decodes on its own.
 */
#define N2_BATCH TRC_BATCH

struct native2 {
	const uint8_t *ctl, *ctl_end;    /* control words not yet decoded */
	const uint8_t *p, *end;          /* the next record's data; the data area's end */
	const uint8_t *blk;              /* the block, in the input buffer */
	uint64_t blk_off;                /* its file offset */
	uint64_t blk_rec;                /* number of its first record in the file */
	uint64_t blk_nr;                 /* its records */
	uint64_t ts, next_off;           /* the previous record's time and end */
	struct trc_rec prev;             /* its dev, pid, status, op, hint, has */
	bool ended;                      /* the end block was read */
	int err;                         /* an error behind the records decoded ahead */
	struct trc_rec batch[N2_BATCH];  /* records decoded ahead (trc_reader.ahead) */
};

#define TAIL_OFF offsetof(struct trc_rec, dev)   /* dev, pid, status, op, hint, has: 16 bytes */
_Static_assert(sizeof(struct trc_rec) - offsetof(struct trc_rec, dev) == 16, "trc_rec tail is not 16 bytes");

static uint64_t n2_off(const struct native2 *n, const uint8_t *at)
{
	return n->blk_off + (uint64_t)(at - n->blk);
}

/* The record being decoded (its control word was just taken). */
static uint64_t n2_recno(const struct native2 *n)
{
	return n->blk_rec + (uint64_t)(n->ctl - n->blk - 8) / 2 - 1;
}

/* A malformed record: the rest of its block is skipped (--lenient counts
 * those records, this one included). */
static int n2_bad(struct trc_reader *r, struct native2 *n, const uint8_t *at, const char *what)
{
	uint64_t rec = n2_recno(n), left = (uint64_t)(n->ctl_end - n->ctl) / 2;

	n->ctl = n->ctl_end;
	n->p = n->end;
	if (r->cfg.lenient)
		r->nr_bad += left;
	return trc_err_off(r, -EINVAL, n2_off(n, at), "record %" PRIu64 " (block at byte %" PRIu64 "): %s",
			   rec, n->blk_off, what);
}

/* Load the next block.  1: records to decode; 0: the end; negative: error. */
static int n2_block(struct trc_reader *r, struct native2 *n)
{
	struct trc_in *in = &r->in;
	uint64_t off, nr, dlen, size;
	const uint8_t *b;
	long got;

	for (;;) {
		off = in->base + in->pos;
		n->blk_rec += n->blk_nr;
		n->blk_nr = 0;
		n->blk = NULL;
		n->ctl = n->ctl_end = NULL;
		n->p = n->end = NULL;
		if (n->ended)
			return 0;
		got = trc_in_fill(in, 8);
		if (got < 0)
			return trc_err_off(r, (int)got, off, "read error: %s", strerror((int)-got));
		if (got == 0) {
			n->ended = true;
			return trc_err_off(r, -EINVAL, off, "truncated: the file ends without its end block "
					   "(after %" PRIu64 " records)", n->blk_rec);
		}
		b = in->buf + in->pos;
		if (got < 8) {
			in->pos = in->len;
			n->ended = true;
			return trc_err_off(r, -EINVAL, off, "block header truncated (%ld of 8 bytes)", got);
		}
		nr = zl_get_le32(b);
		dlen = zl_get_le32(b + 4);
		if (nr > TRC_NAT2_MAX_RECS || dlen > TRC_NAT2_MAX_DATA * nr) {
			n->ended = true;
			return trc_err_off(r, -EBADMSG, off, "block of %" PRIu64 " records and %" PRIu64 " data bytes: "
					   "at most %d records and %d bytes a record", nr, dlen, TRC_NAT2_MAX_RECS,
					   TRC_NAT2_MAX_DATA);
		}
		size = 8 + 2 * nr + dlen + 8;
		got = trc_in_fill(in, (size_t)size);
		if (got < 0)
			return trc_err_off(r, (int)got, off, "read error: %s", strerror((int)-got));
		b = in->buf + in->pos;
		if ((uint64_t)got < size) {
			in->pos = in->len;
			n->ended = true;
			if (r->cfg.lenient && nr)
				r->nr_bad += nr - 1;
			return trc_err_off(r, -EINVAL, off, "block of %" PRIu64 " records is truncated (%ld of %" PRIu64
					   " bytes)", nr, got, size);
		}
		in->pos += (size_t)size;
		if (zl_get_le64(b + size - 8) != trc_nat2_sum(b, (size_t)size - 8) && N2_SUM_CHECKED) {
			if (r->cfg.lenient && nr)
				r->nr_bad += nr - 1;
			n->blk_nr = nr;
			return trc_err_off(r, -EINVAL, off, "block of %" PRIu64 " records: checksum mismatch", nr);
		}
		n->blk = b;
		n->blk_off = off;
		n->blk_nr = nr;
		n->ctl = b + 8;
		n->ctl_end = n->ctl + 2 * nr;
		n->p = n->ctl_end;
		n->end = n->p + dlen;
		n->ts = 0;
		n->next_off = 0;
		memset(&n->prev, 0, sizeof(n->prev));
		if (nr)
			return 1;
		/* the end block: nothing may follow */
		n->ended = true;
		got = trc_in_fill(in, 1);
		if (got < 0)
			return trc_err_off(r, (int)got, in->base + in->pos, "read error: %s", strerror((int)-got));
		if (got > 0)
			return trc_err_off(r, -EINVAL, in->base + in->pos, "bytes after the end block");
	}
}

/* A record's extension: the op (into n->prev.op) and the carried fields
 * that change.  Returns where its fields start, NULL (message set) if
 * malformed. */
static __attribute__((noinline)) const uint8_t *n2_ext(struct trc_reader *r, struct native2 *n, const uint8_t *p)
{
	unsigned ext = *p++, wid = 0;

	if ((ext & 15) >= TRC_NR_OPS) {
		n2_bad(r, n, p - 1, "op out of range in its extension");
		return NULL;
	}
	n->prev.op = (uint8_t)(ext & 15);
	if (ext & (E_DEV | E_PID | E_STATUS)) {
		wid = *p++;
		if (wid & 0xc0) {
			n2_bad(r, n, p - 1, "widths byte has bits 6-7 set");
			return NULL;
		}
	}
	if (ext & E_DEV) {
		n->prev.dev = (uint32_t)zl_get_le32(p) & (uint32_t)wt[(wid & 3) + 1].mask;
		p += (wid & 3) + 1;
	}
	if (ext & E_PID) {
		n->prev.pid = (uint32_t)zl_get_le32(p) & (uint32_t)wt[(wid >> 2 & 3) + 1].mask;
		p += (wid >> 2 & 3) + 1;
	}
	if (ext & E_STATUS) {
		n->prev.status = (uint32_t)zl_get_le32(p) & (uint32_t)wt[(wid >> 4 & 3) + 1].mask;
		p += (wid >> 4 & 3) + 1;
	}
	if (ext & E_HAS) {
		if ((p[0] & ~HAS_KNOWN) || p[1] > 5) {
			n2_bad(r, n, p, "has bits or hint out of range");
			return NULL;
		}
		n->prev.has = p[0];
		n->prev.hint = p[1];
		p += 2;
	}
	return p;
}

/*
 * The fast path's table: for the 12 width bits of a control word (c >> 4),
 * the byte widths of TS, OFF, LEN, LAT, the shift (9 with SECT), where
 * LEN and LAT start and the record's size.  Built once (32 KiB).
 */
struct ctab_ent {
	uint64_t m_ts, m_off, m_len, m_lat;   /* the fields' masks */
	uint8_t q1, q2, q3, size, sh;         /* where OFF, LEN, LAT start; record size; shift */
};
static struct ctab_ent ctab[4096];
static pthread_once_t ctab_once = PTHREAD_ONCE_INIT;

static void ctab_build(void)
{
	for (unsigned i = 0; i < 4096; i++) {
		unsigned c = i << 4;
		struct ctab_ent *t = &ctab[i];
		unsigned wts = (unsigned)W3(c >> 4 & 7), woff = (unsigned)W3(c >> 7 & 7);
		unsigned wlen = (unsigned)W2(c >> 10 & 3), wlat = (unsigned)W3(c >> 13);

		t->m_ts = wmask[wts];
		t->m_off = wmask[woff];
		t->m_len = wmask[wlen];
		t->m_lat = wmask[wlat];
		t->q1 = (uint8_t)wts;
		t->q2 = (uint8_t)(wts + woff);
		t->q3 = (uint8_t)(wts + woff + wlen);
		t->size = (uint8_t)(wts + woff + wlen + wlat);
		t->sh = (uint8_t)((c >> 12 & 1) * 9);
	}
}

/*
 * The fast path: decode records of the current block into [rec, rec_end)
 * while they are plain (no extension) and well formed; return where it
 * stopped.  It calls nothing, so the state lives in registers for the run
 * and the only chain from one record to the next is the data pointer's
 * add; any other record is left to n2_one().
 */
static __attribute__((noinline)) struct trc_rec *n2_fast(struct native2 *n, struct trc_rec *rec,
							 struct trc_rec *rec_end)
{
	const uint8_t *ctl = n->ctl, *p = n->p, *end = n->end;
	uint64_t ts = n->ts, noff = n->next_off;
	uint8_t tail[16];

	memcpy(tail, (const uint8_t *)&n->prev + TAIL_OFF, 16);
	for (; rec < rec_end; rec++) {
		unsigned c = zl_get_le16(ctl), op = c & 15;
		const struct ctab_ent *t = &ctab[c >> 4];
		uint64_t off, len, nend;

		if (__builtin_expect(op >= TRC_NR_OPS || p + t->size > end, 0))
			break;
		off = noff + (unzz(zl_get_le64(p + t->q1) & t->m_off) << t->sh);
		len = (zl_get_le64(p + t->q2) & t->m_len) << t->sh;
		if (__builtin_expect(__builtin_add_overflow(off, len, &nend), 0))
			break;
		ts += unzz(zl_get_le64(p) & t->m_ts);
		rec->ts_ns = ts;
		rec->offset_bytes = off;
		rec->len_bytes = len;
		rec->latency_ns = zl_get_le64(p + t->q3) & t->m_lat;
		memcpy((uint8_t *)rec + TAIL_OFF, tail, 16);
		rec->op = (uint8_t)op;
		noff = nend;
		p += t->size;
		ctl += 2;
	}
	n->ctl = ctl;
	n->p = p;
	n->ts = ts;
	n->next_off = noff;
	return rec;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

/*
 * The same with AVX2 (chosen at run time; CPUs without it take the
 * portable path).  A record's TS and OFF are at most 16 bytes from its
 * start, LEN and LAT at most 16 from LEN's, so one 16-byte load and one
 * byte shuffle each (PSHUFB, its mask picked by the fields' width codes)
 * put them zero-extended into the two 64-bit lanes of a register.  The
 * loads reach at most 32 bytes past a record's start: within the input
 * buffer's padding (TRC_IN_PAD) when the record ends at the block's data
 * end.  Everything a record's control word decides comes from one
 * 64-byte entry of vtab (both shuffles, the per-lane shifts of VPSLLVQ,
 * the size and where LEN starts), and the state is one register, [TS,
 * end of the previous request], so a record is two loads, two shuffles,
 * two shifts and three stores of 16 bytes.  An OFF + LEN that overflows
 * is not a branch per record: it is noted in a lane and, if any did, the
 * run is decoded again by the portable path, which stops at it.
 */
struct vtab_ent {
	uint8_t shuf_a[16];          /* TS and OFF into lanes 0 and 1 */
	uint8_t shuf_b[16];          /* LEN and LAT into lanes 0 and 1 */
	uint64_t sh[3];              /* 0, SH, 0: at sh the shifts of [TS, OFF], at sh + 1 those of [LEN, LAT] */
	uint8_t size, q2, pad[6];
};
_Static_assert(sizeof(struct vtab_ent) == 64, "vtab entry is not one cache line");
static struct vtab_ent vtab[4096] __attribute__((aligned(64)));   /* by c >> 4: at (c & ~15) * 4 bytes */

static void vtab_build(void)
{
	for (unsigned i = 0; i < 4096; i++) {
		const struct ctab_ent *t = &ctab[i];
		struct vtab_ent *v = &vtab[i];
		/* the widths of TS, OFF, LEN and LAT, from where ctab has them start */
		unsigned w1 = t->q1, w2 = t->q2 - t->q1, w3 = t->q3 - t->q2, w4 = t->size - t->q3;

		for (unsigned k = 0; k < 8; k++) {   /* 0x80: a zero byte */
			v->shuf_a[k] = k < w1 ? (uint8_t)k : 0x80;
			v->shuf_a[8 + k] = k < w2 ? (uint8_t)(w1 + k) : 0x80;
			v->shuf_b[k] = k < w3 ? (uint8_t)k : 0x80;
			v->shuf_b[8 + k] = k < w4 ? (uint8_t)(w3 + k) : 0x80;
		}
		v->sh[0] = v->sh[2] = 0;
		v->sh[1] = t->sh;
		v->size = t->size;
		v->q2 = t->q2;
	}
}

static __attribute__((noinline, target("avx2"))) struct trc_rec *n2_fast_avx2(struct native2 *n,
									    struct trc_rec *rec,
									    struct trc_rec *rec_end)
{
	const uint8_t *ctl = n->ctl, *p = n->p, *end = n->end, *vt = (const uint8_t *)vtab;
	struct trc_rec *first = rec;
	const __m128i one = _mm_set1_epi64x(1), zero = _mm_setzero_si128();
	const __m128i sign = _mm_set1_epi64x(INT64_MIN);
	const __m128i tail = _mm_loadu_si128((const __m128i *)(const void *)((const uint8_t *)&n->prev + TAIL_OFF));
	__m128i acc = _mm_set_epi64x((long long)n->next_off, (long long)n->ts), bad = zero;

	for (; rec < rec_end; rec++) {
		unsigned c = zl_get_le16(ctl), op = c & 15;
		const uint8_t *e = vt + (size_t)(c & ~15u) * 4;
		const struct vtab_ent *t = (const struct vtab_ent *)(const void *)e;
		const uint8_t *np = p + t->size;
		__m128i a, b, v, nx;

		if (__builtin_expect(op >= TRC_NR_OPS || np > end, 0))
			break;
		a = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(const void *)p),
				     _mm_load_si128((const __m128i *)(const void *)t->shuf_a));
		b = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(const void *)(p + t->q2)),
				     _mm_load_si128((const __m128i *)(const void *)t->shuf_b));
		a = _mm_xor_si128(_mm_srli_epi64(a, 1), _mm_sub_epi64(zero, _mm_and_si128(a, one)));
		a = _mm_sllv_epi64(a, _mm_loadu_si128((const __m128i *)(const void *)&t->sh[0]));
		b = _mm_sllv_epi64(b, _mm_loadu_si128((const __m128i *)(const void *)&t->sh[1]));
		v = _mm_add_epi64(acc, a);                          /* [TS, OFF] */
		nx = _mm_add_epi64(v, _mm_bslli_si128(b, 8));       /* [TS, OFF + LEN] */
		bad = _mm_or_si128(bad, _mm_cmpgt_epi64(_mm_xor_si128(v, sign), _mm_xor_si128(nx, sign)));
		_mm_storeu_si128((__m128i *)(void *)&rec->ts_ns, v);
		_mm_storeu_si128((__m128i *)(void *)&rec->len_bytes, b);
		_mm_storeu_si128((__m128i *)(void *)((uint8_t *)rec + TAIL_OFF), tail);
		rec->op = (uint8_t)op;
		acc = nx;
		p = np;
		ctl += 2;
	}
	if (__builtin_expect(!_mm_testz_si128(bad, bad), 0))
		return n2_fast(n, first, rec_end);   /* n untouched: it stops at the overflow */
	n->ctl = ctl;
	n->p = p;
	n->ts = (uint64_t)_mm_cvtsi128_si64(acc);
	n->next_off = (uint64_t)_mm_extract_epi64(acc, 1);
	return rec;
}
#endif

typedef struct trc_rec *(*n2_fast_fn)(struct native2 *n, struct trc_rec *rec, struct trc_rec *rec_end);
static n2_fast_fn n2_fast_best = n2_fast;     /* set by path_set() */
static int n2_path_best;                      /* the best path this CPU has */

static int path_set(int want)
{
	if (want > n2_path_best)
		want = n2_path_best;
	switch (want) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
	case TRC_NAT2_AVX2:
		n2_fast_best = n2_fast_avx2;
		return want;
#endif
	default:
		n2_fast_best = n2_fast;
		return TRC_NAT2_PORTABLE;
	}
}

static void tables_build(void)
{
	ctab_build();
	n2_path_best = TRC_NAT2_PORTABLE;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
	vtab_build();
	__builtin_cpu_init();
	if (__builtin_cpu_supports("avx2"))
		n2_path_best = TRC_NAT2_AVX2;
#endif
	path_set(TRC_NAT2_AVX2);
}

int trc_nat2_path(int want)
{
	pthread_once(&ctab_once, tables_build);
	return path_set(want);
}

/* One record the fast path left: an extension, or a malformed record
 * (the message set and the rest of the block skipped: -EINVAL). */
static int n2_one(struct trc_reader *r, struct native2 *n, struct trc_rec *rec)
{
	const uint8_t *p = n->p, *q1, *q2, *q3, *nx;
	unsigned c = zl_get_le16(n->ctl), op = c & 15, sh;
	uint64_t off, len, end;

	n->ctl += 2;
	if (op >= TRC_NR_OPS) {
		if (op != C_OP_EXT)
			return n2_bad(r, n, n->ctl - 2, "op out of range in its control word");
		p = n2_ext(r, n, p);
		if (!p)
			return -EINVAL;
		op = n->prev.op;
	}
	q1 = p + W3(c >> 4 & 7);
	q2 = q1 + W3(c >> 7 & 7);
	q3 = q2 + W2(c >> 10 & 3);
	nx = q3 + W3(c >> 13);
	sh = (c >> 12 & 1) * 9;
	off = n->next_off + (unzz(zl_get_le64(q1) & wt[c >> 7 & 7].mask) << sh);
	len = (zl_get_le64(q2) & wt[8 + (c >> 10 & 3)].mask) << sh;
	if (nx > n->end)
		return n2_bad(r, n, n->p, "runs past the block's data");
	if (__builtin_add_overflow(off, len, &end))
		return n2_bad(r, n, n->p, "offset + length overflows");
	n->ts += unzz(zl_get_le64(p) & wt[c >> 4 & 7].mask);
	n->next_off = end;
	n->p = nx;
	memcpy(rec, &n->prev, sizeof(*rec));
	rec->ts_ns = n->ts;
	rec->offset_bytes = off;
	rec->len_bytes = len;
	rec->latency_ns = zl_get_le64(q3) & wt[c >> 13].mask;
	rec->op = (uint8_t)op;
	return 0;
}

/*
 * Decode up to @max records of the current block into @out.  Returns the
 * count; a malformed record stops the run (its message set, *err =
 * -EINVAL) after the good ones.
 */
static unsigned n2_decode(struct trc_reader *r, struct native2 *n, struct trc_rec *out, unsigned max, int *err)
{
	struct trc_rec *rec = out, *rec_end;

	if ((size_t)(n->ctl_end - n->ctl) / 2 < max)
		max = (unsigned)((size_t)(n->ctl_end - n->ctl) / 2);
	rec_end = out + max;
	for (;;) {
		rec = n2_fast_best(n, rec, rec_end);
		if (rec == rec_end)
			break;
		*err = n2_one(r, n, rec);
		if (*err)
			return (unsigned)(rec - out);
		rec++;
	}
	if (n->ctl == n->ctl_end && n->p != n->end) {      /* the block's last record */
		*err = n2_bad(r, n, n->p, "data bytes left after the block's last record");
		rec--;
	}
	return (unsigned)(rec - out);
}

/* Many records: decoded into n->batch, handed out from there.  An error
 * found behind the records decoded comes on the next call. */
static int native2_batch(struct trc_reader *r, const struct trc_rec **recs)
{
	struct native2 *n = r->priv;
	unsigned k;
	int err = 0;

	if (n->err) {                    /* found while decoding ahead */
		err = n->err;
		n->err = 0;
		return err;
	}
	for (;;) {
		if (n->ctl == n->ctl_end) {
			int ret = n2_block(r, n);

			if (ret <= 0)
				return ret;
		}
		k = n2_decode(r, n, n->batch, N2_BATCH, &err);
		if (k)
			break;
		if (err)
			return err;
	}
	n->err = err;
	*recs = n->batch;
	return (int)k;
}

/* One record: the first of a batch, the rest handed out by
 * trc_reader_next() from r->ahead. */
static int native2_next(struct trc_reader *r, struct trc_rec *rec)
{
	const struct trc_rec *recs;
	int k = native2_batch(r, &recs);

	if (k <= 0)
		return k;
	*rec = recs[0];
	r->ahead = recs + 1;
	r->ahead_end = recs + k;
	return 1;
}

static void native_close(struct trc_reader *r)
{
	free(r->priv);
	r->priv = NULL;
}

int trc_native_open(struct trc_reader *r)
{
	const uint8_t *h;
	unsigned ver, rs;
	long got;

	got = trc_in_fill(&r->in, TRC_NATIVE_HDR_SIZE);
	if (got < 0)
		return trc_err_off(r, (int)got, 0, "read error: %s", strerror((int)-got));
	h = r->in.buf + r->in.pos;
	if (got < 8 || memcmp(h, TRC_NATIVE_MAGIC, 8))
		return trc_err_off(r, -EBADMSG, 0, "not a native trace (magic is not '%s')", TRC_NATIVE_MAGIC);
	if (got < TRC_NATIVE_HDR_SIZE)
		return trc_err_off(r, -EBADMSG, 0, "header truncated (%ld of %d bytes)", got, TRC_NATIVE_HDR_SIZE);
	if (zl_get_le32(h + 60) != zl_crc32c(0, h, 60))
		return trc_err_off(r, -EBADMSG, 60, "header CRC-32C mismatch");
	ver = zl_get_le16(h + 8);
	rs = zl_get_le16(h + 12);
	if (!((ver == 1 && rs == TRC_NATIVE_REC_SIZE) || (ver == 2 && rs == 0)) ||
	    zl_get_le16(h + 10) != TRC_NATIVE_HDR_SIZE)
		return trc_err_off(r, -EBADMSG, 8, "version %u, header size %u, record size %u: this reader "
				   "knows 1, %d, %d and 2, %d, 0", ver, zl_get_le16(h + 10), rs,
				   TRC_NATIVE_HDR_SIZE, TRC_NATIVE_REC_SIZE, TRC_NATIVE_HDR_SIZE);
	if (ver == 2)
		pthread_once(&ctab_once, tables_build);
	r->priv = calloc(1, ver == 1 ? sizeof(struct native) : sizeof(struct native2));
	if (!r->priv)
		return -ENOMEM;
	r->in.pos += TRC_NATIVE_HDR_SIZE;
	r->next = ver == 1 ? native_next : native2_next;
	r->batch = ver == 1 ? native_batch : native2_batch;
	r->close = native_close;
	return 0;
}
