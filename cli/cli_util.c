/*
 * cli_util.c — argument parsers shared by zonelab subcommands: byte sizes
 * with binary suffixes and integers (common/zl_parse underneath), ranges,
 * and the geometry options.  Every rejection prints what was wrong and
 * why.  Reading the options themselves is cli_opt.c's.
 */
#include "cli.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "zl_parse.h"

/* Numbers and sizes are common/zl_parse's (the cfgstring's too); here only
 * the message: the option, the value and zl_parse's reason. */
int cli_parse_u64(const char *what, const char *s, uint64_t *out)
{
	char why[128];

	if (zl_parse_u64(s, out, why, sizeof(why))) {
		fprintf(stderr, "zonelab: %s: '%s' is %s\n", what, s ? s : "", why);
		return -1;
	}
	return 0;
}

int cli_parse_u64_max(const char *what, const char *s, uint64_t max, uint64_t *out)
{
	uint64_t v;

	if (cli_parse_u64(what, s, &v))
		return -1;
	if (v > max) {
		fprintf(stderr, "zonelab: %s: %s is out of range (0 to %" PRIu64 ")\n", what, s, max);
		return -1;
	}
	*out = v;
	return 0;
}

int cli_parse_bytes(const char *what, const char *s, uint64_t *out)
{
	char why[128];

	if (zl_parse_size(s, out, why, sizeof(why))) {
		fprintf(stderr, "zonelab: %s: '%s': %s\n", what, s ? s : "", why);
		return -1;
	}
	return 0;
}

int cli_parse_range(const char *what, const char *s, uint64_t *first, uint64_t *count)
{
	char buf[64], *sep;
	uint64_t a, b;

	if (!s || strlen(s) >= sizeof(buf)) {
		fprintf(stderr, "zonelab: %s: '%s' is not a range (A, A-B or A+N)\n", what,
			s ? s : "");
		return -1;
	}
	strcpy(buf, s);
	sep = strpbrk(buf, "-+");
	if (!sep) {
		if (cli_parse_u64(what, buf, &a))
			return -1;
		*first = a;
		*count = 1;
		return 0;
	}
	char op = *sep;

	*sep = 0;
	if (cli_parse_u64(what, buf, &a) || cli_parse_u64(what, sep + 1, &b))
		return -1;
	if (op == '+') {
		if (b == 0) {
			fprintf(stderr, "zonelab: %s: '%s' is an empty range\n", what, s);
			return -1;
		}
		*first = a;
		*count = b;
		return 0;
	}
	if (b < a) {
		fprintf(stderr, "zonelab: %s: range '%s' ends before it starts\n", what, s);
		return -1;
	}
	*first = a;
	*count = b - a + 1;
	return 0;
}

const char cli_geo_help[] =
	"geometry options:\n"
	"  --size BYTES          device capacity (required to create), e.g. 16G\n"
	"  --zone-size BYTES     zone size (default 256M); the last zone may be smaller\n"
	"  --zone-cap BYTES      writable bytes per sequential zone (default: zone size)\n"
	"  --gap-zones           show zone-cap < zone-size as ZBC-2 gap zones (else ZNS-style)\n"
	"  --conv N              N conventional zones at LBA 0\n"
	"  --conv-at A[-B|+N]    conventional zones by index anywhere (repeatable, up to 64)\n"
	"  --lba-size 512|4096   logical block size (default 512)\n"
	"  --pblock-size 512|4096 physical block size (default: the logical block size)\n"
	"  --model hm|ha         host-managed (default) or host-aware\n"
	"  --max-open N          maximum open zones (0 = no limit, default)\n"
	"  --max-active N        maximum active zones (0 = no limit, default)\n"
	"  --no-urswrz           restrict reads of sequential zones to below the write pointer\n";

void cli_geo_init(struct cli_geo *g)
{
	memset(g, 0, sizeof(*g));
	zdev_cfg_init(&g->cfg);
	g->zone_bytes = 256ull << 20;
	g->lba = 512;
}

static const struct {
	int opt;
	const char *name;
} geo_names[] = {
	{ CLI_GEO_SIZE, "--size" }, { CLI_GEO_ZONE_SIZE, "--zone-size" },
	{ CLI_GEO_ZONE_CAP, "--zone-cap" }, { CLI_GEO_GAP_ZONES, "--gap-zones" },
	{ CLI_GEO_CONV, "--conv" }, { CLI_GEO_CONV_AT, "--conv-at" },
	{ CLI_GEO_LBA_SIZE, "--lba-size" }, { CLI_GEO_PBLOCK_SIZE, "--pblock-size" },
	{ CLI_GEO_MODEL, "--model" }, { CLI_GEO_MAX_OPEN, "--max-open" },
	{ CLI_GEO_MAX_ACTIVE, "--max-active" }, { CLI_GEO_NO_URSWRZ, "--no-urswrz" },
};

const char *cli_geo_name(int opt)
{
	for (size_t i = 0; i < sizeof(geo_names) / sizeof(geo_names[0]); i++)
		if (geo_names[i].opt == opt)
			return geo_names[i].name;
	return NULL;
}

int cli_geo_opt(struct cli_geo *g, int opt, const char *val)
{
	const char *o = cli_geo_name(opt);
	uint64_t v, n;

	if (!o)
		return 0;
	switch (opt) {
	case CLI_GEO_GAP_ZONES:
		g->cfg.gap_zones = true;
		return 1;
	case CLI_GEO_NO_URSWRZ:
		g->cfg.urswrz = false;
		return 1;
	case CLI_GEO_SIZE:
		return cli_parse_bytes(o, val, &g->size_bytes) ? -1 : 1;
	case CLI_GEO_ZONE_SIZE:
		return cli_parse_bytes(o, val, &g->zone_bytes) ? -1 : 1;
	case CLI_GEO_ZONE_CAP:
		return cli_parse_bytes(o, val, &g->zcap_bytes) ? -1 : 1;
	case CLI_GEO_MODEL:
		if (!strcasecmp(val, "hm")) {
			g->cfg.model = ZL_MODEL_HM;
		} else if (!strcasecmp(val, "ha")) {
			g->cfg.model = ZL_MODEL_HA;
		} else {
			fprintf(stderr, "zonelab: --model: '%s' is not hm or ha\n", val);
			return -1;
		}
		return 1;
	case CLI_GEO_CONV_AT:
		if (cli_parse_range(o, val, &v, &n))
			return -1;
		if (g->cfg.nr_conv_ranges >= ZDEV_MAX_CONV_RANGES) {
			fprintf(stderr, "zonelab: --conv-at: at most %d ranges\n",
				ZDEV_MAX_CONV_RANGES);
			return -1;
		}
		if (v > UINT32_MAX || n > UINT32_MAX) {
			fprintf(stderr, "zonelab: --conv-at: '%s' is beyond 2^32 zones\n", val);
			return -1;
		}
		g->cfg.conv_ranges[g->cfg.nr_conv_ranges++] =
			(struct zdev_range){ (uint32_t)v, (uint32_t)n };
		return 1;
	}
	/* the 32-bit counts and block sizes */
	if (cli_parse_u64_max(o, val, UINT32_MAX, &v))
		return -1;
	if (opt == CLI_GEO_CONV)
		g->cfg.nr_conv_start = (uint32_t)v;
	else if (opt == CLI_GEO_LBA_SIZE)
		g->lba = (uint32_t)v;
	else if (opt == CLI_GEO_PBLOCK_SIZE)
		g->pblock = (uint32_t)v;
	else if (opt == CLI_GEO_MAX_OPEN)
		g->cfg.max_open = (uint32_t)v;
	else
		g->cfg.max_active = (uint32_t)v;
	return 1;
}

static int to_lbas(const char *what, uint64_t bytes, uint32_t lba, uint64_t *out)
{
	if (bytes % lba) {
		fprintf(stderr, "zonelab: %s %" PRIu64 " bytes is not a multiple of the %u-byte block\n",
			what, bytes, lba);
		return -1;
	}
	*out = bytes / lba;
	return 0;
}

int cli_geo_finish(struct cli_geo *g)
{
	char msg[256];

	if (!g->size_bytes) {
		fprintf(stderr, "zonelab: --size is required (e.g. --size 16G)\n");
		return -1;
	}
	g->cfg.lba_size = g->lba;
	g->cfg.pblock_size = g->pblock;
	if (g->lba != 512 && g->lba != 4096) {
		fprintf(stderr, "zonelab: --lba-size %u: must be 512 or 4096\n", g->lba);
		return -1;
	}
	if (to_lbas("--size", g->size_bytes, g->lba, &g->cfg.capacity_lba) ||
	    to_lbas("--zone-size", g->zone_bytes, g->lba, &g->cfg.zone_size_lba) ||
	    to_lbas("--zone-cap", g->zcap_bytes, g->lba, &g->cfg.zone_cap_lba))
		return -1;
	if (zdev_cfg_check(&g->cfg, msg, sizeof(msg))) {
		fprintf(stderr, "zonelab: invalid geometry: %s\n", msg);
		return -1;
	}
	return 0;
}
