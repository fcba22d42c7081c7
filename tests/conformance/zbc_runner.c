/*
 * zbc_runner.c — runs the cases of zbc_cases.c against any struct
 * zbc_target: builds CDBs from the step DSL, compares status and sense,
 * evaluates the checks.  It talks to the target only through the
 * callbacks; it is not a SCSI implementation and knows nothing of zonelab.
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
 *   cdb HEX... [in=N] [out=N]   a raw CDB with a data-in or data-out buffer
 *   pcycle | pcycle!        power cycle (pcycle absorbs the unit attention with a TUR)
 *   reopen                  close the device and open its image again
 *   setcond ZONE ro|offline  make zone slot ZONE READ ONLY / OFFLINE
 * A setup step prefixed with '!' may fail.
 *
 * Checks (after the command under test):
 *   zone LBA COND [WP]      REPORT ZONES of that zone: condition (nwp empty
 *                           iopen eopen closed full ro offline) and write
 *                           pointer (an expression, or - for all-ones)
 *   zcount OPT N            REPORT ZONES from LBA 0 with option OPT lists N zones
 *   b OFF VAL | bm OFF MASK VAL | be OFF LEN VAL | ge OFF LEN VAL | has OFF LEN VAL
 *                           bytes of the command's data-in
 *   zll N                   ZONE LIST LENGTH = N descriptors
 *   dt|dc|ds|dl|dw I VAL    descriptor I: type, condition, start, length, WP
 *   data pat LBA [BLK N] | data zero [BLK N]   the command's read data
 *   pat LBA N | zero LBA N  read back now and compare
 *   info VAL                sense VALID and INFORMATION = VAL
 *   sks BYTE [BIT]          sense-key specific field pointer
 *   wce V                   MODE SENSE caching page WCE = V
 *   ok STEP                 run a step, expect GOOD
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zbc_cases.h"

#define MAX_TOK 40
#define SENSE_BUF 64

struct run {
	const struct zbc_target *t;
	const struct zbc_geom *g;
	void *dev;
	uint8_t status;
	uint8_t sense[SENSE_BUF];
	uint8_t *data;          /* last data-in buffer */
	size_t data_len;
	char *msg;
	size_t msg_len;
	bool skip;
};

static int failf(struct run *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->msg, r->msg_len, fmt, ap);
	va_end(ap);
	return -1;
}

/* ---- expressions ---------------------------------------------------- */

static int eval(struct run *r, const char *s, uint64_t *out)
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
			return failf(r, "bad expression near '%s'", s);
		}
		acc = sign > 0 ? acc + v : acc - v;
		if (*s == '+') {
			sign = 1;
			s++;
		} else if (*s == '-') {
			sign = -1;
			s++;
		} else if (*s) {
			return failf(r, "bad expression near '%s'", s);
		}
	}
	*out = acc;
	return 0;
}

static int split(char *s, char **tok)
{
	int n = 0;

	for (char *p = strtok(s, " \t"); p && n < MAX_TOK; p = strtok(NULL, " \t"))
		tok[n++] = p;
	return n;
}

/* key=value option among tokens; returns true and sets *v if present */
static bool opt_num(struct run *r, char **tok, int n, const char *key, uint64_t *v)
{
	size_t kl = strlen(key);

	for (int i = 1; i < n; i++)
		if (!strncmp(tok[i], key, kl) && tok[i][kl] == '=')
			return eval(r, tok[i] + kl + 1, v) == 0;
	return false;
}

static bool opt_flag(char **tok, int n, const char *key)
{
	for (int i = 1; i < n; i++)
		if (!strcmp(tok[i], key))
			return true;
	return false;
}

static void put_be(uint8_t *p, uint64_t v, int len)
{
	for (int i = len - 1; i >= 0; i--, v >>= 8)
		p[i] = (uint8_t)v;
}

static uint64_t get_be(const uint8_t *p, int len)
{
	uint64_t v = 0;

	for (int i = 0; i < len; i++)
		v = v << 8 | p[i];
	return v;
}

static void pattern(const struct zbc_geom *g, uint64_t lba, uint8_t *b)
{
	for (uint32_t k = 0; k < g->lba_size; k++)
		b[k] = (uint8_t)(lba * 31 + k * 7 + 1);
	put_be(b, lba, 8);
}

static int hexbytes(struct run *r, const char *s, uint8_t *out, size_t max, size_t *n)
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
			return failf(r, "bad hex near '%s'", s);
		if (*n >= max)
			return failf(r, "hex too long");
		out[(*n)++] = (uint8_t)v;
		s += 2;
	}
	return 0;
}

/* ---- sense ----------------------------------------------------------- */

static void sense_kcq(const uint8_t *s, uint8_t *key, uint8_t *asc, uint8_t *ascq)
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

static const char *outcome(uint8_t status, const uint8_t *sense, char *buf, size_t len)
{
	uint8_t k, a, q;

	if (status == 0) {
		snprintf(buf, len, "GOOD");
	} else if (status == 2) {
		sense_kcq(sense, &k, &a, &q);
		snprintf(buf, len, "CHECK %02X/%02X/%02X", k, a, q);
	} else {
		snprintf(buf, len, "status %02Xh", status);
	}
	return buf;
}

/* ---- execution -------------------------------------------------------- */

static uint8_t exec(struct run *r, const uint8_t *cdb, size_t len, void *buf, size_t buflen, int dir)
{
	memset(r->sense, 0, sizeof(r->sense));
	r->status = r->t->exec(r->dev, cdb, len, buf, buflen, dir, r->sense);
	return r->status;
}

/* Keep @buf as the last data-in (takes ownership). */
static void keep_data(struct run *r, uint8_t *buf, size_t len)
{
	free(r->data);
	r->data = buf;
	r->data_len = len;
}

static uint8_t exec_in(struct run *r, const uint8_t *cdb, size_t len, size_t alloc)
{
	uint8_t *buf = calloc(1, alloc ? alloc : 1);

	if (!buf)
		return 0xff;
	exec(r, cdb, len, alloc ? buf : NULL, alloc, alloc ? ZBC_DIR_IN : ZBC_DIR_NONE);
	keep_data(r, buf, alloc);
	return r->status;
}

static int ctl(struct run *r, enum zbc_ctl op, uint32_t zone, uint8_t cond)
{
	int ret;

	if (!r->t->control) {
		r->skip = true;
		return failf(r, "target has no control channel");
	}
	ret = r->t->control(r->t->ctx, r->dev, op, zone, cond);
	if (ret == -ENOTSUP) {
		r->skip = true;
		return failf(r, "control action %d not supported", op);
	}
	if (ret)
		return failf(r, "control action %d failed: %d", op, ret);
	return 0;
}

static int do_wce(struct run *r, int on)
{
	uint8_t cdb[10] = { 0x5a, 0x08, 0x08, 0, 0, 0, 0, 0, 0xff, 0 };
	uint8_t buf[255], pl[64];
	size_t plen;

	memset(buf, 0, sizeof(buf));
	if (exec(r, cdb, 10, buf, sizeof(buf), ZBC_DIR_IN))
		return 0;
	if (buf[8] != 0x08 || buf[9] + 2 > (int)sizeof(pl) - 8)
		return failf(r, "caching page not where expected");
	plen = 8 + buf[9] + 2;
	memset(pl, 0, 8);
	memcpy(pl + 8, buf + 8, buf[9] + 2);
	pl[8] &= 0x3f;                             /* PS is reserved in MODE SELECT */
	pl[10] = (uint8_t)((pl[10] & ~0x04) | (on ? 0x04 : 0));
	memset(cdb, 0, sizeof(cdb));
	cdb[0] = 0x55;
	cdb[1] = 0x10;
	put_be(cdb + 7, plen, 2);
	exec(r, cdb, 10, pl, plen, ZBC_DIR_OUT);
	return 0;
}

static int open_dev(struct run *r, bool create)
{
	char why[256] = "";

	r->dev = r->t->open(r->t->ctx, r->g, create, why, sizeof(why));
	if (!r->dev) {
		r->skip = true;
		return failf(r, "cannot open geometry %s: %s", r->g->name, why);
	}
	return 0;
}

/*
 * Run one step.  Returns 0 when it was executed (status in r->status),
 * -1 on a DSL error or a failed control action (message set).
 */
static int step(struct run *r, const char *text)
{
	char copy[512], *tok[MAX_TOK];
	uint8_t cdb[32];
	uint64_t a = 0, b = 0, v;
	size_t clen = 16;
	int n;

	snprintf(copy, sizeof(copy), "%s", text);
	n = split(copy, tok);
	if (n == 0)
		return failf(r, "empty step");
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

		if (n < 3 || eval(r, tok[1], &a) || eval(r, tok[2], &b))
			return failf(r, "step '%s': need LBA N", text);
		nblk = b;
		if (!strcmp(sz, "6")) {
			cdb[0] = wr ? 0x0a : 0x08;
			put_be(cdb + 1, a & 0x1fffff, 3);
			cdb[4] = (uint8_t)b;
			if (b == 0)
				nblk = 256;
			clen = 6;
		} else if (!strcmp(sz, "10")) {
			cdb[0] = vf ? 0x2f : wr ? 0x2a : 0x28;
			put_be(cdb + 2, a, 4);
			put_be(cdb + 7, b, 2);
			clen = 10;
		} else if (!strcmp(sz, "12")) {
			cdb[0] = wr ? 0xaa : 0xa8;
			put_be(cdb + 2, a, 4);
			put_be(cdb + 6, b, 4);
			clen = 12;
		} else {
			cdb[0] = vf ? 0x8f : wr ? 0x8a : 0x88;
			put_be(cdb + 2, a, 8);
			put_be(cdb + 10, b, 4);
			if (tok[0][1] == 'f')
				cdb[1] = 0x08;
		}
		if (vf || nblk > (64u << 20) / r->g->lba_size) {
			exec(r, cdb, clen, NULL, 0, ZBC_DIR_NONE);
			return 0;
		}
		bytes = (size_t)nblk * r->g->lba_size;
		buf = calloc(1, bytes ? bytes : 1);
		if (!buf)
			return failf(r, "out of memory");
		if (wr) {
			for (uint64_t i = 0; i < nblk; i++)
				pattern(r->g, a + i, buf + i * r->g->lba_size);
			exec(r, cdb, clen, bytes ? buf : NULL, bytes, bytes ? ZBC_DIR_OUT : ZBC_DIR_NONE);
			free(buf);
		} else {
			exec(r, cdb, clen, bytes ? buf : NULL, bytes, bytes ? ZBC_DIR_IN : ZBC_DIR_NONE);
			keep_data(r, buf, bytes);
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
			return failf(r, "step '%s': need LBA or all", text);
		if (!strcmp(tok[1], "all")) {
			cdb[14] = 0x01;
			a = 0;
			opt_num(r, tok, n, "id", &a);
		} else if (eval(r, tok[1], &a)) {
			return -1;
		}
		put_be(cdb + 2, a, 8);
		if (opt_num(r, tok, n, "cnt", &v))
			put_be(cdb + 12, v, 2);
		exec(r, cdb, 16, NULL, 0, ZBC_DIR_NONE);
		return 0;
	}
	if (!strcmp(tok[0], "rz")) {
		uint64_t alloc = 64 + 64 * 64, opt = 0;

		if (n < 2 || eval(r, tok[1], &a))
			return failf(r, "step '%s': need LBA", text);
		opt_num(r, tok, n, "opt", &opt);
		opt_num(r, tok, n, "alloc", &alloc);
		cdb[0] = 0x95;
		put_be(cdb + 2, a, 8);
		put_be(cdb + 10, alloc, 4);
		cdb[14] = (uint8_t)((opt & 0x3f) | (opt_flag(tok, n, "partial") ? 0x80 : 0));
		exec_in(r, cdb, 16, alloc);
		return 0;
	}
	if (!strcmp(tok[0], "inq")) {
		uint64_t alloc = 255;

		opt_num(r, tok, n, "alloc", &alloc);
		cdb[0] = 0x12;
		if (opt_num(r, tok, n, "vpd", &v)) {
			cdb[1] = 0x01;
			cdb[2] = (uint8_t)v;
		}
		put_be(cdb + 3, alloc, 2);
		exec_in(r, cdb, 6, alloc);
		return 0;
	}
	if (!strcmp(tok[0], "rc10")) {
		cdb[0] = 0x25;
		exec_in(r, cdb, 10, 8);
		return 0;
	}
	if (!strcmp(tok[0], "rc16")) {
		uint64_t alloc = 32;

		opt_num(r, tok, n, "alloc", &alloc);
		cdb[0] = 0x9e;
		cdb[1] = 0x10;
		put_be(cdb + 10, alloc, 4);
		exec_in(r, cdb, 16, alloc);
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
		exec(r, cdb, clen, NULL, 0, ZBC_DIR_NONE);
		return 0;
	}
	if (!strcmp(tok[0], "rs")) {
		uint64_t alloc = 18;

		opt_num(r, tok, n, "alloc", &alloc);
		cdb[0] = 0x03;
		cdb[4] = (uint8_t)alloc;
		exec_in(r, cdb, 6, alloc);
		return 0;
	}
	if (!strcmp(tok[0], "luns")) {
		cdb[0] = 0xa0;
		put_be(cdb + 6, 256, 4);
		exec_in(r, cdb, 12, 256);
		return 0;
	}
	if (!strcmp(tok[0], "ms6") || !strcmp(tok[0], "ms10")) {
		bool ten = tok[0][2] == '1';
		uint64_t alloc = ten ? 512 : 255, pc = 0, sub = 0;

		if (n < 2 || eval(r, tok[1], &a))
			return failf(r, "step '%s': need PAGE", text);
		opt_num(r, tok, n, "alloc", &alloc);
		opt_num(r, tok, n, "pc", &pc);
		opt_num(r, tok, n, "sub", &sub);
		cdb[0] = ten ? 0x5a : 0x1a;
		cdb[1] = (uint8_t)((opt_flag(tok, n, "dbd") ? 0x08 : 0) |
				   (opt_flag(tok, n, "llbaa") ? 0x10 : 0));
		cdb[2] = (uint8_t)(pc << 6 | (a & 0x3f));
		cdb[3] = (uint8_t)sub;
		if (ten)
			put_be(cdb + 7, alloc, 2);
		else
			cdb[4] = (uint8_t)alloc;
		exec_in(r, cdb, ten ? 10 : 6, alloc);
		return 0;
	}
	if (!strcmp(tok[0], "msel6") || !strcmp(tok[0], "msel10")) {
		bool ten = tok[0][4] == '1';
		uint8_t pl[256];
		size_t plen = 0;
		uint64_t pll;

		if (n >= 2 && tok[1][0] != '-' && hexbytes(r, tok[1], pl, sizeof(pl), &plen))
			return -1;
		pll = plen;
		opt_num(r, tok, n, "pll", &pll);
		cdb[0] = ten ? 0x55 : 0x15;
		cdb[1] = (uint8_t)((opt_flag(tok, n, "nopf") ? 0 : 0x10) |
				   (opt_flag(tok, n, "sp") ? 0x01 : 0));
		if (ten)
			put_be(cdb + 7, pll, 2);
		else
			cdb[4] = (uint8_t)pll;
		exec(r, cdb, ten ? 10 : 6, plen ? pl : NULL, plen, plen ? ZBC_DIR_OUT : ZBC_DIR_NONE);
		return 0;
	}
	if (!strcmp(tok[0], "wce")) {
		if (n < 2)
			return failf(r, "wce needs 0 or 1");
		return do_wce(r, atoi(tok[1]));
	}
	if (!strcmp(tok[0], "rsoc")) {
		uint64_t alloc = 2048, ropt = 0, op = 0, sa = 0;

		opt_num(r, tok, n, "alloc", &alloc);
		opt_num(r, tok, n, "ropt", &ropt);
		opt_num(r, tok, n, "op", &op);
		opt_num(r, tok, n, "sa", &sa);
		cdb[0] = 0xa3;
		cdb[1] = 0x0c;
		cdb[2] = (uint8_t)((ropt & 7) | (opt_flag(tok, n, "rctd") ? 0x80 : 0));
		cdb[3] = (uint8_t)op;
		put_be(cdb + 4, sa, 2);
		put_be(cdb + 6, alloc, 4);
		exec_in(r, cdb, 12, alloc);
		return 0;
	}
	if (!strcmp(tok[0], "cdb")) {
		uint64_t in = 0, out = 0;
		char hex[128] = "";
		uint8_t *buf;
		int i;

		for (i = 1; i < n && !strchr(tok[i], '='); i++)
			strncat(hex, tok[i], sizeof(hex) - strlen(hex) - 1);
		if (hexbytes(r, hex, cdb, sizeof(cdb), &clen))
			return -1;
		opt_num(r, tok, n, "in", &in);
		opt_num(r, tok, n, "out", &out);
		if (in) {
			exec_in(r, cdb, clen, in);
		} else if (out) {
			buf = calloc(1, out);
			if (!buf)
				return failf(r, "out of memory");
			exec(r, cdb, clen, buf, out, ZBC_DIR_OUT);
			free(buf);
		} else {
			exec(r, cdb, clen, NULL, 0, ZBC_DIR_NONE);
		}
		return 0;
	}
	if (!strcmp(tok[0], "pcycle") || !strcmp(tok[0], "pcycle!")) {
		uint8_t tur[6] = { 0 };

		if (ctl(r, ZBC_CTL_POWER_CYCLE, 0, 0))
			return -1;
		if (!strcmp(tok[0], "pcycle"))
			exec(r, tur, 6, NULL, 0, ZBC_DIR_NONE);  /* absorb the unit attention */
		r->status = 0;
		return 0;
	}
	if (!strcmp(tok[0], "reopen")) {
		r->t->close(r->t->ctx, r->dev);
		r->dev = NULL;
		return open_dev(r, false);
	}
	if (!strcmp(tok[0], "setcond")) {
		uint8_t cond;

		if (n < 3 || eval(r, tok[1], &a))
			return failf(r, "setcond ZONE ro|offline");
		cond = !strcmp(tok[2], "ro") ? 0xd : !strcmp(tok[2], "offline") ? 0xf : 0;
		if (!cond)
			return failf(r, "setcond: unknown condition %s", tok[2]);
		return ctl(r, ZBC_CTL_SET_COND, (uint32_t)a, cond);
	}
	return failf(r, "unknown step '%s'", tok[0]);
}

/* ---- checks ------------------------------------------------------------ */

static int cond_code(const char *s)
{
	static const struct { const char *n; int c; } map[] = {
		{ "nwp", 0x0 }, { "empty", 0x1 }, { "iopen", 0x2 }, { "eopen", 0x3 },
		{ "closed", 0x4 }, { "inactive", 0x5 }, { "ro", 0xd }, { "full", 0xe },
		{ "offline", 0xf },
	};

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(map[i].n, s))
			return map[i].c;
	return -1;
}

static int need_data(struct run *r, size_t off, size_t len)
{
	if (!r->data || off + len > r->data_len)
		return failf(r, "data byte %zu+%zu beyond the %zu bytes returned", off, len,
			     r->data_len);
	return 0;
}

static int check_desc(struct run *r, char **tok, int n)
{
	uint64_t i, v, got;
	const uint8_t *d;

	if (n < 3 || eval(r, tok[1], &i))
		return failf(r, "check '%s' needs I VAL", tok[0]);
	if (!strcmp(tok[2], "-"))
		v = ~0ull;
	else if (tok[0][1] == 'c' && cond_code(tok[2]) >= 0)
		v = (uint64_t)cond_code(tok[2]);
	else if (eval(r, tok[2], &v))
		return -1;
	if (need_data(r, 64 + i * 64, 64))
		return -1;
	d = r->data + 64 + i * 64;
	switch (tok[0][1]) {
	case 't': got = d[0] & 0x0f; break;
	case 'c': got = d[1] >> 4; break;
	case 's': got = get_be(d + 16, 8); break;
	case 'l': got = get_be(d + 8, 8); break;
	default:  got = get_be(d + 24, 8); break;
	}
	if (got != v)
		return failf(r, "descriptor %llu %s: got 0x%llx, want 0x%llx",
			     (unsigned long long)i, tok[0], (unsigned long long)got,
			     (unsigned long long)v);
	return 0;
}

static int report_one(struct run *r, uint64_t lba, uint8_t *d, uint64_t opt, uint32_t *zll)
{
	uint8_t cdb[16] = { 0x95 };
	uint8_t buf[128];

	memset(buf, 0, sizeof(buf));
	put_be(cdb + 2, lba, 8);
	put_be(cdb + 10, sizeof(buf), 4);
	cdb[14] = (uint8_t)opt;
	if (exec(r, cdb, 16, buf, sizeof(buf), ZBC_DIR_IN)) {
		char o[48];

		return failf(r, "REPORT ZONES at %llu: %s", (unsigned long long)lba,
			     outcome(r->status, r->sense, o, sizeof(o)));
	}
	if (d)
		memcpy(d, buf + 64, 64);
	if (zll)
		*zll = (uint32_t)get_be(buf, 4);
	return 0;
}

static int check(struct run *r, const char *text)
{
	char copy[512], *tok[MAX_TOK];
	uint64_t a, b, v, got;
	int n;

	snprintf(copy, sizeof(copy), "%s", text);
	n = split(copy, tok);
	if (n == 0)
		return 0;

	if (!strcmp(tok[0], "zone")) {
		uint8_t d[64];
		int cond;

		if (n < 3 || eval(r, tok[1], &a) || (cond = cond_code(tok[2])) < 0)
			return failf(r, "check '%s': zone LBA COND [WP]", text);
		if (report_one(r, a, d, 0, NULL))
			return -1;
		if (get_be(d + 16, 8) != a)
			return failf(r, "zone %llu: report starts at %llu", (unsigned long long)a,
				     (unsigned long long)get_be(d + 16, 8));
		if ((d[1] >> 4) != cond)
			return failf(r, "zone %llu: condition %xh, want %s (%xh)",
				     (unsigned long long)a, d[1] >> 4, tok[2], cond);
		if (n >= 4) {
			if (!strcmp(tok[3], "-"))
				v = ~0ull;
			else if (eval(r, tok[3], &v))
				return -1;
			if (get_be(d + 24, 8) != v)
				return failf(r, "zone %llu: WP 0x%llx, want 0x%llx",
					     (unsigned long long)a,
					     (unsigned long long)get_be(d + 24, 8),
					     (unsigned long long)v);
		}
		return 0;
	}
	if (!strcmp(tok[0], "zcount")) {
		uint32_t zll;

		if (n < 3 || eval(r, tok[1], &a) || eval(r, tok[2], &b))
			return failf(r, "zcount OPT N");
		if (report_one(r, 0, NULL, a, &zll))
			return -1;
		if (zll != b * 64)
			return failf(r, "zcount opt %llx: %u zones, want %llu", (unsigned long long)a,
				     zll / 64, (unsigned long long)b);
		return 0;
	}
	if (!strcmp(tok[0], "b") || !strcmp(tok[0], "bm")) {
		uint64_t mask = 0xff;
		int vi = 2;

		if (tok[0][1] == 'm') {
			if (n < 4 || eval(r, tok[2], &mask))
				return failf(r, "bm OFF MASK VAL");
			vi = 3;
		}
		if (n <= vi || eval(r, tok[1], &a) || eval(r, tok[vi], &v))
			return failf(r, "check '%s': b OFF VAL", text);
		if (need_data(r, a, 1))
			return -1;
		if ((r->data[a] & mask) != v)
			return failf(r, "byte %llu: 0x%02x (mask 0x%02llx), want 0x%02llx",
				     (unsigned long long)a, r->data[a] & (uint8_t)mask,
				     (unsigned long long)mask, (unsigned long long)v);
		return 0;
	}
	if (!strcmp(tok[0], "be") || !strcmp(tok[0], "ge")) {
		if (n < 4 || eval(r, tok[1], &a) || eval(r, tok[2], &b) || eval(r, tok[3], &v) ||
		    b < 1 || b > 8)
			return failf(r, "check '%s': be OFF LEN VAL", text);
		if (need_data(r, a, b))
			return -1;
		got = get_be(r->data + a, (int)b);
		if (tok[0][0] == 'b' ? got != v : got < v)
			return failf(r, "bytes %llu..+%llu: 0x%llx, want %s0x%llx",
				     (unsigned long long)a, (unsigned long long)b,
				     (unsigned long long)got, tok[0][0] == 'g' ? ">= " : "",
				     (unsigned long long)v);
		return 0;
	}
	if (!strcmp(tok[0], "has")) {
		if (n < 4 || eval(r, tok[1], &a) || eval(r, tok[2], &b) || eval(r, tok[3], &v))
			return failf(r, "has OFF LEN VAL");
		for (uint64_t i = a; i < a + b && r->data && i < r->data_len; i++)
			if (r->data[i] == v)
				return 0;
		return failf(r, "no byte 0x%02llx in data[%llu..+%llu]", (unsigned long long)v,
			     (unsigned long long)a, (unsigned long long)b);
	}
	if (!strcmp(tok[0], "zll")) {
		if (n < 2 || eval(r, tok[1], &v))
			return failf(r, "zll N");
		if (need_data(r, 0, 4))
			return -1;
		got = get_be(r->data, 4);
		if (got != v * 64)
			return failf(r, "ZONE LIST LENGTH %llu (%llu zones), want %llu zones",
				     (unsigned long long)got, (unsigned long long)got / 64,
				     (unsigned long long)v);
		return 0;
	}
	if (tok[0][0] == 'd' && strlen(tok[0]) == 2 && strchr("tcslw", tok[0][1]))
		return check_desc(r, tok, n);
	if (!strcmp(tok[0], "data")) {
		uint32_t bs = r->g->lba_size;
		uint64_t blk = 0, cnt, lba = 0;
		bool pat = n >= 2 && !strcmp(tok[1], "pat");
		int i = 2;
		uint8_t *want;

		if (pat) {
			if (n < 3 || eval(r, tok[2], &lba))
				return failf(r, "data pat LBA [BLK N]");
			i = 3;
		}
		cnt = r->data_len / bs;
		if (n >= i + 2) {
			if (eval(r, tok[i], &blk) || eval(r, tok[i + 1], &cnt))
				return -1;
		}
		if (need_data(r, blk * bs, cnt * bs))
			return -1;
		want = calloc(1, bs);
		if (!want)
			return failf(r, "out of memory");
		for (uint64_t k = 0; k < cnt; k++) {
			if (pat)
				pattern(r->g, lba + k, want);
			if (memcmp(r->data + (blk + k) * bs, want, bs)) {
				free(want);
				return failf(r, "data block %llu differs from %s",
					     (unsigned long long)(blk + k), pat ? "the pattern" : "zeros");
			}
		}
		free(want);
		return 0;
	}
	if (!strcmp(tok[0], "pat") || !strcmp(tok[0], "zero")) {
		char st[64], cd[96];

		if (n < 3)
			return failf(r, "%s LBA N", tok[0]);
		snprintf(st, sizeof(st), "r %s %s", tok[1], tok[2]);
		if (step(r, st))
			return -1;
		if (r->status)
			return failf(r, "read back: %s", outcome(r->status, r->sense, cd, sizeof(cd)));
		snprintf(cd, sizeof(cd), tok[0][0] == 'p' ? "data pat %s" : "data zero", tok[1]);
		return check(r, cd);
	}
	if (!strcmp(tok[0], "info")) {
		if (n < 2 || eval(r, tok[1], &v))
			return failf(r, "info VAL");
		if ((r->sense[0] & 0x7f) >= 0x72) {
			for (size_t off = 8; off + 12 <= sizeof(r->sense); off += 2 + r->sense[off + 1])
				if (r->sense[off] == 0x00 && get_be(r->sense + off + 4, 8) == v)
					return 0;
			return failf(r, "no INFORMATION descriptor = %llu", (unsigned long long)v);
		}
		if (!(r->sense[0] & 0x80) || get_be(r->sense + 3, 4) != v)
			return failf(r, "INFORMATION %svalid 0x%llx, want 0x%llx",
				     (r->sense[0] & 0x80) ? "" : "not ",
				     (unsigned long long)get_be(r->sense + 3, 4), (unsigned long long)v);
		return 0;
	}
	if (!strcmp(tok[0], "sks")) {
		const uint8_t *k = r->sense + 15;

		if (n < 2 || eval(r, tok[1], &a))
			return failf(r, "sks BYTE [BIT]");
		if ((r->sense[0] & 0x7f) >= 0x72) {
			k = NULL;
			for (size_t off = 8; off + 8 <= sizeof(r->sense); off += 2 + r->sense[off + 1])
				if (r->sense[off] == 0x02) {
					k = r->sense + off + 4;
					break;
				}
			if (!k)
				return failf(r, "no sense-key specific descriptor");
		}
		if (!(k[0] & 0x80))
			return failf(r, "SKSV not set");
		if (get_be(k + 1, 2) != a)
			return failf(r, "field pointer byte %llu, want %llu",
				     (unsigned long long)get_be(k + 1, 2), (unsigned long long)a);
		if (n >= 3) {
			if (eval(r, tok[2], &b))
				return -1;
			if (!(k[0] & 0x08) || (k[0] & 7) != b)
				return failf(r, "bit pointer %s%u, want %llu",
					     (k[0] & 0x08) ? "" : "(BPV 0) ", k[0] & 7,
					     (unsigned long long)b);
		}
		return 0;
	}
	if (!strcmp(tok[0], "wce")) {
		uint8_t cdb[10] = { 0x5a, 0x08, 0x08, 0, 0, 0, 0, 0, 0xff, 0 };
		uint8_t buf[255];

		if (n < 2 || eval(r, tok[1], &v))
			return failf(r, "wce V");
		memset(buf, 0, sizeof(buf));
		if (exec(r, cdb, 10, buf, sizeof(buf), ZBC_DIR_IN))
			return failf(r, "MODE SENSE(10) caching page failed");
		if (((buf[10] >> 2) & 1) != v)
			return failf(r, "WCE %d, want %llu", (buf[10] >> 2) & 1, (unsigned long long)v);
		return 0;
	}
	if (!strcmp(tok[0], "ok")) {
		char o[48];
		const char *st = strchr(text, 'k') + 1;

		if (step(r, st))
			return -1;
		if (r->status)
			return failf(r, "'%s': %s", st, outcome(r->status, r->sense, o, sizeof(o)));
		return 0;
	}
	return failf(r, "unknown check '%s'", tok[0]);
}

/* ---- cases --------------------------------------------------------------- */

/* Call @fn on each ';'-separated item of @list; stop at the first error. */
static int for_each(struct run *r, const char *list, bool is_setup)
{
	char buf[1024], *save = NULL, *item;
	char o[48];

	if (!list)
		return 0;
	snprintf(buf, sizeof(buf), "%s", list);
	for (item = strtok_r(buf, ";", &save); item; item = strtok_r(NULL, ";", &save)) {
		bool may_fail = false;

		while (*item == ' ')
			item++;
		if (!*item)
			continue;
		if (!is_setup) {
			if (check(r, item))
				return -1;
			continue;
		}
		if (*item == '!') {
			may_fail = true;
			item++;
		}
		if (step(r, item))
			return -1;
		if (r->status == 2 && !may_fail) {
			uint8_t k, a, q;

			sense_kcq(r->sense, &k, &a, &q);
			if (k == 0x6 && step(r, item))  /* unit attention: retry once, as sd does */
				return -1;
		}
		if (r->status && !may_fail)
			return failf(r, "setup step '%s': %s", item,
				     outcome(r->status, r->sense, o, sizeof(o)));
	}
	return 0;
}

enum zbc_result zbc_run_case(const struct zbc_target *t, const struct zbc_case *c,
			     char *msg, size_t msg_len)
{
	struct run r = { .t = t, .msg = msg, .msg_len = msg_len };
	enum zbc_result res = ZBC_FAIL;
	uint8_t key, asc, ascq;
	uint32_t got;
	char o[48];

	msg[0] = '\0';
	r.g = zbc_geom_find(c->geom);
	if (!r.g) {
		snprintf(msg, msg_len, "unknown geometry %s", c->geom);
		return ZBC_FAIL;
	}
	if (open_dev(&r, true))
		goto out;
	if (for_each(&r, c->setup, true))
		goto out;
	if (step(&r, c->cmd))
		goto out;
	got = ZBC_GOOD;
	if (r.status == 2) {
		sense_kcq(r.sense, &key, &asc, &ascq);
		got = ZBC_SENSE(key, asc, ascq);
	} else if (r.status) {
		got = 0x2000000u | r.status;
	}
	if (got != c->expect) {
		char want[48];

		if (c->expect == ZBC_GOOD)
			snprintf(want, sizeof(want), "GOOD");
		else
			snprintf(want, sizeof(want), "CHECK %02X/%02X/%02X", (c->expect >> 16) & 0xff,
				 (c->expect >> 8) & 0xff, c->expect & 0xff);
		failf(&r, "'%s': %s, want %s", c->cmd, outcome(r.status, r.sense, o, sizeof(o)), want);
		goto out;
	}
	if (for_each(&r, c->check, false))
		goto out;
	res = ZBC_PASS;
out:
	if (r.skip)
		res = ZBC_SKIP;
	if (r.dev)
		t->close(t->ctx, r.dev);
	free(r.data);
	return res;
}

int zbc_run_all(const struct zbc_target *t, const char *prefix, FILE *out, bool verbose,
		unsigned *nr_pass, unsigned *nr_fail, unsigned *nr_skip)
{
	unsigned pass = 0, fail = 0, skip = 0;
	char msg[512];

	for (size_t i = 0; i < zbc_nr_cases; i++) {
		const struct zbc_case *c = &zbc_cases[i];
		enum zbc_result res;

		if (prefix && strncmp(c->id, prefix, strlen(prefix)))
			continue;
		res = zbc_run_case(t, c, msg, sizeof(msg));
		if (res == ZBC_PASS)
			pass++;
		else if (res == ZBC_SKIP)
			skip++;
		else
			fail++;
		if (out && (verbose || res != ZBC_PASS))
			fprintf(out, "%-4s %-36s %s%s%s%s\n",
				res == ZBC_PASS ? "ok" : res == ZBC_SKIP ? "skip" : "FAIL",
				c->id, msg, c->ref && res == ZBC_FAIL ? "  [" : "",
				c->ref && res == ZBC_FAIL ? c->ref : "",
				c->ref && res == ZBC_FAIL ? "]" : "");
	}
	if (out)
		fprintf(out, "%s: %u passed, %u failed, %u skipped of %zu cases\n", t->name,
			pass, fail, skip, zbc_nr_cases);
	if (nr_pass)
		*nr_pass = pass;
	if (nr_fail)
		*nr_fail = fail;
	if (nr_skip)
		*nr_skip = skip;
	return (int)fail;
}
