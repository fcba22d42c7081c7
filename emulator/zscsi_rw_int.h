/*
 * zscsi_rw_int.h — private to zscsi_rw.c (the READ/WRITE handler of the
 * opcode table) and zscsi.c (the READ/WRITE fast paths): the parsed form of
 * a READ/WRITE CDB, its two common parsers, the one list of checks before
 * zdisk, and the transfer.  All static inline, so the 4 KiB path makes no
 * call for them (zl_hot.h); keeping them here is what makes both paths
 * answer alike.  Not for the other handlers.
 */
#ifndef ZSCSI_RW_INT_H
#define ZSCSI_RW_INT_H

#include "zscsi_int.h"

struct rw_args {
	uint64_t lba;
	uint32_t nr_lba;
	uint16_t tl_byte;      /* CDB byte of TRANSFER LENGTH (field pointer) */
	bool write;
	bool fua;
	bool has_flags;        /* byte 1 carries RDPROTECT/DPO/FUA */
	size_t bytes;          /* nr_lba in bytes (set by rw_check()) */
};

/* READ/WRITE(10) and (16): the fast path's two forms, and rw_parse()'s (zscsi_rw.c). */
static inline void rw_parse_10(const uint8_t *cdb, struct rw_args *a)
{
	a->lba = zl_get_be32(cdb + 2);
	a->nr_lba = zl_get_be16(cdb + 7);
	a->tl_byte = 7;
	a->has_flags = true;
	a->write = cdb[0] == 0x2a;
	a->fua = cdb[1] & 0x08;
}

static inline void rw_parse_16(const uint8_t *cdb, struct rw_args *a)
{
	a->lba = zl_get_be64(cdb + 2);
	a->nr_lba = zl_get_be32(cdb + 10);
	a->tl_byte = 10;
	a->has_flags = true;
	a->write = cdb[0] == 0x8a;
	a->fua = cdb[1] & 0x08;
}

static inline bool lba_in_range(const struct zscsi *s, uint64_t lba, uint64_t nr)
{
	return lba < s->capacity_lba && nr <= s->capacity_lba - lba;
}

/* What a READ/WRITE CDB can fail before it reaches zdisk, in checking order. */
enum rw_bad { RW_OK, RW_BAD_PROTECT, RW_BAD_RANGE, RW_BAD_LENGTH };

/*
 * Check a parsed READ/WRITE CDB against the device and a buffer of
 * @buf_len bytes.  The one list of these checks: zscsi_rw() turns a
 * failure into sense, zscsi_rw_fast() (zscsi.c) hands the command to the
 * table.
 */
static inline enum rw_bad rw_check_parsed(const struct zscsi *s, const uint8_t *cdb,
					  size_t buf_len, struct rw_args *a)
{
	if (a->has_flags && (cdb[1] & 0xe0))           /* RDPROTECT / WRPROTECT */
		return RW_BAD_PROTECT;
	if (!lba_in_range(s, a->lba, a->nr_lba))
		return RW_BAD_RANGE;
	a->bytes = (size_t)a->nr_lba * s->lba_size;
	if (a->bytes > ZSCSI_MAX_XFER_BYTES || a->bytes > buf_len)
		return RW_BAD_LENGTH;                   /* too long, or the buffer cannot hold it */
	return RW_OK;
}

/*
 * The transfer of a checked command, with the caller's scatter-gather buffer
 * as is: no bounce copy, whatever the iovec layout tcmu-runner hands us.
 */
static inline int rw_transfer(struct zscsi *s, const struct rw_args *a, const struct iovec *iov,
			      int iov_cnt, struct zdisk_io *io)
{
	if (a->write)
		return zdisk_writev(s->disk, a->lba, a->nr_lba, iov, iov_cnt, a->fua, io);
	if (!a->nr_lba)
		return 0;                               /* nothing to read */
	return zdisk_readv(s->disk, a->lba, a->nr_lba, iov, iov_cnt, io);
}

#endif /* ZSCSI_RW_INT_H */
