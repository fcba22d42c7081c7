/*
 * test_zdisk.c — the emulated disk: data paths over each backend, reads
 * above the write pointer, persistence across close and reopen, write-cache
 * semantics and power cycles, every fault action, statistics, and
 * concurrent writers.  Uses the real zone model and real stores (no mocks).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <unistd.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "zdisk.h"
#include "zl_test.h"

#define ZS 256u         /* LBAs per zone */
#define NZ 32u
#define LBS 512u

struct fx {
	char *dir;
	char path[512];
	struct zdisk *z;
};

static void geo(struct zdev_cfg *g)
{
	zdev_cfg_init(g);
	g->capacity_lba = (uint64_t)ZS * NZ;
	g->zone_size_lba = ZS;
	g->nr_conv_start = 2;
	g->max_open = 4;
}

static int open_disk(struct fx *f, enum zstore_kind kind, bool create, bool wce,
		     const char *faults)
{
	struct zdisk_cfg c;
	char msg[256];

	zdisk_cfg_init(&c);
	geo(&c.geo);
	c.store.kind = kind;
	c.store.path = f->path;
	c.store.create = create;
	c.store.force = create;
	c.wce = wce;
	c.faults = faults;
	c.seed = 7;
	return zdisk_open(&c, &f->z, msg, sizeof(msg));
}

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	f->dir = zl_test_mkdtemp("zdisk");
	assert_non_null(f->dir);
	snprintf(f->path, sizeof(f->path), "%s/disk.img", f->dir);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	zdisk_close(f->z);
	zl_test_rmdir(f->dir);
	free(f->dir);
	free(f);
	return 0;
}

static void fill(uint8_t *buf, uint64_t lba, uint64_t n, uint8_t tag)
{
	for (uint64_t i = 0; i < n; i++)
		for (uint32_t b = 0; b < LBS; b++)
			buf[i * LBS + b] = (uint8_t)((lba + i) * 7 + b + tag);
}

static struct zl_zone_info zone(struct zdisk *z, uint32_t idx)
{
	struct zl_zone_info zi;

	assert_int_equal(zdisk_report(z, (uint64_t)idx * ZS, ZL_RO_ALL, &zi, 1, NULL), 1);
	return zi;
}

static void write_ok(struct zdisk *z, uint64_t lba, uint64_t n, uint8_t tag)
{
	uint8_t *buf = malloc(n * LBS);

	fill(buf, lba, n, tag);
	assert_int_equal(zdisk_write(z, lba, n, buf, false, NULL), 0);
	free(buf);
}

static void expect_data(struct zdisk *z, uint64_t lba, uint64_t n, uint8_t tag)
{
	uint8_t *buf = malloc(n * LBS), *want = malloc(n * LBS);

	fill(want, lba, n, tag);
	assert_int_equal(zdisk_read(z, lba, n, buf, NULL), 0);
	assert_memory_equal(buf, want, n * LBS);
	free(buf);
	free(want);
}

static void expect_zeros(struct zdisk *z, uint64_t lba, uint64_t n)
{
	uint8_t *buf = malloc(n * LBS);

	memset(buf, 0xee, n * LBS);
	assert_int_equal(zdisk_read(z, lba, n, buf, NULL), 0);
	for (uint64_t i = 0; i < n * LBS; i++)
		assert_int_equal(buf[i], 0);
	free(buf);
}

/* ---- data paths ----------------------------------------------------------- */

static void round_trip(struct fx *f, enum zstore_kind kind)
{
	assert_int_equal(open_disk(f, kind, true, true, NULL), 0);
	write_ok(f->z, 3 * ZS, 16, 1);
	write_ok(f->z, 3 * ZS + 16, 8, 1);
	write_ok(f->z, 10, 4, 2);                      /* conventional */
	if (kind == ZSTORE_NONE) {
		expect_zeros(f->z, 3 * ZS, 24);
	} else {
		expect_data(f->z, 3 * ZS, 24, 1);
		expect_data(f->z, 10, 4, 2);
	}
	expect_zeros(f->z, 3 * ZS + 24, ZS - 24);      /* above the write pointer */
	assert_true(zone(f->z, 3).wp_lba == 3 * ZS + 24);
}

static void test_zdisk_mem_round_trip(void **state) { round_trip(*state, ZSTORE_MEM); }
static void test_zdisk_file_round_trip(void **state) { round_trip(*state, ZSTORE_FILE); }
static void test_zdisk_none_drops_data_but_keeps_zones(void **state) { round_trip(*state, ZSTORE_NONE); }

static void test_zdisk_reset_zone_reads_zeros_not_stale_data(void **state)
{
	struct fx *f = *state;

	assert_int_equal(open_disk(f, ZSTORE_FILE, true, true, NULL), 0);
	write_ok(f->z, 4 * ZS, 64, 3);
	assert_int_equal(zdisk_zone_op(f->z, ZL_ZOP_RESET, 4 * ZS, false, NULL), 0);
	expect_zeros(f->z, 4 * ZS, 64);
	write_ok(f->z, 4 * ZS, 8, 4);
	expect_data(f->z, 4 * ZS, 8, 4);
	expect_zeros(f->z, 4 * ZS + 8, 56);
	/* RESET ALL keeps bytes on the medium, but they read as zeros */
	write_ok(f->z, 5 * ZS, 8, 4);
	assert_int_equal(zdisk_zone_op(f->z, ZL_ZOP_RESET, 0, true, NULL), 0);
	expect_zeros(f->z, 5 * ZS, 8);
}

static void test_zdisk_errors_keep_their_reason(void **state)
{
	struct fx *f = *state;
	uint8_t buf[16 * LBS] = { 0 };

	assert_int_equal(open_disk(f, ZSTORE_MEM, true, true, NULL), 0);
	assert_int_equal(zdisk_write(f->z, 3 * ZS + 8, 8, buf, false, NULL), ZL_E_UNALIGNED);
	assert_int_equal(zdisk_write(f->z, NZ * ZS, 8, buf, false, NULL), ZL_E_LBA_RANGE);
	assert_int_equal(zdisk_read(f->z, 2 * ZS - 4, 8, buf, NULL), ZL_E_READ_CROSS_TYPE);
	assert_int_equal(zdisk_zone_op(f->z, ZL_ZOP_OPEN, 3 * ZS + 1, false, NULL), ZL_E_NOT_ZONE_START);
	assert_true(zone(f->z, 3).wp_lba == 3 * ZS);
}

/* ---- persistence ---------------------------------------------------------- */

static void test_zdisk_file_reopen_gives_same_zones_open_ones_closed(void **state)
{
	struct fx *f = *state;
	struct zl_zone_info zi;

	assert_int_equal(open_disk(f, ZSTORE_FILE, true, true, NULL), 0);
	write_ok(f->z, 3 * ZS, 16, 5);                         /* implicitly open */
	assert_int_equal(zdisk_zone_op(f->z, ZL_ZOP_OPEN, 4 * ZS, false, NULL), 0);
	write_ok(f->z, 5 * ZS, ZS, 5);                         /* full */
	assert_int_equal(zdisk_zone_set_cond(f->z, 6, ZL_COND_OFFLINE), 0);
	zdisk_close(f->z);
	f->z = NULL;

	assert_int_equal(open_disk(f, ZSTORE_FILE, false, true, NULL), 0);
	zi = zone(f->z, 3);
	assert_int_equal(zi.cond, ZL_COND_CLOSED);
	assert_true(zi.wp_lba == 3 * ZS + 16);
	assert_int_equal(zone(f->z, 4).cond, ZL_COND_EMPTY);   /* open at start -> empty */
	assert_int_equal(zone(f->z, 5).cond, ZL_COND_FULL);
	assert_int_equal(zone(f->z, 6).cond, ZL_COND_OFFLINE);
	expect_data(f->z, 3 * ZS, 16, 5);
	expect_data(f->z, 5 * ZS, ZS, 5);
	write_ok(f->z, 3 * ZS + 16, 8, 5);                     /* continues at the WP */
}

static void test_zdisk_reopen_with_other_geometry_is_refused(void **state)
{
	struct fx *f = *state;
	struct zdisk_cfg c;
	char msg[256] = "";

	assert_int_equal(open_disk(f, ZSTORE_FILE, true, true, NULL), 0);
	write_ok(f->z, 3 * ZS, 8, 1);
	zdisk_close(f->z);
	f->z = NULL;
	zdisk_cfg_init(&c);
	geo(&c.geo);
	c.geo.max_open = 8;
	c.store.kind = ZSTORE_FILE;
	c.store.path = f->path;
	assert_int_equal(zdisk_open(&c, &f->z, msg, sizeof(msg)), ZL_E_GEOMETRY_MISMATCH);
	assert_non_null(strstr(msg, "max_open"));
	assert_null(f->z);
	/* and the image is untouched */
	assert_int_equal(open_disk(f, ZSTORE_FILE, false, true, NULL), 0);
	expect_data(f->z, 3 * ZS, 8, 1);
}

static void test_zdisk_power_cycle_drops_unflushed_writes_with_wce(void **state)
{
	struct fx *f = *state;

	assert_int_equal(open_disk(f, ZSTORE_FILE, true, true, NULL), 0);
	write_ok(f->z, 3 * ZS, 16, 6);
	assert_int_equal(zdisk_flush(f->z, NULL), 0);
	write_ok(f->z, 3 * ZS + 16, 16, 6);                    /* cached only */
	write_ok(f->z, 4 * ZS, 8, 6);
	assert_int_equal(zdisk_power_cycle(f->z), 0);
	assert_true(zone(f->z, 3).wp_lba == 3 * ZS + 16);
	assert_int_equal(zone(f->z, 3).cond, ZL_COND_CLOSED);
	assert_int_equal(zone(f->z, 4).cond, ZL_COND_EMPTY);
	expect_data(f->z, 3 * ZS, 16, 6);
	expect_zeros(f->z, 3 * ZS + 16, 16);
}

static void test_zdisk_power_cycle_keeps_every_completed_write_without_wce(void **state)
{
	struct fx *f = *state;

	assert_int_equal(open_disk(f, ZSTORE_FILE, true, false, NULL), 0);
	assert_false(zdisk_wce(f->z));
	write_ok(f->z, 3 * ZS, 16, 6);
	write_ok(f->z, 4 * ZS, 8, 6);
	assert_int_equal(zdisk_power_cycle(f->z), 0);
	assert_true(zone(f->z, 3).wp_lba == 3 * ZS + 16);
	assert_true(zone(f->z, 4).wp_lba == 4 * ZS + 8);
	expect_data(f->z, 4 * ZS, 8, 6);
}

static void test_zdisk_fua_write_survives_power_cycle_with_wce(void **state)
{
	struct fx *f = *state;
	uint8_t buf[8 * LBS];

	assert_int_equal(open_disk(f, ZSTORE_FILE, true, true, NULL), 0);
	fill(buf, 3 * ZS, 8, 9);
	assert_int_equal(zdisk_write(f->z, 3 * ZS, 8, buf, true, NULL), 0);
	write_ok(f->z, 4 * ZS, 8, 9);                          /* not FUA */
	assert_int_equal(zdisk_power_cycle(f->z), 0);
	assert_true(zone(f->z, 3).wp_lba == 3 * ZS + 8);
	assert_true(zone(f->z, 4).wp_lba == 4 * ZS);
}

static void test_zdisk_zone_ops_durable_on_completion_without_wce(void **state)
{
	struct fx *f = *state;

	assert_int_equal(open_disk(f, ZSTORE_FILE, true, false, NULL), 0);
	write_ok(f->z, 3 * ZS, 16, 1);
	write_ok(f->z, 4 * ZS, 16, 1);
	assert_int_equal(zdisk_zone_op(f->z, ZL_ZOP_FINISH, 3 * ZS, false, NULL), 0);
	assert_int_equal(zdisk_zone_op(f->z, ZL_ZOP_RESET, 4 * ZS, false, NULL), 0);
	assert_int_equal(zdisk_power_cycle(f->z), 0);
	assert_int_equal(zone(f->z, 3).cond, ZL_COND_FULL);
	assert_int_equal(zone(f->z, 4).cond, ZL_COND_EMPTY);
	expect_data(f->z, 3 * ZS, 16, 1);
}

static void test_zdisk_zone_ops_durable_at_flush_with_wce(void **state)
{
	struct fx *f = *state;

	assert_int_equal(open_disk(f, ZSTORE_FILE, true, true, NULL), 0);
	write_ok(f->z, 3 * ZS, 16, 1);
	write_ok(f->z, 4 * ZS, 16, 1);
	assert_int_equal(zdisk_flush(f->z, NULL), 0);
	/* a reset lost in a power cycle finds its data again */
	assert_int_equal(zdisk_zone_op(f->z, ZL_ZOP_RESET, 3 * ZS, false, NULL), 0);
	assert_int_equal(zdisk_power_cycle(f->z), 0);
	assert_int_equal(zone(f->z, 3).cond, ZL_COND_CLOSED);
	expect_data(f->z, 3 * ZS, 16, 1);
	/* after a flush it sticks */
	assert_int_equal(zdisk_zone_op(f->z, ZL_ZOP_RESET, 4 * ZS, false, NULL), 0);
	assert_int_equal(zdisk_flush(f->z, NULL), 0);
	assert_int_equal(zdisk_power_cycle(f->z), 0);
	assert_int_equal(zone(f->z, 4).cond, ZL_COND_EMPTY);
	expect_zeros(f->z, 4 * ZS, 16);
}

static void test_zdisk_turning_wce_off_flushes(void **state)
{
	struct fx *f = *state;

	assert_int_equal(open_disk(f, ZSTORE_FILE, true, true, NULL), 0);
	write_ok(f->z, 3 * ZS, 16, 1);
	assert_int_equal(zdisk_set_wce(f->z, false), 0);
	assert_int_equal(zdisk_power_cycle(f->z), 0);
	assert_true(zone(f->z, 3).wp_lba == 3 * ZS + 16);
}

static uint64_t image_blocks(const char *path)
{
	struct stat st;

	assert_int_equal(stat(path, &st), 0);
	return (uint64_t)st.st_blocks;
}

/* Write 128 LBAs into @zone, reset it; the blocks it freed (in 512-byte units). */
static uint64_t blocks_freed_by_reset(struct fx *f, uint32_t zone)
{
	uint64_t before;

	write_ok(f->z, (uint64_t)zone * ZS, 128, 1);
	before = image_blocks(f->path);
	assert_int_equal(zdisk_zone_op(f->z, ZL_ZOP_RESET, (uint64_t)zone * ZS, false, NULL), 0);
	return before - image_blocks(f->path);
}

/* With punch_on_reset, a durable reset frees the zone's blocks, the short last zone's too. */
static void test_zdisk_reset_without_wce_punches_every_zone_including_the_runt(void **state)
{
	struct fx *f = *state;
	struct zdisk_cfg c;
	char msg[256];

	zdisk_cfg_init(&c);
	geo(&c.geo);
	c.geo.capacity_lba = (uint64_t)ZS * NZ - 64;           /* last zone: 192 LBAs */
	c.store.kind = ZSTORE_FILE;
	c.store.path = f->path;
	c.store.create = true;
	c.store.punch_on_reset = true;
	c.wce = false;
	assert_int_equal(zdisk_open(&c, &f->z, msg, sizeof(msg)), 0);
	if (blocks_freed_by_reset(f, 3) < 128)
		skip();                 /* this filesystem cannot punch holes */
	assert_true(blocks_freed_by_reset(f, NZ - 1) >= 128);
	expect_zeros(f->z, (uint64_t)(NZ - 1) * ZS, 192);
}

/* ---- faults: one test per action ------------------------------------------- */

static void test_zdisk_fault_medium_error_on_write_moves_nothing(void **state)
{
	struct fx *f = *state;
	uint8_t buf[8 * LBS] = { 0 };
	struct zl_stats s;

	assert_int_equal(open_disk(f, ZSTORE_MEM, true, true,
				   "medium-error:op=write,lba=768-1023,once"), 0);
	assert_int_equal(zdisk_write(f->z, 3 * ZS, 8, buf, false, NULL), ZL_E_MEDIUM_WRITE);
	assert_true(zone(f->z, 3).wp_lba == 3 * ZS);
	assert_int_equal(zone(f->z, 3).cond, ZL_COND_IMP_OPEN);
	assert_int_equal(zdisk_write(f->z, 3 * ZS, 8, buf, false, NULL), 0);   /* once */
	zdisk_stats(f->z, &s);
	assert_int_equal(s.err_kind[ZL_E_MEDIUM_WRITE - ZL_E_BASE], 1);
	assert_int_equal(s.writes, 1);
}

static void test_zdisk_fault_medium_error_on_read_range(void **state)
{
	struct fx *f = *state;
	uint8_t buf[8 * LBS];
	struct zdisk_io io;

	assert_int_equal(open_disk(f, ZSTORE_MEM, true, true,
				   "medium-error:op=read,lba=100-103,repeat"), 0);
	assert_int_equal(zdisk_read(f->z, 96, 8, buf, &io), ZL_E_MEDIUM_READ);
	assert_int_equal(io.done_lba, 4);                      /* fails at LBA 100 */
	assert_int_equal(zdisk_read(f->z, 100, 8, buf, &io), ZL_E_MEDIUM_READ);
	assert_int_equal(io.done_lba, 0);
	assert_int_equal(zdisk_read(f->z, 104, 8, buf, &io), 0);
	assert_int_equal(io.done_lba, 8);
}

/*
 * A medium error inside a read: the LBAs before the failing one are
 * transferred (data and unwritten runs alike), nothing after it, and
 * io->done_lba counts them.  A zone-only rule fails at its zone's first LBA.
 */
static void test_zdisk_fault_medium_read_transfers_lbas_before_the_failing_one(void **state)
{
	struct fx *f = *state;
	uint8_t buf[16 * LBS], want[8 * LBS];
	struct zdisk_io io;
	struct zl_stats s;

	assert_int_equal(open_disk(f, ZSTORE_FILE, true, true,
				   "medium-error:op=read,lba=780-783,repeat;"
				   "medium-error:op=read,zone=5,repeat"), 0);
	write_ok(f->z, 3 * ZS, 8, 1);                          /* 768..775, then unwritten */
	memset(buf, 0xee, sizeof(buf));
	assert_int_equal(zdisk_read(f->z, 3 * ZS, 16, buf, &io), ZL_E_MEDIUM_READ);
	assert_int_equal(io.done_lba, 12);                     /* fails at 780 */
	fill(want, 3 * ZS, 8, 1);
	assert_memory_equal(buf, want, 8 * LBS);
	for (size_t i = 8 * LBS; i < 12 * LBS; i++)
		assert_int_equal(buf[i], 0);                   /* unwritten: zeros */
	for (size_t i = 12 * LBS; i < sizeof(buf); i++)
		assert_int_equal(buf[i], 0xee);                /* not transferred */
	/* zone 5 starts at 1280: a read from 1272 fails there */
	assert_int_equal(zdisk_read(f->z, 5 * ZS - 8, 16, buf, &io), ZL_E_MEDIUM_READ);
	assert_int_equal(io.done_lba, 8);
	assert_int_equal(zdisk_read(f->z, 5 * ZS + 8, 8, buf, &io), ZL_E_MEDIUM_READ);
	assert_int_equal(io.done_lba, 0);
	zdisk_stats(f->z, &s);
	assert_int_equal(s.err_kind[ZL_E_MEDIUM_READ - ZL_E_BASE], 3);
	assert_int_equal(s.reads, 0);                          /* failed reads are not reads */
}

/*
 * A medium error at a write's first LBA: nothing is stored and the write
 * pointer stays, but the zone is implicitly opened, as null_blk opens the
 * zone before it finds the bad block, and takes an open resource: with
 * max_open 4, three more implicit opens fill them and a fourth closes one.
 * A write the zone rules refuse (here: not at the write pointer) still
 * reports the medium error and opens nothing.
 */
static void test_zdisk_fault_medium_write_at_first_lba_opens_the_zone(void **state)
{
	struct fx *f = *state;
	uint8_t buf[8 * LBS] = { 0 };
	struct zdisk_io io;
	struct zl_stats s;

	assert_int_equal(open_disk(f, ZSTORE_FILE, true, true,
				   "medium-error:op=write,zone=3,repeat;"
				   "medium-error:op=write,lba=2560-2815,repeat"), 0);
	assert_int_equal(zone(f->z, 3).cond, ZL_COND_EMPTY);
	assert_int_equal(zdisk_write(f->z, 3 * ZS, 8, buf, true, &io), ZL_E_MEDIUM_WRITE);
	assert_int_equal(io.done_lba, 0);
	assert_int_equal(zone(f->z, 3).cond, ZL_COND_IMP_OPEN);
	assert_true(zone(f->z, 3).wp_lba == 3 * ZS);
	expect_zeros(f->z, 3 * ZS, 8);
	/* zone 10 (LBA 2560): unaligned, so refused before it could open */
	assert_int_equal(zdisk_write(f->z, 10 * ZS + 8, 8, buf, false, &io), ZL_E_MEDIUM_WRITE);
	assert_int_equal(zone(f->z, 10).cond, ZL_COND_EMPTY);
	zdisk_stats(f->z, &s);
	assert_int_equal(s.imp_opens, 1);
	assert_int_equal(s.imp_closes, 0);
	assert_int_equal(s.writes, 0);
	assert_int_equal(s.err_kind[ZL_E_MEDIUM_WRITE - ZL_E_BASE], 2);
	/* zone 3 holds one of the 4 open resources */
	write_ok(f->z, 4 * ZS, 8, 1);
	write_ok(f->z, 5 * ZS, 8, 1);
	write_ok(f->z, 6 * ZS, 8, 1);
	zdisk_stats(f->z, &s);
	assert_int_equal(s.imp_closes, 0);
	write_ok(f->z, 7 * ZS, 8, 1);
	zdisk_stats(f->z, &s);
	assert_int_equal(s.imp_opens, 5);
	assert_int_equal(s.imp_closes, 1);
	/* the first implicitly open zone was closed: zone 3, back to EMPTY (WP at start) */
	assert_int_equal(zone(f->z, 3).cond, ZL_COND_EMPTY);
	/* the next failed write opens it again, closing zone 4 */
	assert_int_equal(zdisk_write(f->z, 3 * ZS, 8, buf, false, &io), ZL_E_MEDIUM_WRITE);
	assert_int_equal(zone(f->z, 3).cond, ZL_COND_IMP_OPEN);
	assert_int_equal(zone(f->z, 4).cond, ZL_COND_CLOSED);
	/* a power cycle: nothing was stored in zone 3 */
	assert_int_equal(zdisk_power_cycle(f->z), 0);
	assert_true(zone(f->z, 3).wp_lba == 3 * ZS);
}

/*
 * A medium error inside a write: the LBAs before the failing one are stored
 * and the write pointer moves over them (the durability of a torn write's
 * prefix: FUA or WCE off makes them durable, otherwise the next flush), and
 * io->done_lba counts them.
 */
static void test_zdisk_fault_medium_write_stores_lbas_before_the_failing_one(void **state)
{
	struct fx *f = *state;
	uint8_t buf[16 * LBS];
	struct zdisk_io io;
	struct zl_stats s;

	assert_int_equal(open_disk(f, ZSTORE_FILE, true, true,
				   "medium-error:op=write,lba=772-1023;"
				   "medium-error:op=write,lba=1284-1535;"
				   "medium-error:op=write,zone=1"), 0);
	/* zone 3, FUA: the prefix is durable */
	fill(buf, 3 * ZS, 16, 1);
	assert_int_equal(zdisk_write(f->z, 3 * ZS, 16, buf, true, &io), ZL_E_MEDIUM_WRITE);
	assert_int_equal(io.done_lba, 4);
	assert_true(zone(f->z, 3).wp_lba == 3 * ZS + 4);
	assert_int_equal(zone(f->z, 3).cond, ZL_COND_IMP_OPEN);
	expect_data(f->z, 3 * ZS, 4, 1);
	expect_zeros(f->z, 3 * ZS + 4, 12);
	/* zone 5, write cache on: stored, durable at the next flush */
	fill(buf, 5 * ZS, 16, 2);
	assert_int_equal(zdisk_write(f->z, 5 * ZS, 16, buf, false, &io), ZL_E_MEDIUM_WRITE);
	assert_int_equal(io.done_lba, 4);
	assert_true(zone(f->z, 5).wp_lba == 5 * ZS + 4);
	/* conventional zones 0-1, a zone-only rule: fails at zone 1's first LBA */
	fill(buf, ZS - 6, 16, 3);
	assert_int_equal(zdisk_write(f->z, ZS - 6, 16, buf, false, &io), ZL_E_MEDIUM_WRITE);
	assert_int_equal(io.done_lba, 6);
	expect_data(f->z, ZS - 6, 6, 3);
	expect_zeros(f->z, ZS, 10);
	zdisk_stats(f->z, &s);
	assert_int_equal(s.err_kind[ZL_E_MEDIUM_WRITE - ZL_E_BASE], 3);
	assert_int_equal(s.writes, 0);
	assert_int_equal(zdisk_power_cycle(f->z), 0);
	assert_true(zone(f->z, 3).wp_lba == 3 * ZS + 4);
	expect_data(f->z, 3 * ZS, 4, 1);
	assert_true(zone(f->z, 5).wp_lba == 5 * ZS);         /* never flushed */
	/* every rule fired once: the writes go through now */
	write_ok(f->z, 3 * ZS + 4, 12, 4);
	expect_data(f->z, 3 * ZS + 4, 12, 4);
}

/*
 * Order of checks: a medium error at the command's first LBA fails it
 * before the zone rules; one past it comes after them (the command is
 * checked as a whole before anything is transferred).
 */
static void test_zdisk_fault_medium_error_past_first_lba_after_zone_rules(void **state)
{
	struct fx *f = *state;
	uint8_t buf[264 * LBS] = { 0 };
	struct zdisk_io io;

	assert_int_equal(open_disk(f, ZSTORE_MEM, true, true,
				   "medium-error:lba=772-1023,repeat"), 0);
	/* zone 3's write pointer is 768: both writes are unaligned */
	assert_int_equal(zdisk_write(f->z, 3 * ZS + 2, 8, buf, false, &io), ZL_E_UNALIGNED);
	assert_int_equal(zdisk_write(f->z, 3 * ZS + 4, 8, buf, false, &io), ZL_E_MEDIUM_WRITE);
	assert_true(zone(f->z, 3).wp_lba == 3 * ZS);
	assert_int_equal(zone(f->z, 3).cond, ZL_COND_EMPTY);
	/* a read running into offline zone 4 */
	assert_int_equal(zdisk_zone_set_cond(f->z, 4, ZL_COND_OFFLINE), 0);
	assert_int_equal(zdisk_read(f->z, 3 * ZS + 2, 260, buf, &io), ZL_E_OFFLINE);
	assert_int_equal(io.done_lba, 0);
	assert_int_equal(zdisk_read(f->z, 3 * ZS + 4, 258, buf, &io), ZL_E_MEDIUM_READ);
	assert_int_equal(io.done_lba, 0);
}

static void test_zdisk_fault_zone_turns_read_only_then_offline(void **state)
{
	struct fx *f = *state;
	uint8_t buf[8 * LBS] = { 0 };

	assert_int_equal(open_disk(f, ZSTORE_MEM, true, true,
				   "read-only:op=write,zone=5,after=1;offline:op=read,zone=6"), 0);
	write_ok(f->z, 5 * ZS, 8, 1);                          /* after=1: first passes */
	assert_int_equal(zdisk_write(f->z, 5 * ZS + 8, 8, buf, false, NULL), ZL_E_READ_ONLY);
	assert_int_equal(zone(f->z, 5).cond, ZL_COND_READ_ONLY);
	expect_data(f->z, 5 * ZS, 8, 1);                       /* read-only zones read */
	assert_int_equal(zdisk_read(f->z, 6 * ZS, 8, buf, NULL), ZL_E_OFFLINE);
	assert_int_equal(zone(f->z, 6).cond, ZL_COND_OFFLINE);
	assert_int_equal(zdisk_zone_clear_fault(f->z, 6), 0);
	assert_int_equal(zone(f->z, 6).cond, ZL_COND_EMPTY);
}

static void test_zdisk_fault_torn_write_stores_and_commits_a_prefix(void **state)
{
	struct fx *f = *state;
	uint8_t buf[16 * LBS];
	struct zdisk_io io;

	assert_int_equal(open_disk(f, ZSTORE_MEM, true, true, "torn-write:op=write,keep=5"), 0);
	fill(buf, 3 * ZS, 16, 8);
	assert_int_equal(zdisk_write(f->z, 3 * ZS, 16, buf, false, &io), ZL_E_TORN_WRITE);
	assert_int_equal(io.done_lba, 5);
	assert_true(zone(f->z, 3).wp_lba == 3 * ZS + 5);
	expect_data(f->z, 3 * ZS, 5, 8);
	expect_zeros(f->z, 3 * ZS + 5, 11);
}

static void test_zdisk_fault_latency_reported_in_virtual_time(void **state)
{
	struct fx *f = *state;
	uint8_t buf[8 * LBS];
	struct zdisk_io io;
	struct zl_stats s;

	assert_int_equal(open_disk(f, ZSTORE_MEM, true, true, "latency:op=read,ms=3,repeat"), 0);
	assert_int_equal(zdisk_read(f->z, 0, 8, buf, &io), 0);
	assert_int_equal(io.delay_ns, 3000000);
	assert_int_equal(zdisk_read(f->z, 0, 8, buf, &io), 0);
	zdisk_stats(f->z, &s);
	assert_int_equal(s.injected_delay_ns, 6000000);
}

static void test_zdisk_fault_stall_holds_command_until_released(void **state)
{
	struct fx *f = *state;
	struct zdisk_cfg c;
	struct zl_test_io a = { .lba = 0, .nr_lba = 8, .ret = -1 };
	pthread_t t;
	uint8_t buf[8 * LBS];
	struct zdisk_io io;
	char msg[128];

	zdisk_cfg_init(&c);
	geo(&c.geo);
	c.realtime = true;
	c.faults = "stall:op=read,once";
	assert_int_equal(zdisk_open(&c, &f->z, msg, sizeof(msg)), 0);
	a.z = f->z;
	assert_int_equal(pthread_create(&t, NULL, zl_test_io_thread, &a), 0);
	zl_test_wait_faults_fired(f->z, 1);   /* the rule fired: the reader is held */
	assert_int_equal(a.ret, -1);
	zdisk_release_stalls(f->z);
	pthread_join(t, NULL);
	assert_int_equal(a.ret, 0);
	assert_int_equal(zdisk_read(f->z, 0, 8, buf, &io), 0);  /* once: no more stalls */
	assert_false(io.stalled);
}

static void test_zdisk_fault_power_loss_drops_unflushed_state(void **state)
{
	struct fx *f = *state;
	uint8_t buf[8 * LBS] = { 0 };
	struct zl_stats s;

	assert_int_equal(open_disk(f, ZSTORE_FILE, true, true, "power-loss:op=flush,after=1"), 0);
	write_ok(f->z, 3 * ZS, 8, 1);
	assert_int_equal(zdisk_flush(f->z, NULL), 0);           /* after=1: passes */
	write_ok(f->z, 3 * ZS + 8, 8, 1);
	assert_int_equal(zdisk_flush(f->z, NULL), ZL_E_POWER_LOSS);
	assert_true(zone(f->z, 3).wp_lba == 3 * ZS + 8);
	zdisk_stats(f->z, &s);
	assert_int_equal(s.power_cycles, 1);
	/* the power is off until it comes back */
	assert_int_equal(zdisk_write(f->z, 3 * ZS + 8, 8, buf, false, NULL), ZL_E_POWER_LOSS);
	assert_int_equal(zdisk_power_cycle(f->z), 0);
	assert_int_equal(zdisk_write(f->z, 3 * ZS + 8, 8, buf, false, NULL), 0);
}

/*
 * A drive whose power is cut writes nothing more: after the rule fires every
 * read, write, flush and zone operation fails with ZL_E_POWER_LOSS and
 * changes nothing, until zdisk_power_cycle() brings the power back.  (Before,
 * the disk went on serving: of two copies of a btrfs DUP block written side
 * by side, the one after the power loss was stored and the other not, a
 * state the mount refuses; docs/NVME-ZNS.md.)
 */
static void test_zdisk_power_loss_serves_nothing_until_power_cycle(void **state)
{
	struct fx *f = *state;
	uint8_t buf[8 * LBS] = { 0 };
	struct zdisk_io io;
	struct zl_stats s;

	assert_int_equal(open_disk(f, ZSTORE_FILE, true, true, "power-loss:op=write,after=3"), 0);
	write_ok(f->z, 3 * ZS, 8, 1);
	assert_int_equal(zdisk_flush(f->z, NULL), 0);
	write_ok(f->z, 3 * ZS + 8, 8, 1);                        /* volatile */
	write_ok(f->z, 4 * ZS, 8, 1);                            /* volatile */
	assert_false(zdisk_powered_off(f->z));
	/* the third write meets the power loss: the unflushed writes are gone */
	assert_int_equal(zdisk_write(f->z, 5 * ZS, 8, buf, false, NULL), ZL_E_POWER_LOSS);
	assert_true(zdisk_powered_off(f->z));
	assert_true(zone(f->z, 3).wp_lba == 3 * ZS + 8);
	assert_true(zone(f->z, 4).wp_lba == 4 * ZS);
	/* the other copy, issued beside it, and the retried command store nothing */
	assert_int_equal(zdisk_write(f->z, 6 * ZS, 8, buf, false, &io), ZL_E_POWER_LOSS);
	assert_int_equal(io.done_lba, 0);
	assert_int_equal(zdisk_write(f->z, 5 * ZS, 8, buf, true, NULL), ZL_E_POWER_LOSS);
	assert_int_equal(zdisk_write(f->z, 3 * ZS + 8, 8, buf, false, NULL), ZL_E_POWER_LOSS);
	assert_int_equal(zdisk_read(f->z, 3 * ZS, 8, buf, NULL), ZL_E_POWER_LOSS);
	assert_int_equal(zdisk_read_try(f->z, 3 * ZS, 8, buf), 0);  /* declined */
	assert_int_equal(zdisk_flush(f->z, NULL), ZL_E_POWER_LOSS);
	assert_int_equal(zdisk_zone_op(f->z, ZL_ZOP_RESET, 3 * ZS, false, NULL), ZL_E_POWER_LOSS);
	assert_int_equal(zdisk_zone_op(f->z, ZL_ZOP_FINISH, 4 * ZS, false, NULL), ZL_E_POWER_LOSS);
	assert_true(zone(f->z, 3).wp_lba == 3 * ZS + 8);
	assert_true(zone(f->z, 5).wp_lba == 5 * ZS);
	assert_true(zone(f->z, 6).wp_lba == 6 * ZS);
	zdisk_stats(f->z, &s);
	assert_int_equal(s.power_cycles, 1);
	assert_int_equal(s.writes, 3);
	assert_int_equal(s.flushes, 1);
	/* the power comes back: the durable state, and commands served again */
	assert_int_equal(zdisk_power_cycle(f->z), 0);
	assert_false(zdisk_powered_off(f->z));
	expect_data(f->z, 3 * ZS, 8, 1);
	write_ok(f->z, 6 * ZS, 8, 2);
	write_ok(f->z, 3 * ZS + 8, 8, 2);
	assert_int_equal(zdisk_flush(f->z, NULL), 0);
	zdisk_stats(f->z, &s);
	assert_int_equal(s.power_cycles, 2);
	assert_int_equal(s.writes, 5);
}

static void test_zdisk_bad_fault_text_is_refused_at_open(void **state)
{
	struct fx *f = *state;
	struct zdisk_cfg c;
	char msg[256] = "";

	zdisk_cfg_init(&c);
	geo(&c.geo);
	c.faults = "medium-error:op=sideways";
	assert_int_equal(zdisk_open(&c, &f->z, msg, sizeof(msg)), ZL_E_FAULT_SYNTAX);
	assert_non_null(strstr(msg, "sideways"));
	assert_null(f->z);
	/* and a bad geometry */
	c.faults = NULL;
	c.geo.zone_cap_lba = ZS * 2;
	assert_int_equal(zdisk_open(&c, &f->z, msg, sizeof(msg)), ZL_E_GEOMETRY);
	assert_non_null(strstr(msg, "zone capacity"));
}

/*
 * Rules added and removed at run time: with no rules the I/O path skips
 * evaluation, so the first rule must take effect at once (on the file
 * store's direct pread/pwrite path too) and the last removal must end it.
 */
static void test_zdisk_fault_added_at_run_time_applies_until_removed(void **state)
{
	struct fx *f = *state;
	uint8_t buf[8 * LBS] = { 0 };
	char msg[256];
	struct zl_stats s;
	char *list;

	assert_int_equal(open_disk(f, ZSTORE_FILE, true, true, NULL), 0);
	write_ok(f->z, 3 * ZS, 8, 1);
	assert_int_equal(zdisk_fault_add(f->z, "medium-error:op=read|write,zone=3,repeat",
					 msg, sizeof(msg)), 0);
	assert_int_equal(zdisk_read(f->z, 3 * ZS, 8, buf, NULL), ZL_E_MEDIUM_READ);
	assert_int_equal(zdisk_write(f->z, 3 * ZS + 8, 8, buf, false, NULL), ZL_E_MEDIUM_WRITE);
	assert_true(zone(f->z, 3).wp_lba == 3 * ZS + 8);
	expect_zeros(f->z, 4 * ZS, 8);                         /* other zones: no match */
	list = zfault_list(zdisk_faults(f->z));
	assert_string_equal(list, "1: medium-error:op=read|write,zone=3,repeat (matched 2, fired 2)\n");
	free(list);
	assert_int_equal(zdisk_fault_remove(f->z, 1), 0);
	assert_int_equal(zdisk_fault_remove(f->z, 1), -ENOENT);
	expect_data(f->z, 3 * ZS, 8, 1);
	write_ok(f->z, 3 * ZS + 8, 8, 1);
	zdisk_stats(f->z, &s);
	assert_int_equal(s.faults_fired, 2);
	assert_int_equal(s.err_kind[ZL_E_MEDIUM_READ - ZL_E_BASE], 1);
	assert_int_equal(s.err_kind[ZL_E_MEDIUM_WRITE - ZL_E_BASE], 1);
	assert_int_equal(s.writes, 2);
}

/* ---- statistics ----------------------------------------------------------- */

static void test_zdisk_stats_count_operations_transitions_and_errors(void **state)
{
	struct fx *f = *state;
	uint8_t buf[8 * LBS] = { 0 };
	struct zl_stats s;
	char json[2048];

	assert_int_equal(open_disk(f, ZSTORE_MEM, true, true, NULL), 0);
	for (uint32_t i = 2; i < 8; i++)                       /* 6 implicit opens, max 4 */
		write_ok(f->z, i * ZS, 8, 1);
	assert_int_equal(zdisk_zone_op(f->z, ZL_ZOP_OPEN, 9 * ZS, false, NULL), 0);
	assert_int_equal(zdisk_zone_op(f->z, ZL_ZOP_CLOSE, 9 * ZS, false, NULL), 0);
	assert_int_equal(zdisk_zone_op(f->z, ZL_ZOP_FINISH, 7 * ZS, false, NULL), 0);
	assert_int_equal(zdisk_zone_op(f->z, ZL_ZOP_RESET, 0, true, NULL), 0);
	assert_int_equal(zdisk_read(f->z, 0, 8, buf, NULL), 0);
	assert_int_equal(zdisk_write(f->z, 3 * ZS + 1, 8, buf, false, NULL), ZL_E_UNALIGNED);
	zdisk_stats(f->z, &s);
	assert_int_equal(s.writes, 6);
	assert_int_equal(s.write_lbas, 48);
	assert_int_equal(s.reads, 1);
	assert_int_equal(s.imp_opens, 6);
	assert_int_equal(s.exp_opens, 1);
	assert_int_equal(s.imp_closes, 3);    /* two by writes, one by the explicit open */
	assert_int_equal(s.exp_closes, 1);
	assert_int_equal(s.finishes, 1);
	assert_int_equal(s.resets, 6);        /* zones 2..7 were written */
	assert_int_equal(s.zone_ops, 4);
	assert_int_equal(s.zop_open, 1);
	assert_int_equal(s.zop_close, 1);
	assert_int_equal(s.zop_finish, 1);
	assert_int_equal(s.zop_reset, 0);
	assert_int_equal(s.zop_reset_all, 1);
	assert_int_equal(s.zop_open_all + s.zop_close_all + s.zop_finish_all, 0);
	assert_int_equal(s.zop_zones, 3 + 6); /* three single-zone commands, RESET ALL moved 6 */
	assert_int_equal(s.errors, 1);
	assert_int_equal(s.err_kind[ZL_E_UNALIGNED - ZL_E_BASE], 1);
	assert_true(zl_stats_json(&s, json, sizeof(json)) > 0);
	assert_non_null(strstr(json, "\"writes\":6"));
	assert_non_null(strstr(json, "\"unaligned\":1"));
	assert_non_null(strstr(json, "\"zop_reset_all\":1,"));
	assert_non_null(strstr(json, "\"zop_zones\":9,"));
	assert_int_equal(zl_stats_json(&s, json, 10), -ENOSPC);
}

/* A reset that only clears an EMPTY zone's attributes is a reset; a no-op one is not. */
static void test_zdisk_reset_of_empty_zone_counts_only_when_it_clears_attributes(void **state)
{
	struct fx *f = *state;
	struct zl_stats s;

	assert_int_equal(open_disk(f, ZSTORE_MEM, true, true, NULL), 0);
	assert_int_equal(zdisk_zone_op(f->z, ZL_ZOP_RESET, 3 * ZS, false, NULL), 0);
	zdisk_stats(f->z, &s);
	assert_int_equal(s.resets, 0);
	zdisk_lock(f->z);
	assert_int_equal(zdev_zone_set_reset_rec(zdisk_zdev(f->z), 3, true), 0);
	zdisk_unlock(f->z);
	assert_true(zone(f->z, 3).reset_rec);
	assert_int_equal(zdisk_zone_op(f->z, ZL_ZOP_RESET, 3 * ZS, false, NULL), 0);
	assert_false(zone(f->z, 3).reset_rec);
	zdisk_stats(f->z, &s);
	assert_int_equal(s.resets, 1);
	assert_int_equal(s.zone_ops, 2);
	/* the commands count both: the host sent two RESETs (blktrace sees two) */
	assert_int_equal(s.zop_reset, 2);
	assert_int_equal(s.zop_zones, 2);
}

/*
 * Zone command counters: every successful command once, by operation and
 * ALL; no-op commands (RESET of EMPTY, FINISH of FULL, OPEN of an open zone,
 * ALL with nothing to do) count; failed commands do not.
 */
static void test_zdisk_zone_command_counters(void **state)
{
	struct fx *f = *state;
	struct zl_stats s;

	assert_int_equal(open_disk(f, ZSTORE_MEM, true, true, NULL), 0);
	write_ok(f->z, 4 * ZS, 8, 1);
	assert_int_equal(zdisk_zone_op(f->z, ZL_ZOP_FINISH, 4 * ZS, false, NULL), 0);
	assert_int_equal(zdisk_zone_op(f->z, ZL_ZOP_FINISH, 4 * ZS, false, NULL), 0);   /* FULL already */
	assert_int_equal(zdisk_zone_op(f->z, ZL_ZOP_OPEN, 5 * ZS, false, NULL), 0);
	assert_int_equal(zdisk_zone_op(f->z, ZL_ZOP_OPEN, 5 * ZS, false, NULL), 0);     /* open already */
	assert_int_equal(zdisk_zone_op(f->z, ZL_ZOP_CLOSE, 0, true, NULL), 0);          /* closes zone 5 */
	assert_int_equal(zdisk_zone_op(f->z, ZL_ZOP_OPEN, 0, true, NULL), 0);           /* nothing closed */
	assert_int_equal(zdisk_zone_op(f->z, ZL_ZOP_FINISH, 0, true, NULL), 0);
	assert_int_equal(zdisk_zone_op(f->z, ZL_ZOP_RESET, 6 * ZS, false, NULL), 0);    /* EMPTY */
	assert_int_equal(zdisk_zone_op(f->z, ZL_ZOP_RESET, 0, true, NULL), 0);          /* zone 4 */
	/* errors: not a zone start, past the end; counted as errors only */
	assert_int_equal(zdisk_zone_op(f->z, ZL_ZOP_RESET, 6 * ZS + 1, false, NULL), ZL_E_NOT_ZONE_START);
	assert_int_equal(zdisk_zone_op(f->z, ZL_ZOP_FINISH, 1ull << 40, false, NULL), ZL_E_LBA_RANGE);
	zdisk_stats(f->z, &s);
	assert_int_equal(s.zop_finish, 2);
	assert_int_equal(s.zop_open, 2);
	assert_int_equal(s.zop_close, 0);
	assert_int_equal(s.zop_close_all, 1);
	assert_int_equal(s.zop_open_all, 1);
	assert_int_equal(s.zop_finish_all, 1);
	assert_int_equal(s.zop_reset, 1);
	assert_int_equal(s.zop_reset_all, 1);
	assert_int_equal(s.zone_ops, 9);
	/* 5 single-zone commands; CLOSE ALL 1, OPEN ALL 0, FINISH ALL 0, RESET ALL 1 */
	assert_int_equal(s.zop_zones, 5 + 1 + 0 + 0 + 1);
	assert_int_equal(s.errors, 2);
	assert_int_equal(s.resets, 1);        /* transitions: only zone 4 moved */
	assert_int_equal(s.finishes, 1);
}

/* ---- scatter-gather ------------------------------------------------------- */

/* Cut @buf into pieces of awkward sizes (not block multiples). */
static int cut_iov(uint8_t *buf, size_t len, struct iovec *iov, int max)
{
	static const size_t sizes[] = { 100, 412, 1, 4096, 7, 3000, 512 };
	size_t off = 0;
	int n = 0;

	while (off < len && n < max) {
		size_t l = sizes[n % 7] < len - off ? sizes[n % 7] : len - off;

		iov[n].iov_base = buf + off;
		iov[n].iov_len = l;
		off += l;
		n++;
	}
	return n;
}

static void sg_round_trip(struct fx *f, enum zstore_kind kind)
{
	uint8_t *buf = malloc(40 * LBS), *out = malloc(40 * LBS), *want = malloc(40 * LBS);
	struct iovec iov[128];
	int n;

	assert_int_equal(open_disk(f, kind, true, true, NULL), 0);
	fill(buf, 3 * ZS, 24, 7);
	n = cut_iov(buf, 24 * LBS, iov, 128);
	assert_true(n > 5);
	assert_int_equal(zdisk_writev(f->z, 3 * ZS, 24, iov, n, false, NULL), 0);
	assert_true(zone(f->z, 3).wp_lba == 3 * ZS + 24);
	/* a read across the write pointer: 24 LBAs of data, then 16 of zeros */
	memset(out, 0xee, 40 * LBS);
	n = cut_iov(out, 40 * LBS, iov, 128);
	assert_int_equal(zdisk_readv(f->z, 3 * ZS, 40, iov, n, NULL), 0);
	memset(want, 0, 40 * LBS);
	if (kind != ZSTORE_NONE)
		fill(want, 3 * ZS, 24, 7);
	assert_memory_equal(out, want, 40 * LBS);
	/* a buffer shorter than the transfer is refused, nothing moves */
	iov[0].iov_len = 100;
	assert_int_equal(zdisk_writev(f->z, 3 * ZS + 24, 8, iov, 1, false, NULL), -EINVAL);
	assert_int_equal(zdisk_readv(f->z, 3 * ZS, 8, iov, 1, NULL), -EINVAL);
	assert_true(zone(f->z, 3).wp_lba == 3 * ZS + 24);
	free(buf);
	free(out);
	free(want);
}

static void test_zdisk_scatter_gather_file(void **state) { sg_round_trip(*state, ZSTORE_FILE); }
static void test_zdisk_scatter_gather_mem(void **state) { sg_round_trip(*state, ZSTORE_MEM); }
static void test_zdisk_scatter_gather_none(void **state) { sg_round_trip(*state, ZSTORE_NONE); }

static void test_zdisk_scatter_gather_many_pieces(void **state)
{
	struct fx *f = *state;
	uint8_t *buf = malloc(ZS * LBS), *out = malloc(ZS * LBS);
	struct iovec *iov = malloc(sizeof(*iov) * ZS * 2);

	assert_int_equal(open_disk(f, ZSTORE_FILE, true, true, NULL), 0);
	fill(buf, 4 * ZS, ZS, 2);
	for (uint32_t i = 0; i < ZS * 2; i++)       /* 512 pieces of 256 bytes */
		iov[i] = (struct iovec){ buf + i * 256, 256 };
	assert_int_equal(zdisk_writev(f->z, 4 * ZS, ZS, iov, ZS * 2, false, NULL), 0);
	for (uint32_t i = 0; i < ZS * 2; i++)
		iov[i] = (struct iovec){ out + i * 256, 256 };
	assert_int_equal(zdisk_readv(f->z, 4 * ZS, ZS, iov, ZS * 2, NULL), 0);
	assert_memory_equal(out, buf, ZS * LBS);
	assert_int_equal(zone(f->z, 4).cond, ZL_COND_FULL);
	free(buf);
	free(out);
	free(iov);
}

/* ---- concurrency ---------------------------------------------------------- */

struct writer_arg {
	struct zdisk *z;
	uint32_t zone;
	int errors;
};

static void *zone_writer(void *p)
{
	struct writer_arg *a = p;
	uint8_t buf[8 * LBS];

	for (uint32_t k = 0; k < ZS / 8; k++) {
		uint64_t lba = (uint64_t)a->zone * ZS + k * 8;

		fill(buf, lba, 8, 3);
		if (zdisk_write(a->z, lba, 8, buf, false, NULL))
			a->errors++;
	}
	return NULL;
}

static void test_zdisk_concurrent_writers_on_distinct_zones(void **state)
{
	struct fx *f = *state;
	struct zdisk_cfg c;
	struct writer_arg a[8];
	pthread_t t[8];
	char msg[128];

	zdisk_cfg_init(&c);
	geo(&c.geo);
	c.geo.max_open = 0;
	assert_int_equal(zdisk_open(&c, &f->z, msg, sizeof(msg)), 0);
	for (int i = 0; i < 8; i++) {
		a[i] = (struct writer_arg){ f->z, (uint32_t)(4 + i), 0 };
		assert_int_equal(pthread_create(&t[i], NULL, zone_writer, &a[i]), 0);
	}
	for (int i = 0; i < 8; i++) {
		pthread_join(t[i], NULL);
		assert_int_equal(a[i].errors, 0);
		assert_int_equal(zone(f->z, 4 + (uint32_t)i).cond, ZL_COND_FULL);
		expect_data(f->z, (uint64_t)(4 + i) * ZS, ZS, 3);
	}
}

/*
 * Reads run without the lock when nothing else is going on (a snapshot
 * checked by a sequence count).  Readers racing a writer of the same zone
 * must see exactly the data below the write pointer the writer published,
 * never an error; readers racing a zone going OFFLINE must fail every read
 * that starts after the change returned; and the read count must add up.
 *
 * The phases end by the readers' progress, not by the clock: each reader has
 * read the full zone RACE_READS times before the zone goes OFFLINE, and has
 * started RACE_READS reads after the change returned before it stops, however
 * the host schedules the threads.  No assertion runs while a thread of the
 * test does: every thread is stopped and joined first (an assertion leaving a
 * reader running freed the disk under it at teardown, and the process died
 * without its message).
 */
#define RACE_READS 64
#define RACE_STALL_NS (60 * 1000000000ull)   /* a reader stuck this long: a hang */

struct race {
	struct zdisk *z;
	uint64_t wp;           /* published by the writer: data below it is complete */
	bool offline;          /* set after zdisk_zone_set_cond(OFFLINE) returned */
	bool stop;
	uint64_t ok;           /* reads of data, started before OFFLINE (atomic: polled) */
	uint64_t nr_off;       /* reads started after OFFLINE (atomic: polled) */
	uint64_t stale_ok, offline_errs, bad;
	char what[160];
};

/*
 * zdisk_read_try() on [lba, lba + n).  Declined (0): @buf and every count
 * as they were.  Done (1): one read of n LBAs counted.  A store error:
 * counted once as an error, nothing as a read.
 */
static int try_read(struct zdisk *z, uint64_t lba, uint64_t n, uint8_t *buf)
{
	struct zl_stats before, after;
	int ret;

	zdisk_stats(z, &before);
	memset(buf, 0xee, 16 * LBS);
	ret = zdisk_read_try(z, lba, n, buf);
	zdisk_stats(z, &after);
	assert_int_equal(after.reads, before.reads + (ret > 0));
	assert_int_equal(after.read_lbas, before.read_lbas + (ret > 0 ? n : 0));
	assert_int_equal(after.errors, before.errors + (ret < 0));
	if (!ret)
		for (size_t i = 0; i < 16 * LBS; i++)
			assert_int_equal(buf[i], 0xee);
	return ret;
}

static void test_zdisk_read_try_takes_data_declines_untouched_reports_store_errors(void **state)
{
	struct fx *f = *state;
	uint8_t buf[16 * LBS], want[16 * LBS];
	uint64_t cap = (uint64_t)ZS * NZ;
	struct zl_stats st;
	char msg[256];
	struct stat sb;

	assert_int_equal(open_disk(f, ZSTORE_FILE, true, true, NULL), 0);
	write_ok(f->z, 2 * ZS, 16, 3);
	write_ok(f->z, 5 * ZS, 8, 4);
	write_ok(f->z, ZS + 8, 4, 6);                          /* conventional zone 1 */
	assert_int_equal(try_read(f->z, 2 * ZS + 3, 13, buf), 1);
	fill(want, 2 * ZS + 3, 13, 3);
	assert_memory_equal(buf, want, 13 * LBS);
	assert_int_equal(try_read(f->z, ZS + 8, 4, buf), 1);   /* conventional: all data */
	fill(want, ZS + 8, 4, 6);
	assert_memory_equal(buf, want, 4 * LBS);
	assert_int_equal(try_read(f->z, ZS - 4, 4, buf), 1);
	/* declined: the locked path decides these */
	assert_int_equal(try_read(f->z, 2 * ZS, 17, buf), 0);  /* past the write pointer */
	assert_int_equal(try_read(f->z, 2 * ZS + 16, 1, buf), 0);
	assert_int_equal(try_read(f->z, 3 * ZS, 1, buf), 0);   /* empty zone */
	assert_int_equal(try_read(f->z, ZS - 4, 8, buf), 0);   /* two zones */
	assert_int_equal(try_read(f->z, 2 * ZS, 0, buf), 0);
	assert_int_equal(try_read(f->z, cap, 1, buf), 0);
	assert_int_equal(try_read(f->z, cap - 1, 2, buf), 0);
	zdisk_lock(f->z);                                      /* a critical section runs */
	assert_int_equal(zdisk_read_try(f->z, 2 * ZS, 8, buf), 0);
	zdisk_unlock(f->z);
	assert_int_equal(zdisk_fault_add(f->z, "latency:op=write,ms=1", msg, sizeof(msg)), 0);
	assert_int_equal(try_read(f->z, 2 * ZS, 8, buf), 0);   /* any fault rule */
	assert_int_equal(zdisk_fault_remove(f->z, 1), 0);
	assert_int_equal(try_read(f->z, 2 * ZS, 8, buf), 1);
	assert_int_equal(zdisk_zone_set_cond(f->z, 5, ZL_COND_OFFLINE), 0);
	assert_int_equal(try_read(f->z, 5 * ZS, 8, buf), 0);
	assert_int_equal(zdisk_read(f->z, 5 * ZS, 8, buf, NULL), ZL_E_OFFLINE);
	/*
	 * A store failure is the try's to report, once: the image cut 4 LBAs
	 * into zone 2's data, so the read fails part-way.
	 */
	assert_int_equal(stat(f->path, &sb), 0);
	assert_int_equal(truncate(f->path, sb.st_size - (off_t)(NZ - 2) * ZS * LBS + 4 * LBS), 0);
	assert_int_equal(try_read(f->z, 2 * ZS, 8, buf), -EIO);
	assert_int_equal(zdisk_read(f->z, 2 * ZS, 8, buf, NULL), -EIO);
	zdisk_stats(f->z, &st);
	assert_int_equal(st.reads, 4);
	assert_int_equal(st.errors, 3);                        /* OFFLINE, EIO twice */
	assert_int_equal(st.err_kind[ZL_E_OFFLINE - ZL_E_BASE], 1);
	assert_int_equal(try_read(f->z, 2 * ZS, 4, buf), 1);   /* what the file still holds */
	fill(want, 2 * ZS, 4, 3);
	assert_memory_equal(buf, want, 4 * LBS);
}

static void test_zdisk_read_try_leaves_memory_stores_to_the_locked_path(void **state)
{
	struct fx *f = *state;
	uint8_t buf[16 * LBS];

	assert_int_equal(open_disk(f, ZSTORE_MEM, true, true, NULL), 0);
	write_ok(f->z, 2 * ZS, 8, 3);
	assert_int_equal(try_read(f->z, 2 * ZS, 8, buf), 0);
	expect_data(f->z, 2 * ZS, 8, 3);
}

static void *race_writer(void *p)
{
	struct race *r = p;
	uint8_t buf[8 * LBS];

	for (uint64_t lba = 4 * ZS; lba < 5 * ZS; lba += 8) {
		fill(buf, lba, 8, 5);
		if (zdisk_write(r->z, lba, 8, buf, false, NULL)) {
			__atomic_store_n(&r->bad, 1, __ATOMIC_RELAXED);
			break;
		}
		__atomic_store_n(&r->wp, lba + 8, __ATOMIC_RELEASE);
	}
	return NULL;
}

static void *race_reader(void *p)
{
	struct race *r = p;
	uint8_t buf[8 * LBS], want[8 * LBS];
	uint64_t seed = (uint64_t)(uintptr_t)p ^ 0x9e3779b97f4a7c15ull;

	while (!__atomic_load_n(&r->stop, __ATOMIC_ACQUIRE)) {
		uint64_t wp = __atomic_load_n(&r->wp, __ATOMIC_ACQUIRE), lba, n;
		bool off = __atomic_load_n(&r->offline, __ATOMIC_ACQUIRE);
		int ret;

		if (wp <= 4 * ZS) {
			sched_yield();
			continue;
		}
		lba = 4 * ZS + zl_test_rand(&seed) % (wp - 4 * ZS);
		n = wp - lba < 8 ? wp - lba : 8;
		ret = zdisk_read(r->z, lba, n, buf, NULL);
		if (off)
			__atomic_add_fetch(&r->nr_off, 1, __ATOMIC_RELEASE);
		if (ret == 0 && !off) {
			fill(want, lba, n, 5);
			if (memcmp(buf, want, n * LBS)) {
				snprintf(r->what, sizeof(r->what), "read %" PRIu64 "+%" PRIu64
					 " below wp %" PRIu64 ": wrong data", lba, n, wp);
				r->bad++;
			}
			__atomic_add_fetch(&r->ok, 1, __ATOMIC_RELEASE);
		} else if (ret == 0) {
			r->stale_ok++;             /* after OFFLINE: must never happen */
		} else if (ret == ZL_E_OFFLINE) {
			r->offline_errs++;         /* (may race the change: any time after it began) */
		} else {
			snprintf(r->what, sizeof(r->what), "read %" PRIu64 "+%" PRIu64 ": %d", lba, n,
				 ret);
			r->bad++;
		}
	}
	return NULL;
}

/*
 * Wait until every reader has made RACE_READS reads of data (@after_off
 * false) or started RACE_READS reads after OFFLINE (true).  False (and @why
 * filled) if one made no progress for RACE_STALL_NS: a hang, not a slow host.
 */
static bool race_wait(struct race *rd, int nr, bool after_off, char *why, size_t len)
{
	const char *what = after_off ? "reads after OFFLINE" : "reads of data";
	const uint64_t want = RACE_READS;

	for (int i = 0; i < nr; i++) {
		uint64_t *ctr = after_off ? &rd[i].nr_off : &rd[i].ok, last = 0;
		uint64_t since = zl_test_now_ns();

		for (;;) {
			uint64_t v = __atomic_load_n(ctr, __ATOMIC_ACQUIRE);

			if (v >= want)
				break;
			if (v != last) {
				last = v;
				since = zl_test_now_ns();
			} else if (zl_test_now_ns() - since > RACE_STALL_NS) {
				snprintf(why, len, "reader %d: %s stuck at %" PRIu64 " of %" PRIu64
					 " for %llu s", i, what, v, want,
					 (unsigned long long)(RACE_STALL_NS / 1000000000ull));
				return false;
			}
			sched_yield();
		}
	}
	return true;
}

static void test_zdisk_lock_free_reads_race_writes_and_offline_exactly(void **state)
{
	struct fx *f = *state;
	struct race rd[2] = { { 0 } }, w = { 0 };
	pthread_t tw, tr[2];
	struct zl_stats st;
	uint64_t ok = 0, offline_errs = 0;
	char why[160] = "";
	int off_ret = -1;

	assert_int_equal(open_disk(f, ZSTORE_FILE, true, true, NULL), 0);
	w.z = f->z;
	for (int i = 0; i < 2; i++) {
		rd[i].z = f->z;
		assert_int_equal(pthread_create(&tr[i], NULL, race_reader, &rd[i]), 0);
	}
	assert_int_equal(pthread_create(&tw, NULL, race_writer, &w), 0);
	/* the readers follow the writer's published write pointer */
	for (;;) {
		uint64_t wp = __atomic_load_n(&w.wp, __ATOMIC_ACQUIRE);

		for (int i = 0; i < 2; i++)
			__atomic_store_n(&rd[i].wp, wp, __ATOMIC_RELEASE);
		if (wp == 5 * ZS || __atomic_load_n(&w.bad, __ATOMIC_RELAXED))
			break;
		sched_yield();
	}
	pthread_join(tw, NULL);
	/* reads of the full zone, then reads after OFFLINE, by progress */
	if (!w.bad && race_wait(rd, 2, false, why, sizeof(why))) {
		off_ret = zdisk_zone_set_cond(f->z, 4, ZL_COND_OFFLINE);
		for (int i = 0; i < 2; i++)
			__atomic_store_n(&rd[i].offline, true, __ATOMIC_RELEASE);
		if (!off_ret)
			race_wait(rd, 2, true, why, sizeof(why));
	}
	/* every thread stopped before any assertion */
	for (int i = 0; i < 2; i++)
		__atomic_store_n(&rd[i].stop, true, __ATOMIC_RELEASE);
	for (int i = 0; i < 2; i++)
		pthread_join(tr[i], NULL);
	assert_int_equal(w.bad, 0);
	if (why[0])
		fail_msg("%s", why);
	assert_int_equal(off_ret, 0);
	for (int i = 0; i < 2; i++) {
		if (rd[i].bad)
			fail_msg("reader %d: %s", i, rd[i].what);
		assert_int_equal(rd[i].stale_ok, 0);
		assert_true(rd[i].ok >= RACE_READS);
		assert_true(rd[i].nr_off >= RACE_READS);
		ok += rd[i].ok;
		offline_errs += rd[i].offline_errs;
	}
	/* the reads that started after OFFLINE all failed, and some racing it may have */
	assert_true(offline_errs >= rd[0].nr_off + rd[1].nr_off);
	zdisk_stats(f->z, &st);
	/* every read counted once, the lock-free ones too, and the refused ones as errors */
	assert_int_equal(st.reads, ok);
	assert_int_equal(st.err_kind[ZL_E_OFFLINE - ZL_E_BASE], offline_errs);
	assert_int_equal(st.errors, offline_errs);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_zdisk_mem_round_trip),
		T(test_zdisk_file_round_trip),
		T(test_zdisk_none_drops_data_but_keeps_zones),
		T(test_zdisk_reset_zone_reads_zeros_not_stale_data),
		T(test_zdisk_errors_keep_their_reason),
		T(test_zdisk_file_reopen_gives_same_zones_open_ones_closed),
		T(test_zdisk_reopen_with_other_geometry_is_refused),
		T(test_zdisk_power_cycle_drops_unflushed_writes_with_wce),
		T(test_zdisk_power_cycle_keeps_every_completed_write_without_wce),
		T(test_zdisk_fua_write_survives_power_cycle_with_wce),
		T(test_zdisk_zone_ops_durable_on_completion_without_wce),
		T(test_zdisk_zone_ops_durable_at_flush_with_wce),
		T(test_zdisk_turning_wce_off_flushes),
		T(test_zdisk_reset_without_wce_punches_every_zone_including_the_runt),
		T(test_zdisk_fault_medium_error_on_write_moves_nothing),
		T(test_zdisk_fault_medium_write_at_first_lba_opens_the_zone),
		T(test_zdisk_fault_medium_error_on_read_range),
		T(test_zdisk_fault_medium_read_transfers_lbas_before_the_failing_one),
		T(test_zdisk_fault_medium_write_stores_lbas_before_the_failing_one),
		T(test_zdisk_fault_medium_error_past_first_lba_after_zone_rules),
		T(test_zdisk_fault_zone_turns_read_only_then_offline),
		T(test_zdisk_fault_torn_write_stores_and_commits_a_prefix),
		T(test_zdisk_fault_latency_reported_in_virtual_time),
		T(test_zdisk_fault_stall_holds_command_until_released),
		T(test_zdisk_fault_power_loss_drops_unflushed_state),
		T(test_zdisk_power_loss_serves_nothing_until_power_cycle),
		T(test_zdisk_bad_fault_text_is_refused_at_open),
		T(test_zdisk_fault_added_at_run_time_applies_until_removed),
		T(test_zdisk_stats_count_operations_transitions_and_errors),
		T(test_zdisk_reset_of_empty_zone_counts_only_when_it_clears_attributes),
		T(test_zdisk_zone_command_counters),
		T(test_zdisk_scatter_gather_file),
		T(test_zdisk_scatter_gather_mem),
		T(test_zdisk_scatter_gather_none),
		T(test_zdisk_scatter_gather_many_pieces),
		T(test_zdisk_concurrent_writers_on_distinct_zones),
		T(test_zdisk_lock_free_reads_race_writes_and_offline_exactly),
		T(test_zdisk_read_try_takes_data_declines_untouched_reports_store_errors),
		T(test_zdisk_read_try_leaves_memory_stores_to_the_locked_path),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
