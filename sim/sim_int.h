/*
 * sim_int.h — private to the simulator's files: what a run is set up from.
 * The configuration's derived numbers (sim_cfg.c), the devices of one run
 * and the backend a configuration selects (sim_dev.c).  Not an interface;
 * the state of a running simulation is in sim_run.h, the workload sources
 * in sim_wl.h.
 */
#ifndef SIM_INT_H
#define SIM_INT_H

#include "sim.h"

struct zdev;
struct zdisk;

/* The simulator's block: file blocks, bios and the trace map count 4 KiB. */
#define SIM_BLOCK 4096u

/* ---- the configuration (sim_cfg.c) ---- */

/* sim_profile_copies() - copies of each byte that profile @p keeps. */
uint32_t sim_profile_copies(enum fsc_profile p);

/*
 * sim_usable_data_zones() - data zones cleaning can use with @c's geometry:
 * zones less superblock zones, the first zone, the reserve, the open zone
 * and a metadata estimate, per data copy.  May be below 1.
 */
double sim_usable_data_zones(const struct sim_cfg *c);

/* ---- the devices (sim_dev.c) ---- */

/* Devices a run opens: the array, and with --fail-dev the new device
 * (the spare, index nr_devs) the rebuild writes. */
static inline uint32_t sim_nr_open_devs(const struct sim_cfg *c)
{
	return c->nr_devs + (c->fail_dev != SIM_NO_DEV);
}

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

#endif /* SIM_INT_H */
