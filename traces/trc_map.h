/*
 * trc_map.h — replaying a trace into the simulator: the mapping of a trace's
 * byte addresses onto the one simulated file, the pre-pass that sizes the
 * file (and counts the trace's descriptors), and the mapping source: a
 * struct trc_source over a trace that can be read again from its start,
 * whose records are in the file's byte space, 4 KiB aligned, looped.
 *
 * Mappings (4 KiB blocks; an unaligned offset or length is widened to the
 * blocks it touches):
 *   compact  each distinct block gets the next free file block, in first
 *            touch order (reads, writes and discards touch); an
 *            open-addressing hash, memory proportional to the footprint,
 *            built by the pre-pass.  File = the footprint.
 *   direct   offsets kept.  File = the highest byte touched, rounded up.
 *   scale    the first block of a request is scaled by file / trace size
 *            (trace size = highest byte touched), the length is kept (a
 *            request that would end past the file is moved back to end at
 *            its end).  File = whatever the caller sets.
 * A request whose blocks do not follow each other in the file (compact)
 * becomes several records: the first one carries the request, the others
 * TRC_HAS_CONT.  Ops without a byte range (flush, zone ops, other) pass with
 * offset 0 and length 0.
 *
 * Not a reader (the readers are trc_reader_*), not the simulator.
 */
#ifndef TRC_MAP_H
#define TRC_MAP_H

#include <stddef.h>
#include <stdint.h>

#include "trc.h"

/* trc_rec.has: set by a source that split one request into several records
 * (the mapping source): this record continues the previous record's request. */
#define TRC_HAS_CONT (1u << 15)

#define TRC_MAP_BLOCK 4096u

enum trc_map_mode { TRC_MAP_COMPACT = 0, TRC_MAP_DIRECT, TRC_MAP_SCALE };
/* How the modes are spelled (--map), indexed by value, NULL-terminated. */
extern const char *const trc_map_names[];

/*
 * A trace that can be read from its start any number of times: open()
 * returns a fresh source over all of it (0, or -errno with a message in
 * @msg).  The trace readers, an in-memory array (trc_src_array.h), a
 * generator all fit.
 */
struct trc_input {
	int (*open)(void *arg, struct trc_source **out, char *msg, size_t msg_len);
	void *arg;
	const char *name;            /* for messages and the JSON (a path); may be NULL */
};

/* What the pre-pass counted in one pass of the trace. */
struct trc_map_desc {
	uint64_t nr_recs;                         /* records (= requests of one loop) */
	uint64_t nr_ops[TRC_NR_OPS];              /* records per op */
	uint64_t bytes_ops[TRC_NR_OPS];           /* their bytes as the trace gives them */
	uint64_t min_ts_ns, max_ts_ns;            /* earliest and latest arrival */
	uint64_t max_end_bytes;                   /* end of the highest block touched */
	uint64_t fp_blocks;                       /* distinct 4 KiB blocks touched */
	uint64_t fp_written_blocks, fp_read_blocks, fp_discarded_blocks;
	uint64_t nr_unaligned;                    /* data requests widened to 4 KiB */
	uint64_t mem_bytes;                       /* of the block hash */
};

struct trc_map;

/* trc_map_create() - an empty map of @mode.  0, -EINVAL, -ENOMEM. */
int trc_map_create(enum trc_map_mode mode, struct trc_map **out);
void trc_map_destroy(struct trc_map *m);      /* NULL is a no-op */

/**
 * trc_map_scan() - the pre-pass: read @in once, count its descriptors and
 * (every mode) its distinct blocks, numbered in first-touch order; each
 * record also goes to @st when not NULL (trc_stat_add(): the full
 * descriptors of `zonelab trace stat`).  Once per map.  Returns 0, the
 * input's error (its message in @msg), -EINVAL for a record whose range
 * overflows 2^64, -ENOMEM.
 */
int trc_map_scan(struct trc_map *m, const struct trc_input *in, struct trc_stat *st, char *msg,
		 size_t msg_len);
const struct trc_map_desc *trc_map_desc(const struct trc_map *m);
enum trc_map_mode trc_map_mode(const struct trc_map *m);

/* trc_map_need_blocks() - the smallest file the mode can map the scanned
 * trace into: compact the footprint, direct the highest block touched,
 * scale the largest request. */
uint64_t trc_map_need_blocks(const struct trc_map *m);

/* trc_map_set_file() - the file's size in blocks; 0 or -EINVAL below
 * trc_map_need_blocks(). */
int trc_map_set_file(struct trc_map *m, uint64_t file_blocks);
uint64_t trc_map_file_blocks(const struct trc_map *m);

/**
 * trc_map_block() - in *@fb the file block of trace block @tb, the first
 * block of a run of @nr_blocks (after trc_map_set_file()).  Compact and
 * direct map each block on its own (call it per block, @nr_blocks 1);
 * scale maps the first block of a request and the caller keeps the rest
 * contiguous (*@fb + @nr_blocks <= file).  Returns 0, or -ENOENT for a
 * block the pre-pass did not see (compact: the trace changed between
 * passes), -ERANGE past the file (direct).
 */
int trc_map_block(const struct trc_map *m, uint64_t tb, uint64_t nr_blocks, uint64_t *fb);

/* The mapping source (trc_map_source_create()). */
struct trc_map_source_cfg {
	const struct trc_input *in;  /* borrowed */
	const struct trc_map *map;   /* borrowed: scanned, file set */
	uint32_t loops;              /* passes over the trace, >= 1 */
};

/**
 * trc_map_source_create() - a source of @cfg->loops passes over the trace,
 * mapped.  Arrival times: ts - min_ts of the pre-pass, plus loop x period
 * (period = the trace's span plus its mean inter-arrival time), never
 * earlier than the previous record's.  The input is reopened for each
 * pass; its errors and a block not seen by the pre-pass end the stream
 * (next() < 0, message in src->msg).  Returns 0 or -EINVAL, -ENOMEM.
 */
int trc_map_source_create(const struct trc_map_source_cfg *cfg, struct trc_source **out);

#endif /* TRC_MAP_H */
