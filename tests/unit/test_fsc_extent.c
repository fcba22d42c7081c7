/*
 * test_fsc_extent.c — buffered writes in fs-core (issue 31): delalloc
 * writeback in file order (fsc_writeback_next()), extents freed whole
 * (cfg.extent_refs: bookends, relocated with their dead blocks), and an
 * fsync's tree log in its own block group (fsc_log_sync()).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "fsc_test_util.h"

#define BLK 4096u
#define EXT (64u << 10)

static struct fsc *mk(struct tdevs *t, bool refs, bool btrfs)
{
	struct fsc_cfg cfg;
	struct fsc *fs;

	tdevs_init(t, 1, 32, 0);
	tcfg(&cfg, t, FSC_SINGLE);
	cfg.file_bytes = 8u << 20;
	cfg.extent_refs = refs;
	if (btrfs) {
		cfg.meta_model = FSC_META_BTRFS;
		cfg.extent_bytes = EXT;
	}
	assert_int_equal(fsc_create(&cfg, &fs), 0);
	return fs;
}

/* One extent of @n blocks at @lbn, written synchronously. */
static void wr(struct fsc *fs, uint64_t lbn, uint32_t n)
{
	struct fsc_bio *b;

	assert_int_equal(fsc_write_file(fs, lbn, n, 0, &b), 0);
	assert_int_equal(fsc_submit(fs, b, 0), 0);
}

static void test_writeback_is_in_file_order_runs_merged(void **state)
{
	struct tdevs t;
	struct fsc *fs = mk(&t, false, false);
	uint64_t lbn = 0;

	/* written out of order: 40-43, 10-11, 12-13 (adjacent), 100, 10 again */
	assert_int_equal(fsc_buffer_write(fs, 40, 4), 4);
	assert_int_equal(fsc_buffer_write(fs, 10, 2), 2);
	assert_int_equal(fsc_buffer_write(fs, 12, 2), 2);
	assert_int_equal(fsc_buffer_write(fs, 100, 1), 1);
	assert_int_equal(fsc_buffer_write(fs, 10, 1), 0);  /* dirty already */
	assert_int_equal(fsc_dirty_blocks(fs), 9);
	assert_int_equal(fsc_writeback_next(fs, 16, &lbn), 4);  /* 10-13: one run */
	assert_int_equal(lbn, 10);
	assert_int_equal(fsc_writeback_next(fs, 3, &lbn), 3);   /* 40-42: capped */
	assert_int_equal(lbn, 40);
	assert_int_equal(fsc_writeback_next(fs, 16, &lbn), 1);  /* the cap's rest */
	assert_int_equal(lbn, 43);
	assert_int_equal(fsc_writeback_next(fs, 16, &lbn), 1);
	assert_int_equal(lbn, 100);
	assert_int_equal(fsc_writeback_next(fs, 16, &lbn), 0);  /* clean */
	assert_int_equal(fsc_dirty_blocks(fs), 0);
	fsc_destroy(fs);
	tdevs_fini(&t);
}

static void test_buffered_bad_input_is_einval(void **state)
{
	struct tdevs t;
	struct fsc *fs = mk(&t, false, false);
	uint64_t lbn = 7;
	uint64_t nr = (8u << 20) / BLK;

	assert_int_equal(fsc_buffer_write(fs, 0, 0), -EINVAL);
	assert_int_equal(fsc_buffer_write(fs, nr, 1), -EINVAL);
	assert_int_equal(fsc_buffer_write(fs, nr - 1, 2), -EINVAL);
	assert_int_equal(fsc_dirty_blocks(fs), 0);
	assert_int_equal(fsc_buffer_write(fs, nr - 1, 1), 1);
	assert_int_equal(fsc_writeback_next(fs, 0, &lbn), -EINVAL);
	assert_int_equal(lbn, 7);
	assert_int_equal(fsc_writeback_next(fs, 1, &lbn), 1);  /* the last block */
	assert_int_equal(lbn, nr - 1);
	fsc_destroy(fs);
	tdevs_fini(&t);
}

static void test_bookend_keeps_extent_until_last_block(void **state)
{
	struct tdevs t;
	struct fsc *fs = mk(&t, true, false);
	const struct fsc_stats *st = fsc_stats(fs);
	struct fsc_file_loc loc;
	struct fsc_bg *bg;

	wr(fs, 0, 16);  /* one 64 KiB extent */
	assert_int_equal(fsc_file_locate(fs, 0, 1, &loc), 1);
	bg = fsc_bg_lookup(fs, loc.logical);
	assert_int_equal(fsc_bg_used_bytes(bg), 16 * BLK);
	wr(fs, 4, 4);   /* its middle overwritten: the old blocks stay allocated */
	assert_int_equal(fsc_bg_used_bytes(bg), 20 * BLK);
	assert_int_equal(st->bookend_bytes, 4 * BLK);
	assert_int_equal(st->nr_bookend_freed, 0);
	wr(fs, 0, 4);
	wr(fs, 8, 7);
	assert_int_equal(fsc_bg_used_bytes(bg), 31 * BLK);
	wr(fs, 15, 1);  /* its last block: all 16 freed at once */
	assert_int_equal(st->nr_bookend_freed, 1);
	assert_int_equal(fsc_bg_used_bytes(bg), 16 * BLK);
	/* a discard drops references the same way */
	assert_int_equal(fsc_discard_file(fs, 0, 8, 0), 8);
	assert_int_equal(fsc_bg_used_bytes(bg), 8 * BLK);  /* 0-3, 4-7: extents of 4, freed */
	assert_int_equal(st->nr_bookend_freed, 3);
	fsc_destroy(fs);
	tdevs_fini(&t);
}

static void test_relocation_copies_dead_blocks(void **state)
{
	struct tdevs t;
	struct fsc *fs = mk(&t, true, false);
	const struct fsc_stats *st = fsc_stats(fs);
	struct fsc_bio *list, *b, *next;
	struct fsc_file_loc loc;
	struct fsc_bg *bg;
	int n;

	wr(fs, 0, 16);
	wr(fs, 0, 8);   /* 8 dead blocks of the first extent, 8 live */
	assert_int_equal(fsc_file_locate(fs, 8, 1, &loc), 1);
	bg = fsc_bg_lookup(fs, loc.logical);
	n = fsc_relocate(fs, bg, 0, &list);
	assert_int_equal(n, 24);  /* 16 of the first extent (dead ones too), 8 of the second */
	for (b = list; b; b = next) {
		next = b->next;
		assert_int_equal(fsc_submit(fs, b, 0), 0);
	}
	/* the moved extent is still one: its live half overwritten frees all 16 */
	wr(fs, 8, 8);
	assert_int_equal(st->nr_bookend_freed, 1);
	fsc_destroy(fs);
	tdevs_fini(&t);
}

static void test_extent_refs_with_zone_append_is_einval(void **state)
{
	struct fsc_cfg cfg;
	struct tdevs t;
	struct fsc *fs = NULL;

	tdevs_init(&t, 1, 32, 0);
	tcfg(&cfg, &t, FSC_SINGLE);
	cfg.file_bytes = 8u << 20;
	cfg.extent_refs = true;
	cfg.order = FSC_ORDER_APPEND;
	assert_int_equal(fsc_create(&cfg, &fs), -EINVAL);
	assert_null(fs);
	tdevs_fini(&t);
}

static void test_log_bg_on_first_fsync_counted_reset_after_commit(void **state)
{
	struct tdevs t;
	struct fsc *fs = mk(&t, true, true);
	const struct fsc_stats *st = fsc_stats(fs);
	struct fsc_bio *list, *b, *next;
	uint32_t meta_zones;
	struct fsc_bg *log;
	uint64_t log_start;
	int n, i;

	wr(fs, 0, 16);
	assert_true(tcommit(fs) > 0);  /* the ordinary metadata block group exists */
	meta_zones = fsc_chunk_zones(fs, FSC_BG_META);
	assert_int_equal(fsc_log_bg_start(fs), 0);  /* no fsync yet */
	n = fsc_log_sync(fs, 2, 0, &list);
	assert_int_equal(n, 2);
	assert_int_not_equal(fsc_log_bg_start(fs), 0);
	log = fsc_bg_lookup(fs, fsc_log_bg_start(fs));
	assert_non_null(log);
	/* a block group of its own, empty when taken: both blocks at its start */
	assert_int_equal(list->logical, fsc_log_bg_start(fs));
	assert_int_equal(list->owner, FSC_LOG_OWNER);
	assert_int_equal(list->kind, FSC_KIND_META);
	/* counted in the chunks the reclaim gate reads */
	assert_int_equal(fsc_chunk_zones(fs, FSC_BG_META), meta_zones + 1);
	assert_int_equal(st->nr_log_bgs, 1);
	for (b = list; b; b = next) {
		next = b->next;
		assert_int_equal(fsc_submit(fs, b, 0), 0);
	}
	assert_int_equal(fsc_bg_used_bytes(log), 2 * 16384);
	/* a second fsync: the same block group */
	assert_int_equal(fsc_log_sync(fs, 1, 0, &list), 1);
	assert_int_equal(list->logical, fsc_log_bg_start(fs) + 2 * 16384);
	assert_int_equal(fsc_submit(fs, list, 0), 0);
	/* the commit frees the log */
	assert_true(tcommit(fs) >= 0);
	assert_int_equal(fsc_bg_used_bytes(log), 0);
	/* fill it: the next log block takes a new one, the full empty one goes */
	for (i = 3; i < (int)(log->len_bytes / 16384); i++) {
		assert_int_equal(fsc_log_sync(fs, 1, 0, &list), 1);
		assert_int_equal(fsc_submit(fs, list, 0), 0);
	}
	assert_int_equal(fsc_log_sync(fs, 1, 0, &list), 1);
	assert_int_equal(fsc_submit(fs, list, 0), 0);
	assert_int_equal(st->nr_log_bgs, 2);
	log_start = log->start;  /* log may be freed from the commit on */
	assert_true(fsc_log_bg_start(fs) != log_start);
	n = tcommit(fs);
	assert_true(n >= 0);
	fsc_delete_unused(fs, 0);
	assert_null(fsc_bg_lookup(fs, log_start));  /* reset and removed */
	fsc_destroy(fs);
	tdevs_fini(&t);
}

static void test_log_sync_without_btrfs_model_is_einval(void **state)
{
	struct tdevs t;
	struct fsc *fs = mk(&t, false, false);
	struct fsc_bio *list = (struct fsc_bio *)1;

	assert_int_equal(fsc_log_sync(fs, 2, 0, &list), -EINVAL);
	assert_null(list);
	assert_int_equal(fsc_log_bg_start(fs), 0);
	fsc_destroy(fs);
	tdevs_fini(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_writeback_is_in_file_order_runs_merged),
		cmocka_unit_test(test_buffered_bad_input_is_einval),
		cmocka_unit_test(test_bookend_keeps_extent_until_last_block),
		cmocka_unit_test(test_relocation_copies_dead_blocks),
		cmocka_unit_test(test_extent_refs_with_zone_append_is_einval),
		cmocka_unit_test(test_log_bg_on_first_fsync_counted_reset_after_commit),
		cmocka_unit_test(test_log_sync_without_btrfs_model_is_einval),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
