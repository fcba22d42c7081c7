/*
 * test_zdisk_crash.c — crash consistency of file-backed disks under
 * SIGKILL at random instants.
 *
 * A forked writer appends 8-LBA writes to seeded zones of an image and, in a
 * shared page, records what it was promised is durable: with the write
 * cache off, every completed write; with it on, every write completed
 * before a completed flush.  The parent kills it after a seeded random
 * delay, reopens the image and checks the durability rule:
 *   - no write pointer is behind what was promised durable;
 *   - every LBA below a write pointer holds the data the writer wrote
 *     (so no write pointer ran ahead of data that was not stored);
 *   - the image passes zdisk_check().
 * The kill schedule is seeded (ZL_CRASH_SEED, ZL_CRASH_KILLS); the instant
 * a kill lands within the writer's work is up to the OS.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "zdisk.h"
#include "zl_test.h"

#define NZ 64u
#define ZS 256u
#define LBS 512u
#define WR 8u

struct shared {
	uint32_t gen;                  /* data generation: bumped at each device reset */
	uint32_t full;                 /* the writer found no room left */
	uint64_t durable_wp[NZ];       /* per zone: LBAs from the zone start promised durable */
	uint64_t writes;
	uint32_t started;              /* the writer opened the disk and read its zones */
};

static void pattern(uint8_t *buf, uint32_t gen, uint64_t lba, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		uint64_t tag = ((uint64_t)gen << 48) | (lba + i);

		for (uint32_t b = 0; b < LBS; b += 8)
			memcpy(buf + i * LBS + b, &tag, 8);
	}
}

static int open_img(const char *path, bool create, bool wce, struct zdisk **z)
{
	struct zdisk_cfg c;
	char msg[256];
	int ret;

	zdisk_cfg_init(&c);
	c.store.kind = ZSTORE_FILE;
	c.store.path = path;
	c.store.create = create;
	c.store.force = create;
	c.wce = wce;
	if (create) {
		c.geo.capacity_lba = (uint64_t)NZ * ZS;
		c.geo.zone_size_lba = ZS;
		c.geo.max_open = 8;
	} else {
		c.use_image_geo = true;
	}
	ret = zdisk_open(&c, z, msg, sizeof(msg));
	if (ret)
		fprintf(stderr, "open %s: %s\n", path, msg);
	return ret;
}

/* The writer: runs until killed or the device is full. */
static void writer(const char *path, bool wce, uint64_t seed, struct shared *sh)
{
	uint64_t wp[NZ], st = seed;
	uint8_t buf[WR * LBS];
	struct zdisk *z;
	unsigned nwrites = 0;

	if (open_img(path, false, wce, &z))
		_exit(3);
	for (uint32_t i = 0; i < NZ; i++) {
		struct zl_zone_info zi;

		if (zdisk_report(z, (uint64_t)i * ZS, ZL_RO_ALL, &zi, 1, NULL) != 1)
			_exit(4);
		wp[i] = zi.cond == ZL_COND_FULL ? ZS : zi.wp_lba - zi.start_lba;
	}
	/* the kill's random delay counts from here: the open and the zone
	 * scan take longer than the whole delay on a loaded host */
	__atomic_store_n(&sh->started, 1, __ATOMIC_RELEASE);
	for (;;) {
		uint32_t zi = (uint32_t)(zl_test_rand(&st) % NZ), tries = 0;
		uint64_t lba;

		while (wp[zi] >= ZS && tries++ < NZ)
			zi = (zi + 1) % NZ;
		if (wp[zi] >= ZS) {
			sh->full = 1;
			zdisk_close(z);
			_exit(0);
		}
		lba = (uint64_t)zi * ZS + wp[zi];
		pattern(buf, sh->gen, lba, WR);
		if (zdisk_write(z, lba, WR, buf, false, NULL))
			_exit(5);
		wp[zi] += WR;
		sh->writes++;
		if (!wce) {
			sh->durable_wp[zi] = wp[zi];
		} else if (++nwrites % 4 == 0) {
			uint64_t snap[NZ];

			memcpy(snap, wp, sizeof(snap));
			if (zdisk_flush(z, NULL))
				_exit(6);
			memcpy(sh->durable_wp, snap, sizeof(snap));
		}
	}
}

/* Check the durability rule on the reopened image; returns zones full. */
static uint32_t verify(const char *path, struct shared *sh, int kill_nr)
{
	uint8_t *got = malloc(ZS * LBS), *want = malloc(ZS * LBS);
	struct zdisk *z;
	uint32_t nfull = 0;
	char msg[512];

	assert_int_equal(open_img(path, false, true, &z), 0);
	for (uint32_t i = 0; i < NZ; i++) {
		struct zl_zone_info zi;
		uint64_t wp;

		assert_int_equal(zdisk_report(z, (uint64_t)i * ZS, ZL_RO_ALL, &zi, 1, NULL), 1);
		assert_true(zi.cond == ZL_COND_EMPTY || zi.cond == ZL_COND_CLOSED ||
			    zi.cond == ZL_COND_FULL);
		wp = zi.cond == ZL_COND_FULL ? ZS : zi.wp_lba - zi.start_lba;
		if (wp < sh->durable_wp[i])
			fail_msg("kill %d: zone %u write pointer %lu behind durable %lu", kill_nr, i,
				 (unsigned long)wp, (unsigned long)sh->durable_wp[i]);
		if (wp) {
			assert_int_equal(zdisk_read(z, zi.start_lba, wp, got, NULL), 0);
			pattern(want, sh->gen, zi.start_lba, (uint32_t)wp);
			if (memcmp(got, want, wp * LBS))
				fail_msg("kill %d: zone %u holds data below its write pointer %lu that was never stored",
					 kill_nr, i, (unsigned long)wp);
		}
		if (wp == ZS)
			nfull++;
	}
	if (zdisk_check(z, msg, sizeof(msg)))
		fail_msg("kill %d: check: %s", kill_nr, msg);
	if (nfull == NZ || sh->full) {
		assert_int_equal(zdisk_zone_op(z, ZL_ZOP_RESET, 0, true, NULL), 0);
		sh->gen++;
		sh->full = 0;
		memset(sh->durable_wp, 0, sizeof(sh->durable_wp));
	}
	zdisk_close(z);
	free(got);
	free(want);
	return nfull;
}

static void run_kills(bool wce, int kills, uint64_t seed, uint32_t max_delay_us)
{
	char *dir = zl_test_mkdtemp("crash");
	char path[512];
	struct shared *sh;
	struct zdisk *z;
	uint64_t st = seed;

	assert_non_null(dir);
	snprintf(path, sizeof(path), "%s/crash.img", dir);
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	assert_true(sh != MAP_FAILED);
	memset(sh, 0, sizeof(*sh));
	assert_int_equal(open_img(path, true, wce, &z), 0);
	zdisk_close(z);

	for (int k = 0; k < kills; k++) {
		uint32_t delay = (uint32_t)(zl_test_rand(&st) % max_delay_us);
		struct timespec ts = { 0, (long)delay * 1000 };
		int status;
		pid_t pid;

		pid_t done = 0;

		fflush(NULL);
		__atomic_store_n(&sh->started, 0, __ATOMIC_RELEASE);
		pid = fork();
		assert_true(pid >= 0);
		if (pid == 0)
			writer(path, wce, zl_test_rand(&st) ^ (uint64_t)k, sh);
		/* wait (up to 60 s) until the writer is writing, or gone */
		for (int w = 0; w < 600000 && !done &&
				!__atomic_load_n(&sh->started, __ATOMIC_ACQUIRE); w++) {
			struct timespec poll = { 0, 100000 };

			done = waitpid(pid, &status, WNOHANG);
			assert_true(done >= 0);
			if (!done)
				nanosleep(&poll, NULL);
		}
		if (!done) {
			if (!__atomic_load_n(&sh->started, __ATOMIC_ACQUIRE))
				fail_msg("kill %d: the writer did not start writing within 60 s", k);
			nanosleep(&ts, NULL);
			kill(pid, SIGKILL);
			assert_int_equal(waitpid(pid, &status, 0), pid);
		}
		if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
			fail_msg("kill %d: writer failed with exit code %d", k, WEXITSTATUS(status));
		verify(path, sh, k);
	}
	print_message("%d kills (%s), %lu writes acknowledged in all, %u device generations\n",
		      kills, wce ? "write cache on" : "write cache off",
		      (unsigned long)sh->writes, sh->gen + 1);
	assert_true(sh->writes > 0);
	munmap(sh, sizeof(*sh));
	zl_test_rmdir(dir);
	free(dir);
}

static int nr_kills(void)
{
	const char *s = getenv("ZL_CRASH_KILLS");

	return s ? atoi(s) : 200;
}

static uint64_t crash_seed(void)
{
	const char *s = getenv("ZL_CRASH_SEED");

	return s ? strtoull(s, NULL, 0) : 0x2ba5eedull;
}

static void test_zdisk_crash_wce_off_every_completed_write_survives_kill(void **state)
{
	(void)state;
	run_kills(false, nr_kills(), crash_seed(), 20000);
}

static void test_zdisk_crash_wce_on_every_flushed_write_survives_kill(void **state)
{
	(void)state;
	run_kills(true, nr_kills(), crash_seed() + 1, 6000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zdisk_crash_wce_off_every_completed_write_survives_kill),
		cmocka_unit_test(test_zdisk_crash_wce_on_every_flushed_write_survives_kill),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
