/*
 * fsc_btree.c — tree blocks: the copy on write of one node (a new block,
 * the old one pinned until the commit), and, with cfg.meta_model btrfs,
 * the kernel's trees besides the file tree, which decide most of what a
 * zoned btrfs writes as metadata (docs/VALIDATION.md, "The metadata
 * model"):
 *  - the extent tree: an item per data extent, keyed by its address, and
 *    one per tree block (skinny metadata items).  Allocating or freeing
 *    either dirties the leaf holding its item;
 *  - the checksum tree: the data's crc32c, keyed by address, inserted with
 *    the data and deleted with it;
 *  - the root tree (a root item per tree changed: CoW'd by every commit
 *    that writes anything) and the data relocation tree (the relocation
 *    inode's file extents).
 * Leaves of the keyed trees belong to block groups: a block group's key
 * range holds ceil(live bytes / span) leaves, span = the items a 16 KiB
 * leaf holds (node size less the 101-byte header, over the 25-byte item
 * header plus the item) times the key bytes an item covers; the leaves
 * its live bytes no longer fill are deleted (leaves_merge()), and removing
 * the block group deletes them all (in linux-6.12 mode the checksum
 * leaves at its neighbours' ends too are CoW'd then, and a block group's
 * first checksums CoW the leaf below: the kernel's tree is keyed across
 * block groups, csum_first_cow()).  Above them one level of nodes when a
 * tree outgrows one root (key pointers of 33 bytes), then the root.
 * Relocation (fsc_reloc_stage()): the kernel's stages and their commits,
 * and what UPDATE_DATA_PTRS costs: each file leaf pointing at moved data
 * is CoW'd through the relocation tree, a snapshot of the file tree, so
 * update_ref_for_cow() takes a reference on every extent the leaf holds
 * (btrfs_inc_ref()), and dropping the relocation tree after the merge
 * gives them back (btrfs_dec_ref()): the extent items of the whole file,
 * twice per victim.  It models traffic, not keys: nothing is searched.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fsc_int.h"

#define LEAF_HDR 101u   /* struct btrfs_header */
#define ITEM_HDR 25u    /* struct btrfs_item: key 17 + offset 4 + size 4 */
#define KEY_PTR 33u     /* struct btrfs_key_ptr */
#define FILE_EXT 53u    /* struct btrfs_file_extent_item */
#define DATA_EXT 53u    /* btrfs_extent_item 24 + inline EXTENT_DATA_REF 1 + 28 */
#define META_EXT 33u    /* skinny METADATA_ITEM: 24 + inline TREE_BLOCK_REF 1 + 8 */
#define CSUM 4u         /* crc32c */

enum { SPAN_DATA, SPAN_META, SPAN_CSUM };

/* ---- one node ---- */

int fsc_node_pin(struct fsc *fs, uint64_t logical)
{
	struct fsc_bg *bg = fsc_bg_lookup(fs, logical);
	struct fsc_pin *a = fsc_grow(fs->pinned, &fs->pinned_cap, fs->nr_pinned, sizeof(*a));

	if (!a)
		return -ENOMEM;
	fs->pinned = a;
	a[fs->nr_pinned].logical = logical;
	a[fs->nr_pinned].len = fs->cfg.node_bytes;
	fs->nr_pinned++;
	if (bg) {
		/* it keeps its space until the commit but has no owner:
		 * relocation must not move it */
		bg->owner[(logical - bg->start) / bg->unit_bytes] = 0;
		bg->pinned_bytes += fs->cfg.node_bytes;
		fsc_clean_sync(fs, bg);  /* pinned: no longer a candidate */
	}
	return 0;
}

static int item(struct fsc *fs, uint64_t logical, uint64_t now_ns);

int fsc_node_cow(struct fsc *fs, uint32_t id, uint64_t now_ns)
{
	uint64_t logical, old;
	struct fsc_node *n;
	struct fsc_bg *bg;
	int ret;

	if (fs->bt.err)
		return fs->bt.err;
	ret = fsc_alloc(fs, FSC_BG_META, fs->cfg.node_bytes, id, now_ns, &bg, &logical);
	if (ret) {
		if (ret == -ENOSPC && fsc_bt_on(fs)) {
			/* the kernel aborts the transaction: read-only from here */
			fs->st.nr_meta_enospc++;
			fs->bt.err = -EROFS;
		}
		return ret;
	}
	n = fsc_node(fs, id);
	/* what the kernel CoWs when it runs delayed refs: the extent tree,
	 * and the checksum leaves of data freed */
	fsc_resv_cow(fs, id >= FSC_KID && (n->tree == FSC_BT_EXT ||
					   (n->tree == FSC_BT_CSUM && fs->bt.freeing)));
	old = n->logical;
	n->logical = logical;
	n->gen = fs->trans_id;
	if (old != FSC_NO_ADDR) {
		ret = fsc_node_pin(fs, old);
		if (ret)
			return ret;
	}
	ret = fsc_push_u32(&fs->dirty, &fs->nr_dirty, &fs->dirty_cap, id);
	if (ret || !fsc_bt_on(fs))
		return ret;
	fs->st.nr_cow[id < FSC_KID ? FSC_BT_FILE : fsc_node(fs, id)->tree]++;
	/* the new block's extent item goes in, the old one's out */
	ret = item(fs, logical, now_ns);
	if (!ret && old != FSC_NO_ADDR)
		ret = item(fs, old, now_ns);
	return ret;
}

/**
 * fsc_tree_cow_node() - CoW tree node @id and its path to the root in the
 * running transaction (relocation of metadata, as btrfs relocates tree
 * blocks).  Returns 0, -ENOSPC or -ENOMEM.
 */
int fsc_tree_cow_node(struct fsc *fs, uint32_t id, uint64_t now_ns)
{
	uint32_t l, idx;
	int ret;

	if (id >= FSC_KID)
		return fsc_bt_cow_node(fs, id, now_ns);  /* a keyed tree's */
	if (id >= fs->nr_nodes)
		return -EINVAL;
	for (l = fs->nr_levels - 1; l > 0 && id < fs->level_first[l]; l--)
		;
	idx = id - fs->level_first[l];
	for (; l < fs->nr_levels; l++, idx /= fs->cfg.tree_fanout) {
		uint32_t n = fs->level_first[l] + idx;

		if (fs->nodes[n].gen == fs->trans_id)
			break;
		ret = fsc_node_cow(fs, n, now_ns);
		if (ret)
			return ret;
	}
	return 0;
}

/* ---- the keyed trees ---- */

static int knode_new(struct fsc *fs, uint32_t tree, uint32_t *id)
{
	struct fsc_bt *t = &fs->bt;
	uint32_t i;

	if (t->nr_kfree) {
		i = t->kfree[--t->nr_kfree];
	} else {
		struct fsc_node *a = fsc_grow(t->kn, &t->kn_cap, t->nr_kn, sizeof(*a));

		if (!a)
			return -ENOMEM;
		t->kn = a;
		i = t->nr_kn++;
	}
	t->kn[i].logical = FSC_NO_ADDR;
	t->kn[i].gen = 0;
	t->kn[i].tree = tree;
	*id = FSC_KID + i;
	return 0;
}

/* Dirty node @id alone (CoW once per transaction). */
static int touch(struct fsc *fs, uint32_t id, uint64_t now_ns)
{
	return fsc_node(fs, id)->gen == fs->trans_id ? 0 : fsc_node_cow(fs, id, now_ns);
}

/* Dirty keyed leaf @id and its path to its tree's root. */
static int touch_path(struct fsc *fs, uint32_t id, uint64_t now_ns)
{
	struct fsc_bt *t = &fs->bt;
	uint32_t tree = fsc_node(fs, id)->tree, p;
	int ret;

	if (fsc_node(fs, id)->gen == fs->trans_id)
		return 0;  /* its path was dirtied with it */
	ret = fsc_node_cow(fs, id, now_ns);
	if (ret)
		return ret;
	if (id != t->root[tree] && t->nr_leaves[tree] > fs->cfg.tree_fanout) {
		p = (id - FSC_KID) / fs->cfg.tree_fanout;
		if (p >= t->par_cap[tree]) {
			uint32_t cap = p + 1 > 2 * t->par_cap[tree] ? p + 1 : 2 * t->par_cap[tree];
			uint32_t *a = realloc(t->par[tree], cap * sizeof(*a));

			if (!a)
				return -ENOMEM;
			memset(a + t->par_cap[tree], 0, (cap - t->par_cap[tree]) * sizeof(*a));
			t->par[tree] = a;
			t->par_cap[tree] = cap;
		}
		if (!t->par[tree][p]) {
			ret = knode_new(fs, tree, &t->par[tree][p]);
			if (ret)
				return ret;
		}
		ret = touch(fs, t->par[tree][p], now_ns);
		if (ret)
			return ret;
	}
	return id == t->root[tree] ? 0 : touch(fs, t->root[tree], now_ns);
}

/*
 * The items of @bg in one keyed tree (@csum: the checksum tree's half of
 * its slots) now fill @live leaves: those beyond were emptied into their
 * neighbours and go.  btrfs_del_items() pushes a leaf under a third full
 * into its neighbours and deletes it when empty (ctree.c:4443-4486 of
 * 6.1, btrfs_del_leaf()), freeing its block; a leaf left behind would
 * keep its metadata block group from ever emptying.  Deleted as a removed
 * block group's leaves are, at the next commit (fsc_bt_commit_prep()).
 */
static int leaves_merge(struct fsc *fs, struct fsc_bg *bg, bool csum, uint32_t live)
{
	uint32_t *slots = &bg->kleaf[csum * bg->kmax], s;
	int ret;

	for (s = live; s < bg->khigh[csum]; s++) {
		if (!slots[s])
			continue;
		ret = fsc_push_u32(&fs->bt.dead, &fs->bt.nr_dead, &fs->bt.dead_cap, slots[s]);
		if (ret)
			return ret;
		slots[s] = 0;
	}
	if (bg->khigh[csum] > live)
		bg->khigh[csum] = (uint16_t)live;
	return 0;
}

/*
 * How many leaves the items of @bg in one keyed tree (@csum: the checksum
 * tree) spread over, @full being what its live bytes fill when packed.
 * Items go in and the range grows to @full: inserting into a full leaf
 * pushes into a neighbour or splits it (split_leaf(), ctree.c of 6.1),
 * and appended keys pack leaves full.  Items going out do not shrink it:
 * btrfs_del_items() leaves a leaf where it is while its items use a
 * third of it or more (ctree.c:4443, `used < BTRFS_LEAF_DATA_SIZE / 3`),
 * and one under a third is pushed into its left neighbour, else its
 * right, and deleted when empty (ctree.c:4451-4486).  Items freed at
 * random (4 KiB overwrites) thin every leaf of the range alike: it keeps
 * its leaves until they average under a third, then neighbours merge in
 * pairs, to two thirds.  The extent tree only: the checksum tree's items
 * here are one per extent, which the kernel merges (file-item.c:987),
 * so its leaves keep the packed count.
 */
static uint32_t leaves_live(struct fsc_bg *bg, bool csum, uint64_t span, uint64_t full)
{
	uint64_t n = bg->kleaves[csum], pair;

	full = full < 1 ? 1 : full > bg->kmax ? bg->kmax : full;
	if (csum || full >= n) {
		n = full;
	} else if (bg->used_bytes * 3 < n * span) {
		pair = (3 * bg->used_bytes + 2 * span - 1) / (2 * span);
		n = pair > full ? (pair < n ? pair : n) : full;
	}
	bg->kleaves[csum] = (uint16_t)n;
	return (uint32_t)n;
}

/*
 * The data bytes of @bg one checksum leaf covers.  btrfs_csum_file_blocks()
 * extends the item ending where a new range begins (file-item.c:1055-1154
 * of 6.1: "extend the existing csum item"), so data written back to back
 * (a zoned block group, whatever the file offsets) has one item per
 * leaf: 4 bytes a block.  Freeing a range inside an item splits it in two
 * (btrfs_del_csums(), file-item.c:900-937, btrfs_split_item()): an item
 * header (25 bytes) per run of live blocks.  Freed at random, a block
 * group whose live fraction is q holds about q(1-q) runs a block (a live
 * block followed by a dead one), at most one a live extent.
 */
uint64_t fsc_bt_csum_span(const struct fsc *fs, const struct fsc_bg *bg)
{
	const struct fsc_bt *t = &fs->bt;
	uint64_t room = fs->cfg.node_bytes - LEAF_HDR, blk = fs->cfg.sector_bytes;
	uint64_t per = 1000 * CSUM, q, hdr;

	if (!bg->alloc_offset)
		return t->span[SPAN_CSUM];
	q = bg->used_bytes * 1000 / bg->alloc_offset;
	/* 1000 x bytes a live block: 4 of checksum, 25 x (1 - q) of headers,
	 * no more than an item per extent */
	hdr = ITEM_HDR * (1000 - (q > 1000 ? 1000 : q));
	per += hdr < 1000 * ITEM_HDR / t->ext_blocks ? hdr : 1000 * ITEM_HDR / t->ext_blocks;
	return room * 1000 / per * blk;
}

/* The leaf of @tree holding the key @logical of @bg, made when missing. */
static int leaf_of(struct fsc *fs, struct fsc_bg *bg, uint32_t tree, uint64_t logical,
		   uint32_t *out)
{
	struct fsc_bt *t = &fs->bt;
	uint64_t span = tree == FSC_BT_CSUM ? fsc_bt_csum_span(fs, bg) :
			t->span[bg->type & FSC_BG_DATA ? SPAN_DATA : SPAN_META];
	uint64_t live = (bg->used_bytes + span / 2) / span, j;
	uint32_t *slot;
	int ret;

	if (!bg->kleaf) {
		uint64_t k = (bg->len_bytes + t->span[SPAN_META] - 1) / t->span[SPAN_META];
		uint64_t kd = (bg->len_bytes + t->span[SPAN_DATA] - 1) / t->span[SPAN_DATA];
		uint64_t kc = (bg->len_bytes + t->span[SPAN_CSUM] - 1) / t->span[SPAN_CSUM];

		k = k > kd ? k : kd;
		k = k > kc ? k : kc;
		bg->kmax = (uint16_t)(k > UINT16_MAX ? UINT16_MAX : k);
		bg->kleaf = calloc(2 * (size_t)bg->kmax, sizeof(*bg->kleaf));
		if (!bg->kleaf)
			return -ENOMEM;
	}
	live = leaves_live(bg, tree == FSC_BT_CSUM, span, live);
	ret = leaves_merge(fs, bg, tree == FSC_BT_CSUM, (uint32_t)live);
	if (ret)
		return ret;
	j = (logical - bg->start) * live / bg->len_bytes;
	slot = &bg->kleaf[(tree == FSC_BT_CSUM) * bg->kmax + j];
	if (!*slot) {
		ret = knode_new(fs, tree, slot);
		if (ret)
			return ret;
		t->nr_leaves[tree]++;
	}
	if (j + 1 > bg->khigh[tree == FSC_BT_CSUM])
		bg->khigh[tree == FSC_BT_CSUM] = (uint16_t)(j + 1);
	*out = *slot;
	return 0;
}

/*
 * The checksum tree is keyed by address across block groups: the kernel's
 * leaf holding the end of one data block group's items holds the start of
 * the next one's (fs-core's leaves belong to one block group each, above).
 * So deleting a block group's checksums (btrfs_del_csums(), file-item.c:875
 * of 6.12, from do_free_extent_accounting(), extent-tree.c:2982, as its
 * last extents are freed) rewrites the leaves at both ends of its range,
 * which its neighbours' items share: the leaf keeps them, or, left under a
 * third full, pushes them into its left neighbour, else its right
 * (btrfs_del_items(), ctree.c:4559-4596), each CoW'd into the metadata
 * block group being written then.  A neighbour not touched again stays
 * there: one leftover leaf keeps that metadata block group partly live
 * (docs/VALIDATION.md, "Linux 6.12: the stored grid").  linux-6.12 mode
 * only: the 6.1 mode's outputs stay as they were.
 */

/* Whether @bg is a data block group with checksum leaves. */
static inline bool csum_has_leaves(const struct fsc_bg *bg)
{
	return bg && (bg->type & FSC_BG_DATA) && bg->kleaf && bg->khigh[1];
}

/* The nearest block group by address below (@dir -1) or above (+1) @bg's
 * start that holds checksum leaves, or NULL. */
static struct fsc_bg *csum_neighbour(const struct fsc *fs, const struct fsc_bg *bg, int dir)
{
	uint32_t lo = 0, hi = fs->nr_slots;
	int64_t i;

	while (lo < hi) {  /* the first slot starting at or after @bg's start */
		uint32_t mid = (lo + hi) / 2;

		if (fs->bg_starts[mid] < bg->start)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = dir < 0 ? (int64_t)lo - 1 : lo; i >= 0 && i < fs->nr_slots; i += dir)
		if (fs->bgs[i] != bg && csum_has_leaves(fs->bgs[i]))
			return fs->bgs[i];
	return NULL;
}

/* @bg's checksum leaf nearest its start (@last false) or end (true), or 0. */
static uint32_t csum_end_leaf(const struct fsc_bg *bg, bool last)
{
	const uint32_t *slots;
	uint32_t s;

	if (!bg->kleaf)
		return 0;
	slots = &bg->kleaf[bg->kmax];
	for (s = 0; s < bg->khigh[1]; s++) {
		uint32_t id = slots[last ? bg->khigh[1] - 1 - s : s];

		if (id)
			return id;
	}
	return 0;
}

void fsc_bt_bg_removed(struct fsc *fs, const struct fsc_bg *bg)
{
	struct fsc_bt *t = &fs->bt;
	struct fsc_bg *nb;

	if (!fsc_bt_on(fs) || fs->cfg.reclaim.mode != FSC_RECLAIM_LINUX_6_12 ||
	    !csum_has_leaves(bg))
		return;
	/* out of memory: the neighbour's leaf is not rewritten */
	if ((nb = csum_neighbour(fs, bg, -1)))
		(void)fsc_push_u32(&t->edge, &t->nr_edge, &t->edge_cap, csum_end_leaf(nb, true));
	if ((nb = csum_neighbour(fs, bg, 1)))
		(void)fsc_push_u32(&t->edge, &t->nr_edge, &t->edge_cap, csum_end_leaf(nb, false));
}

/* Rewrite the leaves fsc_bt_bg_removed() listed, those still live. */
static int csum_edges_cow(struct fsc *fs, uint64_t now_ns)
{
	struct fsc_bt *t = &fs->bt;
	uint32_t i, d;
	int ret = 0;

	for (i = 0; i < t->nr_edge && !ret; i++) {
		for (d = 0; d < t->nr_dead && t->dead[d] != t->edge[i]; d++)
			;
		if (d == t->nr_dead)  /* not deleted meanwhile */
			ret = touch_path(fs, t->edge[i], now_ns);
	}
	t->nr_edge = 0;
	return ret;
}

/*
 * The first checksums of @bg, which had none: btrfs_csum_file_blocks()
 * (file-item.c:1050 of 6.12) searches for the key and
 * lands in the leaf holding the neighbour below's last items (above's
 * first when there is none below), which takes them or splits: CoW'd.
 */
static int csum_first_cow(struct fsc *fs, struct fsc_bg *bg, uint64_t now_ns)
{
	struct fsc_bg *nb = csum_neighbour(fs, bg, -1);
	uint32_t id;

	if (nb)
		id = csum_end_leaf(nb, true);
	else if ((nb = csum_neighbour(fs, bg, 1)))
		id = csum_end_leaf(nb, false);
	else
		return 0;
	return touch_path(fs, id, now_ns);
}

int fsc_bt_data(struct fsc *fs, struct fsc_bg *bg, uint64_t logical, bool csum, uint64_t now_ns)
{
	uint32_t id;
	bool first;
	int ret;

	ret = leaf_of(fs, bg, FSC_BT_EXT, logical, &id);
	if (!ret)
		ret = touch_path(fs, id, now_ns);
	if (!ret && csum && (bg->type & FSC_BG_DATA)) {
		/* linux-6.12: the tree keyed across block groups (above) */
		first = fs->cfg.reclaim.mode == FSC_RECLAIM_LINUX_6_12 && !csum_end_leaf(bg, false);
		ret = leaf_of(fs, bg, FSC_BT_CSUM, logical, &id);
		if (!ret)
			ret = touch_path(fs, id, now_ns);
		if (!ret && first)
			ret = csum_first_cow(fs, bg, now_ns);
	}
	return ret;
}

/* A tree block at @logical was allocated or freed: its extent item. */
static int item(struct fsc *fs, uint64_t logical, uint64_t now_ns)
{
	struct fsc_bg *bg = fsc_bg_lookup(fs, logical);

	return bg ? fsc_bt_data(fs, bg, logical, false, now_ns) : 0;
}

int fsc_bt_cow_node(struct fsc *fs, uint32_t id, uint64_t now_ns)
{
	if (id - FSC_KID >= fs->bt.nr_kn)
		return -EINVAL;
	return touch_path(fs, id, now_ns);
}

static void kfree_id(struct fsc *fs, uint32_t id)
{
	struct fsc_bt *t = &fs->bt;

	/* out of memory: the index is not reused */
	(void)fsc_push_u32(&t->kfree, &t->nr_kfree, &t->kfree_cap, id - FSC_KID);
}

int fsc_bt_commit_prep(struct fsc *fs, uint64_t now_ns)
{
	struct fsc_bt *t = &fs->bt;
	uint32_t i;
	int ret = 0;

	if (!fsc_bt_on(fs))
		return 0;
	/* linux-6.12: their neighbours' checksum leaves, then the leaves of
	 * block groups removed since: deleted from their trees */
	ret = csum_edges_cow(fs, now_ns);
	for (i = 0; i < t->nr_dead && !ret; i++) {
		struct fsc_node *n = fsc_node(fs, t->dead[i]);
		uint64_t old = n->logical;
		uint32_t tree = n->tree;

		t->nr_leaves[tree]--;
		if (old != FSC_NO_ADDR) {
			ret = fsc_node_pin(fs, old);
			if (!ret)
				ret = item(fs, old, now_ns);
		}
		kfree_id(fs, t->dead[i]);
		if (!ret)
			ret = touch(fs, t->root[tree], now_ns);
	}
	/* on an error those not reached stay for the next commit */
	if (i < t->nr_dead)
		memmove(t->dead, t->dead + i, (t->nr_dead - i) * sizeof(*t->dead));
	t->nr_dead -= i;
	/* a commit that writes anything updates root items in the root tree */
	if (!ret && fs->nr_dirty)
		ret = touch(fs, t->root[FSC_BT_ROOT], now_ns);
	return ret ? ret : t->err;
}

/* ---- relocation ---- */

int fsc_bt_moved(struct fsc *fs, uint32_t leaf)
{
	struct fsc_bt *t = &fs->bt;
	int ret;

	if (!fsc_bt_on(fs) || leaf >= fs->nr_leaves || t->mark[leaf] == t->seq)
		return 0;
	ret = fsc_push_u32(&t->moved, &t->nr_moved, &t->moved_cap, leaf);
	if (!ret)
		t->mark[leaf] = t->seq;
	return ret;
}

void fsc_bt_reloc_begin(struct fsc *fs, bool meta, bool moved, uint64_t now_ns)
{
	struct fsc_bt *t = &fs->bt;

	if (!fsc_bt_on(fs))
		return;
	t->meta_victim = meta;
	t->stage = 0;
	t->nr_stages = !moved ? 3 : meta ? 6 : 9;
	/* MOVE_DATA_EXTENTS: the relocation inode's file extents */
	if (moved && !meta && touch(fs, t->root[FSC_BT_DRELOC], now_ns))
		t->err = t->err ? t->err : -ENOSPC;
}

uint32_t fsc_reloc_commits(const struct fsc *fs)
{
	return fsc_bt_on(fs) ? fs->bt.nr_stages - fs->bt.stage : 0;
}

/* Every extent the moved file leaves point at: its extent item's backrefs. */
static int sweep(struct fsc *fs, bool cow_leaves, uint64_t now_ns)
{
	struct fsc_bt *t = &fs->bt;
	uint32_t i, step = t->ext_blocks ? t->ext_blocks : 1;
	int ret = 0;

	for (i = 0; i < t->nr_moved && !ret; i++) {
		uint64_t lbn = (uint64_t)t->moved[i] * fs->cfg.leaf_items, end, b;

		end = lbn + fs->cfg.leaf_items;
		end = end < fs->nr_file_blocks ? end : fs->nr_file_blocks;
		if (cow_leaves)
			ret = fsc_tree_cow_node(fs, t->moved[i], now_ns);
		for (b = lbn; b < end && !ret; b += step) {
			uint64_t at = fs->file_map[b];
			struct fsc_bg *bg;

			/* btrfs_inc_ref() / btrfs_dec_ref() change extent items
			 * only, not checksums; linux-6.12 mode touches the
			 * extent leaf alone (issue 30: the kernel leaves the
			 * checksum leaves where they were last written), the
			 * 6.1 mode keeps its outputs */
			if (fs->cfg.reclaim.mode != FSC_RECLAIM_LINUX_6_12) {
				ret = fsc_bt_data_at(fs, at, now_ns);
				continue;
			}
			if ((at & FSC_TOKEN_BIT) || at == FSC_NO_ADDR || !(bg = fsc_bg_lookup(fs, at)))
				continue;
			ret = fsc_bt_data(fs, bg, at, false, now_ns);
		}
	}
	return ret;
}

int fsc_reloc_stage(struct fsc *fs, uint64_t now_ns)
{
	struct fsc_bt *t = &fs->bt;
	uint32_t s;
	int ret = 0;

	if (!fsc_reloc_commits(fs))
		return 0;
	s = t->stage++;
	if (t->err)
		return t->err;
	/* data: commits 0-2 MOVE_DATA_EXTENTS, 3-5 UPDATE_DATA_PTRS (its
	 * leaves and backrefs before the merge's commit, the relocation
	 * tree dropped before the next), 6-8 nothing found; tree blocks
	 * move by CoW in the first call (fsc_relocate()), their file leaves'
	 * backrefs with them, the drop before the second call */
	if (!t->meta_victim && s == 3)
		ret = sweep(fs, true, now_ns);
	else if ((!t->meta_victim && s == 5) || (t->meta_victim && s == 3))
		ret = sweep(fs, false, now_ns);
	else if (t->meta_victim && s == 0)
		ret = sweep(fs, false, now_ns);
	if (t->stage == t->nr_stages) {
		t->nr_moved = 0;
		t->seq++;
	}
	return ret;
}

/* ---- set up ---- */

int fsc_bt_init(struct fsc *fs)
{
	struct fsc_bt *t = &fs->bt;
	uint64_t room = fs->cfg.node_bytes - LEAF_HDR, ext = fs->cfg.extent_bytes;
	uint32_t i;
	int ret;

	if (fs->cfg.meta_model != FSC_META_BTRFS)
		return 0;
	if (!ext || ext % fs->cfg.sector_bytes || fs->cfg.node_bytes <= LEAF_HDR + 2 * ITEM_HDR)
		return -EINVAL;
	t->ext_blocks = (uint32_t)(ext / fs->cfg.sector_bytes);
	t->bg_removed = fsc_bt_bg_removed;
	t->span[SPAN_DATA] = room / (ITEM_HDR + DATA_EXT) * ext;
	t->span[SPAN_META] = room / (ITEM_HDR + META_EXT) * fs->cfg.node_bytes;
	t->span[SPAN_CSUM] = room / (ITEM_HDR + CSUM * t->ext_blocks) * ext;
	if (!t->span[SPAN_CSUM])
		return -EINVAL;  /* an extent's checksums outgrow a leaf */
	t->seq = 1;
	t->nr_kn = 1;  /* index 0: "none" in the block groups' leaf arrays */
	t->kn = calloc(1, sizeof(*t->kn));
	if (!t->kn)
		return -ENOMEM;
	t->kn_cap = 1;
	for (i = FSC_BT_EXT; i < FSC_BT_NR; i++) {
		ret = knode_new(fs, i, &t->root[i]);
		if (ret)
			return ret;
	}
	return 0;
}

void fsc_bt_fini(struct fsc *fs)
{
	uint32_t i;

	free(fs->bt.kn);
	free(fs->bt.kfree);
	for (i = 0; i < FSC_BT_NR; i++)
		free(fs->bt.par[i]);
	free(fs->bt.dead);
	free(fs->bt.edge);
	free(fs->bt.moved);
	free(fs->bt.mark);
	free(fs->unused);
}
