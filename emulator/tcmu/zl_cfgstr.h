/*
 * zl_cfgstr.h — the zonelab cfgstring: the text a person types into
 * targetcli (or writes to configfs as dev_config) to describe an emulated
 * zoned disk, parsed into a struct zdisk_cfg.  Grammar and every key with
 * its default are in docs/CFGSTRING.md:
 *
 *   [zonelab/]<path>[?<key>=<value>[&<key>=<value>]...]
 *
 * The kernel splits configfs control writes at ',' and keeps 255 bytes of
 * dev_config, so the grammar uses no ','; fault rules write their ',' as '/'.
 *
 * Used by the tcmu-runner handler (check_config and open), the CLI and
 * tests.  Pure parsing plus one stat() of the path (to pick file or block
 * store); it opens nothing.
 */
#ifndef ZL_CFGSTR_H
#define ZL_CFGSTR_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "zdisk.h"
#include "zscsi.h"

#define ZL_CFGSTR_SUBTYPE "zonelab"
#define ZL_CFGSTR_KERNEL_MAX 255      /* TCMU_CONFIG_LEN - 1: what the kernel keeps */
#define ZL_CFGSTR_SOCK_MAX 108        /* sizeof(sockaddr_un.sun_path), with the NUL */

struct zl_cfgstr {
	struct zdisk_cfg disk;        /* ready for zdisk_open(); geo.capacity_lba set by zl_cfgstr_geometry() */
	enum zscsi_profile profile;
	char path[PATH_MAX];          /* disk.store.path points here */
	char faults[1024];            /* ';'-separated rules with ',' restored; disk.faults points here */
	bool force;                   /* reformat an existing image whose geometry differs */
	bool lba_given;               /* lba= was in the string (else hw_block_size decides) */
	bool geo_from_image;          /* geo=image: take the geometry recorded in the image */
	uint64_t zone_size_bytes;     /* zsize= */
	uint64_t zone_cap_bytes;      /* zcap= (0 = zone size) */
	uint64_t size_bytes;          /* size= (0 = the device size from configfs) */
	char ctl_path[ZL_CFGSTR_SOCK_MAX];  /* ctl=: control socket ("" = none) */
	char trace_path[PATH_MAX];    /* trace=: command trace file ("" = none) */
	char timing[ZSTORE_TIMING_MAX];  /* timing=: model text with ','; "" = the image's, "off" = none */
};

/**
 * zl_cfgstr_parse() - parse @s (with or without the "zonelab/" prefix).
 * Geometry that depends on the device size is completed later by
 * zl_cfgstr_geometry().  Every rejection names the key, the value and why
 * in @msg.  Returns 0 or -EINVAL.
 */
int zl_cfgstr_parse(const char *s, struct zl_cfgstr *out, char *msg, size_t msg_len);

/**
 * zl_cfgstr_geometry() - complete the geometry from the device: capacity =
 * size= or @dev_size_bytes; the logical block size must equal
 * @hw_block_size when that is not 0 (the kernel converts with it); sizes
 * must be multiples of the blocks; then zdev_cfg_check().
 * Returns 0 or -EINVAL / ZL_E_GEOMETRY with the reason in @msg.
 */
int zl_cfgstr_geometry(struct zl_cfgstr *c, uint64_t dev_size_bytes, uint32_t hw_block_size,
		       char *msg, size_t msg_len);

/* The keys, "size, zsize, ...", into @buf (truncated to @len); returns @buf. */
const char *zl_cfgstr_keys(char *buf, size_t len);

#endif /* ZL_CFGSTR_H */
