/*
 * zl_test.h — small helpers shared by the cmocka test programs, the
 * benchmarks, the tcmu stand-in programs and the conformance runner:
 * scratch directories, a seeded generator, big-endian fields, the build
 * directory, a zdisk command on a thread of its own, a host stall probe.
 * The wall clock only where a test runs in real time (zl_test_now_ns()).
 *
 * The static inlines need nothing at link time (the fuzz targets use them);
 * the other functions live in zl_test.c (no library calls) and, for the
 * zdisk ones, zl_test_disk.c (a program that links it links libzonelab.a).
 */
#ifndef ZL_TEST_H
#define ZL_TEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "zfault.h"
#include "zl_rng.h"

struct zdisk;

/* Create a fresh scratch directory (under $TMPDIR or /tmp); caller frees
 * the string and removes the tree with zl_test_rmdir(). */
char *zl_test_mkdtemp(const char *tag);
void zl_test_rmdir(const char *path);

/* splitmix64 (zl_rng.h): deterministic from its state. */
static inline uint64_t zl_test_rand(uint64_t *state)
{
	return zl_splitmix64(state);
}

/*
 * Monotonic time in ns (CLOCK_MONOTONIC, as zl_timed_clock_ns()): for
 * benchmarks, and for real-time tests only through a bound that a host
 * stall cannot break (a lower bound, or one judged with a zl_test_probe).
 */
uint64_t zl_test_now_ns(void);

/*
 * A host stall probe, in process: a thread sleeping ZL_TEST_PROBE_TICK_NS at
 * a time that keeps every span it was woken more than ZL_TEST_PROBE_LATE_NS
 * late (the time it was due to run and did not: the host did not schedule
 * it).  A thread of the same process woken meanwhile (a timer thread, the
 * test's own) waited the same way, so a real-time test subtracts the stall
 * inside a command's interval before it judges an upper bound, and retries a
 * round whose bound still fails only if the probe saw a stall in it (as the
 * e2e timing check does with tests/e2e/guest/stall_probe.py).
 */
#define ZL_TEST_PROBE_TICK_NS 1000000ull     /* 1 ms */
#define ZL_TEST_PROBE_LATE_NS 500000ull      /* woken later than this: a stall */

struct zl_test_probe;

/* Start the probe's thread.  0, or -errno (caller owns *@out on success). */
int zl_test_probe_start(struct zl_test_probe **out);

/* Stop and free it (NULL: no-op). */
void zl_test_probe_stop(struct zl_test_probe *p);

/*
 * The stalled time (ns) the probe saw inside [@t0, @t1] (zl_test_now_ns()
 * times), once it has woken past @t1 (it waits for that).
 */
uint64_t zl_test_probe_stalled_ns(struct zl_test_probe *p, uint64_t t0, uint64_t t1);

/* The longest single stall (ns) the probe saw inside [@t0, @t1]. */
uint64_t zl_test_probe_worst_ns(struct zl_test_probe *p, uint64_t t0, uint64_t t1);

/* Store the low @nbytes (1..8) bytes of @v at @p, most significant first
 * (CDB fields, parameter lists). */
static inline void zl_test_put_be(uint8_t *p, uint64_t v, int nbytes)
{
	for (int i = nbytes - 1; i >= 0; i--, v >>= 8)
		p[i] = (uint8_t)v;
}

/* The big-endian number in the @nbytes (1..8) bytes at @p (data-in, sense). */
static inline uint64_t zl_test_get_be(const uint8_t *p, int nbytes)
{
	uint64_t v = 0;

	for (int i = 0; i < nbytes; i++)
		v = v << 8 | p[i];
	return v;
}

/**
 * zl_test_build_path() - <build>/@rel for a program that runs from
 * <build>/tests/<dir>/<name>, <build> found from /proc/self/exe.
 * Return: 0; -errno when /proc/self/exe cannot be read (@out is then @rel
 * as given); -ENAMETOOLONG when the path does not fit in @len (@out is
 * truncated).
 */
int zl_test_build_path(const char *rel, char *out, size_t len);

/*
 * One zdisk_read()/zdisk_write() of @nr_lba blocks (a write stores zeros)
 * run by zl_test_io_thread() on a thread of its own, for tests that hold it
 * with a stall fault rule and then release it.  The caller sets @ret to a
 * value the command cannot return (e.g. -1) to see whether it came back.
 */
struct zl_test_io {
	struct zdisk *z;           /* borrowed */
	bool write;
	uint64_t lba;
	uint64_t nr_lba;
	int ret;                   /* the command's return code, -ENOMEM */
};

/* pthread start routine; @arg is a struct zl_test_io. */
void *zl_test_io_thread(void *arg);

/* Wait (yielding) until @z has acted on at least @n fault verdicts. */
void zl_test_wait_faults_fired(struct zdisk *z, uint64_t n);

/* Every field of two fault rules is equal (parser/formatter round trips). */
static inline bool zl_test_zfault_rule_is_equal(const struct zfault_rule *a,
						const struct zfault_rule *b)
{
	return a->action == b->action && a->ops == b->ops &&
	       a->lba_first == b->lba_first && a->lba_last == b->lba_last &&
	       a->zone_first == b->zone_first && a->zone_last == b->zone_last &&
	       a->after == b->after && a->prob == b->prob && a->count == b->count &&
	       a->torn_keep_lba == b->torn_keep_lba && a->torn_keep_pct == b->torn_keep_pct &&
	       a->dist == b->dist && a->lat_a_ns == b->lat_a_ns && a->lat_b_ns == b->lat_b_ns;
}

#endif
