/*
 * fsc_clean_btrfs.c — upstream btrfs's reclaim (zoned, 5.13+: the
 * bg_reclaim_threshold sysfs knob, 75 by default in zoned mode): a block
 * group whose used bytes fall under threshold % of its length is queued
 * for relocation, and the queue is worked through fewest used bytes first
 * (reclaim_bgs_cmp).  Here: the emptiest candidate (ties: the oldest) if
 * it is under the threshold, else none.  When reclaim runs ("free space
 * runs low") is the caller's trigger, as for every policy.  Greedy's
 * structure (fsc_clean_greedy.c), the threshold checked on its pick.
 */
#include "fsc_clean_int.h"

static int btrfs_init(struct fsc_clean *c)
{
	return fsc_score_init(c, &fsc_score_greedy_ops);
}

static struct fsc_bg *under(const struct fsc_clean *c, struct fsc_bg *bg)
{
	if (!bg || bg->used_bytes * 100 >= (uint64_t)c->p.threshold_pct * bg->len_bytes)
		return NULL;
	return bg;
}

static struct fsc_bg *btrfs_pick(struct fsc_clean *c, uint64_t now_ns)
{
	return under(c, fsc_score_pick(c, now_ns));
}

static struct fsc_bg *btrfs_pick_scan(struct fsc_clean *c, struct fsc_bg *const *bgs,
				      uint32_t nr, uint64_t now_ns)
{
	(void)now_ns;
	return under(c, fsc_clean_scan_min(bgs, nr, fsc_clean_emptier));
}

const struct fsc_clean_ops fsc_clean_btrfs_ops = {
	.name = "btrfs",
	.params = "threshold=1..100 (used %, default 75)",
	.init = btrfs_init,
	FSC_SCORE_CLEAN_OPS,
	.pick = btrfs_pick,
	.pick_scan = btrfs_pick_scan,
};
