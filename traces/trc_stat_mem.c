/*
 * trc_stat_mem.c — trace stat's memory helpers (trc_stat_mem.h): the
 * huge-page arenas its footprint lives in and the radix sort of its key
 * queues.  No trace or footprint logic here.
 */
#include "trc_stat_mem.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* Bytes of chunk @i: 64 KiB doubling up to TRC_CHUNK_BYTES (a small trace
 * stays small). */
static size_t chunk_bytes(size_t i)
{
	return i < 5 ? (64u << 10) << i : TRC_CHUNK_BYTES;
}

void *trc_arena_alloc(struct trc_arena *a, size_t size, uint64_t *mem)
{
	void *p;

	if (a->left < size) {
		uint8_t *m, *c;
		size_t lead;

		if (a->nr_chunks == a->cap_chunks) {
			size_t cap = a->cap_chunks ? a->cap_chunks * 2 : 16;
			uint8_t **nc = realloc(a->chunks, cap * sizeof(*nc));

			if (!nc)
				return NULL;
			a->chunks = nc;
			a->cap_chunks = cap;
		}
		if (chunk_bytes(a->nr_chunks) < TRC_CHUNK_BYTES) {
			c = mmap(NULL, chunk_bytes(a->nr_chunks), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
				 -1, 0);
			if (c == MAP_FAILED)
				return NULL;
		} else {
			/* map twice the size and keep the aligned middle: a huge page needs it */
			m = mmap(NULL, 2 * (size_t)TRC_CHUNK_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
				 -1, 0);
			if (m == MAP_FAILED)
				return NULL;
			c = (uint8_t *)(((uintptr_t)m + TRC_CHUNK_BYTES - 1) & ~(uintptr_t)(TRC_CHUNK_BYTES - 1));
			lead = (size_t)(c - m);
			if (lead)
				munmap(m, lead);
			munmap(c + TRC_CHUNK_BYTES, TRC_CHUNK_BYTES - lead);
			madvise(c, TRC_CHUNK_BYTES, MADV_HUGEPAGE);     /* a hint: 4 KiB pages work too */
		}
		a->cur = c;
		a->left = chunk_bytes(a->nr_chunks);
		*mem += a->left;
		a->chunks[a->nr_chunks++] = c;
	}
	p = a->cur;
	a->cur += size;
	a->left -= size;
	return p;
}

void trc_arena_fini(struct trc_arena *a)
{
	for (size_t i = 0; i < a->nr_chunks; i++)
		munmap(a->chunks[i], chunk_bytes(i));
	free(a->chunks);
	memset(a, 0, sizeof(*a));
}

void trc_radix_sort(uint64_t **k, uint64_t **tmp, size_t n, unsigned lo, unsigned hi)
{
	unsigned passes = (hi - lo + TRC_RADIX_BITS - 1) / TRC_RADIX_BITS;
	uint32_t cnt[4][1u << TRC_RADIX_BITS];
	uint64_t *a = *k, *b = *tmp;

	if (hi <= lo || n < 2)
		return;
	assert(passes <= 4);                 /* the caller's range: at most 44 bits */
	memset(cnt, 0, sizeof(cnt[0]) * passes);
	for (size_t i = 0; i < n; i++)
		for (unsigned p = 0; p < passes; p++)
			cnt[p][(a[i] >> (lo + p * TRC_RADIX_BITS)) & ((1u << TRC_RADIX_BITS) - 1)]++;
	for (unsigned p = 0; p < passes; p++) {
		unsigned sh = lo + p * TRC_RADIX_BITS;
		uint32_t sum = 0, *c = cnt[p];
		uint64_t *sw;

		for (unsigned d = 0; d < (1u << TRC_RADIX_BITS); d++) {
			uint32_t x = c[d];

			c[d] = sum;
			sum += x;
		}
		for (size_t i = 0; i < n; i++)
			b[c[(a[i] >> sh) & ((1u << TRC_RADIX_BITS) - 1)]++] = a[i];
		sw = a;
		a = b;
		b = sw;
	}
	*k = a;
	*tmp = b;
}
