/*
 * fsc_dev.c — fs-core's per-device zone information (seed 002), the
 * HMZONED mode checks (003), superblock placement in conventional zones only
 * (004) and, beyond the RFC, the superblock log on two sequential zones used
 * as a ring for devices without conventional zones; plus fsc_strerror().
 * It allocates no block groups (fsc_bg.c does, on chunks from fsc_chunk.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fsc_int.h"

#define REPORT_BATCH 4096u

/* Per FSC_E_* code: the stable name (JSON) and the text. */
static const struct { const char *name, *text; } fsc_errs[] = {
#define E(code, n, t) [code - FSC_E_BASE] = { n, t }
	E(FSC_E_ZONE_COUNT, "zone_count", "inconsistent number of zones"),
	E(FSC_E_ZONE_SIZE, "zone_size", "zoned devices must have equal zone sizes"),
	E(FSC_E_MIXED_DEVS, "mixed_devs", "zoned devices mixed with regular devices"),
	E(FSC_E_NO_ZONED_DEV, "no_zoned_dev", "HMZONED file system without zoned devices"),
	E(FSC_E_RAID56, "raid56", "HMZONED mode does not support RAID5/6"),
	E(FSC_E_UNALIGNED_BG, "unaligned_bg", "block group not aligned to the zone size"),
	E(FSC_E_MIXED_ZONES, "mixed_zones", "block group of mixed zone types"),
	E(FSC_E_WP_MISMATCH, "wp_mismatch", "zones' write pointer mismatch"),
	E(FSC_E_DEV_MISSING, "dev_missing", "cannot recover write pointer: device missing"),
	E(FSC_E_ZONE_OFFLINE, "zone_offline",
	  "cannot recover write pointer: offline/read-only zone"),
	E(FSC_E_SUBMIT_UNALIGNED, "submit_unaligned", "bio below the block group's submit offset"),
	E(FSC_E_EXPIRED, "expired", "bio submit buffer expired"),
	E(FSC_E_BAD_PROFILE, "bad_profile", "profile impossible with these devices"),
	E(FSC_E_REPLACE_RUNNING, "replace_running", "a device replace is already running"),
	E(FSC_E_NO_REPLACE, "no_replace", "no device replace is running"),
	E(FSC_E_TGT_SMALL, "target_small", "replace target is smaller than the source device"),
	E(FSC_E_TGT_ZONES, "target_zones",
	  "replace target's zones do not match the file system's (size or type)"),
	E(FSC_E_TGT_NOT_EMPTY, "target_not_empty", "replace target has written zones"),
	E(FSC_E_DATA_LOST, "data_lost", "live data lost: no surviving copy to rebuild from"),
	E(FSC_E_VERIFY, "verify", "data check failed: a live block is wrong or unreadable"),
#undef E
};
_Static_assert(sizeof(fsc_errs) / sizeof(fsc_errs[0]) == FSC_E_LAST - FSC_E_BASE,
	       "every FSC_E_* code has a name and a text");

static inline bool fsc_is_own_error(int err)
{
	return err > FSC_E_BASE && err < FSC_E_LAST;
}

const char *fsc_strerror(int err)
{
	if (fsc_is_own_error(err))
		return fsc_errs[err - FSC_E_BASE].text;
	return zl_strerror(err);
}

const char *fsc_errname(int err)
{
	if (fsc_is_own_error(err))
		return fsc_errs[err - FSC_E_BASE].name;
	if (err == -ENOSPC)
		return "enospc";
	return zl_errname(err);
}

/**
 * fsc_dev_zone_info() - zone size, zone count and the sequential / empty
 * zone bitmaps of @blk from REPORT ZONES (002).  A regular device gets
 * zone_bytes = 0 and no bitmaps.  Returns 0, -ENOMEM, a report error, or
 * FSC_E_ZONE_COUNT when the zones reported do not cover the capacity in
 * exactly capacity / zone size (rounded up) zones.
 */
int fsc_dev_zone_info(struct fsc_dev *dev, struct zblk *blk)
{
	struct zblk_zone *zones;
	uint64_t pos = 0, words;
	uint32_t n = 0, i;
	int ret = 0, got;

	memset(dev, 0, sizeof(*dev));
	dev->blk = blk;
	for (i = 0; i < FSC_NR_SB_MIRRORS; i++)
		dev->sb_pos[i] = FSC_NO_ADDR;
	if (!blk || !zblk_is_zoned(blk))
		return 0;
	dev->zone_bytes = blk->zone_size_bytes;
	if (!dev->zone_bytes)
		return FSC_E_ZONE_COUNT;
	dev->nr_zones = (uint32_t)((blk->capacity_bytes + dev->zone_bytes - 1) / dev->zone_bytes);
	words = (dev->nr_zones + 63) / 64;
	dev->seq_bits = calloc(words, 8);
	dev->empty_bits = calloc(words, 8);
	dev->used_bits = calloc(words, 8);
	dev->resets = calloc(dev->nr_zones, sizeof(*dev->resets));
	zones = malloc(REPORT_BATCH * sizeof(*zones));
	if (!dev->seq_bits || !dev->empty_bits || !dev->used_bits || !dev->resets || !zones ||
	    zbitmap_init(&dev->free_map, dev->nr_zones)) {
		ret = -ENOMEM;
		goto out_free;
	}
	while (pos < blk->capacity_bytes) {
		got = zblk_report(blk, pos, zones, REPORT_BATCH);
		if (got <= 0) {
			ret = got ? got : -EIO;
			goto out_free;
		}
		for (i = 0; i < (uint32_t)got; i++) {
			if (n >= dev->nr_zones) {
				ret = FSC_E_ZONE_COUNT;
				goto out_free;
			}
			if (zones[i].type == ZL_ZONE_TYPE_SWR)
				fsc_bit_set(dev->seq_bits, n);
			if (zones[i].cond == ZL_COND_EMPTY)
				fsc_bit_set(dev->empty_bits, n);
			pos = zones[i].start_bytes + zones[i].len_bytes;
			n++;
		}
	}
	if (n != dev->nr_zones)
		ret = FSC_E_ZONE_COUNT;
out_free:
	free(zones);
	if (ret) {
		fsc_dev_fini(dev);
		dev->blk = blk;
	}
	return ret;
}

void fsc_dev_fini(struct fsc_dev *dev)
{
	free(dev->seq_bits);
	free(dev->empty_bits);
	free(dev->used_bits);
	free(dev->resets);
	zbitmap_fini(&dev->free_map);
	dev->seq_bits = dev->empty_bits = dev->used_bits = NULL;
	dev->resets = NULL;
	dev->nr_zones = 0;
	dev->zone_bytes = 0;
}

static bool profile_is_raid56(enum fsc_profile p)
{
	return p == FSC_RAID5 || p == FSC_RAID6;
}

/**
 * fsc_check_mode() - the HMZONED mode checks (003): every zoned device has
 * the same zone size; no zoned device mixed with regular ones; an HMZONED
 * file system has zoned devices and a host-managed device requires HMZONED;
 * RAID5/6 refused; space cache and tree log turned off.
 * Returns 0, FSC_E_ZONE_SIZE, FSC_E_MIXED_DEVS, FSC_E_NO_ZONED_DEV,
 * FSC_E_RAID56 or -EINVAL (host-managed device without HMZONED).
 */
int fsc_check_mode(struct fsc *fs)
{
	uint32_t i, nr_zoned = 0, nr = 0;
	uint64_t zone_bytes = 0;

	fs->space_cache = fs->cfg.space_cache;
	fs->tree_log = fs->cfg.tree_log;
	for (i = 0; i < fs->nr_devs; i++) {
		struct zblk *b = fs->devs[i].blk;

		if (!b)
			continue;
		if (b->zoned && b->model == ZL_MODEL_HM && !fs->cfg.hmzoned)
			return -EINVAL;
		if (b->zoned && (b->model == ZL_MODEL_HM || fs->cfg.hmzoned)) {
			nr_zoned++;
			if (!zone_bytes)
				zone_bytes = b->zone_size_bytes;
			else if (b->zone_size_bytes != zone_bytes)
				return FSC_E_ZONE_SIZE;
		}
		nr++;
	}
	if (!fs->cfg.hmzoned)
		return 0;
	if (!nr_zoned)
		return FSC_E_NO_ZONED_DEV;
	if (nr_zoned != nr)
		return FSC_E_MIXED_DEVS;
	/* the hypothetical model (cfg.raid56_model) lets data be RAID5/6 */
	if ((profile_is_raid56(fs->cfg.data_profile) && !fs->cfg.raid56_model) ||
	    profile_is_raid56(fs->cfg.meta_profile))
		return FSC_E_RAID56;
	fs->zone_bytes = zone_bytes;
	/* a power of two: lookups shift instead of dividing */
	fs->zone_shift = zone_bytes && !(zone_bytes & (zone_bytes - 1)) ?
			 (uint32_t)__builtin_ctzll(zone_bytes) : 0;
	fs->space_cache = false;  /* not CoW: would rewrite in place */
	fs->tree_log = false;
	return 0;
}

/* btrfs's superblock mirror offsets: 64 KiB, 64 MiB, 256 GiB. */
static uint64_t sb_offset(int mirror)
{
	return mirror ? (16ULL * 1024) << (12 * mirror) : 64ULL * 1024;
}

int fsc_sb_layout(uint64_t zone_bytes, uint32_t nr_zones, uint32_t nr_conv)
{
	uint64_t cap = (uint64_t)nr_zones * zone_bytes;
	int m, nr = 0;

	if (!zone_bytes)
		return -EINVAL;
	for (m = 0; m < FSC_NR_SB_MIRRORS; m++) {
		uint64_t pos = sb_offset(m);

		if (pos + FSC_SB_BYTES > cap)
			break;
		if (pos / zone_bytes < nr_conv)
			nr++;
	}
	if (nr)
		return nr;
	return !nr_conv && nr_zones >= 3 ? 0 : -ENOSPC;
}

/**
 * fsc_sb_place() - choose the superblock locations of every device: the
 * fixed mirror offsets that fall in conventional zones (004), or, when a
 * zoned device has none (or cfg.sb_log), a log on its zones 0 and 1 used as
 * a ring.  The zones used are taken out of the device extent pool.
 * Returns 0 or -ENOSPC (no conventional copy and zones 0/1 not sequential).
 */
/*
 * Linux 6.1 keeps its chunks off the zone holding each regular superblock
 * copy, besides the log's zones (btrfs_find_allocatable_zones(): the
 * copies at 64 MiB and 256 GiB; the log zones of the other mirrors, at 512
 * GiB and 4 TiB, lie beyond small disks): is zone @z of @dev one?
 */
bool fsc_sb_copy_zone(const struct fsc *fs, const struct fsc_dev *dev, uint32_t z)
{
	int m;

	for (m = 1; fsc_reclaim_on(&fs->cfg.reclaim) && dev->sb_log && m < FSC_NR_SB_MIRRORS; m++)
		if (sb_offset(m) + FSC_SB_BYTES <= dev->blk->capacity_bytes &&
		    z == sb_offset(m) / dev->zone_bytes)
			return true;
	return false;
}

/*
 * The Linux modes with the superblock copies in conventional zones: the
 * kernel keeps its chunks off the first mirror's log zones (0 and 1) and
 * off the zone of every regular copy whatever the zones' type
 * (btrfs_find_allocatable_zones(): zoned.c:1063-1083 of 6.12, the same
 * loop at 1065-1085 of 6.1; sb_zone_number() puts mirror 0's log at zone
 * 0, the other mirrors' at 512 GiB and 4 TiB, beyond the disks here).
 * fs-core's placement above keeps only the zones its copies went to: zone
 * 1, and a copy's zone that is sequential, would take chunks.
 */
static void sb_zones_keep(struct fsc_dev *dev)
{
	int m;

	fsc_bit_set(dev->used_bits, 0);
	if (dev->nr_zones > 1)
		fsc_bit_set(dev->used_bits, 1);
	for (m = 1; m < FSC_NR_SB_MIRRORS; m++)
		if (sb_offset(m) + FSC_SB_BYTES <= dev->blk->capacity_bytes)
			fsc_bit_set(dev->used_bits, (uint32_t)(sb_offset(m) / dev->zone_bytes));
}

int fsc_sb_place_dev(struct fsc *fs, uint32_t d)
{
	struct fsc_dev *dev = &fs->devs[d];
	uint32_t z;
	int m, nr = 0;

	if (!dev->blk)
		return 0;
	for (m = 0; m < FSC_NR_SB_MIRRORS; m++) {
		uint64_t pos = sb_offset(m);

		if (pos + FSC_SB_BYTES > dev->blk->capacity_bytes)
			break;
		if (dev->zone_bytes) {
			z = (uint32_t)(pos / dev->zone_bytes);
			if (fs->cfg.sb_log || fsc_bit(dev->seq_bits, z))
				continue;  /* 004: not in a sequential zone */
			fsc_bit_set(dev->used_bits, z);
		}
		dev->sb_pos[m] = pos;
		nr++;
	}
	if (nr && dev->zone_bytes && fsc_reclaim_on(&fs->cfg.reclaim))
		sb_zones_keep(dev);
	if (nr || !dev->zone_bytes)
		return 0;
	if (dev->nr_zones < 3 || !fsc_bit(dev->seq_bits, 0) || !fsc_bit(dev->seq_bits, 1))
		return -ENOSPC;
	dev->sb_log = true;
	dev->sb_zone[0] = 0;
	dev->sb_zone[1] = 1;
	fsc_bit_set(dev->used_bits, 0);
	fsc_bit_set(dev->used_bits, 1);
	/* Linux 6.1 also keeps chunks off the zones of the other superblock
	 * copies */
	for (z = 2; z < dev->nr_zones; z++)
		if (fsc_sb_copy_zone(fs, dev, z))
			fsc_bit_set(dev->used_bits, z);
	return 0;
}

int fsc_sb_place(struct fsc *fs)
{
	uint32_t d;
	int ret;

	for (d = 0; d < fs->nr_devs; d++) {
		ret = fsc_sb_place_dev(fs, d);
		if (ret)
			return ret;
	}
	return 0;
}

/* No room for one more superblock copy in @z. */
static bool zone_is_full(const struct zblk_zone *z)
{
	return z->cond == ZL_COND_FULL || z->wp_bytes + FSC_SB_BYTES > z->start_bytes + z->cap_bytes;
}

static int sb_log_append(struct fsc *fs, struct fsc_dev *dev)
{
	struct zblk_zone z;
	uint64_t zpos = dev->sb_zone[dev->sb_cur] * dev->zone_bytes;
	int ret = zblk_zone_get(dev->blk, zpos, &z);

	if (ret)
		return ret;
	if (zone_is_full(&z)) {
		/* ring: reset the older zone and continue there */
		dev->sb_cur ^= 1;
		zpos = dev->sb_zone[dev->sb_cur] * dev->zone_bytes;
		ret = zblk_zone_get(dev->blk, zpos, &z);
		if (ret)
			return ret;
		if (z.cond != ZL_COND_EMPTY) {
			ret = zblk_zone_mgmt(dev->blk, ZL_ZOP_RESET, zpos);
			if (ret)
				return ret;
			fs->st.nr_zone_resets++;
			z.wp_bytes = z.start_bytes;
		}
	}
	return zblk_write(dev->blk, z.wp_bytes, NULL, FSC_SB_BYTES);
}

/**
 * fsc_sb_write() - write the superblock copies of every device (at commit).
 * Returns 0 or the first device error (all devices are tried).
 */
int fsc_sb_write(struct fsc *fs)
{
	uint32_t d;
	int m, ret, first = 0;

	fs->generation++;
	for (d = 0; d < fs->nr_devs; d++) {
		struct fsc_dev *dev = &fs->devs[d];

		if (!dev->blk)
			continue;
		if (dev->sb_log) {
			ret = sb_log_append(fs, dev);
			if (!ret)
				fs->st.dev_bytes[FSC_KIND_SB] += FSC_SB_BYTES;
			else if (!first)
				first = ret;
			continue;
		}
		for (m = 0; m < FSC_NR_SB_MIRRORS; m++) {
			if (dev->sb_pos[m] == FSC_NO_ADDR)
				continue;
			ret = zblk_write(dev->blk, dev->sb_pos[m], NULL, FSC_SB_BYTES);
			if (!ret)
				fs->st.dev_bytes[FSC_KIND_SB] += FSC_SB_BYTES;
			else if (!first)
				first = ret;
		}
	}
	return first;
}

static uint64_t zone_last_sb(const struct zblk_zone *z)
{
	if (z->cond == ZL_COND_FULL || z->wp_bytes == UINT64_MAX)
		return z->start_bytes + z->cap_bytes - FSC_SB_BYTES;
	return z->wp_bytes - FSC_SB_BYTES;
}

static bool zone_is_empty(const struct zblk_zone *z)
{
	return z->cond == ZL_COND_EMPTY || (z->cond != ZL_COND_FULL && z->wp_bytes == z->start_bytes);
}

/**
 * fsc_sb_log_locate() - the latest superblock of a two-zone log, from the
 * zones alone: the last block written in the zone in use (the one not full,
 * or the only non-empty one).  When both zones are full (crash between
 * filling one and resetting the other) both last blocks are candidates and
 * the caller compares their generations: *@alt_pos_bytes is set and 2 is
 * returned.  Returns 1 (one candidate), 2, -ENOENT (both empty) or -EIO
 * (both partially written: not a state the ring produces).
 */
int fsc_sb_log_locate(const struct zblk_zone *z0, const struct zblk_zone *z1,
		      uint64_t *pos_bytes, uint64_t *alt_pos_bytes)
{
	bool e0 = zone_is_empty(z0), e1 = zone_is_empty(z1);
	bool f0 = zone_is_full(z0), f1 = zone_is_full(z1);

	*alt_pos_bytes = FSC_NO_ADDR;
	if (e0 && e1)
		return -ENOENT;
	if (e1 || (!e0 && !f0 && f1)) {
		*pos_bytes = zone_last_sb(z0);
		return 1;
	}
	if (e0 || (!f1 && f0)) {
		*pos_bytes = zone_last_sb(z1);
		return 1;
	}
	if (f0 && f1) {
		*pos_bytes = zone_last_sb(z0);
		*alt_pos_bytes = zone_last_sb(z1);
		return 2;
	}
	return -EIO;
}
