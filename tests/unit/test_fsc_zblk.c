/*
 * test_fsc_zblk.c — zblk: the in-process implementation over the real zone
 * model (data-less), the one over an emulated disk (MEM store: stamp blocks
 * stored and read back, append, counters, fault rules surfacing as zdisk's
 * reasons), and the argument handling of the Linux ioctl one (this
 * machine's kernel has no zoned block support: its ioctl paths are only
 * compile-tested).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <linux/blkzoned.h>

#include <string.h>

#include "zblk.h"
#include "zdev.h"
#include "zdisk.h"

struct fx {
	struct zdev *d;
	struct zblk *b;
};

#define ZONE_LBA 2048u  /* 1 MiB of 512 B */

static int setup(void **state)
{
	static struct fx fx;
	struct zdev_cfg cfg;

	zdev_cfg_init(&cfg);
	cfg.capacity_lba = 16 * ZONE_LBA;
	cfg.zone_size_lba = ZONE_LBA;
	cfg.nr_conv_start = 1;
	assert_int_equal(zdev_create(&cfg, &fx.d), 0);
	assert_int_equal(zblk_zdev_create(fx.d, true, &fx.b), 0);
	*state = &fx;
	return 0;
}

static int teardown(void **state)
{
	struct fx *fx = *state;

	zblk_destroy(fx->b);
	zdev_destroy(fx->d);
	return 0;
}

static void test_zblk_zdev_geometry_in_bytes(void **state)
{
	struct fx *fx = *state;

	assert_true(zblk_is_zoned(fx->b));
	assert_int_equal(fx->b->zone_size_bytes, 1 << 20);
	assert_int_equal(fx->b->nr_zones, 16);
	assert_int_equal(fx->b->capacity_bytes, 16 << 20);
}

static void test_zblk_zdev_report_types_and_wp(void **state)
{
	struct fx *fx = *state;
	struct zblk_zone z[20];

	assert_int_equal(zblk_report(fx->b, 0, z, 20), 16);
	assert_int_equal(z[0].type, ZL_ZONE_TYPE_CONV);
	assert_true(z[0].wp_bytes == UINT64_MAX);
	assert_int_equal(z[1].type, ZL_ZONE_TYPE_SWR);
	assert_int_equal(z[1].cond, ZL_COND_EMPTY);
	assert_int_equal(z[1].wp_bytes, 1 << 20);
	assert_int_equal(zblk_report(fx->b, 15u << 20, z, 20), 1);
	assert_int_equal(zblk_report(fx->b, 16u << 20, z, 20), 0);
}

static void test_zblk_zdev_write_moves_wp_and_unaligned_is_refused(void **state)
{
	struct fx *fx = *state;
	struct zblk_zone z;

	assert_int_equal(zblk_write(fx->b, 1 << 20, NULL, 8192), 0);
	assert_int_equal(zblk_zone_get(fx->b, 1 << 20, &z), 0);
	assert_int_equal(z.wp_bytes, (1 << 20) + 8192);
	assert_int_equal(zblk_write(fx->b, (1 << 20) + 16384, NULL, 4096), ZL_E_UNALIGNED);
	assert_int_equal(fx->b->nr_write_errors, 1);
	assert_int_equal(fx->b->last_write_err, ZL_E_UNALIGNED);
	assert_int_equal(zblk_write(fx->b, 4096, NULL, 4096), 0);  /* conventional */
}

static void test_zblk_zdev_append_returns_position(void **state)
{
	struct fx *fx = *state;
	uint64_t pos;

	assert_int_equal(zblk_append(fx->b, 2 << 20, NULL, 4096, &pos), 0);
	assert_int_equal(pos, 2 << 20);
	assert_int_equal(zblk_append(fx->b, 2 << 20, NULL, 4096, &pos), 0);
	assert_int_equal(pos, (2 << 20) + 4096);
	assert_int_equal(zblk_append(fx->b, (2 << 20) + 4096, NULL, 4096, &pos),
			 ZL_E_NOT_ZONE_START);
	assert_int_equal(fx->b->nr_writes, 2);
	assert_int_equal(fx->b->write_bytes, 8192);
	assert_int_equal(fx->b->nr_write_errors, 1);
}

static void test_zblk_zdev_append_refusals_keep_their_reason(void **state)
{
	struct fx *fx = *state;
	struct zblk *r;
	uint64_t pos = 7;

	assert_int_equal(zblk_append(fx->b, 0, NULL, 4096, &pos), ZL_E_NOT_WP_ZONE);
	assert_int_equal(zblk_append(fx->b, 16u << 20, NULL, 4096, &pos), ZL_E_LBA_RANGE);
	assert_int_equal(zblk_zone_mgmt(fx->b, ZL_ZOP_FINISH, 4u << 20), 0);
	assert_int_equal(zblk_append(fx->b, 4u << 20, NULL, 4096, &pos), ZL_E_ZONE_FULL);
	assert_int_equal(zblk_append(fx->b, 5u << 20, NULL, 100, &pos), -EINVAL);  /* < 1 block */
	assert_int_equal(pos, 7);  /* only set on success */
	assert_int_equal(fx->b->nr_write_errors, 4);
	assert_int_equal(fx->b->last_write_err, -EINVAL);
	assert_int_equal(fx->b->nr_writes, 0);
	/* a regular device has no zone append: not counted as a refusal */
	assert_int_equal(zblk_zdev_create(fx->d, false, &r), 0);
	assert_int_equal(zblk_append(r, 4u << 20, NULL, 4096, &pos), -EOPNOTSUPP);
	assert_int_equal(r->nr_write_errors, 0);
	zblk_destroy(r);
}

static void test_zblk_zdev_reset_finish(void **state)
{
	struct fx *fx = *state;
	struct zblk_zone z;

	assert_int_equal(zblk_write(fx->b, 3 << 20, NULL, 4096), 0);
	assert_int_equal(zblk_zone_mgmt(fx->b, ZL_ZOP_FINISH, 3 << 20), 0);
	assert_int_equal(zblk_zone_get(fx->b, 3 << 20, &z), 0);
	assert_int_equal(z.cond, ZL_COND_FULL);
	assert_int_equal(zblk_zone_mgmt(fx->b, ZL_ZOP_RESET, 3 << 20), 0);
	assert_int_equal(zblk_zone_get(fx->b, 3 << 20, &z), 0);
	assert_int_equal(z.cond, ZL_COND_EMPTY);
	assert_int_equal(z.wp_bytes, 3 << 20);
	assert_int_equal(zblk_zone_mgmt(fx->b, ZL_ZOP_RESET, 0), ZL_E_NOT_WP_ZONE);
	assert_int_equal(zblk_flush(fx->b), 0);
}

static void test_zblk_zdev_as_regular_device_reports_nothing(void **state)
{
	struct fx *fx = *state;
	struct zblk *r;
	struct zblk_zone z;

	assert_int_equal(zblk_zdev_create(fx->d, false, &r), 0);
	assert_false(zblk_is_zoned(r));
	assert_int_equal(r->zone_size_bytes, 0);
	assert_int_equal(zblk_report(r, 0, &z, 1), -EOPNOTSUPP);
	zblk_destroy(r);
}

static void test_zblk_linux_zone_range_converts_and_checks(void **state)
{
	uint64_t s, n;

	assert_int_equal(zblk_linux_zone_range(2 << 20, 1 << 20, 16 << 20, &s, &n), 0);
	assert_int_equal(s, 4096);
	assert_int_equal(n, 2048);
	assert_int_equal(zblk_linux_zone_range((2 << 20) + 512, 1 << 20, 16 << 20, &s, &n),
			 -EINVAL);
	assert_int_equal(zblk_linux_zone_range(100, 1 << 20, 16 << 20, &s, &n), -EINVAL);
	assert_int_equal(zblk_linux_zone_range(16 << 20, 1 << 20, 16 << 20, &s, &n), -EINVAL);
	assert_int_equal(zblk_linux_zone_range(0, 0, 16 << 20, &s, &n), -EINVAL);
	/* runt last zone */
	assert_int_equal(zblk_linux_zone_range(15 << 20, 1 << 20, (15 << 20) + 4096, &s, &n), 0);
	assert_int_equal(n, 8);
}

static void test_zblk_linux_zone_ioctls(void **state)
{
	assert_int_equal(zblk_linux_zone_ioctl(ZL_ZOP_RESET), BLKRESETZONE);
#ifdef BLKOPENZONE
	assert_int_equal(zblk_linux_zone_ioctl(ZL_ZOP_OPEN), BLKOPENZONE);
	assert_int_equal(zblk_linux_zone_ioctl(ZL_ZOP_CLOSE), BLKCLOSEZONE);
	assert_int_equal(zblk_linux_zone_ioctl(ZL_ZOP_FINISH), BLKFINISHZONE);
#endif
}

static void test_zblk_linux_open_refuses_non_block_files(void **state)
{
	struct zblk *b = NULL;

	assert_int_equal(zblk_linux_open("/dev/null", &b), -ENOTBLK);
	assert_null(b);
	assert_int_equal(zblk_linux_open("/nonexistent/zonelab", &b), -ENOENT);
}

/* A MEM-store disk of 16 x 1 MiB zones (4 KiB LBAs, zone 0 conventional). */
static struct zdisk *mem_disk(const char *faults)
{
	struct zdisk_cfg c;
	struct zdisk *z;
	char msg[256];

	zdisk_cfg_init(&c);
	c.geo.lba_size = 4096;
	c.geo.zone_size_lba = 256;
	c.geo.capacity_lba = 16 * 256;
	c.geo.nr_conv_start = 1;
	c.store.kind = ZSTORE_MEM;
	c.wce = true;
	c.seed = 1;
	c.faults = faults;
	assert_int_equal(zdisk_open(&c, &z, msg, sizeof(msg)), 0);
	return z;
}

static void test_zblk_zdisk_stores_stamps_and_counts(void **state)
{
	struct zdisk *z = mem_disk(NULL);
	struct zblk *b;
	struct zblk_zone zz;
	uint64_t buf[3 * 512], pos;

	assert_int_equal(zblk_zdisk_create(z, &b), 0);
	assert_int_equal(b->nr_zones, 16);
	assert_int_equal(b->zone_size_bytes, 1 << 20);
	assert_int_equal(zblk_zone_get(b, 1 << 20, &zz), 0);
	assert_int_equal(zz.type, ZL_ZONE_TYPE_SWR);
	assert_int_equal(zz.wp_bytes, 1 << 20);
	/* NULL buffer: each 4 KiB stores its own offset */
	assert_int_equal(zblk_write(b, 1 << 20, NULL, 3 * 4096), 0);
	assert_int_equal(zblk_read(b, 1 << 20, buf, sizeof(buf)), 0);
	assert_int_equal(buf[0], 1 << 20);
	assert_int_equal(buf[512], (1 << 20) + 4096);
	assert_int_equal(buf[1024], (1 << 20) + 8192);
	assert_int_equal(zblk_append(b, 1 << 20, NULL, 4096, &pos), 0);
	assert_int_equal(pos, (1 << 20) + 3 * 4096);
	assert_int_equal(zblk_read(b, pos, buf, 4096), 0);  /* stamped where it went */
	assert_int_equal(buf[0], pos);
	assert_int_equal(zblk_append(b, 0, NULL, 4096, &pos), ZL_E_NOT_WP_ZONE);
	/* the zone rules are zdisk's */
	assert_int_equal(zblk_write(b, 1 << 20, NULL, 4096), ZL_E_UNALIGNED);
	assert_int_equal(b->nr_writes, 2);
	assert_int_equal(b->write_bytes, 4 * 4096);
	assert_int_equal(b->nr_write_errors, 2);
	assert_int_equal(b->last_write_err, ZL_E_UNALIGNED);
	assert_int_equal(b->nr_reads, 2);
	assert_int_equal(zblk_zone_mgmt(b, ZL_ZOP_RESET, 1 << 20), 0);
	assert_int_equal(zblk_zone_get(b, 1 << 20, &zz), 0);
	assert_int_equal(zz.cond, ZL_COND_EMPTY);
	zblk_destroy(b);
	zdisk_close(z);
}

/* NULL reads and stamps share one scratch buffer: a stamp after a NULL read
 * is still "its offset, then zeros", not the data read. */
static void test_zblk_zdisk_stamp_after_null_read_is_zero_past_the_offset(void **state)
{
	struct zdisk *z = mem_disk(NULL);
	struct zblk *b;
	uint8_t data[2 * 4096], back[2 * 4096];
	uint64_t off, pos;
	size_t i;

	memset(data, 0xa5, sizeof(data));
	assert_int_equal(zblk_zdisk_create(z, &b), 0);
	assert_int_equal(zblk_write(b, 1 << 20, data, sizeof(data)), 0);
	assert_int_equal(zblk_read(b, 1 << 20, NULL, sizeof(data)), 0);
	assert_int_equal(zblk_append(b, 2 << 20, NULL, sizeof(back), &pos), 0);
	assert_int_equal(pos, 2 << 20);
	assert_int_equal(zblk_read(b, pos, back, sizeof(back)), 0);
	for (off = 0; off < sizeof(back); off += 4096) {
		uint64_t stamp;

		memcpy(&stamp, back + off, sizeof(stamp));
		assert_int_equal(stamp, pos + off);
		for (i = 8; i < 4096; i++)
			assert_int_equal(back[off + i], 0);
	}
	zblk_destroy(b);
	zdisk_close(z);
}

static void test_zblk_zdisk_faults_surface_as_their_reasons(void **state)
{
	struct zdisk *z = mem_disk("medium-error:op=write,after=1;torn-write:op=write,after=2;"
				   "latency:op=read,us=100,repeat");
	struct zblk *b;
	struct zblk_zone zz;

	assert_int_equal(zblk_zdisk_create(z, &b), 0);
	assert_int_equal(zblk_write(b, 1 << 20, NULL, 8192), 0);
	assert_int_equal(zblk_write(b, (1 << 20) + 8192, NULL, 8192), ZL_E_MEDIUM_WRITE);
	/* the failed write did not move the write pointer; the torn one stores a prefix */
	assert_int_equal(zblk_write(b, (1 << 20) + 8192, NULL, 8192), ZL_E_TORN_WRITE);
	assert_int_equal(zblk_zone_get(b, 1 << 20, &zz), 0);
	assert_int_equal(zz.wp_bytes, (1 << 20) + 8192 + 4096);
	assert_int_equal(b->nr_write_errors, 2);
	assert_int_equal(b->last_write_err, ZL_E_TORN_WRITE);
	assert_int_equal(zblk_read(b, 1 << 20, NULL, 4096), 0);
	assert_int_equal(b->last_delay_ns, 100000);
	zblk_destroy(b);
	zdisk_close(z);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_zblk_zdev_geometry_in_bytes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_zblk_zdev_report_types_and_wp, setup, teardown),
		cmocka_unit_test_setup_teardown(test_zblk_zdev_write_moves_wp_and_unaligned_is_refused,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_zblk_zdev_append_returns_position, setup, teardown),
		cmocka_unit_test_setup_teardown(test_zblk_zdev_append_refusals_keep_their_reason,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_zblk_zdev_reset_finish, setup, teardown),
		cmocka_unit_test_setup_teardown(test_zblk_zdev_as_regular_device_reports_nothing,
						setup, teardown),
		cmocka_unit_test(test_zblk_linux_zone_range_converts_and_checks),
		cmocka_unit_test(test_zblk_linux_zone_ioctls),
		cmocka_unit_test(test_zblk_linux_open_refuses_non_block_files),
		cmocka_unit_test(test_zblk_zdisk_stores_stamps_and_counts),
		cmocka_unit_test(test_zblk_zdisk_stamp_after_null_read_is_zero_past_the_offset),
		cmocka_unit_test(test_zblk_zdisk_faults_surface_as_their_reasons),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
