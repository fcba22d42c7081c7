/*
 * ztrace.c — command trace writer and reader (ztrace.h, format in
 * docs/TRACE-FORMAT.md).  The writer keeps records in a buffer under a
 * mutex and writes whole buffers; the reader checks the header (magic,
 * checksum, version, sizes, geometry) and the sequence numbers of records,
 * so a foreign, corrupt or truncated file is refused with a reason instead
 * of being read as garbage.  No interpretation of commands here beyond
 * zscsi_cdb_info(); analysis belongs to traces/.
 */
#include "ztrace.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "zl_crc.h"
#include "zl_err.h"
#include "zl_le.h"
#include "zscsi_cdbinfo.h"

#define ZTRACE_BUF_RECS 1024          /* 48 KiB written at a time */

struct ztrace {
	struct ztrace_head head;      /* first: ztrace_is_active() reads it through ztrace.h */
	struct ztrace_cfg cfg;
	pthread_mutex_t lock;
	int fd;                       /* -1 when not recording */
	char path[4096];
	uint8_t *buf;                 /* ZTRACE_BUF_RECS records */
	size_t nr_buffered;
	uint64_t nr_records;          /* into the current (or last) file */
	uint64_t nr_dropped;
	int err;                      /* first write error of the current file */
};

struct ztrace_reader {
	FILE *f;
	bool own_file;
	struct ztrace_hdr hdr;
	uint64_t nr_read;
	uint8_t *rec;                 /* hdr.rec_size bytes */
};


/* ---- codecs ---------------------------------------------------------------- */

void ztrace_hdr_encode(const struct ztrace_hdr *h, uint8_t buf[ZTRACE_HDR_SIZE])
{
	memset(buf, 0, ZTRACE_HDR_SIZE);
	memcpy(buf, ZTRACE_MAGIC, 8);
	zl_put_le16(buf + 8, h->version);
	zl_put_le16(buf + 10, h->hdr_size);
	zl_put_le16(buf + 12, h->rec_size);
	zl_put_le16(buf + 14, h->clock);
	zl_put_le32(buf + 16, h->lba_size);
	zl_put_le64(buf + 24, h->capacity_lba);
	zl_put_le64(buf + 32, h->start_ns);
	zl_put_le32(buf + 60, zl_crc32c(0, buf, 60));
}

int ztrace_hdr_decode(const uint8_t *buf, size_t len, struct ztrace_hdr *h, char *msg, size_t msg_len)
{
	uint32_t crc;

	memset(h, 0, sizeof(*h));
	if (len < ZTRACE_HDR_SIZE) {
		zl_msgf(msg, msg_len, "file is %zu bytes, shorter than the %d-byte trace header", len,
		     ZTRACE_HDR_SIZE);
		return len < 8 || memcmp(buf, ZTRACE_MAGIC, 8) ? ZL_E_BAD_MAGIC : ZL_E_CORRUPT;
	}
	if (memcmp(buf, ZTRACE_MAGIC, 8)) {
		zl_msgf(msg, msg_len, "not a zonelab trace (magic is not \"ZLTRACE\\0\")");
		return ZL_E_BAD_MAGIC;
	}
	crc = zl_crc32c(0, buf, 60);
	if (crc != zl_get_le32(buf + 60)) {
		zl_msgf(msg, msg_len, "trace header checksum mismatch (stored %08" PRIx32 ", computed %08"
		     PRIx32 "): header corrupt", zl_get_le32(buf + 60), crc);
		return ZL_E_BAD_CSUM;
	}
	h->version = zl_get_le16(buf + 8);
	h->hdr_size = zl_get_le16(buf + 10);
	h->rec_size = zl_get_le16(buf + 12);
	h->clock = zl_get_le16(buf + 14);
	h->lba_size = zl_get_le32(buf + 16);
	h->capacity_lba = zl_get_le64(buf + 24);
	h->start_ns = zl_get_le64(buf + 32);
	if (h->version != ZTRACE_VERSION || h->hdr_size != ZTRACE_HDR_SIZE ||
	    h->rec_size != ZTRACE_REC_SIZE) {
		zl_msgf(msg, msg_len, "trace version %u (header %u, record %u bytes) is not supported: this "
		     "reader knows version %d (header %d, record %d bytes)", h->version, h->hdr_size,
		     h->rec_size, ZTRACE_VERSION, ZTRACE_HDR_SIZE, ZTRACE_REC_SIZE);
		return ZL_E_BAD_VERSION;
	}
	if (h->clock > ZTRACE_CLOCK_VIRTUAL) {
		zl_msgf(msg, msg_len, "trace header: unknown clock %u", h->clock);
		return ZL_E_CORRUPT;
	}
	if (h->lba_size != 512 && h->lba_size != 4096) {
		zl_msgf(msg, msg_len, "trace header: LBA size %" PRIu32 " is not 512 or 4096", h->lba_size);
		return ZL_E_CORRUPT;
	}
	return 0;
}

void ztrace_rec_encode(const struct ztrace_rec *r, uint8_t buf[ZTRACE_REC_SIZE])
{
	memset(buf, 0, ZTRACE_REC_SIZE);
	zl_put_le64(buf + 0, r->ts_ns);
	zl_put_le64(buf + 8, r->latency_ns);
	zl_put_le64(buf + 16, r->lba);
	zl_put_le32(buf + 24, r->nr_lba);
	buf[28] = r->opcode;
	buf[29] = r->sa;
	buf[30] = r->status;
	buf[31] = r->sense_key;
	buf[32] = r->asc;
	buf[33] = r->ascq;
	buf[34] = r->flags;
	buf[35] = r->cdb_len;
	zl_put_le32(buf + 36, r->seq);
}

void ztrace_rec_decode(const uint8_t buf[ZTRACE_REC_SIZE], struct ztrace_rec *r)
{
	memset(r, 0, sizeof(*r));
	r->ts_ns = zl_get_le64(buf + 0);
	r->latency_ns = zl_get_le64(buf + 8);
	r->lba = zl_get_le64(buf + 16);
	r->nr_lba = zl_get_le32(buf + 24);
	r->opcode = buf[28];
	r->sa = buf[29];
	r->status = buf[30];
	r->sense_key = buf[31];
	r->asc = buf[32];
	r->ascq = buf[33];
	r->flags = buf[34];
	r->cdb_len = buf[35];
	r->seq = zl_get_le32(buf + 36);
}

/* ---- writer ---------------------------------------------------------------- */

uint64_t ztrace_clock_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int ztrace_create(const struct ztrace_cfg *cfg, struct ztrace **out)
{
	struct ztrace *tr;

	if (!cfg || (cfg->lba_size != 512 && cfg->lba_size != 4096) ||
	    (cfg->clock != ZTRACE_CLOCK_MONOTONIC && cfg->clock != ZTRACE_CLOCK_VIRTUAL))
		return -EINVAL;
	tr = calloc(1, sizeof(*tr));
	if (!tr)
		return -ENOMEM;
	tr->buf = malloc((size_t)ZTRACE_BUF_RECS * ZTRACE_REC_SIZE);
	if (!tr->buf) {
		free(tr);
		return -ENOMEM;
	}
	tr->cfg = *cfg;
	tr->fd = -1;
	atomic_init(&tr->head.active, false);
	pthread_mutex_init(&tr->lock, NULL);
	*out = tr;
	return 0;
}

static int write_all(int fd, const uint8_t *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -EIO;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Write the buffered records.  Caller holds the lock. */
static void flush_locked(struct ztrace *tr)
{
	int ret;

	if (!tr->nr_buffered)
		return;
	ret = tr->err ? tr->err : write_all(tr->fd, tr->buf, tr->nr_buffered * ZTRACE_REC_SIZE);
	if (ret) {
		if (!tr->err)
			tr->err = ret;
		tr->nr_dropped += tr->nr_buffered;
		tr->nr_records -= tr->nr_buffered;
	}
	tr->nr_buffered = 0;
}

/* An existing file may be overwritten only if it is empty or a trace. */
static int check_overwrite(int fd, const char *path, char *msg, size_t msg_len)
{
	uint8_t hb[ZTRACE_HDR_SIZE];
	struct ztrace_hdr h;
	struct stat st;
	char why[256];
	ssize_t n;
	int ret;

	if (fstat(fd, &st)) {
		ret = -errno;
		zl_msgf(msg, msg_len, "trace %s: stat: %s", path, strerror(-ret));
		return ret;
	}
	if (!S_ISREG(st.st_mode)) {
		zl_msgf(msg, msg_len, "trace %s: not a regular file", path);
		return -EEXIST;
	}
	if (st.st_size == 0)
		return 0;
	n = pread(fd, hb, sizeof(hb), 0);
	if (n < 0) {
		ret = -errno;
		zl_msgf(msg, msg_len, "trace %s: cannot read the existing file to check it is a trace: "
			"%s", path, strerror(-ret));
		return ret;
	}
	if (ztrace_hdr_decode(hb, (size_t)n, &h, why, sizeof(why))) {
		zl_msgf(msg, msg_len, "trace %s exists and is not a zonelab trace (%s): not overwritten",
		     path, why);
		return -EEXIST;
	}
	return 0;
}

int ztrace_start(struct ztrace *tr, const char *path, uint64_t start_ns, char *msg, size_t msg_len)
{
	struct ztrace_hdr h = {
		.version = ZTRACE_VERSION, .hdr_size = ZTRACE_HDR_SIZE, .rec_size = ZTRACE_REC_SIZE,
		.clock = (uint16_t)tr->cfg.clock, .lba_size = tr->cfg.lba_size,
		.capacity_lba = tr->cfg.capacity_lba, .start_ns = start_ns,
	};
	uint8_t hb[ZTRACE_HDR_SIZE];
	int fd, ret;

	if (!path || !*path) {
		zl_msgf(msg, msg_len, "trace: empty path");
		return -EINVAL;
	}
	if (strlen(path) >= sizeof(tr->path)) {
		zl_msgf(msg, msg_len, "trace: path longer than %zu bytes", sizeof(tr->path) - 1);
		return -ENAMETOOLONG;
	}
	pthread_mutex_lock(&tr->lock);
	if (tr->fd >= 0) {
		zl_msgf(msg, msg_len, "already tracing to %s (stop it first)", tr->path);
		ret = -EBUSY;
		goto out_unlock;
	}
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0) {
		ret = -errno;
		zl_msgf(msg, msg_len, "trace %s: %s", path,
		     ret == -ELOOP ? "is a symbolic link (not followed)" : strerror(-ret));
		goto out_unlock;
	}
	ret = check_overwrite(fd, path, msg, msg_len);
	if (ret)
		goto out_close_fd;
	ztrace_hdr_encode(&h, hb);
	if (ftruncate(fd, 0) || lseek(fd, 0, SEEK_SET) < 0) {
		ret = -errno;
	} else {
		ret = write_all(fd, hb, sizeof(hb));
	}
	if (ret) {
		zl_msgf(msg, msg_len, "trace %s: cannot write the header: %s", path, strerror(-ret));
		goto out_close_fd;
	}
	tr->fd = fd;
	snprintf(tr->path, sizeof(tr->path), "%s", path);
	tr->nr_records = 0;
	tr->nr_dropped = 0;
	tr->nr_buffered = 0;
	tr->err = 0;
	atomic_store(&tr->head.active, true);
	pthread_mutex_unlock(&tr->lock);
	return 0;

out_close_fd:
	close(fd);
out_unlock:
	pthread_mutex_unlock(&tr->lock);
	return ret;
}

static void status_locked(const struct ztrace *tr, struct ztrace_status *st)
{
	st->active = tr->fd >= 0;
	snprintf(st->path, sizeof(st->path), "%s", tr->path);
	st->nr_records = tr->nr_records;
	st->nr_dropped = tr->nr_dropped;
	st->err = tr->err;
}

int ztrace_stop(struct ztrace *tr, struct ztrace_status *st)
{
	int ret;

	pthread_mutex_lock(&tr->lock);
	if (tr->fd < 0) {
		pthread_mutex_unlock(&tr->lock);
		return -ENOENT;
	}
	atomic_store(&tr->head.active, false);
	flush_locked(tr);
	if (close(tr->fd) && !tr->err)
		tr->err = -errno;
	tr->fd = -1;
	ret = tr->err;
	if (st)
		status_locked(tr, st);
	pthread_mutex_unlock(&tr->lock);
	return ret;
}

void ztrace_destroy(struct ztrace *tr)
{
	if (!tr)
		return;
	ztrace_stop(tr, NULL);
	pthread_mutex_destroy(&tr->lock);
	free(tr->buf);
	free(tr);
}

void ztrace_get_status(struct ztrace *tr, struct ztrace_status *st)
{
	pthread_mutex_lock(&tr->lock);
	status_locked(tr, st);
	pthread_mutex_unlock(&tr->lock);
}

/* Append @r; the caller checked ztrace_is_active() (the fd, under the lock, decides). */
static int append(struct ztrace *tr, const struct ztrace_rec *r)
{
	struct ztrace_rec copy;
	int ret = 0;

	pthread_mutex_lock(&tr->lock);
	if (tr->fd < 0)
		goto out_unlock;
	if (tr->err) {
		tr->nr_dropped++;
		ret = tr->err;
		goto out_unlock;
	}
	copy = *r;
	copy.seq = (uint32_t)tr->nr_records;
	ztrace_rec_encode(&copy, tr->buf + tr->nr_buffered * ZTRACE_REC_SIZE);
	tr->nr_buffered++;
	tr->nr_records++;
	if (tr->nr_buffered == ZTRACE_BUF_RECS)
		flush_locked(tr);
	ret = tr->err;
out_unlock:
	pthread_mutex_unlock(&tr->lock);
	return ret;
}

int ztrace_record(struct ztrace *tr, const struct ztrace_rec *r)
{
	return ztrace_is_active(tr) ? append(tr, r) : 0;
}

/* Record FLAGS bit (docs/TRACE-FORMAT.md) of each zscsi_cdb_info() flag: the file
 * format keeps its own bit values, whatever zscsi's enum becomes. */
static const struct {
	uint8_t cdbi, rec;
} cdbi_flags[] = {
	{ ZSCSI_CDBI_LBA, ZTRACE_F_LBA },
	{ ZSCSI_CDBI_LEN, ZTRACE_F_LEN },
	{ ZSCSI_CDBI_FUA, ZTRACE_F_FUA },
	{ ZSCSI_CDBI_ALL, ZTRACE_F_ALL },
	{ ZSCSI_CDBI_SA, ZTRACE_F_SA },
	{ ZSCSI_CDBI_SHORT, ZTRACE_F_SHORT_CDB },
};

int ztrace_record_cmd(struct ztrace *tr, const uint8_t *cdb, size_t cdb_len, uint8_t status,
		      const uint8_t *sense, uint64_t ts_ns, uint64_t latency_ns)
{
	struct zscsi_cdb_info ci;
	struct ztrace_rec r;

	if (!ztrace_is_active(tr))
		return 0;
	zscsi_cdb_info(cdb, cdb_len, &ci);
	memset(&r, 0, sizeof(r));
	r.ts_ns = ts_ns;
	r.latency_ns = latency_ns;
	r.lba = ci.lba;
	r.nr_lba = ci.nr_lba;
	r.opcode = ci.opcode;
	r.sa = ci.sa;
	r.status = status;
	r.cdb_len = cdb_len > 255 ? 255 : (uint8_t)cdb_len;
	for (size_t i = 0; i < sizeof(cdbi_flags) / sizeof(cdbi_flags[0]); i++)
		if (ci.flags & cdbi_flags[i].cdbi)
			r.flags |= cdbi_flags[i].rec;
	if (status == 0x02 && sense) {
		r.sense_key = sense[2] & 0x0f;
		r.asc = sense[12];
		r.ascq = sense[13];
	}
	return append(tr, &r);
}

/* ---- reader ---------------------------------------------------------------- */

int ztrace_read_fopen(FILE *f, struct ztrace_reader **out, char *msg, size_t msg_len)
{
	uint8_t hb[ZTRACE_HDR_SIZE];
	struct ztrace_reader *r;
	size_t n;
	int ret;

	n = fread(hb, 1, sizeof(hb), f);
	if (n < sizeof(hb) && ferror(f)) {
		zl_msgf(msg, msg_len, "cannot read the trace header: %s", strerror(errno));
		return -EIO;
	}
	r = calloc(1, sizeof(*r));
	if (!r) {
		zl_msgf(msg, msg_len, "out of memory");
		return -ENOMEM;
	}
	ret = ztrace_hdr_decode(hb, n, &r->hdr, msg, msg_len);
	if (ret) {
		free(r);
		return ret;
	}
	r->rec = malloc(r->hdr.rec_size);
	if (!r->rec) {
		zl_msgf(msg, msg_len, "out of memory");
		free(r);
		return -ENOMEM;
	}
	r->f = f;
	*out = r;
	return 0;
}

int ztrace_read_open(const char *path, struct ztrace_reader **out, char *msg, size_t msg_len)
{
	FILE *f = fopen(path, "rbe");
	char why[512];
	int ret;

	if (!f) {
		ret = -errno;
		zl_msgf(msg, msg_len, "%s: %s", path, strerror(-ret));
		return ret;
	}
	ret = ztrace_read_fopen(f, out, why, sizeof(why));
	if (ret) {
		zl_msgf(msg, msg_len, "%s: %s", path, why);
		fclose(f);
		return ret;
	}
	(*out)->own_file = true;
	return 0;
}

const struct ztrace_hdr *ztrace_read_hdr(const struct ztrace_reader *r)
{
	return &r->hdr;
}

int ztrace_read_next(struct ztrace_reader *r, struct ztrace_rec *rec, char *msg, size_t msg_len)
{
	uint64_t off = ZTRACE_HDR_SIZE + r->nr_read * r->hdr.rec_size;
	size_t n = fread(r->rec, 1, r->hdr.rec_size, r->f);

	if (n < r->hdr.rec_size && ferror(r->f)) {
		zl_msgf(msg, msg_len, "record %" PRIu64 " at offset %" PRIu64 ": read error: %s",
			r->nr_read, off, strerror(errno));
		return -EIO;
	}
	if (n == 0)
		return 0;
	if (n < r->hdr.rec_size) {
		zl_msgf(msg, msg_len, "record %" PRIu64 " at offset %" PRIu64 " is truncated (%zu of %u "
		     "bytes): the writer stopped mid-record; the %" PRIu64 " records before it are "
		     "complete", r->nr_read, off, n, r->hdr.rec_size, r->nr_read);
		return ZL_E_CORRUPT;
	}
	ztrace_rec_decode(r->rec, rec);
	if (rec->seq != (uint32_t)r->nr_read) {
		zl_msgf(msg, msg_len, "record %" PRIu64 " at offset %" PRIu64 " has sequence number %"
		     PRIu32 ": records lost or corrupt", r->nr_read, off, rec->seq);
		return ZL_E_CORRUPT;
	}
	r->nr_read++;
	return 1;
}

void ztrace_read_close(struct ztrace_reader *r)
{
	if (!r)
		return;
	if (r->own_file)
		fclose(r->f);
	free(r->rec);
	free(r);
}
