/*
 * ztrace.h — the command trace: every SCSI command a device executed (start
 * time, opcode, service action, LBA, length, status, sense, latency) as a
 * fixed-size little-endian record after a file header.  The byte layout is
 * documented in docs/TRACE-FORMAT.md; this header has the writer (used by
 * the tcmu handler and the control socket) and the reader (used by traces/,
 * tests and the fuzzer).
 *
 * A trace object outlives the files it writes: it is created with the
 * device geometry, and ztrace_start()/ztrace_stop() open and close trace
 * files (the control socket's `trace start|stop`).  Recording is
 * thread-safe and buffered; nothing reaches the file before a buffer fills
 * or the trace stops.  It is not a block-layer trace (no queueing, no
 * merges): it sees what the SCSI target saw.
 */
#ifndef ZTRACE_H
#define ZTRACE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define ZTRACE_MAGIC "ZLTRACE"     /* 8 bytes with its NUL */
#define ZTRACE_VERSION 1
#define ZTRACE_HDR_SIZE 64
#define ZTRACE_REC_SIZE 48

/* Clock of every timestamp in a trace (header CLOCK field). */
enum ztrace_clock {
	ZTRACE_CLOCK_MONOTONIC = 0,   /* CLOCK_MONOTONIC ns (real devices) */
	ZTRACE_CLOCK_VIRTUAL = 1,     /* a simulation's virtual ns */
};

/* Record flags (record byte 34). */
enum {
	ZTRACE_F_LBA = 1u << 0,       /* lba is a field of the CDB */
	ZTRACE_F_LEN = 1u << 1,       /* nr_lba is a field of the CDB */
	ZTRACE_F_FUA = 1u << 2,
	ZTRACE_F_ALL = 1u << 3,       /* ZBC OUT with the ALL bit */
	ZTRACE_F_SA = 1u << 4,        /* sa is a service action */
	ZTRACE_F_SHORT_CDB = 1u << 5, /* the CDB was shorter than its opcode needs */
};

struct ztrace_cfg {
	uint32_t lba_size;            /* bytes per LBA: 512 or 4096 */
	uint64_t capacity_lba;        /* device capacity in LBAs */
	enum ztrace_clock clock;
};

/* The file header as read back. */
struct ztrace_hdr {
	uint16_t version;
	uint16_t hdr_size;            /* bytes */
	uint16_t rec_size;            /* bytes */
	uint16_t clock;               /* enum ztrace_clock */
	uint32_t lba_size;            /* bytes */
	uint64_t capacity_lba;
	uint64_t start_ns;            /* clock value when the trace started */
};

/* One command. */
struct ztrace_rec {
	uint64_t ts_ns;               /* command start, in the header's clock */
	uint64_t latency_ns;          /* start to completion */
	uint64_t lba;                 /* first LBA (0 unless ZTRACE_F_LBA) */
	uint32_t nr_lba;              /* length in LBAs (0 unless ZTRACE_F_LEN) */
	uint32_t seq;                 /* record number in the file, from 0 (low 32 bits) */
	uint8_t opcode;
	uint8_t sa;                   /* service action (0 unless ZTRACE_F_SA) */
	uint8_t status;               /* SCSI status: 00h GOOD, 02h CHECK CONDITION, 08h BUSY */
	uint8_t sense_key;            /* with CHECK CONDITION, else 0 */
	uint8_t asc, ascq;
	uint8_t flags;                /* ZTRACE_F_* */
	uint8_t cdb_len;              /* bytes of CDB the target was given */
};

/* Writer state for the control socket's `trace` reply. */
struct ztrace_status {
	bool active;
	char path[4096];
	uint64_t nr_records;          /* recorded into the current/last file */
	uint64_t nr_dropped;          /* lost after a write error */
	int err;                      /* first write error (-errno), 0 if none */
};

struct ztrace;

/* The part of struct ztrace a command path reads: its first member. */
struct ztrace_head {
	atomic_bool active;           /* read without the lock by ztrace_is_active() */
};

/**
 * ztrace_create() - a trace object for a device, not recording yet.
 * @cfg: geometry and clock put in every file header (copied).
 * @out: set on success; caller owns it (ztrace_destroy()).
 * Return: 0, -EINVAL (lba_size not 512/4096, clock unknown), -ENOMEM.
 */
int ztrace_create(const struct ztrace_cfg *cfg, struct ztrace **out);
/* Stops (flushes) a running trace and frees.  NULL is a no-op. */
void ztrace_destroy(struct ztrace *tr);

/**
 * ztrace_start() - record into @path from now on.  The file is created
 * (mode 0644) or, if it exists, must be empty or hold a zonelab trace
 * (which is overwritten); anything else is refused, so a mistyped path
 * never clobbers other data.  Symbolic links are not followed.
 * @start_ns: the clock value written as the header's START_NS.
 * Return: 0, -EBUSY (already recording: stop first), -EEXIST (the file is
 * something else), -errno from open/write; @msg says what and why.
 */
int ztrace_start(struct ztrace *tr, const char *path, uint64_t start_ns, char *msg, size_t msg_len);
/**
 * ztrace_stop() - flush, close the file and stop recording.
 * @st: if not NULL, the stopped file's final status (path, records,
 * dropped, error), taken under the same lock: a trace started right after
 * cannot stand in for it.
 * Return: 0, -ENOENT when not recording, or the first write error of the
 * file (-errno: records after it were dropped).
 */
int ztrace_stop(struct ztrace *tr, struct ztrace_status *st);
/* Recording now?  Cheap (an atomic load); call before taking timestamps. */
static inline bool ztrace_is_active(struct ztrace *tr)
{
	return tr && atomic_load_explicit(&((struct ztrace_head *)(void *)tr)->active,
					  memory_order_relaxed);
}
void ztrace_get_status(struct ztrace *tr, struct ztrace_status *st);

/**
 * ztrace_record() - append one record (@r->seq is assigned here).
 * Thread-safe; a no-op when not recording.  Returns 0, or -errno after a
 * write error (the record was dropped).
 */
int ztrace_record(struct ztrace *tr, const struct ztrace_rec *r);
/**
 * ztrace_record_cmd() - build the record of one executed CDB and append it.
 * @cdb/@cdb_len: the CDB (borrowed); @status: SCSI status; @sense: fixed
 * format sense data of at least 14 bytes, read only when @status is CHECK
 * CONDITION (may be NULL otherwise); @ts_ns/@latency_ns in the trace clock.
 */
int ztrace_record_cmd(struct ztrace *tr, const uint8_t *cdb, size_t cdb_len, uint8_t status,
		      const uint8_t *sense, uint64_t ts_ns, uint64_t latency_ns);

/* CLOCK_MONOTONIC in ns (the clock of real devices' traces). */
uint64_t ztrace_clock_ns(void);

/* ---- reading -------------------------------------------------------------- */

struct ztrace_reader;

/**
 * ztrace_read_open() - open a trace file and check its header.
 * Return: 0; -errno (cannot open); ZL_E_BAD_MAGIC (not a zonelab trace),
 * ZL_E_BAD_CSUM (header checksum), ZL_E_BAD_VERSION (version, header or
 * record size this reader does not know), ZL_E_CORRUPT (impossible field,
 * or a file shorter than a header), -ENOMEM.  @msg names @path and says
 * which and why.
 */
int ztrace_read_open(const char *path, struct ztrace_reader **out, char *msg, size_t msg_len);
/* The same over an open stream (borrowed: not closed by ztrace_read_close());
 * @msg does not name the file. */
int ztrace_read_fopen(FILE *f, struct ztrace_reader **out, char *msg, size_t msg_len);
const struct ztrace_hdr *ztrace_read_hdr(const struct ztrace_reader *r);
/**
 * ztrace_read_next() - the next record.
 * Return: 1 with @rec filled, 0 at the end, ZL_E_CORRUPT for a truncated
 * last record (a writer that died mid-buffer; every record before it is
 * good) or a record out of sequence, -EIO on a read error; @msg says
 * where (record number and byte offset; the caller names the file).
 */
int ztrace_read_next(struct ztrace_reader *r, struct ztrace_rec *rec, char *msg, size_t msg_len);
void ztrace_read_close(struct ztrace_reader *r);   /* NULL is a no-op */

/* Pure codecs (docs/TRACE-FORMAT.md), for tests and fuzzers. */
void ztrace_hdr_encode(const struct ztrace_hdr *h, uint8_t buf[ZTRACE_HDR_SIZE]);
int ztrace_hdr_decode(const uint8_t *buf, size_t len, struct ztrace_hdr *h, char *msg, size_t msg_len);
void ztrace_rec_encode(const struct ztrace_rec *r, uint8_t buf[ZTRACE_REC_SIZE]);
void ztrace_rec_decode(const uint8_t buf[ZTRACE_REC_SIZE], struct ztrace_rec *r);

#endif /* ZTRACE_H */
