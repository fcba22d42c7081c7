/*
 * zblk_zdisk.c — the zblk over a borrowed emulated disk (struct zdisk): the
 * same zone rules as zblk_zdev, plus a store that keeps the bytes (MEM, FILE
 * or NONE) and the seeded fault rules of docs/FAULTS.md, so fs-core meets
 * medium errors, torn writes and zones going offline or read-only.  fs-core
 * passes NULL buffers (it keeps no file data): a NULL write stores a stamp
 * block (each 4 KiB names its own byte offset) from a scratch buffer, a NULL
 * read reads into scratch.  The injected latency of the last command is kept
 * for the simulator (zblk_last_delay_ns()).  It is not a cache or a queue,
 * and it is not thread safe (one scratch buffer): the caller serializes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "zblk.h"
#include "zdisk.h"

#define REPORT_BATCH 64u
#define STAMP_BYTES 4096u

struct zblk_zdisk {
	struct zblk b;        /* first: the zblk handle */
	struct zdisk *disk;   /* borrowed */
	uint32_t lba_bytes;
	uint8_t *scratch;     /* NULL-buffer transfers */
	uint64_t scratch_bytes;
};

static inline struct zblk_zdisk *to_zk(struct zblk *b)
{
	return (struct zblk_zdisk *)b;
}

/* A scratch buffer of at least @len bytes; NULL on allocation failure. */
static uint8_t *scratch(struct zblk_zdisk *zk, uint64_t len)
{
	uint8_t *p;

	if (len <= zk->scratch_bytes)
		return zk->scratch;
	p = realloc(zk->scratch, len);
	if (!p)
		return NULL;
	memset(p + zk->scratch_bytes, 0, len - zk->scratch_bytes);
	zk->scratch = p;
	zk->scratch_bytes = len;
	return p;
}

/* Each 4 KiB of a NULL write starts with its device byte offset. */
static const void *stamp(struct zblk_zdisk *zk, uint64_t pos_bytes, uint64_t len)
{
	uint8_t *p = scratch(zk, len);
	uint64_t off, v;

	if (!p)
		return NULL;
	for (off = 0; off < len; off += STAMP_BYTES) {
		v = pos_bytes + off;
		memcpy(p + off, &v, len - off < sizeof(v) ? len - off : sizeof(v));
	}
	return p;
}

static int zk_check_range(struct zblk_zdisk *zk, uint64_t pos_bytes, uint64_t len_bytes)
{
	if (pos_bytes % zk->lba_bytes || len_bytes % zk->lba_bytes)
		return -EINVAL;
	return 0;
}

static void zk_io_done(struct zblk *b, const struct zdisk_io *io)
{
	b->last_delay_ns = io->delay_ns;
}

static int zk_report(struct zblk *b, uint64_t pos_bytes, struct zblk_zone *out, uint32_t max)
{
	struct zblk_zdisk *zk = to_zk(b);
	struct zl_zone_info zi[REPORT_BATCH];
	uint64_t lba = pos_bytes / zk->lba_bytes, next = 0;
	uint32_t n = 0;
	int got, i;

	if (pos_bytes >= b->capacity_bytes)
		return 0;
	while (n < max) {
		got = zdisk_report(zk->disk, lba, ZL_RO_ALL, zi,
				   max - n < REPORT_BATCH ? max - n : REPORT_BATCH, &next);
		if (got < 0)
			return got;
		for (i = 0; i < got; i++, n++) {
			out[n].start_bytes = zi[i].start_lba * zk->lba_bytes;
			out[n].len_bytes = zi[i].len_lba * zk->lba_bytes;
			out[n].cap_bytes = zi[i].cap_lba * zk->lba_bytes;
			out[n].wp_bytes = zi[i].wp_lba == ZL_WP_INVALID ? UINT64_MAX :
					  zi[i].wp_lba * zk->lba_bytes;
			out[n].type = zi[i].type;
			out[n].cond = zi[i].cond;
		}
		if (!got || next <= lba || next * zk->lba_bytes >= b->capacity_bytes)
			break;
		lba = next;
	}
	return (int)n;
}

static int zk_read(struct zblk *b, uint64_t pos_bytes, void *buf, uint64_t len_bytes)
{
	struct zblk_zdisk *zk = to_zk(b);
	struct zdisk_io io;
	int ret = zk_check_range(zk, pos_bytes, len_bytes);

	if (ret)
		return ret;
	if (!buf)
		buf = scratch(zk, len_bytes);
	if (!buf)
		return -ENOMEM;
	ret = zdisk_read(zk->disk, pos_bytes / zk->lba_bytes, len_bytes / zk->lba_bytes, buf, &io);
	zk_io_done(b, &io);
	return ret;
}

static int zk_write(struct zblk *b, uint64_t pos_bytes, const void *buf, uint64_t len_bytes)
{
	struct zblk_zdisk *zk = to_zk(b);
	struct zdisk_io io;
	int ret = zk_check_range(zk, pos_bytes, len_bytes);

	if (ret)
		return ret;
	if (!buf)
		buf = stamp(zk, pos_bytes, len_bytes);
	if (!buf)
		return -ENOMEM;
	ret = zdisk_write(zk->disk, pos_bytes / zk->lba_bytes, len_bytes / zk->lba_bytes, buf,
			  false, &io);
	zk_io_done(b, &io);
	return ret;
}

static int zk_zone_mgmt(struct zblk *b, enum zl_zone_op op, uint64_t pos_bytes)
{
	struct zblk_zdisk *zk = to_zk(b);
	struct zdisk_io io;
	int ret;

	if (pos_bytes % zk->lba_bytes)
		return -EINVAL;
	ret = zdisk_zone_op(zk->disk, op, pos_bytes / zk->lba_bytes, false, &io);
	zk_io_done(b, &io);
	return ret;
}

static int zk_flush(struct zblk *b)
{
	struct zdisk_io io;
	int ret = zdisk_flush(to_zk(b)->disk, &io);

	zk_io_done(b, &io);
	return ret;
}

/*
 * Zone append as the host sees it: the position is the write pointer at the
 * time of the command; the disk applies the write rules (and faults) there.
 * fs-core is single threaded, so nothing moves the pointer in between.
 */
static int zk_append(struct zblk *b, uint64_t zone_bytes, const void *buf, uint64_t len_bytes,
		     uint64_t *pos_bytes)
{
	struct zblk_zone z;
	int ret;

	ret = zblk_zone_get(b, zone_bytes, &z);
	if (ret)
		return ret;
	if (z.start_bytes != zone_bytes)
		return ZL_E_NOT_ZONE_START;
	if (z.wp_bytes == UINT64_MAX)
		return ZL_E_NOT_WP_ZONE;
	if (z.cond == ZL_COND_FULL)
		return ZL_E_ZONE_FULL;
	ret = zk_write(b, z.wp_bytes, buf, len_bytes);
	if (ret)
		return ret;
	*pos_bytes = z.wp_bytes;
	return 0;
}

static void zk_destroy(struct zblk *b)
{
	free(to_zk(b)->scratch);
	free(to_zk(b));
}

static const struct zblk_ops zk_ops = {
	.report = zk_report,
	.read = zk_read,
	.write = zk_write,
	.zone_mgmt = zk_zone_mgmt,
	.flush = zk_flush,
	.append = zk_append,
	.destroy = zk_destroy,
};

int zblk_zdisk_create(struct zdisk *disk, struct zblk **out)
{
	const struct zdev_cfg *g;
	struct zblk_zdisk *zk;

	if (!disk || !out)
		return -EINVAL;
	g = zdisk_geo(disk);
	zk = calloc(1, sizeof(*zk));
	if (!zk)
		return -ENOMEM;
	zk->disk = disk;
	zk->lba_bytes = g->lba_size;
	zk->b.ops = &zk_ops;
	zk->b.capacity_bytes = g->capacity_lba * g->lba_size;
	zk->b.block_bytes = g->lba_size;
	zk->b.zoned = true;
	zk->b.model = g->model;
	zk->b.zone_size_bytes = g->zone_size_lba * g->lba_size;
	zk->b.nr_zones = zdev_nr_zones(zdisk_zdev(disk));  /* fixed at open */
	*out = &zk->b;
	return 0;
}

struct zdisk *zblk_zdisk_of(struct zblk *b)
{
	return b && b->ops == &zk_ops ? to_zk(b)->disk : NULL;
}
