/*
 * zfault_parse.c — the text form of fault rules: zfault_parse() turns one
 * rule such as "latency:op=write,dist=uniform,a=100us,b=2ms" into a struct
 * zfault_rule, zfault_format() writes the canonical text back (which parses
 * to an identical rule), and zfault_action_name() names actions.
 *
 * It is a hand-written scanner over one rule; every rejection names the rule,
 * the 1-based column and the reason.  It holds no engine state and allocates
 * nothing; the grammar is in docs/FAULTS.md.  Of the engine it uses only
 * zfault_rule_init() (the defaults); lists of rules (splitting on ';',
 * adding, listing) are zfault_text.c's job.
 */
#include "zfault.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const action_names[] = {
	[ZFAULT_MEDIUM_ERROR] = "medium-error",
	[ZFAULT_READ_ONLY] = "read-only",
	[ZFAULT_OFFLINE] = "offline",
	[ZFAULT_TORN_WRITE] = "torn-write",
	[ZFAULT_LATENCY] = "latency",
	[ZFAULT_STALL] = "stall",
	[ZFAULT_POWER_LOSS] = "power-loss",
};
#define ACTION_LIST "medium-error, read-only, offline, torn-write, latency, stall, power-loss"

static const struct {
	const char *name;
	uint32_t bit;
} op_names[] = {
	{ "read", ZFAULT_OP_READ },
	{ "write", ZFAULT_OP_WRITE },
	{ "zone", ZFAULT_OP_ZONE },
	{ "flush", ZFAULT_OP_FLUSH },
	{ "any", ZFAULT_OP_ANY },
};
#define OP_LIST "read, write, zone, flush, any"

static const char *const dist_names[] = {
	[ZFAULT_DIST_FIXED] = "fixed",
	[ZFAULT_DIST_UNIFORM] = "uniform",
	[ZFAULT_DIST_EXP] = "exp",
	[ZFAULT_DIST_PARETO] = "pareto",
};
#define DIST_LIST "fixed, uniform, exp, pareto"

/* Keys; several keys may share one slot (a slot may be set once). */
enum key_slot {
	SLOT_OP, SLOT_LBA, SLOT_ZONE, SLOT_AFTER, SLOT_PROB, SLOT_COUNT, SLOT_KEEP,
	SLOT_FIXED, SLOT_DIST, SLOT_A, SLOT_B, NR_SLOTS
};

enum key_id {
	KEY_OP, KEY_LBA, KEY_ZONE, KEY_AFTER, KEY_PROB, KEY_COUNT, KEY_ONCE, KEY_REPEAT,
	KEY_KEEP, KEY_NS, KEY_US, KEY_MS, KEY_DIST, KEY_A, KEY_B,
};

static const struct {
	const char *name;
	enum key_slot slot;
	bool flag;                /* takes no value */
} keys[] = {
	[KEY_OP] = { "op", SLOT_OP, false },
	[KEY_LBA] = { "lba", SLOT_LBA, false },
	[KEY_ZONE] = { "zone", SLOT_ZONE, false },
	[KEY_AFTER] = { "after", SLOT_AFTER, false },
	[KEY_PROB] = { "prob", SLOT_PROB, false },
	[KEY_COUNT] = { "count", SLOT_COUNT, false },
	[KEY_ONCE] = { "once", SLOT_COUNT, true },
	[KEY_REPEAT] = { "repeat", SLOT_COUNT, true },
	[KEY_KEEP] = { "keep", SLOT_KEEP, false },
	[KEY_NS] = { "ns", SLOT_FIXED, false },
	[KEY_US] = { "us", SLOT_FIXED, false },
	[KEY_MS] = { "ms", SLOT_FIXED, false },
	[KEY_DIST] = { "dist", SLOT_DIST, false },
	[KEY_A] = { "a", SLOT_A, false },
	[KEY_B] = { "b", SLOT_B, false },
};
#define NR_KEYS (sizeof(keys) / sizeof(keys[0]))
#define KEY_LIST "op, lba, zone, after, prob, count, once, repeat, keep, ns, us, ms, dist, a, b"

static const struct {
	const char *suffix;
	uint64_t ns;
} units[] = {
	{ "ns", 1 },
	{ "us", 1000 },
	{ "ms", 1000000 },
	{ "s", 1000000000 },
};
#define UNIT_LIST "ns, us, ms, s"

/* Scanner state for one rule. */
struct pctx {
	const char *s;            /* rule text (trimmed), not NUL-terminated at len */
	size_t len;
	char *msg;
	size_t msg_len;
};

/* Report an error at 0-based offset @off of the rule. */
static int __attribute__((format(printf, 3, 4)))
perr(const struct pctx *c, size_t off, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (c->msg && c->msg_len) {
		n = snprintf(c->msg, c->msg_len, "fault rule \"%.*s\": column %zu: ",
			     (int)c->len, c->s, off + 1);
		if (n >= 0 && (size_t)n < c->msg_len) {
			va_start(ap, fmt);
			vsnprintf(c->msg + n, c->msg_len - (size_t)n, fmt, ap);
			va_end(ap);
		}
	}
	return ZL_E_FAULT_SYNTAX;
}

static bool tok_eq(const char *t, size_t n, const char *word)
{
	return strlen(word) == n && !memcmp(t, word, n);
}

static inline bool is_digit(char ch)
{
	return ch >= '0' && ch <= '9';
}

/* Value of digit @ch in @base (10 or 16), or -1. */
static inline int digit_val(char ch, unsigned int base)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (base == 16 && ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (base == 16 && ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

/*
 * Unsigned number (decimal or 0x hex) at [*off, end).  Advances *off past the
 * digits; the caller decides what may follow.
 */
static int parse_u64(const struct pctx *c, size_t *off, size_t end, uint64_t *val)
{
	size_t i = *off, start = *off;
	unsigned int base = 10;
	uint64_t v = 0;
	int d;

	if (end - i >= 2 && c->s[i] == '0' && (c->s[i + 1] == 'x' || c->s[i + 1] == 'X')) {
		base = 16;
		i += 2;
	}
	if (i == end || digit_val(c->s[i], base) < 0)
		return perr(c, start, "bad number \"%.*s\" (expected decimal or 0x hex digits)",
			    (int)(end - start), c->s + start);
	for (; i < end && (d = digit_val(c->s[i], base)) >= 0; i++) {
		if (v > (UINT64_MAX - (uint64_t)d) / base) {
			while (i < end && digit_val(c->s[i], base) >= 0)
				i++;
			return perr(c, start, "number \"%.*s\" does not fit in 64 bits",
				    (int)(i - start), c->s + start);
		}
		v = v * base + (uint64_t)d;
	}
	*val = v;
	*off = i;
	return 0;
}

static int expect_end(const struct pctx *c, size_t off, size_t end, const char *what)
{
	if (off == end)
		return 0;
	return perr(c, off, "trailing garbage \"%.*s\" after %s", (int)(end - off), c->s + off, what);
}

/* A whole value that is one number. */
static int parse_plain(const struct pctx *c, size_t off, size_t end, uint64_t *val)
{
	int ret = parse_u64(c, &off, end, val);

	return ret ? ret : expect_end(c, off, end, "number");
}

/* op=read|write|... */
static int parse_ops(const struct pctx *c, size_t off, size_t end, uint32_t *ops)
{
	uint32_t mask = 0;

	for (;;) {
		size_t t = off, i;

		while (off < end && c->s[off] != '|')
			off++;
		for (i = 0; i < sizeof(op_names) / sizeof(op_names[0]); i++)
			if (tok_eq(c->s + t, off - t, op_names[i].name))
				break;
		if (i == sizeof(op_names) / sizeof(op_names[0]))
			return perr(c, t, "unknown operation \"%.*s\" (expected " OP_LIST ")",
				    (int)(off - t), c->s + t);
		mask |= op_names[i].bit;
		if (off == end)
			break;
		off++;                  /* '|' */
	}
	*ops = mask == ZFAULT_OP_ANY ? 0 : mask;
	return 0;
}

/* lba=N, lba=N-M, lba=N+LEN (@plus_ok) or zone=N, zone=N-M. */
static int parse_range(const struct pctx *c, size_t off, size_t end, bool plus_ok,
		       uint64_t *first, uint64_t *last)
{
	size_t start = off, sep;
	uint64_t a, b;
	int ret;

	ret = parse_u64(c, &off, end, &a);
	if (ret)
		return ret;
	if (off == end) {
		*first = *last = a;
		return 0;
	}
	sep = off;
	if (c->s[off] != '-' && !(plus_ok && c->s[off] == '+'))
		return perr(c, off, "trailing garbage \"%.*s\" after number (expected N, N-M%s)",
			    (int)(end - off), c->s + off, plus_ok ? " or N+LEN" : "");
	off++;
	ret = parse_u64(c, &off, end, &b);
	if (ret)
		return ret;
	ret = expect_end(c, off, end, "range");
	if (ret)
		return ret;
	if (c->s[sep] == '+') {
		if (!b)
			return perr(c, sep + 1, "empty range: length 0");
		if (a > UINT64_MAX - (b - 1))
			return perr(c, start, "range %llu+%llu runs past the last LBA",
				    (unsigned long long)a, (unsigned long long)b);
		b = a + (b - 1);
	} else if (a > b) {
		return perr(c, start, "range reversed: %llu > %llu",
			    (unsigned long long)a, (unsigned long long)b);
	}
	*first = a;
	*last = b;
	return 0;
}

/* prob=0.25, prob=25%, prob=1e-3 */
static int parse_prob(const struct pctx *c, size_t off, size_t end, double *prob)
{
	size_t start = off, num_end = end, i;
	bool pct = false, digits = false;
	char buf[80], *ep;
	double p;

	if (num_end > off && c->s[num_end - 1] == '%') {
		pct = true;
		num_end--;
	}
	i = off;
	while (i < num_end && is_digit(c->s[i]))
		i++, digits = true;
	if (i < num_end && c->s[i] == '.') {
		i++;
		while (i < num_end && is_digit(c->s[i]))
			i++, digits = true;
	}
	if (digits && i < num_end && (c->s[i] == 'e' || c->s[i] == 'E')) {
		size_t e = ++i;

		if (i < num_end && (c->s[i] == '+' || c->s[i] == '-'))
			e = ++i;
		while (i < num_end && is_digit(c->s[i]))
			i++;
		if (i == e)
			digits = false;
	}
	if (!digits || i != num_end)
		return perr(c, start, "bad probability \"%.*s\" (expected 0.xx or NN%%)",
			    (int)(end - start), c->s + start);
	if (num_end - start >= sizeof(buf))
		return perr(c, start, "probability \"%.*s\" is too long",
			    (int)(end - start), c->s + start);
	memcpy(buf, c->s + start, num_end - start);
	buf[num_end - start] = '\0';
	p = strtod(buf, &ep);
	if (*ep)
		return perr(c, start, "bad probability \"%s\"", buf);
	if (pct)
		p /= 100.0;
	if (!(p >= 0.0 && p <= 1.0))
		return perr(c, start, "prob %.*s out of [0, 1]", (int)(end - start), c->s + start);
	*prob = p;
	return 0;
}

/* keep=N (LBAs) or keep=NN% */
static int parse_keep(const struct pctx *c, size_t off, size_t end, struct zfault_rule *r)
{
	size_t start = off;
	uint64_t v;
	int ret;

	ret = parse_u64(c, &off, end, &v);
	if (ret)
		return ret;
	if (off < end && c->s[off] == '%' && off + 1 == end) {
		if (v > 100)
			return perr(c, start, "keep %llu%% out of [0%%, 100%%]", (unsigned long long)v);
		r->torn_keep_lba = 0;
		r->torn_keep_pct = (uint32_t)v;
		return 0;
	}
	ret = expect_end(c, off, end, "number (expected N or NN%)");
	if (ret)
		return ret;
	r->torn_keep_lba = v;
	r->torn_keep_pct = 0;
	return 0;
}

/* Duration with an optional unit suffix (default ns); *had_unit tells which. */
static int parse_duration(const struct pctx *c, size_t off, size_t end, uint64_t *ns,
			  bool *had_unit)
{
	size_t start = off, i;
	uint64_t v;
	int ret;

	ret = parse_u64(c, &off, end, &v);
	if (ret)
		return ret;
	*had_unit = off < end;
	if (off == end) {
		*ns = v;
		return 0;
	}
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (tok_eq(c->s + off, end - off, units[i].suffix))
			break;
	if (i == sizeof(units) / sizeof(units[0]))
		return perr(c, off, "unknown unit \"%.*s\" (expected " UNIT_LIST ")",
			    (int)(end - off), c->s + off);
	if (v > UINT64_MAX / units[i].ns)
		return perr(c, start, "duration \"%.*s\" does not fit in 64-bit ns",
			    (int)(end - start), c->s + start);
	*ns = v * units[i].ns;
	return 0;
}

/**
 * zfault_parse() - one rule from its text (grammar in docs/FAULTS.md).
 * @text: the rule (borrowed); blanks around it are ignored.
 * @out: gets the rule; untouched on failure.
 * @msg: may be NULL; on failure gets
 *       'fault rule "<rule>": column <n>: <reason>' (1-based column).
 * @msg_len: size of @msg.
 *
 * Return: 0, ZL_E_FAULT_SYNTAX, or -EINVAL (@text or @out NULL).
 */
int zfault_parse(const char *text, struct zfault_rule *out, char *msg, size_t msg_len)
{
	size_t slot_off[NR_SLOTS] = { 0 };
	int slot_key[NR_SLOTS];
	bool seen[NR_SLOTS] = { false };
	bool b_had_unit = false, dist_seen_any;
	struct zfault_rule r;
	struct pctx c;
	size_t off, a_end, i;
	unsigned int act;
	int ret;

	if (msg && msg_len)
		msg[0] = '\0';
	if (!text || !out)
		return -EINVAL;
	/* Trim blanks around the rule; none are allowed inside. */
	while (*text == ' ' || *text == '\t' || *text == '\r' || *text == '\n')
		text++;
	c.s = text;
	c.len = strlen(text);
	while (c.len && (text[c.len - 1] == ' ' || text[c.len - 1] == '\t' ||
			 text[c.len - 1] == '\r' || text[c.len - 1] == '\n'))
		c.len--;
	c.msg = msg;
	c.msg_len = msg_len;

	if (!c.len)
		return perr(&c, 0, "empty rule");
	for (i = 0; i < c.len; i++) {
		if (text[i] == ';')
			return perr(&c, i, "';' separates rules; one rule expected here");
		if (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n')
			return perr(&c, i, "unexpected blank inside a rule");
	}

	/* ACTION */
	for (a_end = 0; a_end < c.len && text[a_end] != ':'; a_end++)
		;
	if (!a_end)
		return perr(&c, 0, "missing action before ':' (expected " ACTION_LIST ")");
	for (act = ZFAULT_MEDIUM_ERROR; act <= ZFAULT_POWER_LOSS; act++)
		if (tok_eq(text, a_end, action_names[act]))
			break;
	if (act > ZFAULT_POWER_LOSS)
		return perr(&c, 0, "unknown action \"%.*s\" (expected " ACTION_LIST ")",
			    (int)a_end, text);
	zfault_rule_init(&r, (enum zfault_action)act);
	if (a_end == c.len)
		goto check;
	off = a_end + 1;
	if (off == c.len)
		return perr(&c, off, "expected key=value after ':'");

	/* key[=value] (',' key[=value])* */
	for (;;) {
		size_t item = off, item_end = off, eq, v;
		unsigned int k;

		while (item_end < c.len && text[item_end] != ',')
			item_end++;
		if (item_end == item)
			return perr(&c, item, "empty key=value (stray ',')");
		for (eq = item; eq < item_end && text[eq] != '='; eq++)
			;
		for (k = 0; k < NR_KEYS; k++)
			if (tok_eq(text + item, eq - item, keys[k].name))
				break;
		if (k == NR_KEYS)
			return perr(&c, item, "unknown key \"%.*s\" (expected " KEY_LIST ")",
				    (int)(eq - item), text + item);
		if (keys[k].flag && eq < item_end)
			return perr(&c, eq, "flag \"%s\" takes no value", keys[k].name);
		if (!keys[k].flag && eq == item_end)
			return perr(&c, eq, "missing '=' after key \"%s\"", keys[k].name);
		v = eq + 1;
		if (!keys[k].flag && v == item_end)
			return perr(&c, v, "missing value after \"%s=\"", keys[k].name);
		if (seen[keys[k].slot]) {
			int prev = slot_key[keys[k].slot];

			if (prev == (int)k)
				return perr(&c, item, "duplicate key \"%s\"", keys[k].name);
			return perr(&c, item, "duplicate key \"%s\" (already set by \"%s\")",
				    keys[k].name, keys[prev].name);
		}
		if (k == KEY_KEEP && act != ZFAULT_TORN_WRITE)
			return perr(&c, item, "key \"keep\" only applies to torn-write, not %s",
				    action_names[act]);
		if ((keys[k].slot == SLOT_FIXED || keys[k].slot == SLOT_DIST ||
		     keys[k].slot == SLOT_A || keys[k].slot == SLOT_B) && act != ZFAULT_LATENCY)
			return perr(&c, item, "key \"%s\" only applies to latency, not %s",
				    keys[k].name, action_names[act]);
		if (keys[k].slot == SLOT_FIXED && (seen[SLOT_DIST] || seen[SLOT_A] || seen[SLOT_B]))
			return perr(&c, item, "key \"%s\" conflicts with dist=/a=/b= (give ns=, us=, ms= or dist=, a=, b=)",
				    keys[k].name);
		if (keys[k].slot != SLOT_FIXED && seen[SLOT_FIXED] &&
		    (keys[k].slot == SLOT_DIST || keys[k].slot == SLOT_A || keys[k].slot == SLOT_B))
			return perr(&c, item, "key \"%s\" conflicts with \"%s\" (give ns=, us=, ms= or dist=, a=, b=)",
				    keys[k].name, keys[slot_key[SLOT_FIXED]].name);
		seen[keys[k].slot] = true;
		slot_key[keys[k].slot] = (int)k;
		slot_off[keys[k].slot] = item;

		switch ((enum key_id)k) {
		case KEY_OP:
			ret = parse_ops(&c, v, item_end, &r.ops);
			break;
		case KEY_LBA:
			ret = parse_range(&c, v, item_end, true, &r.lba_first, &r.lba_last);
			break;
		case KEY_ZONE: {
			uint64_t zf, zl;

			ret = parse_range(&c, v, item_end, false, &zf, &zl);
			if (!ret && zl > UINT32_MAX)
				ret = perr(&c, v, "zone %llu out of range (max %u)",
					   (unsigned long long)zl, UINT32_MAX);
			r.zone_first = (uint32_t)zf;
			r.zone_last = (uint32_t)zl;
			break;
		}
		case KEY_AFTER:
			ret = parse_plain(&c, v, item_end, &r.after);
			break;
		case KEY_PROB:
			ret = parse_prob(&c, v, item_end, &r.prob);
			break;
		case KEY_COUNT:
			ret = parse_plain(&c, v, item_end, &r.count);
			break;
		case KEY_ONCE:
			r.count = 1;
			ret = 0;
			break;
		case KEY_REPEAT:
			r.count = 0;
			ret = 0;
			break;
		case KEY_KEEP:
			ret = parse_keep(&c, v, item_end, &r);
			break;
		case KEY_NS:
		case KEY_US:
		case KEY_MS: {
			uint64_t unit = k == KEY_NS ? 1 : k == KEY_US ? 1000 : 1000000, n = 0;

			ret = parse_plain(&c, v, item_end, &n);
			if (!ret && n > UINT64_MAX / unit)
				ret = perr(&c, v, "latency %s=%llu does not fit in 64-bit ns",
					   keys[k].name, (unsigned long long)n);
			r.dist = ZFAULT_DIST_FIXED;
			r.lat_a_ns = n * unit;
			break;
		}
		case KEY_DIST: {
			unsigned int d;

			for (d = 0; d < sizeof(dist_names) / sizeof(dist_names[0]); d++)
				if (tok_eq(text + v, item_end - v, dist_names[d]))
					break;
			if (d == sizeof(dist_names) / sizeof(dist_names[0]))
				ret = perr(&c, v, "unknown distribution \"%.*s\" (expected " DIST_LIST ")",
					   (int)(item_end - v), text + v);
			else
				ret = 0, r.dist = (enum zfault_dist)d;
			break;
		}
		case KEY_A: {
			bool had_unit;

			ret = parse_duration(&c, v, item_end, &r.lat_a_ns, &had_unit);
			break;
		}
		case KEY_B:
			ret = parse_duration(&c, v, item_end, &r.lat_b_ns, &b_had_unit);
			break;
		default:
			ret = perr(&c, item, "internal: unhandled key");
			break;
		}
		if (ret)
			return ret;
		if (item_end == c.len)
			break;
		off = item_end + 1;
		if (off == c.len)
			return perr(&c, off, "expected key=value after ','");
	}

check:
	/* Checks that need the whole rule. */
	if (act == ZFAULT_TORN_WRITE && r.ops && !(r.ops & ZFAULT_OP_WRITE))
		return perr(&c, slot_off[SLOT_OP], "torn-write only applies to writes (op must include write)");
	if ((act == ZFAULT_READ_ONLY || act == ZFAULT_OFFLINE) && r.ops == ZFAULT_OP_FLUSH)
		return perr(&c, slot_off[SLOT_OP], "%s needs a command with a zone (a flush has none)",
			    action_names[act]);
	if (act == ZFAULT_LATENCY) {
		dist_seen_any = seen[SLOT_DIST] || seen[SLOT_A];
		if (!seen[SLOT_FIXED] && !dist_seen_any)
			return perr(&c, c.len, "latency needs a delay: ns=, us=, ms=, or dist= with a= (and b=)");
		if (seen[SLOT_DIST] && !seen[SLOT_A])
			return perr(&c, slot_off[SLOT_DIST], "dist=%s needs a=", dist_names[r.dist]);
		if (seen[SLOT_B] && r.dist != ZFAULT_DIST_UNIFORM && r.dist != ZFAULT_DIST_PARETO)
			return perr(&c, slot_off[SLOT_B], "key \"b\" only applies to dist=uniform or dist=pareto");
		if ((r.dist == ZFAULT_DIST_UNIFORM || r.dist == ZFAULT_DIST_PARETO) && !seen[SLOT_B])
			return perr(&c, slot_off[SLOT_DIST], "dist=%s needs b=", dist_names[r.dist]);
		if (r.dist == ZFAULT_DIST_UNIFORM && r.lat_a_ns > r.lat_b_ns)
			return perr(&c, slot_off[SLOT_B], "range reversed: a=%lluns > b=%lluns",
				    (unsigned long long)r.lat_a_ns, (unsigned long long)r.lat_b_ns);
		if (r.dist == ZFAULT_DIST_PARETO && b_had_unit)
			return perr(&c, slot_off[SLOT_B] + 2, "pareto shape b takes no unit");
		if (r.dist == ZFAULT_DIST_PARETO && r.lat_b_ns < 2)
			return perr(&c, slot_off[SLOT_B] + 2, "pareto shape b must be an integer >= 2");
	}
	*out = r;
	return 0;
}

/* Bounded appender: keeps counting past the end so the caller can tell. */
struct fbuf {
	char *buf;
	size_t len;
	size_t pos;
	bool any_key;
};

static void __attribute__((format(printf, 2, 3)))
fb_add(struct fbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(b->pos < b->len ? b->buf + b->pos : NULL,
		      b->pos < b->len ? b->len - b->pos : 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		b->pos += (size_t)n;
}

/* Start the next key: ':' before the first, ',' before the others. */
static void fb_key(struct fbuf *b)
{
	fb_add(b, "%c", b->any_key ? ',' : ':');
	b->any_key = true;
}

static void fb_duration(struct fbuf *b, uint64_t ns)
{
	unsigned int i = sizeof(units) / sizeof(units[0]);

	while (--i > 0)
		if (ns && ns % units[i].ns == 0)
			break;
	fb_add(b, "%llu%s", (unsigned long long)(ns / units[i].ns), units[i].suffix);
}

/* Shortest %g text that reads back as exactly @p. */
static void fb_prob(struct fbuf *b, double p)
{
	char tmp[40];
	int prec;

	for (prec = 1; prec <= 17; prec++) {
		snprintf(tmp, sizeof(tmp), "%.*g", prec, p);
		if (strtod(tmp, NULL) == p)
			break;
	}
	fb_add(b, "%s", tmp);
}

/**
 * zfault_format() - canonical text of a rule; it parses back to an identical
 * rule.  Only the fields that matter for the action are written.
 * @r: rule (borrowed).
 * @buf: caller storage (may be NULL when @len is 0).
 * @len: size of @buf.
 *
 * Return: the text length (without the NUL), or -ENOSPC when it does not fit
 * (@buf then holds "" if @len > 0), or -EINVAL (@r NULL).
 */
int zfault_format(const struct zfault_rule *r, char *buf, size_t len)
{
	struct fbuf b = { .buf = buf, .len = buf ? len : 0, .pos = 0, .any_key = false };
	unsigned int i;

	if (!r)
		return -EINVAL;
	fb_add(&b, "%s", zfault_action_name(r->action));
	if (r->ops && r->ops != ZFAULT_OP_ANY) {
		const char *sep = "";

		fb_key(&b);
		fb_add(&b, "op=");
		for (i = 0; i < 4; i++) {
			if (r->ops & op_names[i].bit) {
				fb_add(&b, "%s%s", sep, op_names[i].name);
				sep = "|";
			}
		}
	}
	if (r->lba_first != 0 || r->lba_last != UINT64_MAX) {
		fb_key(&b);
		if (r->lba_first == r->lba_last)
			fb_add(&b, "lba=%llu", (unsigned long long)r->lba_first);
		else
			fb_add(&b, "lba=%llu-%llu", (unsigned long long)r->lba_first,
			       (unsigned long long)r->lba_last);
	}
	if (r->zone_first != 0 || r->zone_last != UINT32_MAX) {
		fb_key(&b);
		if (r->zone_first == r->zone_last)
			fb_add(&b, "zone=%u", r->zone_first);
		else
			fb_add(&b, "zone=%u-%u", r->zone_first, r->zone_last);
	}
	if (r->after) {
		fb_key(&b);
		fb_add(&b, "after=%llu", (unsigned long long)r->after);
	}
	if (r->prob != 1.0) {
		fb_key(&b);
		fb_add(&b, "prob=");
		fb_prob(&b, r->prob);
	}
	fb_key(&b);
	if (r->count == 1)
		fb_add(&b, "once");
	else if (r->count == 0)
		fb_add(&b, "repeat");
	else
		fb_add(&b, "count=%llu", (unsigned long long)r->count);
	if (r->action == ZFAULT_TORN_WRITE) {
		fb_key(&b);
		if (r->torn_keep_lba)
			fb_add(&b, "keep=%llu", (unsigned long long)r->torn_keep_lba);
		else
			fb_add(&b, "keep=%u%%", r->torn_keep_pct);
	}
	if (r->action == ZFAULT_LATENCY) {
		fb_key(&b);
		if (r->dist == ZFAULT_DIST_FIXED) {
			uint64_t a = r->lat_a_ns;

			if (a && a % 1000000 == 0)
				fb_add(&b, "ms=%llu", (unsigned long long)(a / 1000000));
			else if (a && a % 1000 == 0)
				fb_add(&b, "us=%llu", (unsigned long long)(a / 1000));
			else
				fb_add(&b, "ns=%llu", (unsigned long long)a);
		} else {
			fb_add(&b, "dist=%s,a=", (unsigned int)r->dist < 4 ?
			       dist_names[r->dist] : "?");
			fb_duration(&b, r->lat_a_ns);
			if (r->dist == ZFAULT_DIST_UNIFORM) {
				fb_add(&b, ",b=");
				fb_duration(&b, r->lat_b_ns);
			} else if (r->dist == ZFAULT_DIST_PARETO) {
				fb_add(&b, ",b=%llu", (unsigned long long)r->lat_b_ns);
			}
		}
	}
	if (b.pos >= b.len) {
		if (buf && len)
			buf[0] = '\0';
		return -ENOSPC;
	}
	return b.pos > INT32_MAX ? -ENOSPC : (int)b.pos;
}

/**
 * zfault_action_name() - text name of an action ("medium-error"...), or
 * "unknown".  Static storage.
 * @a: action.
 */
const char *zfault_action_name(enum zfault_action a)
{
	if ((unsigned int)a >= ZFAULT_MEDIUM_ERROR && (unsigned int)a <= ZFAULT_POWER_LOSS)
		return action_names[a];
	return "unknown";
}
