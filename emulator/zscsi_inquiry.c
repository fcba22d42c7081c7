/*
 * zscsi_inquiry.c — identification and capacity: standard INQUIRY, the VPD
 * pages (00h, 80h, 83h, B0h, B1h, B6h), READ CAPACITY(10/16) and REPORT
 * LUNS.  REPORT SUPPORTED OPERATION CODES is not here: it reads the opcode
 * table, so it lives beside it (zscsi_dispatch.c).
 *
 * Byte layouts follow SPC-5, SBC-4 and ZBC-2 as summarised in
 * reference/zbc.md section 2.1; docs/ZBC.md lists the values chosen.
 */
#include <string.h>

#include "zscsi_int.h"

#define INQ_STD_LEN 96
#define VPD_MAX_LEN 128

static void put_padded(uint8_t *dst, const char *src, size_t width)
{
	size_t n = strlen(src);

	memset(dst, ' ', width);
	memcpy(dst, src, n < width ? n : width);
}

static uint8_t pdt(const struct zscsi *s)
{
	return zscsi_is_hm(s) ? 0x14 : 0x00;
}

static size_t inquiry_std(const struct zscsi *s, uint8_t *b)
{
	b[0] = pdt(s);
	b[2] = 0x07;                 /* VERSION: SPC-5 */
	b[3] = 0x12;                 /* HISUP, RESPONSE DATA FORMAT 2 */
	b[4] = INQ_STD_LEN - 5;
	b[7] = 0x02;                 /* CMDQUE */
	put_padded(b + 8, s->vendor, 8);
	put_padded(b + 16, s->product, 16);
	put_padded(b + 32, "0001", 4);
	/*
	 * VERSION DESCRIPTORS, all "no version claimed": the architecture, the
	 * command sets whose pages and commands zscsi returns (SPC-5 and
	 * SBC-4, and SPC-4 and SBC-3, which define the same standard data and
	 * the same 3Ch-byte Block Limits page: initiators that know only the
	 * older codes look for them), then ZBC.  No transport: the handler
	 * does not know which fabric carries it (docs/ZBC.md).
	 */
	zl_put_be16(b + 58, 0x00c0); /* SAM-6 */
	zl_put_be16(b + 60, 0x05c0); /* SPC-5 */
	zl_put_be16(b + 62, 0x0460); /* SPC-4 */
	zl_put_be16(b + 64, 0x0600); /* SBC-4 */
	zl_put_be16(b + 66, 0x04c0); /* SBC-3 */
	zl_put_be16(b + 68, 0x0620); /* ZBC */
	return INQ_STD_LEN;
}

static const uint8_t vpd_list[] = { 0x00, 0x80, 0x83, 0xb0, 0xb1, 0xb6 };

/* Returns the page size, or 0 for a page we do not have. */
static size_t inquiry_vpd(const struct zscsi *s, uint8_t page, uint8_t *b)
{
	const struct zdev_cfg *geo = zdisk_geo(s->disk);
	size_t n, vlen, plen, slen;
	uint32_t max_open;
	uint8_t *d;

	b[0] = pdt(s);
	b[1] = page;
	switch (page) {
	case 0x00:
		memcpy(b + 4, vpd_list, sizeof(vpd_list));
		n = sizeof(vpd_list);
		break;
	case 0x80:
		n = strlen(s->serial);
		memcpy(b + 4, s->serial, n);
		break;
	case 0x83:
		/* NAA designator: binary, LU association, type 3 */
		d = b + 4;
		d[0] = 0x01;
		d[1] = 0x03;
		d[3] = 8;
		zl_put_be64(d + 4, s->naa_id);
		/* T10 vendor ID designator: ASCII, LU association, type 1 */
		d = b + 16;
		vlen = 8;
		plen = strlen(s->product);
		slen = strlen(s->serial);
		d[0] = 0x02;
		d[1] = 0x01;
		put_padded(d + 4, s->vendor, 8);
		memcpy(d + 4 + vlen, s->product, plen);
		d[4 + vlen + plen] = ':';
		memcpy(d + 5 + vlen + plen, s->serial, slen);
		d[3] = (uint8_t)(vlen + plen + 1 + slen);
		n = 12 + 4 + d[3];
		break;
	case 0xb0:
		/* Block limits: only what is implemented (no UNMAP: 0 blocks, 0 descriptors) */
		n = 0x3c;
		b[4] = 0x01;                                          /* WSNZ: WRITE SAME of 0 blocks refused */
		b[5] = ZSCSI_MAX_CAW_LBA;                             /* MAXIMUM COMPARE AND WRITE LENGTH */
		zl_put_be16(b + 6, (uint16_t)(1u << s->pblock_exp)); /* OPTIMAL TRANSFER LENGTH GRANULARITY */
		zl_put_be32(b + 8, ZSCSI_MAX_XFER_BYTES / s->lba_size); /* MAXIMUM TRANSFER LENGTH */
		zl_put_be64(b + 36, ZSCSI_MAX_WS_BYTES / s->lba_size); /* MAXIMUM WRITE SAME LENGTH */
		break;
	case 0xb1:
		n = 0x3c;
		zl_put_be16(b + 4, 7200);   /* MEDIUM ROTATION RATE */
		if (!zscsi_is_hm(s))
			b[8] = 0x10;        /* ZONED = 01b: host-aware */
		break;
	case 0xb6:
		n = 0x3c;
		b[4] = geo->urswrz ? 0x01 : 0x00;
		max_open = geo->max_open ? geo->max_open : 0xffffffffu;
		if (zscsi_is_hm(s)) {
			zl_put_be32(b + 16, max_open);   /* MAXIMUM NUMBER OF OPEN SWR ZONES */
		} else {
			zl_put_be32(b + 8, max_open);    /* OPTIMAL NUMBER OF OPEN SWP ZONES */
			zl_put_be32(b + 12, 0xffffffffu);/* OPTIMAL NON-SEQ WRITTEN: not reported */
		}
		if (s->has_gaps) {
			b[23] = 0x08;                    /* constant zone starting LBA offset */
			zl_put_be64(b + 24, s->zone_size_lba);
		} else {
			b[23] = 0x01;                    /* constant zone length */
		}
		break;
	default:
		return 0;
	}
	zl_put_be16(b + 2, (uint16_t)n);
	return n + 4;
}

uint8_t zscsi_inquiry(struct zscsi_cmd *c)
{
	uint8_t b[VPD_MAX_LEN > INQ_STD_LEN ? VPD_MAX_LEN : INQ_STD_LEN];
	uint32_t alloc = zl_get_be16(c->cdb + 3);
	size_t n;

	memset(b, 0, sizeof(b));
	if (c->cdb[1] & 0x02)                   /* CMDDT: obsolete */
		return zscsi_fail_cdb(c, 1, 1);
	if (!(c->cdb[1] & 0x01)) {
		if (c->cdb[2])                  /* PAGE CODE without EVPD */
			return zscsi_fail_cdb(c, 2, 7);
		n = inquiry_std(c->s, b);
	} else {
		n = inquiry_vpd(c->s, c->cdb[2], b);
		if (!n)
			return zscsi_fail_cdb(c, 2, 7);
	}
	zscsi_data_in(c, b, n < alloc ? n : alloc);
	return ZSCSI_GOOD;
}

uint8_t zscsi_read_capacity10(struct zscsi_cmd *c)
{
	uint64_t last = c->s->capacity_lba - 1;
	uint8_t b[8];

	if (!(c->cdb[8] & 0x01) && zl_get_be32(c->cdb + 2))   /* LBA without PMI (SBC-3) */
		return zscsi_fail_cdb(c, 2, 7);
	zl_put_be32(b, last > 0xfffffffeull ? 0xffffffffu : (uint32_t)last);
	zl_put_be32(b + 4, c->s->lba_size);
	zscsi_data_in(c, b, sizeof(b));
	return ZSCSI_GOOD;
}

uint8_t zscsi_read_capacity16(struct zscsi_cmd *c)
{
	uint32_t alloc = zl_get_be32(c->cdb + 10);
	uint8_t b[32];

	memset(b, 0, sizeof(b));
	zl_put_be64(b, c->s->capacity_lba - 1);
	zl_put_be32(b + 8, c->s->lba_size);
	b[12] = 0x10;                           /* RC BASIS = 01b: last LBA of the LU */
	b[13] = (uint8_t)c->s->pblock_exp;      /* LOGICAL BLOCKS PER PHYSICAL BLOCK EXPONENT */
	zscsi_data_in(c, b, alloc < sizeof(b) ? alloc : sizeof(b));
	return ZSCSI_GOOD;
}

uint8_t zscsi_report_luns(struct zscsi_cmd *c)
{
	uint32_t alloc = zl_get_be32(c->cdb + 6);
	uint8_t b[16];

	if (c->cdb[2] > 0x02)                   /* SELECT REPORT: 0, 1, 2 */
		return zscsi_fail_cdb(c, 2, 7);
	if (alloc < 16)                         /* SPC-5: at least 16 bytes */
		return zscsi_fail_cdb(c, 6, 7);
	memset(b, 0, sizeof(b));
	zl_put_be32(b, 8);                      /* one LUN: 0 */
	zscsi_data_in(c, b, sizeof(b));
	return ZSCSI_GOOD;
}
