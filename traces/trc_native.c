/*
 * trc_native.c — the native binary trace, a 64-byte header then records
 * holding every field of struct trc_rec (docs/TRACES.md has the layouts):
 * detection, the header, and version 1 (fixed 48-byte little-endian
 * records, still read; the record codec the writer also uses).  Version 2,
 * what `zonelab trace convert --to native` writes (blocks of delta-coded
 * records with a checksum each and an end block), is trc_nat2.c (the
 * codec) and trc_nat2_read.c (the decoder), which trc_native_open() hands
 * a version 2 file to.
 */
#include "trc_native_int.h"

#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "zl_crc.h"
#include "zl_le.h"

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
	if (ver == 2) {
		int ret = trc_nat2_open(r);

		if (ret)
			return ret;
	} else {
		r->priv = calloc(1, sizeof(struct native));
		if (!r->priv)
			return -ENOMEM;
		r->next = native_next;
		r->batch = native_batch;
		r->close = native_close;
	}
	r->in.pos += TRC_NATIVE_HDR_SIZE;
	return 0;
}
