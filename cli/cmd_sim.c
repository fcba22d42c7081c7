/*
 * cmd_sim.c — `zonelab sim`: run one fs-core simulation from command-line
 * options and print its JSON summary on stdout (a CSV time series with
 * --csv).  Progress goes to stderr only when stderr is a terminal.  This
 * file parses options; the model is in sim/sim*.c.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "sim.h"
#include "trc_src_reader.h"
#include "ztime.h"

static const char sim_help[] =
"usage: zonelab sim [options]      (prints a JSON summary; see docs/SIM.md)\n"
"  devices:   --devices N --zones N --zone-size BYTES --conv N\n"
"             --dev-cmd-us N --dev-bw BYTES_PER_S (0 = infinite) --zone-switch-us N\n"
"             --timing-model PRESET[,key=value...] (hc620, zn540; docs/TIMING.md):\n"
"             each device timed by the drive model instead of the three above\n"
"             --store none|mem|file:PATH --faults RULES (docs/FAULTS.md)\n"
"             --blkdev /dev/sdX (a Linux zoned block device; its geometry is used)\n"
"             --on-dev-error abort|continue --no-reloc-reads\n"
"  fs-core:   --profile single|dup|raid1|raid0|raid10 --meta-profile P\n"
"             --order submit-buffer|serialize|append|none --release redirty|zeros|none\n"
"             --expire-ms N --no-metadata --fanout N --leaf-items N --release-prob X\n"
"             --commit-interval-ms N --commit-bytes BYTES\n"
"             --meta-model file|btrfs (btrfs: the kernel's extent, checksum and root\n"
"             trees and relocation stages; docs/VALIDATION.md) --extent-size BYTES\n"
"             --space-resv none|linux-6.1|linux-6.12|linux-7.3 (with --meta-model\n"
"             btrfs: the kernel's metadata reservations and the commits they force;\n"
"             6.12: with 6.12's overcommit, btrfs_can_overcommit(); 7.3: 6.12's with\n"
"             a 64th as overcommit and a commit when the delayed refs reserve passes\n"
"             half the usable metadata space at a relocation's transaction start)\n"
"             --buffered MAX_EXTENT (buffered writes: dirty until a flush writes them\n"
"             back in file order, extents of at most MAX_EXTENT bytes freed whole;\n"
"             a trace's datasync is the file's fsync, its sync a commit; docs/SIM.md)\n"
"  reorder:   --workers N --worker-dist const|exp|pareto --worker-mean-us N --pareto-alpha X\n"
"  workload:  --workload seq|uniform|hotcold|zipf --util X --bio-blocks N --hot-r X --hot-f X\n"
"             --zipf-theta X (zipf: P(rank k) ~ 1/k^X, default 0.99)\n"
"             --qd N --warmup N --writes N --seed N\n"
"  cleaning:  --clean NAME[:params] --reserve N (fifo, greedy, cost-benefit, cat,\n"
"             d-choices[:d=N,replace=0|1], windowed[:w=N], btrfs[:threshold=PCT];\n"
"             docs/POLICIES.md)\n"
"  reclaim:   --reclaim reserve|linux-6.1[:data=PCT,meta=PCT,sys=PCT,global=PCT]\n"
"             |linux-6.12[:data=PCT,meta=PCT,sys=PCT,global=PCT,dynamic=0|1,periodic=0|1]\n"
"             (reserve: clean when free zones drop under --reserve; linux-6.1: the\n"
"             kernel's reclaim list, passes after flush commits; linux-6.12: 6.12's,\n"
"             entries checked again at their turn, the sysfs knobs dynamic_reclaim\n"
"             and periodic_reclaim (off by default); docs/VALIDATION.md)\n"
"  placement: --placement one-log|reloc|hint|freq[:reloc=0|1][,age=N]\n"
"  replay:    --trace FILE --trace-format F (auto; zonelab trace --help) --device N\n"
"             --map compact|direct|scale --file-size BYTES --loops N (the last is measured)\n"
"             --timing closed|timed --speed X (timed: arrival = ts / X; --qd caps, none by default)\n"
"             (--zones left out with a trace: derived so that file = --util of the capacity)\n"
"  zones:     --max-open N --max-active N (the zone model's limits; 0 = none)\n"
"  output:    --csv FILE --sample-ms N\n"
"             --zone-csv FILE (device 0's zone conditions at each sample)\n"
"  rebuild:   --rebuild raid1|raid10|raid6 (raid6 HYPOTHETICAL): instead of fs-core, the\n"
"             rebuild of one failed drive of an SMR array (docs/REBUILD.md), with\n"
"             --devices --zones (default: as the drive holds) --zone-size (default 256M)\n"
"             --timing-model (default hc620) --util (allocated fraction) --seed and\n"
"             --rebuild-fg-load X (0..0.95 of the array's throughput)\n"
"             --rebuild-prio idle|share:X --rebuild-io BYTES (default 4M)\n"
"             --rebuild-depth N (chunks in flight, reads ahead of the writes; default 4)\n"
"             --rebuild-max-days N (give up; default 60)\n"
"             --rebuild-sample K (simulate 1 zone in K of the copy and weigh it\n"
"             for its group: about K times faster; default 1, every zone)\n"
"  replay of a kernel replace: --replace-layout FILE [--replace-dev DEVID]: instead\n"
"             of a run, mount the layout of a real zoned btrfs (chunks, write\n"
"             pointers; format in sim/sim_kreplace.c) in fs-core and replace device\n"
"             DEVID (default: the first) as zoned btrfs does; prints the bytes it\n"
"             copies (docs/REBUILD.md); no other option goes with it\n"
"  failure:   --fail-dev N --fail-at-write BYTES (device N fails when fs-core's user\n"
"             bytes reach BYTES; fs-core's zoned replace rebuilds it onto a new device\n"
"             while the workload goes on; --profile raid1|raid10, metadata too)\n"
"             --rebuild-prio idle|share:X (idle: batches only when no foreground I/O\n"
"             is in flight or its writer waits for space; share: the rebuild at most X\n"
"             of the time; default idle)\n"
"             --rebuild-depth N (batches of 8 MiB of the copy in flight: the next\n"
"             batch's reads while this one's writes go; 1 to 16, default 1 = Linux's\n"
"             scrub-based copy)\n"
"             --fail2-dev M --fail2-at BYTES (M fails when the rebuild has walked\n"
"             BYTES: RAID1 and RAID5 lose data, exit 3); --fail3-dev K (K fails with M:\n"
"             RAID6 loses data); JSON \"rebuild\" object (docs/SIM.md)\n"
"  --raid56-model   HYPOTHETICAL (no zoned kernel has it): --profile raid5|raid6 data\n"
"             block groups, full-stripe writes only (each write padded to whole\n"
"             rows), parity rotating, rebuild by reconstruction (docs/REBUILD.md)\n"
"  --check-config   check the options (exit 0 or 2 with the message), run nothing\n";

/* The value @names spells @s, in *@out; -1 after a message naming the choices. */
static int pick(const char *what, const char *s, const char *const *names, int *out)
{
	int v = sim_name_parse(names, s);

	if (v >= 0) {
		*out = v;
		return 0;
	}
	fprintf(stderr, "zonelab: %s: unknown value '%s' (one of:", what, s);
	for (int i = 0; names[i]; i++)
		fprintf(stderr, " %s", names[i]);
	fprintf(stderr, ")\n");
	return -1;
}

static int parse_double(const char *what, const char *s, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(s, &end);
	if (errno || end == s || *end) {
		fprintf(stderr, "zonelab: %s: not a number: '%s'\n", what, s);
		return -1;
	}
	return 0;
}

enum {
	O_SEED = 256, O_DEVICES, O_ZONES, O_ZONE_SIZE, O_CONV, O_CMD, O_BW, O_SWITCH,
	O_PROFILE, O_META_PROFILE, O_ORDER, O_RELEASE, O_EXPIRE, O_NO_META, O_FANOUT, O_LEAF,
	O_RELPROB, O_COMMIT_MS, O_COMMIT_BYTES, O_WORKERS, O_DIST, O_WMEAN, O_ALPHA,
	O_WORKLOAD, O_UTIL, O_BIO, O_HOTR, O_HOTF, O_ZIPF, O_QD, O_WARMUP, O_WRITES, O_CLEAN,
	O_RESERVE, O_CSV, O_SAMPLE, O_STORE, O_FAULTS, O_BLKDEV, O_ON_ERR, O_NO_RREAD,
	O_HELP, O_RECLAIM, O_META_MODEL, O_EXTENT, O_PLACEMENT, O_ZONE_CSV, O_CHECK_CONFIG, O_MAP, O_FILE_SIZE, O_LOOPS, O_TIMING, O_SPEED,
	O_MAX_OPEN, O_MAX_ACTIVE, O_TRACE, O_TRACE_FMT, O_DEVICE, O_SPACE_RESV, O_TIMING_MODEL,
	O_REBUILD, O_RB_LOAD, O_RB_PRIO, O_RB_IO, O_RB_DAYS, O_RB_SAMPLE, O_RB_DEPTH, O_BUFFERED, O_KR_LAYOUT, O_KR_DEV,
	O_FAIL_DEV, O_FAIL_AT, O_FAIL2_DEV, O_FAIL2_AT, O_FAIL3_DEV, O_R56,
};

static const struct option opts[] = {
	{ "seed", 1, 0, O_SEED }, { "devices", 1, 0, O_DEVICES }, { "zones", 1, 0, O_ZONES },
	{ "zone-size", 1, 0, O_ZONE_SIZE }, { "conv", 1, 0, O_CONV }, { "dev-cmd-us", 1, 0, O_CMD },
	{ "dev-bw", 1, 0, O_BW }, { "zone-switch-us", 1, 0, O_SWITCH },
	{ "timing-model", 1, 0, O_TIMING_MODEL },
	{ "profile", 1, 0, O_PROFILE }, { "meta-profile", 1, 0, O_META_PROFILE },
	{ "order", 1, 0, O_ORDER }, { "release", 1, 0, O_RELEASE }, { "expire-ms", 1, 0, O_EXPIRE },
	{ "no-metadata", 0, 0, O_NO_META }, { "fanout", 1, 0, O_FANOUT },
	{ "leaf-items", 1, 0, O_LEAF }, { "release-prob", 1, 0, O_RELPROB },
	{ "commit-interval-ms", 1, 0, O_COMMIT_MS }, { "commit-bytes", 1, 0, O_COMMIT_BYTES },
	{ "workers", 1, 0, O_WORKERS }, { "worker-dist", 1, 0, O_DIST },
	{ "worker-mean-us", 1, 0, O_WMEAN }, { "pareto-alpha", 1, 0, O_ALPHA },
	{ "workload", 1, 0, O_WORKLOAD }, { "util", 1, 0, O_UTIL }, { "bio-blocks", 1, 0, O_BIO },
	{ "hot-r", 1, 0, O_HOTR }, { "hot-f", 1, 0, O_HOTF }, { "zipf-theta", 1, 0, O_ZIPF },
	{ "qd", 1, 0, O_QD },
	{ "warmup", 1, 0, O_WARMUP }, { "writes", 1, 0, O_WRITES }, { "clean", 1, 0, O_CLEAN },
	{ "reserve", 1, 0, O_RESERVE }, { "csv", 1, 0, O_CSV }, { "sample-ms", 1, 0, O_SAMPLE },
	{ "store", 1, 0, O_STORE }, { "faults", 1, 0, O_FAULTS }, { "blkdev", 1, 0, O_BLKDEV },
	{ "on-dev-error", 1, 0, O_ON_ERR }, { "no-reloc-reads", 0, 0, O_NO_RREAD },
	{ "help", 0, 0, O_HELP }, { "placement", 1, 0, O_PLACEMENT }, { "reclaim", 1, 0, O_RECLAIM },
	{ "meta-model", 1, 0, O_META_MODEL }, { "extent-size", 1, 0, O_EXTENT },
	{ "space-resv", 1, 0, O_SPACE_RESV }, { "buffered", 1, 0, O_BUFFERED },
	{ "zone-csv", 1, 0, O_ZONE_CSV }, { "check-config", 0, 0, O_CHECK_CONFIG },
	{ "map", 1, 0, O_MAP }, { "file-size", 1, 0, O_FILE_SIZE }, { "loops", 1, 0, O_LOOPS },
	{ "timing", 1, 0, O_TIMING }, { "speed", 1, 0, O_SPEED }, { "trace", 1, 0, O_TRACE },
	{ "trace-format", 1, 0, O_TRACE_FMT }, { "device", 1, 0, O_DEVICE },
	{ "max-open", 1, 0, O_MAX_OPEN }, { "max-active", 1, 0, O_MAX_ACTIVE },
	{ "rebuild", 1, 0, O_REBUILD }, { "rebuild-fg-load", 1, 0, O_RB_LOAD },
	{ "rebuild-prio", 1, 0, O_RB_PRIO }, { "rebuild-io", 1, 0, O_RB_IO },
	{ "rebuild-max-days", 1, 0, O_RB_DAYS }, { "rebuild-sample", 1, 0, O_RB_SAMPLE },
	{ "rebuild-depth", 1, 0, O_RB_DEPTH },
	{ "replace-layout", 1, 0, O_KR_LAYOUT }, { "replace-dev", 1, 0, O_KR_DEV },
	{ "fail-dev", 1, 0, O_FAIL_DEV }, { "fail-at-write", 1, 0, O_FAIL_AT },
	{ "fail2-dev", 1, 0, O_FAIL2_DEV }, { "fail2-at", 1, 0, O_FAIL2_AT },
	{ "fail3-dev", 1, 0, O_FAIL3_DEV }, { "raid56-model", 0, 0, O_R56 }, { 0, 0, 0, 0 },
};

/* The option table, for `zonelab run` (scenario keys are these names). */
const struct option *cmd_sim_options(void)
{
	return opts;
}

/* The long name of option value @o (messages name the option as typed);
 * a lookup, so the enum and the table need not be in the same order. */
static const char *opt_name(int o)
{
	for (const struct option *p = opts; p->name; p++)
		if (p->val == o)
			return p->name;
	return "?";
}

/* --store none|mem|file:PATH (the names: sim_store_names[]) */
static int parse_store(struct sim_cfg *c, const char *a)
{
	const char *file = sim_store_names[SIM_STORE_FILE];
	size_t len = strlen(file);
	int v = sim_name_parse(sim_store_names, a);

	if (v >= 0 && v != SIM_STORE_FILE) {
		c->store = v;
		return 0;
	}
	if (!strncmp(a, file, len) && a[len] == ':' && a[len + 1]) {
		c->store = SIM_STORE_FILE;
		c->store_path = a + len + 1;
		return 0;
	}
	fprintf(stderr, "zonelab: store: expected %s, %s or %s:PATH, not '%s'\n",
		sim_store_names[SIM_STORE_NONE], sim_store_names[SIM_STORE_MEM], file, a);
	return -1;
}

/* --clean NAME[:params] (fs-core's parser: names and parameters listed on error) */
static int parse_clean(struct sim_cfg *c, const char *a)
{
	char msg[512];

	if (!fsc_clean_parse(a, &c->clean, &c->clean_params, msg, sizeof(msg)))
		return 0;
	fprintf(stderr, "zonelab: sim: %s\n", msg);
	return -1;
}

/* --placement NAME[:params] (fs-core's parser) */
static int parse_placement(struct sim_cfg *c, const char *a)
{
	char msg[512];

	if (!fsc_place_parse(a, &c->place, &c->place_params, msg, sizeof(msg)))
		return 0;
	fprintf(stderr, "zonelab: sim: %s\n", msg);
	return -1;
}

/* --reclaim reserve|linux-6.1[:params]|linux-6.12[:params] (fs-core's parser) */
static int parse_reclaim(struct sim_cfg *c, const char *a)
{
	char msg[512];

	if (!fsc_reclaim_parse(a, &c->reclaim, msg, sizeof(msg)))
		return 0;
	fprintf(stderr, "zonelab: sim: %s\n", msg);
	return -1;
}

/* One option into @c; 0, or -1 after a message. */
static int sim_opt(struct sim_cfg *c, int o, const char *a, const char **csv)
{
	uint64_t v = 0;
	int e = 0, r = 0;

	switch (o) {
	case O_ZONE_SIZE: case O_BW: case O_COMMIT_BYTES: case O_FILE_SIZE: case O_EXTENT:
	case O_BUFFERED: case O_FAIL_AT: case O_FAIL2_AT:
		r = cli_parse_bytes(opt_name(o), a, &v);
		break;
	case O_SEED: case O_WARMUP: case O_WRITES:
		r = cli_parse_u64(opt_name(o), a, &v);
		break;
	case O_DEVICES: case O_ZONES: case O_CONV: case O_FANOUT: case O_LEAF: case O_WORKERS:
	case O_BIO: case O_QD: case O_RESERVE: case O_LOOPS:  /* 32-bit fields: no silent wrap */
	case O_MAX_OPEN: case O_MAX_ACTIVE:
		r = cli_parse_u64_max(opt_name(o), a, UINT32_MAX, &v);
		break;
	case O_FAIL_DEV: case O_FAIL2_DEV: case O_FAIL3_DEV:
		/* a device index (SIM_NO_DEV is none) */
		r = cli_parse_u64_max(opt_name(o), a, SIM_NO_DEV - 1, &v);
		break;
	case O_CMD: case O_SWITCH: case O_WMEAN:         /* microseconds, kept in ns */
		r = cli_parse_u64_max(opt_name(o), a, UINT64_MAX / 1000, &v);
		break;
	case O_EXPIRE: case O_COMMIT_MS: case O_SAMPLE:  /* milliseconds, kept in ns */
		r = cli_parse_u64_max(opt_name(o), a, UINT64_MAX / 1000000, &v);
		break;
	}
	if (r)
		return -1;
	switch (o) {
	case O_SEED: c->seed = v; break;
	case O_DEVICES: c->nr_devs = (uint32_t)v; break;
	case O_ZONES: c->nr_zones = (uint32_t)v; break;
	case O_ZONE_SIZE: c->zone_bytes = v; break;
	case O_CONV: c->nr_conv = (uint32_t)v; break;
	case O_CMD: c->dev_cmd_ns = v * 1000; break;
	case O_BW: c->dev_bw_bps = v; break;
	case O_SWITCH: c->zone_switch_ns = v * 1000; break;
	case O_PROFILE: r = pick("profile", a, sim_profile_names, &e); c->data_profile = e; break;
	case O_META_PROFILE:
		r = pick("meta-profile", a, sim_profile_names, &e);
		c->meta_profile = e;
		break;
	case O_ORDER: r = pick("order", a, sim_order_names, &e); c->order = e; break;
	case O_RELEASE: r = pick("release", a, sim_release_names, &e); c->release = e; break;
	case O_EXPIRE: c->expire_ns = v * 1000000; break;
	case O_NO_META: c->metadata = false; break;
	case O_FANOUT: c->tree_fanout = (uint32_t)v; break;
	case O_LEAF: c->leaf_items = (uint32_t)v; break;
	case O_RELPROB: r = parse_double("release-prob", a, &c->release_prob); break;
	case O_COMMIT_MS: c->commit_interval_ns = v * 1000000; break;
	case O_COMMIT_BYTES: c->commit_bytes = v; break;
	case O_WORKERS: c->nr_workers = (uint32_t)v; break;
	case O_DIST: r = pick("worker-dist", a, sim_dist_names, &e); c->worker_dist = e; break;
	case O_WMEAN: c->worker_mean_ns = v * 1000; break;
	case O_ALPHA: r = parse_double("pareto-alpha", a, &c->pareto_alpha); break;
	case O_WORKLOAD: r = pick("workload", a, sim_workload_names, &e); c->workload = e; break;
	case O_UTIL: r = parse_double("util", a, &c->util); break;
	case O_BIO: c->bio_blocks = (uint32_t)v; break;
	case O_HOTR: r = parse_double("hot-r", a, &c->hot_r); break;
	case O_HOTF: r = parse_double("hot-f", a, &c->hot_f); break;
	case O_ZIPF: r = parse_double("zipf-theta", a, &c->zipf_theta); break;
	case O_QD: c->qd = (uint32_t)v; break;
	case O_WARMUP: c->warmup_writes = v; break;
	case O_WRITES: c->writes = v; break;
	case O_CLEAN: r = parse_clean(c, a); break;
	case O_RESERVE: c->reserve_zones = (uint32_t)v; break;
	case O_CSV: *csv = a; break;
	case O_SAMPLE: c->sample_ns = v * 1000000; break;
	case O_STORE: r = parse_store(c, a); break;
	case O_FAULTS: c->faults = a; break;
	case O_TIMING_MODEL: c->timing_model = a; break;
	case O_BLKDEV: c->blkdev = a; break;
	case O_ON_ERR:
		r = pick("on-dev-error", a, sim_on_dev_error_names, &e);
		c->dev_error_abort = e == 0;
		break;
	case O_NO_RREAD: c->reloc_reads = false; break;
	case O_PLACEMENT: r = parse_placement(c, a); break;
	case O_RECLAIM: r = parse_reclaim(c, a); break;
	case O_META_MODEL: r = pick("meta-model", a, sim_meta_model_names, &e); c->meta_model = e; break;
	case O_EXTENT: c->extent_bytes = v; break;
	case O_BUFFERED: c->buffered_bytes = v; break;
	case O_SPACE_RESV:
		r = pick("space-resv", a, sim_space_resv_names, &e);
		c->resv_linux61 = e >= 1;
		c->resv_612 = e >= 2;
		c->resv_73 = e == 3;
		break;
	case O_MAP: r = pick("map", a, trc_map_names, &e); c->map = e; break;
	case O_FILE_SIZE: c->file_bytes = v; break;
	case O_LOOPS: c->loops = (uint32_t)v; break;
	case O_TIMING: r = pick("timing", a, sim_timing_names, &e); c->timing = e; break;
	case O_SPEED: r = parse_double("speed", a, &c->speed); break;
	case O_MAX_OPEN: c->max_open = (uint32_t)v; break;
	case O_MAX_ACTIVE: c->max_active = (uint32_t)v; break;
	case O_FAIL_DEV: c->fail_dev = (uint32_t)v; break;
	case O_FAIL_AT: c->fail_at_bytes = v; break;
	case O_FAIL2_DEV: c->fail2_dev = (uint32_t)v; break;
	case O_FAIL2_AT: c->fail2_at_bytes = v; break;
	case O_FAIL3_DEV: c->fail3_dev = (uint32_t)v; break;
	case O_R56: c->raid56_model = true; break;
	}
	return r ? -1 : 0;
}

/* The rebuild model's options (--rebuild ...); 0, or -1 after a message. */
static int rb_opt(struct sim_rb_cfg *rc, int o, const char *a)
{
	uint64_t v;
	int e;

	switch (o) {
	case O_REBUILD:
		if (pick("rebuild", a, sim_rb_profile_names, &e))
			return -1;
		rc->profile = e;
		return 0;
	case O_RB_LOAD: return parse_double("rebuild-fg-load", a, &rc->fg_load);
	case O_RB_PRIO:
		if (!strcmp(a, "idle")) {
			rc->prio = SIM_RB_IDLE;
			return 0;
		}
		if (!strncmp(a, "share:", 6)) {
			rc->prio = SIM_RB_SHARE;
			return parse_double("rebuild-prio share", a + 6, &rc->share);
		}
		fprintf(stderr, "zonelab: rebuild-prio: '%s': idle or share:X (X the rebuild's share "
			"of device time, e.g. share:0.25)\n", a);
		return -1;
	case O_RB_IO:
		if (cli_parse_bytes("rebuild-io", a, &rc->io_bytes))
			return -1;
		return 0;
	case O_RB_DAYS:
		if (cli_parse_u64_max("rebuild-max-days", a, 10000, &v))
			return -1;
		rc->max_ns = v * 86400ULL * 1000000000ULL;
		return 0;
	case O_RB_SAMPLE:
		if (cli_parse_u64_max("rebuild-sample", a, 1000, &v))
			return -1;
		rc->sample = (uint32_t)v;
		return 0;
	case O_RB_DEPTH:
		if (cli_parse_u64_max("rebuild-depth", a, 1024, &v))
			return -1;
		rc->depth = (uint32_t)v;
		return 0;
	}
	return 1;   /* not a rebuild option */
}

/* `zonelab sim --rebuild ...`: the rebuild model (sim/sim_rebuild.c). */
static int run_rebuild(const struct sim_rb_cfg *rc, bool check_only)
{
	static struct sim_rb_result res;
	char msg[512];
	int ret = sim_rb_cfg_check(rc, msg, sizeof(msg));

	if (ret) {
		fprintf(stderr, "zonelab: sim: %s\n", msg);
		return 2;
	}
	if (check_only) {
		struct ztime_params p;

		if (ztime_parse(rc->timing_model ? rc->timing_model : "hc620", &p, msg,
				sizeof(msg))) {
			fprintf(stderr, "zonelab: sim: --timing-model: %s\n", msg);
			return 2;
		}
		return 0;
	}
	ret = sim_rb_run(rc, &res, msg, sizeof(msg));
	if (ret) {
		fprintf(stderr, "zonelab: sim: %s\n", msg);
		return ret == -EINVAL ? 2 : 1;
	}
	sim_rb_json(stdout, rc, &res);
	return 0;
}

/* `zonelab sim --replace-layout FILE`: fs-core's replay of a kernel replace
 * (sim/sim_kreplace.c). */
static int run_kreplace(const char *path, uint32_t devid, bool check_only)
{
	struct sim_kr_result res;
	char msg[512];
	FILE *f = fopen(path, "r");
	int ret;

	if (!f) {
		fprintf(stderr, "zonelab: sim: --replace-layout: %s: %s\n", path, strerror(errno));
		return 2;
	}
	ret = sim_kr_run(f, path, devid, &res, msg, sizeof(msg));
	fclose(f);
	if (ret) {
		fprintf(stderr, "zonelab: sim: %s\n", msg);
		return ret == -EINVAL ? 2 : 1;
	}
	if (!check_only)
		sim_kr_json(stdout, &res);
	return 0;
}

/**
 * cmd_sim() - `zonelab sim [options]`.  Returns 0 when the run completed
 * without error, 1 when the simulation stopped on an error (the JSON says
 * which: a device error with --on-dev-error abort, -ENOSPC, -EDEADLK...) or
 * the block device could not be used (message on stderr), 2 on a usage
 * error (a parameter out of range, a geometry without room for data, a
 * fault rule that does not parse: message on stderr), 3 when the run
 * completed but lost data or its data check failed (--fail-dev, --fail2-dev:
 * the JSON's "rebuild" object says how much).
 */
int cmd_sim(int argc, char **argv)
{
	static const struct cli_opts co = { .cmd = "sim", .help = "sim", .shortopts = "h",
					    .longopts = opts };
	static struct sim_result res;
	struct trc_file_input trace;
	struct trc_reader_cfg rc;
	const char *trace_path = NULL;
	struct sim_cfg cfg;
	struct sim_rb_cfg rbc;
	const char *csv_path = NULL, *zone_csv_path = NULL;
	bool check_only = false, zones_given = false, qd_given = false, rebuild = false;
	bool zsize_given = false, devs_given = false, others_given = false;
	bool prio_given = false, depth_given = false, fail_at_given = false, fail2_at_given = false;
	const char *kr_layout = NULL;
	uint64_t kr_dev = 0;
	int o, ret;

	sim_cfg_init(&cfg);
	sim_rb_cfg_init(&rbc);
	trc_reader_cfg_init(&rc);
	cfg.zone_bytes = 1 << 20;
	cfg.nr_zones = 256;
	cli_opt_start();
	while ((o = cli_getopt(argc, argv, &co)) != -1) {
		if (o == 'h' || o == O_HELP) {
			fputs(sim_help, stdout);
			return 0;
		}
		if (o == O_CHECK_CONFIG) {
			check_only = true;
			continue;
		}
		if (o == O_ZONE_CSV) {
			zone_csv_path = optarg;
			continue;
		}
		if (o == O_TRACE || o == O_TRACE_FMT || o == O_DEVICE) {
			uint64_t v;

			if (o == O_TRACE)
				trace_path = optarg;
			else if (o == O_TRACE_FMT)
				rc.format = optarg;
			else if (cli_parse_u64_max("device", optarg, UINT32_MAX, &v))
				return 2;
			else {
				rc.dev_filter = true;
				rc.dev = (uint32_t)v;
			}
			continue;
		}
		if (o == '?')
			return 2;
		if (o == O_KR_LAYOUT) {
			kr_layout = optarg;
			continue;
		}
		if (o == O_KR_DEV) {
			if (cli_parse_u64_max("replace-dev", optarg, UINT32_MAX, &kr_dev))
				return 2;
			if (!kr_dev) {
				fprintf(stderr, "zonelab: sim: --replace-dev 0: a btrfs devid is 1 or more\n");
				return 2;
			}
			continue;
		}
		others_given = true;
		ret = rb_opt(&rbc, o, optarg);
		if (ret <= 0) {
			if (ret) {
				fputs(sim_help, stderr);
				return 2;
			}
			rebuild |= o == O_REBUILD;
			prio_given |= o == O_RB_PRIO;
			depth_given |= o == O_RB_DEPTH;
			continue;
		}
		if (sim_opt(&cfg, o, optarg, &csv_path)) {
			fputs(sim_help, stderr);
			return 2;
		}
		zones_given |= o == O_ZONES;
		zsize_given |= o == O_ZONE_SIZE;
		devs_given |= o == O_DEVICES;
		qd_given |= o == O_QD;
		fail_at_given |= o == O_FAIL_AT;
		fail2_at_given |= o == O_FAIL2_AT;
	}
	if (kr_dev && !kr_layout) {
		fprintf(stderr, "zonelab: sim: --replace-dev: needs --replace-layout\n");
		return 2;
	}
	if (kr_layout) {
		if (optind < argc) {
			cli_unexpected(&co, argv[optind]);
			return 2;
		}
		if (others_given || trace_path || zone_csv_path) {
			fprintf(stderr, "zonelab: sim: --replace-layout: no option but --replace-dev "
				"and --check-config goes with it\n");
			return 2;
		}
		return run_kreplace(kr_layout, (uint32_t)kr_dev, check_only);
	}
	if (rebuild) {
		if (optind < argc) {
			cli_unexpected(&co, argv[optind]);
			return 2;
		}
		if (devs_given)
			rbc.nr_devs = cfg.nr_devs;
		rbc.nr_zones = zones_given ? cfg.nr_zones : 0;
		if (zsize_given)
			rbc.zone_bytes = cfg.zone_bytes;
		rbc.timing_model = cfg.timing_model;
		rbc.alloc = cfg.util;
		rbc.seed = cfg.seed;
		return run_rebuild(&rbc, check_only);
	}
	/* --fail-dev: --rebuild-prio (the rebuild model's parser) paces fs-core's rebuild */
	if (prio_given && cfg.fail_dev == SIM_NO_DEV) {
		fprintf(stderr, "zonelab: sim: --rebuild-prio: needs --fail-dev (fs-core's rebuild "
			"in a run) or --rebuild (the extent model)\n");
		return 2;
	}
	if (fail_at_given && cfg.fail_dev == SIM_NO_DEV) {
		fprintf(stderr, "zonelab: sim: --fail-at-write: needs --fail-dev\n");
		return 2;
	}
	if (fail2_at_given && cfg.fail2_dev == SIM_NO_DEV) {
		fprintf(stderr, "zonelab: sim: --fail2-at: needs --fail2-dev\n");
		return 2;
	}
	if (depth_given && cfg.fail_dev == SIM_NO_DEV) {
		fprintf(stderr, "zonelab: sim: --rebuild-depth: needs --fail-dev (fs-core's rebuild "
			"in a run) or --rebuild (the extent model)\n");
		return 2;
	}
	cfg.rb_prio = rbc.prio;
	cfg.rb_share = rbc.share;
	if (depth_given)
		cfg.rb_depth = rbc.depth;
	if (!trace_path && (rc.format || rc.dev_filter)) {
		fprintf(stderr, "zonelab: sim: --%s: needs --trace\n",
			rc.format ? "trace-format" : "device");
		return 2;
	}
	if (trace_path) {
		trc_file_input_init(&trace, trace_path, &rc);
		cfg.trace = &trace.in;
	}
	if (cfg.trace && !zones_given)
		cfg.nr_zones = 0;  /* derived from the trace's file and --util */
	if (cfg.trace && cfg.timing == SIM_TIMING_TIMED && !qd_given)
		cfg.qd = 0;        /* the trace's own concurrency */
	if (optind < argc) {
		cli_unexpected(&co, argv[optind]);
		return 2;
	}
	/* sim_run() checks again (its callers need not); here first, so that
	 * a bad value exits 2 before --csv creates or truncates its file */
	if (sim_cfg_check(&cfg, res.msg, sizeof(res.msg))) {
		fprintf(stderr, "zonelab: sim: %s\n", res.msg);
		return 2;
	}
	if (check_only)
		return 0;
	if (csv_path) {
		cfg.csv = fopen(csv_path, "w");
		if (!cfg.csv) {
			fprintf(stderr, "zonelab: %s: %s\n", csv_path, strerror(errno));
			return 1;
		}
	}
	if (zone_csv_path) {
		cfg.zone_csv = fopen(zone_csv_path, "w");
		if (!cfg.zone_csv) {
			fprintf(stderr, "zonelab: %s: %s\n", zone_csv_path, strerror(errno));
			if (cfg.csv)
				fclose(cfg.csv);
			return 1;
		}
	}
	cfg.progress = isatty(STDERR_FILENO);
	ret = sim_run(&cfg, &res);
	if (cfg.csv)
		fclose(cfg.csv);
	if (cfg.zone_csv)
		fclose(cfg.zone_csv);
	if (ret && !res.nr_events && res.msg[0]) {
		/* setup: the geometry, a fault rule, the store or the block device */
		fprintf(stderr, "zonelab: sim: %s\n", res.msg);
		return ret == ZL_E_FAULT_SYNTAX || (ret == -EINVAL && !cfg.blkdev) ? 2 : 1;
	}
	sim_json(stdout, &cfg, &res);
	if (ret == FSC_E_DATA_LOST || ret == FSC_E_VERIFY)
		return 3;  /* the run completed; data was lost, or the check found it bad */
	return ret ? 1 : 0;
}
