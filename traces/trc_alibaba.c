/*
 * trc_alibaba.c — Alibaba Cloud block traces 2020 (github.com/alibaba/
 * block-traces, io_traces.csv): "device_id,opcode,offset,length,timestamp"
 * with opcode R or W, offset and length in bytes and the timestamp in µs
 * since the Unix epoch.  An optional header line starting with
 * "device_id" is skipped.  device_id is the record's device.
 */
#include "trc_int.h"

#include <errno.h>
#include <string.h>

static bool is_header(const char *p, size_t n)
{
	return n >= 9 && !memcmp(p, "device_id", 9);
}

static bool op_of(struct trc_field f, uint8_t *op)
{
	if (trc_field_is(f, "W") || trc_field_is(f, "w")) {
		*op = TRC_OP_WRITE;
		return true;
	}
	if (trc_field_is(f, "R") || trc_field_is(f, "r")) {
		*op = TRC_OP_READ;
		return true;
	}
	return false;
}

bool trc_alibaba_detect(const uint8_t *buf, size_t len)
{
	struct trc_field f[6];
	uint64_t v;
	uint8_t op;
	bool complete;
	size_t n = trc_first_line(buf, len, &complete);

	if (is_header((const char *)buf, n))
		return trc_split((const char *)buf, n, ',', f, 5) == 5;
	if (trc_split((const char *)buf, n, ',', f, 5) != 5)
		return false;
	return trc_parse_u64(f[0], &v) && op_of(f[1], &op) && trc_parse_u64(f[2], &v) &&
	       trc_parse_u64(f[3], &v) && trc_parse_u64(f[4], &v);
}

static int ali_next(struct trc_reader *r, struct trc_rec *rec)
{
	struct trc_field f[6];
	uint64_t dev, off, size, us;
	int ret;

	ret = trc_next_csv(r, is_header, f, 5, "device_id,opcode,offset,length,timestamp");
	if (ret <= 0)
		return ret;
	if (!trc_parse_u64(f[0], &dev) || dev > UINT32_MAX)
		return trc_err_line(r, -EINVAL, "device_id '%.*s' is not a 32-bit unsigned integer", TRC_FLD(f[0]));
	if (!op_of(f[1], &rec->op))
		return trc_err_line(r, -EINVAL, "opcode '%.*s' is neither R nor W", TRC_FLD(f[1]));
	if (!trc_parse_u64(f[2], &off))
		return trc_err_line(r, -EINVAL, "offset '%.*s' is not an unsigned integer", TRC_FLD(f[2]));
	if (!trc_parse_u64(f[3], &size) || size > UINT64_MAX - off)
		return trc_err_line(r, -EINVAL, "length '%.*s' is not an unsigned integer (or offset + length overflows)",
				    TRC_FLD(f[3]));
	if (!trc_parse_u64(f[4], &us) || us > UINT64_MAX / 1000)
		return trc_err_line(r, -EINVAL, "timestamp '%.*s' is not a time in microseconds", TRC_FLD(f[4]));
	rec->ts_ns = us * 1000;
	rec->offset_bytes = off;
	rec->len_bytes = size;
	rec->latency_ns = 0;
	rec->dev = (uint32_t)dev;
	rec->pid = 0;
	rec->status = 0;
	rec->hint = 0;
	rec->has = TRC_HAS_DEV;
	return 1;
}

int trc_alibaba_open(struct trc_reader *r)
{
	r->next = ali_next;
	return 0;
}
