/*
 * bench_trace.c — reading speed of the trace readers and the memory of
 * `zonelab trace stat`, as ratios against baselines run in the same
 * invocation on the same files:
 *   - trace stat on a 10 M-record MSR CSV vs awk -F, '{ s += $6 } ...' (>= 5x);
 *   - trace stat on blktrace binary (two per-CPU files, Q/D/C of 3.4 M
 *     requests = 10 M events) vs blkparse -i F -o /dev/null (>= 3x);
 *   - the native format vs the CSV: reading in process, the records in
 *     batches (trc_reader_batch, what trace stat and the simulator use;
 *     >= 10x) and one at a time (trc_reader_next), and trace stat;
 *   - peak RSS of trace stat on 10 M records (< 64 MiB), from wait4().
 * The files are generated here, deterministically (splitmix64, seed 1), in
 * the scratch directory given as argv[1], and removed at the end.  Each
 * measure warms the page cache with one untimed run, then takes the best
 * of several; a ratio's two sides alternate round by round (awk and trace
 * stat: 3 rounds; reading CSV and native: 5), so both see the machine in
 * the same state.
 * Wall clock here only.  Run by `make bench`; needs awk and blkparse
 * (a missing one is reported and its ratio skipped).  BENCH_TRACE_GEN_ONLY=1
 * only writes the MSR CSV and its native conversion into the directory and
 * keeps them (the files docs/TRACES.md times the commands on).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "trc.h"
#include "zl_test.h"

static uint64_t NR_RECS = 10000000ull;   /* BENCH_TRACE_RECS overrides (quick runs) */
#define VOL_BYTES (64ull << 30)

static char zonelab[4096];

/* One synthetic request: 60% writes, runs of sequential requests, sizes
 * 4K-64K, a hot 10% of the volume getting half the accesses. */
static void gen(uint64_t *st, uint64_t *next_off, uint64_t *off, uint64_t *len, bool *wr)
{
	uint64_t r = zl_test_rand(st);

	*len = 4096ull << (r % 5);
	*wr = (r >> 8) % 10 < 6;
	if ((r >> 16) % 10 < 3) {
		*off = *next_off;
	} else if ((r >> 24) % 2) {
		*off = (zl_test_rand(st) % (VOL_BYTES / 10)) & ~4095ull;
	} else {
		*off = (zl_test_rand(st) % VOL_BYTES) & ~4095ull;
	}
	if (*off + *len > VOL_BYTES)
		*off = 0;
	*next_off = *off + *len;
}

static int make_csv(const char *path)
{
	uint64_t st = 1, next = 0, ft = 128166036000000000ull;
	FILE *f = fopen(path, "w");
	static char buf[1 << 20];

	if (!f)
		return -1;
	setvbuf(f, buf, _IOFBF, sizeof(buf));
	for (uint64_t i = 0; i < NR_RECS; i++) {
		uint64_t off, len;
		bool wr;

		gen(&st, &next, &off, &len, &wr);
		ft += 1 + zl_test_rand(&st) % 2000;
		fprintf(f, "%" PRIu64 ",hm,%d,%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", ft, (int)(i / 4096 % 2),
			wr ? "Write" : "Read", off, len, 500 + ft % 5000);
	}
	return fclose(f);
}

static void put_ev(FILE *f, uint32_t seq, uint64_t t, uint64_t sector, uint32_t bytes, uint32_t action,
		   uint32_t pid, uint32_t cpu)
{
	uint8_t b[48];
	uint32_t magic = 0x65617407, dev = 8u << 20 | 16, zero = 0;

	memcpy(b, &magic, 4);
	memcpy(b + 4, &seq, 4);
	memcpy(b + 8, &t, 8);
	memcpy(b + 16, &sector, 8);
	memcpy(b + 24, &bytes, 4);
	memcpy(b + 28, &action, 4);
	memcpy(b + 32, &pid, 4);
	memcpy(b + 36, &dev, 4);
	memcpy(b + 40, &cpu, 4);
	memcpy(b + 44, &zero, 4);
	fwrite(b, 1, 48, f);
}

/* Q, D, C per request, alternating CPUs per request (times increase per file). */
static int make_blktrace(const char *dir)
{
	uint64_t st = 1, next = 0, t = 1000;
	uint32_t seq[2] = { 0, 0 };
	FILE *f[2];
	char p[4096];

	for (int c = 0; c < 2; c++) {
		snprintf(p, sizeof(p), "%s/bench.blktrace.%d", dir, c);
		f[c] = fopen(p, "w");
		if (!f[c])
			return -1;
	}
	for (uint64_t i = 0; i < NR_RECS / 3 + 1; i++) {
		uint64_t off, len;
		bool wr;
		int c = (int)(i % 2);
		uint32_t cat;

		gen(&st, &next, &off, &len, &wr);
		cat = (1u << 8) | (wr ? (1u << 1) : (1u << 0));
		t += 1 + zl_test_rand(&st) % 2000;
		put_ev(f[c], ++seq[c], t, off / 512, (uint32_t)len, 1 | (cat | 1u << 4) << 16, 1234, (uint32_t)c);
		put_ev(f[c], ++seq[c], t + 1, off / 512, (uint32_t)len, 7 | (cat | 1u << 6) << 16, 1234, (uint32_t)c);
		put_ev(f[c], ++seq[c], t + 2, off / 512, (uint32_t)len, 8 | (cat | 1u << 7) << 16, 0, (uint32_t)c);
	}
	return fclose(f[0]) | fclose(f[1]);
}

/* Run @argv once with stdout to /dev/null: wall ns, peak RSS in KiB;
 * -1 if it could not run or failed. */
static int64_t run_once(char *const argv[], long *rss_kib)
{
	uint64_t t0 = zl_test_now_ns();
	struct rusage ru;
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		int fd = open("/dev/null", O_WRONLY);

		dup2(fd, 1);
		dup2(fd, 2);
		execvp(argv[0], argv);
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
		return -1;
	if (rss_kib)
		*rss_kib = ru.ru_maxrss;
	return (int64_t)(zl_test_now_ns() - t0);
}

/* *best = @t if it is the first time measured (*best < 0) or a better one. */
static void keep_best(int64_t *best, int64_t t)
{
	if (*best < 0 || t < *best)
		*best = t;
}

/* Run @argv: wall ns, best of 2 after a warm-up; peak RSS in KiB. */
static int64_t run(char *const argv[], long *rss_kib)
{
	int64_t best = -1;

	for (int k = 0; k < 3; k++) {
		int64_t t = run_once(argv, rss_kib);

		if (t < 0)
			return -1;
		if (k)
			keep_best(&best, t);
	}
	return best;
}

#define RUN_ROUNDS 3

/* A baseline command and ours, one after the other in each of RUN_ROUNDS
 * rounds after a warm-up, so that both see the machine in the same state:
 * the best wall ns of each (-1 if one failed), our peak RSS. */
static void run_pair(char *const base[], char *const ours[], int64_t *t_base, int64_t *t_ours, long *rss_kib)
{
	*t_base = *t_ours = -1;
	for (int k = 0; k <= RUN_ROUNDS; k++) {
		int64_t b = run_once(base, NULL), o = run_once(ours, rss_kib);

		if (b < 0 || o < 0) {
			*t_base = *t_ours = -1;
			return;
		}
		if (k) {                /* 0: warm-up */
			keep_best(t_base, b);
			keep_best(t_ours, o);
		}
	}
}

/* One pass reading every record of @path, one at a time (trc_reader_next)
 * or in batches (trc_reader_batch): ns, -1 on error. */
static int64_t read_pass(const char *path, bool batch)
{
	struct trc_reader *r;
	const struct trc_rec *recs;
	char msg[512];
	uint64_t t0 = zl_test_now_ns(), n = 0, sum = 0;
	int ret;

	if (trc_reader_open(path, NULL, &r, msg, sizeof(msg))) {
		fprintf(stderr, "bench_trace: %s\n", msg);
		return -1;
	}
	if (batch) {
		while ((ret = trc_reader_batch(r, &recs)) > 0) {
			for (int i = 0; i < ret; i++)
				sum += recs[i].len_bytes;
			n += (uint64_t)ret;
		}
	} else {
		struct trc_rec rec;

		while ((ret = trc_reader_next(r, &rec)) == 1) {
			sum += rec.len_bytes;
			n++;
		}
	}
	trc_reader_close(r);
	if (ret < 0 || n != NR_RECS || sum == 0)
		return -1;
	return (int64_t)(zl_test_now_ns() - t0);
}

#define READ_ROUNDS 5

/*
 * Reading the CSV and the native file, each the best of READ_ROUNDS passes
 * after a warm-up, the two passes of a round back to back so that both see
 * the machine in the same state: *csv and *nat in ns, -1 on error.
 */
static void read_only(const char *csv_path, const char *nat_path, bool batch, int64_t *csv, int64_t *nat)
{
	*csv = *nat = -1;
	for (int k = 0; k <= READ_ROUNDS; k++) {
		int64_t c = read_pass(csv_path, batch), n = read_pass(nat_path, batch);

		if (c < 0 || n < 0) {
			*csv = *nat = -1;
			return;
		}
		if (k) {                /* 0: warm-up */
			keep_best(csv, c);
			keep_best(nat, n);
		}
	}
}

static void row(const char *what, double v, const char *unit)
{
	printf("%-52s %12.3f %s\n", what, v, unit);
}

static const char *verdict(double ratio, double want)
{
	return ratio >= want ? "met" : "NOT met";
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "/var/tmp";
	char csv[4096], nat[4096], bt[4096], bt1[4096], prog[64];
	long rss_csv = 0, rss_nat = 0, rss_bt = 0;
	int64_t t_awk, t_csv, t_nat, t_bp, t_bt, r_csv, r_nat, n_csv, n_nat;
	int rc = 0;

	if (getenv("BENCH_TRACE_RECS"))
		NR_RECS = strtoull(getenv("BENCH_TRACE_RECS"), NULL, 10);
	if (zl_test_build_path("zonelab", zonelab, sizeof(zonelab))) {
		fprintf(stderr, "bench_trace: cannot find the zonelab program\n");
		return 1;
	}
	snprintf(csv, sizeof(csv), "%s/bench-msr.csv", dir);
	snprintf(nat, sizeof(nat), "%s/bench.native", dir);
	snprintf(bt, sizeof(bt), "%s/bench.blktrace.0", dir);
	snprintf(bt1, sizeof(bt1), "%s/bench.blktrace.1", dir);
	printf("generating %llu-record MSR CSV, native%s files in %s\n", (unsigned long long)NR_RECS,
	       getenv("BENCH_TRACE_GEN_ONLY") ? "" : " and blktrace", dir);
	fflush(stdout);
	if (make_csv(csv) || (!getenv("BENCH_TRACE_GEN_ONLY") && make_blktrace(dir))) {
		fprintf(stderr, "bench_trace: cannot write the files in %s: %s\n", dir, strerror(errno));
		return 1;
	}
	{
		char *conv[] = { zonelab, "trace", "convert", csv, nat, NULL };

		if (run(conv, NULL) < 0) {
			fprintf(stderr, "bench_trace: convert failed\n");
			return 1;
		}
	}
	if (getenv("BENCH_TRACE_GEN_ONLY")) {
		printf("%s\n%s\n", csv, nat);
		return 0;
	}
	{
		char *awk[] = { "awk", "-F,", "{ s += $6 } END { print s }", csv, NULL };
		char *s_csv[] = { zonelab, "trace", "stat", csv, NULL };
		char *s_nat[] = { zonelab, "trace", "stat", nat, NULL };
		char *s_bt[] = { zonelab, "trace", "stat", bt, NULL };
		char *bp[] = { "blkparse", "-i", prog, "-D", (char *)dir, "-o", "/dev/null", NULL };

		snprintf(prog, sizeof(prog), "bench");
		run_pair(awk, s_csv, &t_awk, &t_csv, &rss_csv);
		t_nat = run(s_nat, &rss_nat);
		t_bp = run(bp, NULL);
		t_bt = run(s_bt, &rss_bt);
	}
	read_only(csv, nat, true, &r_csv, &r_nat);
	read_only(csv, nat, false, &n_csv, &n_nat);
	printf("%-52s %12s\n", "measure", "value");
	row("awk -F, '{ s += $6 }' on the CSV", (double)t_awk / 1e9, "s");
	row("zonelab trace stat on the CSV", (double)t_csv / 1e9, "s");
	row("zonelab trace stat on native", (double)t_nat / 1e9, "s");
	row("blkparse -i bench -o /dev/null (3 events a request)", (double)t_bp / 1e9, "s");
	row("zonelab trace stat on the blktrace files", (double)t_bt / 1e9, "s");
	row("reading only (trc_reader_batch): CSV", (double)r_csv / 1e9, "s");
	row("reading only (trc_reader_batch): native", (double)r_nat / 1e9, "s");
	row("reading only (trc_reader_next): CSV", (double)n_csv / 1e9, "s");
	row("reading only (trc_reader_next): native", (double)n_nat / 1e9, "s");
	row("peak RSS of trace stat, CSV", (double)rss_csv / 1024, "MiB");
	row("peak RSS of trace stat, native", (double)rss_nat / 1024, "MiB");
	row("peak RSS of trace stat, blktrace", (double)rss_bt / 1024, "MiB");
	if (t_awk > 0 && t_csv > 0) {
		row("ratio awk / trace stat (CSV)", (double)t_awk / (double)t_csv, verdict((double)t_awk / (double)t_csv, 5));
	} else {
		printf("awk or trace stat did not run: ratio skipped\n");
		rc = 1;
	}
	if (t_bp > 0 && t_bt > 0)
		row("ratio blkparse / trace stat (blktrace)", (double)t_bp / (double)t_bt,
		    verdict((double)t_bp / (double)t_bt, 3));
	else
		printf("blkparse (package blktrace) or trace stat did not run: ratio skipped\n");
	if (r_csv > 0 && r_nat > 0)
		row("ratio reading CSV / native (batches)", (double)r_csv / (double)r_nat,
		    verdict((double)r_csv / (double)r_nat, 10));
	if (n_csv > 0 && n_nat > 0)
		row("ratio reading CSV / native (one at a time)", (double)n_csv / (double)n_nat, "");
	if (t_csv > 0 && t_nat > 0)
		row("ratio trace stat CSV / native (stat work included)", (double)t_csv / (double)t_nat, "");
	row("peak RSS under 64 MiB (CSV, native, blktrace)",
	    (double)(rss_csv > rss_nat ? (rss_csv > rss_bt ? rss_csv : rss_bt) : (rss_nat > rss_bt ? rss_nat : rss_bt)) / 1024,
	    rss_csv < 65536 && rss_nat < 65536 && rss_bt < 65536 ? "MiB: met" : "MiB: NOT met");
	if (getenv("BENCH_TRACE_KEEP"))
		return rc;
	unlink(csv);
	unlink(nat);
	unlink(bt);
	unlink(bt1);
	return rc;
}
