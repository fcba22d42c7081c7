/*
 * bench_ops.c — a fixed number of commands of one kind through a
 * handler_zonelab.so loaded by the in-process tcmu-runner stand-in, for
 * counting instructions, not time:
 *
 *   bench_ops <handler.so> <scratch-dir> <row> <count>
 *
 * Rows: write4k (4 KiB WRITE(16)s at the write pointer, 1 MiB zones),
 * read4k (count writes, then count 4 KiB READ(16)s of them in a fixed
 * scattered order), report (count REPORT ZONES of 1,024 zones), reset
 * (count writes, then count/100 RESET WRITE POINTER ALL).  Under
 * `valgrind --tool=callgrind`, (Ir at count N - Ir at count 0) / N is the
 * instructions one command costs, the same on every run: what
 * tests/bench/ab.sh -c compares between two builds, where timing on a
 * shared machine varies by more than the difference sought.  Device: 1 GiB,
 * 512-byte LBAs, no conventional zones, write cache on.  Not a test: it
 * checks only that commands succeed (exit 1 otherwise).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tcmu_standin/standin.h"
#include "zl_be.h"

#define DEV_BYTES (1ull << 30)
#define LBA 512u
#define RZ_LEN (64 + 1024 * 64)   /* REPORT ZONES: header + 1,024 descriptors */

static int rw(struct sti_dev *d, bool write, uint64_t lba, uint8_t *buf)
{
	uint8_t cdb[16] = { write ? 0x8a : 0x88 };
	struct sti_result r;

	zl_put_be64(&cdb[2], lba);
	zl_put_be32(&cdb[10], 4096 / LBA);
	return sti_exec(d, cdb, 16, buf, 4096, &r) ? -1 : 0;
}

static int writes(struct sti_dev *d, long n, uint8_t *buf)
{
	for (long i = 0; i < n; i++)
		if (rw(d, true, (uint64_t)i * (4096 / LBA), buf))
			return -1;
	return 0;
}

static int run(struct sti_dev *d, const char *row, long n)
{
	static uint8_t buf[4096];
	struct sti_result r;

	if (!strcmp(row, "write4k"))
		return writes(d, n, buf);
	if (!strcmp(row, "read4k")) {
		if (writes(d, n, buf))
			return -1;
		for (long i = 0; i < n; i++)   /* 7919 is prime: every block once */
			if (rw(d, false, (uint64_t)(i * 7919 % n) * (4096 / LBA), buf))
				return -1;
		return 0;
	}
	if (!strcmp(row, "report")) {
		uint8_t cdb[16] = { 0x95, 0x00 }, *rb = malloc(RZ_LEN);
		int ret = rb ? 0 : -1;

		zl_put_be32(&cdb[10], RZ_LEN);
		for (long i = 0; i < n && !ret; i++)
			ret = sti_exec(d, cdb, 16, rb, RZ_LEN, &r) ? -1 : 0;
		free(rb);
		return ret;
	}
	if (!strcmp(row, "reset")) {
		uint8_t cdb[16] = { 0x94, 0x04 };

		cdb[14] = 0x01;                /* ALL */
		if (writes(d, n, buf))
			return -1;
		for (long i = 0; i < n / 100; i++)
			if (sti_exec(d, cdb, 16, NULL, 0, &r))
				return -1;
		return 0;
	}
	fprintf(stderr, "bench_ops: no row %s (write4k, read4k, report, reset)\n", row);
	return -2;
}

int main(int argc, char **argv)
{
	struct sti_dev_cfg cfg = { .size_bytes = DEV_BYTES, .block_size = LBA, .wce = true };
	char path[4096], cs[4200], msg[512];
	struct sti_handler *h;
	struct sti_dev *d;
	int ret;

	if (argc != 5) {
		fprintf(stderr, "usage: %s <handler.so> <scratch-dir> <row> <count>\n", argv[0]);
		return 2;
	}
	if (!getenv("ZL_STANDIN_LOG"))
		sti_set_log_level(3);
	if (sti_handler_load(argv[1], &h, msg, sizeof(msg))) {
		fprintf(stderr, "bench_ops: %s\n", msg);
		return 1;
	}
	snprintf(path, sizeof(path), "%s/bench-ops-%d.img", argv[2], (int)getpid());
	snprintf(cs, sizeof(cs), "zonelab/%s?zsize=1M&conv=0&max_open=128&wce=1", path);
	cfg.cfgstring = cs;
	if (sti_dev_open(h, &cfg, &d, msg, sizeof(msg))) {
		fprintf(stderr, "bench_ops: %s\n", msg);
		sti_handler_unload(h);
		return 1;
	}
	ret = run(d, argv[3], atol(argv[4]));
	if (ret == -1)
		fprintf(stderr, "bench_ops: %s: a command failed\n", argv[3]);
	sti_dev_close(d);
	sti_handler_unload(h);
	unlink(path);
	return ret ? 1 : 0;
}
