/*
 * trc_blkparse.c — blkparse's default text output:
 *   "  8,16   0        1     0.000000000  1234  Q  WS 2048 + 8 [fio]"
 * (device MAJ,MIN, CPU, sequence, seconds.nanoseconds since the first
 * event, pid, action, RWBS, then per action "SECTOR + N [comm]",
 * "SECTOR + N [error]" (C), "[comm]" (no data) or "SECTOR [error]").  One
 * action stands for a request (Q, D default, C, as for the binary); other
 * actions, and lines that are not events (the per-CPU and total summary
 * blocks, "Input file ... added"), are skipped.  A line that starts like an
 * event (MAJ,MIN) but does not parse is malformed.
 *
 * RWBS: a leading F is a preflush; then D discard, W write, R read, N no
 * data; patched v8 tools print ZA/ZR/ZRA/ZF/ZO/ZC for zone ops.  As for the
 * binary, a 0-byte W without F is zone management (zone reset), a 0-byte
 * write or N with a preflush a flush.  Zero-byte Q/D lines carry no sector:
 * their offset is 0 (the C line has it).  Device = major << 20 | minor.
 */
#include "trc_int.h"

#include <errno.h>
#include <string.h>

static bool all_digits(struct trc_field f)
{
	if (!f.n)
		return false;
	for (size_t i = 0; i < f.n; i++)
		if (f.p[i] < '0' || f.p[i] > '9')
			return false;
	return true;
}

/* "MAJ,MIN" -> dev */
static bool parse_dev(struct trc_field f, uint32_t *dev)
{
	const char *c = memchr(f.p, ',', f.n);
	struct trc_field a, b;
	uint64_t ma, mi;

	if (!c)
		return false;
	a.p = f.p;
	a.n = (size_t)(c - f.p);
	b.p = c + 1;
	b.n = f.n - a.n - 1;
	if (!trc_parse_u64(a, &ma) || !trc_parse_u64(b, &mi) || ma > 0xfff || mi > 0xfffff)
		return false;
	*dev = (uint32_t)(ma << 20 | mi);
	return true;
}

/* Does the line start like an event: optional spaces, digits ',' digits ' ' */
static bool event_like(const char *p, size_t n)
{
	size_t i = 0, d;

	while (i < n && p[i] == ' ')
		i++;
	for (d = i; i < n && p[i] >= '0' && p[i] <= '9'; i++)
		;
	if (i == d || i >= n || p[i++] != ',')
		return false;
	for (d = i; i < n && p[i] >= '0' && p[i] <= '9'; i++)
		;
	return i > d && (i == n || p[i] == ' ');
}

struct ev {
	uint32_t dev, pid;
	uint64_t ts_ns;
	struct trc_field act, rwbs;
	struct trc_field f[12];
	int nf;
};

/* Parse the 7-column header; false if malformed. */
static bool parse_head(const char *line, size_t len, struct ev *e)
{
	uint64_t v;

	e->nf = trc_split_ws(line, len, e->f, 11);
	if (e->nf < 6)
		return false;
	if (!parse_dev(e->f[0], &e->dev) || !all_digits(e->f[1]) || !all_digits(e->f[2]) ||
	    !trc_parse_sec_ns(e->f[3], &e->ts_ns) || !trc_parse_u64(e->f[4], &v) || v > UINT32_MAX)
		return false;
	e->pid = (uint32_t)v;
	e->act = e->f[5];
	if (e->act.n < 1 || e->act.n > 2)
		return false;
	e->rwbs.n = 0;
	if (e->nf >= 7)
		e->rwbs = e->f[6];
	return true;
}

bool trc_blkparse_detect(const uint8_t *buf, size_t len)
{
	struct ev e;
	bool complete;
	size_t n = trc_first_line(buf, len, &complete);

	if (n >= 11 && !memcmp(buf, "Input file ", 11))
		return true;
	return event_like((const char *)buf, n) && parse_head((const char *)buf, n, &e) && e.nf >= 7;
}

/* RWBS -> op; false if not RWBS. */
static bool rwbs_op(struct trc_field f, uint64_t bytes, uint8_t *op, uint16_t *has)
{
	static const struct {
		const char *s;
		uint8_t op;
		bool all;
	} zone[] = {
		{ "ZRA", TRC_OP_ZONE_RESET, true }, { "ZA", TRC_OP_ZONE_APPEND, false },
		{ "ZR", TRC_OP_ZONE_RESET, false }, { "ZF", TRC_OP_ZONE_FINISH, false },
		{ "ZO", TRC_OP_ZONE_OPEN, false }, { "ZC", TRC_OP_ZONE_CLOSE, false },
	};
	bool preflush = false;
	size_t i = 0;

	if (!f.n)
		return false;
	if (f.p[0] == 'Z') {
		for (size_t k = 0; k < sizeof(zone) / sizeof(zone[0]); k++) {
			size_t zl = strlen(zone[k].s);

			if (f.n >= zl && !memcmp(f.p, zone[k].s, zl)) {
				*op = zone[k].op;
				if (zone[k].all)
					*has |= TRC_HAS_ALL;
				return true;
			}
		}
		return false;
	}
	if (f.p[0] == 'F' && f.n > 1 && strchr("DWRN", f.p[1])) {
		preflush = true;
		i = 1;
	}
	switch (f.p[i]) {
	case 'D':
		*op = TRC_OP_DISCARD;
		break;
	case 'W':
		*op = bytes ? TRC_OP_WRITE : preflush ? TRC_OP_FLUSH : TRC_OP_ZONE_RESET;
		break;
	case 'R':
		*op = bytes ? TRC_OP_READ : preflush ? TRC_OP_FLUSH : TRC_OP_OTHER;
		break;
	case 'N':
		*op = preflush ? TRC_OP_FLUSH : TRC_OP_OTHER;
		break;
	default:
		return false;
	}
	for (i++; i < f.n; i++)
		if (!strchr("FASM", f.p[i]))
			return false;
	return true;
}

static int bp_next(struct trc_reader *r, struct trc_rec *rec)
{
	static const char want[] = { 'D', 'Q', 'C' };
	const char *line;
	size_t len;
	struct ev e;
	uint64_t sector = 0, nsec = 0, err = 0;
	int ret, t;

	for (;;) {
		ret = trc_next_line(r, &line, &len);
		if (ret <= 0)
			return ret;
		if (!event_like(line, len))
			continue;
		if (!parse_head(line, len, &e))
			return trc_err_line(r, -EINVAL, "not a blkparse event line "
					    "(DEV CPU SEQ SECONDS.NANOSECONDS PID ACTION RWBS ...)");
		if (e.act.n != 1 || e.act.p[0] != want[r->cfg.event])
			continue;
		if (e.nf < 8)
			return trc_err_line(r, -EINVAL, "%c event without RWBS and trailer", e.act.p[0]);
		/* trailer: "SECTOR + N [x]" | "SECTOR [x]" | "[x]" | PC: "BYTES (CDB ..) [x]" */
		t = 7;
		sector = nsec = 0;
		if (e.f[t].p[0] != '[') {
			if (!trc_parse_u64(e.f[t], &sector) || sector > UINT64_MAX / 512)
				return trc_err_line(r, -EINVAL, "sector '%.*s' is not a number", TRC_FLD(e.f[t]));
			t++;
			if (t < e.nf && e.f[t].p[0] == '(')
				continue;           /* a passthrough (PC) request, as the binary reader */
			if (t < e.nf && trc_field_is(e.f[t], "+")) {
				if (t + 1 >= e.nf || !trc_parse_u64(e.f[t + 1], &nsec) || nsec > UINT32_MAX)
					return trc_err_line(r, -EINVAL, "sector count after '+' is missing or not a number");
				t += 2;
			}
		}
		break;
	}
	if (r->cfg.event == TRC_EV_COMPLETE) {
		struct trc_field b;

		if (t >= e.nf || e.f[t].n < 3 || e.f[t].p[0] != '[' || e.f[t].p[e.f[t].n - 1] != ']')
			return trc_err_line(r, -EINVAL, "C event without '[error]'");
		b.p = e.f[t].p + 1;
		b.n = e.f[t].n - 2;
		if (!trc_parse_u64(b, &err) || err > UINT32_MAX)
			return trc_err_line(r, -EINVAL, "C event error '%.*s' is not a number", TRC_FLD(b));
	}
	rec->has = TRC_HAS_DEV | TRC_HAS_PID;
	if (!rwbs_op(e.rwbs, nsec, &rec->op, &rec->has))
		return trc_err_line(r, -EINVAL, "RWBS '%.*s' not understood", TRC_FLD(e.rwbs));
	rec->ts_ns = e.ts_ns;
	rec->offset_bytes = sector * 512;
	rec->len_bytes = nsec * 512;
	if (rec->len_bytes > UINT64_MAX - rec->offset_bytes)
		return trc_err_line(r, -EINVAL, "sector + count overflows");
	rec->latency_ns = 0;
	rec->dev = e.dev;
	rec->pid = e.pid;
	rec->hint = 0;
	rec->status = (uint32_t)err;
	if (r->cfg.event == TRC_EV_COMPLETE)
		rec->has |= TRC_HAS_STATUS;
	return 1;
}

int trc_blkparse_open(struct trc_reader *r)
{
	r->next = bp_next;
	return 0;
}
