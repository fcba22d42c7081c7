/*
 * trc_replay.c — replay a device-level trace onto a disk and, with
 * verify, compare each command's outcome with the recorded one.
 *
 * Sources: zonelab's command trace (the SCSI records themselves: each
 * READ/WRITE 6/10/12/16, SYNCHRONIZE CACHE 10/16, ZBC OUT and ZBC IN REPORT
 * ZONES is rebuilt as a CDB from the recorded opcode, service action, LBA,
 * length, FUA and ALL bits; other commands are skipped and counted, since
 * the trace does not keep their CDB), or any trc reader's records
 * (blktrace/blkparse of a zoned device: read, write, flush, zone ops).
 *
 * Targets: a zonelab image (through zscsi_execute() for command traces, so
 * status and sense are compared byte for byte; through zdisk for block
 * traces), or a zoned block device (/dev/...: pread/pwrite with O_DIRECT,
 * fdatasync, BLKRESETZONE/BLKOPENZONE/BLKCLOSEZONE/BLKFINISHZONE), where
 * only success versus failure can be compared.  Write data is zeros: the
 * trace has no payload.  Not a timing replay: commands run back to back.
 */
#include "trc_int.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/blkzoned.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "zdisk.h"
#include "zl_be.h"
#include "zl_err.h"
#include "zscsi.h"
#include "ztrace.h"

#define MAX_XFER (64u << 20)

struct target {
	/* image */
	struct zdisk *disk;
	struct zscsi *scsi;
	uint32_t lba_size;
	/* zoned block device */
	int fd;
	uint64_t cap_bytes;
	void *buf;
	size_t buf_len;
};

static int buf_need(struct target *t, size_t len)
{
	void *p;

	if (len <= t->buf_len)
		return 0;
	if (posix_memalign(&p, 4096, len))
		return -ENOMEM;
	memset(p, 0, len);
	free(t->buf);
	t->buf = p;
	t->buf_len = len;
	return 0;
}

static int target_open(const char *path, struct target *t, char *msg, size_t msg_len)
{
	struct zdisk_cfg cfg;
	struct stat st;
	int ret;

	memset(t, 0, sizeof(*t));
	t->fd = -1;
	if (stat(path, &st) == 0 && S_ISBLK(st.st_mode)) {
		uint32_t zs = 0;
		int fd = open(path, O_RDWR | O_DIRECT | O_CLOEXEC);

		if (fd < 0) {
			ret = -errno;
			snprintf(msg, msg_len, "%s: cannot open: %s", path, strerror(errno));
			return ret;
		}
		if (ioctl(fd, BLKGETZONESZ, &zs) == 0 && zs) {
			t->fd = fd;
			if (ioctl(fd, BLKGETSIZE64, &t->cap_bytes) < 0)
				t->cap_bytes = 0;
			t->lba_size = 512;
			return 0;
		}
		close(fd);           /* not zoned: a zonelab image on a block device */
	}
	zdisk_cfg_init(&cfg);
	cfg.store.path = path;
	cfg.store.kind = zstore_kind_of_path(path);
	cfg.use_image_geo = true;
	ret = zdisk_open(&cfg, &t->disk, msg, msg_len);
	if (ret)
		return ret;
	ret = zscsi_create(t->disk, NULL, &t->scsi);
	if (ret) {
		snprintf(msg, msg_len, "%s: %s", path, zl_strerror(ret));
		zdisk_close(t->disk);
		return ret;
	}
	t->lba_size = zdisk_geo(t->disk)->lba_size;
	return 0;
}

static void target_close(struct target *t)
{
	zscsi_destroy(t->scsi);
	zdisk_close(t->disk);
	if (t->fd >= 0)
		close(t->fd);
	free(t->buf);
}

/* ---- the zoned block device ---------------------------------------------- */

/* 0 or -errno */
static int blk_do(struct target *t, uint8_t op, uint64_t off, uint64_t len, bool all)
{
	struct blk_zone_range zr;
	unsigned long req;
	ssize_t n;

	switch (op) {
	case TRC_OP_READ:
	case TRC_OP_WRITE:
		if (len > MAX_XFER)
			return -E2BIG;
		if (buf_need(t, len))
			return -ENOMEM;
		n = op == TRC_OP_READ ? pread(t->fd, t->buf, len, (off_t)off) : pwrite(t->fd, t->buf, len, (off_t)off);
		return n < 0 ? -errno : (uint64_t)n == len ? 0 : -EIO;
	case TRC_OP_FLUSH:
		return fdatasync(t->fd) ? -errno : 0;
	case TRC_OP_ZONE_RESET: req = BLKRESETZONE; break;
	case TRC_OP_ZONE_OPEN: req = BLKOPENZONE; break;
	case TRC_OP_ZONE_CLOSE: req = BLKCLOSEZONE; break;
	case TRC_OP_ZONE_FINISH: req = BLKFINISHZONE; break;
	default:
		return -EOPNOTSUPP;
	}
	if (all) {
		zr.sector = 0;
		zr.nr_sectors = t->cap_bytes / 512;
	} else {
		uint32_t zs = 0;

		if (ioctl(t->fd, BLKGETZONESZ, &zs) < 0)
			return -errno;
		zr.sector = off / 512;
		zr.nr_sectors = zs;
	}
	return ioctl(t->fd, req, &zr) ? -errno : 0;
}

/* ---- command traces ------------------------------------------------------ */

/* Rebuild the CDB of a recorded command; its length, or 0 if not replayable. */
static size_t build_cdb(const struct ztrace_rec *z, uint8_t c[16], uint32_t *xfer_lba, bool *data_in,
			uint32_t *alloc)
{
	bool fua = z->flags & ZTRACE_F_FUA;

	memset(c, 0, 16);
	c[0] = z->opcode;
	*xfer_lba = 0;
	*alloc = 0;
	*data_in = false;
	switch (z->opcode) {
	case 0x08: case 0x0a:
		c[1] = (uint8_t)((z->lba >> 16) & 0x1f);
		zl_put_be16(c + 2, (uint16_t)z->lba);
		c[4] = z->nr_lba >= 256 ? 0 : (uint8_t)z->nr_lba;
		*xfer_lba = z->nr_lba;
		*data_in = z->opcode == 0x08;
		return 6;
	case 0x28: case 0x2a: case 0x35:
		zl_put_be32(c + 2, (uint32_t)z->lba);
		zl_put_be16(c + 7, (uint16_t)z->nr_lba);
		if (fua && z->opcode != 0x35)
			c[1] |= 0x08;
		if (z->opcode != 0x35)
			*xfer_lba = z->nr_lba;
		*data_in = z->opcode == 0x28;
		return 10;
	case 0xa8: case 0xaa:
		zl_put_be32(c + 2, (uint32_t)z->lba);
		zl_put_be32(c + 6, z->nr_lba);
		if (fua)
			c[1] |= 0x08;
		*xfer_lba = z->nr_lba;
		*data_in = z->opcode == 0xa8;
		return 12;
	case 0x88: case 0x8a: case 0x91:
		zl_put_be64(c + 2, z->lba);
		zl_put_be32(c + 10, z->nr_lba);
		if (fua && z->opcode != 0x91)
			c[1] |= 0x08;
		if (z->opcode != 0x91)
			*xfer_lba = z->nr_lba;
		*data_in = z->opcode == 0x88;
		return 16;
	case 0x94:
		c[1] = z->sa & 0x1f;
		zl_put_be64(c + 2, z->lba);
		if (z->flags & ZTRACE_F_ALL)
			c[14] = 1;
		return 16;
	case 0x95:
		if (z->sa != 0x00)
			return 0;
		c[1] = 0x00;
		zl_put_be64(c + 2, z->lba);
		*alloc = 64 << 10;
		zl_put_be32(c + 10, *alloc);
		*data_in = true;
		return 16;
	default:
		return 0;
	}
}

static const char *scsi_name(uint8_t op, uint8_t sa)
{
	switch (op) {
	case 0x08: return "READ(6)";
	case 0x0a: return "WRITE(6)";
	case 0x28: return "READ(10)";
	case 0x2a: return "WRITE(10)";
	case 0xa8: return "READ(12)";
	case 0xaa: return "WRITE(12)";
	case 0x88: return "READ(16)";
	case 0x8a: return "WRITE(16)";
	case 0x35: return "SYNCHRONIZE CACHE(10)";
	case 0x91: return "SYNCHRONIZE CACHE(16)";
	case 0x95: return "REPORT ZONES";
	case 0x94:
		switch (sa) {
		case 1: return "CLOSE ZONE";
		case 2: return "FINISH ZONE";
		case 3: return "OPEN ZONE";
		case 4: return "RESET WRITE POINTER";
		default: return "ZBC OUT";
		}
	default: return "command";
	}
}

static void status_str(char *b, size_t n, uint8_t status, uint8_t key, uint8_t asc, uint8_t ascq)
{
	if (status == 0)
		snprintf(b, n, "GOOD");
	else if (status == 2)
		snprintf(b, n, "CHECK CONDITION %x/%02xh/%02xh", key, asc, ascq);
	else
		snprintf(b, n, "status %02xh", status);
}

static int replay_ztrace(const char *trace, struct target *t, bool verify, struct trc_replay_result *res,
			 char *msg, size_t msg_len)
{
	struct ztrace_reader *rd;
	struct ztrace_rec z;
	uint32_t lba_size;
	int ret;

	ret = ztrace_read_open(trace, &rd, msg, msg_len);
	if (ret)
		return ret;
	lba_size = ztrace_read_hdr(rd)->lba_size;
	if (t->lba_size != lba_size) {
		snprintf(msg, msg_len, "%s: the trace's LBA size is %u bytes, the target's %u", trace, lba_size,
			 t->lba_size);
		ztrace_read_close(rd);
		return -EINVAL;
	}
	while ((ret = ztrace_read_next(rd, &z, msg, msg_len)) == 1) {
		uint8_t cdb[16], sense[ZSCSI_SENSE_LEN], got_st, key = 0, asc = 0, ascq = 0;
		uint32_t xfer, alloc;
		bool data_in;
		size_t cl = build_cdb(&z, cdb, &xfer, &data_in, &alloc);
		uint64_t len;
		char exp[64], got[64];

		res->nr_recs++;
		if (!cl) {
			res->nr_skipped++;
			continue;
		}
		len = alloc ? alloc : (uint64_t)xfer * lba_size;
		if (len > MAX_XFER) {
			res->nr_skipped++;
			continue;
		}
		if (buf_need(t, len ? len : 1)) {
			ztrace_read_close(rd);
			return -ENOMEM;
		}
		res->nr_replayed++;
		if (t->scsi) {
			struct iovec iov = { t->buf, len };
			size_t dl = 0;

			memset(sense, 0, sizeof(sense));
			got_st = zscsi_execute(t->scsi, cdb, cl, &iov, 1, sense, &dl);
			if (got_st == 2) {
				key = sense[2] & 0x0f;
				asc = sense[12];
				ascq = sense[13];
			}
			if (data_in && len)
				memset(t->buf, 0, len);  /* writes send zeros */
		} else {
			enum trc_op op = trc_scsi_op(z.opcode, z.sa, z.flags & ZTRACE_F_SA);

			if (op == TRC_OP_OTHER) {     /* REPORT ZONES: the kernel's own business */
				res->nr_replayed--;
				res->nr_skipped++;
				continue;
			}
			ret = blk_do(t, (uint8_t)op, z.lba * lba_size, len, z.flags & ZTRACE_F_ALL);
			got_st = ret ? 2 : 0;
			if (ret)
				res->nr_errors++;
			if (verify && (got_st == 0) == (z.status == 0))
				continue;
			if (verify && !res->diverged) {
				res->diverged = true;
				res->div_rec = z.seq;
				snprintf(res->div, sizeof(res->div), "record %u: %s lba %" PRIu64 " n %u: expected %s, got %s",
					 z.seq, scsi_name(z.opcode, z.sa), z.lba, z.nr_lba,
					 z.status ? "an error" : "success", ret ? strerror(-ret) : "success");
				break;
			}
			continue;
		}
		if (got_st)
			res->nr_errors++;
		if (!verify)
			continue;
		if (got_st == z.status && key == z.sense_key && asc == z.asc && ascq == z.ascq)
			continue;
		status_str(exp, sizeof(exp), z.status, z.sense_key, z.asc, z.ascq);
		status_str(got, sizeof(got), got_st, key, asc, ascq);
		res->diverged = true;
		res->div_rec = z.seq;
		snprintf(res->div, sizeof(res->div), "record %u: %s lba %" PRIu64 " n %u: expected %s, got %s", z.seq,
			 scsi_name(z.opcode, z.sa), z.lba, z.nr_lba, exp, got);
		break;
	}
	ztrace_read_close(rd);
	if (ret < 0) {
		char m[512];

		snprintf(m, sizeof(m), "%s", msg);
		snprintf(msg, msg_len, "%s: %s", trace, m);
		return ret;
	}
	return 0;
}

/* ---- block traces --------------------------------------------------------- */

static int disk_do(struct target *t, const struct trc_rec *rec)
{
	uint64_t lba = rec->offset_bytes / t->lba_size, n = rec->len_bytes / t->lba_size;
	bool all = rec->has & TRC_HAS_ALL;

	switch (rec->op) {
	case TRC_OP_READ:
	case TRC_OP_WRITE:
		if (rec->len_bytes > MAX_XFER)
			return -E2BIG;
		if (buf_need(t, rec->len_bytes ? rec->len_bytes : 1))
			return -ENOMEM;
		return rec->op == TRC_OP_READ ? zdisk_read(t->disk, lba, n, t->buf, NULL)
					      : zdisk_write(t->disk, lba, n, t->buf, false, NULL);
	case TRC_OP_FLUSH:
		return zdisk_flush(t->disk, NULL);
	case TRC_OP_ZONE_RESET: return zdisk_zone_op(t->disk, ZL_ZOP_RESET, lba, all, NULL);
	case TRC_OP_ZONE_OPEN: return zdisk_zone_op(t->disk, ZL_ZOP_OPEN, lba, all, NULL);
	case TRC_OP_ZONE_CLOSE: return zdisk_zone_op(t->disk, ZL_ZOP_CLOSE, lba, all, NULL);
	case TRC_OP_ZONE_FINISH: return zdisk_zone_op(t->disk, ZL_ZOP_FINISH, lba, all, NULL);
	default:
		return -EOPNOTSUPP;
	}
}

static int replay_recs(const char *trace, const struct trc_reader_cfg *rc, struct target *t, bool verify,
		       struct trc_replay_result *res, char *msg, size_t msg_len)
{
	struct trc_reader *r;
	struct trc_rec rec;
	int ret;

	ret = trc_reader_open(trace, rc, &r, msg, msg_len);
	if (ret)
		return ret;
	if (verify && strcmp(trc_reader_format(r), "blktrace") && strcmp(trc_reader_format(r), "blkparse")) {
		snprintf(msg, msg_len, "%s: --verify needs recorded statuses: a zonelab command trace, or a "
			 "blktrace/blkparse trace (its C events); this is a %s trace", trace, trc_reader_format(r));
		trc_reader_close(r);
		return -EINVAL;
	}
	while ((ret = trc_reader_next(r, &rec)) == 1) {
		int got;

		res->nr_recs++;
		if (rec.op == TRC_OP_DISCARD || rec.op == TRC_OP_OTHER || rec.op == TRC_OP_ZONE_APPEND) {
			res->nr_skipped++;
			continue;
		}
		res->nr_replayed++;
		got = t->disk ? disk_do(t, &rec) : blk_do(t, rec.op, rec.offset_bytes, rec.len_bytes,
							    rec.has & TRC_HAS_ALL);
		if (got == -EOPNOTSUPP || got == -E2BIG) {
			res->nr_replayed--;
			res->nr_skipped++;
			continue;
		}
		if (got)
			res->nr_errors++;
		if (!verify || !(rec.has & TRC_HAS_STATUS) || (got == 0) == (rec.status == 0))
			continue;
		res->diverged = true;
		res->div_rec = res->nr_recs - 1;
		snprintf(res->div, sizeof(res->div), "record %" PRIu64 ": %s offset %" PRIu64 " length %" PRIu64
			 ": expected %s (error %u), got %s", res->div_rec, trc_op_name((enum trc_op)rec.op),
			 rec.offset_bytes, rec.len_bytes, rec.status ? "failure" : "success", rec.status,
			 got ? zl_strerror(got) : "success");
		break;
	}
	if (ret < 0)
		snprintf(msg, msg_len, "%s", trc_reader_msg(r));
	trc_reader_close(r);
	return ret < 0 ? ret : 0;
}

int trc_replay(const char *trace, const struct trc_reader_cfg *rc, const char *target, bool verify,
	       struct trc_replay_result *res, char *msg, size_t msg_len)
{
	struct trc_reader_cfg cfg;
	struct target t;
	uint8_t head[8] = { 0 };
	bool is_ztrace = false;
	int ret, fd;

	memset(res, 0, sizeof(*res));
	if (rc)
		cfg = *rc;
	else
		trc_reader_cfg_init(&cfg);
	if (!cfg.format || !strcmp(cfg.format, "auto")) {
		fd = open(trace, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			ret = -errno;
			snprintf(msg, msg_len, "%s: cannot open: %s", trace, strerror(errno));
			return ret;
		}
		is_ztrace = read(fd, head, 8) == 8 && trc_ztrace_detect(head, 8);
		close(fd);
	} else {
		is_ztrace = !strcmp(cfg.format, "ztrace");
	}
	if (!is_ztrace && verify)
		cfg.event = TRC_EV_COMPLETE;
	ret = target_open(target, &t, msg, msg_len);
	if (ret)
		return ret;
	if (is_ztrace)
		ret = replay_ztrace(trace, &t, verify, res, msg, msg_len);
	else
		ret = replay_recs(trace, &cfg, &t, verify, res, msg, msg_len);
	target_close(&t);
	return ret;
}
