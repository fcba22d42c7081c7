/*
 * test_sim_rebuild.c — the rebuild model (sim/sim_rebuild.c) on small
 * arrays of hc620 drives (a few hundred 256 MiB zones spread over the
 * whole stroke): the rebuild copies exactly the failed drive's allocated
 * bytes, never beats its lower bound, takes longer under more foreground
 * load, RAID6 (hypothetical) reads N-2 drives' worth, idle priority keeps
 * the foreground near its healthy latency and better than a 50% share,
 * runs are deterministic from the seed, a sampled rebuild (1 zone in K
 * simulated) estimates the exact run's time, an overloaded foreground is
 * reported as saturated (and a light one is not), and bad configurations
 * are refused with which value and why.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "sim.h"

static struct sim_rb_result res, res2;
static char msg[512];

static void small(struct sim_rb_cfg *c, enum sim_rb_profile p, uint32_t n, double load)
{
	sim_rb_cfg_init(c);
	c->profile = p;
	c->nr_devs = n;
	c->nr_zones = 200;
	c->alloc = 0.5;
	c->fg_load = load;
	c->before_ns = 200ULL * 1000000000ULL;
}

static void run_ok(const struct sim_rb_cfg *c, struct sim_rb_result *r)
{
	int ret = sim_rb_run(c, r, msg, sizeof(msg));

	if (ret)
		fail_msg("sim_rb_run: %d %s", ret, msg);
	assert_true(r->finished);
}

static void test_rebuild_copies_exactly_the_allocated_bytes(void **state)
{
	static const struct { enum sim_rb_profile p; uint32_t n; } v[] = {
		{ SIM_RB_RAID1, 4 }, { SIM_RB_RAID1, 5 }, { SIM_RB_RAID10, 4 },
		{ SIM_RB_RAID10, 8 }, { SIM_RB_RAID6, 4 }, { SIM_RB_RAID6, 6 },
	};
	struct sim_rb_cfg c;

	(void)state;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		small(&c, v[i].p, v[i].n, 0);
		run_ok(&c, &res);
		assert_int_equal(res.alloc_zones, 100);
		assert_true(res.copy_bytes > 0);
		assert_int_equal(res.copied_bytes, res.copy_bytes);
		if (v[i].p != SIM_RB_RAID1 || v[i].n % 2 == 0)  /* odd RAID1: a zone may stay unpaired */
			assert_int_equal(res.copy_bytes, 100ULL * res.zone_bytes);
		else
			assert_true(res.copy_bytes >= 99ULL * res.zone_bytes);
		assert_true(res.progress == 1.0);
	}
}

static void test_rebuild_never_beats_its_lower_bound(void **state)
{
	struct sim_rb_cfg c;

	(void)state;
	for (int p = SIM_RB_RAID1; p <= SIM_RB_RAID6; p++)
		for (int l = 0; l < 2; l++) {
			small(&c, (enum sim_rb_profile)p, 4, l * 0.5);
			run_ok(&c, &res);
			assert_true(res.lb_ns > 0);
			assert_true(res.lb_ns >= res.lb_write_ns && res.lb_ns >= res.lb_read_ns);
			assert_true((double)res.rebuild_ns >= res.lb_ns);
			/* and not absurdly far from it without load */
			if (!l)
				assert_true((double)res.rebuild_ns < 1.5 * res.lb_ns);
			/* MD's whole disk is more than the allocated half */
			assert_true(res.whole_disk_ns > res.lb_write_ns);
		}
}

static void test_rebuild_time_grows_with_foreground_load(void **state)
{
	struct sim_rb_cfg c;
	uint64_t prev = 0;

	(void)state;
	for (int l = 0; l < 4; l++) {
		small(&c, SIM_RB_RAID1, 4, l * 0.25);
		run_ok(&c, &res);
		assert_true(res.rebuild_ns > prev);
		prev = res.rebuild_ns;
		if (l) {
			/* the foreground ran at about the load asked for */
			assert_true(res.fg_util_before > l * 0.25 * 0.7);
			assert_true(res.fg_util_before < l * 0.25 * 1.3);
			assert_true(res.during.n > 0 && res.before.n > 0);
		}
	}
}

static void test_idle_priority_keeps_foreground_latency_near_healthy(void **state)
{
	struct sim_rb_cfg c;

	(void)state;
	small(&c, SIM_RB_RAID1, 4, 0.25);
	run_ok(&c, &res);
	/* idle: a foreground command waits at most for the rebuild commands
	 * the drive already holds (QD 2 of 4 MiB) */
	assert_true(res.during.p50_ns < 2 * res.before.p50_ns);
	c.prio = SIM_RB_SHARE;
	c.share = 0.5;
	run_ok(&c, &res2);
	assert_true(res2.during.p99_ns > res.during.p99_ns);
	assert_true(res2.during.p50_ns > res.during.p50_ns);
	/* both give the rebuild every idle moment (work-conserving): at 25%
	 * load the share's guarantee does not bind, the rebuild takes about
	 * as long */
	assert_true(res2.rebuild_ns < res.rebuild_ns * 6 / 5 && res.rebuild_ns < res2.rebuild_ns * 6 / 5);
}

static void test_raid6_reads_n_minus_2_drives_worth(void **state)
{
	struct sim_rb_cfg c;

	(void)state;
	for (uint32_t n = 4; n <= 8; n += 4) {
		small(&c, SIM_RB_RAID6, n, 0);
		run_ok(&c, &res);
		assert_int_equal(res.read_bytes, (uint64_t)(n - 2) * res.copied_bytes);
		/* spread over the n - 1 survivors */
		assert_true(res.max_dev_read_bytes <= res.read_bytes / (n - 1) + 64 * 1024 * 1024);
	}
	small(&c, SIM_RB_RAID1, 4, 0);
	run_ok(&c, &res);
	assert_int_equal(res.read_bytes, res.copied_bytes);
}

static void test_rebuild_is_deterministic_from_the_seed(void **state)
{
	struct sim_rb_cfg c;

	(void)state;
	small(&c, SIM_RB_RAID10, 4, 0.25);
	run_ok(&c, &res);
	run_ok(&c, &res2);
	assert_int_equal(res.rebuild_ns, res2.rebuild_ns);
	assert_int_equal(res.during.p99_ns, res2.during.p99_ns);
	assert_int_equal(res.nr_commands, res2.nr_commands);
	c.seed = 2;
	run_ok(&c, &res2);
	assert_true(res.nr_commands != res2.nr_commands || res.rebuild_ns != res2.rebuild_ns);
}

static double rel_diff(uint64_t a, uint64_t b)
{
	return a > b ? (double)(a - b) / (double)b : (double)(b - a) / (double)b;
}

static void test_sampled_rebuild_estimates_the_exact_time(void **state)
{
	static const struct { enum sim_rb_profile p; double load; } v[] = {
		{ SIM_RB_RAID1, 0 }, { SIM_RB_RAID1, 0.5 }, { SIM_RB_RAID10, 0.5 },
		{ SIM_RB_RAID6, 0 }, { SIM_RB_RAID6, 0.5 },
	};
	struct sim_rb_cfg c;

	(void)state;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		small(&c, v[i].p, 4, v[i].load);
		c.nr_zones = 400;       /* 200 zones to copy, 50 simulated */
		run_ok(&c, &res);
		assert_int_equal(res.sim_copied_bytes, res.copied_bytes);
		assert_int_equal(res.sim_rebuild_ns, res.rebuild_ns);
		c.sample = 4;
		run_ok(&c, &res2);
		/* the whole copy is accounted for, a quarter of it simulated */
		assert_int_equal(res2.copied_bytes, res2.copy_bytes);
		assert_int_equal(res2.sim_copied_bytes, res2.copy_bytes / 4);
		assert_true(res2.sim_rebuild_ns < res2.rebuild_ns / 3);
		/* the estimate: within 1% of the exact time without load (at
		 * the bound, never below it), within 10% under load */
		assert_true((double)res2.rebuild_ns >= res2.lb_ns);
		if (rel_diff(res2.rebuild_ns, res.rebuild_ns) > (v[i].load ? 0.10 : 0.01))
			fail_msg("profile %d load %g: sampled %llu ns, exact %llu ns", v[i].p,
				 v[i].load, (unsigned long long)res2.rebuild_ns,
				 (unsigned long long)res.rebuild_ns);
		assert_true(res2.read_bytes < res.read_bytes / 3);
	}
}

static void test_overloaded_foreground_is_reported_saturated(void **state)
{
	struct sim_rb_cfg c;

	(void)state;
	/* light: the array takes in every arrival, before and during */
	small(&c, SIM_RB_RAID1, 4, 0.25);
	run_ok(&c, &res);
	assert_false(res.fg_saturated);
	assert_true(res.fg_admitted_before >= SIM_RB_SATURATED);
	assert_true(res.fg_admitted_during >= SIM_RB_SATURATED);
	/* 90% of the throughput asked for while the rebuild takes 90% of the
	 * device time: the generator falls behind its arrivals, the latency
	 * grows with the run, and the result says so */
	small(&c, SIM_RB_RAID1, 4, 0.9);
	c.prio = SIM_RB_SHARE;
	c.share = 0.9;
	run_ok(&c, &res);
	assert_true(res.fg_saturated);
	assert_true(res.fg_admitted_during < SIM_RB_SATURATED);
	assert_true(res.fg_admitted_during > 0);
	/* no foreground: nothing to saturate */
	small(&c, SIM_RB_RAID1, 4, 0);
	run_ok(&c, &res);
	assert_false(res.fg_saturated);
	assert_true(res.fg_admitted_before == 1 && res.fg_admitted_during == 1);
}

static void refused(const struct sim_rb_cfg *c, const char *want)
{
	msg[0] = 0;
	assert_int_equal(sim_rb_run(c, &res, msg, sizeof(msg)), -EINVAL);
	if (!strstr(msg, want))
		fail_msg("message '%s' lacks '%s'", msg, want);
}

static void test_bad_configurations_are_refused_with_the_reason(void **state)
{
	struct sim_rb_cfg c;

	(void)state;
	small(&c, SIM_RB_RAID1, 1, 0);
	refused(&c, "--devices 1: an array of 2 to 64 drives");
	small(&c, SIM_RB_RAID10, 5, 0);
	refused(&c, "raid10 needs an even number");
	small(&c, SIM_RB_RAID6, 3, 0);
	refused(&c, "raid6 needs at least 4");
	small(&c, SIM_RB_RAID1, 4, 0);
	c.alloc = 1;
	refused(&c, "--util 1: the allocated fraction");
	small(&c, SIM_RB_RAID1, 4, 0.99);
	refused(&c, "--rebuild-fg-load 0.99: from 0 to 0.95");
	small(&c, SIM_RB_RAID1, 4, 0);
	c.prio = SIM_RB_SHARE;
	c.share = 0;
	refused(&c, "share:0: a share above 0 and below 1");
	small(&c, SIM_RB_RAID1, 4, 0);
	c.io_bytes = 100000;
	refused(&c, "--rebuild-io 100000: a multiple of 64 KiB");
	small(&c, SIM_RB_RAID1, 4, 0);
	c.zone_bytes = 4096;
	refused(&c, "--zone-size 4096: at least 1 MiB");
	small(&c, SIM_RB_RAID1, 4, 0);
	c.failed = 4;
	refused(&c, "failed drive 4: the array has drives 0..3");
	small(&c, SIM_RB_RAID1, 4, 0);
	c.timing_model = "hc620,rpm=1";
	refused(&c, "rpm");
	small(&c, SIM_RB_RAID1, 4, 0);
	c.timing_model = "zn540";
	refused(&c, "the rebuild model is for hard disks");
	small(&c, SIM_RB_RAID1, 4, 0);
	c.nr_zones = 100000;  /* 25 TiB: more than the 15 TB drive holds */
	refused(&c, "holds");
	small(&c, SIM_RB_RAID1, 4, 0);
	c.nr_zones = 3;
	refused(&c, "need at least 4 zones");
	small(&c, SIM_RB_RAID1, 4, 0);
	c.sample = 0;
	refused(&c, "--rebuild-sample 0: 1 (every zone) to 1000");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rebuild_copies_exactly_the_allocated_bytes),
		cmocka_unit_test(test_rebuild_never_beats_its_lower_bound),
		cmocka_unit_test(test_rebuild_time_grows_with_foreground_load),
		cmocka_unit_test(test_idle_priority_keeps_foreground_latency_near_healthy),
		cmocka_unit_test(test_raid6_reads_n_minus_2_drives_worth),
		cmocka_unit_test(test_rebuild_is_deterministic_from_the_seed),
		cmocka_unit_test(test_sampled_rebuild_estimates_the_exact_time),
		cmocka_unit_test(test_overloaded_foreground_is_reported_saturated),
		cmocka_unit_test(test_bad_configurations_are_refused_with_the_reason),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
