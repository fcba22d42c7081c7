/*
 * fsc_clean_int.h — the cleaning room's private header (fs-core/clean/):
 * what the policies share (the indexed heap, the shared orders, the score
 * machinery: fsc_clean_heap.c, fsc_clean_score.c), the policies' ops as the
 * registry (fsc_clean.c) lists them, and the registry's binding of the
 * configured policy to a file system, which fs-core's entry (fs-core/fsc.c)
 * calls.  The types the core keeps of a policy (struct fsc_clean_ops,
 * struct fsc_clean, struct fsc_heap) are in fsc_int.h: the core calls a
 * policy only through its ops, never by name, and includes nothing here.
 *
 * Layers, each calling only the ones after it: registry (fsc_clean.c) ->
 * policies (fsc_clean_<name>.c) -> machinery (fsc_clean_heap.c,
 * fsc_clean_score.c) -> the fs-core core (fsc_int.h).
 */
#ifndef FSC_CLEAN_INT_H
#define FSC_CLEAN_INT_H

#include "fsc_int.h"

/* ---- registry (fsc_clean.c) ---- */

/* One per policy file, listed in the registry's table. */
extern const struct fsc_clean_ops fsc_clean_fifo_ops, fsc_clean_greedy_ops,
	fsc_clean_cost_benefit_ops, fsc_clean_cat_ops, fsc_clean_dchoices_ops,
	fsc_clean_windowed_ops, fsc_clean_btrfs_ops;

/*
 * fsc_clean_init() - bind cfg.clean (with cfg.clean_params and the policy's
 * own random stream from cfg.seed) to @fs: 0, -EINVAL (bad parameters) or
 * the policy's init error.  fsc_clean_fini() - undo it (also after a failed
 * or no init).  fs-core's entry (fsc.c) calls them; the core does not.
 */
int fsc_clean_init(struct fsc *fs);
void fsc_clean_fini(struct fsc *fs);

/* ---- the indexed heap and the shared orders (fsc_clean_heap.c) ---- */

int fsc_heap_push(struct fsc_heap *h, struct fsc_bg *bg);
void fsc_heap_del(struct fsc_heap *h, struct fsc_bg *bg);
void fsc_heap_fix(struct fsc_heap *h, struct fsc_bg *bg);  /* its key changed */
static inline struct fsc_bg *fsc_heap_top(const struct fsc_heap *h)
{
	return h->nr ? h->v[0].bg : NULL;
}
void fsc_heap_fini(struct fsc_heap *h);
/* Start loading @bg's entry and the two above it (what a re-key reads). */
static inline void fsc_heap_prefetch(const struct fsc_heap *h, const struct fsc_bg *bg)
{
	uint32_t id = bg->clean_idx[h->slot], i, k;

	if (id >= h->nr_ids)
		return;
	for (i = h->pos[id], k = 0; k < 3 && i < h->nr; k++, i = (i - 1) / 2) {
		__builtin_prefetch(&h->v[i], 1);
		if (!i)
			break;
	}
}

/* Orders shared by several policies: (seq), (used, seq). */
bool fsc_clean_older(const struct fsc_bg *a, const struct fsc_bg *b);
bool fsc_clean_emptier(const struct fsc_bg *a, const struct fsc_bg *b);
/* The same orders as heap keys: (seq) and (live bytes, seq). */
void fsc_clean_key_older(const struct fsc_bg *bg, uint64_t k[2]);
void fsc_clean_key_emptier(const struct fsc_bg *bg, uint64_t k[2]);
/* Among a scan's candidates: the least by @less, or NULL. */
struct fsc_bg *fsc_clean_scan_min(struct fsc_bg *const *bgs, uint32_t nr,
				  bool (*less)(const struct fsc_bg *, const struct fsc_bg *));

/* ---- the score machinery (fsc_clean_score.c) ---- */

/*
 * Score policies (cost-benefit, CAT): score = f(class) * age, age = now -
 * done_clock.  Candidates are grouped in classes of equal f (@key: e.g. live
 * bytes and length); inside a class the best is the oldest (a heap on
 * done_clock, seq), so a pick compares one head per non-empty class: at most
 * min(n, distinct keys) (live bytes take at most Np + 1 values), and picks
 * happen once per block group freed: amortised O(1) per write.
 */
struct fsc_score_ops {
	void (*key)(const struct fsc_bg *bg, uint64_t key[2]);
	/* higher = better; from the class key and the age alone, so a pick
	 * reads no block group */
	double (*score)(const uint64_t key[2], uint64_t age);
	bool by_seq;              /* a class's heap by seq alone (greedy), else sealed clock, seq */
};
int fsc_score_init(struct fsc_clean *c, const struct fsc_score_ops *ops);
void fsc_score_fini(struct fsc_clean *c);
int fsc_score_add(struct fsc_clean *c, struct fsc_bg *bg);
void fsc_score_remove(struct fsc_clean *c, struct fsc_bg *bg);
void fsc_score_update(struct fsc_clean *c, struct fsc_bg *bg, uint64_t old_used);
void fsc_score_prefetch(const struct fsc_clean *c, const struct fsc_bg *bg);
/* The members every policy built on the score machinery shares. */
#define FSC_SCORE_CLEAN_OPS						\
	.fini = fsc_score_fini, .add = fsc_score_add, .remove = fsc_score_remove, \
	.update = fsc_score_update, .prefetch = fsc_score_prefetch
/* Greedy as a score policy (fewest live bytes, ties oldest): greedy, btrfs
 * (fsc_clean_score.c). */
extern const struct fsc_score_ops fsc_score_greedy_ops;
struct fsc_bg *fsc_score_pick(struct fsc_clean *c, uint64_t now_ns);
struct fsc_bg *fsc_score_pick_scan(struct fsc_clean *c, struct fsc_bg *const *bgs, uint32_t nr,
				   uint64_t now_ns);
/* Age: user bytes written since @bg was sealed (@now = fs->st.user_bytes):
 * a logical clock, the same whatever the device timing. */
static inline uint64_t fsc_bg_age(const struct fsc_bg *bg, uint64_t now)
{
	return now > bg->done_clock ? now - bg->done_clock : 0;
}

#endif /* FSC_CLEAN_INT_H */
