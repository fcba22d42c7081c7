/*
 * zstore_hdr.c — the zonelab image header: layout computation, encoding,
 * verification and geometry comparison.  Pure byte work: every field is
 * serialized explicitly little-endian at the fixed offsets listed in
 * zstore_int.h and docs/FORMAT.md (never a memcpy of a C struct).  It does
 * no I/O; zstore.c reads and writes the bytes.
 */
#include "zstore_int.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "zl_crc.h"
#include "zl_le.h"

static inline uint64_t align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) / a * a;
}

int zstore_layout_of(const struct zdev_cfg *geo, struct zstore_layout *l,
		     char *msg, size_t msg_len)
{
	uint64_t nr_zones;

	if (!geo->zone_size_lba || !geo->lba_size || !geo->capacity_lba) {
		zl_msgf(msg, msg_len, "geometry has a zero lba_size, zone_size_lba or capacity_lba");
		return ZL_E_GEOMETRY;
	}
	nr_zones = geo->capacity_lba / geo->zone_size_lba +
		   !!(geo->capacity_lba % geo->zone_size_lba);
	if (nr_zones > UINT32_MAX) {
		zl_msgf(msg, msg_len, "geometry has %llu zones, more than %u",
			(unsigned long long)nr_zones, UINT32_MAX);
		return ZL_E_GEOMETRY;
	}
	/* Every byte offset of the image must fit an off_t (pread, mmap). */
	if (geo->capacity_lba > (uint64_t)INT64_MAX / geo->lba_size ||
	    geo->capacity_lba * geo->lba_size >
	    (uint64_t)INT64_MAX - 2 * ZSTORE_DATA_ALIGN - nr_zones * ZSTORE_WORD_SIZE) {
		zl_msgf(msg, msg_len,
			"capacity_lba %llu x lba_size %u does not fit a 63-bit file offset",
			(unsigned long long)geo->capacity_lba, geo->lba_size);
		return ZL_E_GEOMETRY;
	}
	l->nr_zones = (uint32_t)nr_zones;
	l->table_off = ZSTORE_TABLE_OFF;
	l->table_len = nr_zones * ZSTORE_WORD_SIZE;
	l->data_off = align_up(l->table_off + l->table_len, ZSTORE_DATA_ALIGN);
	l->data_len = geo->capacity_lba * geo->lba_size;
	l->image_len = l->data_off + l->data_len;
	return 0;
}

bool zstore_hdr_has_magic(const void *buf, size_t len)
{
	return len >= ZSTORE_MAGIC_LEN && !memcmp(buf, ZSTORE_MAGIC, ZSTORE_MAGIC_LEN);
}

static uint32_t hdr_crc(const uint8_t *hdr)
{
	static const uint8_t zero[4];
	uint32_t crc;

	crc = zl_crc32c(0, hdr, ZH_CRC);
	crc = zl_crc32c(crc, zero, sizeof(zero));
	return zl_crc32c(crc, hdr + ZH_CRC + 4, ZSTORE_HDR_SIZE - ZH_CRC - 4);
}

void zstore_hdr_encode(void *buf, const struct zdev_cfg *geo,
		       const struct zstore_layout *l, const uint8_t id[16])
{
	uint8_t *h = buf;

	memset(h, 0, ZSTORE_HDR_SIZE);
	memcpy(h + ZH_MAGIC, ZSTORE_MAGIC, ZSTORE_MAGIC_LEN);
	zl_put_le32(h + ZH_VERSION, ZSTORE_VERSION);
	zl_put_le32(h + ZH_HDR_SIZE, ZSTORE_HDR_SIZE);
	zl_put_le32(h + ZH_FLAGS, 0);
	memcpy(h + ZH_IMAGE_ID, id, 16);
	zl_put_le32(h + ZH_NR_ZONES, l->nr_zones);
	zl_put_le32(h + ZH_WORD_SIZE, ZSTORE_WORD_SIZE);
	zl_put_le64(h + ZH_TABLE_OFF, l->table_off);
	zl_put_le64(h + ZH_TABLE_LEN, l->table_len);
	zl_put_le64(h + ZH_DATA_OFF, l->data_off);
	zl_put_le64(h + ZH_DATA_LEN, l->data_len);

	zl_put_le32(h + ZH_LBA_SIZE, geo->lba_size);
	zl_put_le32(h + ZH_PBLOCK_SIZE, geo->pblock_size);
	zl_put_le64(h + ZH_CAPACITY_LBA, geo->capacity_lba);
	zl_put_le64(h + ZH_ZONE_SIZE_LBA, geo->zone_size_lba);
	zl_put_le64(h + ZH_ZONE_CAP_LBA, geo->zone_cap_lba);
	h[ZH_GAP_ZONES] = geo->gap_zones;
	h[ZH_URSWRZ] = geo->urswrz;
	h[ZH_MODEL] = (uint8_t)geo->model;
	zl_put_le32(h + ZH_NR_CONV_START, geo->nr_conv_start);
	zl_put_le32(h + ZH_MAX_OPEN, geo->max_open);
	zl_put_le32(h + ZH_MAX_ACTIVE, geo->max_active);
	zl_put_le32(h + ZH_NR_CONV_RANGES, geo->nr_conv_ranges);
	for (uint32_t i = 0; i < geo->nr_conv_ranges && i < ZDEV_MAX_CONV_RANGES; i++) {
		zl_put_le32(h + ZH_CONV_RANGES + 8 * i, geo->conv_ranges[i].first);
		zl_put_le32(h + ZH_CONV_RANGES + 8 * i + 4, geo->conv_ranges[i].count);
	}
	zl_put_le32(h + ZH_CRC, hdr_crc(h));
}

void zstore_hdr_set_timing(void *buf, const char *text)
{
	uint8_t *h = buf;
	size_t n = text ? strnlen(text, ZH_TIMING_LEN - 1) : 0;

	memset(h + ZH_TIMING, 0, ZH_TIMING_LEN);
	memcpy(h + ZH_TIMING, text ? text : "", n);
	zl_put_le32(h + ZH_CRC, hdr_crc(h));
}

int zstore_hdr_timing(const void *buf, char *out)
{
	const uint8_t *h = buf;

	if (!memchr(h + ZH_TIMING, 0, ZH_TIMING_LEN))
		return ZL_E_CORRUPT;
	memcpy(out, h + ZH_TIMING, ZH_TIMING_LEN);
	return 0;
}

/* Printable rendering of the first bytes of a foreign file, for messages. */
static void render_magic(const uint8_t *p, size_t len, char *out, size_t out_len)
{
	size_t o = 0;

	out[0] = '\0';
	for (size_t i = 0; i < len && i < ZSTORE_MAGIC_LEN && o + 5 < out_len; i++) {
		if (isprint(p[i]) && p[i] != '\\' && p[i] != '"')
			out[o++] = (char)p[i];
		else
			o += (size_t)snprintf(out + o, out_len - o, "\\x%02x", p[i]);
	}
	out[o] = '\0';
}

int zstore_hdr_decode(const void *buf, size_t len, const char *path,
		      struct zdev_cfg *geo, struct zstore_layout *l,
		      char *msg, size_t msg_len)
{
	const uint8_t *h = buf;
	struct zstore_layout want;
	uint32_t version, hdr_size, crc, calc;
	char why[256];
	int ret;

	if (len == 0) {
		zl_msgf(msg, msg_len, "not a zonelab image: %s is empty", path);
		return ZL_E_BAD_MAGIC;
	}
	if (!zstore_hdr_has_magic(h, len)) {
		char seen[48];

		render_magic(h, len, seen, sizeof(seen));
		zl_msgf(msg, msg_len,
			"not a zonelab image: %s (magic \"%s\", expected \"ZONELAB\\x00\")",
			path, seen);
		return ZL_E_BAD_MAGIC;
	}
	if (len < ZH_HDR_SIZE + 4) {
		zl_msgf(msg, msg_len, "%s: zonelab image truncated to %zu bytes, inside its header",
			path, len);
		return ZL_E_CORRUPT;
	}
	version = zl_get_le32(h + ZH_VERSION);
	if (version != ZSTORE_VERSION) {
		zl_msgf(msg, msg_len,
			"%s: zonelab image format version %u, this build reads version %u",
			path, version, ZSTORE_VERSION);
		return ZL_E_BAD_VERSION;
	}
	hdr_size = zl_get_le32(h + ZH_HDR_SIZE);
	if (hdr_size != ZSTORE_HDR_SIZE) {
		zl_msgf(msg, msg_len, "%s: header size %u, format version %u has %u",
			path, hdr_size, version, ZSTORE_HDR_SIZE);
		return ZL_E_CORRUPT;
	}
	if (len < ZSTORE_HDR_SIZE) {
		zl_msgf(msg, msg_len,
			"%s: zonelab image truncated to %zu bytes, inside its %u-byte header",
			path, len, ZSTORE_HDR_SIZE);
		return ZL_E_CORRUPT;
	}
	crc = zl_get_le32(h + ZH_CRC);
	calc = hdr_crc(h);
	if (crc != calc) {
		zl_msgf(msg, msg_len,
			"%s: header checksum mismatch (stored crc32c %08x, computed %08x): "
			"the header is damaged", path, crc, calc);
		return ZL_E_BAD_CSUM;
	}

	memset(geo, 0, sizeof(*geo));
	geo->lba_size = zl_get_le32(h + ZH_LBA_SIZE);
	geo->pblock_size = zl_get_le32(h + ZH_PBLOCK_SIZE);
	geo->capacity_lba = zl_get_le64(h + ZH_CAPACITY_LBA);
	geo->zone_size_lba = zl_get_le64(h + ZH_ZONE_SIZE_LBA);
	geo->zone_cap_lba = zl_get_le64(h + ZH_ZONE_CAP_LBA);
	geo->gap_zones = h[ZH_GAP_ZONES] != 0;
	geo->urswrz = h[ZH_URSWRZ] != 0;
	geo->model = (enum zl_model)h[ZH_MODEL];
	geo->nr_conv_start = zl_get_le32(h + ZH_NR_CONV_START);
	geo->max_open = zl_get_le32(h + ZH_MAX_OPEN);
	geo->max_active = zl_get_le32(h + ZH_MAX_ACTIVE);
	geo->nr_conv_ranges = zl_get_le32(h + ZH_NR_CONV_RANGES);
	if (geo->nr_conv_ranges > ZDEV_MAX_CONV_RANGES) {
		zl_msgf(msg, msg_len, "%s: header has %u conventional ranges, at most %u fit",
			path, geo->nr_conv_ranges, ZDEV_MAX_CONV_RANGES);
		return ZL_E_CORRUPT;
	}
	for (uint32_t i = 0; i < geo->nr_conv_ranges; i++) {
		geo->conv_ranges[i].first = zl_get_le32(h + ZH_CONV_RANGES + 8 * i);
		geo->conv_ranges[i].count = zl_get_le32(h + ZH_CONV_RANGES + 8 * i + 4);
	}

	why[0] = '\0';
	ret = zdev_cfg_check(geo, why, sizeof(why));
	if (ret == 0)
		ret = zstore_layout_of(geo, &want, why, sizeof(why));
	if (ret) {
		zl_msgf(msg, msg_len, "%s: the geometry stored in the header is invalid: %s",
			path, why);
		return ZL_E_GEOMETRY;
	}

	l->nr_zones = zl_get_le32(h + ZH_NR_ZONES);
	l->table_off = zl_get_le64(h + ZH_TABLE_OFF);
	l->table_len = zl_get_le64(h + ZH_TABLE_LEN);
	l->data_off = zl_get_le64(h + ZH_DATA_OFF);
	l->data_len = zl_get_le64(h + ZH_DATA_LEN);
	l->image_len = want.image_len;
#define CHECK_LAYOUT(field, name, stored, expect)					\
	do {										\
		if ((uint64_t)(stored) != (uint64_t)(expect)) {				\
			zl_msgf(msg, msg_len,						\
				"%s: header field %s is %llu, the geometry implies %llu",	\
				path, name, (unsigned long long)(stored),		\
				(unsigned long long)(expect));				\
			return ZL_E_CORRUPT;						\
		}									\
	} while (0)
	CHECK_LAYOUT(nr_zones, "nr_zones", l->nr_zones, want.nr_zones);
	CHECK_LAYOUT(word_size, "zone word size", zl_get_le32(h + ZH_WORD_SIZE), ZSTORE_WORD_SIZE);
	CHECK_LAYOUT(table_off, "zone table offset", l->table_off, want.table_off);
	CHECK_LAYOUT(table_len, "zone table length", l->table_len, want.table_len);
	CHECK_LAYOUT(data_off, "data offset", l->data_off, want.data_off);
	CHECK_LAYOUT(data_len, "data length", l->data_len, want.data_len);
#undef CHECK_LAYOUT
	return 0;
}

int zstore_geo_compare(const struct zdev_cfg *want, const struct zdev_cfg *have,
		       const char *path, char *msg, size_t msg_len)
{
	const char *field = NULL;
	unsigned long long w = 0, h = 0;
	char name[48];

#define GEO_FIELD(fname, wv, hv)					\
	do {								\
		if (!field && (uint64_t)(wv) != (uint64_t)(hv)) {	\
			field = fname;					\
			w = (unsigned long long)(wv);			\
			h = (unsigned long long)(hv);			\
		}							\
	} while (0)
	GEO_FIELD("lba_size", want->lba_size, have->lba_size);
	GEO_FIELD("pblock_size",
		  want->pblock_size ? want->pblock_size : want->lba_size,
		  have->pblock_size ? have->pblock_size : have->lba_size);
	GEO_FIELD("capacity_lba", want->capacity_lba, have->capacity_lba);
	GEO_FIELD("zone_size_lba", want->zone_size_lba, have->zone_size_lba);
	GEO_FIELD("zone_cap_lba",
		  want->zone_cap_lba ? want->zone_cap_lba : want->zone_size_lba,
		  have->zone_cap_lba ? have->zone_cap_lba : have->zone_size_lba);
	GEO_FIELD("gap_zones", want->gap_zones, have->gap_zones);
	GEO_FIELD("nr_conv_start", want->nr_conv_start, have->nr_conv_start);
	GEO_FIELD("nr_conv_ranges", want->nr_conv_ranges, have->nr_conv_ranges);
	for (uint32_t i = 0; !field && i < want->nr_conv_ranges && i < ZDEV_MAX_CONV_RANGES; i++) {
		GEO_FIELD("conv_ranges[].first", want->conv_ranges[i].first,
			  have->conv_ranges[i].first);
		GEO_FIELD("conv_ranges[].count", want->conv_ranges[i].count,
			  have->conv_ranges[i].count);
		if (field) {
			snprintf(name, sizeof(name), "conv_ranges[%u].%s", i,
				 strchr(field, '.') + 1);
			field = name;
		}
	}
	GEO_FIELD("model", want->model, have->model);
	GEO_FIELD("max_open", want->max_open, have->max_open);
	GEO_FIELD("max_active", want->max_active, have->max_active);
	GEO_FIELD("urswrz", want->urswrz, have->urswrz);
#undef GEO_FIELD
	if (!field)
		return 0;
	zl_msgf(msg, msg_len,
		"%s: geometry mismatch: %s is %llu in the image but %llu was requested; "
		"not reformatted.  Use the image's geometry (cfgstring geo=image, or no "
		"geometry options to zonelab disk), or reformat deliberately, erasing the "
		"image (cfgstring force=1, zonelab disk create --force)",
		path, field, h, w);
	return ZL_E_GEOMETRY_MISMATCH;
}
