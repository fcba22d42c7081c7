/*
 * fsc_clean_dchoices.c — d-choices victim selection: sample d candidates
 * uniformly (with replacement, or without: a partial Fisher-Yates over the
 * candidate array), take the emptiest (ties: the oldest).  d = 1 is random
 * selection (WA = 1/(1-u) for large Np).  The candidates live in an array
 * (swap-remove), so a sample is O(d), a change O(1).  The generator is
 * fs-core's own stream from the run's seed (cfg.seed): deterministic.
 */
#include "fsc_clean_int.h"

static int dc_add(struct fsc_clean *c, struct fsc_bg *bg)
{
	struct fsc_bg **v = fsc_grow(c->arr, &c->cap, c->nr, sizeof(*c->arr));

	if (!v)
		return -ENOMEM;
	c->arr = v;
	bg->clean_idx[0] = c->nr;
	c->arr[c->nr++] = bg;
	return 0;
}

static void dc_remove(struct fsc_clean *c, struct fsc_bg *bg)
{
	uint32_t i = bg->clean_idx[0];

	if (i >= c->nr || c->arr[i] != bg)
		return;
	c->arr[i] = c->arr[--c->nr];
	c->arr[i]->clean_idx[0] = i;
}

static void swap(struct fsc_clean *c, uint32_t i, uint32_t j)
{
	struct fsc_bg *t = c->arr[i];

	c->arr[i] = c->arr[j];
	c->arr[j] = t;
	c->arr[i]->clean_idx[0] = i;
	c->arr[j]->clean_idx[0] = j;
}

static struct fsc_bg *dc_pick(struct fsc_clean *c, uint64_t now_ns)
{
	struct fsc_bg *best = NULL, *b;
	uint32_t i, k = c->p.d;

	(void)now_ns;
	if (!c->nr)
		return NULL;
	if (!c->p.replace && k > c->nr)
		k = c->nr;
	for (i = 0; i < k; i++) {
		if (c->p.replace) {
			b = c->arr[zl_rng_below(&c->rng, c->nr)];
		} else {
			swap(c, i, i + (uint32_t)zl_rng_below(&c->rng, c->nr - i));
			b = c->arr[i];
		}
		if (!best || fsc_clean_emptier(b, best))
			best = b;
	}
	return best;
}

const struct fsc_clean_ops fsc_clean_dchoices_ops = {
	.name = "d-choices",
	.params = "d=1..1024 (candidates, default 2), replace=0|1 (default 0)",
	.add = dc_add,
	.remove = dc_remove,
	.pick = dc_pick,
	.pick_scan = NULL,  /* random: no scan reference */
};
