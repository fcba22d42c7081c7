/*
 * fsc_clean_greedy.c — greedy victim selection: the candidate with the
 * fewest live bytes, ties to the oldest (seq).  A min-heap on (live bytes,
 * seq): an overwrite re-keys one block group, O(log n).  Same choice as the
 * scan of every block group before the policy table.
 */
#include "fsc_int.h"

static int greedy_init(struct fsc_clean *c)
{
	c->heap[0].slot = 0;
	c->heap[0].key = fsc_clean_key_emptier;
	return 0;
}

static int greedy_add(struct fsc_clean *c, struct fsc_bg *bg)
{
	return fsc_heap_push(&c->heap[0], bg);
}

static void greedy_remove(struct fsc_clean *c, struct fsc_bg *bg)
{
	fsc_heap_del(&c->heap[0], bg);
}

static void greedy_update(struct fsc_clean *c, struct fsc_bg *bg, uint64_t old_used)
{
	(void)old_used;
	fsc_heap_fix(&c->heap[0], bg);
}

static void greedy_prefetch(const struct fsc_clean *c, const struct fsc_bg *bg)
{
	fsc_heap_prefetch(&c->heap[0], bg);
}

static struct fsc_bg *greedy_pick(struct fsc_clean *c, uint64_t now_ns)
{
	(void)now_ns;
	return fsc_heap_top(&c->heap[0]);
}

static struct fsc_bg *greedy_pick_scan(struct fsc_clean *c, struct fsc_bg *const *bgs,
				       uint32_t nr, uint64_t now_ns)
{
	(void)c;
	(void)now_ns;
	return fsc_clean_scan_min(bgs, nr, fsc_clean_emptier);
}

const struct fsc_clean_ops fsc_clean_greedy_ops = {
	.name = "greedy",
	.params = "",
	.init = greedy_init,
	.add = greedy_add,
	.remove = greedy_remove,
	.update = greedy_update,
	.prefetch = greedy_prefetch,
	.pick = greedy_pick,
	.pick_scan = greedy_pick_scan,
};
