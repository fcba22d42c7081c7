/*
 * fsc_clean_cost_benefit.c — LFS's cost-benefit victim selection
 * (Rosenblum & Ousterhout 1992): the candidate with the highest
 * (1 - u) * age / (1 + u), u = live bytes / block group length, age = now -
 * the time the block group was sealed (its last allocation).  Ties: the
 * oldest.  Scores move with time, so candidates are kept in classes of
 * equal u (fsc_clean_score.c): amortised O(1) per write.
 */
#include "fsc_clean_int.h"

static void cb_key(const struct fsc_bg *bg, uint64_t key[2])
{
	key[0] = bg->used_bytes;
	key[1] = bg->len_bytes;
}

static double cb_score(const uint64_t key[2], uint64_t age)
{
	double u = (double)key[0] / (double)key[1];

	return (1 - u) * (double)age / (1 + u);
}

static const struct fsc_score_ops cb_score_ops = { cb_key, cb_score, false };

static int cb_init(struct fsc_clean *c)
{
	return fsc_score_init(c, &cb_score_ops);
}

const struct fsc_clean_ops fsc_clean_cost_benefit_ops = {
	.name = "cost-benefit",
	.params = "",
	.init = cb_init,
	FSC_SCORE_CLEAN_OPS,
	.pick = fsc_score_pick,
	.pick_scan = fsc_score_pick_scan,
};
