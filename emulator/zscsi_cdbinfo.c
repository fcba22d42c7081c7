/*
 * zscsi_cdbinfo.c — decode opcode, service action, LBA, length and flag
 * bits of a CDB for the command trace.  A table-free switch over the few
 * layouts SBC-4 / ZBC-2 use; it does not check reserved bits or ranges (that
 * is zscsi's job) and never reads past @cdb_len.
 */
#include "zscsi_cdbinfo.h"

#include <errno.h>
#include <string.h>

#include "zl_be.h"

int zscsi_cdb_info(const uint8_t *cdb, size_t cdb_len, struct zscsi_cdb_info *out)
{
	const uint8_t *c = cdb;
	size_t need;

	memset(out, 0, sizeof(*out));
	if (!cdb || !cdb_len)
		return -EINVAL;
	out->opcode = c[0];
	need = zscsi_cdb_len_of(c[0]);
	out->cdb_len = (uint8_t)need;
	if (cdb_len < need) {
		out->flags = ZSCSI_CDBI_SHORT;
		return -EINVAL;
	}

	switch (c[0]) {
	case 0x08:              /* READ(6) */
	case 0x0a:              /* WRITE(6) */
		out->lba = (uint64_t)(c[1] & 0x1f) << 16 | zl_get_be16(c + 2);
		out->nr_lba = c[4] ? c[4] : 256;
		out->flags = ZSCSI_CDBI_LBA | ZSCSI_CDBI_LEN;
		break;
	case 0x28:              /* READ(10) */
	case 0x2a:              /* WRITE(10) */
	case 0x2e:              /* WRITE AND VERIFY(10) */
	case 0x2f:              /* VERIFY(10) */
	case 0x35:              /* SYNCHRONIZE CACHE(10) */
	case 0x41:              /* WRITE SAME(10) */
		out->lba = zl_get_be32(c + 2);
		out->nr_lba = zl_get_be16(c + 7);
		out->flags = ZSCSI_CDBI_LBA | ZSCSI_CDBI_LEN;
		break;
	case 0xa8:              /* READ(12) */
	case 0xaa:              /* WRITE(12) */
	case 0xaf:              /* VERIFY(12) */
		out->lba = zl_get_be32(c + 2);
		out->nr_lba = zl_get_be32(c + 6);
		out->flags = ZSCSI_CDBI_LBA | ZSCSI_CDBI_LEN;
		break;
	case 0x88:              /* READ(16) */
	case 0x8a:              /* WRITE(16) */
	case 0x8e:              /* WRITE AND VERIFY(16) */
	case 0x8f:              /* VERIFY(16) */
	case 0x91:              /* SYNCHRONIZE CACHE(16) */
	case 0x93:              /* WRITE SAME(16) */
		out->lba = zl_get_be64(c + 2);
		out->nr_lba = zl_get_be32(c + 10);
		out->flags = ZSCSI_CDBI_LBA | ZSCSI_CDBI_LEN;
		break;
	case 0x89:              /* COMPARE AND WRITE */
		out->lba = zl_get_be64(c + 2);
		out->nr_lba = c[13];
		out->flags = ZSCSI_CDBI_LBA | ZSCSI_CDBI_LEN;
		break;
	case 0x94:              /* ZBC OUT: zone management */
		out->sa = c[1] & 0x1f;
		out->lba = zl_get_be64(c + 2);
		out->flags = ZSCSI_CDBI_SA | ZSCSI_CDBI_LBA | ((c[14] & 1) ? ZSCSI_CDBI_ALL : 0);
		break;
	case 0x95:              /* ZBC IN: REPORT ZONES from a start LBA */
		out->sa = c[1] & 0x1f;
		out->lba = zl_get_be64(c + 2);
		out->flags = ZSCSI_CDBI_SA | ZSCSI_CDBI_LBA;
		break;
	case 0x9e:              /* SERVICE ACTION IN(16) */
	case 0x9f:              /* SERVICE ACTION OUT(16) */
	case 0xa3:              /* MAINTENANCE IN */
	case 0xa4:              /* MAINTENANCE OUT */
		out->sa = c[1] & 0x1f;
		out->flags = ZSCSI_CDBI_SA;
		break;
	default:
		break;
	}
	/* FUA: bit 3 of byte 1 for READ/WRITE(10/12/16) */
	switch (c[0]) {
	case 0x28: case 0x2a: case 0xa8: case 0xaa: case 0x88: case 0x8a:
		if (c[1] & 0x08)
			out->flags |= ZSCSI_CDBI_FUA;
		break;
	default:
		break;
	}
	return 0;
}
