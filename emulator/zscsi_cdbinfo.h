/*
 * zscsi_cdbinfo.h — what a CDB says, without executing it: opcode, service
 * action, LBA, transfer length in LBAs and the FUA / ALL bits.  For command
 * traces and logs.  It validates nothing (zscsi_execute() does) and knows
 * no device: a field the CDB does not have is reported as absent, never
 * guessed.
 */
#ifndef ZSCSI_CDBINFO_H
#define ZSCSI_CDBINFO_H

#include <stddef.h>
#include <stdint.h>

/* zscsi_cdb_info.flags */
enum {
	ZSCSI_CDBI_LBA = 1u << 0,     /* lba is a field of this CDB */
	ZSCSI_CDBI_LEN = 1u << 1,     /* nr_lba is a field of this CDB (in LBAs) */
	ZSCSI_CDBI_FUA = 1u << 2,     /* FUA bit set (READ/WRITE 10/12/16) */
	ZSCSI_CDBI_ALL = 1u << 3,     /* ALL bit set (ZBC OUT) */
	ZSCSI_CDBI_SA = 1u << 4,      /* sa is a service action of this opcode */
	ZSCSI_CDBI_SHORT = 1u << 5,   /* the CDB was shorter than its opcode's length */
};

struct zscsi_cdb_info {
	uint8_t opcode;
	uint8_t sa;                   /* service action (0 unless ZSCSI_CDBI_SA) */
	uint8_t flags;                /* ZSCSI_CDBI_* */
	uint8_t cdb_len;              /* length the opcode's group implies (6, 10, 12, 16) */
	uint64_t lba;                 /* first LBA (start LBA for zone commands); 0 if absent */
	uint32_t nr_lba;              /* transfer length in LBAs (READ(6)/WRITE(6): 0 means 256) */
};

/**
 * zscsi_cdb_info() - decode the common fields of @cdb.
 * @cdb:     the CDB bytes (borrowed); may be NULL only with @cdb_len 0.
 * @cdb_len: bytes available at @cdb.
 * @out:     filled completely (zeroed first).
 *
 * Knows the READ/WRITE/VERIFY (6/10/12/16), SYNCHRONIZE CACHE, WRITE SAME,
 * ZBC IN/OUT, SERVICE ACTION IN(16) and MAINTENANCE IN layouts; any other
 * opcode gets only @out->opcode and cdb_len.
 * Return: 0, or -EINVAL when @cdb_len is 0 or shorter than the opcode's
 * CDB (then only what fits is decoded and ZSCSI_CDBI_SHORT is set).
 */
int zscsi_cdb_info(const uint8_t *cdb, size_t cdb_len, struct zscsi_cdb_info *out);

/* CDB length from the opcode's group code (SPC-4 4.2.5.1); 6 for reserved groups. */
static inline size_t zscsi_cdb_len_of(uint8_t opcode)
{
	switch (opcode >> 5) {
	case 1:
	case 2:
		return 10;
	case 4:
		return 16;
	case 5:
		return 12;
	default:
		return 6;
	}
}

#endif /* ZSCSI_CDBINFO_H */
