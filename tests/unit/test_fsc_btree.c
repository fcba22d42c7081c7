/*
 * test_fsc_btree.c — fs-core's btrfs metadata model (cfg.meta_model btrfs,
 * fsc_btree.c, docs/VALIDATION.md): its sizes come from btrfs's on-disk
 * structures; a user write dirties the file, extent and checksum trees and
 * a commit the root tree, each node once per transaction; relocating a
 * victim takes the kernel's commits (9 data, 6 tree blocks, 3 nothing),
 * a tree of more leaves than a node holds gets nodes between them and
 * the root, the leaves a block group's items no longer fill are deleted,
 * UPDATE_DATA_PTRS CoWs the file leaves that pointed at the moved data
 * (and, in linux-6.1 mode only, the checksum leaves of their extents); in
 * linux-6.12 mode a data block group's first checksums and its removal
 * CoW its neighbours' end leaves (the tree is keyed by address); a
 * tree block allocation that fails aborts (the file system is read-only
 * from then on); with Linux 6.1 reclaim an emptied block group waits for
 * the cleaner (fsc_delete_unused()); bad sizes are refused.
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

static struct fsc *mk(struct tdevs *t, uint32_t zones, uint64_t file_bytes, bool linux61)
{
	struct fsc_cfg cfg;
	struct fsc *fs;

	tdevs_init(t, 1, zones, 0);
	tcfg(&cfg, t, FSC_SINGLE);
	cfg.file_bytes = file_bytes;
	cfg.meta_model = FSC_META_BTRFS;
	cfg.extent_bytes = EXT;
	cfg.reclaim.mode = linux61 ? FSC_RECLAIM_LINUX_6_1 : FSC_RECLAIM_OFF;
	assert_int_equal(fsc_create(&cfg, &fs), 0);
	return fs;
}

static int write_ext(struct fsc *fs, uint64_t lbn, uint32_t n)
{
	return twrite_ext(fs, lbn, n, EXT);
}

static void test_sizes(void **state)
{
	struct tdevs t;
	struct fsc *fs = mk(&t, 32, 8u << 20, false);

	/* 16 KiB node less the 101-byte header: 208 file extent items (25 + 53) */
	assert_int_equal(fs->cfg.leaf_items, 208 * (EXT / BLK));
	assert_int_equal(fs->cfg.tree_fanout, (16384 - 101) / 33);
	assert_int_equal(fs->bt.span[0], 208ull * EXT);           /* data extent items */
	assert_int_equal(fs->bt.span[1], 280ull * 16384);         /* skinny metadata items */
	assert_int_equal(fs->bt.span[2], (16283ull / (25 + 64)) * EXT); /* 16 crc32c an extent */
	fsc_destroy(fs);
	tdevs_fini(&t);
}

static void test_write_dirties_trees_once(void **state)
{
	struct tdevs t;
	struct fsc *fs = mk(&t, 32, 8u << 20, false);
	const struct fsc_stats *st = fsc_stats(fs);
	uint64_t before[5];
	int n;

	assert_int_equal(write_ext(fs, 0, 1), 0);
	assert_true(st->nr_cow[FSC_BT_FILE] >= 1);
	assert_true(st->nr_cow[FSC_BT_EXT] >= 2);   /* the data's leaf, the root (and tree blocks') */
	assert_true(st->nr_cow[FSC_BT_CSUM] >= 2);  /* leaf and root */
	assert_int_equal(st->nr_cow[FSC_BT_ROOT], 0);
	memcpy(before, st->nr_cow, sizeof(before));
	/* the next extent lands beside it: the same leaves, already dirty */
	assert_int_equal(write_ext(fs, EXT / BLK, 1), 0);
	assert_memory_equal(before, st->nr_cow, sizeof(before));
	n = tcommit(fs);
	assert_true(n > 0);
	assert_int_equal(st->nr_cow[FSC_BT_ROOT], 1);  /* the root tree, once */
	/* a new transaction: the same write CoWs them again */
	memcpy(before, st->nr_cow, sizeof(before));
	assert_int_equal(write_ext(fs, 0, 1), 0);
	assert_true(st->nr_cow[FSC_BT_FILE] > before[FSC_BT_FILE]);
	assert_true(st->nr_cow[FSC_BT_CSUM] > before[FSC_BT_CSUM]);
	/* nothing dirty: a commit writes nothing, not even the root tree */
	assert_true(tcommit(fs) > 0);
	memcpy(before, st->nr_cow, sizeof(before));
	assert_int_equal(tcommit(fs), 0);
	assert_int_equal(st->nr_cow[FSC_BT_ROOT], before[FSC_BT_ROOT]);
	fsc_destroy(fs);
	tdevs_fini(&t);
}

/* A keyed tree of more leaves than a node points to gets a level of nodes
 * between leaves and root; each leaf's parent is a node of that tree. */
static void test_level_one_nodes(void **state)
{
	struct tdevs t;
	struct fsc_cfg cfg;
	struct fsc *fs;
	struct fsc_bio *b;
	uint32_t i, nr = 0;

	tdevs_init(&t, 1, 64, 0);
	tcfg(&cfg, &t, FSC_SINGLE);
	cfg.file_bytes = 32u << 20;
	cfg.meta_model = FSC_META_BTRFS;
	cfg.node_bytes = 4096;   /* 121 pointers a node, 51 extent items a leaf: */
	cfg.extent_bytes = BLK;  /* ~5 leaves a full 1 MiB block group */
	assert_int_equal(fsc_create(&cfg, &fs), 0);
	for (i = 0; i < (32u << 20) / BLK; i++) {
		assert_int_equal(fsc_write_file(fs, i, 1, 0, &b), 0);
		assert_int_equal(fsc_submit(fs, b, 0), 0);
	}
	assert_true(fs->bt.nr_leaves[FSC_BT_EXT] > fs->cfg.tree_fanout);
	assert_true(fs->bt.par_cap[FSC_BT_EXT] > 0);
	for (i = 0; i < fs->bt.par_cap[FSC_BT_EXT]; i++) {
		uint32_t id = fs->bt.par[FSC_BT_EXT][i];

		if (!id)
			continue;
		assert_true(id >= FSC_KID && id - FSC_KID < fs->bt.nr_kn);
		assert_int_equal(fsc_node(fs, id)->tree, FSC_BT_EXT);
		assert_true(fsc_node(fs, id)->logical != FSC_NO_ADDR);  /* CoW'd */
		nr++;
	}
	assert_true(nr >= 1);
	assert_true(tcommit(fs) > 0);
	fsc_destroy(fs);
	tdevs_fini(&t);
}

/* A block group's items fill fewer leaves once most of its data is freed:
 * the leaves beyond (their items pushed into the neighbours) are deleted at
 * the next commit, their blocks freed (btrfs_del_items(), ctree.c:4443 of
 * 6.1), instead of staying behind, never written again, holding their
 * metadata block groups alive. */
static void test_emptied_leaves_merge(void **state)
{
	struct tdevs t;
	struct fsc_cfg cfg;
	struct fsc *fs;
	struct fsc_bio *b;
	struct fsc_bg *bg;
	uint64_t start;
	uint32_t i, nr_leaves, n;

	tdevs_init(&t, 1, 64, 0);
	tcfg(&cfg, &t, FSC_SINGLE);
	cfg.file_bytes = 8u << 20;
	cfg.meta_model = FSC_META_BTRFS;
	cfg.node_bytes = 4096;   /* 51 extent items a leaf: 204 KiB of 4 KiB extents */
	cfg.extent_bytes = BLK;
	assert_int_equal(fsc_create(&cfg, &fs), 0);
	for (i = 0; i < (1u << 20) / BLK; i++) {  /* one data block group, full */
		assert_int_equal(fsc_write_file(fs, i, 1, 0, &b), 0);
		assert_int_equal(fsc_submit(fs, b, 0), 0);
	}
	bg = fsc_bg_lookup(fs, fs->file_map[0]);
	start = bg->start;
	assert_int_equal(bg->khigh[0], 5);  /* 256 items: 5 leaves (1 MiB / 204 KiB) */
	for (i = 0, n = 0; i < bg->kmax; i++)
		n += bg->kleaf[i] != 0;
	assert_int_equal(n, 5);
	assert_true(tcommit(fs) > 0);
	nr_leaves = fs->bt.nr_leaves[FSC_BT_EXT];
	/* 7/8 of it overwritten: its 32 live items fill one leaf */
	for (i = 0; i < (1u << 20) / BLK * 7 / 8; i++) {
		assert_int_equal(fsc_write_file(fs, i, 1, 0, &b), 0);
		assert_int_equal(fsc_submit(fs, b, 0), 0);
	}
	bg = fsc_bg_lookup(fs, start);
	assert_non_null(bg);
	assert_int_equal(bg->used_bytes, (1u << 20) / 8);
	assert_int_equal(bg->khigh[0], 1);
	for (i = 1; i < bg->kmax; i++)
		assert_int_equal(bg->kleaf[i], 0);
	assert_true(fs->bt.nr_dead >= 4);    /* deleted at the commit */
	assert_true(tcommit(fs) > 0);
	assert_int_equal(fs->bt.nr_dead, 0);
	/* the new block group's leaves came, the old one's four went */
	assert_true(fs->bt.nr_leaves[FSC_BT_EXT] < nr_leaves + 5);
	fsc_destroy(fs);
	tdevs_fini(&t);
}

/* 4 KiB extents, 4 KiB nodes (51 extent items a leaf: 204 KiB), one 1 MiB
 * data block group written full: its items fill 5 extent leaves. */
static struct fsc *mk4k(struct tdevs *t, uint64_t *start)
{
	struct fsc_cfg cfg;
	struct fsc *fs;
	struct fsc_bio *b;
	uint32_t i;

	tdevs_init(t, 1, 64, 0);
	tcfg(&cfg, t, FSC_SINGLE);
	cfg.file_bytes = 8u << 20;
	cfg.meta_model = FSC_META_BTRFS;
	cfg.node_bytes = 4096;
	cfg.extent_bytes = BLK;
	assert_int_equal(fsc_create(&cfg, &fs), 0);
	for (i = 0; i < (1u << 20) / BLK; i++) {
		assert_int_equal(fsc_write_file(fs, i, 1, 0, &b), 0);
		assert_int_equal(fsc_submit(fs, b, 0), 0);
	}
	*start = fsc_bg_lookup(fs, fs->file_map[0])->start;
	return fs;
}

static void overwrite(struct fsc *fs, uint32_t from, uint32_t to, uint32_t step)
{
	struct fsc_bio *b;
	uint32_t i;

	for (i = from; i < to; i += step) {
		assert_int_equal(fsc_write_file(fs, i, 1, 0, &b), 0);
		assert_int_equal(fsc_submit(fs, b, 0), 0);
	}
}

static uint32_t nr_slots(const struct fsc_bg *bg, bool csum)
{
	uint32_t i, n = 0;

	for (i = 0; i < bg->kmax; i++)
		n += bg->kleaf[csum * bg->kmax + i] != 0;
	return n;
}

/* btrfs_del_items() leaves a leaf in place while its items use a third of
 * it (ctree.c:4443): the block group's extent leaves stay while their live
 * items average a third, then merge in pairs */
static void test_extent_leaves_stay_while_a_third_full(void **state)
{
	struct tdevs t;
	uint64_t start;
	struct fsc *fs = mk4k(&t, &start);
	struct fsc_bg *bg = fsc_bg_lookup(fs, start);

	assert_int_equal(bg->kleaves[0], 5);
	assert_true(tcommit(fs) > 0);
	overwrite(fs, 0, 128, 1);                 /* 128 live items: 2.5 leaves packed */
	bg = fsc_bg_lookup(fs, start);
	assert_int_equal(bg->used_bytes, 128u * BLK);
	assert_int_equal(bg->kleaves[0], 5);      /* each leaf half full: all stay */
	assert_int_equal(nr_slots(bg, false), 5);
	overwrite(fs, 128, 192, 1);               /* 64 live */
	bg = fsc_bg_lookup(fs, start);
	/* under a third at 84 live (5 x 51 / 3 = 85): pairs merged, 3 leaves,
	 * which hold 64 items at over a third */
	assert_int_equal(bg->kleaves[0], 3);
	assert_int_equal(nr_slots(bg, false), 3);
	assert_true(tcommit(fs) > 0);
	overwrite(fs, 192, 224, 1);               /* 32 live: 1 leaf (under 51 / 3 at 33) */
	bg = fsc_bg_lookup(fs, start);
	assert_int_equal(bg->kleaves[0], 1);
	assert_int_equal(nr_slots(bg, false), 1);
	fsc_destroy(fs);
	tdevs_fini(&t);
}

/* btrfs_csum_file_blocks() extends the item ending where the new range
 * begins (file-item.c:1055-1154): a block group written back to back has
 * 4 bytes of checksum a block, and its 256 blocks one leaf (the item per
 * extent, 29 bytes, would need two); holes split items (file-item.c:937):
 * a header per live run, q(1 - q) a block freed at random, at most one an
 * extent */
static void test_csum_items_merge_adjacent_blocks(void **state)
{
	struct tdevs t;
	uint64_t start;
	struct fsc *fs = mk4k(&t, &start);
	struct fsc_bg *bg = fsc_bg_lookup(fs, start);

	assert_int_equal(fs->bt.span[2], (3995ull / (25 + 4)) * BLK);  /* the bound: an item each */
	assert_int_equal(fsc_bt_csum_span(fs, bg), 3995ull * 1000 / 4000 * BLK);
	assert_int_equal(bg->kleaves[1], 1);
	assert_int_equal(nr_slots(bg, true), 1);
	assert_true(tcommit(fs) > 0);
	overwrite(fs, 0, 256, 2);                 /* every other block: q = 1/2 */
	bg = fsc_bg_lookup(fs, start);
	assert_int_equal(bg->used_bytes, 128u * BLK);
	/* 1000 x (4 + 25 x 1/2) bytes a live block */
	assert_int_equal(fsc_bt_csum_span(fs, bg), 3995ull * 1000 / 16500 * BLK);
	assert_int_equal(nr_slots(bg, true), 1);
	fsc_destroy(fs);
	tdevs_fini(&t);

	/* 64 KiB extents: at most one header an extent (16 blocks) */
	fs = mk(&t, 32, 8u << 20, false);
	assert_int_equal(write_ext(fs, 0, 16), 0);
	assert_true(tcommit(fs) > 0);
	assert_int_equal(write_ext(fs, 0, 8), 0);  /* half the first block group's extents */
	bg = fsc_bg_lookup(fs, fs->file_map[8 * (EXT / BLK)]);
	assert_int_equal(bg->used_bytes * 2, bg->alloc_offset);
	assert_int_equal(fsc_bt_csum_span(fs, bg), 16283ull * 1000 / (4000 + 25000 / 16) * BLK);
	fsc_destroy(fs);
	tdevs_fini(&t);
}

static void test_relocation_stages(void **state)
{
	struct tdevs t;
	struct fsc *fs = mk(&t, 32, 8u << 20, false);
	const struct fsc_stats *st = fsc_stats(fs);
	struct fsc_bio *list, *b, *next;
	struct fsc_bg *victim;
	uint64_t file_cow, ext_cow;
	uint32_t i;

	/* the first data block group (1 MiB: 16 extents), then half of it
	 * overwritten elsewhere: half live */
	assert_int_equal(write_ext(fs, 0, 16), 0);
	victim = fsc_bg_lookup(fs, fs->file_map[0]);
	assert_non_null(victim);
	assert_true(victim->alloc_done);
	assert_int_equal(write_ext(fs, 0, 8), 0);
	assert_true(tcommit(fs) > 0);
	assert_int_equal(fsc_reloc_commits(fs), 0);
	assert_true(fsc_relocate(fs, victim, 0, &list) > 0);
	for (b = list; b; b = next) {
		next = b->next;
		assert_int_equal(fsc_submit(fs, b, 0), 0);
	}
	/* MOVE_DATA_EXTENTS, UPDATE_DATA_PTRS, and a call that finds nothing */
	assert_int_equal(fsc_reloc_commits(fs), 9);
	for (i = 0; i < 9; i++) {
		file_cow = st->nr_cow[FSC_BT_FILE];
		ext_cow = st->nr_cow[FSC_BT_EXT];
		assert_int_equal(fsc_reloc_stage(fs, 0), 0);
		if (i == 3) {  /* the file leaf that pointed at the moved data, its backrefs */
			assert_true(st->nr_cow[FSC_BT_FILE] > file_cow);
			assert_true(st->nr_cow[FSC_BT_EXT] > ext_cow);
		}
		if (i == 5)  /* the relocation tree dropped: backrefs again */
			assert_true(st->nr_cow[FSC_BT_EXT] > ext_cow);
		assert_true(tcommit(fs) >= 0);
		assert_int_equal(fsc_reloc_commits(fs), 8 - i);
	}
	assert_int_equal(fsc_reloc_stage(fs, 0), 0);  /* none left: nothing */
	fsc_destroy(fs);
	tdevs_fini(&t);
}

/* The backref sweep of UPDATE_DATA_PTRS (stage 3) and of the relocation
 * tree's drop (stage 5): btrfs_inc_ref()/btrfs_dec_ref() change extent
 * items only; linux-6.12 mode leaves the checksum leaves alone (issue 30:
 * the kernel's checksum leaves stay where they were last written), the
 * linux-6.1 mode keeps its outputs and CoWs them as before. */
static uint64_t sweep_csum_cows(int mode)
{
	struct tdevs t;
	struct fsc_cfg cfg;
	struct fsc *fs;
	const struct fsc_stats *st;
	struct fsc_bio *list, *b, *next;
	struct fsc_bg *victim;
	uint64_t csum_cow, ext_cow, sum = 0;
	uint32_t i;

	tdevs_init(&t, 1, 32, 0);
	tcfg(&cfg, &t, FSC_SINGLE);
	cfg.file_bytes = 8u << 20;
	cfg.meta_model = FSC_META_BTRFS;
	cfg.extent_bytes = EXT;
	cfg.reclaim.mode = mode;
	assert_int_equal(fsc_create(&cfg, &fs), 0);
	st = fsc_stats(fs);
	assert_int_equal(write_ext(fs, 0, 16), 0);
	victim = fsc_bg_lookup(fs, fs->file_map[0]);
	assert_non_null(victim);
	assert_int_equal(write_ext(fs, 0, 8), 0);
	assert_true(tcommit(fs) > 0);
	assert_true(fsc_relocate(fs, victim, 0, &list) > 0);
	for (b = list; b; b = next) {
		next = b->next;
		assert_int_equal(fsc_submit(fs, b, 0), 0);
	}
	assert_int_equal(fsc_reloc_commits(fs), 9);
	for (i = 0; i < 9; i++) {
		csum_cow = st->nr_cow[FSC_BT_CSUM];
		ext_cow = st->nr_cow[FSC_BT_EXT];
		assert_int_equal(fsc_reloc_stage(fs, 0), 0);
		if (i == 3 || i == 5) {
			assert_true(st->nr_cow[FSC_BT_EXT] > ext_cow);  /* backrefs in both */
			sum += st->nr_cow[FSC_BT_CSUM] - csum_cow;
		}
		assert_true(tcommit(fs) >= 0);
	}
	fsc_destroy(fs);
	tdevs_fini(&t);
	return sum;
}

static void test_sweep_csum_by_mode(void **state)
{
	(void)state;
	assert_true(sweep_csum_cows(FSC_RECLAIM_LINUX_6_1) > 0);
	assert_int_equal(sweep_csum_cows(FSC_RECLAIM_LINUX_6_12), 0);
}

/* The transaction that last wrote @bg's checksum leaf nearest its start
 * (@last false) or end (true). */
static uint32_t csum_edge_gen(struct fsc *fs, const struct fsc_bg *bg, bool last)
{
	uint32_t s, id;

	assert_non_null(bg->kleaf);
	for (s = 0; s < bg->khigh[1]; s++) {
		id = bg->kleaf[bg->kmax + (last ? bg->khigh[1] - 1u - s : s)];
		if (id)
			return fsc_node(fs, id)->gen;
	}
	fail_msg("no checksum leaf");
	return 0;
}

/* Three full data block groups side by side, committed: @bgs by address. */
static struct fsc *mk_three(struct tdevs *t, int mode, struct fsc_bg **bgs)
{
	struct fsc_cfg cfg;
	struct fsc *fs;
	uint32_t i;

	tdevs_init(t, 1, 32, 0);
	tcfg(&cfg, t, FSC_SINGLE);
	cfg.file_bytes = 8u << 20;
	cfg.meta_model = FSC_META_BTRFS;
	cfg.extent_bytes = EXT;
	cfg.reclaim.mode = mode;
	assert_int_equal(fsc_create(&cfg, &fs), 0);
	assert_int_equal(write_ext(fs, 0, 48), 0);  /* 1 MiB block groups: 16 extents each */
	for (i = 0; i < 3; i++) {
		bgs[i] = fsc_bg_lookup(fs, fs->file_map[i * 16 * (EXT / BLK)]);
		assert_non_null(bgs[i]);
		assert_true(bgs[i]->alloc_done);
		assert_true(i == 0 || bgs[i]->start > bgs[i - 1]->start);
	}
	assert_true(tcommit(fs) > 0);
	return fs;
}

/* The checksum tree is keyed by address across block groups: a block
 * group's first checksums go into the leaf holding its neighbour's last
 * ones (btrfs_csum_file_blocks()), which linux-6.12 mode CoWs; 6.1's mode
 * keeps each block group's leaves to itself. */
static uint32_t first_csums_gen(int mode)
{
	struct tdevs t;
	struct fsc_bg *bgs[3], *bg;
	struct fsc *fs = mk_three(&t, mode, bgs);
	uint32_t gen;

	assert_int_equal(write_ext(fs, 48 * (EXT / BLK), 1), 0);  /* into a fourth block group */
	bg = fsc_bg_lookup(fs, fs->file_map[48 * (EXT / BLK)]);
	assert_true(bg->start > bgs[2]->start);
	gen = csum_edge_gen(fs, bgs[2], true) == fs->trans_id;
	fsc_destroy(fs);
	tdevs_fini(&t);
	return gen;
}

static void test_612_first_csums_cow_neighbour_leaf(void **state)
{
	(void)state;
	assert_int_equal(first_csums_gen(FSC_RECLAIM_LINUX_6_12), 1);
	assert_int_equal(first_csums_gen(FSC_RECLAIM_LINUX_6_1), 0);
}

/* Removing a data block group deletes its checksums: the leaves at both
 * ends of its range, which hold its neighbours' items, are CoW'd (at the
 * next commit, as its own leaves are deleted): linux-6.12 mode only. */
static void removal_cows_neighbours(int mode, bool *below, bool *above)
{
	struct tdevs t;
	struct fsc_bg *bgs[3];
	struct fsc *fs = mk_three(&t, mode, bgs);
	uint64_t mid = bgs[1]->start;
	uint32_t trans;

	/* the middle one overwritten whole (elsewhere), emptied, deleted */
	assert_int_equal(write_ext(fs, 16 * (EXT / BLK), 16), 0);
	assert_int_equal(bgs[1]->used_bytes, 0);
	fsc_delete_unused(fs, 0);
	assert_null(fsc_bg_lookup(fs, mid));
	trans = fs->trans_id;
	assert_true(csum_edge_gen(fs, bgs[0], true) < trans);
	assert_true(tcommit(fs) > 0);
	*below = csum_edge_gen(fs, bgs[0], true) == trans;
	*above = csum_edge_gen(fs, bgs[2], false) == trans;
	fsc_destroy(fs);
	tdevs_fini(&t);
}

static void test_612_removal_cows_neighbours_leaves(void **state)
{
	bool below, above;

	(void)state;
	removal_cows_neighbours(FSC_RECLAIM_LINUX_6_12, &below, &above);
	assert_true(below);
	assert_true(above);
	removal_cows_neighbours(FSC_RECLAIM_LINUX_6_1, &below, &above);
	assert_false(below);
	assert_false(above);
}

static void test_metadata_enospc_aborts(void **state)
{
	struct tdevs t;
	struct fsc *fs = mk(&t, 8, 1u << 20, false);
	struct fsc_bg *bg;
	uint64_t l;
	int ret;

	assert_int_equal(write_ext(fs, 0, 1), 0);
	assert_true(tcommit(fs) > 0);
	/* every other zone into data, the metadata block group filled */
	while (!fsc_alloc(fs, FSC_BG_DATA, BLK, FSC_NO_OWNER, 0, &bg, &l))
		bg->nr_inflight--;
	while (!fsc_alloc(fs, FSC_BG_META, 16384, FSC_NO_OWNER, 0, &bg, &l))
		bg->nr_inflight--;
	ret = write_ext(fs, 0, 1);
	assert_true(ret == -ENOSPC || ret == -EROFS);
	assert_int_equal(fsc_stats(fs)->nr_meta_enospc, 1);
	/* the transaction aborted: read-only from here */
	assert_int_equal(write_ext(fs, 16, 1), -EROFS);
	assert_int_equal(fsc_reloc_stage(fs, 0), 0);  /* no relocation running */
	fsc_destroy(fs);
	tdevs_fini(&t);
}

static void test_unused_waits_for_cleaner(void **state)
{
	struct tdevs t;
	struct fsc *fs = mk(&t, 32, 8u << 20, true);
	struct fsc_bg *bg;
	uint64_t start, resets;

	assert_int_equal(write_ext(fs, 0, 16), 0);  /* one data block group, full */
	bg = fsc_bg_lookup(fs, fs->file_map[0]);
	start = bg->start;
	assert_int_equal(write_ext(fs, 0, 16), 0);  /* all of it overwritten */
	assert_int_equal(bg->used_bytes, 0);
	assert_true(bg->unused);                    /* btrfs_mark_bg_unused() */
	assert_ptr_equal(fsc_bg_lookup(fs, start), bg);
	resets = fsc_stats(fs)->nr_zone_resets;
	fsc_delete_unused(fs, 0);                   /* the cleaner */
	assert_null(fsc_bg_lookup(fs, start));
	assert_int_equal(fsc_stats(fs)->nr_zone_resets, resets + 1);
	fsc_destroy(fs);
	tdevs_fini(&t);
}

static void test_bad_sizes(void **state)
{
	struct tdevs t;
	struct fsc_cfg cfg;
	struct fsc *fs = NULL;

	tdevs_init(&t, 1, 32, 0);
	tcfg(&cfg, &t, FSC_SINGLE);
	cfg.file_bytes = 8u << 20;
	cfg.meta_model = FSC_META_BTRFS;
	cfg.extent_bytes = 1000;  /* not a multiple of the sector */
	assert_int_equal(fsc_create(&cfg, &fs), -EINVAL);
	assert_null(fs);
	cfg.extent_bytes = 0;
	assert_int_equal(fsc_create(&cfg, &fs), -EINVAL);
	cfg.extent_bytes = 16u << 20;  /* its checksums outgrow a leaf */
	assert_int_equal(fsc_create(&cfg, &fs), -EINVAL);
	tdevs_fini(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_write_dirties_trees_once),
		cmocka_unit_test(test_level_one_nodes),
		cmocka_unit_test(test_emptied_leaves_merge),
		cmocka_unit_test(test_extent_leaves_stay_while_a_third_full),
		cmocka_unit_test(test_csum_items_merge_adjacent_blocks),
		cmocka_unit_test(test_relocation_stages),
		cmocka_unit_test(test_sweep_csum_by_mode),
		cmocka_unit_test(test_612_first_csums_cow_neighbour_leaf),
		cmocka_unit_test(test_612_removal_cows_neighbours_leaves),
		cmocka_unit_test(test_metadata_enospc_aborts),
		cmocka_unit_test(test_unused_waits_for_cleaner),
		cmocka_unit_test(test_bad_sizes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
