/*
 * handler_zonelab.c — the tcmu-runner 1.5.4 plugin: subtype "zonelab",
 * built as handler_zonelab.so.  A thin glue: check_config and open parse
 * the cfgstring (zl_cfgstr), open opens the zdisk and a zscsi front for it,
 * handle_cmd hands the raw CDB and the data iovec to zscsi_read_fast() or
 * zscsi_execute() and turns the SCSI status + sense into a TCMU status
 * once (and a data-in length shorter than the buffer into the kernel's
 * read length, zl_set_read_len()), close closes.
 * No SCSI and no zone rule is decided here.
 *
 * Threading.  A passthrough handler (handle_cmd only) with nr_threads == 0
 * is called from the device's command thread, one command at a time, in
 * ring order; with nr_threads > 0 tcmu-runner queues each command to a work
 * queue of that many threads.  zdisk/zscsi are thread-safe, so both are
 * exact; the default is 0, because a hand-off per command costs more than
 * executing a page-cache-backed command and keeps arrival order (hosts
 * other than Linux may queue several writes to one zone).  The environment
 * variable ZONELAB_TCMU_THREADS=N (read once by handler_init, 0..64) selects
 * the work queue, e.g. for block-device stores with real I/O latency.
 *
 * Timed mode.  With a device timing model (timing= or the image's, see
 * docs/TIMING.md "In the handler") every command runs at submit as above,
 * then its work-queue thread waits until zl_timed's timer thread says the
 * model's completion time has come, and returns the status: tcmu-runner
 * 1.5.4 cannot complete a passthrough command later (zl_timing_needs_threads()),
 * so a timed disk needs ZONELAB_TCMU_THREADS=N and N is its queue depth.
 * Without a model, the only cost is the zd->timed test at the top of
 * zl_handle_cmd().
 *
 * Control and trace.  ctl=<socket> starts a zctl control server for the
 * device at open (docs/CTL.md) and trace=<file> records every command
 * (docs/TRACE-FORMAT.md); both stop at close.  A trace object always
 * exists, so `trace start` over the socket works without trace=; the cost
 * per command when nobody traces is one atomic load.
 *
 * Reopen.  An existing image is opened with the geometry the cfgstring
 * gives; it is never reformatted because of options.  A differing geometry
 * is refused with the store's message and how to reformat (force=1, which
 * only ever reformats an image whose geometry differs or that is no zonelab
 * image; a matching image is kept even with force=1).
 *
 * Reconfig.  Writing dev_config, dev_size or emulate_write_cache of an
 * enabled backstore (what targetcli restoreconfig does with the saved
 * values) reaches ->reconfig.  The same value is accepted; the write cache
 * is switched (zdisk_set_wce(), which flushes when turning it off); a
 * different size or cfgstring is refused with -EINVAL and a log line,
 * because the geometry and the options are the open image's.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tcmu/tcmu_abi.h"
#include "tcmu/zl_cfgstr.h"
#include "tcmu/zl_timed.h"
#include "zctl.h"
#include "zscsi_cdbinfo.h"
#include "zdisk.h"
#include "zscsi.h"
#include "ztrace.h"

struct zl_tcmu_dev {
	struct zl_cfgstr cfg;
	struct zdisk *disk;
	struct zscsi *scsi;
	struct ztrace *trace;         /* always present; records only when started */
	struct zctl *ctl;             /* NULL without ctl= */
	struct zl_tcmu_mailbox *ring; /* the kernel's ring, to report data-in lengths; or NULL */
	struct zl_timed *timed;       /* timing model (timing= or the image's); NULL = off */
	char serial[64];
};

/* A command whose completion waits for the timing model (timed mode). */
struct zl_timed_cmd {
	struct tcmu_device *dev;
	struct zl_tcmu_dev *zd;
	struct tcmur_cmd *rcmd;
	size_t data_in;
	uint8_t status;
	uint8_t sense[ZSCSI_SENSE_LEN];
	/* the work-queue thread waits here until the model's time has come */
	pthread_mutex_t m;
	pthread_cond_t cv;
	bool due;
};

static struct tcmur_handler zl_handler;

/*
 * The kernel's ring if a data-in length can be reported through it, else
 * NULL.  tcmu-runner 1.5.4 has no call for it, but libtcmu's
 * tcmulib_command_complete() writes status and sense into the ring entry at
 * the mailbox's cmd_tail and leaves hdr.uflags and rsp.read_len as they
 * are, and the kernel reads those (TCMU_MAILBOX_FLAG_CAP_READ_LEN).  That
 * entry is the command's own only when commands complete in ring order:
 * nr_threads == 0, where the runner completes each command right after
 * handle_cmd returns.  With a work queue, completions go to whatever entry
 * is at the tail, so nothing is reported (the data area is still zeroed
 * past the data, by zscsi).
 */
static struct zl_tcmu_mailbox *zl_ring(struct tcmu_device *dev)
{
	struct zl_tcmu_mailbox *mb;
	void *base = NULL;

	if (zl_handler.nr_threads)
		return NULL;
	free(tcmu_dev_get_memory_info(dev, &base, NULL, NULL));
	mb = base;
	if (!mb || mb->version != ZL_TCMU_MAILBOX_VERSION ||
	    !(mb->flags & ZL_TCMU_MAILBOX_FLAG_CAP_READ_LEN))
		return NULL;
	return mb;
}

/*
 * Tell the kernel that @cmd (in completion, at the ring's tail) transferred
 * @len data-in bytes: the initiator gets those and the residual.  Returns
 * true if it was reported (a ring, the entry found, 0 < @len < 4 GiB: the
 * kernel reads read_len 0 as "not set").
 */
static bool zl_set_read_len(struct zl_tcmu_dev *zd, const struct tcmulib_cmd *cmd, size_t len)
{
	struct zl_tcmu_mailbox *mb = zd->ring;
	struct zl_tcmu_entry_rsp *ent;
	uint32_t tail, head, elen;
	uint8_t *ring;

	if (!mb || !len || len > UINT32_MAX)
		return false;
	ring = (uint8_t *)mb + mb->cmdr_off;
	tail = mb->cmd_tail;
	head = __atomic_load_n(&mb->cmd_head, __ATOMIC_ACQUIRE);
	/* libtcmu's walk: skip PAD entries from the tail to the first command */
	for (int guard = 0; tail != head && guard < 64; guard++) {
		ent = (struct zl_tcmu_entry_rsp *)(ring + tail);
		if ((ent->hdr.len_op & ZL_TCMU_OP_MASK) == ZL_TCMU_OP_CMD) {
			if (ent->hdr.cmd_id != cmd->cmd_id)
				return false;           /* not ours: report nothing */
			ent->read_len = (uint32_t)len;
			ent->hdr.uflags |= ZL_TCMU_UFLAG_READ_LEN;
			return true;
		}
		elen = ent->hdr.len_op & ~(uint32_t)ZL_TCMU_OP_MASK;
		if (!elen || !mb->cmdr_size)
			return false;
		tail = (tail + elen) % mb->cmdr_size;
	}
	return false;
}


/*
 * Timed mode needs tcmu-runner's work queue.  tcmu-runner 1.5.4 cannot
 * complete a passthrough command asynchronously: with nr_threads == 0 it
 * calls handle_cmd directly and leaves tcmur_cmd->done NULL, so a later
 * tcmur_cmd_complete() jumps to address 0 (seen in the e2e VM: "segfault at
 * 0 ip 0"); on the work queue it completes each command with whatever
 * handle_cmd returned (io_work_queue(): done_fn(dev, data, ret)), so
 * TCMU_STS_ASYNC_HANDLED there is an invalid status and a second
 * completion (seen: "Invalid tcmu status code -2", then an assertion in
 * track_aio_request_finish()).  So a timed command runs on a work-queue
 * thread and blocks it until the model's completion time; the queue's N
 * threads are the drive's host queue depth.  Without the work queue the
 * open is refused with this reason.
 */
static void zl_timing_needs_threads(char *msg, size_t len)
{
	snprintf(msg, len, "timing: a timed disk needs tcmu-runner's work queue (start "
		 "tcmu-runner with ZONELAB_TCMU_THREADS=N, N the queue depth to serve, e.g. "
		 "32): tcmu-runner 1.5.4 cannot complete a command later otherwise "
		 "(docs/TIMING.md)");
}

static bool zl_check_config(const char *cfgstring, char **reason)
{
	struct zl_cfgstr *c = malloc(sizeof(*c));
	char msg[512];
	bool ok;

	if (!c) {
		*reason = strdup("out of memory");
		return false;
	}
	ok = zl_cfgstr_parse(cfgstring, c, msg, sizeof(msg)) == 0;
	if (ok && c->timing[0] && strcmp(c->timing, "off") && !zl_handler.nr_threads) {
		zl_timing_needs_threads(msg, sizeof(msg));
		ok = false;
	}
	if (ok && strlen(cfgstring) > ZL_CFGSTR_KERNEL_MAX) {
		snprintf(msg, sizeof(msg), "cfgstring is %zu bytes; the kernel keeps %d of dev_config "
			 "(shorten the paths, e.g. ctl=1 instead of a socket path)",
			 strlen(cfgstring), ZL_CFGSTR_KERNEL_MAX);
		ok = false;
	}
	free(c);
	if (!ok && asprintf(reason, "zonelab: %s", msg) < 0)
		*reason = NULL;
	return ok;
}

static uint64_t zl_naa_id(const char *s)
{
	uint64_t h = 1469598103934665603ULL;       /* FNV-1a: stable per path */

	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 1099511628211ULL;
	/* NAA 6 (registered extended) with a locally administered company id */
	return 0x6000000000000000ULL | (h & 0x0fffffffffffffffULL);
}

/* An empty regular file (e.g. made by truncate or touch) holds no data yet. */
static bool zl_is_empty_file(const char *path)
{
	struct stat st;

	return path && stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0;
}

/*
 * With geo=image the kernel's idea of the device (dev_size, hw_block_size)
 * must be the image's, or the host would address LBAs the image lacks.
 */
static int zl_check_backstore(struct tcmu_device *dev, struct zl_tcmu_dev *zd)
{
	const struct zdev_cfg *g = zdisk_geo(zd->disk);
	uint64_t img_bytes = g->capacity_lba * g->lba_size, size;
	uint32_t bs = tcmu_dev_get_block_size(dev);
	int fn_ret = 0;

	size = tcmu_cfgfs_dev_get_info_u64(dev, "Size", &fn_ret);
	if ((bs && bs != g->lba_size) || (fn_ret >= 0 && size && size != img_bytes)) {
		tcmu_dev_err(dev, "zonelab: geo=image: %s holds %" PRIu64 " bytes in %u-byte blocks, "
			     "but the backstore says %" PRIu64 " bytes in %u-byte blocks (set "
			     "dev_size=%" PRIu64 " and hw_block_size=%u)\n", zd->cfg.path, img_bytes,
			     g->lba_size, size, bs, img_bytes, g->lba_size);
		zdisk_close(zd->disk);
		zd->disk = NULL;
		return -EINVAL;
	}
	return 0;
}

/*
 * Log why the image at @path did not open: zdisk's message (zstore's name
 * the image, and a missing one says how to create it), with the path in
 * front only if the message does not already name it.
 */
static void zl_open_failed(struct tcmu_device *dev, const char *what, const char *path,
			   const char *msg, int ret)
{
	if (!path)
		path = "(memory)";
	if (msg[0] && strstr(msg, path))
		tcmu_dev_err(dev, "zonelab: %s%s (%s)\n", what, msg, zl_errname(ret));
	else
		tcmu_dev_err(dev, "zonelab: %scannot open %s: %s (%s)\n", what, path,
			     msg[0] ? msg : zl_strerror(ret), zl_errname(ret));
}

/* Open the disk, creating it only if there is no image. */
static int zl_open_disk(struct tcmu_device *dev, struct zl_tcmu_dev *zd)
{
	struct zdisk_cfg dc = zd->cfg.disk;
	char msg[512] = "";
	int ret;

	dc.store.create = false;
	dc.use_image_geo = zd->cfg.geo_from_image;
	ret = zdisk_open(&dc, &zd->disk, msg, sizeof(msg));
	if (zd->cfg.geo_from_image) {
		/* geo=image: never format; the backstore must match the image. */
		if (ret) {
			zl_open_failed(dev, "geo=image: ", dc.store.path, msg, ret);
			return ret;
		}
		return zl_check_backstore(dev, zd);
	}
	if (ret == -ENOENT || (ret == ZL_E_BAD_MAGIC && zl_is_empty_file(dc.store.path))) {
		dc.store.create = true;
		ret = zdisk_open(&dc, &zd->disk, msg, sizeof(msg));
		if (!ret)
			tcmu_dev_info(dev, "zonelab: formatted new image %s\n",
				      dc.store.path ? dc.store.path : "(memory)");
	} else if ((ret == ZL_E_GEOMETRY_MISMATCH || ret == ZL_E_BAD_MAGIC) && zd->cfg.force) {
		tcmu_dev_warn(dev, "zonelab: force=1: reformatting %s (%s)\n", dc.store.path, msg);
		dc.store.create = true;
		dc.store.force = true;
		ret = zdisk_open(&dc, &zd->disk, msg, sizeof(msg));
	} else if (ret == ZL_E_GEOMETRY_MISMATCH) {
		tcmu_dev_err(dev, "zonelab: %s\n", msg);      /* (says how to reformat) */
		return ret;
	}
	if (ret)
		zl_open_failed(dev, "", dc.store.path, msg, ret);
	return ret;
}

/* The trace object, the trace= file and the ctl= socket of an open disk. */
static int zl_open_control(struct zl_tcmu_dev *zd, char *msg, size_t msg_len)
{
	const struct zdev_cfg *geo = zdisk_geo(zd->disk);
	struct ztrace_cfg tc = {
		.lba_size = geo->lba_size, .capacity_lba = geo->capacity_lba,
		.clock = ZTRACE_CLOCK_MONOTONIC,
	};
	struct zctl_cfg cc = { .disk = zd->disk, .sock_path = zd->cfg.ctl_path };
	int ret;

	ret = ztrace_create(&tc, &zd->trace);
	if (ret) {
		snprintf(msg, msg_len, "trace: %s", zl_strerror(ret));
		return ret;
	}
	if (zd->cfg.trace_path[0]) {
		ret = ztrace_start(zd->trace, zd->cfg.trace_path, ztrace_clock_ns(), msg, msg_len);
		if (ret)
			return ret;
	}
	if (zd->cfg.ctl_path[0]) {
		cc.trace = zd->trace;
		ret = zctl_start_cfg(&cc, &zd->ctl, msg, msg_len);
	}
	return ret;
}

static void zl_timed_done(void *arg, void *ctx, uint64_t due_ns);

/* `zonelab ctl stats`: the timed mode's counters (called under the disk lock). */
static void zl_timing_stats(void *arg, struct zdisk_timing_stats *out)
{
	struct zl_timed_stats st;

	zl_timed_stats(arg, &st);
	out->timed = st.timed;
	out->service_ns = st.service_ns;
	out->wait_ns = st.wait_ns;
	out->pending = st.pending;
	out->max_ns = st.max_ns;
	out->max_model_ns = st.max_model_ns;
	out->sptf_choices = st.choices;
	out->sptf_candidates = st.candidates;
	out->idle_starts = st.idle_starts;
	out->idle_ns = st.idle_ns;
	out->idle_long_starts = st.idle_long_starts;
	out->idle_long_ns = st.idle_long_ns;
	out->jump_starts = st.jump_starts;
	out->back_starts = st.back_starts;
	out->job_start_ns = st.job_start_ns;
	out->last_done_ns = st.last_done_ns;
}

/*
 * The timing model: timing= of the cfgstring, else the one the image keeps
 * (zonelab disk create --timing); timing=off or neither: none.
 */
static int zl_open_timing(struct zl_tcmu_dev *zd, char *msg, size_t msg_len)
{
	const struct zdev_cfg *g = zdisk_geo(zd->disk);
	const char *text = zd->cfg.timing[0] ? zd->cfg.timing : zdisk_timing(zd->disk);
	struct ztime_params p;
	struct zl_timed_cfg tc = {
		.params = &p, .complete = zl_timed_done, .thread = true,
		.geo = { .zone_bytes = g->zone_size_lba * g->lba_size,
			 .nr_zones = (uint32_t)((g->capacity_lba + g->zone_size_lba - 1) /
						g->zone_size_lba) },
	};
	char why[400];
	int ret;

	if (!text[0] || !strcmp(text, "off"))
		return 0;
	if (!zl_handler.nr_threads) {
		zl_timing_needs_threads(why, sizeof(why));
		snprintf(msg, msg_len, "%s: %s", zd->cfg.timing[0] ? "timing=" :
			 "the image's timing model", why);
		return -EINVAL;
	}
	ret = ztime_parse(text, &p, why, sizeof(why));
	if (!ret)
		ret = zl_timed_create(&tc, &zd->timed, why, sizeof(why));
	if (ret) {
		snprintf(msg, msg_len, "%s: %s", zd->cfg.timing[0] ? "timing=" :
			 "the image's timing model", why);
		return ret;
	}
	zdisk_set_timing_stats(zd->disk, zl_timing_stats, zd->timed);
	return 0;
}

static void zl_close_timing(struct zl_tcmu_dev *zd)
{
	if (!zd->timed)
		return;
	zdisk_set_timing_stats(zd->disk, NULL, NULL);
	zl_timed_destroy(zd->timed);
	zd->timed = NULL;
}

static int zl_open(struct tcmu_device *dev, bool reopen)
{
	struct zl_tcmu_dev *zd = calloc(1, sizeof(*zd));
	const struct zdev_cfg *geo;
	struct zscsi_cfg sc;
	char msg[512];
	uint64_t size;
	char *wwn;
	int ret, fn_ret = 0;

	if (!zd)
		return -ENOMEM;
	ret = zl_cfgstr_parse(tcmu_dev_get_cfgstring(dev), &zd->cfg, msg, sizeof(msg));
	if (ret)
		goto out_err;
	size = tcmu_cfgfs_dev_get_info_u64(dev, "Size", &fn_ret);
	if (fn_ret < 0)
		size = 0;
	ret = zl_cfgstr_geometry(&zd->cfg, size, tcmu_dev_get_block_size(dev), msg, sizeof(msg));
	if (ret)
		goto out_err;
	ret = zl_open_disk(dev, zd);
	if (ret)
		goto out_free;

	zscsi_cfg_init(&sc);
	sc.profile = zd->cfg.profile;
	wwn = tcmu_cfgfs_dev_get_wwn(dev);
	if (wwn) {
		snprintf(zd->serial, sizeof(zd->serial), "%s", wwn);
		sc.serial = zd->serial;
		free(wwn);
	}
	sc.naa_id = zl_naa_id(zd->cfg.path[0] ? zd->cfg.path : tcmu_dev_get_cfgstring(dev));
	ret = zscsi_create(zd->disk, &sc, &zd->scsi);
	if (ret) {
		snprintf(msg, sizeof(msg), "zscsi_create: %s", zl_strerror(ret));
		goto out_close_disk;
	}

	ret = zl_open_timing(zd, msg, sizeof(msg));
	if (ret)
		goto out_destroy_control;
	ret = zl_open_control(zd, msg, sizeof(msg));
	if (ret)
		goto out_destroy_control;

	geo = zdisk_geo(zd->disk);
	tcmu_dev_set_block_size(dev, geo->lba_size);
	tcmu_dev_set_num_lbas(dev, geo->capacity_lba);
	tcmu_dev_set_write_cache_enabled(dev, zdisk_wce(zd->disk));
	/* timed: completions come from the timer thread, out of ring order */
	zd->ring = zd->timed ? NULL : zl_ring(dev);
	tcmur_dev_set_private(dev, zd);
	tcmu_dev_dbg(dev, "zonelab: %s open%s: %llu LBAs of %u bytes\n", zd->cfg.path,
		     reopen ? " (reopen)" : "", (unsigned long long)geo->capacity_lba, geo->lba_size);
	return 0;

out_destroy_control:
	zctl_stop(zd->ctl);
	zl_close_timing(zd);
	ztrace_destroy(zd->trace);
	zscsi_destroy(zd->scsi);
out_close_disk:
	zdisk_close(zd->disk);
out_err:
	tcmu_dev_err(dev, "zonelab: %s\n", msg);
out_free:
	free(zd);
	return ret < 0 && ret > -4096 ? ret : -EINVAL;
}

static void zl_close(struct tcmu_device *dev)
{
	struct zl_tcmu_dev *zd = tcmur_dev_get_private(dev);

	if (!zd)
		return;
	zctl_stop(zd->ctl);
	zl_close_timing(zd);           /* completes what is still queued */
	ztrace_destroy(zd->trace);     /* flushes the trace */
	zscsi_destroy(zd->scsi);
	zdisk_close(zd->disk);
	tcmur_dev_set_private(dev, NULL);
	free(zd);
}

/* @s without the trailing newline or blanks a configfs write may carry: its length. */
static size_t zl_trimmed_len(const char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == '\n' || s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	return n;
}

/*
 * ->reconfig: tcmu-runner 1.5.4 calls it from its netlink thread for a
 * dev_config, dev_size or emulate_write_cache write (a dev_size equal to
 * the current one never gets here: the runner's dev_resize() accepts it).
 * Returns 0 or -errno, which the kernel returns to the configfs writer.
 */
static int zl_reconfig(struct tcmu_device *dev, struct tcmulib_cfg_info *cfg)
{
	struct zl_tcmu_dev *zd = tcmur_dev_get_private(dev);
	const struct zdev_cfg *g;
	const char *cur, *want;
	uint64_t bytes;
	bool was;
	int ret;

	if (!zd)
		return -ENODEV;
	g = zdisk_geo(zd->disk);
	bytes = g->capacity_lba * g->lba_size;
	switch (cfg->type) {
	case TCMULIB_CFG_DEV_CFGSTR:
		cur = tcmu_dev_get_cfgstring(dev);
		want = cfg->data.dev_cfgstring ? cfg->data.dev_cfgstring : "";
		if (zl_trimmed_len(want) == strlen(cur) && !strncmp(want, cur, strlen(cur)))
			return 0;
		tcmu_dev_err(dev, "zonelab: reconfig: dev_config '%.*s' refused: the device is open "
			     "as '%s' and its geometry and options are the image's; to change them, "
			     "delete the backstore and create it again\n",
			     (int)zl_trimmed_len(want), want, cur);
		return -EINVAL;
	case TCMULIB_CFG_DEV_SIZE:
		if (cfg->data.dev_size == bytes)
			return 0;
		tcmu_dev_err(dev, "zonelab: reconfig: dev_size %" PRIu64 " refused: %s holds %" PRIu64
			     " bytes (%" PRIu64 " LBAs of %u) and its zone layout is in the image; "
			     "to resize, delete the backstore and create it again with force=1\n",
			     cfg->data.dev_size, zd->cfg.path[0] ? zd->cfg.path : "(memory)", bytes,
			     g->capacity_lba, g->lba_size);
		return -EINVAL;
	case TCMULIB_CFG_WRITE_CACHE:
		/*
		 * The kernel's emulate_write_cache starts at 0 whatever wce= said
		 * (nothing syncs it), so a saveconfig/restoreconfig round trip
		 * turns the write cache off unless it was set to 1: say so.
		 */
		was = zdisk_wce(zd->disk);
		ret = zdisk_set_wce(zd->disk, cfg->data.write_cache);
		if (ret) {
			tcmu_dev_err(dev, "zonelab: reconfig: write cache %s: %s (%s)\n",
				     cfg->data.write_cache ? "on" : "off", zl_strerror(ret),
				     zl_errname(ret));
			return ret < 0 && ret > -4096 ? ret : -EIO;
		}
		tcmu_dev_set_write_cache_enabled(dev, cfg->data.write_cache);
		if (was != cfg->data.write_cache)
			tcmu_dev_info(dev, "zonelab: reconfig: write cache %s (emulate_write_cache=%d)\n",
				      cfg->data.write_cache ? "on" : "off", cfg->data.write_cache);
		return 0;
	}
	tcmu_dev_err(dev, "zonelab: reconfig: unknown request type %d\n", (int)cfg->type);
	return -EOPNOTSUPP;
}

/*
 * zscsi's status and sense as a TCMU status (@data_in: bytes zscsi read),
 * and the data-in length for the kernel where it is less than the buffer.
 */
static __attribute__((noinline)) int zl_status(struct tcmu_device *dev, struct zl_tcmu_dev *zd,
					       struct tcmulib_cmd *cmd, uint8_t status,
					       const uint8_t *sense, size_t data_in)
{
	size_t buf_len = 0;

	if (data_in) {
		for (size_t i = 0; i < cmd->iov_cnt; i++)
			buf_len += cmd->iovec[i].iov_len;
	}
	switch (status) {
	case ZSCSI_GOOD:
		/* less than the buffer: the initiator sees the residual */
		if (data_in && data_in < buf_len)
			zl_set_read_len(zd, cmd, data_in);
		return TCMU_STS_OK;
	case ZSCSI_CHECK_CONDITION:
		/*
		 * zscsi's sense goes out as is, but for one case: a READ that
		 * failed part-way (a medium error inside it) has its first
		 * blocks in the buffer and INFORMATION naming the failing LBA,
		 * and Linux counts the blocks before it as read.  With the
		 * read length reported the kernel passes those blocks with the
		 * CHECK CONDITION; without it (a work queue, or a kernel
		 * without TCMU_MAILBOX_FLAG_CAP_READ_LEN) it passes no data,
		 * so clear VALID, and the whole command counts as failed.
		 */
		memset(cmd->sense_buf, 0, SENSE_BUFFERSIZE);
		memcpy(cmd->sense_buf, sense, ZSCSI_SENSE_LEN);
		if (data_in && !zl_set_read_len(zd, cmd, data_in))
			cmd->sense_buf[0] &= 0x7f;
		return TCMU_STS_PASSTHROUGH_ERR;
	case ZSCSI_BUSY:
		return TCMU_STS_BUSY;
	default:
		tcmu_dev_err(dev, "zonelab: unexpected SCSI status 0x%02x\n", status);
		return TCMU_STS_HW_ERR;
	}
}

/* Every command but the common READ: zscsi_execute(), the trace, the status. */
static __attribute__((noinline)) int zl_execute(struct tcmu_device *dev, struct zl_tcmu_dev *zd,
						struct tcmulib_cmd *cmd)
{
	uint8_t sense[ZSCSI_SENSE_LEN];
	size_t cdb_len = zscsi_cdb_len_of(cmd->cdb[0]);
	bool tracing = ztrace_is_active(zd->trace);
	uint64_t t0 = tracing ? ztrace_clock_ns() : 0;
	size_t data_in = 0;
	uint8_t status;

	status = zscsi_execute(zd->scsi, cmd->cdb, cdb_len, cmd->iovec, (int)cmd->iov_cnt,
			       sense, &data_in);
	if (tracing)
		ztrace_record_cmd(zd->trace, cmd->cdb, cdb_len, status, sense, t0,
				  ztrace_clock_ns() - t0);
	return zl_status(dev, zd, cmd, status, sense, data_in);
}

/* The timer thread: the command's time has come; its work-queue thread goes on. */
static void zl_timed_done(void *arg, void *ctx, uint64_t due_ns)
{
	struct zl_timed_cmd *c = ctx;

	(void)arg;
	(void)due_ns;
	pthread_mutex_lock(&c->m);
	c->due = true;
	pthread_cond_signal(&c->cv);
	pthread_mutex_unlock(&c->m);
}

/*
 * What the model sees of @cdb (NULL: it does not reach the media), read
 * before the command runs: the zone a write opens implicitly, what a reset
 * or finish finds in its zone.
 */
static const struct ztime_req *zl_timed_req(struct zl_tcmu_dev *zd, const uint8_t *cdb,
					    struct ztime_req *r)
{
	const struct zdev_cfg *g = zdisk_geo(zd->disk);
	struct zscsi_cdb_info ci;
	struct zl_zone_info zi;
	bool have_zone;

	if (zscsi_cdb_info(cdb, zscsi_cdb_len_of(cdb[0]), &ci))
		return NULL;
	memset(r, 0, sizeof(*r));
	r->off_bytes = ci.lba * g->lba_size;
	r->len_bytes = (uint64_t)ci.nr_lba * g->lba_size;
	switch (cdb[0]) {
	case 0x08: case 0x28: case 0xa8: case 0x88:       /* READ */
		r->op = ZTIME_READ;
		return r;
	case 0x0a: case 0x2a: case 0xaa: case 0x8a:       /* WRITE */
		r->op = ZTIME_WRITE;
		r->fua = (ci.flags & ZSCSI_CDBI_FUA) || !zdisk_wce(zd->disk);
		have_zone = zdisk_report(zd->disk, ci.lba, ZL_RO_ALL, &zi, 1, NULL) == 1;
		r->implicit_open = have_zone && (zi.cond == ZL_COND_EMPTY ||
						 zi.cond == ZL_COND_CLOSED);
		return r;
	case 0x35: case 0x91:                             /* SYNCHRONIZE CACHE */
		r->op = ZTIME_FLUSH;
		r->off_bytes = r->len_bytes = 0;
		return r;
	case 0x94:                                        /* ZBC OUT */
		r->len_bytes = 0;
		switch (ci.sa) {
		case 0x01: r->op = ZTIME_CLOSE; return r;
		case 0x03: r->op = ZTIME_OPEN; return r;
		case 0x02: r->op = ZTIME_FINISH; break;
		case 0x04: r->op = ZTIME_RESET; break;
		default: return NULL;
		}
		/* ALL: one operation of the fixed cost, nothing held counted */
		if (!(ci.flags & ZSCSI_CDBI_ALL) &&
		    zdisk_report(zd->disk, ci.lba, ZL_RO_ALL, &zi, 1, NULL) == 1 &&
		    zi.wp_lba != ZL_WP_INVALID && zi.wp_lba > zi.start_lba)
			r->len_bytes = (zi.wp_lba - zi.start_lba) * g->lba_size;
		return r;
	}
	return NULL;
}

/*
 * Timed mode: the command runs now (zone state, data), its completion
 * waits until the model says the drive would have finished it.
 */
static __attribute__((noinline)) int zl_timed_cmd(struct tcmu_device *dev,
						  struct zl_tcmu_dev *zd, struct tcmur_cmd *rcmd)
{
	struct tcmulib_cmd *cmd = rcmd->lib_cmd;
	struct zl_timed_cmd *c = malloc(sizeof(*c));
	uint64_t now = zl_timed_clock_ns();
	size_t cdb_len = zscsi_cdb_len_of(cmd->cdb[0]);
	bool tracing = ztrace_is_active(zd->trace);
	uint64_t t0 = tracing ? ztrace_clock_ns() : 0;
	const struct ztime_req *rp;
	struct ztime_req r;
	int st;

	if (!c)
		return zl_execute(dev, zd, cmd);
	c->dev = dev;
	c->zd = zd;
	c->rcmd = rcmd;
	c->data_in = 0;
	rp = zl_timed_req(zd, cmd->cdb, &r);
	c->status = zscsi_execute(zd->scsi, cmd->cdb, cdb_len, cmd->iovec, (int)cmd->iov_cnt,
				  c->sense, &c->data_in);
	if (tracing)
		ztrace_record_cmd(zd->trace, cmd->cdb, cdb_len, c->status, c->sense, t0,
				  ztrace_clock_ns() - t0);
	if (c->status != ZSCSI_GOOD)
		rp = NULL;                /* refused: the command overhead only */
	pthread_mutex_init(&c->m, NULL);
	pthread_cond_init(&c->cv, NULL);
	c->due = false;
	if (!zl_timed_submit(zd->timed, now, rp, c)) {
		/* wait for the model's time; not cancellable meanwhile (the runner
		 * cancels its work queue at close: the timer thread, alive until
		 * close, still wakes this one, and nobody would free c) */
		int cs;

		pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &cs);
		pthread_mutex_lock(&c->m);
		while (!c->due)
			pthread_cond_wait(&c->cv, &c->m);
		pthread_mutex_unlock(&c->m);
		pthread_setcancelstate(cs, NULL);
	}
	st = zl_status(dev, zd, cmd, c->status, c->sense, c->data_in);
	pthread_cond_destroy(&c->cv);
	pthread_mutex_destroy(&c->m);
	free(c);
	return st;
}

/*
 * The common READ (no trace running) runs to pread() and back in this
 * frame, which is small: the 4 KiB read rate counts every instruction and
 * every frame that returns after the system call (docs/TCMU.md).  Anything
 * else, or a READ zscsi_read_fast() declined, goes to zl_execute() (a tail
 * call).
 */
static int zl_handle_cmd(struct tcmu_device *dev, struct tcmur_cmd *rcmd)
{
	struct zl_tcmu_dev *zd = tcmur_dev_get_private(dev);
	struct tcmulib_cmd *cmd = rcmd->lib_cmd;
	uint8_t sense[ZSCSI_SENSE_LEN];
	size_t data_in = 0;
	int st;

	if (__builtin_expect(zd->timed != NULL, 0))
		return zl_timed_cmd(dev, zd, rcmd);
	if (!ztrace_is_active(zd->trace)) {
		st = zscsi_read_fast(zd->scsi, cmd->cdb, zscsi_cdb_len_of(cmd->cdb[0]), cmd->iovec,
				     (int)cmd->iov_cnt, sense, &data_in);
		if (st == ZSCSI_GOOD)
			return TCMU_STS_OK;
		if (st >= 0)
			return zl_status(dev, zd, cmd, (uint8_t)st, sense, data_in);
	}
	return zl_execute(dev, zd, cmd);
}

/* What tcmu-runner shows users; the key list is the parser's own (handler_init()). */
static char zl_cfg_desc[512];

static struct tcmur_handler zl_handler = {
	.name = "zonelab emulated ZBC disk",
	.subtype = ZL_CFGSTR_SUBTYPE,
	.cfg_desc = zl_cfg_desc,
	.check_config = zl_check_config,
	.reconfig = zl_reconfig,
	.open = zl_open,
	.close = zl_close,
	.nr_threads = 0,
	.handle_cmd = zl_handle_cmd,
};

int handler_init(void)
{
	const char *e = getenv("ZONELAB_TCMU_THREADS");
	char keys[256];

	snprintf(zl_cfg_desc, sizeof(zl_cfg_desc),
		 "zonelab emulated zoned disk (see docs/CFGSTRING.md):\n"
		 "  <path>[?key=value[&key=value]...]\n"
		 "keys: %s\n"
		 "e.g.  /var/lib/zonelab/d0.img?zsize=64M&conv=4&max_open=16\n",
		 zl_cfgstr_keys(keys, sizeof(keys)));
	if (e) {
		long n = strtol(e, NULL, 10);

		zl_handler.nr_threads = n < 0 ? 0 : n > 64 ? 64 : (int)n;
	}
	return tcmur_register_handler(&zl_handler);
}
