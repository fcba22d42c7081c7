/*
 * zblk_zdisk.c — the zblk over a borrowed emulated disk (struct zdisk): the
 * same zone rules as zblk_zdev, plus a store that keeps the bytes (MEM, FILE
 * or NONE) and the seeded fault rules of docs/FAULTS.md, so fs-core meets
 * medium errors, torn writes and zones going offline or read-only.  fs-core
 * passes NULL buffers (it keeps no file data): a NULL write stores stamp
 * blocks, a NULL read reads into scratch (zblk.c).  The injected latency of
 * the last command is kept for the simulator (last_delay_ns).  It is not a
 * cache or a queue, and it is not thread safe (one scratch buffer): the
 * caller serializes.
 */
#include <errno.h>
#include <stdlib.h>

#include "zblk_int.h"
#include "zdisk.h"

#define REPORT_BATCH 64u

struct zblk_zdisk {
	struct zblk b;        /* first: the zblk handle */
	struct zdisk *disk;   /* borrowed */
	struct zblk_scratch scratch;  /* NULL-buffer transfers */
};

static inline struct zblk_zdisk *to_zk(struct zblk *b)
{
	return (struct zblk_zdisk *)b;
}

static void zk_io_done(struct zblk *b, const struct zdisk_io *io)
{
	b->last_delay_ns = io->delay_ns;
}

static int zk_report(struct zblk *b, uint64_t pos_bytes, struct zblk_zone *out, uint32_t max)
{
	struct zblk_zdisk *zk = to_zk(b);
	struct zl_zone_info zi[REPORT_BATCH];
	uint64_t lba = pos_bytes / b->block_bytes, next = 0;
	uint32_t n = 0;
	int got, i;

	if (pos_bytes >= b->capacity_bytes)
		return 0;
	while (n < max) {
		got = zdisk_report(zk->disk, lba, ZL_RO_ALL, zi,
				   max - n < REPORT_BATCH ? max - n : REPORT_BATCH, &next);
		if (got < 0)
			return got;
		for (i = 0; i < got; i++, n++)
			zblk_zone_from_info(&zi[i], b->block_bytes, &out[n]);
		if (!got || next <= lba || next * b->block_bytes >= b->capacity_bytes)
			break;
		lba = next;
	}
	return (int)n;
}

static int zk_read(struct zblk *b, uint64_t pos_bytes, void *buf, uint64_t len_bytes)
{
	struct zblk_zdisk *zk = to_zk(b);
	struct zdisk_io io;
	int ret;

	if (!zblk_is_aligned(b, pos_bytes, len_bytes))
		return -EINVAL;
	if (!buf)
		buf = zblk_scratch_get(&zk->scratch, len_bytes);
	if (!buf)
		return -ENOMEM;
	ret = zdisk_read(zk->disk, pos_bytes / b->block_bytes, len_bytes / b->block_bytes, buf,
			 &io);
	zk_io_done(b, &io);
	return ret;
}

static int zk_write(struct zblk *b, uint64_t pos_bytes, const void *buf, uint64_t len_bytes)
{
	struct zblk_zdisk *zk = to_zk(b);
	struct zdisk_io io;
	int ret;

	if (!zblk_is_aligned(b, pos_bytes, len_bytes))
		return -EINVAL;
	if (!buf)
		buf = zblk_stamp(&zk->scratch, pos_bytes, len_bytes);
	if (!buf)
		return -ENOMEM;
	ret = zdisk_write(zk->disk, pos_bytes / b->block_bytes, len_bytes / b->block_bytes, buf,
			  false, &io);
	zk_io_done(b, &io);
	return ret;
}

static int zk_zone_mgmt(struct zblk *b, enum zl_zone_op op, uint64_t pos_bytes)
{
	struct zdisk_io io;
	int ret;

	if (pos_bytes % b->block_bytes)
		return -EINVAL;
	ret = zdisk_zone_op(to_zk(b)->disk, op, pos_bytes / b->block_bytes, false, &io);
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

static void zk_destroy(struct zblk *b)
{
	zblk_scratch_fini(&to_zk(b)->scratch);
	free(to_zk(b));
}

static const struct zblk_ops zk_ops = {
	.report = zk_report,
	.read = zk_read,
	.write = zk_write,
	.zone_mgmt = zk_zone_mgmt,
	.flush = zk_flush,
	.append = zblk_append_at_wp,  /* the disk applies write rules and faults there */
	.destroy = zk_destroy,
};

int zblk_zdisk_create(struct zdisk *disk, struct zblk **out)
{
	struct zblk_zdisk *zk;

	if (!disk || !out)
		return -EINVAL;
	zk = calloc(1, sizeof(*zk));
	if (!zk)
		return -ENOMEM;
	zblk_init_zdev(&zk->b, &zk_ops, zdisk_zdev(disk), true);  /* zone count fixed at open */
	zk->disk = disk;
	*out = &zk->b;
	return 0;
}
