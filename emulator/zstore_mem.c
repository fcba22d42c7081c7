/*
 * zstore_mem.c — the sparse in-memory data backend of zstore (ZSTORE_MEM).
 *
 * Data lives in 64 KiB chunks allocated on first write; a never-written (or
 * discarded) chunk reads as zeros.  Chunk pointers sit in 32 KiB leaves of
 * 4096 pointers (256 MiB of data each), allocated on first write too, under a
 * directory allocated at create time: 32 KiB for 1 TiB, so a huge, mostly
 * empty device costs almost nothing.  Chunks and leaves are published with
 * compare-and-swap so writes to disjoint ranges may run concurrently, as
 * zstore.h allows.  This file knows nothing of LBAs, zones or the zone
 * table; zstore.c hands it byte offsets already checked against the size.
 */
#include "zstore_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK_BYTES (UINT64_C(1) << ZSTORE_MEM_CHUNK_SHIFT)
#define LEAF_SLOTS (UINT64_C(1) << ZSTORE_MEM_LEAF_SHIFT)

struct zstore_mem {
	uint64_t len_bytes;       /* device data size */
	uint64_t nr_leaves;       /* directory slots */
	unsigned char ***dir;     /* nr_leaves leaves of LEAF_SLOTS chunk pointers */
	uint64_t nr_chunks_held;  /* atomic */
	uint64_t nr_leaves_held;  /* atomic */
};

int zstore_mem_create(uint64_t len_bytes, struct zstore_mem **out)
{
	uint64_t nr_chunks = (len_bytes + CHUNK_BYTES - 1) >> ZSTORE_MEM_CHUNK_SHIFT;
	struct zstore_mem *m;

	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	m->len_bytes = len_bytes;
	m->nr_leaves = (nr_chunks + LEAF_SLOTS - 1) >> ZSTORE_MEM_LEAF_SHIFT;
	if (m->nr_leaves > SIZE_MAX / sizeof(*m->dir))
		goto out_free_mem;
	m->dir = calloc(m->nr_leaves ? m->nr_leaves : 1, sizeof(*m->dir));
	if (!m->dir)
		goto out_free_mem;
	*out = m;
	return 0;

out_free_mem:
	free(m);
	return -ENOMEM;
}

void zstore_mem_destroy(struct zstore_mem *m)
{
	if (!m)
		return;
	for (uint64_t li = 0; li < m->nr_leaves; li++) {
		unsigned char **leaf = m->dir[li];

		if (!leaf)
			continue;
		for (uint64_t ci = 0; ci < LEAF_SLOTS; ci++)
			free(leaf[ci]);
		free(leaf);
	}
	free(m->dir);
	free(m);
}

/* Chunk @c or NULL if it was never written. */
static unsigned char *chunk_peek(const struct zstore_mem *m, uint64_t c)
{
	unsigned char **leaf = __atomic_load_n(&m->dir[c >> ZSTORE_MEM_LEAF_SHIFT],
					       __ATOMIC_ACQUIRE);

	if (!leaf)
		return NULL;
	return __atomic_load_n(&leaf[c & (LEAF_SLOTS - 1)], __ATOMIC_ACQUIRE);
}

/* Publish a zeroed allocation in *@slot unless another thread did first. */
static void *slot_get_or_alloc(void **slot, size_t bytes, uint64_t *counter)
{
	void *cur = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
	void *fresh;

	if (cur)
		return cur;
	fresh = calloc(1, bytes);
	if (!fresh)
		return NULL;
	if (__atomic_compare_exchange_n(slot, &cur, fresh, false, __ATOMIC_ACQ_REL,
					__ATOMIC_ACQUIRE)) {
		__atomic_add_fetch(counter, 1, __ATOMIC_RELAXED);
		return fresh;
	}
	free(fresh);
	return cur;
}

static unsigned char *chunk_get(struct zstore_mem *m, uint64_t c)
{
	unsigned char **leaf;

	leaf = slot_get_or_alloc((void **)&m->dir[c >> ZSTORE_MEM_LEAF_SHIFT],
				 LEAF_SLOTS * sizeof(*leaf), &m->nr_leaves_held);
	if (!leaf)
		return NULL;
	return slot_get_or_alloc((void **)&leaf[c & (LEAF_SLOTS - 1)], CHUNK_BYTES,
				 &m->nr_chunks_held);
}

void zstore_mem_read(const struct zstore_mem *m, uint64_t off, uint64_t len, void *buf)
{
	unsigned char *dst = buf;

	while (len) {
		uint64_t c = off >> ZSTORE_MEM_CHUNK_SHIFT;
		uint64_t in = off & (CHUNK_BYTES - 1);
		uint64_t n = CHUNK_BYTES - in < len ? CHUNK_BYTES - in : len;
		const unsigned char *chunk = chunk_peek(m, c);

		if (chunk)
			memcpy(dst, chunk + in, n);
		else
			memset(dst, 0, n);
		dst += n;
		off += n;
		len -= n;
	}
}

int zstore_mem_write(struct zstore_mem *m, uint64_t off, uint64_t len, const void *buf)
{
	const unsigned char *src = buf;

	while (len) {
		uint64_t c = off >> ZSTORE_MEM_CHUNK_SHIFT;
		uint64_t in = off & (CHUNK_BYTES - 1);
		uint64_t n = CHUNK_BYTES - in < len ? CHUNK_BYTES - in : len;
		unsigned char *chunk = chunk_get(m, c);

		if (!chunk)
			return -ENOMEM;
		memcpy(chunk + in, src, n);
		src += n;
		off += n;
		len -= n;
	}
	return 0;
}

void zstore_mem_discard(struct zstore_mem *m, uint64_t off, uint64_t len)
{
	while (len) {
		uint64_t c = off >> ZSTORE_MEM_CHUNK_SHIFT;
		uint64_t in = off & (CHUNK_BYTES - 1);
		uint64_t n = CHUNK_BYTES - in < len ? CHUNK_BYTES - in : len;
		unsigned char **leaf = __atomic_load_n(&m->dir[c >> ZSTORE_MEM_LEAF_SHIFT],
						       __ATOMIC_ACQUIRE);

		if (leaf) {
			unsigned char **slot = &leaf[c & (LEAF_SLOTS - 1)];

			if (n == CHUNK_BYTES) {
				/* Whole chunk: nobody else may touch it (disjoint ranges). */
				unsigned char *old = __atomic_exchange_n(slot, NULL,
									 __ATOMIC_ACQ_REL);

				if (old) {
					free(old);
					__atomic_sub_fetch(&m->nr_chunks_held, 1,
							   __ATOMIC_RELAXED);
				}
			} else {
				unsigned char *chunk = __atomic_load_n(slot, __ATOMIC_ACQUIRE);

				if (chunk)
					memset(chunk + in, 0, n);
			}
		}
		off += n;
		len -= n;
	}
}

size_t zstore_mem_held(const struct zstore_mem *m)
{
	uint64_t chunks = __atomic_load_n(&m->nr_chunks_held, __ATOMIC_RELAXED);
	uint64_t leaves = __atomic_load_n(&m->nr_leaves_held, __ATOMIC_RELAXED);

	return sizeof(*m) + (m->nr_leaves ? m->nr_leaves : 1) * sizeof(*m->dir) +
	       leaves * LEAF_SLOTS * sizeof(*m->dir[0]) + chunks * CHUNK_BYTES;
}
