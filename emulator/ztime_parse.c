/*
 * ztime_parse.c — the timing model's presets and its text form
 * "PRESET[,key=value...]" (ztime.h): one table of presets (figures as data;
 * their sources are in docs/TIMING.md), one table of keys (name, which
 * kind of drive, unit, range, where in struct ztime_params), a parser that
 * loops over the key table and a formatter that writes every key back.
 *
 * It is not the model (ztime.c) and keeps no state.  Every refusal names
 * the text, the key and the reason.
 */
#include "ztime.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zl_parse.h"

#define US 1000ULL
#define MS 1000000ULL
#define MBS 1000000ULL           /* rates are decimal MB/s, as data sheets give them */

/*
 * The presets.  Figures and sources: docs/TIMING.md, "Presets" (each marked
 * data sheet, measurement or assumption).
 */
static const struct ztime_params presets[] = {
	{
		.kind = ZTIME_HDD, .preset = "hc620",
		.capacity_bytes = 15000000000000ULL,   /* 15 TB model */
		.cmd_ns = 100 * US, .reset_ns = 1 * MS, .finish_ns = 1 * MS,
		.open_ns = 0, .close_ns = 0, .implicit_open_ns = 0,
		.sched = ZTIME_SCHED_FIFO, .qd = 32,
		.rpm = 7200, .heads = 16,
		.seek_t2t_ns = 230 * US, .seek_avg_ns = 7400 * US, .seek_full_ns = 16 * MS,
		.rate_od_bps = 255 * MBS, .rate_id_bps = 128 * MBS,
		.head_switch_ns = 500 * US,
		.cache_bytes = 512ULL << 20, .iface_bps = 600 * MBS,
		.seek_knee_pct = 20,
	},
	{
		.kind = ZTIME_FLASH, .preset = "zn540",
		.capacity_bytes = 904ULL << 31,        /* 904 zones of 2 GiB */
		.cmd_ns = 10 * US, .reset_ns = 1580 * US, .finish_ns = 830 * US,
		.open_ns = 0, .close_ns = 0, .implicit_open_ns = 0,
		.sched = ZTIME_SCHED_FIFO, .qd = 32,
		.channels = 8, .dies_per_channel = 4, .zone_dies = 32,
		.page_bytes = 64 << 10, .block_bytes = 24ULL << 20,
		.read_ns = 55 * US, .prog_ns = 1733 * US, .erase_ns = 0,
		.reset_gib_ns = 12800 * US, .reset_exp_pct = 50,
		.chan_bps = 410 * MBS, .max_open = 14,
	},
};

const char *const ztime_preset_names[] = { "hc620", "zn540", NULL };

int ztime_params_preset(const char *name, struct ztime_params *p)
{
	size_t i;

	for (i = 0; i < sizeof(presets) / sizeof(presets[0]); i++) {
		if (!strcmp(presets[i].preset, name)) {
			*p = presets[i];
			return 0;
		}
	}
	return -ENOENT;
}

/* ---- keys ---- */

enum kunit { K_DUR, K_RATE, K_SIZE, K_U32, K_SCHED, K_MECH };
enum kfor { F_ANY, F_HDD, F_FLASH };

static const struct key {
	const char *name;
	enum kfor kind;
	enum kunit unit;
	size_t off;
	uint64_t min, max;          /* in the stored unit (ns, bytes/s, bytes, count) */
} keys[] = {
#define O(m) offsetof(struct ztime_params, m)
	{ "capacity", F_ANY, K_SIZE, O(capacity_bytes), 1ULL << 20, 1ULL << 50 },
	{ "cmd", F_ANY, K_DUR, O(cmd_ns), 0, 1000 * MS },
	{ "reset", F_ANY, K_DUR, O(reset_ns), 0, 60000 * MS },
	{ "finish", F_ANY, K_DUR, O(finish_ns), 0, 60000 * MS },
	{ "open", F_ANY, K_DUR, O(open_ns), 0, 60000 * MS },
	{ "close", F_ANY, K_DUR, O(close_ns), 0, 60000 * MS },
	{ "implicit_open", F_ANY, K_DUR, O(implicit_open_ns), 0, 60000 * MS },
	{ "sched", F_ANY, K_SCHED, O(sched), 0, 1 },
	{ "qd", F_ANY, K_U32, O(qd), 1, 256 },
	{ "rpm", F_HDD, K_U32, O(rpm), 3600, 20000 },
	{ "heads", F_HDD, K_U32, O(heads), 1, 64 },
	{ "seek_t2t", F_HDD, K_DUR, O(seek_t2t_ns), 1, 1000 * MS },
	{ "seek_avg", F_HDD, K_DUR, O(seek_avg_ns), 1, 1000 * MS },
	{ "seek_full", F_HDD, K_DUR, O(seek_full_ns), 1, 1000 * MS },
	{ "seek_knee", F_HDD, K_U32, O(seek_knee_pct), 1, 99 },
	{ "rate_od", F_HDD, K_RATE, O(rate_od_bps), MBS, 100000 * MBS },
	{ "rate_id", F_HDD, K_RATE, O(rate_id_bps), MBS, 100000 * MBS },
	{ "head_switch", F_HDD, K_DUR, O(head_switch_ns), 0, 100 * MS },
	{ "cache", F_HDD, K_SIZE, O(cache_bytes), 0, 64ULL << 30 },
	{ "iface", F_HDD, K_RATE, O(iface_bps), MBS, 100000 * MBS },
	{ "mech", F_HDD, K_MECH, O(mech), 0, 1 },
	{ "serial", F_HDD, K_U32, O(serial), 0, 1 },
	{ "channels", F_FLASH, K_U32, O(channels), 1, 64 },
	{ "dies", F_FLASH, K_U32, O(dies_per_channel), 1, 64 },
	{ "zone_dies", F_FLASH, K_U32, O(zone_dies), 1, 4096 },
	{ "page", F_FLASH, K_SIZE, O(page_bytes), 512, 16ULL << 20 },
	{ "block", F_FLASH, K_SIZE, O(block_bytes), 512, 4ULL << 30 },
	{ "read", F_FLASH, K_DUR, O(read_ns), 0, 100 * MS },
	{ "prog", F_FLASH, K_DUR, O(prog_ns), 0, 100 * MS },
	{ "erase", F_FLASH, K_DUR, O(erase_ns), 0, 1000 * MS },
	{ "reset_gib", F_FLASH, K_DUR, O(reset_gib_ns), 0, 60000 * MS },
	{ "reset_exp", F_FLASH, K_U32, O(reset_exp_pct), 1, 200 },
	{ "chan_rate", F_FLASH, K_RATE, O(chan_bps), MBS, 100000 * MBS },
	{ "max_open", F_FLASH, K_U32, O(max_open), 0, 65535 },
#undef O
};
#define NR_KEYS (sizeof(keys) / sizeof(keys[0]))

static const char *const sched_names[] = { "fifo", "sptf" };
static const char *const mech_names[] = { "on", "off" };   /* enum ztime_mech */

static bool key_applies(const struct key *k, enum ztime_kind kind)
{
	return k->kind == F_ANY || (k->kind == F_HDD) == (kind == ZTIME_HDD);
}

static void say(char *msg, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!msg || !len)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, len, fmt, ap);
	va_end(ap);
}

static uint64_t get(const struct ztime_params *p, const struct key *k)
{
	const char *b = (const char *)p + k->off;

	if (k->unit == K_U32)
		return *(const uint32_t *)b;
	if (k->unit == K_SCHED)
		return (uint64_t)*(const enum ztime_sched *)b;
	if (k->unit == K_MECH)
		return (uint64_t)*(const enum ztime_mech *)b;
	return *(const uint64_t *)b;
}

static void set(struct ztime_params *p, const struct key *k, uint64_t v)
{
	char *b = (char *)p + k->off;

	if (k->unit == K_U32)
		*(uint32_t *)b = (uint32_t)v;
	else if (k->unit == K_SCHED)
		*(enum ztime_sched *)b = (enum ztime_sched)v;
	else if (k->unit == K_MECH)
		*(enum ztime_mech *)b = (enum ztime_mech)v;
	else
		*(uint64_t *)b = v;
}

/* "7.4ms", "230us", "500ns", "2s"; a bare 0 is allowed. */
static int parse_dur(const char *s, uint64_t *ns, const char **why)
{
	static const struct { const char *sfx; double mul; } u[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
	};
	char *end;
	double v;
	size_t i;

	if (!strcmp(s, "0")) {
		*ns = 0;
		return 0;
	}
	if (!*s || *s == '-' || *s == '+' || *s == ' ') {
		*why = "not a duration (e.g. 500ns, 230us, 7.4ms, 2s)";
		return -EINVAL;
	}
	v = strtod(s, &end);
	if (end == s || !isfinite(v) || v < 0) {
		*why = "not a duration (e.g. 500ns, 230us, 7.4ms, 2s)";
		return -EINVAL;
	}
	for (i = 0; i < sizeof(u) / sizeof(u[0]); i++) {
		if (!strcmp(end, u[i].sfx)) {
			if (v * u[i].mul > 1.8e19) {
				*why = "too large";
				return -ERANGE;
			}
			*ns = (uint64_t)llround(v * u[i].mul);
			return 0;
		}
	}
	*why = *end ? "unknown unit (ns, us, ms or s)" : "no unit (ns, us, ms or s)";
	return -EINVAL;
}

/* Decimal MB/s, e.g. "255" or "127.5". */
static int parse_rate(const char *s, uint64_t *bps, const char **why)
{
	char *end;
	double v;

	if (!*s || *s == '-' || *s == '+' || *s == ' ') {
		*why = "not a rate in MB/s (e.g. 255 or 127.5)";
		return -EINVAL;
	}
	v = strtod(s, &end);
	if (end == s || *end || !isfinite(v) || v < 0) {
		*why = "not a rate in MB/s (e.g. 255 or 127.5)";
		return -EINVAL;
	}
	if (v > 1e12) {
		*why = "too large";
		return -ERANGE;
	}
	*bps = (uint64_t)llround(v * 1e6);
	return 0;
}

static void key_list(enum ztime_kind kind, char *buf, size_t len)
{
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < NR_KEYS && n < len; i++)
		if (key_applies(&keys[i], kind))
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "", keys[i].name);
}

static void range_text(const struct key *k, uint64_t v, char *buf, size_t len)
{
	switch (k->unit) {
	case K_DUR:
		snprintf(buf, len, "%.6gms", (double)v / 1e6);
		break;
	case K_RATE:
		snprintf(buf, len, "%.6gMB/s", (double)v / 1e6);
		break;
	default:
		snprintf(buf, len, "%llu", (unsigned long long)v);
	}
}

static int parse_one(const char *text, const char *item, struct ztime_params *p, char *msg,
		     size_t msg_len)
{
	const char *eq = strchr(item, '='), *val, *why = NULL;
	char name[32], lo[32], hi[32], list[512], w[160];
	const struct key *k = NULL;
	uint64_t v = 0;
	size_t i, n;
	int ret = 0;

	n = eq ? (size_t)(eq - item) : strlen(item);
	if (!eq || !n || n >= sizeof(name)) {
		say(msg, msg_len, "timing \"%s\": \"%s\" is not key=value", text, item);
		return -EINVAL;
	}
	memcpy(name, item, n);
	name[n] = '\0';
	val = eq + 1;
	for (i = 0; i < NR_KEYS; i++)
		if (!strcmp(keys[i].name, name))
			k = &keys[i];
	if (!k || !key_applies(k, p->kind)) {
		key_list(p->kind, list, sizeof(list));
		say(msg, msg_len, "timing \"%s\": unknown key \"%s\" for %s (a %s); keys: %s", text,
		    name, p->preset, p->kind == ZTIME_HDD ? "hard disk" : "flash drive", list);
		return -EINVAL;
	}
	switch (k->unit) {
	case K_DUR:
		ret = parse_dur(val, &v, &why);
		break;
	case K_RATE:
		ret = parse_rate(val, &v, &why);
		break;
	case K_SIZE:
		ret = zl_parse_size(val, &v, w, sizeof(w));
		why = w;
		break;
	case K_U32:
		ret = zl_parse_u64(val, &v, w, sizeof(w));
		why = w;
		break;
	case K_SCHED:
		ret = -EINVAL;
		why = "not a schedule (fifo or sptf)";
		for (i = 0; i < 2; i++)
			if (!strcmp(val, sched_names[i])) {
				v = i;
				ret = 0;
			}
		break;
	case K_MECH:
		ret = -EINVAL;
		why = "not on or off";
		for (i = 0; i < 2; i++)
			if (!strcmp(val, mech_names[i])) {
				v = i;
				ret = 0;
			}
		break;
	}
	if (ret) {
		say(msg, msg_len, "timing \"%s\": %s=\"%s\": %s", text, name, val, why);
		return -EINVAL;
	}
	if (v < k->min || v > k->max) {
		range_text(k, k->min, lo, sizeof(lo));
		range_text(k, k->max, hi, sizeof(hi));
		say(msg, msg_len, "timing \"%s\": %s=%s is out of range (%s..%s)", text, name, val,
		    lo, hi);
		return -EINVAL;
	}
	set(p, k, v);
	return 0;
}

int ztime_parse(const char *text, struct ztime_params *p, char *msg, size_t msg_len)
{
	struct ztime_params q;
	const char *s = text, *comma;
	char item[128], check[256];
	size_t n;
	int ret;

	if (!text)
		text = s = "";
	comma = strchr(s, ',');
	n = comma ? (size_t)(comma - s) : strlen(s);
	if (n >= sizeof(item) || (memcpy(item, s, n), item[n] = '\0',
				  ztime_params_preset(item, &q))) {
		say(msg, msg_len, "timing \"%s\": unknown preset \"%.*s\" (presets: hc620, zn540)",
		    text, (int)(n < 64 ? n : 64), s);
		return -EINVAL;
	}
	while (comma) {
		s = comma + 1;
		comma = strchr(s, ',');
		n = comma ? (size_t)(comma - s) : strlen(s);
		if (n >= sizeof(item)) {
			say(msg, msg_len, "timing \"%s\": item \"%.32s...\" is too long", text, s);
			return -EINVAL;
		}
		memcpy(item, s, n);
		item[n] = '\0';
		ret = parse_one(text, item, &q, msg, msg_len);
		if (ret)
			return ret;
	}
	ret = ztime_params_check(&q, check, sizeof(check));
	if (ret) {
		say(msg, msg_len, "timing \"%s\": %s", text,
		    strncmp(check, "timing: ", 8) ? check : check + 8);
		return ret;
	}
	*p = q;
	return 0;
}

int ztime_format(const struct ztime_params *p, char *buf, size_t len)
{
	size_t i, n;
	int w;

	w = snprintf(buf, len, "%s", p->preset);
	if (w < 0 || (size_t)w >= len)
		return -ENOSPC;
	n = (size_t)w;
	for (i = 0; i < NR_KEYS; i++) {
		const struct key *k = &keys[i];
		uint64_t v = get(p, k);

		if (!key_applies(k, p->kind))
			continue;
		switch (k->unit) {
		case K_DUR:
			w = snprintf(buf + n, len - n, ",%s=%lluns", k->name, (unsigned long long)v);
			break;
		case K_RATE:
			w = snprintf(buf + n, len - n, ",%s=%llu.%06llu", k->name,
				     (unsigned long long)(v / MBS), (unsigned long long)(v % MBS));
			break;
		case K_SCHED:
			w = snprintf(buf + n, len - n, ",%s=%s", k->name, sched_names[v ? 1 : 0]);
			break;
		case K_MECH:
			w = snprintf(buf + n, len - n, ",%s=%s", k->name, mech_names[v ? 1 : 0]);
			break;
		default:
			w = snprintf(buf + n, len - n, ",%s=%llu", k->name, (unsigned long long)v);
		}
		if (w < 0 || (size_t)w >= len - n)
			return -ENOSPC;
		n += (size_t)w;
	}
	return (int)n;
}
