/*
 * test_sim.c — the simulator: engine pieces (PRNG, event heap ties),
 * determinism (same
 * seed => byte-identical JSON), the ordering invariant (heavy reordering +
 * submit buffer => zero unaligned writes from the zone model over >= 1M
 * bios; no ordering => the zone model refuses them), write amplification
 * against the FIFO and greedy oracles (uniform and hot/cold), every design
 * variant / profile running clean, the emulated-disk backend (same results
 * as the data-less one; fault rules ending the run with the device's
 * reason), refusal of non-zoned block devices, time-weighted occupancy,
 * the block-group lifetime histogram and relocation reads; configurations
 * refused with the option named, enum names parsed as printed.  Trace
 * replay is test_sim_replay.c's.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "sim.h"
#include "sim_test_util.h"
#include "trc_gen.h"
#include "trc_src_array.h"
#include "trc_src_reader.h"

static void test_sim_rng_is_deterministic_and_uniformish(void **state)
{
	struct zl_rng a, b;
	uint64_t i, hits = 0;

	zl_rng_seed(&a, 42);
	zl_rng_seed(&b, 42);
	for (i = 0; i < 1000; i++)
		assert_int_equal(zl_rng_next(&a), zl_rng_next(&b));
	for (i = 0; i < 100000; i++)
		hits += zl_rng_below(&a, 10) == 3;
	assert_in_range(hits, 9500, 10500);
}

static void test_sim_heap_orders_by_time_then_insertion(void **state)
{
	struct sim_heap h = { 0 };
	struct sim_event e;
	uint32_t i, last_arg = 0;
	uint64_t last_t = 0;

	for (i = 0; i < 1000; i++)
		assert_int_equal(sim_heap_push(&h, (i * 7919) % 100, 1, i, NULL), 0);
	for (i = 0; i < 1000; i++) {
		assert_true(sim_heap_pop(&h, &e));
		assert_true(e.t_ns >= last_t);
		if (e.t_ns == last_t && i)
			assert_true(e.arg > last_arg);  /* ties: first pushed, first out */
		last_t = e.t_ns;
		last_arg = e.arg;
	}
	assert_false(sim_heap_pop(&h, &e));
	sim_heap_fini(&h);
}


static void test_sim_same_seed_gives_identical_json(void **state)
{
	static struct sim_result r1, r2, r3;
	struct sim_cfg c;
	char *a, *b, *d;

	small_cfg(&c);
	c.worker_dist = SIM_DIST_PARETO;
	c.seed = 7;
	a = run_json(&c, &r1);
	b = run_json(&c, &r2);
	assert_int_equal(r1.error, 0);
	assert_string_equal(a, b);
	c.seed = 8;
	d = run_json(&c, &r3);
	assert_string_not_equal(a, d);
	free(a);
	free(b);
	free(d);
}

static void test_sim_reordering_with_submit_buffer_never_unaligned(void **state)
{
	static struct sim_result r;
	struct sim_cfg c;

	small_cfg(&c);
	c.nr_workers = 64;
	c.qd = 128;
	c.worker_dist = SIM_DIST_PARETO;
	c.pareto_alpha = 1.2;   /* long tail */
	c.writes = 900000;
	c.release_prob = 0.01;  /* plenty of released tree blocks to redirty */
	assert_int_equal(sim_run(&c, &r), 0);
	assert_true(r.nr_bios >= 1000000);
	assert_true(r.nr_held > 100000);             /* the reordering was real */
	assert_true(r.nr_redirty > 100);
	assert_int_equal(r.nr_dev_errors, 0);
	assert_int_equal(r.nr_submit_unaligned, 0);
	assert_int_equal(r.nr_expired, 0);
}

static void test_sim_without_ordering_the_device_refuses(void **state)
{
	static struct sim_result r;
	struct sim_cfg c;

	small_cfg(&c);
	c.nr_workers = 64;
	c.qd = 128;
	c.worker_dist = SIM_DIST_PARETO;
	c.order = FSC_ORDER_NONE;
	c.dev_error_abort = false;  /* count the refusals */
	assert_int_equal(sim_run(&c, &r), 0);
	assert_true(r.nr_dev_errors > 1000);
	assert_int_equal(r.last_dev_error, ZL_E_UNALIGNED);
	/* by default the first refusal ends the run with its reason */
	c.dev_error_abort = true;
	assert_int_equal(sim_run(&c, &r), ZL_E_UNALIGNED);
	assert_int_equal(r.error, ZL_E_UNALIGNED);
	assert_true(r.nr_dev_errors >= 1);
}

static void test_sim_without_redirty_the_submit_buffer_expires(void **state)
{
	static struct sim_result r;
	struct sim_cfg c;

	small_cfg(&c);
	c.release = FSC_RELEASE_NONE;
	c.release_prob = 0.01;
	c.expire_ns = 1000000000ULL;  /* 1 s */
	assert_int_equal(sim_run(&c, &r), 0);
	assert_true(r.nr_expired > 0);
	assert_true(r.nr_bg_expired > 0);
	assert_int_equal(r.nr_dev_errors, 0);  /* failed bios never reach the device */
}

static void variant_runs_clean(enum fsc_order o, enum fsc_release rel, enum fsc_profile p,
			       uint32_t nr_devs)
{
	static struct sim_result r;
	struct sim_cfg c;

	small_cfg(&c);
	c.order = o;
	c.release = rel;
	c.release_prob = 0.01;
	c.data_profile = c.meta_profile = p;
	c.nr_devs = nr_devs;
	c.writes = 50000;
	assert_int_equal(sim_run(&c, &r), 0);
	assert_int_equal(r.nr_dev_errors, 0);
	assert_int_equal(r.nr_expired, 0);
	assert_true(r.nr_zone_resets > 0);
}

/* DUP takes a zone pair per block group on one device: --reserve counts
 * block groups, so relocation never strands at ENOSPC.  Counting zones,
 * seeds 1, 5 and 7 of this configuration ended with enospc. */
static void test_sim_dup_reserve_is_counted_in_block_groups(void **state)
{
	static struct sim_result r;
	struct sim_cfg c;

	for (uint64_t seed = 1; seed <= 8; seed++) {
		small_cfg(&c);
		c.seed = seed;
		c.release_prob = 0.011;
		c.data_profile = c.meta_profile = FSC_DUP;
		c.writes = 50000;
		assert_int_equal(sim_run(&c, &r), 0);
		assert_int_equal(r.error, 0);
		assert_true(r.nr_relocations > 0);
	}
}

static void test_sim_zipf_workload_runs_and_skews_cleaning(void **state)
{
	static struct sim_result u, z;
	struct sim_cfg c;

	small_cfg(&c);
	c.metadata = false;
	c.writes = 60000;
	assert_int_equal(sim_run(&c, &u), 0);
	c.workload = SIM_WL_ZIPF;
	c.zipf_theta = 1.2;
	assert_int_equal(sim_run(&c, &z), 0);
	assert_int_equal(z.nr_dev_errors, 0);
	/* skewed overwrites leave emptier victims than uniform ones */
	assert_true(z.wa_data < u.wa_data);
	assert_true(z.wa_data >= 1.0);
	c.zipf_theta = 0;
	assert_int_equal(sim_run(&c, &z), -EINVAL);
	assert_non_null(strstr(z.msg, "--zipf-theta"));
}

static void test_sim_variants_and_profiles_run_clean(void **state)
{
	variant_runs_clean(FSC_ORDER_SERIALIZE, FSC_RELEASE_REDIRTY, FSC_SINGLE, 1);
	variant_runs_clean(FSC_ORDER_APPEND, FSC_RELEASE_REDIRTY, FSC_SINGLE, 1);
	variant_runs_clean(FSC_ORDER_SUBMIT_BUFFER, FSC_RELEASE_ZEROS, FSC_SINGLE, 1);
	variant_runs_clean(FSC_ORDER_SUBMIT_BUFFER, FSC_RELEASE_REDIRTY, FSC_DUP, 1);
	variant_runs_clean(FSC_ORDER_SUBMIT_BUFFER, FSC_RELEASE_REDIRTY, FSC_RAID1, 2);
	variant_runs_clean(FSC_ORDER_SUBMIT_BUFFER, FSC_RELEASE_REDIRTY, FSC_RAID0, 3);
	variant_runs_clean(FSC_ORDER_SUBMIT_BUFFER, FSC_RELEASE_REDIRTY, FSC_RAID10, 4);
}

/* The oracle setting of wa-models.md: data only, one write in flight of one
 * block, no device time, @np blocks per zone, 600 zones; fill, then warm up
 * @warmup_x times the live data and measure 20 times. */
static void oracle_run(enum fsc_clean_policy pol, enum sim_workload wl, uint32_t np, double u,
		       uint32_t warmup_x, struct sim_result *r)
{
	struct sim_cfg c;

	sim_cfg_init(&c);
	c.zone_bytes = (uint64_t)np * 4096;
	c.nr_zones = 600;
	c.util = u;
	c.clean = pol;
	c.workload = wl;
	c.hot_r = 0.9;  /* hot/cold: 90% of the writes to 10% of the space */
	c.hot_f = 0.1;
	c.metadata = false;
	c.nr_workers = 0;
	c.qd = 1;
	c.dev_cmd_ns = 0;
	c.dev_bw_bps = 0;
	c.writes = 1;
	assert_int_equal(sim_run(&c, r), 0);  /* sizing */
	c.warmup_writes = warmup_x * r->file_blocks;
	c.writes = 20 * r->file_blocks;
	assert_int_equal(sim_run(&c, r), 0);
	assert_int_equal(r->nr_dev_errors, 0);
}

static void test_sim_wa_matches_fifo_oracle(void **state)
{
	static struct sim_result r;

	oracle_run(FSC_CLEAN_FIFO, SIM_WL_UNIFORM, 64, 0.8, 10, &r);
	assert_true(fabs(r.wa_data / r.oracle_fifo - 1) < 0.01);
	oracle_run(FSC_CLEAN_FIFO, SIM_WL_UNIFORM, 64, 0.7, 10, &r);
	assert_true(fabs(r.wa_data / r.oracle_fifo - 1) < 0.01);
}

static void test_sim_wa_matches_greedy_oracle(void **state)
{
	static struct sim_result r;

	oracle_run(FSC_CLEAN_GREEDY, SIM_WL_UNIFORM, 64, 0.8, 10, &r);
	assert_true(fabs(r.wa_data / r.oracle_greedy - 1) < 0.02);
}

/* Hot/cold 90/10 in the oracle setting, warmed up 15 times. */
static void test_sim_hotcold_wa_matches_one_log_oracles(void **state)
{
	static struct sim_result r;

	oracle_run(FSC_CLEAN_FIFO, SIM_WL_HOTCOLD, 64, 0.7, 15, &r);  /* Eq. 14: 2.586, 1% */
	assert_true(fabs(r.wa_data / r.oracle_hc_fifo - 1) < 0.01);
	assert_true(r.wa_data > r.oracle_fifo);   /* skew without separation hurts */
	oracle_run(FSC_CLEAN_GREEDY, SIM_WL_HOTCOLD, 64, 0.8, 15, &r);  /* Eq. 16, within 3% */
	assert_true(fabs(r.wa_data / r.oracle_hc_greedy - 1) < 0.03);
	/* one log is above the two-log lower bound (Eqs. 20-22) */
	assert_true(r.wa_data >= r.oracle_twolog);
}

static void test_sim_sequential_overwrite_has_wa_one(void **state)
{
	static struct sim_result r;
	struct sim_cfg c;

	small_cfg(&c);
	c.metadata = false;
	c.workload = SIM_WL_SEQ;
	c.writes = 200000;
	assert_int_equal(sim_run(&c, &r), 0);
	assert_true(r.wa_data == 1.0);
	assert_int_equal(r.dev_bytes[FSC_KIND_RELOC], 0);
	assert_true(r.nr_zone_resets > 100);
}

static void test_sim_zdisk_mem_gives_the_same_run_as_zdev(void **state)
{
	static struct sim_result a, b;
	struct sim_cfg c;
	int k;

	small_cfg(&c);
	c.nr_zones = 64;
	c.writes = 40000;
	c.seed = 3;
	assert_int_equal(sim_run(&c, &a), 0);
	c.store = SIM_STORE_MEM;
	assert_int_equal(sim_run(&c, &b), 0);
	assert_true(a.nr_zone_resets > 10);      /* cleaning and relocation ran */
	assert_true(a.dev_bytes[FSC_KIND_RELOC] > 0);
	assert_true(a.wa == b.wa);
	assert_true(a.wa_data == b.wa_data);
	for (k = 0; k < FSC_NR_KINDS; k++)
		assert_int_equal(a.dev_bytes[k], b.dev_bytes[k]);
	assert_int_equal(a.nr_bios, b.nr_bios);
	assert_int_equal(a.nr_dev_writes, b.nr_dev_writes);
	assert_int_equal(a.dev_write_bytes, b.dev_write_bytes);
	assert_int_equal(a.nr_dev_reads, b.nr_dev_reads);
	assert_int_equal(a.nr_zone_resets, b.nr_zone_resets);
	assert_int_equal(a.t_end_ns, b.t_end_ns);
	/* the emulated disk really did every write fs-core counted */
	assert_int_equal(a.store_writes, 0);
	assert_int_equal(b.store_writes, b.nr_dev_writes);
}

static char *fault_run(const char *faults, struct sim_result *r, int want)
{
	struct sim_cfg c;
	char *json;

	small_cfg(&c);
	c.nr_zones = 64;
	c.writes = 20000;
	c.store = SIM_STORE_MEM;
	c.faults = faults;
	json = run_json(&c, r);
	assert_int_equal(r->error, want);
	return json;
}

static void test_sim_medium_error_on_write_ends_run_with_device_error(void **state)
{
	static struct sim_result r;
	char *json = fault_run("medium-error:op=write,after=3000", &r, ZL_E_MEDIUM_WRITE);

	assert_true(r.nr_dev_errors >= 1);
	assert_int_equal(r.faults_fired, 1);
	assert_non_null(strstr(json, "\"error\": \"medium_write\""));
	assert_non_null(strstr(json, "\"faults_fired\": 1"));
	free(json);
}

static void test_sim_torn_write_and_offline_zone_end_run_with_their_reason(void **state)
{
	static struct sim_result r;

	/* commit bios are 16 KiB: the first one is torn */
	free(fault_run("torn-write:op=write", &r, ZL_E_TORN_WRITE));
	assert_int_equal(r.last_dev_error == ZL_E_TORN_WRITE ||
			 r.last_dev_error == ZL_E_UNALIGNED, 1);
	/* a zone goes offline when first written */
	free(fault_run("offline:op=write,zone=20", &r, ZL_E_OFFLINE));
}

static void test_sim_bad_fault_rule_is_refused_with_message(void **state)
{
	static struct sim_result r;

	free(fault_run("medium-error:op=wr", &r, ZL_E_FAULT_SYNTAX));
	assert_non_null(strstr(r.msg, "unknown operation"));
	assert_int_equal(r.nr_events, 0);
}

static void test_sim_faulty_run_is_deterministic(void **state)
{
	static struct sim_result r1, r2;
	const char *rules = "latency:op=write,dist=exp,a=50us,repeat;"
			    "medium-error:op=read,prob=0.0002,repeat";
	char *a = fault_run(rules, &r1, ZL_E_MEDIUM_READ), *b;

	b = fault_run(rules, &r2, ZL_E_MEDIUM_READ);
	assert_string_equal(a, b);      /* the rules' draws are seeded too */
	assert_true(r1.faults_fired > 1000);
	assert_int_equal(r1.nr_read_errors, 1);  /* a relocation read failed */
	free(a);
	free(b);
}

static void test_sim_blkdev_refuses_what_is_not_a_zoned_block_device(void **state)
{
	static struct sim_result r;
	struct sim_cfg c;

	small_cfg(&c);
	c.blkdev = "/dev/null";
	assert_int_equal(sim_run(&c, &r), -ENOTBLK);
	assert_non_null(strstr(r.msg, "is not a zoned block device"));
	c.blkdev = "/nonexistent/zonelab";
	assert_int_equal(sim_run(&c, &r), -ENOENT);
	c.blkdev = "/dev/null";
	c.nr_devs = 2;
	assert_int_equal(sim_run(&c, &r), -EINVAL);
	assert_string_equal(r.msg, "--devices 2: --blkdev runs on one device");
}

static void test_sim_occupancy_is_time_weighted_and_lifetimes_are_a_histogram(void **state)
{
	static struct sim_result r;
	struct sim_cfg c;

	small_cfg(&c);
	c.nr_zones = 64;
	c.nr_workers = 0;     /* nothing reorders: nothing is ever held */
	c.reloc_reads = false;  /* (reads delay relocation copies past user writes) */
	assert_int_equal(sim_run(&c, &r), 0);
	assert_true(r.sbuf_mean == 0);
	c.nr_workers = 32;
	c.worker_dist = SIM_DIST_PARETO;
	assert_int_equal(sim_run(&c, &r), 0);
	assert_true(r.sbuf_mean > 0 && r.sbuf_mean < (double)r.sbuf_max);
	assert_int_equal(r.bg_life.n, r.nr_bg_removed);
	assert_true(r.nr_bg_removed > 10);
	assert_true(ana_hist_quantile(&r.bg_life, 0.5) <= ana_hist_quantile(&r.bg_life, 0.9));
	assert_true(ana_hist_quantile(&r.bg_life, 0.99) <= r.bg_life_max_ns);
	assert_int_equal(r.bg_life.max, r.bg_life_max_ns);
}

static void test_sim_relocation_reads_cost_device_time(void **state)
{
	static struct sim_result with, without;
	struct sim_cfg c;

	small_cfg(&c);
	c.nr_zones = 64;
	c.metadata = false;
	c.writes = 60000;
	assert_int_equal(sim_run(&c, &with), 0);
	c.reloc_reads = false;
	assert_int_equal(sim_run(&c, &without), 0);
	assert_true(with.dev_bytes[FSC_KIND_RELOC] > 0);
	/* every relocated byte was read once (SINGLE, whole run) */
	assert_true(with.dev_read_bytes >= with.dev_bytes[FSC_KIND_RELOC]);
	assert_int_equal(without.dev_read_bytes, 0);
	assert_true(with.t_end_ns > without.t_end_ns);
}

static void test_sim_bad_config_is_einval_with_the_option_named(void **state)
{
	static struct sim_result r;
	struct sim_cfg c;
	char msg[256];

	small_cfg(&c);
	c.util = 1.5;
	assert_int_equal(sim_run(&c, &r), -EINVAL);
	assert_int_equal(r.error, -EINVAL);
	assert_int_equal(r.nr_events, 0);
	assert_string_equal(r.msg, "--util 1.5: between 0 and 1, exclusive");
	small_cfg(&c);
	c.worker_dist = SIM_DIST_PARETO;
	c.pareto_alpha = 1.0;  /* infinite mean */
	assert_int_equal(sim_cfg_check(&c, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "--pareto-alpha 1:"));
	small_cfg(&c);
	c.nr_conv = c.nr_zones;
	assert_int_equal(sim_cfg_check(&c, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "--conv 200:"));
	small_cfg(&c);
	assert_int_equal(sim_cfg_check(&c, msg, sizeof(msg)), 0);
}

/* In range, but no room for data once the superblocks, the reserve and the
 * metadata are counted: refused before anything runs, with the shortfall in
 * zones and only advice that helps (a larger zone does not). */
static void test_sim_geometry_without_room_is_refused_with_the_shortfall(void **state)
{
	static struct sim_result r;
	struct sim_cfg c;
	char msg[256];

	small_cfg(&c);
	c.nr_zones = 8;
	c.nr_conv = 6;
	assert_int_equal(sim_cfg_check(&c, msg, sizeof(msg)), -EINVAL);
	assert_string_equal(msg, "8 zones of 1048576 bytes leave -3.0 zones for data (1 needed) "
			    "after superblocks, --reserve 2, the open zone and the metadata "
			    "estimate: short by 4 zones; give more --zones or a smaller --reserve");
	assert_int_equal(sim_run(&c, &r), -EINVAL);
	assert_int_equal(r.nr_events, 0);
	assert_string_equal(r.msg, msg);
	c.reserve_zones = 0;
	c.nr_conv = 7;
	assert_int_equal(sim_cfg_check(&c, msg, sizeof(msg)), -EINVAL);
	assert_string_equal(msg, "8 zones of 1048576 bytes leave -2.0 zones for data (1 needed) "
			    "after superblocks, --reserve 0, the open zone and the metadata "
			    "estimate: short by 3 zones; give more --zones");
	/* the largest --reserve is no room either (not wrapped to 0) */
	small_cfg(&c);
	c.reserve_zones = UINT32_MAX;
	assert_int_equal(sim_cfg_check(&c, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "--reserve 4294967295, the open zone"));
}

/* Geometries the zone model cannot build are sim_cfg_check()'s, whatever
 * the backend, with the options named. */
static void test_sim_geometry_the_zone_model_refuses_names_the_options(void **state)
{
	struct sim_cfg c;
	char msg[256];

	small_cfg(&c);
	c.nr_zones = UINT32_MAX;
	assert_int_equal(sim_cfg_check(&c, msg, sizeof(msg)), -EINVAL);
	assert_string_equal(msg, "--zones 4294967295 --zone-size 1048576 --conv 1: not a device "
			    "the zone model can build: 4294967295 zones: at most 4294967294 "
			    "zones are supported");
	small_cfg(&c);
	c.zone_bytes = 1ULL << 63;
	c.nr_zones = 4;
	assert_int_equal(sim_cfg_check(&c, msg, sizeof(msg)), -EINVAL);
	assert_string_equal(msg, "--zones 4 --zone-size 9223372036854775808: the device would "
			    "have more than 2^64 bytes");
	c.zone_bytes = 1ULL << 50;  /* fits 64 bits, not the model's LBA limits */
	assert_int_equal(sim_cfg_check(&c, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "--zones 4 --zone-size 1125899906842624 --conv 1: "));
}

/* Profiles need devices (fsc_profile_min_devs()), zone append needs SINGLE
 * data: refused with the options and what is needed, not left to the run. */
static void test_sim_profile_without_enough_devices_is_refused(void **state)
{
	static const struct {
		enum fsc_profile data, meta;
		uint32_t nr_devs;
		enum fsc_order order;
		const char *msg;
	} cases[] = {
		{ FSC_RAID1, FSC_SINGLE, 1, FSC_ORDER_SUBMIT_BUFFER,
		  "--profile raid1 --devices 1: raid1 needs at least 2 devices" },
		{ FSC_RAID10, FSC_SINGLE, 2, FSC_ORDER_SUBMIT_BUFFER,
		  "--profile raid10 --devices 2: raid10 needs at least 4 devices" },
		{ FSC_SINGLE, FSC_RAID0, 1, FSC_ORDER_SUBMIT_BUFFER,
		  "--meta-profile raid0 --devices 1: raid0 needs at least 2 devices "
		  "(or --no-metadata)" },
		{ FSC_RAID1, FSC_SINGLE, 2, FSC_ORDER_APPEND,
		  "--order append --profile raid1: a zone append goes to one zone of one "
		  "device: data needs --profile single" },
	};
	static struct sim_result r;
	struct sim_cfg c;
	char msg[256];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		small_cfg(&c);
		c.data_profile = cases[i].data;
		c.meta_profile = cases[i].meta;
		c.nr_devs = cases[i].nr_devs;
		c.order = cases[i].order;
		assert_int_equal(sim_cfg_check(&c, msg, sizeof(msg)), -EINVAL);
		assert_string_equal(msg, cases[i].msg);
	}
	/* the metadata profile does not matter without metadata */
	small_cfg(&c);
	c.meta_profile = FSC_RAID10;
	c.metadata = false;
	c.writes = 100;
	assert_int_equal(sim_cfg_check(&c, msg, sizeof(msg)), 0);
	assert_int_equal(sim_run(&c, &r), 0);
	/* DUP on one device, and RAID5 left to fs-core's HMZONED refusal */
	small_cfg(&c);
	c.data_profile = c.meta_profile = FSC_DUP;
	assert_int_equal(sim_cfg_check(&c, msg, sizeof(msg)), 0);
	c.data_profile = FSC_RAID5;
	assert_int_equal(sim_cfg_check(&c, msg, sizeof(msg)), 0);
}

/* sim_json() prints enum fields by name: a value outside the table is
 * refused by sim_cfg_check(), and printed as "?" rather than read past it. */
static void test_sim_enum_out_of_range_is_refused(void **state)
{
	static struct sim_result r;
	struct sim_cfg c;
	char msg[256], *json;

	small_cfg(&c);
	c.worker_dist = (enum sim_dist)3;
	assert_int_equal(sim_cfg_check(&c, msg, sizeof(msg)), -EINVAL);
	assert_string_equal(msg, "--worker-dist 3: not a known value (one of: const exp pareto)");
	small_cfg(&c);
	c.store = (enum sim_store)-1;
	assert_int_equal(sim_cfg_check(&c, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "--store -1: not a known value"));
	small_cfg(&c);
	c.workload = (enum sim_workload)9;
	c.clean = (enum fsc_clean_policy)7;
	json = run_json(&c, &r);
	assert_int_equal(r.error, -EINVAL);
	assert_non_null(strstr(r.msg, "--workload 9:"));
	assert_non_null(strstr(json, "\"workload\": \"?\""));
	assert_non_null(strstr(json, "\"clean\": \"?\""));
	free(json);
}

/*
 * Zone sizes of every 4 KiB multiple up to 256 KiB (and the 1000 x 64 KiB
 * case found while measuring), 0-2 conventional zones, metadata on and
 * off: each geometry is either refused by the check with the way out, or
 * runs to its end with user writes done.  None ends in enospc at once.
 */
static void test_sim_zone_sizes_either_refused_or_run(void **state)
{
	static struct sim_result r;
	struct sim_cfg c;
	char msg[256];
	uint64_t kb;
	uint32_t conv, meta, refused = 0, ran = 0;

	for (kb = 4; kb <= 256; kb += 4)
		for (conv = 0; conv <= 2; conv++)
			for (meta = 0; meta <= 1; meta++) {
				sim_cfg_init(&c);
				c.nr_zones = 64;
				c.zone_bytes = kb * 1024;
				c.nr_conv = conv;
				c.metadata = meta;
				c.writes = 200;
				c.sample_ns = 0;
				if (sim_cfg_check(&c, msg, sizeof(msg))) {
					assert_non_null(strstr(msg, "--"));  /* names an option */
					refused++;
					continue;
				}
				assert_int_equal(sim_run(&c, &r), 0);
				assert_int_equal(r.error, 0);
				assert_true(r.user_bytes > 0);
				ran++;
			}
	assert_true(ran > 200);
	assert_true(refused > 0);
	/* the reported case: refused with the way out; with --conv 2 it runs */
	sim_cfg_init(&c);
	c.nr_zones = 1000;
	c.zone_bytes = 64 * 1024;
	c.metadata = false;
	c.writes = 1000;
	assert_int_equal(sim_cfg_check(&c, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "no superblock location"));
	assert_non_null(strstr(msg, "give --conv 2, --zone-size 68K or more, or --conv 0"));
	c.nr_conv = 2;
	assert_int_equal(sim_run(&c, &r), 0);
	assert_true(r.user_bytes > 0);
	c.nr_conv = 0;
	assert_int_equal(sim_run(&c, &r), 0);
	c.nr_conv = 1;
	c.zone_bytes = 68 * 1024;
	assert_int_equal(sim_run(&c, &r), 0);
	c.zone_bytes = 8 * 1024;  /* metadata on: smaller than a tree block */
	c.nr_conv = 0;
	c.metadata = true;
	assert_int_equal(sim_cfg_check(&c, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "smaller than a tree block"));
}

/* A policy run at test size (data only, no reordering), sized like oracle_run. */
static void policy_run(const char *clean, const char *place, enum sim_workload wl,
		       uint32_t np, uint32_t zones, double u, struct sim_result *r)
{
	struct sim_cfg c;
	char msg[256];

	sim_cfg_init(&c);
	c.zone_bytes = (uint64_t)np * 4096;
	c.nr_zones = zones;
	c.util = u;
	assert_int_equal(fsc_clean_parse(clean, &c.clean, &c.clean_params, msg, sizeof(msg)), 0);
	assert_int_equal(fsc_place_parse(place, &c.place, &c.place_params, msg, sizeof(msg)), 0);
	c.workload = wl;
	c.hot_r = 0.9;
	c.hot_f = 0.1;
	c.metadata = false;
	c.nr_workers = 0;
	c.qd = 1;
	c.dev_cmd_ns = 0;
	c.dev_bw_bps = 0;
	c.writes = 1;
	assert_int_equal(sim_run(&c, r), 0);
	c.warmup_writes = 10 * r->file_blocks;
	c.writes = 10 * r->file_blocks;
	assert_int_equal(sim_run(&c, r), 0);
	assert_int_equal(r->error, 0);
	assert_int_equal(r->nr_dev_errors, 0);
}

/*
 * d-choices with d = 1 is random selection: WA -> 1/(1-u) for large Np.
 * Candidates exclude fully live block groups, which biases the pick
 * emptier: measured below the closed form, by less as Np grows (Np = 64:
 * 4.67; Np = 256: 4.89 at u = 0.8).
 */
static void test_sim_dchoices_d1_approaches_random_selection(void **state)
{
	static struct sim_result r;

	policy_run("d-choices:d=1", "one-log", SIM_WL_UNIFORM, 256, 300, 0.8, &r);
	assert_true(r.wa_data < 1 / (1 - r.util_effective));
	assert_true(r.wa_data > 0.95 / (1 - r.util_effective));  /* measured 0.975 */
	assert_true(r.wa_data > r.oracle_greedy * 1.5);  /* far from greedy */
}

/*
 * Two logs by the workload's write-life hint on hot/cold 90/10: below the
 * one-log greedy value (Eq. 16), never below the two-log bound (Eqs.
 * 20-22), with and without a separate relocation log; every other victim
 * policy runs clean on it.
 */
static void test_sim_hint_placement_stays_above_the_two_log_bound(void **state)
{
	static struct sim_result r;
	static const char *const pol[] = { "greedy", "fifo", "cost-benefit", "cat", "d-choices",
					   "windowed", "btrfs:threshold=90" };
	size_t i;

	policy_run("greedy", "hint", SIM_WL_HOTCOLD, 64, 300, 0.8, &r);
	assert_true(r.wa_data >= r.oracle_twolog);
	assert_true(r.wa_data < r.oracle_hc_greedy);
	policy_run("greedy", "hint:reloc=1", SIM_WL_HOTCOLD, 64, 300, 0.8, &r);
	assert_true(r.wa_data >= r.oracle_twolog);
	policy_run("greedy", "freq", SIM_WL_HOTCOLD, 64, 300, 0.8, &r);
	assert_true(r.wa_data >= r.oracle_twolog);
	assert_true(r.wa_data < r.oracle_hc_greedy);
	for (i = 1; i < sizeof(pol) / sizeof(pol[0]); i++) {
		policy_run(pol[i], "hint", SIM_WL_HOTCOLD, 64, 300, 0.8, &r);
		assert_true(r.wa_data >= r.oracle_twolog);
	}
}

/*
 * Max active zones 8-14 on the emulator (zdisk, MEM store, the zone model
 * enforcing the limits) with the submit buffer, serialization and zone
 * append: never an open/active-limit refusal from the device, fs-core
 * never above the limit; too small a limit is refused with what is needed.
 */
static void test_sim_max_active_is_honoured_on_the_emulator(void **state)
{
	static struct sim_result r;
	static const enum fsc_order orders[] = { FSC_ORDER_SUBMIT_BUFFER, FSC_ORDER_SERIALIZE,
						 FSC_ORDER_APPEND };
	struct sim_cfg c;
	char msg[256];
	uint32_t ma, o;

	for (o = 0; o < 3; o++)
		for (ma = 8; ma <= 14; ma += 3) {
			sim_cfg_init(&c);
			c.zone_bytes = 256 << 10;
			c.nr_zones = 120;
			c.store = SIM_STORE_MEM;
			c.order = orders[o];
			c.max_active = ma;
			c.max_open = ma;
			c.writes = 30000;
			c.sample_ns = 0;
			assert_int_equal(sim_run(&c, &r), 0);
			assert_int_equal(r.error, 0);
			assert_int_equal(r.nr_dev_errors, 0);
			assert_true(r.active_max <= ma);
			assert_true(r.active_max >= 3);
		}
	sim_cfg_init(&c);
	c.max_active = 3;
	assert_int_equal(sim_cfg_check(&c, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "--max-active 3: fs-core needs 4 active zones"));
	c.max_active = 8;
	c.max_open = 9;
	assert_int_equal(sim_cfg_check(&c, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "--max-open at most --max-active"));
}

static void test_sim_names_parse_as_printed(void **state)
{
	assert_int_equal(sim_name_parse(sim_profile_names, "raid10"), FSC_RAID10);
	assert_int_equal(sim_name_parse(sim_order_names, "submit-buffer"), FSC_ORDER_SUBMIT_BUFFER);
	assert_int_equal(sim_name_parse(sim_release_names, "zeros"), FSC_RELEASE_ZEROS);
	assert_int_equal(sim_name_parse(sim_clean_names, "greedy"), FSC_CLEAN_GREEDY);
	assert_int_equal(sim_name_parse(sim_dist_names, "pareto"), SIM_DIST_PARETO);
	assert_int_equal(sim_name_parse(sim_workload_names, "hotcold"), SIM_WL_HOTCOLD);
	assert_int_equal(sim_name_parse(sim_profile_names, "raid7"), -EINVAL);
	assert_int_equal(sim_name_parse(sim_workload_names, ""), -EINVAL);
	assert_int_equal(sim_name_parse(sim_store_names, "mem"), SIM_STORE_MEM);
	assert_int_equal(sim_name_parse(sim_on_dev_error_names, "continue"), 1);
	assert_string_equal(sim_name_of(sim_order_names, FSC_ORDER_APPEND), "append");
	assert_null(sim_name_of(sim_clean_names, FSC_NR_CLEAN));
	assert_null(sim_name_of(sim_clean_names, -1));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sim_rng_is_deterministic_and_uniformish),
		cmocka_unit_test(test_sim_heap_orders_by_time_then_insertion),
		cmocka_unit_test(test_sim_same_seed_gives_identical_json),
		cmocka_unit_test(test_sim_reordering_with_submit_buffer_never_unaligned),
		cmocka_unit_test(test_sim_without_ordering_the_device_refuses),
		cmocka_unit_test(test_sim_without_redirty_the_submit_buffer_expires),
		cmocka_unit_test(test_sim_variants_and_profiles_run_clean),
		cmocka_unit_test(test_sim_dup_reserve_is_counted_in_block_groups),
		cmocka_unit_test(test_sim_zipf_workload_runs_and_skews_cleaning),
		cmocka_unit_test(test_sim_wa_matches_fifo_oracle),
		cmocka_unit_test(test_sim_wa_matches_greedy_oracle),
		cmocka_unit_test(test_sim_sequential_overwrite_has_wa_one),
		cmocka_unit_test(test_sim_hotcold_wa_matches_one_log_oracles),
		cmocka_unit_test(test_sim_zdisk_mem_gives_the_same_run_as_zdev),
		cmocka_unit_test(test_sim_medium_error_on_write_ends_run_with_device_error),
		cmocka_unit_test(test_sim_torn_write_and_offline_zone_end_run_with_their_reason),
		cmocka_unit_test(test_sim_bad_fault_rule_is_refused_with_message),
		cmocka_unit_test(test_sim_faulty_run_is_deterministic),
		cmocka_unit_test(test_sim_blkdev_refuses_what_is_not_a_zoned_block_device),
		cmocka_unit_test(test_sim_occupancy_is_time_weighted_and_lifetimes_are_a_histogram),
		cmocka_unit_test(test_sim_relocation_reads_cost_device_time),
		cmocka_unit_test(test_sim_bad_config_is_einval_with_the_option_named),
		cmocka_unit_test(test_sim_geometry_without_room_is_refused_with_the_shortfall),
		cmocka_unit_test(test_sim_geometry_the_zone_model_refuses_names_the_options),
		cmocka_unit_test(test_sim_profile_without_enough_devices_is_refused),
		cmocka_unit_test(test_sim_enum_out_of_range_is_refused),
		cmocka_unit_test(test_sim_names_parse_as_printed),
		cmocka_unit_test(test_sim_zone_sizes_either_refused_or_run),
		cmocka_unit_test(test_sim_dchoices_d1_approaches_random_selection),
		cmocka_unit_test(test_sim_hint_placement_stays_above_the_two_log_bound),
		cmocka_unit_test(test_sim_max_active_is_honoured_on_the_emulator),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
