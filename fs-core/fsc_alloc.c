/*
 * fsc_alloc.c — sequential allocation inside block groups (008: an
 * allocation offset; space freed below it is not reused until the block
 * group is reset), one open block group per type and data log, a new one
 * opened when the current one cannot hold a request (after making room
 * under the devices' max active zones); freeing; the bio pool.  It calls
 * down into the block group's life (fsc_bg.c) and never the other way.
 * Not here: victim choice (clean/), relocation (fsc_reloc.c), ordering of
 * submission (fsc_submit.c), transactions (fsc_trans.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fsc_int.h"

/**
 * fsc_alloc_make_room() - room for a new block group of @type under
 * cfg.max_active_zones: finish active block groups (fsc_active_victim()
 * chooses, fsc_bg_finish() finishes) until the devices keep under it.
 * Returns 0, -EBUSY (none finishable yet) or the device error of a finish.
 */
int fsc_alloc_make_room(struct fsc *fs, uint32_t type, uint64_t now_ns)
{
	struct fsc_bg *bg;
	int ret;

	for (;;) {
		ret = fsc_active_victim(fs, type, &bg);
		if (ret || !bg)
			return ret;
		if (fsc_bg_finish(fs, bg, now_ns))
			return fs->st.last_dev_error;
	}
}

static inline int type_slot(uint32_t type, uint32_t stream)
{
	if (type == FSC_BG_DATA)
		return stream ? 2 + (int)stream : 0;
	return type == FSC_BG_META ? 1 : 2;
}

int fsc_alloc(struct fsc *fs, uint32_t type, uint64_t len, uint32_t owner, uint64_t now_ns,
	      struct fsc_bg **bgp, uint64_t *logical)
{
	return fsc_alloc_stream(fs, type, 0, len, owner, now_ns, bgp, logical);
}

/**
 * fsc_alloc() - @len bytes in the current block group of @type at its
 * allocation offset (008), opening a new block group when the current one
 * cannot hold them (the tail left is never allocated: the zone is not
 * reused until reset).  Units from @owner on are recorded for relocation.
 * Returns 0 or -ENOSPC / block group creation errors.
 */
int fsc_alloc_stream(struct fsc *fs, uint32_t type, uint32_t stream, uint64_t len,
		     uint32_t owner, uint64_t now_ns, struct fsc_bg **bgp, uint64_t *logical)
{
	int slot = type_slot(type, stream);
	struct fsc_bg *bg = fs->cur[slot];
	uint64_t u, nr;
	int ret;

	/* RAID5/6 (hypothetical): whole rows (fsc_bg_span()) */
	if (bg && bg->alloc_offset + fsc_bg_span(bg, len) > bg->len_bytes) {
		bg->alloc_done = true;
		bg->done_clock = fs->st.user_bytes;
		fs->cur[slot] = NULL;
		fsc_bg_put(fs, bg, now_ns);
		bg = NULL;
	}
	if (!bg) {
		ret = fsc_alloc_make_room(fs, type, now_ns);
		if (ret)
			return ret;
		if (slot == 1 && fs->resv.spare) {
			/* allocated ahead by a reservation's flush (fsc_resv.c) */
			bg = fs->resv.spare;
			fs->resv.spare = NULL;
		} else {
			ret = fsc_bg_create(fs, type, now_ns, &bg);
			if (ret)
				return ret;
		}
		ret = fsc_active_add(fs, bg);
		if (ret)
			return ret;
		if (len > bg->len_bytes)
			return -EINVAL;
		bg->stream = type == FSC_BG_DATA ? stream : 0;
		fs->cur[slot] = bg;
	}
	*logical = bg->start + bg->alloc_offset;
	u = bg->alloc_offset / bg->unit_bytes;
	nr = len / bg->unit_bytes;
	for (uint64_t i = 0; owner != FSC_NO_OWNER && i < nr; i++)
		bg->owner[u + i] = owner + 1 + (uint32_t)(type == FSC_BG_DATA ? i : 0);
	bg->alloc_offset += fsc_bg_span(bg, len);  /* the padding is never live */
	bg->used_bytes += len;
	fsc_resv_bg_dirty(fs, bg);
	fsc_reclaim_alloced(fs, bg, len);
	bg->nr_inflight++;
	if (bg->alloc_offset == bg->len_bytes) {
		bg->alloc_done = true;
		bg->done_clock = fs->st.user_bytes;
		fs->cur[slot] = NULL;
	}
	*bgp = bg;
	return 0;
}

/**
 * fsc_free_extent() - @len bytes at @logical are no longer referenced.  In a
 * sequential block group the space is not reusable; when the block group is
 * fully allocated and nothing is live or in flight it is reset (cover
 * letter: zone reset of unused block groups).
 */
void fsc_free_extent(struct fsc *fs, uint64_t logical, uint64_t len, uint64_t now_ns)
{
	struct fsc_bg *bg = fsc_bg_lookup(fs, logical);
	uint64_t u, nr, i, old;

	if (!bg)
		return;
	u = (logical - bg->start) / bg->unit_bytes;
	nr = len / bg->unit_bytes;
	for (i = 0; i < nr; i++)
		bg->owner[u + i] = 0;
	old = bg->used_bytes;
	bg->used_bytes = bg->used_bytes > len ? bg->used_bytes - len : 0;
	fsc_resv_bg_dirty(fs, bg);
	fsc_reclaim_freed(fs, bg, old);
	fsc_bg_put(fs, bg, now_ns);
}

struct fsc_bio *fsc_bio_get(struct fsc *fs)
{
	struct fsc_bio *b = fs->bio_free;

	if (b)
		fs->bio_free = b->next;
	else
		b = malloc(sizeof(*b));
	if (b)
		memset(b, 0, sizeof(*b));
	return b;
}

void fsc_bio_put(struct fsc *fs, struct fsc_bio *bio)
{
	bio->next = fs->bio_free;
	fs->bio_free = bio;
}

uint32_t fsc_min_free_zones(const struct fsc *fs)
{
	uint32_t i, m = UINT32_MAX;

	for (i = 0; i < fs->nr_devs; i++)
		if (fs->devs[i].blk && fs->devs[i].zone_bytes && fs->devs[i].nr_free < m)
			m = fs->devs[i].nr_free;
	return m == UINT32_MAX ? 0 : m;
}
