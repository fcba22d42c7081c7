/*
 * zdisk.h — an emulated zoned disk: the zone model (zdev), its store
 * (zstore), fault rules (zfault) and statistics, behind one thread-safe
 * handle.  This is what zscsi, zblk and the CLI use.
 *
 * Locking: one mutex guards the zone model; data transfers run outside it.
 * The common read (no fault rules, one zone, all of it written data, one
 * flat buffer on a file or block store) takes no lock: it decides from one
 * atomic load of the zone slot and keeps the decision only if a sequence
 * count, odd while anyone holds the mutex, was even and did not move.
 * Writes to one sequential zone are serialized by a per-zone write lock (as
 * the kernel's zone write locking does), so the write pointer only moves
 * after the bytes were stored, and a failed store never moves it.
 *
 * Durability (the write cache is a device setting, WCE):
 *   WCE off: a write completes after its data and then its zone word were
 *            made durable (fdatasync + msync);
 *   WCE on:  a completed write is in the OS page cache; zdisk_flush() makes
 *            everything completed before it durable.  Zone words of written
 *            zones are stored at flush time.
 * In both modes the stored write pointer never runs ahead of stored data.
 */
#ifndef ZDISK_H
#define ZDISK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "zdev.h"
#include "zstore.h"
#include "zfault.h"
#include "zstats.h"

struct zdisk;

struct zdisk_cfg {
	struct zdev_cfg geo;       /* geometry (ignored when opening an image with use_image_geo) */
	struct zstore_cfg store;
	bool use_image_geo;        /* open: take the geometry from the image */
	bool wce;                  /* write cache enabled */
	uint64_t seed;             /* fault engine seed */
	const char *faults;        /* ';'-separated fault rules, or NULL */
	bool realtime;             /* sleep for injected latency and block on stalls;
				      otherwise report them in zdisk_io (simulation) */
};

/* Per-command outcome details besides the return code. */
struct zdisk_io {
	uint64_t delay_ns;         /* injected latency (already slept when realtime) */
	bool stalled;              /* a stall rule matched (non-realtime: caller decides) */
	/*
	 * LBAs transferred: all of them on success; when a write is torn or a
	 * command meets a medium error, the LBAs before the first one that
	 * failed (a read transferred them, a write stored and committed them:
	 * lba + done_lba is the failing LBA); 0 on other errors.
	 */
	uint64_t done_lba;
};

void zdisk_cfg_init(struct zdisk_cfg *cfg);

/**
 * zdisk_open() - create or open a disk.  Creating formats the store and
 * writes every zone word; opening restores zones from the image (open zones
 * come back CLOSED).  @msg gets a message saying what failed and why.
 * Returns 0, ZL_E_GEOMETRY, zstore errors, ZL_E_FAULT_SYNTAX, -errno.
 */
int zdisk_open(const struct zdisk_cfg *cfg, struct zdisk **out, char *msg, size_t msg_len);
/* Flushes and closes; NULL is a no-op. */
void zdisk_close(struct zdisk *z);

struct zdev *zdisk_zdev(struct zdisk *z);         /* borrowed; lock with zdisk_lock() */
const struct zdev_cfg *zdisk_geo(const struct zdisk *z);
/* The timing model text kept with the disk (cfg.store.timing at create; "" = none). */
const char *zdisk_timing(const struct zdisk *z);
struct zfault *zdisk_faults(struct zdisk *z);     /* borrowed; lock with zdisk_lock() */
void zdisk_lock(struct zdisk *z);
void zdisk_unlock(struct zdisk *z);

/*
 * I/O.  @io may be NULL.  Errors as zdev_*_check(), zstore, zfault.  A
 * medium error (fault rule) at the command's first LBA is reported before
 * the zone rules' errors; one past it (the rule's range starts inside the
 * command) fails it after them: a read transfers the LBAs before the
 * failing one, a write stores and commits them, as a torn write its prefix
 * (io->done_lba).  A write with a medium error anywhere that the zone
 * rules accept implicitly opens its zone first, at the first LBA too (it
 * then stores nothing), as null_blk's write into a bad block does.
 */
int zdisk_read(struct zdisk *z, uint64_t lba, uint64_t nr_lba, void *buf, struct zdisk_io *io);
int zdisk_write(struct zdisk *z, uint64_t lba, uint64_t nr_lba, const void *buf, bool fua,
		struct zdisk_io *io);
/* The same with a scatter-gather buffer of at least nr_lba blocks: transfers
 * go to the store without a bounce copy.  -EINVAL if the buffer is short or
 * nr_lba is above 2^32 - 1 (for every read and write call). */
int zdisk_readv(struct zdisk *z, uint64_t lba, uint64_t nr_lba, const struct iovec *iov,
		int iov_cnt, struct zdisk_io *io);
/*
 * The common read without the lock, into @buf (nr_lba blocks).  If
 * [lba, lba + nr_lba) is all data in one zone (zdev_read_common()), no
 * fault rule is set and the store is a file or block device, it reads it
 * once: 1 if all of it is now in @buf (counted as a read), or the store's
 * error (-errno, counted as an error; @buf's contents are undefined).
 * Otherwise 0: declined before any I/O, nothing read or changed; call
 * zdisk_readv(), which decides and reports every case.  zdisk_readv()
 * tries it first itself.
 */
int zdisk_read_try(struct zdisk *z, uint64_t lba, uint64_t nr_lba, void *buf);
int zdisk_writev(struct zdisk *z, uint64_t lba, uint64_t nr_lba, const struct iovec *iov,
		 int iov_cnt, bool fua, struct zdisk_io *io);
int zdisk_flush(struct zdisk *z, struct zdisk_io *io);
int zdisk_zone_op(struct zdisk *z, enum zl_zone_op op, uint64_t lba, bool all, struct zdisk_io *io);

/* REPORT ZONES (see zdev_report()); counts in stats. */
int zdisk_report(struct zdisk *z, uint64_t start_lba, enum zl_report_opt opt,
		 struct zl_zone_info *out, uint32_t max, uint64_t *next);
int64_t zdisk_report_count(struct zdisk *z, uint64_t start_lba, enum zl_report_opt opt);

/* Write cache. */
bool zdisk_wce(const struct zdisk *z);
int zdisk_set_wce(struct zdisk *z, bool on);       /* turning it off flushes */

/* Control: fault rules and zone faults at run time. */
int zdisk_fault_add(struct zdisk *z, const char *rules, char *msg, size_t msg_len);
int zdisk_fault_remove(struct zdisk *z, uint32_t id);
int zdisk_zone_set_cond(struct zdisk *z, uint32_t zone_idx, enum zl_zone_cond cond);
int zdisk_zone_clear_fault(struct zdisk *z, uint32_t zone_idx);
void zdisk_release_stalls(struct zdisk *z);
/*
 * Drop all state not yet durable and reload from the store (a power cycle).
 * On a disk whose power a power-loss rule cut, this is the power coming
 * back: commands are served again (docs/ZONE-MODEL.md "Power loss").
 */
int zdisk_power_cycle(struct zdisk *z);
/* A power-loss rule fired and no zdisk_power_cycle() since; lock-free. */
bool zdisk_powered_off(const struct zdisk *z);

/* Number of power cycles so far; lock-free (for unit attention checks). */
uint64_t zdisk_power_cycles(const struct zdisk *z);

/*
 * Timing counters of a front end that completes commands at a device
 * timing model's times (the tcmu handler's timed mode, docs/TIMING.md),
 * shown by `zonelab ctl stats`.  The front end registers a callback that
 * fills them (NULL to unregister, before it goes away); zdisk only passes
 * it on.  zdisk_timing_stats() returns false when none is registered.
 */
struct zdisk_timing_stats {
	uint64_t timed;            /* commands completed at the model's time */
	uint64_t service_ns;       /* sum of their service times */
	uint64_t wait_ns;          /* sum of their queueing times */
	uint64_t pending;          /* submitted, not yet completed */
	uint64_t max_ns;           /* the longest arrival -> completion, real time */
	uint64_t max_model_ns;     /* the longest arrival -> the model's completion time */
	uint64_t sptf_choices;     /* sched=sptf: data commands chosen for the mechanism */
	uint64_t sptf_candidates;  /* ... summed: how many each was chosen among */
	uint64_t idle_starts;      /* data commands that found the mechanism idle */
	uint64_t idle_ns;          /* ... summed: how long it had been idle */
	uint64_t idle_long_starts; /* of them, gaps >= 2 s (ZL_TIMED_IDLE_LONG_NS): job boundaries */
	uint64_t idle_long_ns;     /* ... their gaps */
	uint64_t jump_starts;      /* data commands given to the busy mechanism not where the
				      previous one ended (a stream out of LBA order) */
	uint64_t back_starts;      /* of them, starting before that end (late partners) */
	uint64_t job_start_ns;     /* arrival of the data command that began the last job
				      (idle >= 2 s before it, or the first), CLOCK_MONOTONIC */
	uint64_t last_done_ns;     /* when the last data command's completion was taken */
};
typedef void (*zdisk_timing_stats_fn)(void *arg, struct zdisk_timing_stats *out);
void zdisk_set_timing_stats(struct zdisk *z, zdisk_timing_stats_fn fn, void *arg);
bool zdisk_timing_stats(struct zdisk *z, struct zdisk_timing_stats *out);

/* Statistics snapshot. */
void zdisk_stats(struct zdisk *z, struct zl_stats *out);

/*
 * Consistency check of an image (zonelab disk check): every zone word valid,
 * counts within limits.  Returns 0 or the first error; messages go to @msg.
 */
int zdisk_check(struct zdisk *z, char *msg, size_t msg_len);

#endif /* ZDISK_H */
