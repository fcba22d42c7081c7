/*
 * test_zstore.c — unit tests of zstore: data round trips on every backend,
 * sparse reads, the image header (round trip, refusal of foreign, damaged,
 * truncated, other-version and other-geometry images), create/force, zone
 * words across reopen, discard, and a 1 TB memory store.  Each test gets a
 * fresh scratch directory; images are real sparse files.  Block devices are
 * only exercised through the refusal of a regular file (no loop devices).
 */
#include <errno.h>
#include <fcntl.h>
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

#include "zl_crc.h"
#include "zl_test.h"
#include "zstore.h"
#include "zstore_int.h"

#define ZONE_LBA 2048u          /* 1 MiB zones of 512-byte LBAs */
#define NR_ZONES 64u

struct fx {
	char *dir;
	char path[512];
	struct zdev_cfg geo;
	struct zstore *s;
	char msg[512];
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	f->dir = zl_test_mkdtemp("zstore");
	assert_non_null(f->dir);
	snprintf(f->path, sizeof(f->path), "%s/disk.img", f->dir);
	zdev_cfg_init(&f->geo);
	f->geo.lba_size = 512;
	f->geo.zone_size_lba = ZONE_LBA;
	f->geo.capacity_lba = (uint64_t)NR_ZONES * ZONE_LBA;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	zstore_close(f->s);
	zl_test_rmdir(f->dir);
	free(f->dir);
	free(f);
	return 0;
}

static struct zstore_cfg store_cfg(const struct fx *f, enum zstore_kind kind, bool create)
{
	struct zstore_cfg c = {
		.kind = kind, .path = f->path, .create = create,
	};
	return c;
}

/* Create a FILE image at f->path with f->geo and close it. */
static void make_image(struct fx *f)
{
	struct zstore_cfg c = store_cfg(f, ZSTORE_FILE, true);
	struct zstore *s;

	assert_int_equal(zstore_open(&c, &f->geo, &s, f->msg, sizeof(f->msg)), 0);
	zstore_close(s);
}

static int open_file(struct fx *f, const struct zdev_cfg *geo)
{
	struct zstore_cfg c = store_cfg(f, ZSTORE_FILE, false);

	f->msg[0] = '\0';
	return zstore_open(&c, geo, &f->s, f->msg, sizeof(f->msg));
}

static void fill(void *buf, size_t len, uint64_t seed)
{
	uint64_t st = seed;
	unsigned char *p = buf;

	for (size_t i = 0; i < len; i++)
		p[i] = (unsigned char)zl_test_rand(&st);
}

static bool is_zero(const void *buf, size_t len)
{
	const unsigned char *p = buf;

	for (size_t i = 0; i < len; i++)
		if (p[i])
			return false;
	return true;
}

static void patch_file(const char *path, off_t off, const void *bytes, size_t len)
{
	int fd = open(path, O_RDWR);

	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, bytes, len, off), (ssize_t)len);
	close(fd);
}

static void read_file(const char *path, off_t off, void *bytes, size_t len)
{
	int fd = open(path, O_RDONLY);

	assert_true(fd >= 0);
	assert_int_equal(pread(fd, bytes, len, off), (ssize_t)len);
	close(fd);
}

static void put_le32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t get_le64(const uint8_t *p)
{
	return (uint64_t)get_le32(p) | (uint64_t)get_le32(p + 4) << 32;
}

/* Recompute the header CRC as docs/FORMAT.md says (field zeroed, 4096 bytes). */
static void reseal_header(uint8_t *h)
{
	put_le32(h + 16, 0);
	put_le32(h + 16, zl_crc32c(0, h, 4096));
}

/* Rewrite one 32-bit header field of the image and fix the CRC. */
static void patch_header_le32(const char *path, size_t off, uint32_t v)
{
	uint8_t h[4096];

	read_file(path, 0, h, sizeof(h));
	put_le32(h + off, v);
	reseal_header(h);
	patch_file(path, 0, h, sizeof(h));
}

/* ---- data round trips ------------------------------------------------- */

static void round_trip(struct zstore *s)
{
	enum { N = 300 };               /* 150 KiB: crosses 64 KiB MEM chunks */
	unsigned char *in = malloc(N * 512), *out = malloc(N * 512);
	uint64_t lba = 5 * ZONE_LBA + 7;

	fill(in, N * 512, 42);
	assert_int_equal(zstore_write(s, lba, N, in), 0);
	assert_int_equal(zstore_read(s, lba, N, out), 0);
	assert_memory_equal(in, out, N * 512);
	/* a sub-range read sees the same bytes */
	assert_int_equal(zstore_read(s, lba + 129, 3, out), 0);
	assert_memory_equal(in + 129 * 512, out, 3 * 512);
	free(in);
	free(out);
}

static void test_zstore_file_round_trips_data(void **state)
{
	struct fx *f = *state;
	struct zstore_cfg c = store_cfg(f, ZSTORE_FILE, true);

	assert_int_equal(zstore_open(&c, &f->geo, &f->s, f->msg, sizeof(f->msg)), 0);
	assert_int_equal(zstore_kind(f->s), ZSTORE_FILE);
	round_trip(f->s);
}

static void test_zstore_mem_round_trips_data(void **state)
{
	struct fx *f = *state;
	struct zstore_cfg c = store_cfg(f, ZSTORE_MEM, false);

	assert_int_equal(zstore_open(&c, &f->geo, &f->s, f->msg, sizeof(f->msg)), 0);
	assert_int_equal(zstore_kind(f->s), ZSTORE_MEM);
	assert_true(zstore_is_fresh(f->s));
	round_trip(f->s);
}

static void test_zstore_none_drops_writes_and_reads_zeros(void **state)
{
	struct fx *f = *state;
	struct zstore_cfg c = store_cfg(f, ZSTORE_NONE, false);
	unsigned char buf[4096];

	assert_int_equal(zstore_open(&c, &f->geo, &f->s, f->msg, sizeof(f->msg)), 0);
	assert_true(zstore_is_fresh(f->s));
	memset(buf, 0xa5, sizeof(buf));
	assert_int_equal(zstore_write(f->s, 100, 8, buf), 0);
	assert_int_equal(zstore_read(f->s, 100, 8, buf), 0);
	assert_true(is_zero(buf, sizeof(buf)));
	zstore_zone_word_set(f->s, 3, 0x1234);
	assert_int_equal(zstore_zone_word_get(f->s, 3), 0x1234);
	assert_int_equal(zstore_sync_data(f->s), 0);
	assert_int_equal(zstore_sync_table(f->s), 0);
}

static void test_zstore_file_unwritten_reads_zeros(void **state)
{
	struct fx *f = *state;
	struct zstore_cfg c = store_cfg(f, ZSTORE_FILE, true);
	unsigned char buf[8 * 512];

	assert_int_equal(zstore_open(&c, &f->geo, &f->s, f->msg, sizeof(f->msg)), 0);
	memset(buf, 0xff, sizeof(buf));
	assert_int_equal(zstore_write(f->s, 0, 1, buf), 0);
	assert_int_equal(zstore_read(f->s, 1, 8, buf), 0);
	assert_true(is_zero(buf, sizeof(buf)));
	assert_int_equal(zstore_read(f->s, f->geo.capacity_lba - 8, 8, buf), 0);
	assert_true(is_zero(buf, sizeof(buf)));
}

static void test_zstore_file_image_is_sparse(void **state)
{
	struct fx *f = *state;
	struct stat st;

	make_image(f);
	assert_int_equal(stat(f->path, &st), 0);
	assert_true((uint64_t)st.st_size >= f->geo.capacity_lba * 512);
	assert_true((uint64_t)st.st_blocks * 512 < (uint64_t)st.st_size / 8);
}

static void test_zstore_mem_unwritten_reads_zeros(void **state)
{
	struct fx *f = *state;
	struct zstore_cfg c = store_cfg(f, ZSTORE_MEM, false);
	unsigned char buf[256 * 512];

	assert_int_equal(zstore_open(&c, &f->geo, &f->s, f->msg, sizeof(f->msg)), 0);
	memset(buf, 0x11, sizeof(buf));
	assert_int_equal(zstore_write(f->s, 10, 1, buf), 0);
	memset(buf, 0xee, sizeof(buf));
	/* the rest of the written chunk, and chunks never written */
	assert_int_equal(zstore_read(f->s, 11, 256, buf), 0);
	assert_true(is_zero(buf, sizeof(buf)));
	assert_int_equal(zstore_read(f->s, 9 * ZONE_LBA, 256, buf), 0);
	assert_true(is_zero(buf, sizeof(buf)));
}

static void test_zstore_mem_1tb_write_at_end_is_cheap(void **state)
{
	struct fx *f = *state;
	struct zstore_cfg c = store_cfg(f, ZSTORE_MEM, false);
	unsigned char in[4096], out[4096];

	f->geo.zone_size_lba = (256u << 20) / 512;
	f->geo.capacity_lba = (UINT64_C(1) << 40) / 512;
	assert_int_equal(zstore_open(&c, &f->geo, &f->s, f->msg, sizeof(f->msg)), 0);
	fill(in, sizeof(in), 7);
	assert_int_equal(zstore_write(f->s, f->geo.capacity_lba - 8, 8, in), 0);
	assert_int_equal(zstore_read(f->s, f->geo.capacity_lba - 8, 8, out), 0);
	assert_memory_equal(in, out, sizeof(in));
	/* one 64 KiB chunk, one 32 KiB leaf, a 32 KiB directory */
	assert_true(zstore_mem_bytes(f->s) < 256 * 1024);
	zstore_zone_word_set(f->s, 4095, 77);
	assert_int_equal(zstore_zone_word_get(f->s, 4095), 77);
}

static void test_zstore_io_past_capacity_is_einval(void **state)
{
	struct fx *f = *state;
	static const enum zstore_kind kinds[] = { ZSTORE_FILE, ZSTORE_MEM, ZSTORE_NONE };
	unsigned char buf[1024] = { 0 };

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		struct zstore_cfg c = store_cfg(f, kinds[i], true);
		uint64_t cap = f->geo.capacity_lba;

		c.force = true;
		assert_int_equal(zstore_open(&c, &f->geo, &f->s, f->msg, sizeof(f->msg)), 0);
		assert_int_equal(zstore_write(f->s, cap - 1, 2, buf), -EINVAL);
		assert_int_equal(zstore_read(f->s, cap, 1, buf), -EINVAL);
		assert_int_equal(zstore_read(f->s, 1, UINT64_MAX, buf), -EINVAL);
		assert_int_equal(zstore_discard(f->s, cap - 1, 2), -EINVAL);
		assert_int_equal(zstore_write(f->s, cap - 1, 1, buf), 0);
		zstore_close(f->s);
		f->s = NULL;
	}
}

/* ---- discard ------------------------------------------------------------ */

static void test_zstore_mem_discard_reads_back_zeros_and_frees(void **state)
{
	struct fx *f = *state;
	struct zstore_cfg c = store_cfg(f, ZSTORE_MEM, false);
	unsigned char *buf = malloc(ZONE_LBA * 512);
	size_t before;

	assert_int_equal(zstore_open(&c, &f->geo, &f->s, f->msg, sizeof(f->msg)), 0);
	before = zstore_mem_bytes(f->s);
	memset(buf, 0x5a, ZONE_LBA * 512);
	assert_int_equal(zstore_write(f->s, 3 * ZONE_LBA, ZONE_LBA, buf), 0);
	assert_int_equal(zstore_write(f->s, 4 * ZONE_LBA, 4, buf), 0);
	assert_true(zstore_mem_bytes(f->s) > before + ZONE_LBA * 512);
	/* a whole zone: its chunks go; a partial chunk is zeroed in place */
	assert_int_equal(zstore_discard(f->s, 3 * ZONE_LBA, ZONE_LBA), 0);
	assert_int_equal(zstore_discard(f->s, 4 * ZONE_LBA + 1, 2), 0);
	assert_int_equal(zstore_read(f->s, 3 * ZONE_LBA, ZONE_LBA, buf), 0);
	assert_true(is_zero(buf, ZONE_LBA * 512));
	assert_int_equal(zstore_read(f->s, 4 * ZONE_LBA, 4, buf), 0);
	assert_int_equal(buf[0], 0x5a);
	assert_true(is_zero(buf + 512, 2 * 512));
	assert_int_equal(buf[3 * 512], 0x5a);
	assert_true(zstore_mem_bytes(f->s) < before + 2 * (64 << 10));
	free(buf);
}

static void test_zstore_file_discard_with_punch_reads_back_zeros(void **state)
{
	struct fx *f = *state;
	struct zstore_cfg c = store_cfg(f, ZSTORE_FILE, true);
	unsigned char *buf = malloc(ZONE_LBA * 512);

	c.punch_on_reset = true;
	assert_int_equal(zstore_open(&c, &f->geo, &f->s, f->msg, sizeof(f->msg)), 0);
	memset(buf, 0x5a, ZONE_LBA * 512);
	assert_int_equal(zstore_write(f->s, 2 * ZONE_LBA, ZONE_LBA, buf), 0);
	assert_int_equal(zstore_discard(f->s, 2 * ZONE_LBA, ZONE_LBA), 0);
	assert_int_equal(zstore_read(f->s, 2 * ZONE_LBA, ZONE_LBA, buf), 0);
	assert_true(is_zero(buf, ZONE_LBA * 512));
	free(buf);
}

static void test_zstore_file_discard_without_punch_is_noop(void **state)
{
	struct fx *f = *state;
	struct zstore_cfg c = store_cfg(f, ZSTORE_FILE, true);
	unsigned char buf[512];

	assert_int_equal(zstore_open(&c, &f->geo, &f->s, f->msg, sizeof(f->msg)), 0);
	memset(buf, 0x5a, sizeof(buf));
	assert_int_equal(zstore_write(f->s, ZONE_LBA, 1, buf), 0);
	assert_int_equal(zstore_discard(f->s, ZONE_LBA, ZONE_LBA), 0);
	assert_int_equal(zstore_read(f->s, ZONE_LBA, 1, buf), 0);
	assert_int_equal(buf[0], 0x5a);
}

/* ---- header and reopen -------------------------------------------------- */

static void test_zstore_reopen_without_geometry_returns_stored_geometry(void **state)
{
	struct fx *f = *state;
	const struct zdev_cfg *g;

	/* every field away from its default */
	f->geo.lba_size = 4096;
	f->geo.pblock_size = 4096;
	f->geo.zone_size_lba = 256;
	f->geo.zone_cap_lba = 192;
	f->geo.capacity_lba = 100 * 256 + 64;       /* runt zone at the end */
	f->geo.gap_zones = true;
	f->geo.nr_conv_start = 2;
	f->geo.nr_conv_ranges = 2;
	f->geo.conv_ranges[0] = (struct zdev_range){ .first = 10, .count = 3 };
	f->geo.conv_ranges[1] = (struct zdev_range){ .first = 50, .count = 1 };
	f->geo.model = ZL_MODEL_HA;
	f->geo.max_open = 7;
	f->geo.max_active = 9;
	f->geo.urswrz = false;
	make_image(f);

	assert_int_equal(open_file(f, NULL), 0);
	assert_false(zstore_is_fresh(f->s));
	g = zstore_geometry(f->s);
	assert_int_equal(g->lba_size, 4096);
	assert_int_equal(g->pblock_size, 4096);
	assert_int_equal(g->capacity_lba, 100 * 256 + 64);
	assert_int_equal(g->zone_size_lba, 256);
	assert_int_equal(g->zone_cap_lba, 192);
	assert_true(g->gap_zones);
	assert_int_equal(g->nr_conv_start, 2);
	assert_int_equal(g->nr_conv_ranges, 2);
	assert_int_equal(g->conv_ranges[0].first, 10);
	assert_int_equal(g->conv_ranges[0].count, 3);
	assert_int_equal(g->conv_ranges[1].first, 50);
	assert_int_equal(g->conv_ranges[1].count, 1);
	assert_int_equal(g->model, ZL_MODEL_HA);
	assert_int_equal(g->max_open, 7);
	assert_int_equal(g->max_active, 9);
	assert_false(g->urswrz);
	zstore_close(f->s);

	/* and the full geometry is accepted as equal */
	assert_int_equal(open_file(f, &f->geo), 0);
}

static void test_zstore_header_layout_matches_format_doc(void **state)
{
	struct fx *f = *state;
	uint8_t h[4096];
	uint32_t crc;

	make_image(f);
	read_file(f->path, 0, h, sizeof(h));
	assert_memory_equal(h, "ZONELAB\0", 8);
	assert_int_equal(get_le32(h + 8), 1);                   /* version */
	assert_int_equal(get_le32(h + 12), 4096);               /* header size */
	crc = get_le32(h + 16);
	reseal_header(h);
	assert_int_equal(get_le32(h + 16), crc);
	assert_int_equal(get_le32(h + 40), NR_ZONES);           /* nr_zones */
	assert_int_equal(get_le32(h + 44), 8);                  /* word size */
	assert_int_equal(get_le64(h + 48), 4096);               /* table offset */
	assert_int_equal(get_le64(h + 56), NR_ZONES * 8);       /* table length */
	assert_int_equal(get_le64(h + 64), 1 << 20);            /* data offset */
	assert_int_equal(get_le64(h + 72), f->geo.capacity_lba * 512);
	assert_int_equal(get_le32(h + 128), 512);               /* lba_size */
	assert_int_equal(get_le64(h + 136), f->geo.capacity_lba);
	assert_int_equal(get_le64(h + 144), ZONE_LBA);
	assert_int_equal(h[161], 1);                            /* urswrz */
}

static void test_zstore_reopen_keeps_data(void **state)
{
	struct fx *f = *state;
	struct zstore_cfg c = store_cfg(f, ZSTORE_FILE, true);
	unsigned char in[4096], out[4096];

	assert_int_equal(zstore_open(&c, &f->geo, &f->s, f->msg, sizeof(f->msg)), 0);
	assert_true(zstore_is_fresh(f->s));
	fill(in, sizeof(in), 3);
	assert_int_equal(zstore_write(f->s, 33 * ZONE_LBA, 8, in), 0);
	assert_int_equal(zstore_sync_data(f->s), 0);
	zstore_close(f->s);
	assert_int_equal(open_file(f, &f->geo), 0);
	assert_false(zstore_is_fresh(f->s));
	assert_int_equal(zstore_read(f->s, 33 * ZONE_LBA, 8, out), 0);
	assert_memory_equal(in, out, sizeof(in));
	/* the data area starts at 1 MiB in the file */
	read_file(f->path, (1 << 20) + (off_t)33 * ZONE_LBA * 512, out, sizeof(out));
	assert_memory_equal(in, out, sizeof(in));
}

static void test_zstore_zone_words_survive_close_and_reopen(void **state)
{
	struct fx *f = *state;
	struct zstore_cfg c = store_cfg(f, ZSTORE_FILE, true);
	uint8_t raw[8];

	assert_int_equal(zstore_open(&c, &f->geo, &f->s, f->msg, sizeof(f->msg)), 0);
	for (uint32_t i = 0; i < NR_ZONES; i++)
		assert_int_equal(zstore_zone_word_get(f->s, i), 0);
	for (uint32_t i = 0; i < NR_ZONES; i++)
		zstore_zone_word_set(f->s, i, 0x0123456789abcdefULL ^ ((uint64_t)i << 32) ^ i);
	assert_int_equal(zstore_sync_table(f->s), 0);
	zstore_zone_word_set(f->s, 5, 0xfedcba9876543210ULL);  /* not synced: mapped shared */
	zstore_close(f->s);

	assert_int_equal(open_file(f, NULL), 0);
	for (uint32_t i = 0; i < NR_ZONES; i++) {
		uint64_t want = i == 5 ? 0xfedcba9876543210ULL :
			0x0123456789abcdefULL ^ ((uint64_t)i << 32) ^ i;

		assert_int_equal(zstore_zone_word_get(f->s, i), want);
	}
	/* one little-endian word per zone at the table offset */
	read_file(f->path, 4096 + 5 * 8, raw, sizeof(raw));
	assert_int_equal(get_le64(raw), 0xfedcba9876543210ULL);
	assert_int_equal(zstore_sync_table(f->s), 0);
	assert_int_equal(zstore_sync_table(f->s), 0);
}

static void test_zstore_mem_and_none_keep_zone_words(void **state)
{
	struct fx *f = *state;
	static const enum zstore_kind kinds[] = { ZSTORE_MEM, ZSTORE_NONE };

	for (size_t k = 0; k < 2; k++) {
		struct zstore_cfg c = store_cfg(f, kinds[k], false);

		assert_int_equal(zstore_open(&c, &f->geo, &f->s, f->msg, sizeof(f->msg)), 0);
		for (uint32_t i = 0; i < NR_ZONES; i++)
			assert_int_equal(zstore_zone_word_get(f->s, i), 0);
		zstore_zone_word_set(f->s, NR_ZONES - 1, UINT64_MAX);
		assert_int_equal(zstore_zone_word_get(f->s, NR_ZONES - 1), UINT64_MAX);
		assert_int_equal(zstore_sync_table(f->s), 0);
		assert_int_equal(zstore_sync_data(f->s), 0);
		zstore_close(f->s);
		f->s = NULL;
	}
}

static void test_zstore_mem_without_geometry_is_einval(void **state)
{
	struct fx *f = *state;
	struct zstore_cfg c = store_cfg(f, ZSTORE_MEM, false);

	assert_int_equal(zstore_open(&c, NULL, &f->s, f->msg, sizeof(f->msg)), -EINVAL);
	assert_null(f->s);
	assert_non_null(strstr(f->msg, "geometry"));
}

/* ---- refusals ----------------------------------------------------------- */

static void test_zstore_open_foreign_file_is_bad_magic(void **state)
{
	struct fx *f = *state;
	static const char elf[] = "\x7f" "ELF\x02\x01\x01\x00 and then some";

	int fd = open(f->path, O_CREAT | O_WRONLY, 0644);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, elf, sizeof(elf)), (ssize_t)sizeof(elf));
	close(fd);
	assert_int_equal(open_file(f, &f->geo), ZL_E_BAD_MAGIC);
	assert_null(f->s);
	assert_non_null(strstr(f->msg, "not a zonelab image"));
	assert_non_null(strstr(f->msg, f->path));
	assert_non_null(strstr(f->msg, "\\x7fELF"));
	/* and the foreign file was not touched */
	{
		char back[sizeof(elf)];

		read_file(f->path, 0, back, sizeof(back));
		assert_memory_equal(back, elf, sizeof(elf));
	}
}

static void test_zstore_open_missing_file_is_enoent(void **state)
{
	struct fx *f = *state;

	assert_int_equal(open_file(f, &f->geo), -ENOENT);
	assert_null(f->s);
	assert_non_null(strstr(f->msg, f->path));
	assert_non_null(strstr(f->msg, "create"));
}

static void test_zstore_open_empty_file_is_bad_magic(void **state)
{
	struct fx *f = *state;
	int fd = open(f->path, O_CREAT | O_WRONLY, 0644);

	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(open_file(f, NULL), ZL_E_BAD_MAGIC);
	assert_non_null(strstr(f->msg, "not a zonelab image"));
	assert_non_null(strstr(f->msg, "empty"));
}

static void test_zstore_open_corrupted_header_byte_is_bad_csum(void **state)
{
	struct fx *f = *state;
	uint8_t b;

	make_image(f);
	read_file(f->path, 144, &b, 1);             /* zone_size_lba */
	b ^= 0x01;
	patch_file(f->path, 144, &b, 1);
	assert_int_equal(open_file(f, NULL), ZL_E_BAD_CSUM);
	assert_null(f->s);
	assert_non_null(strstr(f->msg, "checksum"));
	assert_non_null(strstr(f->msg, f->path));
}

static void test_zstore_open_wrong_version_is_bad_version(void **state)
{
	struct fx *f = *state;

	make_image(f);
	patch_header_le32(f->path, 8, 2);
	assert_int_equal(open_file(f, &f->geo), ZL_E_BAD_VERSION);
	assert_null(f->s);
	assert_non_null(strstr(f->msg, "version 2"));
}

static void test_zstore_open_truncated_file_is_too_small(void **state)
{
	struct fx *f = *state;

	make_image(f);
	assert_int_equal(truncate(f->path, (1 << 20) + 12345), 0);
	assert_int_equal(open_file(f, NULL), ZL_E_TOO_SMALL);
	assert_null(f->s);
	assert_non_null(strstr(f->msg, "truncated"));
	assert_non_null(strstr(f->msg, "1060921"));             /* actual bytes */
}

static void test_zstore_open_truncated_header_is_corrupt(void **state)
{
	struct fx *f = *state;

	make_image(f);
	assert_int_equal(truncate(f->path, 100), 0);
	assert_int_equal(open_file(f, NULL), ZL_E_CORRUPT);
	assert_non_null(strstr(f->msg, "truncated"));
}

static void test_zstore_open_header_with_invalid_geometry_is_geometry(void **state)
{
	struct fx *f = *state;

	make_image(f);
	patch_header_le32(f->path, 128, 1000);              /* lba_size */
	assert_int_equal(open_file(f, NULL), ZL_E_GEOMETRY);
	assert_non_null(strstr(f->msg, "invalid"));
}

static void test_zstore_open_header_with_inconsistent_layout_is_corrupt(void **state)
{
	struct fx *f = *state;

	make_image(f);
	patch_header_le32(f->path, 40, NR_ZONES + 1);       /* nr_zones */
	assert_int_equal(open_file(f, NULL), ZL_E_CORRUPT);
	assert_non_null(strstr(f->msg, "nr_zones"));
}

static void test_zstore_open_invalid_given_geometry_is_geometry(void **state)
{
	struct fx *f = *state;
	struct zstore_cfg c = store_cfg(f, ZSTORE_MEM, false);

	f->geo.lba_size = 1000;
	assert_int_equal(zstore_open(&c, &f->geo, &f->s, f->msg, sizeof(f->msg)), ZL_E_GEOMETRY);
	assert_null(f->s);
	assert_true(strlen(f->msg) > 0);
}

static void test_zstore_open_geometry_mismatch_names_field(void **state)
{
	struct fx *f = *state;
	struct zdev_cfg other = f->geo;

	make_image(f);
	other.zone_size_lba = ZONE_LBA / 2;
	assert_int_equal(open_file(f, &other), ZL_E_GEOMETRY_MISMATCH);
	assert_null(f->s);
	assert_non_null(strstr(f->msg, "zone_size_lba"));
	assert_non_null(strstr(f->msg, "2048"));
	assert_non_null(strstr(f->msg, "1024"));
	assert_non_null(strstr(f->msg, "force"));
	/* the image is untouched: it still opens with its own geometry */
	assert_int_equal(open_file(f, &f->geo), 0);
}

static void test_zstore_open_geometry_mismatch_in_conv_range_names_range(void **state)
{
	struct fx *f = *state;
	struct zdev_cfg other;

	f->geo.nr_conv_ranges = 2;
	f->geo.conv_ranges[0] = (struct zdev_range){ .first = 4, .count = 2 };
	f->geo.conv_ranges[1] = (struct zdev_range){ .first = 20, .count = 2 };
	make_image(f);
	other = f->geo;
	other.conv_ranges[1].count = 3;
	assert_int_equal(open_file(f, &other), ZL_E_GEOMETRY_MISMATCH);
	assert_non_null(strstr(f->msg, "conv_ranges[1].count"));
}

static void test_zstore_open_default_pblock_and_cap_match_explicit_values(void **state)
{
	struct fx *f = *state;
	struct zdev_cfg other = f->geo;

	make_image(f);                      /* pblock_size 0, zone_cap_lba 0 */
	other.pblock_size = 512;
	other.zone_cap_lba = ZONE_LBA;
	assert_int_equal(open_file(f, &other), 0);
}

static void test_zstore_create_over_image_without_force_is_eexist(void **state)
{
	struct fx *f = *state;
	struct zstore_cfg c = store_cfg(f, ZSTORE_FILE, true);
	unsigned char in[512], out[512];

	assert_int_equal(zstore_open(&c, &f->geo, &f->s, f->msg, sizeof(f->msg)), 0);
	fill(in, sizeof(in), 9);
	assert_int_equal(zstore_write(f->s, 7, 1, in), 0);
	zstore_zone_word_set(f->s, 1, 99);
	zstore_close(f->s);
	f->s = NULL;

	assert_int_equal(zstore_open(&c, &f->geo, &f->s, f->msg, sizeof(f->msg)), -EEXIST);
	assert_null(f->s);
	assert_non_null(strstr(f->msg, "already holds a zonelab image"));
	assert_non_null(strstr(f->msg, "force"));
	/* nothing was erased */
	assert_int_equal(open_file(f, NULL), 0);
	assert_int_equal(zstore_read(f->s, 7, 1, out), 0);
	assert_memory_equal(in, out, sizeof(in));
	assert_int_equal(zstore_zone_word_get(f->s, 1), 99);
}

static void test_zstore_create_with_force_reformats(void **state)
{
	struct fx *f = *state;
	struct zstore_cfg c = store_cfg(f, ZSTORE_FILE, true);
	unsigned char buf[512];

	assert_int_equal(zstore_open(&c, &f->geo, &f->s, f->msg, sizeof(f->msg)), 0);
	memset(buf, 0x77, sizeof(buf));
	assert_int_equal(zstore_write(f->s, 7, 1, buf), 0);
	zstore_zone_word_set(f->s, 1, 99);
	zstore_close(f->s);
	f->s = NULL;

	c.force = true;
	f->geo.capacity_lba = 32 * ZONE_LBA;                /* a new geometry */
	assert_int_equal(zstore_open(&c, &f->geo, &f->s, f->msg, sizeof(f->msg)), 0);
	assert_true(zstore_is_fresh(f->s));
	assert_int_equal(zstore_geometry(f->s)->capacity_lba, 32 * ZONE_LBA);
	assert_int_equal(zstore_zone_word_get(f->s, 1), 0);
	assert_int_equal(zstore_read(f->s, 7, 1, buf), 0);
	assert_true(is_zero(buf, sizeof(buf)));
	zstore_close(f->s);
	assert_int_equal(open_file(f, NULL), 0);
	assert_int_equal(zstore_geometry(f->s)->capacity_lba, 32 * ZONE_LBA);
}

static void test_zstore_create_without_geometry_is_einval(void **state)
{
	struct fx *f = *state;
	struct zstore_cfg c = store_cfg(f, ZSTORE_FILE, true);

	assert_int_equal(zstore_open(&c, NULL, &f->s, f->msg, sizeof(f->msg)), -EINVAL);
	assert_null(f->s);
}

static void test_zstore_block_kind_on_regular_file_is_refused(void **state)
{
	struct fx *f = *state;
	struct zstore_cfg c = store_cfg(f, ZSTORE_BLOCK, false);

	make_image(f);
	assert_int_equal(zstore_open(&c, &f->geo, &f->s, f->msg, sizeof(f->msg)), -ENOTBLK);
	assert_null(f->s);
	assert_non_null(strstr(f->msg, "not a block device"));
	c.create = true;
	c.force = true;
	assert_int_equal(zstore_open(&c, &f->geo, &f->s, f->msg, sizeof(f->msg)), -ENOTBLK);
	/* and the image was not touched */
	assert_int_equal(open_file(f, &f->geo), 0);
}

static void test_zstore_file_kind_on_directory_is_refused(void **state)
{
	struct fx *f = *state;
	struct zstore_cfg c = store_cfg(f, ZSTORE_FILE, false);

	c.path = f->dir;
	assert_true(zstore_open(&c, &f->geo, &f->s, f->msg, sizeof(f->msg)) < 0);
	assert_null(f->s);
	assert_non_null(strstr(f->msg, f->dir));
}

static void test_zstore_kind_names_parse_round_trip(void **state)
{
	static const enum zstore_kind kinds[] = {
		ZSTORE_FILE, ZSTORE_BLOCK, ZSTORE_MEM, ZSTORE_NONE,
	};
	enum zstore_kind k;

	(void)state;
	for (size_t i = 0; i < 4; i++) {
		assert_int_equal(zstore_kind_parse(zstore_kind_name(kinds[i]), &k), 0);
		assert_int_equal(k, kinds[i]);
	}
	assert_string_equal(zstore_kind_name(ZSTORE_MEM), "mem");
	assert_int_equal(zstore_kind_parse("tape", &k), -EINVAL);
	assert_int_equal(zstore_kind_parse(NULL, &k), -EINVAL);
}

/*
 * The hot path: zstore_data_fd() names the image's descriptor and where LBA 0
 * is, and zstore_prw() at that offset moves the same bytes zstore_write/read
 * do; the access time of the image is not kept (O_NOATIME).
 */
static void test_zstore_data_fd_and_prw_match_read_write(void **state)
{
	struct fx *f = *state;
	struct zstore_cfg c = store_cfg(f, ZSTORE_FILE, true);
	unsigned char a[2048], b[2048];
	uint64_t off = 0;
	int fd;

	assert_int_equal(zstore_open(&c, &f->geo, &f->s, f->msg, sizeof(f->msg)), 0);
	fd = zstore_data_fd(f->s, &off);
	assert_true(fd >= 0);
	assert_int_equal(off, 1 << 20);                 /* docs/FORMAT.md: data_off */
	assert_true(fcntl(fd, F_GETFL) & O_NOATIME);
	fill(a, sizeof(a), 7);
	assert_int_equal(zstore_prw(fd, true, a, sizeof(a), off + 3 * 512), 0);
	assert_int_equal(zstore_read(f->s, 3, 4, b), 0);
	assert_memory_equal(a, b, sizeof(a));
	fill(a, sizeof(a), 8);
	assert_int_equal(zstore_write(f->s, 10, 4, a), 0);
	memset(b, 0, sizeof(b));
	assert_int_equal(zstore_prw(fd, false, b, sizeof(b), off + 10 * 512), 0);
	assert_memory_equal(a, b, sizeof(a));
}

/* A transfer that meets the end of the file is -EIO (the image shrank), not a hang. */
static void test_zstore_prw_past_end_of_file_is_eio(void **state)
{
	struct fx *f = *state;
	unsigned char buf[8192];
	int fd = open(f->path, O_RDWR | O_CREAT | O_TRUNC, 0644);

	assert_true(fd >= 0);
	memset(buf, 0x5a, sizeof(buf));
	assert_int_equal(zstore_prw(fd, true, buf, 4096, 0), 0);
	/* short read (4096 of 8192), then end of file */
	assert_int_equal(zstore_prw(fd, false, buf, sizeof(buf), 0), -EIO);
	assert_int_equal(zstore_prw(fd, false, buf, 512, 1 << 20), -EIO);
	close(fd);
	/* a closed descriptor: the error is the system's */
	assert_int_equal(zstore_prw(fd, false, buf, 512, 0), -EBADF);
}

/*
 * Scatter-gather on every backend: 1500 pieces of 3 bytes and one of the
 * rest (more than IOV_MAX for one preadv, odd piece sizes) go where the flat
 * calls put them; a buffer shorter than the transfer is refused.
 */
static void test_zstore_readv_writev_many_odd_pieces_match_flat_io(void **state)
{
	static const enum zstore_kind kinds[] = { ZSTORE_FILE, ZSTORE_MEM, ZSTORE_NONE };
	enum { NR = 1501, LEN = 16 * 512 };
	struct fx *f = *state;
	struct iovec *iov = calloc(NR, sizeof(*iov));
	unsigned char *in = malloc(LEN), *out = malloc(LEN), *flat = malloc(LEN);

	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		struct zstore_cfg c = store_cfg(f, kinds[k], true);

		c.force = true;
		assert_int_equal(zstore_open(&c, &f->geo, &f->s, f->msg, sizeof(f->msg)), 0);
		fill(in, LEN, 11 + k);
		for (int i = 0; i < NR; i++)
			iov[i] = (struct iovec){ in + 3 * i, i < NR - 1 ? 3 : LEN - 3 * (NR - 1) };
		assert_int_equal(zstore_writev(f->s, 40, 16, iov, NR), 0);
		assert_int_equal(zstore_read(f->s, 40, 16, flat), 0);
		if (kinds[k] == ZSTORE_NONE)
			assert_true(is_zero(flat, LEN));
		else
			assert_memory_equal(flat, in, LEN);
		memset(out, 0xee, LEN);
		for (int i = 0; i < NR; i++)
			iov[i].iov_base = out + 3 * i;
		assert_int_equal(zstore_readv(f->s, 40, 16, iov, NR), 0);
		assert_memory_equal(out, flat, LEN);
		assert_int_equal(zstore_readv(f->s, 40, 17, iov, NR), -EINVAL);
		assert_int_equal(zstore_writev(f->s, 40, 17, iov, NR), -EINVAL);
		zstore_close(f->s);
		f->s = NULL;
	}
	free(iov);
	free(in);
	free(out);
	free(flat);
}

/*
 * zstore_sync_words() of one word and of the whole table: the page math
 * stays inside the mapping (a bad range fails msync with EINVAL/ENOMEM).
 * Whether msync reached the disk cannot be seen here: the file shows the
 * words through the shared mapping either way; the read-backs check only
 * that they sit where docs/FORMAT.md puts them.
 */
static void test_zstore_sync_words_of_file_and_mem_succeeds(void **state)
{
	struct fx *f = *state;
	struct zstore_cfg c = store_cfg(f, ZSTORE_FILE, true);
	uint8_t raw[8];

	assert_int_equal(zstore_open(&c, &f->geo, &f->s, f->msg, sizeof(f->msg)), 0);
	zstore_zone_word_set(f->s, 7, 0x77);
	zstore_zone_word_set(f->s, NR_ZONES - 1, 0x99);
	assert_int_equal(zstore_sync_words(f->s, 7, 7), 0);
	assert_int_equal(zstore_sync_words(f->s, 0, NR_ZONES - 1), 0);
	assert_int_equal(zstore_sync_table(f->s), 0);
	read_file(f->path, 4096 + 7 * 8, raw, sizeof(raw));
	assert_int_equal(get_le64(raw), 0x77);
	read_file(f->path, 4096 + (NR_ZONES - 1) * 8, raw, sizeof(raw));
	assert_int_equal(get_le64(raw), 0x99);
	zstore_close(f->s);
	c = store_cfg(f, ZSTORE_MEM, false);
	assert_int_equal(zstore_open(&c, &f->geo, &f->s, f->msg, sizeof(f->msg)), 0);
	assert_int_equal(zstore_sync_words(f->s, 0, NR_ZONES - 1), 0);
}

static void test_zstore_data_fd_of_mem_store_is_none(void **state)
{
	struct fx *f = *state;
	struct zstore_cfg c = store_cfg(f, ZSTORE_MEM, true);
	uint64_t off = 12345;

	assert_int_equal(zstore_open(&c, &f->geo, &f->s, f->msg, sizeof(f->msg)), 0);
	assert_int_equal(zstore_data_fd(f->s, &off), -1);
	assert_int_equal(off, 12345);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_zstore_file_round_trips_data),
		T(test_zstore_data_fd_and_prw_match_read_write),
		T(test_zstore_prw_past_end_of_file_is_eio),
		T(test_zstore_data_fd_of_mem_store_is_none),
		T(test_zstore_readv_writev_many_odd_pieces_match_flat_io),
		T(test_zstore_sync_words_of_file_and_mem_succeeds),
		T(test_zstore_mem_round_trips_data),
		T(test_zstore_none_drops_writes_and_reads_zeros),
		T(test_zstore_file_unwritten_reads_zeros),
		T(test_zstore_file_image_is_sparse),
		T(test_zstore_mem_unwritten_reads_zeros),
		T(test_zstore_mem_1tb_write_at_end_is_cheap),
		T(test_zstore_io_past_capacity_is_einval),
		T(test_zstore_mem_discard_reads_back_zeros_and_frees),
		T(test_zstore_file_discard_with_punch_reads_back_zeros),
		T(test_zstore_file_discard_without_punch_is_noop),
		T(test_zstore_reopen_without_geometry_returns_stored_geometry),
		T(test_zstore_header_layout_matches_format_doc),
		T(test_zstore_reopen_keeps_data),
		T(test_zstore_zone_words_survive_close_and_reopen),
		T(test_zstore_mem_and_none_keep_zone_words),
		T(test_zstore_mem_without_geometry_is_einval),
		T(test_zstore_open_foreign_file_is_bad_magic),
		T(test_zstore_open_missing_file_is_enoent),
		T(test_zstore_open_empty_file_is_bad_magic),
		T(test_zstore_open_corrupted_header_byte_is_bad_csum),
		T(test_zstore_open_wrong_version_is_bad_version),
		T(test_zstore_open_truncated_file_is_too_small),
		T(test_zstore_open_truncated_header_is_corrupt),
		T(test_zstore_open_header_with_invalid_geometry_is_geometry),
		T(test_zstore_open_header_with_inconsistent_layout_is_corrupt),
		T(test_zstore_open_invalid_given_geometry_is_geometry),
		T(test_zstore_open_geometry_mismatch_names_field),
		T(test_zstore_open_geometry_mismatch_in_conv_range_names_range),
		T(test_zstore_open_default_pblock_and_cap_match_explicit_values),
		T(test_zstore_create_over_image_without_force_is_eexist),
		T(test_zstore_create_with_force_reformats),
		T(test_zstore_create_without_geometry_is_einval),
		T(test_zstore_block_kind_on_regular_file_is_refused),
		T(test_zstore_file_kind_on_directory_is_refused),
		T(test_zstore_kind_names_parse_round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
