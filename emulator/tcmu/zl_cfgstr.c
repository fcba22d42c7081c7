/*
 * zl_cfgstr.c — parser of the zonelab cfgstring (see zl_cfgstr.h and
 * docs/CFGSTRING.md).  A table of keys, one small parser per value type,
 * and the geometry completion that needs the device size.  Every rejection
 * says which key, which value and why.  It does not open the disk and knows
 * nothing of tcmu-runner.
 */
#include "tcmu/zl_cfgstr.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zfault.h"
#include "zl_err.h"
#include "zl_parse.h"
#include "ztime.h"

/* A rejection: the reason into @msg (zl_msgf), -EINVAL. */
#define cerr(msg, len, ...) (zl_msgf(msg, len, __VA_ARGS__), -EINVAL)

static int parse_u64(const char *s, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v > max)
		return -EINVAL;
	*out = v;
	return 0;
}

static int parse_bool(const char *s, bool *out)
{
	if (!strcmp(s, "1") || !strcmp(s, "yes") || !strcmp(s, "on") || !strcmp(s, "true")) {
		*out = true;
		return 0;
	}
	if (!strcmp(s, "0") || !strcmp(s, "no") || !strcmp(s, "off") || !strcmp(s, "false")) {
		*out = false;
		return 0;
	}
	return -EINVAL;
}

/* Longest key=value option, with its NUL. */
#define ITEM_MAX 1200
_Static_assert(sizeof(((struct zl_cfgstr *)0)->trace_path) >= ITEM_MAX, "trace= always fits");

/* One key: parse @val into @c; on error write the reason (without key/value). */
typedef int (*key_fn)(struct zl_cfgstr *c, const char *val, char *why, size_t why_len);

/* The value types shared by several keys; @what names the quantity. */
/* Sizes are common/zl_parse's, with its reasons (the CLI gives the same). */
static int k_bytes(uint64_t *out, const char *what, const char *v, char *why, size_t n)
{
	if (zl_parse_size(v, out, why, n))
		return -EINVAL;
	if (!*out)
		return cerr(why, n, "expected %s in bytes > 0", what);
	return 0;
}

static int k_bool(bool *out, const char *v, char *why, size_t n)
{
	if (parse_bool(v, out))
		return cerr(why, n, "expected 0 or 1");
	return 0;
}

static int k_nr_zones(uint32_t *out, const char *v, char *why, size_t n)
{
	uint64_t x;

	if (parse_u64(v, UINT32_MAX - 1, &x))
		return cerr(why, n, "expected a number of zones (0 = no limit)");
	*out = (uint32_t)x;
	return 0;
}

static int k_size(struct zl_cfgstr *c, const char *v, char *why, size_t n)
{
	return k_bytes(&c->size_bytes, "a size", v, why, n);
}

static int k_zsize(struct zl_cfgstr *c, const char *v, char *why, size_t n)
{
	return k_bytes(&c->zone_size_bytes, "a zone size", v, why, n);
}

static int k_zcap(struct zl_cfgstr *c, const char *v, char *why, size_t n)
{
	return k_bytes(&c->zone_cap_bytes, "a zone capacity", v, why, n);
}

static int k_block(uint32_t *out, const char *v, char *why, size_t n)
{
	uint64_t x;

	if (parse_u64(v, UINT32_MAX, &x) || (x != 512 && x != 4096))
		return cerr(why, n, "expected 512 or 4096");
	*out = (uint32_t)x;
	return 0;
}

static int k_lba(struct zl_cfgstr *c, const char *v, char *why, size_t n)
{
	c->lba_given = true;
	return k_block(&c->disk.geo.lba_size, v, why, n);
}

static int k_pblock(struct zl_cfgstr *c, const char *v, char *why, size_t n)
{
	return k_block(&c->disk.geo.pblock_size, v, why, n);
}

static int k_conv(struct zl_cfgstr *c, const char *v, char *why, size_t n)
{
	uint64_t x;

	if (parse_u64(v, UINT32_MAX - 1, &x))
		return cerr(why, n, "expected a number of conventional zones at LBA 0");
	c->disk.geo.nr_conv_start = (uint32_t)x;
	return 0;
}

/* conv_at=A-B:C:D+N  (zone indexes; ':' separates ranges) */
static int k_conv_at(struct zl_cfgstr *c, const char *v, char *why, size_t n)
{
	struct zdev_cfg *g = &c->disk.geo;
	const char *p = v;

	g->nr_conv_ranges = 0;
	while (*p) {
		char item[64];
		size_t len = strcspn(p, ":");
		uint64_t a, b;
		char *sep;

		if (!len || len >= sizeof(item))
			return cerr(why, n, "empty or overlong range at offset %zu (ranges are A, A-B or A+COUNT, "
				    "separated by ':')", (size_t)(p - v));
		memcpy(item, p, len);
		item[len] = '\0';
		sep = strpbrk(item, "-+");
		if (sep) {
			char op = *sep;

			*sep = '\0';
			if (parse_u64(item, UINT32_MAX - 1, &a) || parse_u64(sep + 1, UINT32_MAX - 1, &b))
				return cerr(why, n, "range '%.*s': expected zone indexes A-B or A+COUNT",
					    (int)len, p);
			if (op == '+') {
				if (!b)
					return cerr(why, n, "range '%.*s': count is 0", (int)len, p);
				b = a + b - 1;
			}
			if (b < a)
				return cerr(why, n, "range '%.*s' is reversed", (int)len, p);
		} else {
			if (parse_u64(item, UINT32_MAX - 1, &a))
				return cerr(why, n, "range '%s': expected a zone index", item);
			b = a;
		}
		if (g->nr_conv_ranges >= ZDEV_MAX_CONV_RANGES)
			return cerr(why, n, "more than %d ranges", ZDEV_MAX_CONV_RANGES);
		g->conv_ranges[g->nr_conv_ranges].first = (uint32_t)a;
		g->conv_ranges[g->nr_conv_ranges].count = (uint32_t)(b - a + 1);
		g->nr_conv_ranges++;
		p += len;
		if (*p == ':') {
			p++;
			if (!*p)
				return cerr(why, n, "trailing ':'");
		}
	}
	return 0;
}

static int k_model(struct zl_cfgstr *c, const char *v, char *why, size_t n)
{
	if (!strcasecmp(v, "hm"))
		c->disk.geo.model = ZL_MODEL_HM;
	else if (!strcasecmp(v, "ha"))
		c->disk.geo.model = ZL_MODEL_HA;
	else
		return cerr(why, n, "expected hm (host-managed) or ha (host-aware)");
	return 0;
}

static int k_max_open(struct zl_cfgstr *c, const char *v, char *why, size_t n)
{
	return k_nr_zones(&c->disk.geo.max_open, v, why, n);
}

static int k_max_active(struct zl_cfgstr *c, const char *v, char *why, size_t n)
{
	return k_nr_zones(&c->disk.geo.max_active, v, why, n);
}

static int k_gap(struct zl_cfgstr *c, const char *v, char *why, size_t n)
{
	return k_bool(&c->disk.geo.gap_zones, v, why, n);
}

static int k_urswrz(struct zl_cfgstr *c, const char *v, char *why, size_t n)
{
	return k_bool(&c->disk.geo.urswrz, v, why, n);
}

static int k_wce(struct zl_cfgstr *c, const char *v, char *why, size_t n)
{
	return k_bool(&c->disk.wce, v, why, n);
}

static int k_force(struct zl_cfgstr *c, const char *v, char *why, size_t n)
{
	return k_bool(&c->force, v, why, n);
}

static int k_punch(struct zl_cfgstr *c, const char *v, char *why, size_t n)
{
	return k_bool(&c->disk.store.punch_on_reset, v, why, n);
}

static int k_realtime(struct zl_cfgstr *c, const char *v, char *why, size_t n)
{
	return k_bool(&c->disk.realtime, v, why, n);
}

static int k_store(struct zl_cfgstr *c, const char *v, char *why, size_t n)
{
	if (zstore_kind_parse(v, &c->disk.store.kind))
		return cerr(why, n, "expected file, block, mem or none");
	return 0;
}

static int k_seed(struct zl_cfgstr *c, const char *v, char *why, size_t n)
{
	if (parse_u64(v, UINT64_MAX, &c->disk.seed))
		return cerr(why, n, "expected an unsigned 64-bit number");
	return 0;
}

static int k_profile(struct zl_cfgstr *c, const char *v, char *why, size_t n)
{
	if (!strcasecmp(v, "zbc2"))
		c->profile = ZSCSI_PROFILE_ZBC2;
	else if (!strcasecmp(v, "dhsmr"))
		c->profile = ZSCSI_PROFILE_DHSMR;
	else
		return cerr(why, n, "expected zbc2 or dhsmr");
	return 0;
}

/*
 * faults=<rule>;<rule>... with ',' written as '/' (the kernel splits at
 * ','), checked here by zfault's own parser so check_config refuses a bad
 * rule with its column instead of the open failing later.
 */
static int k_faults(struct zl_cfgstr *c, const char *v, char *why, size_t n)
{
	size_t len = strlen(v);
	struct zfault *f = NULL;
	int ret;

	if (len >= sizeof(c->faults))
		return cerr(why, n, "longer than %zu bytes", sizeof(c->faults) - 1);
	for (size_t i = 0; i <= len; i++)
		c->faults[i] = v[i] == '/' ? ',' : v[i];
	ret = zfault_create(0, &f);
	if (!ret)
		ret = zfault_add_text(f, c->faults, why, n);
	zfault_destroy(f);
	if (ret)
		return ret == -ENOMEM ? cerr(why, n, "out of memory") : -EINVAL;
	c->disk.faults = c->faults;
	return 0;
}

/*
 * timing=PRESET[/key=value...]: the device timing model (docs/TIMING.md)
 * with ',' written as '/', checked by ztime's own parser; off = none, even
 * if the image keeps one.  Not given: the image's (zonelab disk create
 * --timing).  A new image the handler formats keeps it.
 */
static int k_timing(struct zl_cfgstr *c, const char *v, char *why, size_t n)
{
	struct ztime_params p;
	size_t len = strlen(v);

	if (!strcmp(v, "off") || !strcmp(v, "0")) {
		snprintf(c->timing, sizeof(c->timing), "off");
		c->disk.store.timing = NULL;
		return 0;
	}
	if (len >= sizeof(c->timing))
		return cerr(why, n, "longer than %zu bytes", sizeof(c->timing) - 1);
	for (size_t i = 0; i <= len; i++)
		c->timing[i] = v[i] == '/' ? ',' : v[i];
	if (ztime_parse(c->timing, &p, why, n))
		return -EINVAL;
	c->disk.store.timing = c->timing;
	return 0;
}

/* ctl=<absolute socket path>, or 1 for "<image path>.ctl" (resolved after the path), 0 none */
static int k_ctl(struct zl_cfgstr *c, const char *v, char *why, size_t n)
{
	bool on;

	if (!parse_bool(v, &on)) {
		/* marker, replaced by "<path>.ctl" once the whole string is parsed */
		snprintf(c->ctl_path, sizeof(c->ctl_path), "%s", on ? "1" : "");
		return 0;
	}
	if (v[0] != '/')
		return cerr(why, n, "expected an absolute socket path, 1 (the image path + \".ctl\") "
			    "or 0");
	if (strlen(v) >= sizeof(c->ctl_path))
		return cerr(why, n, "socket path is %zu bytes; a Unix socket path holds at most %zu",
			    strlen(v), sizeof(c->ctl_path) - 1);
	memcpy(c->ctl_path, v, strlen(v) + 1);
	return 0;
}

/* geo=image|string: where the geometry comes from */
static int k_geo(struct zl_cfgstr *c, const char *v, char *why, size_t n)
{
	if (!strcmp(v, "image"))
		c->geo_from_image = true;
	else if (!strcmp(v, "string"))
		c->geo_from_image = false;
	else
		return cerr(why, n, "expected 'image' (the geometry recorded in the image, "
			    "e.g. made by zonelab disk create) or 'string' (the keys of this string)");
	return 0;
}

/* trace=<absolute path of the command trace file> */
static int k_trace(struct zl_cfgstr *c, const char *v, char *why, size_t n)
{
	if (v[0] != '/')
		return cerr(why, n, "expected an absolute path for the command trace file");
	/* (fits: an option holds fewer bytes than trace_path, ITEM_MAX) */
	memcpy(c->trace_path, v, strlen(v) + 1);
	return 0;
}

static const struct {
	const char *name;
	key_fn fn;
	bool geometry;         /* recorded in the image: not allowed with geo=image */
} keys[] = {
	{ "size", k_size, true },
	{ "zsize", k_zsize, true },
	{ "zcap", k_zcap, true },
	{ "gap", k_gap, true },
	{ "conv", k_conv, true },
	{ "conv_at", k_conv_at, true },
	{ "lba", k_lba, true },
	{ "pblock", k_pblock, true },
	{ "model", k_model, true },
	{ "max_open", k_max_open, true },
	{ "max_active", k_max_active, true },
	{ "urswrz", k_urswrz, true },
	{ "wce", k_wce, false },
	{ "store", k_store, false },
	{ "punch", k_punch, false },
	{ "faults", k_faults, false },
	{ "seed", k_seed, false },
	{ "realtime", k_realtime, false },
	{ "profile", k_profile, false },
	{ "force", k_force, false },
	{ "ctl", k_ctl, false },
	{ "trace", k_trace, false },
	{ "geo", k_geo, false },
	{ "timing", k_timing, false },
};
#define NR_KEYS (sizeof(keys) / sizeof(keys[0]))

const char *zl_cfgstr_keys(char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (size_t k = 0; k < NR_KEYS && off < len; k++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", k ? ", " : "", keys[k].name);
	return buf;
}

static void defaults(struct zl_cfgstr *c)
{
	memset(c, 0, sizeof(*c));
	zdev_cfg_init(&c->disk.geo);
	c->disk.geo.lba_size = 512;
	c->disk.geo.pblock_size = 0;
	c->disk.geo.model = ZL_MODEL_HM;
	c->disk.geo.max_open = 128;
	c->disk.geo.max_active = 0;
	c->disk.geo.gap_zones = true;
	c->disk.geo.urswrz = true;
	c->disk.store.kind = ZSTORE_FILE;
	c->disk.wce = true;
	c->disk.seed = 1;
	c->disk.realtime = true;
	c->profile = ZSCSI_PROFILE_ZBC2;
	c->zone_size_bytes = 256ull << 20;
}

int zl_cfgstr_parse(const char *s, struct zl_cfgstr *out, char *msg, size_t msg_len)
{
	static const char prefix[] = ZL_CFGSTR_SUBTYPE "/";
	struct zl_cfgstr *c = out;
	bool seen[NR_KEYS] = { false };
	bool store_given = false;
	const char *p, *q;
	size_t path_len;
	char why[512], list[256];

	defaults(c);
	if (!s)
		return cerr(msg, msg_len, "cfgstring is empty");
	if (!strncmp(s, prefix, sizeof(prefix) - 1))
		s += sizeof(prefix) - 1;
	q = strchr(s, ',');
	if (q)
		return cerr(msg, msg_len, "cfgstring contains ',' at offset %zu: the kernel splits "
			    "dev_config at ',' (write the ',' of fault rules as '/')", (size_t)(q - s));

	q = strchr(s, '?');
	path_len = q ? (size_t)(q - s) : strlen(s);
	if (path_len >= sizeof(c->path))
		return cerr(msg, msg_len, "path is %zu bytes, longer than PATH_MAX", path_len);
	memcpy(c->path, s, path_len);
	c->path[path_len] = '\0';

	for (p = q ? q + 1 : NULL; p && *p;) {
		char item[ITEM_MAX], *eq;
		size_t len = strcspn(p, "&");
		size_t k;

		if (!len)
			return cerr(msg, msg_len, "empty option at offset %zu (options are key=value "
				    "separated by '&')", (size_t)(p - s));
		if (len >= sizeof(item))
			return cerr(msg, msg_len, "option '%.*s' at offset %zu is %zu bytes; an option "
				    "holds at most %zu", (int)strcspn(p, "="), p, (size_t)(p - s), len,
				    sizeof(item) - 1);
		memcpy(item, p, len);
		item[len] = '\0';
		p += len;
		if (*p == '&' && !*++p)
			return cerr(msg, msg_len, "trailing '&' after option '%s'", item);
		eq = strchr(item, '=');
		if (!eq)
			return cerr(msg, msg_len, "option '%s' has no '=' (expected key=value)", item);
		*eq = '\0';
		for (k = 0; k < NR_KEYS; k++)
			if (!strcmp(item, keys[k].name))
				break;
		if (k == NR_KEYS)
			return cerr(msg, msg_len, "unknown key '%s' (keys: %s)", item,
				    zl_cfgstr_keys(list, sizeof(list)));
		if (seen[k])
			return cerr(msg, msg_len, "key '%s' given twice", item);
		seen[k] = true;
		if (!eq[1])
			return cerr(msg, msg_len, "key '%s' has an empty value", item);
		if (keys[k].fn(c, eq + 1, why, sizeof(why)))
			return cerr(msg, msg_len, "key '%s' value '%s': %s", item, eq + 1, why);
		if (keys[k].fn == k_store)
			store_given = true;
	}

	if (c->geo_from_image) {
		for (size_t k = 0; k < NR_KEYS; k++)
			if (seen[k] && keys[k].geometry)
				return cerr(msg, msg_len, "key 'geo' value 'image': the geometry comes "
					    "from the image; drop '%s=' (or use geo=string)", keys[k].name);
		if (c->force)
			return cerr(msg, msg_len, "key 'geo' value 'image' with force=1: an image "
				    "that records its geometry is never reformatted; drop force=");
	}
	if (!store_given && c->path[0])
		c->disk.store.kind = zstore_kind_of_path(c->path);
	if (c->geo_from_image && (c->disk.store.kind == ZSTORE_MEM || c->disk.store.kind == ZSTORE_NONE))
		return cerr(msg, msg_len, "key 'geo' value 'image': store=%s keeps no image to read "
			    "a geometry from", zstore_kind_name(c->disk.store.kind));
	switch (c->disk.store.kind) {
	case ZSTORE_FILE:
	case ZSTORE_BLOCK:
		if (c->path[0] != '/')
			return cerr(msg, msg_len, "path '%s' must be absolute for store=%s "
				    "(e.g. zonelab//var/lib/zonelab/disk0.img?zsize=256M)", c->path,
				    zstore_kind_name(c->disk.store.kind));
		c->disk.store.path = c->path;
		break;
	case ZSTORE_MEM:
	case ZSTORE_NONE:
		c->disk.store.path = NULL;
		break;
	}
	if (!strcmp(c->ctl_path, "1")) {
		if (!c->path[0])
			return cerr(msg, msg_len, "key 'ctl' value '1': there is no image path to put "
				    "the socket beside (give ctl=/run/zonelab/<name>.ctl)");
		if (strlen(c->path) + 4 >= sizeof(c->ctl_path))
			return cerr(msg, msg_len, "key 'ctl' value '1': '%s.ctl' is longer than the "
				    "%zu bytes of a Unix socket path (give a shorter ctl=PATH)",
				    c->path, sizeof(c->ctl_path) - 1);
		snprintf(c->ctl_path, sizeof(c->ctl_path), "%s.ctl", c->path);
	}
	return 0;
}

int zl_cfgstr_geometry(struct zl_cfgstr *c, uint64_t dev_size_bytes, uint32_t hw_block_size,
		       char *msg, size_t msg_len)
{
	struct zdev_cfg *g = &c->disk.geo;
	uint64_t size = c->size_bytes ? c->size_bytes : dev_size_bytes;
	uint32_t pbs;

	if (c->geo_from_image) {
		c->disk.use_image_geo = true;    /* checked against the device at open */
		return 0;
	}

	if (!c->lba_given && hw_block_size)
		g->lba_size = hw_block_size;
	if (hw_block_size && g->lba_size != hw_block_size)
		return cerr(msg, msg_len, "key 'lba' value '%u': differs from the device's hw_block_size %u "
			    "(set hw_block_size=%u on the backstore, or drop lba=)",
			    g->lba_size, hw_block_size, g->lba_size);
	pbs = g->pblock_size ? g->pblock_size : g->lba_size;
	if (pbs < g->lba_size)
		return cerr(msg, msg_len, "key 'pblock' value '%u': smaller than the logical block %u",
			    pbs, g->lba_size);
	if (!size)
		return cerr(msg, msg_len, "device size is 0: give the backstore a size (dev_size) or size=");
	if (size % pbs && c->size_bytes)
		return cerr(msg, msg_len, "key 'size' value '%" PRIu64 "' bytes: not a multiple of "
			    "the physical block %u", size, pbs);
	if (size % pbs)
		return cerr(msg, msg_len, "the backstore's dev_size %" PRIu64 " bytes is not a multiple "
			    "of the physical block %u (set dev_size, or give size=)", size, pbs);
	if (c->zone_size_bytes % pbs)
		return cerr(msg, msg_len, "key 'zsize' value '%" PRIu64 "' bytes: not a multiple of the "
			    "physical block %u", c->zone_size_bytes, pbs);
	if (c->zone_cap_bytes % pbs)
		return cerr(msg, msg_len, "key 'zcap' value '%" PRIu64 "' bytes: not a multiple of the "
			    "physical block %u", c->zone_cap_bytes, pbs);
	if (c->zone_cap_bytes > c->zone_size_bytes)
		return cerr(msg, msg_len, "key 'zcap' value '%" PRIu64 "' bytes: larger than the zone "
			    "size %" PRIu64, c->zone_cap_bytes, c->zone_size_bytes);
	g->capacity_lba = size / g->lba_size;
	g->zone_size_lba = c->zone_size_bytes / g->lba_size;
	g->zone_cap_lba = c->zone_cap_bytes / g->lba_size;
	return zdev_cfg_check(g, msg, msg_len);
}
