/*
 * trc_map.c — the mapping of a trace's addresses onto the simulated file
 * (compact / direct / scale), its pre-pass, and the mapping source that
 * loops over the trace in file space (trc_map.h).  The distinct blocks live
 * in one open-addressing hash (linear probing, doubled at half load):
 * memory follows the footprint, never the trace's length.  Not a reader and
 * not the simulator: no device, no time model beyond arrival times.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trc_map.h"

const char *const trc_map_names[] = { "compact", "direct", "scale", NULL };

#define BATCH 32  /* records read ahead (prefetching their hash slots) */
#define F_WRITTEN (1ULL << 63)
#define F_READ (1ULL << 62)
#define F_DISCARDED (1ULL << 61)
#define F_MASK (F_WRITTEN | F_READ | F_DISCARDED)

struct slot {
	uint64_t key;                /* trace block + 1; 0 = empty slot */
	uint64_t val;                /* file block (first-touch number) | F_* */
};

struct trc_map {
	enum trc_map_mode mode;
	struct slot *slots;          /* key and value side by side: one cache miss */
	uint64_t cap, nr;            /* slots (a power of two), used */
	uint64_t max_req_blocks;     /* largest data request, blocks */
	uint64_t trace_blocks;       /* max_end_bytes / 4096 */
	uint64_t file_blocks;        /* 0 until trc_map_set_file() */
	bool scanned;
	struct trc_map_desc desc;
};

static inline uint64_t mix(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static inline bool op_has_range(uint8_t op)
{
	return op == TRC_OP_READ || op == TRC_OP_WRITE || op == TRC_OP_DISCARD;
}

int trc_map_create(enum trc_map_mode mode, struct trc_map **out)
{
	struct trc_map *m;

	if ((unsigned)mode > TRC_MAP_SCALE)
		return -EINVAL;
	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	m->mode = mode;
	m->cap = 1024;
	m->slots = calloc(m->cap, sizeof(*m->slots));
	if (!m->slots) {
		trc_map_destroy(m);
		return -ENOMEM;
	}
	m->desc.min_ts_ns = UINT64_MAX;
	*out = m;
	return 0;
}

void trc_map_destroy(struct trc_map *m)
{
	if (!m)
		return;
	free(m->slots);
	free(m);
}

/* The slot of @tb: where it is, or the empty slot where it would go. */
static inline uint64_t slot_of(const struct trc_map *m, uint64_t tb)
{
	uint64_t mask = m->cap - 1, i = mix(tb) & mask;

	while (m->slots[i].key && m->slots[i].key != tb + 1)
		i = (i + 1) & mask;
	return i;
}

/* Start loading the slot @tb hashes to (records are read ahead in batches
 * so that the hash's cache misses overlap). */
static inline void prefetch_block(const struct trc_map *m, const struct trc_rec *r)
{
	if (op_has_range(r->op) && r->len_bytes)
		__builtin_prefetch(&m->slots[mix(r->offset_bytes / TRC_MAP_BLOCK) & (m->cap - 1)]);
}

static int grow(struct trc_map *m)
{
	struct slot *old = m->slots;
	uint64_t oc = m->cap, i, j;

	m->slots = calloc(oc * 2, sizeof(*m->slots));
	if (!m->slots) {
		m->slots = old;
		return -ENOMEM;
	}
	m->cap = oc * 2;
	for (i = 0; i < oc; i++)
		if (old[i].key) {
			j = slot_of(m, old[i].key - 1);
			m->slots[j] = old[i];
		}
	free(old);
	return 0;
}

/* Block @tb touched by @op: numbered on first touch, flags added. */
static int touch(struct trc_map *m, uint64_t tb, uint8_t op)
{
	uint64_t i = slot_of(m, tb), f;
	int ret;

	if (!m->slots[i].key) {
		if ((m->nr + 1) * 2 > m->cap) {
			ret = grow(m);
			if (ret)
				return ret;
			i = slot_of(m, tb);
		}
		m->slots[i].key = tb + 1;
		m->slots[i].val = m->nr++;
	}
	f = op == TRC_OP_WRITE ? F_WRITTEN : op == TRC_OP_READ ? F_READ : F_DISCARDED;
	if (!(m->slots[i].val & f)) {
		m->slots[i].val |= f;
		if (f == F_WRITTEN)
			m->desc.fp_written_blocks++;
		else if (f == F_READ)
			m->desc.fp_read_blocks++;
		else
			m->desc.fp_discarded_blocks++;
	}
	return 0;
}

/* The blocks [*first, *first + *nr) a data record touches; -EINVAL when
 * its range does not fit in 64 bits. */
static int rec_blocks(const struct trc_rec *r, uint64_t *first, uint64_t *nr)
{
	if (r->offset_bytes > UINT64_MAX - TRC_MAP_BLOCK ||
	    r->len_bytes > UINT64_MAX - TRC_MAP_BLOCK - r->offset_bytes)
		return -EINVAL;
	*first = r->offset_bytes / TRC_MAP_BLOCK;
	*nr = r->len_bytes ? (r->offset_bytes + r->len_bytes - 1) / TRC_MAP_BLOCK + 1 - *first : 0;
	return 0;
}

static int scan_rec(struct trc_map *m, const struct trc_rec *r, char *msg, size_t msg_len,
		    const char *name)
{
	struct trc_map_desc *d = &m->desc;
	uint8_t op = r->op < TRC_NR_OPS ? r->op : TRC_OP_OTHER;
	uint64_t first, nr, b;
	int ret;

	d->nr_recs++;
	d->nr_ops[op]++;
	d->bytes_ops[op] += r->len_bytes;
	if (r->ts_ns < d->min_ts_ns)
		d->min_ts_ns = r->ts_ns;
	if (r->ts_ns > d->max_ts_ns)
		d->max_ts_ns = r->ts_ns;
	if (!op_has_range(op) || !r->len_bytes)
		return 0;
	if (rec_blocks(r, &first, &nr)) {
		snprintf(msg, msg_len, "%s: record %llu: offset %llu + length %llu is past 2^64",
			 name, (unsigned long long)d->nr_recs, (unsigned long long)r->offset_bytes,
			 (unsigned long long)r->len_bytes);
		return -EINVAL;
	}
	if (r->offset_bytes % TRC_MAP_BLOCK || r->len_bytes % TRC_MAP_BLOCK)
		d->nr_unaligned++;
	if (nr > m->max_req_blocks)
		m->max_req_blocks = nr;
	if (first + nr > m->trace_blocks)
		m->trace_blocks = first + nr;
	for (b = first; b < first + nr; b++) {
		ret = touch(m, b, op);
		if (ret)
			return ret;
	}
	return 0;
}

int trc_map_scan(struct trc_map *m, const struct trc_input *in, struct trc_stat *st, char *msg,
		 size_t msg_len)
{
	const char *name = in->name ? in->name : "trace";
	struct trc_source *src = NULL;
	struct trc_rec batch[BATCH];
	bool from_rec = false;
	int ret;

	if (m->scanned)
		return -EINVAL;
	ret = in->open(in->arg, &src, msg, msg_len);
	if (ret)
		return ret;
	for (;;) {
		size_t n = 0, i;
		int got = 0;

		while (n < BATCH && (got = trc_source_next(src, &batch[n])) > 0)
			prefetch_block(m, &batch[n++]);
		for (ret = 0, i = 0; i < n && !ret; i++) {
			ret = scan_rec(m, &batch[i], msg, msg_len, name);
			if (!ret && st)
				ret = trc_stat_add(st, &batch[i]);
		}
		if (ret) {
			from_rec = true;
			break;
		}
		if (got <= 0) {
			ret = got;  /* the end, or the input's error */
			break;
		}
	}
	if (ret < 0 && !from_rec)
		snprintf(msg, msg_len, "%s", src->msg);
	else if (ret == -ENOMEM)
		snprintf(msg, msg_len, "%s: out of memory for the footprint (%llu blocks)", name,
			 (unsigned long long)m->nr);
	trc_source_destroy(src);
	if (ret < 0)
		return ret;
	if (!m->desc.nr_recs)
		m->desc.min_ts_ns = 0;
	m->desc.fp_blocks = m->nr;
	m->desc.max_end_bytes = m->trace_blocks * TRC_MAP_BLOCK;
	m->desc.mem_bytes = m->cap * sizeof(*m->slots);
	m->scanned = true;
	return 0;
}

const struct trc_map_desc *trc_map_desc(const struct trc_map *m)
{
	return &m->desc;
}

enum trc_map_mode trc_map_mode(const struct trc_map *m)
{
	return m->mode;
}

uint64_t trc_map_need_blocks(const struct trc_map *m)
{
	switch (m->mode) {
	case TRC_MAP_COMPACT:
		return m->nr;
	case TRC_MAP_DIRECT:
		return m->trace_blocks;
	default:
		return m->max_req_blocks;
	}
}

int trc_map_set_file(struct trc_map *m, uint64_t file_blocks)
{
	if (!m->scanned || !file_blocks || file_blocks < trc_map_need_blocks(m))
		return -EINVAL;
	m->file_blocks = file_blocks;
	return 0;
}

uint64_t trc_map_file_blocks(const struct trc_map *m)
{
	return m->file_blocks;
}

int trc_map_block(const struct trc_map *m, uint64_t tb, uint64_t nr_blocks, uint64_t *fb)
{
	uint64_t i, f;

	switch (m->mode) {
	case TRC_MAP_COMPACT:
		i = slot_of(m, tb);
		if (!m->slots[i].key)
			return -ENOENT;
		*fb = m->slots[i].val & ~F_MASK;
		return 0;
	case TRC_MAP_DIRECT:
		if (tb >= m->file_blocks || nr_blocks > m->file_blocks - tb)
			return -ERANGE;
		*fb = tb;
		return 0;
	default:
		if (nr_blocks > m->file_blocks)
			return -ERANGE;
		f = m->trace_blocks ?
		    (uint64_t)((unsigned __int128)tb * m->file_blocks / m->trace_blocks) : 0;
		if (f > m->file_blocks - nr_blocks)
			f = m->file_blocks - nr_blocks;  /* moved back to end at the file's end */
		*fb = f;
		return 0;
	}
}

/* ---- the mapping source ---- */

struct replay {
	struct trc_source src;
	struct trc_map_source_cfg cfg;
	struct trc_source *cur;      /* the pass being read; NULL before the first */
	uint32_t loop;               /* of the pass being read */
	struct trc_rec ahead[BATCH]; /* records read ahead, with their pass */
	uint32_t ahead_loop[BATCH];
	uint32_t ahead_pos, ahead_nr;
	uint64_t period_ns, last_ts_ns;
	bool done;
	/* a data record being cut into contiguous runs */
	struct trc_rec pend;
	uint64_t pend_block, pend_left;  /* next trace block, blocks left */
	bool have_pend, pend_cont;
};

/* End the stream with @err; @what (NULL: src.msg already says it). */
static int fail(struct replay *p, int err, const char *what)
{
	if (what)
		snprintf(p->src.msg, sizeof(p->src.msg), "%s", what);
	p->done = true;
	return err;
}

/* The next run of @p->pend: blocks contiguous in the file. */
static int emit_run(struct replay *p, struct trc_rec *rec)
{
	const struct trc_map *m = p->cfg.map;
	uint64_t fb, next, n = 1;
	int ret;

	if (m->mode == TRC_MAP_COMPACT) {
		ret = trc_map_block(m, p->pend_block, 1, &fb);
		while (!ret && n < p->pend_left &&
		       !trc_map_block(m, p->pend_block + n, 1, &next) && next == fb + n)
			n++;
	} else {
		n = p->pend_left;
		ret = trc_map_block(m, p->pend_block, n, &fb);
	}
	if (ret) {
		char why[200];

		snprintf(why, sizeof(why), "%s: block %llu (byte %llu) %s",
			 p->cfg.in->name ? p->cfg.in->name : "trace",
			 (unsigned long long)p->pend_block,
			 (unsigned long long)p->pend_block * TRC_MAP_BLOCK,
			 ret == -ENOENT ? "was not in the pre-pass: the trace changed" :
			 "is past the file");
		return fail(p, -EINVAL, why);
	}
	*rec = p->pend;
	rec->offset_bytes = fb * TRC_MAP_BLOCK;
	rec->len_bytes = n * TRC_MAP_BLOCK;
	if (p->pend_cont)
		rec->has |= TRC_HAS_CONT;
	p->pend_cont = true;
	p->pend_block += n;
	p->pend_left -= n;
	p->have_pend = p->pend_left > 0;
	return 1;
}

/* Records ahead into p->ahead (opening passes as needed): how many, 0 at
 * the end of the last pass, or the input's error. */
static int read_ahead(struct replay *p)
{
	uint32_t n = 0;
	int ret;

	while (n < BATCH) {
		if (!p->cur) {
			if (p->loop >= p->cfg.loops)
				break;
			ret = p->cfg.in->open(p->cfg.in->arg, &p->cur, p->src.msg,
					      sizeof(p->src.msg));
			if (ret)
				return fail(p, ret, NULL);
		}
		ret = trc_source_next(p->cur, &p->ahead[n]);
		if (ret > 0) {
			prefetch_block(p->cfg.map, &p->ahead[n]);
			p->ahead_loop[n++] = p->loop;
			continue;
		}
		if (ret < 0)
			return fail(p, ret, p->cur->msg);
		trc_source_destroy(p->cur);
		p->cur = NULL;
		p->loop++;
	}
	p->ahead_pos = 0;
	p->ahead_nr = n;
	return (int)n;
}

/* The next record and its pass: 1, 0 at the end, or an error. */
static int next_raw(struct replay *p, struct trc_rec *r, uint32_t *loop)
{
	int ret;

	if (p->ahead_pos == p->ahead_nr) {
		ret = read_ahead(p);
		if (ret <= 0)
			return ret;
	}
	*loop = p->ahead_loop[p->ahead_pos];
	*r = p->ahead[p->ahead_pos++];
	return 1;
}

static int replay_next(struct trc_source *src, struct trc_rec *rec)
{
	struct replay *p = (struct replay *)src;
	const struct trc_map_desc *d = &p->cfg.map->desc;
	uint64_t first, nr, t;
	struct trc_rec r;
	uint32_t loop;
	int ret;

	if (p->done)
		return 0;
	if (p->have_pend)
		return emit_run(p, rec);
	ret = next_raw(p, &r, &loop);
	if (ret <= 0) {
		p->done = true;
		return ret;
	}
	t = (uint64_t)loop * p->period_ns + (r.ts_ns > d->min_ts_ns ? r.ts_ns - d->min_ts_ns : 0);
	if (t < p->last_ts_ns)
		t = p->last_ts_ns;  /* arrivals never go back */
	p->last_ts_ns = t;
	r.ts_ns = t;
	r.has &= (uint16_t)~TRC_HAS_CONT;
	if (r.op >= TRC_NR_OPS)
		r.op = TRC_OP_OTHER;
	if (!op_has_range(r.op) || !r.len_bytes) {
		r.offset_bytes = 0;
		r.len_bytes = 0;
		*rec = r;
		return 1;
	}
	if (rec_blocks(&r, &first, &nr))
		return fail(p, -EINVAL, "a record's offset + length is past 2^64");
	p->pend = r;
	p->pend_block = first;
	p->pend_left = nr;
	p->pend_cont = false;
	return emit_run(p, rec);
}

static void replay_destroy(struct trc_source *src)
{
	struct replay *p = (struct replay *)src;

	trc_source_destroy(p->cur);
	free(p);
}

static const struct trc_source_ops replay_ops = { replay_next, replay_destroy };

int trc_map_source_create(const struct trc_map_source_cfg *cfg, struct trc_source **out)
{
	const struct trc_map_desc *d;
	struct replay *p;
	uint64_t span;

	if (!cfg->in || !cfg->map || !cfg->loops || !cfg->map->scanned ||
	    !cfg->map->file_blocks)
		return -EINVAL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->src.ops = &replay_ops;
	p->cfg = *cfg;
	d = &cfg->map->desc;
	span = d->nr_recs ? d->max_ts_ns - d->min_ts_ns : 0;
	/* the next loop starts one mean inter-arrival time after the last record */
	p->period_ns = span + (d->nr_recs > 1 && span / (d->nr_recs - 1) ? span / (d->nr_recs - 1) : 1);
	*out = &p->src;
	return 0;
}
