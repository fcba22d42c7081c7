/*
 * sim_out.c — the simulator's JSON summary: the configuration that produced
 * it and every result, in a fixed key order with fixed number formats so
 * that the same run prints byte-identical text; and the spellings of the
 * enum values, which the command line parses with sim_name_parse().  Option
 * parsing itself is not here (cli/cmd_sim.c).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "sim_int.h"
#include "ztime.h"
#include "zl_json.h"

const char *const sim_profile_names[] = {
	"single", "dup", "raid1", "raid0", "raid10", "raid5", "raid6", NULL,
};
const char *const sim_order_names[] = { "submit-buffer", "serialize", "append", "none", NULL };
const char *const sim_release_names[] = { "redirty", "zeros", "none", NULL };
const char *const sim_meta_model_names[] = { "file", "btrfs", NULL };
const char *const sim_space_resv_names[] = { "none", "linux-6.1", "linux-6.12", "linux-7.3",
					       NULL };
const char *const sim_dist_names[] = { "const", "exp", "pareto", NULL };
const char *const sim_workload_names[] = { "seq", "uniform", "hotcold", "zipf", NULL };
const char *const sim_store_names[] = { "none", "mem", "file", NULL };
const char *const sim_on_dev_error_names[] = { "abort", "continue", NULL };
const char *const sim_timing_names[] = { "closed", "timed", NULL };

int sim_name_parse(const char *const *names, const char *s)
{
	for (int i = 0; names[i]; i++)
		if (!strcmp(s, names[i]))
			return i;
	return -EINVAL;
}

const char *sim_name_of(const char *const *names, int v)
{
	for (int i = 0; names[i]; i++)
		if (i == v)
			return names[i];
	return NULL;
}

/* @v as @names spells it; "?" for a value sim_cfg_check() would refuse. */
static const char *name(const char *const *names, int v)
{
	const char *n = sim_name_of(names, v);

	return n ? n : "?";
}

static const char *const kind_names[] = { "data", "metadata", "redirty", "zeros", "superblock",
					   "relocation" };

#define U(x) ((unsigned long long)(x))

static void hist_json(FILE *f, const struct ana_hist *h)
{
	fprintf(f, "\"count\": %llu, \"p50\": %llu, \"p90\": %llu, \"p99\": %llu, ",
		U(h->n), U(ana_hist_quantile(h, 0.5)), U(ana_hist_quantile(h, 0.9)),
		U(ana_hist_quantile(h, 0.99)));
}

/* The whole histogram, compact: its non-empty buckets as three arrays of
 * the same length (smallest value, largest value, count), lowest first. */
static void hist_full_json(FILE *f, const struct ana_hist *h)
{
	static const char *const names[] = { "lo", "hi", "count" };

	fprintf(f, "\"hist\": {");
	for (int a = 0; a < 3; a++) {
		int first = 1;

		fprintf(f, "%s \"%s\": [", a ? "," : "", names[a]);
		for (uint32_t i = 0; i < ANA_HIST_BUCKETS; i++) {
			if (!h->count[i])
				continue;
			fprintf(f, "%s%llu", first ? "" : ",",
				U(a == 0 ? ana_hist_bucket_lo(i) :
				  a == 1 ? ana_hist_bucket_hi(i) : h->count[i]));
			first = 0;
		}
		fputc(']', f);
	}
	fprintf(f, " }");
}

/* The trace's descriptors as `zonelab trace stat` computes them (trc_stat). */
static void stat_json(FILE *f, const struct trc_stat_result *t)
{
	static const char *const size_names[TRC_NR_SIZE_BUCKETS] = {
		"<=4K", "<=8K", "<=16K", "<=32K", "<=64K", "<=128K", "<=256K", "<=512K", "<=1M",
		">1M",
	};
	uint64_t rd = t->nr_ops[TRC_OP_READ], wr = t->nr_ops[TRC_OP_WRITE];
	int k;

	fprintf(f, "      \"descriptors\": { \"read_fraction_requests\": %.6f, "
		"\"read_fraction_bytes\": %.6f, \"sequential_fraction\": %.6f, "
		"\"write_skew\": { \"top1\": %.6f, \"top10\": %.6f, \"top20\": %.6f },\n",
		rd + wr ? (double)rd / (double)(rd + wr) : 0.0,
		t->bytes_ops[TRC_OP_READ] + t->bytes_ops[TRC_OP_WRITE] ?
		(double)t->bytes_ops[TRC_OP_READ] /
		(double)(t->bytes_ops[TRC_OP_READ] + t->bytes_ops[TRC_OP_WRITE]) : 0.0,
		t->nr_seq_candidates ? (double)t->nr_seq / (double)t->nr_seq_candidates : 0.0,
		t->skew[0], t->skew[1], t->skew[2]);
	fprintf(f, "        \"size_hist\": {");
	for (k = 0; k < TRC_NR_SIZE_BUCKETS; k++)
		fprintf(f, "%s \"%s\": %llu", k ? "," : "", size_names[k], U(t->size_hist[k]));
	fprintf(f, " },\n        \"interarrival_ns\": {");
	for (k = 0; k < TRC_NR_PCT; k++)
		fprintf(f, "%s \"p%g\": %llu", k ? "," : "", trc_stat_pcts[k], U(t->iat_pct_ns[k]));
	fprintf(f, ", \"mean\": %.0f }, \"devices\": %llu }", t->iat_mean_ns, U(t->nr_devs));
}

/* The "replay" object: the passes, the trace's descriptors (one pass, from
 * the pre-pass), the measured requests per op and what reads and discards
 * did. */
static void replay_json(FILE *f, const struct sim_cfg *c, const struct sim_result *r)
{
	const struct trc_map_desc *d = &r->trace;
	uint64_t other = 0;
	int k, first = 1;

	fprintf(f, ",\n  \"replay\": { \"loops\": %u, \"warmup_loops\": %u, "
		"\"measured_loops\": %u,\n", c->loops, r->loops_warmup, c->loops - r->loops_warmup);
	fprintf(f, "    \"trace\": { \"records\": %llu, \"duration_ns\": %llu, "
		"\"footprint_bytes\": %llu, \"written_footprint_bytes\": %llu, "
		"\"read_footprint_bytes\": %llu, \"discarded_footprint_bytes\": %llu,\n"
		"      \"max_end_bytes\": %llu, \"unaligned_requests\": %llu, "
		"\"map_memory_bytes\": %llu, \"ops\": {", U(d->nr_recs),
		U(d->nr_recs ? d->max_ts_ns - d->min_ts_ns : 0), U(d->fp_blocks * 4096),
		U(d->fp_written_blocks * 4096), U(d->fp_read_blocks * 4096),
		U(d->fp_discarded_blocks * 4096), U(d->max_end_bytes), U(d->nr_unaligned),
		U(d->mem_bytes));
	for (k = 0; k < TRC_NR_OPS; k++) {
		if (!d->nr_ops[k])
			continue;
		fprintf(f, "%s \"%s\": { \"requests\": %llu, \"bytes\": %llu }", first ? "" : ",",
			trc_op_name(k), U(d->nr_ops[k]), U(d->bytes_ops[k]));
		first = 0;
	}
	fprintf(f, " },\n");
	stat_json(f, &r->trace_stat);
	fprintf(f, " },\n    \"requests\": {");
	for (k = 0; k < SIM_NR_LAT_OPS; k++) {
		const struct ana_hist *h = &r->req_lat[k];

		fprintf(f, "%s\n      \"%s\": { \"count\": %llu, \"bytes\": %llu, \"latency_ns\": "
			"{ \"p50\": %llu, \"p90\": %llu, \"p99\": %llu, \"p99_9\": %llu, "
			"\"max\": %llu, \"mean\": %.0f,\n        ", k ? "," : "", trc_op_name(k),
			U(r->req_nr[k]), U(r->req_bytes[k]), U(ana_hist_quantile(h, 0.5)),
			U(ana_hist_quantile(h, 0.9)), U(ana_hist_quantile(h, 0.99)),
			U(ana_hist_quantile(h, 0.999)), U(h->max),
			h->n ? (double)h->sum / (double)h->n : 0.0);
		hist_full_json(f, h);
		fprintf(f, " } }");
	}
	for (k = SIM_NR_LAT_OPS; k < TRC_NR_OPS; k++)
		other += r->req_nr[k];
	fprintf(f, ",\n      \"other\": { \"count\": %llu } },\n", U(other));
	fprintf(f, "    \"reads\": { \"device_reads\": %llu, \"device_read_bytes\": %llu, "
		"\"read_errors\": %llu, \"blocks_in_memory\": %llu, \"blocks_hole\": %llu },\n",
		U(r->nr_user_reads), U(r->user_read_bytes), U(r->nr_user_read_errors),
		U(r->read_blocks_pending), U(r->read_blocks_hole));
	fprintf(f, "    \"discarded_blocks\": %llu, \"flush_commits\": %llu, \"ignored\": %llu }",
		U(r->discarded_blocks), U(r->nr_flush_commits), U(r->nr_ignored));
}

/* One latency phase of the rebuild object: count, p50, p99, max (ns). */
static void fail_lat_json(FILE *f, const char *what, const struct ana_hist *h)
{
	fprintf(f, "\"%s\": { \"count\": %llu, \"p50_ns\": %llu, \"p99_ns\": %llu, "
		"\"max_ns\": %llu }", what, U(h->n), U(ana_hist_quantile(h, 0.5)),
		U(ana_hist_quantile(h, 0.99)), U(h->max));
}

/* --fail-dev: the failure, fs-core's rebuild, the data check (docs/SIM.md). */
static void fail_json(FILE *f, const struct sim_cfg *c, const struct sim_result *r)
{
	const struct sim_fail_result *x = &r->fail;
	const struct fsc_verify *v = &x->verify;
	/* a data-less device reads what is below its write pointer: lost blocks
	 * (fs-core counted them) make the check bad there too, never "ok" */
	const char *check = !x->verified ? "not run" : x->verify_ret || x->lost_blocks ? "bad" :
			    "ok";

	fprintf(f, ",\n  \"rebuild\": { \"model\": \"fs-core\", \"dev\": %u, "
		"\"fail_at_write\": %llu, \"prio\": \"%s\", \"share\": %.4f, \"depth\": %u, "
		"\"batch_bytes\": %llu,\n",
		c->fail_dev, U(c->fail_at_bytes), c->rb_prio == SIM_RB_SHARE ? "share" : "idle",
		c->rb_prio == SIM_RB_SHARE ? c->rb_share : 0.0, c->rb_depth, U(c->rb_step_bytes));
	fprintf(f, "    \"failed\": %s, \"started\": %s, \"finished\": %s, "
		"\"fail_ns\": %llu, \"start_ns\": %llu, \"end_ns\": %llu, \"rebuild_ns\": %llu,\n",
		x->failed ? "true" : "false", x->started ? "true" : "false",
		x->finished ? "true" : "false", U(x->fail_ns), U(x->start_ns), U(x->end_ns),
		U(x->finished ? x->end_ns - x->start_ns : 0));
	fprintf(f, "    \"alloc_bytes\": %llu, \"walked_bytes\": %llu, \"copied_bytes\": %llu, "
		"\"zero_bytes\": %llu, \"dup_bytes\": %llu, \"read_bytes\": %llu, "
		"\"target_write_bytes\": %llu, \"steps\": %llu, \"batches\": %llu,\n    "
		"\"alloc_end_bytes\": %llu, \"target_used_bytes\": %llu,\n", U(x->alloc_bytes),
		U(x->walked_bytes), U(x->copied_bytes), U(x->zero_bytes), U(x->dup_bytes),
		U(x->read_bytes), U(x->tgt_write_bytes), U(x->nr_steps), U(x->nr_batches),
		U(x->alloc_end_bytes), U(x->tgt_used_bytes));
	fprintf(f, "    \"second_failure\": { \"dev\": ");
	if (c->fail2_dev == SIM_NO_DEV)
		fprintf(f, "null");
	else
		fprintf(f, "%u", c->fail2_dev);
	fprintf(f, ", \"dev3\": ");
	if (c->fail3_dev == SIM_NO_DEV)
		fprintf(f, "null");
	else
		fprintf(f, "%u", c->fail3_dev);
	fprintf(f, ", \"at_walked_bytes\": %llu, \"failed\": %s, \"fail_ns\": %llu },\n",
		U(c->fail2_at_bytes), x->fail2 ? "true" : "false", U(x->fail2_ns));
	fprintf(f, "    \"data_lost\": %s, \"lost_blocks\": %llu, \"lost_bytes\": %llu, "
		"\"r56_rebuilt_bytes\": %llu,\n", x->lost_blocks ? "true" : "false",
		U(x->lost_blocks), U(x->lost_bytes), U(x->r56_rebuilt_bytes));
	fprintf(f, "    \"data_check\": { \"result\": \"%s\", \"stamps\": %s, \"blocks\": %llu, "
		"\"r56_blocks\": %llu, \"bad_blocks\": %llu, \"bad_write_pointers\": %llu, "
		"\"first_bad\": ", check, v->stamps ? "true" : "false", U(v->nr_blocks),
		U(v->nr_r56_blocks), U(v->nr_bad), U(v->nr_wp_bad));
	if (v->nr_bad)
		fprintf(f, "%llu", U(v->first_bad));
	else
		fprintf(f, "null");
	fprintf(f, " },\n    \"fg_latency\": { ");
	fail_lat_json(f, "before", &x->lat_before);
	fprintf(f, ", ");
	fail_lat_json(f, "during", &x->lat_during);
	fprintf(f, " } }");
}

void sim_json(FILE *f, const struct sim_cfg *c, const struct sim_result *r)
{
	char spec[128], pspec[128];
	int k;

	fprintf(f, "{\n  \"config\": {\n");
	fprintf(f, "    \"seed\": %llu, \"devices\": %u, \"zone_bytes\": %llu, \"zones\": %u, "
		"\"conv_zones\": %u,\n", U(c->seed), c->nr_devs,
		U(r->zone_bytes ? r->zone_bytes : c->zone_bytes),
		r->zone_bytes ? r->nr_zones : c->nr_zones, r->zone_bytes ? r->nr_conv : c->nr_conv);
	fprintf(f, "    \"backend\": \"%s\", \"store\": \"%s\", \"store_path\": ",
		sim_backend_name(sim_backend_of(c)), name(sim_store_names, c->store));
	zl_json_fprint_str(f, c->store == SIM_STORE_FILE ? c->store_path : NULL);
	fprintf(f, ", \"faults\": ");
	zl_json_fprint_str(f, c->faults && *c->faults ? c->faults : NULL);
	fprintf(f, ", \"blkdev\": ");
	zl_json_fprint_str(f, c->blkdev);
	fprintf(f, ", \"on_dev_error\": \"%s\", \"reloc_reads\": %s,\n",
		sim_on_dev_error_names[c->dev_error_abort ? 0 : 1],
		c->reloc_reads ? "true" : "false");
	fprintf(f, "    \"dev_cmd_ns\": %llu, \"dev_bw_bps\": %llu, \"zone_switch_ns\": %llu,\n",
		U(c->dev_cmd_ns), U(c->dev_bw_bps), U(c->zone_switch_ns));
	if (c->timing_model) {  /* only then: a run without one prints what it always did */
		struct ztime_params p;
		char txt[1024];

		fprintf(f, "    \"timing_model\": ");
		if (ztime_parse(c->timing_model, &p, NULL, 0) || ztime_format(&p, txt, sizeof(txt)) < 0)
			zl_json_fprint_str(f, c->timing_model);
		else
			zl_json_fprint_str(f, txt);
		fprintf(f, ",\n");
	}
	fprintf(f, "    \"data_profile\": \"%s\", \"meta_profile\": \"%s\", \"order\": \"%s\", "
		"\"release\": \"%s\", \"expire_ns\": %llu,\n",
		name(sim_profile_names, c->data_profile), name(sim_profile_names, c->meta_profile),
		name(sim_order_names, c->order), name(sim_release_names, c->release),
		U(c->expire_ns));
	if (c->raid56_model)  /* only then: every other run prints what it did */
		fprintf(f, "    \"raid56_model\": \"HYPOTHETICAL: no zoned kernel has RAID5/6\",\n");
	fprintf(f, "    \"metadata\": %s, \"tree_fanout\": %u, \"leaf_items\": %u, "
		"\"release_prob\": %.6f, \"commit_interval_ns\": %llu, \"commit_bytes\": %llu,\n",
		c->metadata ? "true" : "false", c->tree_fanout, c->leaf_items, c->release_prob,
		U(c->commit_interval_ns), U(c->commit_bytes));
	fprintf(f, "    \"workers\": %u, \"worker_dist\": \"%s\", \"worker_mean_ns\": %llu, "
		"\"pareto_alpha\": %.3f,\n", c->nr_workers, name(sim_dist_names, c->worker_dist),
		U(c->worker_mean_ns), c->pareto_alpha);
	fprintf(f, "    \"workload\": \"%s\", \"util\": %.4f, \"bio_blocks\": %u, \"hot_r\": %.4f, "
		"\"hot_f\": %.4f, \"zipf_theta\": %.4f, \"qd\": %u, \"warmup_writes\": %llu, \"writes\": %llu,\n",
		name(sim_workload_names, c->workload), c->util, c->bio_blocks, c->hot_r, c->hot_f,
		c->zipf_theta, c->qd, U(c->warmup_writes), U(c->writes));
	fsc_clean_spec(c->clean, &c->clean_params, spec, sizeof(spec));
	fsc_place_spec(c->place, &c->place_params, pspec, sizeof(pspec));
	fprintf(f, "    \"clean\": \"%s\", \"reserve_zones\": %u, \"placement\": \"%s\", "
		"\"max_open\": %u, \"max_active\": %u", spec, c->reserve_zones, pspec,
		c->max_open, c->max_active);
	if (fsc_reclaim_on(&c->reclaim)) {
		fsc_reclaim_spec(&c->reclaim, spec, sizeof(spec));
		fprintf(f, ", \"reclaim\": \"%s\"", spec);
	}
	if (c->meta_model == FSC_META_BTRFS)
		fprintf(f, ", \"meta_model\": \"btrfs\", \"extent_bytes\": %llu", U(c->extent_bytes));
	if (c->resv_linux61)
		fprintf(f, ", \"space_resv\": \"%s\"", sim_space_resv_name(c));
	if (c->trace) {
		fprintf(f, ",\n    \"trace\": ");
		zl_json_fprint_str(f, c->trace->name);
		fprintf(f, ", \"map\": \"%s\", \"file_size\": %llu, \"timing\": \"%s\", "
			"\"speed\": %.6g, \"loops\": %u", name(trc_map_names, c->map),
			U(c->file_bytes), name(sim_timing_names, c->timing), c->speed, c->loops);
	}
	fprintf(f, "\n  },\n");

	fprintf(f, "  \"error\": \"%s\", \"error_text\": ", r->error ? fsc_errname(r->error) : "none");
	zl_json_fprint_str(f, r->error ? (r->msg[0] ? r->msg : fsc_strerror(r->error)) : "");
	fprintf(f, ",\n");
	fprintf(f, "  \"virtual_time_ns\": %llu, \"events\": %llu, \"file_blocks\": %llu,\n",
		U(r->t_end_ns), U(r->nr_events), U(r->file_blocks));
	fprintf(f, "  \"wa\": { \"total\": %.6f, \"data\": %.6f, \"util_effective\": %.6f, "
		"\"oracle_fifo\": %.6f, \"oracle_greedy\": %.6f,\n", r->wa, r->wa_data,
		r->util_effective, r->oracle_fifo, r->oracle_greedy);
	if (c->workload == SIM_WL_HOTCOLD)
		fprintf(f, "    \"oracle_hotcold_fifo\": %.6f, \"oracle_hotcold_greedy\": %.6f, "
			"\"oracle_two_log_bound\": %.6f,\n", r->oracle_hc_fifo, r->oracle_hc_greedy,
			r->oracle_twolog);
	fprintf(f, "    \"user_bytes\": %llu", U(r->user_bytes));
	for (k = 0; k < FSC_NR_KINDS; k++)
		fprintf(f, ", \"%s_bytes\": %llu", kind_names[k], U(r->dev_bytes[k]));
	fprintf(f, ",\n    \"breakdown\": {");
	for (k = 0; k < FSC_NR_KINDS; k++)
		fprintf(f, "%s \"%s\": %.6f", k ? "," : "", kind_names[k],
			r->user_bytes ? (double)r->dev_bytes[k] / (double)r->user_bytes : 0.0);
	fprintf(f, ", \"finish_waste\": %.6f },\n", r->user_bytes ?
		(double)r->finish_waste_bytes / (double)r->user_bytes : 0.0);
	fprintf(f, "    \"finish_waste_bytes\": %llu, \"zone_finishes\": %llu, "
		"\"active_zones_max\": %u },\n", U(r->finish_waste_bytes), U(r->nr_zone_finishes),
		r->active_max);
	fprintf(f, "  \"reorder_latency_ns\": { \"count\": %llu, \"p50\": %llu, \"p90\": %llu, "
		"\"p99\": %llu, \"p99_9\": %llu, \"max\": %llu,\n    ", U(r->reorder.n),
		U(ana_hist_quantile(&r->reorder, 0.5)), U(ana_hist_quantile(&r->reorder, 0.9)),
		U(ana_hist_quantile(&r->reorder, 0.99)), U(ana_hist_quantile(&r->reorder, 0.999)),
		U(r->reorder.max));
	hist_full_json(f, &r->reorder);
	fprintf(f, " },\n");
	fprintf(f, "  \"submit_buffer\": { \"held\": %llu, \"occupancy_mean\": %.3f, "
		"\"occupancy_max\": %llu, \"expired_bios\": %llu, \"expired_bgs\": %llu, "
		"\"unaligned_submits\": %llu },\n", U(r->nr_held), r->sbuf_mean, U(r->sbuf_max),
		U(r->nr_expired), U(r->nr_bg_expired), U(r->nr_submit_unaligned));
	fprintf(f, "  \"device\": { \"write_errors\": %llu, \"last_error\": \"%s\", "
		"\"read_errors\": %llu, \"zone_resets\": %llu,\n", U(r->nr_dev_errors),
		r->last_dev_error ? fsc_errname(r->last_dev_error) : "none", U(r->nr_read_errors),
		U(r->nr_zone_resets));
	fprintf(f, "    \"writes\": %llu, \"write_bytes\": %llu, \"reads\": %llu, "
		"\"read_bytes\": %llu, \"store_writes\": %llu, \"faults_fired\": %llu },\n",
		U(r->nr_dev_writes), U(r->dev_write_bytes), U(r->nr_dev_reads), U(r->dev_read_bytes),
		U(r->store_writes), U(r->faults_fired));
	fprintf(f, "  \"block_groups\": { \"created\": %llu, \"removed\": %llu, "
		"\"relocated\": %llu,\n    \"life_ns\": { ", U(r->nr_bg_created),
		U(r->nr_bg_removed), U(r->nr_relocations));
	hist_json(f, &r->bg_life);
	fprintf(f, "\"mean\": %.0f, \"max\": %llu } },\n", r->bg_life_mean_ns,
		U(r->bg_life_max_ns));
	fprintf(f, "  \"bios\": { \"user\": %llu, \"dispatched\": %llu, \"commits\": %llu, "
		"\"redirty\": %llu, \"zeros\": %llu }", U(r->nr_user_bios), U(r->nr_bios),
		U(r->nr_commits), U(r->nr_redirty), U(r->nr_zeros));
	if (c->timing_model)
		fprintf(f, ",\n  \"timing\": { \"timed_commands\": %llu, \"zone_op_ns\": %llu, "
			"\"commit_flushes\": %llu, \"commit_flush_ns\": %llu }",
			U(r->nr_timed_cmds), U(r->zone_op_ns), U(r->nr_commit_flushes),
			U(r->commit_flush_ns));
	if (fsc_reclaim_on(&c->reclaim)) {
		fprintf(f, ",\n  \"reclaim\": { \"queued\": %llu, \"by_free\": %llu, "
			"\"by_unusable\": %llu, \"passes\": %llu, \"gated\": %llu, \"skipped\": %llu, "
			"\"chunk_zones\": { \"data\": %u, \"metadata\": %u, \"system\": %u }, ",
			U(r->rc_queued), U(r->rc_by_free), U(r->rc_by_unusable), U(r->rc_passes),
			U(r->rc_gated), U(r->rc_skipped), r->chunk_zones[0], r->chunk_zones[1],
			r->chunk_zones[2]);
		if (c->reclaim.mode == FSC_RECLAIM_LINUX_6_12)
			fprintf(f, "\"rechecked\": %llu, \"empty\": %llu, \"sweeps\": %llu, "
				"\"by_sweep\": %llu, \"not_retried\": %llu, ", U(r->rc_rechecked),
				U(r->rc_empty), U(r->rc_sweeps), U(r->rc_by_sweep), U(r->rc_dropped));
		fprintf(f, "\"victims_used_tenths\": [");
		for (k = 0; k < 11; k++)
			fprintf(f, "%s%llu", k ? ", " : "", U(r->rc_victims[k]));
		fprintf(f, "] }");
	}
	if (c->meta_model == FSC_META_BTRFS)
		fprintf(f, ",\n  \"meta_trees\": { \"cow\": { \"file\": %llu, \"extent\": %llu, "
			"\"csum\": %llu, \"root\": %llu, \"data_reloc\": %llu }, \"enospc\": %llu }",
			U(r->bt_cow[0]), U(r->bt_cow[1]), U(r->bt_cow[2]), U(r->bt_cow[3]),
			U(r->bt_cow[4]), U(r->bt_meta_enospc));
	if (c->resv_linux61) {
		fprintf(f, ",\n  \"space_resv\": { \"tickets\": %llu, \"by_delayed_refs\": %llu, "
			"\"chunks_ahead\": %llu, \"commits\": %llu, \"enospc\": %llu, "
			"\"may_use_max\": %llu", U(r->rs_tickets), U(r->rs_by_refs), U(r->rs_chunks),
			U(r->rs_commits), U(r->rs_enospc), U(r->rs_may_use_max));
		if (c->resv_612)  /* the relocations' reservations (fsc_resv_reloc()) */
			fprintf(f, ", \"reloc\": %llu, \"reloc_enospc\": %llu, \"reloc_refills\": %llu, "
				"\"reloc_starts\": %llu", U(r->rs_reloc), U(r->rs_reloc_enospc),
				U(r->rs_reloc_refills), U(r->rs_reloc_starts));
		if (c->resv_73)  /* the zoned cap on the delayed refs reserve */
			fprintf(f, ", \"cap_commits\": %llu, \"cap_deferred\": %llu, \"zone_resets\": %llu",
				U(r->rs_cap_commits), U(r->rs_cap_deferred), U(r->rs_zone_resets));
		fprintf(f, " }");
	}
	if (r->replay)
		replay_json(f, c, r);
	if (c->fail_dev != SIM_NO_DEV)
		fail_json(f, c, r);
	fprintf(f, "\n}\n");
}
