/*
 * zl_crc.c — CRC-32C (Castagnoli, reflected polynomial 0x82f63b78) in
 * software, slicing-by-8.  The eight 256-entry tables are built once, on
 * first use, under pthread_once.  This file is only the checksum: what is
 * checksummed and where the result is stored is zstore's business
 * (docs/FORMAT.md).
 */
#include "zl_crc.h"

#include <pthread.h>

#include "zl_le.h"

#define ZL_CRC32C_POLY 0x82f63b78u

static uint32_t crc_tab[8][256];
static pthread_once_t crc_once = PTHREAD_ONCE_INIT;

static void crc_tab_init(void)
{
	for (uint32_t n = 0; n < 256; n++) {
		uint32_t c = n;

		for (int k = 0; k < 8; k++)
			c = (c & 1) ? (c >> 1) ^ ZL_CRC32C_POLY : c >> 1;
		crc_tab[0][n] = c;
	}
	for (uint32_t n = 0; n < 256; n++) {
		uint32_t c = crc_tab[0][n];

		for (int t = 1; t < 8; t++) {
			c = crc_tab[0][c & 0xff] ^ (c >> 8);
			crc_tab[t][n] = c;
		}
	}
}

uint32_t zl_crc32c(uint32_t crc, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	pthread_once(&crc_once, crc_tab_init);
	crc = ~crc;
	while (len >= 8) {
		uint32_t lo = zl_get_le32(p) ^ crc;
		uint32_t hi = zl_get_le32(p + 4);

		crc = crc_tab[7][lo & 0xff] ^ crc_tab[6][(lo >> 8) & 0xff] ^
		      crc_tab[5][(lo >> 16) & 0xff] ^ crc_tab[4][lo >> 24] ^
		      crc_tab[3][hi & 0xff] ^ crc_tab[2][(hi >> 8) & 0xff] ^
		      crc_tab[1][(hi >> 16) & 0xff] ^ crc_tab[0][hi >> 24];
		p += 8;
		len -= 8;
	}
	while (len--)
		crc = crc_tab[0][(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}
