/*
 * test_sim_replay.c — the simulator replaying a trace (--trace): the
 * generator's own records replayed give the same run, timed replay shows
 * queueing that a closed loop does not, reads after cleaning cost device
 * time and show in read latency, discards lower live data, loops measure
 * the last pass, flushes wait for a commit and zone ops are ignored, the
 * zone count derived from the footprint, bad replay options refused with
 * the option named, a trace file equals its records in memory, and the
 * read-ahead and prefetch change nothing.  Split from test_sim.c, whose
 * fixtures it shares (sim_test_util.h).
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

#define B4K 4096ULL

static struct trc_rec wrec(uint8_t op, uint64_t block, uint64_t nr_blocks, uint64_t ts_ns)
{
	struct trc_rec r;

	memset(&r, 0, sizeof(r));
	r.op = op;
	r.offset_bytes = block * B4K;
	r.len_bytes = nr_blocks * B4K;
	r.ts_ns = ts_ns;
	return r;
}

/* A replay configuration over @ai: zones derived, data only, closed qd 32. */
static void replay_cfg(struct sim_cfg *c, struct trc_array_input *ai, const struct trc_rec *recs,
		       size_t nr)
{
	small_cfg(c);
	trc_array_input_init(ai, recs, nr, "mem-trace");
	c->trace = &ai->in;
	c->nr_zones = 0;
	c->zone_bytes = 256 * B4K;
	c->metadata = false;
	c->sample_ns = 0;  /* virtual time ends with the last request */
}

/* @n records: a fill of @file_blocks blocks, then uniform 4 KiB overwrites
 * (seeded), @gap_ns apart. */
static struct trc_rec *fill_then_uniform(uint64_t file_blocks, size_t n, uint64_t gap_ns)
{
	struct trc_rec *v = calloc(n, sizeof(*v));
	struct zl_rng rng;
	size_t i;

	assert_non_null(v);
	zl_rng_seed(&rng, 99);
	for (i = 0; i < n; i++)
		v[i] = wrec(TRC_OP_WRITE, i < file_blocks ? i : zl_rng_below(&rng, file_blocks), 1,
			    i * gap_ns);
	return v;
}

static void test_sim_replay_of_the_generators_records_is_the_same_run(void **state)
{
	static struct sim_result gen, rep;
	struct trc_array_input ai;
	struct trc_gen_cfg g;
	struct trc_source *src;
	struct trc_rec *recs;
	struct sim_cfg c;
	size_t n, i;

	small_cfg(&c);
	c.nr_zones = 64;
	c.writes = 30000;
	assert_int_equal(sim_run(&c, &gen), 0);
	n = gen.file_blocks + c.writes;
	memset(&g, 0, sizeof(g));
	g.kind = TRC_GEN_UNIFORM;
	g.seed = c.seed;
	g.file_bytes = gen.file_blocks * B4K;
	g.req_bytes = B4K;
	g.nr_fill = gen.file_blocks;
	g.nr_reqs = n;
	assert_int_equal(trc_gen_create(&g, &src), 0);
	recs = calloc(n, sizeof(*recs));
	assert_non_null(recs);
	for (i = 0; i < n; i++)
		assert_int_equal(trc_source_next(src, &recs[i]), 1);
	trc_source_destroy(src);
	/* the same file (direct, --file-size), zones and seed: the same run */
	trc_array_input_init(&ai, recs, n, "gen");
	c.trace = &ai.in;
	c.map = TRC_MAP_DIRECT;
	c.file_bytes = gen.file_blocks * B4K;
	assert_int_equal(sim_run(&c, &rep), 0);
	assert_int_equal(rep.file_blocks, gen.file_blocks);
	assert_int_equal(rep.t_end_ns, gen.t_end_ns);
	assert_int_equal(rep.nr_bios, gen.nr_bios);
	assert_int_equal(rep.dev_write_bytes, gen.dev_write_bytes);
	assert_int_equal(rep.nr_relocations, gen.nr_relocations);
	assert_int_equal(rep.nr_commits, gen.nr_commits);
	assert_int_equal(rep.req_nr[TRC_OP_WRITE], n);  /* one loop: all measured */
	assert_int_equal(rep.trace.fp_blocks, gen.file_blocks);
	free(recs);
}

static void test_sim_replay_timed_shows_queueing_that_closed_qd1_does_not(void **state)
{
	static struct sim_result closed, timed, spread, fast;
	struct trc_array_input ai;
	struct trc_rec recs[600];
	struct sim_cfg c;
	char *a, *b;
	size_t i;

	/* 1000-block fill at ts 0, then bursts of 64 reads of stored blocks */
	for (i = 0; i < 600; i++)
		recs[i] = i < 200 ? wrec(TRC_OP_WRITE, i * 5, 5, 0) :
			  wrec(TRC_OP_READ, (i * 37) % 1000, 1, 100000000 + (i - 200) / 64 * 50000000);
	replay_cfg(&c, &ai, recs, 600);
	c.qd = 1;
	assert_int_equal(sim_run(&c, &closed), 0);
	c.timing = SIM_TIMING_TIMED;
	c.qd = 0;  /* no limit */
	assert_int_equal(sim_run(&c, &timed), 0);
	assert_int_equal(timed.req_nr[TRC_OP_READ], 400);
	assert_int_equal(timed.nr_user_reads, 400);
	/* closed at qd 1: each read alone on the device; timed: 64 at once */
	assert_true(ana_hist_quantile(&closed.req_lat[TRC_OP_READ], 0.99) < 2 * (20000 + 20000));
	assert_true(ana_hist_quantile(&timed.req_lat[TRC_OP_READ], 0.99) >
		    10 * ana_hist_quantile(&closed.req_lat[TRC_OP_READ], 0.99));
	/* the run follows the trace's clock: the last burst at 100 ms + 6 x 50 ms */
	assert_true(timed.t_end_ns >= 400000000);
	assert_true(closed.t_end_ns < 100000000);
	/* spread out (one read per 5 ms): no queueing left */
	for (i = 200; i < 600; i++)
		recs[i].ts_ns = 100000000 + (i - 200) * 5000000;
	assert_int_equal(sim_run(&c, &spread), 0);
	assert_true(ana_hist_quantile(&spread.req_lat[TRC_OP_READ], 0.99) <
		    2 * ana_hist_quantile(&closed.req_lat[TRC_OP_READ], 0.99));
	c.speed = 2;
	assert_int_equal(sim_run(&c, &fast), 0);
	assert_true(fast.t_end_ns < spread.t_end_ns / 2 + 10000000);
	assert_true(fast.t_end_ns > spread.t_end_ns / 2 - 10000000);
	/* deterministic */
	a = run_json(&c, &fast);
	b = run_json(&c, &spread);
	assert_string_equal(a, b);
	assert_non_null(strstr(a, "\"timing\": \"timed\", \"speed\": 2"));
	free(a);
	free(b);
}

static void test_sim_replay_reads_after_cleaning_cost_device_time(void **state)
{
	static struct sim_result r, holes;
	struct trc_array_input ai;
	struct sim_cfg c;
	const uint64_t file = 3000;
	size_t n = 3000 + 20000 + 3000, i;
	struct trc_rec *recs = fill_then_uniform(file, n, 0);

	for (i = n - file; i < n; i++)  /* then read every block */
		recs[i] = wrec(TRC_OP_READ, i - (n - file), 1, 0);
	replay_cfg(&c, &ai, recs, n);
	c.util = 0.85;
	assert_int_equal(sim_run(&c, &r), 0);
	assert_true(r.nr_relocations > 0);  /* blocks moved before they were read */
	assert_int_equal(r.nr_user_reads + r.read_blocks_pending, file);
	assert_true(r.nr_user_reads > file * 9 / 10);
	assert_int_equal(r.read_blocks_hole, 0);
	assert_int_equal(r.user_read_bytes, r.nr_user_reads * B4K);
	assert_true(r.dev_read_bytes >= r.user_read_bytes + r.dev_bytes[FSC_KIND_RELOC]);
	/* a device read: command overhead plus 4 KiB at 200 MiB/s at least */
	assert_true(ana_hist_quantile(&r.req_lat[TRC_OP_READ], 0.5) >= 20000 + 19531);
	/* blocks never written cost no device read */
	for (i = 0; i < file; i++)
		recs[i] = wrec(i % 2 ? TRC_OP_READ : TRC_OP_WRITE, i, 1, 0);
	recs[file - 1] = wrec(TRC_OP_READ, file + 10, 1, 0);
	trc_array_input_init(&ai, recs, file, "holes");
	assert_int_equal(sim_run(&c, &holes), 0);
	assert_int_equal(holes.nr_user_reads + holes.read_blocks_pending, 0);
	assert_int_equal(holes.read_blocks_hole, file / 2);
	assert_int_equal(ana_hist_quantile(&holes.req_lat[TRC_OP_READ], 0.99), 0);
	free(recs);
}

static void test_sim_replay_cleaning_shows_in_read_latency(void **state)
{
	static struct sim_result lo, hi;
	struct trc_array_input ai;
	struct sim_cfg c;
	const uint64_t file = 4000;
	size_t n = 4000 + 60000, i;
	struct trc_rec *recs = fill_then_uniform(file, n, 0);
	struct zl_rng rng;

	zl_rng_seed(&rng, 5);
	for (i = file; i < n; i++) {  /* a write and a read every 100 us */
		recs[i].ts_ns = 1000000000 + (i - file) / 2 * 100000;
		if (i % 2)
			recs[i] = wrec(TRC_OP_READ, zl_rng_below(&rng, file), 1, recs[i].ts_ns);
	}
	replay_cfg(&c, &ai, recs, n);
	c.timing = SIM_TIMING_TIMED;
	c.util = 0.5;
	assert_int_equal(sim_run(&c, &lo), 0);
	c.util = 0.9;
	assert_int_equal(sim_run(&c, &hi), 0);
	assert_true(hi.dev_bytes[FSC_KIND_RELOC] > 2 * lo.dev_bytes[FSC_KIND_RELOC]);
	assert_true(hi.req_lat[TRC_OP_READ].sum > lo.req_lat[TRC_OP_READ].sum);
	assert_true(ana_hist_quantile(&hi.req_lat[TRC_OP_READ], 0.99) >
		    ana_hist_quantile(&lo.req_lat[TRC_OP_READ], 0.99));
	free(recs);
}

static void test_sim_replay_discard_lowers_live_data_and_wa(void **state)
{
	static struct sim_result with, without;
	struct trc_array_input ai;
	struct sim_cfg c;
	const uint64_t file = 4000, cold = 1600;
	size_t n = 4000 + 1 + 40000, i;
	struct trc_rec *recs = fill_then_uniform(file, n, 0);
	struct zl_rng rng;

	/* the first 40% is discarded once, then only the rest is overwritten */
	recs[file] = wrec(TRC_OP_DISCARD, 0, cold, 0);
	zl_rng_seed(&rng, 3);
	for (i = file + 1; i < n; i++)
		recs[i] = wrec(TRC_OP_WRITE, cold + zl_rng_below(&rng, file - cold), 1, 0);
	replay_cfg(&c, &ai, recs, n);
	c.util = 0.8;
	c.clean = FSC_CLEAN_GREEDY;
	assert_int_equal(sim_run(&c, &with), 0);
	assert_int_equal(with.discarded_blocks, cold);
	recs[file] = wrec(TRC_OP_FLUSH, 0, 0, 0);  /* the same trace without the discard */
	assert_int_equal(sim_run(&c, &without), 0);
	assert_int_equal(without.discarded_blocks, 0);
	assert_int_equal(with.file_blocks, without.file_blocks);
	assert_true(with.wa_data < without.wa_data);
	assert_true(with.dev_bytes[FSC_KIND_RELOC] < without.dev_bytes[FSC_KIND_RELOC] / 2);
	free(recs);
}

static void test_sim_replay_loops_measure_the_last_pass(void **state)
{
	static struct sim_result r;
	struct trc_array_input ai;
	struct sim_cfg c;
	size_t n = 2000 + 5000;
	struct trc_rec *recs = fill_then_uniform(2000, n, 1000);
	char *json;

	replay_cfg(&c, &ai, recs, n);
	c.loops = 3;
	json = run_json(&c, &r);
	assert_int_equal(r.error, 0);
	assert_int_equal(r.loops_warmup, 2);
	assert_int_equal(r.req_nr[TRC_OP_WRITE], n);  /* the last pass only */
	assert_int_equal(r.req_bytes[TRC_OP_WRITE], n * B4K);
	assert_int_equal(r.user_bytes, n * B4K);
	assert_int_equal(r.nr_user_bios, 3 * n);        /* whole run */
	assert_int_equal(r.req_lat[TRC_OP_WRITE].n, n);
	assert_int_equal(r.trace.nr_recs, n);
	assert_non_null(strstr(json, "\"loops\": 3, \"warmup_loops\": 2, \"measured_loops\": 1"));
	assert_non_null(strstr(json, "\"write\": { \"count\": 7000, \"bytes\": 28672000"));
	free(json);
	free(recs);
}

static void test_sim_replay_flush_waits_for_a_commit_and_zone_ops_are_ignored(void **state)
{
	static struct sim_result meta, nometa;
	struct trc_array_input ai;
	struct trc_rec recs[1000];
	struct sim_cfg c;
	size_t i;

	for (i = 0; i < 1000; i++)
		recs[i] = i % 100 == 99 ? wrec(TRC_OP_FLUSH, 0, 0, 0) :
			  i == 500 ? wrec(TRC_OP_ZONE_RESET, 0, 256, 0) :
			  wrec(TRC_OP_WRITE, i, 1, 0);
	replay_cfg(&c, &ai, recs, 1000);
	c.metadata = true;
	assert_int_equal(sim_run(&c, &meta), 0);
	assert_int_equal(meta.req_nr[TRC_OP_FLUSH], 10);
	assert_int_equal(meta.nr_flush_commits, 10);
	assert_true(meta.nr_commits >= 10);
	assert_true(ana_hist_quantile(&meta.req_lat[TRC_OP_FLUSH], 0.5) > 0);
	assert_int_equal(meta.nr_ignored, 1);
	assert_int_equal(meta.req_nr[TRC_OP_ZONE_RESET], 1);
	c.metadata = false;
	assert_int_equal(sim_run(&c, &nometa), 0);
	assert_int_equal(nometa.nr_flush_commits, 0);
	assert_int_equal(ana_hist_quantile(&nometa.req_lat[TRC_OP_FLUSH], 0.99), 0);
	assert_int_equal(nometa.req_lat[TRC_OP_FLUSH].n, 10);
}

static void test_sim_replay_derives_zones_from_footprint_and_util(void **state)
{
	static struct sim_result r;
	struct trc_array_input ai;
	struct sim_cfg c;
	size_t n = 10000;
	struct trc_rec *recs = fill_then_uniform(5000, n, 0);
	char msg[256];

	replay_cfg(&c, &ai, recs, n);
	c.util = 0.6;
	assert_int_equal(sim_run(&c, &r), 0);
	assert_int_equal(r.file_blocks, 5000);
	assert_true(r.nr_zones > 20);
	assert_true(r.util_effective <= 0.6 && r.util_effective > 0.55);
	/* --zones given: the footprint must fit */
	c.nr_zones = 16;
	assert_int_equal(sim_run(&c, &r), -EINVAL);
	assert_non_null(strstr(r.msg, "does not fit in --zones 16"));
	/* --file-size below the footprint */
	c.nr_zones = 0;
	c.file_bytes = 4000 * B4K;
	assert_int_equal(sim_run(&c, &r), -EINVAL);
	assert_non_null(strstr(r.msg, "--file-size 16384000: the trace needs a file of 20480000"));
	/* scale: the file from --file-size, the footprint is not the limit */
	c.map = TRC_MAP_SCALE;
	assert_int_equal(sim_run(&c, &r), 0);
	assert_int_equal(r.file_blocks, 4000);
	c.file_bytes = 0;
	assert_int_equal(sim_cfg_check(&c, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "--map scale: the file's size comes from --file-size"));
	/* a tiny trace still gets a zone for data (the room check's minimum) */
	replay_cfg(&c, &ai, recs, 8);
	c.util = 0.5;
	assert_int_equal(sim_run(&c, &r), 0);
	assert_int_equal(r.file_blocks, 8);
	free(recs);
}

static void test_sim_replay_bad_options_are_refused_with_the_option_named(void **state)
{
	static struct sim_result r;
	struct trc_array_input ai;
	struct trc_rec recs[2] = { wrec(TRC_OP_WRITE, 0, 1, 0), wrec(TRC_OP_FLUSH, 0, 0, 1) };
	struct sim_cfg c;
	char msg[256];

	small_cfg(&c);
	c.timing = SIM_TIMING_TIMED;
	assert_int_equal(sim_cfg_check(&c, msg, sizeof(msg)), -EINVAL);
	assert_string_equal(msg, "--timing timed: needs --trace (the generators have no arrival "
			    "times)");
	small_cfg(&c);
	c.loops = 2;
	assert_int_equal(sim_cfg_check(&c, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "--loops 2: needs --trace"));
	replay_cfg(&c, &ai, recs, 2);
	c.loops = 0;
	assert_int_equal(sim_cfg_check(&c, msg, sizeof(msg)), -EINVAL);
	assert_string_equal(msg, "--loops 0: at least 1 pass over the trace");
	replay_cfg(&c, &ai, recs, 2);
	c.timing = SIM_TIMING_TIMED;
	c.speed = 0;
	assert_int_equal(sim_cfg_check(&c, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "--speed 0: above 0"));
	c.speed = NAN;
	assert_int_equal(sim_cfg_check(&c, msg, sizeof(msg)), -EINVAL);
	replay_cfg(&c, &ai, recs, 2);
	c.qd = 0;
	assert_int_equal(sim_cfg_check(&c, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "--qd 0: a closed loop needs"));
	c.timing = SIM_TIMING_TIMED;
	assert_int_equal(sim_cfg_check(&c, msg, sizeof(msg)), 0);  /* no limit */
	replay_cfg(&c, &ai, recs, 2);
	c.file_bytes = 5000;
	assert_int_equal(sim_cfg_check(&c, msg, sizeof(msg)), -EINVAL);
	assert_string_equal(msg, "--file-size 5000: a multiple of 4 KiB");
	replay_cfg(&c, &ai, recs, 2);
	c.map = (enum trc_map_mode)9;
	assert_int_equal(sim_cfg_check(&c, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "--map 9: not a known value"));
	/* a trace with nothing to read or write */
	replay_cfg(&c, &ai, recs + 1, 1);
	assert_int_equal(sim_run(&c, &r), -EINVAL);
	assert_string_equal(r.msg, "mem-trace: nothing to replay: 1 records, none reads, writes "
			    "or discards a byte");
	assert_int_equal(r.nr_events, 0);
}

static void test_sim_replay_of_a_trace_file_equals_its_records_in_memory(void **state)
{
	static struct sim_result from_file, from_mem;
	struct trc_file_input fi;
	struct trc_array_input ai;
	struct trc_rec recs[400];
	char path[] = "/tmp/zl_test_sim_XXXXXX";
	struct sim_cfg c;
	FILE *f;
	int fd, i;

	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fprintf(f, "fio version 3 iolog\n1 /f add\n2 /f open\n");
	for (i = 0; i < 400; i++) {  /* v3: microseconds */
		recs[i] = wrec(i % 3 == 2 ? TRC_OP_READ : TRC_OP_WRITE, (uint64_t)(i * 7) % 300, 2,
			       (uint64_t)(10 + i) * 1000);
		fprintf(f, "%d /f %s %llu %llu\n", 10 + i, i % 3 == 2 ? "read" : "write",
			(unsigned long long)recs[i].offset_bytes,
			(unsigned long long)recs[i].len_bytes);
	}
	fprintf(f, "500 /f close\n");
	assert_int_equal(fclose(f), 0);
	replay_cfg(&c, &ai, recs, 400);
	c.timing = SIM_TIMING_TIMED;
	assert_int_equal(sim_run(&c, &from_mem), 0);
	trc_file_input_init(&fi, path, NULL);
	c.trace = &fi.in;
	assert_int_equal(sim_run(&c, &from_file), 0);
	unlink(path);
	assert_int_equal(from_file.trace.nr_recs, 400);
	/* trace stat's descriptors beside the map's own counts */
	assert_int_equal(from_file.trace_stat.nr_recs, 400);
	assert_int_equal(from_file.trace_stat.fp_touched_bytes, from_file.trace.fp_blocks * B4K);
	assert_int_equal(from_file.trace_stat.nr_ops[TRC_OP_READ], from_file.trace.nr_ops[TRC_OP_READ]);
	assert_int_equal(from_file.t_end_ns, from_mem.t_end_ns);
	assert_int_equal(from_file.nr_bios, from_mem.nr_bios);
	assert_int_equal(from_file.nr_user_reads, from_mem.nr_user_reads);
	assert_int_equal(from_file.req_lat[TRC_OP_WRITE].sum, from_mem.req_lat[TRC_OP_WRITE].sum);
	assert_true(from_file.nr_user_reads > 0);
	/* a file that is not there: refused before the run, named */
	trc_file_input_init(&fi, "/nonexistent/t.log", NULL);
	assert_true(sim_run(&c, &from_file) < 0);
	assert_non_null(strstr(from_file.msg, "/nonexistent/t.log"));
	assert_int_equal(from_file.nr_events, 0);
}

/* The read-ahead only warms caches: with it off, every run is the same
 * (generators, placement, a replay with reads, discards and flushes; a
 * trace that ends in a malformed record is refused with the same message). */
static void test_sim_readahead_and_prefetch_change_nothing(void **state)
{
	static struct sim_result r1, r2;
	struct trc_file_input fi;
	struct sim_cfg c;
	char path[] = "/tmp/zl_test_sim_XXXXXX", *a, *b;
	FILE *f;
	int fd, i, k;

	for (k = 0; k < 3; k++) {
		small_cfg(&c);
		if (k == 1) {
			c.workload = SIM_WL_HOTCOLD;
			c.place = FSC_PLACE_HINT;
			c.clean = FSC_CLEAN_GREEDY;
		} else if (k == 2) {
			c.metadata = false;
			c.clean = FSC_CLEAN_COST_BENEFIT;
		}
		a = run_json(&c, &r1);
		c.no_prefetch = true;
		b = run_json(&c, &r2);
		assert_int_equal(r1.error, 0);
		assert_true(r1.nr_relocations > 0);
		assert_string_equal(a, b);
		free(a);
		free(b);
	}
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fprintf(f, "fio version 3 iolog\n1 /f add\n2 /f open\n");
	for (i = 0; i < 3000; i++)
		fprintf(f, "%d /f %s %d 8192\n", 10 + i,
			i % 5 == 4 ? "read" : i % 11 == 10 ? "trim" : i % 97 == 0 ? "sync" : "write",
			(i * 7919 % 2000) * 4096);
	assert_int_equal(fclose(f), 0);
	trc_file_input_init(&fi, path, NULL);
	small_cfg(&c);
	c.trace = &fi.in;
	c.nr_zones = 0;
	a = run_json(&c, &r1);
	c.no_prefetch = true;
	b = run_json(&c, &r2);
	assert_int_equal(r1.error, 0);
	assert_true(r1.nr_user_reads > 0 && r1.discarded_blocks > 0);
	assert_string_equal(a, b);
	free(a);
	free(b);
	/* a malformed last record: refused the same way, named */
	f = fopen(path, "a");
	assert_non_null(f);
	fprintf(f, "9000 /f write 4096\n");  /* two fields */
	assert_int_equal(fclose(f), 0);
	assert_true(sim_run(&c, &r2) < 0);
	c.no_prefetch = false;
	assert_true(sim_run(&c, &r1) < 0);
	unlink(path);
	assert_non_null(strstr(r1.msg, path));
	assert_string_equal(r1.msg, r2.msg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sim_replay_of_the_generators_records_is_the_same_run),
		cmocka_unit_test(test_sim_replay_timed_shows_queueing_that_closed_qd1_does_not),
		cmocka_unit_test(test_sim_replay_reads_after_cleaning_cost_device_time),
		cmocka_unit_test(test_sim_replay_cleaning_shows_in_read_latency),
		cmocka_unit_test(test_sim_replay_discard_lowers_live_data_and_wa),
		cmocka_unit_test(test_sim_replay_loops_measure_the_last_pass),
		cmocka_unit_test(test_sim_replay_flush_waits_for_a_commit_and_zone_ops_are_ignored),
		cmocka_unit_test(test_sim_replay_derives_zones_from_footprint_and_util),
		cmocka_unit_test(test_sim_replay_bad_options_are_refused_with_the_option_named),
		cmocka_unit_test(test_sim_replay_of_a_trace_file_equals_its_records_in_memory),
		cmocka_unit_test(test_sim_readahead_and_prefetch_change_nothing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
