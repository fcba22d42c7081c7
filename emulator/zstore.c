/*
 * zstore.c — where the bytes and zone words of an emulated disk live: opening
 * and formatting images (file, block device), the mmap'ed zone table, data
 * transfers and durability, plus the MEM and NONE backends' glue.
 *
 * The header codec is in zstore_hdr.c, the sparse memory store in
 * zstore_mem.c, the byte layout in docs/FORMAT.md.  This file does not
 * interpret zone words (zdev_zone_pack() owns their bits) and never
 * reformats an image unless asked to with create (and force over an
 * existing image).
 */
#include "zstore_int.h"

#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "zl_crc.h"
#include "zl_iov.h"

/* Largest single pread/pwrite; Linux caps a transfer at ~2 GiB anyway. */
#define ZSTORE_IO_MAX (UINT64_C(1) << 30)

struct zstore {
	enum zstore_kind kind;
	struct zdev_cfg geo;
	struct zstore_layout lay;
	bool fresh;               /* formatted by this open */
	bool punch;               /* FILE: discard punches holes */
	int fd;                   /* FILE/BLOCK; -1 otherwise */
	void *map;                /* FILE/BLOCK: page-aligned mapping holding the table */
	size_t map_len;
	uint64_t *table;          /* nr_zones little-endian words */
	uint32_t dirty_first;     /* words set since the last sync_table: */
	uint32_t dirty_last;      /*   [first, last], empty when first > last */
	struct zstore_mem *mem;   /* MEM */
	char timing[ZSTORE_TIMING_MAX];  /* the header's timing model text ("" = none) */
};

const char *zstore_kind_name(enum zstore_kind k)
{
	switch (k) {
	case ZSTORE_FILE:
		return "file";
	case ZSTORE_BLOCK:
		return "block";
	case ZSTORE_MEM:
		return "mem";
	case ZSTORE_NONE:
		return "none";
	}
	return "?";
}

int zstore_kind_parse(const char *s, enum zstore_kind *k)
{
	static const enum zstore_kind kinds[] = {
		ZSTORE_FILE, ZSTORE_BLOCK, ZSTORE_MEM, ZSTORE_NONE,
	};

	if (!s)
		return -EINVAL;
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		if (!strcmp(s, zstore_kind_name(kinds[i]))) {
			*k = kinds[i];
			return 0;
		}
	}
	return -EINVAL;
}

enum zstore_kind zstore_kind_of_path(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISBLK(st.st_mode) ? ZSTORE_BLOCK : ZSTORE_FILE;
}

/*
 * The rest of a zstore_prw() whose first pread/pwrite returned @done (< 0:
 * failed): resume after a short transfer (the kernel moves at most about
 * 2 GiB per call) or EINTR, in pieces of at most ZSTORE_IO_MAX.
 */
int zstore_prw_rest(int fd, bool write, void *buf, uint64_t len, uint64_t off, ssize_t done)
{
	unsigned char *p = buf;
	ssize_t r = done;

	for (;;) {
		if (r < 0) {
			if (errno != EINTR)
				return -errno;
		} else if (r == 0) {
			return -EIO;    /* the image shrank under us */
		} else {
			p += r;
			off += (uint64_t)r;
			len -= (uint64_t)r;
			if (!len)
				return 0;
		}
		size_t n = len > ZSTORE_IO_MAX ? ZSTORE_IO_MAX : (size_t)len;

		r = write ? pwrite(fd, p, n, (off_t)off) : pread(fd, p, n, (off_t)off);
	}
}

int zstore_data_fd(const struct zstore *s, uint64_t *data_off)
{
	if (s->kind != ZSTORE_FILE && s->kind != ZSTORE_BLOCK)
		return -1;
	*data_off = s->lay.data_off;
	return s->fd;
}

/*
 * preadv/pwritev the whole of @iov (@cnt pieces, none empty) at @off,
 * resuming after short transfers and EINTR, at most IOV_MAX pieces per call.
 * @iov is the caller's private copy: it is consumed.
 */
static int full_prwv(int fd, bool write, struct iovec *iov, int cnt, uint64_t off)
{
	while (cnt) {
		int n = cnt < IOV_MAX ? cnt : IOV_MAX;
		ssize_t r = write ? pwritev(fd, iov, n, (off_t)off) : preadv(fd, iov, n, (off_t)off);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (r == 0)
			return -EIO;    /* the image shrank under us */
		off += (uint64_t)r;
		/* skip what was transferred */
		while (cnt && (size_t)r >= iov->iov_len) {
			r -= (ssize_t)iov->iov_len;
			iov++;
			cnt--;
		}
		if (r) {
			iov->iov_base = (char *)iov->iov_base + r;
			iov->iov_len -= (size_t)r;
		}
	}
	return 0;
}

/* Read up to one header from offset 0; *@got is how much the image holds. */
static int read_head(int fd, uint64_t size, void *hdr, size_t *got, const char *path,
		     char *msg, size_t msg_len)
{
	size_t n = size < ZSTORE_HDR_SIZE ? (size_t)size : ZSTORE_HDR_SIZE;
	int ret;

	memset(hdr, 0, ZSTORE_HDR_SIZE);
	ret = zstore_prw(fd, false, hdr, n, 0);
	if (ret) {
		zl_msgf(msg, msg_len, "%s: reading the header: %s", path, strerror(-ret));
		return ret;
	}
	*got = n;
	return 0;
}

static void make_image_id(const struct zdev_cfg *geo, uint8_t id[16])
{
	static uint64_t counter;
	uint64_t n;
	uint32_t c;

	if (getrandom(id, 16, GRND_NONBLOCK) == 16)
		return;
	/* No entropy yet: geometry, pid and a process-wide counter. */
	n = __atomic_add_fetch(&counter, 1, __ATOMIC_RELAXED);
	c = zl_crc32c(0, &geo->capacity_lba, sizeof(geo->capacity_lba));
	c = zl_crc32c(c, &geo->zone_size_lba, sizeof(geo->zone_size_lba));
	memcpy(id, &c, 4);
	c = (uint32_t)getpid();
	memcpy(id + 4, &c, 4);
	memcpy(id + 8, &n, 8);
}

/*
 * Open the path of a FILE/BLOCK store and find its size, refusing the wrong
 * kind of object.  Returns the fd or a negative code.
 */
static int open_backing(const struct zstore_cfg *cfg, uint64_t *size, char *msg, size_t msg_len)
{
	int flags = O_RDWR | O_CLOEXEC;
	struct stat st;
	int fd, ret;

	if (cfg->kind == ZSTORE_FILE && cfg->create)
		flags |= O_CREAT;
	/*
	 * O_NOATIME: the access time of an image means nothing, and keeping it
	 * costs every read a clock read and a check (about 5% of a 4 KiB
	 * page-cache read, measured in docs/TCMU.md).  Only the owner (or
	 * CAP_FOWNER) may ask for it.
	 */
	fd = open(cfg->path, flags | O_NOATIME, 0644);
	if (fd < 0 && errno == EPERM)
		fd = open(cfg->path, flags, 0644);
	if (fd < 0) {
		ret = -errno;
		if (ret == -ENOENT && cfg->kind == ZSTORE_FILE)
			zl_msgf(msg, msg_len,
				"%s: no such file; create the image first (zonelab disk create)",
				cfg->path);
		else
			zl_msgf(msg, msg_len, "%s: cannot open: %s", cfg->path, strerror(-ret));
		return ret;
	}
	if (fstat(fd, &st) < 0) {
		ret = -errno;
		zl_msgf(msg, msg_len, "%s: stat: %s", cfg->path, strerror(-ret));
		goto out_close_fd;
	}
	if (cfg->kind == ZSTORE_BLOCK) {
		if (!S_ISBLK(st.st_mode)) {
			ret = -ENOTBLK;
			zl_msgf(msg, msg_len,
				"%s is not a block device; use the file store for a regular file",
				cfg->path);
			goto out_close_fd;
		}
		if (ioctl(fd, BLKGETSIZE64, size) < 0) {
			ret = -errno;
			zl_msgf(msg, msg_len, "%s: BLKGETSIZE64: %s", cfg->path,
				strerror(-ret));
			goto out_close_fd;
		}
	} else {
		if (!S_ISREG(st.st_mode)) {
			ret = S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
			zl_msgf(msg, msg_len, "%s is not a regular file%s", cfg->path,
				S_ISBLK(st.st_mode) ? "; use the block store for a block device" : "");
			goto out_close_fd;
		}
		*size = (uint64_t)st.st_size;
	}
	return fd;

out_close_fd:
	close(fd);
	return ret;
}

static int map_table(struct zstore *s, char *msg, size_t msg_len, const char *path)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	uint64_t map_off = s->lay.table_off / page * page;
	uint64_t end = s->lay.table_off + s->lay.table_len;

	s->map_len = (size_t)(end - map_off);
	s->map = mmap(NULL, s->map_len, PROT_READ | PROT_WRITE, MAP_SHARED, s->fd,
		      (off_t)map_off);
	if (s->map == MAP_FAILED) {
		int ret = -errno;

		s->map = NULL;
		zl_msgf(msg, msg_len, "%s: mapping the zone table: %s", path, strerror(-ret));
		return ret;
	}
	s->table = (uint64_t *)((unsigned char *)s->map + (s->lay.table_off - map_off));
	return 0;
}

/* Needed vs actual size: TOO_SMALL with both numbers. */
static int check_size(const struct zstore *s, const char *path, uint64_t size,
		      char *msg, size_t msg_len)
{
	if (size >= s->lay.image_len)
		return 0;
	if (s->kind == ZSTORE_BLOCK)
		zl_msgf(msg, msg_len,
			"%s: block device holds %llu bytes, the geometry needs %llu "
			"(%llu of header and zone table + %llu of data)",
			path, (unsigned long long)size,
			(unsigned long long)s->lay.image_len,
			(unsigned long long)s->lay.data_off,
			(unsigned long long)s->lay.data_len);
	else
		zl_msgf(msg, msg_len,
			"%s: zonelab image truncated: %llu bytes, its geometry needs %llu",
			path, (unsigned long long)size, (unsigned long long)s->lay.image_len);
	return ZL_E_TOO_SMALL;
}

/* Write a fresh header and an all-zero zone table. */
static int format_image(struct zstore *s, const struct zstore_cfg *cfg, uint64_t size,
			char *msg, size_t msg_len)
{
	uint8_t *hdr;
	uint8_t id[16];
	int ret;

	hdr = calloc(1, ZSTORE_HDR_SIZE);
	if (!hdr)
		return -ENOMEM;
	/*
	 * First make the old image unrecognisable, so a crash in the middle
	 * never leaves an old header over a half-new table.  A file is cut to
	 * zero (old data gone, sparse again); a device gets a zeroed header.
	 */
	if (s->kind == ZSTORE_FILE) {
		if (ftruncate(s->fd, 0) < 0 || ftruncate(s->fd, (off_t)s->lay.image_len) < 0) {
			ret = -errno;
			zl_msgf(msg, msg_len, "%s: sizing the image to %llu bytes: %s",
				cfg->path, (unsigned long long)s->lay.image_len,
				strerror(-ret));
			goto out_free_hdr;
		}
	} else {
		ret = check_size(s, cfg->path, size, msg, msg_len);
		if (ret)
			goto out_free_hdr;
		ret = zstore_prw(s->fd, true, hdr, ZSTORE_HDR_SIZE, 0);
		if (ret == 0 && fdatasync(s->fd) < 0)
			ret = -errno;
		if (ret) {
			zl_msgf(msg, msg_len, "%s: clearing the old header: %s", cfg->path,
				strerror(-ret));
			goto out_free_hdr;
		}
	}
	ret = map_table(s, msg, msg_len, cfg->path);
	if (ret)
		goto out_free_hdr;
	if (s->kind == ZSTORE_BLOCK) {
		memset(s->table, 0, s->lay.table_len);
		if (msync(s->map, s->map_len, MS_SYNC) < 0) {
			ret = -errno;
			zl_msgf(msg, msg_len, "%s: writing the zone table: %s", cfg->path,
				strerror(-ret));
			goto out_free_hdr;
		}
	}
	make_image_id(&s->geo, id);
	zstore_hdr_encode(hdr, &s->geo, &s->lay, id);
	zstore_hdr_set_timing(hdr, s->timing);
	ret = zstore_prw(s->fd, true, hdr, ZSTORE_HDR_SIZE, 0);
	if (ret == 0 && fsync(s->fd) < 0)
		ret = -errno;
	if (ret) {
		zl_msgf(msg, msg_len, "%s: writing the header: %s", cfg->path, strerror(-ret));
		goto out_free_hdr;
	}
	s->fresh = true;

out_free_hdr:
	free(hdr);
	return ret;
}

static int open_image(struct zstore *s, const struct zstore_cfg *cfg,
		      const struct zdev_cfg *geo, char *msg, size_t msg_len)
{
	uint8_t *hdr;
	uint64_t size = 0;
	size_t got = 0;
	int ret;

	if (!cfg->path || !*cfg->path) {
		zl_msgf(msg, msg_len, "the %s store needs a path", zstore_kind_name(cfg->kind));
		return -EINVAL;
	}
	if (cfg->create && !geo) {
		zl_msgf(msg, msg_len, "%s: creating an image needs a geometry", cfg->path);
		return -EINVAL;
	}
	hdr = malloc(ZSTORE_HDR_SIZE);
	if (!hdr)
		return -ENOMEM;
	s->fd = open_backing(cfg, &size, msg, msg_len);
	if (s->fd < 0) {
		ret = s->fd;
		goto out_free_hdr;
	}
	ret = read_head(s->fd, size, hdr, &got, cfg->path, msg, msg_len);
	if (ret)
		goto out_free_hdr;

	if (cfg->create) {
		if (zstore_hdr_has_magic(hdr, got) && !cfg->force) {
			zl_msgf(msg, msg_len,
				"%s already holds a zonelab image; pass force to reformat "
				"(this erases it)", cfg->path);
			ret = -EEXIST;
			goto out_free_hdr;
		}
		s->geo = *geo;
		ret = zstore_layout_of(&s->geo, &s->lay, msg, msg_len);
		if (ret == 0)
			ret = format_image(s, cfg, size, msg, msg_len);
		goto out_free_hdr;
	}

	ret = zstore_hdr_decode(hdr, got, cfg->path, &s->geo, &s->lay, msg, msg_len);
	if (ret)
		goto out_free_hdr;
	if (zstore_hdr_timing(hdr, s->timing)) {
		zl_msgf(msg, msg_len, "%s: the header's timing model field (offset %u) is not "
			"NUL-terminated: the header is damaged", cfg->path, (unsigned)ZH_TIMING);
		ret = ZL_E_CORRUPT;
		goto out_free_hdr;
	}
	if (geo) {
		ret = zstore_geo_compare(geo, &s->geo, cfg->path, msg, msg_len);
		if (ret)
			goto out_free_hdr;
		s->geo = *geo;
	}
	ret = check_size(s, cfg->path, size, msg, msg_len);
	if (ret)
		goto out_free_hdr;
	ret = map_table(s, msg, msg_len, cfg->path);

out_free_hdr:
	free(hdr);
	return ret;
}

static int open_volatile(struct zstore *s, const struct zdev_cfg *geo, char *msg, size_t msg_len)
{
	int ret;

	if (!geo) {
		zl_msgf(msg, msg_len, "the %s store needs a geometry (it has no image to read one from)",
			zstore_kind_name(s->kind));
		return -EINVAL;
	}
	s->geo = *geo;
	ret = zstore_layout_of(&s->geo, &s->lay, msg, msg_len);
	if (ret)
		return ret;
	s->table = calloc(s->lay.nr_zones, sizeof(*s->table));
	if (!s->table)
		return -ENOMEM;
	if (s->kind == ZSTORE_MEM) {
		ret = zstore_mem_create(s->lay.data_len, &s->mem);
		if (ret)
			return ret;
	}
	s->fresh = true;
	return 0;
}

int zstore_open(const struct zstore_cfg *cfg, const struct zdev_cfg *geo,
		struct zstore **out, char *msg, size_t msg_len)
{
	struct zstore *s;
	char why[256];
	int ret;

	zl_msgf(msg, msg_len, "%s", "");
	if (geo) {
		why[0] = '\0';
		ret = zdev_cfg_check(geo, why, sizeof(why));
		if (ret) {
			zl_msgf(msg, msg_len, "invalid geometry: %s", why);
			return ret;
		}
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->kind = cfg->kind;
	s->fd = -1;
	if (cfg->timing && strlen(cfg->timing) >= sizeof(s->timing)) {
		zl_msgf(msg, msg_len, "timing model text is %zu bytes; the image header keeps %zu",
			strlen(cfg->timing), sizeof(s->timing) - 1);
		free(s);
		return -EINVAL;
	}
	if (cfg->timing && (cfg->create || cfg->kind == ZSTORE_MEM || cfg->kind == ZSTORE_NONE))
		memcpy(s->timing, cfg->timing, strlen(cfg->timing) + 1);
	switch (cfg->kind) {
	case ZSTORE_FILE:
	case ZSTORE_BLOCK:
		s->punch = cfg->kind == ZSTORE_FILE && cfg->punch_on_reset;
		ret = open_image(s, cfg, geo, msg, msg_len);
		break;
	case ZSTORE_MEM:
	case ZSTORE_NONE:
		ret = open_volatile(s, geo, msg, msg_len);
		break;
	default:
		zl_msgf(msg, msg_len, "unknown store kind %d", (int)cfg->kind);
		ret = -EINVAL;
		break;
	}
	if (ret) {
		zstore_close(s);
		return ret;
	}
	/* Whatever an earlier process stored is flushed by the first sync. */
	s->dirty_first = 0;
	s->dirty_last = s->lay.nr_zones - 1;
	*out = s;
	return 0;
}

void zstore_close(struct zstore *s)
{
	if (!s)
		return;
	if (s->map)
		munmap(s->map, s->map_len);
	else
		free(s->table);
	if (s->fd >= 0)
		close(s->fd);
	zstore_mem_destroy(s->mem);
	free(s);
}

const char *zstore_timing(const struct zstore *s)
{
	return s->timing;
}

const struct zdev_cfg *zstore_geometry(const struct zstore *s)
{
	return &s->geo;
}

enum zstore_kind zstore_kind(const struct zstore *s)
{
	return s->kind;
}

bool zstore_is_fresh(const struct zstore *s)
{
	return s->fresh;
}

size_t zstore_mem_bytes(const struct zstore *s)
{
	return s->mem ? zstore_mem_held(s->mem) : 0;
}

/* Byte range of [lba, lba + nr_lba) in the data area, or -EINVAL past the end. */
static int data_range(const struct zstore *s, uint64_t lba, uint64_t nr_lba,
		      uint64_t *off, uint64_t *len)
{
	if (lba > s->geo.capacity_lba || nr_lba > s->geo.capacity_lba - lba)
		return -EINVAL;
	*off = lba * s->geo.lba_size;
	*len = nr_lba * s->geo.lba_size;
	return 0;
}

/* Move @len bytes at data offset @off (checked) between the store and @buf. */
static int data_rw(struct zstore *s, bool write, uint64_t off, uint64_t len, void *buf)
{
	switch (s->kind) {
	case ZSTORE_FILE:
	case ZSTORE_BLOCK:
		return zstore_prw(s->fd, write, buf, len, s->lay.data_off + off);
	case ZSTORE_MEM:
		if (write)
			return zstore_mem_write(s->mem, off, len, buf);
		zstore_mem_read(s->mem, off, len, buf);
		return 0;
	case ZSTORE_NONE:
		if (!write)
			memset(buf, 0, len);
		return 0;
	}
	return -EINVAL;
}

static int zstore_rw(struct zstore *s, bool write, uint64_t lba, uint64_t nr_lba, void *buf)
{
	uint64_t off, len;
	int ret = data_range(s, lba, nr_lba, &off, &len);

	if (ret || !len)
		return ret;
	return data_rw(s, write, off, len, buf);
}

int zstore_read(struct zstore *s, uint64_t lba, uint64_t nr_lba, void *buf)
{
	return zstore_rw(s, false, lba, nr_lba, buf);
}

int zstore_write(struct zstore *s, uint64_t lba, uint64_t nr_lba, const void *buf)
{
	return zstore_rw(s, true, lba, nr_lba, (void *)buf);
}

static int zstore_rwv(struct zstore *s, bool write, uint64_t lba, uint64_t nr_lba,
		      const struct iovec *iov, int iov_cnt)
{
	struct iovec cut[64], *v = cut;
	uint64_t off, len;
	int n, ret = data_range(s, lba, nr_lba, &off, &len);

	if (ret || !len)
		return ret;
	if (zl_iov_len(iov, iov_cnt) < len)
		return -EINVAL;
	n = zl_iov_slice(iov, iov_cnt, 0, (size_t)len, cut, 64);
	if (n < 0) {          /* more than 64 pieces: slice into a heap array */
		v = malloc(sizeof(*v) * (size_t)iov_cnt);
		if (!v)
			return -ENOMEM;
		n = zl_iov_slice(iov, iov_cnt, 0, (size_t)len, v, iov_cnt);
	}
	if (n > 1 && s->fd >= 0) {           /* file or block store */
		ret = full_prwv(s->fd, write, v, n, s->lay.data_off + off);
	} else {
		/* one piece (plain pread/pwrite: cheaper in the kernel), or memory */
		for (int i = 0; i < n && !ret; i++) {
			ret = data_rw(s, write, off, v[i].iov_len, v[i].iov_base);
			off += v[i].iov_len;
		}
	}
	if (v != cut)
		free(v);
	return ret;
}

int zstore_readv(struct zstore *s, uint64_t lba, uint64_t nr_lba, const struct iovec *iov,
		 int iov_cnt)
{
	return zstore_rwv(s, false, lba, nr_lba, iov, iov_cnt);
}

int zstore_writev(struct zstore *s, uint64_t lba, uint64_t nr_lba, const struct iovec *iov,
		  int iov_cnt)
{
	return zstore_rwv(s, true, lba, nr_lba, iov, iov_cnt);
}

int zstore_discard(struct zstore *s, uint64_t lba, uint64_t nr_lba)
{
	uint64_t off, len;
	int ret = data_range(s, lba, nr_lba, &off, &len);

	if (ret || !len)
		return ret;
	switch (s->kind) {
	case ZSTORE_FILE:
		if (!s->punch)
			return 0;
		if (fallocate(s->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
			      (off_t)(s->lay.data_off + off), (off_t)len) < 0) {
			if (errno == EOPNOTSUPP || errno == ENOSYS) {
				s->punch = false;   /* filesystem can't: a no-op from now on */
				return 0;
			}
			return -errno;
		}
		return 0;
	case ZSTORE_MEM:
		/* Always freed, whatever punch_on_reset says: memory is the point. */
		zstore_mem_discard(s->mem, off, len);
		return 0;
	case ZSTORE_BLOCK:
	case ZSTORE_NONE:
		return 0;
	}
	return -EINVAL;
}

uint64_t zstore_zone_word_get(const struct zstore *s, uint32_t idx)
{
	if (idx >= s->lay.nr_zones)
		abort();        /* programmer error: zdev never asks past its zones */
	return le64toh(__atomic_load_n(&s->table[idx], __ATOMIC_RELAXED));
}

void zstore_zone_word_set(struct zstore *s, uint32_t idx, uint64_t word)
{
	if (idx >= s->lay.nr_zones)
		abort();
	/* One aligned 8-byte store: a kill at any instant leaves old or new. */
	__atomic_store_n(&s->table[idx], htole64(word), __ATOMIC_RELAXED);
	if (s->dirty_first > s->dirty_last) {
		s->dirty_first = idx;
		s->dirty_last = idx;
	} else if (idx < s->dirty_first) {
		s->dirty_first = idx;
	} else if (idx > s->dirty_last) {
		s->dirty_last = idx;
	}
}

int zstore_sync_data(struct zstore *s)
{
	if (s->fd < 0)
		return 0;
	return fdatasync(s->fd) < 0 ? -errno : 0;
}

/* msync the pages holding words [first, last]; reads nothing that changes after open. */
static int sync_words(const struct zstore *s, uint32_t first, uint32_t last)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t start = (uintptr_t)&s->table[first] & ~(page - 1);
	uintptr_t end = (uintptr_t)&s->table[last + 1];

	return msync((void *)start, end - start, MS_SYNC) < 0 ? -errno : 0;
}

int zstore_sync_words(const struct zstore *s, uint32_t first, uint32_t last)
{
	if (first > last || last >= s->lay.nr_zones)
		abort();        /* programmer error, as in zstore_zone_word_get() */
	return s->map ? sync_words(s, first, last) : 0;
}

int zstore_sync_table(struct zstore *s)
{
	int ret;

	if (!s->map || s->dirty_first > s->dirty_last)
		return 0;
	ret = sync_words(s, s->dirty_first, s->dirty_last);
	if (ret)
		return ret;
	s->dirty_first = 1;
	s->dirty_last = 0;
	return 0;
}
