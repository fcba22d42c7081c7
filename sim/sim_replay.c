/*
 * sim_replay.c — a trace as a workload source (sim_wl.h): the pre-pass over
 * the trace (traces/trc_map.c) and its description, the file sized from
 * the footprint, --file-size or --util, the zone count derived when none
 * was given, the passes counted (the last is measured), and the mapping
 * source the run reads.  The replay's options are checked with the others
 * (sim_cfg.c); the requests, reads, discards, flushes and arrival times
 * run in the workload path (sim_issue.c), as a generator's do.  This file
 * opens no device.
 */
#include <errno.h>
#include <string.h>

#include "sim_wl.h"

#define REPLAY_BIO_BLOCKS 32u  /* a trace write is cut into bios of at most 128 KiB */

/*
 * The pre-pass over @c->trace into a new map (*@map, caller owns:
 * trc_map_destroy()) and the trace's descriptors (trc_stat) in *@desc.  0,
 * or the trace's error with its message (file, record, why) in @msg.
 */
static int scan(const struct sim_cfg *c, struct trc_map **map, struct trc_stat_result *desc,
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

static int replay_scan(struct sim_wl *w, const struct sim_cfg *c, struct sim_result *res)
{
	int ret;

	res->replay = true;
	ret = scan(c, &w->map, &res->trace_stat, res->msg, sizeof(res->msg));
	if (ret)
		return ret;
	res->trace = *trc_map_desc(w->map);
	return 0;
}

/* Blocks of data the file may hold with @c's geometry at --util. */
static uint64_t util_blocks(const struct sim_cfg *c)
{
	double z = sim_usable_data_zones(c);

	return z > 0 ? (uint64_t)(c->util * z * (double)(c->zone_bytes / SIM_BLOCK)) : 0;
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

/*
 * The file for the scanned trace, set in @w's map: --file-size, else the
 * trace's need (compact: footprint, direct: highest block), else (scale)
 * --util of the usable capacity.  With nr_zones 0 (no blkdev), the zone
 * count is derived here (the smallest with file <= util x usable capacity)
 * and written into @c.  Refused: a file smaller than the trace needs, a
 * file that does not fit the zones.
 */
static int replay_size(struct sim_wl *w, struct sim_cfg *c, char *msg, size_t msg_len)
{
	static const char *const need_what[] = { "its footprint", "its highest byte",
						 "its largest request" };
	struct trc_map *map = w->map;
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
		file = c->file_bytes / SIM_BLOCK;
	else if (c->map != TRC_MAP_SCALE)
		file = need;
	else
		file = util_blocks(c);  /* --zones given (sim_cfg_check()) */
	if (file < need) {
		zl_msgf(msg, msg_len, "%s %llu: the trace needs a file of %llu bytes or more "
			"(--map %s: %s)", c->file_bytes ? "--file-size" : "--util of --zones",
			(unsigned long long)(c->file_bytes ? c->file_bytes : file * SIM_BLOCK),
			(unsigned long long)need * SIM_BLOCK, trc_map_names[c->map],
			need_what[c->map]);
		return -EINVAL;
	}
	if (!c->nr_zones && !c->blkdev) {
		ret = derive_zones(c, file, msg, msg_len);
		if (ret)
			return ret;
	}
	usable = sim_usable_data_zones(c) * (double)(c->zone_bytes / SIM_BLOCK);
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
	w->file_blocks = file;
	return 0;
}

/* @c->loops passes over the trace, the last measured, writes cut in bios. */
static int replay_open(struct sim_wl *w, const struct sim_cfg *c, struct sim_result *res,
		       struct trc_source **src)
{
	struct trc_map_source_cfg rc = { .in = c->trace, .map = w->map, .loops = c->loops };
	int ret;

	w->warm_reqs = (uint64_t)(c->loops - 1) * res->trace.nr_recs;
	w->total_reqs = (uint64_t)c->loops * res->trace.nr_recs;
	res->loops_warmup = c->loops - 1;
	w->max_bio_blocks = REPLAY_BIO_BLOCKS < c->zone_bytes / SIM_BLOCK ?
			    REPLAY_BIO_BLOCKS : (uint32_t)(c->zone_bytes / SIM_BLOCK);
	ret = trc_map_source_create(&rc, src);
	if (ret)
		zl_msgf(res->msg, sizeof(res->msg), "replay: %s", strerror(-ret));
	return ret;
}

static void replay_fini(struct sim_wl *w)
{
	trc_map_destroy(w->map);
	w->map = NULL;
}

const struct sim_wl_ops sim_wl_replay = {
	.scan = replay_scan,
	.size = replay_size,
	.open = replay_open,
	.fini = replay_fini,
};
