/*
 * fsc_recover.c — recovery of a block group's allocation offset from the
 * write pointers of its zones at mount (RFC 008), per profile: SINGLE, DUP,
 * RAID1 (every present mirror agrees), RAID0 and RAID10 (the sum of the
 * data stripes, none ahead of the first), with the RFC's errors.  It reads
 * the zones and fills in the block group; it allocates nothing and takes no
 * zone out of the free pool (fsc_bg_load() in fsc_bg.c does both).
 */
#include <errno.h>

#include "fsc_int.h"

#define WP_MISSING UINT64_MAX

/**
 * fsc_bg_recover_offset() - the allocation offset of @bg from its zones'
 * write pointers (008).  A block group on conventional zones gets FIT
 * allocation.  Per profile: SINGLE/DUP/RAID1 - every present mirror agrees;
 * RAID0 - sum of the stripes, none missing, none ahead of stripe 0; RAID10 -
 * mirrors agree, then as RAID0.  An offline or read-only zone counts as a
 * missing mirror and makes the block group read-only.  Returns 0,
 * FSC_E_UNALIGNED_BG, FSC_E_MIXED_ZONES, FSC_E_WP_MISMATCH,
 * FSC_E_DEV_MISSING, FSC_E_ZONE_OFFLINE, FSC_E_RAID56, -EINVAL (a stripe
 * beyond its device) or a report error.  It reads the zones only: taking
 * them out of the free pool is fsc_bg_load()'s.
 */
int fsc_bg_recover_offset(struct fsc *fs, struct fsc_bg *bg)
{
	uint64_t off[FSC_MAX_STRIPES], zb = fs->zone_bytes;
	int reason[FSC_MAX_STRIPES];
	int type = -1, miss_err = FSC_E_DEV_MISSING;
	uint32_t i, j, nr = bg->nr_stripes, sub = bg->sub_stripes ? bg->sub_stripes : 1;
	struct zblk_zone z;
	int ret;

	if (!zb || bg->len_bytes % zb)
		return FSC_E_UNALIGNED_BG;
	for (i = 0; i < nr; i++) {
		struct fsc_dev *dev = &fs->devs[bg->stripes[i].dev];
		uint64_t phys = bg->stripes[i].phys;
		bool seq;

		reason[i] = 0;
		off[i] = WP_MISSING;
		if (bg->stripes[i].dev >= fs->nr_devs || !dev->blk) {
			reason[i] = FSC_E_DEV_MISSING;
			continue;
		}
		if (phys % zb)
			return FSC_E_UNALIGNED_BG;
		if (phys / zb >= dev->nr_zones)
			return -EINVAL;  /* beyond the device: not a chunk of it */
		seq = fsc_bit(dev->seq_bits, (uint32_t)(phys / zb));
		if (type == -1)
			type = seq ? FSC_ALLOC_SEQ : FSC_ALLOC_FIT;
		if (seq != (type == FSC_ALLOC_SEQ))
			return FSC_E_MIXED_ZONES;
		if (!seq)
			continue;
		ret = zblk_zone_get(dev->blk, phys, &z);
		if (ret == -EIO || ret == -EOPNOTSUPP) {
			reason[i] = FSC_E_DEV_MISSING;
			continue;
		}
		if (ret)
			return ret;
		switch (z.cond) {
		case ZL_COND_OFFLINE:
		case ZL_COND_READ_ONLY:
			reason[i] = FSC_E_ZONE_OFFLINE;
			bg->alloc_done = true;  /* degraded: no further writes */
			break;
		case ZL_COND_EMPTY:
			off[i] = 0;
			break;
		case ZL_COND_FULL:
			off[i] = zb;
			break;
		default:
			off[i] = z.wp_bytes - z.start_bytes;
			break;
		}
	}
	bg->alloc_type = type == FSC_ALLOC_FIT ? FSC_ALLOC_FIT : FSC_ALLOC_SEQ;
	if (type == FSC_ALLOC_FIT)
		return 0;
	for (i = 0; i < nr; i++)
		if (reason[i]) {
			miss_err = reason[i];
			break;
		}

	switch (bg->profile) {
	case FSC_SINGLE:
	case FSC_DUP:
	case FSC_RAID1:
		bg->alloc_offset = WP_MISSING;
		for (i = 0; i < nr; i++) {
			if (off[i] == WP_MISSING)
				continue;
			if (bg->alloc_offset == WP_MISSING)
				bg->alloc_offset = off[i];
			if (off[i] != bg->alloc_offset)
				return FSC_E_WP_MISMATCH;
		}
		if (bg->alloc_offset == WP_MISSING)
			return miss_err;
		break;
	case FSC_RAID0:
	case FSC_RAID10:
		/* pass 1: mirrors of each data stripe agree */
		for (i = 0; i < nr / sub; i++) {
			uint64_t o = WP_MISSING;

			for (j = 0; j < sub; j++) {
				uint64_t v = off[i * sub + j];

				if (v == WP_MISSING)
					continue;
				if (o == WP_MISSING)
					o = v;
				if (v != o)
					return FSC_E_WP_MISMATCH;
			}
			for (j = 0; j < sub; j++)
				off[i * sub + j] = o;
		}
		/* pass 2: data stripes; none may be ahead of the first */
		bg->alloc_offset = 0;
		for (i = 0; i < nr / sub; i++) {
			uint64_t v = off[i * sub];

			if (v == WP_MISSING)
				return miss_err;
			if (off[0] < v)
				return FSC_E_WP_MISMATCH;
			bg->alloc_offset += v;
		}
		break;
	default:
		return FSC_E_RAID56;
	}
	bg->submit_offset = bg->start + bg->alloc_offset;
	bg->used_bytes = bg->alloc_offset;  /* no extent tree: all written is live */
	if (bg->alloc_offset >= bg->len_bytes)
		bg->alloc_done = true;
	return 0;
}
