/*
 * sim_dev.c — the simulator's devices: how the zblk handles fs-core runs on
 * are made and torn down for each backend (data-less zone models, emulated
 * disks with a store and fault rules, or one Linux zoned block device), and
 * the geometry the run then uses.  The timing model (busy until, zone
 * switches) is in sim_io.c; this file does no simulation.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "sim_int.h"
#include "zdev.h"
#include "zdisk.h"

/* The backend a configuration selects. */
enum sim_backend sim_backend_of(const struct sim_cfg *c)
{
	if (c->blkdev)
		return SIM_BACKEND_BLKDEV;
	if (c->store != SIM_STORE_NONE || (c->faults && *c->faults))
		return SIM_BACKEND_ZDISK;
	return SIM_BACKEND_ZDEV;
}

const char *sim_backend_name(enum sim_backend b)
{
	static const char *const names[] = { "zdev", "zdisk", "blkdev" };

	return (unsigned)b < 3 ? names[b] : "?";
}

/* The zone model of each device (zdev and zdisk backends). */
static void geo_of(const struct sim_cfg *c, struct zdev_cfg *zc)
{
	zdev_cfg_init(zc);
	zc->lba_size = 4096;
	zc->capacity_lba = c->nr_zones * (c->zone_bytes / 4096);
	zc->zone_size_lba = c->zone_bytes / 4096;
	zc->nr_conv_start = c->nr_conv;
	zc->max_open = c->max_open;
	zc->max_active = c->max_active;
}

int sim_devs_geometry_check(const struct sim_cfg *c, char *msg, size_t msg_len)
{
	struct zdev_cfg zc;
	char why[200];

	/* before geo_of(): its product must not wrap */
	if (c->nr_zones > UINT64_MAX / c->zone_bytes) {
		zl_msgf(msg, msg_len, "--zones %u --zone-size %llu: the device would have more "
			"than 2^64 bytes", c->nr_zones, (unsigned long long)c->zone_bytes);
		return -EINVAL;
	}
	geo_of(c, &zc);
	if (zdev_cfg_check(&zc, why, sizeof(why))) {
		zl_msgf(msg, msg_len, "--zones %u --zone-size %llu --conv %u: not a device the "
			"zone model can build: %s", c->nr_zones, (unsigned long long)c->zone_bytes,
			c->nr_conv, why);
		return -EINVAL;
	}
	return 0;
}

static int open_zdisk(const struct sim_cfg *c, uint32_t i, struct sim_devs *d, char *msg,
		      size_t msg_len)
{
	static const enum zstore_kind kinds[] = { ZSTORE_NONE, ZSTORE_MEM, ZSTORE_FILE };
	struct zdisk_cfg zc;
	char path[4096];
	int ret;

	zdisk_cfg_init(&zc);
	geo_of(c, &zc.geo);
	zc.store.kind = kinds[c->store];
	if (c->store == SIM_STORE_FILE) {  /* a path: sim_cfg_check() */
		if (sim_nr_open_devs(c) > 1)
			snprintf(path, sizeof(path), "%s.%u", c->store_path, i);
		else
			snprintf(path, sizeof(path), "%s", c->store_path);
		zc.store.path = path;
		zc.store.create = true;
		zc.store.force = true;  /* a run formats its image */
	}
	zc.wce = true;                  /* no sync per write; flushed at close */
	zc.seed = c->seed + i;
	zc.faults = c->faults;
	zc.realtime = false;            /* latency reported, not slept */
	ret = zdisk_open(&zc, &d->disk[i], msg, msg_len);
	if (ret)
		return ret;
	return zblk_zdisk_create(d->disk[i], &d->blk[i]);
}

/* Conventional zones at the start of @b (the superblock zones). */
static int count_conv(struct zblk *b, uint32_t *nr)
{
	struct zblk_zone z[64];
	uint64_t pos = 0;
	int got, i;

	*nr = 0;
	while (pos < b->capacity_bytes) {
		got = zblk_report(b, pos, z, 64);
		if (got <= 0)
			return got;
		for (i = 0; i < got; i++) {
			if (z[i].type != ZL_ZONE_TYPE_CONV)
				return 0;
			(*nr)++;
		}
		pos = z[got - 1].start_bytes + z[got - 1].len_bytes;
	}
	return 0;
}

/* One device (sim_cfg_check()); its geometry replaces @c's. */
static int open_blkdev(struct sim_cfg *c, struct sim_devs *d, char *msg, size_t msg_len)
{
	struct zblk *b;
	int ret;

	ret = zblk_linux_open(c->blkdev, &b);
	if (ret == -EOPNOTSUPP || ret == -ENOTBLK) {
		snprintf(msg, msg_len, "%s is not a zoned block device (%s); --blkdev needs a "
			 "host-managed or host-aware zoned disk with kernel zoned support",
			 c->blkdev, ret == -ENOTBLK ? "not a block device" :
			 "BLKGETZONESZ reports no zones");
		return ret;
	}
	if (ret) {
		snprintf(msg, msg_len, "%s: %s", c->blkdev, strerror(-ret));
		return ret;
	}
	d->blk[0] = b;
	if (b->zone_size_bytes % 4096 || b->capacity_bytes % b->zone_size_bytes) {
		snprintf(msg, msg_len, "%s: zone size %llu or capacity %llu not usable "
			 "(4 KiB multiples, no runt zone)", c->blkdev,
			 (unsigned long long)b->zone_size_bytes,
			 (unsigned long long)b->capacity_bytes);
		return -EINVAL;
	}
	c->zone_bytes = b->zone_size_bytes;
	c->nr_zones = b->nr_zones;
	ret = count_conv(b, &c->nr_conv);
	if (ret)
		snprintf(msg, msg_len, "%s: report zones: %s", c->blkdev, fsc_strerror(ret));
	return ret;
}

int sim_devs_open(struct sim_cfg *c, struct sim_devs *d, char *msg, size_t msg_len)
{
	struct zdev_cfg zc;
	uint32_t i;
	int ret;

	memset(d, 0, sizeof(*d));
	d->backend = sim_backend_of(c);
	if (d->backend == SIM_BACKEND_BLKDEV)
		return open_blkdev(c, d, msg, msg_len);
	for (i = 0; i < sim_nr_open_devs(c); i++) {
		if (d->backend == SIM_BACKEND_ZDISK) {
			ret = open_zdisk(c, i, d, msg, msg_len);
			if (ret)
				return ret;
			continue;
		}
		geo_of(c, &zc);  /* checked by sim_cfg_check() */
		ret = zdev_create(&zc, &d->zd[i]);
		if (ret)
			return ret;
		ret = zblk_zdev_create(d->zd[i], true, &d->blk[i]);
		if (ret)
			return ret;
	}
	return 0;
}

void sim_devs_close(struct sim_devs *d, struct sim_result *res)
{
	struct zl_stats st;
	uint32_t i;

	for (i = 0; i < FSC_MAX_DEVS; i++) {
		if (d->blk[i] && res) {
			res->nr_dev_writes += d->blk[i]->nr_writes;
			res->dev_write_bytes += d->blk[i]->write_bytes;
			res->nr_dev_reads += d->blk[i]->nr_reads;
			res->dev_read_bytes += d->blk[i]->read_bytes;
		}
		if (d->disk[i] && res) {
			zdisk_stats(d->disk[i], &st);
			res->store_writes += st.writes;
			res->faults_fired += st.faults_fired;
		}
		zblk_destroy(d->blk[i]);
		zdisk_close(d->disk[i]);
		zdev_destroy(d->zd[i]);
	}
	memset(d, 0, sizeof(*d));
}
