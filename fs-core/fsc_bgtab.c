/*
 * fsc_bgtab.c — the table of block groups: the slots sorted by start
 * (fs->bgs, fs->bg_starts) and the direct map from a zone-sized slot of the
 * logical space to its block group, so fsc_bg_lookup() is O(1) on the
 * usual grid and a binary search off it.  A block group enters the table
 * when it is created or loaded (fsc_bg_insert()) and leaves it when it is
 * removed (fsc_bg_unlink()); creating, loading and removing it is
 * fsc_bg.c's, its memory fsc_slab.c's.
 */
#include <errno.h>
#include <stdlib.h>

#include "fsc_int.h"

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

/* ---- the slots sorted by start ---- */

int fsc_bg_insert(struct fsc *fs, struct fsc_bg *bg)
{
	uint32_t i, cap = fs->bgs_cap;
	struct fsc_bg **v = fsc_grow(fs->bgs, &cap, fs->nr_slots, sizeof(*fs->bgs));
	uint64_t *st;

	if (!v)
		return -ENOMEM;
	fs->bgs = v;
	if ((bg->type & FSC_BG_META) &&
	    fsc_grow_ptrs(&fs->meta_bgs, &fs->meta_bgs_cap, fs->nr_meta_bgs))
		return -ENOMEM;
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
	fs->nr_chunk_zones += bg->nr_stripes;
	if (bg->type & FSC_BG_META)
		fs->meta_bgs[fs->nr_meta_bgs++] = bg;
	bgmap_add(fs, bg);
	if (bg->start + bg->len_bytes > fs->next_logical)
		fs->next_logical = bg->start + bg->len_bytes;
	return 0;
}

/* @bg's slot becomes NULL (binary search by start: O(log n)); the slots are
 * compacted when more than half are NULL: amortised O(1) per removal, no
 * memmove of every block group each time. */
void fsc_bg_unlink(struct fsc *fs, struct fsc_bg *bg)
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
	fs->nr_chunk_zones -= bg->nr_stripes;
	for (i = 0; (bg->type & FSC_BG_META) && i < fs->nr_meta_bgs; i++)
		if (fs->meta_bgs[i] == bg) {
			fs->meta_bgs[i] = fs->meta_bgs[--fs->nr_meta_bgs];
			fs->resv.gone += bg->len_bytes;
			break;
		}
	if (fs->nr_slots - fs->nr_bgs <= 32 || (fs->nr_slots - fs->nr_bgs) * 2 < fs->nr_slots)
		return;
	for (i = 0, j = 0; i < fs->nr_slots; i++)
		if (fs->bgs[i]) {
			fs->bgs[j] = fs->bgs[i];
			fs->bg_starts[j++] = fs->bg_starts[i];
		}
	fs->nr_slots = j;
}

/* ---- lookup ---- */

struct fsc_bg *fsc_bg_lookup(struct fsc *fs, uint64_t logical)
{
	struct fsc_bg *bg;

	if (fsc_bgmap_get(fs, logical, &bg))  /* the fast path: O(1) */
		return bg;
	return fsc_bg_lookup_search(fs, logical);
}

/* The general path: binary search over the slots sorted by start. */
struct fsc_bg *fsc_bg_lookup_search(const struct fsc *fs, uint64_t logical)
{
	uint32_t lo = 0, hi = fs->nr_slots;

	/* the last slot starting at or before @logical */
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;

		if (fs->bg_starts[mid] <= logical)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || !fs->bgs[lo - 1] || logical >= fs->bg_starts[lo - 1] + fs->bgs[lo - 1]->len_bytes)
		return NULL;
	return fs->bgs[lo - 1];
}
