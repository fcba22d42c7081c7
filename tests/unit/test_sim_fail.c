/*
 * test_sim_fail.c — a device failure and fs-core's rebuild inside a
 * simulator run (sim/sim_fail.c, --fail-dev): the rebuild walks exactly the
 * failed device's allocated space (copies plus zero-filled gaps), the new
 * device's write pointers end in step with the mirrors', writes during the
 * copy reach the new device (read back with their stamps), a second failure
 * during a RAID1 rebuild loses data and the run says so (error, counts,
 * JSON, the data check), the same seed gives the same JSON, and bad option
 * values are refused with the option and the reason; the same for the
 * hypothetical RAID5/6 (--raid56-model): reconstruction from N-1 / N-2,
 * checked against real parity, RAID6 through a second failure, data lost
 * beyond.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "sim_test_util.h"

/* RAID1 on 3 devices of 64 zones of 4 MiB, device 1 failing after 40 MiB
 * of user writes, the drive model timing every command. */
static void fail_cfg(struct sim_cfg *c)
{
	sim_cfg_init(c);
	c->nr_devs = 3;
	c->zone_bytes = 4 << 20;
	c->nr_zones = 64;
	c->data_profile = c->meta_profile = FSC_RAID1;
	c->util = 0.5;
	c->writes = 20000;
	c->timing_model = "hc620";
	c->fail_dev = 1;
	c->fail_at_bytes = 40 << 20;
	c->max_events = 4000000;  /* a livelock ends as -ETIMEDOUT, never hangs */
}

static void test_sim_fail_rebuild_walks_exactly_the_allocated_space(void **state)
{
	static struct sim_result r;
	const struct sim_fail_result *x = &r.fail;
	struct sim_cfg c;

	(void)state;
	fail_cfg(&c);
	assert_int_equal(sim_run(&c, &r), 0);
	assert_true(x->failed && x->started && x->finished);
	assert_true(x->end_ns > x->start_ns);
	assert_true(x->alloc_bytes > 8u << 20);
	/* the new device holds exactly the failed device's allocated space
	 * (as the mirrors' write pointers show it at the end): no byte more */
	assert_int_equal(x->tgt_used_bytes, x->alloc_end_bytes);
	/* every allocated byte walked once: live ones copied, dead ones
	 * zero-filled; writes to copied block groups duplicated; a block group
	 * cleaning removed since resets its zone on the new device too */
	assert_true(x->walked_bytes >= x->alloc_bytes);
	assert_true(x->walked_bytes + x->dup_bytes >= x->tgt_used_bytes);
	assert_int_equal(x->copied_bytes + x->zero_bytes, x->walked_bytes);
	assert_int_equal(x->read_bytes, x->copied_bytes);  /* RAID1: one mirror read */
	assert_int_equal(x->tgt_write_bytes, x->copied_bytes + x->zero_bytes + x->dup_bytes);
	assert_int_equal(x->lost_blocks, 0);
	assert_true(x->verified);
	assert_int_equal(x->verify_ret, 0);
	assert_true(x->verify.nr_blocks > 0);
	assert_int_equal(x->verify.nr_bad, 0);
	/* the foreground went on: requests before and during the rebuild */
	assert_true(x->lat_before.n > 0 && x->lat_during.n > 0);
}

static void test_sim_fail_write_pointers_end_in_step_with_the_mirrors(void **state)
{
	static struct sim_result r;
	struct sim_cfg c;

	(void)state;
	fail_cfg(&c);
	c.data_profile = c.meta_profile = FSC_RAID10;
	c.nr_devs = 5;
	c.fail_dev = 2;
	assert_int_equal(sim_run(&c, &r), 0);
	assert_true(r.fail.finished);
	assert_int_equal(r.fail.tgt_used_bytes, r.fail.alloc_end_bytes);
	assert_true(r.fail.walked_bytes > r.fail.alloc_bytes);  /* degraded writes walked too */
	/* fsc_dev_verify(): every zone of the new device against its mirror's */
	assert_true(r.fail.verify.nr_blocks > 0);
	assert_int_equal(r.fail.verify.nr_wp_bad, 0);
	assert_int_equal(r.fail.verify.nr_bad, 0);
}

static void test_sim_fail_writes_during_the_copy_reach_the_new_device(void **state)
{
	static struct sim_result r;
	struct sim_cfg c;

	(void)state;
	fail_cfg(&c);
	c.store = SIM_STORE_MEM;  /* stamp blocks: the check compares contents */
	c.rb_prio = SIM_RB_SHARE;
	c.rb_share = 0.25;
	assert_int_equal(sim_run(&c, &r), 0);
	assert_true(r.fail.finished);
	/* writes to block groups already copied went to the new device too ... */
	assert_true(r.fail.dup_bytes > 0);
	/* ... and read back from it with their stamps, with everything copied */
	assert_true(r.fail.verify.stamps);
	assert_true(r.fail.verify.nr_blocks > 0);
	assert_int_equal(r.fail.verify.nr_bad, 0);
	assert_int_equal(r.fail.verify.nr_wp_bad, 0);
}

static void test_sim_fail_second_failure_on_raid1_loses_data_and_says_so(void **state)
{
	static struct sim_result r;
	struct sim_cfg c;
	char *json;

	(void)state;
	fail_cfg(&c);
	c.store = SIM_STORE_MEM;
	c.fail2_dev = 2;
	c.fail2_at_bytes = 8 << 20;
	json = run_json(&c, &r);
	assert_int_equal(r.error, FSC_E_DATA_LOST);
	assert_true(r.fail.fail2 && r.fail.fail2_ns > r.fail.start_ns);
	assert_true(r.fail.finished);
	assert_true(r.fail.lost_blocks > 0);
	assert_int_equal(r.fail.lost_bytes, r.fail.lost_blocks * 4096);
	/* the data check reads lost blocks back as bad, and nothing else: the
	 * foreground writes on while the rebuild runs (it takes the writer's
	 * wait for space as idle), so a block lost when the walk met it may be
	 * overwritten elsewhere before the check (fewer bad, never more) */
	assert_int_equal(r.fail.verify_ret, FSC_E_VERIFY);
	assert_true(r.fail.verify.nr_bad > 0);
	assert_true(r.fail.verify.nr_bad <= r.fail.lost_blocks);
	assert_non_null(strstr(json, "\"error\": \"data_lost\""));
	assert_non_null(strstr(json, "\"data_lost\": true"));
	assert_non_null(strstr(json, "\"result\": \"bad\""));
	free(json);
}

/* Idle priority while the foreground's writer waits for space: after the
 * second failure RAID1 has one device left and no room, so the writer
 * waits, committing again each time a commit ends, until the rebuild
 * brings the new device's zones.  That wait counts as idle for the
 * rebuild; before it did, neither moved (the run never ended).  The
 * watchdog turns a livelock into -ETIMEDOUT here. */
static void test_sim_fail_idle_rebuild_goes_on_while_the_writer_waits_for_space(void **state)
{
	static struct sim_result r;
	struct sim_cfg c;
	uint32_t depth;

	(void)state;
	for (depth = 1; depth <= 2; depth++) {
		fail_cfg(&c);
		c.fail2_dev = 2;
		c.fail2_at_bytes = 8 << 20;
		c.rb_depth = depth;
		assert_int_equal(c.rb_prio, SIM_RB_IDLE);
		assert_int_equal(sim_run(&c, &r), FSC_E_DATA_LOST);
		assert_int_equal(r.error, FSC_E_DATA_LOST);  /* not -ETIMEDOUT */
		assert_true(r.fail.finished && r.fail.nr_batches > 1);
		assert_true(r.nr_events < c.max_events);
	}
}

/* The watchdog itself: a bound on events ends the run with -ETIMEDOUT. */
static void test_sim_fail_event_watchdog_ends_the_run(void **state)
{
	static struct sim_result r;
	struct sim_cfg c;

	(void)state;
	fail_cfg(&c);
	c.max_events = 1000;
	assert_int_equal(sim_run(&c, &r), -ETIMEDOUT);
	assert_non_null(strstr(r.msg, "the run passed 1000 events"));
}

static void test_sim_fail_same_seed_gives_identical_json(void **state)
{
	static struct sim_result r;
	struct sim_cfg c;
	char *a, *b;

	(void)state;
	fail_cfg(&c);
	c.writes = 8000;
	a = run_json(&c, &r);
	b = run_json(&c, &r);
	assert_string_equal(a, b);
	assert_non_null(strstr(a, "\"rebuild\": { \"model\": \"fs-core\""));
	free(a);
	free(b);
	/* pipelined too (the batches' events at equal times), with foreground */
	c.rb_depth = 3;
	a = run_json(&c, &r);
	b = run_json(&c, &r);
	assert_string_equal(a, b);
	assert_non_null(strstr(a, "\"depth\": 3, \"batch_bytes\": 8388608"));
	free(a);
	free(b);
}

/* The copy pipelined (--rebuild-depth 2: the next batch's reads on the
 * mirror while this batch's writes stream to the new device) is strictly
 * faster than the kernel's one batch at a time on the same layout (the
 * failure at the last write: nothing of the foreground during the copy),
 * with the same bytes walked, copied, zero-filled and written, the write
 * pointers in step and the data check clean. */
static void test_sim_fail_pipelined_copy_is_faster_with_the_same_bytes(void **state)
{
	static struct sim_result r1, r2;
	const struct sim_fail_result *a = &r1.fail, *b = &r2.fail;
	struct sim_cfg c;

	(void)state;
	fail_cfg(&c);
	c.fail_at_bytes = 257622016;  /* the fill's last write (docs/REBUILD.md) */
	assert_int_equal(sim_run(&c, &r1), 0);
	c.rb_depth = 2;
	assert_int_equal(sim_run(&c, &r2), 0);
	assert_true(a->finished && b->finished);
	assert_int_equal(a->dup_bytes, 0);
	assert_true(b->end_ns - b->start_ns < a->end_ns - a->start_ns);
	assert_int_equal(b->walked_bytes, a->walked_bytes);
	assert_int_equal(b->copied_bytes, a->copied_bytes);
	assert_int_equal(b->zero_bytes, a->zero_bytes);
	assert_int_equal(b->read_bytes, a->read_bytes);
	assert_int_equal(b->tgt_write_bytes, a->tgt_write_bytes);
	assert_int_equal(b->nr_steps, a->nr_steps);
	assert_int_equal(b->tgt_used_bytes, b->alloc_end_bytes);
	assert_int_equal(b->tgt_used_bytes, a->tgt_used_bytes);
	assert_int_equal(b->verify_ret, 0);
	assert_int_equal(b->verify.nr_wp_bad, 0);
	assert_int_equal(b->verify.nr_bad, 0);
	assert_int_equal(b->verify.nr_blocks, a->verify.nr_blocks);
}

/* One bad value: refused, the message names @want. */
static void refused(void (*set)(struct sim_cfg *), const char *want)
{
	struct sim_cfg c;
	char msg[512] = "";

	fail_cfg(&c);
	set(&c);
	assert_int_equal(sim_cfg_check(&c, msg, sizeof(msg)), -EINVAL);
	if (!strstr(msg, want))
		fail_msg("message '%s' lacks '%s'", msg, want);
}

static void s_dev_out(struct sim_cfg *c) { c->fail_dev = 3; }
static void s_single(struct sim_cfg *c) { c->data_profile = FSC_SINGLE; }
static void s_meta(struct sim_cfg *c) { c->meta_profile = FSC_DUP; }
static void s_two(struct sim_cfg *c) { c->nr_devs = 2; c->util = 0.2; c->fail_dev = 0; }
static void s_full(struct sim_cfg *c) { c->util = 0.8; }
static void s_share0(struct sim_cfg *c) { c->rb_prio = SIM_RB_SHARE; c->rb_share = 0; }
static void s_share2(struct sim_cfg *c) { c->rb_prio = SIM_RB_SHARE; c->rb_share = 1.5; }
static void s_same2(struct sim_cfg *c) { c->fail2_dev = 1; }
static void s_out2(struct sim_cfg *c) { c->fail2_dev = 7; }
static void s_no1(struct sim_cfg *c) { c->fail_dev = SIM_NO_DEV; c->fail2_dev = 2; }
static void s_depth0(struct sim_cfg *c) { c->rb_depth = 0; }
static void s_depth17(struct sim_cfg *c) { c->rb_depth = 17; }

static void test_sim_fail_bad_values_are_refused_with_the_reason(void **state)
{
	(void)state;
	refused(s_dev_out, "--fail-dev 3: not a device of the array (0 to 2");
	refused(s_single, "--profile single: no copy on another device");
	refused(s_meta, "--meta-profile dup: metadata with no copy");
	refused(s_two, "cannot allocate a raid1 block group (it needs 2 present devices): "
		"give --devices 3");
	refused(s_full, "does not fit the array with one device missing");
	refused(s_share0, "--rebuild-prio share:0: ");
	refused(s_share2, "--rebuild-prio share:1.5: ");
	refused(s_same2, "--fail2-dev 1: the device of --fail-dev already failed");
	refused(s_out2, "--fail2-dev 7: not a device of the array");
	refused(s_no1, "--fail2-dev 2: needs --fail-dev");
	refused(s_depth0, "--rebuild-depth 0: 1 to 16 batches");
	refused(s_depth17, "--rebuild-depth 17: 1 to 16 batches");
}

/* ---- the hypothetical RAID5/6 (--raid56-model) ---- */

/* RAID5 on 4 / RAID6 on 5 devices of 64 zones of 4 MiB, data kept
 * (stamps and real parity), writes of one full stripe (3 x 64 KiB: every
 * write is padded to whole rows), 30% full, metadata RAID1.  (Cleaning a
 * RAID5/6 block group pads each relocated piece too: at 50% full, or with
 * the failure early, the run ends in EDEADLK; docs/REBUILD.md.) */
static void r56_cfg(struct sim_cfg *c, enum fsc_profile p)
{
	fail_cfg(c);
	c->raid56_model = true;
	c->data_profile = p;
	c->nr_devs = p == FSC_RAID6 ? 5 : 4;
	c->store = SIM_STORE_MEM;
	c->bio_blocks = 48;
	c->util = 0.3;
	c->fail_at_bytes = 200 << 20;  /* the fill counts: near the end */
	c->writes = 1200;
}

/* The rebuild reconstructs the failed device from the N-1 (N-2) others:
 * each survivor read for every byte rebuilt, the rebuilt bytes computed
 * from what was read, and the data check reads every live row's unit
 * back, data by stamp and P / Q against the parity of the row's data. */
static void r56_rebuilds(enum fsc_profile p)
{
	static struct sim_result r;
	const struct sim_fail_result *x = &r.fail;
	struct sim_cfg c;
	uint32_t np = p == FSC_RAID6 ? 2 : 1;

	r56_cfg(&c, p);
	assert_int_equal(sim_run(&c, &r), 0);
	assert_true(x->finished);
	assert_int_equal(x->lost_blocks, 0);
	assert_true(x->copied_bytes > 0);
	/* data: N - parity stripes read for each rebuilt byte (metadata:
	 * RAID1, one mirror read) */
	assert_true(x->read_bytes > (uint64_t)(c.nr_devs - np - 1) * x->r56_rebuilt_bytes);
	assert_true(x->r56_rebuilt_bytes > 0 && x->r56_rebuilt_bytes <= x->copied_bytes);
	assert_int_equal(x->tgt_used_bytes, x->alloc_end_bytes);
	assert_true(x->verify.stamps);
	assert_int_equal(x->verify_ret, 0);
	assert_true(x->verify.nr_r56_blocks > 0);
	assert_true(x->verify.nr_blocks > x->verify.nr_r56_blocks);
	assert_int_equal(x->verify.nr_bad, 0);
}

static void test_sim_fail_raid5_rebuild_reconstructs_and_checks(void **s)
{
	(void)s;
	r56_rebuilds(FSC_RAID5);
}

static void test_sim_fail_raid6_rebuild_reconstructs_and_checks(void **s)
{
	(void)s;
	r56_rebuilds(FSC_RAID6);
}

/* RAID6 survives a second failure during the rebuild (N-2 left: the
 * rebuild solves two unknowns per row); a third loses data, and RAID5's
 * second does: the run says so (error, counts, JSON). */
static void test_sim_fail_raid56_failures_beyond_parity_lose_data_and_say_so(void **state)
{
	static struct sim_result r;
	struct sim_cfg c;
	char *json;

	(void)state;
	r56_cfg(&c, FSC_RAID6);
	c.fail2_dev = 3;
	c.fail2_at_bytes = 4 << 20;
	json = run_json(&c, &r);
	assert_int_equal(r.error, 0);
	assert_true(r.fail.fail2 && r.fail.finished);
	assert_int_equal(r.fail.lost_blocks, 0);
	assert_true(r.fail.r56_rebuilt_bytes > 0);
	assert_int_equal(r.fail.verify_ret, 0);
	assert_non_null(strstr(json, "\"data_lost\": false"));
	free(json);

	c.fail3_dev = 0;
	json = run_json(&c, &r);
	assert_int_equal(r.error, FSC_E_DATA_LOST);
	assert_true(r.fail.lost_blocks > 0);
	assert_non_null(strstr(json, "\"error\": \"data_lost\""));
	assert_non_null(strstr(json, "\"dev3\": 0"));
	free(json);

	r56_cfg(&c, FSC_RAID5);
	c.fail2_dev = 3;
	c.fail2_at_bytes = 4 << 20;
	json = run_json(&c, &r);
	assert_int_equal(r.error, FSC_E_DATA_LOST);
	assert_true(r.fail.lost_blocks > 0);
	assert_int_equal(r.fail.lost_bytes, r.fail.lost_blocks * 4096);
	assert_non_null(strstr(json, "\"data_lost\": true"));
	free(json);
}

static void test_sim_fail_raid6_same_seed_gives_identical_json(void **state)
{
	static struct sim_result r;
	struct sim_cfg c;
	char *a, *b;

	(void)state;
	r56_cfg(&c, FSC_RAID6);
	c.writes = 600;
	a = run_json(&c, &r);
	b = run_json(&c, &r);
	assert_string_equal(a, b);
	assert_non_null(strstr(a, "\"data_profile\": \"raid6\""));
	assert_non_null(strstr(a, "\"raid56_model\": \"HYPOTHETICAL"));
	free(a);
	free(b);
}

static void s_r5_two(struct sim_cfg *c) { r56_cfg(c, FSC_RAID5); c->nr_devs = 2; c->fail_dev = 0; }
static void s_r6_three(struct sim_cfg *c) { r56_cfg(c, FSC_RAID6); c->nr_devs = 3; }
static void s_r5_three(struct sim_cfg *c) { r56_cfg(c, FSC_RAID5); c->nr_devs = 3; }
static void s_r5_off(struct sim_cfg *c) { r56_cfg(c, FSC_RAID5); c->raid56_model = false; }
static void s_r5_meta(struct sim_cfg *c) { r56_cfg(c, FSC_RAID5); c->meta_profile = FSC_RAID5; }
static void s_r56_raid1(struct sim_cfg *c) { c->raid56_model = true; }
static void s_fail3_alone(struct sim_cfg *c) { r56_cfg(c, FSC_RAID6); c->fail3_dev = 2; }
static void s_fail3_same(struct sim_cfg *c)
{
	r56_cfg(c, FSC_RAID6);
	c->fail2_dev = 2;
	c->fail3_dev = 2;
}

static void test_sim_fail_raid56_bad_values_are_refused_with_the_reason(void **state)
{
	(void)state;
	refused(s_r5_two, "--profile raid5 --devices 2: raid5 needs at least 3 devices");
	refused(s_r6_three, "--profile raid6 --devices 3: raid6 needs at least 4 devices");
	refused(s_r5_three, "cannot allocate a raid5 block group (it needs 3 present devices): "
		"give --devices 4");
	refused(s_r5_off, "--fail-dev --profile raid5: no copy on another device to rebuild "
		"from (raid1 or raid10; raid5 or raid6 with --raid56-model)");
	refused(s_r5_meta, "--raid56-model --meta-profile raid5: RAID5/6 is for data only");
	refused(s_r56_raid1, "--raid56-model --profile raid1: the hypothetical model is for data");
	refused(s_fail3_alone, "--fail3-dev 2: needs --fail2-dev");
	refused(s_fail3_same, "--fail3-dev 2: that device already failed");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sim_fail_rebuild_walks_exactly_the_allocated_space),
		cmocka_unit_test(test_sim_fail_write_pointers_end_in_step_with_the_mirrors),
		cmocka_unit_test(test_sim_fail_writes_during_the_copy_reach_the_new_device),
		cmocka_unit_test(test_sim_fail_second_failure_on_raid1_loses_data_and_says_so),
		cmocka_unit_test(test_sim_fail_pipelined_copy_is_faster_with_the_same_bytes),
		cmocka_unit_test(test_sim_fail_idle_rebuild_goes_on_while_the_writer_waits_for_space),
		cmocka_unit_test(test_sim_fail_event_watchdog_ends_the_run),
		cmocka_unit_test(test_sim_fail_same_seed_gives_identical_json),
		cmocka_unit_test(test_sim_fail_bad_values_are_refused_with_the_reason),
		cmocka_unit_test(test_sim_fail_raid5_rebuild_reconstructs_and_checks),
		cmocka_unit_test(test_sim_fail_raid6_rebuild_reconstructs_and_checks),
		cmocka_unit_test(test_sim_fail_raid56_failures_beyond_parity_lose_data_and_say_so),
		cmocka_unit_test(test_sim_fail_raid6_same_seed_gives_identical_json),
		cmocka_unit_test(test_sim_fail_raid56_bad_values_are_refused_with_the_reason),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
