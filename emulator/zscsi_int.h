/*
 * zscsi_int.h — private to the zscsi_*.c files: the device state, the
 * per-command context, byte-order helpers, the sense builders and the
 * calls between the files.  Nothing here is visible to the transport glue; it sees
 * zscsi.h only.  The opcode table (zscsi_dispatch.c) is the single list of
 * what the target implements: dispatch and REPORT SUPPORTED OPERATION CODES
 * both read it, so the target never advertises a command it does not
 * execute.
 *
 * The files call each other one way, top to bottom:
 *   zscsi.c           create/destroy, zscsi_execute(), the READ/WRITE fast paths
 *   zscsi_dispatch.c  the opcode table, dispatch, the small commands
 *   zscsi_inquiry.c, zscsi_mode.c, zscsi_rw.c, zscsi_sbc.c, zscsi_zbc.c
 *                     the command handlers
 *   zscsi_cmd.c, zscsi_sense.c
 *                     helpers: buffers, the end of a command, sense data
 */
#ifndef ZSCSI_INT_H
#define ZSCSI_INT_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "zl_be.h"
#include "zl_hot.h"
#include "zscsi.h"

/* Sense keys used by the target. */
enum {
	ZSK_NO_SENSE = 0x0,
	ZSK_NOT_READY = 0x2,
	ZSK_MEDIUM_ERROR = 0x3,
	ZSK_HARDWARE_ERROR = 0x4,
	ZSK_ILLEGAL_REQUEST = 0x5,
	ZSK_UNIT_ATTENTION = 0x6,
	ZSK_DATA_PROTECT = 0x7,
	ZSK_ABORTED_COMMAND = 0xb,
	ZSK_MISCOMPARE = 0xe,
};

/* Largest transfer of one READ/WRITE (VPD B0h MAXIMUM TRANSFER LENGTH), bytes. */
#define ZSCSI_MAX_XFER_BYTES (8u << 20)
/* Largest WRITE SAME (VPD B0h MAXIMUM WRITE SAME LENGTH), bytes: one block replicated. */
#define ZSCSI_MAX_WS_BYTES (64u << 20)
/* Largest COMPARE AND WRITE (VPD B0h MAXIMUM COMPARE AND WRITE LENGTH), LBAs. */
#define ZSCSI_MAX_CAW_LBA 16u

struct zscsi {
	struct zdisk *disk;              /* borrowed */
	enum zscsi_profile profile;
	char vendor[9];                  /* space-padded when put on the wire */
	char product[17];
	char serial[33];
	uint64_t naa_id;                 /* NAA designator, NAA nibble forced to 5 or 6 */
	/* geometry cache (immutable while the zscsi exists) */
	uint32_t lba_size;               /* bytes */
	uint32_t pblock_exp;             /* log2(physical / logical block) */
	uint64_t capacity_lba;
	uint64_t zone_size_lba;
	bool has_gaps;                   /* the device reports ZBC-2 gap zones */
	/* mutable state, under lock */
	pthread_mutex_t lock;
	pthread_mutex_t caw_lock;        /* COMPARE AND WRITE: one at a time */
	uint8_t last_sense[ZSCSI_SENSE_LEN];
	bool have_sense;                 /* last_sense is pending for REQUEST SENSE */
	uint64_t seen_power_cycles;      /* zl_stats.power_cycles already reported as UA */
};

/* One command in flight. */
struct zscsi_cmd {
	struct zscsi *s;
	const uint8_t *cdb;
	size_t cdb_len;
	const struct iovec *iov;
	int iov_cnt;
	size_t buf_len;                  /* total bytes of iov */
	size_t data_len;                 /* data-in bytes produced */
	bool data_in;                    /* a data-in command: zscsi_finish() zeroes the rest */
	uint8_t sense[ZSCSI_SENSE_LEN];
};

/* Error contexts: the same zone reason may mean different sense data. */
enum zscsi_ctx {
	ZSCSI_CTX_IO = 1u << 0,          /* READ, WRITE, VERIFY, SYNCHRONIZE CACHE */
	ZSCSI_CTX_ZONE_OP = 1u << 1,     /* ZBC OUT */
	ZSCSI_CTX_ANY = 0x3,
};

/*
 * A power cycle of the disk has not been reported as a unit attention yet
 * (and the power is back: while it is off, commands get NOT READY).
 */
static inline bool zscsi_ua_pending(const struct zscsi *s)
{
	return zdisk_power_cycles(s->disk) != __atomic_load_n(&s->seen_power_cycles, __ATOMIC_RELAXED) &&
	       !zdisk_powered_off(s->disk);
}

/* --- sense (zscsi_sense.c) ------------------------------------------- */

/* Build fixed-format sense in @c and return CHECK CONDITION. */
uint8_t zscsi_fail(struct zscsi_cmd *c, uint8_t key, uint8_t asc, uint8_t ascq);
/* ILLEGAL REQUEST, INVALID FIELD IN CDB with the field pointer (C/D = 1). */
uint8_t zscsi_fail_cdb(struct zscsi_cmd *c, uint16_t byte, int bit);
/* ILLEGAL REQUEST, INVALID FIELD IN PARAMETER LIST with the field pointer (C/D = 0). */
uint8_t zscsi_fail_param(struct zscsi_cmd *c, uint16_t byte, int bit);
/*
 * Translate a zdisk/zdev error into sense data: the one table.  @lba is
 * the failing LBA for the INFORMATION field, or UINT64_MAX for none.
 */
uint8_t zscsi_fail_err(struct zscsi_cmd *c, int err, enum zscsi_ctx ctx, uint64_t lba);
void zscsi_sense_build(uint8_t *sense, uint8_t key, uint8_t asc, uint8_t ascq);
/*
 * Add the sense-key specific field pointer to built sense: byte @byte of
 * the CDB (@cdb) or of the parameter list, bit @bit (< 0: no bit pointer).
 */
void zscsi_sense_field(uint8_t *sense, bool cdb, uint16_t byte, int bit);

/* --- the READ/WRITE fast path (zscsi.c, above the table) ----------------- */

/*
 * READ and WRITE (10/16) without the opcode table: the dispatch checks of
 * zscsi_execute_table() and zscsi_rw()'s own (one shared rw_check_parsed(),
 * zscsi_rw_int.h), then zdisk.  A command that fails a check, or meets a
 * pending unit attention or kept sense, goes to zscsi_execute_table()
 * untouched, so the table path reports exactly why.
 */
uint8_t zscsi_rw_fast(struct zscsi *s, const uint8_t *cdb, size_t cdb_len,
		      const struct iovec *iov, int iov_cnt, uint8_t *sense, size_t *data_len);

/* --- dispatch (zscsi_dispatch.c) -------------------------------------- */

/* Build the opcode index once (zscsi_create() calls it before any command). */
void zscsi_dispatch_init(void);
/* zscsi_execute() through the opcode table. */
uint8_t zscsi_execute_table(struct zscsi *s, const uint8_t *cdb, size_t cdb_len,
			    const struct iovec *iov, int iov_cnt, uint8_t *sense, size_t *data_len);

/* --- the end of a command and data buffers (zscsi_cmd.c) ----------------- */

/*
 * The end of every command: a data-in command's buffer past the
 * c->data_len bytes it produced is zeroed (SPC-5 4.2.5.6: the initiator
 * gets min(allocation length, available) bytes; the transport may send the
 * whole buffer, which must then hold nothing stale); a CHECK CONDITION's
 * sense goes to @sense and is
 * kept for REQUEST SENSE (any other status drops what was kept, except for
 * REQUEST SENSE itself).  Returns @status.
 */
uint8_t zscsi_finish(struct zscsi_cmd *c, uint8_t status, uint8_t *sense,
		     size_t *data_len);

/*
 * The usable part of a caller's buffer: the number of entries up to the
 * first hole (NULL base), their bytes in *@buf_len.  A NULL @iov is empty.
 */
static inline int zscsi_iov_usable(const struct iovec *iov, int iov_cnt, size_t *buf_len)
{
	int i;

	*buf_len = 0;
	for (i = 0; iov && i < iov_cnt && iov[i].iov_base; i++)
		*buf_len += iov[i].iov_len;
	return i;
}

/* Every field of @c but the sense (written whole by zscsi_fail()). */
static inline void zscsi_cmd_init(struct zscsi_cmd *c, struct zscsi *s, const uint8_t *cdb,
				  size_t cdb_len, const struct iovec *iov, int iov_cnt)
{
	c->s = s;
	c->cdb = cdb;
	c->cdb_len = cdb_len;
	c->iov = iov;
	c->iov_cnt = zscsi_iov_usable(iov, iov_cnt, &c->buf_len);
	c->data_len = 0;
	c->data_in = false;
}

/* Copy @len bytes of data-in from @src into the command's iov (bounded by it). */
void zscsi_data_in(struct zscsi_cmd *c, const void *src, size_t len);
/* Copy up to @len bytes of data-out into @dst; returns the number copied. */
size_t zscsi_data_out(struct zscsi_cmd *c, void *dst, size_t len);
/* The iov as one flat buffer of at least @len bytes, or NULL. */
void *zscsi_flat_buf(struct zscsi_cmd *c, size_t len);

/* --- command handlers ------------------------------------------------- */

/* zscsi_inquiry.c */
uint8_t zscsi_inquiry(struct zscsi_cmd *c);
uint8_t zscsi_read_capacity10(struct zscsi_cmd *c);
uint8_t zscsi_read_capacity16(struct zscsi_cmd *c);
uint8_t zscsi_report_luns(struct zscsi_cmd *c);
/* zscsi_mode.c */
uint8_t zscsi_mode_sense(struct zscsi_cmd *c);
uint8_t zscsi_mode_select(struct zscsi_cmd *c);
/* zscsi_rw.c */
uint8_t zscsi_rw(struct zscsi_cmd *c);
uint8_t zscsi_sync_cache(struct zscsi_cmd *c);
/* zscsi_sbc.c */
uint8_t zscsi_verify(struct zscsi_cmd *c);
uint8_t zscsi_write_verify(struct zscsi_cmd *c);
uint8_t zscsi_write_same(struct zscsi_cmd *c);
uint8_t zscsi_compare_and_write(struct zscsi_cmd *c);
/* zscsi_zbc.c */
uint8_t zscsi_report_zones(struct zscsi_cmd *c);
uint8_t zscsi_zone_out(struct zscsi_cmd *c);
/* zscsi_dispatch.c (they read the table or only the device state) */
uint8_t zscsi_request_sense(struct zscsi_cmd *c);
uint8_t zscsi_report_opcodes(struct zscsi_cmd *c);

/* True for a host-managed device (PDT 14h). */
static inline bool zscsi_is_hm(const struct zscsi *s)
{
	return zdisk_geo(s->disk)->model == ZL_MODEL_HM;
}

#endif /* ZSCSI_INT_H */
