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
		       int dir, uint8_t *sense)
{
	struct zl_dev *d = dev;
	struct iovec iov = { .iov_base = buf, .iov_len = buflen };

	return zscsi_execute(d->scsi, cdb, len, buf ? &iov : NULL, buf ? 1 : 0, sense, NULL);
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

#define GROUP(name, prefix) \
	static void test_conformance_##name(void **state) { run_group(prefix); }

GROUP(inquiry, "inq-")
GROUP(vpd, "vpd")
GROUP(capacity, "rc")
GROUP(simple, "tur")
GROUP(ssu, "ssu")
GROUP(sync, "sync")
GROUP(request_sense, "rs-")
GROUP(luns, "luns")
GROUP(opcodes, "opcode-")
GROUP(sai, "sai-")
GROUP(control_byte, "control-")
GROUP(rsoc, "rsoc-")
GROUP(mode_sense, "ms")
GROUP(wce, "wce-")
GROUP(zonelab_specific, "zl-")
GROUP(write, "w-")
GROUP(write_forms, "w1")
GROUP(write6, "w6")
GROUP(write_fua, "wf-")
GROUP(read, "r-")
GROUP(read_forms, "r1")
GROUP(read6, "r6")
GROUP(verify, "v-")
GROUP(verify10, "v10-")
GROUP(open, "open-")
GROUP(close, "close-")
GROUP(finish, "finish-")
GROUP(reset, "reset-")
GROUP(zone_count, "zone-count")
GROUP(all, "all-")
GROUP(zbc_sa, "zbc-")
GROUP(report_zones, "rz-")
GROUP(gap, "gap-")
GROUP(runt, "runt-")
GROUP(read_only, "ro-")
GROUP(offline, "offline-")
GROUP(persistence, "persist-")
GROUP(unit_attention, "ua-")

/* Every case belongs to exactly one group above, and there are enough. */
static void test_conformance_table_covered(void **state)
{
	static const char *prefixes[] = {
		"inq-", "vpd", "rc", "tur", "ssu", "sync", "rs-", "luns", "opcode-", "sai-",
		"control-", "rsoc-", "ms", "wce-", "zl-", "w-", "w1", "w6", "wf-", "r-", "r1", "r6",
		"v-", "v10-", "open-",
		"close-", "finish-", "reset-", "zone-count", "all-", "zbc-", "rz-", "gap-",
		"runt-", "ro-", "offline-", "persist-", "ua-",
	};
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
		cmocka_unit_test(test_conformance_inquiry),
		cmocka_unit_test(test_conformance_vpd),
		cmocka_unit_test(test_conformance_capacity),
		cmocka_unit_test(test_conformance_simple),
		cmocka_unit_test(test_conformance_ssu),
		cmocka_unit_test(test_conformance_sync),
		cmocka_unit_test(test_conformance_request_sense),
		cmocka_unit_test(test_conformance_luns),
		cmocka_unit_test(test_conformance_opcodes),
		cmocka_unit_test(test_conformance_sai),
		cmocka_unit_test(test_conformance_control_byte),
		cmocka_unit_test(test_conformance_rsoc),
		cmocka_unit_test(test_conformance_mode_sense),
		cmocka_unit_test(test_conformance_wce),
		cmocka_unit_test(test_conformance_zonelab_specific),
		cmocka_unit_test(test_conformance_write),
		cmocka_unit_test(test_conformance_write_forms),
		cmocka_unit_test(test_conformance_write6),
		cmocka_unit_test(test_conformance_write_fua),
		cmocka_unit_test(test_conformance_read),
		cmocka_unit_test(test_conformance_read_forms),
		cmocka_unit_test(test_conformance_read6),
		cmocka_unit_test(test_conformance_verify),
		cmocka_unit_test(test_conformance_verify10),
		cmocka_unit_test(test_conformance_open),
		cmocka_unit_test(test_conformance_close),
		cmocka_unit_test(test_conformance_finish),
		cmocka_unit_test(test_conformance_reset),
		cmocka_unit_test(test_conformance_zone_count),
		cmocka_unit_test(test_conformance_all),
		cmocka_unit_test(test_conformance_zbc_sa),
		cmocka_unit_test(test_conformance_report_zones),
		cmocka_unit_test(test_conformance_gap),
		cmocka_unit_test(test_conformance_runt),
		cmocka_unit_test(test_conformance_read_only),
		cmocka_unit_test(test_conformance_offline),
		cmocka_unit_test(test_conformance_persistence),
		cmocka_unit_test(test_conformance_unit_attention),
	};

	(void)argc;
	(void)argv;
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
