/*
 * trc_blktrace.c — blktrace binary files: struct blk_io_trace (version 7,
 * 48 bytes) or blk_io_trace2 (version 8, 64 bytes, Linux >= 6.19), in the
 * recording host's byte order, each followed by pdu_len bytes of payload.
 * blktrace writes one file per CPU, NAME.blktrace.N; given any of them (or
 * NAME.blktrace.), every sibling is opened and the events are merged by
 * (time, device, sequence), as blkparse does.  A single file of another
 * name (blkparse -d output) is read alone.
 *
 * One event kind stands for a request (trc_reader_cfg.event): Q, D
 * (default) or C; notify records and passthrough (PC) requests are skipped.
 * Ops: DISCARD category = discard; v8 zone categories = the zone op; v7
 * has none, so a write of 0 bytes is a flush when the FLUSH category is
 * set and otherwise zone management (reported as a zone reset: a v7 trace
 * cannot say which); a write with bytes is a write, a read with bytes a
 * read.  With C events, a zero-byte write that was never issued is the
 * empty bio a flush completes after its flush (FLUSH flag cleared): it is
 * skipped, not read as a zone reset.  Times are rebased to the first event (as blkparse prints them);
 * device = the kernel dev_t (major << 20 | minor); C events carry the
 * error as the status.
 */
#include "trc_int.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define BT_MAGIC 0x65617400u
#define BT_CPU_BUF (64u << 10)
#define BT_MAX_CPUS 1024

/* category bits (action >> 16) */
enum {
	BT_TC_READ = 1u << 0, BT_TC_WRITE = 1u << 1, BT_TC_FLUSH = 1u << 2,
	BT_TC_PC = 1u << 9, BT_TC_NOTIFY = 1u << 10, BT_TC_DISCARD = 1u << 13, BT_TC_FUA = 1u << 15,
	/* v8 only (action bits 32..38) */
	BT_TC_ZONE_APPEND = 1u << 16, BT_TC_ZONE_RESET = 1u << 17, BT_TC_ZONE_RESET_ALL = 1u << 18,
	BT_TC_ZONE_FINISH = 1u << 19, BT_TC_ZONE_OPEN = 1u << 20, BT_TC_ZONE_CLOSE = 1u << 21,
	BT_TC_WRITE_ZEROES = 1u << 22,
	BT_TC_ZONE_ANY = BT_TC_ZONE_APPEND | BT_TC_ZONE_RESET | BT_TC_ZONE_RESET_ALL | BT_TC_ZONE_FINISH |
			 BT_TC_ZONE_OPEN | BT_TC_ZONE_CLOSE | BT_TC_WRITE_ZEROES,
};
enum { BT_TA_QUEUE = 1, BT_TA_ISSUE = 7, BT_TA_COMPLETE = 8 };

struct bt_ev {
	uint64_t time, sector, action;
	uint32_t seq, bytes, pid, dev;
	uint16_t error;
};

struct bt_cpu {
	struct trc_in in;
	char *path;
	bool swap;                  /* other byte order than this host */
	int version;                /* 7 or 8, from the first record */
	bool have;                  /* ev holds the next event */
	int err;                    /* a bad record after ev: reported after ev */
	struct bt_ev ev;
};

/* Zero-byte writes issued (D) and not yet completed: v7 zone operations. */
#define BT_NR_ZOPS 64

struct bt {
	struct bt_cpu *cpu;
	size_t nr_cpus;
	bool have_genesis;
	uint64_t genesis;
	bool seen_issue;                   /* the trace has D events */
	uint32_t nr_zops;                  /* entries in zop[], oldest first */
	struct { uint64_t sector; uint32_t dev; } zop[BT_NR_ZOPS];
};

static inline bool bt_is_empty_write(const struct bt_ev *e, uint64_t cat)
{
	return !e->bytes && (cat & BT_TC_WRITE) && !(cat & (BT_TC_FLUSH | BT_TC_PC | BT_TC_DISCARD));
}

/*
 * A zero-byte write completing (C) in a v7 trace is either a zone operation
 * (it was issued: D) or the original empty bio of a flush, which the flush
 * machinery completes without issuing it, its FLUSH flag already cleared.
 * Returns whether @e is the completion of an issued one (taking it off the
 * list).  Traces without D events keep every one.
 */
static bool bt_zop_completes(struct bt *b, const struct bt_ev *e)
{
	if (!b->seen_issue)
		return true;
	for (uint32_t i = 0; i < b->nr_zops; i++)
		if (b->zop[i].sector == e->sector && b->zop[i].dev == e->dev) {
			memmove(&b->zop[i], &b->zop[i + 1], (b->nr_zops - i - 1) * sizeof(b->zop[0]));
			b->nr_zops--;
			return true;
		}
	return false;
}

static void bt_zop_issued(struct bt *b, const struct bt_ev *e)
{
	if (b->nr_zops == BT_NR_ZOPS) {  /* never completed: forget the oldest */
		memmove(&b->zop[0], &b->zop[1], (BT_NR_ZOPS - 1) * sizeof(b->zop[0]));
		b->nr_zops--;
	}
	b->zop[b->nr_zops].sector = e->sector;
	b->zop[b->nr_zops].dev = e->dev;
	b->nr_zops++;
}

static uint32_t ld32(const uint8_t *p, bool swap)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return swap ? __builtin_bswap32(v) : v;
}

static uint64_t ld64(const uint8_t *p, bool swap)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return swap ? __builtin_bswap64(v) : v;
}

static uint16_t ld16(const uint8_t *p, bool swap)
{
	uint16_t v;

	memcpy(&v, p, 2);
	return swap ? __builtin_bswap16(v) : v;
}

/* magic with version 7 or 8 in either byte order -> version, *swap */
static int magic_version(const uint8_t *p, bool *swap)
{
	uint32_t m;

	memcpy(&m, p, 4);
	if ((m & 0xffffff00u) == BT_MAGIC) {
		*swap = false;
	} else if ((__builtin_bswap32(m) & 0xffffff00u) == BT_MAGIC) {
		*swap = true;
		m = __builtin_bswap32(m);
	} else {
		return -1;
	}
	return (int)(m & 0xff);
}

bool trc_blktrace_detect(const uint8_t *buf, size_t len)
{
	bool swap;
	int v;

	if (len < 4)
		return false;
	v = magic_version(buf, &swap);
	return v == 7 || v == 8;
}

static int bt_err(struct trc_reader *r, struct bt_cpu *c, int err, uint64_t off, const char *what)
{
	snprintf(r->msg, sizeof(r->msg), "%s: byte %" PRIu64 ": %s", c->path, off, what);
	return err;
}

/* Read the next event of one CPU file into c->ev; 1, 0 at the end, <0. */
static int bt_load(struct trc_reader *r, struct bt_cpu *c)
{
	uint64_t off = c->in.base + c->in.pos;
	const uint8_t *p;
	size_t hsz;
	uint16_t pdu;
	long got;
	bool swap;
	int v;

	got = trc_in_fill(&c->in, 64);
	if (got < 0)
		return bt_err(r, c, (int)got, off, "read error");
	if (got == 0)
		return 0;
	p = c->in.buf + c->in.pos;
	if (got < 4) {
		c->in.pos = c->in.len;
		return bt_err(r, c, -EINVAL, off, "truncated record (fewer than 4 bytes of magic)");
	}
	v = magic_version(p, &swap);
	if (v < 0 || (c->version && (v != c->version || swap != c->swap))) {
		char m[96];

		snprintf(m, sizeof(m), "bad magic %02x %02x %02x %02x (blktrace records start 07 74 61 65)",
			 p[0], p[1], p[2], p[3]);
		return bt_err(r, c, -EBADMSG, off, m);
	}
	if (v != 7 && v != 8) {
		char m[64];

		snprintf(m, sizeof(m), "blktrace record version %d (this reader knows 7 and 8)", v);
		return bt_err(r, c, -EBADMSG, off, m);
	}
	c->version = v;
	c->swap = swap;
	hsz = v == 7 ? 48 : 64;
	if ((size_t)got < hsz) {
		char m[80];

		snprintf(m, sizeof(m), "truncated record (%ld of %zu header bytes)", got, hsz);
		c->in.pos = c->in.len;
		return bt_err(r, c, -EINVAL, off, m);
	}
	c->ev.seq = ld32(p + 4, swap);
	c->ev.time = ld64(p + 8, swap);
	c->ev.sector = ld64(p + 16, swap);
	c->ev.bytes = ld32(p + 24, swap);
	if (v == 7) {
		c->ev.action = ld32(p + 28, swap);
		c->ev.pid = ld32(p + 32, swap);
		c->ev.dev = ld32(p + 36, swap);
		c->ev.error = ld16(p + 44, swap);
		pdu = ld16(p + 46, swap);
	} else {
		c->ev.pid = ld32(p + 28, swap);
		c->ev.action = ld64(p + 32, swap);
		c->ev.dev = ld32(p + 40, swap);
		c->ev.error = ld16(p + 48, swap);
		pdu = ld16(p + 50, swap);
	}
	c->in.pos += hsz;
	/* skip the payload */
	got = trc_in_fill(&c->in, pdu);
	if (got < 0)
		return bt_err(r, c, (int)got, off, "read error");
	if ((size_t)got < pdu) {
		char m[96];

		snprintf(m, sizeof(m), "truncated record (payload %ld of %u bytes)", got, pdu);
		c->in.pos = c->in.len;
		return bt_err(r, c, -EINVAL, off, m);
	}
	c->in.pos += pdu;
	c->have = true;
	return 1;
}

static bool bt_before(const struct bt_ev *a, const struct bt_ev *b)
{
	if (a->time != b->time)
		return a->time < b->time;
	if (a->dev != b->dev)
		return a->dev < b->dev;
	return a->seq < b->seq;
}

static uint8_t bt_op(const struct bt_ev *e, uint16_t *has)
{
	uint64_t cat = e->action >> 16;

	if (cat & BT_TC_ZONE_APPEND)
		return TRC_OP_ZONE_APPEND;
	if (cat & BT_TC_ZONE_RESET_ALL) {
		*has |= TRC_HAS_ALL;
		return TRC_OP_ZONE_RESET;
	}
	if (cat & BT_TC_ZONE_RESET)
		return TRC_OP_ZONE_RESET;
	if (cat & BT_TC_ZONE_FINISH)
		return TRC_OP_ZONE_FINISH;
	if (cat & BT_TC_ZONE_OPEN)
		return TRC_OP_ZONE_OPEN;
	if (cat & BT_TC_ZONE_CLOSE)
		return TRC_OP_ZONE_CLOSE;
	if (cat & BT_TC_WRITE_ZEROES)
		return TRC_OP_WRITE;
	if (cat & BT_TC_DISCARD)
		return TRC_OP_DISCARD;
	if (e->bytes == 0)
		return (cat & BT_TC_FLUSH) ? TRC_OP_FLUSH : (cat & BT_TC_WRITE) ? TRC_OP_ZONE_RESET : TRC_OP_OTHER;
	return (cat & BT_TC_WRITE) ? TRC_OP_WRITE : TRC_OP_READ;
}

static int bt_next(struct trc_reader *r, struct trc_rec *rec)
{
	struct bt *b = r->priv;
	static const uint32_t want[] = { BT_TA_ISSUE, BT_TA_QUEUE, BT_TA_COMPLETE };

	for (;;) {
		struct bt_cpu *min = NULL;
		struct bt_ev e;
		uint64_t cat;
		int ret;

		for (size_t i = 0; i < b->nr_cpus; i++)
			if (b->cpu[i].err) {
				/* a bad record ends this CPU's file; the others go on (lenient) */
				ret = b->cpu[i].err;
				b->cpu[i].err = 0;
				return ret;
			}
		for (size_t i = 0; i < b->nr_cpus; i++)
			if (b->cpu[i].have && (!min || bt_before(&b->cpu[i].ev, &min->ev)))
				min = &b->cpu[i];
		if (!min)
			return 0;
		e = min->ev;
		min->have = false;
		ret = bt_load(r, min);
		if (ret < 0)
			min->err = ret;
		cat = e.action >> 16;
		if (cat & BT_TC_NOTIFY)
			continue;
		if (!b->have_genesis) {
			b->have_genesis = true;
			b->genesis = e.time;
		}
		if ((e.action & 0xff) == BT_TA_ISSUE && !(cat & BT_TC_PC)) {
			b->seen_issue = true;
			if (bt_is_empty_write(&e, cat) && !(cat & BT_TC_ZONE_ANY))
				bt_zop_issued(b, &e);
		}
		if ((e.action & 0xff) != want[r->cfg.event] || (cat & BT_TC_PC))
			continue;
		if (r->cfg.event == TRC_EV_COMPLETE && bt_is_empty_write(&e, cat) &&
		    !(cat & BT_TC_ZONE_ANY) && !bt_zop_completes(b, &e))
			continue;  /* a flush's own empty bio: its flush was reported */
		rec->has = TRC_HAS_DEV | TRC_HAS_PID;
		rec->op = bt_op(&e, &rec->has);
		if (cat & BT_TC_FUA)
			rec->has |= TRC_HAS_FUA;
		rec->ts_ns = e.time >= b->genesis ? e.time - b->genesis : 0;
		rec->offset_bytes = e.sector > UINT64_MAX / 512 ? UINT64_MAX / 512 * 512 : e.sector * 512;
		rec->len_bytes = e.bytes;
		if (rec->len_bytes > UINT64_MAX - rec->offset_bytes)
			rec->len_bytes = UINT64_MAX - rec->offset_bytes;
		rec->latency_ns = 0;
		rec->dev = e.dev;
		rec->pid = e.pid;
		rec->hint = 0;
		rec->status = 0;
		if (r->cfg.event == TRC_EV_COMPLETE) {
			rec->status = e.error;
			rec->has |= TRC_HAS_STATUS;
		}
		return 1;
	}
}

static void bt_close(struct trc_reader *r)
{
	struct bt *b = r->priv;

	if (!b)
		return;
	for (size_t i = 0; i < b->nr_cpus; i++) {
		trc_in_close(&b->cpu[i].in);
		free(b->cpu[i].path);
	}
	free(b->cpu);
	free(b);
	r->priv = NULL;
}

static uint64_t bt_pos(const struct trc_reader *r)
{
	const struct bt *b = r->priv;
	uint64_t s = 0;

	for (size_t i = 0; i < b->nr_cpus; i++)
		s += b->cpu[i].in.base + b->cpu[i].in.pos;
	return s;
}

static uint64_t bt_size(const struct trc_reader *r)
{
	const struct bt *b = r->priv;
	uint64_t s = 0;

	for (size_t i = 0; i < b->nr_cpus; i++)
		s += b->cpu[i].in.size;
	return s;
}

static int cmp_cpu_path(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;
	const char *dx = strrchr(x, '.') + 1, *dy = strrchr(y, '.') + 1;

	return strtol(dx, NULL, 10) < strtol(dy, NULL, 10) ? -1 : strtol(dx, NULL, 10) > strtol(dy, NULL, 10);
}

/* Paths of NAME.blktrace.<digits> beside @path, or just @path. */
static int bt_paths(struct trc_reader *r, char ***out, size_t *nr)
{
	const char *path = r->path, *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
	const char *tag = strstr(base, ".blktrace.");
	char dir[PATH_MAX], prefix[PATH_MAX];
	char **v = NULL;
	size_t n = 0, plen;
	struct dirent *de;
	DIR *d;

	if (!tag || strspn(tag + 10, "0123456789") != strlen(tag + 10)) {
		v = malloc(sizeof(*v));
		if (!v || !(v[0] = strdup(path))) {
			free(v);
			return -ENOMEM;
		}
		*out = v;
		*nr = 1;
		return 0;
	}
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
	if (slash == path)
		snprintf(dir, sizeof(dir), "/");
	plen = (size_t)(tag - base) + 10;
	snprintf(prefix, sizeof(prefix), "%.*s", (int)plen, base);
	d = opendir(dir);
	if (!d)
		return trc_err_off(r, -errno, 0, "cannot list %s: %s", dir, strerror(errno));
	while ((de = readdir(d))) {
		const char *sfx = de->d_name + plen;
		char **nv;

		if (strncmp(de->d_name, prefix, plen) || !*sfx || strspn(sfx, "0123456789") != strlen(sfx))
			continue;
		if (n == BT_MAX_CPUS)
			break;
		nv = realloc(v, (n + 1) * sizeof(*v));
		if (!nv)
			goto out_nomem;
		v = nv;
		if (asprintf(&v[n], "%s/%s", dir, de->d_name) < 0)
			goto out_nomem;
		n++;
	}
	closedir(d);
	if (!n)
		return trc_err_off(r, -ENOENT, 0, "no %s* files in %s", prefix, dir);
	qsort(v, n, sizeof(*v), cmp_cpu_path);
	*out = v;
	*nr = n;
	return 0;

out_nomem:
	closedir(d);
	while (n)
		free(v[--n]);
	free(v);
	return -ENOMEM;
}

int trc_blktrace_open(struct trc_reader *r)
{
	struct bt *b;
	char **paths;
	size_t n;
	int ret;

	ret = bt_paths(r, &paths, &n);
	if (ret)
		return ret;
	b = calloc(1, sizeof(*b));
	if (b)
		b->cpu = calloc(n, sizeof(*b->cpu));
	if (!b || !b->cpu) {
		free(b);
		while (n)
			free(paths[--n]);
		free(paths);
		return -ENOMEM;
	}
	r->priv = b;
	r->next = bt_next;
	r->close = bt_close;
	r->pos = bt_pos;
	r->size = bt_size;
	for (size_t i = 0; i < n; i++) {
		b->cpu[i].path = paths[i];
		b->cpu[i].in.fd = -1;
	}
	b->nr_cpus = n;
	free(paths);
	for (size_t i = 0; i < n; i++) {
		struct bt_cpu *c = &b->cpu[i];

		ret = trc_in_open_cap(&c->in, c->path, BT_CPU_BUF);
		if (ret)
			return trc_err_off(r, ret, 0, "cannot open %s: %s", c->path, strerror(-ret));
		ret = bt_load(r, c);
		if (ret < 0)
			return ret == -EINVAL ? -EBADMSG : ret;
	}
	return 0;
}
