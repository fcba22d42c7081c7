/*
 * zfault.c — the fault engine: a list of rules with ids, per-rule match and
 * fire counters, seeded generators, and the evaluation that turns the rules
 * matching one command into one verdict.
 *
 * This file only decides.  It does not touch zones, bytes or clocks: zdisk
 * carries verdicts out.  It knows no text: one rule's text form (parsing,
 * formatting, action names) is zfault_parse.c, lists of rules as text are
 * zfault_text.c; both call this file, never the other way.  The engine is
 * not thread-safe; zdisk serializes calls under its own lock.
 *
 * Randomness: every rule owns a xoshiro256** generator (zl_rng.h) seeded
 * (through splitmix64) from the engine seed and the rule id.  A rule draws
 * from it only when it is considered past its `after` and its prob is below
 * 1 (one draw to decide whether it fires), and when a fired latency rule
 * samples a non-fixed distribution.  So the same seed and the same sequence
 * of zfault_eval() calls give the same verdicts, and adding, removing or
 * changing one rule never changes the draws of another.  No rand(), no clock.
 */
#include "zfault.h"
#include "zl_rng.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Upper bound of a Pareto sample, as a multiple of the scale a. */
#define ZFAULT_PARETO_CAP 1000u

struct zfault_entry {
	struct zfault_rule rule;
	uint32_t id;
	uint64_t nr_matched;      /* matches counted (including those skipped by after) */
	uint64_t nr_fired;        /* times the rule fired */
	struct zl_rng rng;        /* this rule's stream (zl_rng.h) */
};

struct zfault {
	uint64_t seed;
	uint32_t next_id;         /* ids are never reused, not even after clear */
	uint32_t nr_rules;
	uint32_t cap_rules;
	struct zfault_entry *rules;  /* sorted by id */
	uint64_t release_gen;
};

/* A rule's generator: its own stream, from the engine seed and the rule id. */
static void rng_seed(struct zl_rng *r, uint64_t seed, uint32_t id)
{
	zl_rng_seed(r, seed ^ ((uint64_t)id * 0xd1b54a32d192ed03ULL));
}

static inline uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static inline uint64_t sat_mul(uint64_t a, uint64_t b)
{
	if (a && b > UINT64_MAX / a)
		return UINT64_MAX;
	return a * b;
}

static uint64_t dbl_to_ns(double x)
{
	if (!(x >= 0.0))
		return 0;
	if (x >= 18446744073709551615.0)
		return UINT64_MAX;
	return (uint64_t)x;
}

/* One latency sample in ns (see enum zfault_dist and docs/FAULTS.md). */
static uint64_t latency_sample(const struct zfault_rule *r, struct zl_rng *rng)
{
	uint64_t a = r->lat_a_ns, b = r->lat_b_ns, span, cap;
	double u, x;

	switch (r->dist) {
	case ZFAULT_DIST_UNIFORM:
		if (b <= a)
			return a;
		span = b - a + 1;       /* 0 means the full 2^64 range */
		if (!span)
			return zl_rng_next(rng);
		return a + zl_rng_below(rng, span);
	case ZFAULT_DIST_EXP:
		u = zl_rng_unit(rng);   /* [0, 1): 1 - u in (0, 1] */
		return dbl_to_ns(-(double)a * log1p(-u));
	case ZFAULT_DIST_PARETO:
		if (b < 2)
			return a;
		cap = sat_mul(a, ZFAULT_PARETO_CAP);
		u = 1.0 - zl_rng_unit(rng);  /* (0, 1] */
		x = (double)a / pow(u, 1.0 / (double)b);
		if (!(x < (double)cap))
			return cap;
		return dbl_to_ns(x) < a ? a : dbl_to_ns(x);
	case ZFAULT_DIST_FIXED:
	default:
		return a;
	}
}

/**
 * zfault_create() - an empty rule engine.
 * @seed: seeds every rule's generator (with the rule id).
 * @out: gets the engine; set only on success.  Caller owns it and frees it
 *       with zfault_destroy().
 *
 * Return: 0, -EINVAL (@out NULL) or -ENOMEM.
 */
int zfault_create(uint64_t seed, struct zfault **out)
{
	struct zfault *f;

	if (!out)
		return -EINVAL;
	f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	f->seed = seed;
	f->next_id = 1;
	*out = f;
	return 0;
}

/**
 * zfault_destroy() - free an engine and its rules.  NULL is a no-op.
 * @f: engine (owned; invalid afterwards).
 */
void zfault_destroy(struct zfault *f)
{
	if (!f)
		return;
	free(f->rules);
	free(f);
}

/**
 * zfault_rule_init() - a rule with the defaults of the text form.
 * @r: caller storage.
 * @a: action.
 *
 * ops any (0), no LBA or zone restriction, after 0, prob 1, count 1 (once),
 * torn-write keep 50%, latency fixed 0 ns.
 */
void zfault_rule_init(struct zfault_rule *r, enum zfault_action a)
{
	memset(r, 0, sizeof(*r));      /* ops any, ranges from 0, after 0, fixed 0 ns */
	r->action = a;
	r->lba_last = UINT64_MAX;
	r->zone_last = UINT32_MAX;
	r->prob = 1.0;
	r->count = 1;
	r->torn_keep_pct = a == ZFAULT_TORN_WRITE ? 50 : 0;
}

/* Structural validity of a rule given through the C API. */
static bool rule_is_valid(const struct zfault_rule *r)
{
	if (r->action < ZFAULT_MEDIUM_ERROR || r->action > ZFAULT_POWER_LOSS)
		return false;
	if (r->ops & ~(uint32_t)ZFAULT_OP_ANY)
		return false;
	if (r->lba_first > r->lba_last || r->zone_first > r->zone_last)
		return false;
	if (!(r->prob >= 0.0 && r->prob <= 1.0))
		return false;
	if (r->action == ZFAULT_TORN_WRITE && r->torn_keep_pct > 100)
		return false;
	if (r->action == ZFAULT_LATENCY) {
		switch (r->dist) {
		case ZFAULT_DIST_FIXED:
		case ZFAULT_DIST_EXP:
			break;
		case ZFAULT_DIST_UNIFORM:
			if (r->lat_a_ns > r->lat_b_ns)
				return false;
			break;
		case ZFAULT_DIST_PARETO:
			if (r->lat_b_ns < 2)
				return false;
			break;
		default:
			return false;
		}
	}
	return true;
}

static int reserve(struct zfault *f, uint32_t nr_more)
{
	struct zfault_entry *n;
	uint64_t want = (uint64_t)f->nr_rules + nr_more;
	uint64_t cap = f->cap_rules ? f->cap_rules : 8;

	if (want <= f->cap_rules)
		return 0;
	if (want > UINT32_MAX / 2)
		return -ENOMEM;
	while (cap < want)
		cap *= 2;
	n = realloc(f->rules, cap * sizeof(*n));
	if (!n)
		return -ENOMEM;
	f->rules = n;
	f->cap_rules = (uint32_t)cap;
	return 0;
}

/* Append a valid rule; capacity must have been reserved. */
static uint32_t append(struct zfault *f, const struct zfault_rule *r)
{
	struct zfault_entry *e = &f->rules[f->nr_rules];

	memset(e, 0, sizeof(*e));
	e->rule = *r;
	e->id = f->next_id++;
	rng_seed(&e->rng, f->seed, e->id);
	__atomic_store_n(&f->nr_rules, f->nr_rules + 1, __ATOMIC_RELAXED);   /* zfault_nr_rules() */
	return e->id;
}

/**
 * zfault_add() - append a copy of a rule.
 * @f: engine.
 * @r: rule (borrowed; copied).
 * @id: may be NULL; gets the new rule's id (> 0, larger than every id before).
 *
 * Return: 0, -EINVAL (invalid rule, see docs/FAULTS.md) or -ENOMEM.
 */
int zfault_add(struct zfault *f, const struct zfault_rule *r, uint32_t *id)
{
	uint32_t new_id;
	int ret;

	if (!f || !r || !rule_is_valid(r))
		return -EINVAL;
	if (f->next_id == UINT32_MAX)
		return -ENOMEM;         /* ids exhausted */
	ret = reserve(f, 1);
	if (ret)
		return ret;
	new_id = append(f, r);
	if (id)
		*id = new_id;
	return 0;
}

/**
 * zfault_add_all() - append copies of @nr rules: all of them or none.
 * @f: engine.
 * @r: rules (borrowed; copied).  @nr 0 adds nothing and succeeds.
 * @nr: number of rules.
 *
 * They get consecutive ids in array order.
 * Return: 0, -EINVAL (an invalid rule: nothing added) or -ENOMEM (nothing added).
 */
int zfault_add_all(struct zfault *f, const struct zfault_rule *r, uint32_t nr)
{
	uint32_t i;
	int ret;

	if (!f || (nr && !r))
		return -EINVAL;
	for (i = 0; i < nr; i++)
		if (!rule_is_valid(&r[i]))
			return -EINVAL;
	if (f->next_id > UINT32_MAX - nr)
		return -ENOMEM;         /* ids exhausted */
	ret = reserve(f, nr);
	if (ret)
		return ret;
	/* Nothing fails from here. */
	for (i = 0; i < nr; i++)
		append(f, &r[i]);
	return 0;
}

/**
 * zfault_remove() - remove one rule; the other ids do not change.
 * @f: engine.
 * @id: rule id.
 *
 * Return: 0 or -ENOENT.
 */
int zfault_remove(struct zfault *f, uint32_t id)
{
	uint32_t i;

	if (!f)
		return -ENOENT;
	for (i = 0; i < f->nr_rules; i++) {
		if (f->rules[i].id != id)
			continue;
		memmove(&f->rules[i], &f->rules[i + 1],
			(size_t)(f->nr_rules - i - 1) * sizeof(f->rules[0]));
		__atomic_store_n(&f->nr_rules, f->nr_rules - 1, __ATOMIC_RELAXED);
		return 0;
	}
	return -ENOENT;
}

/**
 * zfault_clear() - remove every rule.  Ids are not reused afterwards.
 * @f: engine.
 */
void zfault_clear(struct zfault *f)
{
	if (f)
		__atomic_store_n(&f->nr_rules, 0, __ATOMIC_RELAXED);
}

/**
 * zfault_nr_rules() - number of listed rules (exhausted ones included).
 * @f: engine (NULL counts as empty).
 */
uint32_t zfault_nr_rules(const struct zfault *f)
{
	/* atomic: zdisk's lock-free read path asks without the lock (and
	 * discards the answer if a locked section ran meanwhile) */
	return f ? __atomic_load_n(&f->nr_rules, __ATOMIC_RELAXED) : 0;
}

/**
 * zfault_get() - one listed rule with its counters.
 * @f: engine.
 * @i: position in the list, 0 <= @i < zfault_nr_rules() (the list is in id order).
 * @out: caller storage; set only on success.
 *
 * Return: 0 or -ENOENT (no such position).
 */
int zfault_get(const struct zfault *f, uint32_t i, struct zfault_rule_info *out)
{
	const struct zfault_entry *e;

	if (!f || i >= f->nr_rules)
		return -ENOENT;
	e = &f->rules[i];
	out->id = e->id;
	out->rule = e->rule;
	out->nr_matched = e->nr_matched;
	out->nr_fired = e->nr_fired;
	return 0;
}

/* Does rule @r concern a command of type @op with @nr_lba LBAs at all? */
static bool rule_applies(const struct zfault_rule *r, enum zfault_op op, uint64_t nr_lba)
{
	uint32_t ops = r->ops ? r->ops : ZFAULT_OP_ANY;

	if (!(ops & op))
		return false;
	switch (r->action) {
	case ZFAULT_TORN_WRITE:
		return op == ZFAULT_OP_WRITE && nr_lba >= 2;
	case ZFAULT_READ_ONLY:
	case ZFAULT_OFFLINE:
		return op != ZFAULT_OP_FLUSH;   /* a flush has no zone */
	default:
		return true;
	}
}

static inline bool rule_has_lba_range(const struct zfault_rule *r)
{
	return r->lba_first != 0 || r->lba_last != UINT64_MAX;
}

static inline bool rule_has_zone_range(const struct zfault_rule *r)
{
	return r->zone_first != 0 || r->zone_last != UINT32_MAX;
}

static bool rule_matches(const struct zfault_rule *r, enum zfault_op op, uint64_t lba,
			 uint64_t last_lba, uint32_t zone_first, uint32_t zone_last)
{
	if (op == ZFAULT_OP_FLUSH)
		return !rule_has_lba_range(r) && !rule_has_zone_range(r);
	if (lba > r->lba_last || last_lba < r->lba_first)
		return false;
	if (zone_first > r->zone_last || zone_last < r->zone_first)
		return false;
	return true;
}

static uint64_t torn_keep(const struct zfault_rule *r, uint64_t nr_lba)
{
	uint64_t keep;

	if (r->torn_keep_lba)
		keep = r->torn_keep_lba;
	else
		keep = (uint64_t)(((unsigned __int128)nr_lba * r->torn_keep_pct) / 100);
	return keep > nr_lba - 1 ? nr_lba - 1 : keep;
}

/**
 * zfault_eval() - decide what happens to one command.
 * @f: engine (NULL: empty verdict).
 * @op: the command's operation (one ZFAULT_OP_* bit).
 * @lba: first LBA (flush: ignored).
 * @nr_lba: LBAs touched (zone op: the zone's length; flush: 0).
 * @zone_first: first zone touched.
 * @zone_last: last zone touched (swapped with @zone_first when smaller).
 * @v: always filled; see docs/FAULTS.md for matching and combining, and
 *     struct zfault_verdict for err_lba / err_zone (the failing LBA).
 *
 * Advances the match and fire counters and the generators of the rules
 * considered; deterministic given the seed and the sequence of calls.
 */
void zfault_eval(struct zfault *f, enum zfault_op op, uint64_t lba, uint64_t nr_lba,
		 uint32_t zone_first, uint32_t zone_last, struct zfault_verdict *v)
{
	uint32_t err_id = 0, cond_id = 0, stall_id = 0, power_id = 0;
	uint64_t last_lba;
	uint32_t i;

	memset(v, 0, sizeof(*v));
	if (!f)
		return;
	if (zone_first > zone_last) {
		uint32_t t = zone_first;

		zone_first = zone_last;
		zone_last = t;
	}
	/* A zero-length command touches the LBA it names. */
	last_lba = nr_lba ? sat_add(lba, nr_lba - 1) : lba;

	for (i = 0; i < f->nr_rules; i++) {
		struct zfault_entry *e = &f->rules[i];
		const struct zfault_rule *r = &e->rule;

		if (r->count && e->nr_fired >= r->count)
			continue;               /* exhausted: inert, not even counted */
		if (!rule_applies(r, op, nr_lba) ||
		    !rule_matches(r, op, lba, last_lba, zone_first, zone_last))
			continue;
		e->nr_matched++;
		if (e->nr_matched <= r->after)
			continue;
		if (r->prob < 1.0 && !(zl_rng_unit(&e->rng) < r->prob))
			continue;
		e->nr_fired++;

		switch (r->action) {
		case ZFAULT_MEDIUM_ERROR:
			if (!err_id) {
				err_id = e->id;
				v->err = op == ZFAULT_OP_READ ? ZL_E_MEDIUM_READ : ZL_E_MEDIUM_WRITE;
				/* first LBA and zone of command ∩ rule ranges */
				v->err_lba = lba > r->lba_first ? lba : r->lba_first;
				v->err_zone = zone_first > r->zone_first ? zone_first : r->zone_first;
			}
			break;
		case ZFAULT_TORN_WRITE:
			if (!err_id) {
				err_id = e->id;
				v->err = ZL_E_TORN_WRITE;
				v->torn_keep_lba = torn_keep(r, nr_lba);
				v->err_lba = sat_add(lba, v->torn_keep_lba);
			}
			break;
		case ZFAULT_READ_ONLY:
		case ZFAULT_OFFLINE:
			if (!cond_id) {
				cond_id = e->id;
				v->set_cond = r->action == ZFAULT_READ_ONLY ?
					ZL_COND_READ_ONLY : ZL_COND_OFFLINE;
				/* first zone of command ∩ rule zone range */
				v->set_zone = zone_first > r->zone_first ? zone_first : r->zone_first;
			}
			break;
		case ZFAULT_LATENCY:
			v->delay_ns = sat_add(v->delay_ns, latency_sample(r, &e->rng));
			break;
		case ZFAULT_STALL:
			if (!stall_id)
				stall_id = e->id;
			v->stall = true;
			break;
		case ZFAULT_POWER_LOSS:
			if (!power_id)
				power_id = e->id;
			break;
		}
	}

	if (power_id) {
		/* Power loss wins over everything: the command never completes. */
		memset(v, 0, sizeof(*v));
		v->err = ZL_E_POWER_LOSS;
		v->rule_id = power_id;
		return;
	}
	v->rule_id = err_id ? err_id : cond_id ? cond_id : stall_id;
}

/**
 * zfault_release_gen() - generation bumped by every zfault_release_all().
 * @f: engine (NULL: 0).
 */
uint64_t zfault_release_gen(const struct zfault *f)
{
	return f ? f->release_gen : 0;
}

/**
 * zfault_release_all() - release every stalled command (zdisk waits on the
 * generation changing).
 * @f: engine.
 */
void zfault_release_all(struct zfault *f)
{
	if (f)
		f->release_gen++;
}
