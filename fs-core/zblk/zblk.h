/*
 * zblk.h — the small block interface fs-core talks to: report zones, read,
 * write, zone management (open/close/finish/reset), flush and zone append,
 * as an ops table.  Everything here counts bytes; the implementations convert
 * to LBAs (zdev) or 512-byte sectors (the kernel ioctls).
 *
 * Three implementations: zblk_zdev (in process, over a borrowed struct zdev;
 * a NULL buffer means "data-less": the zone rules are applied, no byte is
 * stored), zblk_zdisk (over a borrowed emulated disk: a store that keeps the
 * bytes and fault rules; NULL buffers become stamp blocks) and zblk_linux (a
 * real zoned block device through BLKREPORTZONE, BLKRESETZONE, BLKOPENZONE,
 * BLKCLOSEZONE, BLKFINISHZONE; NULL buffers become stamp blocks too).  What
 * they share (the counting wrappers below, zone append at the write pointer,
 * stamp blocks) is in zblk.c / zblk_int.h.  zblk is not a scheduler, a cache
 * or a queue: every call is synchronous.
 */
#ifndef ZBLK_H
#define ZBLK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "zl_types.h"
#include "zl_err.h"

struct zdev;
struct zdisk;
struct zblk;

/* One zone, in bytes. */
struct zblk_zone {
	uint64_t start_bytes;
	uint64_t len_bytes;
	uint64_t cap_bytes;
	uint64_t wp_bytes;  /* absolute; UINT64_MAX for conventional zones */
	uint8_t type;       /* enum zl_zone_type */
	uint8_t cond;       /* enum zl_zone_cond */
};

struct zblk_ops {
	/* Fill up to @max zones starting with the zone holding @pos_bytes.
	 * Returns the number filled (0 at the end) or a negative error. */
	int (*report)(struct zblk *b, uint64_t pos_bytes, struct zblk_zone *out, uint32_t max);
	/* @buf may be NULL on data-less devices. */
	int (*read)(struct zblk *b, uint64_t pos_bytes, void *buf, uint64_t len_bytes);
	int (*write)(struct zblk *b, uint64_t pos_bytes, const void *buf, uint64_t len_bytes);
	/* @op on the zone starting at @pos_bytes. */
	int (*zone_mgmt)(struct zblk *b, enum zl_zone_op op, uint64_t pos_bytes);
	int (*flush)(struct zblk *b);
	/* Write at the write pointer of the zone starting at @zone_bytes; the
	 * position used is returned in *@pos_bytes. NULL = not supported. */
	int (*append)(struct zblk *b, uint64_t zone_bytes, const void *buf, uint64_t len_bytes,
		      uint64_t *pos_bytes);
	void (*destroy)(struct zblk *b);
};

/* Common part of every zblk. */
struct zblk {
	const struct zblk_ops *ops;
	uint64_t capacity_bytes;
	uint64_t zone_size_bytes;  /* 0 on a regular (not zoned) device */
	uint32_t nr_zones;         /* 0 on a regular device */
	uint32_t block_bytes;      /* logical block size */
	bool zoned;
	enum zl_model model;
	uint64_t nr_write_errors;  /* writes refused by the device, any reason */
	int last_write_err;        /* reason of the last refused write */
	uint64_t nr_writes;        /* writes (and appends) the device accepted */
	uint64_t write_bytes;      /* bytes of those */
	uint64_t nr_reads, read_bytes;  /* reads the device completed */
	uint64_t last_delay_ns;    /* injected latency of the last command (zblk_zdisk) */
};

static inline bool zblk_is_zoned(const struct zblk *b)
{
	return b->zoned;
}

/**
 * zblk_zdev_create() - a zblk over a borrowed zone model.
 * @d: the model (borrowed; must outlive the zblk).
 * @zoned: false presents the model as a regular device (no zones reported;
 *         for mixed-device checks), true as a zoned one.
 * @out: set on success; caller owns it (zblk_destroy()).
 * Returns 0 or -ENOMEM, -EINVAL.  Writes and reads take NULL buffers only
 * (data-less): the zone rules are applied, nothing is stored.
 */
int zblk_zdev_create(struct zdev *d, bool zoned, struct zblk **out);

/**
 * zblk_zdisk_create() - a zblk over a borrowed emulated disk (zdisk.h): its
 * store keeps the bytes, its fault rules fire, its statistics count.
 * @disk: borrowed; must outlive the zblk.  Open it with realtime = false
 *        for simulation (injected latency is reported in last_delay_ns,
 *        not slept).
 * @out: set on success; caller owns it (zblk_destroy()).
 * Returns 0 or -ENOMEM, -EINVAL.  NULL write buffers store stamp blocks
 * (every 4 KiB begins with its own device byte offset, little endian);
 * NULL read buffers read into a scratch buffer.  Device errors are zdisk's
 * (ZL_E_* zone reasons, ZL_E_MEDIUM_WRITE, ZL_E_TORN_WRITE, ZL_E_OFFLINE...).
 */
int zblk_zdisk_create(struct zdisk *disk, struct zblk **out);

/**
 * zblk_linux_open() - open a Linux zoned block device (O_RDWR | O_DIRECT).
 * Returns 0, -errno from open/ioctl, -ENOTBLK if @path is not a block
 * device, -EOPNOTSUPP if it is not zoned (BLKGETZONESZ says 0) or the kernel
 * has no zoned block support.  NULL buffers: stamp blocks (see
 * zblk_zdisk_create()); buffers given must suit O_DIRECT (4 KiB aligned).
 */
int zblk_linux_open(const char *path, struct zblk **out);

/*
 * Argument checks of the Linux implementation, exposed for unit tests:
 * byte range -> 512-byte sector range for the zone ioctls.  Returns 0, or
 * -EINVAL when @pos_bytes is not sector aligned or not a zone start of a
 * device with @zone_bytes zones, or beyond @capacity_bytes.
 */
int zblk_linux_zone_range(uint64_t pos_bytes, uint64_t zone_bytes, uint64_t capacity_bytes,
			  uint64_t *sector, uint64_t *nr_sectors);
/* ioctl request for a zone op, or 0 if the kernel headers lack it. */
unsigned long zblk_linux_zone_ioctl(enum zl_zone_op op);

void zblk_destroy(struct zblk *b);

static inline int zblk_report(struct zblk *b, uint64_t pos_bytes, struct zblk_zone *out,
			      uint32_t max)
{
	return b->ops->report(b, pos_bytes, out, max);
}

/* zblk_read() - read; counts completed reads. */
static inline int zblk_read(struct zblk *b, uint64_t pos_bytes, void *buf, uint64_t len_bytes)
{
	int ret = b->ops->read(b, pos_bytes, buf, len_bytes);

	if (!ret) {
		b->nr_reads++;
		b->read_bytes += len_bytes;
	}
	return ret;
}

/* zblk_write() - write; counts accepted writes and refused ones (nr_write_errors). */
int zblk_write(struct zblk *b, uint64_t pos_bytes, const void *buf, uint64_t len_bytes);

static inline int zblk_zone_mgmt(struct zblk *b, enum zl_zone_op op, uint64_t pos_bytes)
{
	return b->ops->zone_mgmt(b, op, pos_bytes);
}

static inline int zblk_flush(struct zblk *b)
{
	return b->ops->flush(b);
}

/* zblk_append() - zone append; -EOPNOTSUPP when the device has none. */
int zblk_append(struct zblk *b, uint64_t zone_bytes, const void *buf, uint64_t len_bytes,
		uint64_t *pos_bytes);

/* zblk_zone_get() - report one zone (the one holding @pos_bytes). */
int zblk_zone_get(struct zblk *b, uint64_t pos_bytes, struct zblk_zone *z);

#endif /* ZBLK_H */
