/*
 * fsc_clean.c — the cleaning room's registry: the policy table (one row per
 * policy, one file per policy: fsc_clean_<name>.c), the names and
 * parameters and the parsing of "NAME[:params]", the binding of the
 * configured policy to a file system (fsc_clean_init(), from fs-core's
 * entry fsc.c) and the pick the caller asks for.  It is not the machinery
 * the policies share (fsc_clean_heap.c, fsc_clean_score.c) nor the core's
 * bookkeeping of which block groups are candidates (fsc_clean_sync() in
 * fs-core/fsc_bg.c, which reaches the policy only through its ops).  It
 * does not decide when to clean: the caller (the simulator) does.
 * docs/POLICIES.md describes the interface and how to add a policy.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsc_clean_int.h"
#include "zl_err.h"

/* One row per policy, indexed by enum fsc_clean_policy. */
static const struct fsc_clean_ops *const clean_table[FSC_NR_CLEAN] = {
	[FSC_CLEAN_FIFO] = &fsc_clean_fifo_ops,
	[FSC_CLEAN_GREEDY] = &fsc_clean_greedy_ops,
	[FSC_CLEAN_COST_BENEFIT] = &fsc_clean_cost_benefit_ops,
	[FSC_CLEAN_CAT] = &fsc_clean_cat_ops,
	[FSC_CLEAN_DCHOICES] = &fsc_clean_dchoices_ops,
	[FSC_CLEAN_WINDOWED] = &fsc_clean_windowed_ops,
	[FSC_CLEAN_BTRFS] = &fsc_clean_btrfs_ops,
};

const char *const fsc_clean_names[FSC_NR_CLEAN + 1] = {
	"fifo", "greedy", "cost-benefit", "cat", "d-choices", "windowed", "btrfs", NULL,
};

const char *fsc_clean_param_help(enum fsc_clean_policy p)
{
	return (unsigned)p < FSC_NR_CLEAN ? clean_table[p]->params : "";
}

void fsc_clean_params_init(struct fsc_clean_params *p)
{
	memset(p, 0, sizeof(*p));
	p->d = 2;
	p->replace = false;
	p->w = 16;
	p->threshold_pct = 75;
}

/* The parameters: key, policy, range, where it goes. */
static const struct clean_key {
	const char *key;
	enum fsc_clean_policy policy;
	uint32_t min, max;
	size_t off;
	bool is_bool;
} clean_keys[] = {
	{ "d", FSC_CLEAN_DCHOICES, 1, 1024, offsetof(struct fsc_clean_params, d), false },
	{ "replace", FSC_CLEAN_DCHOICES, 0, 1, offsetof(struct fsc_clean_params, replace), true },
	{ "w", FSC_CLEAN_WINDOWED, 1, 1u << 30, offsetof(struct fsc_clean_params, w), false },
	{ "threshold", FSC_CLEAN_BTRFS, 1, 100, offsetof(struct fsc_clean_params, threshold_pct),
	  false },
};
#define NR_KEYS (sizeof(clean_keys) / sizeof(clean_keys[0]))

static uint32_t key_get(const struct fsc_clean_params *p, const struct clean_key *k)
{
	const char *base = (const char *)p + k->off;

	if (k->is_bool)
		return *(const bool *)base;
	return *(const uint32_t *)base;
}

static void key_set(struct fsc_clean_params *p, const struct clean_key *k, uint32_t v)
{
	char *base = (char *)p + k->off;

	if (k->is_bool)
		*(bool *)base = v != 0;
	else
		*(uint32_t *)base = v;
}

int fsc_clean_params_check(enum fsc_clean_policy policy, const struct fsc_clean_params *params,
			   char *msg, size_t msg_len)
{
	size_t i;

	if ((unsigned)policy >= FSC_NR_CLEAN) {
		zl_msgf(msg, msg_len, "cleaning policy %d: not a known one", (int)policy);
		return -EINVAL;
	}
	for (i = 0; i < NR_KEYS; i++) {
		const struct clean_key *k = &clean_keys[i];
		uint32_t v = key_get(params, k);

		if (k->policy == policy && (v < k->min || v > k->max)) {
			zl_msgf(msg, msg_len, "--clean %s: %s=%u: between %u and %u",
				fsc_clean_names[policy], k->key, v, k->min, k->max);
			return -EINVAL;
		}
	}
	return 0;
}

static void names_list(char *msg, size_t msg_len, size_t n)
{
	int k;

	for (k = 0; fsc_clean_names[k] && n < msg_len; k++)
		n += (size_t)snprintf(msg + n, msg_len - n, "%s%s", k ? ", " : "", fsc_clean_names[k]);
}

int fsc_clean_parse(const char *spec, enum fsc_clean_policy *policy,
		    struct fsc_clean_params *params, char *msg, size_t msg_len)
{
	char buf[128], *colon, *tok, *save = NULL;
	struct fsc_clean_params p;
	int pol = -1, k;
	size_t i, n;

	if (!spec || strlen(spec) >= sizeof(buf)) {
		zl_msgf(msg, msg_len, "--clean: a policy name is needed (at most %zu characters)",
			sizeof(buf) - 1);
		return -EINVAL;
	}
	strcpy(buf, spec);
	colon = strchr(buf, ':');
	if (colon)
		*colon++ = '\0';
	for (k = 0; fsc_clean_names[k]; k++)
		if (!strcmp(fsc_clean_names[k], buf))
			pol = k;
	if (pol < 0) {
		n = (size_t)snprintf(msg, msg_len, "--clean %s: unknown policy (one of: ", buf);
		if (n < msg_len)
			names_list(msg, msg_len, n);
		n = strlen(msg);
		if (n < msg_len)
			snprintf(msg + n, msg_len - n, ")");
		return -EINVAL;
	}
	fsc_clean_params_init(&p);
	for (tok = colon ? strtok_r(colon, ",", &save) : NULL; tok;
	     tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '='), *end;
		const struct clean_key *key = NULL;
		unsigned long v;

		for (i = 0; i < NR_KEYS; i++) {
			if (clean_keys[i].policy != (enum fsc_clean_policy)pol)
				continue;
			/* a lone value is the policy's first parameter */
			if (eq ? !strncmp(clean_keys[i].key, tok, (size_t)(eq - tok)) &&
				 strlen(clean_keys[i].key) == (size_t)(eq - tok) : !key) {
				key = &clean_keys[i];
				if (eq)
					break;
			}
		}
		if (!key) {
			if (!*clean_table[pol]->params)
				zl_msgf(msg, msg_len, "--clean %s: %s takes no parameters (\"%s\")",
					spec, fsc_clean_names[pol], tok);
			else
				zl_msgf(msg, msg_len, "--clean %s: unknown parameter \"%s\" (%s takes "
					"%s)", spec, tok, fsc_clean_names[pol],
					clean_table[pol]->params);
			return -EINVAL;
		}
		errno = 0;
		v = strtoul(eq ? eq + 1 : tok, &end, 10);
		if (errno || end == (eq ? eq + 1 : tok) || *end || v < key->min || v > key->max ||
		    (eq ? eq[1] : tok[0]) == '-') {
			zl_msgf(msg, msg_len, "--clean %s: %s=%s: an integer between %u and %u (%s "
				"takes %s)", spec, key->key, eq ? eq + 1 : tok, key->min, key->max,
				fsc_clean_names[pol], clean_table[pol]->params);
			return -EINVAL;
		}
		key_set(&p, key, (uint32_t)v);
	}
	*policy = (enum fsc_clean_policy)pol;
	*params = p;
	return 0;
}

void fsc_clean_spec(enum fsc_clean_policy policy, const struct fsc_clean_params *params,
		    char *buf, size_t len)
{
	size_t i, n;
	bool first = true;

	if ((unsigned)policy >= FSC_NR_CLEAN) {
		snprintf(buf, len, "?");
		return;
	}
	n = (size_t)snprintf(buf, len, "%s", fsc_clean_names[policy]);
	for (i = 0; i < NR_KEYS && n < len; i++) {
		if (clean_keys[i].policy != policy)
			continue;
		n += (size_t)snprintf(buf + n, len - n, "%s%s=%u", first ? ":" : ",",
				      clean_keys[i].key, key_get(params, &clean_keys[i]));
		first = false;
	}
}

/* ---- binding to a file system, and the pick ---- */

int fsc_clean_init(struct fsc *fs)
{
	struct fsc_clean *c = &fs->clean;
	uint64_t st = fs->cfg.seed ^ 0x636c65616e706f6cULL;  /* "cleanpol": own stream */
	char msg[128];
	int ret;

	if (fsc_clean_params_check(fs->cfg.clean, &fs->cfg.clean_params, msg, sizeof(msg)))
		return -EINVAL;
	memset(c, 0, sizeof(*c));
	c->ops = clean_table[fs->cfg.clean];
	c->p = fs->cfg.clean_params;
	zl_rng_seed(&c->rng, zl_splitmix64(&st));
	ret = c->ops->init ? c->ops->init(c) : 0;
	if (ret)
		c->ops = NULL;
	return ret;
}

void fsc_clean_fini(struct fsc *fs)
{
	struct fsc_clean *c = &fs->clean;
	int i;

	if (c->ops && c->ops->fini)
		c->ops->fini(c);
	for (i = 0; i < 3; i++)
		fsc_heap_fini(&c->heap[i]);
	free(c->arr);
	c->arr = NULL;
	c->ops = NULL;
}

struct fsc_bg *fsc_clean_pick_scan(struct fsc *fs)
{
	uint64_t now_ns = fs->st.user_bytes;  /* the age clock (fsc_int.h) */
	struct fsc_clean *c = &fs->clean;
	struct fsc_bg **cand, *best;
	uint32_t i, n = 0;

	if (!c->ops || !c->ops->pick_scan)
		return NULL;
	cand = malloc((fs->nr_bgs + 1) * sizeof(*cand));
	if (!cand)
		return NULL;
	for (i = 0; i < fs->nr_slots; i++)
		if (fs->bgs[i] && fsc_bg_is_cleanable(fs->bgs[i]))
			cand[n++] = fs->bgs[i];
	best = c->ops->pick_scan(c, cand, n, now_ns);
	free(cand);
	return best;
}

struct fsc_bg *fsc_clean_pick(struct fsc *fs)
{
	uint64_t now_ns = fs->st.user_bytes;  /* the age clock (fsc_int.h) */
	struct fsc_clean *c = &fs->clean;

	if (!c->ops)
		return NULL;
	if (c->broken)
		return fsc_clean_pick_scan(fs);
	return c->ops->pick(c, now_ns);
}
