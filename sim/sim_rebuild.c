/*
 * sim_rebuild.c — how long rebuilding one failed drive of a host-managed SMR
 * array takes (issue 34; docs/REBUILD.md): an extent-level model, not a
 * block-level one.  The array is N drives, each a struct ztime (the
 * position-aware drive model) in virtual time; block groups are laid out as
 * zoned btrfs would (one zone per device stripe, device extents allocated
 * from the lowest free zone); a rebuild copies, block group by block group
 * in the failed drive's zone order, every allocated zone of the failed drive
 * onto the replacement at the same zone (as btrfs dev-replace keeps the
 * physical offsets), reading the survivors in commands of io_bytes and
 * writing the replacement's zone sequentially.  A foreground mix runs on the
 * same drives; each drive serves two queues (foreground, rebuild) with
 * the priority knob (idle-only or a share of device time).
 *
 * What it is not: no data, no checksums, no fs-core (device replace in
 * fs-core is fsc_replace.c's); no 4 KiB blocks: a command is a whole
 * extent piece, the foreground is a stream of array requests mapped to
 * device commands by the profile's geometry.  RAID6 is HYPOTHETICAL
 * (zoned btrfs has no parity profile): full-stripe writes, P and Q
 * rotating per block group, a lost column rebuilt from N-2 survivors.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"
#include "ztime.h"
#include "zl_json.h"

#define KIB 1024ULL
#define MIB (1024ULL * KIB)
#define ELEM (64 * KIB)         /* stripe element (RAID10, RAID6) */
#define QD_DEV 2                /* commands a drive holds at once (streams without
				 * losing a turn between commands) */
/* The foreground mix (per array request, percent): random 64 KiB reads,
 * random 1 MiB reads, 1 MiB writes appended (zoned: sequential). */
#define FG_PCT_RAND 60
#define FG_PCT_BIGREAD 20
#define FG_RAND_BYTES (64 * KIB)
#define FG_BIG_BYTES MIB
#define FG_CAP_PER_DEV 64       /* array requests outstanding per drive, at most */
#define FG_CALIB 4000           /* requests timed to find the array's throughput */

const char *const sim_rb_profile_names[] = { "raid1", "raid10", "raid6", NULL };

enum { EV_ARRIVE = 0, EV_DONE };
enum { CL_FG = 0, CL_RB };

struct rb_op {
	struct rb_op *next;
	struct ztime_req req;
	void *parent;           /* struct fg_req or struct chunk */
	uint32_t dev;
	uint8_t cls;
	bool rb_write;          /* the rebuild's write to the new drive */
};

struct fg_req {
	struct fg_req *next;    /* free list */
	uint64_t arrive_ns;
	uint32_t pending;
};

struct chunk {
	uint32_t zone;          /* on the failed drive */
	uint64_t off, len;      /* in that zone */
	uint32_t pending;       /* reads not done */
	bool used, read_done;
};

struct rdev {
	struct ztime *t;
	struct rb_op *q_head[2], *q_tail[2];
	uint32_t inflight;
	uint64_t last_done_ns;
	double vt[2];           /* device time by class / its weight (the share's
				 * bookkeeping; an idle class earns no credit) */
	uint64_t fg_busy_before_ns;
	uint64_t wr_pos;        /* foreground write frontier: byte on the drive */
	uint64_t wr_adv;        /* sampling: bytes the frontier moved since t_prev */
	uint64_t rb_read_bytes;
};

struct rb {
	const struct sim_rb_cfg *c;
	struct sim_rb_result *r;
	struct zl_rng rng;
	struct sim_heap heap;
	struct rdev *dev;
	uint32_t n, f;
	uint64_t zone, nr_zones, alloc;     /* per drive, zones */
	uint64_t nr_bg;
	uint8_t *map;           /* RAID10: a permutation of the drives per block group */
	uint32_t *r1_dev;       /* RAID1: the two drives of each block group */
	uint32_t *r1_zone;      /* RAID1: their zones */
	uint32_t *zone_bg;      /* RAID1: block group of (drive, zone) */
	uint64_t wr_bg, wr_bg_bytes;  /* foreground writes: the block group they fill */
	struct rb_op *op_free;
	struct fg_req *fg_free;
	bool failed, done;
	uint64_t t_fail, now;
	/* foreground */
	double lambda;          /* array requests per ns */
	uint64_t next_arrive;
	bool gen_blocked;
	uint32_t fg_out, fg_cap;
	struct ana_hist *h_before, *h_during;
	/* rebuild */
	struct chunk *ring;
	uint32_t ring_n, ring_head, ring_tail;  /* head: next to write; tail: next to fill */
	uint64_t next_zone, next_off;   /* the next chunk's place on the failed drive */
	uint64_t chunks_started, chunk_seq;
	uint32_t writes_out;
	/* sampling (cfg sample K > 1): of the zones to copy, in walk order,
	 * every K-th is simulated; it stands for itself and the K - 1 after it */
	uint64_t walk_i;        /* index of next_zone among the zones to copy */
	double *zw;             /* sampled zone: (media time of its group) / its own */
	uint32_t *zgrp;         /* sampled zone: zones in its group */
	double est_ns;          /* estimated rebuild time up to t_prev */
	uint64_t t_prev;        /* the last sampled zone's end on the new drive */
	double w_cur;           /* weight of the sampled zone being copied */
};

void sim_rb_cfg_init(struct sim_rb_cfg *c)
{
	memset(c, 0, sizeof(*c));
	c->profile = SIM_RB_RAID1;
	c->nr_devs = 4;
	c->zone_bytes = 256 * MIB;
	c->alloc = 0.8;
	c->prio = SIM_RB_IDLE;
	c->share = 0.5;
	c->io_bytes = 4 * MIB;
	c->depth = 4;
	c->before_ns = 600ULL * 1000000000ULL;
	c->max_ns = 60ULL * 86400 * 1000000000ULL;
	c->sample = 1;
	c->seed = 1;
}

int sim_rb_cfg_check(const struct sim_rb_cfg *c, char *msg, size_t len)
{
	const char *p = sim_name_of(sim_rb_profile_names, (int)c->profile);

	if (!p)
		return snprintf(msg, len, "rebuild: profile %d: not raid1, raid10 or raid6",
				(int)c->profile), -EINVAL;
	if (c->nr_devs < 2 || c->nr_devs > 64)
		return snprintf(msg, len, "rebuild: --devices %u: an array of 2 to 64 drives",
				c->nr_devs), -EINVAL;
	if (c->profile == SIM_RB_RAID10 && (c->nr_devs < 4 || c->nr_devs % 2))
		return snprintf(msg, len, "rebuild: --devices %u: raid10 needs an even number, "
				"at least 4", c->nr_devs), -EINVAL;
	if (c->profile == SIM_RB_RAID6 && c->nr_devs < 4)
		return snprintf(msg, len, "rebuild: --devices %u: raid6 needs at least 4 (2 data "
				"+ P + Q)", c->nr_devs), -EINVAL;
	if (c->failed >= c->nr_devs)
		return snprintf(msg, len, "rebuild: failed drive %u: the array has drives 0..%u",
				c->failed, c->nr_devs - 1), -EINVAL;
	if (c->zone_bytes < MIB || c->zone_bytes % ELEM)
		return snprintf(msg, len, "rebuild: --zone-size %llu: at least 1 MiB and a "
				"multiple of 64 KiB (the stripe element)",
				(unsigned long long)c->zone_bytes), -EINVAL;
	if (!(c->alloc > 0 && c->alloc < 1))
		return snprintf(msg, len, "rebuild: --util %g: the allocated fraction must be "
				"above 0 and below 1", c->alloc), -EINVAL;
	if (!(c->fg_load >= 0 && c->fg_load <= 0.95))
		return snprintf(msg, len, "rebuild: --rebuild-fg-load %g: from 0 to 0.95 of the "
				"array's throughput", c->fg_load), -EINVAL;
	if (c->prio == SIM_RB_SHARE && !(c->share > 0 && c->share < 1))
		return snprintf(msg, len, "rebuild: --rebuild-prio share:%g: a share above 0 and "
				"below 1 (e.g. share:0.25)", c->share), -EINVAL;
	if (c->io_bytes < ELEM || c->io_bytes % ELEM || c->io_bytes > c->zone_bytes)
		return snprintf(msg, len, "rebuild: --rebuild-io %llu: a multiple of 64 KiB, at "
				"most a zone", (unsigned long long)c->io_bytes), -EINVAL;
	if (c->depth < 1 || c->depth > 1024)
		return snprintf(msg, len, "rebuild: depth %u: 1 to 1024 chunks in flight",
				c->depth), -EINVAL;
	if (!c->max_ns)
		return snprintf(msg, len, "rebuild: --rebuild-max-days: must be above 0"), -EINVAL;
	if (c->sample < 1 || c->sample > 1000)
		return snprintf(msg, len, "rebuild: --rebuild-sample %u: 1 (every zone) to 1000 "
				"(one zone in 1000)", c->sample), -EINVAL;
	return 0;
}

/* ---- layout ---- */

static uint64_t data_cols(const struct rb *s)
{
	switch (s->c->profile) {
	case SIM_RB_RAID10: return s->n / 2;
	case SIM_RB_RAID6: return s->n - 2;
	default: return 1;
	}
}

/* RAID6: the drive of data column @j, P (@j = n - 2) or Q (n - 1) of block group @bg. */
static uint32_t r6_dev(const struct rb *s, uint64_t bg, uint32_t j)
{
	/* P at bg % n, Q after it, the data columns after Q */
	if (j == s->n - 2)
		return (uint32_t)(bg % s->n);
	if (j == s->n - 1)
		return (uint32_t)((bg + 1) % s->n);
	return (uint32_t)((bg + 2 + j) % s->n);
}

static void shuffle(struct zl_rng *rng, uint8_t *v, uint32_t n)
{
	for (uint32_t i = n - 1; i > 0; i--) {
		uint32_t k = (uint32_t)zl_rng_below(rng, i + 1);
		uint8_t t = v[i];

		v[i] = v[k];
		v[k] = t;
	}
}

static int layout(struct rb *s)
{
	uint32_t n = s->n, d;

	if (s->c->profile == SIM_RB_RAID1) {
		/* btrfs: the two drives with the most free space; ties at random */
		uint64_t *used = calloc(n, sizeof(*used));

		s->nr_bg = n * s->alloc / 2;
		s->r1_dev = malloc(s->nr_bg * 2 * sizeof(*s->r1_dev));
		s->r1_zone = malloc(s->nr_bg * 2 * sizeof(*s->r1_zone));
		s->zone_bg = malloc((uint64_t)n * s->alloc * sizeof(*s->zone_bg));
		if (!used || !s->r1_dev || !s->r1_zone || !s->zone_bg) {
			free(used);
			return -ENOMEM;
		}
		for (uint64_t b = 0; b < s->nr_bg; b++) {
			uint32_t pick[2] = { UINT32_MAX, UINT32_MAX };
			uint64_t key[2] = { 0, 0 };

			for (d = 0; d < n; d++) {
				uint64_t k;

				if (used[d] >= s->alloc)
					continue;
				k = ((s->alloc - used[d]) << 20) | zl_rng_below(&s->rng, 1 << 20);
				if (pick[0] == UINT32_MAX || k > key[0]) {
					pick[1] = pick[0], key[1] = key[0];
					pick[0] = d, key[0] = k;
				} else if (pick[1] == UINT32_MAX || k > key[1]) {
					pick[1] = d, key[1] = k;
				}
			}
			if (pick[1] == UINT32_MAX) {  /* an odd zone left on one drive */
				s->nr_bg = b;
				break;
			}
			for (int k = 0; k < 2; k++) {
				s->r1_dev[2 * b + k] = pick[k];
				s->r1_zone[2 * b + k] = (uint32_t)used[pick[k]];
				s->zone_bg[pick[k] * s->alloc + used[pick[k]]] = (uint32_t)b;
				used[pick[k]]++;
			}
		}
		/* zones left unpaired stay unallocated: mark them */
		for (d = 0; d < n; d++)
			for (uint64_t z = used[d]; z < s->alloc; z++)
				s->zone_bg[d * s->alloc + z] = UINT32_MAX;
		free(used);
		return 0;
	}
	s->nr_bg = s->alloc;    /* every drive in every block group, at zone bg */
	if (s->c->profile == SIM_RB_RAID10) {
		s->map = malloc(s->nr_bg * n);
		if (!s->map)
			return -ENOMEM;
		for (uint64_t b = 0; b < s->nr_bg; b++) {
			for (d = 0; d < n; d++)
				s->map[b * n + d] = (uint8_t)d;
			shuffle(&s->rng, s->map + b * n, n);  /* pairs (0,1), (2,3), ... */
		}
	}
	return 0;
}

/* ---- drives and their two queues ---- */

static struct rb_op *op_new(struct rb *s)
{
	struct rb_op *o = s->op_free;

	if (o)
		s->op_free = o->next;
	else
		o = malloc(sizeof(*o));
	if (o)
		memset(o, 0, sizeof(*o));
	return o;
}

static void dev_kick(struct rb *s, uint32_t d);
static void frontier_skip(struct rb *s, double times);

static int enqueue(struct rb *s, uint32_t d, int cls, enum ztime_op op, uint64_t off,
		   uint64_t len, void *parent, bool rb_write)
{
	struct rb_op *o = op_new(s);
	struct rdev *v = &s->dev[d];

	if (!o)
		return -ENOMEM;
	o->req.op = op;
	o->req.off_bytes = off;
	o->req.len_bytes = len;
	/* every write waits for the media (write-through: the drive's cache
	 * would hide a write's media time from the queues and the share) */
	o->req.fua = op == ZTIME_WRITE;
	o->parent = parent;
	o->dev = d;
	o->cls = (uint8_t)cls;
	o->rb_write = rb_write;
	if (v->q_tail[cls])
		v->q_tail[cls]->next = o;
	else
		v->q_head[cls] = o;
	v->q_tail[cls] = o;
	dev_kick(s, d);
	return 0;
}

static int pick_class(const struct rb *s, const struct rdev *v)
{
	bool fg = v->q_head[CL_FG], rb = v->q_head[CL_RB];

	if (!fg || !rb)
		return fg ? CL_FG : CL_RB;
	if (s->c->prio == SIM_RB_IDLE)
		return CL_FG;
	/* share: the class further below its share of device time goes */
	return v->vt[CL_RB] <= v->vt[CL_FG] ? CL_RB : CL_FG;
}

static void dev_kick(struct rb *s, uint32_t d)
{
	struct rdev *v = &s->dev[d];

	while (v->inflight < QD_DEV && (v->q_head[CL_FG] || v->q_head[CL_RB])) {
		int cls = pick_class(s, v);
		struct rb_op *o = v->q_head[cls];
		uint64_t done, start;

		v->q_head[cls] = o->next;
		if (!o->next)
			v->q_tail[cls] = NULL;
		o->next = NULL;
		done = ztime_submit(v->t, s->now, &o->req);
		start = s->now > v->last_done_ns ? s->now : v->last_done_ns;
		if (done > start) {
			double w = cls == CL_RB ? s->c->share : 1 - s->c->share;

			v->vt[cls] += (double)(done - start) / w;
			if (cls == CL_FG && !s->failed)
				v->fg_busy_before_ns += done - start;
		}
		/* start-time fair queueing: a class with nothing queued does not
		 * bank the time it did not use */
		if (!v->q_head[!cls] && v->vt[!cls] < v->vt[cls])
			v->vt[!cls] = v->vt[cls];
		if (done > v->last_done_ns)
			v->last_done_ns = done;
		v->inflight++;
		s->r->nr_commands++;
		sim_heap_push(&s->heap, done, EV_DONE, d, o);
	}
}

/* ---- the foreground ---- */

/* Data column ranges of [@off, @off + @len) of a block group's data, @cols
 * columns of ELEM: column j gets rows lo[j] .. hi[j] (hi < lo: none). */
static void col_rows(uint64_t cols, uint64_t off, uint64_t len, uint64_t *lo, uint64_t *hi)
{
	uint64_t e0 = off / ELEM, e1 = (off + len - 1) / ELEM;

	for (uint64_t j = 0; j < cols; j++) {
		lo[j] = UINT64_MAX;
		hi[j] = 0;
	}
	for (uint64_t e = e0; e <= e1; e++) {
		uint64_t j = e % cols, row = e / cols;

		if (lo[j] == UINT64_MAX)
			lo[j] = hi[j] = row;
		else
			hi[j] = row;  /* rows grow with e */
	}
}

static bool dev_is_out(const struct rb *s, uint32_t d)
{
	return s->failed && d == s->f;
}

/* A read of @len bytes at a random place of the allocated data: device commands. */
static int fg_read(struct rb *s, struct fg_req *q, uint64_t len)
{
	uint64_t cols = data_cols(s), bg = zl_rng_below(&s->rng, s->nr_bg);
	uint64_t cap = cols * s->zone, off, lo[64], hi[64], z0 = bg * s->zone;
	int ret = 0;

	off = zl_rng_below(&s->rng, (cap - len) / ELEM + 1) * ELEM;
	if (s->c->profile == SIM_RB_RAID1) {
		uint32_t k = (uint32_t)zl_rng_below(&s->rng, 2), d = s->r1_dev[2 * bg + k];

		if (dev_is_out(s, d))
			k ^= 1, d = s->r1_dev[2 * bg + k];
		q->pending++;
		return enqueue(s, d, CL_FG, ZTIME_READ, (uint64_t)s->r1_zone[2 * bg + k] * s->zone +
			       off, len, q, false);
	}
	col_rows(cols, off, len, lo, hi);
	if (s->c->profile == SIM_RB_RAID10) {
		for (uint64_t j = 0; j < cols && !ret; j++) {
			uint32_t k = (uint32_t)zl_rng_below(&s->rng, 2);
			uint32_t d = s->map[bg * s->n + 2 * j + k];

			if (lo[j] == UINT64_MAX)
				continue;
			if (dev_is_out(s, d))
				d = s->map[bg * s->n + 2 * j + (k ^ 1)];
			q->pending++;
			ret = enqueue(s, d, CL_FG, ZTIME_READ, z0 + lo[j] * ELEM,
				      (hi[j] - lo[j] + 1) * ELEM, q, false);
		}
		return ret;
	}
	/* RAID6: a lost column: its rows from N-2 survivors (all data and P; Q if P is lost) */
	{
		uint64_t rlo = UINT64_MAX, rhi = 0;
		bool lost = false;

		for (uint64_t j = 0; j < cols; j++) {
			if (lo[j] == UINT64_MAX)
				continue;
			rlo = lo[j] < rlo ? lo[j] : rlo;
			rhi = hi[j] > rhi ? hi[j] : rhi;
			lost |= dev_is_out(s, r6_dev(s, bg, (uint32_t)j));
		}
		for (uint32_t j = 0; j < s->n && !ret; j++) {
			uint32_t d = r6_dev(s, bg, j);

			if (!lost && (j >= cols || lo[j] == UINT64_MAX))
				continue;
			if (lost && (dev_is_out(s, d) || j == s->n - 1))
				continue;
			q->pending++;
			if (lost)
				ret = enqueue(s, d, CL_FG, ZTIME_READ, z0 + rlo * ELEM,
					      (rhi - rlo + 1) * ELEM, q, false);
			else
				ret = enqueue(s, d, CL_FG, ZTIME_READ, z0 + lo[j] * ELEM,
					      (hi[j] - lo[j] + 1) * ELEM, q, false);
		}
		return ret;
	}
}

/* Drive @d's foreground write of @len at its frontier (the zones after the
 * allocated ones, wrapping: those zones are taken as reset and reused). */
static int fg_dev_write(struct rb *s, struct fg_req *q, uint32_t d, uint64_t len)
{
	struct rdev *v = &s->dev[d];
	uint64_t lo = s->alloc * s->zone, hi = s->nr_zones * s->zone;

	if (v->wr_pos < lo || v->wr_pos + len > hi)
		v->wr_pos = lo;
	q->pending++;
	if (!s->failed)
		s->r->fg_dev_write_bytes += len;
	v->wr_pos += len;
	v->wr_adv += len;
	return enqueue(s, d, CL_FG, ZTIME_WRITE, v->wr_pos - len, len, q, false);
}

/* A write of @len appended to the block group being filled. */
static int fg_write(struct rb *s, struct fg_req *q, uint64_t len)
{
	uint64_t cols = data_cols(s), lo[64], hi[64];
	int ret = 0;

	if (!s->failed)
		s->r->fg_user_write_bytes += len;
	if (s->wr_bg_bytes + len > cols * s->zone) {
		s->wr_bg++;
		s->wr_bg_bytes = 0;
	}
	if (s->c->profile == SIM_RB_RAID1) {
		uint32_t d0 = (uint32_t)(s->wr_bg % s->n), d1 = (uint32_t)((s->wr_bg + 1) % s->n);

		s->wr_bg_bytes += len;
		ret = fg_dev_write(s, q, d0, len);
		return ret ? ret : fg_dev_write(s, q, d1, len);
	}
	if (s->c->profile == SIM_RB_RAID10) {
		col_rows(cols, s->wr_bg_bytes, len, lo, hi);
		s->wr_bg_bytes += len;
		for (uint32_t d = 0; d < s->n && !ret; d++) {
			uint64_t j = d / 2;  /* new block groups: pairs (0,1), (2,3), ... */

			if (lo[j] != UINT64_MAX)
				ret = fg_dev_write(s, q, d, (hi[j] - lo[j] + 1) * ELEM);
		}
		return ret;
	}
	/* RAID6: full stripes only, the last one padded */
	{
		uint64_t rows = (len + cols * ELEM - 1) / (cols * ELEM);

		s->wr_bg_bytes += rows * cols * ELEM;
		for (uint32_t d = 0; d < s->n && !ret; d++)
			ret = fg_dev_write(s, q, d, rows * ELEM);
		return ret;
	}
}

static int fg_issue(struct rb *s, uint64_t arrive_ns)
{
	struct fg_req *q = s->fg_free;
	uint64_t u = zl_rng_below(&s->rng, 100);
	int ret;

	if (q)
		s->fg_free = q->next;
	else if (!(q = malloc(sizeof(*q))))
		return -ENOMEM;
	q->arrive_ns = arrive_ns;
	q->pending = 1;         /* held until every command is queued */
	s->fg_out++;
	if (u < FG_PCT_RAND)
		ret = fg_read(s, q, FG_RAND_BYTES);
	else if (u < FG_PCT_RAND + FG_PCT_BIGREAD)
		ret = fg_read(s, q, FG_BIG_BYTES);
	else
		ret = fg_write(s, q, FG_BIG_BYTES);
	q->pending--;
	return ret;
}

static void fg_done(struct rb *s, struct fg_req *q)
{
	uint64_t lat = s->now - q->arrive_ns;

	if (q->arrive_ns < s->t_fail)
		ana_hist_add(s->h_before, lat);
	else {
		ana_hist_add(s->h_during, lat);
		s->r->fg_completed_during++;
	}
	s->fg_out--;
	q->next = s->fg_free;
	s->fg_free = q;
}

static uint64_t next_gap(struct rb *s)
{
	double u = zl_rng_unit(&s->rng);

	return (uint64_t)(-log(1 - u) / s->lambda) + 1;
}

/* The arrival at next_arrive: issue it (or hold the generator at the cap). */
static int fg_arrive(struct rb *s)
{
	int ret;

	if (s->fg_out >= s->fg_cap) {
		s->gen_blocked = true;
		return 0;
	}
	ret = fg_issue(s, s->next_arrive);
	s->next_arrive += next_gap(s);
	if (!ret)
		ret = sim_heap_push(&s->heap, s->next_arrive > s->now ? s->next_arrive : s->now,
				    EV_ARRIVE, 0, NULL);
	return ret;
}

/* ---- the rebuild ---- */

static int chunk_start(struct rb *s)
{
	struct chunk *k;
	uint64_t bg, len;
	int ret = 0;

	for (;;) {
		if (s->next_zone >= s->alloc)
			return 0;
		if (s->c->profile == SIM_RB_RAID1 &&
		    s->zone_bg[s->f * s->alloc + s->next_zone] == UINT32_MAX) {
			s->next_zone++;  /* a zone no block group took */
			continue;
		}
		if (s->next_off || s->walk_i % s->c->sample == 0)
			break;
		s->walk_i++;            /* sampling: a zone its group's first stands for */
		s->next_zone++;
	}
	if (!s->next_off)
		s->w_cur = s->zw ? s->zw[s->next_zone] : 1;
	k = &s->ring[s->ring_tail];
	s->ring_tail = (s->ring_tail + 1) % s->ring_n;
	len = s->zone - s->next_off < s->c->io_bytes ? s->zone - s->next_off : s->c->io_bytes;
	*k = (struct chunk){ .zone = (uint32_t)s->next_zone, .off = s->next_off, .len = len,
			     .pending = 1, .used = true };
	s->next_off += len;
	if (s->next_off >= s->zone)
		s->next_zone++, s->next_off = 0, s->walk_i++;
	s->chunks_started++;
	bg = s->c->profile == SIM_RB_RAID1 ? s->zone_bg[s->f * s->alloc + k->zone] : k->zone;
	if (s->c->profile == SIM_RB_RAID1) {
		uint32_t i = s->r1_dev[2 * bg] == s->f;

		k->pending++;
		s->dev[s->r1_dev[2 * bg + i]].rb_read_bytes += len;
		ret = enqueue(s, s->r1_dev[2 * bg + i], CL_RB, ZTIME_READ,
			      (uint64_t)s->r1_zone[2 * bg + i] * s->zone + k->off, len, k, false);
	} else if (s->c->profile == SIM_RB_RAID10) {
		uint32_t d, pos = 0;

		for (d = 0; d < s->n; d++)
			if (s->map[bg * s->n + d] == s->f)
				pos = d;
		d = s->map[bg * s->n + (pos ^ 1)];
		k->pending++;
		s->dev[d].rb_read_bytes += len;
		ret = enqueue(s, d, CL_RB, ZTIME_READ, bg * s->zone + k->off, len, k, false);
	} else {
		/* N-2 of the N-1 survivors; the one left out turns with the chunks */
		uint32_t skip = (uint32_t)(s->chunk_seq++ % (s->n - 1)), i = 0;

		for (uint32_t j = 0; j < s->n && !ret; j++) {
			uint32_t d = r6_dev(s, bg, j);

			if (d == s->f)
				continue;
			if (i++ == skip)
				continue;
			k->pending++;
			s->dev[d].rb_read_bytes += len;
			ret = enqueue(s, d, CL_RB, ZTIME_READ, bg * s->zone + k->off, len, k, false);
		}
	}
	k->pending--;
	if (!k->pending)
		k->read_done = true;
	return ret;
}

/* Writes go to the new drive in chunk order (a zone is written sequentially). */
static int chunk_writes(struct rb *s)
{
	int ret = 0;

	while (!ret && s->ring[s->ring_head].used && s->ring[s->ring_head].read_done) {
		struct chunk *k = &s->ring[s->ring_head];

		k->used = false;
		s->ring_head = (s->ring_head + 1) % s->ring_n;
		s->writes_out++;
		ret = enqueue(s, s->f, CL_RB, ZTIME_WRITE, (uint64_t)k->zone * s->zone + k->off,
			      k->len, NULL, true);
	}
	return ret;
}

static int rebuild_fill(struct rb *s)
{
	int ret = 0;

	while (!ret && s->next_zone < s->alloc && !s->ring[s->ring_tail].used)
		ret = chunk_start(s);
	return ret ? ret : chunk_writes(s);
}

static int op_done(struct rb *s, struct rb_op *o)
{
	int ret = 0;

	s->dev[o->dev].inflight--;
	if (o->cls == CL_FG) {
		struct fg_req *q = o->parent;

		if (!--q->pending)
			fg_done(s, q);
		if (s->gen_blocked && s->fg_out < s->fg_cap) {
			s->gen_blocked = false;
			ret = fg_arrive(s);
		}
	} else if (o->rb_write) {
		s->writes_out--;
		s->r->copied_bytes += o->req.len_bytes;
		s->r->sim_copied_bytes += o->req.len_bytes;
		if (s->zw && (o->req.off_bytes + o->req.len_bytes) % s->zone == 0) {
			/* a sampled zone is on the new drive: it stands for its group */
			uint64_t z = o->req.off_bytes / s->zone;

			s->est_ns += (double)(s->now - s->t_prev) * s->zw[z];
			s->t_prev = s->now;
			s->r->copied_bytes += (uint64_t)(s->zgrp[z] - 1) * s->zone;
			frontier_skip(s, s->zw[z] - 1);
		}
		ret = rebuild_fill(s);
		if (!ret && s->next_zone >= s->alloc && !s->writes_out &&
		    !s->ring[s->ring_head].used) {
			struct ztime_req fl = { ZTIME_FLUSH, 0, 0, false, false };
			uint64_t end = ztime_submit(s->dev[s->f].t, s->now, &fl);

			s->r->rebuild_ns = end - s->t_fail;
			s->r->sim_rebuild_ns = s->r->rebuild_ns;
			if (s->zw)
				s->r->rebuild_ns = (uint64_t)llround(s->est_ns) + (end - s->t_prev);
			s->done = true;
		}
	} else {
		struct chunk *k = o->parent;

		s->r->read_bytes += o->req.len_bytes;
		if (!--k->pending) {
			k->read_done = true;
			ret = chunk_writes(s);
		}
	}
	o->next = s->op_free;
	s->op_free = o;
	if (!ret)
		dev_kick(s, o->dev);
	return ret;
}

/* ---- sampling ---- */

/* cfg sample K > 1: of the failed drive's zones to copy, in walk order, the
 * first of every K is simulated and stands for its group (itself and the
 * K - 1 after it).  Its time on the new drive (from the previous sampled
 * zone's end to its own) is weighed by the group's media time over its own
 * (a ratio estimate: exact where the rebuild runs at the media rate, and
 * it follows the rate's fall from the outer to the inner diameter). */
static int sample_plan(struct rb *s)
{
	struct ztime *t = s->dev[s->f].t;
	uint64_t i = 0, cur = 0;
	double *own;

	if (s->c->sample <= 1)
		return 0;
	s->zw = calloc(s->alloc, sizeof(*s->zw));
	s->zgrp = calloc(s->alloc, sizeof(*s->zgrp));
	own = calloc(s->alloc, sizeof(*own));
	if (!s->zw || !s->zgrp || !own) {
		free(own);
		return -ENOMEM;
	}
	for (uint64_t z = 0; z < s->alloc; z++) {
		double zt;

		if (s->c->profile == SIM_RB_RAID1 && s->zone_bg[s->f * s->alloc + z] == UINT32_MAX)
			continue;
		zt = (double)s->zone / ztime_rate_at(t, z * s->zone);
		if (i++ % s->c->sample == 0) {
			cur = z;
			own[z] = zt;
		}
		s->zw[cur] += zt;
		s->zgrp[cur]++;
	}
	for (uint64_t z = 0; z < s->alloc; z++)
		if (s->zgrp[z])
			s->zw[z] /= own[z];
	free(own);
	return 0;
}

/* The foreground writes of the time a sampled zone stands for and the
 * simulation skips: each drive's write frontier moves on by @times what it
 * moved while the zone was copied (wrapping as fg_dev_write() does), so the
 * frontier crosses the free zones as it would in the whole rebuild. */
static void frontier_skip(struct rb *s, double times)
{
	uint64_t lo = s->alloc * s->zone, span = (s->nr_zones - s->alloc) * s->zone;

	for (uint32_t d = 0; d < s->n; d++) {
		struct rdev *v = &s->dev[d];
		uint64_t jump = (uint64_t)((double)v->wr_adv * times) / ELEM * ELEM;

		v->wr_adv = 0;
		if (v->wr_pos < lo || !jump)
			continue;
		v->wr_pos = lo + (v->wr_pos - lo + jump) % span;
	}
}

/* Rebuild time so far: virtual time, or with sampling the estimate. */
static double rebuild_elapsed_ns(const struct rb *s)
{
	if (!s->zw)
		return (double)(s->now - s->t_fail);
	return s->est_ns + (double)(s->now - s->t_prev) * s->w_cur;
}

/* ---- bounds and calibration ---- */

static void bounds(struct rb *s)
{
	struct sim_rb_result *r = s->r;
	struct ztime *t = s->dev[0].t;
	double *zt = malloc(s->nr_zones * sizeof(*zt)), *rd = calloc(s->n, sizeof(*rd));
	double wr = 0, whole = 0;
	uint64_t z;

	if (!zt || !rd)
		goto out;
	for (z = 0; z < s->nr_zones; z++) {
		zt[z] = (double)s->zone / ztime_rate_at(t, z * s->zone) * 1e9;
		whole += zt[z];
	}
	/* the new drive writes the failed drive's allocated zones; a survivor
	 * reads what the plan gives it, at the radius of its own zone */
	for (z = 0; z < s->alloc; z++) {
		uint64_t bg = z;

		if (s->c->profile == SIM_RB_RAID1) {
			bg = s->zone_bg[s->f * s->alloc + z];
			if (bg == UINT32_MAX)
				continue;
		}
		wr += zt[z];
		r->copy_bytes += s->zone;
		if (s->c->profile == SIM_RB_RAID1) {
			uint32_t i = s->r1_dev[2 * bg] == s->f;

			rd[s->r1_dev[2 * bg + i]] += zt[s->r1_zone[2 * bg + i]];
		} else if (s->c->profile == SIM_RB_RAID10) {
			for (uint32_t d = 0; d < s->n; d++)
				if (s->map[bg * s->n + d] == s->f)
					rd[s->map[bg * s->n + (d ^ 1)]] += zt[z];
		} else {
			for (uint32_t d = 0; d < s->n; d++)
				if (d != s->f)
					rd[d] += zt[z] * (s->n - 2) / (s->n - 1);
		}
	}
	r->lb_write_ns = wr;
	for (uint32_t d = 0; d < s->n; d++)
		r->lb_read_ns = rd[d] > r->lb_read_ns ? rd[d] : r->lb_read_ns;
	r->lb_ns = wr > r->lb_read_ns ? wr : r->lb_read_ns;
	r->whole_disk_ns = whole;
out:
	free(zt);
	free(rd);
}

/* Mean device time of one array request of the mix, healthy, one command at a time. */
static int calibrate(struct rb *s, double *dev_ns)
{
	struct ztime *t;
	struct zl_rng save = s->rng;
	double sum = 0;
	char msg[256];
	int ret;

	ret = ztime_create(ztime_params(s->dev[0].t), &(struct ztime_geo){ s->zone,
			   (uint32_t)s->nr_zones }, &t, msg, sizeof(msg));
	if (ret)
		return ret;
	/* every command of a request timed on one drive, back to back, the
	 * head left where the previous one put it */
	for (uint32_t i = 0; i < FG_CALIB; i++) {
		uint64_t u = zl_rng_below(&s->rng, 100), len = u < FG_PCT_RAND ? FG_RAND_BYTES :
							     FG_BIG_BYTES;
		uint64_t now = ztime_media_free_ns(t);

		if (u < FG_PCT_RAND + FG_PCT_BIGREAD) {
			uint64_t off = zl_rng_below(&s->rng, (s->alloc * s->zone - len) / ELEM) * ELEM;
			uint64_t cols = data_cols(s), per = (len + cols * ELEM - 1) / (cols * ELEM) * ELEM;
			struct ztime_req r = { ZTIME_READ, off, len, false, false };

			if (s->c->profile != SIM_RB_RAID1 && len > ELEM) {
				/* striped: cols commands of about len / cols each */
				for (uint64_t j = 0; j < cols; j++) {
					r.off_bytes = zl_rng_below(&s->rng, (s->alloc * s->zone -
								per) / ELEM) * ELEM;
					r.len_bytes = per;
					sum += (double)(ztime_submit(t, now, &r) - now);
					now = ztime_media_free_ns(t);
				}
			} else {
				sum += (double)(ztime_submit(t, now, &r) - now);
			}
		} else {
			uint64_t copies = s->c->profile == SIM_RB_RAID6 ? s->n :
					  s->c->profile == SIM_RB_RAID10 ? s->n : 2;
			uint64_t per = s->c->profile == SIM_RB_RAID1 ? len :
				       s->c->profile == SIM_RB_RAID10 ? len / (s->n / 2) :
				       (len + (s->n - 2) * ELEM - 1) / ((s->n - 2) * ELEM) * ELEM;
			/* each drive writes at its frontier after serving reads elsewhere */
			struct ztime_req r = { ZTIME_WRITE, s->alloc * s->zone + (i % 64) * MIB, per,
					       true, false };
			uint64_t c;

			for (c = 0; c < copies; c++) {
				struct ztime_req rr = { ZTIME_READ, zl_rng_below(&s->rng, s->alloc) *
							s->zone, ELEM, false, false };

				now = ztime_submit(t, now, &rr);  /* the head is elsewhere */
				sum += (double)(ztime_submit(t, now, &r) - now);
				now = ztime_media_free_ns(t);
			}
		}
	}
	ztime_destroy(t);
	s->rng = save;
	*dev_ns = sum / FG_CALIB;
	return 0;
}

/* ---- the run ---- */

/* The fraction of the phase up to now (healthy: since 0; rebuild: since the
 * failure) whose arrivals the open-loop generator has issued: 1 - how far
 * its next arrival time lies behind now.  1 without foreground. */
static double admitted(const struct rb *s)
{
	uint64_t t0 = s->failed && s->now > s->t_fail ? s->t_fail : 0;
	double lag;

	if (!s->lambda || s->now <= t0)
		return 1;
	lag = s->next_arrive < s->now ? (double)(s->now - s->next_arrive) : 0;
	return lag >= (double)(s->now - t0) ? 0 : 1 - lag / (double)(s->now - t0);
}

static void lat_of(const struct ana_hist *h, struct sim_rb_lat *l)
{
	l->n = h->n;
	l->p50_ns = ana_hist_quantile(h, 0.5);
	l->p99_ns = ana_hist_quantile(h, 0.99);
	l->mean_ns = h->n ? h->sum / h->n : 0;
}

int sim_rb_run(const struct sim_rb_cfg *c, struct sim_rb_result *res, char *msg, size_t msg_len)
{
	struct rb s = { .c = c, .r = res, .n = c->nr_devs, .f = c->failed };
	struct ztime_params p;
	struct ztime_geo g;
	struct sim_event ev;
	double dev_ns = 0;
	int ret;

	memset(res, 0, sizeof(*res));
	ret = sim_rb_cfg_check(c, msg, msg_len);
	if (ret)
		return ret;
	if (ztime_parse(c->timing_model ? c->timing_model : "hc620", &p, msg, msg_len))
		return -EINVAL;
	if (p.kind != ZTIME_HDD)
		return snprintf(msg, msg_len, "rebuild: --timing-model %s: the rebuild model is for "
				"hard disks (an SMR preset such as hc620)", p.preset), -EINVAL;
	ztime_format(&p, res->timing_model, sizeof(res->timing_model));
	s.zone = c->zone_bytes;
	s.nr_zones = c->nr_zones ? c->nr_zones : p.capacity_bytes / s.zone;
	s.alloc = (uint64_t)(c->alloc * (double)s.nr_zones);
	if (s.nr_zones < 4 || !s.alloc || s.alloc >= s.nr_zones)
		return snprintf(msg, msg_len, "rebuild: %llu zones of %llu bytes with %g allocated: "
				"need at least 4 zones, some allocated and some free",
				(unsigned long long)s.nr_zones, (unsigned long long)s.zone,
				c->alloc), -EINVAL;
	g.zone_bytes = s.zone;
	g.nr_zones = (uint32_t)s.nr_zones;
	res->zone_bytes = s.zone;
	res->nr_zones = (uint32_t)s.nr_zones;
	res->alloc_zones = (uint32_t)s.alloc;
	res->drive_bytes = p.capacity_bytes;
	zl_rng_seed(&s.rng, c->seed);
	s.dev = calloc(s.n, sizeof(*s.dev));
	s.ring_n = c->depth;
	s.ring = calloc(s.ring_n, sizeof(*s.ring));
	s.h_before = calloc(1, sizeof(*s.h_before));
	s.h_during = calloc(1, sizeof(*s.h_during));
	ret = -ENOMEM;
	if (!s.dev || !s.ring || !s.h_before || !s.h_during)
		goto out_free;
	for (uint32_t d = 0; d < s.n; d++) {
		ret = ztime_create(&p, &g, &s.dev[d].t, msg, msg_len);
		if (ret)
			goto out_free;
	}
	ret = layout(&s);
	if (!ret)
		ret = sample_plan(&s);
	if (ret)
		goto out_free;
	s.fg_cap = FG_CAP_PER_DEV * s.n;
	if (c->fg_load > 0) {
		ret = calibrate(&s, &dev_ns);
		if (ret)
			goto out_free;
		/* n drives, dev_ns of device time per request: n / dev_ns at 100% */
		s.lambda = c->fg_load * s.n / dev_ns;
		res->fg_offered_per_s = s.lambda * 1e9;
		s.next_arrive = next_gap(&s);
		ret = sim_heap_push(&s.heap, s.next_arrive, EV_ARRIVE, 0, NULL);
		if (ret)
			goto out_free;
		s.t_fail = c->before_ns;
	}
	for (;;) {
		if (!s.failed && (!s.heap.nr || s.heap.v[0].t_ns >= s.t_fail)) {
			s.failed = true;
			s.now = s.t_fail;
			for (uint32_t d = 0; d < s.n; d++)
				res->fg_util_before += s.t_fail ? (double)s.dev[d].fg_busy_before_ns /
							 (double)s.t_fail / s.n : 0;
			res->wa_fg = res->fg_user_write_bytes ? (double)res->fg_dev_write_bytes /
				     (double)res->fg_user_write_bytes : 0;
			res->fg_admitted_before = admitted(&s);
			s.t_prev = s.t_fail;
			for (uint32_t d = 0; d < s.n; d++)
				s.dev[d].wr_adv = 0;
			ret = rebuild_fill(&s);
			if (ret)
				goto out_free;
		}
		if (s.done || !sim_heap_pop(&s.heap, &ev))
			break;
		s.now = ev.t_ns;
		if (s.failed && rebuild_elapsed_ns(&s) > (double)c->max_ns)
			break;
		ret = ev.type == EV_ARRIVE ? fg_arrive(&s) : op_done(&s, ev.ptr);
		if (ret)
			goto out_free;
	}
	res->finished = s.done;
	bounds(&s);
	for (uint32_t d = 0; d < s.n; d++)
		if (s.dev[d].rb_read_bytes > res->max_dev_read_bytes)
			res->max_dev_read_bytes = s.dev[d].rb_read_bytes;
	res->progress = res->copy_bytes ? (double)res->copied_bytes / (double)res->copy_bytes : 1;
	if (!s.done) {
		res->sim_rebuild_ns = s.now - s.t_fail;
		res->rebuild_ns = (uint64_t)llround(rebuild_elapsed_ns(&s));
	}
	res->fg_admitted_during = admitted(&s);
	res->fg_saturated = res->fg_admitted_before < SIM_RB_SATURATED ||
			    res->fg_admitted_during < SIM_RB_SATURATED;
	lat_of(s.h_before, &res->before);
	lat_of(s.h_during, &res->during);
	ret = 0;
out_free:
	while (s.op_free) {
		struct rb_op *o = s.op_free;

		s.op_free = o->next;
		free(o);
	}
	while (s.fg_free) {
		struct fg_req *q = s.fg_free;

		s.fg_free = q->next;
		free(q);
	}
	/* what is still queued or in flight when the run stops */
	for (uint32_t h = 0; h < s.heap.nr; h++)
		if (s.heap.v[h].type == EV_DONE) {
			struct rb_op *o = s.heap.v[h].ptr;

			if (o->cls == CL_FG && !--((struct fg_req *)o->parent)->pending)
				free(o->parent);
			free(o);
		}
	for (uint32_t d = 0; s.dev && d < s.n; d++) {
		for (int cls = 0; cls < 2; cls++)
			while (s.dev[d].q_head[cls]) {
				struct rb_op *o = s.dev[d].q_head[cls];

				s.dev[d].q_head[cls] = o->next;
				if (o->cls == CL_FG && !--((struct fg_req *)o->parent)->pending)
					free(o->parent);
				free(o);
			}
		ztime_destroy(s.dev[d].t);
	}
	sim_heap_fini(&s.heap);
	free(s.dev);
	free(s.ring);
	free(s.map);
	free(s.r1_dev);
	free(s.r1_zone);
	free(s.zone_bg);
	free(s.zw);
	free(s.zgrp);
	free(s.h_before);
	free(s.h_during);
	return ret;
}

/* ---- output ---- */

static void lat_json(FILE *f, const char *name, const struct sim_rb_lat *l)
{
	fprintf(f, "\"%s\": { \"n\": %llu, \"p50_ms\": %.3f, \"p99_ms\": %.3f, \"mean_ms\": %.3f }",
		name, (unsigned long long)l->n, l->p50_ns / 1e6, l->p99_ns / 1e6, l->mean_ns / 1e6);
}

void sim_rb_json(FILE *f, const struct sim_rb_cfg *c, const struct sim_rb_result *r)
{
	double h = 3600e9, cols = c->profile == SIM_RB_RAID6 ? c->nr_devs - 2 : 1;

	fprintf(f, "{\n  \"model\": \"rebuild (extent level, docs/REBUILD.md)\",\n");
	fprintf(f, "  \"config\": { \"profile\": \"%s\", \"hypothetical\": %s, \"devices\": %u, "
		"\"timing_model\": ", sim_rb_profile_names[c->profile],
		c->profile == SIM_RB_RAID6 ? "true" : "false", c->nr_devs);
	zl_json_fprint_str(f, r->timing_model);
	fprintf(f, ", \"drive_bytes\": %llu, \"zone_bytes\": %llu, \"zones\": %u, "
		"\"alloc_zones\": %u, \"alloc\": %g, \"fg_load\": %g, \"priority\": \"%s\", "
		"\"share\": %g, \"io_bytes\": %llu, \"depth\": %u, \"failed\": %u, \"seed\": %llu },\n",
		(unsigned long long)r->drive_bytes, (unsigned long long)r->zone_bytes, r->nr_zones,
		r->alloc_zones, c->alloc, c->fg_load, c->prio == SIM_RB_IDLE ? "idle" : "share",
		c->prio == SIM_RB_SHARE ? c->share : 0, (unsigned long long)c->io_bytes, c->depth,
		c->failed, (unsigned long long)c->seed);
	fprintf(f, "  \"rebuild\": { \"finished\": %s, \"progress\": %.6f, \"hours\": %.4f, "
		"\"copy_bytes\": %llu, \"copied_bytes\": %llu, \"read_bytes\": %llu, "
		"\"read_per_copied\": %.4f, \"max_dev_read_bytes\": %llu,\n"
		"    \"sample\": %u, \"sim_hours\": %.4f, \"sim_copied_bytes\": %llu,\n"
		"    \"lb_hours\": %.4f, \"lb_write_hours\": %.4f, \"lb_read_hours\": %.4f, "
		"\"lb_fg_hours\": %.4f, \"over_lb\": %.4f, \"whole_disk_hours\": %.4f },\n",
		r->finished ? "true" : "false", r->progress, r->rebuild_ns / h,
		(unsigned long long)r->copy_bytes, (unsigned long long)r->copied_bytes,
		(unsigned long long)r->read_bytes,
		r->sim_copied_bytes ? (double)r->read_bytes / (double)r->sim_copied_bytes : 0,
		(unsigned long long)r->max_dev_read_bytes, c->sample, r->sim_rebuild_ns / h,
		(unsigned long long)r->sim_copied_bytes, r->lb_ns / h, r->lb_write_ns / h,
		r->lb_read_ns / h, r->lb_ns / (1 - c->fg_load) / h,
		r->lb_ns > 0 ? r->rebuild_ns / r->lb_ns : 0, r->whole_disk_ns / h);
	fprintf(f, "  \"fg\": { \"offered_per_s\": %.3f, \"util_before\": %.4f, ",
		r->fg_offered_per_s, r->fg_util_before);
	lat_json(f, "before", &r->before);
	fprintf(f, ", ");
	lat_json(f, "during", &r->during);
	fprintf(f, ", \"p99_during_over_before\": %.3f,\n    \"admitted_before\": %.4f, "
		"\"admitted_during\": %.4f, \"saturated\": %s },\n",
		r->before.p99_ns ? (double)r->during.p99_ns / r->before.p99_ns : 0,
		r->fg_admitted_before, r->fg_admitted_during, r->fg_saturated ? "true" : "false");
	fprintf(f, "  \"wa\": { \"parity\": %.4f, \"fg_measured\": %.4f },\n",
		c->profile == SIM_RB_RAID6 ? c->nr_devs / cols : 2.0, r->wa_fg);
	fprintf(f, "  \"commands\": %llu\n}\n", (unsigned long long)r->nr_commands);
}
