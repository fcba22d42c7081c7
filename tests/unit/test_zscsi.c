/*
 * test_zscsi.c — unit tests of zscsi: what the conformance table cannot
 * express.  Scatter/gather buffers, data-in lengths, the error table for
 * every ZL_E_* reason (faults injected through zdisk's fault rules), the
 * INFORMATION and field-pointer fields, profiles, REQUEST SENSE state, unit
 * attention after a power loss, malformed CDBs, MODE SELECT honouring WCE,
 * REPORT ZONES list lengths on a large device, and concurrent commands.
 * Each test gets a fresh memory-backed disk.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "zl_test.h"
#include "zscsi.h"

#define ZS 2048u          /* zone size, LBAs */
#define NZ 16u
#define CAP (ZS * NZ)

struct fx {
	struct zdisk *disk;
	struct zscsi *s;
	uint8_t sense[ZSCSI_SENSE_LEN];
	size_t dlen;
	char *dir;                 /* set: a FILE store in it (setup_file()), else MEM */
	char path[512];
};

static int open_fx(struct fx *f, enum zscsi_profile prof, const char *faults, uint32_t max_open)
{
	struct zdisk_cfg cfg;
	struct zscsi_cfg scfg;
	char msg[256];

	zdisk_cfg_init(&cfg);
	cfg.geo.capacity_lba = CAP;
	cfg.geo.zone_size_lba = ZS;
	cfg.geo.nr_conv_start = 2;
	cfg.geo.max_open = max_open;
	cfg.store.kind = f->dir ? ZSTORE_FILE : ZSTORE_MEM;
	cfg.store.path = f->dir ? f->path : NULL;
	cfg.store.create = true;
	cfg.wce = true;
	cfg.faults = faults;
	cfg.seed = 1;
	if (zdisk_open(&cfg, &f->disk, msg, sizeof(msg)))
		return -1;
	zscsi_cfg_init(&scfg);
	scfg.profile = prof;
	scfg.vendor = "ACME\x01LONGVENDOR";
	scfg.serial = "SER123";
	return zscsi_create(f->disk, &scfg, &f->s);
}

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	if (!f || open_fx(f, ZSCSI_PROFILE_ZBC2, NULL, 4))
		return -1;
	*state = f;
	return 0;
}

/* The same device on a FILE store: the one zdisk_read_try() reads without the lock. */
static int setup_file(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	if (!f || !(f->dir = zl_test_mkdtemp("zscsi")))
		return -1;
	snprintf(f->path, sizeof(f->path), "%s/d.img", f->dir);
	if (open_fx(f, ZSCSI_PROFILE_ZBC2, NULL, 4))
		return -1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	zscsi_destroy(f->s);
	zdisk_close(f->disk);
	if (f->dir) {
		zl_test_rmdir(f->dir);
		free(f->dir);
	}
	free(f);
	return 0;
}

static uint8_t run(struct fx *f, const uint8_t *cdb, size_t len, void *buf, size_t buflen)
{
	struct iovec iov = { buf, buflen };

	memset(f->sense, 0, sizeof(f->sense));
	return zscsi_execute(f->s, cdb, len, buf ? &iov : NULL, buf ? 1 : 0, f->sense, &f->dlen);
}

static uint8_t rw16(struct fx *f, uint8_t op, uint64_t lba, uint32_t n, void *buf)
{
	uint8_t cdb[16] = { op };

	zl_test_put_be(cdb + 2, lba, 8);
	zl_test_put_be(cdb + 10, n, 4);
	return run(f, cdb, 16, buf, (size_t)n * 512);
}

static uint8_t zone_op(struct fx *f, uint8_t sa, uint64_t lba, bool all)
{
	uint8_t cdb[16] = { 0x94, sa };

	zl_test_put_be(cdb + 2, lba, 8);
	cdb[14] = all ? 1 : 0;
	return run(f, cdb, 16, NULL, 0);
}

static struct zl_zone_info zone_info(struct zdisk *z, uint32_t idx)
{
	struct zl_zone_info zi;

	assert_int_equal(zdisk_report(z, (uint64_t)idx * ZS, ZL_RO_ALL, &zi, 1, NULL), 1);
	return zi;
}

static void assert_sense(const struct fx *f, uint8_t key, uint8_t asc, uint8_t ascq)
{
	assert_int_equal(f->sense[0] & 0x7f, 0x70);
	assert_int_equal(f->sense[2] & 0x0f, key);
	assert_int_equal(f->sense[12], asc);
	assert_int_equal(f->sense[13], ascq);
	assert_int_equal(f->sense[7], ZSCSI_SENSE_LEN - 8);
}

/* ---- data buffers ---- */

static void test_zscsi_write_read_scattered_iov(void **state)
{
	struct fx *f = *state;
	uint8_t *src = malloc(8 * 512), *dst = calloc(1, 8 * 512);
	uint8_t a[1000], b[3096];
	struct iovec out[3] = { { src, 100 }, { src + 100, 3000 }, { src + 3100, 996 } };
	struct iovec in[2] = { { a, sizeof(a) }, { b, sizeof(b) } };
	uint8_t cdb[16] = { 0x8a };

	for (int i = 0; i < 8 * 512; i++)
		src[i] = (uint8_t)(i * 13 + 5);
	zl_test_put_be(cdb + 2, 2 * ZS, 8);
	zl_test_put_be(cdb + 10, 8, 4);
	assert_int_equal(zscsi_execute(f->s, cdb, 16, out, 3, f->sense, NULL), ZSCSI_GOOD);
	cdb[0] = 0x88;
	assert_int_equal(zscsi_execute(f->s, cdb, 16, in, 2, f->sense, &f->dlen), ZSCSI_GOOD);
	assert_int_equal(f->dlen, 8 * 512);
	memcpy(dst, a, sizeof(a));
	memcpy(dst + sizeof(a), b, sizeof(b));
	assert_memory_equal(src, dst, 8 * 512);
	free(src);
	free(dst);
}

static void test_zscsi_contiguous_iov_used_flat(void **state)
{
	struct fx *f = *state;
	uint8_t *buf = malloc(4 * 512);
	struct iovec iov[2] = { { buf, 1024 }, { buf + 1024, 1024 } };
	uint8_t cdb[16] = { 0x8a };

	memset(buf, 0x5a, 4 * 512);
	zl_test_put_be(cdb + 2, 100, 8);
	zl_test_put_be(cdb + 10, 4, 4);
	assert_int_equal(zscsi_execute(f->s, cdb, 16, iov, 2, NULL, NULL), ZSCSI_GOOD);
	memset(buf, 0, 4 * 512);
	cdb[0] = 0x88;
	assert_int_equal(zscsi_execute(f->s, cdb, 16, iov, 2, NULL, &f->dlen), ZSCSI_GOOD);
	assert_int_equal(f->dlen, 2048);
	assert_int_equal(buf[0], 0x5a);
	assert_int_equal(buf[2047], 0x5a);
	free(buf);
}

static void test_zscsi_inquiry_data_len_bounded_by_alloc_and_buffer(void **state)
{
	struct fx *f = *state;
	uint8_t cdb[6] = { 0x12, 0, 0, 0, 200, 0 };
	uint8_t buf[40];

	assert_int_equal(run(f, cdb, 6, buf, sizeof(buf)), ZSCSI_GOOD);
	assert_int_equal(f->dlen, 40);
	cdb[4] = 10;
	assert_int_equal(run(f, cdb, 6, buf, sizeof(buf)), ZSCSI_GOOD);
	assert_int_equal(f->dlen, 10);
	/* vendor clipped to 8 printable characters, padded */
	cdb[4] = 36;
	assert_int_equal(run(f, cdb, 6, buf, sizeof(buf)), ZSCSI_GOOD);
	assert_memory_equal(buf + 8, "ACME_LON", 8);
}

/*
 * A READ whose buffer (the initiator's expected length) holds less than
 * its TRANSFER LENGTH: the blocks that fit, the last one cut, GOOD (the
 * transport reports the overflow residual); a WRITE so is refused.
 */
static void test_zscsi_read_longer_than_buffer_transfers_what_fits(void **state)
{
	struct fx *f = *state;
	uint8_t cdb[16] = { 0x88 }, data[4 * 512], buf[4 * 512 + 1];
	struct iovec iov[2] = { { buf, 600 }, { buf + 600, 500 } };

	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)(i * 13 + 5);
	assert_int_equal(rw16(f, 0x8a, 64, 4, data), ZSCSI_GOOD);      /* conventional */
	zl_test_put_be(cdb + 2, 64, 8);
	zl_test_put_be(cdb + 10, 4, 4);
	memset(buf, 0xee, sizeof(buf));
	assert_int_equal(run(f, cdb, 16, buf, 512), ZSCSI_GOOD);       /* one block fits */
	assert_int_equal(f->dlen, 512);
	assert_memory_equal(buf, data, 512);
	assert_int_equal(buf[512], 0xee);                              /* not the buffer's */
	memset(buf, 0xee, sizeof(buf));
	assert_int_equal(zscsi_execute(f->s, cdb, 16, iov, 2, f->sense, &f->dlen), ZSCSI_GOOD);
	assert_int_equal(f->dlen, 1100);                               /* two blocks and 76 bytes */
	assert_memory_equal(buf, data, 1100);
	assert_int_equal(buf[1100], 0xee);
	assert_int_equal(run(f, cdb, 16, NULL, 0), ZSCSI_GOOD);        /* nothing expected */
	assert_int_equal(f->dlen, 0);
	/* a longer buffer: the data, then zeros (underflow) */
	zl_test_put_be(cdb + 10, 2, 4);
	memset(buf, 0xee, sizeof(buf));
	assert_int_equal(run(f, cdb, 16, buf, sizeof(buf)), ZSCSI_GOOD);
	assert_int_equal(f->dlen, 1024);
	assert_memory_equal(buf, data, 1024);
	for (size_t i = 1024; i < sizeof(buf); i++)
		assert_int_equal(buf[i], 0);
	/* a WRITE with less data than its TRANSFER LENGTH is refused */
	cdb[0] = 0x8a;
	assert_int_equal(run(f, cdb, 16, buf, 512), ZSCSI_CHECK_CONDITION);
	assert_sense(f, 5, 0x24, 0);
	assert_int_equal(f->sense[15], 0xc0 | 0x08 | 7);
	assert_int_equal(zl_test_get_be(f->sense + 16, 2), 10);
}

static void test_zscsi_transfer_over_max_is_refused(void **state)
{
	struct fx *f = *state;
	uint32_t n = (8u << 20) / 512 + 1;     /* in range, and the buffer holds it */
	uint8_t *buf = malloc((size_t)n * 512);

	assert_non_null(buf);
	assert_int_equal(rw16(f, 0x88, 2 * ZS, n, buf), ZSCSI_CHECK_CONDITION);
	assert_sense(f, 5, 0x24, 0);
	assert_int_equal(zl_test_get_be(f->sense + 16, 2), 10);
	assert_int_equal(f->dlen, 0);
	free(buf);
}

/*
 * READ/WRITE(10) and (16) take zscsi_rw_fast(), (12) only the opcode table:
 * every outcome but the field pointer (which names the form's own bytes)
 * must be the same.
 */
/*
 * One READ/WRITE in form @form (10, 12, 16) through zscsi_execute(); with
 * @fast, zscsi_read_fast() first (as the tcmu handler calls it), and
 * zscsi_execute() only if it declines (*@fast then false).
 */
static uint8_t rw_form(struct fx *f, int form, bool write, uint64_t lba, uint32_t n,
		       uint8_t byte1, uint8_t control, size_t buflen, bool *fast)
{
	struct iovec iov;
	static uint8_t buf[16 * 512];
	uint8_t cdb[16] = { 0 };

	if (form == 10) {
		cdb[0] = write ? 0x2a : 0x28;
		zl_test_put_be(cdb + 2, lba, 4);
		zl_test_put_be(cdb + 7, n, 2);
	} else if (form == 12) {
		cdb[0] = write ? 0xaa : 0xa8;
		zl_test_put_be(cdb + 2, lba, 4);
		zl_test_put_be(cdb + 6, n, 4);
	} else {
		cdb[0] = write ? 0x8a : 0x88;
		zl_test_put_be(cdb + 2, lba, 8);
		zl_test_put_be(cdb + 10, n, 4);
	}
	cdb[1] = byte1;
	cdb[form - 1] = control;
	f->dlen = 99;
	if (fast && *fast) {
		int st;

		iov = (struct iovec){ buf, buflen };
		memset(f->sense, 0, sizeof(f->sense));
		st = zscsi_read_fast(f->s, cdb, (size_t)form, buflen ? &iov : NULL, buflen ? 1 : 0,
				     f->sense, &f->dlen);
		if (st >= 0)
			return (uint8_t)st;
		*fast = false;
	}
	return run(f, cdb, (size_t)form, buflen ? buf : NULL, buflen);
}

static void test_zscsi_rw_fast_path_answers_as_the_table(void **state)
{
	static const struct {
		bool write, written;    /* written: zone 3 holds 8 LBAs first */
		uint64_t lba;
		uint32_t n;
		uint8_t byte1, control;
		size_t buflen;
	} cmds[] = {
		{ false, false, 2 * ZS, 8, 0, 0, 8 * 512 },          /* good read */
		{ false, false, 2 * ZS, 0, 0, 0, 0 },                /* zero length, no buffer */
		{ false, false, 2 * ZS, 8, 0x20, 0, 8 * 512 },       /* RDPROTECT */
		{ false, false, CAP - 1, 2, 0, 0, 16 * 512 },        /* beyond the capacity */
		{ false, false, 2 * ZS, 8, 0, 0, 7 * 512 },          /* buffer too small */
		{ false, false, 2 * ZS - 8, 16, 0, 0, 16 * 512 },    /* cross-type read: INFORMATION */
		{ false, false, 2 * ZS, 8, 0, 0x04, 8 * 512 },       /* NACA */
		{ false, true, 3 * ZS, 8, 0, 0, 8 * 512 },           /* read of data: */
		{ false, true, 3 * ZS + 2, 4, 0, 0, 4 * 512 },       /*  zscsi_read_fast() */
		{ false, true, 3 * ZS + 2, 4, 0, 0, 8 * 512 },       /* longer buffer: the table */
		{ false, true, 3 * ZS, 8, 0, 0, 4 * 512 },           /* shorter buffer: what fits */
		{ false, true, 3 * ZS + 4, 8, 0, 0, 8 * 512 },       /* data, then past the WP (URSWRZ) */
		{ true, false, 3 * ZS, 8, 0x08, 0, 8 * 512 },        /* FUA write at the WP */
		{ true, false, 3 * ZS + 8, 8, 0, 0, 8 * 512 },       /* write not at the WP */
		{ true, true, 3 * ZS, 8, 0, 0, 8 * 512 },            /* write below the WP */
	};
	struct fx *f = *state;
	unsigned nr_fast = 0;

	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		uint8_t want_status = 0, want[ZSCSI_SENSE_LEN], rs[6] = { 0x03, 0, 0, 0, 18, 0 };
		uint8_t kept[2][18];
		size_t want_dlen = 0;

		/* (12), (10), (16), then (10) and (16) through zscsi_read_fast() */
		for (int k = 0; k < 5; k++) {
			static const int forms[] = { 12, 10, 16, 10, 16 };
			bool fast = k >= 3;
			uint8_t st;

			/* each form meets zone 3 as the case says */
			assert_int_equal(zone_op(f, 0x04, 3 * ZS, false), ZSCSI_GOOD);
			if (cmds[i].written)
				assert_int_equal(rw_form(f, 16, true, 3 * ZS, 8, 0, 0, 8 * 512, NULL),
						 ZSCSI_GOOD);
			st = rw_form(f, forms[k], cmds[i].write, cmds[i].lba, cmds[i].n, cmds[i].byte1,
				     cmds[i].control, cmds[i].buflen, &fast);
			nr_fast += fast;
			if (k == 0) {
				if (!cmds[i].write && cmds[i].written &&
				    cmds[i].lba + cmds[i].n <= 3 * ZS + 8) {     /* all data */
					size_t all = (size_t)cmds[i].n * 512;

					assert_int_equal(st, ZSCSI_GOOD);
					assert_int_equal(f->dlen, all < cmds[i].buflen ? all
										: cmds[i].buflen);
				}
				want_status = st;
				want_dlen = f->dlen;
				memcpy(want, f->sense, sizeof(want));
			} else {
				if (st != want_status || f->dlen != want_dlen ||
				    memcmp(f->sense, want, 15))     /* bytes 15-17: the field pointer */
					fail_msg("case %zu: READ/WRITE(%d) differs from (12)", i, forms[k]);
				assert_int_equal(f->sense[15], want[15]);
			}
			/* what REQUEST SENSE keeps is the same too */
			assert_int_equal(run(f, rs, 6, kept[k ? 1 : 0], 18), ZSCSI_GOOD);
			if (k)
				assert_memory_equal(kept[0], kept[1], 15);
		}
	}
	/* on a file store the two READs of data, in both forms; never on a memory store */
	assert_int_equal(nr_fast, f->dir ? 4 : 0);
}

/*
 * zscsi_read_fast() does the common READ or nothing: every command it
 * declines leaves the buffer, the kept sense and the unit attention alone
 * for zscsi_execute() to report; what it does, it answers as
 * zscsi_execute() would.
 */
static uint8_t rf_buf[17 * 512];

static int read_fast(struct fx *f, const uint8_t *cdb, size_t cdb_len, size_t len, int iov_cnt)
{
	struct iovec iov[2] = { { rf_buf, len }, { rf_buf + len, 512 } };

	memset(rf_buf, 0xee, sizeof(rf_buf));
	memset(f->sense, 0, sizeof(f->sense));
	f->dlen = 99;
	return zscsi_read_fast(f->s, cdb, cdb_len, iov, iov_cnt, f->sense, &f->dlen);
}

/* Declined: -1, and not a byte of the buffer or the data length written. */
static void declined(struct fx *f, const uint8_t *cdb, size_t cdb_len, size_t len, int iov_cnt)
{
	assert_int_equal(read_fast(f, cdb, cdb_len, len, iov_cnt), -1);
	assert_int_equal(f->dlen, 99);
	for (size_t i = 0; i < sizeof(rf_buf); i++)
		assert_int_equal(rf_buf[i], 0xee);
}

static void test_zscsi_read_fast_does_the_common_read_or_nothing(void **state)
{
	struct fx *f = *state;
	static uint8_t data[8 * 512], rsd[18];
	uint8_t r16[16] = { 0x88 }, r10[10] = { 0x28 }, bad[16], rs[6] = { 0x03, 0, 0, 0, 18, 0 };
	uint8_t tur[6] = { 0 }, w16[16], r12[12] = { 0xa8 }, sync10[10] = { 0x35 };
	uint8_t want[ZSCSI_SENSE_LEN];
	struct stat sb;

	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)(i * 31 + 7);
	assert_int_equal(rw16(f, 0x8a, 2 * ZS, 8, data), ZSCSI_GOOD);
	zl_test_put_be(r16 + 2, 2 * ZS + 2, 8);
	zl_test_put_be(r16 + 10, 6, 4);
	assert_int_equal(read_fast(f, r16, 16, 6 * 512, 1), ZSCSI_GOOD);
	assert_int_equal(f->dlen, 6 * 512);
	assert_memory_equal(rf_buf, data + 2 * 512, 6 * 512);
	assert_int_equal(rf_buf[6 * 512], 0xee);
	zl_test_put_be(r10 + 2, 2 * ZS, 4);
	zl_test_put_be(r10 + 7, 8, 2);
	/* a bigger buffer is the table's, which zeroes what the READ does not fill */
	declined(f, r10, 10, 16 * 512, 1);
	{
		struct iovec iov = { rf_buf, 16 * 512 };

		assert_int_equal(zscsi_execute(f->s, r10, 10, &iov, 1, f->sense, &f->dlen),
				 ZSCSI_GOOD);
		assert_int_equal(f->dlen, 8 * 512);
		assert_memory_equal(rf_buf, data, 8 * 512);
		for (size_t i = 8 * 512; i < 16 * 512; i++)
			assert_int_equal(rf_buf[i], 0);
	}

	/* declined: each is zscsi_execute()'s to decide */
	declined(f, r16, 10, 6 * 512, 1);                 /* CDB too short for READ(16) */
	declined(f, r16, 16, 5 * 512, 1);                 /* buffer too small */
	declined(f, r16, 16, 6 * 512, 2);                 /* two pieces */
	declined(f, r12, 12, 6 * 512, 1);                 /* READ(12): the table */
	memcpy(w16, r16, 16);
	w16[0] = 0x8a;
	declined(f, w16, 16, 6 * 512, 1);                 /* a WRITE */
	memcpy(bad, r16, 16);
	bad[1] = 0x20;                                    /* RDPROTECT */
	declined(f, bad, 16, 6 * 512, 1);
	memcpy(bad, r16, 16);
	bad[15] = 0x04;                                   /* NACA */
	declined(f, bad, 16, 6 * 512, 1);
	memcpy(bad, r16, 16);
	zl_test_put_be(bad + 10, 0, 4);                   /* nothing to read */
	declined(f, bad, 16, 6 * 512, 1);
	zl_test_put_be(bad + 2, 2 * ZS + 4, 8);           /* past the write pointer */
	zl_test_put_be(bad + 10, 5, 4);
	declined(f, bad, 16, 5 * 512, 1);
	zl_test_put_be(bad + 2, CAP - 1, 8);              /* past the capacity */
	zl_test_put_be(bad + 10, 2, 4);
	declined(f, bad, 16, 2 * 512, 1);
	assert_int_equal(zscsi_read_fast(f->s, r16, 16, NULL, 1, f->sense, &f->dlen), -1);
	assert_int_equal(zscsi_execute(f->s, r16, 16, NULL, 1, f->sense, &f->dlen),
			 ZSCSI_GOOD);                              /* no buffer: nothing fits */
	assert_int_equal(f->dlen, 0);
	assert_int_equal(run(f, bad, 16, rf_buf, 2 * 512), ZSCSI_CHECK_CONDITION);
	assert_sense(f, 5, 0x21, 0x00);

	/* kept sense: declined, and REQUEST SENSE still reports it */
	declined(f, r16, 16, 6 * 512, 1);
	assert_int_equal(run(f, rs, 6, rsd, sizeof(rsd)), ZSCSI_GOOD);
	assert_int_equal(rsd[12], 0x21);
	assert_int_equal(read_fast(f, r16, 16, 6 * 512, 1), ZSCSI_GOOD);
	/* a unit attention waits for its command (the data made durable first) */
	assert_int_equal(run(f, sync10, 10, NULL, 0), ZSCSI_GOOD);
	assert_int_equal(zdisk_power_cycle(f->disk), 0);
	declined(f, r16, 16, 6 * 512, 1);
	assert_int_equal(run(f, tur, 6, NULL, 0), ZSCSI_CHECK_CONDITION);
	assert_sense(f, 6, 0x29, 0x00);
	assert_int_equal(run(f, tur, 6, NULL, 0), ZSCSI_GOOD);
	assert_int_equal(read_fast(f, r16, 16, 6 * 512, 1), ZSCSI_GOOD);
	assert_memory_equal(rf_buf, data + 2 * 512, 6 * 512);

	/* a store error: the sense READ(12) gets on the table path, kept alike */
	assert_int_equal(stat(f->path, &sb), 0);
	assert_int_equal(truncate(f->path, sb.st_size - (off_t)(NZ - 2) * ZS * 512), 0);
	zl_test_put_be(r12 + 2, 2 * ZS + 2, 4);
	zl_test_put_be(r12 + 6, 6, 4);
	assert_int_equal(run(f, r12, 12, rf_buf, 6 * 512), ZSCSI_CHECK_CONDITION);
	memcpy(want, f->sense, sizeof(want));
	assert_int_equal(run(f, tur, 6, NULL, 0), ZSCSI_GOOD);   /* drops the kept sense */
	assert_int_equal(read_fast(f, r16, 16, 6 * 512, 1), ZSCSI_CHECK_CONDITION);
	assert_memory_equal(f->sense, want, 15);                 /* 15-17: field pointer */
	assert_int_equal(f->dlen, 0);
	assert_int_equal(run(f, rs, 6, rsd, sizeof(rsd)), ZSCSI_GOOD);
	assert_memory_equal(rsd, want, 15);
}

/* ---- malformed CDBs ---- */

static void test_zscsi_empty_and_short_cdbs(void **state)
{
	struct fx *f = *state;
	uint8_t cdb[16] = { 0x88 };

	assert_int_equal(run(f, NULL, 0, NULL, 0), ZSCSI_CHECK_CONDITION);
	assert_sense(f, 5, 0x20, 0);
	assert_int_equal(run(f, cdb, 10, NULL, 0), ZSCSI_CHECK_CONDITION);
	assert_sense(f, 5, 0x24, 0);
	assert_int_equal(f->sense[15], 0);       /* nothing to point at */
}

static void test_zscsi_unknown_opcode_has_no_field_pointer(void **state)
{
	struct fx *f = *state;
	uint8_t cdb[6] = { 0x04 };   /* FORMAT UNIT */

	assert_int_equal(run(f, cdb, 6, NULL, 0), ZSCSI_CHECK_CONDITION);
	assert_sense(f, 5, 0x20, 0);
	assert_int_equal(f->sense[15] & 0x80, 0);
}

/* ---- the error table ---- */

static void test_zscsi_unaligned_write_info_is_lba(void **state)
{
	struct fx *f = *state;
	uint8_t buf[8 * 512] = { 0 };

	assert_int_equal(rw16(f, 0x8a, 3 * ZS + 8, 8, buf), ZSCSI_CHECK_CONDITION);
	assert_sense(f, 5, 0x21, 0x04);
	assert_int_equal(f->sense[0], 0xf0);     /* VALID */
	assert_int_equal(zl_test_get_be(f->sense + 3, 4), 3 * ZS + 8);
}

static void test_zscsi_lba_range_info_not_valid_beyond_32_bits(void **state)
{
	struct fx *f = *state;
	uint8_t buf[512];

	assert_int_equal(rw16(f, 0x88, 1ull << 40, 1, buf), ZSCSI_CHECK_CONDITION);
	assert_sense(f, 5, 0x21, 0x00);
	assert_int_equal(f->sense[0] & 0x80, 0);
}

/*
 * A READ whose range starts before the rule's: INFORMATION is the first LBA
 * that failed (the rule's first), and the blocks before it were transferred
 * (data-in length).  READ(16) takes the fast path, READ(12) the table.
 */
static void test_zscsi_medium_read_error(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	uint8_t buf[8 * 512], data[4 * 512], cdb[12] = { 0xa8 };
	size_t i;

	for (i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)(i * 7 + 1);
	assert_int_equal(open_fx(f, ZSCSI_PROFILE_ZBC2, "medium-error:op=read,lba=100-107,repeat",
				 0), 0);
	assert_int_equal(rw16(f, 0x8a, 96, 4, data), ZSCSI_GOOD);      /* conventional */
	memset(buf, 0xee, sizeof(buf));
	assert_int_equal(rw16(f, 0x88, 96, 8, buf), ZSCSI_CHECK_CONDITION);
	assert_sense(f, 3, 0x11, 0x00);
	assert_int_equal(f->sense[0], 0xf0);                           /* VALID */
	assert_int_equal(zl_test_get_be(f->sense + 3, 4), 100);
	assert_int_equal(f->dlen, 4 * 512);
	assert_memory_equal(buf, data, sizeof(data));
	for (i = sizeof(data); i < sizeof(buf); i++)    /* nothing stale after the data */
		assert_int_equal(buf[i], 0);
	/* the table path: READ(12) */
	zl_test_put_be(cdb + 2, 98, 4);
	zl_test_put_be(cdb + 6, 8, 4);
	assert_int_equal(run(f, cdb, 12, buf, sizeof(buf)), ZSCSI_CHECK_CONDITION);
	assert_sense(f, 3, 0x11, 0x00);
	assert_int_equal(zl_test_get_be(f->sense + 3, 4), 100);
	assert_int_equal(f->dlen, 2 * 512);
	/* a READ starting inside the range fails at its first LBA */
	assert_int_equal(rw16(f, 0x88, 102, 8, buf), ZSCSI_CHECK_CONDITION);
	assert_int_equal(zl_test_get_be(f->sense + 3, 4), 102);
	assert_int_equal(f->dlen, 0);
	*state = f;
	teardown(state);
}

static void test_zscsi_medium_write_error(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	uint8_t buf[8 * 512] = { 0 };

	assert_int_equal(open_fx(f, ZSCSI_PROFILE_ZBC2, "medium-error:op=write", 0), 0);
	assert_int_equal(rw16(f, 0x8a, 2 * ZS, 8, buf), ZSCSI_CHECK_CONDITION);
	assert_sense(f, 3, 0x0c, 0x00);
	assert_int_equal(zl_test_get_be(f->sense + 3, 4), 2 * ZS);    /* no range: the first LBA */
	*state = f;
	teardown(state);
}

/*
 * A WRITE whose range starts before the rule's: INFORMATION is the first
 * LBA that failed, and the blocks before it were written (the write pointer
 * moved over them), as the initiator will assume from INFORMATION.
 */
static void test_zscsi_medium_write_error_reports_first_failed_lba(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	uint8_t buf[8 * 512] = { 0 }, rz[128];
	uint8_t cdb[16] = { 0x95 };

	/* zone 2 is LBAs 4096-6143 */
	assert_int_equal(open_fx(f, ZSCSI_PROFILE_ZBC2, "medium-error:op=write,lba=4101-6143", 0),
			 0);
	assert_int_equal(rw16(f, 0x8a, 2 * ZS, 8, buf), ZSCSI_CHECK_CONDITION);
	assert_sense(f, 3, 0x0c, 0x00);
	assert_int_equal(f->sense[0], 0xf0);
	assert_int_equal(zl_test_get_be(f->sense + 3, 4), 2 * ZS + 5);
	zl_test_put_be(cdb + 2, 2 * ZS, 8);
	zl_test_put_be(cdb + 10, sizeof(rz), 4);
	assert_int_equal(run(f, cdb, 16, rz, sizeof(rz)), ZSCSI_GOOD);
	assert_int_equal(zl_test_get_be(rz + 64 + 24, 8), 2 * ZS + 5);
	*state = f;
	teardown(state);
}

static void test_zscsi_torn_write_is_medium_error_at_first_lost_lba(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	uint8_t buf[8 * 512] = { 0 }, rz[128];
	uint8_t cdb[16] = { 0x95 };

	assert_int_equal(open_fx(f, ZSCSI_PROFILE_ZBC2, "torn-write:op=write,keep=3", 0), 0);
	assert_int_equal(rw16(f, 0x8a, 2 * ZS, 8, buf), ZSCSI_CHECK_CONDITION);
	assert_sense(f, 3, 0x0c, 0x00);
	assert_int_equal(zl_test_get_be(f->sense + 3, 4), 2 * ZS + 3);
	/* the write pointer moved over the stored prefix only */
	zl_test_put_be(cdb + 2, 2 * ZS, 8);
	zl_test_put_be(cdb + 10, sizeof(rz), 4);
	assert_int_equal(run(f, cdb, 16, rz, sizeof(rz)), ZSCSI_GOOD);
	assert_int_equal(zl_test_get_be(rz + 64 + 24, 8), 2 * ZS + 3);
	*state = f;
	teardown(state);
}

/*
 * The command that meets a power loss, and every command after it until the
 * power comes back, is NOT READY 04h/00h (not a unit attention, which sd
 * retries on the state the power loss left); then POWER ON OCCURRED once.
 */
static void test_zscsi_power_loss_not_ready_until_power_cycle(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	uint8_t buf[8 * 512] = { 0 }, tur[6] = { 0 }, inq[6] = { 0x12, 0, 0, 0, 36, 0 },
		rs[6] = { 0x03, 0, 0, 0, 18, 0 }, rsd[18];

	assert_int_equal(open_fx(f, ZSCSI_PROFILE_ZBC2, "power-loss:op=write", 0), 0);
	assert_int_equal(rw16(f, 0x8a, 2 * ZS, 8, buf), ZSCSI_CHECK_CONDITION);
	assert_sense(f, 2, 0x04, 0x00);
	assert_true(zdisk_powered_off(f->disk));
	/* the retry, another write, a read, a zone reset, TEST UNIT READY */
	assert_int_equal(rw16(f, 0x8a, 2 * ZS, 8, buf), ZSCSI_CHECK_CONDITION);
	assert_sense(f, 2, 0x04, 0x00);
	assert_int_equal(rw16(f, 0x8a, 3 * ZS, 8, buf), ZSCSI_CHECK_CONDITION);
	assert_sense(f, 2, 0x04, 0x00);
	assert_int_equal(rw16(f, 0x88, 0, 8, buf), ZSCSI_CHECK_CONDITION);
	assert_sense(f, 2, 0x04, 0x00);
	assert_int_equal(zone_op(f, 0x04, 2 * ZS, false), ZSCSI_CHECK_CONDITION);
	assert_sense(f, 2, 0x04, 0x00);
	assert_int_equal(run(f, tur, 6, NULL, 0), ZSCSI_CHECK_CONDITION);
	assert_sense(f, 2, 0x04, 0x00);
	assert_int_equal(run(f, inq, 6, buf, 36), ZSCSI_GOOD);
	assert_int_equal(run(f, rs, 6, rsd, sizeof(rsd)), ZSCSI_GOOD);
	assert_int_equal(rsd[2] & 0x0f, 2);
	assert_int_equal(rsd[12], 0x04);
	assert_int_equal(zone_info(f->disk, 2).wp_lba, 2 * ZS);
	assert_int_equal(zone_info(f->disk, 3).wp_lba, 3 * ZS);
	/* the power is back: POWER ON OCCURRED once, then served */
	assert_int_equal(zdisk_power_cycle(f->disk), 0);
	assert_int_equal(run(f, tur, 6, NULL, 0), ZSCSI_CHECK_CONDITION);
	assert_sense(f, 6, 0x29, 0x00);
	assert_int_equal(run(f, tur, 6, NULL, 0), ZSCSI_GOOD);
	assert_int_equal(rw16(f, 0x8a, 3 * ZS, 8, buf), ZSCSI_GOOD);
	*state = f;
	teardown(state);
}

static void test_zscsi_power_cycle_unit_attention_then_clear(void **state)
{
	struct fx *f = *state;
	uint8_t tur[6] = { 0 }, inq[6] = { 0x12, 0, 0, 0, 36, 0 }, buf[36];

	assert_int_equal(zdisk_power_cycle(f->disk), 0);
	assert_int_equal(run(f, inq, 6, buf, sizeof(buf)), ZSCSI_GOOD);   /* not blocked */
	assert_int_equal(run(f, tur, 6, NULL, 0), ZSCSI_CHECK_CONDITION);
	assert_sense(f, 6, 0x29, 0x00);
	assert_int_equal(run(f, tur, 6, NULL, 0), ZSCSI_GOOD);
}

static void test_zscsi_read_only_and_offline_sense(void **state)
{
	struct fx *f = *state;
	uint8_t buf[8 * 512] = { 0 };

	assert_int_equal(zdisk_zone_set_cond(f->disk, 3, ZL_COND_READ_ONLY), 0);
	assert_int_equal(zdisk_zone_set_cond(f->disk, 4, ZL_COND_OFFLINE), 0);
	assert_int_equal(rw16(f, 0x8a, 3 * ZS, 8, buf), ZSCSI_CHECK_CONDITION);
	assert_sense(f, 7, 0x27, 0x08);
	assert_int_equal(rw16(f, 0x88, 4 * ZS, 8, buf), ZSCSI_CHECK_CONDITION);
	assert_sense(f, 7, 0x2c, 0x0e);
	assert_int_equal(zone_op(f, 0x04, 4 * ZS, false), ZSCSI_CHECK_CONDITION);
	assert_sense(f, 7, 0x2c, 0x0e);
}

static void test_zscsi_cross_type_read_by_profile(void **state)
{
	struct fx *f = *state, *g = calloc(1, sizeof(*g));
	uint8_t buf[16 * 512];

	assert_int_equal(rw16(f, 0x88, 2 * ZS - 8, 16, buf), ZSCSI_CHECK_CONDITION);
	assert_sense(f, 5, 0x21, 0x06);
	assert_int_equal(open_fx(g, ZSCSI_PROFILE_DHSMR, NULL, 0), 0);
	assert_int_equal(rw16(g, 0x88, 2 * ZS - 8, 16, buf), ZSCSI_CHECK_CONDITION);
	assert_sense(g, 5, 0x21, 0x07);
	*state = g;
	teardown(state);
	*state = f;
}

static void test_zscsi_open_limit_is_data_protect(void **state)
{
	struct fx *f = *state;

	for (uint32_t z = 2; z < 6; z++)
		assert_int_equal(zone_op(f, 0x03, z * ZS, false), ZSCSI_GOOD);
	assert_int_equal(zone_op(f, 0x03, 6 * ZS, false), ZSCSI_CHECK_CONDITION);
	assert_sense(f, 7, 0x55, 0x0e);
	assert_int_equal(f->sense[0] & 0x80, 0);   /* no LBA for a resource error */
}

static void test_zscsi_zone_op_conventional_points_at_zone_id(void **state)
{
	struct fx *f = *state;

	assert_int_equal(zone_op(f, 0x04, 0, false), ZSCSI_CHECK_CONDITION);
	assert_sense(f, 5, 0x24, 0x00);
	assert_int_equal(f->sense[15], 0xcf);
	assert_int_equal(zl_test_get_be(f->sense + 16, 2), 2);
}

static void test_zscsi_create_rejects_bad_args(void **state)
{
	struct fx *f = *state;
	struct zscsi_cfg cfg;
	struct zscsi *s = (struct zscsi *)0x1;

	zscsi_cfg_init(&cfg);
	cfg.profile = (enum zscsi_profile)7;
	assert_int_equal(zscsi_create(f->disk, &cfg, &s), -EINVAL);
	assert_ptr_equal(s, (struct zscsi *)0x1);
	assert_int_equal(zscsi_create(NULL, NULL, &s), -EINVAL);
	zscsi_destroy(NULL);
	assert_int_equal(zscsi_create(f->disk, NULL, &s), 0);  /* defaults */
	zscsi_destroy(s);
}

/* ---- REQUEST SENSE ---- */

static void test_zscsi_request_sense_reports_last_then_no_sense(void **state)
{
	struct fx *f = *state;
	uint8_t buf[8 * 512] = { 0 }, rs[6] = { 0x03, 0, 0, 0, 18, 0 }, data[18];

	assert_int_equal(rw16(f, 0x8a, 2 * ZS + 1, 8, buf), ZSCSI_CHECK_CONDITION);
	assert_int_equal(run(f, rs, 6, data, sizeof(data)), ZSCSI_GOOD);
	assert_int_equal(f->dlen, 18);
	assert_int_equal(data[2] & 0x0f, 5);
	assert_int_equal(data[12], 0x21);
	assert_int_equal(data[13], 0x04);
	assert_int_equal(run(f, rs, 6, data, sizeof(data)), ZSCSI_GOOD);
	assert_int_equal(data[2] & 0x0f, 0);
	assert_int_equal(data[12], 0);
}

static void test_zscsi_request_sense_cleared_by_good_command(void **state)
{
	struct fx *f = *state;
	uint8_t buf[8 * 512] = { 0 }, rs[6] = { 0x03, 0, 0, 0, 18, 0 }, data[18];
	uint8_t tur[6] = { 0 };

	assert_int_equal(rw16(f, 0x8a, 2 * ZS + 1, 8, buf), ZSCSI_CHECK_CONDITION);
	assert_int_equal(run(f, tur, 6, NULL, 0), ZSCSI_GOOD);
	assert_int_equal(run(f, rs, 6, data, sizeof(data)), ZSCSI_GOOD);
	assert_int_equal(data[12], 0);
}

/* ---- mode pages ---- */

static void test_zscsi_mode_select_wce_reaches_the_disk(void **state)
{
	struct fx *f = *state;
	uint8_t cdb[10] = { 0x55, 0x10, 0, 0, 0, 0, 0, 0, 28, 0 };
	uint8_t pl[28] = { 0 };

	pl[8] = 0x08;
	pl[9] = 0x12;
	assert_true(zdisk_wce(f->disk));
	assert_int_equal(run(f, cdb, 10, pl, sizeof(pl)), ZSCSI_GOOD);
	assert_false(zdisk_wce(f->disk));
	pl[10] = 0x04;
	assert_int_equal(run(f, cdb, 10, pl, sizeof(pl)), ZSCSI_GOOD);
	assert_true(zdisk_wce(f->disk));
}

static void test_zscsi_mode_select_invalid_leaves_wce(void **state)
{
	struct fx *f = *state;
	uint8_t cdb[10] = { 0x55, 0x10, 0, 0, 0, 0, 0, 0, 40, 0 };
	uint8_t pl[40] = { 0 };

	/* valid caching page with WCE=0, then a bad control page: nothing applied */
	pl[8] = 0x08;
	pl[9] = 0x12;
	pl[28] = 0x0a;
	pl[29] = 0x0a;
	pl[30] = 0xff;
	assert_int_equal(run(f, cdb, 10, pl, sizeof(pl)), ZSCSI_CHECK_CONDITION);
	assert_sense(f, 5, 0x26, 0x00);
	assert_int_equal(f->sense[15] & 0x40, 0);  /* C/D = 0: parameter list */
	assert_true(zdisk_wce(f->disk));
}

static void test_zscsi_mode_sense_6_caching_wce(void **state)
{
	struct fx *f = *state;
	uint8_t cdb[6] = { 0x1a, 0x08, 0x08, 0, 255, 0 }, buf[255];

	assert_int_equal(zdisk_set_wce(f->disk, false), 0);
	assert_int_equal(run(f, cdb, 6, buf, sizeof(buf)), ZSCSI_GOOD);
	assert_int_equal(f->dlen, 24);
	assert_int_equal(buf[0], 23);
	assert_int_equal(buf[6] & 0x04, 0);
}

/* ---- REPORT ZONES ---- */

static void test_zscsi_report_zones_partial0_counts_all(void **state)
{
	struct fx *f = *state;
	uint8_t cdb[16] = { 0x95 }, buf[64 + 3 * 64];

	zl_test_put_be(cdb + 10, sizeof(buf), 4);
	assert_int_equal(run(f, cdb, 16, buf, sizeof(buf)), ZSCSI_GOOD);
	assert_int_equal(f->dlen, sizeof(buf));
	assert_int_equal(zl_test_get_be(buf, 4), NZ * 64);
	cdb[14] = 0x80;
	assert_int_equal(run(f, cdb, 16, buf, sizeof(buf)), ZSCSI_GOOD);
	assert_int_equal(zl_test_get_be(buf, 4), 3 * 64);
	assert_int_equal(zl_test_get_be(buf + 64 + 2 * 64 + 16, 8), 2 * ZS);
}

static void test_zscsi_report_zones_alloc_below_header(void **state)
{
	struct fx *f = *state;
	uint8_t cdb[16] = { 0x95 }, buf[16];

	zl_test_put_be(cdb + 10, sizeof(buf), 4);
	assert_int_equal(run(f, cdb, 16, buf, sizeof(buf)), ZSCSI_GOOD);
	assert_int_equal(f->dlen, 16);
	assert_int_equal(zl_test_get_be(buf, 4), NZ * 64);
	assert_int_equal(zl_test_get_be(buf + 8, 8), CAP - 1);
}

static void test_zscsi_report_zones_scattered_buffer(void **state)
{
	struct fx *f = *state;
	uint8_t cdb[16] = { 0x95 }, a[100], b[64 * 17 - 100];
	struct iovec iov[2] = { { a, sizeof(a) }, { b, sizeof(b) } };
	uint8_t all[64 * 17];

	zl_test_put_be(cdb + 10, sizeof(all), 4);
	assert_int_equal(zscsi_execute(f->s, cdb, 16, iov, 2, f->sense, &f->dlen), ZSCSI_GOOD);
	assert_int_equal(f->dlen, sizeof(all));
	memcpy(all, a, sizeof(a));
	memcpy(all + sizeof(a), b, sizeof(b));
	for (uint32_t i = 0; i < NZ; i++)
		assert_int_equal(zl_test_get_be(all + 64 + i * 64 + 16, 8), (uint64_t)i * ZS);
}

/* ---- concurrency ---- */

struct thr {
	struct fx *f;
	uint32_t zone;
	int fails;
};

static void *writer(void *arg)
{
	struct thr *t = arg;
	uint8_t buf[8 * 512], cdb[16] = { 0x8a }, sense[ZSCSI_SENSE_LEN];
	struct iovec iov = { buf, sizeof(buf) };

	memset(buf, (int)t->zone, sizeof(buf));
	for (uint32_t i = 0; i < ZS / 8; i++) {
		zl_test_put_be(cdb + 2, (uint64_t)t->zone * ZS + i * 8, 8);
		zl_test_put_be(cdb + 10, 8, 4);
		if (zscsi_execute(t->f->s, cdb, 16, &iov, 1, sense, NULL) != ZSCSI_GOOD)
			t->fails++;
	}
	return NULL;
}

static void test_zscsi_concurrent_writers_fill_their_zones(void **state)
{
	struct fx *f = *state;
	struct thr t[4];
	pthread_t th[4];
	uint8_t cdb[16] = { 0x95 }, buf[64 + 16 * 64];

	for (int i = 0; i < 4; i++) {
		t[i] = (struct thr){ f, (uint32_t)(2 + i), 0 };
		assert_int_equal(pthread_create(&th[i], NULL, writer, &t[i]), 0);
	}
	for (int i = 0; i < 4; i++) {
		pthread_join(th[i], NULL);
		assert_int_equal(t[i].fails, 0);
	}
	zl_test_put_be(cdb + 10, sizeof(buf), 4);
	cdb[14] = 0x05;   /* FULL */
	assert_int_equal(run(f, cdb, 16, buf, sizeof(buf)), ZSCSI_GOOD);
	assert_int_equal(zl_test_get_be(buf, 4), 4 * 64);
}

/* ---- statistics ---- */

/* A WRITE(10/12/16) with @fua (byte 1 bit 3) of @n blocks at @lba. */
static uint8_t write_cdb(struct fx *f, uint8_t op, bool fua, uint64_t lba, uint32_t n, void *buf)
{
	uint8_t cdb[16] = { op, fua ? 0x08 : 0 };
	size_t len = op == 0x2a ? 10 : op == 0xaa ? 12 : 16;

	if (op == 0x2a) {
		zl_test_put_be(cdb + 2, lba, 4);
		zl_test_put_be(cdb + 7, n, 2);
	} else if (op == 0xaa) {
		zl_test_put_be(cdb + 2, lba, 4);
		zl_test_put_be(cdb + 6, n, 4);
	} else {
		zl_test_put_be(cdb + 2, lba, 8);
		zl_test_put_be(cdb + 10, n, 4);
	}
	return run(f, cdb, len, buf, (size_t)n * 512);
}

/*
 * fua_writes / fua_write_lbas count the writes done with FUA (what a
 * version-1 blktrace on 6.19+ loses, e2e kernel_wa): WRITE(10/12/16) and
 * COMPARE AND WRITE with the bit, WRITE AND VERIFY (written through); not a
 * plain write, not WRITE SAME, not a FUA write that was refused.
 */
static void test_zscsi_stats_count_fua_writes_that_completed(void **state)
{
	struct fx *f = *state;
	uint8_t buf[16 * 512] = { 0 }, cdb[16];
	struct zl_stats st;
	char json[2048];

	assert_int_equal(write_cdb(f, 0x8a, true, 2 * ZS, 8, buf), ZSCSI_GOOD);   /* 8 */
	assert_int_equal(write_cdb(f, 0x2a, true, 0, 4, buf), ZSCSI_GOOD);        /* 4, conventional */
	assert_int_equal(write_cdb(f, 0xaa, true, 2 * ZS + 8, 2, buf), ZSCSI_GOOD); /* 2 */
	assert_int_equal(write_cdb(f, 0x8a, false, 2 * ZS + 10, 6, buf), ZSCSI_GOOD);
	assert_int_equal(write_cdb(f, 0x2a, false, 100, 1, buf), ZSCSI_GOOD);
	zdisk_stats(f->disk, &st);
	assert_int_equal(st.writes, 5);
	assert_int_equal(st.write_lbas, 8 + 4 + 2 + 6 + 1);
	assert_int_equal(st.fua_writes, 3);
	assert_int_equal(st.fua_write_lbas, 8 + 4 + 2);

	/* refused: not at the write pointer, beyond the capacity, WRPROTECT set */
	assert_int_equal(write_cdb(f, 0x8a, true, 3 * ZS + 8, 8, buf), ZSCSI_CHECK_CONDITION);
	assert_sense(f, 5, 0x21, 0x04);
	assert_int_equal(write_cdb(f, 0x8a, true, CAP - 4, 8, buf), ZSCSI_CHECK_CONDITION);
	assert_sense(f, 5, 0x21, 0x00);
	memset(cdb, 0, sizeof(cdb));
	cdb[0] = 0x2a;
	cdb[1] = 0x08 | 0x20;
	zl_test_put_be(cdb + 2, 200, 4);
	zl_test_put_be(cdb + 7, 1, 2);
	assert_int_equal(run(f, cdb, 10, buf, 512), ZSCSI_CHECK_CONDITION);
	assert_sense(f, 5, 0x24, 0x00);

	/* COMPARE AND WRITE with FUA (zeros compared, 1 block written); WRITE SAME has no FUA */
	memset(cdb, 0, sizeof(cdb));
	cdb[0] = 0x89;
	cdb[1] = 0x08;
	zl_test_put_be(cdb + 2, 300, 8);
	cdb[13] = 1;
	assert_int_equal(run(f, cdb, 16, buf, 2 * 512), ZSCSI_GOOD);
	memset(cdb, 0, sizeof(cdb));
	cdb[0] = 0x93;
	zl_test_put_be(cdb + 2, 400, 8);
	zl_test_put_be(cdb + 10, 4, 4);
	assert_int_equal(run(f, cdb, 16, buf, 512), ZSCSI_GOOD);
	/* WRITE AND VERIFY(16), BYTCHK 0: written through, so counted */
	memset(cdb, 0, sizeof(cdb));
	cdb[0] = 0x8e;
	zl_test_put_be(cdb + 2, 2 * ZS + 16, 8);
	zl_test_put_be(cdb + 10, 2, 4);
	assert_int_equal(run(f, cdb, 16, buf, 2 * 512), ZSCSI_GOOD);

	zdisk_stats(f->disk, &st);
	assert_int_equal(st.writes, 5 + 3);
	assert_int_equal(st.write_lbas, 21 + 1 + 4 + 2);
	assert_int_equal(st.fua_writes, 3 + 2);
	assert_int_equal(st.fua_write_lbas, 14 + 1 + 2);
	assert_int_equal(st.errors, 1);          /* the unaligned one: the others never reached the disk */
	assert_true(zl_stats_json(&st, json, sizeof(json)) > 0);
	assert_non_null(strstr(json, "\"writes\":8,\"write_lbas\":28,\"fua_writes\":5,\"fua_write_lbas\":17,"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
#define TF(fn) cmocka_unit_test_setup_teardown(fn, setup_file, teardown)
		T(test_zscsi_write_read_scattered_iov),
		T(test_zscsi_contiguous_iov_used_flat),
		T(test_zscsi_inquiry_data_len_bounded_by_alloc_and_buffer),
		T(test_zscsi_read_longer_than_buffer_transfers_what_fits),
		T(test_zscsi_transfer_over_max_is_refused),
		T(test_zscsi_rw_fast_path_answers_as_the_table),
		TF(test_zscsi_rw_fast_path_answers_as_the_table),
		TF(test_zscsi_read_fast_does_the_common_read_or_nothing),
		T(test_zscsi_empty_and_short_cdbs),
		T(test_zscsi_unknown_opcode_has_no_field_pointer),
		T(test_zscsi_unaligned_write_info_is_lba),
		T(test_zscsi_lba_range_info_not_valid_beyond_32_bits),
		cmocka_unit_test(test_zscsi_medium_read_error),
		cmocka_unit_test(test_zscsi_medium_write_error),
		cmocka_unit_test(test_zscsi_medium_write_error_reports_first_failed_lba),
		cmocka_unit_test(test_zscsi_torn_write_is_medium_error_at_first_lost_lba),
		cmocka_unit_test(test_zscsi_power_loss_not_ready_until_power_cycle),
		T(test_zscsi_power_cycle_unit_attention_then_clear),
		T(test_zscsi_read_only_and_offline_sense),
		T(test_zscsi_cross_type_read_by_profile),
		T(test_zscsi_open_limit_is_data_protect),
		T(test_zscsi_zone_op_conventional_points_at_zone_id),
		T(test_zscsi_create_rejects_bad_args),
		T(test_zscsi_request_sense_reports_last_then_no_sense),
		T(test_zscsi_request_sense_cleared_by_good_command),
		T(test_zscsi_mode_select_wce_reaches_the_disk),
		T(test_zscsi_mode_select_invalid_leaves_wce),
		T(test_zscsi_mode_sense_6_caching_wce),
		T(test_zscsi_report_zones_partial0_counts_all),
		T(test_zscsi_report_zones_alloc_below_header),
		T(test_zscsi_report_zones_scattered_buffer),
		T(test_zscsi_concurrent_writers_fill_their_zones),
		T(test_zscsi_stats_count_fua_writes_that_completed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
