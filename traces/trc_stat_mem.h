/*
 * trc_stat_mem.h — the memory helpers of trace stat (trc_stat.c): arenas of
 * zeroed memory in huge-page chunks, and the radix sort of its key queues.
 * Private to traces/; nothing here knows about records or leaves.
 */
#ifndef TRC_STAT_MEM_H
#define TRC_STAT_MEM_H

#include <stddef.h>
#include <stdint.h>

/*
 * Read bitmaps and write counters come from arenas of 2 MiB chunks mapped
 * with MADV_HUGEPAGE: a large volume's counters are tens of MiB touched at
 * random, and with 4 KiB pages every access missed the TLB (a nested page
 * walk in a VM) and every first touch faulted.  The first chunks are
 * smaller (64 KiB doubling), so a small trace stays small.  Memory is
 * never freed before trc_arena_fini().
 */
#define TRC_CHUNK_BYTES (2u << 20)

struct trc_arena {
	uint8_t *cur;                /* next free byte of the current chunk */
	size_t left;                 /* bytes free at cur */
	uint8_t **chunks;
	size_t nr_chunks, cap_chunks;
};

/* @size zeroed bytes (a divisor of 64 KiB), or NULL; *@mem += chunk bytes
 * mapped.  A zeroed struct trc_arena is an empty arena. */
void *trc_arena_alloc(struct trc_arena *a, size_t size, uint64_t *mem);
/* Unmaps every chunk; the arena is empty again. */
void trc_arena_fini(struct trc_arena *a);

#define TRC_RADIX_BITS 11
/* Sort @n keys by bits [lo, hi) (LSD radix, TRC_RADIX_BITS a pass; hi - lo
 * at most 44, so at most 4 passes); the result is in *@k, which may have
 * been swapped with *@tmp (n entries each). */
void trc_radix_sort(uint64_t **k, uint64_t **tmp, size_t n, unsigned lo, unsigned hi);

/* Bits of @v up to its highest set bit. */
static inline unsigned trc_bit_len(uint64_t v)
{
	return v ? 64u - (unsigned)__builtin_clzll(v) : 0;
}

#endif /* TRC_STAT_MEM_H */
