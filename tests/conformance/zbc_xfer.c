/*
 * zbc_xfer.c — the transfer-length table: every data-in command of the
 * target at every allocation length from 0 to its full size + 1 (and the
 * largest value its ALLOCATION LENGTH field takes, capped at 8 KiB), into a
 * buffer of exactly that length (the initiator's expected transfer length)
 * prefilled with a pattern that stands for another command's bytes.
 *
 * SPC-5 4.2.5.6: the target returns min(allocation length, available)
 * bytes, cut anywhere.  So, per length: the first min() bytes equal the
 * full response's, every byte after them is zero (a transport that sends
 * the whole buffer must send nothing stale), and the transfer length the
 * target reports is min() (or the whole buffer, for a target that declares
 * xfer_whole_buffer).  "Available" is what the full response says of
 * itself (its length fields), so the table needs nothing from the target
 * but the commands.  REPORT ZONES with PARTIAL=1 is the one response that
 * depends on the allocation length: there bytes 0-3 (ZONE LIST LENGTH)
 * must count the whole descriptors returned, the rest is the full prefix.
 *
 * It is not a SCSI implementation: it reaches the target only through
 * struct zbc_target, like the case table.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zbc_int.h"

#define RZ(lba_hex, opt) "95 00 " lba_hex " 00 00 00 00 " opt " 00"
#define L0 "00 00 00 00 00 00 00 00"

const struct zbc_xfer_case zbc_xfer_cases[] = {
	{ "xfer-inquiry", "hm", NULL, "12 00 00 00 00 00", 3, 2, ZBC_AV_INQ, false },
	{ "xfer-vpd00", "hm", NULL, "12 01 00 00 00 00", 3, 2, ZBC_AV_VPD, false },
	{ "xfer-vpd80", "hm", NULL, "12 01 80 00 00 00", 3, 2, ZBC_AV_VPD, false },
	{ "xfer-vpd83", "hm", NULL, "12 01 83 00 00 00", 3, 2, ZBC_AV_VPD, false },
	{ "xfer-vpdb0", "hm", NULL, "12 01 b0 00 00 00", 3, 2, ZBC_AV_VPD, false },
	{ "xfer-vpdb1", "hm", NULL, "12 01 b1 00 00 00", 3, 2, ZBC_AV_VPD, false },
	{ "xfer-vpdb6", "hm", NULL, "12 01 b6 00 00 00", 3, 2, ZBC_AV_VPD, false },
	{ "xfer-vpdb1-ha", "ha", NULL, "12 01 b1 00 00 00", 3, 2, ZBC_AV_VPD, false },
	{ "xfer-ms6-all", "hm", NULL, "1a 00 3f 00 00 00", 4, 1, ZBC_AV_MS6, false },
	{ "xfer-ms6-all-subpages-dbd", "hm", NULL, "1a 08 3f ff 00 00", 4, 1, ZBC_AV_MS6, false },
	{ "xfer-ms6-rw-recovery", "hm", NULL, "1a 00 01 00 00 00", 4, 1, ZBC_AV_MS6, false },
	{ "xfer-ms6-caching-dbd", "hm", NULL, "1a 08 08 00 00 00", 4, 1, ZBC_AV_MS6, false },
	{ "xfer-ms6-caching-changeable", "hm", NULL, "1a 08 48 00 00 00", 4, 1, ZBC_AV_MS6, false },
	{ "xfer-ms6-control-default", "hm", NULL, "1a 00 8a 00 00 00", 4, 1, ZBC_AV_MS6, false },
	{ "xfer-ms10-all", "hm", NULL, "5a 00 3f 00 00 00 00 00 00 00", 7, 2, ZBC_AV_MS10, false },
	{ "xfer-ms10-all-llbaa", "hm", NULL, "5a 10 3f 00 00 00 00 00 00 00", 7, 2, ZBC_AV_MS10, false },
	{ "xfer-ms10-all-subpages-dbd", "hm", NULL, "5a 08 3f ff 00 00 00 00 00 00", 7, 2, ZBC_AV_MS10, false },
	{ "xfer-ms10-caching", "hm", NULL, "5a 00 08 00 00 00 00 00 00 00", 7, 2, ZBC_AV_MS10, false },
	{ "xfer-ms10-control-dbd", "hm", NULL, "5a 08 0a 00 00 00 00 00 00 00", 7, 2, ZBC_AV_MS10, false },
	{ "xfer-rsoc-all", "hm", NULL, "a3 0c 00 00 00 00 00 00 00 00 00 00", 6, 4, ZBC_AV_RSOC_ALL, false },
	{ "xfer-rsoc-all-rctd", "hm", NULL, "a3 0c 80 00 00 00 00 00 00 00 00 00", 6, 4, ZBC_AV_RSOC_ALL, false },
	{ "xfer-rsoc-one-read16", "hm", NULL, "a3 0c 01 88 00 00 00 00 00 00 00 00", 6, 4, ZBC_AV_RSOC_ONE, false },
	{ "xfer-rsoc-one-read16-rctd", "hm", NULL, "a3 0c 81 88 00 00 00 00 00 00 00 00", 6, 4, ZBC_AV_RSOC_ONE, false },
	{ "xfer-rsoc-one-sa-report-zones", "hm", NULL, "a3 0c 02 95 00 00 00 00 00 00 00 00", 6, 4, ZBC_AV_RSOC_ONE, false },
	{ "xfer-rsoc-one-unsupported", "hm", NULL, "a3 0c 01 42 00 00 00 00 00 00 00 00", 6, 4, ZBC_AV_RSOC_ONE, false },
	{ "xfer-rc10", "hm", NULL, "25 00 00 00 00 00 00 00 00 00", 0, 0, ZBC_AV_8, false },
	{ "xfer-rc16", "hm", NULL, "9e 10 00 00 00 00 00 00 00 00 00 00 00 00 00 00", 10, 4, ZBC_AV_32, false },
	{ "xfer-request-sense", "hm", NULL, "03 00 00 00 00 00", 4, 1, ZBC_AV_SENSE, false },
	{ "xfer-rz-all", "hm", "w z2 8; w 0 8", RZ(L0, "00"), 10, 4, ZBC_AV_RZ, false },
	{ "xfer-rz-all-partial", "hm", "w z2 8", RZ(L0, "80"), 10, 4, ZBC_AV_RZ, true },
	{ "xfer-rz-mid-start", "hm", NULL, RZ("00 00 00 00 00 00 68 10", "00"), 10, 4, ZBC_AV_RZ, false },
	{ "xfer-rz-filtered", "hm", "w z2 8; w z5 8; w z9 8", RZ(L0, "02"), 10, 4, ZBC_AV_RZ, false },
	{ "xfer-rz-filtered-partial", "hm", "w z2 8; w z5 8; w z9 8", RZ(L0, "82"), 10, 4, ZBC_AV_RZ, true },
	{ "xfer-rz-gap", "hm-gap", NULL, RZ(L0, "00"), 10, 4, ZBC_AV_RZ, false },
};

const size_t zbc_nr_xfer_cases = sizeof(zbc_xfer_cases) / sizeof(zbc_xfer_cases[0]);

#define XFER_MAX 8192u

/* The response's own idea of its length (bytes available). */
static size_t avail_of(enum zbc_avail a, const uint8_t *b)
{
	switch (a) {
	case ZBC_AV_INQ:
		return (size_t)b[4] + 5;
	case ZBC_AV_VPD:
		return zl_test_get_be(b + 2, 2) + 4;
	case ZBC_AV_MS6:
		return (size_t)b[0] + 1;
	case ZBC_AV_MS10:
		return zl_test_get_be(b, 2) + 2;
	case ZBC_AV_RSOC_ALL:
		return zl_test_get_be(b, 4) + 4;
	case ZBC_AV_RSOC_ONE:
		return 4 + zl_test_get_be(b + 2, 2) + ((b[1] & 0x80) ? 12 : 0);
	case ZBC_AV_SENSE:
		return (size_t)b[7] + 8;
	case ZBC_AV_RZ:
		return zl_test_get_be(b, 4) + 64;
	case ZBC_AV_8:
		return 8;
	case ZBC_AV_32:
		return 32;
	}
	return 0;
}

static uint8_t stale(size_t i)
{
	return (uint8_t)(i * 37 + 0x5a) | 0x01;     /* never zero */
}

/* Execute @cdb (ALLOCATION LENGTH set to @alloc) into a pattern-filled buffer of @buflen. */
static uint8_t run_at(struct run *r, const struct zbc_xfer_case *c, uint8_t *cdb, size_t cdb_len,
		      size_t alloc, uint8_t *buf, size_t buflen)
{
	if (c->alloc_size)
		zl_test_put_be(cdb + c->alloc_off, alloc, c->alloc_size);
	for (size_t i = 0; i < buflen; i++)
		buf[i] = stale(i);
	return zr_exec(r, cdb, cdb_len, buflen ? buf : NULL, buflen, buflen ? ZBC_DIR_IN : ZBC_DIR_NONE);
}

/* One allocation length against the full response @full of @avail bytes. */
static int check_at(struct run *r, const struct zbc_xfer_case *c, uint8_t *cdb, size_t cdb_len,
		    size_t alloc, const uint8_t *full, size_t avail, uint8_t *buf)
{
	size_t want = alloc < avail ? alloc : avail, from = 0, i;
	char o[48];

	if (run_at(r, c, cdb, cdb_len, alloc, buf, alloc))
		return zr_failf(r, "allocation length %zu: %s", alloc,
				zr_outcome(r->status, r->sense, o, sizeof(o)));
	if (c->rz_partial && want) {
		/* ZONE LIST LENGTH: the whole descriptors this length returns */
		size_t whole = alloc >= 64 ? (alloc - 64) / 64 : 0, all = (avail - 64) / 64;
		uint8_t zll[4];

		zl_test_put_be(zll, (whole < all ? whole : all) * 64, 4);
		from = want < 4 ? want : 4;
		if (memcmp(buf, zll, from))
			return zr_failf(r, "allocation length %zu: ZONE LIST LENGTH bytes %02x%02x%02x%02x,"
					" want %zu whole descriptors", alloc, buf[0], from > 1 ? buf[1] : 0,
					from > 2 ? buf[2] : 0, from > 3 ? buf[3] : 0,
					whole < all ? whole : all);
	}
	for (i = from; i < want; i++)
		if (buf[i] != full[i])
			return zr_failf(r, "allocation length %zu: byte %zu is 0x%02x, the full response has"
					" 0x%02x", alloc, i, buf[i], full[i]);
	for (i = want; i < alloc; i++)
		if (buf[i])
			return zr_failf(r, "allocation length %zu (%zu available): byte %zu is 0x%02x, not"
					" zero%s", alloc, avail, i, buf[i],
					buf[i] == stale(i) ? " (the buffer's old byte: stale data)" : "");
	if (r->t->xfer_whole_buffer ? r->xfer_len != alloc : r->xfer_len != want)
		return zr_failf(r, "allocation length %zu (%zu available): transfer length %zu, want %zu",
				alloc, avail, r->xfer_len, r->t->xfer_whole_buffer ? alloc : want);
	return 0;
}

static int xfer_case(struct run *r, const struct zbc_xfer_case *c)
{
	size_t max = c->alloc_size == 1 ? 0xff : c->alloc_size == 2 ? 0xffff : 0xffffffff;
	size_t cdb_len, avail, alloc;
	uint8_t cdb[32], *full, *buf;
	char o[48];
	int ret = -1;

	if (max > XFER_MAX || !c->alloc_size)
		max = XFER_MAX;
	if (zr_hexbytes(r, c->cdb, cdb, sizeof(cdb), &cdb_len))
		return -1;
	full = calloc(1, XFER_MAX);
	buf = calloc(1, XFER_MAX + 1);
	if (!full || !buf) {
		zr_failf(r, "out of memory");
		goto out_free;
	}
	if (run_at(r, c, cdb, cdb_len, max, full, max)) {
		zr_failf(r, "full response (allocation length %zu): %s", max,
			 zr_outcome(r->status, r->sense, o, sizeof(o)));
		goto out_free;
	}
	avail = avail_of(c->avail, full);
	if (avail > max || (c->avail == ZBC_AV_RZ && (avail - 64) % 64)) {
		zr_failf(r, "full response says %zu bytes available (buffer %zu)", avail, max);
		goto out_free;
	}
	for (size_t i = avail; i < max; i++)
		if (full[i]) {
			zr_failf(r, "full response: byte %zu past the %zu available is 0x%02x", i, avail,
				 full[i]);
			goto out_free;
		}
	for (alloc = 0; alloc <= avail + 1 && alloc <= max; alloc++)
		if (check_at(r, c, cdb, cdb_len, alloc, full, avail, buf))
			goto out_free;
	if (max > avail + 1 && check_at(r, c, cdb, cdb_len, max, full, avail, buf))
		goto out_free;
	ret = 0;
out_free:
	free(buf);
	free(full);
	return ret;
}

enum zbc_result zbc_run_xfer_case(const struct zbc_target *t, const struct zbc_xfer_case *c,
				  char *msg, size_t msg_len)
{
	struct run r = { .t = t, .msg = msg, .msg_len = msg_len };
	enum zbc_result res = ZBC_FAIL;
	char o[48];

	msg[0] = '\0';
	r.g = zbc_geom_find(c->geom);
	if (!r.g) {
		snprintf(msg, msg_len, "unknown geometry %s", c->geom);
		return ZBC_FAIL;
	}
	if (zr_open_dev(&r, true))
		goto out;
	if (c->setup) {
		char steps[256], *save = NULL;

		snprintf(steps, sizeof(steps), "%s", c->setup);
		for (char *s = strtok_r(steps, ";", &save); s; s = strtok_r(NULL, ";", &save)) {
			if (zr_step(&r, s))
				goto out;
			if (r.status) {
				zr_failf(&r, "setup step '%s': %s", s,
					 zr_outcome(r.status, r.sense, o, sizeof(o)));
				goto out;
			}
		}
	}
	if (!xfer_case(&r, c))
		res = ZBC_PASS;
out:
	if (r.skip)
		res = ZBC_SKIP;
	if (r.dev)
		t->close(t->ctx, r.dev);
	free(r.data);
	return res;
}

int zbc_run_xfer_all(const struct zbc_target *t, FILE *out, bool verbose,
		     unsigned *nr_pass, unsigned *nr_fail, unsigned *nr_skip)
{
	unsigned pass = 0, fail = 0, skip = 0;
	char msg[512];

	for (size_t i = 0; i < zbc_nr_xfer_cases; i++) {
		const struct zbc_xfer_case *c = &zbc_xfer_cases[i];
		enum zbc_result res = zbc_run_xfer_case(t, c, msg, sizeof(msg));

		if (res == ZBC_PASS)
			pass++;
		else if (res == ZBC_SKIP)
			skip++;
		else
			fail++;
		if (out && (verbose || res != ZBC_PASS))
			fprintf(out, "%-4s %-36s %s\n",
				res == ZBC_PASS ? "ok" : res == ZBC_SKIP ? "skip" : "FAIL", c->id, msg);
	}
	if (out)
		fprintf(out, "%s: transfer lengths: %u passed, %u failed, %u skipped of %zu commands\n",
			t->name, pass, fail, skip, zbc_nr_xfer_cases);
	if (nr_pass)
		*nr_pass = pass;
	if (nr_fail)
		*nr_fail = fail;
	if (nr_skip)
		*nr_skip = skip;
	return (int)fail;
}
