/*
 * zfault.h — deterministic, seeded fault rules applied around the zone model
 * and the store.
 *
 * A rule matches commands by operation, LBA range or zone range, skips the
 * first N matches, then fires with probability p (drawn from the engine's
 * own seeded generator), once or repeatedly.  zfault only decides: it returns
 * a verdict, and zdisk carries it out (fails the command, stores a prefix,
 * changes a zone's condition, delays, stalls, drops volatile state).  The
 * text syntax is documented in docs/FAULTS.md.
 */
#ifndef ZFAULT_H
#define ZFAULT_H

#include <stddef.h>
#include <stdint.h>

#include "zl_types.h"
#include "zl_err.h"

struct zfault;

/* Operations a rule can match (bit mask). */
enum zfault_op {
	ZFAULT_OP_READ = 1u << 0,
	ZFAULT_OP_WRITE = 1u << 1,
	ZFAULT_OP_ZONE = 1u << 2,   /* open, close, finish, reset */
	ZFAULT_OP_FLUSH = 1u << 3,
	ZFAULT_OP_ANY = 0xf,
};

enum zfault_action {
	ZFAULT_MEDIUM_ERROR = 1,  /* fail with ZL_E_MEDIUM_READ / ZL_E_MEDIUM_WRITE */
	ZFAULT_READ_ONLY,         /* the zone of the command turns READ ONLY */
	ZFAULT_OFFLINE,           /* the zone of the command turns OFFLINE */
	ZFAULT_TORN_WRITE,        /* store only a prefix, then fail ZL_E_TORN_WRITE */
	ZFAULT_LATENCY,           /* add a delay */
	ZFAULT_STALL,             /* hold the command until released */
	ZFAULT_POWER_LOSS,        /* drop what is not durable, reopen */
};

enum zfault_dist {
	ZFAULT_DIST_FIXED = 0,    /* delay = a */
	ZFAULT_DIST_UNIFORM,      /* delay in [a, b] */
	ZFAULT_DIST_EXP,          /* exponential, mean a */
	ZFAULT_DIST_PARETO,       /* long tail: scale a, shape b (b > 1) */
};

struct zfault_rule {
	enum zfault_action action;
	uint32_t ops;             /* enum zfault_op mask; 0 = any */
	uint64_t lba_first;       /* match commands touching [lba_first, lba_last] */
	uint64_t lba_last;        /* UINT64_MAX = no LBA restriction */
	uint32_t zone_first;      /* match commands touching zones [zone_first, zone_last] */
	uint32_t zone_last;       /* UINT32_MAX = no zone restriction */
	uint64_t after;           /* skip this many matches first */
	double prob;              /* then fire with this probability (1.0 = always) */
	uint64_t count;           /* fire at most this many times; 0 = unlimited (repeat) */
	/* parameters */
	uint64_t torn_keep_lba;   /* TORN: LBAs kept (capped to the write length - 1) */
	uint32_t torn_keep_pct;   /* TORN: or percent kept when torn_keep_lba is 0 */
	enum zfault_dist dist;    /* LATENCY */
	uint64_t lat_a_ns, lat_b_ns;
};

/* What to do with one command (several rules may combine). */
struct zfault_verdict {
	int err;                  /* 0 or ZL_E_MEDIUM_READ/WRITE, ZL_E_TORN_WRITE, ZL_E_POWER_LOSS */
	uint64_t torn_keep_lba;   /* with ZL_E_TORN_WRITE: LBAs to store */
	/*
	 * With a medium error: the first LBA of the command that the deciding
	 * rule's LBA range covers (the command's first LBA when the rule has
	 * no LBA range); with a torn write: the first LBA not stored.  A zone
	 * range is not applied here (zfault knows no geometry): err_zone is
	 * the first zone of the command that the rule's zone range covers,
	 * and the caller raises err_lba to that zone's first LBA.
	 */
	uint64_t err_lba;
	uint32_t err_zone;        /* with a medium error (see err_lba) */
	uint64_t delay_ns;        /* total added latency */
	bool stall;               /* hold until zfault_release() */
	uint8_t set_cond;         /* 0 or ZL_COND_READ_ONLY / ZL_COND_OFFLINE for zone set_zone */
	uint32_t set_zone;
	uint32_t rule_id;         /* the rule that decided err/stall/set_cond */
};

/* Engine with its own generator seeded by @seed. Caller owns *@out. */
int zfault_create(uint64_t seed, struct zfault **out);
void zfault_destroy(struct zfault *f);

/* Defaults: ops any, no LBA/zone restriction, after 0, prob 1, count 1. */
void zfault_rule_init(struct zfault_rule *r, enum zfault_action a);

/**
 * zfault_parse() - one rule from text, e.g.
 *   "medium-error:op=read,lba=4096-8191,prob=0.01,count=0"
 * Returns 0 or ZL_E_FAULT_SYNTAX with @msg saying where (column) and why.
 */
int zfault_parse(const char *text, struct zfault_rule *r, char *msg, size_t msg_len);
/* Canonical text of a rule (parses back to the same rule). Returns length or -ENOSPC. */
int zfault_format(const struct zfault_rule *r, char *buf, size_t len);

/* Add a rule; *@id (may be NULL) gets its id (> 0). Returns 0 or -ENOMEM/-EINVAL. */
int zfault_add(struct zfault *f, const struct zfault_rule *r, uint32_t *id);
/* Add @nr rules, all of them or none (consecutive ids). Returns 0 or -ENOMEM/-EINVAL. */
int zfault_add_all(struct zfault *f, const struct zfault_rule *r, uint32_t nr);
int zfault_remove(struct zfault *f, uint32_t id);   /* 0 or -ENOENT */
void zfault_clear(struct zfault *f);
uint32_t zfault_nr_rules(const struct zfault *f);

/* One listed rule and its counters (zfault_get()). */
struct zfault_rule_info {
	uint32_t id;
	struct zfault_rule rule;
	uint64_t nr_matched;      /* matches counted (including those skipped by after) */
	uint64_t nr_fired;        /* times the rule fired */
};
/* The rule at position @i (< zfault_nr_rules(), id order). Returns 0 or -ENOENT. */
int zfault_get(const struct zfault *f, uint32_t i, struct zfault_rule_info *out);

/* Rule lists as text (zfault_text.c, over zfault_parse() and the calls above). */
/* Parse a ';'-separated list of rules and add them all, or none. */
int zfault_add_text(struct zfault *f, const char *text, char *msg, size_t msg_len);
/* Rules as text, one per line (caller frees with free()). */
char *zfault_list(const struct zfault *f);

/*
 * Evaluate every rule for one command touching LBAs [lba, lba + nr_lba)
 * (zone ops: the zone's range; flush: nr_lba 0, any LBA) and zones
 * [zone_first, zone_last].  Deterministic given the seed and the sequence of
 * calls.  Always fills @v.
 */
void zfault_eval(struct zfault *f, enum zfault_op op, uint64_t lba, uint64_t nr_lba,
		 uint32_t zone_first, uint32_t zone_last, struct zfault_verdict *v);

/* Stalls: zfault_eval() only reports them; zdisk waits on its own condition
 * until zfault_release_all() bumps the release generation. */
uint64_t zfault_release_gen(const struct zfault *f);
void zfault_release_all(struct zfault *f);

const char *zfault_action_name(enum zfault_action a);

#endif /* ZFAULT_H */
