/*
 * zblk_zdev.c — the in-process zblk over a borrowed struct zdev, plus the
 * ops-independent helpers of zblk.h.  Data-less: buffers must be NULL; the
 * zone rules of zdev are applied and the write pointer moves, no byte is
 * stored (a zdisk-backed zblk would store them).  Not thread safe: the
 * caller serializes, as zdev requires.
 */
#include <errno.h>
#include <stdlib.h>

#include "zblk.h"
#include "zdev.h"

struct zblk_zdev {
	struct zblk b;     /* first: the zblk handle */
	struct zdev *dev;  /* borrowed */
	uint32_t lba_bytes;
};

static inline struct zblk_zdev *to_zz(struct zblk *b)
{
	return (struct zblk_zdev *)b;
}

static void zone_from_info(const struct zl_zone_info *zi, uint32_t lba_bytes,
			   struct zblk_zone *z)
{
	z->start_bytes = zi->start_lba * lba_bytes;
	z->len_bytes = zi->len_lba * lba_bytes;
	z->cap_bytes = zi->cap_lba * lba_bytes;
	z->wp_bytes = zi->wp_lba == ZL_WP_INVALID ? UINT64_MAX : zi->wp_lba * lba_bytes;
	z->type = zi->type;
	z->cond = zi->cond;
}

static int zz_report(struct zblk *b, uint64_t pos_bytes, struct zblk_zone *out, uint32_t max)
{
	struct zblk_zdev *zz = to_zz(b);
	uint32_t idx, n = 0, nr = zdev_nr_zones(zz->dev);
	struct zl_zone_info zi;

	if (!b->zoned)
		return -EOPNOTSUPP;
	if (pos_bytes >= b->capacity_bytes)
		return 0;
	idx = zdev_zone_of(zz->dev, pos_bytes / zz->lba_bytes);
	for (; idx < nr && n < max; idx++, n++) {
		zdev_zone_get(zz->dev, idx, &zi);
		zone_from_info(&zi, zz->lba_bytes, &out[n]);
	}
	return (int)n;
}

static int zz_check_range(struct zblk_zdev *zz, uint64_t pos_bytes, uint64_t len_bytes)
{
	if (pos_bytes % zz->lba_bytes || len_bytes % zz->lba_bytes)
		return -EINVAL;
	return 0;
}

static int zz_read(struct zblk *b, uint64_t pos_bytes, void *buf, uint64_t len_bytes)
{
	struct zblk_zdev *zz = to_zz(b);
	int ret = zz_check_range(zz, pos_bytes, len_bytes);

	if (ret)
		return ret;
	if (buf)
		return -EOPNOTSUPP;
	return zdev_read_check(zz->dev, pos_bytes / zz->lba_bytes, len_bytes / zz->lba_bytes);
}

static int zz_write(struct zblk *b, uint64_t pos_bytes, const void *buf, uint64_t len_bytes)
{
	struct zblk_zdev *zz = to_zz(b);
	uint64_t lba = pos_bytes / zz->lba_bytes, nr = len_bytes / zz->lba_bytes;
	int ret = zz_check_range(zz, pos_bytes, len_bytes);

	if (ret)
		return ret;
	if (buf)
		return -EOPNOTSUPP;
	ret = zdev_write_check(zz->dev, lba, nr);
	if (ret)
		return ret;
	zdev_write_commit(zz->dev, lba, nr);
	return 0;
}

static int zz_zone_mgmt(struct zblk *b, enum zl_zone_op op, uint64_t pos_bytes)
{
	struct zblk_zdev *zz = to_zz(b);

	if (!b->zoned)
		return -EOPNOTSUPP;
	if (pos_bytes % zz->lba_bytes)
		return -EINVAL;
	return zdev_zone_op(zz->dev, op, pos_bytes / zz->lba_bytes, false);
}

static int zz_flush(struct zblk *b)
{
	return 0;
}

static int zz_append(struct zblk *b, uint64_t zone_bytes, const void *buf, uint64_t len_bytes,
		     uint64_t *pos_bytes)
{
	struct zblk_zdev *zz = to_zz(b);
	struct zl_zone_info zi;
	uint64_t zone_lba = zone_bytes / zz->lba_bytes;
	int ret;

	if (!b->zoned)
		return -EOPNOTSUPP;
	ret = zz_check_range(zz, zone_bytes, len_bytes);
	if (ret)
		return ret;
	if (zone_lba >= zdev_cfg(zz->dev)->capacity_lba)
		return ZL_E_LBA_RANGE;
	zdev_zone_get(zz->dev, zdev_zone_of(zz->dev, zone_lba), &zi);
	if (zi.start_lba != zone_lba)
		return ZL_E_NOT_ZONE_START;
	if (zi.wp_lba == ZL_WP_INVALID)
		return ZL_E_NOT_WP_ZONE;
	if (zi.cond == ZL_COND_FULL)
		return ZL_E_ZONE_FULL;
	ret = zz_write(b, zi.wp_lba * zz->lba_bytes, buf, len_bytes);
	if (ret)
		return ret;
	*pos_bytes = zi.wp_lba * zz->lba_bytes;
	return 0;
}

static void zz_destroy(struct zblk *b)
{
	free(to_zz(b));
}

static const struct zblk_ops zz_ops = {
	.report = zz_report,
	.read = zz_read,
	.write = zz_write,
	.zone_mgmt = zz_zone_mgmt,
	.flush = zz_flush,
	.append = zz_append,
	.destroy = zz_destroy,
};

int zblk_zdev_create(struct zdev *d, bool zoned, struct zblk **out)
{
	const struct zdev_cfg *cfg;
	struct zblk_zdev *zz;

	if (!d || !out)
		return -EINVAL;
	cfg = zdev_cfg(d);
	zz = calloc(1, sizeof(*zz));
	if (!zz)
		return -ENOMEM;
	zz->dev = d;
	zz->lba_bytes = cfg->lba_size;
	zz->b.ops = &zz_ops;
	zz->b.capacity_bytes = cfg->capacity_lba * cfg->lba_size;
	zz->b.block_bytes = cfg->lba_size;
	zz->b.zoned = zoned;
	zz->b.model = cfg->model;
	if (zoned) {
		zz->b.zone_size_bytes = cfg->zone_size_lba * cfg->lba_size;
		zz->b.nr_zones = zdev_nr_zones(d);
	}
	*out = &zz->b;
	return 0;
}

struct zdev *zblk_zdev_of(struct zblk *b)
{
	return b && b->ops == &zz_ops ? to_zz(b)->dev : NULL;
}

void zblk_destroy(struct zblk *b)
{
	if (b)
		b->ops->destroy(b);
}

int zblk_write(struct zblk *b, uint64_t pos_bytes, const void *buf, uint64_t len_bytes)
{
	int ret = b->ops->write(b, pos_bytes, buf, len_bytes);

	if (ret) {
		b->nr_write_errors++;
		b->last_write_err = ret;
		return ret;
	}
	b->nr_writes++;
	b->write_bytes += len_bytes;
	return 0;
}

int zblk_append(struct zblk *b, uint64_t zone_bytes, const void *buf, uint64_t len_bytes,
		uint64_t *pos_bytes)
{
	int ret;

	if (!b->ops->append)
		return -EOPNOTSUPP;
	ret = b->ops->append(b, zone_bytes, buf, len_bytes, pos_bytes);
	if (ret && ret != -EOPNOTSUPP) {
		b->nr_write_errors++;
		b->last_write_err = ret;
	}
	if (!ret) {
		b->nr_writes++;
		b->write_bytes += len_bytes;
	}
	return ret;
}

int zblk_zone_get(struct zblk *b, uint64_t pos_bytes, struct zblk_zone *z)
{
	int ret = zblk_report(b, pos_bytes, z, 1);

	if (ret < 0)
		return ret;
	return ret == 1 ? 0 : -EIO;
}
