/*
 * trc_tencent.c — Tencent CBS block traces (SNIA IOTTA, OSCA, ATC '20):
 * "Timestamp,Offset,Size,IOType,VolumeID" with the timestamp in Unix
 * seconds, offset and size in 512-byte sectors, IOType 0 (read) or 1
 * (write).  VolumeID is the record's device: `--device N` keeps one volume
 * (the files interleave thousands).  A first line starting with
 * "Timestamp" is skipped.
 */
#include "trc_int.h"

#include <errno.h>
#include <string.h>
#include <strings.h>

static bool is_header(const char *p, size_t n)
{
	return n >= 9 && !strncasecmp(p, "timestamp", 9);
}

bool trc_tencent_detect(const uint8_t *buf, size_t len)
{
	struct trc_field f[6];
	uint64_t v;
	bool complete;
	size_t n = trc_first_line(buf, len, &complete);

	if (is_header((const char *)buf, n) && complete) {
		buf += n + 1;
		len -= n + 1;
		n = trc_first_line(buf, len, &complete);
	}
	if (trc_split((const char *)buf, n, ',', f, 5) != 5)
		return false;
	return trc_parse_u64(f[0], &v) && f[0].n >= 9 && f[0].n <= 11 && trc_parse_u64(f[1], &v) &&
	       trc_parse_u64(f[2], &v) && (trc_field_is(f[3], "0") || trc_field_is(f[3], "1")) &&
	       trc_parse_u64(f[4], &v);
}

static int tencent_next(struct trc_reader *r, struct trc_rec *rec)
{
	struct trc_field f[6];
	uint64_t s, off, size, vol;
	int ret;

	ret = trc_next_csv(r, is_header, f, 5, "Timestamp,Offset,Size,IOType,VolumeID");
	if (ret <= 0)
		return ret;
	if (!trc_parse_u64(f[0], &s) || s > UINT64_MAX / 1000000000ull)
		return trc_err_line(r, -EINVAL, "Timestamp '%.*s' is not a time in seconds", TRC_FLD(f[0]));
	if (!trc_parse_u64(f[1], &off) || off > UINT64_MAX / 512)
		return trc_err_line(r, -EINVAL, "Offset '%.*s' is not a sector number", TRC_FLD(f[1]));
	if (!trc_parse_u64(f[2], &size) || size > UINT64_MAX / 512 || size * 512 > UINT64_MAX - off * 512)
		return trc_err_line(r, -EINVAL, "Size '%.*s' is not a sector count (or Offset + Size overflows)",
				    TRC_FLD(f[2]));
	if (trc_field_is(f[3], "0"))
		rec->op = TRC_OP_READ;
	else if (trc_field_is(f[3], "1"))
		rec->op = TRC_OP_WRITE;
	else
		return trc_err_line(r, -EINVAL, "IOType '%.*s' is neither 0 (read) nor 1 (write)", TRC_FLD(f[3]));
	if (!trc_parse_u64(f[4], &vol) || vol > UINT32_MAX)
		return trc_err_line(r, -EINVAL, "VolumeID '%.*s' is not a 32-bit unsigned integer", TRC_FLD(f[4]));
	rec->ts_ns = s * 1000000000ull;
	rec->offset_bytes = off * 512;
	rec->len_bytes = size * 512;
	rec->latency_ns = 0;
	rec->dev = (uint32_t)vol;
	rec->pid = 0;
	rec->status = 0;
	rec->hint = 0;
	rec->has = TRC_HAS_DEV;
	return 1;
}

int trc_tencent_open(struct trc_reader *r)
{
	r->next = tencent_next;
	return 0;
}
