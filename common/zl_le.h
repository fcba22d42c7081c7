/*
 * zl_le.h — little-endian loads and stores of 16-, 32- and 64-bit values at
 * any byte address, independent of host byte order and alignment.  The
 * one codec for the byte layouts zonelab writes (image header, trace
 * header and records) and for the CRC-32C inner loop; written as plain
 * shifts so the compiler makes each a single load or store on a
 * little-endian host.  Dependency-free; no bounds checks: the caller owns
 * at least 2, 4 or 8 bytes at @p.
 */
#ifndef ZL_LE_H
#define ZL_LE_H

#include <stdint.h>

static inline void zl_put_le16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static inline void zl_put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static inline void zl_put_le64(uint8_t *p, uint64_t v)
{
	zl_put_le32(p, (uint32_t)v);
	zl_put_le32(p + 4, (uint32_t)(v >> 32));
}

static inline uint16_t zl_get_le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t zl_get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static inline uint64_t zl_get_le64(const uint8_t *p)
{
	return (uint64_t)zl_get_le32(p) | (uint64_t)zl_get_le32(p + 4) << 32;
}

#endif /* ZL_LE_H */
