/*
 * zl_rng.h — the project's one pseudo-random generator: xoshiro256**
 * (Blackman and Vigna) seeded through splitmix64, static inline, with a
 * 32-byte state the caller owns.  zfault (one generator per fault rule) and
 * the simulator (sim/sim*.c) both draw from it, so a seed
 * means the same stream everywhere; the streams are pinned by the
 * simulator's per-seed JSON and the seeded fault tests: changing a formula
 * here changes every seeded result.
 *
 * Not cryptographic, not thread-safe (one state per user), and no seeding
 * from a clock or the environment: every seed comes from the caller.
 */
#ifndef ZL_RNG_H
#define ZL_RNG_H

#include <stdint.h>

struct zl_rng {
	uint64_t s[4];                /* xoshiro256** state; never all zero */
};

/* One splitmix64 step: advances *@state by the golden gamma, returns its mix. */
static inline uint64_t zl_splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static inline uint64_t zl_rotl64(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

/*
 * The state words from @seed: four splitmix64 outputs.  splitmix64 is a
 * bijection of its counter, so at most one of four consecutive outputs is
 * zero and the state is never all zero.
 */
static inline void zl_rng_seed(struct zl_rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = zl_splitmix64(&seed);
}

/* One xoshiro256** step. */
static inline uint64_t zl_rng_next(struct zl_rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = zl_rotl64(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = zl_rotl64(s[3], 45);
	return result;
}

/* Uniform in [0, 1) with 53 random bits (the top 53 of an output). */
static inline double zl_rng_unit(struct zl_rng *r)
{
	return (double)(zl_rng_next(r) >> 11) * 0x1.0p-53;
}

/*
 * Uniform in [0, @n) (Lemire's multiply-shift, no division; bias below
 * n / 2^64).  @n = 0 gives 0.
 */
static inline uint64_t zl_rng_below(struct zl_rng *r, uint64_t n)
{
	return (uint64_t)(((unsigned __int128)zl_rng_next(r) * n) >> 64);
}

#endif /* ZL_RNG_H */
