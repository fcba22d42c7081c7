/*
 * fsc_extent.c — what buffered writes change (issue 31): the page cache's
 * dirty blocks, written back in file order as extents at a sync
 * (delalloc: btrfs's run_delalloc_range() -> cow_file_range(), one extent
 * per contiguous dirty range up to the maximum extent size), and, with
 * cfg.extent_refs, extents freed whole: btrfs frees a data extent when its
 * last reference goes (__btrfs_free_extent()), so a block overwritten in
 * the middle of a larger extent keeps its space allocated (a "bookend")
 * until every block of the extent is overwritten, and relocation copies
 * the dead blocks with the live ones.  Not here: the writes themselves
 * (fsc_write_file(), which calls fsc_ext_new() / fsc_ext_drop()) and the
 * tree log (fsc_log_sync(), fsc_trans.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fsc_int.h"

/* ---- delalloc: the dirty blocks ---- */

int fsc_buffer_write(struct fsc *fs, uint64_t lbn, uint32_t nr_blocks)
{
	uint64_t i;
	int n = 0;

	if (!nr_blocks || lbn >= fs->nr_file_blocks || nr_blocks > fs->nr_file_blocks - lbn)
		return -EINVAL;
	if (!fs->dirty_map) {
		fs->dirty_map = calloc((fs->nr_file_blocks + 63) / 64, sizeof(*fs->dirty_map));
		if (!fs->dirty_map)
			return -ENOMEM;
	}
	for (i = lbn; i < lbn + nr_blocks; i++) {
		uint64_t bit = 1ull << (i % 64);

		if (!(fs->dirty_map[i / 64] & bit)) {
			fs->dirty_map[i / 64] |= bit;
			n++;
		}
	}
	fs->nr_dirty_blocks += (uint64_t)n;
	return n;
}

uint64_t fsc_dirty_blocks(const struct fsc *fs)
{
	return fs->nr_dirty_blocks;
}

static inline bool is_dirty(const struct fsc *fs, uint64_t b)
{
	return fs->dirty_map[b / 64] & (1ull << (b % 64));
}

int fsc_writeback_next(struct fsc *fs, uint32_t max_blocks, uint64_t *lbn)
{
	uint64_t w, b, nw = (fs->nr_file_blocks + 63) / 64;
	uint32_t n = 0;

	if (!max_blocks)
		return -EINVAL;
	if (!fs->nr_dirty_blocks)
		return 0;
	for (w = 0; w < nw && !fs->dirty_map[w]; w++)
		;
	if (w == nw)
		return 0;  /* not reached: the count says some are dirty */
	b = w * 64 + (uint64_t)__builtin_ctzll(fs->dirty_map[w]);
	*lbn = b;
	while (n < max_blocks && b < fs->nr_file_blocks && is_dirty(fs, b)) {
		fs->dirty_map[b / 64] &= ~(1ull << (b % 64));
		b++;
		n++;
	}
	fs->nr_dirty_blocks -= n;
	return (int)n;
}

/* ---- extents freed whole ---- */

static inline uint32_t ghost_owner(const struct fsc *fs, uint32_t id)
{
	return (uint32_t)fs->nr_file_blocks + 1 + id;
}

bool fsc_ext_is_ghost(const struct fsc *fs, uint32_t owner, uint32_t *id)
{
	if (!fs->ext.of || owner == FSC_NO_OWNER || owner <= fs->nr_file_blocks)
		return false;
	*id = owner - (uint32_t)fs->nr_file_blocks - 1;
	return *id < fs->ext.nr;
}

int fsc_ext_init(struct fsc *fs)
{
	if (!fs->cfg.extent_refs)
		return 0;
	if (fs->cfg.order == FSC_ORDER_APPEND || !fs->nr_file_blocks ||
	    fs->nr_file_blocks >= UINT32_MAX / 2)
		return -EINVAL;  /* addresses known at completion: not modelled */
	fs->ext.of = calloc(fs->nr_file_blocks, sizeof(*fs->ext.of));
	return fs->ext.of ? 0 : -ENOMEM;
}

void fsc_ext_fini(struct fsc *fs)
{
	for (uint32_t i = 0; i < fs->ext.nr; i++)
		free(fs->ext.v[i].ghost);
	free(fs->ext.v);
	free(fs->ext.of);
	free(fs->ext.free);
	free(fs->dirty_map);
}

int fsc_ext_new(struct fsc *fs, uint32_t *id)
{
	struct fsc_ext *v;

	if (fs->ext.nr_free) {
		*id = fs->ext.free[--fs->ext.nr_free];
		return 0;
	}
	if (ghost_owner(fs, fs->ext.nr) >= FSC_NO_OWNER - 1)
		return -ENOSPC;  /* ids would collide with the owner sentinel */
	v = fsc_grow(fs->ext.v, &fs->ext.cap, fs->ext.nr, sizeof(*v));
	if (!v)
		return -ENOMEM;
	fs->ext.v = v;
	memset(&v[fs->ext.nr], 0, sizeof(*v));
	*id = fs->ext.nr++;
	return 0;
}

void fsc_ext_ref(struct fsc *fs, uint64_t lbn, uint32_t id)
{
	fs->ext.of[lbn] = id + 1;
	fs->ext.v[id].nr_live++;
}

/* The last reference went: every block of the extent is free. */
static void ext_release(struct fsc *fs, uint32_t id, uint64_t now_ns)
{
	struct fsc_ext *e = &fs->ext.v[id];

	for (uint32_t g = 0; g < e->nr_ghost; g++)
		fsc_free_extent(fs, e->ghost[g], fs->cfg.sector_bytes, now_ns);
	e->nr_ghost = 0;
	fs->st.nr_bookend_freed++;
	/* out of memory: the id is not reused */
	(void)fsc_push_u32(&fs->ext.free, &fs->ext.nr_free, &fs->ext.free_cap, id);
}

int fsc_ext_drop(struct fsc *fs, uint64_t lbn, uint64_t old, uint64_t now_ns)
{
	uint32_t id = fs->ext.of[lbn];
	struct fsc_ext *e;
	struct fsc_bg *bg;
	uint64_t *g;

	fs->ext.of[lbn] = 0;
	if (!id--) {  /* not written through an extent: freed as before */
		fsc_free_extent(fs, old, fs->cfg.sector_bytes, now_ns);
		return 0;
	}
	e = &fs->ext.v[id];
	if (!--e->nr_live) {
		fsc_free_extent(fs, old, fs->cfg.sector_bytes, now_ns);
		ext_release(fs, id, now_ns);
		return 0;
	}
	/* a bookend: the block keeps its space, owned by the extent now */
	bg = fsc_bg_lookup(fs, old);
	if (!bg)
		return -EINVAL;
	g = fsc_grow(e->ghost, &e->ghost_cap, e->nr_ghost, sizeof(*g));
	if (!g)
		return -ENOMEM;
	e->ghost = g;
	g[e->nr_ghost++] = old;
	bg->owner[(old - bg->start) / bg->unit_bytes] = ghost_owner(fs, id);
	fs->st.bookend_bytes += fs->cfg.sector_bytes;
	return 0;
}

void fsc_ext_ghost_moved(struct fsc *fs, uint32_t id, uint64_t from, uint64_t to)
{
	struct fsc_ext *e = &fs->ext.v[id];
	struct fsc_bg *bg = fsc_bg_lookup(fs, to);

	for (uint32_t g = 0; g < e->nr_ghost; g++)
		if (e->ghost[g] == from) {
			e->ghost[g] = to;
			break;
		}
	if (bg)
		bg->owner[(to - bg->start) / bg->unit_bytes] = ghost_owner(fs, id);
}
