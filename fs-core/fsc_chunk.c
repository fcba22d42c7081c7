/*
 * fsc_chunk.c — device extents and block groups: zone-aligned device
 * extents over empty zones only, first zone skipped, stripe = one zone (007);
 * block group creation per profile; the logical -> (device, physical) map;
 * recovery of a block group's allocation offset from the write pointers of
 * its zones for SINGLE, DUP, RAID1, RAID0 and RAID10 with the RFC's errors
 * (008); removal (zone reset) of an unused block group.  Sequential
 * allocation inside a block group is in fsc_alloc.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fsc_int.h"

enum fsc_profile fsc_profile_of(const struct fsc *fs, uint32_t type)
{
	return type == FSC_BG_DATA ? fs->cfg.data_profile : fs->cfg.meta_profile;
}

/* Zone @z of @dev goes into a device extent (out of the free pool if it was in). */
static void zone_take(struct fsc_dev *dev, uint32_t z)
{
	if (fsc_zone_is_free(dev, z)) {
		dev->nr_free--;
		zbitmap_clear(&dev->free_map, z);
	}
	fsc_bit_set(dev->used_bits, z);
	fsc_bit_clear(dev->empty_bits, z);
}

/* Zone @z of @dev, empty (reset or never written), returns to the free pool. */
static void zone_put(struct fsc_dev *dev, uint32_t z)
{
	fsc_bit_clear(dev->used_bits, z);
	fsc_bit_set(dev->empty_bits, z);
	dev->nr_free++;
	zbitmap_set(&dev->free_map, z);
}

/**
 * fsc_dev_extent_find() - reserve @nr_zones consecutive empty sequential
 * zones on device @d, never zone 0 (007: the first zone is skipped), and
 * return the extent's physical start.  Returns 0 or -ENOSPC.
 */
int fsc_dev_extent_find(struct fsc *fs, uint32_t d, uint32_t nr_zones, uint64_t *phys)
{
	struct fsc_dev *dev = &fs->devs[d];
	uint32_t tried, z, k, n = dev->nr_zones;

	if (!dev->blk || !dev->zone_bytes || dev->nr_free < nr_zones || n < 2)
		return -ENOSPC;
	z = dev->cursor < 1 ? 1 : dev->cursor;
	for (tried = 0; tried < n; tried++, z++) {
		/* the next free zone at or after @z (the free map: no scan of
		 * used zones), wrapping to zone 1 once */
		uint32_t next = z < n ? zbitmap_next(&dev->free_map, z) : ZBITMAP_NONE;

		if (next == ZBITMAP_NONE || next + nr_zones > n) {
			if (z == 1)
				return -ENOSPC;
			next = zbitmap_next(&dev->free_map, 1);
			if (next == ZBITMAP_NONE || next + nr_zones > n)
				return -ENOSPC;
		}
		z = next;
		for (k = 0; k < nr_zones && fsc_zone_is_free(dev, z + k); k++)
			;
		if (k < nr_zones)
			continue;
		for (k = 0; k < nr_zones; k++)
			zone_take(dev, z + k);
		dev->cursor = z + nr_zones;
		*phys = (uint64_t)z * dev->zone_bytes;
		return 0;
	}
	return -ENOSPC;
}

/* Devices sorted by free zones, most first (stable on the index). */
static uint32_t devs_by_free(const struct fsc *fs, uint32_t *order)
{
	uint32_t i, j, n = 0;

	for (i = 0; i < fs->nr_devs; i++) {
		if (!fs->devs[i].blk || !fs->devs[i].nr_free)
			continue;
		for (j = n; j > 0 && fs->devs[order[j - 1]].nr_free < fs->devs[i].nr_free; j--)
			order[j] = order[j - 1];
		order[j] = i;
		n++;
	}
	return n;
}

/* ---- the direct lookup map: slot = (logical - 1 MiB) / zone size ---- */

#define BGMAP_BASE (1ULL << 20)  /* fsc_setup()'s first logical address */

static uint32_t bgmap_home(uint64_t key, uint32_t cap)
{
	key *= 0x9e3779b97f4a7c15ULL;
	return (uint32_t)(key >> 32) & (cap - 1);
}

static int bgmap_grow(struct fsc *fs)
{
	uint32_t cap = fs->bgmap.cap ? fs->bgmap.cap * 2 : 1024, i, j;
	struct fsc_bgmap_ent *ent = calloc(cap, sizeof(*ent));

	if (!ent)
		return -ENOMEM;
	for (i = 0; i < fs->bgmap.cap; i++) {
		if (!fs->bgmap.ent[i].key)
			continue;
		for (j = bgmap_home(fs->bgmap.ent[i].key, cap); ent[j].key; j = (j + 1) & (cap - 1))
			;
		ent[j] = fs->bgmap.ent[i];
	}
	free(fs->bgmap.ent);
	fs->bgmap.ent = ent;
	fs->bgmap.cap = cap;
	return 0;
}

static int bgmap_put(struct fsc *fs, uint64_t slot, struct fsc_bg *bg)
{
	uint32_t j;

	if ((fs->bgmap.nr + 1) * 2 > fs->bgmap.cap && bgmap_grow(fs))
		return -ENOMEM;
	for (j = bgmap_home(slot + 1, fs->bgmap.cap); fs->bgmap.ent[j].key;
	     j = (j + 1) & (fs->bgmap.cap - 1))
		;
	fs->bgmap.ent[j].key = slot + 1;
	fs->bgmap.ent[j].bg = bg;
	fs->bgmap.nr++;
	return 0;
}

static void bgmap_del(struct fsc *fs, uint64_t slot)
{
	struct fsc_bgmap_ent *e = fs->bgmap.ent;
	uint32_t mask = fs->bgmap.cap - 1, i, j;

	if (!fs->bgmap.cap)
		return;
	for (i = bgmap_home(slot + 1, fs->bgmap.cap); e[i].key != slot + 1; i = (i + 1) & mask)
		if (!e[i].key)
			return;
	e[i].key = 0;
	fs->bgmap.nr--;
	/* linear probing without tombstones: shift the cluster back */
	for (j = (i + 1) & mask; e[j].key; j = (j + 1) & mask) {
		uint32_t home = bgmap_home(e[j].key, fs->bgmap.cap);

		if (i <= j ? (home <= i || home > j) : (home <= i && home > j)) {
			e[i] = e[j];
			e[j].key = 0;
			i = j;
		}
	}
}

/* The map's key of @logical (0: below the map). */
static inline uint64_t bgmap_key(const struct fsc *fs, uint64_t logical)
{
	if (logical < BGMAP_BASE)
		return 0;
	if (fs->zone_shift)
		return ((logical - BGMAP_BASE) >> fs->zone_shift) + 1;
	return (logical - BGMAP_BASE) / fs->zone_bytes + 1;
}

bool fsc_bgmap_get(const struct fsc *fs, uint64_t logical, struct fsc_bg **bg)
{
	const struct fsc_bgmap_ent *e = fs->bgmap.ent;
	uint64_t key;
	uint32_t j;

	if (fs->bgmap.off || !fs->zone_bytes)
		return false;
	*bg = NULL;
	key = bgmap_key(fs, logical);
	if (!key || !fs->bgmap.cap)
		return true;
	for (j = bgmap_home(key, fs->bgmap.cap); e[j].key; j = (j + 1) & (fs->bgmap.cap - 1))
		if (e[j].key == key) {
			*bg = e[j].bg;
			return true;
		}
	return true;
}

void fsc_bgmap_prefetch(const struct fsc *fs, uint64_t logical)
{
	uint64_t key;

	if (fs->bgmap.off || !fs->zone_bytes || !fs->bgmap.cap)
		return;
	key = bgmap_key(fs, logical);
	if (key)
		__builtin_prefetch(&fs->bgmap.ent[bgmap_home(key, fs->bgmap.cap)]);
}

/* @bg into the map, one entry per zone-sized slot it covers; a block group
 * off the grid (or no memory) turns the map off for good. */
static void bgmap_add(struct fsc *fs, struct fsc_bg *bg)
{
	uint64_t zb = fs->zone_bytes, s;

	if (fs->bgmap.off)
		return;
	if (!zb || bg->start < BGMAP_BASE || (bg->start - BGMAP_BASE) % zb || bg->len_bytes % zb) {
		fs->bgmap.off = true;
		return;
	}
	for (s = 0; s < bg->len_bytes / zb; s++)
		if (bgmap_put(fs, (bg->start - BGMAP_BASE) / zb + s, bg)) {
			fs->bgmap.off = true;
			return;
		}
}

static void bgmap_remove(struct fsc *fs, struct fsc_bg *bg)
{
	uint64_t zb = fs->zone_bytes, s;

	if (fs->bgmap.off)
		return;
	for (s = 0; s < bg->len_bytes / zb; s++)
		bgmap_del(fs, (bg->start - BGMAP_BASE) / zb + s);
}

int fsc_bg_insert(struct fsc *fs, struct fsc_bg *bg)
{
	uint32_t i, cap = fs->bgs_cap;
	struct fsc_bg **v = fsc_grow(fs->bgs, &cap, fs->nr_slots, sizeof(*fs->bgs));
	uint64_t *st;

	if (!v)
		return -ENOMEM;
	fs->bgs = v;
	if (cap != fs->bgs_cap) {
		st = realloc(fs->bg_starts, cap * sizeof(*st));
		if (!st)
			return -ENOMEM;  /* bgs grew alone: its capacity is not recorded */
		fs->bg_starts = st;
		fs->bgs_cap = cap;
	}
	/* new block groups come at the end (next_logical grows); mount may
	 * load them in any order */
	for (i = fs->nr_slots; i > 0 && fs->bg_starts[i - 1] > bg->start; i--) {
		fs->bgs[i] = fs->bgs[i - 1];
		fs->bg_starts[i] = fs->bg_starts[i - 1];
	}
	fs->bgs[i] = bg;
	fs->bg_starts[i] = bg->start;
	fs->nr_slots++;
	fs->nr_bgs++;
	bgmap_add(fs, bg);
	if (bg->start + bg->len_bytes > fs->next_logical)
		fs->next_logical = bg->start + bg->len_bytes;
	return 0;
}

/* ---- block group memory: a slab per file system ----
 *
 * Block groups and their owner arrays come from 2 MiB chunks (huge pages
 * where offered) owned by the file system, element = the struct and the
 * owner array of a one-zone data block group, side by side; a removed one
 * goes on a free list and is taken back first (LIFO: its lines are still
 * cached).  So at 100,000 zones they are dense, reused hot, and do not
 * depend on what malloc's free lists looked like before (a run after
 * another in the same process measured 30% slower per write with malloc).
 * Larger block groups (DUP, striped) are malloc'ed.  No slab under
 * AddressSanitizer, so a pointer kept past removal is still caught.
 */

#if defined(__SANITIZE_ADDRESS__)
#define BG_SLAB 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define BG_SLAB 0
#endif
#endif
#ifndef BG_SLAB
#define BG_SLAB 1
#endif

#define BG_HEAD ((sizeof(struct fsc_bg) + 63) / 64 * 64)

static struct fsc_bg *slab_get(struct fsc *fs)
{
	struct fsc_slab *sl = &fs->slab;
	struct fsc_bg *bg = sl->free;

	if (bg) {
		sl->free = bg->pool_next;
		return bg;
	}
	if (!sl->nr_chunks || sl->left == 0) {
		char **v = fsc_grow(sl->chunks, &sl->cap_chunks, sl->nr_chunks, sizeof(*v));
		char *c;

		if (!v)
			return NULL;
		sl->chunks = v;
		c = fsc_alloc_big(sl->chunk_bytes);
		if (!c)
			return NULL;
		sl->chunks[sl->nr_chunks++] = c;
		sl->next = c;
		sl->left = (uint32_t)(sl->chunk_bytes / sl->elem);
	}
	bg = (struct fsc_bg *)sl->next;
	sl->next += sl->elem;
	sl->left--;
	return bg;
}

void fsc_bg_free(struct fsc *fs, struct fsc_bg *bg)
{
	if (!bg)
		return;
	free(bg->held);
	bg->held = NULL;
	if (bg->in_slab) {
		bg->pool_next = fs->slab.free;
		fs->slab.free = bg;
		return;
	}
	free(bg->owner);
	free(bg);
}

void fsc_slab_fini(struct fsc *fs)
{
	uint32_t i;

	for (i = 0; i < fs->slab.nr_chunks; i++)
		free(fs->slab.chunks[i]);
	free(fs->slab.chunks);
	memset(&fs->slab, 0, sizeof(fs->slab));
}

static struct fsc_bg *bg_alloc(struct fsc *fs, uint32_t type, uint64_t len)
{
	uint32_t unit = type == FSC_BG_DATA ? fs->cfg.sector_bytes : fs->cfg.node_bytes;
	uint64_t nr_owner = len / unit + 1;
	size_t need = BG_HEAD + nr_owner * sizeof(uint32_t);
	struct fsc_bg *bg = NULL;
	bool in_slab;
	uint32_t *owner;

	if (BG_SLAB && !fs->slab.elem && fs->zone_bytes) {
		fs->slab.elem = BG_HEAD + ((fs->zone_bytes / fs->cfg.sector_bytes + 1) *
					   sizeof(uint32_t) + 63) / 64 * 64;
		fs->slab.chunk_bytes = fs->slab.elem * 16 > (4u << 20) ?
				       (fs->slab.elem * 16 + (2u << 20) - 1) / (2u << 20) * (2u << 20) :
				       4u << 20;
	}
	if (fs->slab.elem && need <= fs->slab.elem)
		bg = slab_get(fs);
	in_slab = bg != NULL;
	if (in_slab) {
		owner = (uint32_t *)((char *)bg + BG_HEAD);
		memset(owner, 0, nr_owner * sizeof(*owner));
	} else {
		/* cache-line aligned: the hot fields are its first two lines */
		bg = aligned_alloc(64, BG_HEAD);
		if (!bg)
			return NULL;
		owner = calloc(nr_owner, sizeof(*owner));
		if (!owner) {
			free(bg);
			return NULL;
		}
	}
	memset(bg, 0, sizeof(*bg));
	bg->in_slab = in_slab;
	bg->type = type;
	bg->len_bytes = len;
	bg->unit_bytes = unit;
	bg->owner = owner;
	bg->seq = fs->bg_seq++;
	return bg;
}

uint32_t fsc_profile_min_devs(enum fsc_profile p)
{
	switch (p) {
	case FSC_SINGLE:
	case FSC_DUP:
		return 1;
	case FSC_RAID1:
	case FSC_RAID0:
		return 2;
	case FSC_RAID10:
		return 4;
	default:
		return 0;
	}
}

/**
 * fsc_bg_create() - a new block group of @type with the type's profile:
 * one zone per stripe on the devices with the most free zones (SINGLE: 1
 * device; DUP: 2 zones of 1 device; RAID1: 2 devices; RAID0: every device
 * with a free zone, at least 2; RAID10: an even number >= 4).  Its length is
 * zone size x data stripes (stripe size = zone size, 007).
 * Returns 0, -ENOSPC, FSC_E_BAD_PROFILE or -ENOMEM.
 */
int fsc_bg_create(struct fsc *fs, uint32_t type, uint64_t now_ns, struct fsc_bg **out)
{
	enum fsc_profile p = fsc_profile_of(fs, type);
	uint32_t order[FSC_MAX_DEVS], n = devs_by_free(fs, order), nr, data, i;
	struct fsc_stripe st[FSC_MAX_STRIPES];
	struct fsc_bg *bg;
	int ret;

	switch (p) {
	case FSC_SINGLE:
		nr = 1;
		data = 1;
		break;
	case FSC_DUP:
		if (!n || fs->devs[order[0]].nr_free < 2)
			return -ENOSPC;
		nr = 2;
		data = 1;
		break;
	case FSC_RAID1:
		nr = 2;
		data = 1;
		break;
	case FSC_RAID0:
		nr = n;
		data = n;
		if (nr < 2)
			return fs->nr_devs < fsc_profile_min_devs(p) ? FSC_E_BAD_PROFILE : -ENOSPC;
		break;
	case FSC_RAID10:
		nr = n & ~1u;
		data = nr / 2;
		if (nr < 4)
			return fs->nr_devs < fsc_profile_min_devs(p) ? FSC_E_BAD_PROFILE : -ENOSPC;
		break;
	default:
		return FSC_E_RAID56;
	}
	if (p != FSC_DUP && n < nr)
		return fs->nr_devs < nr ? FSC_E_BAD_PROFILE : -ENOSPC;
	for (i = 0; i < nr; i++) {
		st[i].dev = p == FSC_DUP ? order[0] : order[i];
		ret = fsc_dev_extent_find(fs, st[i].dev, 1, &st[i].phys);
		if (ret)
			goto out_release;
	}
	bg = bg_alloc(fs, type, data * fs->zone_bytes);
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
	while (i-- > 0) {
		struct fsc_dev *dev = &fs->devs[st[i].dev];

		zone_put(dev, (uint32_t)(st[i].phys / dev->zone_bytes));
	}
	return ret;
}

/**
 * fsc_map_stripe() - map @off (bytes into @bg) to the first data stripe it
 * touches: *@idx = data stripe index, *@phys = offset inside the stripe's
 * zone, *@run = bytes until the stripe unit ends (at most @len).
 */
int fsc_map_stripe(const struct fsc_bg *bg, uint64_t off, uint64_t len, uint32_t *idx,
		   uint64_t *phys, uint64_t *run)
{
	uint32_t data = bg->nr_stripes / bg->sub_stripes;
	uint64_t row, in;

	if (bg->profile != FSC_RAID0 && bg->profile != FSC_RAID10) {
		*idx = 0;
		*phys = off;
		*run = len;
		return 0;
	}
	row = off / FSC_RAID0_STRIPE_BYTES;
	in = off % FSC_RAID0_STRIPE_BYTES;
	*idx = (uint32_t)(row % data);
	*phys = (row / data) * FSC_RAID0_STRIPE_BYTES + in;
	*run = FSC_RAID0_STRIPE_BYTES - in;
	if (*run > len)
		*run = len;
	return 0;
}

#define WP_MISSING UINT64_MAX

/**
 * fsc_bg_recover_offset() - the allocation offset of @bg from its zones'
 * write pointers (008).  A block group on conventional zones gets FIT
 * allocation.  Per profile: SINGLE/DUP/RAID1 - every present mirror agrees;
 * RAID0 - sum of the stripes, none missing, none ahead of stripe 0; RAID10 -
 * mirrors agree, then as RAID0.  An offline or read-only zone counts as a
 * missing mirror and makes the block group read-only.  Returns 0,
 * FSC_E_UNALIGNED_BG, FSC_E_MIXED_ZONES, FSC_E_WP_MISMATCH,
 * FSC_E_DEV_MISSING, FSC_E_ZONE_OFFLINE, FSC_E_RAID56, -EINVAL (a stripe
 * beyond its device) or a report error.  It reads the zones only: taking
 * them out of the free pool is fsc_bg_load()'s.
 */
int fsc_bg_recover_offset(struct fsc *fs, struct fsc_bg *bg)
{
	uint64_t off[FSC_MAX_STRIPES], zb = fs->zone_bytes;
	int reason[FSC_MAX_STRIPES];
	int type = -1, miss_err = FSC_E_DEV_MISSING;
	uint32_t i, j, nr = bg->nr_stripes, sub = bg->sub_stripes ? bg->sub_stripes : 1;
	struct zblk_zone z;
	int ret;

	if (!zb || bg->len_bytes % zb)
		return FSC_E_UNALIGNED_BG;
	for (i = 0; i < nr; i++) {
		struct fsc_dev *dev = &fs->devs[bg->stripes[i].dev];
		uint64_t phys = bg->stripes[i].phys;
		bool seq;

		reason[i] = 0;
		off[i] = WP_MISSING;
		if (bg->stripes[i].dev >= fs->nr_devs || !dev->blk) {
			reason[i] = FSC_E_DEV_MISSING;
			continue;
		}
		if (phys % zb)
			return FSC_E_UNALIGNED_BG;
		if (phys / zb >= dev->nr_zones)
			return -EINVAL;  /* beyond the device: not a chunk of it */
		seq = fsc_bit(dev->seq_bits, (uint32_t)(phys / zb));
		if (type == -1)
			type = seq ? FSC_ALLOC_SEQ : FSC_ALLOC_FIT;
		if (seq != (type == FSC_ALLOC_SEQ))
			return FSC_E_MIXED_ZONES;
		if (!seq)
			continue;
		ret = zblk_zone_get(dev->blk, phys, &z);
		if (ret == -EIO || ret == -EOPNOTSUPP) {
			reason[i] = FSC_E_DEV_MISSING;
			continue;
		}
		if (ret)
			return ret;
		switch (z.cond) {
		case ZL_COND_OFFLINE:
		case ZL_COND_READ_ONLY:
			reason[i] = FSC_E_ZONE_OFFLINE;
			bg->alloc_done = true;  /* degraded: no further writes */
			break;
		case ZL_COND_EMPTY:
			off[i] = 0;
			break;
		case ZL_COND_FULL:
			off[i] = zb;
			break;
		default:
			off[i] = z.wp_bytes - z.start_bytes;
			break;
		}
	}
	bg->alloc_type = type == FSC_ALLOC_FIT ? FSC_ALLOC_FIT : FSC_ALLOC_SEQ;
	if (type == FSC_ALLOC_FIT)
		return 0;
	for (i = 0; i < nr; i++)
		if (reason[i]) {
			miss_err = reason[i];
			break;
		}

	switch (bg->profile) {
	case FSC_SINGLE:
	case FSC_DUP:
	case FSC_RAID1:
		bg->alloc_offset = WP_MISSING;
		for (i = 0; i < nr; i++) {
			if (off[i] == WP_MISSING)
				continue;
			if (bg->alloc_offset == WP_MISSING)
				bg->alloc_offset = off[i];
			if (off[i] != bg->alloc_offset)
				return FSC_E_WP_MISMATCH;
		}
		if (bg->alloc_offset == WP_MISSING)
			return miss_err;
		break;
	case FSC_RAID0:
	case FSC_RAID10:
		/* pass 1: mirrors of each data stripe agree */
		for (i = 0; i < nr / sub; i++) {
			uint64_t o = WP_MISSING;

			for (j = 0; j < sub; j++) {
				uint64_t v = off[i * sub + j];

				if (v == WP_MISSING)
					continue;
				if (o == WP_MISSING)
					o = v;
				if (v != o)
					return FSC_E_WP_MISMATCH;
			}
			for (j = 0; j < sub; j++)
				off[i * sub + j] = o;
		}
		/* pass 2: data stripes; none may be ahead of the first */
		bg->alloc_offset = 0;
		for (i = 0; i < nr / sub; i++) {
			uint64_t v = off[i * sub];

			if (v == WP_MISSING)
				return miss_err;
			if (off[0] < v)
				return FSC_E_WP_MISMATCH;
			bg->alloc_offset += v;
		}
		break;
	default:
		return FSC_E_RAID56;
	}
	bg->submit_offset = bg->start + bg->alloc_offset;
	bg->used_bytes = bg->alloc_offset;  /* no extent tree: all written is live */
	if (bg->alloc_offset >= bg->len_bytes)
		bg->alloc_done = true;
	return 0;
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
	bg = bg_alloc(fs, c->type, c->len_bytes);
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
	for (i = 0; i < c->nr_stripes; i++) {
		struct fsc_dev *dev = &fs->devs[bg->stripes[i].dev];

		if (bg->stripes[i].dev < fs->nr_devs && dev->blk && dev->zone_bytes)
			zone_take(dev, (uint32_t)(bg->stripes[i].phys / dev->zone_bytes));
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

/* @bg's slot becomes NULL (binary search by start: O(log n)); the slots are
 * compacted when more than half are NULL: amortised O(1) per removal, no
 * memmove of every block group each time. */
static void bg_slot_clear(struct fsc *fs, struct fsc_bg *bg)
{
	uint32_t lo = 0, hi = fs->nr_slots, i, j;

	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;

		if (fs->bg_starts[mid] < bg->start)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo >= fs->nr_slots || fs->bgs[lo] != bg)
		return;
	bgmap_remove(fs, bg);
	fs->bgs[lo] = NULL;
	fs->nr_bgs--;
	if (fs->nr_slots - fs->nr_bgs <= 32 || (fs->nr_slots - fs->nr_bgs) * 2 < fs->nr_slots)
		return;
	for (i = 0, j = 0; i < fs->nr_slots; i++)
		if (fs->bgs[i]) {
			fs->bgs[j] = fs->bgs[i];
			fs->bg_starts[j++] = fs->bg_starts[i];
		}
	fs->nr_slots = j;
}

/**
 * fsc_bg_remove() - an unused block group goes away: its zones are reset
 * and return to the free pool (cover letter), the block group is freed.
 */
void fsc_bg_remove(struct fsc *fs, struct fsc_bg *bg, uint64_t now_ns)
{
	uint32_t i, t;
	int ret;

	for (i = 0; i < bg->nr_stripes; i++) {
		struct fsc_dev *dev = &fs->devs[bg->stripes[i].dev];
		uint32_t z;

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
		zone_put(dev, z);
	}
	fsc_clean_forget(fs, bg);
	fsc_active_drop(fs, bg);  /* reset: the zones are empty again */
	for (t = 0; t < 3 + FSC_MAX_STREAMS; t++)
		if (fs->cur[t] == bg)
			fs->cur[t] = NULL;
	bg_slot_clear(fs, bg);
	fs->st.nr_bg_removed++;
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
