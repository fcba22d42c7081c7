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
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "zl_crc.h"

static void disk_usage(FILE *f)
{
	fprintf(f,
		"usage: zonelab disk <command> IMAGE [options]\n"
		"\n"
		"commands:\n"
		"  create IMAGE --size BYTES [geometry] [--force] [--wce 0|1]\n"
		"                        format a new image (a regular file, or a block device)\n"
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
		      bool wce, struct zdisk **out)
{
	struct zdisk_cfg cfg;
	struct stat st;
	char msg[512];
	int ret;

	zdisk_cfg_init(&cfg);
	cfg.store.path = path;
	cfg.store.kind = ZSTORE_FILE;
	if (!stat(path, &st) && S_ISBLK(st.st_mode))
		cfg.store.kind = ZSTORE_BLOCK;
	cfg.store.create = create;
	cfg.store.force = force;
	cfg.store.punch_on_reset = true;
	cfg.wce = wce;
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

	zdisk_lock(z);
	gaps = zdev_report_count(d, 0, ZL_RO_ALL) - zdev_report_count(d, 0, ZL_RO_ALL_BUT_GAP);
	conv = zdev_report_count(d, 0, ZL_RO_NOT_WP) - gaps;
	empty = zdev_report_count(d, 0, ZL_RO_EMPTY);
	full = zdev_report_count(d, 0, ZL_RO_FULL);
	ro = zdev_report_count(d, 0, ZL_RO_READ_ONLY);
	off = zdev_report_count(d, 0, ZL_RO_OFFLINE);
	zdisk_unlock(z);
	if (json) {
		printf("{\"path\":\"%s\",\"model\":\"%s\",\"lba_size\":%u,\"pblock_size\":%u,"
		       "\"capacity_lba\":%" PRIu64 ",\"zone_size_lba\":%" PRIu64
		       ",\"zone_cap_lba\":%" PRIu64 ",\"gap_zones\":%s,\"nr_zones\":%u,"
		       "\"max_open\":%u,\"max_active\":%u,\"urswrz\":%s,"
		       "\"conventional\":%" PRId64 ",\"gap\":%" PRId64 ",\"empty\":%" PRId64 ",\"open\":%u,\"closed\":%u,"
		       "\"full\":%" PRId64 ",\"read_only\":%" PRId64 ",\"offline\":%" PRId64 "}\n",
		       path, g->model == ZL_MODEL_HM ? "host-managed" : "host-aware",
		       g->lba_size, g->pblock_size, g->capacity_lba, g->zone_size_lba,
		       g->zone_cap_lba, g->gap_zones ? "true" : "false", nr, g->max_open,
		       g->max_active, g->urswrz ? "true" : "false", conv, gaps, empty,
		       zdev_nr_open(d), zdev_nr_closed(d), full, ro, off);
		return;
	}
	printf("image:        %s\n", path);
	printf("model:        %s\n", g->model == ZL_MODEL_HM ? "host-managed" : "host-aware");
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
	       conv, gaps, empty, zdev_nr_open(d), zdev_nr_closed(d), full, ro, off);
}

static int parse_lba_count(char **argv, int i, int argc, uint64_t *lba, uint64_t *count)
{
	if (i + 1 >= argc) {
		fprintf(stderr, "zonelab: expected LBA and COUNT\n");
		return -1;
	}
	if (cli_parse_u64("LBA", argv[i], lba) || cli_parse_u64("COUNT", argv[i + 1], count))
		return -1;
	return 0;
}

/* After a refused command: the zone it hit, so the user can aim the next one. */
static void explain_zone(struct zdisk *z, uint64_t lba)
{
	struct zl_zone_info zi;

	if (zdisk_report(z, lba, ZL_RO_ALL, &zi, 1, NULL) != 1)
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
	if (!buf)
		return -1;
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
		if (zl_is_own_error(ret) && ret != ZL_E_LBA_RANGE)
			explain_zone(z, lba);
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

static int disk_demo(const char *path)
{
	struct cli_geo g;
	struct zdisk *z;
	uint8_t buf[4096];
	int ret = 0;

	cli_geo_init(&g);
	g.size_bytes = 64ull << 20;
	g.zone_bytes = 4ull << 20;
	g.cfg.nr_conv_start = 2;
	g.cfg.max_open = 4;
	if (cli_geo_finish(&g) || open_image(path, true, true, &g.cfg, true, &z))
		return 1;
	printf("# created %s: 64 MiB, 16 zones of 4 MiB, 2 conventional, max open 4\n", path);
	memset(buf, 0x5a, sizeof(buf));
	/* a few writes, an unaligned one, zone management */
	for (uint32_t zi = 2; zi < 8; zi++)
		for (int k = 0; k < 4; k++)
			if (zdisk_write(z, (uint64_t)zi * 8192 + k * 8, 8, buf, false, NULL))
				ret = 1;
	printf("# unaligned write at LBA %u: %s (expected)\n", 2 * 8192 + 100,
	       zl_strerror(zdisk_write(z, 2 * 8192 + 100, 8, buf, false, NULL)));
	zdisk_zone_op(z, ZL_ZOP_FINISH, 3 * 8192, false, NULL);
	zdisk_zone_op(z, ZL_ZOP_OPEN, 9 * 8192, false, NULL);
	zdisk_zone_op(z, ZL_ZOP_RESET, 4 * 8192, false, NULL);
	zdisk_flush(z, NULL);
	printf("\n");
	do_report(z, 0, ZL_RO_ALL, UINT64_MAX);
	printf("\n# statistics\n");
	print_stats(z);
	zdisk_close(z);
	return ret;
}

int cmd_disk(int argc, char **argv)
{
	const char *sub, *path, *input = NULL, *output = NULL;
	bool force = false, json = false, stats = false, fua = false, all = false;
	enum zl_report_opt opt = ZL_RO_ALL;
	uint64_t start = 0, max = UINT64_MAX, lba = 0, count = 0, v;
	int pattern = 0xa5, wce = 1, rc = 0, first_pos = 2;
	struct cli_geo g;
	struct zdisk *z;

	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		disk_usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	sub = argv[1];
	if (argc < 3) {
		fprintf(stderr, "zonelab disk %s: missing IMAGE\n", sub);
		return 2;
	}
	path = argv[2];
	cli_geo_init(&g);

	/* Positional LBA [COUNT] after IMAGE for read/write/zone ops. */
	int nr_pos = 0;

	if (!strcmp(sub, "write") || !strcmp(sub, "read")) {
		if (parse_lba_count(argv, 3, argc, &lba, &count))
			return 2;
		nr_pos = 2;
	} else if (!strcmp(sub, "open") || !strcmp(sub, "close") || !strcmp(sub, "finish") ||
		   !strcmp(sub, "reset")) {
		if (argc > 3 && strcmp(argv[3], "--all")) {
			if (cli_parse_u64("LBA", argv[3], &lba))
				return 2;
			nr_pos = 1;
		}
	}
	for (int i = first_pos + 1 + nr_pos; i < argc; i++) {
		int used = cli_geo_opt(&g, argc, argv, i);

		if (used < 0)
			return 2;
		if (used > 0) {
			if (strcmp(sub, "create")) {
				fprintf(stderr, "zonelab disk %s: %s: geometry options only apply to create "
					"(the image records its geometry)\n", sub, argv[i]);
				return 2;
			}
			i += used - 1;
			continue;
		}
		const char *o = argv[i];
		const char *val = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(o, "--force")) {
			force = true;
		} else if (!strcmp(o, "--json")) {
			json = true;
		} else if (!strcmp(o, "--stats")) {
			stats = true;
		} else if (!strcmp(o, "--fua")) {
			fua = true;
		} else if (!strcmp(o, "--all")) {
			all = true;
		} else if (!strcmp(o, "--start") && val) {
			if (cli_parse_u64(o, val, &start))
				return 2;
			i++;
		} else if (!strcmp(o, "--max") && val) {
			if (cli_parse_u64(o, val, &max))
				return 2;
			i++;
		} else if (!strcmp(o, "--option") && val) {
			if (zl_report_opt_parse(val, &opt)) {
				fprintf(stderr, "zonelab: --option: unknown reporting option '%s'\n", val);
				return 2;
			}
			i++;
		} else if (!strcmp(o, "--pattern") && val) {
			if (cli_parse_u64(o, val, &v) || v > 255) {
				fprintf(stderr, "zonelab: --pattern: a byte value 0-255\n");
				return 2;
			}
			pattern = (int)v;
			i++;
		} else if (!strcmp(o, "--wce") && val) {
			if (cli_parse_u64(o, val, &v) || v > 1) {
				fprintf(stderr, "zonelab: --wce: 0 or 1\n");
				return 2;
			}
			wce = (int)v;
			i++;
		} else if (!strcmp(o, "--input") && val) {
			input = val;
			i++;
		} else if (!strcmp(o, "--output") && val) {
			output = val;
			i++;
		} else {
			fprintf(stderr, "zonelab disk %s: unknown option or missing value: %s\n", sub, o);
			return 2;
		}
	}

	if (!strcmp(sub, "demo"))
		return disk_demo(path);
	if (!strcmp(sub, "create")) {
		if (cli_geo_finish(&g))
			return 2;
		if (open_image(path, true, force, &g.cfg, wce, &z))
			return 1;
		print_info(z, path, json);
		goto out_close;
	}
	if (open_image(path, false, false, NULL, wce, &z))
		return 1;
	if (!strcmp(sub, "info")) {
		print_info(z, path, json);
	} else if (!strcmp(sub, "report")) {
		if (do_report(z, start, opt, max))
			rc = 1;
	} else if (!strcmp(sub, "write") || !strcmp(sub, "read")) {
		if (disk_rw(z, sub[0] == 'w', lba, count, pattern,
			    sub[0] == 'w' ? input : output, fua))
			rc = 1;
	} else if (!strcmp(sub, "open") || !strcmp(sub, "close") || !strcmp(sub, "finish") ||
		   !strcmp(sub, "reset")) {
		enum zl_zone_op op = sub[0] == 'o' ? ZL_ZOP_OPEN : sub[0] == 'c' ? ZL_ZOP_CLOSE :
				     sub[0] == 'f' ? ZL_ZOP_FINISH : ZL_ZOP_RESET;
		int ret;

		if (!all && nr_pos == 0) {
			fprintf(stderr, "zonelab disk %s: give the zone's start LBA or --all\n", sub);
			rc = 2;
		} else if ((ret = zdisk_zone_op(z, op, lba, all, NULL))) {
			fprintf(stderr, "zonelab: %s zone%s%s: %s\n", sub, all ? "s" : " at LBA ",
				all ? "" : argv[3], zl_strerror(ret));
			rc = 1;
		}
	} else if (!strcmp(sub, "check")) {
		char msg[512];
		int ret = zdisk_check(z, msg, sizeof(msg));

		printf("%s: %s\n", path, msg);
		if (ret)
			rc = 1;
	} else {
		fprintf(stderr, "zonelab disk: unknown command '%s'\n", sub);
		rc = 2;
	}
out_close:
	if (stats)
		print_stats(z);
	zdisk_close(z);
	return rc;
}
