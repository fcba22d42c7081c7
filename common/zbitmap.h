/*
 * zbitmap.h — a bitmap with a summary hierarchy (one bit per 64-bit word of
 * the level below), so "next set bit at or after i" costs O(levels), about
 * O(log64 n), however sparse the bitmap.  zdev keeps one per zone condition
 * so REPORT ZONES with a filter costs O(zones reported), not O(zones).
 * Caller storage (_init/_fini); not thread-safe.
 */
#ifndef ZBITMAP_H
#define ZBITMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ZBITMAP_MAX_LEVELS 6
#define ZBITMAP_NONE UINT32_MAX

struct zbitmap {
	uint32_t nbits;
	uint32_t nlevels;
	uint64_t *lv[ZBITMAP_MAX_LEVELS];      /* lv[0] holds the bits */
	uint32_t nwords[ZBITMAP_MAX_LEVELS];
};

/* All bits clear.  Returns 0 or -ENOMEM. */
int zbitmap_init(struct zbitmap *b, uint32_t nbits);
void zbitmap_fini(struct zbitmap *b);
size_t zbitmap_mem_bytes(const struct zbitmap *b);

void zbitmap_set(struct zbitmap *b, uint32_t i);
void zbitmap_clear(struct zbitmap *b, uint32_t i);

static inline bool zbitmap_test(const struct zbitmap *b, uint32_t i)
{
	return (b->lv[0][i >> 6] >> (i & 63)) & 1;
}

/* Smallest set bit >= i, or ZBITMAP_NONE. */
uint32_t zbitmap_next(const struct zbitmap *b, uint32_t i);

/* Number of set bits in [i, nbits). O(nbits / 64). */
uint64_t zbitmap_count_from(const struct zbitmap *b, uint32_t i);

#endif /* ZBITMAP_H */
