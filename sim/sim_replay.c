/*
 * sim_replay.c — what a trace replay needs before the simulation starts:
 * its options checked, the pre-pass over the trace (traces/trc_map.c), the
 * file sized from the footprint, --file-size or --util, and the zone count
 * derived when none was given.  The replay itself (requests, reads,
 * discards, flushes, arrival times) runs in sim.c; this file opens no
 * device.
 */
#include <errno.h>
#include <string.h>

#include "sim_int.h"

#define BLOCK 4096u

int sim_replay_check(const struct sim_cfg *c, char *msg, size_t msg_len)
{
	if (!c->trace) {
		if (c->timing != SIM_TIMING_CLOSED)
			zl_msgf(msg, msg_len, "--timing %s: needs --trace (the generators have no "
				"arrival times)", sim_name_of(sim_timing_names, c->timing) ?: "?");
		else if (c->loops != 1)
			zl_msgf(msg, msg_len, "--loops %u: needs --trace (a generator's run is "
				"--warmup and --writes)", c->loops);
		else if (c->file_bytes)
			zl_msgf(msg, msg_len, "--file-size %llu: needs --trace (a generator's file "
				"is --util of the capacity)", (unsigned long long)c->file_bytes);
		else if (c->map != TRC_MAP_COMPACT)
			zl_msgf(msg, msg_len, "--map %s: needs --trace",
				sim_name_of(trc_map_names, c->map) ?: "?");
		else
			return 0;
		return -EINVAL;
	}
	if (!sim_name_of(trc_map_names, c->map))
		zl_msgf(msg, msg_len, "--map %d: not a known value (one of: compact direct scale)",
			c->map);
	else if (!sim_name_of(sim_timing_names, c->timing))
		zl_msgf(msg, msg_len, "--timing %d: not a known value (one of: closed timed)",
			c->timing);
	else if (!c->loops)
		zl_msgf(msg, msg_len, "--loops 0: at least 1 pass over the trace");
	else if (c->timing == SIM_TIMING_TIMED && !(c->speed > 0 && c->speed <= 1e9))
		zl_msgf(msg, msg_len, "--speed %g: above 0 and at most 1e9 (1 = the trace's own "
			"pace, 2 = twice as fast)", c->speed);
	else if (!c->qd && c->timing == SIM_TIMING_CLOSED)
		zl_msgf(msg, msg_len, "--qd 0: a closed loop needs at least 1 request in flight "
			"(0 = no limit is for --timing timed)");
	else if (c->file_bytes % BLOCK)
		zl_msgf(msg, msg_len, "--file-size %llu: a multiple of 4 KiB",
			(unsigned long long)c->file_bytes);
	else if (c->map == TRC_MAP_SCALE && !c->file_bytes && !c->nr_zones && !c->blkdev)
		zl_msgf(msg, msg_len, "--map scale: the file's size comes from --file-size, or "
			"from --zones and --util: give one of them");
	else
		return 0;
	return -EINVAL;
}

int sim_replay_scan(const struct sim_cfg *c, struct trc_map **map, struct trc_stat_result *desc,
		    char *msg, size_t msg_len)
{
	struct trc_stat *st = NULL;
	struct trc_map *m;
	int ret = trc_map_create(c->map, &m);

	if (ret)
		return ret;
	ret = trc_stat_create(&st);
	if (ret) {
		trc_map_destroy(m);
		return ret;
	}
	msg[0] = 0;
	ret = trc_map_scan(m, c->trace, st, msg, msg_len);
	if (!ret)
		trc_stat_result(st, desc);
	trc_stat_destroy(st);
	if (ret) {
		if (!msg[0])
			zl_msgf(msg, msg_len, "%s: %s", c->trace->name ? c->trace->name : "trace",
				strerror(-ret));
		trc_map_destroy(m);
		return ret;
	}
	*map = m;
	return 0;
}

/* Blocks of data the file may hold with @c's geometry at --util. */
static uint64_t util_blocks(const struct sim_cfg *c)
{
	double z = sim_usable_data_zones(c);

	return z > 0 ? (uint64_t)(c->util * z * (double)(c->zone_bytes / BLOCK)) : 0;
}

/* Whether @c's zones hold @file at --util, with a data zone at least (the
 * room sim_cfg_check() asks for). */
static bool zones_hold(const struct sim_cfg *c, uint64_t file)
{
	return sim_usable_data_zones(c) >= 1 && util_blocks(c) >= file;
}

/* The smallest zone count whose usable capacity at --util holds @file. */
static int derive_zones(struct sim_cfg *c, uint64_t file, char *msg, size_t msg_len)
{
	uint32_t lo = c->nr_conv + 1 > 4 ? c->nr_conv + 1 : 4, hi = UINT32_MAX - 1, mid;

	if (c->nr_conv >= UINT32_MAX - 2) {
		zl_msgf(msg, msg_len, "--conv %u: too many to derive --zones", c->nr_conv);
		return -EINVAL;
	}
	c->nr_zones = hi;
	if (!zones_hold(c, file)) {
		zl_msgf(msg, msg_len, "the trace's file (%llu blocks of 4 KiB) needs more than "
			"%u zones of %llu bytes at --util %g", (unsigned long long)file, hi,
			(unsigned long long)c->zone_bytes, c->util);
		return -EINVAL;
	}
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		c->nr_zones = mid;
		if (zones_hold(c, file))
			hi = mid;
		else
			lo = mid + 1;
	}
	c->nr_zones = lo;
	return 0;
}

int sim_replay_size(struct sim_cfg *c, struct trc_map *map, uint64_t *file_blocks, char *msg,
		    size_t msg_len)
{
	static const char *const need_what[] = { "its footprint", "its highest byte",
						 "its largest request" };
	const struct trc_map_desc *d = trc_map_desc(map);
	uint64_t need = trc_map_need_blocks(map), file;
	double usable;
	int ret;

	if (!need) {
		zl_msgf(msg, msg_len, "%s: nothing to replay: %llu records, none reads, writes or "
			"discards a byte", c->trace->name ? c->trace->name : "trace",
			(unsigned long long)d->nr_recs);
		return -EINVAL;
	}
	if (c->file_bytes)
		file = c->file_bytes / BLOCK;
	else if (c->map != TRC_MAP_SCALE)
		file = need;
	else
		file = util_blocks(c);  /* --zones given (sim_replay_check()) */
	if (file < need) {
		zl_msgf(msg, msg_len, "%s %llu: the trace needs a file of %llu bytes or more "
			"(--map %s: %s)", c->file_bytes ? "--file-size" : "--util of --zones",
			(unsigned long long)(c->file_bytes ? c->file_bytes : file * BLOCK),
			(unsigned long long)need * BLOCK, trc_map_names[c->map], need_what[c->map]);
		return -EINVAL;
	}
	if (!c->nr_zones && !c->blkdev) {
		ret = derive_zones(c, file, msg, msg_len);
		if (ret)
			return ret;
	}
	usable = sim_usable_data_zones(c) * (double)(c->zone_bytes / BLOCK);
	if (!((double)file < usable)) {
		zl_msgf(msg, msg_len, "the file (%llu blocks of 4 KiB, --map %s) does not fit in "
			"--zones %u of %llu bytes: %.0f usable data blocks; give more --zones, or "
			"leave --zones out to derive it from --util", (unsigned long long)file,
			trc_map_names[c->map], c->nr_zones, (unsigned long long)c->zone_bytes,
			usable > 0 ? usable : 0.0);
		return -EINVAL;
	}
	ret = trc_map_set_file(map, file);
	if (ret)
		return ret;
	*file_blocks = file;
	return 0;
}
