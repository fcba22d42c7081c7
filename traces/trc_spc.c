/*
 * trc_spc.c — the SPC trace file format (rev 1.0.1; the UMass Financial and
 * WebSearch traces): "ASU,LBA,Size,Opcode,Timestamp[,optional...]" with
 * LBA in 512-byte blocks of the ASU, Size in bytes, Opcode r/R (read) or
 * w/W (write) and Timestamp in seconds (decimal) from the trace's start.
 * The ASU (application storage unit) is the record's device; fields after
 * the fifth are ignored.
 */
#include "trc_int.h"

#include <errno.h>
#include <string.h>

static bool op_of(struct trc_field f, uint8_t *op)
{
	if (trc_field_is(f, "w") || trc_field_is(f, "W")) {
		*op = TRC_OP_WRITE;
		return true;
	}
	if (trc_field_is(f, "r") || trc_field_is(f, "R")) {
		*op = TRC_OP_READ;
		return true;
	}
	return false;
}

bool trc_spc_detect(const uint8_t *buf, size_t len)
{
	struct trc_field f[16];
	uint64_t v;
	uint8_t op;
	bool complete;
	size_t n = trc_first_line(buf, len, &complete);
	int nf = trc_split((const char *)buf, n, ',', f, 15);

	if (nf < 5 || nf > 15)
		return false;
	return trc_parse_u64(f[0], &v) && trc_parse_u64(f[1], &v) && trc_parse_u64(f[2], &v) &&
	       op_of(f[3], &op) && trc_parse_sec_ns(f[4], &v);
}

static int spc_next(struct trc_reader *r, struct trc_rec *rec)
{
	const char *line;
	size_t len;
	struct trc_field f[6];
	uint64_t asu, lba, size, ts;
	int ret;

	ret = trc_next_line(r, &line, &len);
	if (ret <= 0)
		return ret;
	if (trc_split(line, len, ',', f, 5) < 5)
		return trc_err_line(r, -EINVAL, "fewer than 5 fields (ASU,LBA,Size,Opcode,Timestamp)");
	if (!trc_parse_u64(f[0], &asu) || asu > UINT32_MAX)
		return trc_err_line(r, -EINVAL, "ASU '%.*s' is not a 32-bit unsigned integer", TRC_FLD(f[0]));
	if (!trc_parse_u64(f[1], &lba) || lba > UINT64_MAX / 512)
		return trc_err_line(r, -EINVAL, "LBA '%.*s' is not a block number", TRC_FLD(f[1]));
	if (!trc_parse_u64(f[2], &size) || size > UINT64_MAX - lba * 512)
		return trc_err_line(r, -EINVAL, "Size '%.*s' is not a byte count (or LBA + Size overflows)",
				    TRC_FLD(f[2]));
	if (!op_of(f[3], &rec->op))
		return trc_err_line(r, -EINVAL, "Opcode '%.*s' is not r, R, w or W", TRC_FLD(f[3]));
	if (!trc_parse_sec_ns(f[4], &ts))
		return trc_err_line(r, -EINVAL, "Timestamp '%.*s' is not a time in seconds", TRC_FLD(f[4]));
	rec->ts_ns = ts;
	rec->offset_bytes = lba * 512;
	rec->len_bytes = size;
	rec->latency_ns = 0;
	rec->dev = (uint32_t)asu;
	rec->pid = 0;
	rec->status = 0;
	rec->hint = 0;
	rec->has = TRC_HAS_DEV;
	return 1;
}

int trc_spc_open(struct trc_reader *r)
{
	r->next = spc_next;
	return 0;
}
