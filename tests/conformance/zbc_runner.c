/*
 * zbc_runner.c — runs the cases of zbc_cases.c against any struct
 * zbc_target: executes setup steps and the command under test (zbc_steps.c),
 * compares status and sense, evaluates the checks.  The DSL is described in
 * zbc_steps.c (steps) and here (checks).
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
 *   fill LBA N B            read back now: every byte is B
 *   xfer N                  the command's data-in length as the target reports it
 *                           (not checked on a target that sends whole buffers)
 *   info VAL                sense VALID and INFORMATION = VAL
 *   sks BYTE [BIT]          sense-key specific field pointer
 *   wce V                   MODE SENSE caching page WCE = V
 *   ok STEP                 run a step, expect GOOD
 * Checks run in order; pat, zero, zone, zcount, wce and ok issue commands
 * and so replace the data the byte checks look at: put byte checks first.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zbc_int.h"

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
		return zr_failf(r, "data byte %zu+%zu beyond the %zu bytes returned", off, len,
			     r->data_len);
	return 0;
}

static int check_desc(struct run *r, char **tok, int n)
{
	uint64_t i, v, got;
	const uint8_t *d;

	if (n < 3 || zr_eval(r, tok[1], &i))
		return zr_failf(r, "check '%s' needs I VAL", tok[0]);
	if (!strcmp(tok[2], "-"))
		v = ~0ull;
	else if (tok[0][1] == 'c' && cond_code(tok[2]) >= 0)
		v = (uint64_t)cond_code(tok[2]);
	else if (zr_eval(r, tok[2], &v))
		return -1;
	if (need_data(r, 64 + i * 64, 64))
		return -1;
	d = r->data + 64 + i * 64;
	switch (tok[0][1]) {
	case 't': got = d[0] & 0x0f; break;
	case 'c': got = d[1] >> 4; break;
	case 's': got = zl_test_get_be(d + 16, 8); break;
	case 'l': got = zl_test_get_be(d + 8, 8); break;
	default:  got = zl_test_get_be(d + 24, 8); break;
	}
	if (got != v)
		return zr_failf(r, "descriptor %llu %s: got 0x%llx, want 0x%llx",
			     (unsigned long long)i, tok[0], (unsigned long long)got,
			     (unsigned long long)v);
	return 0;
}

static int report_one(struct run *r, uint64_t lba, uint8_t *d, uint64_t opt, uint32_t *zll)
{
	uint8_t cdb[16] = { 0x95 };
	uint8_t buf[128];

	memset(buf, 0, sizeof(buf));
	zl_test_put_be(cdb + 2, lba, 8);
	zl_test_put_be(cdb + 10, sizeof(buf), 4);
	cdb[14] = (uint8_t)opt;
	if (zr_exec(r, cdb, 16, buf, sizeof(buf), ZBC_DIR_IN)) {
		char o[48];

		return zr_failf(r, "REPORT ZONES at %llu: %s", (unsigned long long)lba,
			     zr_outcome(r->status, r->sense, o, sizeof(o)));
	}
	if (d)
		memcpy(d, buf + 64, 64);
	if (zll)
		*zll = (uint32_t)zl_test_get_be(buf, 4);
	return 0;
}

static int check(struct run *r, const char *text)
{
	char copy[512], *tok[MAX_TOK];
	uint64_t a, b, v, got;
	int n;

	snprintf(copy, sizeof(copy), "%s", text);
	n = zr_split(copy, tok);
	if (n == 0)
		return 0;

	if (!strcmp(tok[0], "zone")) {
		uint8_t d[64];
		int cond;

		if (n < 3 || zr_eval(r, tok[1], &a) || (cond = cond_code(tok[2])) < 0)
			return zr_failf(r, "check '%s': zone LBA COND [WP]", text);
		if (report_one(r, a, d, 0, NULL))
			return -1;
		if (zl_test_get_be(d + 16, 8) != a)
			return zr_failf(r, "zone %llu: report starts at %llu", (unsigned long long)a,
				     (unsigned long long)zl_test_get_be(d + 16, 8));
		if ((d[1] >> 4) != cond)
			return zr_failf(r, "zone %llu: condition %xh, want %s (%xh)",
				     (unsigned long long)a, d[1] >> 4, tok[2], cond);
		if (n >= 4) {
			if (!strcmp(tok[3], "-"))
				v = ~0ull;
			else if (zr_eval(r, tok[3], &v))
				return -1;
			if (zl_test_get_be(d + 24, 8) != v)
				return zr_failf(r, "zone %llu: WP 0x%llx, want 0x%llx",
					     (unsigned long long)a,
					     (unsigned long long)zl_test_get_be(d + 24, 8),
					     (unsigned long long)v);
		}
		return 0;
	}
	if (!strcmp(tok[0], "zcount")) {
		uint32_t zll;

		if (n < 3 || zr_eval(r, tok[1], &a) || zr_eval(r, tok[2], &b))
			return zr_failf(r, "zcount OPT N");
		if (report_one(r, 0, NULL, a, &zll))
			return -1;
		if (zll != b * 64)
			return zr_failf(r, "zcount opt %llx: %u zones, want %llu", (unsigned long long)a,
				     zll / 64, (unsigned long long)b);
		return 0;
	}
	if (!strcmp(tok[0], "b") || !strcmp(tok[0], "bm")) {
		uint64_t mask = 0xff;
		int vi = 2;

		if (tok[0][1] == 'm') {
			if (n < 4 || zr_eval(r, tok[2], &mask))
				return zr_failf(r, "bm OFF MASK VAL");
			vi = 3;
		}
		if (n <= vi || zr_eval(r, tok[1], &a) || zr_eval(r, tok[vi], &v))
			return zr_failf(r, "check '%s': b OFF VAL", text);
		if (need_data(r, a, 1))
			return -1;
		if ((r->data[a] & mask) != v)
			return zr_failf(r, "byte %llu: 0x%02x (mask 0x%02llx), want 0x%02llx",
				     (unsigned long long)a, r->data[a] & (uint8_t)mask,
				     (unsigned long long)mask, (unsigned long long)v);
		return 0;
	}
	if (!strcmp(tok[0], "be") || !strcmp(tok[0], "ge")) {
		if (n < 4 || zr_eval(r, tok[1], &a) || zr_eval(r, tok[2], &b) || zr_eval(r, tok[3], &v) ||
		    b < 1 || b > 8)
			return zr_failf(r, "check '%s': be OFF LEN VAL", text);
		if (need_data(r, a, b))
			return -1;
		got = zl_test_get_be(r->data + a, (int)b);
		if (tok[0][0] == 'b' ? got != v : got < v)
			return zr_failf(r, "bytes %llu..+%llu: 0x%llx, want %s0x%llx",
				     (unsigned long long)a, (unsigned long long)b,
				     (unsigned long long)got, tok[0][0] == 'g' ? ">= " : "",
				     (unsigned long long)v);
		return 0;
	}
	if (!strcmp(tok[0], "has")) {
		if (n < 4 || zr_eval(r, tok[1], &a) || zr_eval(r, tok[2], &b) || zr_eval(r, tok[3], &v))
			return zr_failf(r, "has OFF LEN VAL");
		for (uint64_t i = a; i < a + b && r->data && i < r->data_len; i++)
			if (r->data[i] == v)
				return 0;
		return zr_failf(r, "no byte 0x%02llx in data[%llu..+%llu]", (unsigned long long)v,
			     (unsigned long long)a, (unsigned long long)b);
	}
	if (!strcmp(tok[0], "zll")) {
		if (n < 2 || zr_eval(r, tok[1], &v))
			return zr_failf(r, "zll N");
		if (need_data(r, 0, 4))
			return -1;
		got = zl_test_get_be(r->data, 4);
		if (got != v * 64)
			return zr_failf(r, "ZONE LIST LENGTH %llu (%llu zones), want %llu zones",
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
			if (n < 3 || zr_eval(r, tok[2], &lba))
				return zr_failf(r, "data pat LBA [BLK N]");
			i = 3;
		}
		cnt = r->data_len / bs;
		if (n >= i + 2) {
			if (zr_eval(r, tok[i], &blk) || zr_eval(r, tok[i + 1], &cnt))
				return -1;
		}
		if (need_data(r, blk * bs, cnt * bs))
			return -1;
		want = calloc(1, bs);
		if (!want)
			return zr_failf(r, "out of memory");
		for (uint64_t k = 0; k < cnt; k++) {
			if (pat)
				zr_pattern(r->g, lba + k, want);
			if (memcmp(r->data + (blk + k) * bs, want, bs)) {
				free(want);
				return zr_failf(r, "data block %llu differs from %s",
					     (unsigned long long)(blk + k), pat ? "the pattern" : "zeros");
			}
		}
		free(want);
		return 0;
	}
	if (!strcmp(tok[0], "pat") || !strcmp(tok[0], "zero")) {
		char st[64], cd[96];

		if (n < 3)
			return zr_failf(r, "%s LBA N", tok[0]);
		snprintf(st, sizeof(st), "r %s %s", tok[1], tok[2]);
		if (zr_step(r, st))
			return -1;
		if (r->status)
			return zr_failf(r, "read back: %s", zr_outcome(r->status, r->sense, cd, sizeof(cd)));
		snprintf(cd, sizeof(cd), tok[0][0] == 'p' ? "data pat %s" : "data zero", tok[1]);
		return check(r, cd);
	}
	if (!strcmp(tok[0], "fill")) {
		char st[64], o[48];

		if (n < 4 || zr_eval(r, tok[3], &v))
			return zr_failf(r, "fill LBA N B");
		snprintf(st, sizeof(st), "r %s %s", tok[1], tok[2]);
		if (zr_step(r, st))
			return -1;
		if (r->status)
			return zr_failf(r, "read back: %s", zr_outcome(r->status, r->sense, o, sizeof(o)));
		for (size_t i = 0; i < r->data_len; i++)
			if (r->data[i] != (uint8_t)v)
				return zr_failf(r, "byte %zu read back is 0x%02x, want 0x%02llx", i,
						r->data[i], (unsigned long long)v);
		return 0;
	}
	if (!strcmp(tok[0], "xfer")) {
		if (n < 2 || zr_eval(r, tok[1], &v))
			return zr_failf(r, "xfer N");
		if (!r->t->xfer_whole_buffer && r->xfer_len != v)
			return zr_failf(r, "data-in length %zu, want %llu", r->xfer_len,
					(unsigned long long)v);
		return 0;
	}
	if (!strcmp(tok[0], "info")) {
		if (n < 2 || zr_eval(r, tok[1], &v))
			return zr_failf(r, "info VAL");
		if ((r->sense[0] & 0x7f) >= 0x72) {
			for (size_t off = 8; off + 12 <= sizeof(r->sense); off += 2 + r->sense[off + 1])
				if (r->sense[off] == 0x00 && zl_test_get_be(r->sense + off + 4, 8) == v)
					return 0;
			return zr_failf(r, "no INFORMATION descriptor = %llu", (unsigned long long)v);
		}
		if (!(r->sense[0] & 0x80) || zl_test_get_be(r->sense + 3, 4) != v)
			return zr_failf(r, "INFORMATION %svalid 0x%llx, want 0x%llx",
				     (r->sense[0] & 0x80) ? "" : "not ",
				     (unsigned long long)zl_test_get_be(r->sense + 3, 4), (unsigned long long)v);
		return 0;
	}
	if (!strcmp(tok[0], "sks")) {
		const uint8_t *k = r->sense + 15;

		if (n < 2 || zr_eval(r, tok[1], &a))
			return zr_failf(r, "sks BYTE [BIT]");
		if ((r->sense[0] & 0x7f) >= 0x72) {
			k = NULL;
			for (size_t off = 8; off + 8 <= sizeof(r->sense); off += 2 + r->sense[off + 1])
				if (r->sense[off] == 0x02) {
					k = r->sense + off + 4;
					break;
				}
			if (!k)
				return zr_failf(r, "no sense-key specific descriptor");
		}
		if (!(k[0] & 0x80))
			return zr_failf(r, "SKSV not set");
		if (zl_test_get_be(k + 1, 2) != a)
			return zr_failf(r, "field pointer byte %llu, want %llu",
				     (unsigned long long)zl_test_get_be(k + 1, 2), (unsigned long long)a);
		if (n >= 3) {
			if (zr_eval(r, tok[2], &b))
				return -1;
			if (!(k[0] & 0x08) || (k[0] & 7) != b)
				return zr_failf(r, "bit pointer %s%u, want %llu",
					     (k[0] & 0x08) ? "" : "(BPV 0) ", k[0] & 7,
					     (unsigned long long)b);
		}
		return 0;
	}
	if (!strcmp(tok[0], "wce")) {
		uint8_t cdb[10] = { 0x5a, 0x08, 0x08, 0, 0, 0, 0, 0, 0xff, 0 };
		uint8_t buf[255];

		if (n < 2 || zr_eval(r, tok[1], &v))
			return zr_failf(r, "wce V");
		memset(buf, 0, sizeof(buf));
		if (zr_exec(r, cdb, 10, buf, sizeof(buf), ZBC_DIR_IN))
			return zr_failf(r, "MODE SENSE(10) caching page failed");
		if (((buf[10] >> 2) & 1) != v)
			return zr_failf(r, "WCE %d, want %llu", (buf[10] >> 2) & 1, (unsigned long long)v);
		return 0;
	}
	if (!strcmp(tok[0], "ok")) {
		char o[48];
		const char *st = strchr(text, 'k') + 1;

		if (zr_step(r, st))
			return -1;
		if (r->status)
			return zr_failf(r, "'%s': %s", st, zr_outcome(r->status, r->sense, o, sizeof(o)));
		return 0;
	}
	return zr_failf(r, "unknown check '%s'", tok[0]);
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
		if (zr_step(r, item))
			return -1;
		if (r->status == 2 && !may_fail) {
			uint8_t k, a, q;

			zr_sense_kcq(r->sense, &k, &a, &q);
			if (k == 0x6 && zr_step(r, item))  /* unit attention: retry once, as sd does */
				return -1;
		}
		if (r->status && !may_fail)
			return zr_failf(r, "setup step '%s': %s", item,
				     zr_outcome(r->status, r->sense, o, sizeof(o)));
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
	if (zr_open_dev(&r, true))
		goto out;
	if (for_each(&r, c->setup, true))
		goto out;
	if (zr_step(&r, c->cmd))
		goto out;
	got = ZBC_GOOD;
	if (r.status == 2) {
		zr_sense_kcq(r.sense, &key, &asc, &ascq);
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
		zr_failf(&r, "'%s': %s, want %s", c->cmd, zr_outcome(r.status, r.sense, o, sizeof(o)), want);
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
