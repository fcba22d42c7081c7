/*
 * zdisk.c — the emulated zoned disk: zdev + zstore + zfault + statistics
 * behind one thread-safe handle.  See zdisk.h for the locking and
 * durability rules; this comment says how they are kept.
 *
 * Write path:  lock, per-zone write lock, faults, zdev_write_check (may open
 * the zone), unlock; store the bytes (and fdatasync when WCE is off or FUA);
 * lock, zdev_write_commit over what was stored, unlock.  zdev reports every
 * changed zone to zdisk_on_zone_changed(), which counts transitions and either
 * stores the zone's word in the store's table at once (WCE off, or the data
 * already synced) or marks it dirty until the next flush (WCE on).  Zone
 * management follows the same rule: durable on completion with WCE off, at
 * the next flush with WCE on.  Conventional-zone data is written in place and is never
 * rolled back by a power cycle (the medium has it; documented in
 * docs/ZONE-MODEL.md).
 *
 * This file is the I/O path (read, write, flush, zone operations, reports,
 * with fault verdicts carried out) and what it needs below it: the zone
 * change hook, flush and the power-cycle reload.  Open and close are in
 * zdisk_open.c, run-time settings, control and the image check in
 * zdisk_control.c; both call this file, never the other way.  Not in
 * zdisk at all: zone rules (zdev*.c), bytes and formats (zstore*.c), fault
 * rules (zfault*.c), SCSI (zscsi*.c).
 */
#include "zdisk_int.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "zl_hot.h"
#include "zl_iov.h"

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

void zdisk_on_zone_changed(void *arg, uint32_t idx, uint8_t old)
{
	struct zdisk *z = arg;
	uint8_t cond = zdev_zone_cond(z->dev, idx);

	if (z->ctx != CTX_NONE)
		z->ctx_zones++;
	count_transition(z, old, cond);
	if (z->store_mode > 0 || (z->store_mode < 0 && !z->wce)) {
		zstore_zone_word_set(z->store, idx, zdev_zone_pack(z->dev, idx));
	} else {
		zbitmap_set(&z->dirty, idx);
		z->any_dirty = true;
	}
}

/* Make completed writes and dirty zone words durable.  Caller holds the lock. */
int zdisk_flush_locked(struct zdisk *z)
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

/* ---- power loss ---------------------------------------------------------- */

/* Reload every zone from the store's table: what survives a power loss. */
int zdisk_power_cycle_locked(struct zdisk *z)
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

bool zdisk_powered_off(const struct zdisk *z)
{
	return __atomic_load_n(&z->off, __ATOMIC_ACQUIRE);
}

uint64_t zdisk_power_cycles(const struct zdisk *z)
{
	return __atomic_load_n(&z->stats.power_cycles, __ATOMIC_ACQUIRE);
}

/* ---- faults -------------------------------------------------------------- */

static void sleep_ns(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000ull), (long)(ns % 1000000000ull) };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

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
		/* The power stays off: nothing is served until it comes back. */
		zdisk_power_cycle_locked(z);
		__atomic_store_n(&z->off, true, __ATOMIC_RELEASE);
		return ZL_E_POWER_LOSS;
	}
	if (v->delay_ns) {
		z->stats.injected_delay_ns += v->delay_ns;
		if (io)
			io->delay_ns += v->delay_ns;
		if (z->realtime) {
			zdisk_leave(z);
			sleep_ns(v->delay_ns);
			zdisk_enter(z);
		}
	}
	if (v->stall) {
		if (io)
			io->stalled = true;
		if (z->realtime) {
			uint64_t gen = zfault_release_gen(z->faults);

			while (zfault_release_gen(z->faults) == gen)
				zdisk_wait_cv(z);
		}
	}
	/*
	 * A torn write, or a medium write error, goes on: the write is checked
	 * against the zone rules (which open the zone), stores and commits the
	 * LBAs before v->err_lba (zdisk_writev()), then fails with v->err.  A
	 * medium error at the first LBA stores nothing but still leaves the
	 * zone implicitly open, as null_blk's write into a bad block does
	 * (null_zone_write() opens the zone before null_process_cmd() checks
	 * the bad blocks).
	 */
	if (v->err == ZL_E_TORN_WRITE || (v->err == ZL_E_MEDIUM_WRITE && op == ZFAULT_OP_WRITE))
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
	if (__builtin_expect(z->off, 0)) {
		/* no power: the command reaches nothing (not even the rules) */
		memset(v, 0, sizeof(*v));
		v->err = ZL_E_POWER_LOSS;
		return ZL_E_POWER_LOSS;
	}
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
		zdisk_enter(z);
		run = zdev_read_run(z->dev, lba + done, nr_lba - done, &has_data);
		zdisk_leave(z);
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
		zdisk_leave(z);
		ret = read_runs(z, lba, nr_ok, run < nr_ok ? run : nr_ok, has_data, iov, iov_cnt);
		zdisk_enter(z);
	}
	if (!ret) {
		if (io)
			io->done_lba = nr_ok;
		ret = ZL_E_MEDIUM_READ;
	}
	fail(z, ret);
	zdisk_leave(z);
	return ret;
}

/* A read whose transfer failed: count the error. */
static __attribute__((noinline)) int read_error(struct zdisk *z, int err)
{
	zdisk_enter(z);
	fail(z, err);
	zdisk_leave(z);
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
	    __atomic_load_n(&z->off, __ATOMIC_ACQUIRE) ||
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

	zdisk_enter(z);
	ret = apply_faults(z, ZFAULT_OP_READ, lba, nr_lba, &v, io);
	if (!ret)
		ret = zdev_read_prep(z->dev, lba, nr_lba, &run, &has_data);
	if (ret) {
		/* (only zfault returns a medium error: v is filled then) */
		if (ret == ZL_E_MEDIUM_READ && v.err_lba > lba && v.err_lba - lba < nr_lba)
			return read_medium_prefix(z, lba, nr_lba, v.err_lba - lba, iov, iov_cnt, io);
		fail(z, ret);
		zdisk_leave(z);
		return ret;
	}
	/* Counted as done now; a store failure below takes it back. */
	__atomic_fetch_add(&z->stats.reads, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&z->stats.read_lbas, nr_lba, __ATOMIC_RELAXED);
	zdisk_leave(z);
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

static void lock_zones(struct zdisk *z, uint32_t first, uint32_t last)
{
	for (uint32_t i = first; i <= last; i++) {
		while (z->busy[i])
			zdisk_wait_zones(z);
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
	zdisk_enter(z);
	/* This write is durable on completion if the cache is off or FUA. */
	durable_now = !z->wce || fua;
	locked_zones = write_zones(z, lba, nr_lba, &zf, &zl);
	if (locked_zones)
		lock_zones(z, zf, zl);
	ret = apply_faults(z, ZFAULT_OP_WRITE, lba, nr_lba, &v, io);
	if (!ret)
		ret = zdev_write_check(z->dev, lba, nr_lba);
	/* A medium error at the first LBA is reported before a zone rule's error. */
	if (ret && v.err == ZL_E_MEDIUM_WRITE && v.err_lba == lba)
		ret = v.err;
	if (ret) {
		if (locked_zones)
			unlock_zones(z, zf, zl);
		fail(z, ret);
		zdisk_leave(z);
		return ret;
	}
	/* A torn write, or a medium error past the first LBA: store what precedes it. */
	if (v.err)
		keep = v.err_lba - lba < nr_lba ? v.err_lba - lba : nr_lba;
	zdisk_leave(z);

	if (keep)
		sret = store_io(z, true, false, lba, keep, iov, iov_cnt, 0);
	if (!sret && keep && durable_now)
		sret = zstore_sync_data(z->store);

	zdisk_enter(z);
	/* The power went while the data was stored: the write never completes. */
	if (!sret && z->off)
		sret = ZL_E_POWER_LOSS;
	if (!sret) {
		/* Store the zone words now only if the data is durable. */
		z->store_mode = durable_now ? 1 : 0;
		zdev_write_commit(z->dev, lba, keep);
		z->store_mode = -1;
		if (keep && !durable_now)
			z->data_dirty = true;
		/* The cache was turned off while this write ran: nobody will flush. */
		if (!z->wce && (z->any_dirty || z->data_dirty))
			sret = zdisk_flush_locked(z);
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
		if (fua) {
			z->stats.fua_writes++;
			z->stats.fua_write_lbas += nr_lba;
		}
	}
	zdisk_leave(z);
	/*
	 * The words of this write's zones are in the table; make them durable
	 * outside the lock.  Not zstore_sync_table(): its dirty range belongs
	 * to whoever holds the lock.
	 */
	if (!sret && durable_now && keep) {
		sret = zstore_sync_words(z->store, zf, zl);
		if (sret) {
			zdisk_enter(z);
			ret = fail(z, sret);
			zdisk_leave(z);
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
	zdisk_enter(z);
	ret = apply_faults(z, ZFAULT_OP_FLUSH, 0, 0, &v, io);
	if (!ret && v.err == ZL_E_TORN_WRITE)
		ret = ZL_E_MEDIUM_WRITE;
	if (!ret)
		ret = zdisk_flush_locked(z);
	if (ret)
		fail(z, ret);
	else
		z->stats.flushes++;
	zdisk_leave(z);
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

/* Per-operation counters of a zone command that succeeded (zl_stats). */
static void count_zone_cmd(struct zl_stats *s, enum zl_zone_op op, bool all, uint32_t changed)
{
	s->zone_ops++;
	s->zop_zones += all ? changed : 1;
	switch (op) {
	case ZL_ZOP_OPEN: (*(all ? &s->zop_open_all : &s->zop_open))++; break;
	case ZL_ZOP_CLOSE: (*(all ? &s->zop_close_all : &s->zop_close))++; break;
	case ZL_ZOP_FINISH: (*(all ? &s->zop_finish_all : &s->zop_finish))++; break;
	case ZL_ZOP_RESET: (*(all ? &s->zop_reset_all : &s->zop_reset))++; break;
	}
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
	zdisk_enter(z);
	/* Wait for writes in flight on the zone (or on any zone, for ALL). */
	if (all) {
		while (z->nr_busy)
			zdisk_wait_zones(z);
	} else if (lba < g->capacity_lba) {
		idx = zdev_zone_of(z->dev, lba);
		while (z->busy[idx])
			zdisk_wait_zones(z);
	}
	ret = apply_faults(z, ZFAULT_OP_ZONE, all ? 0 : lba,
			   all ? g->capacity_lba : (lba < g->capacity_lba ?
						    g->zone_size_lba - (lba % g->zone_size_lba) : 0),
			   &v, io);
	if (!ret && v.err == ZL_E_TORN_WRITE)
		ret = ZL_E_MEDIUM_WRITE;
	if (!ret) {
		z->ctx = op_ctx(op);
		z->ctx_zones = 0;
		ret = zdev_zone_op(z->dev, op, lba, all);
		z->ctx = CTX_NONE;
	}
	/*
	 * With the write cache off the new zone state is durable now (its
	 * words were stored by zdisk_on_zone_changed(); sync the table).  With it
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
		count_zone_cmd(&z->stats, op, all, z->ctx_zones);
	zdisk_leave(z);
	return ret;
}

int zdisk_report(struct zdisk *z, uint64_t start_lba, enum zl_report_opt opt,
		 struct zl_zone_info *out, uint32_t max, uint64_t *next)
{
	int ret;

	zdisk_enter(z);
	ret = zdev_report(z->dev, start_lba, opt, out, max, next);
	if (ret < 0) {
		fail(z, ret);
	} else {
		z->stats.reports++;
		z->stats.report_zones += (uint64_t)ret;
	}
	zdisk_leave(z);
	return ret;
}

int64_t zdisk_report_count(struct zdisk *z, uint64_t start_lba, enum zl_report_opt opt)
{
	int64_t n;

	zdisk_enter(z);
	n = zdev_report_count(z->dev, start_lba, opt);
	zdisk_leave(z);
	return n;
}
