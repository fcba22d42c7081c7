/*
 * sim_int.h — private to the simulator's files: the devices of one run
 * (sim_dev.c) and the backend a configuration selects.  Not an interface.
 */
#ifndef SIM_INT_H
#define SIM_INT_H

#include "sim.h"

struct zdev;
struct zdisk;

enum sim_backend { SIM_BACKEND_ZDEV = 0, SIM_BACKEND_ZDISK, SIM_BACKEND_BLKDEV };

struct sim_devs {
	enum sim_backend backend;
	struct zblk *blk[FSC_MAX_DEVS];    /* owned */
	struct zdev *zd[FSC_MAX_DEVS];     /* owned (zdev backend) */
	struct zdisk *disk[FSC_MAX_DEVS];  /* owned (zdisk backend) */
};

enum sim_backend sim_backend_of(const struct sim_cfg *c);
const char *sim_backend_name(enum sim_backend b);

/*
 * sim_devs_geometry_check() - whether the devices @c describes (--zones,
 * --zone-size, --conv; zone size a positive multiple of 4 KiB) can be built
 * by the zone model.  Returns 0, or -EINVAL with the options and the zone
 * model's reason in @msg.
 */
int sim_devs_geometry_check(const struct sim_cfg *c, char *msg, size_t msg_len);

/*
 * sim_devs_open() - the devices of a run.  For a block device, @c's zone
 * size, zone count and conventional zones are replaced by the device's.
 * Returns 0 or an error with a message in @msg; sim_devs_close() in any case.
 */
int sim_devs_open(struct sim_cfg *c, struct sim_devs *d, char *msg, size_t msg_len);
/* Close everything; adds device counters (and zdisk statistics) to @res. */
void sim_devs_close(struct sim_devs *d, struct sim_result *res);

/*
 * sim_usable_data_zones() - data zones cleaning can use with @c's geometry
 * (sim.c): zones less superblock zones, the first zone, the reserve, the
 * open zone and a metadata estimate, per data copy.  May be below 1.
 */
double sim_usable_data_zones(const struct sim_cfg *c);

/* ---- trace replay (sim_replay.c) ---- */

/* sim_replay_check() - the replay options of @c alone (sim_cfg_check()). */
int sim_replay_check(const struct sim_cfg *c, char *msg, size_t msg_len);

/*
 * sim_replay_scan() - the pre-pass over @c->trace into a new map
 * (*@map, caller owns: trc_map_destroy()) and the trace's descriptors
 * (trc_stat) in *@desc.  0, or the trace's error with its message (file,
 * record, why) in @msg.
 */
int sim_replay_scan(const struct sim_cfg *c, struct trc_map **map, struct trc_stat_result *desc,
		    char *msg, size_t msg_len);

/*
 * sim_replay_size() - the file for the scanned trace, in *@file_blocks,
 * set in @map: --file-size, else the trace's need (compact: footprint,
 * direct: highest block), else (scale) --util of the usable capacity.
 * With nr_zones 0 (no blkdev), the zone count is derived here (the
 * smallest with file <= util x usable capacity) and written into @c.
 * Returns 0, or -EINVAL with the options named in @msg (a file smaller than
 * the trace needs, a file that does not fit the zones).
 */
int sim_replay_size(struct sim_cfg *c, struct trc_map *map, uint64_t *file_blocks, char *msg,
		    size_t msg_len);

#endif /* SIM_INT_H */
