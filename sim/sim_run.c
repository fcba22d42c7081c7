/*
 * sim_run.c — one simulation run, start to end: N devices behind zblk
 * (sim_dev.c: data-less zone models, emulated disks with a store and
 * faults, or a Linux zoned block device), one fs-core instance, a workload
 * source (sim_wl.h: a generator of traces/ or a trace replay), then the
 * event loop (sim_loop.c) and the results.  sim_run() reads as its steps:
 * plan the workload, open the devices, create fs-core, open the source,
 * start, loop, account, tear down.  Everything runs from one event heap in
 * virtual ns with one seeded generator; it is not a benchmark of the host:
 * no wall clock.  The parts that run are described in sim_run.h.
 */
#include <stdlib.h>
#include <string.h>

#include "sim_run.h"

/* The workload's side of the pipeline's completions. */
static const struct sim_up_ops up_ops = {
	.piece_done = sim_req_piece_done,
	.kick = sim_issue,
};

/* Zones a block group of @p takes on one device (DUP: both copies). */
static uint32_t bg_zones_per_dev(enum fsc_profile p)
{
	return p == FSC_DUP ? 2 : 1;
}

/* The run's state, with the caller's configuration as its own copy. */
static struct sim *run_create(const struct sim_cfg *cfg, struct sim_result *res)
{
	struct sim *s = calloc(1, sizeof(*s));
	uint32_t i;

	if (!s)
		return NULL;
	s->eff = *cfg;
	s->cfg = &s->eff;
	s->res = res;
	s->up = &up_ops;
	s->wl.ops = cfg->trace ? &sim_wl_replay : &sim_wl_gen;
	s->req_free = s->cur_req = NO_REQ;
	zl_rng_seed(&s->rng, s->cfg->seed);
	for (i = 0; i < FSC_MAX_DEVS; i++)
		s->last_zone[i] = UINT64_MAX;
	sim_fail_init(s);
	return s;
}

/*
 * The workload before the devices: what it must read first (a trace's
 * pre-pass), and its file when the geometry is already known (no block
 * device); a replay may derive --zones there, so the configuration is
 * checked again.
 */
static int plan_workload(struct sim *s)
{
	const struct sim_wl_ops *ops = s->wl.ops;
	struct sim_result *res = s->res;
	int ret;

	ret = ops->scan ? ops->scan(&s->wl, s->cfg, res) : 0;
	if (ret || s->cfg->blkdev)
		return ret;
	ret = ops->size(&s->wl, &s->eff, res->msg, sizeof(res->msg));
	if (!ret)
		ret = sim_cfg_check(s->cfg, res->msg, sizeof(res->msg));
	return ret;
}

/* The devices; a block device's geometry checked, and the file sized on it. */
static int open_devices(struct sim *s)
{
	const struct sim_cfg *c = s->cfg;
	struct sim_result *res = s->res;
	int ret;

	ret = sim_devs_open(&s->eff, &s->devs, res->msg, sizeof(res->msg));
	if (ret)
		return ret;
	res->zone_bytes = c->zone_bytes;
	res->nr_zones = c->nr_zones;
	res->nr_conv = c->nr_conv;
	if (!c->blkdev)
		return 0;
	if (sim_cfg_check(c, res->msg, sizeof(res->msg))) {
		/* its geometry replaced --zones, --zone-size and --conv */
		char why[sizeof(res->msg)];

		memcpy(why, res->msg, sizeof(why));
		zl_msgf(res->msg, sizeof(res->msg), "%s: geometry not usable: %s", c->blkdev, why);
		return -EINVAL;
	}
	return s->wl.ops->size(&s->wl, &s->eff, res->msg, sizeof(res->msg));
}

/* fs-core on the devices, with the run as its owner, and the run's own limits. */
static int create_fs(struct sim *s)
{
	const struct sim_cfg *c = s->cfg;
	struct fsc_cfg fc;
	uint32_t i;
	int ret;

	fsc_cfg_init(&fc);
	fc.nr_devs = c->nr_devs;
	for (i = 0; i < c->nr_devs; i++)
		fc.devs[i] = s->devs.blk[i];
	fc.data_profile = c->data_profile;
	fc.meta_profile = c->meta_profile;
	fc.raid56_model = c->raid56_model;  /* HYPOTHETICAL (--raid56-model) */
	fc.order = c->order;
	fc.release = c->release;
	fc.expire_ns = c->expire_ns;
	fc.file_bytes = s->wl.file_blocks * SIM_BLOCK;
	fc.tree_fanout = c->metadata ? c->tree_fanout : 0;
	fc.leaf_items = c->leaf_items;
	fc.clean = c->clean;
	fc.clean_params = c->clean_params;
	fc.seed = c->seed;
	fc.place = c->place;
	fc.reclaim = c->reclaim;
	fc.meta_model = c->meta_model;
	fc.extent_bytes = (uint32_t)c->extent_bytes;
	fc.extent_refs = c->buffered_bytes > 0;
	fc.resv_linux61 = c->resv_linux61;
	fc.resv_612 = c->resv_612;
	fc.resv_73 = c->resv_73;
	fc.place_params = c->place_params;
	fc.max_active_zones = c->max_active;
	if (s->fl.on)  /* the rebuild is zoned btrfs's replace (fsc_replace.c) */
		fc.replace = FSC_REPLACE_ZONED;
	ret = fsc_create(&fc, &s->fs);
	if (ret)
		return ret;
	fsc_set_owner(s->fs, &sim_owner_ops, s);
	ret = sim_time_open(s);  /* after the mkfs: its resets are not timed */
	if (ret)
		return ret;

	/* --reserve counts block groups (as sim_usable_data_zones() does): with
	 * DUP a free zone pair is one block group, and a reserve of zones that
	 * makes one DUP block group can strand relocation at ENOSPC */
	s->reserve_free_zones = c->reserve_zones *
		(bg_zones_per_dev(c->data_profile) > bg_zones_per_dev(c->meta_profile) ?
		 bg_zones_per_dev(c->data_profile) : bg_zones_per_dev(c->meta_profile));
	s->workers_max = c->order == FSC_ORDER_SERIALIZE && c->nr_workers ? 1 : c->nr_workers;
	return 0;
}

/* The first events (commit timer, first sample), the CSV headers, the first requests. */
static void start(struct sim *s)
{
	const struct sim_cfg *c = s->cfg;

	if (c->metadata && c->commit_interval_ns)
		sim_push(s, c->commit_interval_ns, EV_COMMIT_TIMER, NULL);
	sim_acct_csv_headers(s);
	if (c->sample_ns)
		sim_push(s, 0, EV_SAMPLE, NULL);
	sim_issue(s);
}

/*
 * Everything the run holds.  A run that stopped early leaves bios in
 * events and the worker queue: back to fs-core's pool, which
 * fsc_destroy() frees.
 */
static void run_destroy(struct sim *s)
{
	struct sim_event ev;

	while (s->fs && sim_heap_pop(&s->heap, &ev))
		if (ev.ptr)
			fsc_bio_put(s->fs, ev.ptr);
	while (s->fs && s->q_head) {
		struct fsc_bio *b = s->q_head;

		s->q_head = b->next;
		fsc_bio_put(s->fs, b);
	}
	fsc_destroy(s->fs);
	sim_time_close(s);
	trc_source_destroy(s->src);
	if (s->wl.ops->fini)
		s->wl.ops->fini(&s->wl);
	free(s->reqs);
	free(s->fw_req);
	free(s->fw_target);
	sim_devs_close(&s->devs, s->res);
	sim_heap_fini(&s->heap);
	free(s);
}

int sim_run(const struct sim_cfg *cfg, struct sim_result *res)
{
	struct sim *s;
	int ret;

	memset(res, 0, sizeof(*res));
	ret = sim_cfg_check(cfg, res->msg, sizeof(res->msg));
	if (ret)
		return res->error = ret;
	s = run_create(cfg, res);
	if (!s)
		return res->error = -ENOMEM;
	ret = plan_workload(s);
	if (!ret)
		ret = open_devices(s);
	if (!ret) {
		sim_acct_workload(s);
		ret = create_fs(s);
	}
	if (!ret)
		ret = s->wl.ops->open(&s->wl, s->cfg, res, &s->src);
	if (!ret) {
		start(s);
		sim_loop(s);
		if (s->cfg->progress)
			fprintf(stderr, "\n");
		if (!s->measuring)
			sim_acct_snapshot(s);
		sim_acct_results(s);
		ret = sim_fail_end(s);  /* data lost or the data check failed */
		if (s->err)
			ret = s->err;
	}
	if (ret && !res->error)
		res->error = ret;
	run_destroy(s);
	return ret;
}
