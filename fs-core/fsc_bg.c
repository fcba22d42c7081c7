/*
 * fsc_bg.c — a block group's life, in one place: created on a new chunk
 * (fsc_bg_create()) or loaded from a persisted one at mount with its
 * allocation offset recovered (fsc_bg_load()); filled by the allocator
 * (fsc_alloc.c, which calls down here); told to the cleaning policy at
 * each change of its live bytes or state (fsc_clean_sync(): through the
 * policy's ops only, the policies are in clean/); finished to free active
 * zones (fsc_bg_finish()); relocated (fsc_bg_relocating() marks it; the
 * copies are fsc_reloc.c's); put after each change and, once nothing lives,
 * flies or waits in it, reset and freed (fsc_bg_put()), the owner told by
 * its bg_removed hook.  Not here: the chunk's zones (fsc_chunk.c), the
 * table and lookup (fsc_bgtab.c), the memory (fsc_slab.c), write-pointer
 * recovery (fsc_recover.c), the active-zone count (fsc_active.c): the
 * lower modules this one calls; it calls nothing above it.
 */
#include <errno.h>
#include <string.h>

#include "fsc_int.h"

/* ---- candidacy: the cleaning policy's view, through its ops ---- */

void fsc_clean_sync(struct fsc *fs, struct fsc_bg *bg)
{
	struct fsc_clean *c = &fs->clean;
	bool want = fsc_bg_is_cleanable(bg);

	if (!c->ops)
		return;
	if (bg->clean_member && !want) {
		c->ops->remove(c, bg);
		bg->clean_member = false;
	} else if (!bg->clean_member && want) {
		bg->clean_used = bg->used_bytes;
		if (c->ops->add(c, bg))
			c->broken = true;  /* out of memory: picks scan from now on */
		else
			bg->clean_member = true;
	} else if (bg->clean_member && bg->clean_used != bg->used_bytes) {
		uint64_t old = bg->clean_used;

		bg->clean_used = bg->used_bytes;
		if (c->ops->update)
			c->ops->update(c, bg, old);
	}
}

void fsc_clean_forget(struct fsc *fs, struct fsc_bg *bg)
{
	if (bg->clean_member && fs->clean.ops)
		fs->clean.ops->remove(&fs->clean, bg);
	bg->clean_member = false;
}

/* ---- birth ---- */

/**
 * fsc_bg_create() - a new block group of @type with the type's profile on
 * a new chunk (fsc_chunk_alloc(): one zone per stripe on the devices with
 * the most free zones), at the end of the logical space, in the table.
 * Its length is zone size x data stripes (stripe size = zone size, 007).
 * Returns 0, -ENOSPC, FSC_E_BAD_PROFILE, FSC_E_RAID56 or -ENOMEM.
 */
int fsc_bg_create(struct fsc *fs, uint32_t type, uint64_t now_ns, struct fsc_bg **out)
{
	enum fsc_profile p = fsc_profile_of(fs, type);
	struct fsc_stripe st[FSC_MAX_STRIPES];
	uint32_t nr, data;
	struct fsc_bg *bg;
	int ret;

	ret = fsc_chunk_alloc(fs, type, st, &nr, &data);
	if (ret)
		return ret;
	bg = fsc_bg_alloc(fs, type, data * fs->zone_bytes);
	if (!bg) {
		ret = -ENOMEM;
		goto out_release;
	}
	bg->profile = p;
	bg->alloc_type = FSC_ALLOC_SEQ;
	bg->nr_stripes = nr;
	bg->sub_stripes = p == FSC_RAID10 ? 2 : 1;
	memcpy(bg->stripes, st, nr * sizeof(st[0]));
	bg->start = fs->next_logical;
	bg->submit_offset = bg->start;
	bg->create_ns = now_ns;
	bg->erases = fs->devs[st[0].dev].resets[st[0].phys / fs->zone_bytes];
	ret = fsc_bg_insert(fs, bg);
	if (ret) {
		fsc_bg_free(fs, bg);
		goto out_release;
	}
	fs->st.nr_bg_created++;
	*out = bg;
	return 0;

out_release:
	fsc_chunk_release(fs, st, nr);
	return ret;
}

/**
 * fsc_bg_load() - a block group from a persisted chunk, its zones taken out
 * of the free pool and its allocation offset recovered (mount).
 * Returns 0 or fsc_bg_recover_offset()'s errors; *@out only on success.
 */
int fsc_bg_load(struct fsc *fs, const struct fsc_chunk *c, struct fsc_bg **out)
{
	struct fsc_bg *bg;
	uint32_t i;
	int ret;

	if (!c->nr_stripes || c->nr_stripes > FSC_MAX_STRIPES)
		return -EINVAL;
	for (i = 0; i < c->nr_stripes; i++)
		if (c->stripes[i].dev >= FSC_MAX_DEVS)
			return -EINVAL;
	if (c->profile == FSC_RAID5 || c->profile == FSC_RAID6)
		return FSC_E_RAID56;
	bg = fsc_bg_alloc(fs, c->type, c->len_bytes);
	if (!bg)
		return -ENOMEM;
	bg->start = c->start;
	bg->profile = c->profile;
	bg->nr_stripes = c->nr_stripes;
	bg->sub_stripes = c->profile == FSC_RAID10 ? (c->sub_stripes ? c->sub_stripes : 2) : 1;
	for (i = 0; i < c->nr_stripes; i++) {
		bg->stripes[i].dev = c->stripes[i].dev;
		bg->stripes[i].phys = c->stripes[i].phys;
	}
	ret = fsc_bg_recover_offset(fs, bg);
	if (ret)
		goto out_free;
	bg->loaded_bytes = bg->alloc_offset;  /* no extent tree: all of it live */
	for (i = 0; i < c->nr_stripes; i++) {
		struct fsc_dev *dev = &fs->devs[bg->stripes[i].dev];

		if (bg->stripes[i].dev < fs->nr_devs && dev->blk && dev->zone_bytes)
			fsc_zone_take(dev, (uint32_t)(bg->stripes[i].phys / dev->zone_bytes));
	}
	ret = fsc_bg_insert(fs, bg);
	if (ret)
		goto out_free;
	*out = bg;
	return 0;
out_free:
	fsc_bg_free(fs, bg);
	return ret;
}

/* ---- finish, put, removal ---- */

/**
 * fsc_bg_finish() - finish @bg's zones (ZBC FINISH on every stripe) to free
 * their active resources: the capacity left is counted as waste, @bg is
 * sealed (no further allocation), leaves the active set and is put (a
 * cleaning candidate now, or removed when empty).  Returns 0 or the first
 * device error (counted; @bg unchanged then).
 */
int fsc_bg_finish(struct fsc *fs, struct fsc_bg *bg, uint64_t now_ns)
{
	uint32_t i, t, data = bg->nr_stripes / (bg->sub_stripes ? bg->sub_stripes : 1);
	uint64_t left = bg->len_bytes - bg->alloc_offset;
	int ret;

	for (i = 0; i < bg->nr_stripes; i++) {
		struct fsc_dev *dev = &fs->devs[bg->stripes[i].dev];

		if (fsc_rp_on(fs))
			fsc_rp_zone_op(fs, bg, bg->stripes[i].dev, bg->stripes[i].phys,
				       ZL_ZOP_FINISH);
		if (!dev->blk)
			continue;  /* degraded mirror */
		ret = zblk_zone_mgmt(dev->blk, ZL_ZOP_FINISH, bg->stripes[i].phys);
		if (ret) {
			fs->st.nr_dev_errors++;
			fs->st.last_dev_error = ret;
			return ret;
		}
	}
	fs->st.nr_zone_finishes += bg->nr_stripes;
	fs->st.finish_waste_bytes += left * bg->nr_stripes / (data ? data : 1);
	for (t = 0; t < 3 + FSC_MAX_STREAMS; t++)
		if (fs->cur[t] == bg)
			fs->cur[t] = NULL;
	if (!bg->alloc_done) {
		bg->alloc_done = true;
		bg->done_clock = fs->st.user_bytes;
	}
	fsc_active_drop(fs, bg);
	fsc_bg_put(fs, bg, now_ns);  /* a candidate now, or removed when empty */
	return 0;
}

/* An unused block group goes away: its zones are reset and return to the
 * free pool (cover letter), the block group is freed. */
static void bg_remove(struct fsc *fs, struct fsc_bg *bg, uint64_t now_ns)
{
	uint32_t i, t;
	int ret;

	if (fs->treelog_bg == bg)
		fs->treelog_bg = NULL;  /* btrfs_clear_treelog_bg() */
	for (i = 0; i < bg->nr_stripes; i++) {
		struct fsc_dev *dev = &fs->devs[bg->stripes[i].dev];
		uint32_t z;

		if (fsc_rp_on(fs))
			fsc_rp_zone_op(fs, bg, bg->stripes[i].dev, bg->stripes[i].phys,
				       ZL_ZOP_RESET);
		if (!dev->blk || !dev->zone_bytes)
			continue;
		z = (uint32_t)(bg->stripes[i].phys / dev->zone_bytes);
		ret = zblk_zone_mgmt(dev->blk, ZL_ZOP_RESET, bg->stripes[i].phys);
		if (ret) {
			fs->st.nr_dev_errors++;
			fs->st.last_dev_error = ret;
			continue;  /* zone stays used: not returned to the pool */
		}
		fs->st.nr_zone_resets++;
		if (dev->resets[z] < UINT16_MAX)  /* CAT keys hold 16 bits */
			dev->resets[z]++;
		/* 6.12 mode: the zone is free again only after the commit
		 * (find_free_dev_extent() reads the commit root, volumes.c:1816,
		 * and skips zones not yet reset, zoned.c:1056; the reset is
		 * btrfs_finish_extent_commit()'s, extent-tree.c:2890) */
		if (fs->cfg.resv_612 &&
		    !fsc_push_u32(&fs->zpend, &fs->nr_zpend, &fs->zpend_cap, bg->stripes[i].dev) &&
		    !fsc_push_u32(&fs->zpend, &fs->nr_zpend, &fs->zpend_cap, z))
			continue;
		if (fs->cfg.resv_612 && fs->nr_zpend & 1)
			fs->nr_zpend--;  /* out of memory: the zone returns at once */
		fsc_zone_put(dev, z);
	}
	fsc_clean_forget(fs, bg);
	fsc_reclaim_forget(fs, bg);
	fsc_active_drop(fs, bg);  /* reset: the zones are empty again */
	for (t = 0; t < 3 + FSC_MAX_STREAMS; t++)
		if (fs->cur[t] == bg)
			fs->cur[t] = NULL;
	/* btrfs model (fsc_bt_bg_removed()): before it leaves the slots */
	if (fs->bt.bg_removed)
		fs->bt.bg_removed(fs, bg);
	fsc_bg_unlink(fs, bg);
	fs->st.nr_bg_removed++;
	if (bg->kleaf) {
		/* btrfs model: its items' leaves go at the next commit (fsc_btree.c) */
		for (i = 0; i < 2u * bg->kmax; i++)
			if (bg->kleaf[i] && fsc_push_u32(&fs->bt.dead, &fs->bt.nr_dead,
							 &fs->bt.dead_cap, bg->kleaf[i]))
				break;  /* out of memory: those leaves stay live */
	}
	if (bg->unused) {
		for (i = 0; i < fs->nr_unused && fs->unused[i] != bg; i++)
			;
		if (i < fs->nr_unused)
			fs->unused[i] = fs->unused[--fs->nr_unused];
	}
	if (bg->relocating) {
		fs->st.nr_relocating--;
		if (bg->type != FSC_BG_DATA)
			fs->st.nr_relocating_meta--;
	}
	if (now_ns >= bg->create_ns) {
		uint64_t life = now_ns - bg->create_ns;

		fs->st.bg_life_ns_sum += life;
		if (life > fs->st.bg_life_ns_max)
			fs->st.bg_life_ns_max = life;
		if (fs->ops.bg_removed)
			fs->ops.bg_removed(fs->ops_arg, bg->type, life);
	}
	fsc_bg_free(fs, bg);
}

/**
 * fsc_bg_put() - @bg changed: tell the cleaning policy; remove @bg (reset
 * its zones, free it) if it is fully allocated and nothing lives, flies or
 * waits in it any more.  @bg may be gone on return.
 */
void fsc_bg_put(struct fsc *fs, struct fsc_bg *bg, uint64_t now_ns)
{
	fsc_clean_sync(fs, bg);
	if (!bg->alloc_done || bg->used_bytes || bg->nr_inflight || bg->nr_held)
		return;
	if (fsc_reclaim_on(&fs->cfg.reclaim) && !bg->reclaimed) {
		/* btrfs_mark_bg_unused(): the cleaner deletes it */
		struct fsc_bg **a;

		if (bg->unused)
			return;
		a = fsc_grow(fs->unused, &fs->unused_cap, fs->nr_unused, sizeof(*a));
		if (a) {
			fs->unused = a;
			fs->unused[fs->nr_unused++] = bg;
			bg->unused = true;
			return;
		}  /* out of memory: at once */
	}
	bg_remove(fs, bg, now_ns);
}

/*
 * fsc_bg_mark_unused() - linux-6.12: a block group created for a
 * reservation, nothing allocated from it yet, goes on the unused list at
 * once (btrfs_create_pending_block_groups(), block-group.c:2870-2879; 6.1
 * does not).  The cleaner deletes it unless the space would be short
 * without it (fsc_delete_unused()).
 */
void fsc_bg_mark_unused(struct fsc *fs, struct fsc_bg *bg)
{
	struct fsc_bg **a;

	if (bg->unused)
		return;
	a = fsc_grow(fs->unused, &fs->unused_cap, fs->nr_unused, sizeof(*a));
	if (!a)
		return;  /* out of memory: it stays */
	fs->unused = a;
	fs->unused[fs->nr_unused++] = bg;
	bg->unused = true;
}

void fsc_delete_unused(struct fsc *fs, uint64_t now_ns)
{
	/* btrfs_delete_unused_bgs(): those still empty and idle (the cleaner
	 * runs between relocations, never inside one) */
	struct fsc_bg *keep = NULL;

	while (fs->nr_unused) {
		struct fsc_bg *bg = fs->unused[fs->nr_unused - 1];

		if (bg->used_bytes || bg->nr_inflight || bg->nr_held || bg->pinned_bytes ||
		    (!bg->alloc_done && (bg != fs->resv.spare || bg->alloc_offset))) {
			fs->nr_unused--;  /* in use again: off the list */
			bg->unused = false;
			continue;
		}
		if (bg == fs->resv.spare) {
			/* 6.12's fresh chunk: kept (and tried again at the next
			 * run) while the space would be short without it */
			if (fs->resv.spare_short && fs->resv.spare_short(fs, bg)) {
				fs->nr_unused--;
				keep = bg;
				continue;
			}
			fs->resv.spare = NULL;
			fs->st.nr_resv_spare_deleted++;
		}
		bg_remove(fs, bg, now_ns);  /* takes it off the list */
	}
	if (keep)
		fs->unused[fs->nr_unused++] = keep;  /* its slot is still allocated */
}

/* fsc_bg_relocating() - relocation of @bg starts (@on) or stops (moved or
 * given up): a block group being relocated is no cleaning candidate. */
void fsc_bg_relocating(struct fsc *fs, struct fsc_bg *bg, bool on)
{
	bg->relocating = on;
	bg->reclaimed |= on;
	fsc_clean_sync(fs, bg);
}

/* ---- inspection ---- */

uint64_t fsc_bg_start(const struct fsc_bg *bg) { return bg->start; }
uint64_t fsc_bg_alloc_offset(const struct fsc_bg *bg) { return bg->alloc_offset; }
uint64_t fsc_bg_used_bytes(const struct fsc_bg *bg) { return bg->used_bytes; }
