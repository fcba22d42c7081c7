/*
 * zblk_zdev.c — the in-process zblk over a borrowed struct zdev.  Data-less:
 * buffers must be NULL; the zone rules of zdev are applied and the write
 * pointer moves, no byte is stored (a zdisk-backed zblk would store them).
 * What every backend shares is in zblk.c.  Not thread safe: the caller
 * serializes, as zdev requires.
 */
#include <errno.h>
#include <stdlib.h>

#include "zblk_int.h"
#include "zdev.h"

struct zblk_zdev {
	struct zblk b;     /* first: the zblk handle */
	struct zdev *dev;  /* borrowed */
};

static inline struct zblk_zdev *to_zz(struct zblk *b)
{
	return (struct zblk_zdev *)b;
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
	idx = zdev_zone_of(zz->dev, pos_bytes / b->block_bytes);
	for (; idx < nr && n < max; idx++, n++) {
		zdev_zone_get(zz->dev, idx, &zi);
		zblk_zone_from_info(&zi, b->block_bytes, &out[n]);
	}
	return (int)n;
}

static int zz_read(struct zblk *b, uint64_t pos_bytes, void *buf, uint64_t len_bytes)
{
	if (!zblk_is_aligned(b, pos_bytes, len_bytes))
		return -EINVAL;
	if (buf)
		return -EOPNOTSUPP;
	return zdev_read_check(to_zz(b)->dev, pos_bytes / b->block_bytes,
			       len_bytes / b->block_bytes);
}

static int zz_write(struct zblk *b, uint64_t pos_bytes, const void *buf, uint64_t len_bytes)
{
	struct zblk_zdev *zz = to_zz(b);
	uint64_t lba = pos_bytes / b->block_bytes, nr = len_bytes / b->block_bytes;
	int ret;

	if (!zblk_is_aligned(b, pos_bytes, len_bytes))
		return -EINVAL;
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
	if (!b->zoned)
		return -EOPNOTSUPP;
	if (pos_bytes % b->block_bytes)
		return -EINVAL;
	return zdev_zone_op(to_zz(b)->dev, op, pos_bytes / b->block_bytes, false);
}

static int zz_flush(struct zblk *b)
{
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
	.append = zblk_append_at_wp,
	.destroy = zz_destroy,
};

int zblk_zdev_create(struct zdev *d, bool zoned, struct zblk **out)
{
	struct zblk_zdev *zz;

	if (!d || !out)
		return -EINVAL;
	zz = calloc(1, sizeof(*zz));
	if (!zz)
		return -ENOMEM;
	zblk_init_zdev(&zz->b, &zz_ops, d, zoned);
	zz->dev = d;
	*out = &zz->b;
	return 0;
}
