/*
 * zscsi_dispatch.c — the opcode table and command dispatch: every command
 * the target executes, in one table that both dispatch and REPORT SUPPORTED
 * OPERATION CODES read (so the target never advertises a command it does
 * not execute); the checks every command passes before its handler (CDB
 * length, control byte, unit attention); and the small commands that need
 * nothing but the device state (TEST UNIT READY, REQUEST SENSE, START STOP
 * UNIT, REPORT SUPPORTED OPERATION CODES).
 *
 * Layering: zscsi.c (the entries) calls this file; this file calls the
 * command handlers (zscsi_inquiry.c, zscsi_mode.c, zscsi_rw.c, zscsi_sbc.c,
 * zscsi_zbc.c), and everything calls the helpers below them (zscsi_cmd.c:
 * buffers and the end of a command; zscsi_sense.c: sense data).  No handler
 * calls back up here.
 */
#include <string.h>

#include "zscsi_int.h"

typedef uint8_t (*zscsi_handler_fn)(struct zscsi_cmd *c);

/* Opcode table entry flags. */
enum {
	ZSCSI_F_SA = 1u << 0,            /* the service action (CDB byte 1, bits 4:0) selects the entry */
	ZSCSI_F_NO_UA = 1u << 1,         /* not blocked by a pending unit attention (SAM-5 5.14) */
	ZSCSI_F_DATA_IN = 1u << 2,       /* transfers data to the initiator */
};

struct zscsi_op {
	uint8_t opcode;
	uint8_t sa;
	uint8_t flags;
	uint8_t cdb_len;
	const char *name;
	zscsi_handler_fn fn;
	uint8_t usage[16];               /* REPORT SUPPORTED OPERATION CODES CDB USAGE DATA */
};

static uint8_t zscsi_tur(struct zscsi_cmd *c)
{
	return ZSCSI_GOOD;
}

static uint8_t zscsi_start_stop(struct zscsi_cmd *c)
{
	/* Accepted: there is no spindle; power conditions are not modelled. */
	return ZSCSI_GOOD;
}

#define CTL 0x04 /* control byte usage: NACA is checked */

/*
 * Every command the target executes.  Order: by opcode, then service action
 * (REPORT SUPPORTED OPERATION CODES lists them in this order).
 */
static const struct zscsi_op zscsi_ops[] = {
	{ 0x00, 0, 0, 6, "TEST UNIT READY", zscsi_tur, { 0x00, 0, 0, 0, 0, CTL } },
	{ 0x03, 0, ZSCSI_F_NO_UA | ZSCSI_F_DATA_IN, 6, "REQUEST SENSE", zscsi_request_sense,
	  { 0x03, 0x01, 0, 0, 0xff, CTL } },
	{ 0x08, 0, ZSCSI_F_DATA_IN, 6, "READ(6)", zscsi_rw, { 0x08, 0x1f, 0xff, 0xff, 0xff, CTL } },
	{ 0x0a, 0, 0, 6, "WRITE(6)", zscsi_rw, { 0x0a, 0x1f, 0xff, 0xff, 0xff, CTL } },
	{ 0x12, 0, ZSCSI_F_NO_UA | ZSCSI_F_DATA_IN, 6, "INQUIRY", zscsi_inquiry, { 0x12, 0x01, 0xff, 0xff, 0xff, CTL } },
	{ 0x15, 0, 0, 6, "MODE SELECT(6)", zscsi_mode_select, { 0x15, 0x11, 0, 0, 0xff, CTL } },
	{ 0x1a, 0, ZSCSI_F_DATA_IN, 6, "MODE SENSE(6)", zscsi_mode_sense, { 0x1a, 0x08, 0xff, 0xff, 0xff, CTL } },
	{ 0x1b, 0, 0, 6, "START STOP UNIT", zscsi_start_stop, { 0x1b, 0x01, 0, 0x0f, 0xf7, CTL } },
	{ 0x25, 0, ZSCSI_F_DATA_IN, 10, "READ CAPACITY(10)", zscsi_read_capacity10,
	  { 0x25, 0, 0, 0, 0, 0, 0, 0, 0, CTL } },
	{ 0x28, 0, ZSCSI_F_DATA_IN, 10, "READ(10)", zscsi_rw,
	  { 0x28, 0xf8, 0xff, 0xff, 0xff, 0xff, 0x1f, 0xff, 0xff, CTL } },
	{ 0x2a, 0, 0, 10, "WRITE(10)", zscsi_rw,
	  { 0x2a, 0xf8, 0xff, 0xff, 0xff, 0xff, 0x1f, 0xff, 0xff, CTL } },
	{ 0x2e, 0, 0, 10, "WRITE AND VERIFY(10)", zscsi_write_verify,
	  { 0x2e, 0xf2, 0xff, 0xff, 0xff, 0xff, 0x1f, 0xff, 0xff, CTL } },
	{ 0x2f, 0, 0, 10, "VERIFY(10)", zscsi_verify,
	  { 0x2f, 0xf6, 0xff, 0xff, 0xff, 0xff, 0x1f, 0xff, 0xff, CTL } },
	{ 0x35, 0, 0, 10, "SYNCHRONIZE CACHE(10)", zscsi_sync_cache,
	  { 0x35, 0x02, 0xff, 0xff, 0xff, 0xff, 0x1f, 0xff, 0xff, CTL } },
	{ 0x41, 0, 0, 10, "WRITE SAME(10)", zscsi_write_same,
	  { 0x41, 0xf8, 0xff, 0xff, 0xff, 0xff, 0x1f, 0xff, 0xff, CTL } },
	{ 0x55, 0, 0, 10, "MODE SELECT(10)", zscsi_mode_select,
	  { 0x55, 0x11, 0, 0, 0, 0, 0, 0xff, 0xff, CTL } },
	{ 0x5a, 0, ZSCSI_F_DATA_IN, 10, "MODE SENSE(10)", zscsi_mode_sense,
	  { 0x5a, 0x18, 0xff, 0xff, 0, 0, 0, 0xff, 0xff, CTL } },
	{ 0x88, 0, ZSCSI_F_DATA_IN, 16, "READ(16)", zscsi_rw,
	  { 0x88, 0xf8, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	    0xff, 0xff, 0xff, 0xff, 0x1f, CTL } },
	{ 0x89, 0, 0, 16, "COMPARE AND WRITE", zscsi_compare_and_write,
	  { 0x89, 0xf8, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	    0, 0, 0, 0xff, 0x1f, CTL } },
	{ 0x8a, 0, 0, 16, "WRITE(16)", zscsi_rw,
	  { 0x8a, 0xf8, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	    0xff, 0xff, 0xff, 0xff, 0x1f, CTL } },
	{ 0x8e, 0, 0, 16, "WRITE AND VERIFY(16)", zscsi_write_verify,
	  { 0x8e, 0xf2, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	    0xff, 0xff, 0xff, 0xff, 0x1f, CTL } },
	{ 0x8f, 0, 0, 16, "VERIFY(16)", zscsi_verify,
	  { 0x8f, 0xf6, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	    0xff, 0xff, 0xff, 0xff, 0x1f, CTL } },
	{ 0x91, 0, 0, 16, "SYNCHRONIZE CACHE(16)", zscsi_sync_cache,
	  { 0x91, 0x02, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	    0xff, 0xff, 0xff, 0xff, 0x1f, CTL } },
	{ 0x93, 0, 0, 16, "WRITE SAME(16)", zscsi_write_same,
	  { 0x93, 0xf9, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	    0xff, 0xff, 0xff, 0xff, 0x1f, CTL } },
#define ZBC_OUT_USAGE(sa) { 0x94, sa, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, \
			    0, 0, 0xff, 0xff, 0x01, CTL }
	{ 0x94, 0x01, ZSCSI_F_SA, 16, "CLOSE ZONE", zscsi_zone_out, ZBC_OUT_USAGE(0x01) },
	{ 0x94, 0x02, ZSCSI_F_SA, 16, "FINISH ZONE", zscsi_zone_out, ZBC_OUT_USAGE(0x02) },
	{ 0x94, 0x03, ZSCSI_F_SA, 16, "OPEN ZONE", zscsi_zone_out, ZBC_OUT_USAGE(0x03) },
	{ 0x94, 0x04, ZSCSI_F_SA, 16, "RESET WRITE POINTER", zscsi_zone_out, ZBC_OUT_USAGE(0x04) },
	{ 0x95, 0x00, ZSCSI_F_SA | ZSCSI_F_DATA_IN, 16, "REPORT ZONES", zscsi_report_zones,
	  { 0x95, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	    0xff, 0xff, 0xff, 0xff, 0xbf, CTL } },
	{ 0x9e, 0x10, ZSCSI_F_SA | ZSCSI_F_DATA_IN, 16, "READ CAPACITY(16)", zscsi_read_capacity16,
	  { 0x9e, 0x10, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0, CTL } },
	{ 0xa0, 0, ZSCSI_F_NO_UA | ZSCSI_F_DATA_IN, 12, "REPORT LUNS", zscsi_report_luns,
	  { 0xa0, 0, 0xff, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0, CTL } },
	{ 0xa3, 0x0c, ZSCSI_F_SA | ZSCSI_F_DATA_IN, 12, "REPORT SUPPORTED OPERATION CODES", zscsi_report_opcodes,
	  { 0xa3, 0x0c, 0x87, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0, CTL } },
	{ 0xa8, 0, ZSCSI_F_DATA_IN, 12, "READ(12)", zscsi_rw,
	  { 0xa8, 0xf8, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x1f, CTL } },
	{ 0xaa, 0, 0, 12, "WRITE(12)", zscsi_rw,
	  { 0xaa, 0xf8, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x1f, CTL } },
};

static const size_t zscsi_nr_ops = sizeof(zscsi_ops) / sizeof(zscsi_ops[0]);

/* First table entry of each opcode (-1: unknown), built once, by the
 * first zscsi_create() (zscsi_dispatch_init()). */
static int16_t op_first[256];
static pthread_once_t op_first_once = PTHREAD_ONCE_INIT;

static void build_op_index(void)
{
	for (int i = 0; i < 256; i++)
		op_first[i] = -1;
	for (size_t i = zscsi_nr_ops; i-- > 0;)
		op_first[zscsi_ops[i].opcode] = (int16_t)i;
}

void zscsi_dispatch_init(void)
{
	pthread_once(&op_first_once, build_op_index);
}

/* --- REQUEST SENSE ------------------------------------------------------ */

uint8_t zscsi_request_sense(struct zscsi_cmd *c)
{
	struct zscsi *s = c->s;
	uint8_t buf[ZSCSI_SENSE_LEN];
	uint32_t alloc = c->cdb[4];
	uint64_t pc;

	if (c->cdb[1] & 0x01)           /* DESC: descriptor format not supported */
		return zscsi_fail_cdb(c, 1, 0);

	pc = zdisk_power_cycles(s->disk);
	pthread_mutex_lock(&s->lock);
	if (zdisk_powered_off(s->disk)) {
		/* no power: NOT READY, the unit attention waits for the power */
		zscsi_sense_build(buf, ZSK_NOT_READY, 0x04, 0x00);
	} else if (pc > s->seen_power_cycles) {
		/* A pending unit attention is reported, and cleared, here. */
		__atomic_store_n(&s->seen_power_cycles, pc, __ATOMIC_RELAXED);
		zscsi_sense_build(buf, ZSK_UNIT_ATTENTION, 0x29, 0x00);
	} else if (s->have_sense) {
		memcpy(buf, s->last_sense, sizeof(buf));
		__atomic_store_n(&s->have_sense, false, __ATOMIC_RELAXED);
	} else {
		zscsi_sense_build(buf, ZSK_NO_SENSE, 0x00, 0x00);
	}
	pthread_mutex_unlock(&s->lock);
	zscsi_data_in(c, buf, alloc < sizeof(buf) ? alloc : sizeof(buf));
	return ZSCSI_GOOD;
}

/* --- REPORT SUPPORTED OPERATION CODES --------------------------------------- */

/*
 * REPORT SUPPORTED OPERATION CODES (SPC-5 6.35).  Reporting options:
 * 000b all commands; 001b one opcode (no service action); 010b opcode +
 * service action; 011b opcode with or without service action.  RCTD adds
 * a command timeouts descriptor (times not specified: zero).
 */
uint8_t zscsi_report_opcodes(struct zscsi_cmd *c)
{
	uint8_t ropt = c->cdb[2] & 0x07;
	bool rctd = c->cdb[2] & 0x80;
	uint8_t opcode = c->cdb[3];
	uint16_t sa = zl_get_be16(c->cdb + 4);
	uint32_t alloc = zl_get_be32(c->cdb + 6);
	uint8_t b[4 + 40 * 20];
	const struct zscsi_op *op = NULL;
	bool has_sa = false;
	size_t i, n = 0, dlen;

	memset(b, 0, sizeof(b));
	if (ropt == 0) {
		dlen = rctd ? 20 : 8;
		n = 4;
		for (i = 0; i < zscsi_nr_ops && n + dlen <= sizeof(b); i++) {
			uint8_t *d = b + n;

			d[0] = zscsi_ops[i].opcode;
			if (zscsi_ops[i].flags & ZSCSI_F_SA) {
				zl_put_be16(d + 2, zscsi_ops[i].sa);
				d[5] |= 0x01;           /* SERVACTV */
			}
			if (rctd) {
				d[5] |= 0x02;           /* CTDP */
				zl_put_be16(d + 8, 0x0a);
			}
			zl_put_be16(d + 6, zscsi_ops[i].cdb_len);
			n += dlen;
		}
		zl_put_be32(b, (uint32_t)(n - 4));
	} else if (ropt <= 3) {
		/* without a match every entry of the opcode was seen, so has_sa is exact */
		for (i = 0; i < zscsi_nr_ops; i++) {
			if (zscsi_ops[i].opcode != opcode)
				continue;
			if (zscsi_ops[i].flags & ZSCSI_F_SA)
				has_sa = true;
			if (!(zscsi_ops[i].flags & ZSCSI_F_SA) || zscsi_ops[i].sa == sa) {
				op = &zscsi_ops[i];
				break;
			}
		}
		if (ropt == 1 && has_sa)        /* opcode has service actions */
			return zscsi_fail_cdb(c, 2, 2);
		if (ropt == 2 && !has_sa && op)
			return zscsi_fail_cdb(c, 2, 2);
		if (op) {
			b[1] = 0x03;                    /* SUPPORT: as the standard says */
			zl_put_be16(b + 2, op->cdb_len);
			memcpy(b + 4, op->usage, op->cdb_len);
			n = 4 + op->cdb_len;
			if (rctd) {
				b[1] |= 0x80;           /* CTDP */
				zl_put_be16(b + n, 0x0a);
				n += 12;
			}
		} else {
			b[1] = 0x01;                    /* SUPPORT: not supported */
			n = 4;
		}
	} else {
		return zscsi_fail_cdb(c, 2, 2);
	}
	zscsi_data_in(c, b, n < alloc ? n : alloc);
	return ZSCSI_GOOD;
}

/* --- dispatch ------------------------------------------------------------ */

static const struct zscsi_op *find_op(uint8_t opcode, uint8_t sa, bool *opcode_known)
{
	int first = op_first[opcode];      /* built by zscsi_create() */

	*opcode_known = first >= 0;
	if (first < 0)
		return NULL;
	for (size_t i = (size_t)first; i < zscsi_nr_ops; i++) {
		if (zscsi_ops[i].opcode != opcode)
			continue;
		if (!(zscsi_ops[i].flags & ZSCSI_F_SA) || zscsi_ops[i].sa == sa)
			return &zscsi_ops[i];
	}
	return NULL;
}

/* Unit attention after a power cycle of the disk: reported once (SAM-5 5.14). */
static bool take_unit_attention(struct zscsi *s)
{
	uint64_t pc;
	bool ua = false;

	if (!zscsi_ua_pending(s))
		return false;           /* the common case: no lock */
	pc = zdisk_power_cycles(s->disk);
	pthread_mutex_lock(&s->lock);
	if (pc > s->seen_power_cycles) {
		__atomic_store_n(&s->seen_power_cycles, pc, __ATOMIC_RELAXED);
		ua = true;
	}
	pthread_mutex_unlock(&s->lock);
	return ua;
}

uint8_t zscsi_execute_table(struct zscsi *s, const uint8_t *cdb, size_t cdb_len,
			    const struct iovec *iov, int iov_cnt, uint8_t *sense, size_t *data_len)
{
	struct zscsi_cmd c;
	const struct zscsi_op *op;
	bool known;
	uint8_t status;

	zscsi_cmd_init(&c, s, cdb, cdb_len, iov, iov_cnt);
	if (!cdb || cdb_len == 0) {
		status = zscsi_fail(&c, ZSK_ILLEGAL_REQUEST, 0x20, 0x00);
		goto refused;
	}
	op = find_op(cdb[0], cdb_len > 1 ? cdb[1] & 0x1f : 0, &known);
	if (!op) {
		if (known)      /* opcode known, service action not */
			status = zscsi_fail_cdb(&c, 1, 4);
		else
			status = zscsi_fail(&c, ZSK_ILLEGAL_REQUEST, 0x20, 0x00);
		goto refused;
	}
	c.data_in = op->flags & ZSCSI_F_DATA_IN;
	if (cdb_len < op->cdb_len) {
		/* Too short to hold the command: nothing to point at. */
		status = zscsi_fail(&c, ZSK_ILLEGAL_REQUEST, 0x24, 0x00);
		goto refused;
	}
	if (cdb[op->cdb_len - 1] & 0x04) {   /* NACA is not supported */
		status = zscsi_fail_cdb(&c, op->cdb_len - 1, 2);
		goto refused;
	}
	if (!(op->flags & ZSCSI_F_NO_UA) && zdisk_powered_off(s->disk)) {
		/* a power-loss rule cut the power: LOGICAL UNIT NOT READY */
		status = zscsi_fail(&c, ZSK_NOT_READY, 0x04, 0x00);
		goto refused;
	}
	if (!(op->flags & ZSCSI_F_NO_UA) && take_unit_attention(s)) {
		status = zscsi_fail(&c, ZSK_UNIT_ATTENTION, 0x29, 0x00);
		goto refused;
	}
	return zscsi_finish(&c, op->fn(&c), sense, data_len);
refused:
	return zscsi_finish(&c, status, sense, data_len);
}
