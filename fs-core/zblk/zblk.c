/*
 * zblk.c — what the zblk implementations share: the counting wrappers of
 * zblk.h (write, append, one-zone report, destroy) and the helpers of
 * zblk_int.h (geometry from a zone model, zone info in bytes, zone append
 * at the reported write pointer, stamp blocks, scratch buffers).  No device
 * is driven here: each backend (zblk_zdev.c, zblk_zdisk.c, zblk_linux.c)
 * only supplies its ops table.
 */
#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "zblk_int.h"
#include "zdev.h"

void zblk_destroy(struct zblk *b)
{
	if (b)
		b->ops->destroy(b);
}

/* Count a write or append that returned @ret; returns @ret. */
static int count_write(struct zblk *b, int ret, uint64_t len_bytes)
{
	if (ret) {
		b->nr_write_errors++;
		b->last_write_err = ret;
		return ret;
	}
	b->nr_writes++;
	b->write_bytes += len_bytes;
	return 0;
}

int zblk_write(struct zblk *b, uint64_t pos_bytes, const void *buf, uint64_t len_bytes)
{
	return count_write(b, b->ops->write(b, pos_bytes, buf, len_bytes), len_bytes);
}

int zblk_append(struct zblk *b, uint64_t zone_bytes, const void *buf, uint64_t len_bytes,
		uint64_t *pos_bytes)
{
	int ret;

	if (!b->ops->append)
		return -EOPNOTSUPP;
	ret = b->ops->append(b, zone_bytes, buf, len_bytes, pos_bytes);
	if (ret == -EOPNOTSUPP)
		return ret;  /* not a refusal: the device has no zone append */
	return count_write(b, ret, len_bytes);
}

int zblk_zone_get(struct zblk *b, uint64_t pos_bytes, struct zblk_zone *z)
{
	int ret = zblk_report(b, pos_bytes, z, 1);

	if (ret < 0)
		return ret;
	return ret == 1 ? 0 : -EIO;
}

void zblk_init_zdev(struct zblk *b, const struct zblk_ops *ops, const struct zdev *d,
		    bool zoned)
{
	const struct zdev_cfg *g = zdev_cfg(d);

	memset(b, 0, sizeof(*b));
	b->ops = ops;
	b->capacity_bytes = g->capacity_lba * g->lba_size;
	b->block_bytes = g->lba_size;
	b->zoned = zoned;
	b->model = g->model;
	if (zoned) {
		b->zone_size_bytes = g->zone_size_lba * g->lba_size;
		b->nr_zones = zdev_nr_zones(d);
	}
}

void zblk_zone_from_info(const struct zl_zone_info *zi, uint32_t lba_bytes, struct zblk_zone *z)
{
	z->start_bytes = zi->start_lba * lba_bytes;
	z->len_bytes = zi->len_lba * lba_bytes;
	z->cap_bytes = zi->cap_lba * lba_bytes;
	z->wp_bytes = zi->wp_lba == ZL_WP_INVALID ? UINT64_MAX : zi->wp_lba * lba_bytes;
	z->type = zi->type;
	z->cond = zi->cond;
}

int zblk_append_at_wp(struct zblk *b, uint64_t zone_bytes, const void *buf, uint64_t len_bytes,
		      uint64_t *pos_bytes)
{
	struct zblk_zone z;
	int ret;

	if (!b->zoned)
		return -EOPNOTSUPP;
	if (zone_bytes >= b->capacity_bytes)
		return ZL_E_LBA_RANGE;
	ret = zblk_zone_get(b, zone_bytes, &z);
	if (ret)
		return ret;
	if (z.start_bytes != zone_bytes)
		return ZL_E_NOT_ZONE_START;
	if (z.wp_bytes == UINT64_MAX)
		return ZL_E_NOT_WP_ZONE;
	if (z.cond == ZL_COND_FULL)
		return ZL_E_ZONE_FULL;
	ret = b->ops->write(b, z.wp_bytes, buf, len_bytes);
	if (ret)
		return ret;
	*pos_bytes = z.wp_bytes;
	return 0;
}

/* At least @len_bytes of @s; a new buffer starts zeroed (nothing dirty). */
static uint8_t *scratch_grow(struct zblk_scratch *s, uint64_t len_bytes)
{
	void *p;

	if (len_bytes <= s->len_bytes)
		return s->p;
	if (posix_memalign(&p, ZBLK_SCRATCH_ALIGN, len_bytes))
		return NULL;
	memset(p, 0, len_bytes);
	free(s->p);
	s->p = p;
	s->len_bytes = len_bytes;
	s->dirty_bytes = 0;
	return p;
}

uint8_t *zblk_scratch_get(struct zblk_scratch *s, uint64_t len_bytes)
{
	uint8_t *p = scratch_grow(s, len_bytes);

	/* the caller reads into it: stamps must not carry that data */
	if (p && len_bytes > s->dirty_bytes)
		s->dirty_bytes = len_bytes;
	return p;
}

void zblk_scratch_fini(struct zblk_scratch *s)
{
	free(s->p);
	s->p = NULL;
	s->len_bytes = 0;
	s->dirty_bytes = 0;
}

const void *zblk_stamp(struct zblk_scratch *s, uint64_t pos_bytes, uint64_t len_bytes)
{
	uint8_t *p = scratch_grow(s, len_bytes);
	uint64_t off, v;

	if (!p)
		return NULL;
	/* only the first 8 bytes of a block change from stamp to stamp: the
	 * rest stays zero unless a NULL read wrote there */
	if (s->dirty_bytes) {
		memset(p, 0, s->dirty_bytes);
		s->dirty_bytes = 0;
	}
	for (off = 0; off < len_bytes; off += ZBLK_STAMP_BYTES) {
		v = htole64(pos_bytes + off);
		memcpy(p + off, &v, len_bytes - off < sizeof(v) ? len_bytes - off : sizeof(v));
	}
	return p;
}
