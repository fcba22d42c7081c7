/*
 * trc_nat2_read.c — the native format's version 2 decoder: a block loaded
 * whole into the input buffer and checked (sizes, checksum) before any of
 * its records is handed out, then decoded where it lies, in batches: a
 * table-driven fast path for plain records (portable C: an AVX2 copy was
 * measured and removed, docs/TRACES.md), and one general step for records
 * with an extension or that are malformed.  It does not encode
 * (trc_nat2.c) and does not read the file header or version 1
 * (trc_native.c, which calls trc_nat2_open()).
 */
#include "trc_native_int.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "zl_le.h"

/* The mask of a width (0-8 bytes). */
static const uint64_t wmask[9] = {
	0, 0xff, 0xffff, 0xffffff, 0xffffffffull, 0xffffffffffull, 0xffffffffffffull, 0xffffffffffffffull, ~0ull,
};

static inline uint64_t unzz(uint64_t v)
{
	return v >> 1 ^ (0 - (v & 1));
}

/* Fuzz builds take blocks whatever their checksum says, so that the
 * fuzzer's mutations reach the decoder instead of stopping at the sum. */
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
#define N2_SUM_CHECKED 0
#else
#define N2_SUM_CHECKED 1
#endif

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
		rec = n2_fast(n, rec, rec_end);
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

static void native2_close(struct trc_reader *r)
{
	free(r->priv);
	r->priv = NULL;
}

int trc_nat2_open(struct trc_reader *r)
{
	pthread_once(&ctab_once, ctab_build);
	r->priv = calloc(1, sizeof(struct native2));
	if (!r->priv)
		return -ENOMEM;
	r->next = native2_next;
	r->batch = native2_batch;
	r->close = native2_close;
	return 0;
}
