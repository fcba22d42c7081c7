/*
 * zscsi_sbc.c — the SBC commands that compare or replicate data: VERIFY
 * (10/16) with BYTCHK 00b/01b/11b, WRITE AND VERIFY (10/16), WRITE SAME
 * (10/16) and COMPARE AND WRITE.
 *
 * Like zscsi_rw.c it parses the CDB and hands LBA ranges to zdisk: writes
 * go through zdisk_writev() as one command each, so the zone rules are
 * zdev's (at the write pointer in sequential zones, anywhere in
 * conventional ones, boundaries, FULL, READ ONLY, OFFLINE) and their
 * reasons become sense data in zscsi_fail_err().  What is decided here:
 * the byte-by-byte comparison (MISCOMPARE 0Eh/1Dh/00h with the offset of
 * the first differing byte in INFORMATION, SBC-4 5.31), the replication of
 * WRITE SAME's one block, and the order of the CDB checks (the LBA range
 * first, whatever the flags).  Protection information is not supported.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "zscsi_int.h"

/* Medium bytes compared per zdisk_read(). */
#define CMP_CHUNK_BYTES (1u << 20)

struct sbc_args {
	uint64_t lba;
	uint32_t nr_lba;
	uint16_t nr_byte;      /* CDB byte of the length field (field pointer) */
};

static void sbc_parse(const uint8_t *cdb, struct sbc_args *a)
{
	if (cdb[0] == 0x89) {                   /* COMPARE AND WRITE */
		a->lba = zl_get_be64(cdb + 2);
		a->nr_lba = cdb[13];
		a->nr_byte = 13;
	} else if (cdb[0] & 0x80) {             /* 16-byte forms */
		a->lba = zl_get_be64(cdb + 2);
		a->nr_lba = zl_get_be32(cdb + 10);
		a->nr_byte = 10;
	} else {                                /* 10-byte forms */
		a->lba = zl_get_be32(cdb + 2);
		a->nr_lba = zl_get_be16(cdb + 7);
		a->nr_byte = 7;
	}
}

static bool sbc_in_range(const struct zscsi *s, const struct sbc_args *a)
{
	return a->lba < s->capacity_lba && a->nr_lba <= s->capacity_lba - a->lba;
}

/* MISCOMPARE DURING VERIFY OPERATION, INFORMATION = @off (data-out byte offset). */
static uint8_t fail_miscompare(struct zscsi_cmd *c, uint64_t off)
{
	zscsi_fail(c, ZSK_MISCOMPARE, 0x1d, 0x00);
	if (off <= UINT32_MAX) {                /* fixed format: VALID only if it fits */
		c->sense[0] |= 0x80;
		zl_put_be32(c->sense + 3, (uint32_t)off);
	}
	return ZSCSI_CHECK_CONDITION;
}

/* The data-out as one flat buffer of @len bytes: the caller's, or *@copy (free it). */
static const uint8_t *data_out_flat(struct zscsi_cmd *c, size_t len, uint8_t **copy)
{
	uint8_t *p;

	*copy = NULL;
	if (!len)
		return NULL;
	p = zscsi_flat_buf(c, len);
	if (p)
		return p;
	*copy = malloc(len);
	if (*copy)
		zscsi_data_out(c, *copy, len);
	return *copy;
}

/*
 * Read [lba, lba + nr) and compare it with @ref: block by block (@ref holds
 * nr blocks) or, with @one_block, every block with @ref's one block; NULL
 * @ref only reads (a medium verification).  Returns 0, a zdisk error (the
 * failing LBA in *@bad), or 1 with the offset of the first differing byte
 * (counted over the range) in *@bad.
 */
static int compare_range(struct zscsi *s, uint64_t lba, uint64_t nr, const uint8_t *ref,
			 bool one_block, uint64_t *bad)
{
	uint32_t bs = s->lba_size;
	uint64_t chunk = CMP_CHUNK_BYTES / bs, done = 0;
	struct zdisk_io io;
	uint8_t *buf;
	int err = 0;

	if (chunk > nr)
		chunk = nr;
	buf = malloc((size_t)chunk * bs);
	if (!buf)
		return -ENOMEM;
	while (done < nr) {
		uint64_t n = nr - done < chunk ? nr - done : chunk;

		memset(&io, 0, sizeof(io));
		err = zdisk_read(s->disk, lba + done, n, buf, &io);
		if (err) {
			*bad = lba + done + io.done_lba;
			break;
		}
		for (uint64_t k = 0; ref && k < n; k++) {
			const uint8_t *want = one_block ? ref : ref + (done + k) * bs;
			const uint8_t *got = buf + k * bs;

			if (memcmp(got, want, bs)) {
				size_t i = 0;

				while (got[i] == want[i])
					i++;
				*bad = (done + k) * bs + i;
				err = 1;
				break;
			}
		}
		if (err)
			break;
		done += n;
	}
	free(buf);
	return err;
}

/* The whole range against the read rules first, so a cross-zone VERIFY fails like a READ. */
static int read_rules(struct zscsi *s, uint64_t lba, uint64_t nr)
{
	int err;

	zdisk_lock(s->disk);
	err = zdev_read_check(zdisk_zdev(s->disk), lba, nr);
	zdisk_unlock(s->disk);
	return err;
}

/* After compare_range(): GOOD, MISCOMPARE or the zdisk error's sense. */
static uint8_t compare_status(struct zscsi_cmd *c, int err, uint64_t bad)
{
	if (!err)
		return ZSCSI_GOOD;
	if (err == 1)
		return fail_miscompare(c, bad);
	if (err == -ENOMEM)
		return zscsi_fail(c, ZSK_HARDWARE_ERROR, 0x44, 0x00);
	return zscsi_fail_err(c, err, ZSCSI_CTX_IO, bad);
}

/*
 * VERIFY (10/16), SBC-4 5.31/5.33.  BYTCHK 00b: a medium verification (the
 * range is read with the read rules, so injected medium errors are found
 * as a real drive would); 01b: the data-out (VERIFICATION LENGTH blocks) is
 * compared with the medium; 11b: one block of data-out is compared with
 * every block; 10b is reserved.  The LBA range is checked before anything
 * else.
 */
uint8_t zscsi_verify(struct zscsi_cmd *c)
{
	struct zscsi *s = c->s;
	uint8_t bytchk = (c->cdb[1] >> 1) & 0x03;
	const uint8_t *ref = NULL;
	uint8_t *copy = NULL, status;
	struct sbc_args a;
	uint64_t bad = 0;
	size_t need = 0;
	int err;

	sbc_parse(c->cdb, &a);
	if (!sbc_in_range(s, &a))
		return zscsi_fail_err(c, ZL_E_LBA_RANGE, ZSCSI_CTX_IO, a.lba);
	if (c->cdb[1] & 0xe0)                           /* VRPROTECT */
		return zscsi_fail_cdb(c, 1, 7);
	if (bytchk == 2)                                /* reserved */
		return zscsi_fail_cdb(c, 1, 2);
	if (!a.nr_lba)
		return ZSCSI_GOOD;
	if (bytchk) {
		need = bytchk == 1 ? (size_t)a.nr_lba * s->lba_size : s->lba_size;
		if (need > ZSCSI_MAX_XFER_BYTES || need > c->buf_len)
			return zscsi_fail_cdb(c, a.nr_byte, 7);  /* too long, or short data-out */
		ref = data_out_flat(c, need, &copy);
		if (!ref)
			return zscsi_fail(c, ZSK_HARDWARE_ERROR, 0x44, 0x00);
	}
	err = read_rules(s, a.lba, a.nr_lba);
	if (err) {
		free(copy);
		return zscsi_fail_err(c, err, ZSCSI_CTX_IO, a.lba);
	}
	err = compare_range(s, a.lba, a.nr_lba, ref, bytchk == 3, &bad);
	status = compare_status(c, err, bad);
	free(copy);
	return status;
}

/*
 * WRITE AND VERIFY (10/16), SBC-4 5.43/5.45: a WRITE (FUA: the data is on
 * the medium before it is verified) with the zone rules of any write, then
 * the range is read back (BYTCHK 00b) or compared with the data-out (01b).
 */
uint8_t zscsi_write_verify(struct zscsi_cmd *c)
{
	struct zscsi *s = c->s;
	uint8_t bytchk = (c->cdb[1] >> 1) & 0x03;
	const uint8_t *ref = NULL;
	uint8_t *copy = NULL, status;
	struct zdisk_io io = { 0 };
	struct sbc_args a;
	uint64_t bad = 0;
	size_t bytes;
	int err;

	sbc_parse(c->cdb, &a);
	if (!sbc_in_range(s, &a))
		return zscsi_fail_err(c, ZL_E_LBA_RANGE, ZSCSI_CTX_IO, a.lba);
	if (c->cdb[1] & 0xe0)                           /* WRPROTECT */
		return zscsi_fail_cdb(c, 1, 7);
	if (bytchk > 1)                                 /* 10b, 11b reserved here */
		return zscsi_fail_cdb(c, 1, 2);
	bytes = (size_t)a.nr_lba * s->lba_size;
	if (bytes > ZSCSI_MAX_XFER_BYTES || bytes > c->buf_len)
		return zscsi_fail_cdb(c, a.nr_byte, 7);
	err = zdisk_writev(s->disk, a.lba, a.nr_lba, c->iov, c->iov_cnt, true, &io);
	if (err)
		return zscsi_fail_err(c, err, ZSCSI_CTX_IO, a.lba + io.done_lba);
	if (!a.nr_lba)
		return ZSCSI_GOOD;
	if (bytchk) {
		ref = data_out_flat(c, bytes, &copy);
		if (!ref)
			return zscsi_fail(c, ZSK_HARDWARE_ERROR, 0x44, 0x00);
	}
	err = compare_range(s, a.lba, a.nr_lba, ref, false, &bad);
	status = compare_status(c, err, bad);
	free(copy);
	return status;
}

/*
 * WRITE SAME (10/16), SBC-4 5.48/5.50: the one block of data-out (zeros
 * with NDOB, 16 only) written to NUMBER OF LOGICAL BLOCKS blocks, as one
 * zdisk write (the same buffer repeated in the iovec), so the zone rules
 * see one command.  0 blocks is refused (VPD B0h WSNZ = 1); more than
 * MAXIMUM WRITE SAME LENGTH too.  UNMAP and ANCHOR are refused (INVALID
 * FIELD IN CDB, the field pointer on the bit): the logical unit does not
 * implement logical block provisioning (READ CAPACITY(16) LBPME = 0, no
 * LBP VPD page, so LBPWS = LBPWS10 = 0), and a WRITE SAME that asked for a
 * deallocation must not quietly write instead (docs/ZBC.md, "Logical block
 * provisioning").
 */
uint8_t zscsi_write_same(struct zscsi_cmd *c)
{
	struct zscsi *s = c->s;
	bool ndob = c->cdb[0] == 0x93 && (c->cdb[1] & 0x01);
	struct iovec iov[ZSCSI_MAX_WS_BYTES / CMP_CHUNK_BYTES + 1];
	uint32_t bs = s->lba_size;
	struct zdisk_io io = { 0 };
	uint64_t chunk, left;
	struct sbc_args a;
	uint8_t *pat;
	int n = 0, err;

	sbc_parse(c->cdb, &a);
	if (!sbc_in_range(s, &a))
		return zscsi_fail_err(c, ZL_E_LBA_RANGE, ZSCSI_CTX_IO, a.lba);
	if (c->cdb[1] & 0xe0)                           /* WRPROTECT */
		return zscsi_fail_cdb(c, 1, 7);
	if (c->cdb[1] & 0x10)                           /* ANCHOR */
		return zscsi_fail_cdb(c, 1, 4);
	if (c->cdb[1] & 0x08)                           /* UNMAP: no provisioning */
		return zscsi_fail_cdb(c, 1, 3);
	if (!a.nr_lba || (uint64_t)a.nr_lba * bs > ZSCSI_MAX_WS_BYTES)
		return zscsi_fail_cdb(c, a.nr_byte, 7);
	if (!ndob && c->buf_len < bs)                   /* the one block of data-out */
		return zscsi_fail_cdb(c, a.nr_byte, 7);

	chunk = CMP_CHUNK_BYTES / bs;
	if (chunk > a.nr_lba)
		chunk = a.nr_lba;
	pat = malloc((size_t)chunk * bs);
	if (!pat)
		return zscsi_fail(c, ZSK_HARDWARE_ERROR, 0x44, 0x00);
	if (ndob)
		memset(pat, 0, bs);
	else
		zscsi_data_out(c, pat, bs);
	for (uint64_t k = 1; k < chunk; k++)
		memcpy(pat + k * bs, pat, bs);
	for (left = a.nr_lba; left; n++) {
		uint64_t m = left < chunk ? left : chunk;

		iov[n].iov_base = pat;
		iov[n].iov_len = (size_t)m * bs;
		left -= m;
	}
	err = zdisk_writev(s->disk, a.lba, a.nr_lba, iov, n, false, &io);
	free(pat);
	if (err)
		return zscsi_fail_err(c, err, ZSCSI_CTX_IO, a.lba + io.done_lba);
	return ZSCSI_GOOD;
}

/*
 * COMPARE AND WRITE, SBC-4 5.3: the first NUMBER OF LOGICAL BLOCKS blocks
 * of data-out are compared with the medium; if equal the next as many are
 * written there (zone rules of any write), else MISCOMPARE with the offset
 * of the first differing byte.  Atomic against other COMPARE AND WRITE
 * commands of this device (s->caw_lock, as LIO serializes them); 0 blocks
 * does nothing (SBC-4).
 */
uint8_t zscsi_compare_and_write(struct zscsi_cmd *c)
{
	struct zscsi *s = c->s;
	bool fua = c->cdb[1] & 0x08;
	uint8_t *copy = NULL, status;
	struct zdisk_io io = { 0 };
	const uint8_t *dout;
	struct sbc_args a;
	uint64_t bad = 0;
	size_t half;
	int err;

	sbc_parse(c->cdb, &a);
	if (!sbc_in_range(s, &a))
		return zscsi_fail_err(c, ZL_E_LBA_RANGE, ZSCSI_CTX_IO, a.lba);
	if (c->cdb[1] & 0xe0)                           /* WRPROTECT */
		return zscsi_fail_cdb(c, 1, 7);
	if (a.nr_lba > ZSCSI_MAX_CAW_LBA)
		return zscsi_fail_cdb(c, a.nr_byte, 7);
	if (!a.nr_lba)
		return ZSCSI_GOOD;
	half = (size_t)a.nr_lba * s->lba_size;
	if (c->buf_len < 2 * half)                      /* compare + write data */
		return zscsi_fail_cdb(c, a.nr_byte, 7);
	dout = data_out_flat(c, 2 * half, &copy);
	if (!dout)
		return zscsi_fail(c, ZSK_HARDWARE_ERROR, 0x44, 0x00);
	pthread_mutex_lock(&s->caw_lock);
	err = read_rules(s, a.lba, a.nr_lba);
	if (err) {
		status = zscsi_fail_err(c, err, ZSCSI_CTX_IO, a.lba);
		goto out_unlock;
	}
	err = compare_range(s, a.lba, a.nr_lba, dout, false, &bad);
	if (err) {
		status = compare_status(c, err, bad);
		goto out_unlock;
	}
	err = zdisk_write(s->disk, a.lba, a.nr_lba, dout + half, fua, &io);
	status = err ? zscsi_fail_err(c, err, ZSCSI_CTX_IO, a.lba + io.done_lba) : ZSCSI_GOOD;
out_unlock:
	pthread_mutex_unlock(&s->caw_lock);
	free(copy);
	return status;
}
