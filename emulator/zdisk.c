/*
 * zdisk.c — the emulated zoned disk: zdev + zstore + zfault + statistics
 * behind one thread-safe handle.  See zdisk.h for the locking and
 * durability rules; this comment says how they are kept.
 *
 * Write path:  lock, per-zone write lock, faults, zdev_write_check (may open
 * the zone), unlock; store the bytes (and fdatasync when WCE is off or FUA);
 * lock, zdev_write_commit over what was stored, unlock.  zdev reports every
 * changed zone to on_zone_changed(), which counts transitions and either
 * stores the zone's word in the store's table at once (WCE off, or the data
 * already synced) or marks it dirty until the next flush (WCE on).  Zone
 * management follows the same rule: durable on completion with WCE off, at
 * the next flush with WCE on.  Conventional-zone data is written in place and is never
 * rolled back by a power cycle (the medium has it; documented in
 * docs/ZONE-MODEL.md).
 *
 * Not in this file: zone rules (zdev.c), bytes and formats (zstore*.c),
 * fault rules (zfault*.c), SCSI (zscsi*.c).
 */
#include "zdisk.h"

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "zbitmap.h"
#include "zl_hot.h"
#include "zl_iov.h"

enum zdisk_ctx {
	CTX_NONE,
	CTX_OPEN,
	CTX_CLOSE,
	CTX_FINISH,
	CTX_RESET,
};

struct zdisk {
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
	int store_mode;               /* for the change hook: -1 follow wce, 0 mark dirty, 1 store now */
	enum zdisk_ctx ctx;
	char path[256];
};

/* Enter and leave the lock's critical section (the sequence count with it). */
static inline void seq_begin(struct zdisk *z)
{
	__atomic_store_n(&z->seq, z->seq + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);   /* odd before any change */
}

static inline void seq_end(struct zdisk *z)
{
	__atomic_store_n(&z->seq, z->seq + 1, __ATOMIC_RELEASE);   /* changes before even */
}

static inline void lock(struct zdisk *z)
{
	pthread_mutex_lock(&z->lock);
	seq_begin(z);
}

static inline void unlock(struct zdisk *z)
{
	seq_end(z);
	pthread_mutex_unlock(&z->lock);
}

/* pthread_cond_wait() on zone_cv: the lock is let go meanwhile, so is the section. */
static inline void wait_cv(struct zdisk *z)
{
	seq_end(z);
	pthread_cond_wait(&z->zone_cv, &z->lock);
	seq_begin(z);
}

void zdisk_cfg_init(struct zdisk_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	zdev_cfg_init(&cfg->geo);
	cfg->store.kind = ZSTORE_MEM;
	cfg->wce = true;
	cfg->seed = 1;
}

/* ---- zone change hook ---------------------------------------------------- */

static void count_transition(struct zdisk *z, uint8_t old, uint8_t new)
{
	struct zl_stats *s = &z->stats;

	/* A reset counts even on an EMPTY zone (its attributes are cleared). */
	if (new == ZL_COND_EMPTY && z->ctx == CTX_RESET)
		s->resets++;
	if (old == new)
		return;
	if (new == ZL_COND_IMP_OPEN && !zl_cond_is_open(old))
		s->imp_opens++;
	else if (new == ZL_COND_EXP_OPEN)
		s->exp_opens++;
	else if (zl_cond_is_open(old) && z->ctx != CTX_RESET &&
		 (new == ZL_COND_CLOSED || new == ZL_COND_EMPTY)) {
		if (z->ctx == CTX_CLOSE)
			s->exp_closes++;
		else
			s->imp_closes++;
	}
	if (new == ZL_COND_FULL && z->ctx == CTX_FINISH)
		s->finishes++;
}

static void on_zone_changed(void *arg, uint32_t idx, uint8_t old)
{
	struct zdisk *z = arg;
	uint8_t cond = zdev_zone_cond(z->dev, idx);

	count_transition(z, old, cond);
	if (z->store_mode > 0 || (z->store_mode < 0 && !z->wce)) {
		zstore_zone_word_set(z->store, idx, zdev_zone_pack(z->dev, idx));
	} else {
		zbitmap_set(&z->dirty, idx);
		z->any_dirty = true;
	}
}

/* Make completed writes and dirty zone words durable.  Caller holds the lock. */
static int flush_locked(struct zdisk *z)
{
	int ret = 0;

	if (z->data_dirty) {
		ret = zstore_sync_data(z->store);
		if (ret)
			return ret;
		z->data_dirty = false;
	}
	if (z->any_dirty) {
		uint32_t idx = zbitmap_next(&z->dirty, 0);

		while (idx != ZBITMAP_NONE) {
			zstore_zone_word_set(z->store, idx, zdev_zone_pack(z->dev, idx));
			zbitmap_clear(&z->dirty, idx);
			idx = zbitmap_next(&z->dirty, idx + 1);
		}
		z->any_dirty = false;
	}
	return zstore_sync_table(z->store);
}

/* ---- open / close -------------------------------------------------------- */

static int load_zones(struct zdisk *z, char *msg, size_t msg_len)
{
	uint32_t n = zdev_nr_zones(z->dev);

	if (zstore_is_fresh(z->store)) {
		for (uint32_t i = 0; i < n; i++)
			zstore_zone_word_set(z->store, i, zdev_zone_pack(z->dev, i));
		return zstore_sync_table(z->store);
	}
	for (uint32_t i = 0; i < n; i++) {
		uint64_t w = zstore_zone_word_get(z->store, i);
		int ret = zdev_zone_unpack(z->dev, i, w);

		if (ret) {
			if (msg)
				snprintf(msg, msg_len,
					 "%s: zone %u: corrupt zone record 0x%016" PRIx64
					 " (refusing to guess its state; check the image or reformat with force)",
					 z->path, i, w);
			return ret;
		}
	}
	return 0;
}

int zdisk_open(const struct zdisk_cfg *cfg, struct zdisk **out, char *msg, size_t msg_len)
{
	const struct zdev_cfg *geo;
	struct zdisk *z;
	uint32_t n;
	int ret;

	if (msg && msg_len)
		msg[0] = 0;
	if (!cfg->use_image_geo) {
		ret = zdev_cfg_check(&cfg->geo, msg, msg_len);
		if (ret)
			return ret;
	}
	z = calloc(1, sizeof(*z));
	if (!z)
		return -ENOMEM;
	pthread_mutex_init(&z->lock, NULL);
	pthread_cond_init(&z->zone_cv, NULL);
	z->wce = cfg->wce;
	z->realtime = cfg->realtime;
	z->store_mode = -1;
	snprintf(z->path, sizeof(z->path), "%s",
		 cfg->store.path ? cfg->store.path : zstore_kind_name(cfg->store.kind));

	ret = zstore_open(&cfg->store, cfg->use_image_geo ? NULL : &cfg->geo, &z->store,
			  msg, msg_len);
	if (ret)
		goto out_free;
	geo = zstore_geometry(z->store);
	ret = zdev_create(geo, &z->dev);
	if (ret) {
		if (msg)
			zdev_cfg_check(geo, msg, msg_len);
		goto out_close_store;
	}
	z->lba_size = zdev_cfg(z->dev)->lba_size;
	z->data_fd = zstore_data_fd(z->store, &z->data_off);
	n = zdev_nr_zones(z->dev);
	z->busy = calloc(n, 1);
	if (!z->busy || zbitmap_init(&z->dirty, n)) {
		ret = -ENOMEM;
		goto out_destroy_dev;
	}
	ret = load_zones(z, msg, msg_len);
	if (ret)
		goto out_destroy_dev;
	zdev_set_changed_cb(z->dev, on_zone_changed, z);

	ret = zfault_create(cfg->seed, &z->faults);
	if (ret)
		goto out_destroy_dev;
	if (cfg->faults && *cfg->faults) {
		ret = zfault_add_text(z->faults, cfg->faults, msg, msg_len);
		if (ret)
			goto out_destroy_faults;
	}
	*out = z;
	return 0;

out_destroy_faults:
	zfault_destroy(z->faults);
out_destroy_dev:
	zbitmap_fini(&z->dirty);
	free(z->busy);
	zdev_destroy(z->dev);
out_close_store:
	zstore_close(z->store);
out_free:
	pthread_cond_destroy(&z->zone_cv);
	pthread_mutex_destroy(&z->lock);
	free(z);
	return ret;
}

void zdisk_close(struct zdisk *z)
{
	if (!z)
		return;
	lock(z);
	flush_locked(z);
	unlock(z);
	zfault_destroy(z->faults);
	zbitmap_fini(&z->dirty);
	free(z->busy);
	zdev_destroy(z->dev);
	zstore_close(z->store);
	pthread_cond_destroy(&z->zone_cv);
	pthread_mutex_destroy(&z->lock);
	free(z);
}

struct zdev *zdisk_zdev(struct zdisk *z) { return z->dev; }
const struct zdev_cfg *zdisk_geo(const struct zdisk *z) { return zdev_cfg(z->dev); }
struct zfault *zdisk_faults(struct zdisk *z) { return z->faults; }
void zdisk_lock(struct zdisk *z) { lock(z); }
void zdisk_unlock(struct zdisk *z) { unlock(z); }

/* ---- faults -------------------------------------------------------------- */

static void sleep_ns(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000ull), (long)(ns % 1000000000ull) };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static int power_cycle_locked(struct zdisk *z);

/* apply_faults() when there are rules: out of the I/O path's way. */
static __attribute__((noinline)) int eval_faults(struct zdisk *z, enum zfault_op op,
						 uint64_t lba, uint64_t nr_lba,
						 struct zfault_verdict *v, struct zdisk_io *io)
{
	const struct zdev_cfg *g = zdev_cfg(z->dev);
	uint64_t first = lba, last = nr_lba ? lba + nr_lba - 1 : lba;
	uint32_t zf, zl;

	if (first >= g->capacity_lba)
		first = last = g->capacity_lba - 1;
	if (last >= g->capacity_lba)
		last = g->capacity_lba - 1;
	zf = zdev_zone_of(z->dev, first);
	zl = zdev_zone_of(z->dev, last);
	zfault_eval(z->faults, op, first, nr_lba, zf, zl, v);
	if (v->err || v->set_cond || v->stall || v->delay_ns)
		z->stats.faults_fired++;
	/* The failing LBA: not before the first LBA of the zone the rule covers. */
	if ((v->err == ZL_E_MEDIUM_READ || v->err == ZL_E_MEDIUM_WRITE) && v->err_zone > zf &&
	    (uint64_t)v->err_zone * g->zone_size_lba > v->err_lba)
		v->err_lba = (uint64_t)v->err_zone * g->zone_size_lba;
	if (v->set_cond && v->set_zone < zdev_nr_zones(z->dev))
		zdev_zone_set_cond(z->dev, v->set_zone, v->set_cond);
	if (v->err == ZL_E_POWER_LOSS) {
		power_cycle_locked(z);
		return ZL_E_POWER_LOSS;
	}
	if (v->delay_ns) {
		z->stats.injected_delay_ns += v->delay_ns;
		if (io)
			io->delay_ns += v->delay_ns;
		if (z->realtime) {
			unlock(z);
			sleep_ns(v->delay_ns);
			lock(z);
		}
	}
	if (v->stall) {
		if (io)
			io->stalled = true;
		if (z->realtime) {
			uint64_t gen = zfault_release_gen(z->faults);

			while (zfault_release_gen(z->faults) == gen)
				wait_cv(z);
		}
	}
	/*
	 * A torn write, or a medium write error past the command's first LBA,
	 * goes on: the write stores and commits the LBAs before v->err_lba
	 * (zdisk_writev()), then fails with v->err.
	 */
	if (v->err == ZL_E_TORN_WRITE ||
	    (v->err == ZL_E_MEDIUM_WRITE && op == ZFAULT_OP_WRITE && v->err_lba > lba))
		return 0;
	return v->err;
}

/*
 * Evaluate the fault rules for a command and carry out what does not depend
 * on the command itself: zone condition changes, delay, stall, power loss.
 * Caller holds the lock (dropped while sleeping or stalled).  Returns the
 * verdict's error, or 0 (also for a write that stores a prefix and then
 * fails with v->err, see eval_faults()).  Without rules (the common case)
 * only v->err is set (0), the one field callers then read.
 */
static inline int apply_faults(struct zdisk *z, enum zfault_op op, uint64_t lba, uint64_t nr_lba,
			       struct zfault_verdict *v, struct zdisk_io *io)
{
	if (!zfault_nr_rules(z->faults)) {
		v->err = 0;
		return 0;
	}
	return eval_faults(z, op, lba, nr_lba, v, io);
}

static int fail(struct zdisk *z, int err)
{
	zl_stats_count_err(&z->stats, err);
	return err;
}

/* ---- I/O ----------------------------------------------------------------- */

/*
 * Transfer LBAs [lba, lba + nr_lba) between the store and bytes
 * [byte_off, ...) of @iov (read: into; write: from), or zero them
 * (@zero, reads of unwritten LBAs).
 */
static int store_io_sg(struct zdisk *z, bool write, bool zero, uint64_t lba, uint64_t nr_lba,
		       const struct iovec *iov, int iov_cnt, size_t byte_off)
{
	size_t len = (size_t)nr_lba * z->lba_size;
	struct iovec cut[64], *v = cut;
	int n, ret;

	if (iov_cnt == 1) {             /* one flat buffer of a MEM or NONE store */
		void *p = (char *)iov[0].iov_base + byte_off;

		if (zero) {
			memset(p, 0, len);
			return 0;
		}
		return write ? zstore_write(z->store, lba, nr_lba, p)
			     : zstore_read(z->store, lba, nr_lba, p);
	}
	n = zl_iov_slice(iov, iov_cnt, byte_off, len, cut, 64);
	if (n < 0) {
		v = malloc(sizeof(*v) * (size_t)iov_cnt);
		if (!v)
			return -ENOMEM;
		n = zl_iov_slice(iov, iov_cnt, byte_off, len, v, iov_cnt);
		if (n < 0) {
			free(v);
			return -EINVAL;
		}
	}
	if (zero) {
		zl_iov_zero(v, n);
		ret = 0;
	} else {
		ret = write ? zstore_writev(z->store, lba, nr_lba, v, n)
			    : zstore_readv(z->store, lba, nr_lba, v, n);
	}
	if (v != cut)
		free(v);
	return ret;
}

/*
 * The common case inline: one flat buffer and a file or block store, whose
 * range zdev has checked, goes straight to pread/pwrite (this sits under
 * every 4 KiB command: no further call, no store dispatch).
 */
static inline int store_io(struct zdisk *z, bool write, bool zero, uint64_t lba, uint64_t nr_lba,
			   const struct iovec *iov, int iov_cnt, size_t byte_off)
{
	if (!nr_lba)
		return 0;
	if (iov_cnt == 1 && !zero && z->data_fd >= 0)
		return zstore_prw(z->data_fd, write, (char *)iov[0].iov_base + byte_off,
				  nr_lba * z->lba_size, z->data_off + lba * z->lba_size);
	return store_io_sg(z, write, zero, lba, nr_lba, iov, iov_cnt, byte_off);
}

/*
 * Transfer the checked LBAs [lba, lba + nr_lba) from the store into @iov,
 * run by run: the first run (@run LBAs, @has_data) comes from
 * zdev_read_prep(), the next ones from zdev_read_run().  Called without the
 * lock.  Returns 0 or the store's error.
 */
static inline int read_runs(struct zdisk *z, uint64_t lba, uint64_t nr_lba, uint64_t run,
			    bool has_data, const struct iovec *iov, int iov_cnt)
{
	uint64_t done = 0;
	int ret;

	for (;;) {
		ret = store_io(z, false, !has_data, lba + done, run, iov, iov_cnt,
			       (size_t)(done * z->lba_size));
		if (ret)
			return ret;
		done += run;
		if (done >= nr_lba)
			return 0;
		/* The read spans data and unwritten runs (or zones): next run. */
		lock(z);
		run = zdev_read_run(z->dev, lba + done, nr_lba - done, &has_data);
		unlock(z);
	}
}

/*
 * A read that meets a medium error at LBA lba + nr_ok (0 < nr_ok < nr_lba):
 * the command passes the read rules as a whole first (as the command of a
 * drive does before any transfer; their error wins), then the LBAs before
 * the failing one are transferred and the read fails with ZL_E_MEDIUM_READ,
 * io->done_lba = nr_ok.  Caller holds the lock; it is released on return.
 */
static __attribute__((noinline)) int read_medium_prefix(struct zdisk *z, uint64_t lba,
							uint64_t nr_lba, uint64_t nr_ok,
							const struct iovec *iov, int iov_cnt,
							struct zdisk_io *io)
{
	uint64_t run;
	bool has_data;
	int ret;

	ret = zdev_read_prep(z->dev, lba, nr_lba, &run, &has_data);
	if (!ret) {
		unlock(z);
		ret = read_runs(z, lba, nr_ok, run < nr_ok ? run : nr_ok, has_data, iov, iov_cnt);
		lock(z);
	}
	if (!ret) {
		if (io)
			io->done_lba = nr_ok;
		ret = ZL_E_MEDIUM_READ;
	}
	fail(z, ret);
	unlock(z);
	return ret;
}

/* A read whose transfer failed: count the error. */
static __attribute__((noinline)) int read_error(struct zdisk *z, int err)
{
	lock(z);
	fail(z, err);
	unlock(z);
	return err;
}

/*
 * The common read without the lock (zdisk.h): the decision is taken from a
 * snapshot that is kept only if no critical section ran meanwhile (seq even
 * and unchanged); the transfer then runs outside the lock as every read's
 * does, once (a failing store is not asked twice), and the read is counted
 * once the data is in the buffer.
 *
 * ZL_HOT_INLINE on an external definition: zdisk.h declares it without
 * inline (zl_hot.h).
 */
ZL_HOT_INLINE int zdisk_read_try(struct zdisk *z, uint64_t lba, uint64_t nr_lba, void *buf)
{
	unsigned seq = __atomic_load_n(&z->seq, __ATOMIC_ACQUIRE);
	int ret;

	if ((seq & 1) || z->data_fd < 0 || nr_lba > UINT32_MAX || zfault_nr_rules(z->faults) ||
	    !zdev_read_common(z->dev, lba, nr_lba))
		return 0;
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	if (__atomic_load_n(&z->seq, __ATOMIC_RELAXED) != seq)
		return 0;
	ret = zstore_prw(z->data_fd, false, buf, nr_lba * z->lba_size,
			 z->data_off + lba * z->lba_size);
	if (ret)
		return read_error(z, ret);
	__atomic_fetch_add(&z->stats.reads, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&z->stats.read_lbas, nr_lba, __ATOMIC_RELAXED);
	return 1;
}

/* A read counted as done whose transfer failed: uncount it, count the error. */
static __attribute__((noinline)) int read_failed(struct zdisk *z, uint64_t nr_lba, int err)
{
	__atomic_fetch_sub(&z->stats.reads, 1, __ATOMIC_RELAXED);
	__atomic_fetch_sub(&z->stats.read_lbas, nr_lba, __ATOMIC_RELAXED);
	return read_error(z, err);
}

/*
 * The start of every read and write: @io cleared, the buffer checked for
 * nr_lba blocks.
 * (A transfer is at most 2^32 blocks of 4 KiB: no overflow below.)
 */
static inline int io_start(const struct zdisk *z, uint64_t nr_lba, const struct iovec *iov,
			   int iov_cnt, struct zdisk_io *io)
{
	if (io) {
		io->delay_ns = 0;
		io->stalled = false;
		io->done_lba = 0;
	}
	if (nr_lba > UINT32_MAX || zl_iov_len(iov, iov_cnt) < nr_lba * z->lba_size)
		return -EINVAL;
	return 0;
}

/* Every read zdisk_read_try() declines: with the lock, faults, all rules. */
static __attribute__((noinline)) int readv_locked(struct zdisk *z, uint64_t lba, uint64_t nr_lba,
						  const struct iovec *iov, int iov_cnt,
						  struct zdisk_io *io)
{
	struct zfault_verdict v;
	uint64_t run;
	bool has_data;
	int ret;

	lock(z);
	ret = apply_faults(z, ZFAULT_OP_READ, lba, nr_lba, &v, io);
	if (!ret)
		ret = zdev_read_prep(z->dev, lba, nr_lba, &run, &has_data);
	if (ret) {
		/* (only zfault returns a medium error: v is filled then) */
		if (ret == ZL_E_MEDIUM_READ && v.err_lba > lba && v.err_lba - lba < nr_lba)
			return read_medium_prefix(z, lba, nr_lba, v.err_lba - lba, iov, iov_cnt, io);
		fail(z, ret);
		unlock(z);
		return ret;
	}
	/* Counted as done now; a store failure below takes it back. */
	__atomic_fetch_add(&z->stats.reads, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&z->stats.read_lbas, nr_lba, __ATOMIC_RELAXED);
	unlock(z);
	ret = read_runs(z, lba, nr_lba, run, has_data, iov, iov_cnt);
	if (ret)
		return read_failed(z, nr_lba, ret);
	if (io)
		io->done_lba = nr_lba;
	return 0;
}

int zdisk_readv(struct zdisk *z, uint64_t lba, uint64_t nr_lba, const struct iovec *iov,
		int iov_cnt, struct zdisk_io *io)
{
	int ret = io_start(z, nr_lba, iov, iov_cnt, io);

	if (ret)
		return ret;
	ret = iov_cnt == 1 ? zdisk_read_try(z, lba, nr_lba, iov[0].iov_base) : 0;
	if (!ret)
		return readv_locked(z, lba, nr_lba, iov, iov_cnt, io);
	if (ret < 0)
		return ret;
	if (io)
		io->done_lba = nr_lba;
	return 0;
}

int zdisk_read(struct zdisk *z, uint64_t lba, uint64_t nr_lba, void *buf, struct zdisk_io *io)
{
	struct iovec iov = { buf, (size_t)(nr_lba * z->lba_size) };

	return zdisk_readv(z, lba, nr_lba, &iov, 1, io);
}

/* Zones [*first, *last] a write takes write locks on (sequential zones only). */
static bool write_zones(struct zdisk *z, uint64_t lba, uint64_t nr_lba, uint32_t *first,
			uint32_t *last)
{
	const struct zdev_cfg *g = zdev_cfg(z->dev);
	uint64_t end;

	if (lba >= g->capacity_lba)
		return false;
	end = nr_lba && nr_lba <= g->capacity_lba - lba ? lba + nr_lba - 1 : lba;
	*first = zdev_zone_of(z->dev, lba);
	*last = zdev_zone_of(z->dev, end);
	return true;
}

/* Wait on zone_cv (caller holds the lock). */
static void wait_zones(struct zdisk *z)
{
	z->nr_waiters++;
	wait_cv(z);
	z->nr_waiters--;
}

static void lock_zones(struct zdisk *z, uint32_t first, uint32_t last)
{
	for (uint32_t i = first; i <= last; i++) {
		while (z->busy[i])
			wait_zones(z);
	}
	for (uint32_t i = first; i <= last; i++)
		z->busy[i] = 1;
	z->nr_busy += last - first + 1;
}

static void unlock_zones(struct zdisk *z, uint32_t first, uint32_t last)
{
	for (uint32_t i = first; i <= last; i++)
		z->busy[i] = 0;
	z->nr_busy -= last - first + 1;
	if (z->nr_waiters)
		pthread_cond_broadcast(&z->zone_cv);
}

int zdisk_write(struct zdisk *z, uint64_t lba, uint64_t nr_lba, const void *buf, bool fua,
		struct zdisk_io *io)
{
	struct iovec iov = { (void *)buf, (size_t)(nr_lba * z->lba_size) };

	return zdisk_writev(z, lba, nr_lba, &iov, 1, fua, io);
}

int zdisk_writev(struct zdisk *z, uint64_t lba, uint64_t nr_lba, const struct iovec *iov,
		 int iov_cnt, bool fua, struct zdisk_io *io)
{
	struct zfault_verdict v;
	uint32_t zf = 0, zl = 0;
	uint64_t keep = nr_lba;
	bool locked_zones, durable_now;
	int ret, sret = 0;

	ret = io_start(z, nr_lba, iov, iov_cnt, io);
	if (ret)
		return ret;
	lock(z);
	/* This write is durable on completion if the cache is off or FUA. */
	durable_now = !z->wce || fua;
	locked_zones = write_zones(z, lba, nr_lba, &zf, &zl);
	if (locked_zones)
		lock_zones(z, zf, zl);
	ret = apply_faults(z, ZFAULT_OP_WRITE, lba, nr_lba, &v, io);
	if (!ret)
		ret = zdev_write_check(z->dev, lba, nr_lba);
	if (ret) {
		if (locked_zones)
			unlock_zones(z, zf, zl);
		fail(z, ret);
		unlock(z);
		return ret;
	}
	/* A torn write, or a medium error past the first LBA: store what precedes it. */
	if (v.err)
		keep = v.err_lba - lba < nr_lba ? v.err_lba - lba : nr_lba;
	unlock(z);

	if (keep)
		sret = store_io(z, true, false, lba, keep, iov, iov_cnt, 0);
	if (!sret && keep && durable_now)
		sret = zstore_sync_data(z->store);

	lock(z);
	if (!sret) {
		/* Store the zone words now only if the data is durable. */
		z->store_mode = durable_now ? 1 : 0;
		zdev_write_commit(z->dev, lba, keep);
		z->store_mode = -1;
		if (keep && !durable_now)
			z->data_dirty = true;
		/* The cache was turned off while this write ran: nobody will flush. */
		if (!z->wce && (z->any_dirty || z->data_dirty))
			sret = flush_locked(z);
	}
	if (locked_zones)
		unlock_zones(z, zf, zl);
	if (sret) {
		ret = fail(z, sret);
	} else if (keep < nr_lba) {
		ret = fail(z, v.err);
	} else {
		z->stats.writes++;
		z->stats.write_lbas += nr_lba;
	}
	unlock(z);
	/*
	 * The words of this write's zones are in the table; make them durable
	 * outside the lock.  Not zstore_sync_table(): its dirty range belongs
	 * to whoever holds the lock.
	 */
	if (!sret && durable_now && keep) {
		sret = zstore_sync_words(z->store, zf, zl);
		if (sret) {
			lock(z);
			ret = fail(z, sret);
			unlock(z);
		}
	}
	if (io)
		io->done_lba = sret ? 0 : keep;
	return ret;
}

int zdisk_flush(struct zdisk *z, struct zdisk_io *io)
{
	struct zfault_verdict v;
	int ret;

	if (io)
		memset(io, 0, sizeof(*io));
	lock(z);
	ret = apply_faults(z, ZFAULT_OP_FLUSH, 0, 0, &v, io);
	if (!ret && v.err == ZL_E_TORN_WRITE)
		ret = ZL_E_MEDIUM_WRITE;
	if (!ret)
		ret = flush_locked(z);
	if (ret)
		fail(z, ret);
	else
		z->stats.flushes++;
	unlock(z);
	return ret;
}

static enum zdisk_ctx op_ctx(enum zl_zone_op op)
{
	switch (op) {
	case ZL_ZOP_OPEN: return CTX_OPEN;
	case ZL_ZOP_CLOSE: return CTX_CLOSE;
	case ZL_ZOP_FINISH: return CTX_FINISH;
	case ZL_ZOP_RESET: return CTX_RESET;
	}
	return CTX_NONE;
}

int zdisk_zone_op(struct zdisk *z, enum zl_zone_op op, uint64_t lba, bool all,
		  struct zdisk_io *io)
{
	const struct zdev_cfg *g = zdev_cfg(z->dev);
	struct zfault_verdict v;
	uint32_t idx = 0;
	int ret;

	if (io)
		memset(io, 0, sizeof(*io));
	lock(z);
	/* Wait for writes in flight on the zone (or on any zone, for ALL). */
	if (all) {
		while (z->nr_busy)
			wait_zones(z);
	} else if (lba < g->capacity_lba) {
		idx = zdev_zone_of(z->dev, lba);
		while (z->busy[idx])
			wait_zones(z);
	}
	ret = apply_faults(z, ZFAULT_OP_ZONE, all ? 0 : lba,
			   all ? g->capacity_lba : (lba < g->capacity_lba ?
						    g->zone_size_lba - (lba % g->zone_size_lba) : 0),
			   &v, io);
	if (!ret && v.err == ZL_E_TORN_WRITE)
		ret = ZL_E_MEDIUM_WRITE;
	if (!ret) {
		z->ctx = op_ctx(op);
		ret = zdev_zone_op(z->dev, op, lba, all);
		z->ctx = CTX_NONE;
	}
	/*
	 * With the write cache off the new zone state is durable now (its
	 * words were stored by on_zone_changed(); sync the table).  With it
	 * on, it becomes durable at the next flush, like a write.
	 */
	if (!ret && !z->wce)
		ret = zstore_sync_table(z->store);
	/*
	 * Dropping the bytes of a reset zone is an optimisation, and only safe
	 * once the reset is durable: a reset lost in a power cycle must find
	 * its data again.  RESET ALL keeps the bytes (they read as zeros).
	 */
	if (!ret && op == ZL_ZOP_RESET && !all && !z->wce)
		zstore_discard(z->store, lba, g->capacity_lba - lba < g->zone_size_lba ?
				 g->capacity_lba - lba : g->zone_size_lba);
	if (ret)
		fail(z, ret);
	else
		z->stats.zone_ops++;
	unlock(z);
	return ret;
}

int zdisk_report(struct zdisk *z, uint64_t start_lba, enum zl_report_opt opt,
		 struct zl_zone_info *out, uint32_t max, uint64_t *next)
{
	int ret;

	lock(z);
	ret = zdev_report(z->dev, start_lba, opt, out, max, next);
	if (ret < 0) {
		fail(z, ret);
	} else {
		z->stats.reports++;
		z->stats.report_zones += (uint64_t)ret;
	}
	unlock(z);
	return ret;
}

int64_t zdisk_report_count(struct zdisk *z, uint64_t start_lba, enum zl_report_opt opt)
{
	int64_t n;

	lock(z);
	n = zdev_report_count(z->dev, start_lba, opt);
	unlock(z);
	return n;
}

/* ---- settings and control ------------------------------------------------ */

bool zdisk_wce(const struct zdisk *z)
{
	return z->wce;
}

int zdisk_set_wce(struct zdisk *z, bool on)
{
	int ret = 0;

	lock(z);
	if (z->wce && !on)
		ret = flush_locked(z);
	if (!ret)
		z->wce = on;
	unlock(z);
	return ret;
}

int zdisk_fault_add(struct zdisk *z, const char *rules, char *msg, size_t msg_len)
{
	int ret;

	lock(z);
	ret = zfault_add_text(z->faults, rules, msg, msg_len);
	unlock(z);
	return ret;
}

int zdisk_fault_remove(struct zdisk *z, uint32_t id)
{
	int ret;

	lock(z);
	ret = zfault_remove(z->faults, id);
	unlock(z);
	return ret;
}

int zdisk_zone_set_cond(struct zdisk *z, uint32_t zone_idx, enum zl_zone_cond cond)
{
	int ret;

	lock(z);
	if (zone_idx >= zdev_nr_zones(z->dev)) {
		unlock(z);
		return -EINVAL;
	}
	while (z->busy[zone_idx])
		wait_zones(z);
	ret = zdev_zone_set_cond(z->dev, zone_idx, cond);
	if (!ret)
		ret = flush_locked(z);
	unlock(z);
	return ret;
}

int zdisk_zone_clear_fault(struct zdisk *z, uint32_t zone_idx)
{
	int ret;

	lock(z);
	if (zone_idx >= zdev_nr_zones(z->dev)) {
		unlock(z);
		return -EINVAL;
	}
	ret = zdev_zone_clear_fault(z->dev, zone_idx);
	if (!ret)
		ret = flush_locked(z);
	unlock(z);
	return ret;
}

void zdisk_release_stalls(struct zdisk *z)
{
	lock(z);
	zfault_release_all(z->faults);
	pthread_cond_broadcast(&z->zone_cv);
	unlock(z);
}

/* Reload every zone from the store's table: what survives a power loss. */
static int power_cycle_locked(struct zdisk *z)
{
	uint32_t n = zdev_nr_zones(z->dev);
	int ret = 0;

	for (uint32_t i = 0; i < n && !ret; i++) {
		ret = zdev_zone_unpack(z->dev, i, zstore_zone_word_get(z->store, i));
		zbitmap_clear(&z->dirty, i);
	}
	z->any_dirty = false;
	z->data_dirty = false;
	__atomic_add_fetch(&z->stats.power_cycles, 1, __ATOMIC_RELEASE);
	return ret;
}

int zdisk_power_cycle(struct zdisk *z)
{
	int ret;

	lock(z);
	while (z->nr_busy)
		wait_zones(z);
	ret = power_cycle_locked(z);
	unlock(z);
	return ret;
}

uint64_t zdisk_power_cycles(const struct zdisk *z)
{
	return __atomic_load_n(&z->stats.power_cycles, __ATOMIC_ACQUIRE);
}

void zdisk_stats(struct zdisk *z, struct zl_stats *out)
{
	lock(z);
	*out = z->stats;
	/* (counted without the lock by zdisk_read_try()) */
	out->reads = __atomic_load_n(&z->stats.reads, __ATOMIC_RELAXED);
	out->read_lbas = __atomic_load_n(&z->stats.read_lbas, __ATOMIC_RELAXED);
	unlock(z);
}

int zdisk_check(struct zdisk *z, char *msg, size_t msg_len)
{
	const struct zdev_cfg *g;
	struct zdev *scratch;
	uint32_t n;
	int ret;

	lock(z);
	ret = flush_locked(z);
	if (ret) {
		snprintf(msg, msg_len, "flush failed: %s", zl_strerror(ret));
		goto out_unlock;
	}
	g = zdev_cfg(z->dev);
	ret = zdev_create(g, &scratch);
	if (ret) {
		snprintf(msg, msg_len, "geometry: %s", zl_strerror(ret));
		goto out_unlock;
	}
	n = zdev_nr_zones(z->dev);
	for (uint32_t i = 0; i < n; i++) {
		uint64_t w = zstore_zone_word_get(z->store, i);

		ret = zdev_zone_unpack(scratch, i, w);
		if (ret) {
			snprintf(msg, msg_len, "zone %u: corrupt zone record 0x%016" PRIx64, i, w);
			goto out_destroy;
		}
	}
	if (g->max_active && zdev_nr_active(scratch) > g->max_active) {
		snprintf(msg, msg_len, "%u active zones exceed max active %u",
			 zdev_nr_active(scratch), g->max_active);
		ret = ZL_E_CORRUPT;
		goto out_destroy;
	}
	snprintf(msg, msg_len, "%u zones: %" PRId64 " empty, %u closed, %" PRId64 " full, %"
		 PRId64 " read-only, %" PRId64 " offline, %" PRId64 " conventional; consistent",
		 n, zdev_report_count(scratch, 0, ZL_RO_EMPTY), zdev_nr_closed(scratch),
		 zdev_report_count(scratch, 0, ZL_RO_FULL),
		 zdev_report_count(scratch, 0, ZL_RO_READ_ONLY),
		 zdev_report_count(scratch, 0, ZL_RO_OFFLINE),
		 zdev_report_count(scratch, 0, ZL_RO_NOT_WP));
out_destroy:
	zdev_destroy(scratch);
out_unlock:
	unlock(z);
	return ret;
}
