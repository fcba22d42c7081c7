/*
 * test_fsc_reclaim.c — Linux 6.1's reclaim list in fs-core (fsc_reclaim.c,
 * docs/VALIDATION.md): a free queues a block group only when it crosses
 * the threshold from at or above (should_reclaim_block_group()); unusable
 * space queues one at the commit (__btrfs_add_free_space_zoned()); a pass
 * is gated by allocated chunks (btrfs_zoned_should_reclaim()), sorted
 * fewest-used first keeping the queue order among equals, drops busy
 * entries, keeps a failed one for after the pass; a removed block group
 * leaves the list; the option's parser and its errors.  Linux 6.12's mode
 * (linux-6.12): an entry is checked again at its turn, an empty one is not
 * relocated, the dynamic threshold (calc_dynamic_reclaim_threshold()) by
 * hand from the kernel's formula, periodic sweeps only once a space is
 * ready, failed relocations not retried with periodic reclaim.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "fsc_test_util.h"

#define UNITS (T_ZONE_BYTES / 4096)

/* A file system on one device of @zones 1 MiB zones with the list on. */
static struct fsc *mk(struct tdevs *t, uint32_t zones, uint32_t global)
{
	struct fsc_cfg cfg;
	struct fsc *fs;

	tdevs_init(t, 1, zones, 0);
	tcfg(&cfg, t, FSC_SINGLE);
	cfg.reclaim.mode = FSC_RECLAIM_LINUX_6_1;
	cfg.reclaim.global_pct = global;
	assert_int_equal(fsc_create(&cfg, &fs), 0);
	return fs;
}

/* A full data block group of one zone, every unit live (owners base..). */
static struct fsc_bg *full_bg(struct fsc *fs, uint32_t base)
{
	struct fsc_bg *bg = NULL, *b;
	uint64_t l;
	uint32_t i;

	for (i = 0; i < UNITS; i++) {
		assert_int_equal(fsc_alloc(fs, FSC_BG_DATA, 4096, base + i, 0, &b, &l), 0);
		bg = bg ? bg : b;
		assert_ptr_equal(b, bg);
	}
	assert_true(bg->alloc_done);
	bg->nr_inflight = 0;  /* as if every write completed */
	return bg;
}

static void free_units(struct fsc *fs, struct fsc_bg *bg, uint32_t first, uint32_t n)
{
	fsc_free_extent(fs, bg->start + (uint64_t)first * 4096, (uint64_t)n * 4096, 0);
}

static void test_free_crossing_queues_once(void **state)
{
	struct tdevs t;
	struct fsc *fs = mk(&t, 16, 75);
	struct fsc_bg *bg = full_bg(fs, 0);
	uint32_t thr = UNITS * 3 / 4;  /* 75% of the length, in units */

	free_units(fs, bg, 0, UNITS - thr);      /* down to exactly 75%: not under */
	assert_false(bg->rc_queued);
	free_units(fs, bg, UNITS - thr, 1);      /* under: queued */
	assert_true(bg->rc_queued);
	assert_int_equal(fsc_reclaim_queued(fs), 1);
	assert_int_equal(fsc_stats(fs)->nr_reclaim_by_free, 1);
	free_units(fs, bg, UNITS - thr + 1, 1);  /* already under: no second entry */
	assert_int_equal(fsc_reclaim_queued(fs), 1);
	assert_int_equal(fsc_stats(fs)->nr_reclaim_by_free, 1);
	fsc_destroy(fs);
	tdevs_fini(&t);
}

static void test_unusable_queues_at_commit(void **state)
{
	struct tdevs t;
	struct fsc *fs = mk(&t, 16, 75);
	struct fsc_bg *bg;
	uint64_t l;
	uint32_t i;

	/* a block group written to half and all freed but one unit: its used
	 * never was at 75% (no crossing), but half its length is unusable */
	for (i = 0; i < UNITS / 2; i++)
		assert_int_equal(fsc_alloc(fs, FSC_BG_DATA, 4096, i, 0, &bg, &l), 0);
	bg->nr_inflight = 0;
	free_units(fs, bg, 0, UNITS / 2 - 1);
	assert_false(bg->rc_queued);
	fsc_reclaim_commit(fs);
	assert_false(bg->rc_queued);              /* 50% unusable < 75% */
	for (; i < UNITS * 4 / 5; i++)
		assert_int_equal(fsc_alloc(fs, FSC_BG_DATA, 4096, i, 0, &bg, &l), 0);
	bg->nr_inflight = 0;
	free_units(fs, bg, UNITS / 2, UNITS * 4 / 5 - UNITS / 2 - 1);
	fsc_reclaim_commit(fs);                   /* ~80% unusable: queued */
	assert_true(bg->rc_queued);
	assert_int_equal(fsc_stats(fs)->nr_reclaim_by_unusable, 1);
	fsc_destroy(fs);
	tdevs_fini(&t);
}

static void test_pass_gate_order_skip_retry(void **state)
{
	struct tdevs t;
	struct fsc *fs = mk(&t, 8, 60);
	struct fsc_bg *a = full_bg(fs, 0), *b = full_bg(fs, UNITS), *c = full_bg(fs, 2 * UNITS);

	/* queue a (30% used), then b (10%), then c (30%): sorted b, a, c */
	free_units(fs, a, 0, UNITS * 7 / 10);
	free_units(fs, b, 0, UNITS * 9 / 10);
	free_units(fs, c, 0, UNITS * 7 / 10);
	assert_int_equal(fsc_reclaim_queued(fs), 3);
	/* 3 of 8 zones allocated (37%): the gate at 60% holds the pass back */
	assert_false(fsc_reclaim_pass_begin(fs));
	assert_int_equal(fsc_stats(fs)->nr_reclaim_gated, 1);
	full_bg(fs, 3 * UNITS);
	full_bg(fs, 4 * UNITS);                   /* 5 of 8: 62% */
	assert_true(fsc_reclaim_gate(fs));
	assert_true(fsc_reclaim_pass_begin(fs));
	assert_false(fsc_reclaim_pass_begin(fs)); /* one pass at a time */
	assert_ptr_equal(fsc_reclaim_next(fs), b);
	fsc_reclaim_retry(fs, b);                 /* its relocation failed */
	a->pinned_bytes = 4096;                   /* busy: dropped, not retried */
	assert_ptr_equal(fsc_reclaim_next(fs), c);
	assert_null(fsc_reclaim_next(fs));
	fsc_reclaim_pass_end(fs);
	assert_int_equal(fsc_stats(fs)->nr_reclaim_skipped, 1);
	assert_int_equal(fsc_reclaim_queued(fs), 1);  /* b, for the next pass */
	assert_true(b->rc_queued);
	assert_false(a->rc_queued);
	assert_false(c->rc_queued);
	a->pinned_bytes = 0;
	fsc_destroy(fs);
	tdevs_fini(&t);
}

static void test_removed_block_group_leaves_the_list(void **state)
{
	struct tdevs t;
	struct fsc *fs = mk(&t, 16, 75);
	struct fsc_bg *bg = full_bg(fs, 0);
	uint64_t start = bg->start;

	free_units(fs, bg, 0, UNITS / 2);
	assert_int_equal(fsc_reclaim_queued(fs), 1);
	free_units(fs, bg, UNITS / 2, UNITS - UNITS / 2);  /* empty: unused, for the cleaner */
	assert_true(bg->unused);
	assert_ptr_equal(fsc_bg_lookup(fs, start), bg);
	fsc_delete_unused(fs, 0);  /* btrfs_delete_unused_bgs(): reset, removed */
	assert_null(fsc_bg_lookup(fs, start));
	assert_int_equal(fsc_reclaim_queued(fs), 0);
	fsc_destroy(fs);
	tdevs_fini(&t);
}

/* Linux 6.1 keeps chunks off the zone of the superblock copy at 64 MiB
 * (btrfs_find_allocatable_zones()); mkfs.btrfs puts its first data chunk
 * on the next one.  The RFC's layout does neither. */
static void test_sb_copy_zone(void **state)
{
	struct tdevs t;
	struct fsc *fs = mk(&t, 80, 75);
	uint32_t z = (64u << 20) / T_ZONE_BYTES;
	struct fsc_dev *dev = &fs->devs[0];
	struct fsc_bg *bg;
	uint64_t start;

	assert_true(dev->sb_log);
	assert_true(fsc_bit(dev->used_bits, z));
	assert_false(fsc_zone_is_free(dev, z));
	/* mkfs's data chunk, where the file's data goes first */
	bg = fs->cur[0];
	assert_non_null(bg);
	assert_int_equal(bg->type, FSC_BG_DATA);
	assert_int_equal(bg->stripes[0].phys, (uint64_t)(z + 1) * T_ZONE_BYTES);
	/* zones 0-1 (the log) and 64 in no chunk, the rest free or in one */
	assert_int_equal(dev->nr_free + 3 + fsc_chunk_zones(fs, FSC_BG_DATA | FSC_BG_META |
							    FSC_BG_SYSTEM), 80);
	/* filled, emptied and deleted: its zone back in the pool */
	bg = full_bg(fs, 0);
	assert_int_equal(bg->stripes[0].phys, (uint64_t)(z + 1) * T_ZONE_BYTES);
	start = bg->start;
	free_units(fs, bg, 0, UNITS);
	fsc_delete_unused(fs, 0);
	assert_null(fsc_bg_lookup(fs, start));
	assert_true(fsc_zone_is_free(dev, z + 1));
	assert_false(fsc_zone_is_free(dev, z));
	/* the gate's count, kept on insert and removal, is the scan's */
	assert_int_equal(fs->nr_chunk_zones, fsc_chunk_zones(fs, FSC_BG_DATA | FSC_BG_META |
							     FSC_BG_SYSTEM));
	fsc_destroy(fs);
	tdevs_fini(&t);
}

/* With the superblock copy in a conventional zone 0 the kernel still keeps
 * chunks off the log's zone 1 and off the 64 MiB copy's zone, both
 * sequential here (btrfs_find_allocatable_zones(), zoned.c:1063-1083 of
 * 6.12, 6.1 alike): both Linux modes do; the RFC's layout keeps only the
 * zone its copy uses.  (fs-core puts no chunk in a conventional zone, so
 * with the e2e disk's 8 the rule changes nothing there.) */
static void sb_zones_conv(enum fsc_reclaim_mode mode, bool kept)
{
	struct tdevs t;
	struct fsc_cfg cfg;
	struct fsc *fs;
	struct fsc_dev *dev;
	uint32_t z64 = (64u << 20) / T_ZONE_BYTES;

	tdevs_init(&t, 1, 80, 1);
	tcfg(&cfg, &t, FSC_SINGLE);
	cfg.reclaim.mode = mode;
	assert_int_equal(fsc_create(&cfg, &fs), 0);
	dev = &fs->devs[0];
	assert_false(dev->sb_log);        /* the copies went to conventional zone 0 */
	assert_false(fsc_zone_is_free(dev, 0));
	assert_true(fsc_zone_is_free(dev, 1) != kept);
	assert_true(fsc_zone_is_free(dev, z64) != kept);
	/* the rest free or in a chunk */
	assert_int_equal(dev->nr_free + (kept ? 3 : 1) +
			 fsc_chunk_zones(fs, FSC_BG_DATA | FSC_BG_META | FSC_BG_SYSTEM), 80);
	fsc_destroy(fs);
	tdevs_fini(&t);
}

static void test_sb_log_zones_kept_with_conventional_copies(void **state)
{
	(void)state;
	sb_zones_conv(FSC_RECLAIM_LINUX_6_12, true);
	sb_zones_conv(FSC_RECLAIM_LINUX_6_1, true);
	sb_zones_conv(FSC_RECLAIM_OFF, false);
}

static void test_off_by_default(void **state)
{
	struct tdevs t;
	struct fsc_cfg cfg;
	struct fsc *fs;
	struct fsc_bg *bg;

	tdevs_init(&t, 1, 16, 0);
	tcfg(&cfg, &t, FSC_SINGLE);
	assert_int_equal(cfg.reclaim.mode, FSC_RECLAIM_OFF);
	assert_int_equal(fsc_create(&cfg, &fs), 0);
	bg = full_bg(fs, 0);
	free_units(fs, bg, 0, UNITS / 2);
	assert_int_equal(fsc_reclaim_queued(fs), 0);
	assert_false(fsc_reclaim_pass_begin(fs));
	fsc_destroy(fs);
	tdevs_fini(&t);
}

static void test_parse(void **state)
{
	struct fsc_reclaim_cfg r;
	char msg[256], buf[128];

	assert_int_equal(fsc_reclaim_parse("reserve", &r, msg, sizeof(msg)), 0);
	assert_int_equal(r.mode, FSC_RECLAIM_OFF);
	assert_int_equal(fsc_reclaim_parse("linux-6.1", &r, msg, sizeof(msg)), 0);
	assert_int_equal(r.mode, FSC_RECLAIM_LINUX_6_1);
	assert_int_equal(r.data_pct, 75);
	assert_int_equal(r.global_pct, 75);
	assert_int_equal(fsc_reclaim_parse("linux-6.1:data=50,meta=0,global=90", &r, msg,
					   sizeof(msg)), 0);
	assert_int_equal(r.data_pct, 50);
	assert_int_equal(r.meta_pct, 0);
	assert_int_equal(r.sys_pct, 75);
	assert_int_equal(r.global_pct, 90);
	fsc_reclaim_spec(&r, buf, sizeof(buf));
	assert_string_equal(buf, "linux-6.1:data=50,meta=0,sys=75,global=90");
	assert_int_equal(fsc_reclaim_parse(buf, &r, msg, sizeof(msg)), 0);  /* prints back */
	assert_int_equal(fsc_reclaim_parse("linux-6.1:global=0", &r, msg, sizeof(msg)), 0);
	static const struct { const char *in, *want; } bad[] = {
		{ "linux-6.2", "unknown mode" }, { "linux-6.10", "unknown mode" },
		{ "", "unknown mode" }, { "linux-6.1:", "no parameter after" },
		{ "linux-6.1:x=1", "'x' is not a parameter" }, { "linux-6.1:data", "is not a parameter" },
		{ "linux-6.1:data=", "percentage" }, { "linux-6.1:data=101", "percentage" },
		{ "linux-6.1:data=5x", "percentage" }, { "linux-6.1:data=-1", "percentage" },
		{ "linux-6.1:global=50", "51..100" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		msg[0] = 0;
		assert_int_equal(fsc_reclaim_parse(bad[i].in, &r, msg, sizeof(msg)), -EINVAL);
		if (!strstr(msg, bad[i].want))
			fail_msg("'%s': message '%s' lacks '%s'", bad[i].in, msg, bad[i].want);
	}
}

/* Linux 6.12's mode on @zones 1 MiB zones; the gate at 1% so a pass runs
 * whenever something is queued (the parser allows 0 or 51..100; the gate
 * is tested above). */
static struct fsc *mk612(struct tdevs *t, uint32_t zones, bool dynamic, bool periodic)
{
	struct fsc_cfg cfg;
	struct fsc *fs;

	tdevs_init(t, 1, zones, 0);
	tcfg(&cfg, t, FSC_SINGLE);
	cfg.reclaim.mode = FSC_RECLAIM_LINUX_6_12;
	cfg.reclaim.global_pct = 1;
	cfg.reclaim.dynamic = dynamic;
	cfg.reclaim.periodic = periodic;
	assert_int_equal(fsc_create(&cfg, &fs), 0);
	return fs;
}

/* @n units more in the current data block group (owners from @base). */
static struct fsc_bg *alloc_units(struct fsc *fs, uint32_t base, uint32_t n)
{
	struct fsc_bg *bg = NULL, *b;
	uint64_t l;
	uint32_t i;

	for (i = 0; i < n; i++) {
		assert_int_equal(fsc_alloc(fs, FSC_BG_DATA, 4096, base + i, 0, &b, &l), 0);
		bg = bg ? bg : b;
		assert_ptr_equal(b, bg);
	}
	bg->nr_inflight = 0;
	return bg;
}

/* A block group queued by a free while still open, that then regained
 * live data over the threshold: 6.12 skips it at its turn
 * (should_reclaim_block_group(bg, bg->length)), 6.1 relocates it. */
static void test_612_recheck_at_turn(void **state)
{
	for (int v612 = 0; v612 < 2; v612++) {
		struct tdevs t;
		struct fsc *fs = v612 ? mk612(&t, 16, false, false) : mk(&t, 16, 75);
		struct fsc_bg *bg;
		uint32_t n80 = UNITS * 8 / 10;

		if (!v612)
			fs->cfg.reclaim.global_pct = 1;
		bg = alloc_units(fs, 0, n80);             /* 80% live, open */
		free_units(fs, bg, 0, UNITS / 10);        /* 70%: under 75, queued */
		assert_true(bg->rc_queued);
		alloc_units(fs, n80, UNITS / 10 + 8);     /* live again: ~80% */
		assert_false(bg->alloc_done);
		assert_true(bg->used_bytes >= bg->len_bytes * 3 / 4);
		assert_true(fsc_reclaim_pass_begin(fs));
		if (v612) {
			assert_null(fsc_reclaim_next(fs));
			assert_int_equal(fsc_stats(fs)->nr_reclaim_rechecked, 1);
		} else {
			assert_ptr_equal(fsc_reclaim_next(fs), bg);  /* 6.1: no second look */
			assert_int_equal(fsc_stats(fs)->nr_reclaim_rechecked, 0);
		}
		fsc_reclaim_pass_end(fs);
		assert_int_equal(fsc_reclaim_queued(fs), 0);
		fsc_destroy(fs);
		tdevs_fini(&t);
	}
}

/* Queued, then emptied before its turn: 6.12 leaves it to the unused list
 * (btrfs_mark_bg_unused()), 6.1 hands it to the caller to relocate. */
static void test_612_empty_at_turn(void **state)
{
	for (int v612 = 0; v612 < 2; v612++) {
		struct tdevs t;
		struct fsc *fs = v612 ? mk612(&t, 16, false, false) : mk(&t, 16, 75);
		struct fsc_bg *bg = full_bg(fs, 0);

		if (!v612)
			fs->cfg.reclaim.global_pct = 1;
		free_units(fs, bg, 0, UNITS / 2);
		assert_true(bg->rc_queued);
		free_units(fs, bg, UNITS / 2, UNITS - UNITS / 2);
		assert_true(bg->unused);
		assert_true(fsc_reclaim_pass_begin(fs));
		if (v612) {
			assert_null(fsc_reclaim_next(fs));
			assert_int_equal(fsc_stats(fs)->nr_reclaim_empty, 1);
		} else {
			assert_ptr_equal(fsc_reclaim_next(fs), bg);
		}
		fsc_reclaim_pass_end(fs);
		fsc_destroy(fs);
		tdevs_fini(&t);
	}
}

/*
 * calc_dynamic_reclaim_threshold() by hand, 1 MiB zones (a data chunk is
 * a zone): target = 10 chunks = 10 MiB; want = target - unallocated;
 * T = want x 100 / target; 0 when the space holds under a chunk unused.
 */
static void test_612_dynamic_threshold(void **state)
{
	struct tdevs t;
	struct fsc *fs = mk612(&t, 16, true, false);
	struct fsc_bg *bg;
	uint32_t unalloc;

	/* the system chunk only (no superblock copy zone on 16 MiB, so no
	 * mkfs data chunk): the data space holds nothing unused, T = 0 */
	assert_int_equal(fs->nr_chunk_zones, 1);
	assert_int_equal(fsc_reclaim_thresh(fs, FSC_BG_DATA), 0);
	assert_int_equal(fsc_bg_create(fs, FSC_BG_DATA, 0, &bg), 0);  /* empty: 1 MiB unused */
	unalloc = 16 - 2;                             /* 14 MiB >= target: want 0 */
	assert_int_equal(fsc_reclaim_thresh(fs, FSC_BG_DATA), 0);
	while (unalloc > 7) {                          /* more empty data chunks */
		assert_int_equal(fsc_bg_create(fs, FSC_BG_DATA, 0, &bg), 0);
		unalloc--;
	}
	assert_int_equal(16 - fs->nr_chunk_zones, 7);
	assert_int_equal(fsc_reclaim_thresh(fs, FSC_BG_DATA), (10 - 7) * 100 / 10);   /* 30 */
	while (unalloc > 3) {
		assert_int_equal(fsc_bg_create(fs, FSC_BG_DATA, 0, &bg), 0);
		unalloc--;
	}
	assert_int_equal(fsc_reclaim_thresh(fs, FSC_BG_DATA), (10 - 3) * 100 / 10);   /* 70 */
	/* down to the superblock log's two zones, in no chunk: they count as
	 * unallocated, as in free_chunk_space (device size - bytes_used) */
	while (unalloc > 2) {
		assert_int_equal(fsc_bg_create(fs, FSC_BG_DATA, 0, &bg), 0);
		unalloc--;
	}
	assert_int_equal(fsc_reclaim_thresh(fs, FSC_BG_DATA), (10 - 2) * 100 / 10);   /* 80 */
	assert_int_equal(fsc_bg_create(fs, FSC_BG_DATA, 0, &bg), -ENOSPC);
	/* no metadata chunk: nothing unused there, 0 */
	assert_int_equal(fsc_reclaim_thresh(fs, FSC_BG_META), 0);
	/* static thresholds when dynamic is off */
	fs->cfg.reclaim.dynamic = false;
	fs->cfg.reclaim.data_pct = 60;
	assert_int_equal(fsc_reclaim_thresh(fs, FSC_BG_DATA), 60);
	fsc_destroy(fs);
	tdevs_fini(&t);

	/* every data block group written full: what was freed behind the
	 * write pointers (zone_unusable) counts as used, so however short
	 * the disk, T = 0 */
	fs = mk612(&t, 16, true, false);
	for (uint32_t i = 0; i < 11; i++)
		full_bg(fs, i * UNITS);
	assert_int_equal(16 - fs->nr_chunk_zones, 4);
	bg = full_bg(fs, 11 * UNITS);                 /* 3 MiB unallocated: want 70 ... */
	free_units(fs, bg, 0, UNITS / 2);             /* half of it unusable now */
	assert_int_equal(fsc_reclaim_thresh(fs, FSC_BG_DATA), 0);  /* ... but 0 */
	assert_int_equal(fsc_bg_create(fs, FSC_BG_DATA, 0, &bg), 0);  /* 1 MiB unused */
	assert_int_equal(fsc_reclaim_thresh(fs, FSC_BG_DATA), (10 - 2) * 100 / 10);  /* 80 */
	fsc_destroy(fs);
	tdevs_fini(&t);
}

/* periodic=1: frees queue nothing; a space is swept once a chunk's worth
 * was freed net of allocations, the sweep takes block groups under the
 * threshold it saw before (mark set) and untouched since; a failed
 * relocation is not retried. */
static void test_612_periodic_sweep(void **state)
{
	struct tdevs t;
	struct fsc *fs = mk612(&t, 16, false, false);
	struct fsc_bg *a = full_bg(fs, 0), *b = full_bg(fs, UNITS), *c;

	/* an allocation takes its bytes off the reclaimable ones (the fill
	 * would leave them 2 MiB short): switched on after it, as the sysfs
	 * knob is after mount */
	fs->cfg.reclaim.periodic = true;
	free_units(fs, a, 0, UNITS * 3 / 10);        /* 70%: would cross in 6.1 */
	assert_false(a->rc_queued);
	assert_int_equal(fsc_stats(fs)->nr_reclaim_by_free, 0);
	assert_false(fsc_reclaim_ready(fs, FSC_BG_DATA));  /* 0.3 MiB < a chunk */
	assert_false(fsc_reclaim_pass_begin(fs));
	assert_int_equal(fsc_stats(fs)->nr_reclaim_sweeps, 0);  /* not ready: no sweep */
	c = alloc_units(fs, 2 * UNITS, 4);           /* open, allocated: 16 KiB back */
	free_units(fs, b, 0, UNITS * 8 / 10);        /* 1.1 MiB - 16 KiB >= 1 MiB */
	assert_true(fsc_reclaim_ready(fs, FSC_BG_DATA));
	assert_false(fsc_reclaim_ready(fs, FSC_BG_META));
	assert_false(fsc_reclaim_ready(fs, FSC_BG_SYSTEM));
	/* first sweep: no mark set yet (all allocated into since), none taken */
	assert_false(fsc_reclaim_pass_begin(fs));
	assert_int_equal(fsc_stats(fs)->nr_reclaim_sweeps, 1);
	assert_int_equal(fsc_reclaim_queued(fs), 0);
	assert_true(fsc_reclaim_ready(fs, FSC_BG_DATA));  /* still ready */
	alloc_units(fs, 2 * UNITS + 4, 4);           /* c allocated again: mark cleared */
	/* second sweep: a and b (stale, under 75%), not c (fresh) */
	assert_true(fsc_reclaim_pass_begin(fs));
	assert_int_equal(fsc_stats(fs)->nr_reclaim_sweeps, 2);
	assert_int_equal(fsc_stats(fs)->nr_reclaim_by_sweep, 2);
	assert_false(c->rc_queued);
	assert_false(fsc_reclaim_ready(fs, FSC_BG_DATA));  /* swept: not ready */
	assert_ptr_equal(fsc_reclaim_next(fs), b);  /* 20% before a's 70% */
	fsc_reclaim_retry(fs, b);                   /* failed: not retried */
	assert_ptr_equal(fsc_reclaim_next(fs), a);
	assert_null(fsc_reclaim_next(fs));
	fsc_reclaim_pass_end(fs);
	assert_int_equal(fsc_stats(fs)->nr_reclaim_dropped, 1);
	assert_int_equal(fsc_reclaim_queued(fs), 0);
	assert_false(fsc_reclaim_pass_begin(fs));   /* not ready: no third sweep */
	assert_int_equal(fsc_stats(fs)->nr_reclaim_sweeps, 2);
	fsc_destroy(fs);
	tdevs_fini(&t);
}

static void test_parse_612(void **state)
{
	struct fsc_reclaim_cfg r, back;
	char msg[512], buf[160];

	assert_int_equal(fsc_reclaim_parse("linux-6.12", &r, msg, sizeof(msg)), 0);
	assert_int_equal(r.mode, FSC_RECLAIM_LINUX_6_12);
	assert_int_equal(r.data_pct, 75);
	assert_int_equal(r.global_pct, 75);
	assert_false(r.dynamic);                      /* the kernel's defaults: off */
	assert_false(r.periodic);
	fsc_reclaim_spec(&r, buf, sizeof(buf));
	assert_string_equal(buf, "linux-6.12:data=75,meta=75,sys=75,global=75,dynamic=0,periodic=0");
	assert_int_equal(fsc_reclaim_parse("linux-6.12:meta=60,dynamic=1,periodic=1,global=0", &r,
					   msg, sizeof(msg)), 0);
	assert_int_equal(r.meta_pct, 60);
	assert_int_equal(r.global_pct, 0);
	assert_true(r.dynamic);
	assert_true(r.periodic);
	fsc_reclaim_spec(&r, buf, sizeof(buf));
	assert_string_equal(buf, "linux-6.12:data=75,meta=60,sys=75,global=0,dynamic=1,periodic=1");
	assert_int_equal(fsc_reclaim_parse(buf, &back, msg, sizeof(msg)), 0);  /* round trip */
	assert_memory_equal(&r, &back, sizeof(r));
	static const struct { const char *in, *want; } bad[] = {
		{ "linux-6.123", "unknown mode" }, { "linux-6.12x", "unknown mode" },
		{ "linux-6.12:", "no parameter after" },
		{ "linux-6.12:foo=1", "'foo' is not a parameter" },
		{ "linux-6.12:dynamic", "'dynamic' is not a parameter" },
		{ "linux-6.12:dynamic=2", "dynamic must be 0 or 1" },
		{ "linux-6.12:periodic=", "periodic must be 0 or 1" },
		{ "linux-6.12:periodic=-1", "periodic must be 0 or 1" },
		{ "linux-6.12:dynamic=1x", "dynamic must be 0 or 1" },
		{ "linux-6.12:data=101", "percentage" },
		{ "linux-6.12:global=50", "51..100" },
		{ "linux-6.1:dynamic=1", "knob of Linux 6.12" },
		{ "linux-6.1:periodic=0", "knob of Linux 6.12" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		msg[0] = 0;
		assert_int_equal(fsc_reclaim_parse(bad[i].in, &r, msg, sizeof(msg)), -EINVAL);
		if (!strstr(msg, bad[i].want))
			fail_msg("'%s': message '%s' lacks '%s'", bad[i].in, msg, bad[i].want);
		if (!strstr(msg, bad[i].in))
			fail_msg("'%s': message '%s' does not name the spec", bad[i].in, msg);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_free_crossing_queues_once),
		cmocka_unit_test(test_unusable_queues_at_commit),
		cmocka_unit_test(test_pass_gate_order_skip_retry),
		cmocka_unit_test(test_removed_block_group_leaves_the_list),
		cmocka_unit_test(test_sb_copy_zone),
		cmocka_unit_test(test_sb_log_zones_kept_with_conventional_copies),
		cmocka_unit_test(test_off_by_default),
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_612_recheck_at_turn),
		cmocka_unit_test(test_612_empty_at_turn),
		cmocka_unit_test(test_612_dynamic_threshold),
		cmocka_unit_test(test_612_periodic_sweep),
		cmocka_unit_test(test_parse_612),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
