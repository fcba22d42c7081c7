/*
 * test_zscsi_conformance.c — runs the ZBC conformance table
 * (tests/conformance/zbc_cases.c) against zscsi in-process: one cmocka test
 * per case group, each case on a fresh disk (memory store, or a file store
 * in a scratch directory for the persistence and power-cycle cases).
 *
 * The zbc_target here is the reference for other targets (the tcmu
 * stand-in): open = zdisk_open + zscsi_create, exec = zscsi_execute,
 * control = zdisk_power_cycle / zdisk_zone_set_cond.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "conformance/zbc_cases.h"
#include "zl_test.h"
#include "zscsi.h"

struct zl_target_ctx {
	char *dir;
	unsigned seq;
	char path[512];
};

struct zl_dev {
	struct zdisk *disk;
	struct zscsi *scsi;
};

static void *zl_open(void *vctx, const struct zbc_geom *g, bool create, char *msg, size_t len)
{
	struct zl_target_ctx *ctx = vctx;
	struct zdisk_cfg cfg;
	struct zscsi_cfg scfg;
	struct zl_dev *d;
	int ret;

	d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	zdisk_cfg_init(&cfg);
	cfg.geo.lba_size = g->lba_size;
	cfg.geo.pblock_size = g->pblock_size;
	cfg.geo.capacity_lba = g->capacity_lba;
	cfg.geo.zone_size_lba = g->zone_size_lba;
	cfg.geo.zone_cap_lba = g->zone_cap_lba;
	cfg.geo.gap_zones = g->gap_zones;
	cfg.geo.nr_conv_start = g->nr_conv;
	cfg.geo.model = g->host_aware ? ZL_MODEL_HA : ZL_MODEL_HM;
	cfg.geo.max_open = g->max_open;
	cfg.geo.urswrz = true;
	cfg.wce = g->wce;
	if (g->file_backed) {
		if (create)
			snprintf(ctx->path, sizeof(ctx->path), "%s/disk-%u.img", ctx->dir, ctx->seq++);
		cfg.store.kind = ZSTORE_FILE;
		cfg.store.path = ctx->path;
		cfg.store.create = create;
		cfg.store.force = true;
	} else {
		cfg.store.kind = ZSTORE_MEM;
	}
	ret = zdisk_open(&cfg, &d->disk, msg, len);
	if (ret)
		goto out_free;
	zscsi_cfg_init(&scfg);
	scfg.naa_id = 0x5000000000c0ffeeull;
	ret = zscsi_create(d->disk, &scfg, &d->scsi);
	if (ret) {
		snprintf(msg, len, "zscsi_create: %d", ret);
		zdisk_close(d->disk);
		goto out_free;
	}
	return d;
out_free:
	free(d);
	return NULL;
}

static void zl_close(void *vctx, void *dev)
{
	struct zl_dev *d = dev;

	zscsi_destroy(d->scsi);
	zdisk_close(d->disk);
	free(d);
}

static uint8_t zl_exec(void *dev, const uint8_t *cdb, size_t len, void *buf, size_t buflen,
		       int dir, uint8_t *sense, size_t *xfer_len)
{
	struct zl_dev *d = dev;
	struct iovec iov = { .iov_base = buf, .iov_len = buflen };

	return zscsi_execute(d->scsi, cdb, len, buf ? &iov : NULL, buf ? 1 : 0, sense, xfer_len);
}

static int zl_control(void *vctx, void *dev, enum zbc_ctl op, uint32_t zone, uint8_t cond)
{
	struct zl_dev *d = dev;

	switch (op) {
	case ZBC_CTL_POWER_CYCLE:
		return zdisk_power_cycle(d->disk);
	case ZBC_CTL_SET_COND:
		return zdisk_zone_set_cond(d->disk, zone, (enum zl_zone_cond)cond);
	}
	return -ENOTSUP;
}

static struct zl_target_ctx tctx;
static const struct zbc_target zl_target = {
	.name = "zonelab-zscsi",
	.ctx = &tctx,
	.open = zl_open,
	.close = zl_close,
	.exec = zl_exec,
	.control = zl_control,
};

static void run_group(const char *prefix)
{
	unsigned pass, fail, skip;

	zbc_run_all(&zl_target, prefix, stdout, false, &pass, &fail, &skip);
	assert_int_equal(fail, 0);
	assert_int_equal(skip, 0);
	assert_true(pass > 0);
}

/*
 * The case groups, one cmocka test each, by id prefix.  One list: the
 * tests, and the check that every case is in exactly one group, read it.
 */
#define GROUPS(X)							\
	X(inquiry, "inq-") X(vpd, "vpd") X(capacity, "rc") X(simple, "tur")	\
	X(ssu, "ssu") X(sync, "sync") X(request_sense, "rs-") X(luns, "luns")	\
	X(opcodes, "opcode-") X(sai, "sai-") X(control_byte, "control-")	\
	X(rsoc, "rsoc-") X(mode_sense, "ms") X(wce, "wce-")			\
	X(zonelab_specific, "zl-") X(write, "w-") X(write_forms, "w1")		\
	X(write6, "w6") X(write_fua, "wf-") X(read, "r-") X(read_forms, "r1")	\
	X(read6, "r6") X(verify, "v-") X(verify10, "v10-") X(open, "open-")	\
	X(close, "close-") X(finish, "finish-") X(reset, "reset-")		\
	X(zone_count, "zone-count") X(all, "all-") X(zbc_sa, "zbc-")		\
	X(report_zones, "rz-") X(gap, "gap-") X(runt, "runt-")			\
	X(read_only, "ro-") X(offline, "offline-") X(persistence, "persist-")	\
	X(unit_attention, "ua-") X(write_same, "ws") X(write_verify, "wv")	\
	X(compare_and_write, "caw-")

#define GROUP_TEST(name, prefix) \
	static void test_conformance_##name(void **state) { run_group(prefix); }
GROUPS(GROUP_TEST)

/*
 * Every data-in command at every allocation length: exact data, zeros
 * after it, zscsi's data length = min(allocation length, available).
 */
static void test_conformance_transfer_lengths(void **state)
{
	unsigned pass, fail, skip;

	zbc_run_xfer_all(&zl_target, stdout, false, &pass, &fail, &skip);
	assert_int_equal(fail, 0);
	assert_int_equal(skip, 0);
	assert_int_equal(pass, zbc_nr_xfer_cases);
	assert_true(pass >= 30);
}

/* Every case belongs to exactly one group above; ids are unique. */
static void test_conformance_table_covered(void **state)
{
#define GROUP_PREFIX(name, prefix) prefix,
	static const char *prefixes[] = { GROUPS(GROUP_PREFIX) };
	size_t i, j, hits;

	assert_true(zbc_nr_cases >= 150);
	for (i = 0; i < zbc_nr_cases; i++) {
		hits = 0;
		for (j = 0; j < sizeof(prefixes) / sizeof(prefixes[0]); j++)
			if (!strncmp(zbc_cases[i].id, prefixes[j], strlen(prefixes[j])))
				hits++;
		if (hits != 1)
			fprintf(stderr, "case %s is in %zu groups\n", zbc_cases[i].id, hits);
		assert_int_equal(hits, 1);
		for (j = 0; j < i; j++)
			assert_string_not_equal(zbc_cases[i].id, zbc_cases[j].id);
		assert_non_null(zbc_geom_find(zbc_cases[i].geom));
	}
}

static int group_setup(void **state)
{
	tctx.dir = zl_test_mkdtemp("zscsi-conf");
	return tctx.dir ? 0 : -1;
}

static int group_teardown(void **state)
{
	zl_test_rmdir(tctx.dir);
	free(tctx.dir);
	return 0;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_conformance_table_covered),
		cmocka_unit_test(test_conformance_transfer_lengths),
#define GROUP_ENTRY(name, prefix) cmocka_unit_test(test_conformance_##name),
		GROUPS(GROUP_ENTRY)
	};

	(void)argc;
	(void)argv;
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
