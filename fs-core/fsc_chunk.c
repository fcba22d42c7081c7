/*
 * fsc_chunk.c — chunks: where a block group lives on the devices.  The
 * free-zone pool of each device and device extents over empty zones only,
 * first zone skipped, stripe = one zone (007); the stripes of a new chunk
 * per profile (SINGLE, DUP, RAID1, RAID0, RAID10); the logical ->
 * (stripe, physical) map inside a block group.  Not here: the block group
 * itself (fsc_bg.c creates, loads and removes it), its table (fsc_bgtab.c),
 * write-pointer recovery (fsc_recover.c), allocation inside it (fsc_alloc.c).
 */
#include <errno.h>

#include "fsc_int.h"

enum fsc_profile fsc_profile_of(const struct fsc *fs, uint32_t type)
{
	return type == FSC_BG_DATA ? fs->cfg.data_profile : fs->cfg.meta_profile;
}

/* Zone @z of @dev goes into a device extent (out of the free pool if it was in). */
void fsc_zone_take(struct fsc_dev *dev, uint32_t z)
{
	if (fsc_zone_is_free(dev, z)) {
		dev->nr_free--;
		zbitmap_clear(&dev->free_map, z);
	}
	fsc_bit_set(dev->used_bits, z);
	fsc_bit_clear(dev->empty_bits, z);
}

/* Zone @z of @dev, empty (reset or never written), returns to the free pool. */
void fsc_zone_put(struct fsc_dev *dev, uint32_t z)
{
	fsc_bit_clear(dev->used_bits, z);
	fsc_bit_set(dev->empty_bits, z);
	dev->nr_free++;
	zbitmap_set(&dev->free_map, z);
}

/**
 * fsc_dev_extent_find() - reserve @nr_zones consecutive empty sequential
 * zones on device @d, never zone 0 (007: the first zone is skipped), and
 * return the extent's physical start.  Returns 0 or -ENOSPC.
 */
int fsc_dev_extent_find(struct fsc *fs, uint32_t d, uint32_t nr_zones, uint64_t *phys)
{
	struct fsc_dev *dev = &fs->devs[d];
	uint32_t tried, z, k, n = dev->nr_zones;

	if (!dev->blk || !dev->zone_bytes || dev->nr_free < nr_zones || n < 2)
		return -ENOSPC;
	z = dev->cursor < 1 ? 1 : dev->cursor;
	if (fs->cfg.resv_612)
		z = 1;  /* 6.12 mode: first fit from the device's start
			 * (find_free_dev_extent(), volumes.c:1855-1875; 6.1's too) */
	for (tried = 0; tried < n; tried++, z++) {
		/* the next free zone at or after @z (the free map: no scan of
		 * used zones), wrapping to zone 1 once */
		uint32_t next = z < n ? zbitmap_next(&dev->free_map, z) : ZBITMAP_NONE;

		if (next == ZBITMAP_NONE || next + nr_zones > n) {
			if (z == 1)
				return -ENOSPC;
			next = zbitmap_next(&dev->free_map, 1);
			if (next == ZBITMAP_NONE || next + nr_zones > n)
				return -ENOSPC;
		}
		z = next;
		for (k = 0; k < nr_zones && fsc_zone_is_free(dev, z + k); k++)
			;
		if (k < nr_zones)
			continue;
		for (k = 0; k < nr_zones; k++)
			fsc_zone_take(dev, z + k);
		dev->cursor = z + nr_zones;
		*phys = (uint64_t)z * dev->zone_bytes;
		return 0;
	}
	return -ENOSPC;
}

/* Devices sorted by free zones, most first (stable on the index). */
static uint32_t devs_by_free(const struct fsc *fs, uint32_t *order)
{
	uint32_t i, j, n = 0;

	for (i = 0; i < fs->nr_devs; i++) {
		if (!fs->devs[i].blk || !fs->devs[i].nr_free)
			continue;
		for (j = n; j > 0 && fs->devs[order[j - 1]].nr_free < fs->devs[i].nr_free; j--)
			order[j] = order[j - 1];
		order[j] = i;
		n++;
	}
	return n;
}

uint32_t fsc_profile_min_devs(enum fsc_profile p)
{
	switch (p) {
	case FSC_SINGLE:
	case FSC_DUP:
		return 1;
	case FSC_RAID1:
	case FSC_RAID0:
		return 2;
	case FSC_RAID10:
		return 4;
	case FSC_RAID5:  /* hypothetical (cfg.raid56_model): parity + 2 */
		return 3;
	case FSC_RAID6:
		return 4;
	default:
		return 0;
	}
}

/**
 * fsc_chunk_alloc() - the stripes of a new chunk for a block group of
 * @type, with the type's profile: one zone per stripe on the devices with
 * the most free zones (SINGLE: 1 device; DUP: 2 zones of 1 device; RAID1:
 * 2 devices; RAID0: every device with a free zone, at least 2; RAID10: an
 * even number >= 4), taken out of the free pool, in @st.  *@nr_out =
 * stripes, *@data_out = data stripes (the block group is zone size x data
 * stripes long: stripe size = zone size, 007).  Returns 0, -ENOSPC,
 * FSC_E_BAD_PROFILE or FSC_E_RAID56 (no zone taken then).
 */
int fsc_chunk_alloc(struct fsc *fs, uint32_t type, struct fsc_stripe *st, uint32_t *nr_out,
		    uint32_t *data_out)
{
	enum fsc_profile p = fsc_profile_of(fs, type);
	uint32_t order[FSC_MAX_DEVS], n = devs_by_free(fs, order), nr, data, i;
	int ret;

	switch (p) {
	case FSC_SINGLE:
		nr = 1;
		data = 1;
		break;
	case FSC_DUP:
		if (!n || fs->devs[order[0]].nr_free < 2)
			return -ENOSPC;
		nr = 2;
		data = 1;
		break;
	case FSC_RAID1:
		nr = 2;
		data = 1;
		break;
	case FSC_RAID0:
		nr = n;
		data = n;
		if (nr < 2)
			return fs->nr_devs < fsc_profile_min_devs(p) ? FSC_E_BAD_PROFILE : -ENOSPC;
		break;
	case FSC_RAID10:
		nr = n & ~1u;
		data = nr / 2;
		if (nr < 4)
			return fs->nr_devs < fsc_profile_min_devs(p) ? FSC_E_BAD_PROFILE : -ENOSPC;
		break;
	case FSC_RAID5:
	case FSC_RAID6:
		/* hypothetical (cfg.raid56_model): every device with a free
		 * zone, at least parity + 2 */
		if (!fs->cfg.raid56_model)
			return FSC_E_RAID56;
		nr = n;
		data = n - (p == FSC_RAID6 ? 2 : 1);
		if (nr < (p == FSC_RAID6 ? 4u : 3u))
			return fs->nr_devs < (p == FSC_RAID6 ? 4u : 3u) ? FSC_E_BAD_PROFILE : -ENOSPC;
		break;
	default:
		return FSC_E_RAID56;
	}
	if (p != FSC_DUP && n < nr)
		return fs->nr_devs < nr ? FSC_E_BAD_PROFILE : -ENOSPC;
	if (p == FSC_DUP && fs->cfg.resv_612) {
		/* 6.12 mode: both stripes in one hole of two empty zones
		 * (dev_extent_min = zone x dev_stripes, volumes.c:5321, one
		 * find_free_dev_extent() for both, volumes.c:5390-5398; 6.1's
		 * rule too, not modelled in its mode) */
		ret = fsc_dev_extent_find(fs, order[0], 2, &st[0].phys);
		if (ret)
			return ret;
		st[0].dev = st[1].dev = order[0];
		st[1].phys = st[0].phys + fs->devs[order[0]].zone_bytes;
		*nr_out = nr;
		*data_out = data;
		return 0;
	}
	for (i = 0; i < nr; i++) {
		st[i].dev = p == FSC_DUP ? order[0] : order[i];
		ret = fsc_dev_extent_find(fs, st[i].dev, 1, &st[i].phys);
		if (ret) {
			fsc_chunk_release(fs, st, i);
			return ret;
		}
	}
	*nr_out = nr;
	*data_out = data;
	return 0;
}

/* fsc_zones_unpend() - the zones of the block groups removed before this
 * commit return to the free pool (cfg.resv_612; fsc_bg.c's bg_remove()). */
void fsc_zones_unpend(struct fsc *fs)
{
	uint32_t i;

	for (i = 0; i + 1 < fs->nr_zpend; i += 2)
		fsc_zone_put(&fs->devs[fs->zpend[i]], fs->zpend[i + 1]);
	fs->nr_zpend = 0;
}

/* fsc_chunk_release() - the zones of @nr stripes return to the free pool. */
void fsc_chunk_release(struct fsc *fs, const struct fsc_stripe *st, uint32_t nr)
{
	while (nr-- > 0) {
		struct fsc_dev *dev = &fs->devs[st[nr].dev];

		fsc_zone_put(dev, (uint32_t)(st[nr].phys / dev->zone_bytes));
	}
}

/**
 * fsc_map_stripe() - map @off (bytes into @bg) to the first data stripe it
 * touches: *@idx = data stripe index (RAID5/6: the index of the stripe
 * itself, parity rotating), *@phys = offset inside the stripe's zone, *@run
 * = bytes until the stripe unit ends (at most @len).
 */
int fsc_map_stripe(const struct fsc_bg *bg, uint64_t off, uint64_t len, uint32_t *idx,
		   uint64_t *phys, uint64_t *run)
{
	uint32_t data = bg->nr_stripes / bg->sub_stripes;
	uint64_t row, in;

	if (fsc_bg_is_r56(bg)) {  /* the stripe itself: parity rotates */
		uint64_t full = fsc_r56_full(bg);

		row = off / full;
		in = off % full;
		*idx = fsc_r56_dstripe(bg, row, (uint32_t)(in / FSC_RAID0_STRIPE_BYTES));
		in %= FSC_RAID0_STRIPE_BYTES;
		*phys = row * FSC_RAID0_STRIPE_BYTES + in;
		*run = FSC_RAID0_STRIPE_BYTES - in;
		if (*run > len)
			*run = len;
		return 0;
	}
	if (bg->profile != FSC_RAID0 && bg->profile != FSC_RAID10) {
		*idx = 0;
		*phys = off;
		*run = len;
		return 0;
	}
	row = off / FSC_RAID0_STRIPE_BYTES;
	in = off % FSC_RAID0_STRIPE_BYTES;
	*idx = (uint32_t)(row % data);
	*phys = (row / data) * FSC_RAID0_STRIPE_BYTES + in;
	*run = FSC_RAID0_STRIPE_BYTES - in;
	if (*run > len)
		*run = len;
	return 0;
}
