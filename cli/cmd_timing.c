/*
 * cmd_timing.c — `zonelab timing table [--timing-model TEXT] [--json]
 * [--seed N]`: the device timing model's microbenchmarks (sim/sim_tbench.c,
 * virtual time, deterministic) as a table beside the preset's published
 * figures (docs/TIMING.md).  This file parses options and prints; the jobs
 * are sim_tbench()'s.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "sim.h"
#include "ztime.h"
#include "zl_json.h"

static const char timing_help[] =
"usage: zonelab timing table [--timing-model PRESET[,key=value...]] [--json] [--seed N]\n"
"                            [--zones N --zone-size BYTES]\n"
"  the timing model's microbenchmarks in virtual time (default model: hc620;\n"
"  presets: hc620, zn540; keys and sources: docs/TIMING.md), beside the\n"
"  preset's published figures and the ratio measured / published;\n"
"  on a disk as big as the drive, or of --zones zones of --zone-size bytes\n"
"  (the disk a measurement ran on: sequential jobs stream its first and last zone)\n";

#define SPTF_QD_MAX 64   /* the JSON's sptf_iops_by_qd: depths 1 .. min(qd, this) */

enum { O_MODEL = 256, O_JSON, O_SEED, O_ZONES, O_ZONE_SIZE, O_HELP };

static const struct option opts[] = {
	{ "timing-model", 1, 0, O_MODEL }, { "json", 0, 0, O_JSON }, { "seed", 1, 0, O_SEED },
	{ "zones", 1, 0, O_ZONES }, { "zone-size", 1, 0, O_ZONE_SIZE },
	{ "help", 0, 0, O_HELP }, { 0, 0, 0, 0 },
};

static void print_json(const char *canon, uint64_t seed, const struct ztime_geo *g,
		       const struct sim_tbench_row *r, uint32_t nr, const double *by_qd,
		       uint32_t nr_qd)
{
	uint32_t i;

	printf("{ \"model\": ");
	zl_json_fprint_str(stdout, canon);
	printf(", \"seed\": %llu, ", (unsigned long long)seed);
	if (g)
		printf("\"zones\": %u, \"zone_size\": %llu, ", g->nr_zones,
		       (unsigned long long)g->zone_bytes);
	if (nr_qd) {
		printf("\"sptf_iops_by_qd\": [");
		for (i = 0; i < nr_qd; i++)
			printf("%s%.3f", i ? ", " : "", by_qd[i]);
		printf("], ");
	}
	printf("\"rows\": [\n");
	for (i = 0; i < nr; i++) {
		printf("  { \"name\": ");
		zl_json_fprint_str(stdout, r[i].name);
		printf(", \"unit\": \"%s\", \"value\": %.3f, ", r[i].unit, r[i].value);
		if (r[i].published > 0)
			printf("\"published\": %.3f, \"ratio\": %.3f, \"source\": ", r[i].published,
			       r[i].value / r[i].published);
		else
			printf("\"published\": null, \"ratio\": null, \"source\": ");
		zl_json_fprint_str(stdout, r[i].source);
		printf(" }%s\n", i + 1 < nr ? "," : "");
	}
	printf("] }\n");
}

/* The footnote number of row @i's source: rows citing the same text share one. */
static uint32_t source_no(const struct sim_tbench_row *r, uint32_t i)
{
	uint32_t j, k = 0;

	for (j = 0; j <= i; j++) {
		uint32_t m;

		if (!(r[j].published > 0))
			continue;
		for (m = 0; m < j; m++)
			if (r[m].published > 0 && !strcmp(r[m].source, r[j].source))
				break;
		if (m == j && (k++, !strcmp(r[j].source, r[i].source)))
			return k;     /* the first row citing @i's source */
	}
	return k;
}

static void print_table(const char *canon, uint64_t seed, const struct ztime_geo *g,
			const struct sim_tbench_row *r, uint32_t nr)
{
	uint32_t i, k = 0;

	printf("timing model: %s\n", canon);
	if (g)
		printf("disk: %u zones of %llu bytes\n", g->nr_zones,
		       (unsigned long long)g->zone_bytes);
	printf("seed %llu, virtual time\n\n", (unsigned long long)seed);
	printf("%-42s %12s %-5s %11s %6s\n", "benchmark", "model", "unit", "published", "ratio");
	for (i = 0; i < nr; i++) {
		printf("%-42s %12.3f %-5s ", r[i].name, r[i].value, r[i].unit);
		if (r[i].published > 0)
			printf("%11.3f %6.3f [%u]\n", r[i].published, r[i].value / r[i].published,
			       source_no(r, i));
		else
			printf("%11s %6s\n", "-", "-");
	}
	for (i = 0; i < nr; i++)
		if (r[i].published > 0 && source_no(r, i) > k) {
			printf("%s[%u] %s\n", k ? "" : "\n", source_no(r, i), r[i].source);
			k = source_no(r, i);
		}
}

/**
 * cmd_timing() - `zonelab timing table ...`.  0, or 2 on a usage error (a
 * model text that does not parse: what, where and why on stderr), 1 when
 * the model cannot run the jobs.
 */
int cmd_timing(int argc, char **argv)
{
	static const struct cli_opts co = { .cmd = "timing", .help = "timing", .shortopts = "h",
					    .longopts = opts };
	struct sim_tbench_row rows[SIM_TBENCH_MAX];
	double by_qd[SPTF_QD_MAX];
	uint32_t nr_qd = 0;
	const char *text = "hc620";
	struct ztime_params p;
	char msg[512], canon[1024];
	uint64_t seed = 1, zones = 0, zone_size = 0;
	struct ztime_geo geo;
	uint32_t nr;
	bool json = false, zones_given = false, size_given = false;
	int o;

	cli_opt_start();
	while ((o = cli_getopt(argc, argv, &co)) != -1) {
		switch (o) {
		case 'h': case O_HELP:
			fputs(timing_help, stdout);
			return 0;
		case O_MODEL: text = optarg; break;
		case O_JSON: json = true; break;
		case O_SEED:
			if (cli_parse_u64("seed", optarg, &seed))
				return 2;
			break;
		case O_ZONES:
			if (cli_parse_u64_max("zones", optarg, UINT32_MAX, &zones))
				return 2;
			zones_given = true;
			break;
		case O_ZONE_SIZE:
			if (cli_parse_bytes("zone-size", optarg, &zone_size))
				return 2;
			size_given = true;
			break;
		default:
			return 2;
		}
	}
	if (optind >= argc || strcmp(argv[optind], "table")) {
		if (optind < argc)
			fprintf(stderr, "zonelab: timing: unknown subcommand '%s' (one: table)\n",
				argv[optind]);
		else
			fprintf(stderr, "zonelab: timing: which? (one: table)\n");
		fputs(timing_help, stderr);
		return 2;
	}
	if (optind + 1 < argc) {
		cli_unexpected(&co, argv[optind + 1]);
		return 2;
	}
	if (zones_given != size_given) {
		fprintf(stderr, "zonelab: timing: --zones and --zone-size go together (the disk's "
			"geometry)\n");
		return 2;
	}
	geo.nr_zones = (uint32_t)zones;
	geo.zone_bytes = zone_size;
	if (ztime_parse(text, &p, msg, sizeof(msg))) {
		fprintf(stderr, "zonelab: timing: --timing-model: %s\n", msg);
		return 2;
	}
	if (ztime_format(&p, canon, sizeof(canon)) < 0)
		snprintf(canon, sizeof(canon), "%s", text);
	if (sim_tbench_geo(&p, zones_given ? &geo : NULL, seed, rows, SIM_TBENCH_MAX, &nr, msg,
			   sizeof(msg))) {
		fprintf(stderr, "zonelab: timing: %s: %s\n", text, msg);
		return 1;
	}
	/* the SPTF job at depths 1 .. qd: what timing_cmp.py judges a
	 * measurement against at the depth its queue had (HDD, --json) */
	if (json && p.kind == ZTIME_HDD) {
		nr_qd = p.qd < SPTF_QD_MAX ? p.qd : SPTF_QD_MAX;
		if (sim_tbench_sptf_by_qd(&p, zones_given ? &geo : NULL, seed, nr_qd, by_qd, msg,
					  sizeof(msg))) {
			fprintf(stderr, "zonelab: timing: %s: %s\n", text, msg);
			return 1;
		}
	}
	if (json)
		print_json(canon, seed, zones_given ? &geo : NULL, rows, nr, by_qd, nr_qd);
	else
		print_table(canon, seed, zones_given ? &geo : NULL, rows, nr);
	return 0;
}
