/*
 * fsc_trans.c — the transaction and the file tree.  One file of
 * nr_file_blocks blocks is described by a B-tree: leaves of leaf_items file
 * blocks, internal nodes of tree_fanout children, up to one root.  Writing
 * a file block dirties its leaf and the path to the root; a node is copied
 * on write (new tree block allocated, old one pinned until commit) once per
 * transaction.  fsc_tree_release() models a split/merge: a tree block
 * allocated in this transaction is released before it was written; at
 * commit it is redirtied (011), zeroed, or left as a hole per cfg.release.
 * It models traffic, not keys: nothing is searched.  The copy on write of
 * a node, and the btrfs model's other trees, are fsc_btree.c's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fsc_int.h"

int fsc_tree_init(struct fsc *fs)
{
	uint64_t count;
	uint32_t l = 0, total = 0, i;
	int ret;

	fs->trans_id = 1;
	fs->nr_file_blocks = fs->cfg.file_bytes / fs->cfg.sector_bytes;
	if (fs->nr_file_blocks) {
		fs->file_map = fsc_alloc_big(fs->nr_file_blocks * sizeof(*fs->file_map));
		if (!fs->file_map)
			return -ENOMEM;
		for (uint64_t b = 0; b < fs->nr_file_blocks; b++)
			fs->file_map[b] = FSC_NO_ADDR;
	}
	ret = fsc_ext_init(fs);  /* -EINVAL: extent_refs with zone append */
	if (ret)
		return ret;
	if (!fs->nr_file_blocks || !fs->cfg.tree_fanout || !fs->cfg.leaf_items)
		return 0;  /* no metadata model */
	if (fs->cfg.meta_model == FSC_META_BTRFS) {
		/* a file extent item (25 + 53 bytes) per extent in a leaf, 33-byte
		 * key pointers in a node (fsc_btree.c has the sizes) */
		if (!fs->cfg.extent_bytes || fs->cfg.extent_bytes % fs->cfg.sector_bytes ||
		    fs->cfg.node_bytes < 1024)
			return -EINVAL;
		fs->cfg.leaf_items = (fs->cfg.node_bytes - 101) / (25 + 53) *
				     (fs->cfg.extent_bytes / fs->cfg.sector_bytes);
		fs->cfg.tree_fanout = (fs->cfg.node_bytes - 101) / 33;
	}
	if (fs->cfg.tree_fanout < 2)
		return -EINVAL;
	count = (fs->nr_file_blocks + fs->cfg.leaf_items - 1) / fs->cfg.leaf_items;
	fs->nr_leaves = (uint32_t)count;
	for (;;) {
		if (l == 16)
			return -EINVAL;
		fs->level_first[l++] = total;
		total += (uint32_t)count;
		if (count == 1)
			break;
		count = (count + fs->cfg.tree_fanout - 1) / fs->cfg.tree_fanout;
	}
	fs->nr_levels = l;
	fs->nr_nodes = total;
	fs->nodes = malloc(total * sizeof(*fs->nodes));
	if (!fs->nodes)
		return -ENOMEM;
	for (i = 0; i < total; i++) {
		fs->nodes[i].logical = FSC_NO_ADDR;
		fs->nodes[i].gen = 0;
		fs->nodes[i].tree = FSC_BT_FILE;
	}
	if (fs->cfg.meta_model == FSC_META_BTRFS) {
		fs->bt.mark = calloc(fs->nr_leaves, sizeof(*fs->bt.mark));
		if (!fs->bt.mark)
			return -ENOMEM;
	}
	return fsc_bt_init(fs);
}

void fsc_tree_fini(struct fsc *fs)
{
	free(fs->file_map);
	fsc_ext_fini(fs);
	free(fs->nodes);
	free(fs->dirty);
	free(fs->released);
	free(fs->pinned);
	free(fs->commit_pinned);
	fsc_bt_fini(fs);
}

static int pin(struct fsc_pin **arr, uint32_t *nr, uint32_t *cap, uint64_t logical, uint32_t len)
{
	struct fsc_pin *a = fsc_grow(*arr, cap, *nr, sizeof(**arr));

	if (!a)
		return -ENOMEM;
	*arr = a;
	(*arr)[*nr].logical = logical;
	(*arr)[*nr].len = len;
	(*nr)++;
	return 0;
}

/**
 * fsc_tree_dirty() - CoW the path from the leaf of @lbn to the root, the
 * nodes not yet copied in this transaction.  Returns 0, -ENOSPC, -ENOMEM.
 */
int fsc_tree_dirty(struct fsc *fs, uint64_t lbn, uint64_t now_ns)
{
	uint64_t idx;
	uint32_t l;
	int ret;

	if (!fs->nr_nodes)
		return 0;
	idx = lbn / fs->cfg.leaf_items;
	for (l = 0; l < fs->nr_levels; l++, idx /= fs->cfg.tree_fanout) {
		uint32_t id = fs->level_first[l] + (uint32_t)idx;

		if (fs->nodes[id].gen == fs->trans_id)
			break;  /* its ancestors were copied with it */
		ret = fsc_node_cow(fs, id, now_ns);
		if (ret)
			return ret;
	}
	return 0;
}

uint32_t fsc_trans_id(const struct fsc *fs)
{
	return fs->trans_id;
}

int fsc_tree_release(struct fsc *fs, uint64_t lbn, uint64_t now_ns)
{
	uint32_t id;
	uint64_t old, logical, *rel;
	struct fsc_bg *bg;
	int ret;

	if (!fs->nr_nodes || lbn >= fs->nr_file_blocks)
		return 0;
	ret = fsc_tree_dirty(fs, lbn, now_ns);
	if (ret)
		return ret;
	id = (uint32_t)(lbn / fs->cfg.leaf_items);
	old = fs->nodes[id].logical;
	ret = fsc_alloc(fs, FSC_BG_META, fs->cfg.node_bytes, id, now_ns, &bg, &logical);
	if (ret)
		return ret;
	rel = fsc_grow(fs->released, &fs->released_cap, fs->nr_released, sizeof(*fs->released));
	if (!rel)
		return -ENOMEM;
	fs->released = rel;
	fs->released[fs->nr_released++] = old;
	/* allocated in this transaction, never written: freed at once */
	fsc_free_extent(fs, old, fs->cfg.node_bytes, now_ns);
	fs->nodes[id].logical = logical;
	return 0;
}

static int bio_cmp(const void *a, const void *b)
{
	const struct fsc_bio *x = *(struct fsc_bio *const *)a, *y = *(struct fsc_bio *const *)b;

	return x->logical < y->logical ? -1 : x->logical > y->logical;
}

static struct fsc_bio *meta_bio(struct fsc *fs, uint64_t logical, uint32_t kind, uint32_t owner,
				uint64_t now_ns)
{
	struct fsc_bio *b = fsc_bio_get(fs);

	if (!b)
		return NULL;
	b->logical = logical;
	b->len_bytes = fs->cfg.node_bytes;
	b->bg = fsc_bg_lookup(fs, logical);
	b->kind = kind;
	b->owner = owner;
	b->t_alloc_ns = now_ns;
	b->trans_id = fs->trans_id;
	return b;
}

uint64_t fsc_log_bg_start(const struct fsc *fs)
{
	return fs->treelog_bg ? fs->treelog_bg->start : 0;
}

int fsc_log_sync(struct fsc *fs, uint32_t nr_nodes, uint64_t now_ns, struct fsc_bio **list)
{
	struct fsc_bio *head = NULL, **tail = &head, *b;
	struct fsc_bg *meta_cur, *spare, *bg;
	uint64_t logical;
	int ret = 0, n = 0;

	*list = NULL;
	if (fs->cfg.meta_model != FSC_META_BTRFS || !fs->nr_nodes || !nr_nodes)
		return -EINVAL;
	if (fs->bt.err)
		return fs->bt.err;
	for (uint32_t i = 0; i < nr_nodes; i++) {
		if (fs->treelog_bg && fs->treelog_bg->alloc_done)
			fs->treelog_bg = NULL;  /* finished (full, or picked by reclaim) */
		/* the log allocates only from its own block group, nothing else
		 * does: it stands in as the metadata target for this call, and
		 * a new one is created empty (never the spare a reservation
		 * allocated ahead: that one holds the next commit's blocks) */
		meta_cur = fs->cur[1];
		fs->cur[1] = fs->treelog_bg;
		spare = fs->resv.spare;
		fs->resv.spare = NULL;
		ret = fsc_alloc(fs, FSC_BG_META, fs->cfg.node_bytes, FSC_NO_OWNER, now_ns, &bg,
				&logical);
		fs->resv.spare = spare;
		if (!fs->treelog_bg && !ret)
			fs->st.nr_log_bgs++;
		fs->treelog_bg = ret ? fs->treelog_bg : (fs->cur[1] ? fs->cur[1] : NULL);
		fs->cur[1] = meta_cur;
		if (ret)
			break;
		ret = fsc_node_pin(fs, logical);  /* freed by the next commit */
		b = ret ? NULL : meta_bio(fs, logical, FSC_KIND_META, FSC_LOG_OWNER, now_ns);
		if (!b) {
			ret = ret ? ret : -ENOMEM;
			break;
		}
		*tail = b;
		tail = &b->next;
		n++;
	}
	*tail = NULL;
	*list = head;
	if (n) {
		fs->st.nr_log_syncs++;
		fs->st.nr_log_nodes += (uint64_t)n;
	}
	return n ? n : ret;
}

int fsc_commit_start(struct fsc *fs, uint64_t now_ns, struct fsc_bio **list)
{
	uint32_t i, n = 0, max = fs->nr_dirty + fs->nr_released;
	struct fsc_bio **v, *b;
	int ret = 0;

	*list = NULL;
	ret = fsc_bt_commit_prep(fs, now_ns);  /* may dirty more: before counting */
	if (ret)
		return ret;
	max = fs->nr_dirty + fs->nr_released;
	v = malloc((max + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (i = 0; i < fs->nr_dirty; i++) {
		uint32_t id = fs->dirty[i];

		b = meta_bio(fs, fsc_node(fs, id)->logical, FSC_KIND_META, id, now_ns);
		if (!b || !b->bg) {
			ret = -ENOMEM;
			goto out_free;
		}
		v[n++] = b;
	}
	for (i = 0; i < fs->nr_released; i++) {
		uint64_t at = fs->released[i];
		struct fsc_bg *bg = fsc_bg_lookup(fs, at);
		bool hole = bg && bg->alloc_type == FSC_ALLOC_SEQ && bg->submit_offset <= at;

		if (!bg)
			continue;
		if (hole && fs->cfg.release != FSC_RELEASE_NONE) {
			bool zeros = fs->cfg.release == FSC_RELEASE_ZEROS;

			b = meta_bio(fs, at, zeros ? FSC_KIND_ZEROS : FSC_KIND_REDIRTY,
				     FSC_NO_OWNER, now_ns);
			if (!b) {
				ret = -ENOMEM;
				goto out_free;
			}
			if (zeros)
				fs->st.nr_zeros++;
			else
				fs->st.nr_redirty++;
			v[n++] = b;
			continue;
		}
		/* not written: its allocation is over (a hole when in sequence) */
		bg->nr_inflight--;
		fsc_bg_put(fs, bg, now_ns);
	}
	qsort(v, n, sizeof(*v), bio_cmp);
	for (i = 0; i < n; i++)
		v[i]->next = i + 1 < n ? v[i + 1] : NULL;
	*list = n ? v[0] : NULL;
	for (i = 0; i < fs->nr_pinned; i++)
		if (pin(&fs->commit_pinned, &fs->nr_commit_pinned, &fs->commit_pinned_cap,
			fs->pinned[i].logical, fs->pinned[i].len)) {
			ret = -ENOMEM;
			break;
		}
	fs->nr_pinned = 0;
	fs->nr_dirty = 0;
	fs->nr_released = 0;
	fsc_resv_commit(fs);  /* its delayed refs run: the reservations come back */
	fs->trans_id++;
	free(v);
	return ret ? ret : (int)n;
out_free:
	while (n)
		fsc_bio_put(fs, v[--n]);
	free(v);
	return ret;
}

int fsc_commit_finish(struct fsc *fs, uint64_t now_ns)
{
	uint32_t i;
	int ret = fsc_sb_write(fs);

	for (i = 0; i < fs->nr_commit_pinned; i++) {
		struct fsc_bg *bg = fsc_bg_lookup(fs, fs->commit_pinned[i].logical);

		if (bg)
			bg->pinned_bytes -= fs->commit_pinned[i].len;
		fsc_free_extent(fs, fs->commit_pinned[i].logical, fs->commit_pinned[i].len, now_ns);
	}
	fs->nr_commit_pinned = 0;
	fsc_zones_unpend(fs);
	fs->st.nr_commits++;
	fsc_reclaim_commit(fs);  /* the unpin check (__btrfs_add_free_space_zoned) */
	return ret;
}
