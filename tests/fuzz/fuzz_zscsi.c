/*
 * fuzz_zscsi.c — libFuzzer target over zscsi_execute(): random CDBs and
 * parameter data against a small disk (conventional zones, optionally gap
 * zones, 512 or 4096-byte blocks, an open limit) on a memory store, or on a
 * file store, where READs of data take the lock-free zscsi_read_fast().
 *
 * Input: byte 0 picks the geometry, profile and store; then a sequence of
 * commands, each: 1 byte header (bits 0-4 CDB length - 1, bit 5 split the
 * buffer into three iovecs, bit 6 data-out (else data-in), bit 7 a control
 * action first), 2 bytes buffer length (big endian, capped), the CDB, then
 * for data-out the buffer bytes.  Every buffer is allocated to its exact
 * size so ASan sees any overrun.  A data-in buffer starts as 0xa5 bytes:
 * after a GOOD data-in command everything past the data-in length must be
 * zero.  Seeds sbc-* cover VERIFY BYTCHK, WRITE SAME (sbc-unmap: UNMAP=1), WRITE AND VERIFY,
 * COMPARE AND WRITE and READs whose buffer differs from TRANSFER LENGTH.  A fresh disk per input keeps runs
 * deterministic.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "zscsi.h"

#define MAX_CMDS 24
#define MAX_BUF (64 * 1024)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The opcodes zscsi answers with data-in (its table's ZSCSI_F_DATA_IN entries). */
static int is_data_in(uint8_t op)
{
	static const uint8_t in[] = { 0x03, 0x08, 0x12, 0x1a, 0x25, 0x28, 0x5a, 0x88, 0x95, 0x9e,
				      0xa0, 0xa3, 0xa8 };

	return memchr(in, op, sizeof(in)) != NULL;
}

/* The file store's image: one per process, made afresh for every input. */
static const char *image_path(void)
{
	static char path[64];

	if (!path[0])
		snprintf(path, sizeof(path), "/tmp/zl-fuzz-zscsi-%ld.img", (long)getpid());
	return path;
}

static int open_disk(uint8_t sel, struct zdisk **disk, struct zscsi **s)
{
	struct zdisk_cfg cfg;
	struct zscsi_cfg scfg;
	char msg[256];

	zdisk_cfg_init(&cfg);
	cfg.store.kind = ZSTORE_MEM;
	if (sel & 128) {
		cfg.store.kind = ZSTORE_FILE;
		cfg.store.path = image_path();
		cfg.store.create = true;
		cfg.store.force = true;
		unlink(cfg.store.path);
	}
	cfg.geo.lba_size = (sel & 1) ? 4096 : 512;
	cfg.geo.zone_size_lba = (sel & 1) ? 16 : 128;
	cfg.geo.capacity_lba = cfg.geo.zone_size_lba * 12 + ((sel & 2) ? cfg.geo.zone_size_lba / 2 : 0);
	cfg.geo.nr_conv_start = 2;
	if (sel & 4) {
		cfg.geo.zone_cap_lba = cfg.geo.zone_size_lba * 3 / 4;
		cfg.geo.gap_zones = true;
		cfg.geo.capacity_lba = cfg.geo.zone_size_lba * 12;
	}
	cfg.geo.model = (sel & 8) ? ZL_MODEL_HA : ZL_MODEL_HM;
	cfg.geo.max_open = (sel & 16) ? 3 : 0;
	cfg.wce = !(sel & 32);
	if (zdisk_open(&cfg, disk, msg, sizeof(msg)))
		return -1;
	zscsi_cfg_init(&scfg);
	scfg.profile = (sel & 64) ? ZSCSI_PROFILE_DHSMR : ZSCSI_PROFILE_ZBC2;
	if (zscsi_create(*disk, &scfg, s)) {
		zdisk_close(*disk);
		return -1;
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct zdisk *disk;
	struct zscsi *s;
	size_t pos = 1;
	int n = 0;

	if (size < 1 || open_disk(data[0], &disk, &s))
		return 0;
	while (pos + 3 <= size && n++ < MAX_CMDS) {
		uint8_t hdr = data[pos];
		size_t clen = (hdr & 0x1f) + 1;
		size_t blen = ((size_t)data[pos + 1] << 8 | data[pos + 2]) % (MAX_BUF + 1);
		uint8_t sense[ZSCSI_SENSE_LEN], *cdb, *buf = NULL;
		struct iovec iov[3];
		int iov_cnt = 0;
		size_t dlen = 0;
		uint8_t st;

		pos += 3;
		if (hdr & 0x80) {
			/* control action: zone condition fault or power cycle */
			uint8_t a = clen & 3;

			if (a == 0)
				zdisk_power_cycle(disk);
			else if (a == 1)
				zdisk_zone_set_cond(disk, (uint32_t)(blen % 14), ZL_COND_READ_ONLY);
			else if (a == 2)
				zdisk_zone_set_cond(disk, (uint32_t)(blen % 14), ZL_COND_OFFLINE);
			else
				zdisk_zone_clear_fault(disk, (uint32_t)(blen % 14));
		}
		if (pos + clen > size)
			break;
		cdb = malloc(clen);
		if (!cdb)
			break;
		memcpy(cdb, data + pos, clen);
		pos += clen;
		if (blen) {
			buf = malloc(blen);
			if (!buf) {
				free(cdb);
				break;
			}
			if (hdr & 0x40) {
				size_t take = size - pos < blen ? size - pos : blen;

				memset(buf, 0, blen);
				memcpy(buf, data + pos, take);
				pos += take;
			} else {
				memset(buf, 0xa5, blen);
			}
			if ((hdr & 0x20) && blen >= 3) {
				iov[0] = (struct iovec){ buf, blen / 3 };
				iov[1] = (struct iovec){ buf + blen / 3, blen / 3 };
				iov[2] = (struct iovec){ buf + 2 * (blen / 3), blen - 2 * (blen / 3) };
				iov_cnt = 3;
			} else {
				iov[0] = (struct iovec){ buf, blen };
				iov_cnt = 1;
			}
		}
		st = zscsi_execute(s, cdb, clen, iov_cnt ? iov : NULL, iov_cnt, sense, &dlen);
		if (dlen > blen)
			abort();   /* never more data-in than the buffer */
		/* a data-in command leaves nothing stale after its data */
		if (st == ZSCSI_GOOD && !(hdr & 0x40) && is_data_in(cdb[0]))
			for (size_t i = dlen; i < blen; i++)
				if (buf[i])
					abort();
		free(buf);
		free(cdb);
	}
	zscsi_destroy(s);
	zdisk_close(disk);
	if (data[0] & 128)
		unlink(image_path());
	return 0;
}
