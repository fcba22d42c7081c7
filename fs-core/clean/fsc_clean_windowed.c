/*
 * fsc_clean_windowed.c — windowed greedy: greedy (fewest live bytes, ties:
 * oldest) among the w oldest candidates (creation order).  Three heaps: the
 * window by (live, seq), the window youngest first (to push one out when an
 * older candidate arrives), the rest oldest first (to pull one in when the
 * window loses one).  Every change O(log n).
 */
#include <stdlib.h>
#include <string.h>

#include "fsc_clean_int.h"

enum { W_GREEDY = 0, W_YOUNG, REST };

/* youngest first: the greatest seq is the least key */
static void key_younger(const struct fsc_bg *bg, uint64_t k[2])
{
	k[0] = ~bg->seq;
	k[1] = 0;
}

static int win_init(struct fsc_clean *c)
{
	c->heap[W_GREEDY].slot = 0;
	c->heap[W_GREEDY].key = fsc_clean_key_emptier;
	c->heap[W_YOUNG].slot = 1;
	c->heap[W_YOUNG].key = key_younger;
	c->heap[REST].slot = 0;  /* never in W_GREEDY at the same time */
	c->heap[REST].key = fsc_clean_key_older;
	return 0;
}

static int win_in(struct fsc_clean *c, struct fsc_bg *bg)
{
	int ret = fsc_heap_push(&c->heap[W_GREEDY], bg);

	if (ret)
		return ret;
	ret = fsc_heap_push(&c->heap[W_YOUNG], bg);
	if (ret) {
		fsc_heap_del(&c->heap[W_GREEDY], bg);
		return ret;
	}
	bg->clean_where = 1;
	return 0;
}

static void win_out(struct fsc_clean *c, struct fsc_bg *bg)
{
	fsc_heap_del(&c->heap[W_GREEDY], bg);
	fsc_heap_del(&c->heap[W_YOUNG], bg);
	bg->clean_where = 0;
}

static int win_add(struct fsc_clean *c, struct fsc_bg *bg)
{
	struct fsc_bg *young = fsc_heap_top(&c->heap[W_YOUNG]);
	int ret;

	if (c->heap[W_YOUNG].nr < c->p.w)
		return win_in(c, bg);
	if (young && bg->seq < young->seq) {
		/* @bg is older than the window's youngest: it takes its place
		 * (out of the window first: REST shares heap slot 0) */
		win_out(c, young);
		ret = fsc_heap_push(&c->heap[REST], young);
		if (!ret) {
			ret = win_in(c, bg);
			if (!ret)
				return 0;
			fsc_heap_del(&c->heap[REST], young);
		}
		win_in(c, young);  /* put the window back as it was (room: just left) */
		return ret;
	}
	bg->clean_where = 0;
	return fsc_heap_push(&c->heap[REST], bg);
}

static void win_remove(struct fsc_clean *c, struct fsc_bg *bg)
{
	struct fsc_bg *next;

	if (!bg->clean_where) {
		fsc_heap_del(&c->heap[REST], bg);
		return;
	}
	win_out(c, bg);
	next = fsc_heap_top(&c->heap[REST]);
	if (next) {
		fsc_heap_del(&c->heap[REST], next);
		if (win_in(c, next))
			fsc_heap_push(&c->heap[REST], next);  /* it was there: room */
	}
}

static void win_update(struct fsc_clean *c, struct fsc_bg *bg, uint64_t old_used)
{
	(void)old_used;
	if (bg->clean_where)
		fsc_heap_fix(&c->heap[W_GREEDY], bg);
}

static struct fsc_bg *win_pick(struct fsc_clean *c, uint64_t now_ns)
{
	(void)now_ns;
	return fsc_heap_top(&c->heap[W_GREEDY]);
}

static int cmp_seq(const void *a, const void *b)
{
	const struct fsc_bg *x = *(struct fsc_bg *const *)a, *y = *(struct fsc_bg *const *)b;

	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static struct fsc_bg *win_pick_scan(struct fsc_clean *c, struct fsc_bg *const *bgs, uint32_t nr,
				    uint64_t now_ns)
{
	struct fsc_bg **v = malloc((nr + 1) * sizeof(*v)), *best;

	(void)now_ns;
	if (!v)
		return NULL;
	memcpy(v, bgs, nr * sizeof(*v));
	qsort(v, nr, sizeof(*v), cmp_seq);
	best = fsc_clean_scan_min(v, nr < c->p.w ? nr : c->p.w, fsc_clean_emptier);
	free(v);
	return best;
}

const struct fsc_clean_ops fsc_clean_windowed_ops = {
	.name = "windowed",
	.params = "w=1..1073741824 (the w oldest, default 16)",
	.init = win_init,
	.add = win_add,
	.remove = win_remove,
	.update = win_update,
	.pick = win_pick,
	.pick_scan = win_pick_scan,
};
