/*
 * sim_wl.h — private to the simulator: where a run's workload comes from.
 * Two sources behind one ops struct: the generators of traces/trc_gen.c
 * (sim_gen.c) and the replay of a trace (sim_replay.c).  A source sizes
 * the file, counts the requests (which of them are warm-up) and opens the
 * trc_source the run reads records from; the run (sim_run.c) calls it only
 * through these ops and never asks which one it has.  A source does not
 * see the running simulation: it knows the configuration and the result.
 */
#ifndef SIM_WL_H
#define SIM_WL_H

#include "sim_int.h"
#include "trc.h"

struct sim_wl_ops;

/* The workload of one run, as its source planned it. */
struct sim_wl {
	const struct sim_wl_ops *ops;
	struct trc_map *map;          /* owned (replay): the trace's block map */
	uint64_t file_blocks;         /* the file, in 4 KiB blocks */
	uint64_t warm_reqs;           /* requests before the measured window */
	uint64_t total_reqs;          /* every request of the run */
	uint32_t max_bio_blocks;      /* largest user bio (a trace write is cut) */
};

struct sim_wl_ops {
	/*
	 * scan() - what sizing needs, before any device (replay: the pre-pass
	 * over the trace, its description in @res).  0, or an error with its
	 * message in res->msg.  NULL: nothing to read.
	 */
	int (*scan)(struct sim_wl *w, const struct sim_cfg *c, struct sim_result *res);
	/*
	 * size() - w->file_blocks from the geometry in @c.  Called once the
	 * geometry is known: before the devices, or after them when a block
	 * device brings its own.  With nr_zones 0 (replay, no blkdev) it
	 * derives the zone count into @c.  0, or -EINVAL with the options
	 * named in @msg.
	 */
	int (*size)(struct sim_wl *w, struct sim_cfg *c, char *msg, size_t msg_len);
	/*
	 * open() - the request counts in @w and a new source in *@src (caller
	 * owns: trc_source_destroy()).  0, or an error with res->msg set.
	 */
	int (*open)(struct sim_wl *w, const struct sim_cfg *c, struct sim_result *res,
		    struct trc_source **src);
	/* fini() - free what the source kept in @w, after its trc_source.  NULL: nothing. */
	void (*fini)(struct sim_wl *w);
};

/* The generator of --workload (sim_gen.c). */
extern const struct sim_wl_ops sim_wl_gen;
/* The replay of --trace (sim_replay.c). */
extern const struct sim_wl_ops sim_wl_replay;

#endif /* SIM_WL_H */
