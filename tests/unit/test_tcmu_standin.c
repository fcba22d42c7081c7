/*
 * test_tcmu_standin.c — the in-process tcmu-runner stand-in drives Debian's
 * handler_file_zbc.so (tcmu-runner 1.5.4): load, open from a cfgstring,
 * INQUIRY, REPORT ZONES, a write at the write pointer and its read-back, the
 * unaligned-write sense, reopen.  This tests the stand-in (our ABI
 * declarations and helper semantics), not file_zbc.  Skips when the .so is
 * not installed ($ZL_FILE_ZBC_SO overrides the path).
 *
 * The second group loads our handler_zonelab.so (next to the build's
 * tests/ directory, or $ZL_HANDLER_SO) the same way and checks the glue:
 * cfgstring rejection reasons, open, I/O, and that a reopen with the same
 * cfgstring keeps zones and data while a geometry change is refused, and
 * ->reconfig (what targetcli restoreconfig sends): the same values
 * accepted, the write cache switched (MODE SENSE shows it), a different
 * size or cfgstring refused.
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
#include "zl_test.h"

#define FILE_ZBC_SO "/usr/lib/x86_64-linux-gnu/tcmu-runner/handler_file_zbc.so"
#define DEV_BYTES (64ull << 20)     /* 64 MiB: 64 zones of 1 MiB */
#define ZONE_LBAS 2048ull           /* 1 MiB of 512-byte blocks */

struct fixture {
	char *dir;
	char cfg[512];
	struct sti_handler *h;
	struct sti_dev *d;
};

static const char *file_zbc_path(void)
{
	const char *p = getenv("ZL_FILE_ZBC_SO");

	return p ? p : FILE_ZBC_SO;
}

static int open_dev(struct fixture *f, bool reopen)
{
	struct sti_dev_cfg cfg = {
		.cfgstring = f->cfg, .size_bytes = DEV_BYTES, .block_size = 512, .reopen = reopen,
	};
	char msg[256];

	return sti_dev_open(f->h, &cfg, &f->d, msg, sizeof(msg));
}

/* A scratch directory and the handler @so loaded; NULL when @so is missing. */
static struct fixture *fixture_load(const char *so, const char *tag)
{
	struct fixture *f;
	char msg[256];

	if (access(so, R_OK) != 0)
		return NULL;
	f = calloc(1, sizeof(*f));
	assert_non_null(f);
	f->dir = zl_test_mkdtemp(tag);
	assert_non_null(f->dir);
	if (sti_handler_load(so, &f->h, msg, sizeof(msg)))
		fail_msg("load %s: %s", so, msg);
	return f;
}

static int setup(void **state)
{
	struct fixture *f = fixture_load(file_zbc_path(), "standin");

	if (f) {
		/* 1 MiB zones, 2 conventional zones; options force a format */
		snprintf(f->cfg, sizeof(f->cfg), "zbc/model-HM/zsize-1/conv-2/open-4@%s/fz.raw", f->dir);
		assert_int_equal(open_dev(f, false), 0);
	}
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

/* Skip the test when its fixture could not load the handler @so. */
#define NEED(f, so)								\
	do {									\
		if (!(f)) {							\
			print_message("skip: %s not available\n", so);		\
			skip();							\
		}								\
	} while (0)
#define NEED_FIXTURE(f) NEED(f, file_zbc_path())
#define NEED_ZL(f) NEED(f, zonelab_so_path())

static uint8_t rw16(struct sti_dev *d, uint8_t op, uint64_t lba, uint32_t nr, void *buf,
		    struct sti_result *r)
{
	uint8_t cdb[16] = { op };

	zl_test_put_be(&cdb[2], lba, 8);
	zl_test_put_be(&cdb[10], nr, 4);
	return sti_exec(d, cdb, 16, buf, (size_t)nr * 512, r);
}

static void test_standin_file_zbc_inquiry_is_host_managed(void **state)
{
	struct fixture *f = *state;
	uint8_t cdb[6] = { 0x12, 0, 0, 0, 96, 0 };
	uint8_t buf[96] = { 0 };
	struct sti_result r;

	NEED_FIXTURE(f);
	assert_int_equal(sti_exec(f->d, cdb, 6, buf, sizeof(buf), &r), 0);
	assert_int_equal(buf[0] & 0x1f, 0x14);
	assert_true(r.data_in_len >= 36);
	assert_int_equal(sti_dev_block_size(f->d), 512);
	assert_int_equal(sti_dev_num_lbas(f->d), DEV_BYTES / 512);
}

static void test_standin_file_zbc_report_zones_lists_conv_then_swr(void **state)
{
	struct fixture *f = *state;
	uint8_t cdb[16] = { 0x95, 0x00 };
	uint8_t buf[64 * 4] = { 0 };
	struct sti_result r;

	NEED_FIXTURE(f);
	zl_test_put_be(&cdb[10], sizeof(buf), 4);
	assert_int_equal(sti_exec(f->d, cdb, 16, buf, sizeof(buf), &r), 0);
	/* ZONE LIST LENGTH counts all 64 zones; MAXIMUM LBA */
	assert_int_equal(zl_test_get_be(buf, 4), 64 * 64);
	assert_int_equal(zl_test_get_be(&buf[8], 8), DEV_BYTES / 512 - 1);
	assert_int_equal(buf[64] & 0x0f, 1);                    /* conventional */
	assert_int_equal(buf[128] & 0x0f, 1);
	assert_int_equal(buf[192] & 0x0f, 2);                   /* SWR */
	assert_int_equal(buf[193] >> 4, 1);                     /* EMPTY */
	assert_int_equal(zl_test_get_be(&buf[192 + 16], 8), 2 * ZONE_LBAS);
	assert_int_equal(zl_test_get_be(&buf[192 + 24], 8), 2 * ZONE_LBAS);
}

static void test_standin_file_zbc_write_at_wp_reads_back(void **state)
{
	struct fixture *f = *state;
	uint8_t out[4096], in[4096];
	struct sti_result r;

	NEED_FIXTURE(f);
	for (size_t i = 0; i < sizeof(out); i++)
		out[i] = (uint8_t)(i * 7 + 3);
	assert_int_equal(rw16(f->d, 0x8a, 2 * ZONE_LBAS, 8, out, &r), 0);
	memset(in, 0, sizeof(in));
	assert_int_equal(rw16(f->d, 0x88, 2 * ZONE_LBAS, 8, in, &r), 0);
	assert_memory_equal(in, out, sizeof(out));
}

static void test_standin_file_zbc_write_not_at_wp_is_unaligned(void **state)
{
	struct fixture *f = *state;
	uint8_t out[512] = { 1 };
	struct sti_result r;

	NEED_FIXTURE(f);
	assert_int_equal(rw16(f->d, 0x8a, 3 * ZONE_LBAS + 8, 1, out, &r), 2);
	assert_int_equal(r.tcmu_sts, 2 /* TCMU_STS_PASSTHROUGH_ERR */);
	assert_int_equal(sti_sense_key(&r), 0x5);
	assert_int_equal(sti_sense_asc_ascq(&r), 0x2104);
}

static void test_standin_unknown_opcode_is_invalid_command(void **state)
{
	struct fixture *f = *state;
	uint8_t cdb[10] = { 0x5a + 0x40 };                      /* 9Ah: unused */
	struct sti_result r;

	NEED_FIXTURE(f);
	assert_int_equal(sti_exec(f->d, cdb, 10, NULL, 0, &r), 2);
	assert_int_equal(r.tcmu_sts, -1 /* TCMU_STS_NOT_HANDLED */);
	assert_int_equal(sti_sense_asc_ascq(&r), 0x2000);
}

static void test_standin_file_zbc_reopen_without_options_keeps_data(void **state)
{
	struct fixture *f = *state;
	uint8_t out[512], in[512];
	struct sti_result r;

	NEED_FIXTURE(f);
	memset(out, 0xa5, sizeof(out));
	assert_int_equal(rw16(f->d, 0x8a, 0, 1, out, &r), 0);
	sti_dev_close(f->d);
	f->d = NULL;
	/* file_zbc reformats whenever options are given: reopen with the bare path */
	snprintf(f->cfg, sizeof(f->cfg), "zbc/%s/fz.raw", f->dir);
	assert_int_equal(open_dev(f, true), 0);
	assert_int_equal(rw16(f->d, 0x88, 0, 1, in, &r), 0);
	assert_memory_equal(in, out, sizeof(out));
}

/* The cfg_desc tcmu-runner shows lists exactly the keys the parser knows. */
static void test_zonelab_cfg_desc_lists_the_parsers_keys(void **state)
{
	struct fixture *f = *state;
	const char *desc, *list, *end;
	char *reason = NULL, want[300];

	if (!f)
		skip();
	desc = sti_handler_cfg_desc(f->h);
	assert_non_null(desc);
	assert_false(sti_handler_check_config(f->h, "zonelab//d.img?bogus=1", &reason));
	assert_non_null(reason);
	list = strstr(reason, "(keys: ");
	assert_non_null(list);
	list += strlen("(keys: ");
	end = strchr(list, ')');
	assert_non_null(end);
	snprintf(want, sizeof(want), "keys: %.*s\n", (int)(end - list), list);
	if (!strstr(desc, want))
		fail_msg("cfg_desc '%s' lacks '%s'", desc, want);
	assert_non_null(strstr(want, " geo"));
	free(reason);
}

static void test_standin_refuses_wrong_subtype(void **state)
{
	struct fixture *f = *state;
	struct sti_dev_cfg cfg = { .cfgstring = "zonelab/x", .size_bytes = DEV_BYTES, .block_size = 512 };
	struct sti_dev *d = NULL;
	char msg[256];

	NEED_FIXTURE(f);
	assert_int_equal(sti_dev_open(f->h, &cfg, &d, msg, sizeof(msg)), -22);
	assert_null(d);
	assert_non_null(strstr(msg, "zbc/"));
}

/* ---- handler_zonelab.so ---------------------------------------------- */

static char zl_so[PATH_MAX];

static const char *zonelab_so_path(void)
{
	const char *p = getenv("ZL_HANDLER_SO");

	if (p)
		return p;
	/* <O>/tests/unit/test_tcmu_standin -> <O>/handler_zonelab.so */
	zl_test_build_path("handler_zonelab.so", zl_so, sizeof(zl_so));
	return zl_so;
}

/* The next zl_open_cfg() plays a kernel without TCMU_MAILBOX_FLAG_CAP_READ_LEN. */
static bool zl_no_read_len;

static int zl_open_cfg(struct fixture *f, const char *opts, bool reopen, char *msg, size_t len)
{
	struct sti_dev_cfg cfg = {
		.cfgstring = f->cfg, .size_bytes = DEV_BYTES, .block_size = 512, .reopen = reopen,
		.no_read_len = zl_no_read_len,
	};

	snprintf(f->cfg, sizeof(f->cfg), "zonelab/%s/zl.img?%s", f->dir, opts);
	return sti_dev_open(f->h, &cfg, &f->d, msg, len);
}

static int zl_setup(void **state)
{
	struct fixture *f = fixture_load(zonelab_so_path(), "standin-zl");
	char msg[256];

	if (f) {
		assert_string_equal(sti_handler_subtype(f->h), "zonelab");
		if (zl_open_cfg(f, "zsize=1M&conv=2&max_open=4", false, msg, sizeof(msg)))
			fail_msg("open: %s", msg);
	}
	*state = f;
	return 0;
}

static void test_zonelab_inquiry_and_capacity(void **state)
{
	struct fixture *f = *state;
	uint8_t cdb[6] = { 0x12, 0, 0, 0, 96, 0 };
	uint8_t buf[96] = { 0 };
	struct sti_result r;

	NEED_ZL(f);
	assert_int_equal(sti_exec(f->d, cdb, 6, buf, sizeof(buf), &r), 0);
	assert_int_equal(buf[0] & 0x1f, 0x14);
	assert_int_equal(sti_dev_block_size(f->d), 512);
	assert_int_equal(sti_dev_num_lbas(f->d), DEV_BYTES / 512);
}

static void test_zonelab_write_not_at_wp_is_unaligned(void **state)
{
	struct fixture *f = *state;
	uint8_t out[4096], in[4096];
	struct sti_result r;

	NEED_ZL(f);
	memset(out, 0x5a, sizeof(out));
	assert_int_equal(rw16(f->d, 0x8a, 2 * ZONE_LBAS, 8, out, &r), 0);
	assert_int_equal(rw16(f->d, 0x88, 2 * ZONE_LBAS, 8, in, &r), 0);
	assert_memory_equal(in, out, sizeof(out));
	assert_int_equal(rw16(f->d, 0x8a, 2 * ZONE_LBAS + 16, 8, out, &r), 2);
	assert_int_equal(r.tcmu_sts, 2 /* TCMU_STS_PASSTHROUGH_ERR */);
	assert_int_equal(sti_sense_key(&r), 0x5);
	assert_int_equal(sti_sense_asc_ascq(&r), 0x2104);
}

/*
 * A medium error inside a READ: zscsi reports the failing LBA (VALID=1) and
 * has the blocks before it in the buffer.  With the kernel's read-length
 * capability the plugin reports those blocks as the data-in length (the
 * kernel then passes them with the CHECK CONDITION) and keeps VALID;
 * without it the kernel returns no data with a CHECK CONDITION, so the
 * plugin clears VALID (Linux would otherwise count those blocks as read).
 * One failing at the first LBA keeps VALID and reports no length.
 */
static void partial_read_error(struct fixture *f, bool read_len_cap)
{
	uint8_t in[4096];
	struct sti_result r;
	char msg[256];

	sti_dev_close(f->d);
	/* LBAs 100-107 of conventional zone 0 fail to read */
	zl_no_read_len = !read_len_cap;
	if (zl_open_cfg(f, "zsize=1M&conv=2&max_open=4&faults=medium-error:op=read/lba=100-107/repeat",
			true, msg, sizeof(msg)))
		fail_msg("reopen with a fault rule: %s", msg);
	zl_no_read_len = false;
	assert_int_equal(rw16(f->d, 0x88, 96, 8, in, &r), 2);
	assert_int_equal(sti_sense_key(&r), 0x3);
	assert_int_equal(sti_sense_asc_ascq(&r), 0x1100);
	if (read_len_cap) {
		assert_int_equal(r.sense[0], 0xf0);     /* VALID: LBAs 96-99 were read */
		assert_int_equal(zl_test_get_be(&r.sense[3], 4), 100);
		assert_int_equal(r.read_len, 4 * 512);
	} else {
		assert_int_equal(r.sense[0], 0x70);     /* VALID cleared: nothing counts as read */
		assert_int_equal(r.read_len, 0);
	}
	assert_int_equal(rw16(f->d, 0x88, 100, 8, in, &r), 2);
	assert_int_equal(r.read_len, 0);
	assert_int_equal(r.sense[0], 0xf0);             /* failed at its first LBA: VALID kept */
	assert_int_equal(zl_test_get_be(&r.sense[3], 4), 100);
	assert_int_equal(rw16(f->d, 0x88, 88, 8, in, &r), 0);   /* outside the rule */
	assert_int_equal(r.read_len, 0);                        /* the whole buffer */
}

static void test_zonelab_partial_read_error_reports_read_length(void **state)
{
	NEED_ZL((struct fixture *)*state);
	partial_read_error(*state, true);
}

static void test_zonelab_partial_read_error_clears_valid_without_read_len(void **state)
{
	NEED_ZL((struct fixture *)*state);
	partial_read_error(*state, false);
}

/*
 * INQUIRY with ALLOCATION LENGTH 255 into a data area holding another
 * command's bytes: 96 bytes of data, zeros after them, and (with the
 * kernel's capability) a data-in length of 96, so the initiator sees the
 * residual; without it the zeroed buffer goes out whole.
 */
static void inquiry_255(struct fixture *f, bool read_len_cap)
{
	uint8_t cdb[6] = { 0x12, 0, 0, 0, 255, 0 }, buf[255];
	struct sti_result r;
	char msg[256];

	sti_dev_close(f->d);
	zl_no_read_len = !read_len_cap;
	if (zl_open_cfg(f, "zsize=1M&conv=2&max_open=4", true, msg, sizeof(msg)))
		fail_msg("reopen: %s", msg);
	zl_no_read_len = false;
	memset(buf, 0xa5, sizeof(buf));              /* what the data area held */
	assert_int_equal(sti_exec(f->d, cdb, 6, buf, sizeof(buf), &r), 0);
	assert_int_equal(buf[4], 91);                /* ADDITIONAL LENGTH: 96 bytes */
	for (size_t i = 96; i < sizeof(buf); i++)
		assert_int_equal(buf[i], 0);
	assert_int_equal(r.read_len, read_len_cap ? 96 : 0);
	/* the exact length: nothing to report, the whole buffer is data */
	cdb[4] = 96;
	assert_int_equal(sti_exec(f->d, cdb, 6, buf, 96, &r), 0);
	assert_int_equal(r.read_len, 0);
}

static void test_zonelab_inquiry_255_zeroes_and_reports_96(void **state)
{
	NEED_ZL((struct fixture *)*state);
	inquiry_255(*state, true);
}

static void test_zonelab_inquiry_255_zeroes_without_read_len(void **state)
{
	NEED_ZL((struct fixture *)*state);
	inquiry_255(*state, false);
}

static void test_zonelab_reopen_same_cfgstring_keeps_zones_and_data(void **state)
{
	struct fixture *f = *state;
	uint8_t out[4096], in[4096], rz[128];
	uint8_t cdb[16] = { 0x95, 0x00 };
	struct sti_result r;
	char msg[256];

	NEED_ZL(f);
	memset(out, 0xc3, sizeof(out));
	assert_int_equal(rw16(f->d, 0x8a, 3 * ZONE_LBAS, 8, out, &r), 0);
	sti_dev_close(f->d);
	f->d = NULL;
	if (zl_open_cfg(f, "zsize=1M&conv=2&max_open=4", true, msg, sizeof(msg)))
		fail_msg("reopen: %s", msg);
	assert_int_equal(rw16(f->d, 0x88, 3 * ZONE_LBAS, 8, in, &r), 0);
	assert_memory_equal(in, out, sizeof(out));
	zl_test_put_be(&cdb[2], 3 * ZONE_LBAS, 8);
	zl_test_put_be(&cdb[10], sizeof(rz), 4);
	assert_int_equal(sti_exec(f->d, cdb, 16, rz, sizeof(rz), &r), 0);
	assert_int_equal(rz[65] >> 4, 4);                       /* CLOSED after reopen */
	assert_int_equal(zl_test_get_be(&rz[64 + 24], 8), 3 * ZONE_LBAS + 8);
}

static void test_zonelab_geometry_change_is_refused_then_forced(void **state)
{
	struct fixture *f = *state;
	struct sti_result r;
	uint8_t in[512];
	char msg[256];

	uint8_t cdb[16] = { 0x95, 0x00 }, rz[128];

	NEED_ZL(f);
	sti_dev_close(f->d);
	f->d = NULL;
	assert_int_not_equal(zl_open_cfg(f, "zsize=2M&conv=2&max_open=4", true, msg, sizeof(msg)), 0);
	assert_null(f->d);
	if (zl_open_cfg(f, "zsize=2M&conv=2&max_open=4&force=1", true, msg, sizeof(msg)))
		fail_msg("forced reopen: %s", msg);
	assert_int_equal(rw16(f->d, 0x88, 0, 1, in, &r), 0);
	/* reformatted: 2 MiB zones now */
	zl_test_put_be(&cdb[10], sizeof(rz), 4);
	assert_int_equal(sti_exec(f->d, cdb, 16, rz, sizeof(rz), &r), 0);
	assert_int_equal(zl_test_get_be(&rz[64 + 8], 8), 2 * ZONE_LBAS);
}

/* An image made beforehand (zonelab disk create) exported with geo=image. */
static void test_zonelab_geo_image_takes_the_recorded_geometry(void **state)
{
	struct fixture *f = *state;
	struct sti_dev_cfg cfg = { .size_bytes = DEV_BYTES, .block_size = 512 };
	uint8_t out[4096], in[4096];
	struct sti_result r;
	char msg[256];

	NEED_ZL(f);
	memset(out, 0x3c, sizeof(out));
	assert_int_equal(rw16(f->d, 0x8a, 4 * ZONE_LBAS, 8, out, &r), 0);
	sti_dev_close(f->d);
	f->d = NULL;
	/* no geometry keys at all: the image's own (1 MiB zones, 2 conventional) */
	if (zl_open_cfg(f, "geo=image", true, msg, sizeof(msg)))
		fail_msg("geo=image: %s", msg);
	assert_int_equal(rw16(f->d, 0x88, 4 * ZONE_LBAS, 8, in, &r), 0);
	assert_memory_equal(in, out, sizeof(out));
	assert_int_equal(rw16(f->d, 0x8a, 4 * ZONE_LBAS, 8, out, &r), 2);   /* WP kept */
	assert_int_equal(sti_sense_asc_ascq(&r), 0x2104);
	sti_dev_close(f->d);
	f->d = NULL;
	/* a backstore of another size is refused, and the image is untouched */
	snprintf(f->cfg, sizeof(f->cfg), "zonelab/%s/zl.img?geo=image", f->dir);
	cfg.cfgstring = f->cfg;
	cfg.size_bytes = DEV_BYTES * 2;
	cfg.reopen = true;
	assert_int_not_equal(sti_dev_open(f->h, &cfg, &f->d, msg, sizeof(msg)), 0);
	assert_null(f->d);
	/* no image at all: geo=image never formats one */
	snprintf(f->cfg, sizeof(f->cfg), "zonelab/%s/none.img?geo=image", f->dir);
	cfg.size_bytes = DEV_BYTES;
	assert_int_not_equal(sti_dev_open(f->h, &cfg, &f->d, msg, sizeof(msg)), 0);
	assert_null(f->d);
	if (zl_open_cfg(f, "geo=image", true, msg, sizeof(msg)))
		fail_msg("geo=image again: %s", msg);
	assert_int_equal(rw16(f->d, 0x88, 4 * ZONE_LBAS, 8, in, &r), 0);
	assert_memory_equal(in, out, sizeof(out));
}

static void test_zonelab_check_config_names_the_key(void **state)
{
	struct fixture *f = *state;
	char *reason = NULL;

	NEED_ZL(f);
	assert_false(sti_handler_check_config(f->h, "zonelab//x?zsize=1Q", &reason));
	assert_non_null(reason);
	assert_non_null(strstr(reason, "key 'zsize' value '1Q'"));
	free(reason);
	assert_true(sti_handler_check_config(f->h, "zonelab//x?zsize=1M", &reason));
	assert_null(reason);
}

/* The WCE bit of the current caching mode page (MODE SENSE(6), DBD). */
static int zl_mode_wce(struct sti_dev *d)
{
	uint8_t cdb[6] = { 0x1a, 0x08, 0x08, 0, 64, 0 };
	uint8_t b[64];
	struct sti_result r;

	memset(b, 0xee, sizeof(b));
	assert_int_equal(sti_exec(d, cdb, 6, b, sizeof(b), &r), 0);
	assert_int_equal(b[3], 0);                              /* no block descriptor */
	assert_int_equal(b[4] & 0x3f, 0x08);                    /* caching page */
	return (b[6] & 0x04) ? 1 : 0;
}

/* restoreconfig writes back dev_config, dev_size and emulate_write_cache as they were. */
static void test_zonelab_reconfig_same_values_accepted(void **state)
{
	struct fixture *f = *state;
	uint8_t out[4096], in[4096];
	char nl[600];
	struct sti_result r;

	NEED_ZL(f);
	memset(out, 0x3c, sizeof(out));
	assert_int_equal(rw16(f->d, 0x8a, 3 * ZONE_LBAS, 8, out, &r), 0);
	assert_int_equal(zl_mode_wce(f->d), 1);
	assert_int_equal(sti_dev_reconfig_cfgstring(f->d, f->cfg), 0);
	snprintf(nl, sizeof(nl), "%s\n", f->cfg);              /* echo > dev_config */
	assert_int_equal(sti_dev_reconfig_cfgstring(f->d, nl), 0);
	assert_int_equal(sti_dev_reconfig_size(f->d, DEV_BYTES), 0);
	assert_int_equal(sti_dev_reconfig_write_cache(f->d, true), 0);
	assert_int_equal(zl_mode_wce(f->d), 1);
	assert_int_equal(sti_dev_num_lbas(f->d), DEV_BYTES / 512);
	assert_int_equal(rw16(f->d, 0x88, 3 * ZONE_LBAS, 8, in, &r), 0);
	assert_memory_equal(in, out, sizeof(out));
	/* the zone goes on at its write pointer */
	assert_int_equal(rw16(f->d, 0x8a, 3 * ZONE_LBAS + 8, 8, out, &r), 0);
}

static void test_zonelab_reconfig_write_cache_toggles_wce(void **state)
{
	struct fixture *f = *state;
	uint8_t out[512];
	struct sti_result r;
	char msg[256];

	NEED_ZL(f);
	memset(out, 0x5c, sizeof(out));
	assert_int_equal(rw16(f->d, 0x8a, 2 * ZONE_LBAS, 1, out, &r), 0);
	assert_int_equal(sti_dev_reconfig_write_cache(f->d, false), 0);
	assert_int_equal(zl_mode_wce(f->d), 0);
	assert_false(sti_dev_write_cache(f->d));
	assert_int_equal(rw16(f->d, 0x8a, 2 * ZONE_LBAS + 1, 1, out, &r), 0);
	assert_int_equal(sti_dev_reconfig_write_cache(f->d, true), 0);
	assert_int_equal(zl_mode_wce(f->d), 1);
	assert_true(sti_dev_write_cache(f->d));
	/* a write-cache-off device switched on */
	sti_dev_close(f->d);
	f->d = NULL;
	if (zl_open_cfg(f, "zsize=1M&conv=2&max_open=4&wce=0", true, msg, sizeof(msg)))
		fail_msg("reopen wce=0: %s", msg);
	assert_int_equal(zl_mode_wce(f->d), 0);
	assert_int_equal(sti_dev_reconfig_write_cache(f->d, false), 0);
	assert_int_equal(zl_mode_wce(f->d), 0);
	assert_int_equal(sti_dev_reconfig_write_cache(f->d, true), 0);
	assert_int_equal(zl_mode_wce(f->d), 1);
}

static void test_zonelab_reconfig_size_or_cfgstring_change_refused(void **state)
{
	struct fixture *f = *state;
	uint8_t cdb[16] = { 0x9e, 0x10 }, rc[32];
	char other[600];
	struct sti_result r;

	NEED_ZL(f);
	assert_int_equal(sti_dev_reconfig_size(f->d, 2 * DEV_BYTES), -EINVAL);
	assert_int_equal(sti_dev_reconfig_size(f->d, DEV_BYTES / 2), -EINVAL);
	assert_int_equal(sti_dev_num_lbas(f->d), DEV_BYTES / 512);
	zl_test_put_be(&cdb[10], sizeof(rc), 4);
	assert_int_equal(sti_exec(f->d, cdb, 16, rc, sizeof(rc), &r), 0);
	assert_int_equal(zl_test_get_be(rc, 8), DEV_BYTES / 512 - 1);   /* READ CAPACITY(16) */
	snprintf(other, sizeof(other), "%s&max_open=8", f->cfg);
	assert_int_equal(sti_dev_reconfig_cfgstring(f->d, other), -EINVAL);
	snprintf(other, sizeof(other), "zonelab/%s/other.img?zsize=1M&conv=2&max_open=4", f->dir);
	assert_int_equal(sti_dev_reconfig_cfgstring(f->d, other), -EINVAL);
	assert_int_equal(sti_dev_reconfig_cfgstring(f->d, ""), -EINVAL);
	/* still the same device, still usable */
	assert_int_equal(sti_dev_reconfig_cfgstring(f->d, f->cfg), 0);
	assert_int_equal(sti_exec(f->d, cdb, 16, rc, sizeof(rc), &r), 0);
}

/* Without ->reconfig (file_zbc) tcmu-runner answers EOPNOTSUPP, even to the same size. */
static void test_standin_file_zbc_reconfig_not_supported(void **state)
{
	struct fixture *f = *state;

	NEED_FIXTURE(f);
	assert_int_equal(sti_dev_reconfig_size(f->d, DEV_BYTES), -EOPNOTSUPP);
	assert_int_equal(sti_dev_reconfig_write_cache(f->d, true), -EOPNOTSUPP);
	assert_int_equal(sti_dev_reconfig_cfgstring(f->d, f->cfg), -EOPNOTSUPP);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_standin_file_zbc_inquiry_is_host_managed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_standin_file_zbc_report_zones_lists_conv_then_swr, setup, teardown),
		cmocka_unit_test_setup_teardown(test_standin_file_zbc_write_at_wp_reads_back, setup, teardown),
		cmocka_unit_test_setup_teardown(test_standin_file_zbc_write_not_at_wp_is_unaligned, setup, teardown),
		cmocka_unit_test_setup_teardown(test_standin_unknown_opcode_is_invalid_command, setup, teardown),
		cmocka_unit_test_setup_teardown(test_standin_file_zbc_reopen_without_options_keeps_data, setup, teardown),
		cmocka_unit_test_setup_teardown(test_standin_refuses_wrong_subtype, setup, teardown),
		cmocka_unit_test_setup_teardown(test_zonelab_cfg_desc_lists_the_parsers_keys, zl_setup, teardown),
		cmocka_unit_test_setup_teardown(test_zonelab_inquiry_and_capacity, zl_setup, teardown),
		cmocka_unit_test_setup_teardown(test_zonelab_write_not_at_wp_is_unaligned, zl_setup, teardown),
		cmocka_unit_test_setup_teardown(test_zonelab_partial_read_error_reports_read_length,
						zl_setup, teardown),
		cmocka_unit_test_setup_teardown(test_zonelab_partial_read_error_clears_valid_without_read_len,
						zl_setup, teardown),
		cmocka_unit_test_setup_teardown(test_zonelab_inquiry_255_zeroes_and_reports_96,
						zl_setup, teardown),
		cmocka_unit_test_setup_teardown(test_zonelab_inquiry_255_zeroes_without_read_len,
						zl_setup, teardown),
		cmocka_unit_test_setup_teardown(test_zonelab_reopen_same_cfgstring_keeps_zones_and_data, zl_setup, teardown),
		cmocka_unit_test_setup_teardown(test_zonelab_geometry_change_is_refused_then_forced, zl_setup, teardown),
		cmocka_unit_test_setup_teardown(test_zonelab_geo_image_takes_the_recorded_geometry,
						zl_setup, teardown),
		cmocka_unit_test_setup_teardown(test_zonelab_check_config_names_the_key, zl_setup, teardown),
		cmocka_unit_test_setup_teardown(test_zonelab_reconfig_same_values_accepted, zl_setup, teardown),
		cmocka_unit_test_setup_teardown(test_zonelab_reconfig_write_cache_toggles_wce, zl_setup, teardown),
		cmocka_unit_test_setup_teardown(test_zonelab_reconfig_size_or_cfgstring_change_refused,
						zl_setup, teardown),
		cmocka_unit_test_setup_teardown(test_standin_file_zbc_reconfig_not_supported, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
