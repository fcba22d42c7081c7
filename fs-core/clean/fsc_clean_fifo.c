/*
 * fsc_clean_fifo.c — FIFO victim selection: the oldest candidate (creation
 * order, the block group's seq).  A min-heap on seq: O(log n) per change.
 * Same choice as the scan of every block group before the policy table.
 */
#include "fsc_clean_int.h"

static int fifo_init(struct fsc_clean *c)
{
	c->heap[0].slot = 0;
	c->heap[0].key = fsc_clean_key_older;
	return 0;
}

static int fifo_add(struct fsc_clean *c, struct fsc_bg *bg)
{
	return fsc_heap_push(&c->heap[0], bg);
}

static void fifo_remove(struct fsc_clean *c, struct fsc_bg *bg)
{
	fsc_heap_del(&c->heap[0], bg);
}

static struct fsc_bg *fifo_pick(struct fsc_clean *c, uint64_t now_ns)
{
	(void)now_ns;
	return fsc_heap_top(&c->heap[0]);
}

static struct fsc_bg *fifo_pick_scan(struct fsc_clean *c, struct fsc_bg *const *bgs, uint32_t nr,
				     uint64_t now_ns)
{
	(void)c;
	(void)now_ns;
	return fsc_clean_scan_min(bgs, nr, fsc_clean_older);
}

const struct fsc_clean_ops fsc_clean_fifo_ops = {
	.name = "fifo",
	.params = "",
	.init = fifo_init,
	.add = fifo_add,
	.remove = fifo_remove,
	.pick = fifo_pick,
	.pick_scan = fifo_pick_scan,
};
