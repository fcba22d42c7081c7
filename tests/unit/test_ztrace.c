/*
 * test_ztrace.c — the command trace: records written from several threads
 * read back identical and in sequence, CDB fields decoded (zscsi_cdb_info),
 * sense captured only with CHECK CONDITION, the header codec, and the
 * reader's refusals: foreign file, corrupt header, unknown version, short
 * file, truncated last record, a record out of sequence.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "zl_err.h"
#include "zscsi_cdbinfo.h"
#include "ztrace.h"
#include "zl_test.h"

struct fx {
	char *dir;
	char path[512];
	struct ztrace *tr;
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	struct ztrace_cfg cfg = { .lba_size = 4096, .capacity_lba = 1u << 20,
				  .clock = ZTRACE_CLOCK_VIRTUAL };

	f->dir = zl_test_mkdtemp("ztrace");
	assert_non_null(f->dir);
	snprintf(f->path, sizeof(f->path), "%s/t.trc", f->dir);
	assert_int_equal(ztrace_create(&cfg, &f->tr), 0);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	ztrace_destroy(f->tr);
	zl_test_rmdir(f->dir);
	free(f->dir);
	free(f);
	return 0;
}

static void write_file(const char *path, const void *buf, size_t len)
{
	FILE *fp = fopen(path, "wb");

	assert_non_null(fp);
	assert_int_equal(fwrite(buf, 1, len, fp), len);
	fclose(fp);
}

static uint8_t *read_file(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	uint8_t *buf = malloc(1 << 20);

	assert_non_null(fp);
	*len = fread(buf, 1, 1 << 20, fp);
	fclose(fp);
	return buf;
}

static void test_ztrace_round_trip_keeps_every_field(void **state)
{
	struct fx *f = *state;
	const uint8_t wr16[16] = { 0x8a, 0x08, 0, 0, 0, 0, 0, 0, 0x12, 0x34, 0, 0, 0, 0x10, 0, 0 };
	const uint8_t rz[16] = { 0x95, 0x00, 0, 0, 0, 0, 0, 0, 0x20, 0, 0, 0, 0x10, 0, 0x01, 0 };
	const uint8_t reset_all[16] = { 0x94, 0x04, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01, 0 };
	const uint8_t tur[6] = { 0 };
	const uint8_t short10[4] = { 0x28, 0, 0, 1 };
	uint8_t sense[18] = { 0x70, 0, 0x05, 0, 0, 0, 0, 10, 0, 0, 0, 0, 0x21, 0x04 };
	const struct ztrace_hdr *h;
	struct ztrace_reader *rd;
	struct ztrace_rec r;
	char msg[256];

	assert_false(ztrace_is_active(f->tr));
	assert_int_equal(ztrace_record_cmd(f->tr, tur, 6, 0, NULL, 1, 1), 0);  /* not recording */
	assert_int_equal(ztrace_start(f->tr, f->path, 1000, msg, sizeof(msg)), 0);
	assert_true(ztrace_is_active(f->tr));
	assert_int_equal(ztrace_record_cmd(f->tr, wr16, 16, 0x02, sense, 1100, 250), 0);
	assert_int_equal(ztrace_record_cmd(f->tr, rz, 16, 0, sense, 1200, 30), 0);
	assert_int_equal(ztrace_record_cmd(f->tr, reset_all, 16, 0, NULL, 1300, 40), 0);
	assert_int_equal(ztrace_record_cmd(f->tr, tur, 6, 0, NULL, 1400, 1), 0);
	assert_int_equal(ztrace_record_cmd(f->tr, short10, 4, 0, NULL, 1500, 1), 0);
	assert_int_equal(ztrace_stop(f->tr, NULL), 0);
	assert_false(ztrace_is_active(f->tr));

	assert_int_equal(ztrace_read_open(f->path, &rd, msg, sizeof(msg)), 0);
	h = ztrace_read_hdr(rd);
	assert_int_equal(h->version, ZTRACE_VERSION);
	assert_int_equal(h->lba_size, 4096);
	assert_int_equal(h->capacity_lba, 1u << 20);
	assert_int_equal(h->clock, ZTRACE_CLOCK_VIRTUAL);
	assert_int_equal(h->start_ns, 1000);

	assert_int_equal(ztrace_read_next(rd, &r, msg, sizeof(msg)), 1);
	assert_int_equal(r.seq, 0);
	assert_int_equal(r.ts_ns, 1100);
	assert_int_equal(r.latency_ns, 250);
	assert_int_equal(r.opcode, 0x8a);
	assert_int_equal(r.lba, 0x1234);
	assert_int_equal(r.nr_lba, 16);
	assert_int_equal(r.flags, ZTRACE_F_LBA | ZTRACE_F_LEN | ZTRACE_F_FUA);
	assert_int_equal(r.status, 0x02);
	assert_int_equal(r.sense_key, 0x05);
	assert_int_equal(r.asc, 0x21);
	assert_int_equal(r.ascq, 0x04);
	assert_int_equal(r.cdb_len, 16);

	assert_int_equal(ztrace_read_next(rd, &r, msg, sizeof(msg)), 1);
	assert_int_equal(r.seq, 1);
	assert_int_equal(r.opcode, 0x95);
	assert_int_equal(r.sa, 0x00);
	assert_int_equal(r.lba, 0x2000);
	assert_int_equal(r.flags, ZTRACE_F_LBA | ZTRACE_F_SA);
	assert_int_equal(r.sense_key, 0);         /* GOOD: sense not read */

	assert_int_equal(ztrace_read_next(rd, &r, msg, sizeof(msg)), 1);
	assert_int_equal(r.opcode, 0x94);
	assert_int_equal(r.sa, 0x04);
	assert_int_equal(r.flags, ZTRACE_F_LBA | ZTRACE_F_SA | ZTRACE_F_ALL);

	assert_int_equal(ztrace_read_next(rd, &r, msg, sizeof(msg)), 1);
	assert_int_equal(r.opcode, 0x00);
	assert_int_equal(r.flags, 0);
	assert_int_equal(r.cdb_len, 6);

	assert_int_equal(ztrace_read_next(rd, &r, msg, sizeof(msg)), 1);
	assert_int_equal(r.opcode, 0x28);
	assert_int_equal(r.flags, ZTRACE_F_SHORT_CDB);
	assert_int_equal(r.cdb_len, 4);
	assert_int_equal(ztrace_read_next(rd, &r, msg, sizeof(msg)), 0);
	ztrace_read_close(rd);
}

struct writer_arg {
	struct ztrace *tr;
	uint32_t id;
};

static void *writer(void *arg)
{
	struct writer_arg *a = arg;
	uint8_t cdb[16] = { 0x88 };

	for (uint32_t i = 0; i < 1500; i++) {
		cdb[8] = (uint8_t)a->id;
		cdb[13] = 1;
		ztrace_record_cmd(a->tr, cdb, 16, 0, NULL, i, a->id);
	}
	return NULL;
}

static void test_ztrace_concurrent_writers_give_a_gapless_sequence(void **state)
{
	struct fx *f = *state;
	struct writer_arg a[4];
	pthread_t t[4];
	struct ztrace_reader *rd;
	struct ztrace_status st;
	struct ztrace_rec r;
	uint32_t per[4] = { 0 };
	uint64_t n = 0;
	char msg[256];
	int ret;

	assert_int_equal(ztrace_start(f->tr, f->path, 0, msg, sizeof(msg)), 0);
	for (int i = 0; i < 4; i++) {
		a[i] = (struct writer_arg){ f->tr, (uint32_t)i };
		assert_int_equal(pthread_create(&t[i], NULL, writer, &a[i]), 0);
	}
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	ztrace_get_status(f->tr, &st);
	assert_true(st.active);
	assert_int_equal(st.nr_records, 6000);
	memset(&st, 0, sizeof(st));
	assert_int_equal(ztrace_stop(f->tr, &st), 0);        /* the stopped file's status */
	assert_false(st.active);
	assert_string_equal(st.path, f->path);
	assert_int_equal(st.nr_records, 6000);
	assert_int_equal(st.nr_dropped, 0);
	assert_int_equal(ztrace_read_open(f->path, &rd, msg, sizeof(msg)), 0);
	while ((ret = ztrace_read_next(rd, &r, msg, sizeof(msg))) == 1) {
		assert_int_equal(r.latency_ns, r.lba >> 8);
		per[r.latency_ns]++;
		n++;
	}
	assert_int_equal(ret, 0);
	assert_int_equal(n, 6000);
	for (int i = 0; i < 4; i++)
		assert_int_equal(per[i], 1500);
	ztrace_read_close(rd);
}

static void test_ztrace_start_twice_stop_twice_and_restart_overwrites(void **state)
{
	struct fx *f = *state;
	const uint8_t tur[6] = { 0 };
	struct ztrace_reader *rd;
	struct ztrace_rec r;
	char msg[256];

	assert_int_equal(ztrace_start(f->tr, f->path, 0, msg, sizeof(msg)), 0);
	assert_int_equal(ztrace_start(f->tr, f->path, 0, msg, sizeof(msg)), -EBUSY);
	assert_non_null(strstr(msg, "already tracing"));
	ztrace_record_cmd(f->tr, tur, 6, 0, NULL, 1, 1);
	ztrace_record_cmd(f->tr, tur, 6, 0, NULL, 2, 1);
	assert_int_equal(ztrace_stop(f->tr, NULL), 0);
	assert_int_equal(ztrace_stop(f->tr, NULL), -ENOENT);
	/* an existing trace is overwritten; sequence numbers restart */
	assert_int_equal(ztrace_start(f->tr, f->path, 5, msg, sizeof(msg)), 0);
	ztrace_record_cmd(f->tr, tur, 6, 0, NULL, 9, 1);
	assert_int_equal(ztrace_stop(f->tr, NULL), 0);
	assert_int_equal(ztrace_read_open(f->path, &rd, msg, sizeof(msg)), 0);
	assert_int_equal(ztrace_read_hdr(rd)->start_ns, 5);
	assert_int_equal(ztrace_read_next(rd, &r, msg, sizeof(msg)), 1);
	assert_int_equal(r.ts_ns, 9);
	assert_int_equal(ztrace_read_next(rd, &r, msg, sizeof(msg)), 0);
	ztrace_read_close(rd);
}

static void test_ztrace_start_refuses_foreign_files_and_symlinks(void **state)
{
	struct fx *f = *state;
	char other[600], link[600], msg[256], data[64];

	memset(data, 'd', sizeof(data));
	snprintf(other, sizeof(other), "%s/data.bin", f->dir);
	write_file(other, data, sizeof(data));
	assert_int_equal(ztrace_start(f->tr, other, 0, msg, sizeof(msg)), -EEXIST);
	assert_non_null(strstr(msg, "is not a zonelab trace"));
	snprintf(link, sizeof(link), "%s/link.trc", f->dir);
	assert_int_equal(symlink(other, link), 0);
	assert_int_equal(ztrace_start(f->tr, link, 0, msg, sizeof(msg)), -ELOOP);
	assert_non_null(strstr(msg, "symbolic link"));
	assert_int_equal(ztrace_start(f->tr, f->dir, 0, msg, sizeof(msg)), -EISDIR);
	assert_false(ztrace_is_active(f->tr));
}

/* A valid trace with @n records of opcode 0x28, in memory. */
static size_t make_trace(uint8_t *buf, unsigned n)
{
	struct ztrace_hdr h = { .version = ZTRACE_VERSION, .hdr_size = ZTRACE_HDR_SIZE,
				.rec_size = ZTRACE_REC_SIZE, .lba_size = 512, .capacity_lba = 100 };

	ztrace_hdr_encode(&h, buf);
	for (unsigned i = 0; i < n; i++) {
		struct ztrace_rec r = { .ts_ns = i, .opcode = 0x28, .seq = i };

		ztrace_rec_encode(&r, buf + ZTRACE_HDR_SIZE + i * ZTRACE_REC_SIZE);
	}
	return ZTRACE_HDR_SIZE + n * ZTRACE_REC_SIZE;
}

static int open_bytes(struct fx *f, const uint8_t *buf, size_t len, struct ztrace_reader **rd,
		      char *msg, size_t msg_len)
{
	write_file(f->path, buf, len);
	return ztrace_read_open(f->path, rd, msg, msg_len);
}

static void test_ztrace_reader_refuses_foreign_and_corrupt_headers(void **state)
{
	struct fx *f = *state;
	uint8_t buf[1024];
	struct ztrace_reader *rd;
	struct ztrace_hdr h;
	char msg[256];
	size_t len = make_trace(buf, 2);

	assert_int_equal(open_bytes(f, (const uint8_t *)"hello", 5, &rd, msg, sizeof(msg)),
			 ZL_E_BAD_MAGIC);
	assert_int_equal(open_bytes(f, buf, 0, &rd, msg, sizeof(msg)), ZL_E_BAD_MAGIC);
	assert_int_equal(open_bytes(f, buf, 40, &rd, msg, sizeof(msg)), ZL_E_CORRUPT);
	assert_non_null(strstr(msg, "shorter than the 64-byte trace header"));

	buf[0] = 'X';
	assert_int_equal(open_bytes(f, buf, len, &rd, msg, sizeof(msg)), ZL_E_BAD_MAGIC);
	assert_non_null(strstr(msg, "not a zonelab trace"));
	buf[0] = 'Z';
	buf[24] ^= 1;                                 /* capacity flipped: checksum catches it */
	assert_int_equal(open_bytes(f, buf, len, &rd, msg, sizeof(msg)), ZL_E_BAD_CSUM);
	assert_non_null(strstr(msg, "checksum mismatch"));
	buf[24] ^= 1;

	h = (struct ztrace_hdr){ .version = 2, .hdr_size = 64, .rec_size = 48, .lba_size = 512 };
	ztrace_hdr_encode(&h, buf);
	assert_int_equal(open_bytes(f, buf, len, &rd, msg, sizeof(msg)), ZL_E_BAD_VERSION);
	assert_non_null(strstr(msg, "version 2"));
	h = (struct ztrace_hdr){ .version = 1, .hdr_size = 64, .rec_size = 48, .lba_size = 1000 };
	ztrace_hdr_encode(&h, buf);
	assert_int_equal(open_bytes(f, buf, len, &rd, msg, sizeof(msg)), ZL_E_CORRUPT);
	assert_non_null(strstr(msg, "LBA size 1000"));
	h = (struct ztrace_hdr){ .version = 1, .hdr_size = 64, .rec_size = 48, .lba_size = 512,
				 .clock = 7 };
	ztrace_hdr_encode(&h, buf);
	assert_int_equal(open_bytes(f, buf, len, &rd, msg, sizeof(msg)), ZL_E_CORRUPT);
	assert_non_null(strstr(msg, "unknown clock 7"));
	assert_non_null(strstr(msg, f->path));        /* names the file */
	assert_int_equal(ztrace_read_open("/nonexistent/t.trc", &rd, msg, sizeof(msg)), -ENOENT);
	assert_string_equal(msg, "/nonexistent/t.trc: No such file or directory");
}

static void test_ztrace_truncated_last_record_keeps_the_complete_ones(void **state)
{
	struct fx *f = *state;
	uint8_t buf[1024];
	struct ztrace_reader *rd;
	struct ztrace_rec r;
	char msg[256];
	size_t len = make_trace(buf, 3);

	assert_int_equal(open_bytes(f, buf, len - 20, &rd, msg, sizeof(msg)), 0);
	assert_int_equal(ztrace_read_next(rd, &r, msg, sizeof(msg)), 1);
	assert_int_equal(ztrace_read_next(rd, &r, msg, sizeof(msg)), 1);
	assert_int_equal(r.ts_ns, 1);
	assert_int_equal(ztrace_read_next(rd, &r, msg, sizeof(msg)), ZL_E_CORRUPT);
	assert_non_null(strstr(msg, "record 2 at offset 160 is truncated (28 of 48 bytes)"));
	ztrace_read_close(rd);

	/* a record out of sequence (lost or overwritten data) */
	buf[ZTRACE_HDR_SIZE + ZTRACE_REC_SIZE + 36] = 7;
	assert_int_equal(open_bytes(f, buf, len, &rd, msg, sizeof(msg)), 0);
	assert_int_equal(ztrace_read_next(rd, &r, msg, sizeof(msg)), 1);
	assert_int_equal(ztrace_read_next(rd, &r, msg, sizeof(msg)), ZL_E_CORRUPT);
	assert_non_null(strstr(msg, "has sequence number 7"));
	ztrace_read_close(rd);
}

static void test_ztrace_file_bytes_match_the_documented_layout(void **state)
{
	struct fx *f = *state;
	const uint8_t rd10[10] = { 0x28, 0, 0x01, 0x02, 0x03, 0x04, 0, 0x00, 0x20, 0 };
	uint8_t sense[18] = { 0x70, 0, 0x03, [12] = 0x11, [13] = 0x00 };
	char msg[256];
	uint8_t *b;
	size_t len;

	assert_int_equal(ztrace_start(f->tr, f->path, 0x0102030405060708ull, msg, sizeof(msg)), 0);
	assert_int_equal(ztrace_record_cmd(f->tr, rd10, 10, 2, sense, 0xaabb, 0x10), 0);
	assert_int_equal(ztrace_record_cmd(f->tr, rd10, 10, 0, NULL, 0xaacc, 0x10), 0);
	assert_int_equal(ztrace_stop(f->tr, NULL), 0);
	b = read_file(f->path, &len);
	assert_int_equal(len, 64 + 2 * 48);
	assert_memory_equal(b, "ZLTRACE\0", 8);
	assert_int_equal(b[8], 1);                    /* version, LE */
	assert_int_equal(b[10], 64);                  /* header size */
	assert_int_equal(b[12], 48);                  /* record size */
	assert_int_equal(b[14], ZTRACE_CLOCK_VIRTUAL);
	assert_int_equal(b[16] | b[17] << 8, 4096);   /* LBA size */
	assert_int_equal(b[26], 0x10);                /* capacity 1 << 20, little-endian */
	assert_int_equal(b[24] | b[25] | b[27] | b[28], 0);
	assert_int_equal(b[32], 0x08);                /* start_ns, little-endian */
	assert_int_equal(b[39], 0x01);
	assert_int_equal(b[64 + 0], 0xbb);            /* ts_ns */
	assert_int_equal(b[64 + 1], 0xaa);
	assert_int_equal(b[64 + 8], 0x10);            /* latency */
	assert_int_equal(b[64 + 16], 0x04);           /* LBA 0x01020304 */
	assert_int_equal(b[64 + 19], 0x01);
	assert_int_equal(b[64 + 24], 0x20);           /* length 32 */
	assert_int_equal(b[64 + 28], 0x28);           /* opcode */
	assert_int_equal(b[64 + 30], 0x02);           /* status */
	assert_int_equal(b[64 + 31], 0x03);           /* sense key */
	assert_int_equal(b[64 + 32], 0x11);           /* ASC */
	assert_int_equal(b[64 + 34], ZTRACE_F_LBA | ZTRACE_F_LEN);
	assert_int_equal(b[64 + 35], 10);             /* CDB length */
	assert_int_equal(b[64 + 36] | b[64 + 37] | b[64 + 38] | b[64 + 39], 0);   /* SEQ 0 */
	assert_int_equal(b[112 + 36], 1);             /* SEQ 1, little-endian */
	assert_int_equal(b[112 + 37] | b[112 + 38] | b[112 + 39], 0);
	free(b);
}

static void test_zscsi_cdb_info_decodes_each_layout(void **state)
{
	const uint8_t w6[6] = { 0x0a, 0x1f, 0xff, 0xfe, 0x00, 0 };
	const uint8_t r12[12] = { 0xa8, 0, 0, 0, 0x10, 0, 0, 0, 0, 0x40, 0, 0 };
	const uint8_t sync16[16] = { 0x91, 0, 0, 0, 0, 0, 0, 0, 0, 0x08, 0, 0, 0, 0x04, 0, 0 };
	const uint8_t rc16[16] = { 0x9e, 0x10 };
	const uint8_t short10[4] = { 0x28, 0, 0, 1 };
	struct zscsi_cdb_info ci;

	assert_int_equal(zscsi_cdb_info(w6, 6, &ci), 0);
	assert_int_equal(ci.lba, 0x1ffffe);
	assert_int_equal(ci.nr_lba, 256);             /* 0 means 256 */
	assert_int_equal(zscsi_cdb_info(r12, 12, &ci), 0);
	assert_int_equal(ci.lba, 0x1000);
	assert_int_equal(ci.nr_lba, 0x40);
	assert_int_equal(zscsi_cdb_info(sync16, 16, &ci), 0);
	assert_int_equal(ci.lba, 8);
	assert_int_equal(ci.nr_lba, 4);
	assert_int_equal(zscsi_cdb_info(rc16, 16, &ci), 0);
	assert_int_equal(ci.sa, 0x10);
	assert_int_equal(ci.flags, ZSCSI_CDBI_SA);
	assert_int_equal(zscsi_cdb_info(short10, 4, &ci), -EINVAL);
	assert_int_equal(ci.opcode, 0x28);
	assert_int_equal(ci.flags, ZSCSI_CDBI_SHORT);
	assert_int_equal(zscsi_cdb_info(NULL, 0, &ci), -EINVAL);
	assert_int_equal(zscsi_cdb_len_of(0x88), 16);
	assert_int_equal(zscsi_cdb_len_of(0xa0), 12);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_ztrace_round_trip_keeps_every_field, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ztrace_concurrent_writers_give_a_gapless_sequence,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_ztrace_start_twice_stop_twice_and_restart_overwrites,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_ztrace_start_refuses_foreign_files_and_symlinks,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_ztrace_reader_refuses_foreign_and_corrupt_headers,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_ztrace_truncated_last_record_keeps_the_complete_ones,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_ztrace_file_bytes_match_the_documented_layout,
						setup, teardown),
		cmocka_unit_test(test_zscsi_cdb_info_decodes_each_layout),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
