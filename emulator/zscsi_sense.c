/*
 * zscsi_sense.c — fixed-format sense data and the one table that turns a
 * zdisk/zdev/zstore/zfault error reason into a sense key and ASC/ASCQ.
 *
 * This is the only place where an error code becomes sense data (DESIGN.md:
 * translate once, at the boundary).  Command parsing errors (INVALID FIELD IN
 * CDB and friends) are built directly by the handlers through
 * zscsi_fail_cdb()/zscsi_fail_param(); they are not zone reasons.  Choices
 * where implementations disagree are listed in docs/ZBC.md.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "zscsi_int.h"

struct zscsi_err_map {
	int err;
	uint8_t ctx;       /* enum zscsi_ctx mask */
	uint8_t profiles;  /* bit (1 << enum zscsi_profile); 0xff = every profile */
	uint8_t key, asc, ascq;
	bool info;         /* report the failing LBA in INFORMATION */
};

#define P_ALL 0xff
#define P_ZBC2 (1u << ZSCSI_PROFILE_ZBC2)
#define P_DHSMR (1u << ZSCSI_PROFILE_DHSMR)

/*
 * First match wins.  ZBC-2 (INCITS 550) clause 4.4.3 and zbc.md section 2.4.
 */
static const struct zscsi_err_map zscsi_err_table[] = {
	{ ZL_E_LBA_RANGE,       ZSCSI_CTX_ANY, P_ALL,  ZSK_ILLEGAL_REQUEST, 0x21, 0x00, true },
	{ ZL_E_UNALIGNED,       ZSCSI_CTX_ANY, P_ALL,  ZSK_ILLEGAL_REQUEST, 0x21, 0x04, true },
	{ ZL_E_WRITE_BOUNDARY,  ZSCSI_CTX_ANY, P_ALL,  ZSK_ILLEGAL_REQUEST, 0x21, 0x05, true },
	{ ZL_E_READ_INVALID,    ZSCSI_CTX_ANY, P_ALL,  ZSK_ILLEGAL_REQUEST, 0x21, 0x06, true },
	{ ZL_E_READ_CROSS_TYPE, ZSCSI_CTX_ANY, P_ZBC2, ZSK_ILLEGAL_REQUEST, 0x21, 0x06, true },
	{ ZL_E_READ_CROSS_TYPE, ZSCSI_CTX_ANY, P_DHSMR, ZSK_ILLEGAL_REQUEST, 0x21, 0x07, true },
	{ ZL_E_READ_BOUNDARY,   ZSCSI_CTX_ANY, P_ALL,  ZSK_ILLEGAL_REQUEST, 0x21, 0x07, true },
	/* ZBC OUT naming a gap zone: its ZONE ID is no write pointer zone (24h) */
	{ ZL_E_GAP_ZONE,        ZSCSI_CTX_ZONE_OP, P_ALL, ZSK_ILLEGAL_REQUEST, 0x24, 0x00, false },
	{ ZL_E_GAP_ZONE,        ZSCSI_CTX_ANY, P_ALL,  ZSK_ILLEGAL_REQUEST, 0x21, 0x09, true },
	{ ZL_E_ZONE_FULL,       ZSCSI_CTX_ANY, P_ALL,  ZSK_ILLEGAL_REQUEST, 0x24, 0x00, true },
	{ ZL_E_NO_RESOURCES,    ZSCSI_CTX_ANY, P_ALL,  ZSK_DATA_PROTECT,    0x55, 0x0e, false },
	{ ZL_E_READ_ONLY,       ZSCSI_CTX_ANY, P_ALL,  ZSK_DATA_PROTECT,    0x27, 0x08, true },
	{ ZL_E_OFFLINE,         ZSCSI_CTX_ANY, P_ALL,  ZSK_DATA_PROTECT,    0x2c, 0x0e, true },
	{ ZL_E_NOT_ZONE_START,  ZSCSI_CTX_ANY, P_ALL,  ZSK_ILLEGAL_REQUEST, 0x24, 0x00, false },
	{ ZL_E_NOT_WP_ZONE,     ZSCSI_CTX_ANY, P_ALL,  ZSK_ILLEGAL_REQUEST, 0x24, 0x00, false },
	{ ZL_E_MEDIUM_READ,     ZSCSI_CTX_ANY, P_ALL,  ZSK_MEDIUM_ERROR,    0x11, 0x00, true },
	{ ZL_E_MEDIUM_WRITE,    ZSCSI_CTX_ANY, P_ALL,  ZSK_MEDIUM_ERROR,    0x0c, 0x00, true },
	{ ZL_E_TORN_WRITE,      ZSCSI_CTX_ANY, P_ALL,  ZSK_MEDIUM_ERROR,    0x0c, 0x00, true },
	/*
	 * Power lost while the command ran, or lost and not back: the command
	 * is not done, and nothing is until the power comes back (then POWER
	 * ON OCCURRED, 29h/00h, once).  NOT READY, not a unit attention: sd
	 * retries a unit attention (a "power glitch"), and the retry would run
	 * on the state the power loss left (docs/ZBC.md).
	 */
	{ ZL_E_POWER_LOSS,      ZSCSI_CTX_ANY, P_ALL,  ZSK_NOT_READY,       0x04, 0x00, false },
};

void zscsi_sense_build(uint8_t *sense, uint8_t key, uint8_t asc, uint8_t ascq)
{
	memset(sense, 0, ZSCSI_SENSE_LEN);
	sense[0] = 0x70;               /* current error, fixed format */
	sense[2] = key & 0x0f;
	sense[7] = ZSCSI_SENSE_LEN - 8; /* ADDITIONAL SENSE LENGTH */
	sense[12] = asc;
	sense[13] = ascq;
}

uint8_t zscsi_fail(struct zscsi_cmd *c, uint8_t key, uint8_t asc, uint8_t ascq)
{
	zscsi_sense_build(c->sense, key, asc, ascq);
	return ZSCSI_CHECK_CONDITION;
}

void zscsi_sense_field(uint8_t *sense, bool cdb, uint16_t byte, int bit)
{
	/* SPC-5 4.4.2.2 field pointer: SKSV, C/D, BPV, BIT POINTER, FIELD POINTER */
	sense[15] = 0x80 | (cdb ? 0x40 : 0);
	if (bit >= 0 && bit <= 7)
		sense[15] |= 0x08 | (uint8_t)bit;
	zl_put_be16(sense + 16, byte);
}

static uint8_t fail_field(struct zscsi_cmd *c, uint8_t asc, bool cdb, uint16_t byte, int bit)
{
	zscsi_sense_build(c->sense, ZSK_ILLEGAL_REQUEST, asc, 0x00);
	zscsi_sense_field(c->sense, cdb, byte, bit);
	return ZSCSI_CHECK_CONDITION;
}

uint8_t zscsi_fail_cdb(struct zscsi_cmd *c, uint16_t byte, int bit)
{
	return fail_field(c, 0x24, true, byte, bit);
}

uint8_t zscsi_fail_param(struct zscsi_cmd *c, uint16_t byte, int bit)
{
	return fail_field(c, 0x26, false, byte, bit);
}

uint8_t zscsi_fail_err(struct zscsi_cmd *c, int err, enum zscsi_ctx ctx, uint64_t lba)
{
	const struct zscsi_err_map *m;
	uint8_t pbit = (uint8_t)(1u << c->s->profile);
	size_t i;

	for (i = 0; i < sizeof(zscsi_err_table) / sizeof(zscsi_err_table[0]); i++) {
		m = &zscsi_err_table[i];
		if (m->err != err || !(m->ctx & ctx) || !(m->profiles & pbit))
			continue;
		zscsi_sense_build(c->sense, m->key, m->asc, m->ascq);
		if (m->info && lba <= UINT32_MAX) {
			/* fixed format INFORMATION is 4 bytes; VALID only if it fits */
			c->sense[0] |= 0x80;
			zl_put_be32(c->sense + 3, (uint32_t)lba);
		}
		return ZSCSI_CHECK_CONDITION;
	}
	/*
	 * -errno from the store (or a reason with no SCSI meaning): HARDWARE
	 * ERROR, INTERNAL TARGET FAILURE.  zdisk keeps the errno in its stats.
	 */
	return zscsi_fail(c, ZSK_HARDWARE_ERROR, 0x44, 0x00);
}
