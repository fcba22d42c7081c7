/*
 * zblk_linux.c — zblk over a real Linux zoned block device: the kernel's
 * zoned ioctls (BLKREPORTZONE, BLKRESETZONE, BLKOPENZONE, BLKCLOSEZONE,
 * BLKFINISHZONE, BLKGETZONESZ, BLKGETNRZONES) and pread/pwrite on an O_DIRECT
 * descriptor.  fs-core passes NULL buffers: a NULL write sends stamp blocks
 * (each 4 KiB begins with its device byte offset) from an aligned scratch
 * buffer, a NULL read reads into it (zblk.c).  It is not a queue and does no
 * zone append (the kernel exposes none to user space).
 *
 * The build machine's kernel has no zoned block support, so only the argument
 * handling (zblk_linux_zone_range(), zblk_linux_zone_ioctl(), the refusal of
 * non-block files) is unit-tested; the ioctl paths are compile-tested.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/fs.h>
#include <linux/blkzoned.h>

#include "zblk_int.h"

#define SECTOR_BYTES 512u
#define REPORT_BATCH 128u

struct zblk_linux {
	struct zblk b;   /* first: the zblk handle */
	int fd;
	struct zblk_scratch scratch;  /* O_DIRECT aligned, for NULL buffers */
};

static inline struct zblk_linux *to_zl(struct zblk *b)
{
	return (struct zblk_linux *)b;
}

int zblk_linux_zone_range(uint64_t pos_bytes, uint64_t zone_bytes, uint64_t capacity_bytes,
			  uint64_t *sector, uint64_t *nr_sectors)
{
	if (!zone_bytes || zone_bytes % SECTOR_BYTES || pos_bytes % SECTOR_BYTES)
		return -EINVAL;
	if (pos_bytes % zone_bytes || pos_bytes >= capacity_bytes)
		return -EINVAL;
	*sector = pos_bytes / SECTOR_BYTES;
	*nr_sectors = zone_bytes / SECTOR_BYTES;
	if (pos_bytes + zone_bytes > capacity_bytes)  /* runt last zone */
		*nr_sectors = (capacity_bytes - pos_bytes) / SECTOR_BYTES;
	return 0;
}

unsigned long zblk_linux_zone_ioctl(enum zl_zone_op op)
{
	switch (op) {
	case ZL_ZOP_RESET:
		return BLKRESETZONE;
#ifdef BLKOPENZONE
	case ZL_ZOP_OPEN:
		return BLKOPENZONE;
	case ZL_ZOP_CLOSE:
		return BLKCLOSEZONE;
	case ZL_ZOP_FINISH:
		return BLKFINISHZONE;
#endif
	default:
		return 0;
	}
}

static int zl_report(struct zblk *b, uint64_t pos_bytes, struct zblk_zone *out, uint32_t max)
{
	struct zblk_linux *zl = to_zl(b);
	struct blk_zone_report *rep;
	uint32_t i, n = max < REPORT_BATCH ? max : REPORT_BATCH;
	int ret;

	if (pos_bytes >= b->capacity_bytes || !max)
		return 0;
	rep = calloc(1, sizeof(*rep) + n * sizeof(struct blk_zone));
	if (!rep)
		return -ENOMEM;
	rep->sector = pos_bytes / SECTOR_BYTES;
	rep->nr_zones = n;
	if (ioctl(zl->fd, BLKREPORTZONE, rep) < 0) {
		ret = -errno;
		goto out_free;
	}
	for (i = 0; i < rep->nr_zones; i++) {
		const struct blk_zone *bz = &rep->zones[i];
		struct zblk_zone *z = &out[i];

		z->start_bytes = bz->start * SECTOR_BYTES;
		z->len_bytes = bz->len * SECTOR_BYTES;
#ifdef BLK_ZONE_REP_CAPACITY
		z->cap_bytes = (rep->flags & BLK_ZONE_REP_CAPACITY ? bz->capacity : bz->len) *
			       SECTOR_BYTES;
#else
		z->cap_bytes = z->len_bytes;
#endif
		/* kernel and ZBC codes are equal (zl_types.h) */
		z->type = bz->type;
		z->cond = bz->cond;
		z->wp_bytes = bz->type == ZL_ZONE_TYPE_CONV ? UINT64_MAX : bz->wp * SECTOR_BYTES;
	}
	ret = (int)rep->nr_zones;
out_free:
	free(rep);
	return ret;
}

static int zl_read(struct zblk *b, uint64_t pos_bytes, void *buf, uint64_t len_bytes)
{
	ssize_t n;

	if (!buf)
		buf = zblk_scratch_get(&to_zl(b)->scratch, len_bytes);
	if (!buf)
		return -ENOMEM;
	n = pread(to_zl(b)->fd, buf, len_bytes, (off_t)pos_bytes);
	if (n < 0)
		return -errno;
	return (uint64_t)n == len_bytes ? 0 : -EIO;
}

static int zl_write(struct zblk *b, uint64_t pos_bytes, const void *buf, uint64_t len_bytes)
{
	ssize_t n;

	if (!buf)
		buf = zblk_stamp(&to_zl(b)->scratch, pos_bytes, len_bytes);
	if (!buf)
		return -ENOMEM;
	n = pwrite(to_zl(b)->fd, buf, len_bytes, (off_t)pos_bytes);
	if (n < 0)
		return -errno;
	return (uint64_t)n == len_bytes ? 0 : -EIO;
}

static int zl_zone_mgmt(struct zblk *b, enum zl_zone_op op, uint64_t pos_bytes)
{
	struct blk_zone_range range;
	unsigned long req = zblk_linux_zone_ioctl(op);
	uint64_t sector, nr;
	int ret;

	if (!req)
		return -EOPNOTSUPP;
	ret = zblk_linux_zone_range(pos_bytes, b->zone_size_bytes, b->capacity_bytes,
				    &sector, &nr);
	if (ret)
		return ret;
	range.sector = sector;
	range.nr_sectors = nr;
	if (ioctl(to_zl(b)->fd, req, &range) < 0)
		return -errno;
	return 0;
}

static int zl_flush(struct zblk *b)
{
	return fdatasync(to_zl(b)->fd) ? -errno : 0;
}

static void zl_destroy(struct zblk *b)
{
	close(to_zl(b)->fd);
	zblk_scratch_fini(&to_zl(b)->scratch);
	free(to_zl(b));
}

static const struct zblk_ops zl_ops = {
	.report = zl_report,
	.read = zl_read,
	.write = zl_write,
	.zone_mgmt = zl_zone_mgmt,
	.flush = zl_flush,
	.append = NULL,
	.destroy = zl_destroy,
};

int zblk_linux_open(const char *path, struct zblk **out)
{
	struct zblk_linux *zl;
	struct stat st;
	uint64_t size;
	uint32_t zone_sectors = 0, nr_zones = 0;
	int fd, ret, lbs = SECTOR_BYTES;

	if (stat(path, &st))
		return -errno;
	if (!S_ISBLK(st.st_mode))
		return -ENOTBLK;
	fd = open(path, O_RDWR | O_DIRECT | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (ioctl(fd, BLKGETSIZE64, &size) < 0 || ioctl(fd, BLKSSZGET, &lbs) < 0) {
		ret = -errno;
		goto out_close;
	}
	if (ioctl(fd, BLKGETZONESZ, &zone_sectors) < 0) {
		ret = errno == ENOTTY || errno == EINVAL ? -EOPNOTSUPP : -errno;
		goto out_close;
	}
	if (!zone_sectors) {          /* a regular block device */
		ret = -EOPNOTSUPP;
		goto out_close;
	}
	if (ioctl(fd, BLKGETNRZONES, &nr_zones) < 0) {
		ret = -errno;
		goto out_close;
	}
	zl = calloc(1, sizeof(*zl));
	if (!zl) {
		ret = -ENOMEM;
		goto out_close;
	}
	zl->fd = fd;
	zl->b.ops = &zl_ops;
	zl->b.capacity_bytes = size;
	zl->b.zone_size_bytes = (uint64_t)zone_sectors * SECTOR_BYTES;
	zl->b.nr_zones = nr_zones;
	zl->b.block_bytes = (uint32_t)lbs;
	zl->b.zoned = true;
	zl->b.model = ZL_MODEL_HM;  /* the kernel does not report HA vs HM by ioctl */
	*out = &zl->b;
	return 0;

out_close:
	close(fd);
	return ret;
}
