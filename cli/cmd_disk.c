/*
 * cmd_disk.c — `zonelab disk`: create an emulated zoned disk image, show its
 * geometry and zones, read and write at an LBA, run zone management
 * commands, and check an image's consistency.  It is also how a user
 * prepares a backing file before exporting it through tcmu-runner.
 *
 * Each invocation opens the image, runs one command through zdisk (so the
 * same zone rules apply as for SCSI hosts), and closes it; --stats prints
 * the command's statistics as JSON.  Not a long-running service: see
 * `zonelab ctl` for devices in use.
 */
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zl_crc.h"
#include "zl_json.h"
#include "ztime.h"

static void disk_usage(FILE *f)
{
	fprintf(f,
		"usage: zonelab disk <command> IMAGE [options]\n"
		"\n"
		"commands:\n"
		"  create IMAGE --size BYTES [geometry] [--force] [--wce 0|1] [--timing TEXT]\n"
		"                        format a new image (a regular file, or a block device);\n"
		"                        --timing PRESET[,key=value...] keeps a device timing model\n"
		"                        with it (docs/TIMING.md; the tcmu handler applies it)\n"
		"  info IMAGE [--json]   geometry and zone counts\n"
		"  report IMAGE [--start LBA] [--option NAME] [--max N]\n"
		"                        zone report; NAME: all empty imp-open exp-open closed\n"
		"                        full read-only offline inactive reset-rec non-seq\n"
		"                        all-but-gap not-wp\n"
		"  write IMAGE LBA COUNT [--pattern BYTE] [--input FILE] [--fua]\n"
		"                        write COUNT blocks at LBA (default pattern: 0xa5)\n"
		"  read IMAGE LBA COUNT [--output FILE]\n"
		"                        read COUNT blocks; prints a CRC-32C unless --output\n"
		"  open|close|finish|reset IMAGE (LBA | --all)\n"
		"                        zone management on the zone starting at LBA, or all\n"
		"  check IMAGE           verify every zone record and the counters\n"
		"  demo IMAGE            create a small disk, drive it, print report and stats\n"
		"\n"
		"common options: --stats (print statistics as JSON after the command)\n"
		"\n%s", cli_geo_help);
}

static int open_image(const char *path, bool create, bool force, const struct zdev_cfg *geo,
		      bool wce, const char *timing, struct zdisk **out)
{
	struct zdisk_cfg cfg;
	char msg[512];
	int ret;

	zdisk_cfg_init(&cfg);
	cfg.store.path = path;
	cfg.store.kind = zstore_kind_of_path(path);
	cfg.store.create = create;
	cfg.store.force = force;
	cfg.store.punch_on_reset = true;
	cfg.wce = wce;
	cfg.store.timing = timing;
	if (geo)
		cfg.geo = *geo;
	else
		cfg.use_image_geo = true;
	ret = zdisk_open(&cfg, out, msg, sizeof(msg));
	if (ret) {
		if (msg[0] && strstr(msg, path))
			fprintf(stderr, "zonelab: %s\n", msg);
		else
			fprintf(stderr, "zonelab: %s: %s\n", path, msg[0] ? msg : zl_strerror(ret));
		return -1;
	}
	return 0;
}

static void print_stats(struct zdisk *z)
{
	struct zl_stats s;
	char buf[4096];

	zdisk_stats(z, &s);
	if (zl_stats_json(&s, buf, sizeof(buf)) > 0)
		printf("%s\n", buf);
}

static void print_zone(const struct zl_zone_info *zi)
{
	char wp[24];

	if (zi->wp_lba == ZL_WP_INVALID)
		snprintf(wp, sizeof(wp), "-");
	else
		snprintf(wp, sizeof(wp), "%" PRIu64, zi->wp_lba);
	printf("%12" PRIu64 " %10" PRIu64 " %10" PRIu64 " %12s  %-8s %-9s%s%s\n",
	       zi->start_lba, zi->len_lba, zi->cap_lba, wp, zl_type_name(zi->type),
	       zl_cond_name(zi->cond), zi->non_seq ? " non-seq" : "",
	       zi->reset_rec ? " reset-rec" : "");
}

static int do_report(struct zdisk *z, uint64_t start, enum zl_report_opt opt, uint64_t max)
{
	const struct zdev_cfg *g = zdisk_geo(z);
	struct zl_zone_info zi[256];
	uint64_t shown = 0, next;
	int n;

	if (start >= g->capacity_lba) {
		fprintf(stderr, "zonelab: report: start LBA %" PRIu64 " is beyond the capacity (%" PRIu64 " LBAs)\n",
			start, g->capacity_lba);
		return -1;
	}
	printf("%12s %10s %10s %12s  %-8s %-9s\n", "START", "LEN", "CAP", "WP", "TYPE", "COND");
	while (shown < max && start < g->capacity_lba) {
		uint32_t want = max - shown < 256 ? (uint32_t)(max - shown) : 256;

		n = zdisk_report(z, start, opt, zi, want, &next);
		if (n < 0) {
			fprintf(stderr, "zonelab: report: %s\n", zl_strerror(n));
			return -1;
		}
		for (int i = 0; i < n; i++)
			print_zone(&zi[i]);
		shown += (uint64_t)n;
		if (n == 0 || next <= start)
			break;
		start = next;
	}
	printf("%" PRIu64 " zone(s) reported (option %s)\n", shown, zl_report_opt_name(opt));
	return 0;
}

static void print_info(struct zdisk *z, const char *path, bool json)
{
	const struct zdev_cfg *g = zdisk_geo(z);
	struct zdev *d = zdisk_zdev(z);
	uint32_t nr = zdev_nr_zones(d);
	int64_t conv, gaps, empty, full, ro, off;
	uint32_t nr_open, nr_closed;
	const char *model = g->model == ZL_MODEL_HM ? "host-managed" : "host-aware";

	zdisk_lock(z);
	gaps = zdev_report_count(d, 0, ZL_RO_ALL) - zdev_report_count(d, 0, ZL_RO_ALL_BUT_GAP);
	conv = zdev_report_count(d, 0, ZL_RO_NOT_WP) - gaps;
	empty = zdev_report_count(d, 0, ZL_RO_EMPTY);
	full = zdev_report_count(d, 0, ZL_RO_FULL);
	ro = zdev_report_count(d, 0, ZL_RO_READ_ONLY);
	off = zdev_report_count(d, 0, ZL_RO_OFFLINE);
	nr_open = zdev_nr_open(d);
	nr_closed = zdev_nr_closed(d);
	zdisk_unlock(z);
	if (json) {
		printf("{\"path\":");
		zl_json_fprint_str(stdout, path);
		printf(",\"model\":\"%s\",\"lba_size\":%u,\"pblock_size\":%u,"
		       "\"capacity_lba\":%" PRIu64 ",\"zone_size_lba\":%" PRIu64
		       ",\"zone_cap_lba\":%" PRIu64 ",\"gap_zones\":%s,\"nr_zones\":%u,"
		       "\"max_open\":%u,\"max_active\":%u,\"urswrz\":%s,"
		       "\"conventional\":%" PRId64 ",\"gap\":%" PRId64 ",\"empty\":%" PRId64 ",\"open\":%u,\"closed\":%u,"
		       "\"full\":%" PRId64 ",\"read_only\":%" PRId64 ",\"offline\":%" PRId64,
		       model, g->lba_size, g->pblock_size, g->capacity_lba, g->zone_size_lba,
		       g->zone_cap_lba, g->gap_zones ? "true" : "false", nr, g->max_open,
		       g->max_active, g->urswrz ? "true" : "false", conv, gaps, empty,
		       nr_open, nr_closed, full, ro, off);
		if (zdisk_timing(z)[0]) {
			printf(",\"timing\":");
			zl_json_fprint_str(stdout, zdisk_timing(z));
		}
		printf("}\n");
		return;
	}
	printf("image:        %s\n", path);
	printf("model:        %s\n", model);
	printf("blocks:       %u-byte logical, %u-byte physical\n", g->lba_size, g->pblock_size);
	printf("capacity:     %" PRIu64 " LBAs (%" PRIu64 " MiB)\n", g->capacity_lba,
	       g->capacity_lba * g->lba_size >> 20);
	printf("zones:        %u x %" PRIu64 " LBAs, capacity %" PRIu64 " LBAs%s\n", nr,
	       g->zone_size_lba, g->zone_cap_lba,
	       g->zone_cap_lba < g->zone_size_lba ? (g->gap_zones ? " (gap zones)" : " (ZNS-style)") : "");
	printf("limits:       max open %u, max active %u (0 = none), URSWRZ %s\n", g->max_open,
	       g->max_active, g->urswrz ? "on" : "off");
	printf("conditions:   %" PRId64 " conventional, %" PRId64 " gap, %" PRId64 " empty, %u open, %u closed, %" PRId64
	       " full, %" PRId64 " read-only, %" PRId64 " offline\n",
	       conv, gaps, empty, nr_open, nr_closed, full, ro, off);
	if (zdisk_timing(z)[0])
		printf("timing:       %s\n", zdisk_timing(z));
}

/* What a subcommand does; its arguments follow from it. */
enum disk_kind { DK_CREATE, DK_INFO, DK_REPORT, DK_WRITE, DK_READ, DK_ZONE, DK_CHECK, DK_DEMO };

/* The subcommands: the one list used to validate and to dispatch. */
static const struct disk_cmd {
	const char *name;
	enum disk_kind kind;
	enum zl_zone_op op;  /* DK_ZONE */
} disk_cmds[] = {
	{ .name = "create", .kind = DK_CREATE }, { .name = "info", .kind = DK_INFO },
	{ .name = "report", .kind = DK_REPORT }, { .name = "write", .kind = DK_WRITE },
	{ .name = "read", .kind = DK_READ },
	{ .name = "open", .kind = DK_ZONE, .op = ZL_ZOP_OPEN },
	{ .name = "close", .kind = DK_ZONE, .op = ZL_ZOP_CLOSE },
	{ .name = "finish", .kind = DK_ZONE, .op = ZL_ZOP_FINISH },
	{ .name = "reset", .kind = DK_ZONE, .op = ZL_ZOP_RESET },
	{ .name = "check", .kind = DK_CHECK }, { .name = "demo", .kind = DK_DEMO },
};

static const struct disk_cmd *disk_cmd_find(const char *name)
{
	for (size_t i = 0; i < sizeof(disk_cmds) / sizeof(disk_cmds[0]); i++)
		if (!strcmp(name, disk_cmds[i].name))
			return &disk_cmds[i];
	return NULL;
}

/* Everything after the subcommand. */
struct disk_args {
	const char *path, *input, *output, *timing;
	bool force, json, stats, fua, all, has_lba;
	enum zl_report_opt opt;
	uint64_t start, max, lba, count;
	int pattern, wce;
	struct cli_geo g;
};

/*
 * After a command refused by a zone rule: the zone it hit, so the user can
 * aim the next one.  Nothing for other errors (I/O, LBA beyond capacity).
 */
static void explain_zone(struct zdisk *z, uint64_t lba, int err)
{
	struct zl_zone_info zi;

	if (!zl_is_own_error(err) || err == ZL_E_LBA_RANGE ||
	    zdisk_report(z, lba, ZL_RO_ALL, &zi, 1, NULL) != 1)
		return;
	if (zi.wp_lba == ZL_WP_INVALID)
		fprintf(stderr, "zonelab: the zone at LBA %" PRIu64 " (%" PRIu64 " LBAs, %s) is %s\n",
			zi.start_lba, zi.len_lba, zl_type_name(zi.type), zl_cond_name(zi.cond));
	else
		fprintf(stderr, "zonelab: the zone at LBA %" PRIu64 " (%" PRIu64 " LBAs, %s) is %s, "
			"write pointer at LBA %" PRIu64 "\n", zi.start_lba, zi.len_lba,
			zl_type_name(zi.type), zl_cond_name(zi.cond), zi.wp_lba);
}

static int disk_rw(struct zdisk *z, bool write, uint64_t lba, uint64_t count, int pattern,
		   const char *file, bool fua)
{
	uint32_t lbs = zdisk_geo(z)->lba_size;
	uint8_t *buf;
	size_t len;
	int ret;

	if (count > (256u << 20) / lbs) {
		fprintf(stderr, "zonelab: COUNT %" PRIu64 " is above the 256 MiB per command limit\n",
			count);
		return -1;
	}
	len = (size_t)count * lbs;
	buf = malloc(len ? len : 1);
	if (!buf) {
		fprintf(stderr, "zonelab: no memory for a %zu-byte buffer\n", len);
		return -1;
	}
	if (write) {
		memset(buf, pattern, len);
		if (file) {
			FILE *f = fopen(file, "rb");
			size_t got;

			if (!f) {
				fprintf(stderr, "zonelab: --input %s: %s\n", file, strerror(errno));
				free(buf);
				return -1;
			}
			got = fread(buf, 1, len, f);
			fclose(f);
			if (got < len)
				memset(buf + got, 0, len - got);
		}
		ret = zdisk_write(z, lba, count, buf, fua, NULL);
	} else {
		ret = zdisk_read(z, lba, count, buf, NULL);
	}
	if (ret) {
		fprintf(stderr, "zonelab: %s of %" PRIu64 " LBAs at LBA %" PRIu64 " failed: %s\n",
			write ? "write" : "read", count, lba, zl_strerror(ret));
		explain_zone(z, lba, ret);
		free(buf);
		return -1;
	}
	if (!write && file) {
		FILE *f = strcmp(file, "-") ? fopen(file, "wb") : stdout;

		if (!f || fwrite(buf, 1, len, f) != len) {
			fprintf(stderr, "zonelab: --output %s: %s\n", file, strerror(errno));
			if (f && f != stdout)
				fclose(f);
			free(buf);
			return -1;
		}
		if (f != stdout)
			fclose(f);
	} else {
		printf("%s %" PRIu64 " LBAs at LBA %" PRIu64 ": crc32c 0x%08x\n",
		       write ? "wrote" : "read", count, lba, zl_crc32c(0, buf, len));
	}
	free(buf);
	return 0;
}

/* Every step must do what the comment beside it says, or the demo fails. */
static int disk_demo(const char *path)
{
	static const struct {
		const char *name;
		enum zl_zone_op op;
		uint32_t zone;
	} steps[] = {
		{ "finish", ZL_ZOP_FINISH, 3 },   /* a written zone becomes full */
		{ "open", ZL_ZOP_OPEN, 9 },       /* an empty zone explicitly open */
		{ "reset", ZL_ZOP_RESET, 4 },     /* a written zone empty again */
	};
	struct cli_geo g;
	struct zdisk *z;
	uint8_t buf[4096];
	uint64_t zlen, lba;
	int ret = 0, err;

	cli_geo_init(&g);
	g.size_bytes = 64ull << 20;
	g.zone_bytes = 4ull << 20;
	g.cfg.nr_conv_start = 2;
	g.cfg.max_open = 4;
	if (cli_geo_finish(&g) || open_image(path, true, true, &g.cfg, true, NULL, &z))
		return 1;
	zlen = g.cfg.zone_size_lba;
	printf("# created %s: 64 MiB, 16 zones of 4 MiB, 2 conventional, max open 4\n", path);
	memset(buf, 0x5a, sizeof(buf));
	/* 4 writes of 8 LBAs at the write pointer of zones 2-7 */
	for (uint32_t zi = 2; zi < 8; zi++) {
		for (uint64_t k = 0; k < 4; k++) {
			lba = zi * zlen + k * 8;
			if ((err = zdisk_write(z, lba, 8, buf, false, NULL))) {
				fprintf(stderr, "zonelab: demo: write at LBA %" PRIu64 ": %s\n", lba,
					zl_strerror(err));
				ret = 1;
			}
		}
	}
	lba = 2 * zlen + 100;
	err = zdisk_write(z, lba, 8, buf, false, NULL);
	printf("# unaligned write at LBA %" PRIu64 ": %s (expected)\n", lba, zl_strerror(err));
	if (err != ZL_E_UNALIGNED)
		ret = 1;
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		if ((err = zdisk_zone_op(z, steps[i].op, steps[i].zone * zlen, false, NULL))) {
			fprintf(stderr, "zonelab: demo: %s of zone %u: %s\n", steps[i].name,
				steps[i].zone, zl_strerror(err));
			ret = 1;
		}
	}
	if ((err = zdisk_flush(z, NULL))) {
		fprintf(stderr, "zonelab: demo: flush: %s\n", zl_strerror(err));
		ret = 1;
	}
	printf("\n");
	if (do_report(z, 0, ZL_RO_ALL, UINT64_MAX))
		ret = 1;
	printf("\n# statistics\n");
	print_stats(z);
	zdisk_close(z);
	return ret;
}

enum {
	D_FORCE = 256, D_JSON, D_STATS, D_FUA, D_ALL, D_START, D_MAX, D_OPTION, D_PATTERN, D_WCE,
	D_INPUT, D_OUTPUT, D_TIMING,
};

static const struct option disk_options[] = {
	CLI_GEO_OPTIONS,
	{ "force", 0, 0, D_FORCE }, { "json", 0, 0, D_JSON }, { "stats", 0, 0, D_STATS },
	{ "fua", 0, 0, D_FUA }, { "all", 0, 0, D_ALL }, { "start", 1, 0, D_START },
	{ "max", 1, 0, D_MAX }, { "option", 1, 0, D_OPTION }, { "pattern", 1, 0, D_PATTERN },
	{ "wce", 1, 0, D_WCE }, { "input", 1, 0, D_INPUT }, { "output", 1, 0, D_OUTPUT },
	{ "timing", 1, 0, D_TIMING },
	{ "help", 0, 0, 'h' }, { 0, 0, 0, 0 },
};

/* One option getopt returned into @a; 0, 2 after a message. */
static int disk_opt(const struct disk_cmd *cmd, int o, const char *val, struct disk_args *a)
{
	int used = cli_geo_opt(&a->g, o, val);
	uint64_t v;

	if (used < 0)
		return 2;
	if (used > 0) {
		if (cmd->kind != DK_CREATE) {
			fprintf(stderr, "zonelab disk %s: %s: geometry options only apply to create "
				"(the image records its geometry)\n", cmd->name, cli_geo_name(o));
			return 2;
		}
		return 0;
	}
	switch (o) {
	case D_FORCE: a->force = true; break;
	case D_JSON: a->json = true; break;
	case D_STATS: a->stats = true; break;
	case D_FUA: a->fua = true; break;
	case D_ALL: a->all = true; break;
	case D_START: return cli_parse_u64("--start", val, &a->start) ? 2 : 0;
	case D_MAX: return cli_parse_u64("--max", val, &a->max) ? 2 : 0;
	case D_OPTION:
		if (zl_report_opt_parse(val, &a->opt)) {
			fprintf(stderr, "zonelab: --option: unknown reporting option '%s' "
				"(see zonelab disk --help)\n", val);
			return 2;
		}
		break;
	case D_PATTERN:
		if (cli_parse_u64_max("--pattern", val, 255, &v))
			return 2;
		a->pattern = (int)v;
		break;
	case D_WCE:
		if (cli_parse_u64_max("--wce", val, 1, &v))
			return 2;
		a->wce = (int)v;
		break;
	case D_INPUT: a->input = val; break;
	case D_OUTPUT: a->output = val; break;
	case D_TIMING:
		if (cmd->kind != DK_CREATE) {
			fprintf(stderr, "zonelab disk %s: --timing only applies to create (the image "
				"records its timing model)\n", cmd->name);
			return 2;
		}
		a->timing = val;
		break;
	}
	return 0;
}

/*
 * `disk CMD` with @argv[0] = CMD: the options (anywhere, getopt_long), then
 * IMAGE and the positional LBA [COUNT] of read/write/zone ops.  0, 1 when
 * -h/--help printed the usage, 2 after a message.
 */
static int disk_args(const struct disk_cmd *cmd, int argc, char **argv, struct disk_args *a)
{
	char name[32];
	struct cli_opts co = { .cmd = name, .help = "disk", .longopts = disk_options,
			       .shortopts = "h" };
	char **pos;
	int o, rc, nr_pos, want;

	snprintf(name, sizeof(name), "disk %s", cmd->name);
	memset(a, 0, sizeof(*a));
	a->opt = ZL_RO_ALL;
	a->max = UINT64_MAX;
	a->pattern = 0xa5;
	a->wce = 1;
	cli_geo_init(&a->g);
	cli_opt_start();
	while ((o = cli_getopt(argc, argv, &co)) != -1) {
		if (o == '?')
			return 2;
		if (o == 'h') {
			disk_usage(stdout);
			return 1;
		}
		rc = disk_opt(cmd, o, optarg, a);
		if (rc)
			return rc;
	}
	pos = argv + optind;
	nr_pos = argc - optind;
	if (nr_pos < 1) {
		fprintf(stderr, "zonelab disk %s: missing IMAGE\n", cmd->name);
		return 2;
	}
	a->path = pos[0];
	want = 1;
	if (cmd->kind == DK_WRITE || cmd->kind == DK_READ) {
		if (nr_pos < 3) {
			fprintf(stderr, "zonelab disk %s: expected LBA and COUNT after IMAGE\n",
				cmd->name);
			return 2;
		}
		if (cli_parse_u64("LBA", pos[1], &a->lba) || cli_parse_u64("COUNT", pos[2], &a->count))
			return 2;
		want = 3;
	} else if (cmd->kind == DK_ZONE && nr_pos > 1) {
		if (cli_parse_u64("LBA", pos[1], &a->lba))
			return 2;
		a->has_lba = true;
		want = 2;
	}
	if (nr_pos > want) {
		cli_unexpected(&co, pos[want]);
		return 2;
	}
	if (cmd->kind == DK_ZONE && a->has_lba == a->all) {
		fprintf(stderr, "zonelab disk %s: give either the zone's start LBA or --all\n",
			cmd->name);
		return 2;
	}
	return 0;
}

static int disk_zone_op(struct zdisk *z, const struct disk_cmd *cmd, const struct disk_args *a)
{
	int ret = zdisk_zone_op(z, cmd->op, a->lba, a->all, NULL);

	if (!ret)
		return 0;
	if (a->all) {
		fprintf(stderr, "zonelab: %s of all zones failed: %s\n", cmd->name,
			zl_strerror(ret));
		return 1;
	}
	fprintf(stderr, "zonelab: %s of the zone at LBA %" PRIu64 " failed: %s\n", cmd->name,
		a->lba, zl_strerror(ret));
	explain_zone(z, a->lba, ret);
	return 1;
}

static int disk_check(struct zdisk *z, const char *path)
{
	char msg[512];
	int ret = zdisk_check(z, msg, sizeof(msg));

	printf("%s: %s\n", path, msg);
	return ret ? 1 : 0;
}

/*
 * --timing TEXT of create: the model's own parser, then the drive against
 * the geometry (a disk bigger than the drive, a zone not a multiple of the
 * flash stripe).  0, or -1 after a message naming the option and why.
 */
static int check_timing(const char *text, const struct zdev_cfg *g)
{
	struct ztime_params p;
	struct ztime_geo tg = {
		.zone_bytes = g->zone_size_lba * g->lba_size,
		.nr_zones = (uint32_t)((g->capacity_lba + g->zone_size_lba - 1) / g->zone_size_lba),
	};
	struct ztime *t = NULL;
	char msg[512];

	if (strlen(text) >= ZSTORE_TIMING_MAX) {
		fprintf(stderr, "zonelab disk create: --timing: %zu bytes; the image header keeps "
			"at most %d\n", strlen(text), ZSTORE_TIMING_MAX - 1);
		return -1;
	}
	if (ztime_parse(text, &p, msg, sizeof(msg)) ||
	    ztime_create(&p, &tg, &t, msg, sizeof(msg))) {
		fprintf(stderr, "zonelab disk create: --timing '%s': %s\n", text, msg);
		return -1;
	}
	ztime_destroy(t);
	return 0;
}

/* @cmd on the image: 0, 1 (the command failed) or 2 (usage). */
static int disk_run(const struct disk_cmd *cmd, struct disk_args *a)
{
	struct zdisk *z;
	int rc = 0;

	if (cmd->kind == DK_DEMO)
		return disk_demo(a->path);
	if (cmd->kind == DK_CREATE) {
		if (cli_geo_finish(&a->g))
			return 2;
		if (a->timing && check_timing(a->timing, &a->g.cfg))
			return 2;
		if (open_image(a->path, true, a->force, &a->g.cfg, a->wce, a->timing, &z))
			return 1;
	} else if (open_image(a->path, false, false, NULL, a->wce, NULL, &z)) {
		return 1;
	}
	switch (cmd->kind) {
	case DK_CREATE:
	case DK_INFO:
		print_info(z, a->path, a->json);
		break;
	case DK_REPORT:
		rc = do_report(z, a->start, a->opt, a->max) ? 1 : 0;
		break;
	case DK_WRITE:
		rc = disk_rw(z, true, a->lba, a->count, a->pattern, a->input, a->fua) ? 1 : 0;
		break;
	case DK_READ:
		rc = disk_rw(z, false, a->lba, a->count, a->pattern, a->output, a->fua) ? 1 : 0;
		break;
	case DK_ZONE:
		rc = disk_zone_op(z, cmd, a);
		break;
	case DK_CHECK:
		rc = disk_check(z, a->path);
		break;
	case DK_DEMO:
		break;  /* no image to open: above */
	}
	if (a->stats)
		print_stats(z);
	zdisk_close(z);
	return rc;
}

int cmd_disk(int argc, char **argv)
{
	const struct disk_cmd *cmd;
	struct disk_args a;
	int rc;

	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		disk_usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	if (argv[1][0] == '-') {
		fprintf(stderr, "zonelab disk: unknown option '%s' (see zonelab disk --help)\n",
			argv[1]);
		return 2;
	}
	cmd = disk_cmd_find(argv[1]);
	if (!cmd) {
		fprintf(stderr, "zonelab disk: unknown command '%s' (see zonelab disk --help)\n",
			argv[1]);
		return 2;
	}
	rc = disk_args(cmd, argc - 1, argv + 1, &a);
	if (rc)
		return rc == 1 ? 0 : rc;
	return disk_run(cmd, &a);
}
