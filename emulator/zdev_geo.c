/*
 * zdev_geo.c — the geometries the zone model accepts: zdev_cfg_init()'s
 * defaults and zdev_cfg_check(), which rejects every invalid combination
 * (block sizes, capacity, zone size and capacity, conventional zones,
 * model, open/active limits) with a message naming the value and the
 * reason.
 *
 * It only validates a struct zdev_cfg: no zone state, no allocation.  The
 * state machine (zdev.c) calls it from zdev_create(); zdisk and the CLI call
 * it to explain a refusal.  Zone rules are not here.
 */
#include "zdev_int.h"

#include <inttypes.h>
#include <string.h>

void zdev_cfg_init(struct zdev_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->lba_size = 512;
	cfg->pblock_size = 0;
	cfg->zone_size_lba = (256ull << 20) / 512;
	cfg->model = ZL_MODEL_HM;
	cfg->urswrz = true;
}

/* A rejected geometry: the reason into @msg (zl_msgf), ZL_E_GEOMETRY. */
#define geo_err(msg, len, ...) (zl_msgf(msg, len, __VA_ARGS__), ZL_E_GEOMETRY)

int zdev_cfg_check(const struct zdev_cfg *c, char *msg, size_t len)
{
	uint32_t pbs = c->pblock_size ? c->pblock_size : c->lba_size;
	uint64_t pbl, nr_zones;

	if (c->lba_size != 512 && c->lba_size != 4096)
		return geo_err(msg, len, "logical block size %u: must be 512 or 4096 bytes",
			       c->lba_size);
	if (pbs != 512 && pbs != 4096)
		return geo_err(msg, len, "physical block size %u: must be 512 or 4096 bytes", pbs);
	if (pbs < c->lba_size)
		return geo_err(msg, len,
			       "physical block size %u is smaller than the logical block size %u",
			       pbs, c->lba_size);
	pbl = pbs / c->lba_size;
	if (c->capacity_lba == 0)
		return geo_err(msg, len, "capacity is 0 LBAs: give the device a size");
	if (c->capacity_lba % pbl)
		return geo_err(msg, len,
			       "capacity %" PRIu64 " LBAs is not a multiple of the physical block (%" PRIu64 " LBAs)",
			       c->capacity_lba, pbl);
	if (c->capacity_lba > (UINT64_MAX / 4096))
		return geo_err(msg, len,
			       "capacity %" PRIu64 " LBAs overflows a 64-bit byte offset (at most %" PRIu64 " LBAs)",
			       c->capacity_lba, UINT64_MAX / 4096);
	if (c->zone_size_lba == 0)
		return geo_err(msg, len, "zone size is 0 LBAs");
	if (c->zone_size_lba % pbl)
		return geo_err(msg, len,
			       "zone size %" PRIu64 " LBAs is not a multiple of the physical block (%" PRIu64 " LBAs)",
			       c->zone_size_lba, pbl);
	if (c->zone_size_lba > UINT32_MAX)
		return geo_err(msg, len,
			       "zone size %" PRIu64 " LBAs is above the model's limit of %u LBAs per zone",
			       c->zone_size_lba, UINT32_MAX);
	if (c->zone_cap_lba > c->zone_size_lba)
		return geo_err(msg, len,
			       "zone capacity %" PRIu64 " LBAs exceeds the zone size %" PRIu64 " LBAs",
			       c->zone_cap_lba, c->zone_size_lba);
	if (c->zone_cap_lba % pbl)
		return geo_err(msg, len,
			       "zone capacity %" PRIu64 " LBAs is not a multiple of the physical block (%" PRIu64 " LBAs)",
			       c->zone_cap_lba, pbl);
	nr_zones = (c->capacity_lba + c->zone_size_lba - 1) / c->zone_size_lba;
	if (nr_zones > UINT32_MAX - 1)
		return geo_err(msg, len, "%" PRIu64 " zones: at most %u zones are supported",
			       nr_zones, UINT32_MAX - 1);
	if (c->nr_conv_start > nr_zones)
		return geo_err(msg, len,
			       "%u conventional zones at the start, but the device has only %" PRIu64 " zones",
			       c->nr_conv_start, nr_zones);
	if (c->nr_conv_ranges > ZDEV_MAX_CONV_RANGES)
		return geo_err(msg, len, "%u conventional zone ranges: at most %d",
			       c->nr_conv_ranges, ZDEV_MAX_CONV_RANGES);
	for (uint32_t i = 0; i < c->nr_conv_ranges; i++) {
		const struct zdev_range *r = &c->conv_ranges[i];

		if (r->count == 0)
			return geo_err(msg, len, "conventional zone range %u (zone %u) is empty",
				       i, r->first);
		if ((uint64_t)r->first + r->count > nr_zones)
			return geo_err(msg, len,
				       "conventional zone range %u-%u ends past the last zone (%" PRIu64 ")",
				       r->first, r->first + r->count - 1, nr_zones - 1);
	}
	if (c->model != ZL_MODEL_HM && c->model != ZL_MODEL_HA)
		return geo_err(msg, len, "unknown zone model %d (host-managed or host-aware)",
			       (int)c->model);
	if (c->max_active && c->max_open > c->max_active)
		return geo_err(msg, len, "max open zones %u exceeds max active zones %u",
			       c->max_open, c->max_active);
	return 0;
}

