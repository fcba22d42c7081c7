/*
 * zscsi_zbc.c — ZBC IN (95h) REPORT ZONES and ZBC OUT (94h) OPEN, CLOSE,
 * FINISH and RESET WRITE POINTER, each with the ALL bit.
 *
 * Only the encoding is here: zdisk/zdev iterate zones and apply the state
 * machine.  REPORT ZONES follows ZBC-2 5.4 (zbc.md section 2.2):
 *   - PARTIAL = 0: ZONE LIST LENGTH counts every matching zone from the
 *     zone holding ZONE START LBA to the end, even those that do not fit;
 *   - PARTIAL = 1: it counts the descriptors returned;
 *   - min(ALLOCATION LENGTH, available) bytes are returned, cut anywhere,
 *     inside a descriptor too (SPC-5 4.2.5.6; scsi_debug returns only whole
 *     descriptors); with PARTIAL = 1 a cut descriptor is not counted;
 *   - WRITE POINTER LBA is all-ones where the zone has no valid write
 *     pointer: conventional and gap zones, and FULL, READ ONLY, OFFLINE
 *     and INACTIVE zones (ZBC-2: the write pointer is invalid there; Linux
 *     uses start + length for FULL zones anyway);
 *   - bytes 16-23 of the header carry the zone starting LBA granularity
 *     when the device has gap zones (VPD B6h zone alignment method 8).
 * ZONE COUNT (ZBC-2) greater than one is rejected with INVALID FIELD IN CDB
 * pointing at the field; zero and one mean one zone.
 */
#include <endian.h>
#include <stdlib.h>
#include <string.h>

#include "zscsi_int.h"

#define RZ_HDR 64
#define RZ_DESC 64
#define RZ_CHUNK 256      /* zones fetched from zdisk per call */

static bool report_opt_valid(uint8_t opt)
{
	switch (opt) {
	case ZL_RO_ALL: case ZL_RO_EMPTY: case ZL_RO_IMP_OPEN: case ZL_RO_EXP_OPEN:
	case ZL_RO_CLOSED: case ZL_RO_FULL: case ZL_RO_READ_ONLY: case ZL_RO_OFFLINE:
	case ZL_RO_INACTIVE: case ZL_RO_RWP_RECOMMENDED: case ZL_RO_NON_SEQ:
	case ZL_RO_ALL_BUT_GAP: case ZL_RO_NOT_WP:
		return true;
	default:
		return false;
	}
}

static bool wp_is_valid(const struct zl_zone_info *zi)
{
	if (zi->type != ZL_ZONE_TYPE_SWR && zi->type != ZL_ZONE_TYPE_SWP)
		return false;
	switch (zi->cond) {
	case ZL_COND_EMPTY: case ZL_COND_IMP_OPEN: case ZL_COND_EXP_OPEN: case ZL_COND_CLOSED:
		return zi->wp_lba != ZL_WP_INVALID;
	default:
		return false;
	}
}

/*
 * One 64-byte descriptor, written as eight 8-byte stores; inlined into the
 * loop (REPORT ZONES of 65,536 zones is a bench row: as a call it cost 14%
 * more instructions per report).
 */
static inline __attribute__((always_inline)) void put_desc(uint8_t *d, const struct zl_zone_info *zi)
{
	uint64_t w0 = (uint64_t)(zi->type & 0x0f) |
		      (uint64_t)((uint8_t)(zi->cond << 4) | (zi->non_seq ? 0x02 : 0) |
				 (zi->reset_rec ? 0x01 : 0)) << 8;
	static const uint64_t zero[4];

	w0 = htole64(w0);                /* byte 0 type, byte 1 condition, 2-7 zero */
	memcpy(d, &w0, 8);
	zl_put_be64(d + 8, zi->len_lba);
	zl_put_be64(d + 16, zi->start_lba);
	zl_put_be64(d + 24, wp_is_valid(zi) ? zi->wp_lba : ~0ull);
	memcpy(d + 32, zero, sizeof(zero));
}

uint8_t zscsi_report_zones(struct zscsi_cmd *c)
{
	struct zscsi *s = c->s;
	uint64_t start = zl_get_be64(c->cdb + 2);
	uint32_t alloc = zl_get_be32(c->cdb + 10);
	bool partial = c->cdb[14] & 0x80;
	uint8_t opt = c->cdb[14] & 0x3f;
	struct zl_zone_info zi[RZ_CHUNK];
	uint8_t hdr[RZ_HDR];
	uint64_t max_desc, max_full, n = 0, list_len, next, lba;
	uint8_t last[RZ_DESC];
	size_t out_len, tail, whole, i;
	uint8_t *buf;
	bool bounce;
	int64_t cnt;
	int ret;

	if (!report_opt_valid(opt))
		return zscsi_fail_cdb(c, 14, 5);
	if (start >= s->capacity_lba)
		return zscsi_fail_err(c, ZL_E_LBA_RANGE, ZSCSI_CTX_IO, start);

	out_len = alloc < c->buf_len ? alloc : c->buf_len;
	if (out_len == 0)
		return ZSCSI_GOOD;
	/* whole descriptors that fit, then the first bytes of one more */
	max_full = out_len > RZ_HDR ? (out_len - RZ_HDR) / RZ_DESC : 0;
	tail = out_len > RZ_HDR ? (out_len - RZ_HDR) % RZ_DESC : 0;
	max_desc = max_full + (tail ? 1 : 0);

	buf = zscsi_flat_buf(c, out_len);
	bounce = !buf;
	if (bounce) {
		buf = malloc(out_len);
		if (!buf)
			return zscsi_fail(c, ZSK_HARDWARE_ERROR, 0x44, 0x00);
	}

	lba = start;
	next = start;
	while (n < max_desc && lba < s->capacity_lba) {
		uint32_t want = max_desc - n < RZ_CHUNK ? (uint32_t)(max_desc - n) : RZ_CHUNK;

		ret = zdisk_report(s->disk, lba, (enum zl_report_opt)opt, zi, want, &next);
		if (ret < 0) {
			if (bounce)
				free(buf);
			return zscsi_fail_err(c, ret, ZSCSI_CTX_IO, lba);
		}
		/* whole descriptors in place; then at most one cut (want <= max_desc - n) */
		whole = n + (size_t)ret <= max_full ? (size_t)ret : (size_t)(max_full - n);
		for (i = 0; i < whole; i++)
			put_desc(buf + RZ_HDR + (n + i) * RZ_DESC, &zi[i]);
		if (whole < (size_t)ret) {      /* the cut one: as many bytes as fit */
			put_desc(last, &zi[i]);
			memcpy(buf + RZ_HDR + max_full * RZ_DESC, last, tail);
		}
		n += (uint64_t)ret;
		if (ret < (int)want || next <= lba)
			break;
		lba = next;
	}
	if (n < max_desc)               /* fewer zones than room: that is all there is */
		out_len = RZ_HDR + n * RZ_DESC < out_len ? RZ_HDR + n * RZ_DESC : out_len;

	if (partial) {
		/* only the descriptors returned whole count */
		list_len = (n < max_full ? n : max_full) * RZ_DESC;
	} else if (n < max_desc) {
		/* every matching zone was returned */
		list_len = n * RZ_DESC;
	} else {
		cnt = zdisk_report_count(s->disk, start, (enum zl_report_opt)opt);
		if (cnt < 0) {
			if (bounce)
				free(buf);
			return zscsi_fail_err(c, (int)cnt, ZSCSI_CTX_IO, start);
		}
		list_len = (uint64_t)cnt * RZ_DESC;
	}
	if (list_len > 0xffffffc0ull)       /* the field is 32 bits: whole descriptors */
		list_len = 0xffffffc0ull;

	/* the header, or as much of it as the allocation length takes */
	memset(hdr, 0, sizeof(hdr));
	zl_put_be32(hdr, (uint32_t)list_len);
	zl_put_be64(hdr + 8, s->capacity_lba - 1);           /* MAXIMUM LBA */
	if (s->has_gaps)
		zl_put_be64(hdr + 16, s->zone_size_lba);     /* ZONE STARTING LBA GRANULARITY */
	memcpy(buf, hdr, out_len < RZ_HDR ? out_len : RZ_HDR);

	if (bounce) {
		zscsi_data_in(c, buf, out_len);
		free(buf);
	} else {
		c->data_len = out_len;
	}
	return ZSCSI_GOOD;
}

uint8_t zscsi_zone_out(struct zscsi_cmd *c)
{
	struct zscsi *s = c->s;
	enum zl_zone_op op = (enum zl_zone_op)(c->cdb[1] & 0x1f);
	uint64_t zone_id = zl_get_be64(c->cdb + 2);
	uint16_t count = zl_get_be16(c->cdb + 12);
	bool all = c->cdb[14] & 0x01;
	int err;

	if (!all) {
		if (count > 1)      /* ZBC-2 ZONE COUNT: one zone at a time only */
			return zscsi_fail_cdb(c, 12, 7);
		if (zone_id >= s->capacity_lba)
			return zscsi_fail_err(c, ZL_E_LBA_RANGE, ZSCSI_CTX_ZONE_OP, zone_id);
	}
	err = zdisk_zone_op(s->disk, op, zone_id, all, NULL);
	if (!err)
		return ZSCSI_GOOD;
	if (err == ZL_E_NOT_ZONE_START || err == ZL_E_NOT_WP_ZONE || err == ZL_E_GAP_ZONE) {
		/* ZONE ID does not name a write pointer zone start: point at it */
		zscsi_fail_err(c, err, ZSCSI_CTX_ZONE_OP, zone_id);   /* 24h for each */
		zscsi_sense_field(c->sense, true, 2, 7);
		return ZSCSI_CHECK_CONDITION;
	}
	return zscsi_fail_err(c, err, ZSCSI_CTX_ZONE_OP, zone_id);
}
