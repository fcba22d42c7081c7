/*
 * test_trc.c — the trace readers, writers, descriptors and replay: one
 * hand-checked sample per format (tests/data/, see its README) read back
 * record by record; auto-detection of every sample and the refusal of a
 * file no reader knows; malformed, truncated and --lenient input with the
 * file and line / byte offset in the message; the filters; the blktrace
 * binary against Debian blkparse's own text of the same files; writers read
 * back; trace stat on a trace whose descriptors are worked out by hand;
 * replay of a command trace recorded through zscsi onto a fresh image with
 * zero divergences, and the first divergence of a trace with one changed
 * record.
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
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "trc.h"
#include "zdisk.h"
#include "zl_test.h"
#include "zscsi.h"
#include "ztrace.h"

static char scratch[512];

static const char *data(const char *name)
{
	static char path[4][1024];
	static int k;
	char rel[512];
	struct stat st;

	k = (k + 1) % 4;
	snprintf(path[k], sizeof(path[k]), "tests/data/%s", name);
	if (stat(path[k], &st) == 0)
		return path[k];
	snprintf(rel, sizeof(rel), "../tests/data/%s", name);
	zl_test_build_path(rel, path[k], sizeof(path[k]));
	return path[k];
}

static const char *tmp(const char *name)
{
	static char path[4][1024];
	static int k;

	k = (k + 1) % 4;
	snprintf(path[k], sizeof(path[k]), "%s/%s", scratch, name);
	return path[k];
}

static void put_file(const char *path, const void *buf, size_t len)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(buf, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

static void put_text(const char *path, const char *s)
{
	put_file(path, s, strlen(s));
}

/* Read every record of @path into @out (max @max); returns the count, or the
 * negative return of trc_reader_next (message in @msg). */
static int read_all(const char *path, const struct trc_reader_cfg *cfg, struct trc_rec *out, int max,
		    char *msg, size_t msg_len, const char **fmt)
{
	struct trc_reader *r;
	int n = 0, ret;

	msg[0] = 0;
	ret = trc_reader_open(path, cfg, &r, msg, msg_len);
	if (ret)
		return ret;
	if (fmt)
		*fmt = trc_reader_format(r);
	while ((ret = trc_reader_next(r, &out[n < max ? n : max - 1])) == 1)
		n++;
	if (ret < 0)
		snprintf(msg, msg_len, "%s", trc_reader_msg(r));
	trc_reader_close(r);
	return ret < 0 ? ret : n;
}

#define REC(ts, op_, off, len) { .ts_ns = (ts), .op = (op_), .offset_bytes = (off), .len_bytes = (len) }

static void check_rec(const struct trc_rec *got, uint64_t ts, uint8_t op, uint64_t off, uint64_t len)
{
	assert_int_equal(got->ts_ns, ts);
	assert_int_equal(got->op, op);
	assert_int_equal(got->offset_bytes, off);
	assert_int_equal(got->len_bytes, len);
}

/* ---- samples, one per format -------------------------------------------- */

static void test_trc_msr_sample_fields(void **state)
{
	struct trc_rec r[8];
	char msg[512];
	const char *fmt;
	/* FILETIME 128166036000000000 = 2007-02-22 00:00 UTC = Unix 1172102400 s... as ns */
	uint64_t t0 = (128166036000000000ull - 116444736000000000ull) * 100;

	assert_int_equal(read_all(data("msr.csv"), NULL, r, 8, msg, sizeof(msg), &fmt), 5);
	assert_string_equal(fmt, "msr");
	check_rec(&r[0], t0, TRC_OP_WRITE, 4096, 8192);
	assert_int_equal(r[0].latency_ns, 1200000);       /* 12000 x 100 ns */
	assert_int_equal(r[0].dev, 0);
	assert_int_equal(r[0].has, TRC_HAS_DEV | TRC_HAS_LATENCY);
	check_rec(&r[1], t0 + 10000000, TRC_OP_READ, 0, 4096);
	check_rec(&r[2], t0 + 20000000, TRC_OP_WRITE, 12288, 4096);
	assert_int_equal(r[2].dev, 1);
	check_rec(&r[4], t0 + 40000000, TRC_OP_WRITE, 12288, 65536);
}

/* The one-pass MSR parser (exact spelling) and the general one (spaces,
 * other spellings) give the same records. */
static void test_trc_msr_fast_and_general_paths_agree(void **state)
{
	struct trc_rec a[4], b[4];
	char msg[512];

	put_text(tmp("fast.csv"), "128166036000000000,hm,3,Write,4096,8192,12000\n"
				  "128166036000000100,hm,0,Read,0,512,7\n");
	put_text(tmp("slow.csv"), "128166036000000000,hm, 3,write, 4096,8192 ,12000\n"
				  " 128166036000000100,hm,0,R,0,512,7\n");
	assert_int_equal(read_all(tmp("fast.csv"), NULL, a, 4, msg, sizeof(msg), NULL), 2);
	assert_int_equal(read_all(tmp("slow.csv"), NULL, b, 4, msg, sizeof(msg), NULL), 2);
	assert_memory_equal(a, b, sizeof(a[0]) * 2);
	assert_int_equal(a[0].dev, 3);
	assert_int_equal(a[1].latency_ns, 700);
}

/* The fast parser's digit loop at the 20-digit edge: UINT64_MAX is read,
 * one more overflows and the general parser names the field; more than 20
 * characters (leading zeros) are refused by both paths alike. */
static void test_trc_msr_fast_path_digit_limits(void **state)
{
	struct trc_rec a[2];
	char msg[512];

	put_text(tmp("max.csv"), "128166036000000000,hm,3,Write,18446744073709551615,0,12000\n"
				 "128166036000000100,hm,0,Read,4096,512,7\n");
	assert_int_equal(read_all(tmp("max.csv"), NULL, a, 2, msg, sizeof(msg), NULL), 2);
	assert_int_equal(a[0].offset_bytes, UINT64_MAX);
	assert_int_equal(a[1].offset_bytes, 4096);
	put_text(tmp("ovf.csv"), "128166036000000000,hm,3,Write,4096,0,1\n"
				 "128166036000000000,hm,3,Write,18446744073709551616,0,1\n");
	assert_int_equal(read_all(tmp("ovf.csv"), NULL, a, 2, msg, sizeof(msg), NULL), -EINVAL);
	assert_non_null(strstr(msg, ":2: Offset '18446744073709551616'"));
	put_text(tmp("zeros.csv"), "128166036000000000,hm,3,Write,4096,0,1\n"
				   "128166036000000000,hm,3,Write,000000000000000000004096,0,1\n");
	assert_int_equal(read_all(tmp("zeros.csv"), NULL, a, 2, msg, sizeof(msg), NULL), -EINVAL);
	assert_non_null(strstr(msg, ":2: Offset"));
}

/*
 * The in-buffer fast path (a line of up to 64 bytes with 72 bytes from its
 * start in the buffer) against the general parser (the same line last in its
 * file: too short for the fast path) on seeded mutations of common lines:
 * characters replaced, deleted or inserted, digit runs at the 8/16/20-digit
 * edges, '\r', spaces.  Both must return the same records, or the same
 * error message.
 */
static void test_trc_msr_fast_path_agrees_on_mutated_lines(void **state)
{
	static const char *const bases[] = {
		"128166036000000000,hm,3,Write,4096,8192,12000",
		"128166036012345678,web,12,Read,123456789012,65536,7",
		"128166036000000001,h,0,Write,18446744073709551615,0,99999999",
		"128166036000000001,,4294967295,Read,1234567812345678,12345678,1",
	};
	static const char alphabet[] = "0123456789,, \r.-WriteRead9";
	const char *pad = "128166036000000000,hm,1,Read,0,4096,1\n128166036000000000,hm,1,Read,0,4096,1\n";
	uint64_t seed = 14;
	int nr_fast_ok = 0;

	for (int k = 0; k < 4000; k++) {
		char line[160], buf[512], msg_a[512], msg_b[512];
		struct trc_rec a[4], b[4];
		size_t n;
		int ra, rb, nm = 1 + (int)(zl_test_rand(&seed) % 3);

		snprintf(line, sizeof(line), "%s", bases[k % 4]);
		for (int m = 0; m < nm && k >= 4; m++) {
			uint64_t x = zl_test_rand(&seed);
			size_t at;
			char c = alphabet[(x >> 32) % (sizeof(alphabet) - 1)];

			n = strlen(line);
			at = (size_t)(x % (n + 1));
			switch ((x >> 8) % 3) {
			case 0:
				if (at < n)
					line[at] = c;
				break;
			case 1:
				if (at < n)
					memmove(line + at, line + at + 1, n - at);
				break;
			default:
				if (n + 1 < sizeof(line)) {
					memmove(line + at + 1, line + at, n - at + 1);
					line[at] = c;
				}
			}
		}
		/* the first line is never taken by the fast path: a valid one first */
		snprintf(buf, sizeof(buf), "128166036000000000,hm,1,Read,0,4096,1\n%s\n%s", line, pad);
		put_text(tmp("mut.csv"), buf);
		ra = read_all(tmp("mut.csv"), NULL, a, 4, msg_a, sizeof(msg_a), NULL);
		snprintf(buf, sizeof(buf), "128166036000000000,hm,1,Read,0,4096,1\n%s\n", line);
		put_text(tmp("mut.csv"), buf);
		rb = read_all(tmp("mut.csv"), NULL, b, 4, msg_b, sizeof(msg_b), NULL);
		if (ra < 0 || rb < 0) {
			assert_int_equal(ra, rb);
			assert_string_equal(msg_a, msg_b);
			continue;
		}
		/* the padded file has its two extra records */
		assert_int_equal(ra, rb + 2);
		assert_memory_equal(a, b, sizeof(a[0]) * (size_t)rb);
		nr_fast_ok += rb == 2;
	}
	assert_true(nr_fast_ok > 100);         /* valid lines were among them */
}

static void test_trc_alibaba_sample_skips_header(void **state)
{
	struct trc_rec r[8];
	char msg[512];
	const char *fmt;

	assert_int_equal(read_all(data("alibaba.csv"), NULL, r, 8, msg, sizeof(msg), &fmt), 4);
	assert_string_equal(fmt, "alibaba");
	check_rec(&r[0], 1577808000000626000ull, TRC_OP_READ, 126703644672ull, 4096);
	check_rec(&r[2], 1577808000001000000ull, TRC_OP_WRITE, 4096, 4096);
	assert_int_equal(r[2].dev, 3);
}

static void test_trc_tencent_sample_sectors_and_device_filter(void **state)
{
	struct trc_reader_cfg c;
	struct trc_rec r[8];
	char msg[512];
	const char *fmt;

	assert_int_equal(read_all(data("tencent.csv"), NULL, r, 8, msg, sizeof(msg), &fmt), 4);
	assert_string_equal(fmt, "tencent");
	check_rec(&r[0], 1538352000000000000ull, TRC_OP_WRITE, 2097152ull * 512, 8 * 512);
	check_rec(&r[2], 1538352001000000000ull, TRC_OP_READ, 0, 16 * 512);
	assert_int_equal(r[2].dev, 77);
	trc_reader_cfg_init(&c);
	c.dev_filter = true;
	c.dev = 1234;
	assert_int_equal(read_all(data("tencent.csv"), &c, r, 8, msg, sizeof(msg), NULL), 3);
	for (int i = 0; i < 3; i++)
		assert_int_equal(r[i].dev, 1234);
	check_rec(&r[2], 1538352002000000000ull, TRC_OP_READ, 2097152ull * 512, 4096);
}

static void test_trc_spc_sample(void **state)
{
	struct trc_rec r[8];
	char msg[512];
	const char *fmt;

	assert_int_equal(read_all(data("spc.csv"), NULL, r, 8, msg, sizeof(msg), &fmt), 4);
	assert_string_equal(fmt, "spc");
	check_rec(&r[0], 551706000, TRC_OP_WRITE, 20941264ull * 512, 8192);
	check_rec(&r[1], 554041000, TRC_OP_READ, 3436288ull * 512, 15872);
	assert_int_equal(r[1].dev, 1);
	check_rec(&r[2], 557133000, TRC_OP_WRITE, 20941280ull * 512, 4096);  /* extra field ignored */
	check_rec(&r[3], 1000000000, TRC_OP_READ, 0, 512);
}

static void test_trc_iolog_v3_written_by_fio(void **state)
{
	struct trc_rec r[16];
	char msg[512];
	const char *fmt;

	assert_int_equal(read_all(data("fio-iolog3.log"), NULL, r, 16, msg, sizeof(msg), &fmt), 9);
	assert_string_equal(fmt, "iolog");
	check_rec(&r[0], 762000, TRC_OP_WRITE, 61440, 4096);
	check_rec(&r[1], 834000, TRC_OP_READ, 774144, 4096);
	check_rec(&r[6], 2966000, TRC_OP_FLUSH, 884736, 0);
	check_rec(&r[8], 6643000, TRC_OP_WRITE, 368640, 4096);
	assert_int_equal(r[8].dev, 0);
}

static void test_trc_iolog_v2_waits_and_files(void **state)
{
	struct trc_rec r[8];
	char msg[512];

	assert_int_equal(read_all(data("fio-iolog2.log"), NULL, r, 8, msg, sizeof(msg), NULL), 4);
	check_rec(&r[0], 0, TRC_OP_WRITE, 0, 4096);
	check_rec(&r[1], 0, TRC_OP_READ, 8192, 4096);
	assert_int_equal(r[1].dev, 1);                    /* second file added */
	check_rec(&r[2], 5000000, TRC_OP_DISCARD, 4096, 4096);   /* after "wait 5" (ms) */
	check_rec(&r[3], 5000000, TRC_OP_FLUSH, 0, 0);
}

static void test_trc_blktrace_merges_cpus_by_time(void **state)
{
	struct trc_reader_cfg c;
	struct trc_rec r[16];
	char msg[512];
	const char *fmt;
	uint32_t dev = 8u << 20 | 16;

	/* D events (default): the PC request and the notify record are skipped */
	assert_int_equal(read_all(data("sample.blktrace.1"), NULL, r, 16, msg, sizeof(msg), &fmt), 6);
	assert_string_equal(fmt, "blktrace");
	check_rec(&r[0], 1000, TRC_OP_WRITE, 2048 * 512, 8192);         /* cpu 0 */
	assert_int_equal(r[0].dev, dev);
	assert_int_equal(r[0].pid, 1234);
	check_rec(&r[1], 3000, TRC_OP_READ, 8192 * 512, 4096);          /* cpu 1 */
	check_rec(&r[2], 101000, TRC_OP_FLUSH, 0, 0);
	check_rec(&r[3], 201000, TRC_OP_ZONE_RESET, 65536ull * 512, 0);  /* 0-byte write */
	check_rec(&r[4], 301000, TRC_OP_DISCARD, 4096 * 512, 16384);
	check_rec(&r[5], 401000, TRC_OP_WRITE, 70000ull * 512, 4096);
	trc_reader_cfg_init(&c);
	c.event = TRC_EV_COMPLETE;
	assert_int_equal(read_all(data("sample.blktrace.0"), &c, r, 16, msg, sizeof(msg), NULL), 6);
	assert_true(r[5].has & TRC_HAS_STATUS);
	assert_int_equal(r[5].status, 5);                 /* EIO */
	assert_int_equal(r[0].status, 0);
	c.event = TRC_EV_QUEUE;
	assert_int_equal(read_all(data("sample.blktrace.0"), &c, r, 16, msg, sizeof(msg), NULL), 6);
	check_rec(&r[0], 0, TRC_OP_WRITE, 2048 * 512, 8192);
}

/* Debian's blkparse printed sample.blkparse.txt from the binary: both readers
 * must agree, event by event (zero-byte Q/D lines carry no sector in text). */
static void test_trc_blkparse_text_matches_binary(void **state)
{
	static const enum trc_event evs[] = { TRC_EV_QUEUE, TRC_EV_DISPATCH, TRC_EV_COMPLETE };
	struct trc_reader_cfg c;
	struct trc_rec a[16], b[16];
	char msg[512];
	const char *fmt;

	trc_reader_cfg_init(&c);
	for (int e = 0; e < 3; e++) {
		int n;

		c.event = evs[e];
		n = read_all(data("sample.blktrace.0"), &c, a, 16, msg, sizeof(msg), NULL);
		assert_int_equal(read_all(data("sample.blkparse.txt"), &c, b, 16, msg, sizeof(msg), &fmt), n);
		assert_string_equal(fmt, "blkparse");
		assert_true(n >= 6);
		for (int i = 0; i < n; i++) {
			assert_int_equal(a[i].ts_ns, b[i].ts_ns);
			assert_int_equal(a[i].op, b[i].op);
			assert_int_equal(a[i].len_bytes, b[i].len_bytes);
			assert_int_equal(a[i].dev, b[i].dev);
			assert_int_equal(a[i].pid, b[i].pid);
			assert_int_equal(a[i].status, b[i].status);
			if (a[i].len_bytes || evs[e] == TRC_EV_COMPLETE)
				assert_int_equal(a[i].offset_bytes, b[i].offset_bytes);
		}
	}
}

/* v8 records (Linux >= 6.19) carry the zone op in the 64-bit action. */
static void test_trc_blktrace_v8_zone_categories(void **state)
{
	static const struct {
		uint64_t cat;
		uint8_t op;
	} t[] = {
		{ 1ull << 17, TRC_OP_ZONE_RESET }, { 1ull << 19, TRC_OP_ZONE_FINISH },
		{ 1ull << 20, TRC_OP_ZONE_OPEN }, { 1ull << 21, TRC_OP_ZONE_CLOSE },
		{ 1ull << 16, TRC_OP_ZONE_APPEND },
	};
	uint8_t buf[5 * 64];
	struct trc_rec r[8];
	char msg[512];

	memset(buf, 0, sizeof(buf));
	for (int i = 0; i < 5; i++) {
		uint8_t *p = buf + i * 64;
		uint32_t magic = 0x65617408, seq = (uint32_t)i + 1, bytes = i == 4 ? 4096 : 0;
		uint64_t time = 1000 * (uint64_t)i, sector = 524288 * (uint64_t)i;
		uint64_t action = 7 | (1ull << (16 + 6)) | (1ull << (16 + 8)) | (1ull << (16 + 1)) | (t[i].cat << 16);

		memcpy(p, &magic, 4);
		memcpy(p + 4, &seq, 4);
		memcpy(p + 8, &time, 8);
		memcpy(p + 16, &sector, 8);
		memcpy(p + 24, &bytes, 4);
		memcpy(p + 32, &action, 8);
	}
	put_file(tmp("v8.blktrace.0"), buf, sizeof(buf));
	assert_int_equal(read_all(tmp("v8.blktrace.0"), NULL, r, 8, msg, sizeof(msg), NULL), 5);
	for (int i = 0; i < 5; i++)
		check_rec(&r[i], 1000 * (uint64_t)i, t[i].op, 524288ull * 512 * (uint64_t)i, i == 4 ? 4096 : 0);
}

static void test_trc_blktrace_big_endian(void **state)
{
	uint8_t p[48] = { 0 }, q[48];
	struct trc_rec r[2];
	char msg[512];
	uint32_t v32;
	uint64_t v64;

	v32 = __builtin_bswap32(0x65617407); memcpy(p, &v32, 4);
	v32 = __builtin_bswap32(1); memcpy(p + 4, &v32, 4);
	v64 = __builtin_bswap64(5000); memcpy(p + 8, &v64, 8);
	v64 = __builtin_bswap64(2048); memcpy(p + 16, &v64, 8);
	v32 = __builtin_bswap32(4096); memcpy(p + 24, &v32, 4);
	v32 = __builtin_bswap32(7 | (1u << 22) | (1u << 24) | (1u << 16)); memcpy(p + 28, &v32, 4);  /* D read */
	memcpy(q, p, 48);
	put_file(tmp("be.bin"), q, 48);
	assert_int_equal(read_all(tmp("be.bin"), NULL, r, 2, msg, sizeof(msg), NULL), 1);
	check_rec(&r[0], 0, TRC_OP_READ, 2048 * 512, 4096);
}

static void test_trc_native_round_trip_keeps_every_field(void **state)
{
	struct trc_rec in[3] = {
		{ .ts_ns = 1, .offset_bytes = 4096, .len_bytes = 8192, .latency_ns = 77, .dev = 3, .pid = 9,
		  .status = 0x02052104, .op = TRC_OP_WRITE, .hint = 2,
		  .has = TRC_HAS_DEV | TRC_HAS_LATENCY | TRC_HAS_STATUS | TRC_HAS_PID | TRC_HAS_HINT },
		{ .ts_ns = 2, .op = TRC_OP_ZONE_RESET, .has = TRC_HAS_ALL },
		{ .ts_ns = UINT64_MAX, .offset_bytes = 1ull << 60, .len_bytes = 512, .op = TRC_OP_ZONE_APPEND },
	};
	struct trc_rec out[4];
	struct trc_writer *w;
	char msg[512];
	const char *fmt;

	assert_int_equal(trc_writer_open(tmp("n.trc"), TRC_OUT_NATIVE, "test", &w, msg, sizeof(msg)), 0);
	for (int i = 0; i < 3; i++)
		assert_int_equal(trc_writer_put(w, &in[i], msg, sizeof(msg)), 0);
	assert_int_equal(trc_writer_close(w, msg, sizeof(msg)), 0);
	assert_int_equal(read_all(tmp("n.trc"), NULL, out, 4, msg, sizeof(msg), &fmt), 3);
	assert_string_equal(fmt, "native");
	assert_memory_equal(in, out, sizeof(in));
}

/* ---- native version 2 ------------------------------------------------------ */

static void *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *b;
	long n;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	rewind(f);
	b = malloc((size_t)n + 1);
	assert_non_null(b);
	assert_int_equal(fread(b, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return b;
}

static void write_recs(const char *path, enum trc_out_fmt fmt, const struct trc_rec *recs, size_t n)
{
	struct trc_writer *w;
	char msg[512];

	assert_int_equal(trc_writer_open(path, fmt, "test", &w, msg, sizeof(msg)), 0);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(trc_writer_put(w, &recs[i], msg, sizeof(msg)), 0);
	assert_int_equal(trc_writer_close(w, msg, sizeof(msg)), 0);
}

static uint64_t get_le(const uint8_t *p, int n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

static void put_le(uint8_t *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++, v >>= 8)
		p[i] = (uint8_t)v;
}

/* The block checksum as docs/TRACES.md defines it (written from the doc). */
static uint64_t doc_sum(const uint8_t *p, size_t len)
{
	uint64_t a0 = 0, a1 = 0, b0 = 0, b1 = 0;

	for (size_t i = 0; i < len; i += 16) {
		uint8_t t[16] = { 0 };

		memcpy(t, p + i, len - i < 16 ? len - i : 16);
		a0 += get_le(t, 8);
		a1 += get_le(t + 8, 8);
		b0 += a0;
		b1 += a1;
	}
	return a0 + 0x9e3779b97f4a7c15ull * a1 + 0xc2b2ae3d27d4eb4eull * b0 + 0x165667b19e3779f8ull * b1;
}

/* Block at @off: its size; *nr set to its record count. */
static size_t blk_size(const uint8_t *b, size_t off, uint32_t *nr)
{
	*nr = (uint32_t)get_le(b + off, 4);
	return 8 + 2 * (size_t)*nr + get_le(b + off + 4, 4) + 8;
}

/* Recompute the checksum of the block at @off (after an edit). */
static void reseal(uint8_t *b, size_t off)
{
	uint32_t nr;
	size_t n = blk_size(b, off, &nr);

	put_le(b + off + n - 8, doc_sum(b + off, n - 8), 8);
}

/* Random records with the values a codec gets wrong: 0, all ones, one
 * either side of a width's end, unaligned and sector-aligned, time going
 * backwards, offsets at the end of the 64-bit space, fields changing or not. */
static void rand_recs(struct trc_rec *r, size_t n, uint64_t seed)
{
	static const uint64_t edge[] = { 0, 1, 255, 256, 511, 512, 65535, 65536, 0xffffffull, 1ull << 32,
					 (1ull << 48) - 1, 1ull << 56, UINT64_MAX - 512, UINT64_MAX - 1, UINT64_MAX };
	uint64_t st = seed;

	memset(r, 0, n * sizeof(*r));
	for (size_t i = 0; i < n; i++) {
		uint64_t x = zl_test_rand(&st), y = zl_test_rand(&st);
		uint64_t pick = zl_test_rand(&st);

		r[i] = i ? r[i - 1] : r[i];
		switch (x % 6) {
		case 0: r[i].ts_ns = edge[y % 15]; break;
		case 1: r[i].ts_ns -= y % 1000; break;                 /* backwards */
		default: r[i].ts_ns += y % 200000; break;
		}
		switch (pick % 8) {
		case 0:            /* anything within the rule */
			r[i].offset_bytes = zl_test_rand(&st) >> (y % 64);
			r[i].len_bytes = zl_test_rand(&st) >> (x % 64);
			if (r[i].len_bytes > UINT64_MAX - r[i].offset_bytes)
				r[i].len_bytes = UINT64_MAX - r[i].offset_bytes;
			break;
		case 1:            /* at the very end of the space */
			r[i].offset_bytes = edge[y % 15];
			r[i].len_bytes = UINT64_MAX - r[i].offset_bytes;
			break;
		case 2:            /* sequential */
			r[i].offset_bytes = i ? r[i - 1].offset_bytes + r[i - 1].len_bytes : 0;
			r[i].len_bytes = 4096ull << (y % 6);
			if (r[i].len_bytes > UINT64_MAX - r[i].offset_bytes)
				r[i].offset_bytes = 0;
			break;
		case 3:            /* unaligned, zero length */
			r[i].offset_bytes = y % 100000 * 3;
			r[i].len_bytes = 0;
			break;
		default:           /* sector-aligned random */
			r[i].offset_bytes = (y % (1ull << 40)) & ~511ull;
			r[i].len_bytes = (x % 4096) * 512;
			break;
		}
		r[i].latency_ns = (pick >> 8) % 3 ? zl_test_rand(&st) >> (x % 64) : 0;
		r[i].op = (uint8_t)((pick >> 16) % TRC_NR_OPS);
		if ((pick >> 24) % 8 == 0) {       /* the carried fields change now and then */
			r[i].dev = (uint32_t)(zl_test_rand(&st) >> (y % 33));
			r[i].pid = (uint32_t)(zl_test_rand(&st) >> (x % 33));
			r[i].status = (pick >> 32) % 2 ? UINT32_MAX : (uint32_t)(y >> 40);
			r[i].has = (uint16_t)((pick >> 40) % 64);
			r[i].hint = (uint8_t)((pick >> 48) % 6);
		}
	}
}

static void test_trc_native_v2_round_trip_random_extremes(void **state)
{
	size_t n = 10000, len;       /* three data blocks */
	struct trc_rec *in = calloc(n, sizeof(*in)), *out = calloc(n + 1, sizeof(*out));
	char msg[512];
	const char *fmt;
	uint8_t *b;

	assert_non_null(in);
	assert_non_null(out);
	for (uint64_t seed = 1; seed <= 4; seed++) {
		rand_recs(in, n, seed);
		write_recs(tmp("r.trc"), TRC_OUT_NATIVE, in, n);
		assert_int_equal(read_all(tmp("r.trc"), NULL, out, (int)n + 1, msg, sizeof(msg), &fmt), (int)n);
		assert_string_equal(fmt, "native");
		assert_memory_equal(in, out, n * sizeof(*in));
	}
	/* the header says version 2, variable records, the count */
	b = slurp(tmp("r.trc"), &len);
	assert_memory_equal(b, "ZLBTRC1", 8);
	assert_int_equal(get_le(b + 8, 2), 2);
	assert_int_equal(get_le(b + 10, 2), 64);
	assert_int_equal(get_le(b + 12, 2), 0);
	assert_int_equal(get_le(b + 32, 8), n);
	free(b);
	/* version 1 is still written on request and read */
	write_recs(tmp("r1.trc"), TRC_OUT_NATIVE_V1, in, n);
	b = slurp(tmp("r1.trc"), &len);
	assert_int_equal(len, 64 + 48 * n);
	assert_int_equal(get_le(b + 8, 2), 1);
	free(b);
	assert_int_equal(read_all(tmp("r1.trc"), NULL, out, (int)n + 1, msg, sizeof(msg), NULL), (int)n);
	assert_memory_equal(in, out, n * sizeof(*in));
	free(in);
	free(out);
}

static void test_trc_native_v2_writer_refuses_what_no_reader_takes(void **state)
{
	struct trc_rec bad[] = {
		{ .op = TRC_NR_OPS }, { .has = 1u << 8 }, { .hint = 6 },
		{ .offset_bytes = UINT64_MAX, .len_bytes = 1 },
	};
	struct trc_writer *w;
	char msg[512];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(trc_writer_open(tmp("bad.trc"), TRC_OUT_NATIVE, NULL, &w, msg, sizeof(msg)), 0);
		assert_int_equal(trc_writer_put(w, &bad[i], msg, sizeof(msg)), -EINVAL);
		assert_non_null(strstr(msg, "bad.trc: record 0: op"));
		assert_int_equal(trc_writer_close(w, msg, sizeof(msg)), 0);
	}
}

/* A byte-for-byte check of one block: the worked example of docs/TRACES.md. */
static void test_trc_native_v2_worked_example_bytes(void **state)
{
	struct trc_rec in[2] = {
		{ .ts_ns = 1000, .offset_bytes = 8192, .len_bytes = 4096, .latency_ns = 250000, .dev = 2,
		  .op = TRC_OP_WRITE, .has = TRC_HAS_DEV | TRC_HAS_LATENCY },
		{ .ts_ns = 1500, .offset_bytes = 12288, .len_bytes = 4096, .latency_ns = 300, .dev = 2,
		  .op = TRC_OP_READ, .has = TRC_HAS_DEV | TRC_HAS_LATENCY },
	};
	static const uint8_t want[] = {
		2, 0, 0, 0, 17, 0, 0, 0,                     /* 2 records, 17 data bytes */
		0xaf, 0x74, 0x20, 0x54,                      /* control words 0x74af, 0x5420 */
		0x91, 0x00, 0x02, 0x03, 0x00,                /* extension: write, dev (1 byte) 2, has 0x03, hint 0 */
		0xd0, 0x07, 0x20, 0x08, 0x90, 0xd0, 0x03,    /* ts zz(1000), off zz(16 sectors), 8 sectors, lat 250000 */
		0xe8, 0x03, 0x08, 0x2c, 0x01,                /* ts zz(500), (off: sequential), 8 sectors, lat 300 */
	};
	struct trc_rec out[3];
	char msg[512];
	size_t len;
	uint8_t *b;

	write_recs(tmp("ex.trc"), TRC_OUT_NATIVE, in, 2);
	b = slurp(tmp("ex.trc"), &len);
	assert_int_equal(len, 64 + sizeof(want) + 8 + 16);
	assert_memory_equal(b + 64, want, sizeof(want));
	assert_int_equal(get_le(b + 64 + sizeof(want), 8), doc_sum(b + 64, sizeof(want)));
	/* the end block: no records, no data, its checksum */
	assert_int_equal(get_le(b + len - 16, 8), 0);
	assert_int_equal(get_le(b + len - 8, 8), doc_sum(b + len - 16, 8));
	free(b);
	assert_int_equal(read_all(tmp("ex.trc"), NULL, out, 3, msg, sizeof(msg), NULL), 2);
	assert_memory_equal(in, out, sizeof(in));
}

/* Cut at every byte: an error naming the file and a byte offset, and only
 * whole blocks' records before it (all of them or none). */
static void test_trc_native_v2_truncated_anywhere_is_reported(void **state)
{
	struct trc_rec in[5], out[6];
	size_t len, end_blk;
	uint8_t *b;
	uint32_t nr;

	rand_recs(in, 5, 7);
	write_recs(tmp("full.trc"), TRC_OUT_NATIVE, in, 5);
	b = slurp(tmp("full.trc"), &len);
	end_blk = 64 + blk_size(b, 64, &nr);
	assert_int_equal(nr, 5);
	assert_int_equal(len, end_blk + 16);
	for (size_t cut = 0; cut < len; cut++) {
		char msg[512], want[64];
		int n;

		put_file(tmp("cut.trc"), b, cut);
		n = read_all(tmp("cut.trc"), NULL, out, 6, msg, sizeof(msg), NULL);
		if (cut < 8) {
			assert_int_equal(n, -EPROTO);         /* no magic: not recognised */
			continue;
		}
		if (cut < 64) {
			assert_int_equal(n, -EBADMSG);
			assert_non_null(strstr(msg, "cut.trc: byte 0: header truncated"));
			continue;
		}
		assert_int_equal(n, -EINVAL);
		snprintf(want, sizeof(want), "cut.trc: byte %zu: ", cut < end_blk ? (size_t)64 : end_blk);
		if (!strstr(msg, want))
			fail_msg("cut at %zu: '%s' lacks '%s'", cut, msg, want);
	}
	/* the records before the cut are the whole first block, as written */
	{
		struct trc_reader *r;
		struct trc_rec rec;
		char msg[512];
		int k = 0, ret;

		put_file(tmp("cut.trc"), b, end_blk + 3);
		assert_int_equal(trc_reader_open(tmp("cut.trc"), NULL, &r, msg, sizeof(msg)), 0);
		while ((ret = trc_reader_next(r, &rec)) == 1)
			assert_memory_equal(&rec, &in[k++], sizeof(rec));
		assert_int_equal(k, 5);
		assert_int_equal(ret, -EINVAL);
		assert_non_null(strstr(trc_reader_msg(r), "block header truncated (3 of 8 bytes)"));
		assert_int_equal(trc_reader_next(r, &rec), 0);
		trc_reader_close(r);
	}
	free(b);
}

/* Every malformed shape the reader checks, each with a valid checksum (so
 * the structural check is what finds it) and the message that says what. */
static void test_trc_native_v2_malformed_blocks_rejected(void **state)
{
	struct trc_rec in[5] = {
		{ .ts_ns = 1000, .offset_bytes = 4096, .len_bytes = 4096, .dev = 3, .op = TRC_OP_WRITE, .has = TRC_HAS_DEV },
		{ .ts_ns = 2000, .offset_bytes = 8192, .len_bytes = 4096, .dev = 3, .op = TRC_OP_WRITE, .has = TRC_HAS_DEV },
		{ .ts_ns = 3000, .offset_bytes = 0, .len_bytes = 512, .dev = 3, .op = TRC_OP_READ, .has = TRC_HAS_DEV },
		{ .ts_ns = 3000, .offset_bytes = 77, .len_bytes = 3, .dev = 3, .op = TRC_OP_READ, .has = TRC_HAS_DEV },
		{ .ts_ns = 2999, .offset_bytes = 1ull << 40, .len_bytes = 0, .dev = 3, .op = TRC_OP_FLUSH, .has = TRC_HAS_DEV },
	};
	enum { C = 64 + 8, D = 64 + 8 + 10 };   /* control words, data (record 0's extension first) */
	static const struct {
		int at, delta;               /* byte to change (-1: none), new value; see below */
		uint8_t val;
		int want_n, want_ret;
		const char *want;
	} t[] = {
		{ C + 0, 0, 0x0c, 0, -EINVAL, "byte 72: record 0 (block at byte 64): op out of range in its control word" },
		{ C + 4, 0, 0x2d, 2, -EINVAL, "byte 76: record 2 (block at byte 64): op out of range in its control word" },
		{ D + 0, 0, 0x1b, 0, -EINVAL, "byte 82: record 0 (block at byte 64): op out of range in its extension" },
		{ D + 1, 0, 0x40, 0, -EINVAL, "byte 83: record 0 (block at byte 64): widths byte has bits 6-7 set" },
		{ D + 3, 0, 0x81, 0, -EINVAL, "byte 85: record 0 (block at byte 64): has bits or hint out of range" },
		{ D + 4, 0, 0x06, 0, -EINVAL, "byte 85: record 0 (block at byte 64): has bits or hint out of range" },
		{ -1, 1, 0, 4, -EINVAL, "record 4 (block at byte 64): data bytes left after the block's last record" },
		{ -1, -1, 0, 4, -EINVAL, "record 4 (block at byte 64): runs past the block's data" },
		{ 64, 0, 0xff, 0, -EBADMSG, "byte 64: block of 65535 records" },
	};
	size_t len;
	uint8_t *b;
	uint32_t nr;

	write_recs(tmp("m.trc"), TRC_OUT_NATIVE, in, 5);
	b = slurp(tmp("m.trc"), &len);
	assert_int_equal(blk_size(b, 64, &nr) + 64 + 16, len);
	assert_int_equal(b[C] & 15, 15);         /* record 0 has the extension (dev 3, has) */
	assert_int_equal(b[D], 0x01 | 0x10 | 0x80);
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		uint8_t *m = malloc(len + 1);
		size_t mlen = len, dlen = get_le(b + 68, 4), dend = D + dlen;
		struct trc_rec out[6];
		char msg[512];
		int n;

		assert_non_null(m);
		if (t[i].delta > 0) {            /* one more data byte than the records use */
			memcpy(m, b, dend);
			m[dend] = 0;
			memcpy(m + dend + 1, b + dend, len - dend);
			mlen++;
		} else if (t[i].delta < 0) {     /* one fewer */
			memcpy(m, b, dend - 1);
			memcpy(m + dend - 1, b + dend, len - dend);
			mlen--;
		} else {
			memcpy(m, b, len);
		}
		put_le(m + 68, dlen + (uint64_t)(int64_t)t[i].delta, 4);
		if (t[i].at >= 0)
			m[t[i].at] = t[i].val;
		if (t[i].at == 64)
			m[65] = 0xff;
		else
			reseal(m, 64);
		put_file(tmp("m2.trc"), m, mlen);
		n = read_all(tmp("m2.trc"), NULL, out, 6, msg, sizeof(msg), NULL);
		if (n != t[i].want_ret || !strstr(msg, t[i].want) || !strstr(msg, "m2.trc"))
			fail_msg("case %zu: %d '%s', want %d '%s'", i, n, msg, t[i].want_ret, t[i].want);
		/* what came before the bad record came out, as written */
		{
			struct trc_reader *r;
			struct trc_rec rec;
			int k = 0;

			assert_int_equal(trc_reader_open(tmp("m2.trc"), NULL, &r, msg, sizeof(msg)), 0);
			while (trc_reader_next(r, &rec) == 1)
				assert_memory_equal(&rec, &in[k++], sizeof(rec));
			assert_int_equal(k, t[i].want_n);
			trc_reader_close(r);
		}
		free(m);
	}
	/* a changed byte without a new checksum */
	{
		struct trc_rec out[6];
		char msg[512];

		b[D + 6] ^= 0x10;
		put_file(tmp("m3.trc"), b, len);
		b[D + 6] ^= 0x10;
		assert_int_equal(read_all(tmp("m3.trc"), NULL, out, 6, msg, sizeof(msg), NULL), -EINVAL);
		assert_non_null(strstr(msg, "m3.trc: byte 64: block of 5 records: checksum mismatch"));
	}
	/* bytes after the end block: all records, then the error */
	{
		struct trc_rec out[6];
		char msg[512], want[64];
		uint8_t *m = malloc(len + 1);

		assert_non_null(m);
		memcpy(m, b, len);
		m[len] = 0;
		put_file(tmp("m4.trc"), m, len + 1);
		assert_int_equal(read_all(tmp("m4.trc"), NULL, out, 6, msg, sizeof(msg), NULL), -EINVAL);
		snprintf(want, sizeof(want), "m4.trc: byte %zu: bytes after the end block", len);
		assert_non_null(strstr(msg, want));
		free(m);
	}
	free(b);
}

/* Byte widths of the 3-bit codes and of the LEN codes (docs/TRACES.md). */
static const unsigned w3_doc[8] = { 0, 1, 2, 3, 4, 5, 6, 8 }, w2_doc[4] = { 0, 1, 2, 8 };

/*
 * A record whose OFF + LEN overflows in the middle of a run of plain
 * records: the decoder's fast path stops there and the general step gives
 * the message, after the records before it as written.
 */
static void test_trc_native_v2_overflow_in_a_run_is_caught_by_the_fast_path(void **state)
{
	enum { N = 300, BAD = 201 };
	struct trc_rec *in = calloc(N, sizeof(*in));
	size_t len, at;
	uint32_t nr;
	uint8_t *b;

	assert_non_null(in);
	for (size_t i = 0; i < N; i++) {     /* offsets far apart: 8-byte OFF fields */
		in[i].ts_ns = 1000 * i;
		in[i].offset_bytes = (i % 2) ? 1ull << 62 : 4096 * i;
		in[i].len_bytes = 8192;
		in[i].op = i % 3 ? TRC_OP_WRITE : TRC_OP_READ;
	}
	write_recs(tmp("ov.trc"), TRC_OUT_NATIVE, in, N);
	b = slurp(tmp("ov.trc"), &len);
	blk_size(b, 64, &nr);
	assert_int_equal(nr, N);
	/* find record BAD's OFF field from the control words */
	at = 64 + 8 + 2 * (size_t)N;
	for (size_t i = 0; i <= BAD; i++) {
		unsigned c = (unsigned)get_le(b + 64 + 8 + 2 * i, 2);

		assert_int_not_equal(c & 15, 15);    /* no extension: all plain */
		if (i == BAD) {
			uint64_t noff = in[BAD - 1].offset_bytes + in[BAD - 1].len_bytes;
			uint64_t d = (UINT64_MAX - 4095) - noff;     /* OFF = 2^64 - 4096, + 8192 overflows */

			assert_int_equal(c >> 12 & 1, 1);    /* SECT: all is 512-byte aligned */
			d = (uint64_t)((int64_t)d >> 9);
			assert_int_equal(w3_doc[c >> 7 & 7], 8);
			at += w3_doc[c >> 4 & 7];
			put_le(b + at, d << 1 ^ (uint64_t)((int64_t)d >> 63), 8);
			break;
		}
		at += w3_doc[c >> 4 & 7] + w3_doc[c >> 7 & 7] + w2_doc[c >> 10 & 3] + w3_doc[c >> 13];
	}
	reseal(b, 64);
	put_file(tmp("ov2.trc"), b, len);
	{
		struct trc_reader *r;
		const struct trc_rec *recs;
		char msg[512], want[96];
		int k = 0, ret;

		assert_int_equal(trc_reader_open(tmp("ov2.trc"), NULL, &r, msg, sizeof(msg)), 0);
		while ((ret = trc_reader_batch(r, &recs)) > 0)
			for (int i = 0; i < ret; i++, k++)
				assert_memory_equal(&recs[i], &in[k], sizeof(*recs));
		assert_int_equal(ret, -EINVAL);
		assert_int_equal(k, BAD);
		snprintf(want, sizeof(want), "record %d (block at byte 64): offset + length overflows", BAD);
		if (!strstr(trc_reader_msg(r), want))
			fail_msg("'%s', want '%s'", trc_reader_msg(r), want);
		trc_reader_close(r);
	}
	free(b);
	free(in);
}

/* --lenient skips a bad block whole and counts its records; strict stops
 * at it, after the blocks before it. */
static void test_trc_native_v2_lenient_skips_a_bad_block(void **state)
{
	size_t n = 10000, len, b2;
	struct trc_rec *in = calloc(n, sizeof(*in)), rec;
	struct trc_reader_cfg c;
	struct trc_reader *r;
	char msg[512], want[64];
	uint32_t nr1, nr2;
	uint8_t *b;
	size_t k = 0;

	assert_non_null(in);
	rand_recs(in, n, 11);
	write_recs(tmp("l.trc"), TRC_OUT_NATIVE, in, n);
	b = slurp(tmp("l.trc"), &len);
	b2 = 64 + blk_size(b, 64, &nr1);
	blk_size(b, b2, &nr2);
	assert_int_equal(nr1, 4096);
	assert_int_equal(nr2, 4096);
	b[b2 + 8 + 2 * 4096 + 100] ^= 1;      /* a data byte of block 2 */
	put_file(tmp("l2.trc"), b, len);
	trc_reader_cfg_init(&c);
	c.lenient = true;
	assert_int_equal(trc_reader_open(tmp("l2.trc"), &c, &r, msg, sizeof(msg)), 0);
	while (trc_reader_next(r, &rec) == 1) {
		size_t want_i = k < 4096 ? k : k + 4096;

		assert_memory_equal(&rec, &in[want_i], sizeof(rec));
		k++;
	}
	assert_int_equal(k, n - 4096);
	assert_int_equal(trc_reader_nr_bad(r), 4096);
	trc_reader_close(r);
	/* strict */
	c.lenient = false;
	assert_int_equal(trc_reader_open(tmp("l2.trc"), &c, &r, msg, sizeof(msg)), 0);
	k = 0;
	while (trc_reader_next(r, &rec) == 1)
		k++;
	assert_int_equal(k, 4096);
	snprintf(want, sizeof(want), "l2.trc: byte %zu: block of 4096 records: checksum mismatch", b2);
	assert_non_null(strstr(trc_reader_msg(r), want));
	trc_reader_close(r);
	free(b);
	free(in);
}

/* One recorded command trace, made through zscsi (the real device path). */
static void record_cmds(const char *image, const char *trace)
{
	struct zdisk_cfg dc;
	struct zdisk *z;
	struct zscsi *s;
	struct ztrace *tr;
	struct ztrace_cfg tc = { .lba_size = 4096, .capacity_lba = 64 * 256, .clock = ZTRACE_CLOCK_VIRTUAL };
	uint8_t buf[8 * 4096], sense[ZSCSI_SENSE_LEN];
	char msg[512];
	static const struct {
		uint8_t op, sa;
		uint64_t lba;
		uint32_t n;
		bool all;
	} cmds[] = {
		{ 0x8a, 0, 256, 8, false },     /* WRITE(16) zone 1 at its WP */
		{ 0x8a, 0, 264, 4, false },     /* continues */
		{ 0x88, 0, 256, 8, false },     /* READ(16) */
		{ 0x8a, 0, 300, 1, false },     /* not at the WP: 5/21h/04h */
		{ 0x2a, 0, 512, 2, false },     /* WRITE(10) zone 2 */
		{ 0x35, 0, 0, 0, false },       /* SYNCHRONIZE CACHE(10) */
		{ 0x94, 0x02, 512, 0, false },  /* FINISH zone 2 */
		{ 0x8a, 0, 514, 1, false },     /* write to a FULL zone: error */
		{ 0x95, 0x00, 0, 0, false },    /* REPORT ZONES */
		{ 0x12, 0, 0, 0, false },       /* INQUIRY: not replayed */
		{ 0x94, 0x04, 0, 0, true },     /* RESET ALL */
		{ 0x8a, 0, 256, 1, false },     /* at the WP again */
	};

	zdisk_cfg_init(&dc);
	zdev_cfg_init(&dc.geo);
	dc.geo.lba_size = 4096;
	dc.geo.zone_size_lba = 256;
	dc.geo.capacity_lba = 64 * 256;
	dc.store.path = image;
	dc.store.kind = ZSTORE_FILE;
	dc.store.create = true;
	dc.store.force = true;
	assert_int_equal(zdisk_open(&dc, &z, msg, sizeof(msg)), 0);
	assert_int_equal(zscsi_create(z, NULL, &s), 0);
	assert_int_equal(ztrace_create(&tc, &tr), 0);
	assert_int_equal(ztrace_start(tr, trace, 0, msg, sizeof(msg)), 0);
	memset(buf, 0, sizeof(buf));
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		uint8_t cdb[16] = { cmds[i].op };
		size_t cl = 16;
		struct iovec iov = { buf, sizeof(buf) };
		uint8_t st;

		if (cmds[i].op == 0x2a || cmds[i].op == 0x35) {
			cl = 10;
			zl_test_put_be(cdb + 2, cmds[i].lba, 4);
			zl_test_put_be(cdb + 7, cmds[i].n, 2);
		} else if (cmds[i].op == 0x12) {
			cl = 6;
			cdb[4] = 96;
		} else if (cmds[i].op == 0x94 || cmds[i].op == 0x95) {
			cdb[1] = cmds[i].sa;
			zl_test_put_be(cdb + 2, cmds[i].lba, 8);
			if (cmds[i].op == 0x95)
				zl_test_put_be(cdb + 10, sizeof(buf), 4);
			if (cmds[i].all)
				cdb[14] = 1;
		} else {
			zl_test_put_be(cdb + 2, cmds[i].lba, 8);
			zl_test_put_be(cdb + 10, cmds[i].n, 4);
		}
		iov.iov_len = cmds[i].op == 0x8a || cmds[i].op == 0x88 || cmds[i].op == 0x2a ?
			      cmds[i].n * 4096u : sizeof(buf);
		if (cmds[i].op == 0x12)
			iov.iov_len = 96;
		memset(sense, 0, sizeof(sense));
		st = zscsi_execute(s, cdb, cl, &iov, 1, sense, NULL);
		assert_int_equal(ztrace_record_cmd(tr, cdb, cl, st, sense, 1000 * (i + 1), 10), 0);
	}
	assert_int_equal(ztrace_stop(tr, NULL), 0);
	ztrace_destroy(tr);
	zscsi_destroy(s);
	zdisk_close(z);
}

static void fresh_image(const char *image)
{
	struct zdisk_cfg dc;
	struct zdisk *z;
	char msg[512];

	zdisk_cfg_init(&dc);
	zdev_cfg_init(&dc.geo);
	dc.geo.lba_size = 4096;
	dc.geo.zone_size_lba = 256;
	dc.geo.capacity_lba = 64 * 256;
	dc.store.path = image;
	dc.store.kind = ZSTORE_FILE;
	dc.store.create = true;
	dc.store.force = true;
	assert_int_equal(zdisk_open(&dc, &z, msg, sizeof(msg)), 0);
	zdisk_close(z);
}

static void test_trc_ztrace_reader_maps_commands(void **state)
{
	struct trc_rec r[16];
	char msg[512];
	const char *fmt;

	record_cmds(tmp("rec.img"), tmp("cmd.trc"));
	assert_int_equal(read_all(tmp("cmd.trc"), NULL, r, 16, msg, sizeof(msg), &fmt), 12);
	assert_string_equal(fmt, "ztrace");
	check_rec(&r[0], 1000, TRC_OP_WRITE, 256 * 4096, 8 * 4096);
	assert_int_equal(r[0].status, 0);
	assert_int_equal(r[0].latency_ns, 10);
	check_rec(&r[2], 3000, TRC_OP_READ, 256 * 4096, 8 * 4096);
	assert_int_equal(r[3].status, 0x02052104);          /* CHECK CONDITION 5/21h/04h */
	check_rec(&r[5], 6000, TRC_OP_FLUSH, 0, 0);
	check_rec(&r[6], 7000, TRC_OP_ZONE_FINISH, 512 * 4096, 0);
	assert_int_not_equal(r[7].status, 0);
	assert_int_equal(r[8].op, TRC_OP_OTHER);            /* REPORT ZONES */
	assert_int_equal(r[9].op, TRC_OP_OTHER);            /* INQUIRY */
	assert_int_equal(r[10].op, TRC_OP_ZONE_RESET);
	assert_true(r[10].has & TRC_HAS_ALL);
}

/* FUA: a command trace's FUA bit and blktrace's BLK_TC_FUA (v7 and v8) set
 * TRC_HAS_FUA, nothing else does, and `trace cat` prints it (" fua").  Linux
 * >= 6.19 drops every FUA request from a version-1 blktrace (46-vm-trace.sh
 * leaves them out of its comparison by this flag). */
static void test_trc_fua_from_ztrace_and_blktrace_and_in_cat(void **state)
{
	struct ztrace_cfg tc = { .lba_size = 4096, .capacity_lba = 64 * 256, .clock = ZTRACE_CLOCK_VIRTUAL };
	static const uint8_t cdbs[4][16] = {
		{ 0x8a, 0x08, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 },  /* WRITE(16) FUA, LBA 256, 1 */
		{ 0x8a, 0x00, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 1 },  /* WRITE(16), LBA 257 */
		{ 0x2a, 0x08, 0, 0, 2, 0, 0, 0, 2 },                  /* WRITE(10) FUA, LBA 512, 2 */
		{ 0x88, 0x00, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 },  /* READ(16) */
	};
	static const size_t cl[4] = { 16, 16, 10, 16 };
	uint8_t sense[ZSCSI_SENSE_LEN] = { 0 }, buf[2 * 48];
	struct ztrace *tr;
	struct trc_writer *w;
	struct trc_rec r[8];
	char msg[512], *txt, *line;
	size_t len;
	int n = 0;

	assert_int_equal(ztrace_create(&tc, &tr), 0);
	assert_int_equal(ztrace_start(tr, tmp("fua.trc"), 0, msg, sizeof(msg)), 0);
	for (int i = 0; i < 4; i++)
		assert_int_equal(ztrace_record_cmd(tr, cdbs[i], cl[i], 0, sense, 1000 * (i + 1), 10), 0);
	assert_int_equal(ztrace_stop(tr, NULL), 0);
	ztrace_destroy(tr);
	assert_int_equal(read_all(tmp("fua.trc"), NULL, r, 8, msg, sizeof(msg), NULL), 4);
	check_rec(&r[0], 1000, TRC_OP_WRITE, 256 * 4096, 4096);
	check_rec(&r[2], 3000, TRC_OP_WRITE, 512 * 4096, 2 * 4096);
	assert_true(r[0].has & TRC_HAS_FUA);
	assert_false(r[1].has & TRC_HAS_FUA);
	assert_true(r[2].has & TRC_HAS_FUA);
	assert_false(r[3].has & TRC_HAS_FUA);

	/* `trace cat`: " fua" last on the FUA records' lines only */
	assert_int_equal(trc_writer_open(tmp("fua.txt"), TRC_OUT_TEXT, "ztrace", &w, msg, sizeof(msg)), 0);
	for (int i = 0; i < 4; i++)
		assert_int_equal(trc_writer_put(w, &r[i], msg, sizeof(msg)), 0);
	assert_int_equal(trc_writer_close(w, msg, sizeof(msg)), 0);
	txt = slurp(tmp("fua.txt"), &len);
	txt[len] = '\0';
	for (line = strtok(txt, "\n"); line; line = strtok(NULL, "\n"), n++) {
		size_t l = strlen(line);
		bool fua = l > 4 && !strcmp(line + l - 4, " fua");

		assert_int_equal(fua, n == 0 || n == 2);
	}
	assert_int_equal(n, 4);
	free(txt);

	/* the native formats have no room for it: written without, the rest kept */
	for (int v = 0; v < 2; v++) {
		struct trc_rec back[8];

		assert_int_equal(trc_writer_open(tmp("fua.nat"), v ? TRC_OUT_NATIVE_V1 : TRC_OUT_NATIVE, "ztrace", &w,
						 msg, sizeof(msg)), 0);
		for (int i = 0; i < 4; i++)
			assert_int_equal(trc_writer_put(w, &r[i], msg, sizeof(msg)), 0);
		assert_int_equal(trc_writer_close(w, msg, sizeof(msg)), 0);
		assert_int_equal(read_all(tmp("fua.nat"), NULL, back, 8, msg, sizeof(msg), NULL), 4);
		for (int i = 0; i < 4; i++) {
			assert_false(back[i].has & TRC_HAS_FUA);
			assert_int_equal(back[i].has, r[i].has & ~TRC_HAS_FUA);
			check_rec(&back[i], r[i].ts_ns, r[i].op, r[i].offset_bytes, r[i].len_bytes);
		}
	}

	/* blktrace v7: D write with FUA (category bit 15), then one without */
	memset(buf, 0, sizeof(buf));
	for (int i = 0; i < 2; i++) {
		uint8_t *p = buf + i * 48;
		uint32_t magic = 0x65617407, seq = (uint32_t)i + 1, bytes = 4096;
		uint32_t action = 7 | (1u << (16 + 6)) | (1u << (16 + 8)) | (1u << (16 + 1)) | (i ? 0 : 1u << 31);
		uint64_t time = 1000 * (uint64_t)i, sector = 8 * (uint64_t)i;

		memcpy(p, &magic, 4);
		memcpy(p + 4, &seq, 4);
		memcpy(p + 8, &time, 8);
		memcpy(p + 16, &sector, 8);
		memcpy(p + 24, &bytes, 4);
		memcpy(p + 28, &action, 4);
	}
	put_file(tmp("fua.blktrace.0"), buf, sizeof(buf));
	assert_int_equal(read_all(tmp("fua.blktrace.0"), NULL, r, 8, msg, sizeof(msg), NULL), 2);
	check_rec(&r[0], 0, TRC_OP_WRITE, 0, 4096);
	assert_true(r[0].has & TRC_HAS_FUA);
	check_rec(&r[1], 1000, TRC_OP_WRITE, 8 * 512, 4096);
	assert_false(r[1].has & TRC_HAS_FUA);

	/* v8 (64-bit action): the same bit */
	{
		uint8_t q[64] = { 0 };
		uint32_t magic = 0x65617408, seq = 1, bytes = 4096;
		uint64_t action = 7 | (1ull << (16 + 6)) | (1ull << (16 + 8)) | (1ull << (16 + 1)) | (1ull << 31);

		memcpy(q, &magic, 4);
		memcpy(q + 4, &seq, 4);
		memcpy(q + 24, &bytes, 4);
		memcpy(q + 32, &action, 8);
		put_file(tmp("fua8.blktrace.0"), q, sizeof(q));
		assert_int_equal(read_all(tmp("fua8.blktrace.0"), NULL, r, 8, msg, sizeof(msg), NULL), 1);
		check_rec(&r[0], 0, TRC_OP_WRITE, 0, 4096);
		assert_true(r[0].has & TRC_HAS_FUA);
	}
}

static void test_trc_replay_verify_clean_then_changed_record(void **state)
{
	struct trc_replay_result res;
	uint8_t buf[64 + 12 * 48];
	char msg[512];
	FILE *f;

	record_cmds(tmp("rec.img"), tmp("cmd.trc"));
	fresh_image(tmp("replay.img"));
	assert_int_equal(trc_replay(tmp("cmd.trc"), NULL, tmp("replay.img"), true, &res, msg, sizeof(msg)), 0);
	assert_false(res.diverged);
	assert_int_equal(res.nr_recs, 12);
	assert_int_equal(res.nr_skipped, 1);               /* INQUIRY */
	assert_int_equal(res.nr_replayed, 11);
	assert_int_equal(res.nr_errors, 2);                /* the two refused writes, as recorded */

	/* record 4 (WRITE(10) at zone 2's WP, GOOD) says CHECK CONDITION 5/21h/04h */
	f = fopen(tmp("cmd.trc"), "rb");
	assert_non_null(f);
	assert_int_equal(fread(buf, 1, sizeof(buf), f), sizeof(buf));
	fclose(f);
	assert_int_equal(buf[64 + 4 * 48 + 28], 0x2a);
	buf[64 + 4 * 48 + 30] = 0x02;
	buf[64 + 4 * 48 + 31] = 0x05;
	buf[64 + 4 * 48 + 32] = 0x21;
	buf[64 + 4 * 48 + 33] = 0x04;
	put_file(tmp("changed.trc"), buf, sizeof(buf));
	fresh_image(tmp("replay.img"));
	assert_int_equal(trc_replay(tmp("changed.trc"), NULL, tmp("replay.img"), true, &res, msg, sizeof(msg)), 0);
	assert_true(res.diverged);
	assert_int_equal(res.div_rec, 4);
	assert_non_null(strstr(res.div, "record 4: WRITE(10) lba 512 n 2"));
	assert_non_null(strstr(res.div, "expected CHECK CONDITION 5/21h/04h, got GOOD"));
}

static void test_trc_replay_blkparse_verify_compares_completions(void **state)
{
	/* C events of a zoned disk with 4 KiB LBAs and 1 MiB zones (sectors of
	 * 512 B): a write at zone 1's start, one off its WP that failed (EIO),
	 * a zone reset (0-byte W), a write at the WP again */
	static const char good[] =
		"  8,0    0        1     0.000001000     0  C  WS 2048 + 16 [0]\n"
		"  8,0    0        2     0.000002000     0  C  WS 2400 + 8 [5]\n"
		"  8,0    0        3     0.000003000     0  C  WS 2048 [0]\n"
		"  8,0    0        4     0.000004000     0  C  WS 2048 + 8 [0]\n";
	struct trc_replay_result res;
	struct trc_writer *w;
	char msg[512], bad[sizeof(good)];
	struct trc_rec rec = REC(0, TRC_OP_WRITE, 0, 4096);

	put_text(tmp("c.txt"), good);
	fresh_image(tmp("replay.img"));
	assert_int_equal(trc_replay(tmp("c.txt"), NULL, tmp("replay.img"), true, &res, msg, sizeof(msg)), 0);
	assert_false(res.diverged);
	assert_int_equal(res.nr_replayed, 4);
	assert_int_equal(res.nr_errors, 1);
	/* the failed write recorded as a success */
	snprintf(bad, sizeof(bad), "%s", good);
	memcpy(strstr(bad, "[5]"), "[0]", 3);
	put_text(tmp("c2.txt"), bad);
	fresh_image(tmp("replay.img"));
	assert_int_equal(trc_replay(tmp("c2.txt"), NULL, tmp("replay.img"), true, &res, msg, sizeof(msg)), 0);
	assert_true(res.diverged);
	assert_int_equal(res.div_rec, 1);
	assert_non_null(strstr(res.div, "record 1: write offset 1228800 length 4096: expected success"));
	/* a native trace records no statuses: verify is refused */
	assert_int_equal(trc_writer_open(tmp("blk.n"), TRC_OUT_NATIVE, NULL, &w, msg, sizeof(msg)), 0);
	assert_int_equal(trc_writer_put(w, &rec, msg, sizeof(msg)), 0);
	assert_int_equal(trc_writer_close(w, msg, sizeof(msg)), 0);
	assert_int_equal(trc_replay(tmp("blk.n"), NULL, tmp("replay.img"), true, &res, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "--verify needs recorded statuses"));
}

/* ---- detection and refusal ------------------------------------------------ */

static void test_trc_auto_detects_every_sample(void **state)
{
	static const struct {
		const char *file, *fmt;
	} t[] = {
		{ "msr.csv", "msr" }, { "alibaba.csv", "alibaba" }, { "tencent.csv", "tencent" },
		{ "spc.csv", "spc" }, { "fio-iolog2.log", "iolog" }, { "fio-iolog3.log", "iolog" },
		{ "sample.blktrace.0", "blktrace" }, { "sample.blkparse.txt", "blkparse" },
		{ "msr.native", "native" }, { "msr-v1.native", "native" }, { "cmd.ztrace", "ztrace" },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct trc_reader *r;
		char msg[512];

		assert_int_equal(trc_reader_open(data(t[i].file), NULL, &r, msg, sizeof(msg)), 0);
		assert_string_equal(trc_reader_format(r), t[i].fmt);
		trc_reader_close(r);
	}
}

static void test_trc_unknown_file_names_the_formats_tried(void **state)
{
	struct trc_reader *r = NULL;
	char msg[1024];

	put_text(tmp("junk.txt"), "hello world\nthis is not a trace\n");
	assert_int_equal(trc_reader_open(tmp("junk.txt"), NULL, &r, msg, sizeof(msg)), -EPROTO);
	assert_null(r);
	assert_non_null(strstr(msg, "junk.txt"));
	for (size_t i = 0; i < trc_nr_formats; i++)
		assert_non_null(strstr(msg, trc_formats[i].name));
	put_text(tmp("empty"), "");
	assert_int_equal(trc_reader_open(tmp("empty"), NULL, &r, msg, sizeof(msg)), -EPROTO);
	assert_non_null(strstr(msg, "empty file"));
	assert_int_equal(trc_reader_open(tmp("nonexistent"), NULL, &r, msg, sizeof(msg)), -ENOENT);
	{
		struct trc_reader_cfg c;

		trc_reader_cfg_init(&c);
		c.format = "nosuch";
		assert_int_equal(trc_reader_open(data("msr.csv"), &c, &r, msg, sizeof(msg)), -EINVAL);
		assert_non_null(strstr(msg, "unknown trace format 'nosuch'"));
		/* a named format that does not fit: the first record is malformed */
		c.format = "alibaba";
		{
			struct trc_rec rr[2];

			assert_int_equal(read_all(data("msr.csv"), &c, rr, 2, msg, sizeof(msg), NULL), -EINVAL);
			assert_non_null(strstr(msg, "msr.csv:1: more than 5 fields"));
		}
	}
}

/* ---- malformed input ------------------------------------------------------ */

static void test_trc_malformed_line_names_file_and_line(void **state)
{
	static const struct {
		const char *fmt, *text, *want;
	} t[] = {
		{ "msr", "128166036000000000,hm,0,Write,0,4096,1\n128166036000000000,hm,0,Wrote,0,4096,1\n",
		  ":2: Type 'Wrote' is neither Read nor Write" },
		{ "msr", "128166036000000000,hm,0,Write,0,4096,1\n128166036000000000,hm,0,Write,x,4096,1\n",
		  ":2: Offset 'x' is not an unsigned integer" },
		{ "msr", "128166036000000000,hm,0,Write,0,4096,1\n1,2\n", ":2: fewer" },
		{ "alibaba", "0,R,0,4096,1577808000000626\n0,R,0,99999999999999999999999,1\n",
		  ":2: length '99999999999999999999999' is not an unsigned integer" },
		{ "tencent", "1538352000,0,8,1,1\n1538352000,0,8,2,1\n", ":2: IOType '2'" },
		{ "spc", "0,1,512,W,0.5\n0,1,512,W,abc\n", ":2: Timestamp 'abc'" },
		{ "iolog", "fio version 3 iolog\n1 f add\n2 f write 0\n", ":3: too few fields" },
		{ "iolog", "fio version 3 iolog\n1 f add\n2 g write 0 1\n", ":3: file 'g' was not added" },
		{ "iolog", "fio version 2 iolog\nf add\nf frobnicate 0 1\n", ":3: unknown I/O action 'frobnicate'" },
		{ "blkparse", "  8,0    0        1     0.000000000  1234  D   W 2048 + x [fio]\n",
		  ":1: sector count after '+'" },
		{ "blkparse", "  8,0    0        1     0.000000000  1234  D   W 2048 + 8 [fio]\n"
			      "  8,0    0        2     zero  1234  D   W 2048 + 8 [fio]\n", ":2: not a blkparse event line" },
		{ "blkparse", "  8,0    0        1     0.000000000  1234  D   Q 2048 + 8 [fio]\n", ":1: RWBS 'Q'" },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct trc_reader_cfg c;
		struct trc_rec r[4];
		char msg[512];

		trc_reader_cfg_init(&c);
		c.format = t[i].fmt;
		put_text(tmp("bad.txt"), t[i].text);
		assert_int_equal(read_all(tmp("bad.txt"), &c, r, 4, msg, sizeof(msg), NULL), -EINVAL);
		if (!strstr(msg, t[i].want) || !strstr(msg, "bad.txt"))
			fail_msg("case %zu: '%s' lacks '%s'", i, msg, t[i].want);
	}
}

static void test_trc_lenient_skips_and_counts(void **state)
{
	struct trc_reader_cfg c;
	struct trc_reader *r;
	struct trc_rec rec;
	char msg[512];
	int n = 0;

	put_text(tmp("l.csv"), "128166036000000000,hm,0,Write,0,4096,1\n"
			       "garbage\n"
			       "128166036000000000,hm,0,Read,0,4096,1\n"
			       "128166036000000000,hm,0,Write,0,-1,1\n"
			       "128166036000000000,hm,0,Write,8192,4096,1\n"
			       "128166036000000000,hm,0,Wri");   /* truncated last line */
	trc_reader_cfg_init(&c);
	c.format = "msr";
	c.lenient = true;
	assert_int_equal(trc_reader_open(tmp("l.csv"), &c, &r, msg, sizeof(msg)), 0);
	while (trc_reader_next(r, &rec) == 1)
		n++;
	assert_int_equal(n, 3);
	assert_int_equal(trc_reader_nr_bad(r), 3);
	trc_reader_close(r);
	/* strict: the first bad line stops the read */
	c.lenient = false;
	{
		struct trc_rec rr[8];

		assert_int_equal(read_all(tmp("l.csv"), &c, rr, 8, msg, sizeof(msg), NULL), -EINVAL);
		assert_non_null(strstr(msg, "l.csv:2:"));
	}
}

static void test_trc_truncated_last_record_is_reported_not_read(void **state)
{
	FILE *f;
	uint8_t buf[4096];
	size_t n;
	struct trc_rec r[8];
	char msg[512];

	/* text: no newline at the end */
	put_text(tmp("t.csv"), "128166036000000000,hm,0,Write,0,4096,1\n128166036000000000,hm,0,Write,0,4096,1");
	assert_int_equal(read_all(tmp("t.csv"), NULL, r, 8, msg, sizeof(msg), NULL), -EINVAL);
	assert_non_null(strstr(msg, "t.csv:2: truncated last line"));

	/* native: the last record 10 bytes short */
	f = fopen(data("msr-v1.native"), "rb");
	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	assert_int_equal(n, 64 + 5 * 48);
	put_file(tmp("t.native"), buf, n - 10);
	assert_int_equal(read_all(tmp("t.native"), NULL, r, 8, msg, sizeof(msg), NULL), -EINVAL);
	assert_non_null(strstr(msg, "t.native: byte 256: record 4 is truncated (38 of 48 bytes)"));

	/* blktrace: the last record's payload cut short; every earlier event is read */
	f = fopen(data("sample.blktrace.0"), "rb");
	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	put_file(tmp("cut.bin"), buf, n - 20);
	{
		struct trc_reader_cfg c;
		struct trc_reader *rd;
		struct trc_rec rec;
		int k = 0, ret;

		trc_reader_cfg_init(&c);
		c.event = TRC_EV_QUEUE;
		assert_int_equal(trc_reader_open(tmp("cut.bin"), &c, &rd, msg, sizeof(msg)), 0);
		while ((ret = trc_reader_next(rd, &rec)) == 1)
			k++;
		assert_int_equal(ret, -EINVAL);
		/* cpu 0's three Q events (a lone file: no siblings); the cut one was a C */
		assert_int_equal(k, 3);
		assert_non_null(strstr(trc_reader_msg(rd), "cut.bin: byte "));
		assert_non_null(strstr(trc_reader_msg(rd), "truncated record"));
		trc_reader_close(rd);
	}

	/* native: a bad op */
	memcpy(buf + 64 + 44, "\x20", 1);
	f = fopen(data("msr-v1.native"), "rb");
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	buf[64 + 48 + 44] = 200;
	put_file(tmp("op.native"), buf, n);
	assert_int_equal(read_all(tmp("op.native"), NULL, r, 8, msg, sizeof(msg), NULL), -EINVAL);
	assert_non_null(strstr(msg, "op.native: byte 112: record 1: op 200"));
	/* native: header CRC */
	buf[20] ^= 1;
	put_file(tmp("crc.native"), buf, n);
	assert_int_equal(read_all(tmp("crc.native"), NULL, r, 8, msg, sizeof(msg), NULL), -EBADMSG);
	assert_non_null(strstr(msg, "header CRC-32C mismatch"));
}

/* ---- filters ---------------------------------------------------------------- */

static void test_trc_filters_op_and_time_window(void **state)
{
	struct trc_reader_cfg c;
	struct trc_rec r[8];
	char msg[512];

	trc_reader_cfg_init(&c);
	c.op_mask = 1u << TRC_OP_READ;
	assert_int_equal(read_all(data("msr.csv"), &c, r, 8, msg, sizeof(msg), NULL), 1);
	assert_int_equal(r[0].op, TRC_OP_READ);
	trc_reader_cfg_init(&c);
	c.from_ns = 10000000;          /* records at +10, +20, +30 ms; +40 ms excluded */
	c.to_ns = 40000000;
	assert_int_equal(read_all(data("msr.csv"), &c, r, 8, msg, sizeof(msg), NULL), 3);
	assert_int_equal(r[0].op, TRC_OP_READ);
	assert_int_equal(r[2].offset_bytes, 4096);
}

/* ---- writers ---------------------------------------------------------------- */

static void test_trc_writers_read_back(void **state)
{
	struct trc_rec in[16], out[16];
	struct trc_writer *w;
	char msg[512];
	int n;
	const char *fmt;

	n = read_all(data("fio-iolog3.log"), NULL, in, 16, msg, sizeof(msg), NULL);
	assert_int_equal(n, 9);
	/* iolog3 */
	assert_int_equal(trc_writer_open(tmp("o.log"), TRC_OUT_IOLOG3, "iolog", &w, msg, sizeof(msg)), 0);
	for (int i = 0; i < n; i++)
		assert_int_equal(trc_writer_put(w, &in[i], msg, sizeof(msg)), 0);
	assert_int_equal(trc_writer_nr_skipped(w), 0);
	assert_int_equal(trc_writer_close(w, msg, sizeof(msg)), 0);
	assert_int_equal(read_all(tmp("o.log"), NULL, out, 16, msg, sizeof(msg), &fmt), n);
	assert_string_equal(fmt, "iolog");
	for (int i = 0; i < n; i++)   /* times rebased to the first record, in µs */
		check_rec(&out[i], (in[i].ts_ns - in[0].ts_ns) / 1000 * 1000, in[i].op, in[i].offset_bytes,
			  in[i].len_bytes);
	/* blkparse text */
	assert_int_equal(trc_writer_open(tmp("o.txt"), TRC_OUT_BLKPARSE, "iolog", &w, msg, sizeof(msg)), 0);
	for (int i = 0; i < n; i++)
		assert_int_equal(trc_writer_put(w, &in[i], msg, sizeof(msg)), 0);
	assert_int_equal(trc_writer_close(w, msg, sizeof(msg)), 0);
	assert_int_equal(read_all(tmp("o.txt"), NULL, out, 16, msg, sizeof(msg), &fmt), n);
	assert_string_equal(fmt, "blkparse");
	for (int i = 0; i < n; i++)
		check_rec(&out[i], in[i].ts_ns - in[0].ts_ns, in[i].op,
			  in[i].op == TRC_OP_FLUSH ? in[i].offset_bytes : in[i].offset_bytes, in[i].len_bytes);
	/* a zone op has no iolog action: skipped and counted */
	{
		struct trc_rec z = REC(0, TRC_OP_ZONE_RESET, 0, 0);

		assert_int_equal(trc_writer_open(tmp("z.log"), TRC_OUT_IOLOG3, NULL, &w, msg, sizeof(msg)), 0);
		assert_int_equal(trc_writer_put(w, &z, msg, sizeof(msg)), 0);
		assert_int_equal(trc_writer_nr_skipped(w), 1);
		assert_int_equal(trc_writer_close(w, msg, sizeof(msg)), 0);
	}
}

/* ---- descriptors ------------------------------------------------------------ */

static void test_trc_stat_descriptors_by_hand(void **state)
{
	/* dev 0: W 0+8K (blocks 0,1), W 8K+4K (block 2, sequential), R 0+4K (block 0),
	 * W 0+4K (block 0 again), W 1M+4K; dev 1: W 0+4K (its first: not a candidate).
	 * Block writes: b0 x2, b1, b2, b256, dev1 b0: 6 over 5 written blocks. */
	static const struct trc_rec r[] = {
		{ .ts_ns = 100, .op = TRC_OP_WRITE, .offset_bytes = 0, .len_bytes = 8192, .has = TRC_HAS_DEV },
		{ .ts_ns = 300, .op = TRC_OP_WRITE, .offset_bytes = 8192, .len_bytes = 4096, .has = TRC_HAS_DEV },
		{ .ts_ns = 600, .op = TRC_OP_READ, .offset_bytes = 0, .len_bytes = 4096, .has = TRC_HAS_DEV },
		{ .ts_ns = 1000, .op = TRC_OP_WRITE, .offset_bytes = 0, .len_bytes = 4096, .has = TRC_HAS_DEV },
		{ .ts_ns = 1000, .op = TRC_OP_FLUSH, .has = TRC_HAS_DEV },
		{ .ts_ns = 1500, .op = TRC_OP_WRITE, .offset_bytes = 1 << 20, .len_bytes = 4096, .has = TRC_HAS_DEV },
		{ .ts_ns = 2100, .op = TRC_OP_WRITE, .offset_bytes = 0, .len_bytes = 4096, .dev = 1, .has = TRC_HAS_DEV },
	};
	struct trc_stat_result s;
	struct trc_stat *st;

	assert_int_equal(trc_stat_create(&st), 0);
	for (size_t i = 0; i < sizeof(r) / sizeof(r[0]); i++)
		assert_int_equal(trc_stat_add(st, &r[i]), 0);
	trc_stat_result(st, &s);
	assert_int_equal(s.nr_recs, 7);
	assert_int_equal(s.nr_ops[TRC_OP_WRITE], 5);
	assert_int_equal(s.bytes_ops[TRC_OP_WRITE], 8192 + 4 * 4096);
	assert_int_equal(s.nr_ops[TRC_OP_READ], 1);
	assert_int_equal(s.nr_ops[TRC_OP_FLUSH], 1);
	assert_int_equal(s.duration_ns, 2000);
	assert_int_equal(s.fp_written_bytes, 5 * 4096);
	assert_int_equal(s.fp_read_bytes, 4096);
	assert_int_equal(s.fp_touched_bytes, 5 * 4096);
	assert_int_equal(s.size_hist[0], 5);
	assert_int_equal(s.size_hist[1], 1);
	/* candidates: 4 on dev 0 after its first; sequential: the 8K write only */
	assert_int_equal(s.nr_seq_candidates, 4);
	assert_int_equal(s.nr_seq, 1);
	/* hottest 1% and 10% of 5 blocks = 1 block (b0, 2 of 6); 20% = 1 block */
	assert_true(s.skew[0] > 2.0 / 6 - 1e-9 && s.skew[0] < 2.0 / 6 + 1e-9);
	assert_true(s.skew[2] > 2.0 / 6 - 1e-9 && s.skew[2] < 2.0 / 6 + 1e-9);
	/* inter-arrivals 200 300 400 0 500 600: p50 = 300 (interpolated in its
	 * bucket 296..303: its middle, within 3.2%), max 600 exact */
	assert_true(s.iat_pct_ns[0] >= 296 && s.iat_pct_ns[0] <= 303);
	assert_int_equal(s.iat_pct_ns[TRC_NR_PCT - 1], 600);
	assert_int_equal(s.nr_devs, 2);
	trc_stat_destroy(st);
}

/* Request sizes at each edge of the histogram's buckets: (4K << (k-1),
 * 4K << k], bucket 0 everything up to 4 KiB (an empty request too), the
 * last one everything past 1 MiB. */
static void test_trc_stat_size_buckets_at_their_edges(void **state)
{
	static const struct {
		uint64_t len;
		unsigned bucket;
	} t[] = {
		{ 0, 0 }, { 1, 0 }, { 512, 0 }, { 2048, 0 }, { 2049, 0 }, { 4095, 0 }, { 4096, 0 },
		{ 4097, 1 }, { 8192, 1 }, { 8193, 2 }, { 65536, 4 }, { 65537, 5 },
		{ 1u << 20, 8 }, { (1u << 20) + 1, 9 }, { 1ull << 40, 9 },
	};
	unsigned want[TRC_NR_SIZE_BUCKETS] = { 0 };
	struct trc_stat_result s;
	struct trc_stat *st;

	assert_int_equal(trc_stat_create(&st), 0);
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct trc_rec r = { .ts_ns = i, .op = i % 2 ? TRC_OP_READ : TRC_OP_WRITE, .len_bytes = t[i].len };

		assert_int_equal(trc_stat_add(st, &r), 0);
		want[t[i].bucket]++;
	}
	trc_stat_result(st, &s);
	for (unsigned k = 0; k < TRC_NR_SIZE_BUCKETS; k++)
		if (s.size_hist[k] != want[k])
			fail_msg("bucket %u: %llu requests, want %u", k, (unsigned long long)s.size_hist[k], want[k]);
	trc_stat_destroy(st);
}

static void test_trc_stat_skew_counts_past_254_writes(void **state)
{
	struct trc_stat_result s;
	struct trc_stat *st;
	struct trc_rec r = { .op = TRC_OP_WRITE, .len_bytes = 4096 };

	assert_int_equal(trc_stat_create(&st), 0);
	for (int i = 0; i < 1000; i++)            /* block 0: 1000 writes */
		assert_int_equal(trc_stat_add(st, &r), 0);
	for (int b = 1; b < 100; b++) {          /* blocks 1-99: one each */
		r.offset_bytes = (uint64_t)b * 4096;
		assert_int_equal(trc_stat_add(st, &r), 0);
	}
	trc_stat_result(st, &s);
	assert_int_equal(s.fp_written_bytes, 100 * 4096);
	/* hottest 1% = block 0: 1000 of 1099 */
	assert_true(s.skew[0] > 1000.0 / 1099 - 1e-9 && s.skew[0] < 1000.0 / 1099 + 1e-9);
	/* 10% = 10 blocks: 1009 of 1099 */
	assert_true(s.skew[1] > 1009.0 / 1099 - 1e-9 && s.skew[1] < 1009.0 / 1099 + 1e-9);
	trc_stat_destroy(st);
}

/* Pieces that do not fit trc_stat.c's sort keys (a device seen after the
 * 4096th, a block number wider than the key has room for) are applied at
 * once: the same footprint and skew as queued ones; a key using every bit
 * decodes. */
static void test_trc_stat_far_blocks_and_many_devices_count(void **state)
{
	struct trc_stat_result s;
	struct trc_stat *st;
	struct trc_rec r = { .op = TRC_OP_WRITE, .len_bytes = 4096, .has = TRC_HAS_DEV };

	assert_int_equal(trc_stat_create(&st), 0);
	for (uint32_t d = 0; d < 5000; d++) {        /* block 0 of 5000 devices, once each */
		r.dev = d;
		assert_int_equal(trc_stat_add(st, &r), 0);
	}
	r.dev = 4999;                                /* its block 1: twice */
	r.offset_bytes = 4096;
	assert_int_equal(trc_stat_add(st, &r), 0);
	assert_int_equal(trc_stat_add(st, &r), 0);
	r.dev = 0;                                   /* 2 blocks at 2^62 on device 0: twice */
	r.offset_bytes = 1ull << 62;
	r.len_bytes = 8192;
	assert_int_equal(trc_stat_add(st, &r), 0);
	assert_int_equal(trc_stat_add(st, &r), 0);
	r.op = TRC_OP_READ;                          /* and one of them read */
	r.len_bytes = 4096;
	assert_int_equal(trc_stat_add(st, &r), 0);
	trc_stat_result(st, &s);
	assert_int_equal(s.nr_devs, 5000);
	assert_int_equal(s.fp_written_bytes, 5003ull * 4096);
	assert_int_equal(s.fp_read_bytes, 4096);
	assert_int_equal(s.fp_touched_bytes, 5003ull * 4096);
	/* 5006 block writes; hottest 1% = 51 blocks: 3 with 2 writes, 48 with 1 */
	assert_true(fabs(s.skew[0] - 54.0 / 5006) < 1e-12);
	trc_stat_destroy(st);
	/* one device, a block number of 50 bits: the widest key that is queued */
	assert_int_equal(trc_stat_create(&st), 0);
	r.op = TRC_OP_WRITE;
	r.dev = 0;
	r.offset_bytes = (1ull << 61) + 4096;
	assert_int_equal(trc_stat_add(st, &r), 0);
	assert_int_equal(trc_stat_add(st, &r), 0);
	trc_stat_result(st, &s);
	assert_int_equal(s.fp_written_bytes, 4096);
	assert_true(fabs(s.skew[0] - 1.0) < 1e-12);
	trc_stat_destroy(st);
}

static int cmp_u32_desc(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? 1 : x > y ? -1 : 0;
}

/*
 * The footprint and skew of trace stat (leaves, saturating counters with an
 * overflow table, block updates queued and applied in sorted batches) against a plain
 * per-block array on seeded random requests: two devices, requests that
 * cross 64 MiB leaves, a hot set written past 254 times, reads and writes
 * mixed.  Everything must agree exactly.
 */
static void test_trc_stat_footprint_matches_plain_reference(void **state)
{
	enum { NR_DEV = 2, NR_BLK = 3 * 16384 + 777 };
	static uint32_t wcnt[NR_DEV][NR_BLK], sorted[NR_DEV * NR_BLK];
	static bool rd[NR_DEV][NR_BLK];
	static const double hot[3] = { 0.01, 0.10, 0.20 };
	uint64_t seed = 7, nr_w = 0, nr_r = 0, nr_t = 0, total = 0;
	struct trc_stat_result s;
	struct trc_stat *st;
	size_t n = 0;

	memset(wcnt, 0, sizeof(wcnt));
	memset(rd, 0, sizeof(rd));
	assert_int_equal(trc_stat_create(&st), 0);
	/* 800 k requests: more pieces than trc_stat.c's queues hold (256 Ki
	 * keys), so sorted batches are applied mid-stream, not only at the end */
	for (int k = 0; k < 800000; k++) {
		uint64_t x = zl_test_rand(&seed);
		struct trc_rec r = { .ts_ns = (uint64_t)k, .has = TRC_HAS_DEV };
		uint64_t b, nb;

		r.dev = (uint32_t)(x % NR_DEV);
		r.op = (x >> 8) % 3 ? TRC_OP_WRITE : TRC_OP_READ;
		if ((x >> 16) % 4 == 0)
			b = (x >> 24) % 40;                       /* the hot set */
		else
			b = (x >> 24) % NR_BLK;
		nb = (x >> 48) % 64 == 0 ? 1 + (x >> 40) % 5000 : 1 + (x >> 40) % 16;
		if (b + nb > NR_BLK)
			nb = NR_BLK - b;
		/* unaligned starts and ends still count whole blocks */
		r.offset_bytes = b * 4096 + ((x >> 20) % 2 ? 512 : 0);
		r.len_bytes = nb * 4096 - (r.offset_bytes % 4096);
		assert_int_equal(trc_stat_add(st, &r), 0);
		for (uint64_t i = b; i < b + nb; i++) {
			if (r.op == TRC_OP_WRITE)
				wcnt[r.dev][i]++;
			else
				rd[r.dev][i] = true;
		}
	}
	trc_stat_result(st, &s);
	for (int d = 0; d < NR_DEV; d++)
		for (int i = 0; i < NR_BLK; i++) {
			nr_w += wcnt[d][i] != 0;
			nr_r += rd[d][i];
			nr_t += wcnt[d][i] || rd[d][i];
			total += wcnt[d][i];
			if (wcnt[d][i])
				sorted[n++] = wcnt[d][i];
		}
	qsort(sorted, n, sizeof(*sorted), cmp_u32_desc);
	assert_true(sorted[0] > 254);                        /* the overflow table was used */
	assert_int_equal(s.fp_written_bytes, nr_w * 4096);
	assert_int_equal(s.fp_read_bytes, nr_r * 4096);
	assert_int_equal(s.fp_touched_bytes, nr_t * 4096);
	for (int k = 0; k < 3; k++) {
		uint64_t want = (uint64_t)ceil(hot[k] * (double)nr_w), sum = 0;

		for (uint64_t i = 0; i < want; i++)
			sum += sorted[i];
		assert_true(fabs(s.skew[k] - (double)sum / (double)total) < 1e-12);
	}
	trc_stat_destroy(st);
}

/* ---- batches (trc_reader_batch) ------------------------------------------- */

/*
 * Read @path as read_all() does, but with the calls chosen by @pattern
 * (bit i of the pattern, cyclic: 1 = a batch, 0 = one record): the records,
 * the return and the message must be those of trc_reader_next() alone.
 */
static int read_mixed(const char *path, const struct trc_reader_cfg *cfg, struct trc_rec *out, int max,
		      char *msg, size_t msg_len, uint32_t pattern)
{
	struct trc_reader *r;
	int n = 0, ret, call = 0;

	msg[0] = 0;
	ret = trc_reader_open(path, cfg, &r, msg, msg_len);
	if (ret)
		return ret;
	for (;; call++) {
		if (pattern >> (call % 32) & 1) {
			const struct trc_rec *recs;

			ret = trc_reader_batch(r, &recs);
			if (ret <= 0)
				break;
			assert_true(ret <= TRC_BATCH);
			for (int i = 0; i < ret; i++)
				out[n + i < max ? n + i : max - 1] = recs[i];
			n += ret;
		} else {
			ret = trc_reader_next(r, &out[n < max ? n : max - 1]);
			if (ret != 1)
				break;
			n++;
		}
	}
	if (ret < 0) {
		snprintf(msg, msg_len, "%s", trc_reader_msg(r));
		/* after an error: the end, by either call */
		assert_int_equal(trc_reader_next(r, &out[0]), 0);
	}
	trc_reader_close(r);
	return ret < 0 ? ret : n;
}

static void same_by_batches(const char *path, const struct trc_reader_cfg *cfg, int max)
{
	static const uint32_t patterns[] = { 0xffffffffu, 0x55555555u, 0x0f0f0f0fu, 0x00010001u };
	struct trc_rec *want = calloc((size_t)max, sizeof(*want)), *got = calloc((size_t)max, sizeof(*got));
	char msg_want[640], msg_got[640];
	int n_want, n_got;

	assert_non_null(want);
	assert_non_null(got);
	n_want = read_all(path, cfg, want, max, msg_want, sizeof(msg_want), NULL);
	for (size_t i = 0; i < sizeof(patterns) / sizeof(patterns[0]); i++) {
		n_got = read_mixed(path, cfg, got, max, msg_got, sizeof(msg_got), patterns[i]);
		if (n_got != n_want || strcmp(msg_got, msg_want))
			fail_msg("%s, pattern %#x: %d '%s', one at a time %d '%s'", path, patterns[i], n_got, msg_got,
				 n_want, msg_want);
		if (n_want > 0)
			assert_memory_equal(got, want, (size_t)(n_want < max ? n_want : max) * sizeof(*want));
	}
	free(want);
	free(got);
}

static void test_trc_batches_give_the_records_of_next(void **state)
{
	static const char *const samples[] = {
		"msr.csv", "alibaba.csv", "tencent.csv", "spc.csv", "fio-iolog2.log", "fio-iolog3.log",
		"sample.blktrace.0", "sample.blkparse.txt", "msr.native", "msr-v1.native", "cmd.ztrace", "vm-btrfs.ztrace",
		"vm-btrfs.blktrace.0",
	};
	size_t n = 3 * 16384 + 77;      /* v2: several blocks; v1: past the 1 MiB input buffer */
	struct trc_rec *in = calloc(n, sizeof(*in));
	struct trc_reader_cfg c;

	assert_non_null(in);
	for (size_t i = 0; i < sizeof(samples) / sizeof(samples[0]); i++)
		same_by_batches(data(samples[i]), NULL, 4096);
	rand_recs(in, n, 11);
	write_recs(tmp("b2.trc"), TRC_OUT_NATIVE, in, n);
	write_recs(tmp("b1.trc"), TRC_OUT_NATIVE_V1, in, n);
	same_by_batches(tmp("b2.trc"), NULL, (int)n + 1);
	same_by_batches(tmp("b1.trc"), NULL, (int)n + 1);
	/* filters: batches built from next() (records decoded ahead included) */
	trc_reader_cfg_init(&c);
	c.op_mask = 1u << TRC_OP_WRITE | 1u << TRC_OP_READ;
	same_by_batches(tmp("b2.trc"), &c, (int)n + 1);
	same_by_batches(tmp("b1.trc"), &c, (int)n + 1);
	same_by_batches(data("msr.csv"), &c, 64);
	free(in);
}

/* A malformed record after many good ones: every good record comes first,
 * in batches, then the error with its message, then the end. */
/* One record at a time: @good records, then -EINVAL with @what. */
static void expect_error(const char *path, const struct trc_reader_cfg *cfg, int good, const char *what)
{
	struct trc_reader *r;
	struct trc_rec rec;
	char msg[512];
	int n = 0, ret;

	assert_int_equal(trc_reader_open(path, cfg, &r, msg, sizeof(msg)), 0);
	while ((ret = trc_reader_next(r, &rec)) == 1)
		n++;
	assert_int_equal(ret, -EINVAL);
	assert_int_equal(n, good);
	if (!strstr(trc_reader_msg(r), what))
		fail_msg("'%s' lacks '%s'", trc_reader_msg(r), what);
	trc_reader_close(r);
}

static void test_trc_batches_return_good_records_then_the_error(void **state)
{
	size_t n = 1000, len;
	struct trc_rec *in = calloc(n, sizeof(*in));
	struct trc_reader_cfg c;
	uint8_t *b;

	assert_non_null(in);
	rand_recs(in, n, 5);
	/* v1: record 700's op out of range */
	write_recs(tmp("e1.trc"), TRC_OUT_NATIVE_V1, in, n);
	b = slurp(tmp("e1.trc"), &len);
	b[64 + 700 * 48 + 44] = 99;
	put_file(tmp("e1.trc"), b, len);
	expect_error(tmp("e1.trc"), NULL, 700, "e1.trc: byte 33664: record 700: op 99");
	same_by_batches(tmp("e1.trc"), NULL, (int)n + 1);
	/* v1: the last record cut short */
	b[64 + 700 * 48 + 44] = in[700].op;
	put_file(tmp("e1.trc"), b, len - 5);
	expect_error(tmp("e1.trc"), NULL, 999, "record 999 is truncated (43 of 48 bytes)");
	same_by_batches(tmp("e1.trc"), NULL, (int)n + 1);
	free(b);
	/* v2: a bad op in a control word of the first block */
	write_recs(tmp("e2.trc"), TRC_OUT_NATIVE, in, n);
	b = slurp(tmp("e2.trc"), &len);
	b[64 + 8 + 2 * 600] = (uint8_t)((b[64 + 8 + 2 * 600] & 0xf0) | 12);
	reseal(b, 64);
	put_file(tmp("e2.trc"), b, len);
	expect_error(tmp("e2.trc"), NULL, 600, "record 600 (block at byte 64)");
	same_by_batches(tmp("e2.trc"), NULL, (int)n + 1);
	/* ... and with --lenient: the block's records skipped and counted, alike */
	trc_reader_cfg_init(&c);
	c.lenient = true;
	same_by_batches(tmp("e2.trc"), &c, (int)n + 1);
	free(b);
	/* CSV: a bad line 5 */
	put_text(tmp("e.csv"), "128166036000000000,hm,0,Write,0,4096,1\n128166036000000001,hm,0,Read,0,4096,1\n"
		 "128166036000000002,hm,0,Write,4096,4096,1\n128166036000000003,hm,0,Write,8192,512,1\n"
		 "128166036000000004,hm,0,Wrote,0,4096,1\n");
	expect_error(tmp("e.csv"), NULL, 4, "e.csv:5: Type 'Wrote'");
	same_by_batches(tmp("e.csv"), NULL, 16);
	free(in);
}

static int setup_all(void **state)
{
	char *d = zl_test_mkdtemp("trc");

	if (!d)
		return -1;
	snprintf(scratch, sizeof(scratch), "%s", d);
	free(d);
	return 0;
}

static int teardown_all(void **state)
{
	zl_test_rmdir(scratch);
	return 0;
}

/* The committed tests/data/cmd.ztrace is what record_cmds() writes. */
static void test_trc_committed_command_trace_is_the_recorded_one(void **state)
{
	uint8_t a[2048], b[2048];
	size_t na, nb;
	FILE *f;

	record_cmds(tmp("rec.img"), tmp("cmd.trc"));
	f = fopen(tmp("cmd.trc"), "rb");
	assert_non_null(f);
	na = fread(a, 1, sizeof(a), f);
	fclose(f);
	f = fopen(data("cmd.ztrace"), "rb");
	assert_non_null(f);
	nb = fread(b, 1, sizeof(b), f);
	fclose(f);
	assert_int_equal(na, nb);
	assert_memory_equal(a, b, na);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trc_msr_sample_fields),
		cmocka_unit_test(test_trc_msr_fast_and_general_paths_agree),
		cmocka_unit_test(test_trc_msr_fast_path_digit_limits),
		cmocka_unit_test(test_trc_msr_fast_path_agrees_on_mutated_lines),
		cmocka_unit_test(test_trc_alibaba_sample_skips_header),
		cmocka_unit_test(test_trc_tencent_sample_sectors_and_device_filter),
		cmocka_unit_test(test_trc_spc_sample),
		cmocka_unit_test(test_trc_iolog_v3_written_by_fio),
		cmocka_unit_test(test_trc_iolog_v2_waits_and_files),
		cmocka_unit_test(test_trc_blktrace_merges_cpus_by_time),
		cmocka_unit_test(test_trc_blkparse_text_matches_binary),
		cmocka_unit_test(test_trc_blktrace_v8_zone_categories),
		cmocka_unit_test(test_trc_blktrace_big_endian),
		cmocka_unit_test(test_trc_native_round_trip_keeps_every_field),
		cmocka_unit_test(test_trc_native_v2_round_trip_random_extremes),
		cmocka_unit_test(test_trc_native_v2_writer_refuses_what_no_reader_takes),
		cmocka_unit_test(test_trc_native_v2_worked_example_bytes),
		cmocka_unit_test(test_trc_batches_give_the_records_of_next),
		cmocka_unit_test(test_trc_batches_return_good_records_then_the_error),
		cmocka_unit_test(test_trc_native_v2_truncated_anywhere_is_reported),
		cmocka_unit_test(test_trc_native_v2_malformed_blocks_rejected),
		cmocka_unit_test(test_trc_native_v2_overflow_in_a_run_is_caught_by_the_fast_path),
		cmocka_unit_test(test_trc_native_v2_lenient_skips_a_bad_block),
		cmocka_unit_test(test_trc_ztrace_reader_maps_commands),
		cmocka_unit_test(test_trc_fua_from_ztrace_and_blktrace_and_in_cat),
		cmocka_unit_test(test_trc_replay_verify_clean_then_changed_record),
		cmocka_unit_test(test_trc_replay_blkparse_verify_compares_completions),
		cmocka_unit_test(test_trc_auto_detects_every_sample),
		cmocka_unit_test(test_trc_unknown_file_names_the_formats_tried),
		cmocka_unit_test(test_trc_malformed_line_names_file_and_line),
		cmocka_unit_test(test_trc_lenient_skips_and_counts),
		cmocka_unit_test(test_trc_truncated_last_record_is_reported_not_read),
		cmocka_unit_test(test_trc_filters_op_and_time_window),
		cmocka_unit_test(test_trc_writers_read_back),
		cmocka_unit_test(test_trc_stat_descriptors_by_hand),
		cmocka_unit_test(test_trc_stat_size_buckets_at_their_edges),
		cmocka_unit_test(test_trc_stat_skew_counts_past_254_writes),
		cmocka_unit_test(test_trc_stat_footprint_matches_plain_reference),
		cmocka_unit_test(test_trc_stat_far_blocks_and_many_devices_count),
		cmocka_unit_test(test_trc_committed_command_trace_is_the_recorded_one),
	};

	/* test_trc --record-sample OUT IMAGE: write tests/data/cmd.ztrace */
	if (argc == 4 && !strcmp(argv[1], "--record-sample")) {
		record_cmds(argv[3], argv[2]);
		return 0;
	}

	return cmocka_run_group_tests(tests, setup_all, teardown_all);
}
