/*
 * zl_be.h — big-endian loads and stores of 16-, 24-, 32- and 64-bit values
 * at any byte address: the byte order of SCSI (CDB fields, parameter and
 * returned data).  The counterpart of zl_le.h.  Each 16/32/64-bit access is
 * one unaligned load or store and a byte swap on a little-endian host
 * (memcpy + __builtin_bswap: the compiler does not always merge byte-wise
 * shifts into one store, e.g. when the value is computed in place).
 * Dependency-free; no bounds checks: the caller owns the bytes at @p.
 */
#ifndef ZL_BE_H
#define ZL_BE_H

#include <stdint.h>
#include <string.h>

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define ZL_BE16(x) __builtin_bswap16(x)
#define ZL_BE32(x) __builtin_bswap32(x)
#define ZL_BE64(x) __builtin_bswap64(x)
#else
#define ZL_BE16(x) (x)
#define ZL_BE32(x) (x)
#define ZL_BE64(x) (x)
#endif

static inline uint16_t zl_get_be16(const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, 2);
	return ZL_BE16(v);
}

static inline uint32_t zl_get_be24(const uint8_t *p)
{
	return (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
}

static inline uint32_t zl_get_be32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return ZL_BE32(v);
}

static inline uint64_t zl_get_be64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return ZL_BE64(v);
}

static inline void zl_put_be16(uint8_t *p, uint16_t v)
{
	v = ZL_BE16(v);
	memcpy(p, &v, 2);
}

static inline void zl_put_be32(uint8_t *p, uint32_t v)
{
	v = ZL_BE32(v);
	memcpy(p, &v, 4);
}

static inline void zl_put_be64(uint8_t *p, uint64_t v)
{
	v = ZL_BE64(v);
	memcpy(p, &v, 8);
}

#endif /* ZL_BE_H */
