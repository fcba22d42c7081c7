/*
 * zdisk_control.c — what is done to a disk besides I/O: the write cache
 * setting, fault rules and zone faults at run time, releasing stalls, a
 * power cycle on request, the statistics snapshot and zdisk_check(), the
 * consistency check of an image.  The control socket (zctl), the tcmu glue
 * and the CLI call these.
 *
 * Each call takes the disk's lock and waits for writes in flight where a
 * zone changes under them; zone rules stay in zdev, fault rules in zfault.
 * It calls zdisk.c (flush, the power-cycle reload), never the other way.
 */
#include "zdisk_int.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

bool zdisk_wce(const struct zdisk *z)
{
	return z->wce;
}

int zdisk_set_wce(struct zdisk *z, bool on)
{
	int ret = 0;

	zdisk_enter(z);
	if (z->wce && !on)
		ret = zdisk_flush_locked(z);
	if (!ret)
		z->wce = on;
	zdisk_leave(z);
	return ret;
}

int zdisk_fault_add(struct zdisk *z, const char *rules, char *msg, size_t msg_len)
{
	int ret;

	zdisk_enter(z);
	ret = zfault_add_text(z->faults, rules, msg, msg_len);
	zdisk_leave(z);
	return ret;
}

int zdisk_fault_remove(struct zdisk *z, uint32_t id)
{
	int ret;

	zdisk_enter(z);
	ret = zfault_remove(z->faults, id);
	zdisk_leave(z);
	return ret;
}

int zdisk_zone_set_cond(struct zdisk *z, uint32_t zone_idx, enum zl_zone_cond cond)
{
	int ret;

	zdisk_enter(z);
	if (zone_idx >= zdev_nr_zones(z->dev)) {
		zdisk_leave(z);
		return -EINVAL;
	}
	while (z->busy[zone_idx])
		zdisk_wait_zones(z);
	ret = zdev_zone_set_cond(z->dev, zone_idx, cond);
	if (!ret)
		ret = zdisk_flush_locked(z);
	zdisk_leave(z);
	return ret;
}

int zdisk_zone_clear_fault(struct zdisk *z, uint32_t zone_idx)
{
	int ret;

	zdisk_enter(z);
	if (zone_idx >= zdev_nr_zones(z->dev)) {
		zdisk_leave(z);
		return -EINVAL;
	}
	ret = zdev_zone_clear_fault(z->dev, zone_idx);
	if (!ret)
		ret = zdisk_flush_locked(z);
	zdisk_leave(z);
	return ret;
}

void zdisk_release_stalls(struct zdisk *z)
{
	zdisk_enter(z);
	zfault_release_all(z->faults);
	pthread_cond_broadcast(&z->zone_cv);
	zdisk_leave(z);
}

int zdisk_power_cycle(struct zdisk *z)
{
	int ret;

	zdisk_enter(z);
	while (z->nr_busy)
		zdisk_wait_zones(z);
	ret = zdisk_power_cycle_locked(z);
	__atomic_store_n(&z->off, false, __ATOMIC_RELEASE);   /* the power is back */
	zdisk_leave(z);
	return ret;
}

void zdisk_stats(struct zdisk *z, struct zl_stats *out)
{
	zdisk_enter(z);
	*out = z->stats;
	/* (counted without the lock by zdisk_read_try()) */
	out->reads = __atomic_load_n(&z->stats.reads, __ATOMIC_RELAXED);
	out->read_lbas = __atomic_load_n(&z->stats.read_lbas, __ATOMIC_RELAXED);
	zdisk_leave(z);
}

int zdisk_check(struct zdisk *z, char *msg, size_t msg_len)
{
	const struct zdev_cfg *g;
	struct zdev *scratch;
	uint32_t n;
	int ret;

	zdisk_enter(z);
	ret = zdisk_flush_locked(z);
	if (ret) {
		snprintf(msg, msg_len, "flush failed: %s", zl_strerror(ret));
		goto out_unlock;
	}
	g = zdev_cfg(z->dev);
	ret = zdev_create(g, &scratch);
	if (ret) {
		snprintf(msg, msg_len, "geometry: %s", zl_strerror(ret));
		goto out_unlock;
	}
	n = zdev_nr_zones(z->dev);
	for (uint32_t i = 0; i < n; i++) {
		uint64_t w = zstore_zone_word_get(z->store, i);

		ret = zdev_zone_unpack(scratch, i, w);
		if (ret) {
			snprintf(msg, msg_len, "zone %u: corrupt zone record 0x%016" PRIx64, i, w);
			goto out_destroy;
		}
	}
	if (g->max_active && zdev_nr_active(scratch) > g->max_active) {
		snprintf(msg, msg_len, "%u active zones exceed max active %u",
			 zdev_nr_active(scratch), g->max_active);
		ret = ZL_E_CORRUPT;
		goto out_destroy;
	}
	snprintf(msg, msg_len, "%u zones: %" PRId64 " empty, %u closed, %" PRId64 " full, %"
		 PRId64 " read-only, %" PRId64 " offline, %" PRId64 " conventional; consistent",
		 n, zdev_report_count(scratch, 0, ZL_RO_EMPTY), zdev_nr_closed(scratch),
		 zdev_report_count(scratch, 0, ZL_RO_FULL),
		 zdev_report_count(scratch, 0, ZL_RO_READ_ONLY),
		 zdev_report_count(scratch, 0, ZL_RO_OFFLINE),
		 zdev_report_count(scratch, 0, ZL_RO_NOT_WP));
out_destroy:
	zdev_destroy(scratch);
out_unlock:
	zdisk_leave(z);
	return ret;
}

void zdisk_set_timing_stats(struct zdisk *z, zdisk_timing_stats_fn fn, void *arg)
{
	zdisk_lock(z);
	z->timing_fn = fn;
	z->timing_arg = arg;
	zdisk_unlock(z);
}

bool zdisk_timing_stats(struct zdisk *z, struct zdisk_timing_stats *out)
{
	bool have;

	memset(out, 0, sizeof(*out));
	zdisk_lock(z);
	have = z->timing_fn != NULL;
	if (have)
		z->timing_fn(z->timing_arg, out);
	zdisk_unlock(z);
	return have;
}
