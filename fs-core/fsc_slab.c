/*
 * fsc_slab.c — fs-core's memory for what it holds many of: block groups
 * from a slab per file system (fsc_bg_alloc(), fsc_bg_free()), and large
 * arrays read at random (the file map) in huge pages (fsc_alloc_big()).  It
 * gives out memory and takes it back; what a block group is and when it is
 * created or removed is fsc_bg.c's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <sys/mman.h>

#include "fsc_int.h"

void *fsc_alloc_big(size_t bytes)
{
	const size_t huge = 2u << 20;
	void *p;

	if (bytes < 2 * huge)
		return malloc(bytes);
	bytes = (bytes + huge - 1) / huge * huge;
	p = aligned_alloc(huge, bytes);
	if (p)
		(void)madvise(p, bytes, MADV_HUGEPAGE);  /* a hint: refused is fine */
	return p;
}

/*
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

struct fsc_bg *fsc_bg_alloc(struct fsc *fs, uint32_t type, uint64_t len)
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

void fsc_bg_free(struct fsc *fs, struct fsc_bg *bg)
{
	if (!bg)
		return;
	free(bg->held);
	bg->held = NULL;
	free(bg->kleaf);
	bg->kleaf = NULL;
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
