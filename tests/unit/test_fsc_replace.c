/*
 * test_fsc_replace.c — device replace and RAID rebuild (fsc_replace.c):
 * refused by default (the RFC, 006); the target's checks; only the
 * allocated space copied, dead gaps and tails as zeroes, the target's write
 * pointers in step with the source's and written strictly in order;
 * writes during the copy on both devices; rebuild of a device missing at
 * mount or failed at run time (RAID1, RAID10) from the surviving mirror;
 * DUP replaced, DUP of a missing device lost; a second failure during a
 * RAID1 rebuild loses data and says so; the data check (stamps read back
 * from the new device) after each.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "fsc_test_util.h"
#include "zdisk.h"

#define EXT (64u * 1024)  /* extent of the test writes */

/* ---- devices: data-less zone models (tdevs) or emulated disks that keep
 * stamp blocks ---- */

struct disks {
	uint32_t nr;
	struct zdisk *z[FSC_MAX_DEVS];
	struct zblk *b[FSC_MAX_DEVS];
};

static struct zblk *disk_add(struct disks *d, uint32_t nr_zones)
{
	struct zdisk_cfg c;
	char msg[256];
	uint32_t i = d->nr++;

	zdisk_cfg_init(&c);
	c.geo.lba_size = 4096;
	c.geo.zone_size_lba = 256;  /* 1 MiB */
	c.geo.capacity_lba = (uint64_t)nr_zones * 256;
	c.geo.nr_conv_start = 1;
	c.store.kind = ZSTORE_MEM;
	c.wce = true;
	c.seed = 1;
	assert_int_equal(zdisk_open(&c, &d->z[i], msg, sizeof(msg)), 0);
	assert_int_equal(zblk_zdisk_create(d->z[i], &d->b[i]), 0);
	return d->b[i];
}

static void disks_fini(struct disks *d)
{
	for (uint32_t i = 0; i < d->nr; i++) {
		zblk_destroy(d->b[i]);
		zdisk_close(d->z[i]);
	}
}

static void cfg_on(struct fsc_cfg *cfg, struct zblk *const *b, uint32_t nr, enum fsc_profile p,
		   uint32_t fanout)
{
	fsc_cfg_init(cfg);
	cfg->nr_devs = nr;
	for (uint32_t i = 0; i < nr; i++)
		cfg->devs[i] = b[i];
	cfg->data_profile = cfg->meta_profile = p;
	cfg->file_bytes = 8u << 20;
	cfg->tree_fanout = fanout;
	cfg->leaf_items = 16;
	cfg->replace = FSC_REPLACE_ZONED;
}

/* Write extents [@first, @first + @n) of the file (EXT each). */
static void wr(struct fsc *fs, uint32_t first, uint32_t n)
{
	assert_int_equal(twrite_ext(fs, (uint64_t)first * (EXT / 4096), n, EXT), 0);
}

/* A file with holes in its block groups: @n extents, then every third
 * rewritten (its old copy dead). */
static void fill(struct fsc *fs, uint32_t n)
{
	wr(fs, 0, n);
	for (uint32_t i = 0; i < n; i += 3)
		wr(fs, i, 1);
}

/* Live bytes of the stripes on device @d (RAID1 / DUP / SINGLE: the block
 * group's used bytes per stripe there) and their written bytes. */
static void space_on(struct fsc *fs, uint32_t d, uint64_t *live, uint64_t *alloc)
{
	*live = *alloc = 0;
	for (uint32_t i = 0; i < fs->nr_slots; i++) {
		struct fsc_bg *bg = fs->bgs[i];

		for (uint32_t s = 0; bg && s < bg->nr_stripes; s++)
			if (bg->stripes[s].dev == d) {
				*live += bg->used_bytes;
				*alloc += bg->alloc_offset;
			}
	}
}

/* Every zone of device @d in a block group: the write pointer of @tgt's
 * zone at the same offset equals @d's. */
static void assert_wps_in_step(struct fsc *fs, uint32_t d, struct zblk *src, struct zblk *tgt)
{
	for (uint32_t i = 0; i < fs->nr_slots; i++) {
		struct fsc_bg *bg = fs->bgs[i];

		for (uint32_t s = 0; bg && s < bg->nr_stripes; s++) {
			struct zblk_zone a, b;

			if (bg->stripes[s].dev != d)
				continue;
			assert_int_equal(zblk_zone_get(src, bg->stripes[s].phys, &a), 0);
			assert_int_equal(zblk_zone_get(tgt, bg->stripes[s].phys, &b), 0);
			assert_int_equal(a.wp_bytes, b.wp_bytes);
		}
	}
}

/* Run steps of @max bytes until done; the I/O reported must be the
 * progress counters', and the target's writes sequential in each zone. */
static int run_steps(struct fsc *fs, uint64_t max, int *lost)
{
	struct fsc_rio ios[64];
	uint64_t next[4096] = { 0 }, rd = 0, wrb = 0;
	const struct fsc_replace_progress *pr = fsc_replace_progress(fs);
	uint64_t rd0 = 0, wr0 = pr->copied_bytes + pr->zero_bytes;
	uint32_t n, i;
	int ret;

	for (i = 0; i < FSC_MAX_DEVS; i++)
		rd0 += pr->read_bytes[i];
	do {
		ret = fsc_replace_step(fs, max, 0, ios, 64, &n);
		if (ret == FSC_E_DATA_LOST && lost)
			(*lost)++;
		for (i = 0; i < n; i++) {
			uint64_t z = ios[i].phys / T_ZONE_BYTES;

			if (!ios[i].write) {
				rd += ios[i].len_bytes;
				continue;
			}
			assert_int_equal(ios[i].dev, FSC_RIO_TARGET);
			assert_true(z < 4096);
			assert_int_equal(ios[i].phys % T_ZONE_BYTES, next[z]);  /* in order */
			next[z] += ios[i].len_bytes;
			wrb += ios[i].len_bytes;
		}
	} while (ret == 1 || ret == FSC_E_DATA_LOST);
	for (i = 0; i < FSC_MAX_DEVS; i++)
		rd0 -= pr->read_bytes[i];
	assert_int_equal(rd, -rd0);
	assert_int_equal(wrb, pr->copied_bytes + pr->zero_bytes - wr0);
	return ret;
}

/* ---- refused by default, and the checks ---- */

static void test_fsc_replace_refused_by_default_in_hmzoned(void **state)
{
	struct tdevs t;
	struct fsc_cfg cfg;
	struct fsc *fs;

	tdevs_init(&t, 3, 16, 1);
	tcfg(&cfg, &t, FSC_RAID1);
	cfg.nr_devs = 2;
	assert_int_equal(cfg.replace, FSC_REPLACE_REFUSE);  /* the RFC's 006 */
	assert_int_equal(fsc_create(&cfg, &fs), 0);
	assert_int_equal(fsc_dev_replace(fs, 0, t.b[2]), -EOPNOTSUPP);
	assert_int_equal(fsc_replace_start(fs, 0, t.b[2], 0), -EOPNOTSUPP);
	assert_int_equal(fsc_replace_step(fs, 0, 0, NULL, 0, NULL), FSC_E_NO_REPLACE);
	assert_int_equal(fsc_replace_finish(fs, 0), FSC_E_NO_REPLACE);
	assert_int_equal(fsc_replace_cancel(fs), FSC_E_NO_REPLACE);
	fsc_destroy(fs);
	tdevs_fini(&t);
}

static void test_fsc_replace_start_rejects_bad_source_and_targets(void **state)
{
	struct tdevs t, small, other;
	struct zdev_cfg zc;
	struct zdev *zd;
	struct zblk *zb;
	struct fsc_cfg cfg;
	struct fsc *fs;

	tdevs_init(&t, 4, 16, 1);
	tdevs_init(&small, 1, 8, 1);
	tdevs_init(&other, 1, 16, 1);
	cfg_on(&cfg, t.b, 2, FSC_RAID1, 0);
	assert_int_equal(fsc_create(&cfg, &fs), 0);
	fill(fs, 20);
	assert_int_equal(fsc_replace_start(fs, 2, t.b[2], 0), -EINVAL);
	assert_int_equal(fsc_replace_start(fs, UINT32_MAX, t.b[2], 0), -EINVAL);
	assert_int_equal(fsc_replace_start(fs, 0, NULL, 0), -EINVAL);
	assert_int_equal(fsc_replace_start(fs, 0, t.b[1], 0), -EEXIST);
	assert_int_equal(fsc_replace_start(fs, 0, small.b[0], 0), FSC_E_TGT_SMALL);
	/* another zone size */
	zdev_cfg_init(&zc);
	zc.capacity_lba = 32ull * 1024;
	zc.zone_size_lba = 1024;
	assert_int_equal(zdev_create(&zc, &zd), 0);
	assert_int_equal(zblk_zdev_create(zd, true, &zb), 0);
	assert_int_equal(fsc_replace_start(fs, 0, zb, 0), FSC_E_TGT_ZONES);
	/* a written zone */
	assert_int_equal(zblk_write(other.b[0], 9u << 20, NULL, 4096), 0);
	assert_int_equal(fsc_replace_start(fs, 0, other.b[0], 0), FSC_E_TGT_NOT_EMPTY);
	/* one at a time */
	assert_int_equal(fsc_replace_start(fs, 0, t.b[2], 0), 0);
	assert_true(fsc_replace_progress(fs)->running);
	assert_int_equal(fsc_replace_start(fs, 1, t.b[3], 0), FSC_E_REPLACE_RUNNING);
	assert_int_equal(fsc_replace_finish(fs, 0), -EBUSY);
	assert_int_equal(fsc_replace_cancel(fs), 0);
	assert_false(fsc_replace_progress(fs)->running);
	assert_int_equal(fsc_replace_step(fs, 0, 0, NULL, 0, NULL), FSC_E_NO_REPLACE);
	assert_string_equal(fsc_errname(FSC_E_DATA_LOST), "data_lost");
	assert_string_equal(fsc_errname(FSC_E_TGT_NOT_EMPTY), "target_not_empty");
	fsc_destroy(fs);
	zblk_destroy(zb);
	zdev_destroy(zd);
	tdevs_fini(&other);
	tdevs_fini(&small);
	tdevs_fini(&t);
}

/* ---- replace ---- */

static void test_fsc_replace_copies_only_allocated_space_wps_in_step(void **state)
{
	struct tdevs t;
	struct fsc_cfg cfg;
	struct fsc *fs;
	const struct fsc_replace_progress *pr;
	uint64_t live, alloc, w0;
	struct fsc_verify v;

	tdevs_init(&t, 3, 32, 1);
	cfg_on(&cfg, t.b, 2, FSC_RAID1, 0);
	assert_int_equal(fsc_create(&cfg, &fs), 0);
	fill(fs, 60);  /* 3+ block groups with dead gaps, the last one open */
	space_on(fs, 0, &live, &alloc);
	assert_true(live < alloc);
	w0 = t.b[0]->read_bytes;
	assert_int_equal(fsc_replace_start(fs, 0, t.b[2], 0), 0);
	pr = fsc_replace_progress(fs);
	assert_false(pr->rebuild);
	assert_int_equal(pr->alloc_bytes, alloc);
	assert_int_equal(run_steps(fs, 100 * 1024, NULL), 0);
	assert_int_equal(pr->copied_bytes, live);          /* the live bytes only, */
	assert_int_equal(pr->zero_bytes, alloc - live);    /* the dead ones as zeroes */
	assert_int_equal(pr->walked_bytes, alloc);
	assert_int_equal(pr->read_bytes[0], live);
	assert_int_equal(pr->read_bytes[1], 0);
	assert_int_equal(t.b[0]->read_bytes - w0, live);
	assert_int_equal(t.b[2]->write_bytes, alloc);      /* nothing beyond the wps */
	assert_int_equal(pr->nr_bgs_done, pr->nr_bgs);
	assert_wps_in_step(fs, 0, t.b[0], t.b[2]);
	assert_int_equal(fsc_replace_finish(fs, 7), 0);
	assert_false(pr->running);
	assert_int_equal(pr->end_ns, 7);
	assert_ptr_equal(fs->devs[0].blk, t.b[2]);
	assert_int_equal(fsc_dev_verify(fs, 0, &v), 0);
	assert_int_equal(v.nr_blocks, live / 4096);
	assert_false(v.stamps);  /* zone models keep no data: reads below the wp */
	/* the file system goes on on the new device */
	wr(fs, 0, 40);
	assert_int_equal(fsc_dev_verify(fs, 0, &v), 0);
	assert_int_equal(t.b[2]->nr_write_errors, 0);
	fsc_destroy(fs);
	tdevs_fini(&t);
}

static void test_fsc_replace_writes_during_copy_land_on_both(void **state)
{
	struct disks d = { 0 };
	struct zblk *tgt;
	struct fsc_cfg cfg;
	struct fsc *fs;
	const struct fsc_replace_progress *pr;
	struct fsc_verify v;
	uint64_t live, alloc;
	int rounds = 0, ret;

	disk_add(&d, 32);
	disk_add(&d, 32);
	tgt = disk_add(&d, 32);
	cfg_on(&cfg, d.b, 2, FSC_RAID1, 4);
	assert_int_equal(fsc_create(&cfg, &fs), 0);
	fill(fs, 40);
	assert_true(tcommit(fs) > 0);
	assert_int_equal(fsc_replace_start(fs, 0, tgt, 0), 0);
	pr = fsc_replace_progress(fs);
	/* foreground writes and commits between small steps */
	do {
		ret = fsc_replace_step(fs, 256 * 1024, 0, NULL, 0, NULL);
		assert_true(ret == 0 || ret == 1);
		wr(fs, (rounds * 7) % 100, 2);
		if (rounds % 4 == 3)
			assert_true(tcommit(fs) > 0);
		rounds++;
	} while (ret == 1);
	assert_true(rounds > 8);
	assert_true(pr->dup_bytes > 0);  /* copied / new block groups got them too */
	assert_wps_in_step(fs, 0, d.b[0], tgt);
	/* more writes after the copy, before finish: duplicated */
	wr(fs, 3, 5);
	assert_wps_in_step(fs, 0, d.b[0], tgt);
	assert_true(tcommit(fs) > 0);
	assert_int_equal(fsc_replace_finish(fs, 0), 0);
	assert_int_equal(tgt->nr_write_errors, 0);
	assert_int_equal(fsc_dev_verify(fs, 0, &v), 0);
	assert_true(v.stamps);
	space_on(fs, 0, &live, &alloc);
	assert_int_equal(v.nr_blocks, live / 4096);
	assert_int_equal(v.nr_wp_bad, 0);
	fsc_destroy(fs);
	disks_fini(&d);
}

/* A block group emptied during the replace is reset on both devices (the
 * target's zone too: do_discard_extent()), so a block group reusing the
 * zone writes the target from its start again. */
static void test_fsc_replace_reset_during_copy_resets_target_zone(void **state)
{
	struct disks d = { 0 };
	struct zblk *tgt;
	struct fsc_cfg cfg;
	struct fsc *fs;
	struct fsc_verify v;
	uint64_t resets;
	int ret;

	disk_add(&d, 16);
	disk_add(&d, 16);
	tgt = disk_add(&d, 16);
	cfg_on(&cfg, d.b, 2, FSC_RAID1, 0);
	assert_int_equal(fsc_create(&cfg, &fs), 0);
	wr(fs, 0, 48);  /* three full block groups */
	assert_int_equal(fsc_replace_start(fs, 0, tgt, 0), 0);
	while (fsc_replace_progress(fs)->nr_bgs_done < 2)
		assert_int_equal(fsc_replace_step(fs, 0x10000, 0, NULL, 0, NULL), 1);
	/* rewrite all the data: every old block group empties and is reset,
	 * copied ones (target written), the one under the walk, uncopied ones */
	resets = fsc_stats(fs)->nr_zone_resets;
	for (int i = 0; i < 6; i++)  /* 18 block groups on 15 zones: reused */
		wr(fs, 0, 48);
	assert_true(fsc_stats(fs)->nr_zone_resets >= resets + 30);
	do
		ret = fsc_replace_step(fs, 0x10000, 0, NULL, 0, NULL);
	while (ret == 1);
	assert_int_equal(ret, 0);
	assert_int_equal(fsc_replace_finish(fs, 0), 0);
	assert_int_equal(tgt->nr_write_errors, 0);
	assert_int_equal(fsc_stats(fs)->nr_dev_errors, 0);
	assert_int_equal(fsc_dev_verify(fs, 0, &v), 0);
	assert_int_equal(v.nr_blocks, 48 * EXT / 4096);
	fsc_destroy(fs);
	disks_fini(&d);
}

static void test_fsc_replace_in_one_call_and_dup_profile(void **state)
{
	struct disks d = { 0 };
	struct zblk *tgt;
	struct fsc_cfg cfg;
	struct fsc *fs;
	struct fsc_verify v;
	uint64_t live, alloc;

	disk_add(&d, 32);
	tgt = disk_add(&d, 32);
	cfg_on(&cfg, d.b, 1, FSC_DUP, 4);
	assert_int_equal(fsc_create(&cfg, &fs), 0);
	fill(fs, 30);
	assert_true(tcommit(fs) > 0);
	space_on(fs, 0, &live, &alloc);  /* both stripes of each block group */
	assert_int_equal(fsc_dev_replace(fs, 0, tgt), 0);
	assert_int_equal(fsc_replace_progress(fs)->copied_bytes, live);
	assert_int_equal(fsc_replace_progress(fs)->read_bytes[0], live);
	assert_int_equal(fsc_dev_verify(fs, 0, &v), 0);
	assert_int_equal(v.nr_blocks, live / 4096);
	assert_true(v.stamps);
	wr(fs, 0, 10);
	assert_true(tcommit(fs) > 0);  /* superblocks, trees: on the new device */
	assert_int_equal(fsc_dev_verify(fs, 0, &v), 0);
	fsc_destroy(fs);
	disks_fini(&d);
}

/* ---- rebuild ---- */

static void test_fsc_rebuild_raid1_device_missing_at_mount(void **state)
{
	struct disks d = { 0 };
	struct zblk *tgt;
	struct fsc_cfg cfg;
	struct fsc_chunk ch[64];
	struct fsc *fs;
	struct fsc_verify v;
	uint32_t nr;
	uint64_t live, alloc;

	for (int i = 0; i < 3; i++)
		disk_add(&d, 32);
	tgt = disk_add(&d, 32);
	cfg_on(&cfg, d.b, 3, FSC_RAID1, 0);
	assert_int_equal(fsc_create(&cfg, &fs), 0);
	wr(fs, 0, 70);
	nr = fsc_chunks(fs, ch, 64);
	fsc_destroy(fs);
	cfg.devs[1] = NULL;  /* degraded mount */
	assert_int_equal(fsc_mount(&cfg, ch, nr, &fs), 0);
	space_on(fs, 1, &live, &alloc);
	assert_true(alloc > 0);
	assert_int_equal(fsc_replace_start(fs, 1, tgt, 0), 0);
	assert_true(fsc_replace_progress(fs)->rebuild);
	assert_int_equal(run_steps(fs, 0, NULL), 0);
	/* no extent tree at mount: everything below the wps is live */
	assert_int_equal(fsc_replace_progress(fs)->copied_bytes, alloc);
	assert_int_equal(fsc_replace_progress(fs)->read_bytes[1], 0);
	assert_int_equal(fsc_replace_progress(fs)->read_bytes[0] +
			 fsc_replace_progress(fs)->read_bytes[2], alloc);
	assert_int_equal(fsc_replace_finish(fs, 0), 0);
	assert_int_equal(fsc_dev_verify(fs, 1, &v), 0);
	assert_int_equal(v.nr_blocks, alloc / 4096);
	assert_true(v.stamps);
	fsc_destroy(fs);
	disks_fini(&d);
}

static void test_fsc_rebuild_raid10_after_runtime_failure(void **state)
{
	struct disks d = { 0 };
	struct zblk *tgt;
	struct fsc_cfg cfg;
	struct fsc *fs;
	struct fsc_verify v;
	int ret, lost = 0;

	for (int i = 0; i < 4; i++)
		disk_add(&d, 32);
	tgt = disk_add(&d, 32);
	cfg_on(&cfg, d.b, 4, FSC_RAID10, 4);
	assert_int_equal(fsc_create(&cfg, &fs), 0);
	fill(fs, 60);
	assert_true(tcommit(fs) > 0);
	assert_int_equal(fsc_dev_fail(fs, 2), 0);
	assert_int_equal(fsc_dev_fail(fs, 9), -EINVAL);
	assert_int_equal(fsc_dev_verify(fs, 2, &v), -EINVAL);  /* gone */
	assert_int_equal(fsc_replace_start(fs, 2, tgt, 0), 0);
	assert_true(fsc_replace_progress(fs)->rebuild);
	ret = run_steps(fs, 128 * 1024, &lost);
	assert_int_equal(ret, 0);
	assert_int_equal(lost, 0);
	assert_int_equal(fsc_replace_progress(fs)->lost_bytes, 0);
	assert_int_equal(fsc_replace_progress(fs)->read_bytes[2], 0);
	assert_true(fsc_replace_progress(fs)->copied_bytes > 0);
	assert_int_equal(fsc_replace_finish(fs, 0), 0);
	assert_int_equal(fsc_dev_verify(fs, 2, &v), 0);
	assert_true(v.nr_blocks > 0);
	assert_int_equal(v.nr_wp_bad, 0);
	fsc_destroy(fs);
	disks_fini(&d);
}

static void test_fsc_rebuild_second_failure_in_raid1_loses_data(void **state)
{
	struct disks d = { 0 };
	struct zblk *tgt;
	struct fsc_cfg cfg;
	struct fsc *fs;
	const struct fsc_replace_progress *pr;
	struct fsc_verify v;
	uint64_t left = 0;
	int ret, lost = 0;

	disk_add(&d, 32);
	disk_add(&d, 32);
	tgt = disk_add(&d, 32);
	cfg_on(&cfg, d.b, 2, FSC_RAID1, 0);
	assert_int_equal(fsc_create(&cfg, &fs), 0);
	fill(fs, 70);  /* 5 block groups */
	assert_int_equal(fsc_dev_fail(fs, 0), 0);
	assert_int_equal(fsc_replace_start(fs, 0, tgt, 0), 0);
	pr = fsc_replace_progress(fs);
	assert_true(pr->nr_bgs >= 4);
	while (pr->nr_bgs_done < 2)
		assert_int_equal(fsc_replace_step(fs, 64 * 1024, 0, NULL, 0, NULL), 1);
	/* the live bytes not copied yet: the current block group's from the
	 * cursor on, and the ones after it */
	for (uint32_t i = fs->rp.pos; i < fs->rp.nr_ents; i++) {
		struct fsc_bg *bg = fsc_bg_lookup(fs, fs->rp.ents[i].start);

		for (uint64_t p = i == fs->rp.pos ? fs->rp.cursor : 0; p < T_ZONE_BYTES; p += 4096)
			left += bg->owner[p / bg->unit_bytes] ? 4096 : 0;
	}
	assert_true(left > 0);
	assert_int_equal(fsc_dev_fail(fs, 1), 0);  /* the surviving mirror */
	ret = fsc_replace_step(fs, 0, 0, NULL, 0, NULL);
	assert_int_equal(ret, FSC_E_DATA_LOST);
	assert_int_equal(pr->lost_bytes, left);
	assert_int_equal(pr->lost_blocks, left / 4096);
	ret = run_steps(fs, 0, &lost);
	assert_int_equal(ret, 0);
	assert_int_equal(pr->lost_bytes, left);  /* counted once */
	assert_int_equal(fsc_replace_finish(fs, 0), FSC_E_DATA_LOST);
	/* the data check does not pretend either */
	assert_int_equal(fsc_dev_verify(fs, 0, &v), FSC_E_VERIFY);
	assert_true(v.stamps);
	assert_int_equal(v.nr_bad, left / 4096);
	assert_true(v.first_bad != UINT64_MAX);
	fsc_destroy(fs);
	disks_fini(&d);
}

static void test_fsc_rebuild_dup_of_missing_device_is_lost(void **state)
{
	struct disks d = { 0 };
	struct zblk *tgt;
	struct fsc_cfg cfg;
	struct fsc *fs;
	uint64_t live, alloc;
	int lost = 0;

	disk_add(&d, 32);
	tgt = disk_add(&d, 32);
	cfg_on(&cfg, d.b, 1, FSC_DUP, 0);
	assert_int_equal(fsc_create(&cfg, &fs), 0);
	fill(fs, 20);
	space_on(fs, 0, &live, &alloc);
	assert_int_equal(fsc_dev_fail(fs, 0), 0);
	/* both copies of DUP were on the one device: nothing survives */
	assert_int_equal(fsc_replace_start(fs, 0, tgt, 0), 0);
	assert_int_equal(run_steps(fs, 0, &lost), 0);
	assert_true(lost > 0);
	assert_int_equal(fsc_replace_progress(fs)->lost_bytes, live);
	assert_int_equal(fsc_replace_progress(fs)->copied_bytes, 0);
	assert_int_equal(fsc_replace_finish(fs, 0), FSC_E_DATA_LOST);
	fsc_destroy(fs);
	disks_fini(&d);
}

/* ---- RAID5/6: the hypothetical profile ---- */

static void cfg_r56(struct fsc_cfg *cfg, struct zblk *const *b, uint32_t nr, enum fsc_profile p)
{
	cfg_on(cfg, b, nr, p, 0);
	cfg->meta_profile = FSC_RAID1;
	cfg->raid56_model = true;
}

/* Full-stripe extents (D x 64 KiB) from extent slot @first. */
static void wr_full(struct fsc *fs, uint32_t data, uint32_t first, uint32_t n)
{
	uint32_t blocks = data * 16;  /* 64 KiB = 16 blocks per data unit */

	assert_int_equal(twrite_ext(fs, (uint64_t)first * blocks, n, blocks * 4096), 0);
}

static void test_fsc_raid56_model_off_by_default(void **state)
{
	struct tdevs t;
	struct fsc_cfg cfg;
	struct fsc *fs = NULL;

	tdevs_init(&t, 4, 16, 1);
	cfg_on(&cfg, t.b, 4, FSC_RAID5, 0);
	cfg.meta_profile = FSC_RAID1;
	assert_false(cfg.raid56_model);
	assert_int_equal(fsc_create(&cfg, &fs), FSC_E_RAID56);  /* the RFC, every kernel */
	cfg.raid56_model = true;
	cfg.meta_profile = FSC_RAID6;
	assert_int_equal(fsc_create(&cfg, &fs), FSC_E_RAID56);  /* tree blocks never */
	cfg.meta_profile = FSC_RAID1;
	cfg.data_profile = FSC_RAID6;
	cfg.nr_devs = 3;
	assert_int_equal(fsc_create(&cfg, &fs), 0);
	assert_int_equal(twrite_ext(fs, 0, 1, EXT), FSC_E_BAD_PROFILE);  /* RAID6: 4 devices */
	fsc_destroy(fs);
	tdevs_fini(&t);
}

static void test_fsc_raid5_writes_full_stripes_with_rotating_parity(void **state)
{
	struct tdevs t;
	struct fsc_cfg cfg;
	struct fsc *fs;
	struct fsc_bg *bg;
	uint32_t seen = 0;

	tdevs_init(&t, 4, 16, 1);
	cfg_r56(&cfg, t.b, 4, FSC_RAID5);
	assert_int_equal(fsc_create(&cfg, &fs), 0);
	/* a 64 KiB write takes a whole row: 3 data units (2 of padding) + P */
	wr(fs, 0, 1);
	assert_int_equal(fsc_stats(fs)->dev_bytes[FSC_KIND_USER], 4 * EXT);
	assert_int_equal(fsc_stats(fs)->r56_parity_bytes, EXT);
	assert_int_equal(fsc_stats(fs)->r56_pad_bytes, 2 * EXT);
	bg = fsc_bg_lookup(fs, fs->cur[0]->start);
	assert_int_equal(bg->nr_stripes, 4);
	assert_int_equal(bg->len_bytes, 3 * T_ZONE_BYTES);
	assert_int_equal(fsc_bg_alloc_offset(bg), 3 * EXT);
	assert_int_equal(fsc_bg_used_bytes(bg), EXT);
	/* full stripes: no padding; parity 1/3 of the data */
	wr_full(fs, 3, 1, 3);
	assert_int_equal(fsc_stats(fs)->r56_pad_bytes, 2 * EXT);
	assert_int_equal(fsc_stats(fs)->r56_parity_bytes, 4 * EXT);
	assert_int_equal(fsc_stats(fs)->dev_bytes[FSC_KIND_USER], 16 * EXT);
	for (uint32_t s = 0; s < 4; s++) {
		struct zblk_zone z;

		assert_int_equal(zblk_zone_get(t.b[bg->stripes[s].dev], bg->stripes[s].phys, &z), 0);
		assert_int_equal(z.wp_bytes - z.start_bytes, 4 * EXT);  /* every stripe, every row */
	}
	/* P rotates: rows 0..3 have it on 4 different stripes, data elsewhere */
	for (uint64_t r = 0; r < 4; r++) {
		seen |= 1u << fsc_r56_pstripe(bg, r);
		for (uint32_t k = 0; k < 3; k++)
			assert_int_not_equal(fsc_r56_dstripe(bg, r, k), fsc_r56_pstripe(bg, r));
	}
	assert_int_equal(seen, 0xf);
	fsc_destroy(fs);
	tdevs_fini(&t);
}

/* Live data bytes of device @d's stripes (RAID5/6 data units; parity not). */
static uint64_t r56_data_on(struct fsc *fs, uint32_t d)
{
	uint64_t sum = 0;

	for (uint32_t i = 0; i < fs->nr_slots; i++) {
		struct fsc_bg *bg = fs->bgs[i];
		uint64_t full, rows;

		if (!bg || !fsc_bg_is_r56(bg))
			continue;
		full = fsc_r56_full(bg);
		rows = bg->alloc_offset / full;
		for (uint32_t s = 0; s < bg->nr_stripes; s++)
			for (uint64_t r = 0; bg->stripes[s].dev == d && r < rows; r++)
				for (uint32_t k = 0; k < bg->nr_stripes - fsc_r56_nr_parity(bg); k++)
					if (fsc_r56_dstripe(bg, r, k) == s)
						for (uint64_t o = 0; o < EXT; o += 4096)
							sum += bg->owner[(r * full + k * EXT + o) /
									 bg->unit_bytes] ? 4096 : 0;
	}
	return sum;
}

/* Rebuild by reconstruction: each survivor read once per row, N - 1 of
 * them (RAID5) or N - 2 (RAID6, here with a second device missing). */
static void r56_rebuild(enum fsc_profile p, uint32_t nr, uint32_t also_missing)
{
	struct disks d = { 0 };
	struct zblk *tgt;
	struct fsc_cfg cfg;
	struct fsc *fs;
	const struct fsc_replace_progress *pr;
	struct fsc_verify v;
	uint32_t data = nr - (p == FSC_RAID6 ? 2 : 1), nr_read = 0, i;
	uint64_t per = 0;
	int lost = 0;

	for (i = 0; i < nr; i++)
		disk_add(&d, 32);
	tgt = disk_add(&d, 32);
	cfg_r56(&cfg, d.b, nr, p);
	assert_int_equal(fsc_create(&cfg, &fs), 0);
	wr_full(fs, data, 0, 40);
	for (i = 0; i < 40; i += 3)  /* dead rows: zeroes, not read */
		wr_full(fs, data, i, 1);
	assert_int_equal(fsc_dev_fail(fs, 0), 0);
	if (also_missing)
		assert_int_equal(fsc_dev_fail(fs, also_missing), 0);
	assert_int_equal(fsc_replace_start(fs, 0, tgt, 0), 0);
	pr = fsc_replace_progress(fs);
	assert_int_equal(run_steps(fs, 200 * 1024, &lost), 0);
	assert_int_equal(lost, 0);
	assert_int_equal(pr->lost_bytes, 0);
	assert_true(pr->copied_bytes > 0);
	assert_true(pr->zero_bytes > 0);
	for (i = 0; i < nr; i++) {
		if (!pr->read_bytes[i])
			continue;
		assert_true(i != 0 && i != also_missing);
		if (!per)
			per = pr->read_bytes[i];
		assert_int_equal(pr->read_bytes[i], per);  /* the same rows of each */
		nr_read++;
	}
	assert_int_equal(nr_read, p == FSC_RAID6 ? nr - 2 : nr - 1);
	assert_int_equal(per, pr->copied_bytes);
	/* every byte rebuilt computed from what was read (real parity) */
	assert_int_equal(pr->r56_rebuilt_bytes, pr->copied_bytes);
	assert_int_equal(fsc_replace_finish(fs, 0), 0);
	assert_int_equal(fsc_dev_verify(fs, 0, &v), 0);
	assert_true(v.stamps);
	assert_true(v.nr_r56_blocks > 0);  /* parity units checked by content */
	assert_true(v.nr_blocks * 4096 >= r56_data_on(fs, 0));
	fsc_destroy(fs);
	disks_fini(&d);
}

static void test_fsc_raid5_rebuild_reads_n_minus_1(void **s) { r56_rebuild(FSC_RAID5, 4, 0); }
static void test_fsc_raid6_rebuild_reads_n_minus_2_with_two_missing(void **s)
{
	r56_rebuild(FSC_RAID6, 5, 3);
}

static void test_fsc_raid5_second_failure_loses_data(void **state)
{
	struct disks d = { 0 };
	struct zblk *tgt;
	struct fsc_cfg cfg;
	struct fsc *fs;
	uint64_t want;
	int lost = 0;

	for (int i = 0; i < 4; i++)
		disk_add(&d, 32);
	tgt = disk_add(&d, 32);
	cfg_r56(&cfg, d.b, 4, FSC_RAID5);
	assert_int_equal(fsc_create(&cfg, &fs), 0);
	wr_full(fs, 3, 0, 30);
	want = r56_data_on(fs, 1);
	assert_true(want > 0);
	assert_int_equal(fsc_dev_fail(fs, 1), 0);
	assert_int_equal(fsc_replace_start(fs, 1, tgt, 0), 0);
	assert_int_equal(fsc_dev_fail(fs, 2), 0);  /* before any copy: all of it */
	assert_int_equal(run_steps(fs, 0, &lost), 0);
	assert_true(lost > 0);
	assert_int_equal(fsc_replace_progress(fs)->lost_bytes, want);  /* data, not parity */
	assert_int_equal(fsc_replace_finish(fs, 0), FSC_E_DATA_LOST);
	fsc_destroy(fs);
	disks_fini(&d);
}

/* GF(2^8) with 0x11d, by shifts: the test's own, not fs-core's tables. */
static uint8_t t_gmul(uint8_t a, uint8_t b)
{
	uint8_t r = 0;

	while (b) {
		if (b & 1)
			r ^= a;
		a = (uint8_t)((a << 1) ^ (a & 0x80 ? 0x1d : 0));
		b >>= 1;
	}
	return r;
}

/* The parity on the devices is the parity of the data on the devices: for
 * rows 0..5 of the first RAID5 (4 devices) and RAID6 (5 devices) block
 * group, every byte of the first block of P is the XOR of the data units'
 * and of Q the sum of g^k D_k, all read back from the emulated disks. */
static void r56_parity(enum fsc_profile p, uint32_t nr)
{
	struct disks d = { 0 };
	struct fsc_cfg cfg;
	struct fsc *fs;
	struct fsc_bg *bg;
	uint32_t data = nr - (p == FSC_RAID6 ? 2 : 1), i, k;
	uint8_t *blk[FSC_MAX_STRIPES], pb[4096], qb[4096];

	for (i = 0; i < nr; i++)
		disk_add(&d, 32);
	cfg_r56(&cfg, d.b, nr, p);
	assert_int_equal(fsc_create(&cfg, &fs), 0);
	wr_full(fs, data, 0, 6);
	bg = fsc_bg_lookup(fs, fs->cur[0]->start);
	for (i = 0; i < nr; i++)
		blk[i] = malloc(4096);
	for (uint64_t r = 0; r < 6; r++) {
		uint64_t q = r * EXT + 8192;  /* the third block of the row's units */
		uint32_t ps = fsc_r56_pstripe(bg, r);

		for (i = 0; i < nr; i++)
			assert_int_equal(zblk_read(d.b[bg->stripes[i].dev], bg->stripes[i].phys + q,
						   blk[i], 4096), 0);
		memset(pb, 0, sizeof(pb));
		memset(qb, 0, sizeof(qb));
		for (k = 0; k < data; k++) {
			const uint8_t *dk = blk[fsc_r56_dstripe(bg, r, k)];
			uint64_t stamp = 0;

			memcpy(&stamp, dk, 8);  /* little-endian host: the stamp itself */
			assert_int_equal(stamp, bg->stripes[fsc_r56_dstripe(bg, r, k)].phys + q);
			for (uint32_t b = 0; b < 4096; b++) {
				uint8_t g = 1;

				for (uint32_t e = 0; e < k; e++)
					g = t_gmul(g, 2);
				pb[b] ^= dk[b];
				qb[b] ^= t_gmul(g, dk[b]);
			}
		}
		assert_memory_equal(blk[ps], pb, 4096);
		assert_true(blk[ps][0] | blk[ps][1] | blk[ps][2]);  /* not a zero block */
		if (p == FSC_RAID6)
			assert_memory_equal(blk[(ps + 1) % nr], qb, 4096);
	}
	for (i = 0; i < nr; i++)
		free(blk[i]);
	fsc_destroy(fs);
	disks_fini(&d);
}

static void test_fsc_raid5_parity_on_disk_is_the_xor_of_the_data(void **s)
{
	(void)s;
	r56_parity(FSC_RAID5, 4);
}

static void test_fsc_raid6_p_and_q_on_disk_are_the_data_syndromes(void **s)
{
	(void)s;
	r56_parity(FSC_RAID6, 5);
}

/* fsc_r56_rebuild() is exact for every stripe and every second unknown
 * (RAID6: P, Q or data in each row's rotation), 8 rows; a byte changed in
 * one source changes the result (the check is not vacuous); too few
 * sources is FSC_E_DATA_LOST. */
static void test_fsc_raid56_reconstruction_is_exact_for_every_pair(void **state)
{
	static struct fsc_bg bg;
	const uint64_t len = 8 * EXT;
	uint8_t *fill[6], *src[6], *out = malloc(len);
	uint32_t nr = 6, x, y, i;

	(void)state;
	bg.profile = FSC_RAID6;
	bg.nr_stripes = nr;
	for (i = 0; i < nr; i++)
		bg.stripes[i].phys = (uint64_t)(3 + 7 * i) << 20;
	for (i = 0; i < nr; i++) {
		fill[i] = malloc(len);
		fsc_r56_fill(&bg, i, 0, len, fill[i]);
	}
	for (x = 0; x < nr; x++)
		for (y = 0; y < nr; y++) {
			for (i = 0; i < nr; i++)
				src[i] = i == x || i == y ? NULL : fill[i];
			assert_int_equal(fsc_r56_rebuild(&bg, x, src, 0, len, out), 0);
			if (memcmp(out, fill[x], len)) {
				uint64_t o = 0;

				while (out[o] == fill[x][o])
					o++;
				fail_msg("stripe %u, %u also unknown: byte %llu", x, y,
					 (unsigned long long)o);
			}
		}
	/* not vacuous: one source byte wrong, the result wrong */
	for (i = 0; i < nr; i++)
		src[i] = i == 0 || i == 1 ? NULL : fill[i];
	fill[2][EXT + 3] ^= 0x5a;
	assert_int_equal(fsc_r56_rebuild(&bg, 0, src, 0, len, out), 0);
	assert_memory_not_equal(out, fill[0], len);
	fill[2][EXT + 3] ^= 0x5a;
	/* RAID6: a third unknown; RAID5: a second */
	src[2] = NULL;
	assert_int_equal(fsc_r56_rebuild(&bg, 0, src, 0, len, out), FSC_E_DATA_LOST);
	bg.profile = FSC_RAID5;
	for (i = 0; i < nr; i++) {
		fsc_r56_fill(&bg, i, 0, len, fill[i]);
		src[i] = fill[i];
	}
	for (x = 0; x < nr; x++) {
		src[x] = NULL;
		assert_int_equal(fsc_r56_rebuild(&bg, x, src, 0, len, out), 0);
		assert_memory_equal(out, fill[x], len);
		src[x] = fill[x];
	}
	src[1] = src[4] = NULL;
	assert_int_equal(fsc_r56_rebuild(&bg, 1, src, 0, len, out), FSC_E_DATA_LOST);
	for (i = 0; i < nr; i++)
		free(fill[i]);
	free(out);
}

static void test_fsc_raid6_third_failure_loses_data(void **state)
{
	struct disks d = { 0 };
	struct zblk *tgt;
	struct fsc_cfg cfg;
	struct fsc *fs;
	uint64_t want;
	int lost = 0;

	(void)state;
	for (int i = 0; i < 5; i++)
		disk_add(&d, 32);
	tgt = disk_add(&d, 32);
	cfg_r56(&cfg, d.b, 5, FSC_RAID6);
	assert_int_equal(fsc_create(&cfg, &fs), 0);
	wr_full(fs, 3, 0, 30);
	want = r56_data_on(fs, 1);
	assert_true(want > 0);
	assert_int_equal(fsc_dev_fail(fs, 1), 0);
	assert_int_equal(fsc_replace_start(fs, 1, tgt, 0), 0);
	assert_int_equal(fsc_dev_fail(fs, 2), 0);
	assert_int_equal(fsc_dev_fail(fs, 4), 0);  /* three gone: RAID6 cannot */
	assert_int_equal(run_steps(fs, 0, &lost), 0);
	assert_true(lost > 0);
	assert_int_equal(fsc_replace_progress(fs)->lost_bytes, want);
	assert_int_equal(fsc_replace_progress(fs)->r56_rebuilt_bytes, 0);
	assert_int_equal(fsc_replace_finish(fs, 0), FSC_E_DATA_LOST);
	fsc_destroy(fs);
	disks_fini(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fsc_replace_refused_by_default_in_hmzoned),
		cmocka_unit_test(test_fsc_replace_start_rejects_bad_source_and_targets),
		cmocka_unit_test(test_fsc_replace_copies_only_allocated_space_wps_in_step),
		cmocka_unit_test(test_fsc_replace_writes_during_copy_land_on_both),
		cmocka_unit_test(test_fsc_replace_reset_during_copy_resets_target_zone),
		cmocka_unit_test(test_fsc_replace_in_one_call_and_dup_profile),
		cmocka_unit_test(test_fsc_rebuild_raid1_device_missing_at_mount),
		cmocka_unit_test(test_fsc_rebuild_raid10_after_runtime_failure),
		cmocka_unit_test(test_fsc_rebuild_second_failure_in_raid1_loses_data),
		cmocka_unit_test(test_fsc_rebuild_dup_of_missing_device_is_lost),
		cmocka_unit_test(test_fsc_raid56_model_off_by_default),
		cmocka_unit_test(test_fsc_raid5_writes_full_stripes_with_rotating_parity),
		cmocka_unit_test(test_fsc_raid5_rebuild_reads_n_minus_1),
		cmocka_unit_test(test_fsc_raid6_rebuild_reads_n_minus_2_with_two_missing),
		cmocka_unit_test(test_fsc_raid5_second_failure_loses_data),
		cmocka_unit_test(test_fsc_raid5_parity_on_disk_is_the_xor_of_the_data),
		cmocka_unit_test(test_fsc_raid6_p_and_q_on_disk_are_the_data_syndromes),
		cmocka_unit_test(test_fsc_raid56_reconstruction_is_exact_for_every_pair),
		cmocka_unit_test(test_fsc_raid6_third_failure_loses_data),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
