/*
 * fsc_clean_heap.c — machinery the cleaning policies share: the indexed
 * binary heap of block groups (fsc_int.h: struct fsc_heap) and the orders
 * several policies use (oldest; emptiest, ties oldest), as comparisons, as
 * heap keys and as a scan.  Not a policy, and not the registry: it knows no
 * policy by name and calls nothing above it.
 */
#include <errno.h>
#include <stdlib.h>

#include "fsc_clean_int.h"

/* ---- the indexed heap ---- */

static inline bool ent_less(const struct fsc_heap_ent *a, const struct fsc_heap_ent *b)
{
	return a->k[0] < b->k[0] || (a->k[0] == b->k[0] && a->k[1] < b->k[1]);
}

static inline void heap_set(struct fsc_heap *h, uint32_t i, const struct fsc_heap_ent *e)
{
	h->v[i] = *e;
	h->pos[e->id] = i;
}

static void sift_up(struct fsc_heap *h, uint32_t i)
{
	struct fsc_heap_ent e = h->v[i];

	while (i) {
		uint32_t parent = (i - 1) / 2;

		if (!ent_less(&e, &h->v[parent]))
			break;
		heap_set(h, i, &h->v[parent]);
		i = parent;
	}
	heap_set(h, i, &e);
}

static void sift_down(struct fsc_heap *h, uint32_t i)
{
	struct fsc_heap_ent e = h->v[i];

	for (;;) {
		uint32_t l = 2 * i + 1, best = l;

		if (l >= h->nr)
			break;
		if (l + 1 < h->nr && ent_less(&h->v[l + 1], &h->v[l]))
			best = l + 1;
		if (!ent_less(&h->v[best], &e))
			break;
		heap_set(h, i, &h->v[best]);
		i = best;
	}
	heap_set(h, i, &e);
}

/* @bg's index in the heap, or UINT32_MAX when it is not a member (its
 * clean_idx[slot] may hold another heap's id). */
static uint32_t heap_index(const struct fsc_heap *h, const struct fsc_bg *bg)
{
	uint32_t id = bg->clean_idx[h->slot], i;

	if (id >= h->nr_ids)
		return UINT32_MAX;
	i = h->pos[id];
	return i < h->nr && h->v[i].bg == bg ? i : UINT32_MAX;
}

int fsc_heap_push(struct fsc_heap *h, struct fsc_bg *bg)
{
	struct fsc_heap_ent *v = fsc_grow(h->v, &h->cap, h->nr, sizeof(*h->v)), e = { .bg = bg };
	uint32_t *f;

	if (!v)
		return -ENOMEM;
	h->v = v;
	/* room for the id's return to the free list, taken now: del cannot fail */
	f = fsc_grow(h->free_ids, &h->cap_free_ids, h->nr_ids, sizeof(*h->free_ids));
	if (!f)
		return -ENOMEM;
	h->free_ids = f;
	if (h->nr_free_ids) {
		e.id = h->free_ids[--h->nr_free_ids];
	} else {
		uint32_t *p = fsc_grow(h->pos, &h->cap_ids, h->nr_ids, sizeof(*h->pos));

		if (!p)
			return -ENOMEM;
		h->pos = p;
		e.id = h->nr_ids++;
	}
	bg->clean_idx[h->slot] = e.id;
	h->key(bg, e.k);
	heap_set(h, h->nr++, &e);
	sift_up(h, h->nr - 1);
	return 0;
}

void fsc_heap_del(struct fsc_heap *h, struct fsc_bg *bg)
{
	uint32_t i = heap_index(h, bg);

	if (i == UINT32_MAX)
		return;
	h->pos[h->v[i].id] = UINT32_MAX;
	h->free_ids[h->nr_free_ids++] = h->v[i].id;
	if (i == --h->nr)
		return;
	heap_set(h, i, &h->v[h->nr]);
	if (i && ent_less(&h->v[i], &h->v[(i - 1) / 2]))
		sift_up(h, i);
	else
		sift_down(h, i);
}

void fsc_heap_fix(struct fsc_heap *h, struct fsc_bg *bg)
{
	uint32_t i = heap_index(h, bg);
	struct fsc_heap_ent old;

	if (i == UINT32_MAX)
		return;
	old = h->v[i];
	h->key(bg, h->v[i].k);
	/* only the way the key moved: a smaller key never goes down, so its
	 * children (two more misses deep in the heap) are not read */
	if (ent_less(&h->v[i], &old)) {
		if (i && ent_less(&h->v[i], &h->v[(i - 1) / 2]))
			sift_up(h, i);
	} else if (ent_less(&old, &h->v[i])) {
		sift_down(h, i);
	}
}

void fsc_heap_fini(struct fsc_heap *h)
{
	free(h->v);
	free(h->pos);
	free(h->free_ids);
	h->v = NULL;
	h->pos = h->free_ids = NULL;
	h->nr = h->cap = h->nr_ids = h->cap_ids = h->nr_free_ids = h->cap_free_ids = 0;
}

/* ---- orders shared by the policies ---- */

bool fsc_clean_older(const struct fsc_bg *a, const struct fsc_bg *b)
{
	return a->seq < b->seq;
}

bool fsc_clean_emptier(const struct fsc_bg *a, const struct fsc_bg *b)
{
	return a->used_bytes < b->used_bytes || (a->used_bytes == b->used_bytes && a->seq < b->seq);
}

void fsc_clean_key_older(const struct fsc_bg *bg, uint64_t k[2])
{
	k[0] = bg->seq;
	k[1] = 0;
}

void fsc_clean_key_emptier(const struct fsc_bg *bg, uint64_t k[2])
{
	k[0] = bg->used_bytes;
	k[1] = bg->seq;
}

struct fsc_bg *fsc_clean_scan_min(struct fsc_bg *const *bgs, uint32_t nr,
				  bool (*less)(const struct fsc_bg *, const struct fsc_bg *))
{
	struct fsc_bg *best = NULL;
	uint32_t i;

	for (i = 0; i < nr; i++)
		if (!best || less(bgs[i], best))
			best = bgs[i];
	return best;
}
