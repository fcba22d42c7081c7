/*
 * zl_err.h — zonelab's error codes and the one strerror for them.
 *
 * Functions return 0 (or a count) on success and a negative value on error:
 * either -errno or one of the ZL_E_* codes below, which live in a reserved
 * range under -4096 so they never collide with errno.  The code keeps the
 * exact reason (an unaligned write is not a boundary violation is not a full
 * zone); zscsi translates each reason to sense data exactly once.
 */
#ifndef ZL_ERR_H
#define ZL_ERR_H

#include <stddef.h>

enum zl_err {
	ZL_E_BASE = -5000,

	/* zdev: zone rules (ZBC-2 sense noted for each) */
	ZL_E_LBA_RANGE,        /* LBA beyond capacity: 21h/00h */
	ZL_E_UNALIGNED,        /* write not at WP or not physical-block aligned: 21h/04h */
	ZL_E_WRITE_BOUNDARY,   /* write crosses a zone / zone-type / capacity boundary: 21h/05h */
	ZL_E_READ_INVALID,     /* read beyond WP with URSWRZ=0: 21h/06h */
	ZL_E_READ_CROSS_TYPE,  /* HM read spans conventional and sequential zones: 21h/06h (or 21h/07h by profile) */
	ZL_E_READ_BOUNDARY,    /* read spans SWR zones with URSWRZ=0: 21h/07h */
	ZL_E_GAP_ZONE,         /* access to a gap zone: 21h/09h */
	ZL_E_ZONE_FULL,        /* write to a FULL zone: 24h/00h */
	ZL_E_NO_RESOURCES,     /* max open / max active exceeded: 55h/0Eh */
	ZL_E_READ_ONLY,        /* write or zone op on a READ ONLY zone: 27h/08h */
	ZL_E_OFFLINE,          /* access to an OFFLINE zone: 2Ch/0Eh */
	ZL_E_NOT_ZONE_START,   /* zone op LBA is not a zone start: 24h/00h */
	ZL_E_NOT_WP_ZONE,      /* zone op on a conventional or gap zone: 24h/00h */
	ZL_E_GEOMETRY,         /* invalid geometry (message from zdev_cfg_check) */

	/* zstore: persistence */
	ZL_E_BAD_MAGIC,        /* not a zonelab image */
	ZL_E_BAD_VERSION,      /* format version not supported */
	ZL_E_BAD_CSUM,         /* metadata checksum mismatch */
	ZL_E_CORRUPT,          /* metadata inconsistent (bad zone record) */
	ZL_E_GEOMETRY_MISMATCH,/* image exists with a different geometry */
	ZL_E_TOO_SMALL,        /* backing device smaller than the geometry needs */

	/* zfault: injected faults */
	ZL_E_MEDIUM_READ,      /* unrecovered read error: 03h 11h/00h */
	ZL_E_MEDIUM_WRITE,     /* write error: 03h 0Ch/00h */
	ZL_E_TORN_WRITE,       /* only a prefix was stored: 03h 0Ch/00h */
	ZL_E_POWER_LOSS,       /* power lost; volatile state dropped */
	ZL_E_FAULT_SYNTAX,     /* fault rule text does not parse */

	ZL_E_LAST
};

/* Text for -errno or a ZL_E_* code. Never NULL; static storage. */
const char *zl_strerror(int err);

/* Short stable identifier ("unaligned", "zone_full"...) for JSON keys. */
const char *zl_errname(int err);

/* Format a message into @msg (may be NULL or @len 0: nothing is written). */
void zl_msgf(char *msg, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static inline int zl_is_own_error(int err)
{
	return err > ZL_E_BASE && err < ZL_E_LAST;
}

#endif /* ZL_ERR_H */
