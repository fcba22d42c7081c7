/*
 * zdev_pack.c — a zone's persistent state in one 64-bit word: zdev_zone_pack()
 * writes the write pointer, condition, attributes and type with a 16-bit
 * check of the zone index and the rest; zdev_zone_unpack() verifies a word
 * and restores the zone from it (open zones come back CLOSED or EMPTY, as
 * after a power cycle).  The bit layout is in docs/FORMAT.md.
 *
 * It neither stores words (zstore does) nor decides when (zdisk does); it
 * restores a zone through zdev_zone_restore() (zdev.c), so the condition
 * bitmaps and counters stay the state machine's.  A word that does not
 * describe a state the model can be in is ZL_E_CORRUPT, never guessed.
 */
#include "zdev_int.h"

#include <errno.h>

#define ZW_WP_BITS 40
#define ZW_WP_MASK ((1ull << ZW_WP_BITS) - 1)
#define ZW_COND_SHIFT 40
#define ZW_NON_SEQ (1ull << 44)
#define ZW_RESET_REC (1ull << 45)
#define ZW_TYPE_SHIFT 46
#define ZW_LOW_MASK ((1ull << 48) - 1)

static uint16_t zw_check(uint32_t idx, uint64_t low)
{
	uint64_t x = (low & ZW_LOW_MASK) ^ ((uint64_t)idx << 48) ^ ((uint64_t)idx >> 16);

	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	x ^= x >> 31;
	return (uint16_t)(x ^ (x >> 16) ^ (x >> 32) ^ (x >> 48));
}

uint64_t zdev_zone_pack(const struct zdev *d, uint32_t idx)
{
	const struct zdev_zone *z = &d->zones[idx];
	uint64_t w = (uint64_t)z->wp_off & ZW_WP_MASK;

	w |= (uint64_t)(z->cond & 0xf) << ZW_COND_SHIFT;
	if (z->flags & ZDEV_ZF_NON_SEQ)
		w |= ZW_NON_SEQ;
	if (z->flags & ZDEV_ZF_RESET_REC)
		w |= ZW_RESET_REC;
	w |= (uint64_t)(z->type == ZL_ZONE_TYPE_CONV ? 1 : 0) << ZW_TYPE_SHIFT;
	return w | ((uint64_t)zw_check(idx, w) << 48);
}

int zdev_zone_unpack(struct zdev *d, uint32_t idx, uint64_t word)
{
	struct zdev_zone *z;
	uint64_t low = word & ZW_LOW_MASK, wp;
	uint8_t cond, flags = 0;
	bool conv;

	if (idx >= d->nr_zones)
		return -EINVAL;
	z = &d->zones[idx];
	if (low == 0 || (uint16_t)(word >> 48) != zw_check(idx, low))
		return ZL_E_CORRUPT;
	wp = low & ZW_WP_MASK;
	cond = (low >> ZW_COND_SHIFT) & 0xf;
	conv = ((low >> ZW_TYPE_SHIFT) & 3) == 1;
	if (((low >> ZW_TYPE_SHIFT) & 3) > 1 || conv != (z->type == ZL_ZONE_TYPE_CONV))
		return ZL_E_CORRUPT;
	if (low & ZW_NON_SEQ)
		flags |= ZDEV_ZF_NON_SEQ;
	if (low & ZW_RESET_REC)
		flags |= ZDEV_ZF_RESET_REC;
	if (conv) {
		if (wp || flags || (cond != ZL_COND_NOT_WP && cond != ZL_COND_READ_ONLY &&
				    cond != ZL_COND_OFFLINE))
			return ZL_E_CORRUPT;
	} else {
		uint64_t cap = zdev_zone_cap(d, idx);

		if (wp > cap)
			return ZL_E_CORRUPT;
		switch (cond) {
		case ZL_COND_EMPTY:
			if (wp)
				return ZL_E_CORRUPT;
			break;
		case ZL_COND_IMP_OPEN:
		case ZL_COND_EXP_OPEN:
		case ZL_COND_CLOSED:
			/* Open zones come back closed, as after a power cycle. */
			if (wp >= cap)
				return ZL_E_CORRUPT;
			cond = wp ? ZL_COND_CLOSED : ZL_COND_EMPTY;
			break;
		case ZL_COND_FULL:
			if (wp != cap)
				return ZL_E_CORRUPT;
			break;
		case ZL_COND_READ_ONLY:
		case ZL_COND_OFFLINE:
			break;
		default:
			return ZL_E_CORRUPT;
		}
	}
	zdev_zone_restore(d, idx, (uint32_t)wp, flags, cond);
	return 0;
}
