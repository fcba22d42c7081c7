/*
 * fsc_clean_score.c — the machinery of the score policies (greedy, btrfs,
 * cost-benefit, CAT; fsc_clean_int.h: struct fsc_score_ops): candidates in
 * classes of equal score factor (an open-addressing hash from the class
 * key), each class a heap oldest-first, a list of the non-empty classes for
 * the pick; and greedy's score ops, which greedy and btrfs share.  Not a
 * policy itself.
 *
 * The heaps delete lazily.  Every overwrite moves a candidate to the class
 * of one unit less; instead of taking its entry out of the old heap (a miss
 * at a random position and a sift, at 100,000 block groups), the entry is
 * made stale: each candidate has an id whose generation is in the entry,
 * and removing or moving it bumps the generation.  A pick pops the stale
 * tops it meets; when stale entries outnumber the live ones (plus a margin)
 * every heap is filtered and rebuilt, so memory stays within twice the
 * live entries and each entry is popped or dropped once: amortised O(1)
 * per change, on top of the O(log n) push.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fsc_clean_int.h"

/* A heap entry: the order (sealed clock, then seq) and whether it is still
 * its candidate's entry (gen = the id's generation). */
struct lent {
	uint64_t clock, seq;
	struct fsc_bg *bg;
	uint32_t id, gen;
};

struct lheap {
	struct lent *v;
	uint32_t nr, cap;
};

struct klass {
	uint64_t key[2];
	struct lheap h;
	uint32_t live_pos;        /* in live[] while its heap is not empty */
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
	uint32_t *live;           /* classes with a non-empty heap */
	uint32_t nr_live, cap_live;
	/* candidate ids (bg->clean_idx[0]; the class is clean_idx[1]) */
	uint32_t *gen;            /* per id: the generation of its live entry */
	uint32_t nr_ids, cap_ids;
	uint32_t *free_ids;
	uint32_t nr_free_ids, cap_free_ids;
	uint64_t nr_valid, nr_stale;
};

#define STALE_MARGIN 64u  /* rebuild when stale > live + this */

static inline bool lent_less(const struct lent *a, const struct lent *b)
{
	return a->clock < b->clock || (a->clock == b->clock && a->seq < b->seq);
}

static void lheap_sift_down(struct lheap *h, uint32_t i)
{
	struct lent e = h->v[i];

	for (;;) {
		uint32_t l = 2 * i + 1, best = l;

		if (l >= h->nr)
			break;
		if (l + 1 < h->nr && lent_less(&h->v[l + 1], &h->v[l]))
			best = l + 1;
		if (!lent_less(&h->v[best], &e))
			break;
		h->v[i] = h->v[best];
		i = best;
	}
	h->v[i] = e;
}

static int lheap_push(struct lheap *h, const struct lent *e)
{
	struct lent *v = fsc_grow(h->v, &h->cap, h->nr, sizeof(*h->v));
	uint32_t i;

	if (!v)
		return -ENOMEM;
	h->v = v;
	for (i = h->nr++; i; ) {
		uint32_t parent = (i - 1) / 2;

		if (!lent_less(e, &h->v[parent]))
			break;
		h->v[i] = h->v[parent];
		i = parent;
	}
	h->v[i] = *e;
	return 0;
}

static void lheap_pop(struct lheap *h)
{
	if (!h->nr)
		return;
	h->v[0] = h->v[--h->nr];
	if (h->nr)
		lheap_sift_down(h, 0);
}

static inline bool lent_live(const struct score *s, const struct lent *e)
{
	return s->gen[e->id] == e->gen;
}

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

	free(c->h.v);
	c->h.v = NULL;
	c->h.nr = c->h.cap = 0;
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
		free(s->cls[i].h.v);
	free(s->cls);
	free(s->gen);
	free(s->free_ids);
	free(s->free_cls);
	free(s->hash);
	free(s->live);
	free(s);
	c->priv = NULL;
}

/* @idx leaves the live list (its heap is empty) and is freed. */
static void class_drop(struct score *s, uint32_t idx)
{
	struct klass *kl = &s->cls[idx];

	s->live[kl->live_pos] = s->live[--s->nr_live];
	s->cls[s->live[kl->live_pos]].live_pos = kl->live_pos;
	class_put(s, idx);
}

/* An entry for @bg (id @id) in the class of its key. */
static int entry_push(struct score *s, struct fsc_bg *bg, uint32_t id)
{
	struct lent e = { s->ops->by_seq ? 0 : bg->done_clock, bg->seq, bg, id, s->gen[id] };
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
	ret = lheap_push(&kl->h, &e);
	if (ret) {
		if (!kl->h.nr)
			class_drop(s, idx);
		return ret;
	}
	bg->clean_idx[1] = idx;
	return 0;
}

/* Drop every stale entry and rebuild the heaps (Floyd), once stale ones
 * outnumber the live ones by the margin. */
static void compact(struct score *s)
{
	uint32_t i, j, n;

	if (s->nr_stale <= s->nr_valid + STALE_MARGIN)
		return;
	for (i = 0; i < s->nr_live; ) {
		uint32_t idx = s->live[i];
		struct lheap *h = &s->cls[idx].h;

		for (j = n = 0; j < h->nr; j++)
			if (lent_live(s, &h->v[j]))
				h->v[n++] = h->v[j];
		h->nr = n;
		if (!n) {
			class_drop(s, idx);  /* another class moves to live[i] */
			continue;
		}
		for (j = n / 2; j-- > 0; )
			lheap_sift_down(h, j);
		i++;
	}
	s->nr_stale = 0;
}

int fsc_score_add(struct fsc_clean *c, struct fsc_bg *bg)
{
	struct score *s = c->priv;
	bool fresh = !s->nr_free_ids;
	uint32_t id;
	int ret;

	if (!fresh) {
		id = s->free_ids[--s->nr_free_ids];
	} else {
		uint32_t *g = fsc_grow(s->gen, &s->cap_ids, s->nr_ids, sizeof(*s->gen));

		if (!g)
			return -ENOMEM;
		s->gen = g;
		id = s->nr_ids++;
		s->gen[id] = 0;
	}
	ret = entry_push(s, bg, id);
	if (ret) {
		if (fresh)
			s->nr_ids--;
		else
			s->free_ids[s->nr_free_ids++] = id;  /* back where it came from */
		return ret;
	}
	bg->clean_idx[0] = id;
	s->nr_valid++;
	return 0;
}

void fsc_score_remove(struct fsc_clean *c, struct fsc_bg *bg)
{
	struct score *s = c->priv;
	uint32_t id = bg->clean_idx[0], *f;

	s->gen[id]++;  /* its entry is stale */
	s->nr_valid--;
	s->nr_stale++;
	f = fsc_grow(s->free_ids, &s->cap_free_ids, s->nr_free_ids, sizeof(*s->free_ids));
	if (f) {
		s->free_ids = f;
		s->free_ids[s->nr_free_ids++] = id;
	}  /* else: the id is not reused, nothing breaks */
	compact(s);
}

void fsc_score_update(struct fsc_clean *c, struct fsc_bg *bg, uint64_t old_used)
{
	struct score *s = c->priv;
	uint32_t id = bg->clean_idx[0];

	(void)old_used;
	s->gen[id]++;  /* the old entry is stale; a new one in the new class */
	s->nr_stale++;
	if (entry_push(s, bg, id)) {
		c->broken = true;  /* out of memory: picks scan from now on */
		return;
	}
	compact(s);
}

void fsc_score_prefetch(const struct fsc_clean *c, const struct fsc_bg *bg)
{
	const struct score *s = c->priv;

	if (bg->clean_idx[0] < s->nr_ids)
		__builtin_prefetch(&s->gen[bg->clean_idx[0]], 1);
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
	const struct lent *best = NULL;
	double bs = 0;
	uint32_t i;

	for (i = 0; i < s->nr_live; ) {
		uint32_t idx = s->live[i];
		struct klass *kl = &s->cls[idx];
		const struct lent *top;
		double sc;

		while (kl->h.nr && !lent_live(s, &kl->h.v[0])) {
			lheap_pop(&kl->h);
			s->nr_stale--;
		}
		if (!kl->h.nr) {
			class_drop(s, idx);  /* another class moves to live[i] */
			continue;
		}
		top = &kl->h.v[0];
		sc = s->ops->score(kl->key, now_ns > top->clock ? now_ns - top->clock : 0);
		if (better(sc, top->seq, bs, best ? best->seq : 0, best)) {
			best = top;
			bs = sc;
		}
		i++;
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

/* ---- greedy as a score policy (greedy, btrfs) ---- */

static void greedy_key(const struct fsc_bg *bg, uint64_t key[2])
{
	key[0] = bg->used_bytes;
	key[1] = bg->len_bytes;
}

static double greedy_score(const uint64_t key[2], uint64_t age)
{
	(void)age;
	return -(double)key[0];  /* exact below 2^53 bytes */
}

const struct fsc_score_ops fsc_score_greedy_ops = { greedy_key, greedy_score, true };
