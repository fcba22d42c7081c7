/*
 * fsc_active.c — the devices' max active zones (upstream btrfs 5.16+): a
 * block group holds its zones active from its creation (its first write
 * follows) until they are full (every byte dispatched), finished or reset.
 * Before a block group is created, fs-core checks each device keeps under
 * cfg.max_active_zones; if not, it finishes one active block group: the
 * one with the least capacity left (least waste; ties: the oldest) among
 * those whose allocated writes have all been dispatched (a finish before
 * them would make them fail), and counts the capacity it leaves unwritten
 * (finish_waste_bytes).  The superblock log, when used, holds one active
 * zone per device.  Not here: max open zones (the device closes an
 * implicitly open zone itself, ZBC) and explicit opens (fs-core makes none).
 * This file counts and chooses; it changes no block group's life: the
 * finish itself is fsc_bg_finish() (fsc_bg.c, which calls down here), and
 * the loop "choose, finish, again" before a creation is fsc_alloc.c's.
 */
#include <errno.h>
#include <stdlib.h>

#include "fsc_int.h"

void fsc_active_init(struct fsc *fs)
{
	uint32_t d;

	for (d = 0; d < fs->nr_devs; d++)
		fs->devs[d].nr_active = fs->devs[d].sb_log ? 1 : 0;
}

static void count(struct fsc *fs, const struct fsc_bg *bg, int delta)
{
	uint32_t i;

	for (i = 0; i < bg->nr_stripes; i++) {
		struct fsc_dev *dev = &fs->devs[bg->stripes[i].dev];

		dev->nr_active += delta;
		if (dev->nr_active > fs->st.active_max)
			fs->st.active_max = dev->nr_active;
	}
}

int fsc_active_add(struct fsc *fs, struct fsc_bg *bg)
{
	struct fsc_bg **v;

	if (bg->alloc_type != FSC_ALLOC_SEQ)
		return 0;
	v = fsc_grow(fs->active, &fs->active_cap, fs->nr_active_bgs, sizeof(*v));
	if (!v)
		return -ENOMEM;
	fs->active = v;
	fs->active[fs->nr_active_bgs++] = bg;
	bg->active = true;
	count(fs, bg, 1);
	return 0;
}

void fsc_active_drop(struct fsc *fs, struct fsc_bg *bg)
{
	uint32_t i;

	if (!bg->active)
		return;
	for (i = 0; i < fs->nr_active_bgs && fs->active[i] != bg; i++)
		;
	if (i < fs->nr_active_bgs)
		fs->active[i] = fs->active[--fs->nr_active_bgs];
	bg->active = false;
	count(fs, bg, -1);
}

void fsc_active_dispatched(struct fsc *fs, struct fsc_bg *bg, uint64_t bytes)
{
	bg->dispatched_bytes += bytes;
	if (bg->active && bg->dispatched_bytes >= bg->len_bytes)
		fsc_active_drop(fs, bg);  /* the zones are full */
}

/* Every allocated write of @bg went to the devices: a finish is safe. */
static bool finishable(const struct fsc_bg *bg)
{
	return bg->dispatched_bytes == bg->alloc_offset && !bg->nr_held && !bg->busy &&
	       !bg->expired;
}

/**
 * fsc_active_victim() - before a block group of @type is created: *@out =
 * NULL when every device keeps under cfg.max_active_zones with it, else
 * the active block group to finish first (the least capacity left, ties:
 * the oldest, among the finishable).  Returns 0, or -EBUSY when none can be
 * finished yet (one is fully allocated with writes on their way: its zones
 * become full by themselves, no waste; or none is finishable).  It decides;
 * finishing is fsc_bg_finish(), and the loop over the two fsc_alloc.c's.
 */
int fsc_active_victim(struct fsc *fs, uint32_t type, struct fsc_bg **out)
{
	uint32_t need = fsc_profile_of(fs, type) == FSC_DUP ? 2 : 1, d, i;
	uint32_t max = fs->cfg.max_active_zones;
	struct fsc_bg *best = NULL;
	bool full = false;

	*out = NULL;
	if (!max)
		return 0;
	for (d = 0; d < fs->nr_devs; d++)
		if (fs->devs[d].zone_bytes && fs->devs[d].nr_active + need > max)
			full = true;
	if (!full)
		return 0;
	for (i = 0; i < fs->nr_active_bgs; i++) {
		struct fsc_bg *bg = fs->active[i];

		/* fully allocated, writes still on their way: its zones
		 * become full by themselves; wait for that, no waste */
		if (bg->alloc_offset == bg->len_bytes && !bg->expired)
			return -EBUSY;
		if (!finishable(bg))
			continue;
		if (!best || bg->alloc_offset > best->alloc_offset ||
		    (bg->alloc_offset == best->alloc_offset && bg->seq < best->seq))
			best = bg;
	}
	if (!best)
		return -EBUSY;
	*out = best;
	return 0;
}
