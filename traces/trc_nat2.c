/*
 * trc_nat2.c — the native format's version 2 codec, the writer's side:
 * records delta coded into blocks (a control array of 16-bit words, then
 * the data), each framed with its size and closed by a checksum
 * (trc_nat2_sum(), which the decoder checks too).  docs/TRACES.md has the
 * layout.  It does not read: the decoder is trc_nat2_read.c; the file
 * header and version 1 are trc_native.c, writing a file is trc_write.c.
 */
#include "trc_native_int.h"

#include <string.h>

#include "zl_le.h"

static inline uint64_t zz(uint64_t v)
{
	return v << 1 ^ (uint64_t)((int64_t)v >> 63);
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
