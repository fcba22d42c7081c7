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
 * must be zero).
 */
#include <stdlib.h>
#include <string.h>

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

/* READ/WRITE(10) and (16): the fast path's two forms, and rw_parse()'s. */
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

static bool lba_in_range(const struct zscsi *s, uint64_t lba, uint64_t nr)
{
	return lba < s->capacity_lba && nr <= s->capacity_lba - lba;
}

/* What a READ/WRITE CDB can fail before it reaches zdisk, in checking order. */
enum rw_bad { RW_OK, RW_BAD_PROTECT, RW_BAD_RANGE, RW_BAD_LENGTH };

/*
 * Check a parsed READ/WRITE CDB against the device and a buffer of
 * @buf_len bytes.  The one list of these checks: zscsi_rw() turns a
 * failure into sense, zscsi_rw_fast() hands the command to the table.
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

/*
 * A READ/WRITE the fast paths sent to zdisk that failed with @err after
 * @done_lba blocks: the table path's sense (zscsi_rw()), kept as any
 * command's is.
 */
static __attribute__((noinline)) uint8_t rw_fast_failed(struct zscsi *s, const uint8_t *cdb,
							size_t cdb_len, const struct iovec *iov,
							int iov_cnt, const struct rw_args *a,
							int err, uint64_t done_lba,
							uint8_t *sense, size_t *data_len)
{
	struct zscsi_cmd c;

	zscsi_cmd_init(&c, s, cdb, cdb_len, iov, iov_cnt);
	c.data_in = !a->write;
	if (!a->write)
		c.data_len = (size_t)done_lba * s->lba_size;
	return zscsi_finish(&c, zscsi_fail_err(&c, err, ZSCSI_CTX_IO, a->lba + done_lba), true,
			    sense, data_len);
}

/*
 * READ/WRITE(10) or (16) (the caller knows the opcode is one of them):
 * parse it if it passes zscsi_execute_table()'s checks (CDB length, NACA,
 * no unit attention) and no sense is kept (which only zscsi_finish() may
 * drop).  False: the command is the table's.
 */
static ZL_HOT_INLINE bool rw_fast_parse(const struct zscsi *s, const uint8_t *cdb,
					size_t cdb_len, struct rw_args *a)
{
	if (cdb[0] & 0x80) {                    /* 88h/8Ah */
		if (cdb_len < 16 || (cdb[15] & 0x04))
			return false;
		rw_parse_16(cdb, a);
	} else {                                /* 28h/2Ah */
		if (cdb_len < 10 || (cdb[9] & 0x04))
			return false;
		rw_parse_10(cdb, a);
	}
	return !zscsi_ua_pending(s) && !__atomic_load_n(&s->have_sense, __ATOMIC_RELAXED);
}

/*
 * On the READ path (zl_hot.h; an external definition: zscsi.h declares it
 * without inline).
 */
ZL_HOT_INLINE int zscsi_read_fast(struct zscsi *s, const uint8_t *cdb, size_t cdb_len,
				  const struct iovec *iov, int iov_cnt, uint8_t *sense,
				  size_t *data_len)
{
	struct rw_args a;
	int ret;

	if ((cdb[0] != 0x88 && cdb[0] != 0x28) || !rw_fast_parse(s, cdb, cdb_len, &a) ||
	    iov_cnt != 1 || !iov || !iov[0].iov_base || !a.nr_lba ||
	    rw_check_parsed(s, cdb, iov[0].iov_len, &a) != RW_OK || a.bytes != iov[0].iov_len)
		return -1;                      /* (a longer buffer: the table zeroes its tail) */
	ret = zdisk_read_try(s->disk, a.lba, a.nr_lba, iov[0].iov_base);
	if (!ret)
		return -1;
	if (ret < 0)
		return rw_fast_failed(s, cdb, cdb_len, iov, iov_cnt, &a, ret, 0, sense, data_len);
	if (data_len)
		*data_len = a.bytes;
	return ZSCSI_GOOD;
}

uint8_t zscsi_rw_fast(struct zscsi *s, const uint8_t *cdb, size_t cdb_len,
		      const struct iovec *iov, int iov_cnt, uint8_t *sense, size_t *data_len)
{
	struct zdisk_io io;
	struct rw_args a;
	size_t buf_len;
	int err, n;

	if (!rw_fast_parse(s, cdb, cdb_len, &a))
		goto table;
	if (iov_cnt == 1 && iov && iov[0].iov_base) {   /* (zscsi_iov_usable()'s answer) */
		n = 1;
		buf_len = iov[0].iov_len;
	} else {
		n = zscsi_iov_usable(iov, iov_cnt, &buf_len);
	}
	if (rw_check_parsed(s, cdb, buf_len, &a) != RW_OK || (!a.write && a.bytes != buf_len))
		goto table;                     /* (a longer READ buffer: the table zeroes its tail) */
	err = rw_transfer(s, &a, iov, n, &io);
	if (!err) {
		if (data_len)
			*data_len = a.write ? 0 : a.bytes;
		return ZSCSI_GOOD;
	}
	return rw_fast_failed(s, cdb, cdb_len, iov, iov_cnt, &a, err, io.done_lba, sense, data_len);
table:
	return zscsi_execute_table(s, cdb, cdb_len, iov, iov_cnt, sense, data_len);
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
