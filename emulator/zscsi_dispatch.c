/*
 * zscsi.c — the zscsi front: create/destroy, the opcode table, command
 * dispatch (CDB length, control byte, unit attention), the data-buffer
 * helpers over the caller's iovec, and the small commands (TEST UNIT READY,
 * REQUEST SENSE, START STOP UNIT).
 *
 * It is not a transport: no tcmu types, no threads of its own.  Command
 * families live beside it: zscsi_inquiry.c (identification, capacity,
 * REPORT SUPPORTED OPERATION CODES), zscsi_mode.c (mode pages), zscsi_rw.c
 * (READ/WRITE/SYNCHRONIZE CACHE), zscsi_sbc.c (VERIFY, WRITE AND VERIFY,
 * WRITE SAME, COMPARE AND WRITE), zscsi_zbc.c (ZBC IN/OUT) and
 * zscsi_sense.c (the error-to-sense table).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zscsi_int.h"

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
const struct zscsi_op zscsi_ops[] = {
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

const size_t zscsi_nr_ops = sizeof(zscsi_ops) / sizeof(zscsi_ops[0]);

void zscsi_cfg_init(struct zscsi_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->profile = ZSCSI_PROFILE_ZBC2;
	cfg->naa_id = 0x5000000000000001ull;
}

static void copy_id(char *dst, size_t size, const char *src, const char *def)
{
	size_t i, n;

	if (!src)
		src = def;
	n = strlen(src);
	if (n > size - 1)
		n = size - 1;
	/* printable ASCII only: these strings go on the wire as-is */
	for (i = 0; i < n; i++)
		dst[i] = (src[i] >= 0x20 && src[i] < 0x7f) ? src[i] : '_';
	dst[n] = '\0';
}

/* First table entry of each opcode (-1: unknown), built once, by the
 * first zscsi_create(). */
static int16_t op_first[256];
static pthread_once_t op_first_once = PTHREAD_ONCE_INIT;

static void build_op_index(void)
{
	for (int i = 0; i < 256; i++)
		op_first[i] = -1;
	for (size_t i = zscsi_nr_ops; i-- > 0;)
		op_first[zscsi_ops[i].opcode] = (int16_t)i;
}

int zscsi_create(struct zdisk *disk, const struct zscsi_cfg *cfg, struct zscsi **out)
{
	const struct zdev_cfg *geo;
	struct zscsi_cfg def;
	struct zscsi *s;
	uint32_t ratio;

	if (!disk || !out)
		return -EINVAL;
	pthread_once(&op_first_once, build_op_index);
	if (!cfg) {
		zscsi_cfg_init(&def);
		cfg = &def;
	}
	if (cfg->profile != ZSCSI_PROFILE_ZBC2 && cfg->profile != ZSCSI_PROFILE_DHSMR)
		return -EINVAL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	if (pthread_mutex_init(&s->lock, NULL)) {
		free(s);
		return -ENOMEM;
	}
	if (pthread_mutex_init(&s->caw_lock, NULL)) {
		pthread_mutex_destroy(&s->lock);
		free(s);
		return -ENOMEM;
	}
	s->disk = disk;
	s->profile = cfg->profile;
	copy_id(s->vendor, sizeof(s->vendor), cfg->vendor, "ZONELAB");
	copy_id(s->product, sizeof(s->product), cfg->product, "ZONED DISK");
	s->naa_id = cfg->naa_id;
	if ((s->naa_id >> 60) != 5 && (s->naa_id >> 60) != 6)
		s->naa_id = (s->naa_id & 0x0fffffffffffffffull) | (5ull << 60);
	if (cfg->serial) {
		copy_id(s->serial, sizeof(s->serial), cfg->serial, "");
	} else {
		snprintf(s->serial, sizeof(s->serial), "ZL%016llX",
			 (unsigned long long)s->naa_id);
	}

	geo = zdisk_geo(disk);
	s->lba_size = geo->lba_size;
	ratio = geo->pblock_size > geo->lba_size ? geo->pblock_size / geo->lba_size : 1;
	while ((1u << s->pblock_exp) < ratio && s->pblock_exp < 15)
		s->pblock_exp++;
	s->capacity_lba = geo->capacity_lba;
	s->zone_size_lba = geo->zone_size_lba;
	s->has_gaps = geo->gap_zones && geo->zone_cap_lba && geo->zone_cap_lba < geo->zone_size_lba;

	/* Power cycles before we existed are not ours to report. */
	s->seen_power_cycles = zdisk_power_cycles(disk);
	*out = s;
	return 0;
}

void zscsi_destroy(struct zscsi *s)
{
	if (!s)
		return;
	pthread_mutex_destroy(&s->caw_lock);
	pthread_mutex_destroy(&s->lock);
	free(s);
}

/* --- data buffers ------------------------------------------------------ */

void zscsi_data_in(struct zscsi_cmd *c, const void *src, size_t len)
{
	const uint8_t *p = src;
	size_t done = 0, n;
	int i;

	if (len > c->buf_len)
		len = c->buf_len;
	for (i = 0; i < c->iov_cnt && done < len; i++) {
		n = c->iov[i].iov_len;
		if (n > len - done)
			n = len - done;
		if (n)
			memcpy(c->iov[i].iov_base, p + done, n);
		done += n;
	}
	c->data_len = done;
}

size_t zscsi_data_out(struct zscsi_cmd *c, void *dst, size_t len)
{
	uint8_t *p = dst;
	size_t done = 0, n;
	int i;

	for (i = 0; i < c->iov_cnt && done < len; i++) {
		n = c->iov[i].iov_len;
		if (n > len - done)
			n = len - done;
		if (n)
			memcpy(p + done, c->iov[i].iov_base, n);
		done += n;
	}
	return done;
}

/*
 * Zero the command's buffer from byte c->data_len to its end: what a
 * data-in command did not fill.  Under tcmu-runner the buffer is the TCMU
 * data area that every command shares, so without this the initiator
 * would get whatever an earlier command (of any initiator) left there.
 */
static void zero_tail(struct zscsi_cmd *c)
{
	size_t skip = c->data_len, n;
	int i;

	for (i = 0; i < c->iov_cnt; i++) {
		n = c->iov[i].iov_len;
		if (skip >= n) {
			skip -= n;
			continue;
		}
		memset((uint8_t *)c->iov[i].iov_base + skip, 0, n - skip);
		skip = 0;
	}
}

void *zscsi_flat_buf(struct zscsi_cmd *c, size_t len)
{
	uint8_t *base;
	size_t run;
	int i;

	if (c->iov_cnt < 1 || !c->iov[0].iov_base)
		return NULL;
	/* Entries that follow each other in memory form one flat buffer. */
	base = c->iov[0].iov_base;
	run = c->iov[0].iov_len;
	for (i = 1; i < c->iov_cnt && run < len; i++) {
		if ((uint8_t *)c->iov[i].iov_base != base + run)
			break;
		run += c->iov[i].iov_len;
	}
	return run >= len ? base : NULL;
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
	if (pc > s->seen_power_cycles) {
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

uint8_t zscsi_finish(struct zscsi_cmd *c, uint8_t status, bool ran, uint8_t *sense,
		     size_t *data_len)
{
	struct zscsi *s = c->s;

	if (c->data_len > c->buf_len)
		c->data_len = c->buf_len;
	if (c->data_in && c->data_len < c->buf_len)
		zero_tail(c);
	if (ran && status == ZSCSI_CHECK_CONDITION && (c->sense[2] & 0x0f) == ZSK_UNIT_ATTENTION &&
	    c->sense[12] == 0x29) {
		/* The command itself met the power loss: that was the report. */
		pthread_mutex_lock(&s->lock);
		__atomic_store_n(&s->seen_power_cycles, zdisk_power_cycles(s->disk), __ATOMIC_RELAXED);
		pthread_mutex_unlock(&s->lock);
	}
	if (status == ZSCSI_CHECK_CONDITION) {
		if (sense)
			memcpy(sense, c->sense, ZSCSI_SENSE_LEN);
		pthread_mutex_lock(&s->lock);
		memcpy(s->last_sense, c->sense, ZSCSI_SENSE_LEN);
		__atomic_store_n(&s->have_sense, true, __ATOMIC_RELAXED);
		pthread_mutex_unlock(&s->lock);
	} else if (c->cdb && c->cdb_len && c->cdb[0] != 0x03 &&
		   __atomic_load_n(&s->have_sense, __ATOMIC_RELAXED)) {
		/* REQUEST SENSE reports on the most recent command only. */
		pthread_mutex_lock(&s->lock);
		__atomic_store_n(&s->have_sense, false, __ATOMIC_RELAXED);
		pthread_mutex_unlock(&s->lock);
	}
	if (data_len)
		*data_len = c->data_len;
	return status;
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
	if (!(op->flags & ZSCSI_F_NO_UA) && take_unit_attention(s)) {
		status = zscsi_fail(&c, ZSK_UNIT_ATTENTION, 0x29, 0x00);
		goto refused;
	}
	return zscsi_finish(&c, op->fn(&c), true, sense, data_len);
refused:
	return zscsi_finish(&c, status, false, sense, data_len);
}

uint8_t zscsi_execute(struct zscsi *s, const uint8_t *cdb, size_t cdb_len,
		      const struct iovec *iov, int iov_cnt, uint8_t *sense, size_t *data_len)
{
	/*
	 * READ and WRITE (10/16) go to zscsi_rw_fast(), which hands every
	 * command it does not simply carry out back to the table (a tail call).
	 * Its READs try zdisk_read_try() first, as zscsi_read_fast() does.
	 */
	if (cdb && cdb_len >= 10 && ((cdb[0] | 0x02) == 0x2a || (cdb[0] | 0x02) == 0x8a))
		return zscsi_rw_fast(s, cdb, cdb_len, iov, iov_cnt, sense, data_len);
	return zscsi_execute_table(s, cdb, cdb_len, iov, iov_cnt, sense, data_len);
}
