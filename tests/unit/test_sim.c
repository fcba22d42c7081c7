/*
 * test_sim.c — the simulator: engine pieces (PRNG, event heap ties,
 * histogram, oracles against the values of wa-models.md), determinism (same
 * seed => byte-identical JSON), the ordering invariant (heavy reordering +
 * submit buffer => zero unaligned writes from the zone model over >= 1M
 * bios; no ordering => the zone model refuses them), write amplification
 * against the FIFO and greedy oracles, and every design variant / profile
 * running clean.
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
#include <cmocka.h>

#include "sim.h"

static void test_sim_rng_is_deterministic_and_uniformish(void **state)
{
	struct sim_rng a, b;
	uint64_t i, hits = 0;

	sim_rng_seed(&a, 42);
	sim_rng_seed(&b, 42);
	for (i = 0; i < 1000; i++)
		assert_int_equal(sim_rng_next(&a), sim_rng_next(&b));
	for (i = 0; i < 100000; i++)
		hits += sim_rng_below(&a, 10) == 3;
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

static void test_sim_hist_quantiles(void **state)
{
	static struct sim_hist h;
	uint64_t v;

	memset(&h, 0, sizeof(h));
	for (v = 1; v <= 10000; v++)
		sim_hist_add(&h, v);
	assert_in_range(sim_hist_quantile(&h, 0.5), 5000, 5200);
	assert_in_range(sim_hist_quantile(&h, 0.99), 9900, 10000);
	assert_int_equal(sim_hist_quantile(&h, 1.0), 10000);
	assert_int_equal(h.max, 10000);
}

static void test_sim_oracles_match_published_values(void **state)
{
	assert_true(fabs(sim_wa_fifo(0.5) - 1.255) < 0.001);
	assert_true(fabs(sim_wa_fifo(0.7) - 1.876) < 0.001);
	assert_true(fabs(sim_wa_fifo(0.8) - 2.693) < 0.001);
	assert_true(fabs(sim_wa_fifo(0.9) - 5.179) < 0.001);
	assert_true(fabs(sim_wa_greedy(0.8, 64) - 2.598) < 0.001);
	assert_true(fabs(sim_wa_greedy(0.9, 64) - 4.816) < 0.001);
}

/* A small, fast, metadata-heavy configuration. */
static void small_cfg(struct sim_cfg *c)
{
	sim_cfg_init(c);
	c->zone_bytes = 1 << 20;
	c->nr_zones = 200;
	c->writes = 100000;
}

static char *run_json(const struct sim_cfg *c, struct sim_result *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	sim_run(c, r);
	sim_json(f, c, r);
	fclose(f);
	return buf;
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
	sim_run(&c, &r);
	assert_true(r.nr_expired > 0);
	assert_true(r.nr_bg_expired > 0);
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

/* The oracle setting of wa-models.md: data only, single-block uniform
 * overwrites, fill, warm up 10x the live data, measure 20x, 600 units. */
static void oracle_run(enum fsc_clean_policy pol, uint32_t np, double u, struct sim_result *r)
{
	struct sim_cfg c;

	sim_cfg_init(&c);
	c.zone_bytes = (uint64_t)np * 4096;
	c.nr_zones = 600;
	c.util = u;
	c.clean = pol;
	c.metadata = false;
	c.nr_workers = 0;
	c.qd = 1;
	c.dev_cmd_ns = 0;
	c.dev_bw_bps = 0;
	c.writes = 1;
	assert_int_equal(sim_run(&c, r), 0);  /* sizing */
	c.warmup_writes = 10 * r->file_blocks;
	c.writes = 20 * r->file_blocks;
	assert_int_equal(sim_run(&c, r), 0);
	assert_int_equal(r->nr_dev_errors, 0);
}

static void test_sim_wa_matches_fifo_oracle(void **state)
{
	static struct sim_result r;

	oracle_run(FSC_CLEAN_FIFO, 64, 0.8, &r);
	assert_true(fabs(r.wa_data / r.oracle_fifo - 1) < 0.01);
	oracle_run(FSC_CLEAN_FIFO, 64, 0.7, &r);
	assert_true(fabs(r.wa_data / r.oracle_fifo - 1) < 0.01);
}

static void test_sim_wa_matches_greedy_oracle(void **state)
{
	static struct sim_result r;

	oracle_run(FSC_CLEAN_GREEDY, 64, 0.8, &r);
	assert_true(fabs(r.wa_data / r.oracle_greedy - 1) < 0.02);
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

static void test_sim_bad_config_is_einval(void **state)
{
	static struct sim_result r;
	struct sim_cfg c;

	small_cfg(&c);
	c.util = 1.5;
	assert_int_equal(sim_run(&c, &r), -EINVAL);
	assert_int_equal(r.error, -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sim_rng_is_deterministic_and_uniformish),
		cmocka_unit_test(test_sim_heap_orders_by_time_then_insertion),
		cmocka_unit_test(test_sim_hist_quantiles),
		cmocka_unit_test(test_sim_oracles_match_published_values),
		cmocka_unit_test(test_sim_same_seed_gives_identical_json),
		cmocka_unit_test(test_sim_reordering_with_submit_buffer_never_unaligned),
		cmocka_unit_test(test_sim_without_ordering_the_device_refuses),
		cmocka_unit_test(test_sim_without_redirty_the_submit_buffer_expires),
		cmocka_unit_test(test_sim_variants_and_profiles_run_clean),
		cmocka_unit_test(test_sim_wa_matches_fifo_oracle),
		cmocka_unit_test(test_sim_wa_matches_greedy_oracle),
		cmocka_unit_test(test_sim_sequential_overwrite_has_wa_one),
		cmocka_unit_test(test_sim_bad_config_is_einval),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
