/*
 * zl_crc.h — CRC-32C (Castagnoli), the checksum of zonelab's on-disk
 * metadata.  Portable table-driven software (slicing-by-8); it is not a
 * general hashing API and does not try to use SSE4.2 or ARMv8 CRC
 * instructions: it checksums 4 KiB headers, not data.
 */
#ifndef ZL_CRC_H
#define ZL_CRC_H

#include <stddef.h>
#include <stdint.h>

/**
 * zl_crc32c() - CRC-32C of @len bytes at @buf, continuing from @crc.
 * @crc: 0 to start, or the result of a previous call to continue a running
 *       checksum (zl_crc32c(zl_crc32c(0, a, n), b, m) equals the CRC of a
 *       followed by b).  Pre- and post-inversion are done inside, so
 *       zl_crc32c(0, "123456789", 9) == 0xe3069283 (iSCSI / ext4 / btrfs).
 * @buf: bytes to checksum; may be NULL when @len is 0.
 * @len: number of bytes.
 *
 * Thread-safe.  Returns the updated CRC.
 */
uint32_t zl_crc32c(uint32_t crc, const void *buf, size_t len);

#endif /* ZL_CRC_H */
