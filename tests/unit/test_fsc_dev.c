/*
 * test_fsc_dev.c — fs-core device level: zone information and its
 * zone-count sanity check (seed 002), the HMZONED mode checks (003),
 * superblock copies only in conventional zones (004) and the two-zone
 * superblock log, fallocate / device replace refused (005, 006); the
 * error names and texts.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "fsc_test_util.h"

static void test_fsc_zone_info_bitmaps_from_report(void **state)
{
	struct tdevs t;
	struct fsc_dev dev;

	tdevs_init(&t, 1, 8, 2);
	assert_int_equal(zblk_write(t.b[0], 3u << 20, NULL, 4096), 0);
	assert_int_equal(fsc_dev_zone_info(&dev, t.b[0]), 0);
	assert_int_equal(dev.zone_bytes, T_ZONE_BYTES);
	assert_int_equal(dev.nr_zones, 8);
	assert_false(fsc_bit(dev.seq_bits, 0));
	assert_false(fsc_bit(dev.seq_bits, 1));
	assert_true(fsc_bit(dev.seq_bits, 2));
	assert_true(fsc_bit(dev.empty_bits, 2));
	assert_false(fsc_bit(dev.empty_bits, 3));
	assert_false(fsc_bit(dev.empty_bits, 0));  /* conventional: never "empty" */
	fsc_dev_fini(&dev);
	tdevs_fini(&t);
}

/* A device whose REPORT ZONES gives 2 MiB zones though its zone size is 1 MiB. */
static const struct zblk_ops *real_ops;
static int double_report(struct zblk *b, uint64_t pos, struct zblk_zone *out, uint32_t max)
{
	int n = real_ops->report(b, pos, out, 1);

	if (n > 0)
		out[0].len_bytes *= 2;
	return n;
}

static int empty_report(struct zblk *b, uint64_t pos, struct zblk_zone *out, uint32_t max)
{
	return 0;
}

static void test_fsc_zone_info_count_mismatch_is_zone_count_error(void **state)
{
	struct tdevs t;
	struct fsc_dev dev;
	struct zblk_ops ops;

	tdevs_init(&t, 1, 8, 0);
	real_ops = t.b[0]->ops;
	ops = *real_ops;
	ops.report = double_report;
	t.b[0]->ops = &ops;
	assert_int_equal(fsc_dev_zone_info(&dev, t.b[0]), FSC_E_ZONE_COUNT);  /* 4 != 8 */
	ops.report = empty_report;
	assert_int_equal(fsc_dev_zone_info(&dev, t.b[0]), -EIO);  /* report gave nothing */
	t.b[0]->ops = real_ops;
	tdevs_fini(&t);
}

static void test_fsc_mode_checks_turn_off_space_cache_and_tree_log(void **state)
{
	struct tdevs t;
	struct fsc_cfg cfg;
	struct fsc *fs;

	tdevs_init(&t, 2, 16, 1);
	tcfg(&cfg, &t, FSC_RAID1);
	assert_int_equal(fsc_create(&cfg, &fs), 0);
	assert_false(fsc_space_cache_on(fs));
	assert_false(fsc_tree_log_on(fs));
	assert_int_equal(fsc_zone_bytes(fs), T_ZONE_BYTES);
	fsc_destroy(fs);
	tdevs_fini(&t);
}

static void test_fsc_mode_refuses_different_zone_sizes(void **state)
{
	struct tdevs t;
	struct fsc_cfg cfg;
	struct fsc *fs = NULL;
	struct zdev_cfg zc;
	struct zdev *d;
	struct zblk *b;

	tdevs_init(&t, 1, 16, 1);
	zdev_cfg_init(&zc);
	zc.capacity_lba = 16 * 2 * T_ZONE_LBA;
	zc.zone_size_lba = 2 * T_ZONE_LBA;
	assert_int_equal(zdev_create(&zc, &d), 0);
	assert_int_equal(zblk_zdev_create(d, true, &b), 0);
	tcfg(&cfg, &t, FSC_RAID1);
	cfg.nr_devs = 2;
	cfg.devs[1] = b;
	assert_int_equal(fsc_create(&cfg, &fs), FSC_E_ZONE_SIZE);
	assert_null(fs);
	zblk_destroy(b);
	zdev_destroy(d);
	tdevs_fini(&t);
}

static void test_fsc_mode_refuses_zoned_mixed_with_regular(void **state)
{
	struct tdevs t;
	struct fsc_cfg cfg;
	struct fsc *fs = NULL;
	struct zblk *regular;

	tdevs_init(&t, 2, 16, 1);
	assert_int_equal(zblk_zdev_create(t.d[1], false, &regular), 0);
	tcfg(&cfg, &t, FSC_RAID1);
	cfg.devs[1] = regular;
	assert_int_equal(fsc_create(&cfg, &fs), FSC_E_MIXED_DEVS);
	cfg.devs[0] = regular;  /* no zoned device at all */
	assert_int_equal(fsc_create(&cfg, &fs), FSC_E_NO_ZONED_DEV);
	cfg.hmzoned = false;    /* a regular file system on regular devices is fine */
	assert_int_equal(fsc_create(&cfg, &fs), 0);
	assert_true(fsc_space_cache_on(fs));
	fsc_destroy(fs);
	cfg.devs[0] = t.b[0];   /* host-managed device without HMZONED */
	assert_int_equal(fsc_create(&cfg, &fs), -EINVAL);
	zblk_destroy(regular);
	tdevs_fini(&t);
}

static void test_fsc_mode_refuses_raid56(void **state)
{
	struct tdevs t;
	struct fsc_cfg cfg;
	struct fsc *fs = NULL;

	tdevs_init(&t, 3, 16, 1);
	tcfg(&cfg, &t, FSC_SINGLE);
	cfg.data_profile = FSC_RAID5;
	assert_int_equal(fsc_create(&cfg, &fs), FSC_E_RAID56);
	cfg.data_profile = FSC_SINGLE;
	cfg.meta_profile = FSC_RAID6;
	assert_int_equal(fsc_create(&cfg, &fs), FSC_E_RAID56);
	assert_null(fs);
	tdevs_fini(&t);
}

static void test_fsc_superblock_only_in_conventional_zones(void **state)
{
	struct tdevs t;
	struct fsc_cfg cfg;
	struct fsc *fs;
	struct zl_zone_info zi;

	/* 128 x 1 MiB: mirror 0 at 64 KiB (zone 0), mirror 1 at 64 MiB (zone 64) */
	tdevs_init(&t, 1, 128, 1);
	tcfg(&cfg, &t, FSC_SINGLE);
	assert_int_equal(fsc_create(&cfg, &fs), 0);
	assert_int_equal(fs->devs[0].sb_pos[0], 65536);
	assert_true(fs->devs[0].sb_pos[1] == FSC_NO_ADDR);  /* zone 64 is sequential */
	assert_false(fs->devs[0].sb_log);
	assert_int_equal(fsc_sb_write(fs), 0);
	assert_int_equal(fsc_sb_write(fs), 0);  /* in place: conventional */
	assert_int_equal(fsc_stats(fs)->dev_bytes[FSC_KIND_SB], 2 * FSC_SB_BYTES);
	zdev_zone_get(t.d[0], 64, &zi);
	assert_int_equal(zi.cond, ZL_COND_EMPTY);
	fsc_destroy(fs);
	tdevs_fini(&t);
}

static void test_fsc_superblock_log_ring_on_two_sequential_zones(void **state)
{
	struct tdevs t;
	struct fsc_cfg cfg;
	struct fsc *fs;
	struct zblk_zone z[2];
	uint64_t pos, alt;
	uint32_t i, per_zone = T_ZONE_BYTES / FSC_SB_BYTES;

	tdevs_init(&t, 1, 16, 0);  /* no conventional zone */
	tcfg(&cfg, &t, FSC_SINGLE);
	assert_int_equal(fsc_create(&cfg, &fs), 0);
	assert_true(fs->devs[0].sb_log);
	for (i = 0; i < per_zone + 3; i++)
		assert_int_equal(fsc_sb_write(fs), 0);
	assert_int_equal(zblk_report(t.b[0], 0, z, 2), 2);
	assert_int_equal(z[0].cond, ZL_COND_FULL);
	assert_int_equal(z[1].wp_bytes, T_ZONE_BYTES + 3 * FSC_SB_BYTES);
	assert_int_equal(fsc_sb_log_locate(&z[0], &z[1], &pos, &alt), 1);
	assert_int_equal(pos, T_ZONE_BYTES + 2 * FSC_SB_BYTES);
	/* fill zone 1: the next write resets zone 0 and continues there */
	for (i = 3; i < per_zone; i++)
		assert_int_equal(fsc_sb_write(fs), 0);
	assert_int_equal(zblk_report(t.b[0], 0, z, 2), 2);
	assert_int_equal(fsc_sb_log_locate(&z[0], &z[1], &pos, &alt), 2);  /* both full */
	assert_int_equal(fsc_sb_write(fs), 0);
	assert_int_equal(zblk_report(t.b[0], 0, z, 2), 2);
	assert_int_equal(z[0].wp_bytes, FSC_SB_BYTES);
	assert_int_equal(fsc_sb_log_locate(&z[0], &z[1], &pos, &alt), 1);
	assert_int_equal(pos, 0);
	assert_int_equal(fsc_stats(fs)->nr_zone_resets, 1);
	fsc_destroy(fs);
	tdevs_fini(&t);
}

static void test_fsc_sb_log_locate_empty_is_enoent(void **state)
{
	struct zblk_zone z0 = { 0, 1 << 20, 1 << 20, 0, ZL_ZONE_TYPE_SWR, ZL_COND_EMPTY };
	struct zblk_zone z1 = { 1 << 20, 1 << 20, 1 << 20, 1 << 20, ZL_ZONE_TYPE_SWR, ZL_COND_EMPTY };
	uint64_t pos, alt;

	assert_int_equal(fsc_sb_log_locate(&z0, &z1, &pos, &alt), -ENOENT);
}

static void test_fsc_fallocate_and_replace_refused_in_hmzoned(void **state)
{
	struct tdevs t;
	struct fsc_cfg cfg;
	struct fsc *fs;

	tdevs_init(&t, 2, 16, 1);
	tcfg(&cfg, &t, FSC_SINGLE);
	assert_int_equal(fsc_create(&cfg, &fs), 0);
	assert_int_equal(fsc_fallocate(fs, 0, 4096), -EOPNOTSUPP);
	assert_int_equal(fsc_dev_replace(fs, 0, t.b[1]), -EOPNOTSUPP);
	fsc_destroy(fs);
	tdevs_fini(&t);
}

static void test_fsc_errors_have_names_and_texts_of_their_own(void **state)
{
	int e, f;

	for (e = FSC_E_BASE + 1; e < FSC_E_LAST; e++) {
		assert_non_null(fsc_errname(e));
		assert_non_null(fsc_strerror(e));
		for (f = FSC_E_BASE + 1; f < e; f++) {
			assert_string_not_equal(fsc_errname(e), fsc_errname(f));
			assert_string_not_equal(fsc_strerror(e), fsc_strerror(f));
		}
	}
	assert_string_equal(fsc_errname(FSC_E_WP_MISMATCH), "wp_mismatch");
	assert_string_equal(fsc_strerror(FSC_E_EXPIRED), "bio submit buffer expired");
	/* zl's codes and errno pass through */
	assert_string_equal(fsc_errname(ZL_E_UNALIGNED), zl_errname(ZL_E_UNALIGNED));
	assert_string_equal(fsc_strerror(-EIO), zl_strerror(-EIO));
	assert_string_equal(fsc_errname(-ENOSPC), "enospc");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fsc_zone_info_bitmaps_from_report),
		cmocka_unit_test(test_fsc_zone_info_count_mismatch_is_zone_count_error),
		cmocka_unit_test(test_fsc_mode_checks_turn_off_space_cache_and_tree_log),
		cmocka_unit_test(test_fsc_mode_refuses_different_zone_sizes),
		cmocka_unit_test(test_fsc_mode_refuses_zoned_mixed_with_regular),
		cmocka_unit_test(test_fsc_mode_refuses_raid56),
		cmocka_unit_test(test_fsc_superblock_only_in_conventional_zones),
		cmocka_unit_test(test_fsc_superblock_log_ring_on_two_sequential_zones),
		cmocka_unit_test(test_fsc_sb_log_locate_empty_is_enoent),
		cmocka_unit_test(test_fsc_fallocate_and_replace_refused_in_hmzoned),
		cmocka_unit_test(test_fsc_errors_have_names_and_texts_of_their_own),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
