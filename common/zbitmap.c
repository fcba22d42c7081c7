/*
 * zbitmap.c — hierarchical bitmap, see zbitmap.h.  Level L+1 has bit w set
 * iff word w of level L is non-zero; the top level fits in one word.
 */
#include "zbitmap.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* L levels of 64-bit words index 64^L = 2^(6L) bits: any uint32_t size ends in a one-word top level. */
_Static_assert(ZBITMAP_MAX_LEVELS * 6 >= 32, "ZBITMAP_MAX_LEVELS too small for 2^32 bits");

int zbitmap_init(struct zbitmap *b, uint32_t nbits)
{
	uint32_t n = nbits ? nbits : 1;
	uint32_t l;

	memset(b, 0, sizeof(*b));
	b->nbits = nbits;
	for (l = 0; l < ZBITMAP_MAX_LEVELS; l++) {
		b->nwords[l] = n / 64 + (n % 64 != 0);     /* (n + 63 wraps near 2^32) */
		b->lv[l] = calloc(b->nwords[l], sizeof(uint64_t));
		if (!b->lv[l]) {
			zbitmap_fini(b);
			return -ENOMEM;
		}
		b->nlevels = l + 1;
		if (b->nwords[l] == 1)
			break;
		n = b->nwords[l];
	}
	return 0;
}

void zbitmap_fini(struct zbitmap *b)
{
	for (uint32_t l = 0; l < ZBITMAP_MAX_LEVELS; l++)
		free(b->lv[l]);
	memset(b, 0, sizeof(*b));
}

size_t zbitmap_mem_bytes(const struct zbitmap *b)
{
	size_t sz = 0;

	for (uint32_t l = 0; l < b->nlevels; l++)
		sz += (size_t)b->nwords[l] * sizeof(uint64_t);
	return sz;
}

void zbitmap_set(struct zbitmap *b, uint32_t i)
{
	for (uint32_t l = 0; l < b->nlevels; l++) {
		uint64_t *w = &b->lv[l][i >> 6];
		bool was_zero = *w == 0;

		*w |= 1ull << (i & 63);
		if (!was_zero)
			return;
		i >>= 6;
	}
}

void zbitmap_clear(struct zbitmap *b, uint32_t i)
{
	for (uint32_t l = 0; l < b->nlevels; l++) {
		uint64_t *w = &b->lv[l][i >> 6];

		*w &= ~(1ull << (i & 63));
		if (*w != 0)
			return;
		i >>= 6;
	}
}

/* Descend from a set bit @i at level @l to the lowest set bit below it. */
static uint32_t descend(const struct zbitmap *b, uint32_t l, uint32_t i)
{
	while (l > 0) {
		l--;
		i = (i << 6) + (uint32_t)__builtin_ctzll(b->lv[l][i]);
	}
	return i;
}

uint32_t zbitmap_next(const struct zbitmap *b, uint32_t i)
{
	uint32_t l = 0;

	if (i >= b->nbits)
		return ZBITMAP_NONE;
	for (;;) {
		uint32_t wi = i >> 6;
		uint64_t w;

		if (wi >= b->nwords[l])
			return ZBITMAP_NONE;
		w = b->lv[l][wi] & (~0ull << (i & 63));
		if (w) {
			uint32_t r = descend(b, l, (wi << 6) + (uint32_t)__builtin_ctzll(w));

			return r < b->nbits ? r : ZBITMAP_NONE;
		}
		if (++l >= b->nlevels)
			return ZBITMAP_NONE;
		i = wi + 1;
	}
}

uint64_t zbitmap_count_from(const struct zbitmap *b, uint32_t i)
{
	uint64_t n = 0;
	uint32_t wi;

	if (i >= b->nbits)
		return 0;
	wi = i >> 6;
	n += (uint64_t)__builtin_popcountll(b->lv[0][wi] & (~0ull << (i & 63)));
	for (wi++; wi < b->nwords[0]; wi++)
		n += (uint64_t)__builtin_popcountll(b->lv[0][wi]);
	return n;
}
