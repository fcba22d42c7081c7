/*
 * trc_write.c — writing records: the native binary format, version 2
 * (blocks of TRC_NAT2_BLOCK_RECS records built by the encoder in
 * trc_nat2.c, an end block at close, the header's record count filled in
 * at close when the output is seekable; version 1 on request), fio
 * iolog version 3, blkparse default text (one D event per record) and the
 * one-line-per-record text of `zonelab trace cat`.  Records a format
 * cannot express (a zone op in an iolog, a length that is not whole
 * sectors in blkparse text) are skipped and counted, not approximated.
 */
#include "trc_int.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "zl_crc.h"
#include "zl_le.h"

#define MAX_DEVS 4096

struct trc_writer {
	FILE *f;
	bool is_stdout;
	enum trc_out_fmt fmt;
	char path[4096];
	char source[16];
	uint64_t nr, nr_skipped;
	bool have_first;
	uint64_t first_ns;
	uint8_t *opened;             /* iolog: devices added so far (bitmap over MAX_DEVS) */
	struct trc_nat2_enc *enc;    /* native v2: the block being built */
	char *vbuf;
};

static bool is_native(enum trc_out_fmt fmt)
{
	return fmt == TRC_OUT_NATIVE || fmt == TRC_OUT_NATIVE_V1;
}

static void native_hdr(uint8_t h[TRC_NATIVE_HDR_SIZE], enum trc_out_fmt fmt, const char *source, uint64_t nr)
{
	memset(h, 0, TRC_NATIVE_HDR_SIZE);
	memcpy(h, TRC_NATIVE_MAGIC, 8);
	zl_put_le16(h + 8, fmt == TRC_OUT_NATIVE_V1 ? 1 : 2);
	zl_put_le16(h + 10, TRC_NATIVE_HDR_SIZE);
	zl_put_le16(h + 12, fmt == TRC_OUT_NATIVE_V1 ? TRC_NATIVE_REC_SIZE : 0);
	strncpy((char *)h + 16, source, 16);
	zl_put_le64(h + 32, nr);
	zl_put_le32(h + 60, zl_crc32c(0, h, 60));
}

int trc_writer_open(const char *path, enum trc_out_fmt fmt, const char *source,
		    struct trc_writer **out, char *msg, size_t msg_len)
{
	struct trc_writer *w = calloc(1, sizeof(*w));

	if (!w) {
		snprintf(msg, msg_len, "%s: out of memory", path);
		return -ENOMEM;
	}
	w->fmt = fmt;
	snprintf(w->path, sizeof(w->path), "%s", path);
	snprintf(w->source, sizeof(w->source), "%s", source ? source : "");
	w->is_stdout = !strcmp(path, "-");
	w->f = w->is_stdout ? stdout : fopen(path, "wb");
	if (!w->f) {
		int e = errno;

		snprintf(msg, msg_len, "%s: cannot create: %s", path, strerror(e));
		free(w);
		return -e;
	}
	w->vbuf = w->is_stdout ? NULL : malloc(1 << 20);
	if (w->vbuf)
		setvbuf(w->f, w->vbuf, _IOFBF, 1 << 20);
	if (fmt == TRC_OUT_IOLOG3) {
		w->opened = calloc(MAX_DEVS / 8, 1);
		if (!w->opened) {
			snprintf(msg, msg_len, "%s: out of memory", path);
			trc_writer_close(w, NULL, 0);
			return -ENOMEM;
		}
		fputs("fio version 3 iolog\n", w->f);
	} else if (is_native(fmt)) {
		uint8_t h[TRC_NATIVE_HDR_SIZE];

		if (fmt == TRC_OUT_NATIVE) {
			w->enc = malloc(sizeof(*w->enc));
			if (!w->enc) {
				snprintf(msg, msg_len, "%s: out of memory", path);
				trc_writer_close(w, NULL, 0);
				return -ENOMEM;
			}
			trc_nat2_enc_init(w->enc);
		}
		native_hdr(h, fmt, w->source, 0);
		fwrite(h, 1, sizeof(h), w->f);
	}
	*out = w;
	return 0;
}

static const char *rwbs_of(const struct trc_rec *rec)
{
	switch (rec->op) {
	case TRC_OP_READ: return "R";
	case TRC_OP_WRITE: return "W";
	case TRC_OP_FLUSH: return "FN";
	case TRC_OP_DISCARD: return "D";
	case TRC_OP_ZONE_RESET: return (rec->has & TRC_HAS_ALL) ? "ZRA" : "ZR";
	case TRC_OP_ZONE_FINISH: return "ZF";
	case TRC_OP_ZONE_OPEN: return "ZO";
	case TRC_OP_ZONE_CLOSE: return "ZC";
	case TRC_OP_ZONE_APPEND: return "ZA";
	default: return "N";
	}
}

int trc_writer_put(struct trc_writer *w, const struct trc_rec *rec, char *msg, size_t msg_len)
{
	struct trc_rec nofua;
	uint64_t t;

	/* The native formats have no FUA bit (v2's HAS byte is full): dropped. */
	if ((w->fmt == TRC_OUT_NATIVE || w->fmt == TRC_OUT_NATIVE_V1) && (rec->has & TRC_HAS_FUA)) {
		nofua = *rec;
		nofua.has &= (uint16_t)~TRC_HAS_FUA;
		rec = &nofua;
	}
	if (!w->have_first) {
		w->have_first = true;
		w->first_ns = rec->ts_ns;
	}
	t = rec->ts_ns >= w->first_ns ? rec->ts_ns - w->first_ns : 0;
	switch (w->fmt) {
	case TRC_OUT_NATIVE:
		/* what a reader would refuse is refused here, not written */
		if (!trc_native_rec_valid(rec)) {
			snprintf(msg, msg_len, "%s: record %" PRIu64 ": op %u, has 0x%x or hint %u out of range, "
				 "or offset + length overflows", w->path, w->nr, rec->op, rec->has, rec->hint);
			return -EINVAL;
		}
		trc_nat2_enc_put(w->enc, rec);
		if (w->enc->nr == TRC_NAT2_BLOCK_RECS) {
			const uint8_t *b;
			size_t n = trc_nat2_enc_block(w->enc, &b);

			fwrite(b, 1, n, w->f);
		}
		break;
	case TRC_OUT_NATIVE_V1: {
		uint8_t b[TRC_NATIVE_REC_SIZE];

		trc_native_rec_encode(rec, b);
		fwrite(b, 1, sizeof(b), w->f);
		break;
	}
	case TRC_OUT_IOLOG3: {
		static const char *const ops[TRC_NR_OPS] = {
			[TRC_OP_READ] = "read", [TRC_OP_WRITE] = "write",
			[TRC_OP_FLUSH] = "sync", [TRC_OP_DISCARD] = "trim",
		};
		uint32_t dev = (rec->has & TRC_HAS_DEV) ? rec->dev : 0;

		if (rec->op >= TRC_NR_OPS || !ops[rec->op] || dev >= MAX_DEVS) {
			w->nr_skipped++;
			return 0;
		}
		if (!(w->opened[dev / 8] & (1u << (dev % 8)))) {
			w->opened[dev / 8] |= (uint8_t)(1u << (dev % 8));
			fprintf(w->f, "%" PRIu64 " dev%" PRIu32 " add\n%" PRIu64 " dev%" PRIu32 " open\n",
				t / 1000, dev, t / 1000, dev);
		}
		fprintf(w->f, "%" PRIu64 " dev%" PRIu32 " %s %" PRIu64 " %" PRIu64 "\n", t / 1000, dev,
			rec->has & TRC_HAS_DATASYNC ? "datasync" : ops[rec->op], rec->offset_bytes,
			rec->op == TRC_OP_FLUSH ? 0 : rec->len_bytes);
		break;
	}
	case TRC_OUT_BLKPARSE: {
		uint32_t dev = (rec->has & TRC_HAS_DEV) ? rec->dev : 0;

		if ((rec->offset_bytes | rec->len_bytes) % 512 || rec->len_bytes / 512 > UINT32_MAX) {
			w->nr_skipped++;
			return 0;
		}
		fprintf(w->f, "%3u,%-3u %2d %8" PRIu64 " %5" PRIu64 ".%09" PRIu64 " %5" PRIu32 "  D %3s %"
			PRIu64 " + %" PRIu64 " [zonelab]\n", dev >> 20, dev & 0xfffff, 0, (w->nr + 1) % 100000000,
			t / 1000000000, t % 1000000000, (rec->has & TRC_HAS_PID) ? rec->pid : 0, rwbs_of(rec),
			rec->offset_bytes / 512, rec->len_bytes / 512);
		break;
	}
	case TRC_OUT_TEXT:
		fprintf(w->f, "%" PRIu64 ".%09" PRIu64 " %s %" PRIu64 " %" PRIu64, rec->ts_ns / 1000000000,
			rec->ts_ns % 1000000000, trc_op_name((enum trc_op)rec->op), rec->offset_bytes, rec->len_bytes);
		if (rec->has & TRC_HAS_DEV)
			fprintf(w->f, " dev=%" PRIu32, rec->dev);
		if (rec->has & TRC_HAS_PID)
			fprintf(w->f, " pid=%" PRIu32, rec->pid);
		if (rec->has & TRC_HAS_LATENCY)
			fprintf(w->f, " lat_ns=%" PRIu64, rec->latency_ns);
		if (rec->has & TRC_HAS_STATUS)
			fprintf(w->f, " status=0x%08" PRIx32, rec->status);
		if (rec->has & TRC_HAS_HINT)
			fprintf(w->f, " hint=%u", rec->hint);
		if (rec->has & TRC_HAS_ALL)
			fputs(" all", w->f);
		if (rec->has & TRC_HAS_FUA)
			fputs(" fua", w->f);
		fputc('\n', w->f);
		break;
	}
	w->nr++;
	if (ferror(w->f)) {
		snprintf(msg, msg_len, "%s: write error: %s", w->path, strerror(errno));
		return -EIO;
	}
	return 0;
}

uint64_t trc_writer_nr_skipped(const struct trc_writer *w)
{
	return w->nr_skipped;
}

int trc_writer_close(struct trc_writer *w, char *msg, size_t msg_len)
{
	int ret = 0;

	if (!w)
		return 0;
	if (w->fmt == TRC_OUT_IOLOG3 && w->opened)
		for (uint32_t d = 0; d < MAX_DEVS; d++)
			if (w->opened[d / 8] & (1u << (d % 8)))
				fprintf(w->f, "%" PRIu64 " dev%" PRIu32 " close\n", (uint64_t)0, d);
	if (w->enc) {
		const uint8_t *b;
		size_t n;

		if (w->enc->nr) {
			n = trc_nat2_enc_block(w->enc, &b);
			fwrite(b, 1, n, w->f);
		}
		n = trc_nat2_enc_block(w->enc, &b);      /* the end block */
		fwrite(b, 1, n, w->f);
	}
	if (fflush(w->f) || ferror(w->f))
		ret = -EIO;
	if (!ret && is_native(w->fmt) && !w->is_stdout) {
		uint8_t h[TRC_NATIVE_HDR_SIZE];

		native_hdr(h, w->fmt, w->source, w->nr);
		/* fill in the count when the output can be rewritten (not a FIFO) */
		if (pwrite(fileno(w->f), h, sizeof(h), 0) != (ssize_t)sizeof(h) && errno != ESPIPE)
			ret = -EIO;
	}
	if (!w->is_stdout && fclose(w->f))
		ret = -EIO;
	if (ret && msg)
		snprintf(msg, msg_len, "%s: write error: %s", w->path, strerror(errno));
	free(w->opened);
	free(w->enc);
	free(w->vbuf);
	free(w);
	return ret;
}
