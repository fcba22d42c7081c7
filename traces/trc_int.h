/*
 * trc_int.h — what the format readers share: the reader object that
 * trc_read.c opens and each format's open() fills in, the formats' entry
 * points (the table in trc_read.c names them), and the native version 2
 * codec the writer uses.  The lexing helpers (buffered input, messages,
 * field parsers) are trc_lex.h.  Private to traces/: the public interface
 * is trc.h.
 */
#ifndef TRC_INT_H
#define TRC_INT_H

#include <stdarg.h>
#include <stdio.h>

#include "trc.h"
#include "trc_lex.h"

struct trc_reader {
	char path[4096];
	struct trc_reader_cfg cfg;
	const struct trc_format *fmt;
	struct trc_in in;
	char msg[640];
	uint64_t nr_bad;
	bool done;                   /* end reached or a fatal error returned */
	bool plain;                  /* no filter, not lenient: records pass as read */
	bool have_first;
	uint64_t first_ns;
	/* records a format decoded ahead (native v2): trc_reader_next() hands
	 * out [ahead, ahead_end) before it calls next() again */
	const struct trc_rec *ahead, *ahead_end;
	int pending;                 /* an error found behind a batch already returned */
	struct trc_rec slots[TRC_BATCH];   /* trc_reader_batch() over next() */
	/* set by fmt->open() */
	int (*next)(struct trc_reader *r, struct trc_rec *rec);
	/* optional: the format's own batch, used when nothing is filtered or
	 * skipped (r->plain); returns as trc_reader_batch() */
	int (*batch)(struct trc_reader *r, const struct trc_rec **recs);
	void (*close)(struct trc_reader *r);
	uint64_t (*pos)(const struct trc_reader *r);   /* NULL: in.base + in.pos */
	uint64_t (*size)(const struct trc_reader *r);  /* NULL: in.size */
	void *priv;
};

/* Formats (one file each). */
bool trc_blktrace_detect(const uint8_t *buf, size_t len);
int trc_blktrace_open(struct trc_reader *r);
bool trc_blkparse_detect(const uint8_t *buf, size_t len);
int trc_blkparse_open(struct trc_reader *r);
bool trc_iolog_detect(const uint8_t *buf, size_t len);
int trc_iolog_open(struct trc_reader *r);
bool trc_msr_detect(const uint8_t *buf, size_t len);
int trc_msr_open(struct trc_reader *r);
bool trc_alibaba_detect(const uint8_t *buf, size_t len);
int trc_alibaba_open(struct trc_reader *r);
bool trc_tencent_detect(const uint8_t *buf, size_t len);
int trc_tencent_open(struct trc_reader *r);
bool trc_spc_detect(const uint8_t *buf, size_t len);
int trc_spc_open(struct trc_reader *r);
bool trc_ztrace_detect(const uint8_t *buf, size_t len);
int trc_ztrace_open(struct trc_reader *r);
bool trc_native_detect(const uint8_t *buf, size_t len);
int trc_native_open(struct trc_reader *r);

/*
 * Native format version 2 (trc_nat2.c encodes, trc_nat2_read.c decodes;
 * docs/TRACES.md): records in blocks of a control array and a data area.
 * The encoder is here for the writer (trc_write.c).
 */
#define TRC_NAT2_BLOCK_RECS 4096     /* records the writer puts in a block */
#define TRC_NAT2_MAX_RECS 16384      /* the most a reader takes in one block (fits the input buffer) */
#define TRC_NAT2_MAX_DATA 48         /* data bytes of one record at most */
#define TRC_NAT2_BLOCK_MAX (8 + 2 * TRC_NAT2_BLOCK_RECS + TRC_NAT2_MAX_DATA * TRC_NAT2_BLOCK_RECS + 8)

struct trc_nat2_enc {
	uint64_t ts, next_off;       /* the previous record's time and end (delta bases) */
	struct trc_rec prev;         /* its dev, pid, status, hint, has (carried over) */
	uint32_t nr;                 /* records in the block being built */
	size_t len;                  /* bytes of its data area */
	uint8_t ctl[2 * TRC_NAT2_BLOCK_RECS];
	uint8_t data[TRC_NAT2_MAX_DATA * TRC_NAT2_BLOCK_RECS + 8];
	uint8_t blk[TRC_NAT2_BLOCK_MAX];
};
/* A record every native reader takes: op and hint in range, known has
 * bits, offset + length within 2^64 - 1. */
bool trc_native_rec_valid(const struct trc_rec *rec);
void trc_nat2_enc_init(struct trc_nat2_enc *e);
/* Add @rec (trc_native_rec_valid()) to the block; the caller writes the
 * block out (trc_nat2_enc_block()) when nr reaches TRC_NAT2_BLOCK_RECS. */
void trc_nat2_enc_put(struct trc_nat2_enc *e, const struct trc_rec *rec);
/* The block built so far, framed (header, control, data, checksum), at
 * *out; returns its length and starts the next block.  With no record it
 * is the end block. */
size_t trc_nat2_enc_block(struct trc_nat2_enc *e, const uint8_t **out);
/* The block checksum (docs/TRACES.md). */
uint64_t trc_nat2_sum(const uint8_t *p, size_t len);

/* Map a SCSI command (ztrace record) to an op; used by the reader and replay. */
enum trc_op trc_scsi_op(uint8_t opcode, uint8_t sa, bool has_sa);

#endif /* TRC_INT_H */
