/*
 * zl_test.h — small helpers shared by the cmocka test programs and the
 * benchmarks: scratch directories and a seeded generator.  No wall clock.
 */
#ifndef ZL_TEST_H
#define ZL_TEST_H

#include <stddef.h>
#include <stdint.h>

/* Create a fresh scratch directory (under $TMPDIR or /tmp); caller frees
 * the string and removes the tree with zl_test_rmdir(). */
char *zl_test_mkdtemp(const char *tag);
void zl_test_rmdir(const char *path);

/* splitmix64: deterministic from its state. */
static inline uint64_t zl_test_rand(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Monotonic time in ns, for benchmarks only (never in assertions). */
uint64_t zl_test_now_ns(void);

#endif
