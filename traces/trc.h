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
	TRC_HAS_DATASYNC = 1u << 6,  /* a flush that is one file's fdatasync (iolog "datasync") */
	TRC_HAS_FUA = 1u << 7,       /* forced unit access (ztrace FUA bit, blktrace BLK_TC_FUA) */
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


/* ---- reading ------------------------------------------------------------- */

/* Which blktrace / blkparse event stands for a request. */
enum trc_event {
	TRC_EV_DISPATCH = 0,         /* D: the device saw it (default) */
	TRC_EV_QUEUE = 1,            /* Q: the bio arrived at the block layer */
	TRC_EV_COMPLETE = 2,         /* C: completion (carries the error) */
};

/* Reader configuration: format, event and the filters every reader applies. */
struct trc_reader_cfg {
	const char *format;          /* a trc_formats[] name; NULL or "auto": detect */
	enum trc_event event;        /* blktrace / blkparse only */
	bool lenient;                /* skip and count malformed records instead of failing */
	bool dev_filter;             /* keep only records of device @dev (records without a device pass) */
	uint32_t dev;
	uint32_t op_mask;            /* 1u << enum trc_op kept; 0 = all */
	uint64_t from_ns, to_ns;     /* window relative to the first record's time; to_ns 0 = open */
};

void trc_reader_cfg_init(struct trc_reader_cfg *cfg);

struct trc_reader;

/*
 * One row per format: name (for --format), what it is, detect() on the
 * file's first bytes (up to TRC_DETECT_BYTES; true = "this is mine") and
 * open() that sets up the reader.  trc_formats[] is in detection order.
 */
#define TRC_DETECT_BYTES 4096
struct trc_format {
	const char *name;
	const char *desc;
	bool (*detect)(const uint8_t *buf, size_t len);
	int (*open)(struct trc_reader *r);
};
extern const struct trc_format trc_formats[];
extern const size_t trc_nr_formats;
const struct trc_format *trc_format_find(const char *name);

/**
 * trc_reader_open() - open a trace file for streaming.
 * @path: the file (blktrace: any NAME.blktrace.N; its per-CPU siblings are
 *        merged by time); borrowed.
 * @cfg: format, event, filters (copied); NULL = defaults.
 * @out: set on success; caller owns it (trc_reader_close()).
 * Return: 0; -ENOENT/-errno (cannot open), -EINVAL (unknown format name),
 * -EPROTO (no reader recognises the file: @msg names the formats tried),
 * -EBADMSG (bad header), -ENOMEM.  @msg names @path and says why.
 */
int trc_reader_open(const char *path, const struct trc_reader_cfg *cfg, struct trc_reader **out,
		    char *msg, size_t msg_len);
/**
 * trc_reader_next() - the next record that passes the filters.
 * Return: 1 with @rec filled, 0 at the end, -EINVAL for a malformed or
 * truncated record (not with --lenient: then it is skipped and counted),
 * -EBADMSG for a stream that cannot be read on, -EIO on a read error.
 * trc_reader_msg() then names the file, the line or byte offset and what
 * was wrong.  After an error, further calls return 0.
 */
int trc_reader_next(struct trc_reader *r, struct trc_rec *rec);
/**
 * trc_reader_batch() - the next records that pass the filters, up to
 * TRC_BATCH at a time: what a loop over many records calls (the native
 * format hands out its records where it decoded them, or where they lie in
 * the file, without a copy a record).
 * @recs: set to the first record; the records stay valid until the next
 *        call on @r (either function) or trc_reader_close().
 * Return: how many (1 to TRC_BATCH), 0 at the end, or an error as
 * trc_reader_next() (the records read before a malformed one are returned
 * first, the error on the next call).  Calls of the two functions may be
 * mixed: records come in file order either way.
 */
#define TRC_BATCH 128
int trc_reader_batch(struct trc_reader *r, const struct trc_rec **recs);
const char *trc_reader_msg(const struct trc_reader *r);
const char *trc_reader_format(const struct trc_reader *r);   /* the format's name */
uint64_t trc_reader_nr_bad(const struct trc_reader *r);     /* skipped (lenient) */
uint64_t trc_reader_pos(const struct trc_reader *r);        /* bytes consumed */
uint64_t trc_reader_size(const struct trc_reader *r);       /* bytes in the input(s) */
void trc_reader_close(struct trc_reader *r);                /* NULL is a no-op */

/* ---- writing -------------------------------------------------------------- */

enum trc_out_fmt {
	TRC_OUT_NATIVE = 0,          /* docs/TRACES.md, native format */
	TRC_OUT_IOLOG3 = 1,          /* fio iolog version 3 */
	TRC_OUT_BLKPARSE = 2,        /* blkparse default text (one event per record) */
	TRC_OUT_TEXT = 3,            /* `trace cat`: one record a line */
	TRC_OUT_NATIVE_V1 = 4,       /* the native format's version 1 (48-byte records): tests, bench */
};

struct trc_writer;

/**
 * trc_writer_open() - write records to @path ("-" = stdout) in @fmt.
 * @source: name of the input format, kept in the native header (may be NULL).
 * Return: 0, -errno; @msg says why.
 */
int trc_writer_open(const char *path, enum trc_out_fmt fmt, const char *source,
		    struct trc_writer **out, char *msg, size_t msg_len);
/* 0, -EOVERFLOW (a field the format cannot hold), -EINVAL (native: a record no
 * reader takes: op, has, hint out of range, offset + length overflows),
 * -errno on write. */
int trc_writer_put(struct trc_writer *w, const struct trc_rec *rec, char *msg, size_t msg_len);
/* Records skipped because the format cannot express them. */
uint64_t trc_writer_nr_skipped(const struct trc_writer *w);
/* Flushes and closes; 0 or the first write error.  NULL is a no-op. */
int trc_writer_close(struct trc_writer *w, char *msg, size_t msg_len);

/* Native format codec (docs/TRACES.md).  Version 2 (the writer's) holds
 * blocks of variable-size records; version 1's fixed records are below. */
#define TRC_NATIVE_MAGIC "ZLBTRC1"   /* 8 bytes with its NUL, both versions */
#define TRC_NATIVE_HDR_SIZE 64
#define TRC_NATIVE_REC_SIZE 48       /* version 1 */
void trc_native_rec_encode(const struct trc_rec *rec, uint8_t buf[TRC_NATIVE_REC_SIZE]);
/* 0, or -EINVAL (op out of range, unknown has bits) */
int trc_native_rec_decode(const uint8_t buf[TRC_NATIVE_REC_SIZE], struct trc_rec *rec);

/* ---- replay onto a disk (trc_replay.c) ----------------------------------- */

struct trc_replay_result {
	uint64_t nr_recs;            /* records read */
	uint64_t nr_replayed;        /* commands executed on the target */
	uint64_t nr_skipped;         /* records with nothing to replay (see docs/TRACES.md) */
	uint64_t nr_errors;          /* commands that failed on the target */
	bool diverged;               /* verify: first divergence in div */
	uint64_t div_rec;            /* its record number, from 0 */
	char div[512];               /* record, command, expected, got */
};

/**
 * trc_replay() - replay @trace onto @target (a zonelab image, or a zoned
 * block device) command by command.  A zonelab command trace is replayed
 * as SCSI commands through zscsi (status and sense compared); other traces
 * through their records (with @verify: blktrace/blkparse C events, success
 * versus failure compared).  Stops at the first divergence when @verify.
 * Return: 0 (see @res), or -errno / ZL_E_* with @msg (cannot open, bad trace).
 */
int trc_replay(const char *trace, const struct trc_reader_cfg *rc, const char *target, bool verify,
	       struct trc_replay_result *res, char *msg, size_t msg_len);

/* ---- descriptors (trace stat) --------------------------------------------- */

struct trc_stat;
/* 0 or -ENOMEM. */
int trc_stat_create(struct trc_stat **out);
void trc_stat_destroy(struct trc_stat *st);
/* Account one record; 0 or -ENOMEM. */
int trc_stat_add(struct trc_stat *st, const struct trc_rec *rec);

#define TRC_NR_SIZE_BUCKETS 10       /* <=4K, 8K, 16K, ..., 1M, >1M */
#define TRC_NR_PCT 7
extern const double trc_stat_pcts[TRC_NR_PCT];  /* 50, 90, 95, 99, 99.9, 99.99, 100 */

struct trc_stat_result {
	uint64_t nr_recs;
	uint64_t nr_ops[TRC_NR_OPS];
	uint64_t bytes_ops[TRC_NR_OPS];
	uint64_t first_ns, last_ns;        /* smallest and largest time */
	uint64_t duration_ns;              /* last - first */
	uint64_t fp_touched_bytes;         /* distinct 4 KiB blocks read or written, x 4096 */
	uint64_t fp_written_bytes;
	uint64_t fp_read_bytes;
	uint64_t size_hist[TRC_NR_SIZE_BUCKETS];   /* reads and writes by length */
	uint64_t nr_seq;                   /* requests starting where the previous one on the device ended */
	uint64_t nr_seq_candidates;        /* reads and writes after the first on their device */
	double skew[3];                    /* share of block writes to the hottest 1, 10, 20% of written blocks */
	uint64_t iat_pct_ns[TRC_NR_PCT];   /* inter-arrival percentiles (ana_hist: within 3.2%, p100 exact) */
	double iat_mean_ns;
	uint64_t nr_devs;                  /* distinct devices seen (records with a device) */
	uint64_t mem_bytes;                /* memory the footprint structures use */
};
void trc_stat_result(struct trc_stat *st, struct trc_stat_result *out);

#endif /* TRC_H */
