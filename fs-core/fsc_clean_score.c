/*
 * fsc_clean_score.c — the machinery of the score policies (cost-benefit,
 * CAT; fsc_int.h: struct fsc_score_ops): candidates in classes of equal
 * score factor (an open-addressing hash from the class key), each class a
 * heap oldest-first, a list of the non-empty classes for the pick.  Not a
 * policy itself.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fsc_int.h"

/* oldest sealed first (ties: created first) */
static void key_age(const struct fsc_bg *bg, uint64_t k[2])
{
	k[0] = bg->done_clock;
	k[1] = bg->seq;
}

struct klass {
	uint64_t key[2];
	struct fsc_heap h;
	uint32_t live_pos;        /* in live[] while non-empty */
	bool used;
};

struct score {
	const struct fsc_score_ops *ops;
	struct klass *cls;
	uint32_t nr_cls, cap_cls;
	uint32_t *free_cls;       /* recycled class slots */
	uint32_t nr_free, cap_free;
	uint32_t *hash;           /* class index + 1, 0 = empty; power-of-two size */
	uint32_t hash_cap, hash_nr;
	uint32_t *live;           /* non-empty classes */
	uint32_t nr_live, cap_live;
};

static uint32_t hkey(const uint64_t k[2], uint32_t cap)
{
	uint64_t h = k[0] * 0x9e3779b97f4a7c15ULL ^ (k[1] + 0x632be59bd9b4e019ULL) * 0xbf58476d1ce4e5b9ULL;

	return (uint32_t)(h ^ (h >> 29)) & (cap - 1);
}

static int rehash(struct score *s, uint32_t cap)
{
	uint32_t *h = calloc(cap, sizeof(*h)), i;

	if (!h)
		return -ENOMEM;
	for (i = 0; i < s->nr_cls; i++) {
		uint32_t j;

		if (!s->cls[i].used)
			continue;
		for (j = hkey(s->cls[i].key, cap); h[j]; j = (j + 1) & (cap - 1))
			;
		h[j] = i + 1;
	}
	free(s->hash);
	s->hash = h;
	s->hash_cap = cap;
	return 0;
}

static uint32_t *slot_of(struct score *s, const uint64_t k[2])
{
	uint32_t j;

	for (j = hkey(k, s->hash_cap); s->hash[j]; j = (j + 1) & (s->hash_cap - 1)) {
		const struct klass *c = &s->cls[s->hash[j] - 1];

		if (c->key[0] == k[0] && c->key[1] == k[1])
			return &s->hash[j];
	}
	return &s->hash[j];
}

/* Linear probing without tombstones: shift the cluster back. */
static void hash_del(struct score *s, uint32_t *slot)
{
	uint32_t mask = s->hash_cap - 1, i = (uint32_t)(slot - s->hash), j = i;

	s->hash[i] = 0;
	for (;;) {
		uint32_t home;

		j = (j + 1) & mask;
		if (!s->hash[j])
			break;
		home = hkey(s->cls[s->hash[j] - 1].key, s->hash_cap);
		/* move j to i if its home is not in (i, j] */
		if (i <= j ? (home <= i || home > j) : (home <= i && home > j)) {
			s->hash[i] = s->hash[j];
			s->hash[j] = 0;
			i = j;
		}
	}
	s->hash_nr--;
}

static int class_get(struct score *s, const uint64_t k[2], uint32_t *out)
{
	uint32_t *slot, idx;
	struct klass *c;

	if ((s->hash_nr + 1) * 2 > s->hash_cap && rehash(s, s->hash_cap ? s->hash_cap * 2 : 64))
		return -ENOMEM;
	slot = slot_of(s, k);
	if (*slot) {
		*out = *slot - 1;
		return 0;
	}
	if (s->nr_free) {
		idx = s->free_cls[--s->nr_free];
	} else {
		struct klass *v = fsc_grow(s->cls, &s->cap_cls, s->nr_cls, sizeof(*s->cls));

		if (!v)
			return -ENOMEM;
		s->cls = v;
		idx = s->nr_cls++;
	}
	c = &s->cls[idx];
	memset(c, 0, sizeof(*c));
	c->key[0] = k[0];
	c->key[1] = k[1];
	c->h.slot = 0;
	c->h.key = key_age;
	c->used = true;
	*slot = idx + 1;
	s->hash_nr++;
	*out = idx;
	return 0;
}

static void class_put(struct score *s, uint32_t idx)
{
	struct klass *c = &s->cls[idx];
	uint32_t *f;

	fsc_heap_fini(&c->h);
	hash_del(s, slot_of(s, c->key));
	c->used = false;
	f = fsc_grow(s->free_cls, &s->cap_free, s->nr_free, sizeof(*s->free_cls));
	if (f) {
		s->free_cls = f;
		s->free_cls[s->nr_free++] = idx;
	}  /* else: the slot is not reused, nothing breaks */
}

int fsc_score_init(struct fsc_clean *c, const struct fsc_score_ops *ops)
{
	struct score *s = calloc(1, sizeof(*s));

	if (!s)
		return -ENOMEM;
	s->ops = ops;
	c->priv = s;
	return 0;
}

void fsc_score_fini(struct fsc_clean *c)
{
	struct score *s = c->priv;
	uint32_t i;

	if (!s)
		return;
	for (i = 0; i < s->nr_cls; i++)
		fsc_heap_fini(&s->cls[i].h);
	free(s->cls);
	free(s->free_cls);
	free(s->hash);
	free(s->live);
	free(s);
	c->priv = NULL;
}

int fsc_score_add(struct fsc_clean *c, struct fsc_bg *bg)
{
	struct score *s = c->priv;
	uint64_t k[2];
	uint32_t idx, *lv;
	struct klass *kl;
	int ret;

	s->ops->key(bg, k);
	ret = class_get(s, k, &idx);
	if (ret)
		return ret;
	kl = &s->cls[idx];
	if (!kl->h.nr) {
		lv = fsc_grow(s->live, &s->cap_live, s->nr_live, sizeof(*s->live));
		if (!lv) {
			class_put(s, idx);
			return -ENOMEM;
		}
		s->live = lv;
		kl->live_pos = s->nr_live;
		s->live[s->nr_live++] = idx;
	}
	ret = fsc_heap_push(&kl->h, bg);
	if (ret) {
		if (!kl->h.nr) {
			s->live[kl->live_pos] = s->live[--s->nr_live];
			s->cls[s->live[kl->live_pos]].live_pos = kl->live_pos;
			class_put(s, idx);
		}
		return ret;
	}
	bg->clean_idx[1] = idx;
	return 0;
}

void fsc_score_remove(struct fsc_clean *c, struct fsc_bg *bg)
{
	struct score *s = c->priv;
	uint32_t idx = bg->clean_idx[1];
	struct klass *kl = &s->cls[idx];

	fsc_heap_del(&kl->h, bg);
	if (kl->h.nr)
		return;
	s->live[kl->live_pos] = s->live[--s->nr_live];
	s->cls[s->live[kl->live_pos]].live_pos = kl->live_pos;
	class_put(s, idx);
}

void fsc_score_update(struct fsc_clean *c, struct fsc_bg *bg, uint64_t old_used)
{
	(void)old_used;
	fsc_score_remove(c, bg);
	if (fsc_score_add(c, bg))
		c->broken = true;  /* out of memory: picks scan from now on */
}

void fsc_score_prefetch(const struct fsc_clean *c, const struct fsc_bg *bg)
{
	const struct score *s = c->priv;

	if (bg->clean_idx[1] < s->nr_cls)
		fsc_heap_prefetch(&s->cls[bg->clean_idx[1]].h, bg);
}

static bool better(double sa, uint64_t seq_a, double sb, uint64_t seq_b, bool have_b)
{
	return !have_b || sa > sb || (sa == sb && seq_a < seq_b);
}

/* The best class top, from the heap entries' keys (sealed clock, seq) and
 * the class keys: no block group is read. */
struct fsc_bg *fsc_score_pick(struct fsc_clean *c, uint64_t now_ns)
{
	struct score *s = c->priv;
	const struct fsc_heap_ent *best = NULL;
	double bs = 0;
	uint32_t i;

	for (i = 0; i < s->nr_live; i++) {
		const struct klass *kl = &s->cls[s->live[i]];
		const struct fsc_heap_ent *top = &kl->h.v[0];
		double sc = s->ops->score(kl->key, now_ns > top->k[0] ? now_ns - top->k[0] : 0);

		if (better(sc, top->k[1], bs, best ? best->k[1] : 0, best)) {
			best = top;
			bs = sc;
		}
	}
	return best ? best->bg : NULL;
}

struct fsc_bg *fsc_score_pick_scan(struct fsc_clean *c, struct fsc_bg *const *bgs, uint32_t nr,
				   uint64_t now_ns)
{
	struct score *s = c->priv;
	struct fsc_bg *best = NULL;
	double bs = 0;
	uint32_t i;

	for (i = 0; i < nr; i++) {
		uint64_t k[2];
		double sc;

		s->ops->key(bgs[i], k);
		sc = s->ops->score(k, fsc_bg_age(bgs[i], now_ns));
		if (better(sc, bgs[i]->seq, bs, best ? best->seq : 0, best)) {
			best = bgs[i];
			bs = sc;
		}
	}
	return best;
}
