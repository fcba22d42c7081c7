/*
 * zl_err.c — text and stable names for zonelab's error codes (zl_err.h) and
 * for -errno, so that one zl_strerror() serves every layer.  This file only
 * names errors; translating a reason to SCSI sense is zscsi's job.
 */
#include "zl_err.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

struct zl_err_text {
	const char *name;   /* stable identifier, snake_case */
	const char *text;   /* one-line human text */
};

/* Values at or below this are zonelab's reserved range, never -errno. */
#define ZL_ERR_RESERVED (-4096)
#define ZL_ERR_IDX(e) ((e) - ZL_E_BASE - 1)

static const struct zl_err_text zl_err_tab[ZL_E_LAST - ZL_E_BASE - 1] = {
	[ZL_ERR_IDX(ZL_E_LBA_RANGE)] = { "lba_range", "LBA out of range" },
	[ZL_ERR_IDX(ZL_E_UNALIGNED)] = { "unaligned",
		"unaligned write (not at the write pointer or not physical-block aligned)" },
	[ZL_ERR_IDX(ZL_E_WRITE_BOUNDARY)] = { "write_boundary",
		"write crosses a zone boundary" },
	[ZL_ERR_IDX(ZL_E_READ_INVALID)] = { "read_invalid",
		"read beyond the write pointer" },
	[ZL_ERR_IDX(ZL_E_READ_CROSS_TYPE)] = { "read_cross_type",
		"read spans conventional and sequential zones" },
	[ZL_ERR_IDX(ZL_E_READ_BOUNDARY)] = { "read_boundary",
		"read crosses a sequential zone boundary" },
	[ZL_ERR_IDX(ZL_E_GAP_ZONE)] = { "gap_zone", "access to a gap zone" },
	[ZL_ERR_IDX(ZL_E_ZONE_FULL)] = { "zone_full", "zone is full" },
	[ZL_ERR_IDX(ZL_E_NO_RESOURCES)] = { "no_resources",
		"too many open or active zones" },
	[ZL_ERR_IDX(ZL_E_READ_ONLY)] = { "read_only", "zone is read-only" },
	[ZL_ERR_IDX(ZL_E_OFFLINE)] = { "offline", "zone is offline" },
	[ZL_ERR_IDX(ZL_E_NOT_ZONE_START)] = { "not_zone_start",
		"LBA is not the start of a zone" },
	[ZL_ERR_IDX(ZL_E_NOT_WP_ZONE)] = { "not_wp_zone",
		"zone has no write pointer (conventional or gap zone)" },
	[ZL_ERR_IDX(ZL_E_GEOMETRY)] = { "geometry", "invalid geometry" },
	[ZL_ERR_IDX(ZL_E_BAD_MAGIC)] = { "bad_magic", "not a zonelab image" },
	[ZL_ERR_IDX(ZL_E_BAD_VERSION)] = { "bad_version",
		"unsupported zonelab image format version" },
	[ZL_ERR_IDX(ZL_E_BAD_CSUM)] = { "bad_csum", "metadata checksum mismatch" },
	[ZL_ERR_IDX(ZL_E_CORRUPT)] = { "corrupt", "metadata is inconsistent" },
	[ZL_ERR_IDX(ZL_E_GEOMETRY_MISMATCH)] = { "geometry_mismatch",
		"image exists with a different geometry" },
	[ZL_ERR_IDX(ZL_E_TOO_SMALL)] = { "too_small",
		"backing store is smaller than the geometry needs" },
	[ZL_ERR_IDX(ZL_E_MEDIUM_READ)] = { "medium_read", "unrecovered read error" },
	[ZL_ERR_IDX(ZL_E_MEDIUM_WRITE)] = { "medium_write", "write error" },
	[ZL_ERR_IDX(ZL_E_TORN_WRITE)] = { "torn_write",
		"torn write: only a prefix was stored" },
	[ZL_ERR_IDX(ZL_E_POWER_LOSS)] = { "power_loss", "power lost" },
	[ZL_ERR_IDX(ZL_E_FAULT_SYNTAX)] = { "fault_syntax",
		"fault rule syntax error" },
};

static const struct zl_err_text *own_entry(int err)
{
	const struct zl_err_text *e;

	if (!zl_is_own_error(err))
		return NULL;
	e = &zl_err_tab[ZL_ERR_IDX(err)];
	return e->name ? e : NULL;
}

const char *zl_strerror(int err)
{
	const struct zl_err_text *e = own_entry(err);
	const char *s;

	if (e)
		return e->text;
	if (err == 0)
		return "success";
	if (err <= ZL_ERR_RESERVED)
		return "unknown zonelab error";
	/* strerrordesc_np: static text, no "Unknown error N" buffer (glibc >= 2.32). */
	s = strerrordesc_np(err < 0 ? -err : err);
	return s ? s : "unknown error";
}

const char *zl_errname(int err)
{
	const struct zl_err_text *e = own_entry(err);
	const char *s;

	if (e)
		return e->name;
	if (err == 0)
		return "ok";
	if (err <= ZL_ERR_RESERVED)
		return "unknown";
	s = strerrorname_np(err < 0 ? -err : err);   /* "EIO", "ENOSPC"... */
	return s ? s : "unknown";
}

void zl_msgf(char *msg, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!msg || !len)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, len, fmt, ap);
	va_end(ap);
}
