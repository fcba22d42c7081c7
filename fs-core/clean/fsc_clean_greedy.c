/*
 * fsc_clean_greedy.c — greedy victim selection: the candidate with the
 * fewest live bytes, ties to the oldest (seq).  Built on the score
 * machinery (fsc_clean_score.c, which holds greedy's score ops, shared with
 * btrfs): classes of equal live bytes, each a heap by seq with lazy
 * deletion, score = -live; an overwrite moves a block group one class down
 * with one push, O(log n), and no read deep in a heap of every candidate.
 * Same choice as the scan of every block group.
 */
#include "fsc_clean_int.h"

static int greedy_init(struct fsc_clean *c)
{
	return fsc_score_init(c, &fsc_score_greedy_ops);
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
	FSC_SCORE_CLEAN_OPS,
	.pick = fsc_score_pick,
	.pick_scan = greedy_pick_scan,
};
