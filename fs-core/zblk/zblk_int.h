/*
 * zblk_int.h — private to the zblk implementations (zblk_*.c): the pieces
 * every backend would otherwise write again: the handle's fields from a zone
 * model's geometry, zone info in LBAs -> bytes, the alignment check, zone
 * append emulated at the reported write pointer, stamp blocks and the
 * scratch buffer that NULL transfers use.  Not an interface: fs-core and the
 * simulator include zblk.h only.
 */
#ifndef ZBLK_INT_H
#define ZBLK_INT_H

#include "zblk.h"

struct zdev;
struct zl_zone_info;

#define ZBLK_STAMP_BYTES 4096u  /* a stamp block: its device byte offset, then zeros */
#define ZBLK_SCRATCH_ALIGN 4096u /* enough for O_DIRECT */

/* zblk_init_zdev() - @b's geometry from zone model @d (zoned or shown as
 * a regular device), ops = @ops, counters zero. */
void zblk_init_zdev(struct zblk *b, const struct zblk_ops *ops, const struct zdev *d,
		    bool zoned);

/* zblk_zone_from_info() - a zone of the model (LBAs of @lba_bytes) in bytes. */
void zblk_zone_from_info(const struct zl_zone_info *zi, uint32_t lba_bytes,
			 struct zblk_zone *z);

/* Transfers start and end on a logical block. */
static inline bool zblk_is_aligned(const struct zblk *b, uint64_t pos_bytes, uint64_t len_bytes)
{
	return !(pos_bytes % b->block_bytes) && !(len_bytes % b->block_bytes);
}

/**
 * zblk_append_at_wp() - zone append as the host sees it: the zone starting
 * at @zone_bytes is reported and @b's write op is issued at its write
 * pointer (fs-core is single threaded: nothing moves it in between).
 * Returns 0 (*@pos_bytes = where it went), -EOPNOTSUPP (a regular device),
 * ZL_E_LBA_RANGE, ZL_E_NOT_ZONE_START, ZL_E_NOT_WP_ZONE, ZL_E_ZONE_FULL, a
 * report error or the write's error.
 */
int zblk_append_at_wp(struct zblk *b, uint64_t zone_bytes, const void *buf, uint64_t len_bytes,
		      uint64_t *pos_bytes);

/*
 * A buffer for NULL transfers, grown on demand, ZBLK_SCRATCH_ALIGN aligned.
 * NULL reads and stamp blocks share it: @dirty_bytes is how much of it reads
 * may have overwritten, so that the next stamp zeroes that once instead of
 * zeroing every write.
 */
struct zblk_scratch {
	uint8_t *p;
	uint64_t len_bytes;
	uint64_t dirty_bytes;
};

/* zblk_scratch_get() - at least @len_bytes of scratch for the caller to
 * overwrite (a NULL read), or NULL (no memory). */
uint8_t *zblk_scratch_get(struct zblk_scratch *s, uint64_t len_bytes);
void zblk_scratch_fini(struct zblk_scratch *s);

/* zblk_stamp() - stamp blocks for @len_bytes at device offset @pos_bytes in
 * @s (each 4 KiB begins with its own offset, little endian, then zeros, even
 * after a NULL read used @s); NULL: no memory. */
const void *zblk_stamp(struct zblk_scratch *s, uint64_t pos_bytes, uint64_t len_bytes);

#endif /* ZBLK_INT_H */
