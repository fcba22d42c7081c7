/*
 * zstore_int.h — private to zstore: the image layout constants, the header
 * codec (zstore_hdr.c), the sparse memory backend (zstore_mem.c) and a few
 * introspection hooks for tests.  Nothing outside emulator/zstore*.c and
 * tests/unit/test_zstore.c includes this; the public contract is zstore.h
 * and the byte layout is docs/FORMAT.md.
 */
#ifndef ZSTORE_INT_H
#define ZSTORE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "zstore.h"

#define ZSTORE_MAGIC "ZONELAB"          /* 8 bytes with its NUL */
#define ZSTORE_MAGIC_LEN 8
#define ZSTORE_VERSION 1u
#define ZSTORE_HDR_SIZE 4096u
#define ZSTORE_TABLE_OFF 4096u          /* zone table right after the header */
#define ZSTORE_WORD_SIZE 8u
#define ZSTORE_DATA_ALIGN (1u << 20)    /* data area starts on a 1 MiB boundary */

/* Header field offsets (docs/FORMAT.md, "Header"). */
enum {
	ZH_MAGIC = 0,
	ZH_VERSION = 8,
	ZH_HDR_SIZE = 12,
	ZH_CRC = 16,
	ZH_FLAGS = 20,
	ZH_IMAGE_ID = 24,         /* 16 bytes */
	ZH_NR_ZONES = 40,
	ZH_WORD_SIZE = 44,
	ZH_TABLE_OFF = 48,
	ZH_TABLE_LEN = 56,
	ZH_DATA_OFF = 64,
	ZH_DATA_LEN = 72,
	ZH_LBA_SIZE = 128,
	ZH_PBLOCK_SIZE = 132,
	ZH_CAPACITY_LBA = 136,
	ZH_ZONE_SIZE_LBA = 144,
	ZH_ZONE_CAP_LBA = 152,
	ZH_GAP_ZONES = 160,
	ZH_URSWRZ = 161,
	ZH_MODEL = 162,
	ZH_NR_CONV_START = 164,
	ZH_MAX_OPEN = 168,
	ZH_MAX_ACTIVE = 172,
	ZH_NR_CONV_RANGES = 176,
	ZH_CONV_RANGES = 184,     /* ZDEV_MAX_CONV_RANGES x (first u32, count u32) */
	ZH_END = ZH_CONV_RANGES + ZDEV_MAX_CONV_RANGES * 8,
	/* optional device timing model text (ztime, "PRESET[,k=v]"), NUL-padded; all zero = none */
	ZH_TIMING = 3840,
	ZH_TIMING_LEN = ZSTORE_TIMING_MAX,
};

/* Where things are in an image of a given geometry; all in bytes. */
struct zstore_layout {
	uint32_t nr_zones;
	uint64_t table_off;
	uint64_t table_len;
	uint64_t data_off;
	uint64_t data_len;
	uint64_t image_len;       /* data_off + data_len: what the file/device must hold */
};

/* Layout of @geo; ZL_E_GEOMETRY (with a message) if it does not fit 64 bits. */
int zstore_layout_of(const struct zdev_cfg *geo, struct zstore_layout *l,
		     char *msg, size_t msg_len);

/* True if @buf (@len bytes of the image start) begins with the magic. */
bool zstore_hdr_has_magic(const void *buf, size_t len);

/* Store @text (NULL or "" = none) as the header's timing field and re-CRC the header. */
void zstore_hdr_set_timing(void *hdr, const char *text);
/* The header's timing field into @out (ZSTORE_TIMING_MAX bytes): 0, or ZL_E_CORRUPT if unterminated. */
int zstore_hdr_timing(const void *hdr, char *out);

/* Serialize a header into @hdr (ZSTORE_HDR_SIZE bytes), CRC included. */
void zstore_hdr_encode(void *hdr, const struct zdev_cfg *geo,
		       const struct zstore_layout *l, const uint8_t id[16]);

/*
 * Verify and decode the first @len bytes of an image (@len may be short for
 * a truncated file).  Fills @geo and @l.  Returns 0, ZL_E_BAD_MAGIC,
 * ZL_E_BAD_VERSION, ZL_E_BAD_CSUM, ZL_E_CORRUPT or ZL_E_GEOMETRY, with a
 * message naming @path.
 */
int zstore_hdr_decode(const void *hdr, size_t len, const char *path,
		      struct zdev_cfg *geo, struct zstore_layout *l,
		      char *msg, size_t msg_len);

/*
 * Compare the requested geometry @want with the image's @have.  Returns 0
 * or ZL_E_GEOMETRY_MISMATCH with a message naming the first differing
 * field and both values.  pblock_size 0 and zone_cap_lba 0 compare equal to
 * their defaults (lba_size, zone_size_lba).
 */
int zstore_geo_compare(const struct zdev_cfg *want, const struct zdev_cfg *have,
		       const char *path, char *msg, size_t msg_len);

/* Sparse memory: fixed-size chunks allocated on first write. */
#define ZSTORE_MEM_CHUNK_SHIFT 16                 /* 64 KiB chunks */
#define ZSTORE_MEM_LEAF_SHIFT 12                  /* 4096 chunk pointers per leaf */

struct zstore_mem;

int zstore_mem_create(uint64_t len_bytes, struct zstore_mem **out);
void zstore_mem_destroy(struct zstore_mem *m);
void zstore_mem_read(const struct zstore_mem *m, uint64_t off, uint64_t len, void *buf);
int zstore_mem_write(struct zstore_mem *m, uint64_t off, uint64_t len, const void *buf);
void zstore_mem_discard(struct zstore_mem *m, uint64_t off, uint64_t len);
/* Bytes of heap held (chunks, leaves, directory). */
size_t zstore_mem_held(const struct zstore_mem *m);

/* For tests: heap held by a MEM store's data (0 for other kinds). */
size_t zstore_mem_bytes(const struct zstore *s);

#endif /* ZSTORE_INT_H */
