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

#include "fsc_int.h"

static void cat_key(const struct fsc_bg *bg, uint64_t key[2])
{
	key[0] = bg->used_bytes;
	key[1] = bg->len_bytes | (uint64_t)bg->erases << 48;
}

static double cat_score(const struct fsc_bg *bg, uint64_t now_ns)
{
	double u = (double)bg->used_bytes / (double)bg->len_bytes;

	if (!bg->used_bytes)
		return INFINITY;
	return (1 - u) * (double)fsc_bg_age(bg, now_ns) / (u * (1.0 + bg->erases));
}

static const struct fsc_score_ops cat_score_ops = { cat_key, cat_score };

static int cat_init(struct fsc_clean *c)
{
	return fsc_score_init(c, &cat_score_ops);
}

const struct fsc_clean_ops fsc_clean_cat_ops = {
	.name = "cat",
	.params = "",
	.init = cat_init,
	.fini = fsc_score_fini,
	.add = fsc_score_add,
	.remove = fsc_score_remove,
	.update = fsc_score_update,
	.pick = fsc_score_pick,
	.pick_scan = fsc_score_pick_scan,
};
