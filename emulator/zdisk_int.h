/*
 * zdisk_int.h — the emulated disk's private state, shared by zdisk.c (the
 * I/O path, the zone change hook, flush and the power-cycle reload),
 * zdisk_open.c (open and close) and zdisk_control.c (settings, run-time
 * faults, statistics, the consistency check).  Not for other modules: they
 * see zdisk.h.
 *
 * The critical section helpers are static inline (every command enters
 * and leaves the section; zdisk_read_try() reads the sequence count without
 * it).  zdisk_open.c and zdisk_control.c call into zdisk.c, never the
 * other way.
 */
#ifndef ZDISK_INT_H
#define ZDISK_INT_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "zbitmap.h"
#include "zdisk.h"

/* The zone operation in progress, for the transition statistics. */
enum zdisk_ctx {
	CTX_NONE,
	CTX_OPEN,
	CTX_CLOSE,
	CTX_FINISH,
	CTX_RESET,
};

struct zdisk {
	zdisk_timing_stats_fn timing_fn;   /* under lock; NULL = no timing model */
	void *timing_arg;
	pthread_mutex_t lock;
	/*
	 * Sequence count of the lock's critical sections: odd while a thread
	 * holds the lock (and may be changing zones or fault rules), bumped
	 * again before it lets go.  A read takes a snapshot without the lock
	 * and keeps it only if the count was even and did not move
	 * (zdisk_read_try()).  Written only with the lock held.
	 */
	unsigned seq;
	pthread_cond_t zone_cv;       /* per-zone write locks and stalls */
	struct zdev *dev;
	uint32_t lba_size;            /* the geometry's, copied at open (it never changes) */
	struct zstore *store;
	int data_fd;                  /* FILE/BLOCK store: its descriptor (zstore_data_fd), else -1 */
	uint64_t data_off;            /* byte offset of LBA 0 in data_fd */
	struct zfault *faults;
	struct zl_stats stats;
	uint8_t *busy;                /* per zone: a write between check and commit */
	uint32_t nr_busy;
	uint32_t nr_waiters;          /* threads waiting on zone_cv for a zone */
	struct zbitmap dirty;         /* WCE on: zones whose word is not in the table yet */
	bool any_dirty;
	bool data_dirty;              /* data written since the last fdatasync */
	bool wce;
	bool realtime;
	/*
	 * Power lost (a power-loss rule fired) and not back: every read,
	 * write, flush and zone operation fails with ZL_E_POWER_LOSS, and a
	 * write that was storing its data when the power went commits
	 * nothing, until zdisk_power_cycle() turns the power back on.  Read
	 * without the lock by zdisk_powered_off() and zdisk_read_try().
	 */
	bool off;
	int store_mode;               /* for the change hook: -1 follow wce, 0 mark dirty, 1 store now */
	enum zdisk_ctx ctx;
	uint32_t ctx_zones;           /* zones the zone command running now changed */
	char path[256];
};

/* Enter and leave the lock's critical section (the sequence count with it). */
static inline void zdisk_seq_begin(struct zdisk *z)
{
	__atomic_store_n(&z->seq, z->seq + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);   /* odd before any change */
}

static inline void zdisk_seq_end(struct zdisk *z)
{
	__atomic_store_n(&z->seq, z->seq + 1, __ATOMIC_RELEASE);   /* changes before even */
}

static inline void zdisk_enter(struct zdisk *z)
{
	pthread_mutex_lock(&z->lock);
	zdisk_seq_begin(z);
}

static inline void zdisk_leave(struct zdisk *z)
{
	zdisk_seq_end(z);
	pthread_mutex_unlock(&z->lock);
}

/* pthread_cond_wait() on zone_cv: the lock is let go meanwhile, so is the section. */
static inline void zdisk_wait_cv(struct zdisk *z)
{
	zdisk_seq_end(z);
	pthread_cond_wait(&z->zone_cv, &z->lock);
	zdisk_seq_begin(z);
}

/* Wait on zone_cv (caller holds the lock). */
static inline void zdisk_wait_zones(struct zdisk *z)
{
	z->nr_waiters++;
	zdisk_wait_cv(z);
	z->nr_waiters--;
}

/* --- zdisk.c, for open/close and control ---------------------------------- */

/*
 * zdev's change hook (@arg is the zdisk): counts the transition and stores
 * the zone's word now or marks it dirty until the next flush.
 */
void zdisk_on_zone_changed(void *arg, uint32_t idx, uint8_t old);
/* Make completed writes and dirty zone words durable.  Caller holds the lock. */
int zdisk_flush_locked(struct zdisk *z);
/*
 * Reload every zone from the store's table (what survives a power loss),
 * drop what was not durable, count the power cycle.  Caller holds the lock.
 */
int zdisk_power_cycle_locked(struct zdisk *z);

#endif /* ZDISK_INT_H */
