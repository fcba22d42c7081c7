/*
 * trc_native_int.h — what the native format's files share (trc_native.c:
 * header, version 1 and the reader's entry; trc_nat2.c: the version 2
 * codec; trc_nat2_read.c: the version 2 decoder): the record checks and
 * version 2's control word, its width table and the entry of its reader.
 * Private to traces/; docs/TRACES.md has the byte layouts.  Not the
 * encoder's interface: that is trc_int.h (the writer uses it).
 */
#ifndef TRC_NATIVE_INT_H
#define TRC_NATIVE_INT_H

#include <errno.h>
#include <stdint.h>

#include "trc_int.h"

#define HAS_KNOWN (TRC_HAS_DEV | TRC_HAS_LATENCY | TRC_HAS_STATUS | TRC_HAS_PID | TRC_HAS_HINT | TRC_HAS_ALL | \
		   TRC_HAS_DATASYNC)

/* The checks of a decoded record: 0 or -EINVAL. */
static inline int rec_check(const struct trc_rec *rec)
{
	if (rec->op >= TRC_NR_OPS || (rec->has & ~HAS_KNOWN) || rec->hint > 5 ||
	    rec->len_bytes > UINT64_MAX - rec->offset_bytes)
		return -EINVAL;
	return 0;
}

/*
 * The control word (16 bits, little-endian, docs/TRACES.md):
 *   bits 0-3   OP, or 15: an extension (new dev/pid/status/has/hint) leads the data
 *   bits 4-6   TS code: width of zigzag(ts - previous ts)
 *   bits 7-9   OFF code: width of zigzag(offset - previous record's end)
 *   bits 10-11 LEN code: width of the length (0, 1, 2 or 8 bytes)
 *   bit  12    SECT: the offset delta and the length are in 512-byte units
 *   bits 13-15 LAT code: width of the latency
 * A 3-bit code c is c bytes, 7 is 8; a field of width 0 is 0.  The widths
 * make a record's size known from its control word alone, and the control
 * words lie apart from the data, so the decoder's only chain from one record
 * to the next is the data pointer's add.
 */
#define C_OP_EXT 15
#define C_SECT (1u << 12)
#define E_DEV 0x10
#define E_PID 0x20
#define E_STATUS 0x40
#define E_HAS 0x80

/* Width and mask of each code: 0-7 the 3-bit codes, 8-11 the LEN codes
 * (one table: one base register in the decoder's loop). */
static const struct {
	uint64_t mask, width;
} wt[12] = {
	{ 0, 0 }, { 0xff, 1 }, { 0xffff, 2 }, { 0xffffff, 3 },
	{ 0xffffffffull, 4 }, { 0xffffffffffull, 5 }, { 0xffffffffffffull, 6 }, { ~0ull, 8 },
	{ 0, 0 }, { 0xff, 1 }, { 0xffff, 2 }, { ~0ull, 8 },
};
#define W3(c) wt[c].width
#define W2(c) wt[8 + (c)].width

/*
 * trc_nat2_open() - set @r up to read version 2 records (trc_native_open()
 * has checked the header; the caller skips it).  0, or -ENOMEM.
 */
int trc_nat2_open(struct trc_reader *r);

#endif /* TRC_NATIVE_INT_H */
