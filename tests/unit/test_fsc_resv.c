/*
 * test_fsc_resv.c — Linux 6.1's metadata reservation (cfg.resv_linux61,
 * fsc_resv.c, docs/VALIDATION.md "Reservations and flush commits"): a
 * write reserves 2 x insert + inode item (640 KiB for 64 KiB with 16 KiB
 * nodes) on top of the global reserve; a commit gives the writes'
 * reservations back; a reservation that does not fit first runs the
 * delayed refs, which give back what the heads left pending do not hold
 * (two per extent/checksum block CoW'd since they last ran, one per block
 * group changed in the transaction), then allocates a metadata chunk at
 * 80% used (opened under max active zones like any), then asks for a
 * commit; after three commits it fails.  A reservation whose write is not
 * allocated yet survives a commit.  6.12: that chunk is on the unused list
 * from its creation, deleted by the cleaner unless the space is short;
 * and its chunk allocator: a DUP chunk in two adjacent free zones, first
 * fit, a removed block group's zones free only after the commit.  7.3:
 * the overcommit a 64th; the delayed refs reserve's size, and the zoned
 * cap on it at a relocation's transaction start (a commit, then -EAGAIN);
 * RESET_ZONES after a commit reuses a freed metadata block group in place.
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
#define MIB (1ull << 20)
#define RESV (640ull << 10)   /* 16 KiB x 8 x 2 x (extent + csum leaf) + 16 KiB x 8 */
#define REFILL (512ull << 10) /* 6.12: btrfs_calc_delayed_ref_bytes(1), 16 KiB x 8 x 2 x 2 (FST) */
#define ITEM (128ull << 10)  /* 7.3: a block group item, btrfs_calc_metadata_size(1) */
#define GLOBAL (5632ull << 10) /* 16 KiB x 8 x 2 x 10 items + x 6 refs x 2 (FST) */

static struct fsc *mk(struct tdevs *t, uint32_t zones, uint64_t file_bytes)
{
	struct fsc_cfg cfg;
	struct fsc *fs;

	tdevs_init(t, 1, zones, 0);
	tcfg(&cfg, t, FSC_SINGLE);
	cfg.file_bytes = file_bytes;
	cfg.meta_model = FSC_META_BTRFS;
	cfg.extent_bytes = EXT;
	cfg.reclaim.mode = FSC_RECLAIM_LINUX_6_1;
	cfg.resv_linux61 = true;
	assert_int_equal(fsc_create(&cfg, &fs), 0);
	return fs;
}

/* Write extent @ext of the file. */
static void write_ext(struct fsc *fs, uint64_t ext)
{
	assert_int_equal(twrite_ext(fs, ext * (EXT / BLK), 1, EXT), 0);
}

static void test_size_and_commit(void **state)
{
	struct tdevs t;
	struct fsc *fs = mk(&t, 256, 8 * MIB);

	assert_int_equal(fsc_resv_may_use(fs), GLOBAL);
	assert_int_equal(fsc_resv_write(fs, EXT, 0), 0);
	assert_int_equal(fsc_resv_may_use(fs), GLOBAL + RESV);
	/* a tree block allocated takes its bytes out of may_use */
	write_ext(fs, 0);
	assert_true(fsc_resv_may_use(fs) < GLOBAL + RESV);
	assert_int_equal((GLOBAL + RESV - fsc_resv_may_use(fs)) % 16384, 0);
	/* the commit runs the delayed refs: the reservation comes back */
	assert_true(tcommit(fs) > 0);
	assert_int_equal(fsc_resv_may_use(fs), GLOBAL);
	assert_int_equal(fsc_stats(fs)->nr_resv_tickets, 0);
	fsc_destroy(fs);
	tdevs_fini(&t);
}

/* What the delayed refs would CoW: the extent tree, and checksum leaves
 * only for data freed (an insert's are CoW'd when the write completes). */
static void test_fresh_counts_frees_checksums(void **state)
{
	struct tdevs t;
	struct fsc *fs = mk(&t, 256, 8 * MIB);
	uint64_t ext, csum;

	ext = fsc_stats(fs)->nr_cow[FSC_BT_EXT];
	csum = fsc_stats(fs)->nr_cow[FSC_BT_CSUM];
	write_ext(fs, 0);                   /* new data, nothing freed */
	assert_true(fsc_stats(fs)->nr_cow[FSC_BT_CSUM] > csum);
	assert_int_equal(fs->resv.fresh, fsc_stats(fs)->nr_cow[FSC_BT_EXT] - ext);
	for (uint64_t e = 1; e < 8 * MIB / EXT; e++)
		write_ext(fs, e);
	assert_true(tcommit(fs) > 0);
	assert_int_equal(fs->resv.fresh, 0);
	ext = fsc_stats(fs)->nr_cow[FSC_BT_EXT];
	write_ext(fs, 0);                   /* an overwrite: its old checksums go */
	assert_true(fs->resv.fresh > fsc_stats(fs)->nr_cow[FSC_BT_EXT] - ext);
	fsc_destroy(fs);
	tdevs_fini(&t);
}

/* Nothing changed since the refs ran: running them gives everything back. */
static void test_refs_give_back(void **state)
{
	struct tdevs t;
	struct fsc *fs = mk(&t, 256, 8 * MIB);
	int i, ret = 0;

	for (i = 0; i < 200 && !ret; i++)
		ret = fsc_resv_write(fs, EXT, 0);
	assert_int_equal(ret, 0);
	assert_true(fsc_stats(fs)->nr_resv_tickets > 0);
	assert_int_equal(fsc_stats(fs)->nr_resv_by_refs, fsc_stats(fs)->nr_resv_tickets);
	assert_int_equal(fsc_stats(fs)->nr_resv_commits, 0);
	assert_int_equal(fsc_stats(fs)->nr_resv_chunks, 0);
	fsc_destroy(fs);
	tdevs_fini(&t);
}

/* Early in a transaction the refs CoW what they touch and keep it: commit. */
static void test_fresh_transaction_commits(void **state)
{
	struct tdevs t;
	struct fsc *fs = mk(&t, 256, 32 * MIB);
	uint64_t e;
	int i, ret = 0;

	for (e = 0; e < 32 * MIB / EXT; e++)  /* the file, then a commit */
		write_ext(fs, e);
	assert_true(tcommit(fs) > 0);
	for (i = 0; i < 400 && !ret; i++) {
		ret = fsc_resv_write(fs, EXT, 0);
		if (!ret)
			write_ext(fs, (uint64_t)(i * 37) % (32 * MIB / EXT));  /* spread */
	}
	assert_int_equal(ret, FSC_RESV_COMMIT);
	assert_int_equal(fsc_stats(fs)->nr_resv_commits, 1);
	assert_true(fs->resv.fresh == 0 && fs->resv.drsv > 0);  /* the refs ran, kept it */
	assert_true(tcommit(fs) > 0);
	assert_int_equal(fsc_resv_write(fs, EXT, 0), 0);    /* the commit made room */
	assert_int_equal(fs->resv.cycles, 0);
	fsc_destroy(fs);
	tdevs_fini(&t);
}

/* At 80% used a metadata chunk comes ahead, filled when the open one is. */
static void test_chunk_ahead(void **state)
{
	struct tdevs t;
	struct fsc *fs = mk(&t, 256, 8 * MIB);
	struct fsc_bg *bg, *cur, *spare;
	uint64_t l;
	int i, ret = 0;

	assert_int_equal(fsc_alloc(fs, FSC_BG_META, 16384, FSC_NO_OWNER, 0, &cur, &l), 0);
	cur->nr_inflight--;
	while (cur->alloc_offset + 16384 < cur->len_bytes * 9 / 10) {
		assert_int_equal(fsc_alloc(fs, FSC_BG_META, 16384, FSC_NO_OWNER, 0, &bg, &l), 0);
		bg->nr_inflight--;
	}
	/* 60 data block groups changed in this transaction: the refs keep
	 * 60 heads' worth, more than the reservations hold */
	for (i = 0; i < 60 * (int)(MIB / BLK); i++) {
		assert_int_equal(fsc_alloc(fs, FSC_BG_DATA, BLK, FSC_NO_OWNER, 0, &bg, &l), 0);
		bg->nr_inflight--;
	}
	assert_true(fs->resv.dirty_bgs >= 60);
	for (i = 0; i < 200 && !ret && !fsc_stats(fs)->nr_resv_chunks; i++)
		ret = fsc_resv_write(fs, EXT, 0);
	assert_int_equal(ret, 0);  /* the chunk made room */
	assert_int_equal(fsc_stats(fs)->nr_resv_by_refs, 0);
	assert_int_equal(fsc_stats(fs)->nr_resv_chunks, 1);
	spare = fs->resv.spare;
	assert_non_null(spare);
	assert_int_equal(spare->alloc_offset, 0);
	/* the open block group first, then the one allocated ahead */
	while (cur->alloc_offset < cur->len_bytes) {
		assert_int_equal(fsc_alloc(fs, FSC_BG_META, 16384, FSC_NO_OWNER, 0, &bg, &l), 0);
		assert_ptr_equal(bg, cur);
		bg->nr_inflight--;
	}
	assert_int_equal(fsc_alloc(fs, FSC_BG_META, 16384, FSC_NO_OWNER, 0, &bg, &l), 0);
	bg->nr_inflight--;
	assert_ptr_equal(bg, spare);
	assert_null(fs->resv.spare);
	fsc_destroy(fs);
	tdevs_fini(&t);
}

/* Fill the open metadata block group to 90% and dirty 60 data block
 * groups, then reserve until a chunk comes ahead: the spare. */
static struct fsc_bg *make_spare(struct fsc *fs)
{
	struct fsc_bg *bg, *cur;
	uint64_t l;
	int i, ret = 0;

	assert_int_equal(fsc_alloc(fs, FSC_BG_META, 16384, FSC_NO_OWNER, 0, &cur, &l), 0);
	cur->nr_inflight--;
	while (cur->alloc_offset + 16384 < cur->len_bytes * 9 / 10) {
		assert_int_equal(fsc_alloc(fs, FSC_BG_META, 16384, FSC_NO_OWNER, 0, &bg, &l), 0);
		bg->nr_inflight--;
	}
	for (i = 0; i < 60 * (int)(MIB / BLK); i++) {
		assert_int_equal(fsc_alloc(fs, FSC_BG_DATA, BLK, FSC_NO_OWNER, 0, &bg, &l), 0);
		bg->nr_inflight--;
	}
	for (i = 0; i < 200 && !ret && !fsc_stats(fs)->nr_resv_chunks; i++)
		ret = fsc_resv_write(fs, EXT, 0);
	assert_int_equal(ret, 0);
	assert_non_null(fs->resv.spare);
	return fs->resv.spare;
}

/* 6.12 (btrfs_create_pending_block_groups(), block-group.c:2870): the
 * chunk a reservation made, nothing allocated from it, is on the unused
 * list at once; the cleaner keeps it while the space would be short
 * without it and deletes it once not (after the commit gave the
 * reservations back).  6.1 never lists it: it stays. */
static void test_612_fresh_chunk_unused(void **state)
{
	for (int v612 = 0; v612 < 2; v612++) {
		struct tdevs t;
		struct fsc *fs = mk(&t, 256, 8 * MIB);
		struct fsc_bg *spare;
		uint64_t start;

		fs->cfg.resv_612 = v612;
		spare = make_spare(fs);
		start = spare->start;
		assert_int_equal(spare->unused, v612);
		for (int i = 0; i < 200 && !fsc_resv_spare_short(fs, spare); i++)
			assert_int_equal(fsc_resv_write(fs, EXT, 0), 0);  /* fit, with the chunk */
		assert_ptr_equal(fs->resv.spare, spare);
		assert_true(fsc_resv_spare_short(fs, spare));  /* the reservations need it */
		fsc_delete_unused(fs, 0);
		assert_ptr_equal(fs->resv.spare, spare);
		assert_int_equal(spare->unused, v612);  /* tried again at the next run */
		for (int i = 0; i < 8; i++) {  /* room enough beside it (1 MiB zones) */
			struct fsc_bg *room;

			assert_int_equal(fsc_bg_create(fs, FSC_BG_META, 0, &room), 0);
		}
		assert_true(tcommit(fs) >= 0);
		assert_false(fsc_resv_spare_short(fs, spare));
		fsc_delete_unused(fs, 0);
		if (v612) {
			assert_null(fs->resv.spare);
			assert_null(fsc_bg_lookup(fs, start));
			assert_int_equal(fsc_stats(fs)->nr_resv_spare_deleted, 1);
		} else {
			assert_ptr_equal(fs->resv.spare, spare);
			assert_ptr_equal(fsc_bg_lookup(fs, start), spare);
			assert_int_equal(fsc_stats(fs)->nr_resv_spare_deleted, 0);
		}
		fsc_destroy(fs);
		tdevs_fini(&t);
	}
}

/* 6.12: a spare taken into use leaves the unused list, not deleted. */
static void test_612_spare_in_use_stays(void **state)
{
	struct tdevs t;
	struct fsc *fs = mk(&t, 256, 8 * MIB);
	struct fsc_bg *spare, *bg;
	uint64_t l;

	fs->cfg.resv_612 = true;
	spare = make_spare(fs);
	do {
		assert_int_equal(fsc_alloc(fs, FSC_BG_META, 16384, FSC_NO_OWNER, 0, &bg, &l), 0);
		bg->nr_inflight--;
	} while (bg != spare);
	assert_null(fs->resv.spare);
	assert_true(tcommit(fs) >= 0);
	fsc_delete_unused(fs, 0);
	assert_ptr_equal(fsc_bg_lookup(fs, spare->start), spare);
	assert_false(spare->unused);
	assert_int_equal(fsc_stats(fs)->nr_resv_spare_deleted, 0);
	fsc_destroy(fs);
	tdevs_fini(&t);
}

/* No free zone and nothing to give back: three commits, then ENOSPC. */
static void test_enospc_after_three_commits(void **state)
{
	struct tdevs t;
	struct fsc *fs = mk(&t, 24, 2 * MIB);
	struct fsc_bg *bg;
	uint64_t l;
	int i, ret = 0, commits = 0;

	write_ext(fs, 0);
	assert_true(tcommit(fs) > 0);
	while (!fsc_alloc(fs, FSC_BG_DATA, BLK, FSC_NO_OWNER, 0, &bg, &l))
		bg->nr_inflight--;  /* every free zone into data */
	for (i = 0; i < 100; i++) {
		ret = fsc_resv_write(fs, EXT, 0);
		if (ret == FSC_RESV_COMMIT) {
			commits++;
			assert_true(tcommit(fs) >= 0);
		} else if (ret) {
			break;
		}
	}
	assert_int_equal(ret, -ENOSPC);
	assert_int_equal(commits, 3);
	assert_int_equal(fsc_stats(fs)->nr_resv_enospc, 1);
	fsc_destroy(fs);
	tdevs_fini(&t);
}

/* Reservations that fit before the first ticket (none written). */
static int fit_count(struct fsc *fs)
{
	uint64_t tickets = fsc_stats(fs)->nr_resv_tickets;
	int n = 0;

	while (fsc_stats(fs)->nr_resv_tickets == tickets && n < 1000) {
		assert_int_equal(fsc_resv_write(fs, EXT, 0), 0);
		n++;
	}
	return n - 1;
}

/* 6.1's writable metadata total is active_total_bytes, which a removed
 * block group (its zone finished first) does not leave: more room after. */
static void test_removed_bg_still_counts(void **state)
{
	struct tdevs t;
	struct fsc *fs = mk(&t, 256, 8 * MIB);
	struct fsc_bg *bg, *meta = NULL;
	uint64_t l, start;
	int before, after;

	assert_true(tcommit(fs) >= 0);
	before = fit_count(fs);
	assert_true(tcommit(fs) >= 0);
	do {  /* a metadata block group, full, then freed */
		assert_int_equal(fsc_alloc(fs, FSC_BG_META, 16384, FSC_NO_OWNER, 0, &bg, &l), 0);
		meta = meta ? meta : bg;
		bg->nr_inflight--;
	} while (bg == meta && !meta->alloc_done);
	start = meta->start;
	fsc_free_extent(fs, start, meta->len_bytes, 0);
	assert_true(meta->unused);
	fsc_delete_unused(fs, 0);
	assert_null(fsc_bg_lookup(fs, start));
	assert_int_equal(fs->resv.gone, MIB);
	assert_true(tcommit(fs) >= 0);
	after = fit_count(fs);
	assert_true(after >= before + 1);
	fsc_destroy(fs);
	tdevs_fini(&t);
}

/* The block group allocated ahead opens under max active zones like a new
 * one: an active one is finished first (found in review). */
static void test_spare_under_max_active(void **state)
{
	struct tdevs t;
	struct fsc_cfg cfg;
	struct fsc *fs;
	struct fsc_bg *bg, *cur, *spare;
	uint64_t l;
	int i, ret = 0;

	tdevs_init(&t, 1, 24, 0);
	tcfg(&cfg, &t, FSC_SINGLE);
	cfg.file_bytes = 2 * MIB;
	cfg.meta_model = FSC_META_BTRFS;
	cfg.extent_bytes = EXT;
	cfg.reclaim.mode = FSC_RECLAIM_LINUX_6_1;
	cfg.resv_linux61 = true;
	cfg.max_active_zones = 3;
	assert_int_equal(fsc_create(&cfg, &fs), 0);
	assert_int_equal(fsc_alloc(fs, FSC_BG_META, 16384, FSC_NO_OWNER, 0, &cur, &l), 0);
	cur->nr_inflight--;
	for (i = 0; i < 200 && !ret && !fsc_stats(fs)->nr_resv_chunks; i++)
		ret = fsc_resv_write(fs, EXT, 0);
	spare = fs->resv.spare;
	assert_non_null(spare);
	assert_int_equal(fsc_alloc(fs, FSC_BG_DATA, BLK, FSC_NO_OWNER, 0, &bg, &l), 0);
	bg->nr_inflight--;
	while (cur->alloc_offset < cur->len_bytes) {
		assert_int_equal(fsc_alloc(fs, FSC_BG_META, 16384, FSC_NO_OWNER, 0, &bg, &l), 0);
		bg->nr_inflight--;
	}
	ret = fsc_alloc(fs, FSC_BG_META, 16384, FSC_NO_OWNER, 0, &bg, &l);
	assert_true(ret == 0 || ret == -EBUSY);
	if (!ret) {
		assert_ptr_equal(bg, spare);
		bg->nr_inflight--;
	}
	assert_true(fs->devs[0].nr_active <= cfg.max_active_zones);
	assert_true(fsc_stats(fs)->active_max <= cfg.max_active_zones);
	fsc_destroy(fs);
	tdevs_fini(&t);
}

/* A reservation whose write is still to come is the inode's: a commit in
 * between does not give it back. */
static void test_pending_survives_commit(void **state)
{
	struct tdevs t;
	struct fsc *fs = mk(&t, 256, 8 * MIB);

	assert_int_equal(fsc_resv_write(fs, EXT, 0), 0);
	assert_true(tcommit(fs) >= 0);
	assert_int_equal(fsc_resv_may_use(fs), GLOBAL + RESV);
	write_ext(fs, 0);                  /* allocated: the delayed refs' from now */
	assert_true(tcommit(fs) > 0);
	assert_int_equal(fsc_resv_may_use(fs), GLOBAL);
	fsc_destroy(fs);
	tdevs_fini(&t);
}

static void test_off_and_needs_btrfs_model(void **state)
{
	struct tdevs t;
	struct fsc_cfg cfg;
	struct fsc *fs = NULL;

	tdevs_init(&t, 1, 64, 0);
	tcfg(&cfg, &t, FSC_SINGLE);
	cfg.file_bytes = 8 * MIB;
	assert_int_equal(fsc_create(&cfg, &fs), 0);
	assert_int_equal(fsc_resv_write(fs, EXT, 0), 0);  /* off: nothing reserved */
	assert_int_equal(fsc_resv_may_use(fs), 0);
	fsc_destroy(fs);
	fs = NULL;
	cfg.resv_linux61 = true;                          /* the file model: refused */
	assert_int_equal(fsc_create(&cfg, &fs), -EINVAL);
	assert_null(fs);
	tdevs_fini(&t);
}

/* 6.12's overcommit by hand (calc_available_free_space(), space-info.c:414,
 * FLUSH_ALL): of the unallocated bytes per copy one data chunk (a zone)
 * less, an eighth, aligned down to the zone; none at one zone or less.
 * And its total is total_bytes: a removed block group gives no room. */
static void test_612_overcommit(void **state)
{
	struct tdevs t;
	struct fsc *fs = mk(&t, 256, 8 * MIB);
	struct fsc_bg *bg;
	uint64_t u, l;
	int before, after;

	u = (256 - (uint64_t)fs->nr_chunk_zones) * MIB;  /* single: one copy */
	assert_true(u > 200 * MIB);
	assert_int_equal(fsc_resv_overcommit(fs), u / 8);                    /* 6.1 */
	fs->cfg.resv_612 = true;
	assert_int_equal(fsc_resv_overcommit(fs), (u - MIB) / 8 / MIB * MIB); /* 6.12 */
	/* 6.1 keeps removed block groups' bytes (resv.gone); 6.12 does not */
	assert_true(tcommit(fs) >= 0);
	before = fit_count(fs);
	assert_true(tcommit(fs) >= 0);
	fs->resv.gone += 64 * MIB;                  /* 102 reservations' worth */
	after = fit_count(fs);
	assert_true(after <= before + 1 && after + 1 >= before);  /* a commit's drift */
	assert_true(tcommit(fs) >= 0);
	fs->cfg.resv_612 = false;
	assert_true(fit_count(fs) >= before + 90);  /* 6.1: room */
	fs->cfg.resv_612 = true;
	fs->resv.gone -= 64 * MIB;
	/* data takes zones until 17, 9, 8 MiB are left */
	for (uint64_t left = 17; left >= 8; left--) {
		while ((256 - (uint64_t)fs->nr_chunk_zones) > left) {
			assert_int_equal(fsc_alloc(fs, FSC_BG_DATA, BLK, FSC_NO_OWNER, 0, &bg, &l), 0);
			bg->nr_inflight--;
		}
		if (left == 17)
			assert_int_equal(fsc_resv_overcommit(fs), 2 * MIB);  /* (17 - 1) / 8 */
		if (left == 16)
			assert_int_equal(fsc_resv_overcommit(fs), MIB);      /* 15 / 8 = 1.875: 1 */
		if (left == 9)
			assert_int_equal(fsc_resv_overcommit(fs), MIB);      /* 8 / 8 */
		if (left == 8)
			assert_int_equal(fsc_resv_overcommit(fs), 0);        /* 7 / 8 = 0.875: 0 */
	}
	fs->cfg.resv_612 = false;
	assert_int_equal(fsc_resv_overcommit(fs), MIB);              /* 6.1: 8 / 8 */
	fsc_destroy(fs);
	tdevs_fini(&t);
}

/* 6.12 (--space-resv linux-6.12): a relocation reserves before it copies:
 * the relocation control's 256 tree blocks (prepare_to_relocate(),
 * relocation.c:3630), held until its copies are done, and per extent what
 * a write of it reserves (relocate_one_folio(), relocation.c:3034), which
 * the delayed refs reserve keeps until they run.  6.1's mode reserves
 * nothing for it (its outputs stay as they were). */
static void test_612_reloc_reserves(void **state)
{
	for (int v612 = 0; v612 < 2; v612++) {
		struct tdevs t;
		struct fsc *fs = mk(&t, 256, 8 * MIB);
		struct fsc_bg *bg;
		uint64_t e, before;

		fs->cfg.resv_612 = v612;
		for (e = 0; e < 8 * MIB / EXT; e++)
			write_ext(fs, e);
		assert_true(tcommit(fs) > 0);
		bg = fsc_bg_lookup(fs, fs->file_map[0]);
		assert_non_null(bg);
		assert_int_equal(bg->used_bytes, 1 * MIB);  /* 16 extents of 64 KiB */
		before = fsc_resv_may_use(fs);
		assert_int_equal(fsc_resv_reloc(fs, bg, 0), 0);
		if (!v612) {
			assert_int_equal(fsc_resv_may_use(fs), before);
			assert_int_equal(fsc_stats(fs)->nr_resv_reloc, 0);
			fsc_destroy(fs);
			tdevs_fini(&t);
			continue;
		}
		assert_int_equal(fsc_stats(fs)->nr_resv_reloc, 1);
		assert_int_equal(fs->resv.reloc, 256 * 16384);
		/* each extent: its write's reservation and its transaction
		 * start's refill of the delayed refs reserve (REFILL) */
		assert_int_equal(fsc_resv_may_use(fs), before + 256 * 16384 + 16 * (RESV + REFILL));
		/* the commit runs the refs: the extents' part goes, the control's stays */
		assert_true(tcommit(fs) >= 0);
		assert_int_equal(fsc_resv_may_use(fs), fs->resv.global + 256 * 16384);
		/* asked again for the same victim (a commit between): nothing more */
		assert_int_equal(fsc_resv_reloc(fs, bg, 0), 0);
		assert_int_equal(fs->resv.reloc, 256 * 16384);
		fsc_resv_reloc_done(fs);  /* its copies are written */
		assert_int_equal(fsc_resv_may_use(fs), fs->resv.global);
		fsc_destroy(fs);
		tdevs_fini(&t);
	}
}

/* 6.12: every transaction start of the relocation (one per extent of a
 * data victim, one per tree block of a metadata victim,
 * relocation.c:3692) refills the delayed refs reserve by one head's bytes,
 * 512 KiB (transaction.c:691, delayed-ref.c:206); once per extent even
 * when a commit comes between.  6.1's mode: nothing. */
static void test_612_reloc_refills(void **state)
{
	for (int v612 = 0; v612 < 2; v612++) {
		struct tdevs t;
		struct fsc *fs = mk(&t, 256, 8 * MIB);
		struct fsc_bg *data, *meta = NULL;
		uint64_t before;
		uint32_t i;

		fs->cfg.resv_612 = v612;
		for (i = 0; i < 4; i++)
			write_ext(fs, i);
		assert_true(tcommit(fs) > 0);
		data = fsc_bg_lookup(fs, fs->file_map[0]);
		assert_int_equal(data->used_bytes, 4 * EXT);  /* 4 extents */
		before = fsc_resv_may_use(fs);
		assert_int_equal(fsc_resv_reloc(fs, data, 0), 0);
		if (!v612) {
			assert_int_equal(fsc_resv_may_use(fs), before);
			assert_int_equal(fsc_stats(fs)->nr_resv_reloc_refills, 0);
			assert_int_equal(fsc_stats(fs)->nr_resv_reloc_starts, 0);
		} else {
			assert_int_equal(fsc_stats(fs)->nr_resv_reloc_refills, 4);
			/* the relocation inode's start (6 items) and each extent's
			 * prealloc start (3) fitted and held nothing */
			assert_int_equal(fsc_stats(fs)->nr_resv_reloc_starts, 1 + 4);
			assert_int_equal(fsc_resv_may_use(fs), before + 256 * 16384 + 4 * (RESV + REFILL));
		}
		fsc_resv_reloc_done(fs);
		assert_true(tcommit(fs) >= 0);
		/* a metadata victim: one start per live tree block */
		for (i = 0; i < fs->nr_meta_bgs; i++)
			if (fs->meta_bgs[i]->used_bytes)
				meta = fs->meta_bgs[i];
		assert_non_null(meta);
		before = fsc_resv_may_use(fs);
		assert_int_equal(fsc_resv_reloc(fs, meta, 0), 0);
		if (!v612) {
			assert_int_equal(fsc_resv_may_use(fs), before);
			assert_int_equal(fsc_stats(fs)->nr_resv_reloc_refills, 0);
		} else {
			uint64_t blocks = meta->used_bytes / 16384;

			assert_true(blocks > 0);
			assert_int_equal(fsc_stats(fs)->nr_resv_reloc_refills, 4 + blocks);
			assert_int_equal(fsc_resv_may_use(fs), before + 256 * 16384 + blocks * REFILL);
		}
		fsc_destroy(fs);
		tdevs_fini(&t);
	}
}

/* 6.12: the prealloc's start (3 items and their delayed refs, 2.25 MiB)
 * must fit: with room for the extents' reservations but not for it, it
 * waits on a ticket (here met by a chunk allocated ahead) where 6.1's mode
 * reserves nothing. */
static void test_612_reloc_start_must_fit(void **state)
{
	for (int v612 = 0; v612 < 2; v612++) {
		struct tdevs t;
		struct fsc *fs = mk(&t, 256, 8 * MIB);
		struct fsc_bg *data;
		uint64_t used = 0, total = 0, room, tickets;
		uint32_t i;

		fs->cfg.resv_612 = v612;
		write_ext(fs, 0);
		assert_true(tcommit(fs) > 0);
		data = fsc_bg_lookup(fs, fs->file_map[0]);
		for (i = 0; i < fs->nr_meta_bgs; i++) {
			total += fs->meta_bgs[i]->len_bytes;
			used += fs->meta_bgs[i]->alloc_offset;
		}
		/* room for the control's reserve, the refill and the write's, 1 MiB
		 * under the start's 2.25 MiB: may_use filled through the delayed
		 * refs reserve, which its run does not give back */
		room = total + fsc_resv_overcommit(fs) - used - fsc_resv_may_use(fs);
		fs->resv.drsv += room - (256 * 16384 + REFILL + RESV + MIB);
		fs->resv.fresh = 1u << 20;
		tickets = fsc_stats(fs)->nr_resv_tickets;
		assert_int_equal(fsc_resv_reloc(fs, data, 0), 0);
		if (!v612) {
			assert_int_equal(fsc_stats(fs)->nr_resv_tickets, tickets);
			assert_int_equal(fsc_stats(fs)->nr_resv_chunks, 0);
		} else {
			/* the start alone waited: the flusher made a chunk for it */
			assert_int_equal(fsc_stats(fs)->nr_resv_tickets, tickets + 1);
			assert_int_equal(fsc_stats(fs)->nr_resv_chunks, 1);
			assert_non_null(fs->resv.spare);
			assert_int_equal(fsc_stats(fs)->nr_resv_reloc_refills, 1);
			assert_int_equal(fsc_stats(fs)->nr_resv_reloc_starts, 2);  /* inode, prealloc */
		}
		fsc_destroy(fs);
		tdevs_fini(&t);
	}
}

/* 6.12: no room for the relocation's reservation after three commits:
 * ENOSPC (the kernel's "error relocating chunk"), nothing held; the next
 * try starts over.  6.1: it goes on. */
static void test_612_reloc_enospc(void **state)
{
	for (int v612 = 0; v612 < 2; v612++) {
		struct tdevs t;
		struct fsc *fs = mk(&t, 24, 2 * MIB);
		struct fsc_bg *bg, *victim;
		uint64_t l;
		int i, ret = 0, commits = 0;

		fs->cfg.resv_612 = v612;
		write_ext(fs, 0);
		assert_true(tcommit(fs) > 0);
		victim = fsc_bg_lookup(fs, fs->file_map[0]);
		while (!fsc_alloc(fs, FSC_BG_DATA, BLK, FSC_NO_OWNER, 0, &bg, &l))
			bg->nr_inflight--;  /* every free zone into data */
		for (i = 0; i < 10; i++) {
			ret = fsc_resv_reloc(fs, victim, 0);
			if (ret != FSC_RESV_COMMIT)
				break;
			commits++;
			assert_true(tcommit(fs) >= 0);
		}
		if (!v612) {
			assert_int_equal(ret, 0);
			assert_int_equal(commits, 0);
			assert_int_equal(fsc_stats(fs)->nr_resv_reloc_enospc, 0);
		} else {
			assert_int_equal(ret, -ENOSPC);
			assert_int_equal(commits, 3);
			assert_int_equal(fsc_stats(fs)->nr_resv_reloc_enospc, 1);
			assert_int_equal(fsc_stats(fs)->nr_resv_reloc, 0);
			assert_int_equal(fs->resv.reloc, 0);
			assert_null(fs->resv.reloc_bg);
		}
		fsc_destroy(fs);
		tdevs_fini(&t);
	}
}

/* 6.12 mode: a DUP chunk's two stripes come from one hole of two empty
 * zones (dev_extent_min = zone x 2, volumes.c:5321; one
 * find_free_dev_extent() for both, volumes.c:5390-5398): two free zones
 * apart are not enough.  6.1's mode (as before) takes any two. */
static void test_612_dup_needs_adjacent_zones(void **state)
{
	for (int v612 = 0; v612 < 2; v612++) {
		struct tdevs t;
		struct fsc_cfg cfg;
		struct fsc *fs;
		struct fsc_stripe st[FSC_MAX_DEVS * 2];
		uint32_t nr = 0, data = 0, z, zb;
		uint64_t phys;

		tdevs_init(&t, 1, 32, 0);
		tcfg(&cfg, &t, FSC_SINGLE);
		cfg.meta_profile = FSC_DUP;
		assert_int_equal(fsc_create(&cfg, &fs), 0);
		fs->cfg.resv_612 = v612;
		zb = (uint32_t)fs->devs[0].zone_bytes;
		while (!fsc_dev_extent_find(fs, 0, 1, &phys))
			;  /* every free zone taken */
		assert_int_equal(fs->devs[0].nr_free, 0);
		z = 20;  /* zones 20 and 22 free, 21 not */
		fsc_zone_put(&fs->devs[0], z);
		fsc_zone_put(&fs->devs[0], z + 2);
		if (v612) {
			assert_int_equal(fsc_chunk_alloc(fs, FSC_BG_META, st, &nr, &data), -ENOSPC);
			assert_int_equal(fs->devs[0].nr_free, 2);  /* nothing taken */
			fsc_zone_put(&fs->devs[0], z + 1);
			assert_int_equal(fsc_chunk_alloc(fs, FSC_BG_META, st, &nr, &data), 0);
			assert_int_equal(st[1].phys, st[0].phys + zb);
			assert_true(st[0].phys == (uint64_t)z * zb || st[0].phys == (uint64_t)(z + 1) * zb);
			assert_int_equal(fs->devs[0].nr_free, 1);
		} else {
			assert_int_equal(fsc_chunk_alloc(fs, FSC_BG_META, st, &nr, &data), 0);
			assert_int_equal(fs->devs[0].nr_free, 0);
		}
		assert_int_equal(nr, 2);
		assert_int_equal(data, 1);
		assert_int_equal(st[0].dev, 0);
		assert_int_equal(st[1].dev, 0);
		fsc_destroy(fs);
		tdevs_fini(&t);
	}
}

/* 6.12 mode: a removed block group's zones are free for a new chunk only
 * after the commit (find_free_dev_extent() reads the commit root,
 * volumes.c:1816; the zones are reset by btrfs_finish_extent_commit(),
 * extent-tree.c:2890, and btrfs_find_allocatable_zones() skips zones not
 * empty, zoned.c:1056), while the overcommit counts them unallocated at
 * once (free_chunk_space, volumes.c:3396-3400).  6.1's mode: free at once. */
static void test_612_removed_zones_after_commit(void **state)
{
	for (int v612 = 0; v612 < 2; v612++) {
		struct tdevs t;
		struct fsc *fs = mk(&t, 256, 8 * MIB);
		struct fsc_bg *bg, *meta = NULL;
		uint64_t l, start, oc;
		uint32_t free0, stripes;

		fs->cfg.resv_612 = v612;
		assert_true(tcommit(fs) >= 0);
		do {  /* a metadata block group, full, then freed */
			assert_int_equal(fsc_alloc(fs, FSC_BG_META, 16384, FSC_NO_OWNER, 0, &bg, &l), 0);
			meta = meta ? meta : bg;
			bg->nr_inflight--;
		} while (bg == meta && !meta->alloc_done);
		start = meta->start;
		stripes = meta->nr_stripes;
		fsc_free_extent(fs, start, meta->len_bytes, 0);
		assert_true(meta->unused);
		free0 = fs->devs[0].nr_free;
		oc = fsc_resv_overcommit(fs);
		fsc_delete_unused(fs, 0);
		assert_null(fsc_bg_lookup(fs, start));
		assert_int_equal(fs->devs[0].nr_free, v612 ? free0 : free0 + stripes);
		assert_true(fsc_resv_overcommit(fs) >= oc);  /* unallocated at once */
		oc = fsc_resv_overcommit(fs);
		assert_true(tcommit(fs) >= 0);
		assert_int_equal(fs->devs[0].nr_free, free0 + stripes);  /* reset: free */
		assert_int_equal(fs->nr_zpend, 0);
		assert_int_equal(fsc_resv_overcommit(fs), oc);
		fsc_destroy(fs);
		tdevs_fini(&t);
	}
}

/* 6.12 mode: a chunk's zone is the first free one from the device's start
 * (find_free_dev_extent(): the first hole large enough, volumes.c:1855-1875),
 * not the next after the last allocation as in 6.1's mode (as before). */
static void test_612_first_fit(void **state)
{
	for (int v612 = 0; v612 < 2; v612++) {
		struct tdevs t;
		struct fsc_cfg cfg;
		struct fsc *fs;
		uint64_t phys;
		uint32_t zb;

		tdevs_init(&t, 1, 32, 0);
		tcfg(&cfg, &t, FSC_SINGLE);
		assert_int_equal(fsc_create(&cfg, &fs), 0);
		fs->cfg.resv_612 = v612;
		zb = (uint32_t)fs->devs[0].zone_bytes;
		while (!fsc_dev_extent_find(fs, 0, 1, &phys))
			;
		fsc_zone_put(&fs->devs[0], 3);
		fsc_zone_put(&fs->devs[0], 25);
		fs->devs[0].cursor = 10;
		assert_int_equal(fsc_dev_extent_find(fs, 0, 1, &phys), 0);
		assert_int_equal(phys, (uint64_t)(v612 ? 3 : 25) * zb);
		assert_int_equal(fsc_dev_extent_find(fs, 0, 1, &phys), 0);
		assert_int_equal(phys, (uint64_t)(v612 ? 25 : 3) * zb);
		assert_int_equal(fsc_dev_extent_find(fs, 0, 1, &phys), -ENOSPC);
		fsc_destroy(fs);
		tdevs_fini(&t);
	}
}

/* 7.3 (--space-resv linux-7.3): the overcommit is a 64th of the
 * unallocated bytes per copy less a zone, where 6.12's is an eighth
 * (calc_available_free_space(), space-info.c:506 of 7.3.4), aligned down
 * to the zone alike: nothing below 64 zones and one left. */
static void test_73_overcommit_is_a_64th(void **state)
{
	struct tdevs t;
	struct fsc *fs = mk(&t, 256, 8 * MIB);
	struct fsc_bg *bg;
	uint64_t u, l;

	fs->cfg.resv_612 = true;
	u = (256 - (uint64_t)fs->nr_chunk_zones) * MIB;  /* single: one copy */
	assert_true(u > 200 * MIB);
	assert_int_equal(fsc_resv_overcommit(fs), (u - MIB) / 8 / MIB * MIB);   /* 6.12 */
	fs->cfg.resv_73 = true;
	assert_int_equal(fsc_resv_overcommit(fs), (u - MIB) / 64 / MIB * MIB);  /* 7.3 */
	assert_true(fsc_resv_overcommit(fs) < (u - MIB) / 8 / MIB * MIB);
	/* data takes zones until 66, 65 and 64 MiB are left */
	for (uint64_t left = 66; left >= 64; left--) {
		while ((256 - (uint64_t)fs->nr_chunk_zones) > left) {
			assert_int_equal(fsc_alloc(fs, FSC_BG_DATA, BLK, FSC_NO_OWNER, 0, &bg, &l), 0);
			bg->nr_inflight--;
		}
		fs->cfg.resv_73 = true;
		assert_int_equal(fsc_resv_overcommit(fs), left > 64 ? MIB : 0);  /* 65 / 64, 64 / 64; 63 / 64 */
		fs->cfg.resv_73 = false;
		assert_int_equal(fsc_resv_overcommit(fs), (left - 1) / 8 * MIB); /* 6.12: 8, 8, 7 MiB */
	}
	fsc_destroy(fs);
	tdevs_fini(&t);
}

static uint64_t cow_count(const struct fsc_stats *st)
{
	uint64_t n = 0;

	for (int i = 0; i < 5; i++)
		n += st->nr_cow[i];
	return n;
}

/* 7.3: the delayed refs reserve's size (resv.drefs) grows by two heads
 * (512 KiB each) per user write and per tree block CoW'd, by a metadata
 * item (128 KiB) per block group made dirty, and is 0 after a commit ran
 * the refs; 6.12's mode does not track it. */
static void test_73_delayed_refs_size(void **state)
{
	for (int v73 = 0; v73 < 2; v73++) {
		struct tdevs t;
		struct fsc *fs = mk(&t, 256, 8 * MIB);
		const struct fsc_stats *st = fsc_stats(fs);
		uint64_t cows, dirty, base;

		fs->cfg.resv_612 = true;
		fs->cfg.resv_73 = v73;
		write_ext(fs, 0);
		assert_true(tcommit(fs) > 0);
		/* the refs ran; what the commit itself changed is the next
		 * transaction's block group items */
		assert_int_equal(fs->resv.drefs, v73 ? fs->resv.dirty_bgs * ITEM : 0);
		base = fs->resv.drefs;
		cows = cow_count(st);
		dirty = fs->resv.dirty_bgs;
		write_ext(fs, 1);
		if (!v73) {
			assert_int_equal(fs->resv.drefs, 0);
		} else {
			cows = cow_count(st) - cows;
			dirty = fs->resv.dirty_bgs - dirty;
			assert_true(cows > 0);
			assert_int_equal(fs->resv.drefs - base, (2 + 2 * cows) * REFILL + dirty * ITEM);
		}
		assert_true(tcommit(fs) > 0);
		assert_int_equal(fs->resv.drefs, v73 ? fs->resv.dirty_bgs * ITEM : 0);
		fsc_destroy(fs);
		tdevs_fini(&t);
	}
}

/* 7.3: a relocation's transaction start finds the delayed refs reserve's
 * size over half the metadata space's total less its zone_unusable
 * (btrfs_zoned_cap_metadata_reservation(), delayed-ref.c:210): it commits
 * first (transaction.c:692), then refills; over it again after that
 * commit, the start fails and the relocation is deferred (-EAGAIN,
 * block-group.c:2050), which is not an ENOSPC.  6.12's mode refills at once. */
static void test_73_cap_commits_then_defers(void **state)
{
	for (int v73 = 0; v73 < 2; v73++) {
		struct tdevs t;
		struct fsc *fs = mk(&t, 2048, 8 * MIB);  /* 7.3 overcommits 31 MiB */
		const struct fsc_stats *st = fsc_stats(fs);
		struct fsc_bg *data;
		uint64_t total;
		uint32_t i;
		int ret;

		fs->cfg.resv_612 = true;
		fs->cfg.resv_73 = v73;
		for (i = 0; i < 4; i++)
			write_ext(fs, i);
		assert_true(tcommit(fs) > 0);
		data = fsc_bg_lookup(fs, fs->file_map[0]);
		/* the metadata space's total: over half of it less zone_unusable */
		for (;;) {
			for (total = 0, i = 0; i < fs->nr_meta_bgs; i++)
				total += fs->meta_bgs[i]->len_bytes;
			fs->resv.drefs = total;
			ret = fsc_resv_reloc(fs, data, 0);
			if (ret != FSC_RESV_COMMIT || st->nr_resv_cap_commits)
				break;
			assert_true(tcommit(fs) >= 0);  /* a ticket's commit */
		}
		if (!v73) {
			assert_int_equal(ret, 0);
			assert_int_equal(st->nr_resv_reloc_refills, 4);
			assert_int_equal(st->nr_resv_cap_commits, 0);
			fsc_destroy(fs);
			tdevs_fini(&t);
			continue;
		}
		assert_int_equal(ret, FSC_RESV_COMMIT);
		assert_int_equal(st->nr_resv_cap_commits, 1);
		assert_int_equal(st->nr_resv_reloc_refills, 0);
		/* no commit ran (still over): deferred, not ENOSPC */
		assert_int_equal(fsc_resv_reloc(fs, data, 0), -EAGAIN);
		assert_int_equal(st->nr_resv_cap_deferred, 1);
		assert_int_equal(st->nr_resv_reloc_enospc, 0);
		assert_int_equal(fs->resv.reloc, 0);       /* its control reserve went */
		/* asked again: a commit (the refs ran) lets it through; on these
		 * 1 MiB metadata block groups the cap is a few heads, so later
		 * extents' starts commit again: the storm in small, and a commit
		 * before each refill keeps it from deferring again */
		do {
			assert_true(tcommit(fs) >= 0);
			ret = fsc_resv_reloc(fs, data, 0);
		} while (ret == FSC_RESV_COMMIT);
		assert_int_equal(ret, 0);
		assert_true(st->nr_resv_cap_commits >= 2);
		assert_int_equal(st->nr_resv_cap_deferred, 1);
		assert_int_equal(st->nr_resv_reloc_enospc, 0);
		assert_int_equal(st->nr_resv_reloc_refills, 4);
		/* the last extent's start added its two heads */
		assert_true(fs->resv.drefs >= 2 * REFILL);
		fsc_destroy(fs);
		tdevs_fini(&t);
	}
}

/* 7.3: RESET_ZONES ends each flush cycle (space-info.c:1194, zoned.c:3115):
 * with no zone left for a chunk, a metadata block group written full and
 * freed (on the unused list) is reset after the commit and allocated from
 * again, and the ticket is met; 6.12 has no such state: ENOSPC after three
 * commits, the block group still waiting for the cleaner.  (Six empty
 * metadata block groups beside it: with it the global reserve and a write
 * fit, without it they do not.) */
static void test_73_reset_zones_reuses_unused(void **state)
{
	for (int v73 = 0; v73 < 2; v73++) {
		struct tdevs t;
		struct fsc *fs = mk(&t, 24, 2 * MIB);
		struct fsc_bg *bg, *b = NULL;
		uint64_t l, zone_resets;
		int i, ret = 0, commits = 0;

		fs->cfg.resv_612 = true;
		fs->cfg.resv_73 = v73;
		write_ext(fs, 0);
		assert_true(tcommit(fs) > 0);
		/* a metadata block group of its own, written to its end and freed */
		do {
			assert_int_equal(fsc_alloc(fs, FSC_BG_META, 16384, FSC_NO_OWNER, 0, &bg, &l), 0);
			bg->nr_inflight--;
			if (!b && l == bg->start)
				b = bg;
			if (b)
				fsc_free_extent(fs, l, 16384, 0);
		} while (!b || b->alloc_offset < b->len_bytes);
		assert_true(b->unused);
		assert_int_equal(b->used_bytes, 0);
		for (i = 0; i < 6; i++)
			assert_int_equal(fsc_bg_create(fs, FSC_BG_META, 0, &bg), 0);
		while (!fsc_alloc(fs, FSC_BG_DATA, BLK, FSC_NO_OWNER, 0, &bg, &l))
			bg->nr_inflight--;  /* every free zone into data: no chunk */
		zone_resets = fsc_stats(fs)->nr_zone_resets;
		for (i = 0; i < 100; i++) {
			ret = fsc_resv_write(fs, EXT, 0);
			if (ret == FSC_RESV_COMMIT) {
				commits++;
				assert_true(tcommit(fs) >= 0);
			} else if (ret || commits) {
				break;  /* failed, or met after a commit */
			}
		}
		if (v73) {
			assert_int_equal(ret, 0);
			assert_int_equal(commits, 1);  /* after the cycle's commit */
			assert_int_equal(fsc_stats(fs)->nr_resv_zone_resets, 1);
			assert_int_equal(fsc_stats(fs)->nr_zone_resets, zone_resets + b->nr_stripes);
			assert_ptr_equal(fs->resv.spare, b);  /* in place: the same block group */
			assert_ptr_equal(fsc_bg_lookup(fs, b->start), b);
			assert_false(b->unused);
			assert_false(b->alloc_done);
			assert_int_equal(b->alloc_offset, 0);
			assert_int_equal(fsc_stats(fs)->nr_resv_enospc, 0);
		} else {
			assert_int_equal(ret, -ENOSPC);
			assert_int_equal(commits, 3);
			assert_int_equal(fsc_stats(fs)->nr_resv_zone_resets, 0);
			assert_true(b->unused);
			assert_int_equal(b->alloc_offset, b->len_bytes);
		}
		fsc_destroy(fs);
		tdevs_fini(&t);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_612_overcommit),
		cmocka_unit_test(test_73_overcommit_is_a_64th),
		cmocka_unit_test(test_73_delayed_refs_size),
		cmocka_unit_test(test_73_cap_commits_then_defers),
		cmocka_unit_test(test_73_reset_zones_reuses_unused),
		cmocka_unit_test(test_size_and_commit),
		cmocka_unit_test(test_fresh_counts_frees_checksums),
		cmocka_unit_test(test_refs_give_back),
		cmocka_unit_test(test_fresh_transaction_commits),
		cmocka_unit_test(test_chunk_ahead),
		cmocka_unit_test(test_612_fresh_chunk_unused),
		cmocka_unit_test(test_612_spare_in_use_stays),
		cmocka_unit_test(test_612_reloc_reserves),
		cmocka_unit_test(test_612_reloc_enospc),
		cmocka_unit_test(test_612_reloc_refills),
		cmocka_unit_test(test_612_reloc_start_must_fit),
		cmocka_unit_test(test_612_dup_needs_adjacent_zones),
		cmocka_unit_test(test_612_first_fit),
		cmocka_unit_test(test_612_removed_zones_after_commit),
		cmocka_unit_test(test_enospc_after_three_commits),
		cmocka_unit_test(test_removed_bg_still_counts),
		cmocka_unit_test(test_spare_under_max_active),
		cmocka_unit_test(test_pending_survives_commit),
		cmocka_unit_test(test_off_and_needs_btrfs_model),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
