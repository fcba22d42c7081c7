/*
 * test_tcmu_timed.c — handler_zonelab.so in timed mode, through the
 * in-process tcmu-runner stand-in (no VM, no runner): every command is
 * completed asynchronously (TCMU_STS_ASYNC_HANDLED, then
 * tcmur_cmd_complete() from the handler's timer thread) when the device
 * timing model says.  A QD1 random 4 KiB read series takes, command by
 * command, what a separate ztime with the same figures and the same submit
 * times gives: never earlier, and later only within a tolerance for the
 * timer's wake-up once the host's stalls (a probe thread's late wake-ups,
 * zl_test.h) are taken out; data and zone rules are unchanged (a write
 * reads back, a write off the write pointer fails with its sense); a bad
 * timing= is refused by check_config naming the key; the model a new image
 * was created with is kept in the image and applies on reopen without the
 * key, timing=off turns it off.
 *
 * Links ztime from libzonelab.a for the reference; the handler .so has its
 * own copy (only handler_init is exported).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <unistd.h>
#include <cmocka.h>

#include "tcmu_standin/standin.h"
#include "tcmu/zl_timed.h"
#include "ztime.h"
#include "zl_rng.h"
#include "zl_test.h"

#define DEV_BYTES (64ull << 20)     /* 64 MiB: 64 zones of 1 MiB */
#define ZONE_LBAS 2048ull
#define MS 1000000ull

struct fixture {
	char *dir;
	char cfg[512];
	struct sti_handler *h;
	struct sti_dev *d;
};

static char so_path[PATH_MAX];

static const char *zonelab_so(void)
{
	const char *p = getenv("ZL_HANDLER_SO");

	if (p)
		return p;
	zl_test_build_path("handler_zonelab.so", so_path, sizeof(so_path));
	return so_path;
}

static int open_cfg(struct fixture *f, const char *opts, char *msg, size_t len)
{
	struct sti_dev_cfg cfg = {
		.cfgstring = f->cfg, .size_bytes = DEV_BYTES, .block_size = 512,
	};

	snprintf(f->cfg, sizeof(f->cfg), "zonelab/%s/zl.img?%s", f->dir, opts);
	return sti_dev_open(f->h, &cfg, &f->d, msg, len);
}

static void reopen(struct fixture *f, const char *opts)
{
	char msg[512];

	sti_dev_close(f->d);
	f->d = NULL;
	if (open_cfg(f, opts, msg, sizeof(msg)))
		fail_msg("open %s: %s", opts, msg);
}

static int setup(void **state)
{
	struct fixture *f;
	char msg[256];

	*state = NULL;
	if (access(zonelab_so(), R_OK) != 0)
		return 0;
	f = calloc(1, sizeof(*f));
	assert_non_null(f);
	f->dir = zl_test_mkdtemp("tcmu-timed");
	assert_non_null(f->dir);
	/* timed mode needs the runner's work queue (handler_init reads this) */
	setenv("ZONELAB_TCMU_THREADS", "1", 1);
	if (sti_handler_load(zonelab_so(), &f->h, msg, sizeof(msg)))
		fail_msg("load: %s", msg);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	if (!f)
		return 0;
	sti_dev_close(f->d);
	sti_handler_unload(f->h);
	zl_test_rmdir(f->dir);
	free(f->dir);
	free(f);
	return 0;
}

#define NEED_ZL(f)								\
	do {									\
		if (!(f)) {							\
			print_message("skip: %s not available\n", zonelab_so());	\
			skip();							\
		}								\
	} while (0)

static uint8_t rw16(struct sti_dev *d, uint8_t op, uint64_t lba, uint32_t nr, void *buf,
		    struct sti_result *r)
{
	uint8_t cdb[16] = { op };

	zl_test_put_be(&cdb[2], lba, 8);
	zl_test_put_be(&cdb[10], nr, 4);
	return sti_exec(d, cdb, 16, buf, (size_t)nr * 512, r);
}

/* One 4 KiB read at @lba: how long it took (ns); *@sts what the handler returned. */
static uint64_t read4k(struct fixture *f, uint64_t lba, uint64_t *t0, int *sts)
{
	uint8_t buf[4096];
	struct sti_result r;

	*t0 = zl_timed_clock_ns();
	assert_int_equal(rw16(f->d, 0x88, lba, 8, buf, &r), 0);
	*sts = r.tcmu_sts;
	return zl_timed_clock_ns() - *t0;
}

static uint64_t timed_read(struct fixture *f, uint64_t lba, uint64_t *t0)
{
	int sts;
	uint64_t ns = read4k(f, lba, t0, &sts);

	assert_int_equal(sts, 0);                               /* TCMU_STS_OK, in the end */
	return ns;
}

/*
 * QD1 reads against the reference, in rounds of QD1_READS.  Never early is
 * hard, in every read of every round.  The upper bounds (a mean under 1.5x
 * the model, no read QD1_LATE_MAX late) catch a completion at the next
 * command or at twice the model's time; they judge the lateness the host
 * does not explain: a read's time less the stall the probe saw inside it.
 * A round that still fails them is retried (up to QD1_ROUNDS, the reason
 * printed) only if the probe saw the host stall in it; a quiet round that
 * fails them fails the test.
 */
#define QD1_READS 16
#define QD1_ROUNDS 5
#define QD1_LATE_MAX (100 * MS)

struct qd1_round {
	uint64_t sum_got, sum_want, sum_stall, stall_worst;
	int64_t worst, worst_early;   /* latest and earliest read against the model */
	int64_t worst_adj;            /* latest, less the stall inside the read */
};

static void qd1_round(struct fixture *f, struct ztime *ref, struct zl_rng *rng,
		      struct zl_test_probe *probe, struct qd1_round *r)
{
	memset(r, 0, sizeof(*r));
	r->worst = r->worst_adj = INT64_MIN;
	r->worst_early = INT64_MAX;
	for (int i = 0; i < QD1_READS; i++) {
		uint64_t lba = zl_rng_below(rng, DEV_BYTES / 4096) * 8, t0, got, want, stall;
		struct ztime_req rq = { .op = ZTIME_READ, .off_bytes = lba * 512, .len_bytes = 4096 };
		int64_t d;

		got = timed_read(f, lba, &t0);
		want = ztime_submit(ref, t0, &rq) - t0;
		stall = zl_test_probe_stalled_ns(probe, t0, t0 + got);
		d = (int64_t)got - (int64_t)want;
		if (d > r->worst)
			r->worst = d;
		if (d < r->worst_early)
			r->worst_early = d;
		if (d - (int64_t)stall > r->worst_adj)
			r->worst_adj = d - (int64_t)stall;
		r->sum_got += got;
		r->sum_want += want;
		r->sum_stall += stall;
		if (zl_test_probe_worst_ns(probe, t0, t0 + got) > r->stall_worst)
			r->stall_worst = zl_test_probe_worst_ns(probe, t0, t0 + got);
	}
}

/* The upper bounds on a round, on the time the host does not explain. */
static bool qd1_round_is_in_time(const struct qd1_round *r)
{
	return r->sum_got - r->sum_stall < r->sum_want + r->sum_want / 2 &&
	       r->worst_adj < (int64_t)QD1_LATE_MAX;
}

static void test_qd1_random_reads_take_the_models_time(void **state)
{
	struct fixture *f = *state;
	struct ztime_geo g = { ZONE_LBAS * 512, DEV_BYTES / (ZONE_LBAS * 512) };
	struct ztime_params p;
	struct ztime *ref = NULL;
	struct zl_test_probe *probe = NULL;
	struct qd1_round r;
	struct zl_rng rng;
	char msg[512];
	int round;

	NEED_ZL(f);
	if (open_cfg(f, "zsize=1M&conv=2&timing=hc620", msg, sizeof(msg)))
		fail_msg("open: %s", msg);
	assert_int_equal(ztime_parse("hc620", &p, msg, sizeof(msg)), 0);
	assert_int_equal(ztime_create(&p, &g, &ref, msg, sizeof(msg)), 0);
	assert_int_equal(zl_test_probe_start(&probe), 0);
	zl_rng_seed(&rng, 32);
	for (round = 1;; round++) {
		bool in_time;

		qd1_round(f, ref, &rng, probe, &r);
		in_time = qd1_round_is_in_time(&r);
		print_message("round %d: %d QD1 reads: model %.2f ms, measured %.2f ms mean; "
			      "worst late %.2f ms; host stalled %.2f ms (longest %.2f ms); "
			      "worst late less the stall %.2f ms%s\n", round, QD1_READS,
			      r.sum_want / (double)QD1_READS / MS, r.sum_got / (double)QD1_READS / MS,
			      r.worst / 1e6, r.sum_stall / 1e6, r.stall_worst / 1e6,
			      r.worst_adj / 1e6,
			      in_time ? "" : r.sum_stall ? ": late, the host stalled: again" :
			      ": late with no host stall");
		/* never early (but for the few us between our clock and the handler's) */
		if (r.worst_early <= -300000 || in_time || !r.sum_stall || round == QD1_ROUNDS)
			break;
	}
	zl_test_probe_stop(probe);
	ztime_destroy(ref);
	assert_true(r.worst_early > -300000);
	assert_true(r.sum_want / QD1_READS > 5 * MS);          /* an HDD, not a RAM disk */
	/* the timer's wake-up, less what the host's stalls explain: late by
	 * scheduling alone, well under 1 ms a read on a quiet machine; bounded
	 * tightly enough that completing at the next command or twice the
	 * model's time fails (a mean under 1.5x the model, no read 100 ms late) */
	assert_true(r.sum_got - r.sum_stall < r.sum_want + r.sum_want / 2);
	assert_true(r.worst_adj < (int64_t)QD1_LATE_MAX);
}

static void test_timed_data_and_zone_rules_unchanged(void **state)
{
	struct fixture *f = *state;
	uint8_t out[4096], in[4096];
	struct sti_result r;
	char msg[512];

	NEED_ZL(f);
	if (open_cfg(f, "zsize=1M&conv=2&timing=hc620/sched=sptf", msg, sizeof(msg)))
		fail_msg("open: %s", msg);
	memset(out, 0x5c, sizeof(out));
	assert_int_equal(rw16(f->d, 0x8a, 4 * ZONE_LBAS, 8, out, &r), 0);
	assert_int_equal(rw16(f->d, 0x88, 4 * ZONE_LBAS, 8, in, &r), 0);
	assert_memory_equal(in, out, sizeof(in));
	/* off the write pointer: CHECK CONDITION, ILLEGAL REQUEST / UNALIGNED WRITE COMMAND */
	assert_int_equal(rw16(f->d, 0x8a, 5 * ZONE_LBAS + 8, 8, out, &r), 2);
	assert_int_equal(sti_sense_key(&r), 0x05);
	assert_int_equal(sti_sense_asc_ascq(&r), 0x2104);
}

static void test_bad_timing_is_refused_naming_the_key(void **state)
{
	struct fixture *f = *state;
	char *reason = NULL;

	NEED_ZL(f);
	assert_false(sti_handler_check_config(f->h, "zonelab//x?timing=hc999", &reason));
	assert_non_null(reason);
	assert_non_null(strstr(reason, "key 'timing'"));
	assert_non_null(strstr(reason, "hc620"));              /* the presets listed */
	free(reason);
	assert_false(sti_handler_check_config(f->h, "zonelab//x?timing=hc620/rpm=fast", &reason));
	assert_non_null(strstr(reason, "rpm"));
	free(reason);
	assert_true(sti_handler_check_config(f->h, "zonelab//x?timing=zn540/prog=700us", &reason));
}

/*
 * Far reads: timed ones take a seek and a turn (never less: hard), untimed
 * ones microseconds, judged on the time the host does not explain (less
 * the stall the probe saw inside each read), in up to FAR_ROUNDS rounds
 * while the probe sees the host stall.  Means over FAR_READS reads.
 */
#define FAR_READS 4
#define FAR_ROUNDS 5

static uint64_t far_reads(struct fixture *f, struct zl_test_probe *probe, uint64_t *unexplained)
{
	uint64_t t0, ns, sum = 0, stall = 0;
	int sts;

	for (int i = 0; i < FAR_READS; i++) {
		ns = read4k(f, (i & 1) ? DEV_BYTES / 512 - 8 : 0, &t0, &sts);
		assert_int_equal(sts, 0);
		sum += ns;
		if (probe)
			stall += zl_test_probe_stalled_ns(probe, t0, t0 + ns);
	}
	if (unexplained)
		*unexplained = (sum - stall) / FAR_READS;
	return sum / FAR_READS;
}

static void expect_untimed(struct fixture *f)
{
	struct zl_test_probe *probe = NULL;
	uint64_t mean, unexplained;

	assert_int_equal(zl_test_probe_start(&probe), 0);
	for (int round = 1;; round++) {
		mean = far_reads(f, probe, &unexplained);
		if (unexplained < 3 * MS || mean == unexplained || round == FAR_ROUNDS)
			break;
		print_message("untimed far reads: %.2f ms mean, %.2f ms less the host's stalls "
			      "(round %d): again\n", mean / 1e6, unexplained / 1e6, round);
	}
	zl_test_probe_stop(probe);
	assert_true(unexplained < 3 * MS);
}

static void test_image_keeps_the_model_across_reopen(void **state)
{
	struct fixture *f = *state;
	char msg[512];

	NEED_ZL(f);
	/* a new image formatted by the handler keeps the model it was opened with */
	if (open_cfg(f, "zsize=1M&conv=2&timing=hc620", msg, sizeof(msg)))
		fail_msg("open: %s", msg);
	assert_true(far_reads(f, NULL, NULL) > 5 * MS);
	reopen(f, "zsize=1M&conv=2");
	assert_true(far_reads(f, NULL, NULL) > 5 * MS);
	reopen(f, "zsize=1M&conv=2&timing=off");
	expect_untimed(f);
}

/*
 * Without the work queue (nr_threads 0) tcmu-runner 1.5.4 gives a command
 * no completion callback, so a timed disk is refused, by check_config and
 * at open, saying how to start tcmu-runner; timing=off still opens.
 */
static void test_timing_without_work_queue_is_refused(void **state)
{
	struct fixture *f = *state;
	char msg[512], *reason = NULL;

	NEED_ZL(f);
	sti_handler_unload(f->h);
	f->h = NULL;
	setenv("ZONELAB_TCMU_THREADS", "0", 1);
	if (sti_handler_load(zonelab_so(), &f->h, msg, sizeof(msg)))
		fail_msg("load: %s", msg);
	assert_false(sti_handler_check_config(f->h, "zonelab//x?timing=hc620", &reason));
	assert_non_null(reason);
	assert_non_null(strstr(reason, "ZONELAB_TCMU_THREADS=N"));
	free(reason);
	assert_int_not_equal(open_cfg(f, "zsize=1M&conv=2&timing=hc620", msg, sizeof(msg)), 0);
	assert_non_null(strstr(msg, "a timed disk needs tcmu-runner's work queue"));
	if (open_cfg(f, "zsize=1M&conv=2&timing=off", msg, sizeof(msg)))
		fail_msg("timing=off without a work queue: %s", msg);
	setenv("ZONELAB_TCMU_THREADS", "1", 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_qd1_random_reads_take_the_models_time, setup, teardown),
		cmocka_unit_test_setup_teardown(test_timed_data_and_zone_rules_unchanged, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_timing_is_refused_naming_the_key, setup, teardown),
		cmocka_unit_test_setup_teardown(test_image_keeps_the_model_across_reopen, setup, teardown),
		cmocka_unit_test_setup_teardown(test_timing_without_work_queue_is_refused, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
