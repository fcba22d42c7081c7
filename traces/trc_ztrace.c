/*
 * trc_ztrace.c — zonelab's own command trace (docs/TRACE-FORMAT.md) as a
 * block trace, through ztrace's reader: each SCSI command becomes a record
 * (READ/WRITE 6/10/12/16, SYNCHRONIZE CACHE = flush, UNMAP = discard, ZBC
 * OUT close/finish/open/reset = zone ops, anything else "other"), with its
 * latency and status (status << 24 | sense key << 16 | ASC << 8 | ASCQ).
 * Times are relative to the trace's START_NS.  The replay (trc_replay.c)
 * reads the SCSI records themselves, not these.
 */
#include "trc_int.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ztrace.h"

enum trc_op trc_scsi_op(uint8_t opcode, uint8_t sa, bool has_sa)
{
	switch (opcode) {
	case 0x08: case 0x28: case 0xa8: case 0x88:
		return TRC_OP_READ;
	case 0x0a: case 0x2a: case 0xaa: case 0x8a:
		return TRC_OP_WRITE;
	case 0x35: case 0x91:
		return TRC_OP_FLUSH;
	case 0x42:
		return TRC_OP_DISCARD;
	case 0x94:
		if (!has_sa)
			return TRC_OP_OTHER;
		switch (sa) {
		case 0x01: return TRC_OP_ZONE_CLOSE;
		case 0x02: return TRC_OP_ZONE_FINISH;
		case 0x03: return TRC_OP_ZONE_OPEN;
		case 0x04: return TRC_OP_ZONE_RESET;
		default: return TRC_OP_OTHER;
		}
	default:
		return TRC_OP_OTHER;
	}
}

bool trc_ztrace_detect(const uint8_t *buf, size_t len)
{
	return len >= 8 && !memcmp(buf, ZTRACE_MAGIC, 8);
}

struct zt {
	struct ztrace_reader *rd;
	uint64_t start_ns;
	uint32_t lba_size;
	uint64_t nr;
};

static int zt_next(struct trc_reader *r, struct trc_rec *rec)
{
	struct zt *z = r->priv;
	struct ztrace_rec zr;
	char msg[256];
	uint64_t nr_lba;
	int ret;

	ret = ztrace_read_next(z->rd, &zr, msg, sizeof(msg));
	if (ret == 0)
		return 0;
	if (ret < 0)
		return trc_err_off(r, ret == -EIO ? -EIO : -EINVAL, ZTRACE_HDR_SIZE + z->nr * ZTRACE_REC_SIZE,
				   "%s", msg);
	z->nr++;
	rec->op = (uint8_t)trc_scsi_op(zr.opcode, zr.sa, zr.flags & ZTRACE_F_SA);
	nr_lba = zr.nr_lba;
	if ((zr.opcode == 0x08 || zr.opcode == 0x0a) && nr_lba == 0)
		nr_lba = 256;
	rec->ts_ns = zr.ts_ns >= z->start_ns ? zr.ts_ns - z->start_ns : 0;
	rec->len_bytes = (rec->op == TRC_OP_READ || rec->op == TRC_OP_WRITE) ? nr_lba * z->lba_size : 0;
	if (zr.lba > (UINT64_MAX - rec->len_bytes) / z->lba_size)
		return trc_err_off(r, -EINVAL, ZTRACE_HDR_SIZE + (z->nr - 1) * ZTRACE_REC_SIZE,
				   "LBA %llu + %llu LBAs of %u bytes is past 2^64 bytes",
				   (unsigned long long)zr.lba, (unsigned long long)nr_lba, z->lba_size);
	rec->offset_bytes = zr.lba * z->lba_size;
	rec->latency_ns = zr.latency_ns;
	rec->dev = 0;
	rec->pid = 0;
	rec->status = (uint32_t)zr.status << 24 | (uint32_t)zr.sense_key << 16 | (uint32_t)zr.asc << 8 | zr.ascq;
	rec->hint = 0;
	rec->has = TRC_HAS_LATENCY | TRC_HAS_STATUS | ((zr.flags & ZTRACE_F_ALL) ? TRC_HAS_ALL : 0) |
		   ((zr.flags & ZTRACE_F_FUA) ? TRC_HAS_FUA : 0);
	return 1;
}

static void zt_close(struct trc_reader *r)
{
	struct zt *z = r->priv;

	if (!z)
		return;
	ztrace_read_close(z->rd);
	free(z);
	r->priv = NULL;
}

static uint64_t zt_pos(const struct trc_reader *r)
{
	const struct zt *z = r->priv;

	return ZTRACE_HDR_SIZE + z->nr * ZTRACE_REC_SIZE;
}

int trc_ztrace_open(struct trc_reader *r)
{
	struct zt *z;
	int ret;

	z = calloc(1, sizeof(*z));
	if (!z)
		return -ENOMEM;
	ret = ztrace_read_open(r->path, &z->rd, r->msg, sizeof(r->msg));
	if (ret) {
		free(z);
		return -EBADMSG;
	}
	z->start_ns = ztrace_read_hdr(z->rd)->start_ns;
	z->lba_size = ztrace_read_hdr(z->rd)->lba_size;
	r->priv = z;
	r->next = zt_next;
	r->close = zt_close;
	r->pos = zt_pos;
	return 0;
}
