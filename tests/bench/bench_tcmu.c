/*
 * bench_tcmu.c — handler_zonelab.so against tcmu-runner's handler_file_zbc.so,
 * both loaded by the in-process tcmu-runner stand-in in one run, with the
 * same backing directory, plus raw pwrite/pread of a same-size file as the
 * physical limit, and the floor handler (tests/tcmu_standin/handler_floor.c:
 * pread/pwrite and nothing else, through the same stand-in) to show what the
 * harness itself costs:  bench_tcmu <scratch-dir>
 *
 * The raw file is opened as zstore opens an image (O_NOATIME): the limit is
 * what a program can get from the file, and the access-time update that
 * O_NOATIME skips costs a 4 KiB page-cache read about 5% on this kernel.
 *
 * Random reads are compared with raw preads of the same backing file: each
 * handler with a known data layout (ours, the floor) has a raw "twin" that
 * preads that handler's own file at the same offsets in the same rounds.
 * Which physical pages a file's page cache lands on moves the rate of an
 * identical raw loop by up to ~6% from one 512 MiB file to another on this
 * machine (a VM: host page size and placement), so a separate raw file is
 * no limit for reads; it is kept as a control line under the table.
 *
 * Device: 65,536 zones of 1 MiB (64 GiB sparse), 512-byte LBAs, no
 * conventional zones, write cache on (no sync per write on any side).
 * Rows: 4 KiB sequential writes at the write pointer; 128 KiB sequential
 * writes; 4 KiB random reads of the data written (seeded); REPORT ZONES of
 * the whole device in one command; RESET ALL after 64 zones were written
 * (the writes are not timed).  Each row runs for ZL_BENCH_SECONDS (default
 * 1.0) or a byte/op cap, whichever comes first, and prints ops/s with the
 * ratios ours/file_zbc, ours/raw, floor/raw and ours/floor.  Handler paths:
 * $ZL_HANDLER_SO (default <build>/handler_zonelab.so next to this program's
 * directory), $ZL_FLOOR_SO (default <build>/tests/tcmu_standin/handler_floor.so) and
 * $ZL_FILE_ZBC_SO.  Not a test: it checks only that commands succeed.
 *
 * A/B: with $ZL_HANDLER_B_SO (another build's handler_zonelab.so, e.g.
 * tests/bench/ab.sh's), that handler takes file_zbc's place as "zonelab_b"
 * with zonelab's own device, in the same process and the same interleaved
 * rounds, so ours/B (the ours/fzbc column) is the two builds' ratio with
 * the machine's drift hitting both alike.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "tcmu_standin/standin.h"
#include "zl_be.h"
#include "zl_le.h"
#include "zl_test.h"

#define FILE_ZBC_SO "/usr/lib/x86_64-linux-gnu/tcmu-runner/handler_file_zbc.so"
#define NR_ZONES 65536ull
#define ZONE_BYTES (1ull << 20)
#define LBA 512u
#define ZONE_LBAS (ZONE_BYTES / LBA)
#define DEV_BYTES (NR_ZONES * ZONE_BYTES)
#define SEQ_CAP_BYTES (512ull << 20)      /* at most 512 MiB per write row */

enum { ROW_SEQ4K, ROW_SEQ128K, ROW_RAND4K, ROW_REPORT, ROW_RESET, NR_ROWS };
static const char *const row_names[NR_ROWS] = {
	"4 KiB seq write at WP", "128 KiB seq write", "4 KiB random read",
	"REPORT ZONES (65,536 zones)", "RESET ALL (64 written zones)",
};

/*
 * The I/O rows run in ROUNDS short slices, the targets taking turns, so
 * page-cache writeback and other system noise hit every target alike; a
 * row's rate is its total ops over its total time, a ratio between two
 * targets the median of the per-round ratios (median_ratio()).
 */
#define ROUNDS 20
#define NR_IO_ROWS 3         /* ROW_SEQ4K, ROW_SEQ128K, ROW_RAND4K */
#define READ_BATCH 64        /* random-read row: commands per turn */

/* Run one slice and record its rate for the round. */
#define SLICE(rs, r, call) do {						\
		uint64_t o0 = (rs)->ops, n0 = (rs)->ns;			\
		call;							\
		(rs)->round_rate[r] = (rs)->ns > n0 ?			\
			((rs)->ops - o0) / (((rs)->ns - n0) / 1e9) : 0;	\
	} while (0)

/* Where an I/O row of one target stands. */
struct row_state {
	uint64_t off, ops, ns, seed;
	bool stop;
	double round_rate[ROUNDS];   /* ops/s of each round's slice (0: not run) */
};

struct target {
	const char *name;
	struct sti_dev *d;   /* NULL: raw file */
	bool no_zones;       /* the floor handler: I/O rows only */
	int fd;
	uint64_t base;       /* raw: file offset of byte 0 of the device */
	struct target *twin; /* handler: raw reads of its own file (random-read row) */
	struct target *owner;/* twin: the handler whose file and written range it reads */
	char path[PATH_MAX];
	double ops[NR_ROWS]; /* ops/s; < 0: not run */
	struct row_state io[NR_IO_ROWS];
};

static double bench_secs = 1.0;
static uint8_t *wbuf, *rbuf;

static int io(struct target *t, bool write, uint64_t off, size_t len, void *buf)
{
	struct sti_result r;
	uint8_t cdb[16] = { write ? 0x8a : 0x88 };

	if (!t->d) {
		off += t->base;
		ssize_t n = write ? pwrite(t->fd, buf, len, (off_t)off) : pread(t->fd, buf, len, (off_t)off);

		return n == (ssize_t)len ? 0 : -EIO;
	}
	zl_put_be64(&cdb[2], off / LBA);
	zl_put_be32(&cdb[10], (uint32_t)(len / LBA));
	if (sti_exec(t->d, cdb, 16, buf, len, &r)) {
		fprintf(stderr, "%s: %s at %llu: status %u sense %x/%04x\n", t->name,
			write ? "write" : "read", (unsigned long long)off, r.status,
			sti_sense_key(&r), sti_sense_asc_ascq(&r));
		return -EIO;
	}
	return 0;
}

/* Untimed: make what the last row wrote durable so the next target starts clean. */
static void flush(struct target *t)
{
	uint8_t cdb[10] = { 0x35 };
	struct sti_result r;

	if (t->d)
		sti_exec(t->d, cdb, 10, NULL, 0, &r);
	else
		fdatasync(t->fd);
}

/* One slice of sequential writes of @len from rs->off (bounded by @end). */
static void slice_seq(struct target *t, struct row_state *rs, size_t len, uint64_t end, double secs)
{
	uint64_t t0 = zl_test_now_ns(), limit = (uint64_t)(secs * 1e9);

	while (!rs->stop) {
		if (rs->off + len > end || io(t, true, rs->off, len, wbuf)) {
			rs->stop = true;
			break;
		}
		rs->off += len;
		if ((++rs->ops & 31) == 0 && zl_test_now_ns() - t0 > limit)
			break;
	}
	rs->ns += zl_test_now_ns() - t0;
}

/* One batch of random 4 KiB reads over the first @nr_blocks blocks; returns its ns. */
static uint64_t batch_rand(struct target *t, struct row_state *rs, uint64_t nr_blocks)
{
	uint64_t t0 = zl_test_now_ns();

	for (int i = 0; i < READ_BATCH && !rs->stop && nr_blocks; i++) {
		uint64_t blk = zl_test_rand(&rs->seed) % nr_blocks;

		if (io(t, false, blk * 4096, 4096, rbuf)) {
			rs->stop = true;
			break;
		}
		rs->ops++;
	}
	return zl_test_now_ns() - t0;
}

/*
 * The random-read row: in each round the targets take turns every
 * READ_BATCH commands (~0.1 ms), so a drift of the machine's speed hits
 * all of them alike, and each round's rate of a target is its ops over its
 * time in that round.  (Slices of whole milliseconds left a spread of +-5%
 * between the rounds of one target; batches bring it to about +-1%.)
 */
static void run_reads(struct target **rd, int nr, double round_secs)
{
	for (int r = 0; r < ROUNDS; r++) {
		uint64_t end = zl_test_now_ns() + (uint64_t)(round_secs * 1e9);
		uint64_t ops0[8], ns0[8];

		for (int i = 0; i < nr; i++) {
			ops0[i] = rd[i]->io[ROW_RAND4K].ops;
			ns0[i] = rd[i]->io[ROW_RAND4K].ns;
		}
		for (uint64_t b = 0; zl_test_now_ns() < end; b++)
			for (int k = 0; k < nr; k++) {
				struct target *t = rd[(b + k) % nr];
				const struct target *w = t->owner ? t->owner : t;
				struct row_state *rs = &t->io[ROW_RAND4K];

				rs->ns += batch_rand(t, rs, w->io[ROW_SEQ4K].off / 4096);
			}
		for (int i = 0; i < nr; i++) {
			struct row_state *rs = &rd[i]->io[ROW_RAND4K];

			rs->round_rate[r] = rs->ns > ns0[i] ?
				(rs->ops - ops0[i]) / ((rs->ns - ns0[i]) / 1e9) : 0;
		}
	}
}

static double rate(const struct row_state *rs)
{
	return rs->ns && rs->ops ? rs->ops / (rs->ns / 1e9) : -1;
}

static void row_report(struct target *t)
{
	size_t len = 64 + NR_ZONES * 64;
	uint8_t *buf = malloc(len);
	uint8_t cdb[16] = { 0x95, 0x00 };
	uint64_t t0, ops = 0, limit = (uint64_t)(bench_secs * 1e9);
	struct sti_result r;

	zl_test_put_be(&cdb[10], len, 4);
	t0 = zl_test_now_ns();
	while (buf) {
		if (sti_exec(t->d, cdb, 16, buf, len, &r) ||
		    zl_test_get_be(buf, 4) != NR_ZONES * 64) {
			fprintf(stderr, "%s: REPORT ZONES failed (status %u)\n", t->name, r.status);
			ops = 0;
			break;
		}
		ops++;
		if (zl_test_now_ns() - t0 > limit || ops >= 10000)
			break;
	}
	t->ops[ROW_REPORT] = ops ? ops / ((zl_test_now_ns() - t0) / 1e9) : -1;
	free(buf);
}

static void row_reset(struct target *t)
{
	uint8_t cdb[16] = { 0x94, 0x04 };
	uint64_t timed = 0, ops = 0, limit = (uint64_t)(bench_secs * 1e9);
	struct sti_result r;

	cdb[14] = 1;   /* ALL */
	if (sti_exec(t->d, cdb, 16, NULL, 0, &r))   /* untimed: start from empty zones */
		goto out_fail;
	while (timed < limit && ops < 2000) {
		uint64_t t0;

		for (uint64_t z = 0; z < 64; z++)   /* untimed: 64 written zones */
			if (io(t, true, (z * 1024 + ops % 1024) * ZONE_BYTES, 4096, wbuf))
				goto out_fail;
		t0 = zl_test_now_ns();
		if (sti_exec(t->d, cdb, 16, NULL, 0, &r)) {
			fprintf(stderr, "%s: RESET ALL failed\n", t->name);
			goto out_fail;
		}
		timed += zl_test_now_ns() - t0;
		ops++;
	}
	t->ops[ROW_RESET] = ops / (timed / 1e9);
	return;
out_fail:
	t->ops[ROW_RESET] = -1;
}

enum handler_kind { H_ZONELAB, H_FILE_ZBC, H_FLOOR };

static struct sti_handler *open_handler(struct target *t, const char *so, const char *dir,
					enum handler_kind kind)
{
	struct sti_handler *h;
	struct sti_dev_cfg cfg = { .size_bytes = DEV_BYTES, .block_size = LBA, .wce = true };
	char s[PATH_MAX + 128], msg[512];

	for (int i = 0; i < NR_ROWS; i++)
		t->ops[i] = -1;
	if (sti_handler_load(so, &h, msg, sizeof(msg))) {
		fprintf(stderr, "%s: %s\n", t->name, msg);
		return NULL;
	}
	snprintf(t->path, sizeof(t->path), "%s/bench-%s.img", dir, t->name);
	unlink(t->path);
	if (kind == H_ZONELAB) {
		snprintf(s, sizeof(s), "zonelab/%s?zsize=1M&conv=0&max_open=128&wce=1", t->path);
	} else if (kind == H_FILE_ZBC) {
		snprintf(s, sizeof(s), "zbc/model-HM/lba-512/zsize-1/conv-0/open-128@%s", t->path);
	} else {
		int fd = open(t->path, O_RDWR | O_CREAT | O_TRUNC, 0644);

		if (fd < 0 || ftruncate(fd, (off_t)DEV_BYTES)) {
			perror(t->path);
			if (fd >= 0)
				close(fd);
			sti_handler_unload(h);
			return NULL;
		}
		close(fd);
		snprintf(s, sizeof(s), "floor/%s", t->path);
	}
	cfg.cfgstring = s;
	if (sti_dev_open(h, &cfg, &t->d, msg, sizeof(msg))) {
		fprintf(stderr, "%s: %s\n", t->name, msg);
		sti_handler_unload(h);
		return NULL;
	}
	return h;
}

static int open_raw(struct target *t, const char *dir)
{
	for (int i = 0; i < NR_ROWS; i++)
		t->ops[i] = -1;
	snprintf(t->path, sizeof(t->path), "%s/bench-raw.img", dir);
	t->fd = open(t->path, O_RDWR | O_CREAT | O_TRUNC | O_NOATIME, 0644);
	if (t->fd < 0 || ftruncate(t->fd, (off_t)DEV_BYTES)) {
		perror(t->path);
		return -1;
	}
	return 0;
}

/*
 * A raw reader of @t's own backing file for the random-read row: its base
 * is where the handler keeps LBA 0: zonelab, the header's data_off
 * (docs/FORMAT.md); file_zbc, after its zone metadata (file size - device
 * size, as its open checks); the floor, 0.
 */
static int open_twin(struct target *tw, struct target *t, enum handler_kind kind, const char *name)
{
	struct stat st;
	uint8_t le[8];

	for (int i = 0; i < NR_ROWS; i++)
		tw->ops[i] = -1;
	tw->name = name;
	tw->owner = t;
	snprintf(tw->path, sizeof(tw->path), "%s", t->path);
	tw->fd = open(tw->path, O_RDONLY | O_NOATIME);
	if (tw->fd < 0) {
		perror(tw->path);
		return -1;
	}
	if (kind == H_ZONELAB) {
		if (pread(tw->fd, le, 8, 64) != 8)      /* data_off (docs/FORMAT.md) */
			goto bad;
		tw->base = zl_get_le64(le);
		if (tw->base == 0 || tw->base % (1u << 20))
			goto bad;
	} else if (kind == H_FILE_ZBC) {
		if (fstat(tw->fd, &st) || (uint64_t)st.st_size <= DEV_BYTES)
			goto bad;
		tw->base = (uint64_t)st.st_size - DEV_BYTES;
	}
	t->twin = tw;
	return 0;
bad:
	fprintf(stderr, "%s: cannot tell where %s keeps LBA 0; its reads are not compared with raw\n",
		tw->path, t->name);
	close(tw->fd);
	return -1;
}

/* Every row for every target in turn, so they see the same system state. */
static void run_rows(struct target **ts, int nr, struct target **twins, int nr_twins)
{
	struct target *rd[8];
	int nr_rd = 0;

	double slice = bench_secs / ROUNDS;

	for (int i = 0; i < nr; i++) {
		ts[i]->io[ROW_SEQ128K].off = DEV_BYTES / 2;
	}
	/* The order rotates each round: no target always follows the same one. */
	for (int r = 0; r < ROUNDS; r++)
		for (int k = 0; k < nr; k++) {
			struct target *t = ts[(r + k) % nr];
			struct row_state *rs = &t->io[ROW_SEQ4K];

			SLICE(rs, r, slice_seq(t, rs, 4096, SEQ_CAP_BYTES, slice));
		}
	for (int r = 0; r < ROUNDS; r++)
		for (int k = 0; k < nr; k++) {
			struct target *t = ts[(r + k) % nr];
			struct row_state *rs = &t->io[ROW_SEQ128K];

			SLICE(rs, r, slice_seq(t, rs, 128 << 10, DEV_BYTES / 2 + SEQ_CAP_BYTES, slice));
		}
	for (int i = 0; i < nr; i++)
		flush(ts[i]);
	/*
	 * Every reader its own seed: two readers of one file with one seed in
	 * turns of a batch would find the other's pages still in the CPU caches.
	 */
	for (int i = 0; i < nr; i++)
		rd[nr_rd++] = ts[i];
	for (int i = 0; i < nr_twins; i++)
		rd[nr_rd++] = twins[i];
	for (int i = 0; i < nr_rd; i++)
		rd[i]->io[ROW_RAND4K].seed = 42 + 1000003ull * (uint64_t)i;
	run_reads(rd, nr_rd, slice * nr_rd);
	for (int i = 0; i < nr_rd; i++)
		for (int row = 0; row < NR_IO_ROWS; row++)
			rd[i]->ops[row] = rate(&rd[i]->io[row]);
	for (int i = 0; i < nr; i++)
		if (ts[i]->d && !ts[i]->no_zones)
			row_report(ts[i]);
	for (int i = 0; i < nr; i++)
		if (ts[i]->d && !ts[i]->no_zones)
			row_reset(ts[i]);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * Median over the rounds of a/b, each round's slices run back to back: a
 * writeback burst or a neighbour's load hits one round, not the median.
 */
static double median_ratio(const struct target *a, const struct target *b, int row)
{
	double q[ROUNDS];
	int n = 0;

	for (int r = 0; r < ROUNDS; r++)
		if (a->io[row].round_rate[r] > 0 && b->io[row].round_rate[r] > 0)
			q[n++] = a->io[row].round_rate[r] / b->io[row].round_rate[r];
	if (!n)
		return -1;
	qsort(q, (size_t)n, sizeof(q[0]), cmp_double);
	return n % 2 ? q[n / 2] : (q[n / 2 - 1] + q[n / 2]) / 2;
}

/*
 * Median over the rounds of (a/a_raw) / (b/b_raw): two handlers compared
 * each against raw reads of its own file, so the placement of their files'
 * page cache cancels out.
 */
static double median_ratio_norm(const struct target *a, const struct target *ar,
				const struct target *b, const struct target *br, int row)
{
	double q[ROUNDS];
	int n = 0;

	for (int r = 0; r < ROUNDS; r++) {
		double x = a->io[row].round_rate[r], xr = ar->io[row].round_rate[r];
		double y = b->io[row].round_rate[r], yr = br->io[row].round_rate[r];

		if (x > 0 && xr > 0 && y > 0 && yr > 0)
			q[n++] = (x / xr) / (y / yr);
	}
	if (!n)
		return -1;
	qsort(q, (size_t)n, sizeof(q[0]), cmp_double);
	return n % 2 ? q[n / 2] : (q[n / 2 - 1] + q[n / 2]) / 2;
}

static void print_ratio(double a, double b)
{
	if (a > 0 && b > 0)
		printf(" %8.3fx", a / b);
	else
		printf(" %9s", "-");
}

static void print_ops(double v)
{
	if (v >= 0)
		printf(" %11.0f", v);
	else
		printf(" %11s", "-");
}

int main(int argc, char **argv)
{
	const char *e = getenv("ZL_BENCH_SECONDS");
	const char *fz = getenv("ZL_FILE_ZBC_SO");
	const char *ours = getenv("ZL_HANDLER_SO");
	const char *flo = getenv("ZL_FLOOR_SO");
	const char *bso = getenv("ZL_HANDLER_B_SO");
	struct target raw = { .name = "raw" }, zl = { .name = "zonelab" }, fzbc = { .name = "file_zbc" };
	struct target fl = { .name = "floor", .no_zones = true };
	struct target zl_raw = { 0 }, fl_raw = { 0 }, fz_raw = { 0 }, *twins[3];
	int nr_twins = 0;
	char ours_buf[PATH_MAX], floor_buf[PATH_MAX];
	struct sti_handler *hz, *hf, *hl;
	struct target *ts[4];
	int nr = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: %s <scratch-dir>\n", argv[0]);
		return 2;
	}
	if (e)
		bench_secs = atof(e);
	if (!fz)
		fz = FILE_ZBC_SO;
	if (!ours) {
		zl_test_build_path("handler_zonelab.so", ours_buf, sizeof(ours_buf));
		ours = ours_buf;
	}
	if (!flo) {
		zl_test_build_path("tests/tcmu_standin/handler_floor.so", floor_buf, sizeof(floor_buf));
		flo = floor_buf;
	}
	if (!getenv("ZL_STANDIN_LOG"))
		sti_set_log_level(3);
	if (posix_memalign((void **)&wbuf, 4096, 128 << 10) || posix_memalign((void **)&rbuf, 4096, 128 << 10))
		return 1;
	memset(wbuf, 0xa5, 128 << 10);

	if (open_raw(&raw, argv[1]) == 0)
		ts[nr++] = &raw;
	hz = open_handler(&zl, ours, argv[1], H_ZONELAB);
	if (hz)
		ts[nr++] = &zl;
	else
		fprintf(stderr, "zonelab handler not measured\n");
	if (bso) {
		fzbc.name = "zonelab_b";
		hf = open_handler(&fzbc, bso, argv[1], H_ZONELAB);
	} else {
		hf = access(fz, R_OK) ? NULL : open_handler(&fzbc, fz, argv[1], H_FILE_ZBC);
	}
	if (hf)
		ts[nr++] = &fzbc;
	else
		fprintf(stderr, "%s not measured (%s)\n", fzbc.name, bso ? bso : fz);
	hl = open_handler(&fl, flo, argv[1], H_FLOOR);
	if (hl)
		ts[nr++] = &fl;
	else
		fprintf(stderr, "floor handler not measured (%s)\n", flo);
	if (hz && open_twin(&zl_raw, &zl, H_ZONELAB, "raw: zonelab's image") == 0)
		twins[nr_twins++] = &zl_raw;
	if (hf && open_twin(&fz_raw, &fzbc, bso ? H_ZONELAB : H_FILE_ZBC, "raw: file_zbc's file") == 0)
		twins[nr_twins++] = &fz_raw;
	if (hl && open_twin(&fl_raw, &fl, H_FLOOR, "raw: floor's file") == 0)
		twins[nr_twins++] = &fl_raw;
	run_rows(ts, nr, twins, nr_twins);
	for (int i = 0; i < nr_twins; i++)
		close(twins[i]->fd);
	for (int i = 0; i < nr; i++) {
		if (ts[i]->d)
			sti_dev_close(ts[i]->d);
		else
			close(ts[i]->fd);
		unlink(ts[i]->path);
	}
	sti_handler_unload(hz);
	sti_handler_unload(hf);
	sti_handler_unload(hl);

	printf("tcmu handlers through the in-process stand-in; %llu zones of 1 MiB, 512 B LBAs, WCE on, "
	       "%.1f s per row, scratch %s\n", NR_ZONES, bench_secs, argv[1]);
	printf("floor: a handler that only calls pread/pwrite (the harness's own cost); raw: the file "
	       "without any handler\n(writes: a separate file; random reads: each handler's own file, "
	       "same offsets; the raw column shows zonelab's).\nRatios: median over %d rounds of the "
	       "per-round ratio (REPORT/RESET: ratio of rates; ours/fzbc and ours/flr for reads: "
	       "(ours/its raw) / (other/its raw)).\n", ROUNDS);
	printf("%-28s %11s %11s %11s %11s %9s %9s %9s %9s\n", "row (ops/s)", "zonelab", fzbc.name,
	       "floor", "raw file", bso ? "ours/B" : "ours/fzbc", "ours/raw", "floor/raw", "ours/flr");
	for (int i = 0; i < NR_ROWS; i++) {
		printf("%-28s", row_names[i]);
		print_ops(zl.ops[i]);
		print_ops(fzbc.ops[i]);
		print_ops(fl.ops[i]);
		print_ops(i == ROW_RAND4K && zl.twin ? zl_raw.ops[i] : raw.ops[i]);
		if (i == ROW_RAND4K) {
			print_ratio(zl.twin && fzbc.twin ?
				    median_ratio_norm(&zl, &zl_raw, &fzbc, &fz_raw, i) : -1, 1);
			print_ratio(zl.twin ? median_ratio(&zl, &zl_raw, i) : -1, 1);
			print_ratio(fl.twin ? median_ratio(&fl, &fl_raw, i) : -1, 1);
			print_ratio(zl.twin && fl.twin ?
				    median_ratio_norm(&zl, &zl_raw, &fl, &fl_raw, i) : -1, 1);
		} else if (i < NR_IO_ROWS) {
			print_ratio(median_ratio(&zl, &fzbc, i), 1);
			print_ratio(median_ratio(&zl, &raw, i), 1);
			print_ratio(median_ratio(&fl, &raw, i), 1);
			print_ratio(median_ratio(&zl, &fl, i), 1);
		} else {
			print_ratio(zl.ops[i], fzbc.ops[i]);
		}
		printf("\n");
	}
	if (zl.twin)
		printf("placement control, random reads: raw of a separate same-size file / raw of "
		       "zonelab's image, same offsets: %.3fx\n", median_ratio(&raw, &zl_raw, ROW_RAND4K));
	free(wbuf);
	free(rbuf);
	return 0;
}
