/*
 * fsc_reloc.c — relocation, what a cleaner does with its victim: copy the
 * live blocks of a block group elsewhere so it can be reset.  Data moves
 * as RELOC bios into the log placement gives it (fsc_place_reloc()), the
 * owners' file map entries following; tree blocks move by CoW in the
 * running transaction (fsc_tree_cow_node()).  The victim is reset when its
 * last copy completes (fsc_bg_put() from completion).  Not here: choosing
 * the victim (clean/, fsc_clean_pick()) or when to clean (the caller); the
 * block group's state changes are fsc_bg.c's (fsc_bg_relocating()).
 */
#include <errno.h>

#include "fsc_int.h"

/**
 * fsc_relocate() - move @bg's live units into the current block group of
 * its type, one RELOC bio per unit (linked in *@list, ->src_bg = @bg), and
 * update the owners' maps.  @bg is reset when the last copy completes.
 * Returns the number of bios, or -ENOSPC when not even one unit could be
 * placed (the block group is left as it was).
 */
int fsc_relocate(struct fsc *fs, struct fsc_bg *bg, uint64_t now_ns, struct fsc_bio **list)
{
	uint64_t u, nr_units = bg->alloc_offset / bg->unit_bytes, logical;
	struct fsc_bio *head = NULL, **tail = &head, *b;
	struct fsc_bg *dst;
	bool append = fs->cfg.order == FSC_ORDER_APPEND;  /* data by zone append */
	int n = 0, ret = 0;

	*list = NULL;
	if (!bg->alloc_done && !bg->nr_inflight && !bg->nr_held) {
		/* the kernel's reclaim may pick a block group still open for
		 * allocation: it turns read-only, its capacity left unused */
		bool empty = !bg->used_bytes;

		ret = fsc_bg_finish(fs, bg, now_ns);
		if (ret || empty) {
			/* btrfs model: 6.1 runs the relocation's commits all the
			 * same; 6.12 deletes an empty one as unused instead
			 * (btrfs_reclaim_bgs_work(), block-group.c:1910) */
			if (!ret && fs->cfg.reclaim.mode != FSC_RECLAIM_LINUX_6_12)
				fsc_bt_reloc_begin(fs, bg->type != FSC_BG_DATA, false, now_ns);
			return ret;  /* empty: the finish removed it */
		}
	}
	fsc_bg_relocating(fs, bg, true);  /* no longer a candidate */
	if (bg->type != FSC_BG_DATA) {
		/* tree blocks move by CoW in the running transaction: the new
		 * copies are written at commit, the old ones unpinned then */
		for (u = 0; u < nr_units && !ret; u++)
			if (bg->owner[u]) {
				uint32_t id = bg->owner[u] - 1;

				ret = fsc_tree_cow_node(fs, id, now_ns);
				if (!ret && id < fs->nr_leaves)  /* a file leaf: its backrefs */
					ret = fsc_bt_moved(fs, id);
				n += !ret;
			}
		*list = NULL;
		fsc_bt_reloc_begin(fs, true, n > 0, now_ns);
		if (n)
			fs->st.nr_relocations++;
		if (n && !ret) {
			fs->st.nr_relocating++;
			fs->st.nr_relocating_meta++;
		}
		if (ret || !n)
			fsc_bg_relocating(fs, bg, false);
		if (!n && !ret)
			fsc_bg_put(fs, bg, now_ns);  /* nothing was live: it goes now */
		return !n && ret ? ret : 0;
	}
	/* the owners' file map entries are scattered over the file: ask for
	 * all of them first, so their misses overlap instead of queueing */
	for (u = 0; u < nr_units; u++)
		if (bg->owner[u] && bg->owner[u] <= fs->nr_file_blocks)
			__builtin_prefetch(&fs->file_map[bg->owner[u] - 1], 1);
	for (u = 0; u < nr_units; u++) {
		uint32_t owner = bg->owner[u], ext_id;

		if (!owner)
			continue;
		if (fsc_ext_is_ghost(fs, owner, &ext_id)) {
			/* a dead block of a live extent: btrfs relocates
			 * extents whole (relocate_data_extent()), dead
			 * blocks copied too; no file block follows it */
			ret = fsc_alloc_stream(fs, bg->type, fsc_place_reloc(fs, bg), bg->unit_bytes,
					       FSC_NO_OWNER, now_ns, &dst, &logical);
			if (ret)
				break;
			b = fsc_bio_get(fs);
			if (!b) {
				ret = -ENOMEM;
				break;
			}
			fsc_ext_ghost_moved(fs, ext_id, bg->start + u * bg->unit_bytes, logical);
			b->logical = logical;
			b->len_bytes = bg->unit_bytes;
			b->bg = dst;
			b->src_bg = bg;
			b->src_logical = bg->start + u * bg->unit_bytes;
			b->kind = FSC_KIND_RELOC;
			b->owner = FSC_NO_OWNER;
			b->t_alloc_ns = now_ns;
			b->trans_id = fs->trans_id;
			bg->nr_inflight++;
			bg->owner[u] = 0;
			bg->used_bytes -= bg->unit_bytes;
			*tail = b;
			tail = &b->next;
			n++;
			continue;
		}
		/* btrfs model: the file leaf pointing at it (before allocating:
		 * nothing to undo) */
		if (owner <= fs->nr_file_blocks &&
		    (ret = fsc_bt_moved(fs, (uint32_t)((owner - 1) / fs->cfg.leaf_items))))
			break;
		ret = fsc_alloc_stream(fs, bg->type, fsc_place_reloc(fs, bg), bg->unit_bytes,
				       append ? FSC_NO_OWNER : owner - 1, now_ns, &dst, &logical);
		if (ret)
			break;
		b = fsc_bio_get(fs);
		if (!b) {
			ret = -ENOMEM;
			break;
		}
		if (fsc_bt_on(fs))  /* its new extent item and checksums (errors stick) */
			(void)fsc_bt_data(fs, dst, logical, true, now_ns);
		b->logical = logical;
		b->len_bytes = bg->unit_bytes;
		b->bg = dst;
		b->src_bg = bg;
		b->src_logical = bg->start + u * bg->unit_bytes;
		b->kind = FSC_KIND_RELOC;
		b->owner = owner - 1;
		b->t_alloc_ns = now_ns;
		b->trans_id = fs->trans_id;
		bg->nr_inflight++;
		if (append)  /* the address is known at completion */
			b->token = FSC_TOKEN_BIT | ++fs->bio_seq;
		fs->file_map[owner - 1] = append ? b->token : logical;
		bg->owner[u] = 0;
		bg->used_bytes -= bg->unit_bytes;
		*tail = b;
		tail = &b->next;
		n++;
	}
	*tail = NULL;
	*list = head;
	fsc_bt_reloc_begin(fs, false, n > 0, now_ns);
	if (!n) {
		fsc_bg_relocating(fs, bg, false);
		if (ret)
			return ret;
		fsc_bg_put(fs, bg, now_ns);  /* nothing was live */
		return 0;
	}
	fs->st.nr_relocations++;
	if (ret)
		fsc_bg_relocating(fs, bg, false);  /* partly moved: may be picked again */
	else
		fs->st.nr_relocating++;
	return n;
}
