/*
 * tcmu_conformance.c — runs the ZBC conformance table (tests/conformance)
 * through the in-process tcmu-runner stand-in against a handler .so:
 *
 *   tcmu_conformance [--report] [--no-read-len] [--prefix P] <handler.so> [scratch-dir]
 *
 * Both tables run: the cases (tests/conformance/zbc_cases.c) and the
 * transfer lengths of every data-in command (zbc_xfer.c), the latter
 * against the data-in length the handler leaves in the stand-in's ring.
 * --no-read-len plays a kernel without TCMU_MAILBOX_FLAG_CAP_READ_LEN: the
 * whole buffer goes out, so only the zeroing is checked.
 *
 * Without --report every case must pass (exit 1 otherwise): used for
 * handler_zonelab.so.  With --report it prints, case by case, where the
 * handler differs from the table and exits 0: used for tcmu-runner's
 * handler_file_zbc.so.  Geometries are turned into each handler's cfgstring;
 * those a handler cannot express (file_zbc: zone sizes that are not whole
 * MiB, zone capacity/gap zones, physical block != logical block, no open
 * limit) make the case skip with the reason.  Control actions (power cycle,
 * zone condition) go through zonelab's control socket (ctl=1), as an
 * operator's `zonelab ctl` would; file_zbc has none, so those cases skip.
 * Not a target itself: it only builds cfgstrings and forwards CDBs.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "conformance/zbc_cases.h"
#include "tcmu_standin/standin.h"
#include "zl_test.h"

struct conf_ctx {
	struct sti_handler *h;
	const char *subtype;
	const char *dir;
	bool no_read_len;
	char path[512];
	unsigned seq;
};

/* The same cfgstring opens and reopens: zonelab keeps an image whose geometry matches. */
static void cfg_zonelab(struct conf_ctx *x, const struct zbc_geom *g, char *s, size_t n)
{
	uint64_t zs = g->zone_size_lba * g->lba_size;
	uint64_t zc = g->zone_cap_lba * g->lba_size;
	int len;

	len = snprintf(s, n, "zonelab/%s?zsize=%" PRIu64 "&conv=%u&lba=%u&pblock=%u&model=%s"
		       "&max_open=%u&wce=%d&gap=%d&ctl=1",
		       x->path, zs, g->nr_conv, g->lba_size, g->pblock_size ? g->pblock_size : g->lba_size,
		       g->host_aware ? "ha" : "hm", g->max_open, g->wce, g->gap_zones);
	if (zc && len > 0 && (size_t)len < n)
		snprintf(s + len, n - (size_t)len, "&zcap=%" PRIu64, zc);
}

static int cfg_file_zbc(struct conf_ctx *x, const struct zbc_geom *g, bool create, char *s, size_t n,
			char *why, size_t why_len)
{
	uint64_t zs = g->zone_size_lba * g->lba_size;

	if (zs % (1u << 20)) {
		snprintf(why, why_len, "file_zbc: zone size %" PRIu64 " bytes is not whole MiB (zsize-<MiB>)", zs);
		return -ENOTSUP;
	}
	if (g->zone_cap_lba && g->zone_cap_lba != g->zone_size_lba) {
		snprintf(why, why_len, "file_zbc: no zone capacity / gap zones");
		return -ENOTSUP;
	}
	if (g->pblock_size && g->pblock_size != g->lba_size) {
		snprintf(why, why_len, "file_zbc: physical block = logical block only");
		return -ENOTSUP;
	}
	if (!g->max_open) {
		snprintf(why, why_len, "file_zbc: open-0 (no limit) is refused");
		return -ENOTSUP;
	}
	if (!create) {
		/* options force a reformat in file_zbc: reopen with the bare path */
		snprintf(s, n, "zbc/%s", x->path);
		return 0;
	}
	snprintf(s, n, "zbc/model-%s/lba-%u/zsize-%" PRIu64 "/conv-%u/open-%u@%s",
		 g->host_aware ? "HA" : "HM", g->lba_size, zs >> 20, g->nr_conv, g->max_open, x->path);
	return 0;
}

static void *conf_open(void *ctx, const struct zbc_geom *g, bool create, char *msg, size_t msg_len)
{
	struct conf_ctx *x = ctx;
	struct sti_dev_cfg cfg = { 0 };
	struct sti_dev *d = NULL;
	char s[1024];
	int ret;

	if (create) {
		snprintf(x->path, sizeof(x->path), "%s/%s-%u.img", x->dir, x->subtype, x->seq++);
		unlink(x->path);
	}
	if (!strcmp(x->subtype, "zbc")) {
		if (cfg_file_zbc(x, g, create, s, sizeof(s), msg, msg_len))
			return NULL;
	} else {
		cfg_zonelab(x, g, s, sizeof(s));
	}
	cfg.cfgstring = s;
	cfg.size_bytes = g->capacity_lba * g->lba_size;
	cfg.block_size = g->lba_size;
	cfg.wce = g->wce;
	cfg.reopen = !create;
	cfg.no_read_len = x->no_read_len;
	cfg.wwn = "zonelab-conformance";
	ret = sti_dev_open(x->h, &cfg, &d, msg, msg_len);
	return ret ? NULL : d;
}

static void conf_close(void *ctx, void *dev)
{
	sti_dev_close(dev);
}

static uint8_t conf_exec(void *dev, const uint8_t *cdb, size_t len, void *buf, size_t buflen,
			 int dir, uint8_t *sense, size_t *xfer_len)
{
	struct sti_result r;

	sti_exec(dev, cdb, len, buf, buflen, &r);
	if (r.status == 2)
		memcpy(sense, r.sense, 18);
	/* what the kernel sends: the reported data-in length, else the whole buffer */
	*xfer_len = dir != ZBC_DIR_IN ? 0 : r.read_len ? r.read_len : r.status ? 0 : buflen;
	return r.status;
}

/*
 * Control actions through the device's control socket (ctl=1: the image
 * path + ".ctl"), exactly as an operator would with `zonelab ctl`.
 * file_zbc has no control channel: those cases skip.
 */
static int conf_control(void *ctx, void *dev, enum zbc_ctl op, uint32_t zone, uint8_t cond)
{
	struct conf_ctx *x = ctx;
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char req[64], reply[512];
	ssize_t got;
	size_t off = 0;
	int fd, ret = -EIO;

	(void)dev;
	if (strcmp(x->subtype, "zonelab"))
		return -ENOTSUP;
	if (op == ZBC_CTL_POWER_CYCLE)
		snprintf(req, sizeof(req), "power-cycle\n");
	else if (op == ZBC_CTL_SET_COND && (cond == 0xd || cond == 0xf))
		snprintf(req, sizeof(req), "zone %s %u\n", cond == 0xd ? "read-only" : "offline", zone);
	else
		return -ENOTSUP;
	if ((size_t)snprintf(sa.sun_path, sizeof(sa.sun_path), "%s.ctl", x->path) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    write(fd, req, strlen(req)) != (ssize_t)strlen(req))
		goto out_close;
	while (off < sizeof(reply) - 1 && (got = read(fd, reply + off, sizeof(reply) - 1 - off)) > 0) {
		off += (size_t)got;
		if (memchr(reply, '\n', off))
			break;
	}
	reply[off] = 0;
	ret = strstr(reply, "\"ok\":true") ? 0 : -EIO;
out_close:
	close(fd);
	return ret;
}

int main(int argc, char **argv)
{
	const char *prefix = NULL, *so;
	bool report = false;
	struct conf_ctx x = { 0 };
	struct zbc_target t = {
		.ctx = &x, .open = conf_open, .close = conf_close, .exec = conf_exec,
		.control = conf_control,
	};
	unsigned np = 0, nf = 0, ns = 0;
	char msg[512], *dir = NULL;
	int i, ret;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--report"))
			report = true;
		else if (!strcmp(argv[i], "--no-read-len"))
			x.no_read_len = true;
		else if (!strcmp(argv[i], "--prefix") && i + 1 < argc)
			prefix = argv[++i];
		else
			break;
	}
	if (i >= argc) {
		fprintf(stderr, "usage: %s [--report] [--no-read-len] [--prefix P] <handler.so> [scratch-dir]\n",
			argv[0]);
		return 2;
	}
	so = argv[i++];
	if (i < argc) {
		x.dir = argv[i];
	} else {
		dir = zl_test_mkdtemp("tcmu-conf");
		x.dir = dir;
	}
	if (!x.dir) {
		perror("mkdtemp");
		return 2;
	}
	if (!getenv("ZL_STANDIN_LOG"))
		sti_set_log_level(-1);       /* handler chatter is not the report */
	ret = sti_handler_load(so, &x.h, msg, sizeof(msg));
	if (ret) {
		fprintf(stderr, "%s\n", msg);
		zl_test_rmdir(dir);
		free(dir);
		return ret == -ENOENT ? 77 : 2;
	}
	x.subtype = sti_handler_subtype(x.h);
	t.name = x.subtype;
	t.xfer_whole_buffer = x.no_read_len;

	printf("== ZBC conformance through the tcmu stand-in: %s (subtype %s)%s\n", so, x.subtype,
	       report ? ", difference report" : "");
	ret = zbc_run_all(&t, prefix, stdout, report, &np, &nf, &ns);
	printf("== %s: %u pass, %u %s, %u skip (of %zu cases)\n", x.subtype, np, nf,
	       report ? "differ" : "fail", ns, zbc_nr_cases);
	if (!prefix) {
		printf("== transfer lengths of every data-in command%s\n",
		       x.no_read_len ? " (kernel without the read-length capability: zeroing only)" : "");
		ret += zbc_run_xfer_all(&t, stdout, report, &np, &nf, &ns);
		printf("== %s: %u pass, %u %s, %u skip (of %zu commands)\n", x.subtype, np, nf,
		       report ? "differ" : "fail", ns, zbc_nr_xfer_cases);
	}

	sti_handler_unload(x.h);
	zl_test_rmdir(dir);
	free(dir);
	if (report)
		return 0;
	return ret ? 1 : 0;
}
