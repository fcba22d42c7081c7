/*
 * fsc_resv.c — Linux 6.1's metadata space reservation for user writes
 * (cfg.resv_linux61, with the btrfs metadata model; docs/VALIDATION.md,
 * "Reservations and flush commits").  Every figure below is the kernel's
 * (fs/btrfs/space-info.c, block-rsv.c, delayed-ref.c, block-group.c of
 * 6.1) and was checked against its tracepoints on the e2e disk.
 *
 * Before a write starts, btrfs reserves room for the tree blocks its
 * completion may CoW (btrfs_delalloc_reserve_metadata(),
 * calc_inode_reservations()): btrfs_calc_insert_metadata_size() (node x
 * BTRFS_MAX_LEVEL x 2 per item) for its file extent item and for its
 * checksum leaves, btrfs_calc_metadata_size() (node x BTRFS_MAX_LEVEL)
 * for the inode item: 640 KiB for 64 KiB with 16 KiB nodes.  It joins
 * bytes_may_use of the metadata space, beside the global reserve
 * (btrfs_update_global_block_rsv(): the extent, checksum, free space and
 * root trees' bytes, at least 10 items and 6 refs: 5.5 MiB).  The
 * completion hands what it did not use to the delayed refs reserve, and a
 * tree block allocated takes its bytes out of may_use into used
 * (btrfs_add_reserved_bytes()).  That reserve gives bytes back only when
 * refs run and its size falls below what it holds
 * (btrfs_delayed_refs_rsv_release()); its size is
 * btrfs_calc_insert_metadata_size(), doubled by the free space tree, per
 * head not yet run and per block group whose item the transaction
 * changed (btrfs_update_block_group(): released when the commit writes
 * the items).
 *
 * A reservation fits when (btrfs_can_overcommit(), FLUSH_ALL)
 *   used + may_use + bytes < writable total + free_chunk_space / copies / 8
 * (with cfg.resv_612, 6.12's: used + may_use + bytes < total_bytes +
 * align_down((free_chunk_space / copies - a zone) / 8, zone), and 0 for
 * the last term at one zone per copy or less; fsc_resv_overcommit()).
 * In a zoned file system "used" (bytes_used + reserved + pinned +
 * readonly + zone_unusable) is the metadata block groups' write pointers
 * and the whole of a read-only one: nothing behind a write pointer is
 * free before a reset.  The writable total is active_total_bytes
 * (writable_total_bytes()), which a block group adds when created active
 * and gives back on removal only if still active; a zone finish (the
 * block group written full, or finished by the cleaner or the
 * relocation before its removal) clears that, so in 6.1 every removed
 * metadata block group still counts (resv.gone).  When a reservation does
 * not fit, the write waits on a ticket and the flusher
 * (btrfs_async_reclaim_metadata_space()) runs its states until it does:
 *  - FLUSH_DELAYED_REFS: every ready head runs.  That changes the extent
 *    tree and deletes the freed data's checksums, CoWing each such block
 *    not yet CoW'd in this transaction: two heads each, which this run
 *    leaves pending.  fs-core changes those trees when data moves rather
 *    than when refs run, so the heads left are two per extent-tree block,
 *    and per checksum block a free CoW'd, since the refs last ran.  Early
 *    in a transaction that is most of those trees and nothing comes back;
 *    late in a long one almost everything does (the two regimes the
 *    kernel's traces show);
 *  - ALLOC_CHUNK: a metadata chunk when used + 2 MiB reaches 80% of the
 *    total (should_alloc_chunk()); from the second cycle on
 *    ALLOC_CHUNK_FORCE, regardless.  Kept aside and filled once the open
 *    block group is full, as find_free_extent() fills the older first.
 *    With cfg.resv_612 it is on the unused list from its creation, and the
 *    cleaner deletes it unless the space would be short without it
 *    (btrfs_create_pending_block_groups(), block-group.c:2870 of 6.12;
 *    fsc_resv_spare_short(), fsc_delete_unused());
 *  - COMMIT_TRANS: the commit runs every ref and may_use falls back to the
 *    global reserve (fsc_resv_commit()).  The caller commits.
 * A ticket that three commit cycles did not meet fails: ENOSPC.
 * With cfg.resv_612 a relocation reserves too, before its copies
 * (fsc_resv_reloc()): the relocation control's 256 tree blocks, held until
 * the copies are done, and a write's reservation per extent of a data
 * victim, through the same steps (relocation.c:3630, 3034 of 6.12; the
 * same code is in 6.1, whose mode leaves it out so its outputs stay).
 * With cfg.resv_73, 7.3.4's two changes on this path:
 *  - the overcommit is a 64th of the unallocated bytes per copy less a
 *    zone, not an eighth (calc_available_free_space(), space-info.c:506):
 *    aligned down to the zone, 0 below 64 zones and one per copy, i.e.
 *    never on a 1 GiB disk of 16 MiB zones with metadata DUP;
 *  - btrfs_delayed_refs_rsv_refill() refuses (-EAGAIN) while the delayed
 *    refs reserve's size is over half the metadata space's total less its
 *    zone_unusable (btrfs_zoned_cap_metadata_reservation(),
 *    delayed-ref.c:210-230), and a transaction start with no items (the
 *    relocation's per extent, relocation.c:3648) then commits and refills
 *    again (transaction.c:692-701); refused again, the start fails and the
 *    relocation is deferred (block-group.c:2050).  The size is tracked in
 *    resv.drefs: two heads per tree block CoW'd, per user write and per
 *    relocated extent, a metadata item per dirty block group, 0 after a
 *    commit (reloc_refill()).
 * and, new in 7.3 (not in 6.12), RESET_ZONES after each cycle's commit:
 * a fully zone_unusable metadata block group on the unused list is reset
 * and allocated from again (reset_zones()).
 */
#include <errno.h>

#include "fsc_int.h"

#define MAX_LEVEL 8u                 /* BTRFS_MAX_LEVEL */
#define FST 2u                       /* the free space tree doubles a head's bytes */
#define UNLINK_UNITS 6u              /* BTRFS_UNLINK_METADATA_UNITS */
#define LEAF_HDR 101u                /* struct btrfs_header */
#define ITEM_HDR 25u                 /* struct btrfs_item */
#define CSUM_BYTES 4u                /* crc32c */
#define RELOC_NODES 256u             /* RELOCATION_RESERVED_NODES (relocation.c:88) */

static uint64_t insert_size(const struct fsc *fs, uint64_t items)
{
	return (uint64_t)fs->cfg.node_bytes * MAX_LEVEL * 2 * items;
}

/* The global reserve: the bytes of the extent, checksum, free space and
 * root trees, at least the items an unlink needs and their refs. */
static uint64_t global_size(const struct fsc *fs)
{
	const struct fsc_bt *t = &fs->bt;
	uint64_t trees = 0, min, fan = fs->cfg.tree_fanout ? fs->cfg.tree_fanout : 1;
	uint32_t k;

	for (k = FSC_BT_EXT; k <= FSC_BT_CSUM; k++)
		trees += t->nr_leaves[k] + (t->nr_leaves[k] > fan ? (t->nr_leaves[k] + fan - 1) / fan : 0) + 1;
	trees = (trees + 1) * fs->cfg.node_bytes;  /* + the root tree */
	min = insert_size(fs, 1 + 3 + UNLINK_UNITS) + insert_size(fs, UNLINK_UNITS) * FST;
	trees = trees > min ? trees : min;
	return trees < (512ULL << 20) ? trees : 512ULL << 20;
}

int fsc_resv_init(struct fsc *fs)
{
	if (!fs->cfg.resv_linux61)
		return 0;
	if (!fsc_bt_on(fs))
		return -EINVAL;  /* the reservations cover the btrfs model's trees */
	fs->resv.global = global_size(fs);
	fs->resv.spare_short = fsc_resv_spare_short;
	return 0;
}

uint64_t fsc_resv_may_use(const struct fsc *fs)
{
	return fs->cfg.resv_linux61 ? fs->resv.global + fs->resv.drsv + fs->resv.reloc : 0;
}

void fsc_resv_commit(struct fsc *fs)
{
	if (!fs->cfg.resv_linux61)
		return;
	fs->resv.drsv = fs->resv.pending;  /* a write still to come keeps its own */
	fs->resv.drefs = 0;                /* every head ran */
	fs->resv.fresh = 0;
	fs->resv.dirty_bgs = 0;
	fs->resv.global = global_size(fs);
}

/* The metadata space: used (write pointers, a read-only group whole) and total. */
static void meta_space(const struct fsc *fs, uint64_t *used, uint64_t *total)
{
	uint32_t i;

	*used = *total = 0;
	for (i = 0; i < fs->nr_meta_bgs; i++) {
		const struct fsc_bg *bg = fs->meta_bgs[i];

		*total += bg->len_bytes;
		*used += bg->relocating ? bg->len_bytes : bg->alloc_offset;
	}
}

/* What may be overcommitted (calc_available_free_space(), FLUSH_ALL): 6.1
 * (space-info.c:388) the unallocated disk per copy, an eighth; 6.12
 * (space-info.c:414) the same less one data chunk first (nothing when at
 * most one is left: space-info.c:458), then aligned down to the zone
 * (space-info.c:478); 7.3 (space-info.c:506) a 64th instead of an eighth. */
uint64_t fsc_resv_overcommit(const struct fsc *fs)
{
	uint64_t disk = 0, alloc = (uint64_t)fs->nr_chunk_zones * fs->zone_bytes, copies;
	uint32_t i;

	for (i = 0; i < fs->nr_devs; i++)
		if (fs->devs[i].blk)
			disk += (uint64_t)fs->devs[i].nr_zones * fs->devs[i].zone_bytes;
	switch (fs->cfg.meta_profile) {
	case FSC_DUP:
	case FSC_RAID1:
	case FSC_RAID10:
		copies = 2;
		break;
	default:
		copies = 1;
	}
	if (fs->cfg.resv_612) {
		/* calc_effective_data_chunk_size(): a zone in zoned mode */
		uint64_t avail = disk > alloc ? (disk - alloc) / copies : 0, z = fs->zone_bytes;

		if (avail <= z)
			return 0;
		avail = (avail - z) >> (fs->cfg.resv_73 ? 6 : 3);
		return z ? avail / z * z : avail;
	}
	return disk > alloc ? (disk - alloc) / copies / 8 : 0;
}

/*
 * fsc_resv_spare_short() - 6.12's cleaner keeps the spare when the space
 * would be short without it: total_bytes less its length under used +
 * may_use (btrfs_delete_unused_bgs(), block-group.c:1618; the check is
 * 6.1's too, block-group.c:1439, but 6.1 never puts a fresh block group on
 * the unused list).
 */
bool fsc_resv_spare_short(const struct fsc *fs, const struct fsc_bg *bg)
{
	uint64_t used, total;

	meta_space(fs, &used, &total);
	return total - bg->len_bytes < used + fsc_resv_may_use(fs);
}

static bool fits(const struct fsc *fs, uint64_t bytes)
{
	uint64_t used, total;

	meta_space(fs, &used, &total);
	/* 6.1: writable_total_bytes(), active_total_bytes, which keeps the
	 * block groups removed since the mount; 6.12 (space-info.c:483):
	 * total_bytes */
	if (fs->cfg.resv_612)
		return used + fsc_resv_may_use(fs) + bytes < total + fsc_resv_overcommit(fs);
	return used + fsc_resv_may_use(fs) + bytes < total + fs->resv.gone + fsc_resv_overcommit(fs);
}

static void grant(struct fsc *fs, uint64_t bytes)
{
	struct fsc_resv *r = &fs->resv;

	r->drsv += bytes;
	r->pending = bytes;
	r->cycles = 0;
	if (fsc_resv_may_use(fs) > fs->st.resv_may_use_max)
		fs->st.resv_may_use_max = fsc_resv_may_use(fs);
}

/*
 * RESET_ZONES (7.3, the metadata flusher's final state in zoned mode,
 * space-info.c:949, 1194-1195; btrfs_reset_unused_block_groups(),
 * zoned.c:3115): a metadata block group on the unused list that is fully
 * zone_unusable (written to its end, nothing live) has its zones reset and
 * is allocated from again in place, without the cleaner and without a
 * commit.  Here it becomes the reservation's block group ahead
 * (resv.spare), so one at a time (a 16 MiB block group covers any one
 * ticket).  Returns true when one was reset.
 */
static bool reset_zones(struct fsc *fs)
{
	struct fsc_bg *bg = NULL;
	uint32_t i;

	if (fs->resv.spare)
		return false;
	for (i = 0; i < fs->nr_unused; i++) {
		struct fsc_bg *b = fs->unused[i];

		if (b->type == FSC_BG_META && b->alloc_done && b->alloc_offset == b->len_bytes &&
		    !b->used_bytes && !b->pinned_bytes && !b->nr_inflight && !b->nr_held &&
		    !b->relocating) {
			bg = b;
			break;
		}
	}
	if (!bg)
		return false;
	for (i = 0; i < bg->nr_stripes; i++) {
		struct fsc_dev *dev = &fs->devs[bg->stripes[i].dev];
		int ret;

		if (!dev->blk || !dev->zone_bytes)
			continue;
		ret = zblk_zone_mgmt(dev->blk, ZL_ZOP_RESET, bg->stripes[i].phys);
		if (ret) {
			fs->st.nr_dev_errors++;
			fs->st.last_dev_error = ret;
			return false;  /* as the kernel: the reset's error ends the state */
		}
		fs->st.nr_zone_resets++;
		if (dev->resets[bg->stripes[i].phys / dev->zone_bytes] < UINT16_MAX)
			dev->resets[bg->stripes[i].phys / dev->zone_bytes]++;
	}
	for (i = 0; i < fs->nr_unused && fs->unused[i] != bg; i++)
		;
	fs->unused[i] = fs->unused[--fs->nr_unused];
	bg->unused = false;
	bg->alloc_done = false;
	bg->alloc_offset = 0;
	bg->submit_offset = bg->start;
	bg->dispatched_bytes = 0;
	bg->rc_freed = false;
	fsc_reclaim_forget(fs, bg);
	fsc_clean_sync(fs, bg);  /* allocatable again: no cleaning candidate */
	fs->resv.spare = bg;
	fs->st.nr_resv_zone_resets++;
	return true;
}

/*
 * The flusher's steps for a reservation of @need that does not fit (a
 * ticket, btrfs_async_reclaim_metadata_space()): 0 when it fits (at once
 * or after a step), FSC_RESV_COMMIT or -ENOSPC.  The caller takes the
 * bytes on 0.
 */
static int ticket(struct fsc *fs, uint64_t need, uint64_t now_ns)
{
	struct fsc_resv *r = &fs->resv;
	uint64_t used, total, left;
	struct fsc_bg *bg;

	if (fits(fs, need))
		return 0;
	if (!r->cycles)
		fs->st.nr_resv_tickets++;
	/* 7.3: RESET_ZONES ends each cycle, after its commit */
	if (fs->cfg.resv_73 && r->cycles && reset_zones(fs) && fits(fs, need))
		return 0;
	/* FLUSH_DELAYED_REFS: the heads the run leaves pending keep their bytes */
	left = ((uint64_t)r->fresh * 2 + r->dirty_bgs) * insert_size(fs, 1) * FST;
	r->drsv = r->drsv > left ? left : r->drsv;
	r->drefs = r->drefs > left ? left : r->drefs;
	r->fresh = 0;
	if (fits(fs, need)) {
		fs->st.nr_resv_by_refs++;
		return 0;
	}
	/* ALLOC_CHUNK (80% used), ALLOC_CHUNK_FORCE after a commit cycle */
	meta_space(fs, &used, &total);
	if (!r->spare && (r->cycles || (used + (2ULL << 20)) * 10 >= total * 8) &&
	    !fsc_bg_create(fs, FSC_BG_META, now_ns, &bg)) {
		r->spare = bg;
		fs->st.nr_resv_chunks++;
		if (fs->cfg.resv_612)
			fsc_bg_mark_unused(fs, bg);  /* 6.12: nothing allocated from it yet */
		if (fits(fs, need))
			return 0;
	}
	/* COMMIT_TRANS, at most three cycles */
	if (r->cycles == 3) {
		r->cycles = 0;
		fs->st.nr_resv_enospc++;
		return -ENOSPC;
	}
	r->cycles++;
	fs->st.nr_resv_commits++;
	return FSC_RESV_COMMIT;
}

/* A write's reservation of @bytes (btrfs_delalloc_reserve_metadata(),
 * calc_inode_reservations()): count_max_extents() extent items (128 MiB
 * each), the checksum leaves (btrfs_csum_bytes_to_leaves()), the inode item. */
static uint64_t write_need(const struct fsc *fs, uint64_t bytes)
{
	uint64_t per_leaf = (fs->cfg.node_bytes - LEAF_HDR - ITEM_HDR) / CSUM_BYTES;

	return insert_size(fs, (bytes + (128ULL << 20) - 1) >> 27) +
	       insert_size(fs, (bytes / fs->cfg.sector_bytes + per_leaf - 1) / per_leaf) +
	       (uint64_t)fs->cfg.node_bytes * MAX_LEVEL;
}

int fsc_resv_write(struct fsc *fs, uint64_t bytes, uint64_t now_ns)
{
	uint64_t need;
	int ret;

	if (!fs->cfg.resv_linux61)
		return 0;
	need = write_need(fs, bytes);
	ret = ticket(fs, need, now_ns);
	if (!ret)
		grant(fs, need);
	return ret;
}

/* A data block group's extents: runs of its live units that continue one
 * file extent (the next file block of the same extent, or the same dead
 * extent's next block).  Relocation keeps each extent its own
 * (EXTENT_BOUNDARY, relocation.c:3058). */
static uint64_t bg_extents(const struct fsc *fs, const struct fsc_bg *bg)
{
	uint64_t u, nr_units = bg->alloc_offset / bg->unit_bytes, n = 0;
	uint32_t prev = 0, step = fs->bt.ext_blocks ? fs->bt.ext_blocks : 1;

	for (u = 0; u < nr_units; u++) {
		uint32_t o = bg->owner[u];

		if (o && !(prev && ((o <= fs->nr_file_blocks && o == prev + 1 && (o - 1) % step) ||
				    (o > fs->nr_file_blocks && o == prev))))
			n++;
		prev = o;
	}
	return n;
}

/*
 * 7.3: is the delayed refs reserve's size over half the metadata space's
 * usable bytes, its total less zone_unusable
 * (btrfs_zoned_cap_metadata_reservation(), delayed-ref.c:210)?  A block
 * group's zone_unusable is what lies behind its write pointer and is
 * neither live nor pinned (freed by a commit): alloc_offset - used_bytes.
 */
static bool over_cap(const struct fsc *fs)
{
	uint64_t total = 0, unusable = 0;
	uint32_t i;

	for (i = 0; i < fs->nr_meta_bgs; i++) {
		const struct fsc_bg *bg = fs->meta_bgs[i];

		total += bg->len_bytes;
		unusable += bg->alloc_offset > bg->used_bytes ? bg->alloc_offset - bg->used_bytes : 0;
	}
	return fs->resv.drefs > (total - unusable) / 2;
}

/*
 * 6.12: relocate_block_group() starts a transaction per extent of the
 * victim (btrfs_start_transaction(extent_root, 0), relocation.c:3692),
 * and a start with no items refills the delayed refs reserve while it is
 * not full (transaction.c:691) by at most one head's bytes:
 * btrfs_calc_delayed_ref_bytes(1), doubled by the free space tree
 * (delayed-ref.c:206, delayed-ref.h:295): 512 KiB, FLUSH_ALL.  The
 * relocation's own heads (the extent's new and old references) grow the
 * reserve's size without reserving (btrfs_update_delayed_refs_rsv(): the
 * start's local reserve is empty), so during a relocation it is not full
 * and every start refills.  6.1's refill is btrfs_calc_insert_metadata_size(1),
 * 256 KiB (6.1 delayed-ref.c:191): not modelled in the 6.1 mode, so that
 * its outputs stay.  Once per extent (reloc_step across a commit).
 */
static int reloc_refill(struct fsc *fs, uint64_t now_ns)
{
	struct fsc_resv *r = &fs->resv;
	uint64_t need = insert_size(fs, 1) * FST;
	int ret;

	if (r->reloc_step)
		return 0;
	if (fs->cfg.resv_73 && over_cap(fs)) {
		/* 7.3: commit, then refill again (transaction.c:692-701);
		 * still over: the start fails, the relocation is deferred */
		if (r->cap_committed) {
			r->cap_committed = false;
			fs->st.nr_resv_cap_deferred++;
			return -EAGAIN;
		}
		r->cap_committed = true;
		fs->st.nr_resv_cap_commits++;
		return FSC_RESV_COMMIT;
	}
	r->cap_committed = false;
	ret = ticket(fs, need, now_ns);
	if (ret)
		return ret;
	r->drsv += need;
	r->cycles = 0;
	r->reloc_step = 1;
	if (fs->cfg.resv_73)  /* the extent's new reference and the old one's drop */
		r->drefs += 2 * fsc_resv_head_bytes(fs);
	fs->st.nr_resv_reloc_refills++;
	if (fsc_resv_may_use(fs) > fs->st.resv_may_use_max)
		fs->st.resv_may_use_max = fsc_resv_may_use(fs);
	return 0;
}

void fsc_resv_reloc_done(struct fsc *fs)
{
	fs->resv.reloc = 0;
	fs->resv.reloc_bg = NULL;
}

int fsc_resv_reloc(struct fsc *fs, const struct fsc_bg *bg, uint64_t now_ns)
{
	struct fsc_resv *r = &fs->resv;
	uint64_t need;
	int ret;

	if (!fs->cfg.resv_612)
		return 0;  /* 6.1 mode: unchanged (the same source, not modelled there) */
	if (r->reloc_bg != bg) {
		/* a new victim: the relocation control's reserve, then its extents */
		r->reloc_bg = bg;
		r->reloc_ext = bg->type == FSC_BG_DATA ? bg_extents(fs, bg) : 0;
		r->reloc_starts = bg->type == FSC_BG_DATA ? 0 : bg->used_bytes / fs->cfg.node_bytes;
		r->reloc_ctl = false;
		r->reloc_inode = false;
		r->reloc_step = 0;
	}
	if (!r->reloc_ctl && !r->reloc_inode) {
		/* a data victim's relocation inode: create_reloc_inode() starts a
		 * transaction of 6 items (relocation.c:3911), and 6.12 reserves
		 * their delayed refs at once (transaction.c:653-663): 1.5 MiB +
		 * 3 MiB, FLUSH_ALL, released when the handle ends, so it has only
		 * to fit.  The kernel's failures of it are its "error relocating
		 * chunk" at 45%/75 (the KWA_TRACE=rsv trace, docs/VALIDATION.md) */
		if (bg->type == FSC_BG_DATA) {
			ret = ticket(fs, insert_size(fs, 6) * (1 + FST), now_ns);
			if (ret)
				goto out_fail;
			r->cycles = 0;
			fs->st.nr_resv_reloc_starts++;
		}
		r->reloc_inode = true;
	}
	if (!r->reloc_ctl) {
		need = (uint64_t)fs->cfg.node_bytes * RELOC_NODES;
		ret = ticket(fs, need, now_ns);
		if (ret)
			goto out_fail;
		r->reloc += need;
		r->cycles = 0;
		r->reloc_ctl = true;
	}
	/* relocate_one_folio(): each extent's range reserves as a write of it
	 * does; what the inode does not keep goes to the delayed refs reserve
	 * (btrfs_inode_rsv_release(), block-rsv.c:279) */
	need = write_need(fs, fs->cfg.extent_bytes);
	for (; r->reloc_ext; r->reloc_ext--) {
		uint64_t write = r->pending;  /* a user write's, made before: it stays */

		ret = reloc_refill(fs, now_ns);
		if (ret)
			goto out_fail;
		if (r->reloc_step < 2) {
			/* the prealloc of the extent's range (prealloc_file_extent_cluster(),
			 * relocation.c:2879 -> btrfs_replace_file_extents(), file.c:2416):
			 * btrfs_start_transaction(root, 3), which in 6.12 reserves the
			 * items and their delayed refs at once (transaction.c:653-663:
			 * 768 KiB + 1.5 MiB, FLUSH_ALL); released when the handle ends
			 * (transaction.c:1053-1065), so it has only to fit */
			ret = ticket(fs, insert_size(fs, 3) * (1 + FST), now_ns);
			if (ret)
				goto out_fail;
			r->cycles = 0;
			r->reloc_step = 2;
			fs->st.nr_resv_reloc_starts++;
		}
		ret = ticket(fs, need, now_ns);
		if (ret)
			goto out_fail;
		grant(fs, need);
		r->pending = write;
		r->reloc_step = 0;
	}
	for (; r->reloc_starts; r->reloc_starts--) {  /* a metadata victim's tree blocks */
		ret = reloc_refill(fs, now_ns);
		if (ret)
			goto out_fail;
		r->reloc_step = 0;
	}
	fs->st.nr_resv_reloc++;
	if (fsc_resv_may_use(fs) > fs->st.resv_may_use_max)
		fs->st.resv_may_use_max = fsc_resv_may_use(fs);
	return 0;
out_fail:
	if (ret < 0) {  /* the relocation gives up: its control reserve goes */
		if (ret != -EAGAIN)
			fs->st.nr_resv_reloc_enospc++;
		fsc_resv_reloc_done(fs);
	}
	return ret;
}

