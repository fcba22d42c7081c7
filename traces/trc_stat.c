/*
 * trc_stat.c — the workload descriptors of `zonelab trace stat`, computed
 * in one pass with memory that depends on the address range a trace
 * touches, not on its length:
 *   - footprint: distinct 4 KiB blocks read / written, as a bitmap (read) and counters (written) in leaves
 *     of 2^14 blocks (64 MiB of address space each, per device), allocated
 *     on first touch and found through a small hash of leaves;
 *   - write skew: a saturating 8-bit write counter per block of a written
 *     leaf (blocks written more than 254 times keep the rest of their count
 *     in an overflow table), so the hottest 1/10/20 % of written blocks and
 *     their share of block writes are exact;
 *   - inter-arrival times: analysis/'s log-linear histogram (ana_hist:
 *     percentiles within 3.2 %), the maximum exact.
 * A leaf costs 2 KiB of read bitmap plus 16 KiB of counters once written
 * (a non-zero counter is a written block), both from huge-page arenas.
 * Block updates are queued as keys and applied in batches sorted by
 * address (footprint()): scattered blocks of a large volume would each miss
 * the cache, a sorted batch sweeps the counters front to back.  It is not a
 * trace reader: records come from trc_reader_next().
 */
#include "trc.h"

#include "ana.h"
#include "trc_stat_mem.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#define BLK_SHIFT 12
#define LEAF_BITS 14
#define LEAF_BLKS (1u << LEAF_BITS)
#define LEAF_WORDS (LEAF_BLKS / 64)
#define MAX_REQ_BLKS (1u << 18)      /* footprint counts the first 1 GiB of a request */

const double trc_stat_pcts[TRC_NR_PCT] = { 50, 90, 95, 99, 99.9, 99.99, 100 };

struct leaf {
	uint64_t no;                 /* block >> LEAF_BITS */
	uint32_t dev;
	uint64_t *rd;                /* LEAF_WORDS: blocks read; written = cnt[] != 0 */
	uint8_t *cnt;                /* write counts 1-254; 255: 254 + the overflow entry's extra */
};

struct ovf {
	uint64_t blk;
	uint32_t dev;
	uint32_t used;
	uint64_t extra;              /* writes beyond 254 */
};

struct devst {
	uint32_t dev;
	uint32_t used;
	uint32_t idx;                /* order of first sight, from 0 (footprint keys) */
	bool have_end;
	uint64_t end;
};

/*
 * A piece of a request (the blocks [b, b + n] of one leaf of one device) is
 * queued as a 64-bit key, most significant first:
 *   device index (dbits) | b (bbits) | n (PIECE_BITS)
 * A full queue (NR_KEYS) is sorted on the bits above a cache line's own
 * (LSD radix; LINE is 6 for writes, 64 one-byte counters, and 9 for reads,
 * 512 bits) and applied in that order: each leaf is looked up once per run
 * of its keys, leaves are created in address order, and their counters
 * swept front to back instead of missed at random.  dbits and bbits grow
 * with the devices and blocks seen (the queue is applied first); a piece
 * whose key would not fit (more than 2^12 devices, or dbits + bbits past
 * 50) is applied at once.
 */
#define PIECE_BITS LEAF_BITS
#define NR_KEYS (256u << 10)
#define MAX_DBITS 12
#define MIN_BBITS 20

struct keyq {
	uint64_t *k;
	size_t n, cap;               /* cap doubles from 4 Ki up to NR_KEYS */
	uint64_t ored;               /* the keys queued ORed: its bit length is the largest key's */
	unsigned line;               /* LINE: 6 (writes) or 9 (reads) */
	unsigned dbits;              /* device index bits of the keys queued */
	unsigned bbits;              /* block number bits of the keys queued (at least MIN_BBITS) */
	bool wr;
};

/* A hash slot keeps the key beside the leaf pointer. */
struct slot {
	uint64_t no;
	uint32_t dev;
	struct leaf *l;
};

struct trc_stat {
	struct trc_stat_result r;
	struct trc_arena rd_arena, cnt_arena;
	struct slot *leaves;         /* open addressing */
	size_t nr_leaves, cap_leaves;
	struct slot *last;           /* cache: the slot of the last piece (NULL after a rehash) */
	struct ovf *ovf;
	size_t nr_ovf, cap_ovf;
	struct devst *devs;
	size_t nr_devs, cap_devs;
	struct devst *last_dev;      /* cache: the device of the last record */
	struct ana_hist iat;         /* inter-arrival times, ns */
	bool have_prev;
	uint64_t prev_ts;
	uint64_t mem;
	struct keyq wq, rq;          /* queued write and read pieces */
	uint64_t *tmp;               /* the radix sort's other half */
	size_t cap_tmp;
	uint32_t *dev_of;            /* device of each devst.idx */
	size_t cap_dev_of;
};

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	return x ^ (x >> 33);
}

int trc_stat_create(struct trc_stat **out)
{
	struct trc_stat *st = calloc(1, sizeof(*st));

	if (!st)
		return -ENOMEM;
	st->cap_leaves = 256;
	st->leaves = calloc(st->cap_leaves, sizeof(*st->leaves));
	st->cap_devs = 16;
	st->devs = calloc(st->cap_devs, sizeof(*st->devs));
	st->wq.bbits = MIN_BBITS;
	st->rq.bbits = MIN_BBITS;
	st->wq.line = 6;
	st->wq.wr = true;
	st->rq.line = 9;
	if (!st->leaves || !st->devs) {
		trc_stat_destroy(st);
		return -ENOMEM;
	}
	st->r.first_ns = UINT64_MAX;
	*out = st;
	return 0;
}

void trc_stat_destroy(struct trc_stat *st)
{
	if (!st)
		return;
	for (size_t i = 0; i < st->cap_leaves && st->leaves; i++)
		free(st->leaves[i].l);
	trc_arena_fini(&st->rd_arena);
	trc_arena_fini(&st->cnt_arena);
	free(st->wq.k);
	free(st->rq.k);
	free(st->tmp);
	free(st->dev_of);
	free(st->leaves);
	free(st->ovf);
	free(st->devs);
	free(st);
}

static int leaves_grow(struct trc_stat *st)
{
	size_t cap = st->cap_leaves * 2;
	struct slot *nl = calloc(cap, sizeof(*nl));

	if (!nl)
		return -ENOMEM;
	for (size_t i = 0; i < st->cap_leaves; i++) {
		struct slot *o = &st->leaves[i];
		size_t h;

		if (!o->l)
			continue;
		for (h = mix(o->no ^ (uint64_t)o->dev << 40) & (cap - 1); nl[h].l; h = (h + 1) & (cap - 1))
			;
		nl[h] = *o;
	}
	free(st->leaves);
	st->leaves = nl;
	st->mem += (cap - st->cap_leaves) * sizeof(*nl);
	st->last = NULL;
	st->cap_leaves = cap;
	return 0;
}

static struct slot *leaf_get(struct trc_stat *st, uint32_t dev, uint64_t no)
{
	struct slot *sl = st->last;
	struct leaf *l;
	size_t h;

	if (sl && sl->no == no && sl->dev == dev)
		return sl;
	for (h = mix(no ^ (uint64_t)dev << 40) & (st->cap_leaves - 1); st->leaves[h].l;
	     h = (h + 1) & (st->cap_leaves - 1))
		if (st->leaves[h].no == no && st->leaves[h].dev == dev)
			return st->last = &st->leaves[h];
	if ((st->nr_leaves + 1) * 2 > st->cap_leaves) {
		if (leaves_grow(st))
			return NULL;
		for (h = mix(no ^ (uint64_t)dev << 40) & (st->cap_leaves - 1); st->leaves[h].l;
		     h = (h + 1) & (st->cap_leaves - 1))
			;
	}
	l = calloc(1, sizeof(*l));
	if (!l)
		return NULL;
	l->rd = trc_arena_alloc(&st->rd_arena, LEAF_WORDS * sizeof(uint64_t), &st->mem);
	if (!l->rd) {
		free(l);
		return NULL;
	}
	l->no = no;
	l->dev = dev;
	st->leaves[h].no = no;
	st->leaves[h].dev = dev;
	st->leaves[h].l = l;
	st->nr_leaves++;
	st->mem += sizeof(*l);
	return st->last = &st->leaves[h];
}

static int ovf_add(struct trc_stat *st, uint32_t dev, uint64_t blk)
{
	size_t h;

	if ((st->nr_ovf + 1) * 2 > st->cap_ovf) {
		size_t cap = st->cap_ovf ? st->cap_ovf * 2 : 64;
		struct ovf *no = calloc(cap, sizeof(*no));

		if (!no)
			return -ENOMEM;
		for (size_t i = 0; i < st->cap_ovf; i++) {
			if (!st->ovf[i].used)
				continue;
			for (h = mix(st->ovf[i].blk ^ (uint64_t)st->ovf[i].dev << 52) & (cap - 1); no[h].used;
			     h = (h + 1) & (cap - 1))
				;
			no[h] = st->ovf[i];
		}
		free(st->ovf);
		st->mem += (cap - st->cap_ovf) * sizeof(*no);
		st->ovf = no;
		st->cap_ovf = cap;
	}
	for (h = mix(blk ^ (uint64_t)dev << 52) & (st->cap_ovf - 1); st->ovf[h].used; h = (h + 1) & (st->cap_ovf - 1))
		if (st->ovf[h].blk == blk && st->ovf[h].dev == dev) {
			st->ovf[h].extra++;
			return 0;
		}
	st->ovf[h].used = 1;
	st->ovf[h].blk = blk;
	st->ovf[h].dev = dev;
	st->ovf[h].extra = 1;
	st->nr_ovf++;
	return 0;
}

static struct devst *dev_get(struct trc_stat *st, uint32_t dev)
{
	size_t h;

	if ((st->nr_devs + 1) * 2 > st->cap_devs) {
		size_t cap = st->cap_devs * 2;
		struct devst *nd = calloc(cap, sizeof(*nd));

		if (!nd)
			return NULL;
		for (size_t i = 0; i < st->cap_devs; i++) {
			if (!st->devs[i].used)
				continue;
			for (h = mix(st->devs[i].dev) & (cap - 1); nd[h].used; h = (h + 1) & (cap - 1))
				;
			nd[h] = st->devs[i];
		}
		free(st->devs);
		st->last_dev = NULL;
		st->mem += (cap - st->cap_devs) * sizeof(*nd);
		st->devs = nd;
		st->cap_devs = cap;
	}
	for (h = mix(dev) & (st->cap_devs - 1); st->devs[h].used; h = (h + 1) & (st->cap_devs - 1))
		if (st->devs[h].dev == dev)
			return &st->devs[h];
	if (st->nr_devs == st->cap_dev_of) {
		size_t cap = st->cap_dev_of ? st->cap_dev_of * 2 : 16;
		uint32_t *n = realloc(st->dev_of, cap * sizeof(*n));

		if (!n)
			return NULL;
		st->dev_of = n;
		st->cap_dev_of = cap;
	}
	st->dev_of[st->nr_devs] = dev;
	st->devs[h].used = 1;
	st->devs[h].dev = dev;
	st->devs[h].idx = (uint32_t)st->nr_devs++;
	return &st->devs[h];
}

/* Set bits [i, j] of @w. */
static void set_bits(uint64_t *w, uint32_t i, uint32_t j)
{
	uint32_t wi = i / 64, wj = j / 64;
	uint64_t lo = ~0ull << (i % 64), hi = ~0ull >> (63 - j % 64);

	if (wi == wj) {
		w[wi] |= lo & hi;
		return;
	}
	w[wi] |= lo;
	for (uint32_t k = wi + 1; k < wj; k++)
		w[k] = ~0ull;
	w[wj] |= hi;
}

/* Blocks [i, i + n] of leaf @l read or written (its counters exist):
 * 0 or -ENOMEM. */
static int apply_piece(struct trc_stat *st, struct leaf *l, uint32_t i, uint32_t n, bool wr)
{
	uint8_t *c;

	if (!wr) {
		set_bits(l->rd, i, i + n);
		return 0;
	}
	c = l->cnt + i;
#ifdef __SSE2__
	/* up to 16 counters at once when none is about to saturate (the loop below
	 * is the general path; test_trc's reference test covers both) */
	if (n < 16 && i <= LEAF_BLKS - 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)c);
		__m128i m = _mm_cmpgt_epi8(_mm_set1_epi8((char)(n + 1)),
					   _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
		__m128i full = _mm_cmpeq_epi8(_mm_max_epu8(v, _mm_set1_epi8((char)254)), v);

		if (!_mm_movemask_epi8(_mm_and_si128(full, m))) {
			_mm_storeu_si128((__m128i *)c, _mm_sub_epi8(v, m));     /* m is -1 in the piece's bytes */
			return 0;
		}
	}
#endif
	for (uint32_t k = 0; k <= n; k++) {
		if (c[k] < 254) {
			c[k]++;
		} else {
			c[k] = 255;
			if (ovf_add(st, l->dev, (l->no << LEAF_BITS) | (i + k)))
				return -ENOMEM;
		}
	}
	return 0;
}

/* The leaf of @dev's block @blk, with counters if @wr; NULL on -ENOMEM. */
static struct leaf *leaf_for(struct trc_stat *st, uint32_t dev, uint64_t blk, bool wr)
{
	struct slot *sl = leaf_get(st, dev, blk >> LEAF_BITS);

	if (!sl)
		return NULL;
	if (wr && !sl->l->cnt) {
		sl->l->cnt = trc_arena_alloc(&st->cnt_arena, LEAF_BLKS, &st->mem);
		if (!sl->l->cnt)
			return NULL;
	}
	return sl->l;
}

#define AHEAD 16                     /* pieces looked up and prefetched before they are applied */

/*
 * Sort and apply the pieces queued in @q; 0 or -ENOMEM (the queue is
 * emptied).  Each piece's leaf is looked up and its line prefetched AHEAD
 * pieces before it is applied.
 */
static int keys_apply(struct trc_stat *st, struct keyq *q)
{
	unsigned lo = PIECE_BITS + q->line;
	uint64_t *k0 = q->k, l_no = 0;
	struct leaf *l = NULL;
	uint32_t l_di = 0;
	struct {
		struct leaf *l;
		uint32_t i, n;
	} ring[AHEAD];
	int ret = 0;

	if (st->cap_tmp < q->n) {            /* the other queue's sort may have left a smaller one */
		uint64_t *t = realloc(st->tmp, q->n * sizeof(*t));

		if (!t) {
			q->n = 0;
			return -ENOMEM;
		}
		st->mem += (q->n - st->cap_tmp) * sizeof(*t);
		st->tmp = t;
		st->cap_tmp = q->n;
	}
	trc_radix_sort(&q->k, &st->tmp, q->n, lo, trc_bit_len(q->ored));
	if (q->k != k0) {                    /* the buffers were swapped: their capacities too */
		size_t c = q->cap;

		q->cap = st->cap_tmp;
		st->cap_tmp = c;
	}
	for (size_t x = 0; x < q->n + AHEAD && !ret; x++) {
		if (x >= AHEAD) {
			unsigned y = (unsigned)(x - AHEAD) % AHEAD;

			ret = apply_piece(st, ring[y].l, ring[y].i, ring[y].n, q->wr);
		}
		if (x < q->n) {
			uint64_t key = q->k[x];
			uint64_t blk = (key >> PIECE_BITS) & ((1ull << q->bbits) - 1);
			uint32_t di = q->dbits ? (uint32_t)(key >> (PIECE_BITS + q->bbits)) : 0;   /* (a 64-bit shift is undefined) */
			unsigned y = (unsigned)x % AHEAD;

			/* sorted keys come in runs of one leaf */
			if (!l || blk >> LEAF_BITS != l_no || di != l_di) {
				l = leaf_for(st, st->dev_of[di], blk, q->wr);
				if (!l) {
					ret = -ENOMEM;
					break;
				}
				l_no = blk >> LEAF_BITS;
				l_di = di;
			}
			ring[y].l = l;
			ring[y].i = (uint32_t)(blk & (LEAF_BLKS - 1));
			ring[y].n = (uint32_t)(key & ((1u << PIECE_BITS) - 1));
			if (q->wr)
				__builtin_prefetch(l->cnt + ring[y].i, 1);
			else
				__builtin_prefetch(l->rd + ring[y].i / 64, 1);
		}
	}
	q->n = 0;
	q->ored = 0;
	return ret;
}

/* Apply everything queued (before the result is read); 0 or -ENOMEM. */
static int pieces_drain(struct trc_stat *st)
{
	int ret = keys_apply(st, &st->rq);

	return keys_apply(st, &st->wq) ? -ENOMEM : ret;
}

/* Double @q's room (and the sort's): 0 or -ENOMEM. */
static int keys_grow(struct trc_stat *st, struct keyq *q)
{
	size_t cap = q->cap ? (q->cap * 2 < NR_KEYS ? q->cap * 2 : NR_KEYS) : 4096;
	uint64_t *k = realloc(q->k, cap * sizeof(*k));

	if (!k)
		return -ENOMEM;
	st->mem += (cap - q->cap) * sizeof(*k);
	q->k = k;
	q->cap = cap;
	if (cap > st->cap_tmp) {
		k = realloc(st->tmp, cap * sizeof(*k));
		if (!k)
			return -ENOMEM;
		st->mem += (cap - st->cap_tmp) * sizeof(*k);
		st->tmp = k;
		st->cap_tmp = cap;
	}
	return 0;
}

/*
 * The blocks of a request, per leaf, as keys into the write or read queue
 * (see struct keyq).  Counters and bits commute, so the order of
 * application changes no result (the overflow table is read sorted).
 */
static int footprint(struct trc_stat *st, const struct trc_rec *rec, const struct devst *d)
{
	bool wr = rec->op == TRC_OP_WRITE;
	uint64_t b = rec->offset_bytes >> BLK_SHIFT;
	uint64_t e = (rec->offset_bytes + rec->len_bytes - 1) >> BLK_SHIFT;
	struct keyq *q = wr ? &st->wq : &st->rq;
	unsigned db, bb;
	bool fits;

	if (e - b >= MAX_REQ_BLKS)
		e = b + MAX_REQ_BLKS - 1;
	db = trc_bit_len(d->idx) > q->dbits ? trc_bit_len(d->idx) : q->dbits;
	bb = trc_bit_len(e) > q->bbits ? trc_bit_len(e) : q->bbits;
	fits = d->idx >> MAX_DBITS == 0 && PIECE_BITS + db + bb <= 64;
	if (fits && (db > q->dbits || bb > q->bbits)) {    /* a wider key: apply the narrower ones first */
		int ret = q->n ? keys_apply(st, q) : 0;

		if (ret)
			return ret;
		q->dbits = db;
		q->bbits = bb;
	}
	while (b <= e) {
		uint64_t last = (b | (LEAF_BLKS - 1)) < e ? (b | (LEAF_BLKS - 1)) : e;
		uint64_t n = last - b, key;

		if (!fits) {
			struct leaf *l = leaf_for(st, d->dev, b, wr);

			if (!l || apply_piece(st, l, (uint32_t)(b & (LEAF_BLKS - 1)), (uint32_t)n, wr))
				return -ENOMEM;
			b = last + 1;
			continue;
		}
		if (q->n == q->cap) {
			int ret = q->cap < NR_KEYS ? keys_grow(st, q) : keys_apply(st, q);

			if (ret)
				return ret;
		}
		key = ((uint64_t)d->idx << q->bbits | b) << PIECE_BITS | n;
		q->k[q->n++] = key;
		q->ored |= key;              /* no branch: keys come in random order */
		b = last + 1;
	}
	return 0;
}

int trc_stat_add(struct trc_stat *st, const struct trc_rec *rec)
{
	struct trc_stat_result *r = &st->r;
	uint32_t dev = (rec->has & TRC_HAS_DEV) ? rec->dev : 0;
	uint8_t op = rec->op < TRC_NR_OPS ? rec->op : TRC_OP_OTHER;
	struct devst *d;
	int ret;

	r->nr_recs++;
	r->nr_ops[op]++;
	r->bytes_ops[op] += rec->len_bytes;
	if (rec->ts_ns < r->first_ns)
		r->first_ns = rec->ts_ns;
	if (rec->ts_ns > r->last_ns)
		r->last_ns = rec->ts_ns;
	if (st->have_prev) {
		uint64_t v = rec->ts_ns > st->prev_ts ? rec->ts_ns - st->prev_ts : 0;

		ana_hist_add(&st->iat, v);
	}
	st->have_prev = true;
	st->prev_ts = rec->ts_ns;
	d = st->last_dev;
	if (!d || d->dev != dev) {
		d = dev_get(st, dev);
		if (!d)
			return -ENOMEM;
		st->last_dev = d;
	}
	if (op != TRC_OP_READ && op != TRC_OP_WRITE)
		return 0;
	{
		/* bucket k holds lengths in (4K << (k-1), 4K << k]; the last one the rest */
		uint64_t m = (rec->len_bytes ? rec->len_bytes - 1 : 0) | 4095;   /* no branch: sizes are random */
		unsigned k = 64u - (unsigned)__builtin_clzll(m) - 12;

		r->size_hist[k < TRC_NR_SIZE_BUCKETS ? k : TRC_NR_SIZE_BUCKETS - 1]++;
	}
	/* no branch on whether the request is sequential: it is random */
	r->nr_seq_candidates += d->have_end;
	r->nr_seq += d->have_end & (rec->offset_bytes == d->end);
	d->have_end = true;
	d->end = rec->offset_bytes + rec->len_bytes;
	if (!rec->len_bytes)
		return 0;
	ret = footprint(st, rec, d);
	return ret;
}

/* Bit b set for each non-zero byte b of @v. */
static inline unsigned nonzero_bytes(uint64_t v)
{
	const uint64_t lo7 = 0x7f7f7f7f7f7f7f7full;
	uint64_t t = (((v & lo7) + lo7) | v) & ~lo7;     /* the top bit of each non-zero byte */

	return (unsigned)(((t >> 7) * 0x0102040810204080ull) >> 56);
}

/* Bits set in @v (the build targets x86-64 without POPCNT: no libgcc call). */
static inline unsigned popcount64(uint64_t v)
{
	v -= (v >> 1) & 0x5555555555555555ull;
	v = (v & 0x3333333333333333ull) + ((v >> 2) & 0x3333333333333333ull);
	v = (v + (v >> 4)) & 0x0f0f0f0f0f0f0f0full;
	return (unsigned)((v * 0x0101010101010101ull) >> 56);
}

/*
 * Written blocks of one leaf's counters into @h (four histograms of the
 * counter values, summed by the caller: consecutive equal counters would
 * otherwise chain their increments through one memory slot) and @wbits
 * (bit per block, LEAF_WORDS words).  Zero words are skipped: most of a
 * large volume is never written.
 */
static void leaf_scan(const uint8_t *cnt, uint64_t h[4][256], uint64_t *wbits)
{
	for (unsigned w = 0; w < LEAF_WORDS; w++) {
		uint64_t bits = 0;

		for (unsigned b = 0; b < 64; b += 8) {
			uint64_t v;

			memcpy(&v, cnt + w * 64 + b, 8);
			if (!v)
				continue;
			bits |= (uint64_t)nonzero_bytes(v) << b;
			h[0][v & 0xff]++;
			h[1][(v >> 8) & 0xff]++;
			h[2][(v >> 16) & 0xff]++;
			h[3][(v >> 24) & 0xff]++;
			h[0][(v >> 32) & 0xff]++;
			h[1][(v >> 40) & 0xff]++;
			h[2][(v >> 48) & 0xff]++;
			h[3][v >> 56]++;
		}
		wbits[w] = bits;
	}
}

static int cmp_u64_desc(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? 1 : x > y ? -1 : 0;
}

void trc_stat_result(struct trc_stat *st, struct trc_stat_result *out)
{
	static const double hot[3] = { 0.01, 0.10, 0.20 };
	uint64_t hist[256] = { 0 };     /* [0] and [255] unused */
	uint64_t h4[4][256] = { { 0 } };   /* leaf_scan()'s */
	uint64_t nr_w = 0, nr_r = 0, nr_t = 0, total = 0, *big = NULL;
	size_t nr_big = 0;

	int drained = pieces_drain(st);

	*out = st->r;
	if (!out->nr_recs)
		out->first_ns = 0;
	out->duration_ns = out->last_ns - out->first_ns;
	for (size_t i = 0; i < st->cap_leaves; i++) {
		struct leaf *l = st->leaves[i].l;
		uint64_t wbits[LEAF_WORDS];

		if (!l)
			continue;
		if (l->cnt)
			leaf_scan(l->cnt, h4, wbits);
		else
			memset(wbits, 0, sizeof(wbits));
		for (unsigned w = 0; w < LEAF_WORDS; w++) {
			nr_w += popcount64(wbits[w]);
			nr_r += popcount64(l->rd[w]);
			nr_t += popcount64(wbits[w] | l->rd[w]);
		}
	}
	for (unsigned c = 1; c < 256; c++)
		hist[c] = h4[0][c] + h4[1][c] + h4[2][c] + h4[3][c];
	out->fp_written_bytes = nr_w << BLK_SHIFT;
	out->fp_read_bytes = nr_r << BLK_SHIFT;
	out->fp_touched_bytes = nr_t << BLK_SHIFT;
	/* blocks at 255 are all in the overflow table with their exact count */
	if (st->nr_ovf)
		big = malloc(st->nr_ovf * sizeof(*big));
	for (size_t i = 0; big && i < st->cap_ovf; i++)
		if (st->ovf[i].used)
			big[nr_big++] = 254 + st->ovf[i].extra;
	if (big)
		qsort(big, nr_big, sizeof(*big), cmp_u64_desc);
	for (size_t i = 0; i < nr_big; i++)
		total += big[i];
	for (unsigned c = 1; c < 255; c++)
		total += c * hist[c];
	for (int k = 0; k < 3; k++) {
		uint64_t want = (uint64_t)ceil(hot[k] * (double)nr_w), got = 0, sum = 0;

		for (size_t i = 0; i < nr_big && got < want; i++, got++)
			sum += big[i];
		for (unsigned c = 254; c >= 1 && got < want; c--) {
			uint64_t take = hist[c] < want - got ? hist[c] : want - got;

			got += take;
			sum += take * c;
		}
		out->skew[k] = drained ? NAN : total ? (double)sum / (double)total : 0;
	}
	free(big);
	for (int p = 0; p < TRC_NR_PCT; p++)
		out->iat_pct_ns[p] = ana_hist_quantile(&st->iat, trc_stat_pcts[p] / 100.0);
	out->iat_mean_ns = st->iat.n ? (double)st->iat.sum / (double)st->iat.n : 0;
	out->nr_devs = st->nr_devs;
	out->mem_bytes = st->mem + sizeof(*st) + 256 * sizeof(*st->leaves) + 16 * sizeof(*st->devs);
}
