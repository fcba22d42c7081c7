/*
 * sim_acct.c — what a run measures and reports: the start of the measured
 * window (fs-core's counters snapshotted), the time-series and
 * zone-condition CSV rows, the file and the analytic WA oracles at its
 * utilization, and at the end fs-core's counters over the window into
 * struct sim_result.  It moves no bio and decides nothing; the JSON of a
 * result is sim_out.c's.
 */
#include <string.h>

#include "sim_run.h"

void sim_acct_snapshot(struct sim *s)
{
	const struct fsc_stats *st = fsc_stats(s->fs);

	s->measuring = true;
	s->t_meas_ns = s->now;
	s->snap_user = st->user_bytes;
	memcpy(s->snap_dev, st->dev_bytes, sizeof(s->snap_dev));
	s->snap_finish = st->finish_waste_bytes;
}

/* The utilization of the file over the usable capacity, and the oracles at it. */
void sim_acct_workload(struct sim *s)
{
	const struct sim_cfg *c = s->cfg;
	struct sim_result *res = s->res;
	double zones = sim_usable_data_zones(c), np = (double)(c->zone_bytes / SIM_BLOCK), u;

	res->file_blocks = s->wl.file_blocks;
	u = res->util_effective = (double)s->wl.file_blocks / (zones * np);
	res->oracle_fifo = ana_wa_fifo(u);
	res->oracle_greedy = ana_wa_greedy(u, np);
	if (c->workload == SIM_WL_HOTCOLD && !c->trace) {
		res->oracle_hc_fifo = ana_wa_hotcold_fifo(u, c->hot_r, c->hot_f);
		res->oracle_hc_greedy = ana_wa_hotcold_greedy(u, c->hot_r, c->hot_f, np);
		res->oracle_twolog = ana_wa_twolog(u, c->hot_r, c->hot_f, np);
	}
}

void sim_acct_csv_headers(struct sim *s)
{
	const struct sim_cfg *c = s->cfg;

	if (c->csv)
		fprintf(c->csv, "t_ns,user_bytes,dev_bytes,reloc_bytes,meta_bytes,sbuf_now,"
			"free_zones,zone_resets,expired,dev_errors,read_errors\n");
	if (c->zone_csv) {
		struct zblk_zone z[128];
		uint64_t pos = 0;
		uint32_t nr = 0;
		int n;

		fprintf(c->zone_csv, "t_ns");
		while ((n = zblk_report(s->devs.blk[0], pos, z, 128)) > 0) {
			for (int k = 0; k < n; k++)
				fprintf(c->zone_csv, ",z%u", nr++);
			pos = z[n - 1].start_bytes + z[n - 1].len_bytes;
		}
		fputc('\n', c->zone_csv);
	}
}

/* One row of the zone-condition CSV: the time, then each zone of device 0. */
static void sample_zones(struct sim *s)
{
	struct zblk_zone z[128];
	uint64_t pos = 0;
	int n;

	fprintf(s->cfg->zone_csv, "%llu", (unsigned long long)s->now);
	while ((n = zblk_report(s->devs.blk[0], pos, z, 128)) > 0) {
		for (int i = 0; i < n; i++)
			fprintf(s->cfg->zone_csv, ",%u", z[i].cond);
		pos = z[n - 1].start_bytes + z[n - 1].len_bytes;
	}
	fputc('\n', s->cfg->zone_csv);
}

/* One CSV row (the columns are documented in docs/SIM.md). */
void sim_acct_sample(struct sim *s)
{
	const struct fsc_stats *st = fsc_stats(s->fs);
	uint64_t dev = 0;
	uint32_t k;

	if (s->cfg->zone_csv)
		sample_zones(s);
	if (!s->cfg->csv)
		return;

	for (k = 0; k < FSC_NR_KINDS; k++)
		dev += st->dev_bytes[k];
	fprintf(s->cfg->csv, "%llu,%llu,%llu,%llu,%llu,%llu,%u,%llu,%llu,%llu,%llu\n",
		(unsigned long long)s->now, (unsigned long long)st->user_bytes,
		(unsigned long long)dev, (unsigned long long)st->dev_bytes[FSC_KIND_RELOC],
		(unsigned long long)st->dev_bytes[FSC_KIND_META],
		(unsigned long long)st->sbuf_now, fsc_min_free_zones(s->fs),
		(unsigned long long)st->nr_zone_resets, (unsigned long long)st->nr_expired,
		(unsigned long long)st->nr_dev_errors, (unsigned long long)s->res->nr_read_errors);
}

void sim_acct_results(struct sim *s)
{
	const struct sim_cfg *c = s->cfg;
	const struct fsc_stats *st = fsc_stats(s->fs);
	struct sim_result *res = s->res;
	uint64_t dev = 0;
	uint32_t k;

	res->error = s->err;
	res->t_end_ns = s->now;
	res->user_bytes = st->user_bytes - s->snap_user;
	for (k = 0; k < FSC_NR_KINDS; k++) {
		res->dev_bytes[k] = st->dev_bytes[k] - s->snap_dev[k];
		dev += res->dev_bytes[k];
	}
	if (res->user_bytes) {
		res->wa = (double)dev / (double)res->user_bytes;
		res->wa_data = (double)(res->dev_bytes[FSC_KIND_USER] +
					res->dev_bytes[FSC_KIND_RELOC]) /
			       (double)res->user_bytes / sim_profile_copies(c->data_profile);
	}
	res->sbuf_mean = s->now > s->t_meas_ns ?
			 s->sbuf_area / (double)(s->now - s->t_meas_ns) : 0;
	res->sbuf_max = st->sbuf_max;
	res->nr_user_bios = s->issued;
	res->nr_bios = st->nr_bios_dispatched;
	res->nr_held = st->nr_held;
	res->nr_expired = st->nr_expired;
	res->nr_bg_expired = st->nr_bg_expired;
	res->nr_submit_unaligned = st->nr_submit_unaligned;
	res->nr_dev_errors = st->nr_dev_errors;
	res->last_dev_error = st->last_dev_error;
	res->nr_zone_resets = st->nr_zone_resets;
	res->nr_bg_created = st->nr_bg_created;
	res->nr_bg_removed = st->nr_bg_removed;
	res->nr_relocations = st->nr_relocations;
	res->rc_queued = st->nr_reclaim_queued;
	res->rc_by_free = st->nr_reclaim_by_free;
	res->rc_by_unusable = st->nr_reclaim_by_unusable;
	res->rc_passes = st->nr_reclaim_passes;
	res->rc_gated = st->nr_reclaim_gated;
	res->rc_skipped = st->nr_reclaim_skipped;
	res->rc_rechecked = st->nr_reclaim_rechecked;
	res->rc_empty = st->nr_reclaim_empty;
	res->rc_sweeps = st->nr_reclaim_sweeps;
	res->rc_by_sweep = st->nr_reclaim_by_sweep;
	res->rc_dropped = st->nr_reclaim_dropped;
	memcpy(res->bt_cow, st->nr_cow, sizeof(res->bt_cow));
	res->bt_meta_enospc = st->nr_meta_enospc;
	res->rs_tickets = st->nr_resv_tickets;
	res->rs_by_refs = st->nr_resv_by_refs;
	res->rs_chunks = st->nr_resv_chunks;
	res->rs_commits = st->nr_resv_commits;
	res->rs_enospc = st->nr_resv_enospc;
	res->rs_may_use_max = st->resv_may_use_max;
	res->rs_reloc = st->nr_resv_reloc;
	res->rs_reloc_enospc = st->nr_resv_reloc_enospc;
	res->rs_reloc_refills = st->nr_resv_reloc_refills;
	res->rs_cap_commits = st->nr_resv_cap_commits;
	res->rs_cap_deferred = st->nr_resv_cap_deferred;
	res->rs_zone_resets = st->nr_resv_zone_resets;
	res->rs_reloc_starts = st->nr_resv_reloc_starts;
	res->chunk_zones[0] = fsc_chunk_zones(s->fs, FSC_BG_DATA);
	res->chunk_zones[1] = fsc_chunk_zones(s->fs, FSC_BG_META);
	res->chunk_zones[2] = fsc_chunk_zones(s->fs, FSC_BG_SYSTEM);
	res->nr_commits = st->nr_commits;
	res->finish_waste_bytes = st->finish_waste_bytes - s->snap_finish;
	res->nr_zone_finishes = st->nr_zone_finishes;
	res->active_max = st->active_max;
	res->nr_redirty = st->nr_redirty;
	res->nr_zeros = st->nr_zeros;
	res->bg_life_mean_ns = st->nr_bg_removed ?
			       (double)st->bg_life_ns_sum / (double)st->nr_bg_removed : 0;
	res->bg_life_max_ns = st->bg_life_ns_max;
}
