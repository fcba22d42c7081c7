/*
 * sim_cfg.c — the simulator's configuration before a run: the defaults,
 * every option checked against its range and against the others (the
 * trace-replay options too), and the numbers derived from the geometry
 * (usable data zones, copies per profile).  It opens nothing and runs
 * nothing: the devices are sim_dev.c, the run sim_run.c, the names of enum
 * values sim_out.c.
 */
#include <errno.h>
#include <string.h>

#include "sim_int.h"
#include "ztime.h"

void sim_cfg_init(struct sim_cfg *c)
{
	memset(c, 0, sizeof(*c));
	c->seed = 1;
	c->nr_devs = 1;
	c->zone_bytes = 256ULL << 20;
	c->nr_zones = 64;
	c->nr_conv = 1;
	c->dev_cmd_ns = 20000;
	c->dev_bw_bps = 200ULL << 20;
	c->zone_switch_ns = 0;
	c->data_profile = c->meta_profile = FSC_SINGLE;
	c->order = FSC_ORDER_SUBMIT_BUFFER;
	c->release = FSC_RELEASE_REDIRTY;
	c->expire_ns = 90ULL * 1000000000ULL;
	c->metadata = true;
	c->tree_fanout = 121;
	c->leaf_items = 128;
	c->release_prob = 0.001;
	c->commit_interval_ns = 30ULL * 1000000000ULL;
	c->commit_bytes = 32ULL << 20;
	c->nr_workers = 8;
	c->worker_dist = SIM_DIST_EXP;
	c->worker_mean_ns = 50000;
	c->pareto_alpha = 1.5;
	c->workload = SIM_WL_UNIFORM;
	c->util = 0.8;
	c->bio_blocks = 1;
	c->hot_r = 0.9;
	c->hot_f = 0.1;
	c->zipf_theta = 0.99;
	c->qd = 32;
	c->warmup_writes = 0;
	c->writes = 100000;
	c->map = TRC_MAP_COMPACT;
	c->timing = SIM_TIMING_CLOSED;
	c->speed = 1.0;
	c->loops = 1;
	c->fail_dev = c->fail2_dev = c->fail3_dev = SIM_NO_DEV;
	c->rb_prio = SIM_RB_IDLE;
	c->rb_share = 0.5;
	c->rb_step_bytes = 8ULL << 20;  /* scrub.c: SCRUB_TOTAL_STRIPES x BTRFS_STRIPE_LEN */
	c->rb_depth = 1;                /* scrub.c: flush_scrub_stripes() waits for the writes */
	c->clean = FSC_CLEAN_GREEDY;
	fsc_clean_params_init(&c->clean_params);
	fsc_place_params_init(&c->place_params);
	c->reserve_zones = 2;
	fsc_reclaim_cfg_init(&c->reclaim);
	c->meta_model = FSC_META_FILE;
	c->extent_bytes = 64 << 10;
	c->sample_ns = 1000000000ULL;
	c->dev_error_abort = true;
	c->reloc_reads = true;
}

uint32_t sim_profile_copies(enum fsc_profile p)
{
	return p == FSC_DUP || p == FSC_RAID1 || p == FSC_RAID10 ? 2 : 1;
}

/* Device bytes per data byte of the data profile on @c's devices (RAID5/6:
 * N / (N - parity), padding not counted). */
static double data_overhead(const struct sim_cfg *c)
{
	if (c->data_profile == FSC_RAID5 || c->data_profile == FSC_RAID6) {
		uint32_t np = c->data_profile == FSC_RAID6 ? 2 : 1;

		return c->nr_devs > np ? (double)c->nr_devs / (c->nr_devs - np) : 1;
	}
	return sim_profile_copies(c->data_profile);
}

/* Data zones cleaning can use: free sequential zones, less superblock zones,
 * the first zone, the reserve, the open zone and (estimated) metadata. */
double sim_usable_data_zones(const struct sim_cfg *c)
{
	/* zone 0 is skipped (007) and conventional zones hold superblocks;
	 * without conventional zones, zones 0 and 1 hold the superblock log */
	uint32_t lost = c->nr_conv ? c->nr_conv : 2;
	double z = (double)(c->nr_zones - lost) * c->nr_devs / data_overhead(c);

	/* cleaning reserve, an open zone per data log (no 32-bit wrap) */
	z -= (double)c->reserve_zones + fsc_place_nr_logs(c->place, &c->place_params);
	if (c->metadata && c->leaf_items) {
		/* the tree twice (committed + being written) per metadata copy,
		 * plus two partly used block groups: an estimate */
		double leaves = z * c->util * (double)(c->zone_bytes / SIM_BLOCK) / c->leaf_items;

		z -= 2.0 * leaves * 16384 / (double)c->zone_bytes *
		     sim_profile_copies(c->meta_profile) + 2;
	}
	return z;
}

/* Fields sim_json() prints by name: a value outside its table is refused. */
static int check_names(const struct sim_cfg *c, char *msg, size_t msg_len)
{
	const struct {
		const char *opt;
		const char *const *names;
		int v;
	} f[] = {
		{ "--profile", sim_profile_names, c->data_profile },
		{ "--meta-profile", sim_profile_names, c->meta_profile },
		{ "--order", sim_order_names, c->order },
		{ "--release", sim_release_names, c->release },
		{ "--worker-dist", sim_dist_names, c->worker_dist },
		{ "--workload", sim_workload_names, c->workload },
		{ "--clean", sim_clean_names, c->clean },
		{ "--placement", fsc_place_names, c->place },
		{ "--store", sim_store_names, c->store },
	};
	size_t i, n;
	int k;

	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		if (sim_name_of(f[i].names, f[i].v))
			continue;
		n = (size_t)snprintf(msg, msg_len, "%s %d: not a known value (one of:", f[i].opt,
				     f[i].v);
		for (k = 0; f[i].names[k] && n < msg_len; k++)
			n += (size_t)snprintf(msg + n, msg_len - n, " %s", f[i].names[k]);
		if (n < msg_len)
			snprintf(msg + n, msg_len - n, ")");
		return -EINVAL;
	}
	return 0;
}

/* Values out of their range, each on its own. */
static int check_values(const struct sim_cfg *c, char *msg, size_t msg_len)
{
	if (!c->nr_devs || c->nr_devs > FSC_MAX_DEVS)
		zl_msgf(msg, msg_len, "--devices %u: between 1 and %u", c->nr_devs, FSC_MAX_DEVS);
	else if (!c->zone_bytes || c->zone_bytes % SIM_BLOCK)
		zl_msgf(msg, msg_len, "--zone-size %llu: a positive multiple of 4 KiB",
			(unsigned long long)c->zone_bytes);
	else if (c->nr_zones < 4)
		zl_msgf(msg, msg_len, "--zones %u: at least 4", c->nr_zones);
	else if (c->nr_conv >= c->nr_zones)
		zl_msgf(msg, msg_len, "--conv %u: fewer than --zones (%u)", c->nr_conv, c->nr_zones);
	else if (!c->bio_blocks || (uint64_t)c->bio_blocks * SIM_BLOCK > c->zone_bytes)
		zl_msgf(msg, msg_len, "--bio-blocks %u: between 1 and one zone (%llu blocks of 4 KiB)",
			c->bio_blocks, (unsigned long long)(c->zone_bytes / SIM_BLOCK));
	else if (!c->qd && !c->trace)
		zl_msgf(msg, msg_len, "--qd 0: at least 1 write in flight");
	else if (!(c->util > 0 && c->util < 1))
		zl_msgf(msg, msg_len, "--util %g: between 0 and 1, exclusive", c->util);
	else if (!(c->hot_f > 0 && c->hot_f < 1))
		zl_msgf(msg, msg_len, "--hot-f %g: between 0 and 1, exclusive", c->hot_f);
	else if (!(c->hot_r >= 0 && c->hot_r <= 1))
		zl_msgf(msg, msg_len, "--hot-r %g: between 0 and 1", c->hot_r);
	else if (!(c->zipf_theta > 0 && c->zipf_theta <= 100))
		zl_msgf(msg, msg_len, "--zipf-theta %g: above 0 and at most 100", c->zipf_theta);
	else if (!(c->release_prob >= 0 && c->release_prob <= 1))
		zl_msgf(msg, msg_len, "--release-prob %g: between 0 and 1", c->release_prob);
	else if (c->worker_dist == SIM_DIST_PARETO && !(c->pareto_alpha > 1))
		zl_msgf(msg, msg_len, "--pareto-alpha %g: above 1 (else the mean is infinite)",
			c->pareto_alpha);
	else if (c->blkdev && c->nr_devs != 1)
		zl_msgf(msg, msg_len, "--devices %u: --blkdev runs on one device", c->nr_devs);
	else if (c->store == SIM_STORE_FILE && (!c->store_path || !*c->store_path))
		zl_msgf(msg, msg_len, "--store file:PATH: no PATH");
	else if (c->max_open && c->max_active && c->max_open > c->max_active)
		zl_msgf(msg, msg_len, "--max-open %u --max-active %u: open zones are active: "
			"--max-open at most --max-active", c->max_open, c->max_active);
	else if (fsc_clean_params_check(c->clean, &c->clean_params, msg, msg_len))
		return -EINVAL;
	else if (c->metadata && (c->tree_fanout < 2 || !c->leaf_items))
		zl_msgf(msg, msg_len, "--fanout %u --leaf-items %u: a tree needs a fanout of 2 or "
			"more and 1 item per leaf or more (or --no-metadata)", c->tree_fanout,
			c->leaf_items);
	else
		return 0;
	return -EINVAL;
}

static bool is_r56(enum fsc_profile p)
{
	return p == FSC_RAID5 || p == FSC_RAID6;
}

/* Profiles fs-core cannot build on --devices (RAID5/6 without
 * --raid56-model are left to fs-core: the run reports the HMZONED
 * refusal), and zone append beyond SINGLE. */
static int check_profiles(const struct sim_cfg *c, char *msg, size_t msg_len)
{
	uint32_t need = fsc_profile_min_devs(c->data_profile);

	if (is_r56(c->data_profile) && !c->raid56_model)
		need = 0;  /* fs-core refuses it whatever the devices */
	if (c->raid56_model && !is_r56(c->data_profile)) {
		zl_msgf(msg, msg_len, "--raid56-model --profile %s: the hypothetical model is "
			"for data --profile raid5 or raid6", sim_profile_names[c->data_profile]);
		return -EINVAL;
	}
	if (c->raid56_model && c->metadata && is_r56(c->meta_profile)) {
		zl_msgf(msg, msg_len, "--raid56-model --meta-profile %s: RAID5/6 is for data "
			"only (a 16 KiB tree block would be padded to a full stripe): give "
			"--meta-profile raid1 or raid10, or --no-metadata",
			sim_profile_names[c->meta_profile]);
		return -EINVAL;
	}
	if (c->nr_devs < need) {
		zl_msgf(msg, msg_len, "--profile %s --devices %u: %s needs at least %u devices",
			sim_profile_names[c->data_profile], c->nr_devs,
			sim_profile_names[c->data_profile], need);
		return -EINVAL;
	}
	need = fsc_profile_min_devs(c->meta_profile);
	if (c->metadata && c->nr_devs < need) {
		zl_msgf(msg, msg_len, "--meta-profile %s --devices %u: %s needs at least %u "
			"devices (or --no-metadata)", sim_profile_names[c->meta_profile],
			c->nr_devs, sim_profile_names[c->meta_profile], need);
		return -EINVAL;
	}
	if (c->order == FSC_ORDER_APPEND && c->data_profile != FSC_SINGLE) {
		zl_msgf(msg, msg_len, "--order append --profile %s: a zone append goes to one "
			"zone of one device: data needs --profile single",
			sim_profile_names[c->data_profile]);
		return -EINVAL;
	}
	return 0;
}

/*
 * A superblock location (fsc_sb_layout(), 004): a fixed copy in a
 * conventional zone, or the log on zones 0-1 when there is none.  With
 * conventional zones that end before the first copy (64 KiB + 4 KiB)
 * neither works: fs-core would refuse to create (enospc, no write done).
 * Tree blocks need a zone that holds one (node 16 KiB).
 */
static int check_layout(const struct sim_cfg *c, char *msg, size_t msg_len)
{
	uint64_t need = 64 * 1024 + 4096;

	if (fsc_sb_layout(c->zone_bytes, c->nr_zones, c->nr_conv) < 0) {
		zl_msgf(msg, msg_len, "--zone-size %llu --conv %u: no superblock location: "
			"conventional zones end at %llu bytes, before the copy at 64 KiB, and "
			"the log needs zones 0-1 sequential; give --conv %llu, --zone-size %lluK "
			"or more, or --conv 0", (unsigned long long)c->zone_bytes, c->nr_conv,
			(unsigned long long)(c->nr_conv * c->zone_bytes),
			(unsigned long long)((need + c->zone_bytes - 1) / c->zone_bytes),
			(unsigned long long)(((need + c->nr_conv - 1) / c->nr_conv + 4095) / 4096 * 4));
		return -EINVAL;
	}
	if (c->meta_model == FSC_META_BTRFS &&
	    (!c->metadata || !c->extent_bytes || c->extent_bytes % SIM_BLOCK ||
	     c->extent_bytes > (16384 - 101 - 25) / 4 * (uint64_t)SIM_BLOCK)) {
		zl_msgf(msg, msg_len, "--meta-model btrfs --extent-size %llu: the btrfs model needs "
			"the metadata model (no --no-metadata) and an extent of a multiple of %u bytes "
			"whose checksums fit a leaf (at most %llu)", (unsigned long long)c->extent_bytes,
			SIM_BLOCK, (unsigned long long)((16384 - 101 - 25) / 4 * (uint64_t)SIM_BLOCK));
		return -EINVAL;
	}
	if (c->buffered_bytes && (c->buffered_bytes % SIM_BLOCK || c->buffered_bytes > c->zone_bytes ||
				  c->buffered_bytes / SIM_BLOCK > UINT32_MAX || c->order == FSC_ORDER_APPEND)) {
		zl_msgf(msg, msg_len, "--buffered %llu: the largest extent writeback allocates must "
			"be a multiple of %u bytes no larger than a zone (%llu), and not with "
			"--order append (where an extent lands is known only at completion)",
			(unsigned long long)c->buffered_bytes, SIM_BLOCK,
			(unsigned long long)c->zone_bytes);
		return -EINVAL;
	}
	if (c->resv_linux61 && c->meta_model != FSC_META_BTRFS) {
		zl_msgf(msg, msg_len, "--space-resv %s: the reservations cover the kernel's "
			"trees; give --meta-model btrfs too", sim_space_resv_name(c));
		return -EINVAL;
	}
	if (c->metadata && c->zone_bytes < 16384) {
		zl_msgf(msg, msg_len, "--zone-size %llu: smaller than a tree block (16384 bytes); "
			"give --zone-size 16K or more, or --no-metadata",
			(unsigned long long)c->zone_bytes);
		return -EINVAL;
	}
	return 0;
}

/*
 * Active zones fs-core needs at once: one per data log, the metadata and
 * system logs, the superblock log, one more to relocate into while a
 * victim's copies fly (x 2 with DUP).  Fewer and it could wait forever.
 */
static int check_active(const struct sim_cfg *c, char *msg, size_t msg_len)
{
	uint32_t need = fsc_place_nr_logs(c->place, &c->place_params) + 1 +
			(c->metadata ? 2 : 0) + (c->nr_conv ? 0 : 1);

	if (c->data_profile == FSC_DUP || c->meta_profile == FSC_DUP)
		need *= 2;
	if (c->max_active && c->max_active < need) {
		zl_msgf(msg, msg_len, "--max-active %u: fs-core needs %u active zones at once "
			"(%u data logs, relocation%s%s); give --max-active %u or more",
			c->max_active, need, fsc_place_nr_logs(c->place, &c->place_params),
			c->metadata ? ", metadata, system" : "", c->nr_conv ? "" : ", superblock log",
			need);
		return -EINVAL;
	}
	return 0;
}

/*
 * --timing-model: the text parses, and (geometry known) the drive holds
 * the disk.  A block device has its own timing: no model on it.
 */
static int check_timing(const struct sim_cfg *c, bool geometry, char *msg, size_t msg_len)
{
	struct ztime_params p;
	struct ztime_geo g = { c->zone_bytes, c->nr_zones };
	struct ztime *t;
	char why[200];

	if (!c->timing_model)
		return 0;
	if (c->blkdev) {
		zl_msgf(msg, msg_len, "--timing-model %s --blkdev %s: a real device has its own "
			"timing (no model on it)", c->timing_model, c->blkdev);
		return -EINVAL;
	}
	if (ztime_parse(c->timing_model, &p, why, sizeof(why))) {
		zl_msgf(msg, msg_len, "--timing-model: %s", why);
		return -EINVAL;
	}
	if (!geometry)
		return 0;
	if (ztime_create(&p, &g, &t, why, sizeof(why))) {
		zl_msgf(msg, msg_len, "--timing-model %s: --zones %u --zone-size %llu: %s",
			c->timing_model, c->nr_zones, (unsigned long long)c->zone_bytes, why);
		return -EINVAL;
	}
	ztime_destroy(t);
	return 0;
}

/* A data zone at least, and a file of one write at least. */
static int check_room(const struct sim_cfg *c, char *msg, size_t msg_len)
{
	double zones = sim_usable_data_zones(c), np = (double)(c->zone_bytes / SIM_BLOCK);
	unsigned long long short_by;

	if (zones < 1) {
		/* all counted in zones, the metadata estimate too: a larger
		 * --zone-size leaves the same shortfall */
		short_by = (unsigned long long)(1 - zones);
		if (short_by < 1 - zones)
			short_by++;
		zl_msgf(msg, msg_len, "%u zones of %llu bytes leave %.1f zones for data (1 needed) "
			"after superblocks, --reserve %u, the open zone and the metadata estimate: "
			"short by %llu zones; give more --zones%s", c->nr_zones,
			(unsigned long long)c->zone_bytes, zones, c->reserve_zones, short_by,
			c->reserve_zones ? " or a smaller --reserve" : "");
		return -EINVAL;
	}
	if ((uint64_t)(c->util * zones * np) < c->bio_blocks) {
		zl_msgf(msg, msg_len, "the file (--util %g of %.1f data zones: %llu blocks) is "
			"smaller than one write (--bio-blocks %u)", c->util, zones,
			(unsigned long long)(c->util * zones * np), c->bio_blocks);
		return -EINVAL;
	}
	return 0;
}

/* The trace-replay options: with --trace in range, without it at their defaults. */
static int check_replay(const struct sim_cfg *c, char *msg, size_t msg_len)
{
	if (!c->trace) {
		if (c->timing != SIM_TIMING_CLOSED)
			zl_msgf(msg, msg_len, "--timing %s: needs --trace (the generators have no "
				"arrival times)", sim_name_of(sim_timing_names, c->timing) ?: "?");
		else if (c->loops != 1)
			zl_msgf(msg, msg_len, "--loops %u: needs --trace (a generator's run is "
				"--warmup and --writes)", c->loops);
		else if (c->file_bytes)
			zl_msgf(msg, msg_len, "--file-size %llu: needs --trace (a generator's file "
				"is --util of the capacity)", (unsigned long long)c->file_bytes);
		else if (c->map != TRC_MAP_COMPACT)
			zl_msgf(msg, msg_len, "--map %s: needs --trace",
				sim_name_of(trc_map_names, c->map) ?: "?");
		else
			return 0;
		return -EINVAL;
	}
	if (!sim_name_of(trc_map_names, c->map))
		zl_msgf(msg, msg_len, "--map %d: not a known value (one of: compact direct scale)",
			c->map);
	else if (!sim_name_of(sim_timing_names, c->timing))
		zl_msgf(msg, msg_len, "--timing %d: not a known value (one of: closed timed)",
			c->timing);
	else if (!c->loops)
		zl_msgf(msg, msg_len, "--loops 0: at least 1 pass over the trace");
	else if (c->timing == SIM_TIMING_TIMED && !(c->speed > 0 && c->speed <= 1e9))
		zl_msgf(msg, msg_len, "--speed %g: above 0 and at most 1e9 (1 = the trace's own "
			"pace, 2 = twice as fast)", c->speed);
	else if (!c->qd && c->timing == SIM_TIMING_CLOSED)
		zl_msgf(msg, msg_len, "--qd 0: a closed loop needs at least 1 request in flight "
			"(0 = no limit is for --timing timed)");
	else if (c->file_bytes % SIM_BLOCK)
		zl_msgf(msg, msg_len, "--file-size %llu: a multiple of 4 KiB",
			(unsigned long long)c->file_bytes);
	else if (c->map == TRC_MAP_SCALE && !c->file_bytes && !c->nr_zones && !c->blkdev)
		zl_msgf(msg, msg_len, "--map scale: the file's size comes from --file-size, or "
			"from --zones and --util: give one of them");
	else
		return 0;
	return -EINVAL;
}

/* Whether profile @p keeps a second copy on another device (a rebuild source). */
static bool fail_profile_ok(enum fsc_profile p)
{
	return p == FSC_RAID1 || p == FSC_RAID10;
}

/* ... or, data, parity to reconstruct from (the hypothetical RAID5/6). */
static bool fail_data_profile_ok(const struct sim_cfg *c)
{
	return fail_profile_ok(c->data_profile) || (c->raid56_model && is_r56(c->data_profile));
}

/* Data zones of the array with one device missing, less a tenth for cleaning. */
static double fail_room(const struct sim_cfg *c)
{
	struct sim_cfg t = *c;

	t.nr_devs = c->nr_devs - 1;
	return 0.9 * sim_usable_data_zones(&t);
}

/*
 * --fail-dev, --fail2-dev, --rebuild-prio (sim_fail.c): a device of the
 * array, a profile with a copy elsewhere, room to allocate while it is
 * missing, a spare slot for the new device.
 */
static int check_fail(const struct sim_cfg *c, char *msg, size_t msg_len)
{
	const char *dp = sim_profile_names[c->data_profile], *mp = sim_profile_names[c->meta_profile];

	if (c->fail_dev == SIM_NO_DEV) {
		if (c->fail2_dev != SIM_NO_DEV)
			zl_msgf(msg, msg_len, "--fail2-dev %u: needs --fail-dev (the second failure "
				"comes during the rebuild of the first)", c->fail2_dev);
		else if (c->fail3_dev != SIM_NO_DEV)
			zl_msgf(msg, msg_len, "--fail3-dev %u: needs --fail-dev and --fail2-dev",
				c->fail3_dev);
		else
			return 0;
		return -EINVAL;
	}
	if (c->blkdev)
		zl_msgf(msg, msg_len, "--fail-dev %u --blkdev %s: a failure needs the simulated "
			"devices (and a spare for the rebuild)", c->fail_dev, c->blkdev);
	else if (c->fail_dev >= c->nr_devs)
		zl_msgf(msg, msg_len, "--fail-dev %u: not a device of the array (0 to %u, "
			"--devices %u)", c->fail_dev, c->nr_devs - 1, c->nr_devs);
	else if (c->nr_devs + 1 > FSC_MAX_DEVS)
		zl_msgf(msg, msg_len, "--fail-dev --devices %u: the new device needs a slot: at "
			"most %u devices", c->nr_devs, FSC_MAX_DEVS - 1);
	else if (!fail_data_profile_ok(c))
		zl_msgf(msg, msg_len, "--fail-dev --profile %s: no copy on another device to "
			"rebuild from (raid1 or raid10; raid5 or raid6 with --raid56-model)", dp);
	else if (c->metadata && !fail_profile_ok(c->meta_profile))
		zl_msgf(msg, msg_len, "--fail-dev --meta-profile %s: metadata with no copy on "
			"another device would be lost (raid1 or raid10, or --no-metadata)", mp);
	else if (c->nr_devs - 1 < fsc_profile_min_devs(c->data_profile) ||
		 (c->metadata && c->nr_devs - 1 < fsc_profile_min_devs(c->meta_profile)))
		zl_msgf(msg, msg_len, "--fail-dev --devices %u: with one device missing fs-core "
			"cannot allocate a %s block group (it needs %u present devices): give "
			"--devices %u or more", c->nr_devs,
			c->nr_devs - 1 < fsc_profile_min_devs(c->data_profile) ? dp : mp,
			fsc_profile_min_devs(c->nr_devs - 1 < fsc_profile_min_devs(c->data_profile) ?
					     c->data_profile : c->meta_profile),
			(fsc_profile_min_devs(c->data_profile) > fsc_profile_min_devs(c->meta_profile) ||
			 !c->metadata ? fsc_profile_min_devs(c->data_profile) :
			 fsc_profile_min_devs(c->meta_profile)) + 1);
	else if (c->order == FSC_ORDER_APPEND)
		zl_msgf(msg, msg_len, "--fail-dev --order append: zone appends need --profile "
			"single, which has nothing to rebuild from");
	else if (c->rb_prio == SIM_RB_SHARE && !(c->rb_share > 0 && c->rb_share <= 1))
		zl_msgf(msg, msg_len, "--rebuild-prio share:%g: the rebuild's share of the time, "
			"above 0 and at most 1", c->rb_share);
	else if (c->rb_step_bytes < SIM_BLOCK || c->rb_step_bytes % SIM_BLOCK)
		zl_msgf(msg, msg_len, "rebuild step %llu bytes: a positive multiple of 4 KiB",
			(unsigned long long)c->rb_step_bytes);
	else if (c->rb_depth < 1 || c->rb_depth > SIM_RB_DEPTH_MAX)
		zl_msgf(msg, msg_len, "--rebuild-depth %u: 1 to %u batches of the copy in flight",
			c->rb_depth, SIM_RB_DEPTH_MAX);
	else if (c->nr_zones && c->util * sim_usable_data_zones(c) > fail_room(c))
		zl_msgf(msg, msg_len, "--fail-dev --util %g: the file (%.1f data zones) does not fit "
			"the array with one device missing (%.1f): fs-core allocates on the present "
			"devices only, and cleaning would go round without end; give --util at most "
			"%.2f or more --devices", c->util, c->util * sim_usable_data_zones(c),
			fail_room(c), fail_room(c) / sim_usable_data_zones(c));
	else if (c->fail2_dev != SIM_NO_DEV && c->fail2_dev >= c->nr_devs)
		zl_msgf(msg, msg_len, "--fail2-dev %u: not a device of the array (0 to %u)",
			c->fail2_dev, c->nr_devs - 1);
	else if (c->fail2_dev == c->fail_dev)
		zl_msgf(msg, msg_len, "--fail2-dev %u: the device of --fail-dev already failed; "
			"the second failure is another device", c->fail2_dev);
	else if (c->fail3_dev != SIM_NO_DEV && c->fail2_dev == SIM_NO_DEV)
		zl_msgf(msg, msg_len, "--fail3-dev %u: needs --fail2-dev (the third device "
			"fails with the second)", c->fail3_dev);
	else if (c->fail3_dev != SIM_NO_DEV && c->fail3_dev >= c->nr_devs)
		zl_msgf(msg, msg_len, "--fail3-dev %u: not a device of the array (0 to %u)",
			c->fail3_dev, c->nr_devs - 1);
	else if (c->fail3_dev != SIM_NO_DEV &&
		 (c->fail3_dev == c->fail_dev || c->fail3_dev == c->fail2_dev))
		zl_msgf(msg, msg_len, "--fail3-dev %u: that device already failed (--fail-dev "
			"%u, --fail2-dev %u); the third failure is another device", c->fail3_dev,
			c->fail_dev, c->fail2_dev);
	else
		return 0;
	return -EINVAL;
}

int sim_cfg_check(const struct sim_cfg *c, char *msg, size_t msg_len)
{
	/* a replay derives --zones from its trace (sim_replay.c): until
	 * then only what does not depend on the zone count is checked */
	bool derive = c->trace && !c->nr_zones && !c->blkdev;
	struct sim_cfg t = *c;
	int ret;

	if (derive)
		t.nr_zones = UINT32_MAX - 1;
	ret = check_names(&t, msg, msg_len);
	if (!ret)
		ret = check_replay(c, msg, msg_len);
	if (!ret)
		ret = check_values(&t, msg, msg_len);
	if (!ret && !derive)
		ret = sim_devs_geometry_check(c, msg, msg_len);
	if (!ret)
		ret = check_profiles(c, msg, msg_len);
	if (!ret)
		ret = check_fail(c, msg, msg_len);
	if (!ret)
		ret = check_layout(&t, msg, msg_len);
	if (!ret)
		ret = check_active(c, msg, msg_len);
	if (!ret && !derive)
		ret = check_room(c, msg, msg_len);
	if (!ret)
		ret = check_timing(c, !derive, msg, msg_len);
	return ret;
}
