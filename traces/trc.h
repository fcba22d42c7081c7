/*
 * trc.h — block I/O traces: one record type for every format, one streaming
 * reader interface, and the workload source the simulator consumes.
 *
 * A reader turns a file (blktrace binary, blkparse text, fio iolog v2/v3,
 * MSR Cambridge CSV, Alibaba / Tencent CSV, SPC ASCII, zonelab's command
 * trace, the native binary format) into a stream of struct trc_rec, one at
 * a time: memory does not grow with the trace's length.  A workload source
 * (struct trc_source) is what the simulator reads operations from: the
 * synthetic generators (sequential, uniform, hot/cold, Zipf) and a trace
 * reader behind a mapping both are sources, so the simulator holds no
 * workload code.
 *
 * Units are in names: bytes and ns.  Nothing here does I/O to a device; the
 * replay onto a disk lives in trc_replay.c.  Errors: 0 or a count, negative
 * -errno (-EINVAL malformed input, -EIO read error, -ENOENT ...); parsers
 * fill a message naming the file, the line or byte offset and what was wrong.
 */
#ifndef TRC_H
#define TRC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What a record asks of the device.  Values are stable (the native format
 * stores them). */
enum trc_op {
	TRC_OP_READ = 0,
	TRC_OP_WRITE = 1,
	TRC_OP_FLUSH = 2,
	TRC_OP_DISCARD = 3,
	TRC_OP_ZONE_RESET = 4,
	TRC_OP_ZONE_FINISH = 5,
	TRC_OP_ZONE_OPEN = 6,
	TRC_OP_ZONE_CLOSE = 7,
	TRC_OP_ZONE_APPEND = 8,
	TRC_OP_OTHER = 9,            /* a command with no block meaning (INQUIRY ...) */
	TRC_NR_OPS
};

/* Which optional fields a record carries (trc_rec.has). */
enum {
	TRC_HAS_DEV = 1u << 0,
	TRC_HAS_LATENCY = 1u << 1,
	TRC_HAS_STATUS = 1u << 2,
	TRC_HAS_PID = 1u << 3,
	TRC_HAS_HINT = 1u << 4,
	TRC_HAS_ALL = 1u << 5,       /* a zone op on every zone (ZBC ALL bit) */
};

/* One request. */
struct trc_rec {
	uint64_t ts_ns;              /* arrival, from the trace's start (or its own epoch) */
	uint64_t offset_bytes;       /* first byte */
	uint64_t len_bytes;          /* 0 for flush; zone ops: the zone's size or 0 */
	uint64_t latency_ns;         /* TRC_HAS_LATENCY: arrival to completion */
	uint32_t dev;                /* TRC_HAS_DEV: device / volume / disk number */
	uint32_t pid;                /* TRC_HAS_PID */
	uint32_t status;             /* TRC_HAS_STATUS: 0 = ok; SCSI: status << 24 | key << 16 | asc << 8 | ascq */
	uint8_t op;                  /* enum trc_op */
	uint8_t hint;                /* TRC_HAS_HINT: write-life hint, RWH_WRITE_LIFE_* (0-5) */
	uint16_t has;                /* TRC_HAS_* */
};

const char *trc_op_name(enum trc_op op);

/*
 * A workload source: the simulator pulls operations from it, one at a time.
 * next() returns 1 with *rec filled, 0 at the end, negative on error (with a
 * message in msg).  Sources are deterministic from their configuration and
 * seed.  Offsets a source produces are in the simulated file's byte space
 * (already mapped), aligned to 4 KiB.
 */
struct trc_source {
	const struct trc_source_ops *ops;
	char msg[256];               /* why next() failed */
};

struct trc_source_ops {
	int (*next)(struct trc_source *src, struct trc_rec *rec);
	void (*destroy)(struct trc_source *src);
};

static inline int trc_source_next(struct trc_source *src, struct trc_rec *rec)
{
	return src->ops->next(src, rec);
}

static inline void trc_source_destroy(struct trc_source *src)
{
	if (src)
		src->ops->destroy(src);
}

#endif /* TRC_H */
