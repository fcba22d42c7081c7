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

static int finish(struct fsc *fs, struct fsc_bg *bg, uint64_t now_ns)
{
	uint32_t i, t, data = bg->nr_stripes / (bg->sub_stripes ? bg->sub_stripes : 1);
	uint64_t left = bg->len_bytes - bg->alloc_offset;
	int ret;

	for (i = 0; i < bg->nr_stripes; i++) {
		struct fsc_dev *dev = &fs->devs[bg->stripes[i].dev];

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

int fsc_active_make_room(struct fsc *fs, uint32_t type, uint64_t now_ns)
{
	uint32_t need = fsc_profile_of(fs, type) == FSC_DUP ? 2 : 1, d, i;
	uint32_t max = fs->cfg.max_active_zones;

	if (!max)
		return 0;
	for (;;) {
		struct fsc_bg *best = NULL;
		bool full = false;

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
		if (finish(fs, best, now_ns))
			return fs->st.last_dev_error;
	}
}
