/*
 * fsc_clean_cat.c — cost-age-times (Chiang, Lee & Chang 1999): clean the
 * candidate with the lowest u / (1 - u) * 1 / age * times, i.e. the highest
 * (1 - u) * age / (u * (1 + erases)); u = live bytes / block group length,
 * age = user bytes written since it was sealed, erases = resets of its first zone before it was
 * created (the wear term; times = 1 + erases so a new zone counts once).
 * u = 0 scores infinite.  Ties: the oldest.  Classes of equal (u, erases)
 * (fsc_clean_score.c): amortised O(distinct erase counts) per write.
 */
#include <math.h>

#include "fsc_clean_int.h"

static void cat_key(const struct fsc_bg *bg, uint64_t key[2])
{
	key[0] = bg->used_bytes;
	key[1] = bg->len_bytes | (uint64_t)bg->erases << 48;
}

#define CAT_LEN_MASK ((1ULL << 48) - 1)

static double cat_score(const uint64_t key[2], uint64_t age)
{
	double u = (double)key[0] / (double)(key[1] & CAT_LEN_MASK);

	if (!key[0])
		return INFINITY;
	return (1 - u) * (double)age / (u * (1.0 + (double)(key[1] >> 48)));
}

static const struct fsc_score_ops cat_score_ops = { cat_key, cat_score, false };

static int cat_init(struct fsc_clean *c)
{
	return fsc_score_init(c, &cat_score_ops);
}

const struct fsc_clean_ops fsc_clean_cat_ops = {
	.name = "cat",
	.params = "",
	.init = cat_init,
	FSC_SCORE_CLEAN_OPS,
	.pick = fsc_score_pick,
	.pick_scan = fsc_score_pick_scan,
};
