/*
 * zscsi_rw.c — READ and WRITE (6/10/12/16) and SYNCHRONIZE CACHE (10/16).
 * VERIFY, WRITE AND VERIFY, WRITE SAME and COMPARE AND WRITE are in
 * zscsi_sbc.c.
 *
 * This file parses the CDB, bounds the transfer by the caller's buffer and
 * the maximum transfer length, and hands the LBA range to zdisk; zone rules
 * (write pointer, boundaries, gap, read-only, offline) are zdev's, and their
 * reasons come back as errors that zscsi_fail_err() turns into sense data.
 * Protection information is not supported (RDPROTECT/WRPROTECT/VRPROTECT
 * must be zero).  This is the opcode table's handler; the READ/WRITE fast
 * paths (zscsi.c) share its parsing and checks through zscsi_rw_int.h.
 */
#include <stdlib.h>
#include <string.h>

#include "zscsi_int.h"
#include "zscsi_rw_int.h"

static void rw_parse(const uint8_t *cdb, struct rw_args *a)
{
	switch (cdb[0]) {
	case 0x08: case 0x0a:
		a->lba = zl_get_be24(cdb + 1) & 0x1fffff;
		a->nr_lba = cdb[4] ? cdb[4] : 256;      /* 0 means 256 (SBC-4 5.10) */
		a->tl_byte = 4;
		a->has_flags = false;
		a->write = cdb[0] == 0x0a;
		a->fua = false;
		return;
	case 0x28: case 0x2a: case 0x2f: case 0x35:
		rw_parse_10(cdb, a);
		return;
	case 0xa8: case 0xaa:
		a->lba = zl_get_be32(cdb + 2);
		a->nr_lba = zl_get_be32(cdb + 6);
		a->tl_byte = 6;
		a->has_flags = true;
		a->write = cdb[0] == 0xaa;
		a->fua = cdb[1] & 0x08;
		return;
	default: /* 16-byte forms */
		rw_parse_16(cdb, a);
		return;
	}
}

/*
 * A READ whose buffer holds less than TRANSFER LENGTH blocks (the
 * initiator expects less: SAM-5 overflow): the blocks that fit, the last
 * one cut, as LIO's own backstores read only the expected length.  The
 * transport reports the residual (the kernel sized the buffer).
 */
static uint8_t read_what_fits(struct zscsi_cmd *c, const struct rw_args *a)
{
	struct zscsi *s = c->s;
	uint64_t whole = c->buf_len / s->lba_size;
	size_t part = c->buf_len % s->lba_size;
	struct zdisk_io io = { 0 };
	uint8_t *last;
	int err = 0;

	if (whole)
		err = zdisk_readv(s->disk, a->lba, whole, c->iov, c->iov_cnt, &io);
	if (err) {
		c->data_len = (size_t)io.done_lba * s->lba_size;
		return zscsi_fail_err(c, err, ZSCSI_CTX_IO, a->lba + io.done_lba);
	}
	c->data_len = (size_t)whole * s->lba_size;
	if (!part)
		return ZSCSI_GOOD;
	last = malloc(s->lba_size);
	if (!last)
		return zscsi_fail(c, ZSK_HARDWARE_ERROR, 0x44, 0x00);
	err = zdisk_read(s->disk, a->lba + whole, 1, last, &io);
	if (!err) {
		struct iovec *iov = (struct iovec *)c->iov;  /* (only its lengths are read) */
		size_t skip = c->data_len, n, done = 0;

		for (int i = 0; i < c->iov_cnt && done < part; i++) {
			n = iov[i].iov_len;
			if (skip >= n) {
				skip -= n;
				continue;
			}
			n -= skip;
			if (n > part - done)
				n = part - done;
			memcpy((uint8_t *)iov[i].iov_base + skip, last + done, n);
			done += n;
			skip = 0;
		}
		c->data_len += part;
	}
	free(last);
	if (err)
		return zscsi_fail_err(c, err, ZSCSI_CTX_IO, a->lba + whole);
	return ZSCSI_GOOD;
}

static inline enum rw_bad rw_check(const struct zscsi *s, const uint8_t *cdb, size_t buf_len,
				   struct rw_args *a)
{
	rw_parse(cdb, a);
	return rw_check_parsed(s, cdb, buf_len, a);
}

uint8_t zscsi_rw(struct zscsi_cmd *c)
{
	struct zdisk_io io;
	struct rw_args a;
	int err;

	switch (rw_check(c->s, c->cdb, c->buf_len, &a)) {
	case RW_BAD_PROTECT:
		return zscsi_fail_cdb(c, 1, 7);
	case RW_BAD_RANGE:
		return zscsi_fail_err(c, ZL_E_LBA_RANGE, ZSCSI_CTX_IO, a.lba);
	case RW_BAD_LENGTH:
		if (!a.write && a.bytes <= ZSCSI_MAX_XFER_BYTES)
			return read_what_fits(c, &a);
		return zscsi_fail_cdb(c, a.tl_byte, 7);
	case RW_OK:
		break;
	}
	err = rw_transfer(c->s, &a, c->iov, c->iov_cnt, &io);
	if (err) {
		/* a medium error transferred the blocks before the failing LBA */
		if (!a.write)
			c->data_len = (size_t)io.done_lba * c->s->lba_size;
		return zscsi_fail_err(c, err, ZSCSI_CTX_IO, a.lba + io.done_lba);
	}
	if (!a.write)
		c->data_len = a.bytes;
	return ZSCSI_GOOD;
}

uint8_t zscsi_sync_cache(struct zscsi_cmd *c)
{
	struct rw_args a;
	int err;

	rw_parse(c->cdb, &a);
	/* NUMBER OF LOGICAL BLOCKS 0 means "to the end of the medium" */
	if (a.lba >= c->s->capacity_lba || a.nr_lba > c->s->capacity_lba - a.lba)
		return zscsi_fail_err(c, ZL_E_LBA_RANGE, ZSCSI_CTX_IO, a.lba);
	err = zdisk_flush(c->s->disk, NULL);
	if (err)
		return zscsi_fail_err(c, err, ZSCSI_CTX_IO, UINT64_MAX);
	return ZSCSI_GOOD;
}
