/*
 * zbc_steps.c — the step half of the conformance DSL: expressions, CDB
 * builders, execution through the target callbacks, control actions.  It
 * talks to the target only through the callbacks; it is not a SCSI
 * implementation and knows nothing of zonelab.
 *
 * Expressions (LBAs, values): terms joined by + or -; a term is a decimal
 * or 0x hex number, zN (start of zone slot N), zs (zone size), cap
 * (capacity in LBAs), ones (all-ones).
 *
 * Steps (setup and command under test):
 *   w|w6|w10|w12 LBA N      WRITE(16/6/10/12) of N blocks of the LBA pattern
 *   wf LBA N                WRITE(16) with FUA
 *   r|r6|r10|r12 LBA N      READ(16/6/10/12)
 *   v|v10 LBA N             VERIFY(16/10), BYTCHK 0
 *   open|close|finish|reset LBA|all [cnt=N] [id=LBA]   ZBC OUT
 *   rz LBA [opt=N] [partial] [alloc=N]                 REPORT ZONES
 *   inq [vpd=N] [alloc=N]   INQUIRY
 *   rc10 | rc16 [alloc=N]   READ CAPACITY
 *   tur | ssu | sync | sync10 | luns | rs [alloc=N]
 *   ms6|ms10 PAGE [pc=N] [sub=N] [dbd] [llbaa] [alloc=N]  MODE SENSE
 *   msel6|msel10 HEX [sp] [nopf] [pll=N]   MODE SELECT with this parameter list
 *   wce 0|1                 MODE SENSE(10) caching page, flip WCE, MODE SELECT(10)
 *   rsoc [ropt=N] [op=N] [sa=N] [rctd] [alloc=N]   REPORT SUPPORTED OPERATION CODES
 *   vb|vb10 LBA N [bytchk=1|3] [flip=K] [vl=N] [zero]   VERIFY(16/10) with BYTCHK
 *                           (default 1) and data-out: the LBA pattern of N blocks (one
 *                           block of LBA's pattern for 3; zeros with zero), byte K
 *                           inverted; vl= the CDB's
 *                           length if it differs from N (the data-out stays N)
 *   wv|wv10 LBA N [bytchk=1]  WRITE AND VERIFY(16/10) of the LBA pattern
 *   ws|ws10 LBA N [fill=B] [unmap] [ndob] [anchor] [nodata]   WRITE SAME(16/10)
 *                           of one block of byte B (default 0); nodata: no data-out
 *   caw LBA N [fill=B] [zero] [flip=K]   COMPARE AND WRITE: compare with the LBA
 *                           pattern (zeros with zero), byte K inverted; write byte B
 *   rbuf LBA N BYTES        READ(16) of N blocks into a buffer of BYTES bytes
 *   cdb HEX... [in=N] [out=N]   a raw CDB with a data-in or data-out buffer
 *   pcycle | pcycle!        power cycle (pcycle absorbs the unit attention with a TUR)
 *   reopen                  close the device and open its image again
 *   setcond ZONE ro|offline  make zone slot ZONE READ ONLY / OFFLINE
 * A setup step prefixed with '!' may fail.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zbc_int.h"

int zr_failf(struct run *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->msg, r->msg_len, fmt, ap);
	va_end(ap);
	return -1;
}

/* ---- expressions ---------------------------------------------------- */

int zr_eval(struct run *r, const char *s, uint64_t *out)
{
	uint64_t acc = 0, v;
	int sign = 1;
	char *end;

	while (*s) {
		if (s[0] == 'z' && s[1] == 's') {
			v = r->g->zone_size_lba;
			s += 2;
		} else if (s[0] == 'z' && isdigit((unsigned char)s[1])) {
			v = strtoull(s + 1, &end, 10) * r->g->zone_size_lba;
			s = end;
		} else if (!strncmp(s, "cap", 3)) {
			v = r->g->capacity_lba;
			s += 3;
		} else if (!strncmp(s, "ones", 4)) {
			v = ~0ull;
			s += 4;
		} else if (isdigit((unsigned char)*s)) {
			v = strtoull(s, &end, 0);
			s = end;
		} else {
			return zr_failf(r, "bad expression near '%s'", s);
		}
		acc = sign > 0 ? acc + v : acc - v;
		if (*s == '+') {
			sign = 1;
			s++;
		} else if (*s == '-') {
			sign = -1;
			s++;
		} else if (*s) {
			return zr_failf(r, "bad expression near '%s'", s);
		}
	}
	*out = acc;
	return 0;
}

int zr_split(char *s, char **tok)
{
	int n = 0;

	for (char *p = strtok(s, " \t"); p && n < MAX_TOK; p = strtok(NULL, " \t"))
		tok[n++] = p;
	return n;
}

/* key=value option among tokens; returns true and sets *v if present */
bool zr_opt_num(struct run *r, char **tok, int n, const char *key, uint64_t *v)
{
	size_t kl = strlen(key);

	for (int i = 1; i < n; i++)
		if (!strncmp(tok[i], key, kl) && tok[i][kl] == '=')
			return zr_eval(r, tok[i] + kl + 1, v) == 0;
	return false;
}

bool zr_opt_flag(char **tok, int n, const char *key)
{
	for (int i = 1; i < n; i++)
		if (!strcmp(tok[i], key))
			return true;
	return false;
}

void zr_pattern(const struct zbc_geom *g, uint64_t lba, uint8_t *b)
{
	for (uint32_t k = 0; k < g->lba_size; k++)
		b[k] = (uint8_t)(lba * 31 + k * 7 + 1);
	zl_test_put_be(b, lba, 8);
}

int zr_hexbytes(struct run *r, const char *s, uint8_t *out, size_t max, size_t *n)
{
	*n = 0;
	while (*s) {
		unsigned v;

		if (*s == ' ' || *s == ':') {
			s++;
			continue;
		}
		if (!isxdigit((unsigned char)s[0]) || !isxdigit((unsigned char)s[1]) ||
		    sscanf(s, "%2x", &v) != 1)
			return zr_failf(r, "bad hex near '%s'", s);
		if (*n >= max)
			return zr_failf(r, "hex too long");
		out[(*n)++] = (uint8_t)v;
		s += 2;
	}
	return 0;
}

/* ---- sense ----------------------------------------------------------- */

void zr_sense_kcq(const uint8_t *s, uint8_t *key, uint8_t *asc, uint8_t *ascq)
{
	if ((s[0] & 0x7f) >= 0x72) {
		*key = s[1] & 0x0f;
		*asc = s[2];
		*ascq = s[3];
	} else {
		*key = s[2] & 0x0f;
		*asc = s[12];
		*ascq = s[13];
	}
}

const char *zr_outcome(uint8_t status, const uint8_t *sense, char *buf, size_t len)
{
	uint8_t k, a, q;

	if (status == 0) {
		snprintf(buf, len, "GOOD");
	} else if (status == 2) {
		zr_sense_kcq(sense, &k, &a, &q);
		snprintf(buf, len, "CHECK %02X/%02X/%02X", k, a, q);
	} else {
		snprintf(buf, len, "status %02Xh", status);
	}
	return buf;
}

/* ---- execution -------------------------------------------------------- */

uint8_t zr_exec(struct run *r, const uint8_t *cdb, size_t len, void *buf, size_t buflen, int dir)
{
	memset(r->sense, 0, sizeof(r->sense));
	r->xfer_len = 0;
	r->status = r->t->exec(r->dev, cdb, len, buf, buflen, dir, r->sense, &r->xfer_len);
	return r->status;
}

/* Keep @buf as the last data-in (takes ownership). */
void zr_keep_data(struct run *r, uint8_t *buf, size_t len)
{
	free(r->data);
	r->data = buf;
	r->data_len = len;
}

uint8_t zr_exec_in(struct run *r, const uint8_t *cdb, size_t len, size_t alloc)
{
	uint8_t *buf = calloc(1, alloc ? alloc : 1);

	if (!buf)
		return 0xff;
	zr_exec(r, cdb, len, alloc ? buf : NULL, alloc, alloc ? ZBC_DIR_IN : ZBC_DIR_NONE);
	zr_keep_data(r, buf, alloc);
	return r->status;
}

int zr_ctl(struct run *r, enum zbc_ctl op, uint32_t zone, uint8_t cond)
{
	int ret;

	if (!r->t->control) {
		r->skip = true;
		return zr_failf(r, "target has no control channel");
	}
	ret = r->t->control(r->t->ctx, r->dev, op, zone, cond);
	if (ret == -ENOTSUP) {
		r->skip = true;
		return zr_failf(r, "control action %d not supported", op);
	}
	if (ret)
		return zr_failf(r, "control action %d failed: %d", op, ret);
	return 0;
}

int zr_do_wce(struct run *r, int on)
{
	uint8_t cdb[10] = { 0x5a, 0x08, 0x08, 0, 0, 0, 0, 0, 0xff, 0 };
	uint8_t buf[255], pl[64];
	size_t plen;

	memset(buf, 0, sizeof(buf));
	if (zr_exec(r, cdb, 10, buf, sizeof(buf), ZBC_DIR_IN))
		return 0;
	if (buf[8] != 0x08 || buf[9] + 2 > (int)sizeof(pl) - 8)
		return zr_failf(r, "caching page not where expected");
	plen = 8 + buf[9] + 2;
	memset(pl, 0, 8);
	memcpy(pl + 8, buf + 8, buf[9] + 2);
	pl[8] &= 0x3f;                             /* PS is reserved in MODE SELECT */
	pl[10] = (uint8_t)((pl[10] & ~0x04) | (on ? 0x04 : 0));
	memset(cdb, 0, sizeof(cdb));
	cdb[0] = 0x55;
	cdb[1] = 0x10;
	zl_test_put_be(cdb + 7, plen, 2);
	zr_exec(r, cdb, 10, pl, plen, ZBC_DIR_OUT);
	return 0;
}

int zr_open_dev(struct run *r, bool create)
{
	char why[256] = "";

	r->dev = r->t->open(r->t->ctx, r->g, create, why, sizeof(why));
	if (!r->dev) {
		r->skip = true;
		return zr_failf(r, "cannot open geometry %s: %s", r->g->name, why);
	}
	return 0;
}

/*
 * Run one step.  Returns 0 when it was executed (status in r->status),
 * -1 on a DSL error or a failed control action (message set).
 */
int zr_step(struct run *r, const char *text)
{
	char copy[512], *tok[MAX_TOK];
	uint8_t cdb[32];
	uint64_t a = 0, b = 0, v;
	size_t clen = 16;
	int n;

	snprintf(copy, sizeof(copy), "%s", text);
	n = zr_split(copy, tok);
	if (n == 0)
		return zr_failf(r, "empty step");
	memset(cdb, 0, sizeof(cdb));
	r->status = 0;

	if (!strcmp(tok[0], "w") || !strcmp(tok[0], "wf") || !strcmp(tok[0], "w6") ||
	    !strcmp(tok[0], "w10") || !strcmp(tok[0], "w12") || !strcmp(tok[0], "r") ||
	    !strcmp(tok[0], "r6") || !strcmp(tok[0], "r10") || !strcmp(tok[0], "r12") ||
	    !strcmp(tok[0], "v") || !strcmp(tok[0], "v10")) {
		bool wr = tok[0][0] == 'w', vf = tok[0][0] == 'v';
		const char *sz = tok[0] + (tok[0][1] == 'f' ? 2 : 1);
		uint64_t nblk;
		size_t bytes;
		uint8_t *buf;

		if (n < 3 || zr_eval(r, tok[1], &a) || zr_eval(r, tok[2], &b))
			return zr_failf(r, "step '%s': need LBA N", text);
		nblk = b;
		if (!strcmp(sz, "6")) {
			cdb[0] = wr ? 0x0a : 0x08;
			zl_test_put_be(cdb + 1, a & 0x1fffff, 3);
			cdb[4] = (uint8_t)b;
			if (b == 0)
				nblk = 256;
			clen = 6;
		} else if (!strcmp(sz, "10")) {
			cdb[0] = vf ? 0x2f : wr ? 0x2a : 0x28;
			zl_test_put_be(cdb + 2, a, 4);
			zl_test_put_be(cdb + 7, b, 2);
			clen = 10;
		} else if (!strcmp(sz, "12")) {
			cdb[0] = wr ? 0xaa : 0xa8;
			zl_test_put_be(cdb + 2, a, 4);
			zl_test_put_be(cdb + 6, b, 4);
			clen = 12;
		} else {
			cdb[0] = vf ? 0x8f : wr ? 0x8a : 0x88;
			zl_test_put_be(cdb + 2, a, 8);
			zl_test_put_be(cdb + 10, b, 4);
			if (tok[0][1] == 'f')
				cdb[1] = 0x08;
		}
		if (vf || nblk > (64u << 20) / r->g->lba_size) {
			zr_exec(r, cdb, clen, NULL, 0, ZBC_DIR_NONE);
			return 0;
		}
		bytes = (size_t)nblk * r->g->lba_size;
		buf = calloc(1, bytes ? bytes : 1);
		if (!buf)
			return zr_failf(r, "out of memory");
		if (wr) {
			for (uint64_t i = 0; i < nblk; i++)
				zr_pattern(r->g, a + i, buf + i * r->g->lba_size);
			zr_exec(r, cdb, clen, bytes ? buf : NULL, bytes, bytes ? ZBC_DIR_OUT : ZBC_DIR_NONE);
			free(buf);
		} else {
			zr_exec(r, cdb, clen, bytes ? buf : NULL, bytes, bytes ? ZBC_DIR_IN : ZBC_DIR_NONE);
			zr_keep_data(r, buf, bytes);
		}
		return 0;
	}
	if (!strcmp(tok[0], "open") || !strcmp(tok[0], "close") || !strcmp(tok[0], "finish") ||
	    !strcmp(tok[0], "reset")) {
		static const char *names[] = { NULL, "close", "finish", "open", "reset" };

		cdb[0] = 0x94;
		for (int i = 1; i <= 4; i++)
			if (!strcmp(tok[0], names[i]))
				cdb[1] = (uint8_t)i;
		if (n < 2)
			return zr_failf(r, "step '%s': need LBA or all", text);
		if (!strcmp(tok[1], "all")) {
			cdb[14] = 0x01;
			a = 0;
			zr_opt_num(r, tok, n, "id", &a);
		} else if (zr_eval(r, tok[1], &a)) {
			return -1;
		}
		zl_test_put_be(cdb + 2, a, 8);
		if (zr_opt_num(r, tok, n, "cnt", &v))
			zl_test_put_be(cdb + 12, v, 2);
		zr_exec(r, cdb, 16, NULL, 0, ZBC_DIR_NONE);
		return 0;
	}
	if (!strcmp(tok[0], "rz")) {
		uint64_t alloc = 64 + 64 * 64, opt = 0;

		if (n < 2 || zr_eval(r, tok[1], &a))
			return zr_failf(r, "step '%s': need LBA", text);
		zr_opt_num(r, tok, n, "opt", &opt);
		zr_opt_num(r, tok, n, "alloc", &alloc);
		cdb[0] = 0x95;
		zl_test_put_be(cdb + 2, a, 8);
		zl_test_put_be(cdb + 10, alloc, 4);
		cdb[14] = (uint8_t)((opt & 0x3f) | (zr_opt_flag(tok, n, "partial") ? 0x80 : 0));
		zr_exec_in(r, cdb, 16, alloc);
		return 0;
	}
	if (!strcmp(tok[0], "inq")) {
		uint64_t alloc = 255;

		zr_opt_num(r, tok, n, "alloc", &alloc);
		cdb[0] = 0x12;
		if (zr_opt_num(r, tok, n, "vpd", &v)) {
			cdb[1] = 0x01;
			cdb[2] = (uint8_t)v;
		}
		zl_test_put_be(cdb + 3, alloc, 2);
		zr_exec_in(r, cdb, 6, alloc);
		return 0;
	}
	if (!strcmp(tok[0], "rc10")) {
		cdb[0] = 0x25;
		zr_exec_in(r, cdb, 10, 8);
		return 0;
	}
	if (!strcmp(tok[0], "rc16")) {
		uint64_t alloc = 32;

		zr_opt_num(r, tok, n, "alloc", &alloc);
		cdb[0] = 0x9e;
		cdb[1] = 0x10;
		zl_test_put_be(cdb + 10, alloc, 4);
		zr_exec_in(r, cdb, 16, alloc);
		return 0;
	}
	if (!strcmp(tok[0], "tur") || !strcmp(tok[0], "ssu") || !strcmp(tok[0], "sync") ||
	    !strcmp(tok[0], "sync10")) {
		if (tok[0][0] == 't') {
			clen = 6;
		} else if (tok[0][1] == 's') {
			cdb[0] = 0x1b;
			cdb[4] = 0x01;
			clen = 6;
		} else if (!strcmp(tok[0], "sync")) {
			cdb[0] = 0x91;
		} else {
			cdb[0] = 0x35;
			clen = 10;
		}
		zr_exec(r, cdb, clen, NULL, 0, ZBC_DIR_NONE);
		return 0;
	}
	if (!strcmp(tok[0], "rs")) {
		uint64_t alloc = 18;

		zr_opt_num(r, tok, n, "alloc", &alloc);
		cdb[0] = 0x03;
		cdb[4] = (uint8_t)alloc;
		zr_exec_in(r, cdb, 6, alloc);
		return 0;
	}
	if (!strcmp(tok[0], "luns")) {
		cdb[0] = 0xa0;
		zl_test_put_be(cdb + 6, 256, 4);
		zr_exec_in(r, cdb, 12, 256);
		return 0;
	}
	if (!strcmp(tok[0], "ms6") || !strcmp(tok[0], "ms10")) {
		bool ten = tok[0][2] == '1';
		uint64_t alloc = ten ? 512 : 255, pc = 0, sub = 0;

		if (n < 2 || zr_eval(r, tok[1], &a))
			return zr_failf(r, "step '%s': need PAGE", text);
		zr_opt_num(r, tok, n, "alloc", &alloc);
		zr_opt_num(r, tok, n, "pc", &pc);
		zr_opt_num(r, tok, n, "sub", &sub);
		cdb[0] = ten ? 0x5a : 0x1a;
		cdb[1] = (uint8_t)((zr_opt_flag(tok, n, "dbd") ? 0x08 : 0) |
				   (zr_opt_flag(tok, n, "llbaa") ? 0x10 : 0));
		cdb[2] = (uint8_t)(pc << 6 | (a & 0x3f));
		cdb[3] = (uint8_t)sub;
		if (ten)
			zl_test_put_be(cdb + 7, alloc, 2);
		else
			cdb[4] = (uint8_t)alloc;
		zr_exec_in(r, cdb, ten ? 10 : 6, alloc);
		return 0;
	}
	if (!strcmp(tok[0], "msel6") || !strcmp(tok[0], "msel10")) {
		bool ten = tok[0][4] == '1';
		uint8_t pl[256];
		size_t plen = 0;
		uint64_t pll;

		if (n >= 2 && tok[1][0] != '-' && zr_hexbytes(r, tok[1], pl, sizeof(pl), &plen))
			return -1;
		pll = plen;
		zr_opt_num(r, tok, n, "pll", &pll);
		cdb[0] = ten ? 0x55 : 0x15;
		cdb[1] = (uint8_t)((zr_opt_flag(tok, n, "nopf") ? 0 : 0x10) |
				   (zr_opt_flag(tok, n, "sp") ? 0x01 : 0));
		if (ten)
			zl_test_put_be(cdb + 7, pll, 2);
		else
			cdb[4] = (uint8_t)pll;
		zr_exec(r, cdb, ten ? 10 : 6, plen ? pl : NULL, plen, plen ? ZBC_DIR_OUT : ZBC_DIR_NONE);
		return 0;
	}
	if (!strcmp(tok[0], "wce")) {
		if (n < 2)
			return zr_failf(r, "wce needs 0 or 1");
		return zr_do_wce(r, atoi(tok[1]));
	}
	if (!strcmp(tok[0], "rsoc")) {
		uint64_t alloc = 2048, ropt = 0, op = 0, sa = 0;

		zr_opt_num(r, tok, n, "alloc", &alloc);
		zr_opt_num(r, tok, n, "ropt", &ropt);
		zr_opt_num(r, tok, n, "op", &op);
		zr_opt_num(r, tok, n, "sa", &sa);
		cdb[0] = 0xa3;
		cdb[1] = 0x0c;
		cdb[2] = (uint8_t)((ropt & 7) | (zr_opt_flag(tok, n, "rctd") ? 0x80 : 0));
		cdb[3] = (uint8_t)op;
		zl_test_put_be(cdb + 4, sa, 2);
		zl_test_put_be(cdb + 6, alloc, 4);
		zr_exec_in(r, cdb, 12, alloc);
		return 0;
	}
	if (!strcmp(tok[0], "vb") || !strcmp(tok[0], "vb10") || !strcmp(tok[0], "wv") ||
	    !strcmp(tok[0], "wv10") || !strcmp(tok[0], "caw") || !strcmp(tok[0], "ws") ||
	    !strcmp(tok[0], "ws10") || !strcmp(tok[0], "rbuf")) {
		uint32_t bs = r->g->lba_size;
		uint64_t bytchk = 1, flip = ~0ull, fill = 0, vl;
		bool ten = !!strstr(tok[0], "10"), ws = tok[0][0] == 'w' && tok[0][1] == 's';
		bool caw = tok[0][0] == 'c', wv = tok[0][0] == 'w' && tok[0][1] == 'v';
		size_t bytes, nblk;
		uint8_t *buf;

		if (n < 3 || zr_eval(r, tok[1], &a) || zr_eval(r, tok[2], &b))
			return zr_failf(r, "step '%s': need LBA N", text);
		if (!strcmp(tok[0], "rbuf")) {
			if (n < 4 || zr_eval(r, tok[3], &v))
				return zr_failf(r, "step '%s': rbuf LBA N BYTES", text);
			cdb[0] = 0x88;
			zl_test_put_be(cdb + 2, a, 8);
			zl_test_put_be(cdb + 10, b, 4);
			zr_exec_in(r, cdb, 16, v);
			return 0;
		}
		zr_opt_num(r, tok, n, "bytchk", &bytchk);
		zr_opt_num(r, tok, n, "flip", &flip);
		zr_opt_num(r, tok, n, "fill", &fill);
		vl = b;
		zr_opt_num(r, tok, n, "vl", &vl);
		if (caw) {
			cdb[0] = 0x89;
			zl_test_put_be(cdb + 2, a, 8);
			cdb[13] = (uint8_t)vl;
			nblk = 2 * b;
		} else if (ws) {
			cdb[0] = ten ? 0x41 : 0x93;
			cdb[1] = (uint8_t)((zr_opt_flag(tok, n, "unmap") ? 0x08 : 0) |
					   (zr_opt_flag(tok, n, "anchor") ? 0x10 : 0) |
					   (zr_opt_flag(tok, n, "ndob") ? 0x01 : 0));
			nblk = zr_opt_flag(tok, n, "nodata") || zr_opt_flag(tok, n, "ndob") ? 0 : 1;
		} else {
			cdb[0] = wv ? (ten ? 0x2e : 0x8e) : (ten ? 0x2f : 0x8f);
			cdb[1] = (uint8_t)((bytchk & 3) << 1);
			nblk = !wv && bytchk == 3 ? 1 : b;
		}
		if (!caw) {
			if (ten) {
				zl_test_put_be(cdb + 2, a, 4);
				zl_test_put_be(cdb + 7, vl, 2);
				clen = 10;
			} else {
				zl_test_put_be(cdb + 2, a, 8);
				zl_test_put_be(cdb + 10, vl, 4);
			}
		}
		bytes = nblk * bs;
		buf = calloc(1, bytes + 1);
		if (!buf)
			return zr_failf(r, "out of memory");
		if (ws) {
			memset(buf, (int)fill, bytes);
		} else if (caw) {
			if (!zr_opt_flag(tok, n, "zero"))
				for (uint64_t i = 0; i < b; i++)
					zr_pattern(r->g, a + i, buf + i * bs);
			memset(buf + b * bs, (int)fill, b * bs);
		} else if (!zr_opt_flag(tok, n, "zero")) {
			for (uint64_t i = 0; i < nblk; i++)
				zr_pattern(r->g, a + i, buf + i * bs);
		}
		if (flip < bytes)
			buf[flip] ^= 0xff;
		zr_exec(r, cdb, clen, bytes ? buf : NULL, bytes, bytes ? ZBC_DIR_OUT : ZBC_DIR_NONE);
		free(buf);
		return 0;
	}
	if (!strcmp(tok[0], "cdb")) {
		uint64_t in = 0, out = 0;
		char hex[128] = "";
		uint8_t *buf;
		int i;

		for (i = 1; i < n && !strchr(tok[i], '='); i++)
			strncat(hex, tok[i], sizeof(hex) - strlen(hex) - 1);
		if (zr_hexbytes(r, hex, cdb, sizeof(cdb), &clen))
			return -1;
		zr_opt_num(r, tok, n, "in", &in);
		zr_opt_num(r, tok, n, "out", &out);
		if (in) {
			zr_exec_in(r, cdb, clen, in);
		} else if (out) {
			buf = calloc(1, out);
			if (!buf)
				return zr_failf(r, "out of memory");
			zr_exec(r, cdb, clen, buf, out, ZBC_DIR_OUT);
			free(buf);
		} else {
			zr_exec(r, cdb, clen, NULL, 0, ZBC_DIR_NONE);
		}
		return 0;
	}
	if (!strcmp(tok[0], "pcycle") || !strcmp(tok[0], "pcycle!")) {
		uint8_t tur[6] = { 0 };

		if (zr_ctl(r, ZBC_CTL_POWER_CYCLE, 0, 0))
			return -1;
		if (!strcmp(tok[0], "pcycle"))
			zr_exec(r, tur, 6, NULL, 0, ZBC_DIR_NONE);  /* absorb the unit attention */
		r->status = 0;
		return 0;
	}
	if (!strcmp(tok[0], "reopen")) {
		r->t->close(r->t->ctx, r->dev);
		r->dev = NULL;
		return zr_open_dev(r, false);
	}
	if (!strcmp(tok[0], "setcond")) {
		uint8_t cond;

		if (n < 3 || zr_eval(r, tok[1], &a))
			return zr_failf(r, "setcond ZONE ro|offline");
		cond = !strcmp(tok[2], "ro") ? 0xd : !strcmp(tok[2], "offline") ? 0xf : 0;
		if (!cond)
			return zr_failf(r, "setcond: unknown condition %s", tok[2]);
		return zr_ctl(r, ZBC_CTL_SET_COND, (uint32_t)a, cond);
	}
	return zr_failf(r, "unknown step '%s'", tok[0]);
}
