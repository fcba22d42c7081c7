/*
 * sim_gen.c — the generator as a workload source (sim_wl.h): a file of
 * --util of the usable capacity, filled once, then --warmup and --writes
 * writes of --bio-blocks, drawn by traces/trc_gen.c (seq, uniform, hotcold,
 * zipf).  The simulator holds no workload code: the records come from
 * traces/; this file only translates the configuration into the
 * generator's and counts the requests.
 */
#include <string.h>

#include "sim_wl.h"
#include "trc_gen.h"

/* The file from the usable capacity (room: sim_cfg_check()). */
static int gen_size(struct sim_wl *w, struct sim_cfg *c, char *msg, size_t msg_len)
{
	double zones = sim_usable_data_zones(c), np = (double)(c->zone_bytes / SIM_BLOCK);

	w->file_blocks = (uint64_t)(c->util * zones * np);
	return 0;
}

static int gen_open(struct sim_wl *w, const struct sim_cfg *c, struct sim_result *res,
		    struct trc_source **src)
{
	static const enum trc_gen_kind kind_of[] = {
		[SIM_WL_SEQ] = TRC_GEN_SEQ, [SIM_WL_UNIFORM] = TRC_GEN_UNIFORM,
		[SIM_WL_HOTCOLD] = TRC_GEN_HOTCOLD, [SIM_WL_ZIPF] = TRC_GEN_ZIPF,
	};
	/* the fill, then warm-up and measured writes: one request each */
	uint64_t fill = (w->file_blocks + c->bio_blocks - 1) / c->bio_blocks;
	uint64_t total = fill + c->warmup_writes + c->writes;
	struct trc_gen_cfg g = {
		.kind = kind_of[c->workload],
		.seed = c->seed,
		.file_bytes = w->file_blocks * SIM_BLOCK,
		.req_bytes = c->bio_blocks * SIM_BLOCK,
		.nr_fill = fill,
		.nr_reqs = total,
		.hot_r = c->hot_r,
		.hot_f = c->hot_f,
		.zipf_theta = c->zipf_theta,
	};
	int ret;

	w->warm_reqs = fill + c->warmup_writes;
	w->total_reqs = total;
	w->max_bio_blocks = c->bio_blocks;
	ret = trc_gen_create(&g, src);
	if (ret)
		zl_msgf(res->msg, sizeof(res->msg),
			"workload %s: the generator refused its configuration (%s)",
			sim_workload_names[c->workload], strerror(-ret));
	return ret;
}

const struct sim_wl_ops sim_wl_gen = {
	.size = gen_size,
	.open = gen_open,
};
