/*
 * sim.h — the deterministic discrete-event simulator that drives fs-core in
 * virtual time (ns) over in-process zone models (data-less by default; or
 * emulated disks that store bytes and inject faults; or one Linux zoned
 * block device), and its metrics.  Same configuration and seed => byte-identical JSON.  No wall
 * clock, no rand().  The engine pieces (event heap, distributions) are
 * exposed for tests; histograms and oracles come from analysis/ana.h.
 */
#ifndef SIM_H
#define SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ana.h"
#include "fsc.h"
#include "trc_map.h"
#include "zl_rng.h"

/* ---- engine pieces (sim_engine.c) ---- */

/* Random numbers: common/zl_rng.h (xoshiro256**, shared with zfault). */

enum sim_dist { SIM_DIST_CONST = 0, SIM_DIST_EXP, SIM_DIST_PARETO };
/* A service time in ns with mean @mean_ns (Pareto: shape @alpha > 1). */
uint64_t sim_dist_draw(struct zl_rng *r, enum sim_dist d, uint64_t mean_ns, double alpha);

struct sim_event {
	uint64_t t_ns;
	uint64_t seq;      /* insertion order: ties are deterministic */
	uint32_t type;
	uint32_t arg;
	void *ptr;
};

struct sim_heap {
	struct sim_event *v;
	uint32_t nr, cap;
	uint64_t seq;
};
int sim_heap_push(struct sim_heap *h, uint64_t t_ns, uint32_t type, uint32_t arg, void *ptr);
bool sim_heap_pop(struct sim_heap *h, struct sim_event *out);
void sim_heap_fini(struct sim_heap *h);

/* Histograms and the WA oracles: analysis/ana.h. */

/* ---- the simulation (sim_cfg.c: configuration; sim_run.c: the run) ---- */

enum sim_workload { SIM_WL_SEQ = 0, SIM_WL_UNIFORM, SIM_WL_HOTCOLD, SIM_WL_ZIPF };

/* Where the bytes go: none = data-less zone models (or, with fault rules, a
 * zdisk with the NONE store), mem / file = a zdisk with that store. */
enum sim_store { SIM_STORE_NONE = 0, SIM_STORE_MEM, SIM_STORE_FILE };

/*
 * How enum values are spelled on the command line and in the JSON output
 * (sim_out.c): indexed by value, NULL-terminated.
 */
extern const char *const sim_profile_names[];   /* enum fsc_profile */
extern const char *const sim_order_names[];     /* enum fsc_order */
extern const char *const sim_meta_model_names[]; /* enum fsc_meta_model */
extern const char *const sim_space_resv_names[];  /* none, linux-6.1, linux-6.12, linux-7.3 */
/* The --space-resv name of @c's mode (with resv_linux61 set). */
#define sim_space_resv_name(c) \
	(sim_space_resv_names[(c)->resv_73 ? 3 : (c)->resv_612 ? 2 : 1])
extern const char *const sim_release_names[];   /* enum fsc_release */
#define sim_clean_names fsc_clean_names          /* enum fsc_clean_policy (fs-core's table) */
extern const char *const sim_dist_names[];      /* enum sim_dist */
extern const char *const sim_workload_names[];  /* enum sim_workload */
extern const char *const sim_store_names[];     /* enum sim_store ("file" takes :PATH) */
/* Trace replay timing: closed loop at --qd, or at the trace's timestamps. */
enum sim_timing { SIM_TIMING_CLOSED = 0, SIM_TIMING_TIMED };
extern const char *const sim_timing_names[];    /* enum sim_timing */
/* sim_cfg.dev_error_abort: [0] = true, [1] = false */
extern const char *const sim_on_dev_error_names[];
/* sim_name_parse() - the value @names spells @s, or -EINVAL. */
int sim_name_parse(const char *const *names, const char *s);
/* sim_name_of() - how @names spells value @v, or NULL when @v is not one. */
const char *sim_name_of(const char *const *names, int v);

/* Rebuild priority (--rebuild-prio): who goes first when a drive has both
 * kinds of command waiting (the extent model, sim_rebuild.c), or how the
 * fs-core rebuild of a run is paced (sim_fail.c, docs/SIM.md). */
enum sim_rb_prio { SIM_RB_IDLE = 0, SIM_RB_SHARE };
/* --rebuild-depth of a failure run: batches of the copy in flight at most */
#define SIM_RB_DEPTH_MAX 16u

#define SIM_NO_DEV UINT32_MAX

struct sim_cfg {
	uint64_t seed;
	/* devices */
	uint32_t nr_devs;
	uint64_t zone_bytes;
	uint32_t nr_zones;          /* per device */
	uint32_t nr_conv;           /* conventional zones at the start of each device */
	uint64_t dev_cmd_ns;        /* per-command overhead */
	uint64_t dev_bw_bps;        /* sequential bandwidth per device, bytes/s (0 = infinite) */
	uint64_t zone_switch_ns;    /* penalty when a device moves to another zone */
	const char *timing_model;   /* --timing-model PRESET[,k=v] (docs/TIMING.md): each
				     * device times its commands on emulator/ztime instead
				     * of the three figures above; NULL = those */
	enum sim_store store;
	const char *store_path;     /* SIM_STORE_FILE: image (device i of several: PATH.i) */
	const char *faults;         /* zfault rules for every device (docs/FAULTS.md), or NULL */
	const char *blkdev;         /* run on this Linux zoned block device instead, or NULL */
	bool dev_error_abort;       /* a device error ends the run with its reason */
	bool reloc_reads;           /* relocation reads its source (device time, read faults) */
	bool no_prefetch;           /* no record read-ahead and prefetch hints (tests: a
				     * run is the same either way, only slower at scale) */
	/* fs-core */
	enum fsc_profile data_profile, meta_profile;
	enum fsc_order order;
	enum fsc_release release;
	uint64_t expire_ns;
	bool metadata;              /* B-tree model on */
	uint32_t tree_fanout, leaf_items;
	double release_prob;        /* chance a write releases its leaf (split/merge) */
	uint64_t commit_interval_ns;
	uint64_t commit_bytes;      /* 0 = timer only */
	/* reordering */
	uint32_t nr_workers;        /* 0 = none: bios go straight to submission */
	enum sim_dist worker_dist;
	uint64_t worker_mean_ns;
	double pareto_alpha;
	/* workload */
	enum sim_workload workload;
	double util;                /* live data / usable data capacity */
	uint32_t bio_blocks;        /* 4 KiB blocks per user write */
	double hot_r, hot_f;        /* r of the writes go to f of the space */
	double zipf_theta;          /* zipf: P(block rank k) ~ 1 / k^theta */
	uint32_t qd;                /* user writes in flight */
	uint64_t warmup_writes;     /* after the fill; not measured */
	uint64_t writes;            /* measured user writes */
	/* trace replay (docs/SIM.md, "Replay"): a trace instead of the generator */
	const struct trc_input *trace;  /* borrowed; NULL = the generator of workload */
	enum trc_map_mode map;
	uint64_t file_bytes;        /* 0 = the trace's need (compact, direct) or util (scale) */
	enum sim_timing timing;     /* closed: qd requests in flight; timed: at ts / speed */
	double speed;               /* timed: a record arrives at ts_ns / speed */
	uint32_t loops;             /* passes over the trace: the last is measured */
	/* nr_zones 0 with a trace (no blkdev): derived, so that file = util x usable */
	/* cleaning */
	enum fsc_clean_policy clean;
	struct fsc_clean_params clean_params;  /* fsc_clean_parse(): --clean NAME[:params] */
	enum fsc_placement place;   /* --placement: which data log a write goes to */
	struct fsc_place_params place_params;
	uint32_t max_open, max_active;  /* the zone model's limits (0 = none); fs-core keeps
					 * under max_active by finishing zones */
	uint32_t reserve_zones;     /* clean when free zones drop below this */
	struct fsc_reclaim_cfg reclaim; /* --reclaim: reserve (above), linux-6.1 or linux-6.12 */
	enum fsc_meta_model meta_model; /* --meta-model file|btrfs (fs-core's fsc_btree.c) */
	uint64_t extent_bytes;      /* --extent-size: a data extent, for the btrfs model */
	uint64_t buffered_bytes;    /* --buffered MAX_EXTENT: writes dirty the page cache,
				     * a flush writes them back in file order, extents of
				     * at most this, freed whole (fs-core's fsc_extent.c);
				     * 0 = direct writes */
	bool resv_linux61;          /* --space-resv linux-6.1 (fs-core's fsc_resv.c) */
	bool resv_612;              /* --space-resv linux-6.12: with 6.12's overcommit */
	bool resv_73;               /* --space-resv linux-7.3: 6.12's with 7.3's overcommit
				     * and zoned delayed refs cap (fs-core's cfg.resv_73) */
	bool raid56_model;          /* --raid56-model: HYPOTHETICAL RAID5/6 data (fs-core's
				     * cfg.raid56_model); off: --profile raid5|raid6 gets
				     * the HMZONED refusal, as every zoned kernel */
	/* a device failure and fs-core's rebuild during the run (sim_fail.c,
	 * docs/SIM.md "Device failure and rebuild") */
	uint32_t fail_dev;          /* --fail-dev: this device fails; SIM_NO_DEV = none */
	uint64_t fail_at_bytes;     /* --fail-at-write: when fs-core's user bytes reach this */
	enum sim_rb_prio rb_prio;   /* --rebuild-prio idle|share:X */
	double rb_share;            /* share: (0, 1] of the elapsed time */
	uint64_t rb_step_bytes;     /* source space walked per rebuild batch (8 MiB: the
				     * kernel's scrub, SCRUB_TOTAL_STRIPES x BTRFS_STRIPE_LEN) */
	uint32_t rb_depth;          /* --rebuild-depth: batches in flight (1: the kernel) */
	uint32_t fail2_dev;         /* --fail2-dev: fails during the rebuild; SIM_NO_DEV = none */
	uint64_t fail2_at_bytes;    /* --fail2-at: when the rebuild has walked this much */
	uint32_t fail3_dev;         /* --fail3-dev: fails with the second (RAID6); SIM_NO_DEV */
	uint64_t max_events;        /* a watchdog (tests): the run ends with -ETIMEDOUT
				     * after this many events; 0 = none */
	/* output */
	uint64_t sample_ns;         /* CSV time-series period */
	FILE *csv;                  /* borrowed, may be NULL */
	FILE *zone_csv;             /* borrowed, may be NULL: device 0's zone conditions
				     * (enum zl_zone_cond) at each sample */
	bool progress;              /* progress line on stderr */
};

void sim_cfg_init(struct sim_cfg *cfg);

/**
 * sim_cfg_check() - the parameters sim_run() refuses, checked before any
 * device is opened.  Returns 0, or -EINVAL with what, which value and why
 * in @msg (the command-line option named).
 */
int sim_cfg_check(const struct sim_cfg *cfg, char *msg, size_t msg_len);

/* The failure and rebuild of a run (--fail-dev; sim_fail.c). */
struct sim_fail_result {
	bool failed;                /* the device failed */
	bool started, finished;     /* the rebuild started / the new device took the slot */
	bool fail2;                 /* the second device failed (during the rebuild) */
	uint32_t dev, dev2;
	uint64_t fail_ns;           /* virtual time of the failure (the rebuild starts) */
	uint64_t start_ns, end_ns;  /* the rebuild: start, the last step's last write */
	uint64_t fail2_ns;
	uint64_t alloc_bytes;       /* fs-core's allocated bytes of the failed device at the
				     * start (the walk also copies what degraded writes add
				     * to block groups not walked yet: walked >= this) */
	uint64_t alloc_end_bytes;   /* at the end: the failed device's allocated space, as
				     * its mirrors' write pointers show it */
	uint64_t tgt_used_bytes;    /* at the end: the new device's zones, written bytes
				     * (below the write pointers) */
	uint64_t walked_bytes, copied_bytes, zero_bytes, dup_bytes, read_bytes;
	uint64_t tgt_write_bytes;   /* everything the new device got (copy, zeroes, dup) */
	uint64_t nr_steps;          /* fsc_replace_step() calls */
	uint64_t nr_batches;        /* batches dispatched (rb_step_bytes each at most) */
	uint64_t lost_bytes, lost_blocks;  /* live data with no surviving copy */
	uint64_t r56_rebuilt_bytes; /* RAID5/6: bytes computed from N-1 / N-2 stripes */
	bool verified;              /* the data check ran (on the new device) */
	struct fsc_verify verify;
	int verify_ret;
	struct ana_hist lat_before, lat_during;  /* user write requests arriving before the
						  * failure / during the rebuild, ns */
};

/* Ops with a latency histogram in sim_result.req_lat: enum trc_op 0..3. */
#define SIM_NR_LAT_OPS (TRC_OP_DISCARD + 1)

struct sim_result {
	int error;                  /* 0 or what stopped the run */
	char msg[256];              /* why, when setup failed (bad fault rule, device) */
	uint64_t zone_bytes;        /* geometry used (a block device's own) */
	uint32_t nr_zones, nr_conv;
	uint64_t t_end_ns;
	uint64_t nr_events;
	uint64_t file_blocks;
	double util_effective;
	uint64_t user_bytes, dev_bytes[FSC_NR_KINDS];  /* measured window */
	double wa, wa_data;
	double oracle_fifo, oracle_greedy;
	double oracle_hc_fifo, oracle_hc_greedy, oracle_twolog;  /* hotcold workload */
	struct ana_hist reorder;    /* ns a bio waited between ready and dispatch */
	double sbuf_mean;           /* time-weighted over the measured window */
	uint64_t sbuf_max;
	uint64_t nr_user_bios, nr_bios;
	uint64_t nr_held, nr_expired, nr_bg_expired, nr_submit_unaligned;
	uint64_t nr_dev_errors;     /* writes and zone ops refused (fs-core) */
	int last_dev_error;
	uint64_t nr_read_errors;    /* relocation reads that failed */
	uint64_t nr_dev_writes, dev_write_bytes;  /* accepted by the devices (zblk) */
	uint64_t nr_dev_reads, dev_read_bytes;
	uint64_t store_writes;      /* zdisk backend: writes its statistics count */
	uint64_t faults_fired;      /* zdisk backend: fault verdicts acted on */
	uint64_t nr_zone_resets, nr_bg_created, nr_bg_removed, nr_relocations, nr_commits;
	/* --reclaim linux-6.1/6.12: fs-core's reclaim counters (struct fsc_stats), and
	 * the victims by used % at their pick, in tenths (100% in the last) */
	uint64_t rc_queued, rc_by_free, rc_by_unusable, rc_passes, rc_gated, rc_skipped;
	uint64_t rc_rechecked, rc_empty, rc_sweeps, rc_by_sweep, rc_dropped; /* linux-6.12 */
	uint64_t rc_victims[11];
	/* --meta-model btrfs: tree blocks CoW'd per tree (file, extent, csum,
	 * root, data relocation), tree block allocations that failed */
	uint64_t bt_cow[5], bt_meta_enospc;
	/* --space-resv linux-6.1: fs-core's reservation counters (struct fsc_stats) */
	uint64_t rs_tickets, rs_by_refs, rs_chunks, rs_commits, rs_enospc, rs_may_use_max;
	uint64_t rs_reloc, rs_reloc_enospc; /* --space-resv linux-6.12: relocations' reservations */
	uint64_t rs_reloc_refills;          /* ... their transaction starts' delayed refs refills */
	uint64_t rs_cap_commits, rs_cap_deferred; /* linux-7.3: the zoned cap's commits, deferrals */
	uint64_t rs_zone_resets;  /* linux-7.3: RESET_ZONES's block groups reset for reuse */
	uint64_t rs_reloc_starts;           /* ... their prealloc's transaction starts */
	uint32_t chunk_zones[3];    /* at the end: zones in data, metadata, system chunks */
	uint64_t finish_waste_bytes;  /* measured window: capacity finishes left unwritten */
	uint64_t nr_zone_finishes;    /* whole run */
	uint32_t active_max;          /* most active zones fs-core held on one device */
	uint64_t nr_redirty, nr_zeros;
	/* --timing-model: commands the model timed, device time zone ops took,
	 * the commits' cache flushes (one per device) and the time commits
	 * waited for them */
	uint64_t nr_timed_cmds, zone_op_ns, nr_commit_flushes, commit_flush_ns;
	double bg_life_mean_ns;
	uint64_t bg_life_max_ns;
	struct ana_hist bg_life;    /* ns from creation to reset, every removed block group */
	/* requests (every run; a generator's write is one request) */
	uint64_t req_nr[TRC_NR_OPS];    /* measured window, per op */
	uint64_t req_bytes[TRC_NR_OPS]; /* their bytes, mapped (widened to 4 KiB) */
	struct ana_hist req_lat[SIM_NR_LAT_OPS];  /* read, write, flush, discard: ns from
						   * arrival to completion, measured window */
	/* trace replay (whole run unless said) */
	bool replay;
	struct trc_map_desc trace;      /* one pass of the trace, from the pre-pass */
	struct trc_stat_result trace_stat;  /* its descriptors (trace stat's) */
	uint32_t loops_warmup;          /* passes before the measured one */
	uint64_t nr_user_reads, user_read_bytes;  /* device reads that user reads took */
	uint64_t nr_user_read_errors;   /* of which the device refused */
	uint64_t read_blocks_pending;   /* blocks read while on their way to the device */
	uint64_t read_blocks_hole;      /* blocks read that held no data */
	uint64_t discarded_blocks;      /* blocks a discard freed (they held data) */
	uint64_t nr_flush_commits;      /* flushes that waited for a commit */
	uint64_t nr_ignored;            /* zone ops and others: counted, not executed */
	struct sim_fail_result fail;    /* --fail-dev */
};

/**
 * sim_run() - one simulation.  @res is filled even on error (res->error).
 * Returns 0 or the error (-EINVAL for a bad configuration, fs-core errors).
 * A run refused before it started says why in res->msg (configuration,
 * geometry, fault rules, store, block device).
 */
int sim_run(const struct sim_cfg *cfg, struct sim_result *res);

/* ---- the timing model's microbenchmarks (sim_tbench.c) ---- */

struct ztime_params;

/* One line of the table: what the model does, beside the published figure. */
struct sim_tbench_row {
	char name[64];
	const char *unit;           /* IOPS, MB/s (10^6 bytes/s), ms */
	double value;               /* measured on the model, in virtual time */
	double published;           /* the preset's figure (docs/TIMING.md), 0 = none */
	const char *source;         /* where it comes from, NULL = none */
};
#define SIM_TBENCH_MAX 24

/**
 * sim_tbench() - the microbenchmarks of a drive with figures @p, seeded by
 * @seed (deterministic: same figures and seed, same table), into @rows
 * (up to @max; *@nr set).  HDD: QD1 and QD32 (FIFO, SPTF) 4 KiB random
 * read IOPS, 1 MiB sequential read and write MB/s at the outer and inner
 * diameter, zone reset / finish, flush and implicit-open costs; flash:
 * sequential write and read, random read IOPS, reset, finish, flush.
 * Returns 0, or -EINVAL with why in @msg (a drive too small for the jobs).
 */
int sim_tbench(const struct ztime_params *p, uint64_t seed, struct sim_tbench_row *rows,
	       uint32_t max, uint32_t *nr, char *msg, size_t msg_len);

struct ztime_geo;

/**
 * sim_tbench_geo() - sim_tbench() on the disk of geometry @geo (NULL: as
 * big as the drive), e.g. the one a measurement ran on: the random reads
 * span the whole disk, the sequential jobs stream its first zone (OD) and
 * its last (ID), up to 4 GiB (flash 1 GiB) each.  -EINVAL with why in @msg
 * for fewer than 2 zones, zones under 1 MiB, or a disk the drive cannot
 * hold (ztime_create()'s reason).
 */
int sim_tbench_geo(const struct ztime_params *p, const struct ztime_geo *geo, uint64_t seed,
		   struct sim_tbench_row *rows, uint32_t max, uint32_t *nr, char *msg,
		   size_t msg_len);

/**
 * sim_tbench_sptf_by_qd() - HDD: the table's SPTF job (4000 4 KiB random
 * reads, a closed loop) at queue depths 1 .. @max_qd into @iops[0 ..
 * @max_qd - 1], on the disk sim_tbench_geo() uses for @geo, each on the
 * stream the table's SPTF row uses (so at the preset's qd it is that row):
 * the model's SPTF at the depth a measurement's queue actually had (the
 * handler's `ctl stats` sptf_candidates / sptf_choices + 1; docs/TIMING.md
 * "Validation").  -EINVAL with why in @msg as sim_tbench_geo(), or for flash.
 */
int sim_tbench_sptf_by_qd(const struct ztime_params *p, const struct ztime_geo *geo,
			  uint64_t seed, uint32_t max_qd, double *iops, char *msg, size_t msg_len);

/* ---- the rebuild model (sim_rebuild.c, docs/REBUILD.md) ---- */

/*
 * An extent-level model of rebuilding one failed drive of a host-managed SMR
 * array after it is replaced: block groups of one zone per device stripe as
 * zoned btrfs lays them out, every rebuild and foreground command timed on
 * one struct ztime per drive in virtual time.  RAID6 is HYPOTHETICAL (zoned
 * btrfs has no RAID5/6): full-stripe writes, rotating parity.
 */
enum sim_rb_profile { SIM_RB_RAID1 = 0, SIM_RB_RAID10, SIM_RB_RAID6 };
extern const char *const sim_rb_profile_names[];   /* raid1 raid10 raid6 */
/* The foreground is declared saturated when the array took in less than
 * this fraction of its arrivals in a phase (docs/REBUILD.md). */
#define SIM_RB_SATURATED 0.999

struct sim_rb_cfg {
	enum sim_rb_profile profile;
	uint32_t nr_devs;           /* drives in the array (RAID10: even, >= 4; RAID6: >= 4) */
	uint64_t zone_bytes;        /* zone size (btrfs zoned: a device stripe is one zone) */
	uint32_t nr_zones;          /* per drive; 0 = as many as the drive holds */
	const char *timing_model;   /* ztime text; NULL = "hc620" (15 TB) */
	double alloc;               /* fraction of each drive's zones in block groups, (0, 1) */
	double fg_load;             /* foreground: this fraction of the healthy array's
				     * throughput for the mix (docs/REBUILD.md), [0, 0.95] */
	enum sim_rb_prio prio;      /* idle: rebuild only where no foreground waits;
				     * share: rebuild gets at least @share of device time */
	double share;               /* SIM_RB_SHARE: (0, 1) */
	uint64_t io_bytes;          /* one rebuild command (a multiple of 64 KiB, <= zone) */
	uint32_t depth;             /* rebuild chunks in flight (reads ahead of the writes) */
	uint32_t failed;            /* the drive that fails */
	uint64_t before_ns;         /* healthy foreground time before the failure */
	uint64_t max_ns;            /* give up after this much (estimated) time after it */
	uint32_t sample;            /* simulate 1 zone in @sample of the copy, in walk order,
				     * and weigh its time for the zones it stands for
				     * (docs/REBUILD.md); 1 = every zone (exact) */
	uint64_t seed;
};
void sim_rb_cfg_init(struct sim_rb_cfg *c);
/* 0, or -EINVAL with which value, where and why in @msg. */
int sim_rb_cfg_check(const struct sim_rb_cfg *c, char *msg, size_t msg_len);

/* Foreground latency (ns) of array requests that arrived in one phase. */
struct sim_rb_lat {
	uint64_t n;
	uint64_t p50_ns, p99_ns, mean_ns;
};

struct sim_rb_result {
	char timing_model[1024];    /* the canonical text of the drives' model */
	uint64_t zone_bytes, drive_bytes;
	uint32_t nr_zones, alloc_zones;  /* per drive */
	bool finished;              /* the rebuild completed before max_ns */
	double progress;            /* bytes copied / bytes to copy */
	uint64_t rebuild_ns;        /* failure to the last byte on the new drive's media */
	uint64_t copy_bytes;        /* allocated bytes of the failed drive (to copy) */
	uint64_t copied_bytes;      /* of copy_bytes, done (sample > 1: the simulated zones
				     * and the zones they stand for) */
	uint64_t sim_copied_bytes;  /* written to the new drive in the simulation
				     * (sample 1: copied_bytes) */
	uint64_t read_bytes;        /* read from the survivors in the simulation */
	uint64_t max_dev_read_bytes; /* the most one survivor read (in the simulation) */
	uint64_t sim_rebuild_ns;    /* virtual time the simulated rebuild took (sample 1:
				     * rebuild_ns) */
	double lb_write_ns;         /* the new drive writing copy_bytes at its media rate */
	double lb_read_ns;          /* the busiest survivor reading at its media rate */
	double lb_ns;               /* max of the two: no schedule beats it */
	double whole_disk_ns;       /* MD-style: the whole drive at its media rate */
	double fg_offered_per_s;    /* foreground array requests per second */
	double fg_util_before;      /* mean foreground busy fraction of a drive, healthy */
	uint64_t fg_user_write_bytes, fg_dev_write_bytes;  /* healthy phase */
	double wa_fg;               /* fg_dev_write_bytes / fg_user_write_bytes (mirror: 2) */
	struct sim_rb_lat before, during;
	uint64_t fg_completed_during;
	/* the fraction of a phase's arrivals (at the offered rate) the array
	 * had taken in by the phase's end: 1 - how far the open-loop generator
	 * was behind its arrival times / the phase's length.  Below
	 * SIM_RB_SATURATED the foreground asked for more than the array served
	 * (its latency then grows with the length of the run, not a property
	 * of the array) */
	double fg_admitted_before, fg_admitted_during;
	bool fg_saturated;          /* either phase below SIM_RB_SATURATED */
	uint64_t nr_commands;       /* device commands timed */
};

/**
 * sim_rb_run() - the healthy array for before_ns, then drive @failed fails
 * and its replacement is rebuilt from the survivors while the foreground
 * goes on.  Deterministic from the seed.  Returns 0 (also when the rebuild
 * did not finish by max_ns: @res->finished false), -EINVAL with @msg for a
 * bad configuration or model text, -ENOMEM.
 */
int sim_rb_run(const struct sim_rb_cfg *c, struct sim_rb_result *res, char *msg, size_t msg_len);
/* sim_rb_json() - configuration and result as one JSON object on @f. */
void sim_rb_json(FILE *f, const struct sim_rb_cfg *c, const struct sim_rb_result *r);

/* ---- the kernel's replace replayed in fs-core (sim_kreplace.c) ---- */

/* What fs-core's zoned replace of a layout taken from a real zoned btrfs
 * copies (docs/REBUILD.md, "The kernel's replace beside fs-core's"). */
struct sim_kr_result {
	uint32_t src_devid, nr_devs, nr_chunks;
	uint64_t zone_bytes;
	uint32_t src_chunk_zones;     /* the source's zones in chunks */
	uint64_t src_wp_bytes;        /* below the write pointers of those zones */
	uint64_t src_other_wp_bytes;  /* below the others' (the superblock log zones) */
	uint32_t nr_bgs;              /* block groups fs-core's replace copied */
	uint64_t alloc_bytes, copied_bytes, zero_bytes, tgt_write_bytes;  /* fsc_replace_progress */
	uint64_t read_bytes;          /* read from the source */
	uint64_t nr_reads, nr_writes;
	uint64_t tgt_wp_bytes;        /* below the target's write pointers after the copy */
	uint32_t nr_wp_mismatch;      /* chunk zones whose target wp differs from the source's */
	uint64_t verify_blocks, verify_bad;  /* fsc_dev_verify() of the new device */
};

/**
 * sim_kr_run() - read a replace layout from @in (@name for messages; the
 * format is at the top of sim_kreplace.c), mount it in fs-core on data-less
 * zone models, replace device @src_devid (0: the first device line) onto an
 * empty model of it with cfg.replace ZONED, and fill @res.  Returns 0,
 * -EINVAL with file:line and why in @msg (a layout that does not parse, a
 * chunk fs-core refuses to mount, no such device), -EIO, -ENOMEM, or an
 * fs-core error of the replace (@msg names the step).
 */
int sim_kr_run(FILE *in, const char *name, uint32_t src_devid, struct sim_kr_result *res,
	       char *msg, size_t msg_len);
/* sim_kr_json() - @r as one JSON object (one line) on @f. */
void sim_kr_json(FILE *f, const struct sim_kr_result *r);

/* sim_json() - the configuration and result as one JSON object on @f. */
void sim_json(FILE *f, const struct sim_cfg *cfg, const struct sim_result *res);

#endif /* SIM_H */
