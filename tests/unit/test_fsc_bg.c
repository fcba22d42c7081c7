/*
 * test_fsc_bg.c — fs-core device extents and block groups: zone-aligned
 * extents over empty zones only, first zone skipped, stripe = zone (007);
 * sequential allocation and its offset, freed space not reused until the
 * block group is reset, reset of unused block groups (008, cover letter);
 * write-pointer recovery after a simulated crash (in-memory state dropped,
 * remount from the chunk table and the zones alone) for every profile, and
 * each of the RFC's recovery errors.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "fsc_test_util.h"

static void test_fsc_dev_extent_skips_first_zone_and_used_zones(void **state)
{
	struct tdevs t;
	struct fsc_cfg cfg;
	struct fsc *fs;
	uint64_t phys;

	tdevs_init(&t, 1, 8, 0);
	assert_int_equal(zblk_write(t.b[0], 3u << 20, NULL, 4096), 0);  /* zone 3 not empty */
	tcfg(&cfg, &t, FSC_SINGLE);
	cfg.sb_log = true;  /* zones 0, 1 */
	assert_int_equal(fsc_create(&cfg, &fs), 0);
	assert_int_equal(fsc_dev_extent_find(fs, 0, 1, &phys), 0);
	assert_int_equal(phys, 2u << 20);
	assert_int_equal(fsc_dev_extent_find(fs, 0, 1, &phys), 0);
	assert_int_equal(phys, 4u << 20);                /* 3 was not empty */
	assert_int_equal(fsc_dev_extent_find(fs, 0, 2, &phys), 0);
	assert_int_equal(phys % T_ZONE_BYTES, 0);
	assert_int_equal(fsc_dev_extent_find(fs, 0, 2, &phys), -ENOSPC);  /* only zone 7 left */
	fsc_destroy(fs);
	tdevs_fini(&t);
}

static void test_fsc_bg_stripe_is_one_zone_per_profile(void **state)
{
	static const struct { enum fsc_profile p; uint32_t nr_stripes, data; } cases[] = {
		{ FSC_SINGLE, 1, 1 }, { FSC_DUP, 2, 1 }, { FSC_RAID1, 2, 1 },
		{ FSC_RAID0, 4, 4 }, { FSC_RAID10, 4, 2 },
	};
	uint32_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct tdevs t;
		struct fsc_cfg cfg;
		struct fsc *fs;
		struct fsc_bg *bg;

		tdevs_init(&t, 4, 16, 1);
		tcfg(&cfg, &t, cases[i].p);
		assert_int_equal(fsc_create(&cfg, &fs), 0);
		assert_int_equal(fsc_bg_create(fs, FSC_BG_DATA, 0, &bg), 0);
		assert_int_equal(bg->nr_stripes, cases[i].nr_stripes);
		assert_int_equal(bg->len_bytes, cases[i].data * T_ZONE_BYTES);
		assert_int_equal(bg->alloc_type, FSC_ALLOC_SEQ);
		if (cases[i].p == FSC_DUP)
			assert_int_equal(bg->stripes[0].dev, bg->stripes[1].dev);
		if (cases[i].p == FSC_RAID1)
			assert_int_not_equal(bg->stripes[0].dev, bg->stripes[1].dev);
		fsc_destroy(fs);
		tdevs_fini(&t);
	}
}

/* A block group of @p on @nr_devs devices: fsc_bg_create()'s result. */
static int bg_create_on(enum fsc_profile p, uint32_t nr_devs)
{
	struct tdevs t;
	struct fsc_cfg cfg;
	struct fsc *fs;
	struct fsc_bg *bg;
	int ret;

	tdevs_init(&t, nr_devs, 16, 1);
	tcfg(&cfg, &t, p);
	assert_int_equal(fsc_create(&cfg, &fs), 0);
	ret = fsc_bg_create(fs, FSC_BG_DATA, 0, &bg);
	fsc_destroy(fs);
	tdevs_fini(&t);
	return ret;
}

/* fsc_profile_min_devs() is what fsc_bg_create() needs (the simulator
 * checks its options with it): one device fewer is FSC_E_BAD_PROFILE. */
static void test_fsc_bg_profile_needs_devices(void **state)
{
	static const struct { enum fsc_profile p; uint32_t min; } cases[] = {
		{ FSC_SINGLE, 1 }, { FSC_DUP, 1 }, { FSC_RAID1, 2 }, { FSC_RAID0, 2 },
		{ FSC_RAID10, 4 },
	};
	uint32_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(fsc_profile_min_devs(cases[i].p), cases[i].min);
		assert_int_equal(bg_create_on(cases[i].p, cases[i].min), 0);
		if (cases[i].min > 1)
			assert_int_equal(bg_create_on(cases[i].p, cases[i].min - 1),
					 FSC_E_BAD_PROFILE);
	}
	/* the hypothetical RAID5/6 (cfg.raid56_model; refused without it) */
	assert_int_equal(fsc_profile_min_devs(FSC_RAID5), 3);
	assert_int_equal(fsc_profile_min_devs(FSC_RAID6), 4);
}

static void test_fsc_seq_alloc_ignores_freed_space_until_reset(void **state)
{
	struct tdevs t;
	struct fsc_cfg cfg;
	struct fsc *fs;
	struct fsc_bg *bg, *bg2;
	uint64_t a, b, c, start;
	uint32_t free0, i;

	tdevs_init(&t, 1, 8, 1);
	tcfg(&cfg, &t, FSC_SINGLE);
	assert_int_equal(fsc_create(&cfg, &fs), 0);
	free0 = fsc_min_free_zones(fs);
	assert_int_equal(free0, 7);  /* zone 0 conventional */
	assert_int_equal(fsc_alloc(fs, FSC_BG_DATA, 4096, 0, 0, &bg, &a), 0);
	assert_int_equal(fsc_alloc(fs, FSC_BG_DATA, 8192, 1, 0, &bg2, &b), 0);
	assert_ptr_equal(bg, bg2);
	start = bg->start;
	assert_int_equal(a, start);
	assert_int_equal(b, start + 4096);
	fsc_free_extent(fs, a, 4096, 0);
	assert_int_equal(fsc_alloc(fs, FSC_BG_DATA, 4096, 3, 0, &bg2, &c), 0);
	assert_int_equal(c, start + 12288);  /* not at the freed 'a' */
	assert_int_equal(fsc_bg_alloc_offset(bg), 16384);
	assert_int_equal(fsc_bg_used_bytes(bg), 12288);
	/* fill the block group, write nothing else live, free all: reset */
	for (i = 4; i < T_ZONE_BYTES / 4096; i++)
		assert_int_equal(fsc_alloc(fs, FSC_BG_DATA, 4096, i, 0, &bg2, &c), 0);
	assert_true(bg->alloc_done);
	bg->nr_inflight = 0;  /* as if every write completed */
	assert_int_equal(fsc_min_free_zones(fs), free0 - 1);
	fsc_free_extent(fs, start + 4096, T_ZONE_BYTES - 4096, 100);
	assert_null(fsc_bg_lookup(fs, start));
	assert_int_equal(fsc_min_free_zones(fs), free0);
	assert_int_equal(fsc_stats(fs)->nr_zone_resets, 1);
	assert_int_equal(fsc_stats(fs)->bg_life_ns_max, 100);
	fsc_destroy(fs);
	tdevs_fini(&t);
}

/* Write @nr_blocks file blocks and commit, synchronously; no crash yet. */
static void write_some(struct fsc *fs, uint32_t nr_blocks, uint32_t per_bio)
{
	struct fsc_bio *bio, *list, *next;
	uint32_t i;
	int n;

	for (i = 0; i + per_bio <= nr_blocks; i += per_bio) {
		assert_int_equal(fsc_write_file(fs, i, per_bio, i, &bio), 0);
		assert_int_equal(fsc_submit(fs, bio, i), 0);
	}
	n = fsc_commit_start(fs, i, &list);
	assert_true(n > 0);
	for (bio = list; bio; bio = next) {
		next = bio->next;
		assert_int_equal(fsc_submit(fs, bio, i), 0);
	}
	assert_int_equal(fsc_commit_finish(fs, i), 0);
}

static void crash_and_remount(enum fsc_profile p, uint32_t nr_devs, uint32_t nr_blocks,
			      uint32_t per_bio)
{
	struct tdevs t;
	struct fsc_cfg cfg;
	struct fsc *fs;
	struct fsc_chunk chunks[64];
	uint64_t written[64];
	uint32_t nr, i, free_zones;

	tdevs_init(&t, nr_devs, 64, 1);
	tcfg(&cfg, &t, p);
	cfg.file_bytes = 8u << 20;
	cfg.leaf_items = 16;
	cfg.tree_fanout = 4;
	assert_int_equal(fsc_create(&cfg, &fs), 0);
	write_some(fs, nr_blocks, per_bio);
	assert_int_equal(fsc_stats(fs)->nr_dev_errors, 0);
	nr = fsc_chunks(fs, chunks, 64);
	assert_true(nr >= 2);  /* data and metadata */
	for (i = 0; i < nr; i++)
		written[i] = fs->bgs[i]->submit_offset - fs->bgs[i]->start;
	free_zones = fsc_min_free_zones(fs);
	fsc_destroy(fs);  /* crash: every in-memory offset is gone */
	assert_int_equal(fsc_mount(&cfg, chunks, nr, &fs), 0);
	for (i = 0; i < nr; i++) {
		struct fsc_bg *bg = fsc_bg_lookup(fs, chunks[i].start);

		assert_non_null(bg);
		assert_int_equal(bg->alloc_type, FSC_ALLOC_SEQ);
		assert_int_equal(fsc_bg_alloc_offset(bg), written[i]);
		assert_int_equal(bg->submit_offset, bg->start + written[i]);
	}
	assert_int_equal(fsc_min_free_zones(fs), free_zones);
	/* the file system goes on writing after the remount, into zones the
	 * chunks do not hold: the devices refuse nothing */
	write_some(fs, nr_blocks, per_bio);
	assert_int_equal(fsc_stats(fs)->nr_dev_errors, 0);
	assert_true(fs->nr_bgs > nr);
	fsc_destroy(fs);
	tdevs_fini(&t);
}

static void test_fsc_recover_single(void **s) { crash_and_remount(FSC_SINGLE, 1, 300, 1); }
static void test_fsc_recover_dup(void **s) { crash_and_remount(FSC_DUP, 1, 300, 2); }
static void test_fsc_recover_raid1(void **s) { crash_and_remount(FSC_RAID1, 2, 300, 1); }
static void test_fsc_recover_raid0(void **s) { crash_and_remount(FSC_RAID0, 3, 333, 1); }
static void test_fsc_recover_raid0_partial_row(void **s) { crash_and_remount(FSC_RAID0, 2, 20, 1); }
static void test_fsc_recover_raid10(void **s) { crash_and_remount(FSC_RAID10, 4, 290, 3); }

/* One chunk over zone @z of each of @nr devices. */
static void chunk_of(struct fsc_chunk *c, enum fsc_profile p, uint32_t nr, uint32_t z)
{
	uint32_t i;

	memset(c, 0, sizeof(*c));
	c->start = 1u << 20;
	c->type = FSC_BG_DATA;
	c->profile = p;
	c->nr_stripes = nr;
	c->sub_stripes = p == FSC_RAID10 ? 2 : 1;
	c->len_bytes = (p == FSC_RAID0 ? nr : p == FSC_RAID10 ? nr / 2 : 1) * (uint64_t)T_ZONE_BYTES;
	for (i = 0; i < nr; i++) {
		c->stripes[i].dev = p == FSC_DUP ? 0 : i;
		c->stripes[i].phys = (uint64_t)(z + (p == FSC_DUP ? i : 0)) * T_ZONE_BYTES;
	}
}

static int mount_one(struct tdevs *t, const struct fsc_chunk *c, struct fsc **fs)
{
	struct fsc_cfg cfg;

	tcfg(&cfg, t, c->profile);
	return fsc_mount(&cfg, c, 1, fs);
}

static void test_fsc_mount_takes_chunk_zones_out_of_the_pool(void **state)
{
	struct tdevs t;
	struct fsc_chunk c;
	struct fsc *fs = NULL;
	uint64_t phys;
	uint32_t i;

	tdevs_init(&t, 1, 16, 1);
	chunk_of(&c, FSC_SINGLE, 1, 4);  /* zone 4, never written */
	assert_int_equal(mount_one(&t, &c, &fs), 0);
	assert_int_equal(fsc_bg_alloc_offset(fsc_bg_lookup(fs, c.start)), 0);
	assert_int_equal(fsc_min_free_zones(fs), 14);  /* zones 1..15 less zone 4 */
	for (i = 0; i < 14; i++) {
		assert_int_equal(fsc_dev_extent_find(fs, 0, 1, &phys), 0);
		assert_int_not_equal(phys, 4u << 20);
	}
	assert_int_equal(fsc_dev_extent_find(fs, 0, 1, &phys), -ENOSPC);
	assert_int_equal(fsc_min_free_zones(fs), 0);
	fsc_destroy(fs);
	fs = NULL;
	chunk_of(&c, FSC_SINGLE, 1, 16);  /* one zone past the end of the device */
	assert_int_equal(mount_one(&t, &c, &fs), -EINVAL);
	assert_null(fs);
	tdevs_fini(&t);
}

static void test_fsc_recover_raid1_mismatch(void **state)
{
	struct tdevs t;
	struct fsc_chunk c;
	struct fsc *fs = NULL;

	tdevs_init(&t, 2, 16, 1);
	chunk_of(&c, FSC_RAID1, 2, 4);
	assert_int_equal(zblk_write(t.b[0], 4u << 20, NULL, 8192), 0);
	assert_int_equal(zblk_write(t.b[1], 4u << 20, NULL, 4096), 0);
	assert_int_equal(mount_one(&t, &c, &fs), FSC_E_WP_MISMATCH);
	assert_null(fs);
	tdevs_fini(&t);
}

static void test_fsc_recover_raid0_stripe_ahead_is_mismatch(void **state)
{
	struct tdevs t;
	struct fsc_chunk c;
	struct fsc *fs = NULL;

	tdevs_init(&t, 2, 16, 1);
	chunk_of(&c, FSC_RAID0, 2, 4);
	assert_int_equal(zblk_write(t.b[1], 4u << 20, NULL, 4096), 0);  /* stripe 1 before 0 */
	assert_int_equal(mount_one(&t, &c, &fs), FSC_E_WP_MISMATCH);
	tdevs_fini(&t);
}

static void test_fsc_recover_raid10_mirror_mismatch(void **state)
{
	struct tdevs t;
	struct fsc_chunk c;
	struct fsc *fs = NULL;

	tdevs_init(&t, 4, 16, 1);
	chunk_of(&c, FSC_RAID10, 4, 4);
	assert_int_equal(zblk_write(t.b[0], 4u << 20, NULL, 8192), 0);
	assert_int_equal(zblk_write(t.b[1], 4u << 20, NULL, 4096), 0);
	assert_int_equal(mount_one(&t, &c, &fs), FSC_E_WP_MISMATCH);
	tdevs_fini(&t);
}

static void test_fsc_recover_missing_device(void **state)
{
	struct tdevs t;
	struct fsc_chunk c;
	struct fsc_cfg cfg;
	struct fsc *fs = NULL;
	struct fsc_bg *bg;

	tdevs_init(&t, 2, 16, 1);
	chunk_of(&c, FSC_RAID0, 2, 4);
	tcfg(&cfg, &t, FSC_RAID0);
	cfg.devs[1] = NULL;
	assert_int_equal(fsc_mount(&cfg, &c, 1, &fs), FSC_E_DEV_MISSING);
	/* RAID1 recovers from the mirror that is there */
	chunk_of(&c, FSC_RAID1, 2, 5);
	assert_int_equal(zblk_write(t.b[0], 5u << 20, NULL, 8192), 0);
	cfg.data_profile = cfg.meta_profile = FSC_RAID1;
	assert_int_equal(fsc_mount(&cfg, &c, 1, &fs), 0);
	bg = fsc_bg_lookup(fs, c.start);
	assert_int_equal(fsc_bg_alloc_offset(bg), 8192);
	fsc_destroy(fs);
	tdevs_fini(&t);
}

static void test_fsc_recover_mixed_zone_types(void **state)
{
	struct tdevs t;
	struct fsc_chunk c;
	struct fsc *fs = NULL;

	tdevs_init(&t, 2, 16, 2);
	chunk_of(&c, FSC_RAID1, 2, 4);
	c.stripes[1].phys = 1u << 20;  /* conventional zone 1 */
	assert_int_equal(mount_one(&t, &c, &fs), FSC_E_MIXED_ZONES);
	tdevs_fini(&t);
}

static void test_fsc_recover_conventional_bg_is_fit(void **state)
{
	struct tdevs t;
	struct fsc_chunk c;
	struct fsc *fs = NULL;

	tdevs_init(&t, 1, 16, 4);
	chunk_of(&c, FSC_SINGLE, 1, 2);
	assert_int_equal(mount_one(&t, &c, &fs), 0);
	assert_int_equal(fsc_bg_lookup(fs, c.start)->alloc_type, FSC_ALLOC_FIT);
	fsc_destroy(fs);
	tdevs_fini(&t);
}

static void test_fsc_recover_unaligned_bg(void **state)
{
	struct tdevs t;
	struct fsc_chunk c;
	struct fsc *fs = NULL;

	tdevs_init(&t, 1, 16, 1);
	chunk_of(&c, FSC_SINGLE, 1, 4);
	c.len_bytes -= 4096;
	assert_int_equal(mount_one(&t, &c, &fs), FSC_E_UNALIGNED_BG);
	chunk_of(&c, FSC_SINGLE, 1, 4);
	c.stripes[0].phys += 4096;
	assert_int_equal(mount_one(&t, &c, &fs), FSC_E_UNALIGNED_BG);
	tdevs_fini(&t);
}

static void test_fsc_recover_offline_or_readonly_zone(void **state)
{
	struct tdevs t;
	struct fsc_chunk c;
	struct fsc *fs = NULL;
	struct fsc_bg *bg;

	tdevs_init(&t, 2, 16, 1);
	chunk_of(&c, FSC_SINGLE, 1, 4);
	assert_int_equal(zdev_zone_set_cond(t.d[0], 4, ZL_COND_OFFLINE), 0);
	assert_int_equal(mount_one(&t, &c, &fs), FSC_E_ZONE_OFFLINE);
	assert_int_equal(zdev_zone_set_cond(t.d[0], 4, ZL_COND_READ_ONLY), 0);
	assert_int_equal(mount_one(&t, &c, &fs), FSC_E_ZONE_OFFLINE);
	/* a mirror survives: recovered, but the block group takes no writes */
	chunk_of(&c, FSC_RAID1, 2, 4);
	assert_int_equal(zblk_write(t.b[1], 4u << 20, NULL, 4096), 0);
	assert_int_equal(mount_one(&t, &c, &fs), 0);
	bg = fsc_bg_lookup(fs, c.start);
	assert_int_equal(fsc_bg_alloc_offset(bg), 4096);
	assert_true(bg->alloc_done);
	fsc_destroy(fs);
	tdevs_fini(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fsc_dev_extent_skips_first_zone_and_used_zones),
		cmocka_unit_test(test_fsc_bg_stripe_is_one_zone_per_profile),
		cmocka_unit_test(test_fsc_bg_profile_needs_devices),
		cmocka_unit_test(test_fsc_seq_alloc_ignores_freed_space_until_reset),
		cmocka_unit_test(test_fsc_recover_single),
		cmocka_unit_test(test_fsc_recover_dup),
		cmocka_unit_test(test_fsc_recover_raid1),
		cmocka_unit_test(test_fsc_recover_raid0),
		cmocka_unit_test(test_fsc_recover_raid0_partial_row),
		cmocka_unit_test(test_fsc_recover_raid10),
		cmocka_unit_test(test_fsc_mount_takes_chunk_zones_out_of_the_pool),
		cmocka_unit_test(test_fsc_recover_raid1_mismatch),
		cmocka_unit_test(test_fsc_recover_raid0_stripe_ahead_is_mismatch),
		cmocka_unit_test(test_fsc_recover_raid10_mirror_mismatch),
		cmocka_unit_test(test_fsc_recover_missing_device),
		cmocka_unit_test(test_fsc_recover_mixed_zone_types),
		cmocka_unit_test(test_fsc_recover_conventional_bg_is_fit),
		cmocka_unit_test(test_fsc_recover_unaligned_bg),
		cmocka_unit_test(test_fsc_recover_offline_or_readonly_zone),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
