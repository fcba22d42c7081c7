/*
 * test_fsc_submit.c — fs-core write ordering: the submit buffer (009) holds
 * out-of-order bios sorted and sends them in sequence, a bio below the
 * submit offset is the unaligned case, the expiry timer fails stalled bios
 * and their block group (010); without ordering the device refuses writes;
 * zone append fixes the address up at completion; released tree blocks are
 * redirtied (011) or zeroed, or leave a hole; relocation and ENOSPC.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "fsc_test_util.h"

struct cap {
	struct fsc *fs;
	struct fsc_bio *sent[4096];
	uint32_t nr_sent;
	uint32_t nr_failed;
	int last_failed;
};

static void cap_dispatch(void *arg, struct fsc_bio *bio)
{
	struct cap *c = arg;

	c->sent[c->nr_sent++] = bio;
}

static void cap_failed(void *arg, struct fsc_bio *bio)
{
	struct cap *c = arg;

	c->nr_failed++;
	c->last_failed = bio->status;
}

static const struct fsc_owner_ops cap_ops = { .dispatch = cap_dispatch, .failed = cap_failed };

/* Execute and complete what was dispatched, in dispatch order. */
static void drain(struct cap *c)
{
	uint32_t i;

	for (i = 0; i < c->nr_sent; i++) {
		fsc_bio_execute(c->fs, c->sent[i]);
		fsc_bio_complete(c->fs, c->sent[i], 0);
	}
	c->nr_sent = 0;
}

struct fx {
	struct tdevs t;
	struct fsc_cfg cfg;
	struct fsc *fs;
	struct cap cap;
};

/* One device of @nr_zones x 1 MiB (zone 0 conventional), SINGLE, a file of
 * @file_bytes; @fanout 0 = no tree model. */
static struct fx *fx_new_geo(enum fsc_order order, enum fsc_release rel, uint32_t fanout,
			     uint32_t nr_zones, uint64_t file_bytes)
{
	struct fx *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	tdevs_init(&f->t, 1, nr_zones, 1);
	tcfg(&f->cfg, &f->t, FSC_SINGLE);
	f->cfg.order = order;
	f->cfg.release = rel;
	f->cfg.file_bytes = file_bytes;
	f->cfg.tree_fanout = fanout;
	f->cfg.leaf_items = 8;
	assert_int_equal(fsc_create(&f->cfg, &f->fs), 0);
	f->cap.fs = f->fs;
	fsc_set_owner(f->fs, &cap_ops, &f->cap);
	return f;
}

static struct fx *fx_new(enum fsc_order order, enum fsc_release rel, uint32_t fanout)
{
	return fx_new_geo(order, rel, fanout, 32, 4u << 20);
}

static void fx_free(struct fx *f)
{
	fsc_destroy(f->fs);
	tdevs_fini(&f->t);
	free(f);
}

static void test_fsc_submit_buffer_holds_and_sends_in_order(void **state)
{
	struct fx *f = fx_new(FSC_ORDER_SUBMIT_BUFFER, FSC_RELEASE_REDIRTY, 0);
	struct fsc_bio *a, *b, *c;

	assert_int_equal(fsc_write_file(f->fs, 10, 1, 0, &a), 0);
	assert_int_equal(fsc_write_file(f->fs, 11, 2, 0, &b), 0);
	assert_int_equal(fsc_write_file(f->fs, 12, 1, 0, &c), 0);
	assert_int_equal(fsc_submit(f->fs, c, 1), 0);
	assert_int_equal(fsc_submit(f->fs, b, 2), 0);
	assert_int_equal(f->cap.nr_sent, 0);
	assert_int_equal(fsc_stats(f->fs)->sbuf_now, 2);
	assert_int_equal(fsc_submit(f->fs, a, 3), 0);
	assert_int_equal(f->cap.nr_sent, 3);
	assert_ptr_equal(f->cap.sent[0], a);
	assert_ptr_equal(f->cap.sent[1], b);
	assert_ptr_equal(f->cap.sent[2], c);
	assert_int_equal(fsc_stats(f->fs)->sbuf_now, 0);
	assert_int_equal(fsc_stats(f->fs)->sbuf_max, 2);
	drain(&f->cap);
	assert_int_equal(fsc_stats(f->fs)->nr_dev_errors, 0);
	fx_free(f);
}

static void test_fsc_submit_below_offset_is_unaligned_and_device_refuses(void **state)
{
	struct fx *f = fx_new(FSC_ORDER_SUBMIT_BUFFER, FSC_RELEASE_REDIRTY, 0);
	struct fsc_bio *a, *dup;

	assert_int_equal(fsc_write_file(f->fs, 0, 1, 0, &a), 0);
	assert_int_equal(fsc_write_file(f->fs, 1, 1, 0, &dup), 0);
	dup->logical = a->logical;  /* a second write to an address already sent */
	assert_int_equal(fsc_submit(f->fs, a, 0), 0);
	assert_int_equal(fsc_submit(f->fs, dup, 0), FSC_E_SUBMIT_UNALIGNED);
	assert_int_equal(fsc_stats(f->fs)->nr_submit_unaligned, 1);
	assert_int_equal(f->cap.nr_sent, 2);  /* sent anyway, as the RFC does */
	drain(&f->cap);
	assert_int_equal(fsc_stats(f->fs)->nr_dev_errors, 1);
	assert_int_equal(fsc_stats(f->fs)->last_dev_error, ZL_E_UNALIGNED);
	fx_free(f);
}

static void test_fsc_submit_buffer_expires_after_timeout(void **state)
{
	struct fx *f = fx_new(FSC_ORDER_SUBMIT_BUFFER, FSC_RELEASE_REDIRTY, 0);
	struct fsc_bio *a, *b, *c;
	struct fsc_bg *expired;
	uint64_t s = 1000000000ULL;

	assert_int_equal(fsc_write_file(f->fs, 0, 1, 0, &a), 0);
	assert_int_equal(fsc_write_file(f->fs, 1, 1, 0, &b), 0);
	assert_int_equal(fsc_write_file(f->fs, 2, 1, 0, &c), 0);
	assert_true(fsc_next_expiry_ns(f->fs) == UINT64_MAX);
	expired = b->bg;
	assert_int_equal(fsc_submit(f->fs, b, 10 * s), 0);  /* a stalls */
	assert_int_equal(fsc_next_expiry_ns(f->fs), 100 * s);
	assert_int_equal(fsc_expire(f->fs, 99 * s), 0);
	assert_int_equal(fsc_expire(f->fs, 100 * s), 1);
	assert_int_equal(f->cap.nr_failed, 1);
	assert_int_equal(f->cap.last_failed, FSC_E_EXPIRED);
	assert_int_equal(fsc_stats(f->fs)->nr_bg_expired, 1);
	assert_int_equal(fsc_stats(f->fs)->sbuf_now, 0);
	assert_true(expired->expired && expired->alloc_done);
	assert_true(fsc_next_expiry_ns(f->fs) == UINT64_MAX);
	/* the block group is failed: later bios into it fail too */
	assert_int_equal(fsc_submit(f->fs, a, 101 * s), FSC_E_EXPIRED);
	assert_int_equal(fsc_submit(f->fs, c, 101 * s), FSC_E_EXPIRED);
	assert_int_equal(f->cap.nr_sent, 0);
	assert_int_equal(fsc_stats(f->fs)->nr_expired, 3);
	/* new writes go to a new block group */
	assert_int_equal(fsc_write_file(f->fs, 3, 1, 0, &a), 0);
	assert_ptr_not_equal(a->bg, expired);
	assert_int_equal(a->logical, a->bg->start);
	assert_int_equal(fsc_submit(f->fs, a, 102 * s), 0);
	assert_int_equal(f->cap.nr_sent, 1);
	drain(&f->cap);
	assert_int_equal(fsc_stats(f->fs)->nr_dev_errors, 0);
	fx_free(f);
}

static void test_fsc_expiry_is_configurable(void **state)
{
	struct fx *f = fx_new(FSC_ORDER_SUBMIT_BUFFER, FSC_RELEASE_REDIRTY, 0);
	struct fsc_bio *a, *b;

	f->fs->cfg.expire_ns = 5000;
	assert_int_equal(fsc_write_file(f->fs, 0, 1, 0, &a), 0);
	assert_int_equal(fsc_write_file(f->fs, 1, 1, 0, &b), 0);
	assert_int_equal(fsc_submit(f->fs, b, 1000), 0);
	assert_int_equal(fsc_next_expiry_ns(f->fs), 6000);
	assert_int_equal(fsc_expire(f->fs, 6000), 1);
	assert_int_equal(fsc_submit(f->fs, a, 7000), FSC_E_EXPIRED);
	fx_free(f);
}

/* Fill a new data block group with lbns @lbn.. and keep only its first unit live. */
static struct fsc_bg *bg_with_one_live_unit(struct fx *f, uint64_t lbn)
{
	struct fsc_bio *a;
	struct fsc_bg *bg;
	uint64_t i;

	for (i = 0; i < 256; i++) {
		assert_int_equal(fsc_write_file(f->fs, lbn + i, 1, 0, &a), 0);
		assert_int_equal(fsc_submit(f->fs, a, 0), 0);
	}
	drain(&f->cap);
	bg = a->bg;
	for (i = 1; i < 256; i++) {  /* as if deleted */
		fsc_free_extent(f->fs, f->fs->file_map[lbn + i], 4096, 0);
		f->fs->file_map[lbn + i] = FSC_NO_ADDR;
	}
	assert_int_equal(fsc_bg_used_bytes(bg), 4096);
	return bg;
}

/* Expiring a block group can remove several before it (the relocation
 * sources of its held bios): a block group after it that is due as well
 * still expires in the same call. */
static void test_fsc_expiry_removing_two_sources_still_expires_the_next(void **state)
{
	struct fx *f = fx_new_geo(FSC_ORDER_SUBMIT_BUFFER, FSC_RELEASE_REDIRTY, 0, 32, 8u << 20);
	struct fsc_bg *src1, *src2, *later;
	struct fsc_bio *hole, *first, *a, *l1, *l2;
	uint64_t lbn;

	src1 = bg_with_one_live_unit(f, 0);
	src2 = bg_with_one_live_unit(f, 256);
	/* a new block group: unit 0 never submitted, the moves land behind it */
	assert_int_equal(fsc_write_file(f->fs, 512, 1, 0, &hole), 0);
	assert_int_equal(fsc_relocate(f->fs, src1, 0, &l1), 1);
	assert_int_equal(fsc_relocate(f->fs, src2, 0, &l2), 1);
	assert_ptr_equal(l1->bg, hole->bg);
	assert_int_equal(fsc_submit(f->fs, l1, 0), 0);
	assert_int_equal(fsc_submit(f->fs, l2, 0), 0);
	for (lbn = 513; lbn < 513 + 253; lbn++) {  /* fill it up, held as well */
		assert_int_equal(fsc_write_file(f->fs, lbn, 1, 0, &a), 0);
		assert_int_equal(fsc_submit(f->fs, a, 0), 0);
	}
	/* the next block group holds one bio too, due at the same time */
	assert_int_equal(fsc_write_file(f->fs, lbn, 1, 0, &first), 0);
	assert_int_equal(fsc_write_file(f->fs, lbn + 1, 1, 0, &a), 0);
	later = a->bg;
	assert_ptr_not_equal(later, hole->bg);
	assert_int_equal(fsc_submit(f->fs, a, 0), 0);
	assert_int_equal(f->fs->nr_bgs, 4);
	assert_ptr_equal(f->fs->bgs[0], src1);
	assert_ptr_equal(f->fs->bgs[1], src2);
	assert_ptr_equal(f->fs->bgs[3], later);

	assert_int_equal(fsc_expire(f->fs, f->cfg.expire_ns), 2 + 253 + 1);
	assert_int_equal(fsc_stats(f->fs)->nr_bg_expired, 2);
	assert_true(later->expired);
	assert_int_equal(later->nr_held, 0);
	assert_int_equal(f->fs->nr_bgs, 2);  /* both sources gone */
	assert_true(fsc_next_expiry_ns(f->fs) == UINT64_MAX);
	/* the bios that were never submitted fail with their block groups */
	assert_int_equal(fsc_submit(f->fs, hole, f->cfg.expire_ns), FSC_E_EXPIRED);
	assert_int_equal(fsc_submit(f->fs, first, f->cfg.expire_ns), FSC_E_EXPIRED);
	fx_free(f);
}

static void test_fsc_no_ordering_reaches_device_unaligned(void **state)
{
	struct fx *f = fx_new(FSC_ORDER_NONE, FSC_RELEASE_REDIRTY, 0);
	struct fsc_bio *a, *b;

	assert_int_equal(fsc_write_file(f->fs, 0, 1, 0, &a), 0);
	assert_int_equal(fsc_write_file(f->fs, 1, 1, 0, &b), 0);
	assert_int_equal(fsc_submit(f->fs, b, 0), 0);
	assert_int_equal(fsc_submit(f->fs, a, 0), 0);
	assert_int_equal(f->cap.nr_sent, 2);
	drain(&f->cap);
	/* b at offset 4 KiB of an empty zone is refused; a, at the WP, is not */
	assert_int_equal(fsc_stats(f->fs)->nr_dev_errors, 1);
	assert_int_equal(fsc_stats(f->fs)->last_dev_error, ZL_E_UNALIGNED);
	fx_free(f);
}

static void test_fsc_zone_append_fixes_address_at_completion(void **state)
{
	struct fx *f = fx_new(FSC_ORDER_APPEND, FSC_RELEASE_REDIRTY, 0);
	struct fsc_bio *a, *b;
	uint64_t start;

	assert_int_equal(fsc_write_file(f->fs, 5, 1, 0, &a), 0);
	assert_int_equal(fsc_write_file(f->fs, 6, 1, 0, &b), 0);
	start = a->bg->start;
	assert_int_equal(fsc_submit(f->fs, b, 0), 0);  /* b first: no hold */
	assert_int_equal(fsc_submit(f->fs, a, 0), 0);
	assert_int_equal(f->cap.nr_sent, 2);
	drain(&f->cap);
	assert_int_equal(fsc_stats(f->fs)->nr_dev_errors, 0);
	assert_int_equal(f->fs->file_map[6], start);        /* landed first */
	assert_int_equal(f->fs->file_map[5], start + 4096);
	fx_free(f);
}

static void commit_all(struct fx *f, bool reverse)
{
	struct fsc_bio *list, *v[256], *b;
	int n, i = 0;

	n = fsc_commit_start(f->fs, 0, &list);
	assert_true(n > 0 && n < 256);
	for (b = list; b; b = b->next)
		v[i++] = b;
	for (i = 0; i < n; i++)
		fsc_submit(f->fs, v[reverse ? n - 1 - i : i], 0);
}

static void test_fsc_released_tree_block_is_redirtied(void **state)
{
	struct fx *f = fx_new(FSC_ORDER_SUBMIT_BUFFER, FSC_RELEASE_REDIRTY, 4);
	struct fsc_bio *a;

	assert_int_equal(fsc_write_file(f->fs, 0, 1, 0, &a), 0);
	assert_int_equal(fsc_submit(f->fs, a, 0), 0);
	assert_int_equal(fsc_tree_release(f->fs, 0, 0), 0);
	assert_int_equal(fsc_write_file(f->fs, 100, 1, 0, &a), 0);
	assert_int_equal(fsc_submit(f->fs, a, 0), 0);
	commit_all(f, true);  /* worst order: all but the first are held */
	assert_int_equal(fsc_stats(f->fs)->nr_redirty, 1);
	assert_int_equal(fsc_stats(f->fs)->sbuf_now, 0);  /* no hole */
	drain(&f->cap);
	assert_int_equal(fsc_commit_finish(f->fs, 0), 0);
	assert_int_equal(fsc_stats(f->fs)->nr_dev_errors, 0);
	assert_int_equal(fsc_stats(f->fs)->dev_bytes[FSC_KIND_REDIRTY], 16384);
	fx_free(f);
}

static void test_fsc_released_tree_block_zeroed(void **state)
{
	struct fx *f = fx_new(FSC_ORDER_SUBMIT_BUFFER, FSC_RELEASE_ZEROS, 4);

	assert_int_equal(fsc_tree_release(f->fs, 0, 0), 0);
	commit_all(f, false);
	assert_int_equal(fsc_stats(f->fs)->nr_zeros, 1);
	assert_int_equal(fsc_stats(f->fs)->sbuf_now, 0);
	drain(&f->cap);
	assert_int_equal(fsc_stats(f->fs)->dev_bytes[FSC_KIND_ZEROS], 16384);
	fx_free(f);
}

static void test_fsc_released_tree_block_without_redirty_stalls(void **state)
{
	struct fx *f = fx_new(FSC_ORDER_SUBMIT_BUFFER, FSC_RELEASE_NONE, 4);

	/* 5 levels (1024 blocks, 8 per leaf, fanout 4): the path is copied
	 * to 0..64 KiB, then the leaf released at 0 and copied to 80 KiB */
	assert_int_equal(fsc_tree_release(f->fs, 0, 0), 0);
	commit_all(f, false);
	assert_int_equal(f->cap.nr_sent, 0);
	assert_int_equal(fsc_stats(f->fs)->sbuf_now, 5);  /* the hole at 0 holds them all */
	assert_int_equal(fsc_expire(f->fs, f->cfg.expire_ns - 1), 0);
	assert_int_equal(fsc_expire(f->fs, f->cfg.expire_ns), 5);
	assert_int_equal(f->cap.nr_failed, 5);
	assert_int_equal(f->cap.last_failed, FSC_E_EXPIRED);
	assert_int_equal(fsc_stats(f->fs)->sbuf_now, 0);
	fx_free(f);
}

static void test_fsc_relocation_moves_live_blocks_and_resets(void **state)
{
	struct fx *f = fx_new(FSC_ORDER_SUBMIT_BUFFER, FSC_RELEASE_REDIRTY, 0);
	struct fsc_bio *a, *list, *next;
	struct fsc_bg *victim;
	uint64_t lbn, victim_start, resets;
	int n;

	for (lbn = 0; lbn < 512; lbn++) {  /* two block groups */
		assert_int_equal(fsc_write_file(f->fs, lbn, 1, 0, &a), 0);
		assert_int_equal(fsc_submit(f->fs, a, 0), 0);
	}
	for (lbn = 0; lbn < 256; lbn += 2) {  /* half of the first dies */
		assert_int_equal(fsc_write_file(f->fs, lbn, 1, 0, &a), 0);
		assert_int_equal(fsc_submit(f->fs, a, 0), 0);
	}
	drain(&f->cap);
	victim = fsc_clean_pick(f->fs);
	assert_non_null(victim);
	victim_start = victim->start;
	assert_int_equal(fsc_bg_used_bytes(victim), 128 * 4096);
	resets = fsc_stats(f->fs)->nr_zone_resets;
	n = fsc_relocate(f->fs, victim, 0, &list);
	assert_int_equal(n, 128);
	for (a = list; a; a = next) {
		next = a->next;
		assert_int_equal(fsc_submit(f->fs, a, 0), 0);
	}
	drain(&f->cap);
	assert_null(fsc_bg_lookup(f->fs, victim_start));
	assert_int_equal(fsc_stats(f->fs)->nr_zone_resets, resets + 1);
	assert_int_equal(fsc_stats(f->fs)->dev_bytes[FSC_KIND_RELOC], 128 * 4096);
	for (lbn = 1; lbn < 256; lbn += 2) {
		struct fsc_bg *bg = fsc_bg_lookup(f->fs, f->fs->file_map[lbn]);

		assert_non_null(bg);
		assert_int_equal(bg->owner[(f->fs->file_map[lbn] - bg->start) / 4096], lbn + 1);
	}
	fx_free(f);
}

static void test_fsc_relocation_without_space_is_enospc(void **state)
{
	struct fx *f;
	struct fsc_bio *a, *list;
	struct fsc_bg *victim;
	uint64_t lbn;

	/* zones 1..3 for data, no tree model */
	f = fx_new_geo(FSC_ORDER_SUBMIT_BUFFER, FSC_RELEASE_REDIRTY, 0, 4, 3u << 20);
	for (lbn = 0; lbn < 3 * 256; lbn++) {
		assert_int_equal(fsc_write_file(f->fs, lbn, 1, 0, &a), 0);
		assert_int_equal(fsc_submit(f->fs, a, 0), 0);
	}
	assert_int_equal(fsc_write_file(f->fs, 0, 1, 0, &a), -ENOSPC);
	drain(&f->cap);
	f->fs->file_map[0] = FSC_NO_ADDR;  /* as if the block were deleted */
	fsc_free_extent(f->fs, f->fs->bgs[0]->start, 4096, 0);
	victim = fsc_clean_pick(f->fs);
	assert_non_null(victim);
	assert_int_equal(fsc_relocate(f->fs, victim, 0, &list), -ENOSPC);
	assert_int_equal(fsc_bg_used_bytes(victim), 255 * 4096);  /* nothing moved */
	assert_false(victim->relocating);                          /* pickable again */
	assert_ptr_equal(fsc_clean_pick(f->fs), victim);
	assert_int_equal(fsc_stats(f->fs)->nr_relocations, 0);
	fx_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fsc_submit_buffer_holds_and_sends_in_order),
		cmocka_unit_test(test_fsc_submit_below_offset_is_unaligned_and_device_refuses),
		cmocka_unit_test(test_fsc_submit_buffer_expires_after_timeout),
		cmocka_unit_test(test_fsc_expiry_is_configurable),
		cmocka_unit_test(test_fsc_no_ordering_reaches_device_unaligned),
		cmocka_unit_test(test_fsc_zone_append_fixes_address_at_completion),
		cmocka_unit_test(test_fsc_released_tree_block_is_redirtied),
		cmocka_unit_test(test_fsc_released_tree_block_zeroed),
		cmocka_unit_test(test_fsc_released_tree_block_without_redirty_stalls),
		cmocka_unit_test(test_fsc_expiry_removing_two_sources_still_expires_the_next),
		cmocka_unit_test(test_fsc_relocation_moves_live_blocks_and_resets),
		cmocka_unit_test(test_fsc_relocation_without_space_is_enospc),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
