/*
 * zbc_cases.c — the ZBC conformance table: geometries and cases.
 *
 * Each case is one claim about a host-managed (or host-aware) SCSI ZBC
 * target, with the clause or implementation it comes from.  The step and
 * check DSL is documented at the top of zbc_runner.c.  Case ids are stable
 * (other tools key difference reports on them); append, do not renumber.
 * Ids starting with "zl-" test zonelab choices outside the standard (e.g.
 * how a short data buffer is refused) and are expected to differ on other
 * targets.
 */
#include <string.h>

#include "zbc_cases.h"

/* 1 MiB zones of 512-byte blocks unless noted. */
const struct zbc_geom zbc_geoms[] = {
	{ "hm", "model=hm,lba=512,zone=1M,zones=16,conv=2,max_open=4",
	  512, 512, 16 * 2048, 2048, 0, false, 2, false, 4, false, true },
	{ "hm-runt", "model=hm,lba=512,zone=1M,size=10.5M,conv=1",
	  512, 512, 10 * 2048 + 1024, 2048, 0, false, 1, false, 0, false, true },
	{ "hm-gap", "model=hm,lba=512,zone=1M,zone_cap=768K,gap_zones=1,zones=8,conv=2",
	  512, 512, 8 * 2048, 2048, 1536, true, 2, false, 0, false, true },
	{ "hm-4kn", "model=hm,lba=4096,zone=1M,zones=8,conv=1",
	  4096, 4096, 8 * 256, 256, 0, false, 1, false, 0, false, true },
	{ "hm-512e", "model=hm,lba=512,pblock=4096,zone=1M,zones=8,conv=1",
	  512, 4096, 8 * 2048, 2048, 0, false, 1, false, 0, false, true },
	{ "ha", "model=ha,lba=512,zone=1M,zones=8,conv=1",
	  512, 512, 8 * 2048, 2048, 0, false, 1, true, 0, false, true },
	{ "hm-huge", "model=hm,lba=512,zone=256M,zones=8194,conv=1",
	  512, 512, 8194ull * 524288, 524288, 0, false, 1, false, 0, false, true },
	{ "hm-file", "model=hm,lba=512,zone=1M,zones=16,conv=2,max_open=4,store=file,wce=1",
	  512, 512, 16 * 2048, 2048, 0, false, 2, false, 4, true, true },
	{ "hm-file-nowce", "model=hm,lba=512,zone=1M,zones=16,conv=2,max_open=4,store=file,wce=0",
	  512, 512, 16 * 2048, 2048, 0, false, 2, false, 4, true, false },
};

const size_t zbc_nr_geoms = sizeof(zbc_geoms) / sizeof(zbc_geoms[0]);

const struct zbc_geom *zbc_geom_find(const char *name)
{
	for (size_t i = 0; i < zbc_nr_geoms; i++)
		if (!strcmp(zbc_geoms[i].name, name))
			return &zbc_geoms[i];
	return NULL;
}

#define GOOD ZBC_GOOD
#define S_OPCODE ZBC_SENSE(5, 0x20, 0x00)
#define S_FIELD ZBC_SENSE(5, 0x24, 0x00)
#define S_LBA ZBC_SENSE(5, 0x21, 0x00)
#define S_UNALIGNED ZBC_SENSE(5, 0x21, 0x04)
#define S_WBOUND ZBC_SENSE(5, 0x21, 0x05)
#define S_RINVALID ZBC_SENSE(5, 0x21, 0x06)
#define S_GAP ZBC_SENSE(5, 0x21, 0x09)
#define S_NORES ZBC_SENSE(7, 0x55, 0x0e)
#define S_RO ZBC_SENSE(7, 0x27, 0x08)
#define S_OFFLINE ZBC_SENSE(7, 0x2c, 0x0e)
#define S_PARAM ZBC_SENSE(5, 0x26, 0x00)
#define S_PLL ZBC_SENSE(5, 0x1a, 0x00)
#define S_NOSAVE ZBC_SENSE(5, 0x39, 0x00)
#define S_UA ZBC_SENSE(6, 0x29, 0x00)

/* MODE SELECT parameter lists (hex). */
#define H10 "0000000000000000"                  /* MODE SELECT(10) header, no block descriptor */
#define H6 "00000000"
#define CACHE_WCE0 "0812000000000000000000000000000000000000"
#define CACHE_WCE1 "0812040000000000000000000000000000000000"
#define CONTROL_CUR "0a0a021000000000ffff0000"

const struct zbc_case zbc_cases[] = {
	/* ---- identification: INQUIRY (SPC-5 6.7, zbc.md 2.1) ---- */
	{ "inq-std-pdt-hm", "hm", NULL, "inq", GOOD, "b 0 0x14", "ZBC-2 6.4.2: PDT 14h host managed" },
	{ "inq-std-pdt-ha", "ha", NULL, "inq", GOOD, "b 0 0x00; ", "ZBC-2: host aware is PDT 00h" },
	{ "inq-std-format", "hm", NULL, "inq", GOOD, "bm 3 0x0f 0x02", "SPC-5: RESPONSE DATA FORMAT 2" },
	{ "inq-std-additional-length", "hm", NULL, "inq", GOOD, "ge 4 1 31", "SPC-5: at least 36 bytes" },
	{ "inq-std-version-spc", "hm", NULL, "inq", GOOD, "ge 2 1 0x05", "SPC-3 or later" },
	{ "zl-inq-zbc-descriptor", "hm", NULL, "inq alloc=96", GOOD, "be 64 2 0x0620", "zonelab claims ZBC (0620h)" },
	{ "inq-std-alloc-5", "hm", NULL, "inq alloc=5", GOOD, "b 0 0x14", "SPC-5 4.2.5.6: truncated to the allocation length" },
	{ "inq-page-without-evpd", "hm", NULL, "cdb 12 00 80 00 60 00 in=96", S_FIELD, "sks 2", "SPC-5 6.7.1: PAGE CODE with EVPD=0" },
	{ "inq-cmddt", "hm", NULL, "cdb 12 02 00 00 60 00 in=96", S_FIELD, "sks 1 1", "SPC-5: CMDDT obsolete" },
	{ "inq-vpd-unknown", "hm", NULL, "inq vpd=0x99", S_FIELD, "sks 2", "SPC-5 6.7.1" },
	{ "vpd00-lists-80", "hm", NULL, "inq vpd=0", GOOD, "b 1 0; has 4 32 0x80", "SPC-5 7.7.13" },
	{ "vpd00-lists-83", "hm", NULL, "inq vpd=0", GOOD, "has 4 32 0x83", "SPC-5 7.7.13" },
	{ "vpd00-lists-b1", "hm", NULL, "inq vpd=0", GOOD, "has 4 32 0xb1", "zbc.md 2.1" },
	{ "vpd00-lists-b6", "hm", NULL, "inq vpd=0", GOOD, "has 4 32 0xb6", "sd_zbc fetches B6h" },
	{ "vpd00-lists-b0", "hm", NULL, "inq vpd=0", GOOD, "has 4 32 0xb0", "SBC-4 6.6.4" },
	{ "vpd80-serial", "hm", NULL, "inq vpd=0x80", GOOD, "b 1 0x80; ge 2 2 1", "SPC-5 7.7.17" },
	{ "vpd83-naa-first", "hm", NULL, "inq vpd=0x83", GOOD, "b 1 0x83; bm 5 0x0f 0x03; bm 4 0x0f 0x01; b 7 8", "SPC-5 7.7.6: NAA designator" },
	{ "vpd83-naa-5-or-6", "hm", NULL, "inq vpd=0x83", GOOD, "bm 8 0xc0 0x40", "NAA IEEE registered (extended)" },
	{ "vpd83-t10-vendor", "hm", NULL, "inq vpd=0x83", GOOD, "bm 17 0x0f 0x01", "SPC-5 7.7.6.4" },
	{ "vpdb0-length", "hm", NULL, "inq vpd=0xb0", GOOD, "b 1 0xb0; be 2 2 0x3c", "SBC-4 6.6.4" },
	{ "zl-vpdb0-max-transfer", "hm", NULL, "inq vpd=0xb0", GOOD, "be 8 4 16384", "zonelab: 8 MiB" },
	{ "vpdb0-no-unmap", "hm", NULL, "inq vpd=0xb0", GOOD, "be 20 4 0; be 24 4 0; be 36 8 0", "nothing not implemented is advertised" },
	{ "vpdb0-granularity-512e", "hm-512e", NULL, "inq vpd=0xb0", GOOD, "be 6 2 8", "OPTIMAL TRANSFER LENGTH GRANULARITY = physical block" },
	{ "vpdb1-rotation", "hm", NULL, "inq vpd=0xb1", GOOD, "be 2 2 0x3c; be 4 2 7200", "SBC-4 6.6.5" },
	{ "vpdb1-zoned-hm", "hm", NULL, "inq vpd=0xb1", GOOD, "bm 8 0x30 0x00", "zbc.md 2.1: HM leaves ZONED 00b" },
	{ "vpdb1-zoned-ha", "ha", NULL, "inq vpd=0xb1", GOOD, "bm 8 0x30 0x10", "ZBC-2: host aware ZONED 01b" },
	{ "vpdb6-length", "hm", NULL, "inq vpd=0xb6", GOOD, "b 1 0xb6; be 2 2 0x3c", "ZBC-2 6.5.2" },
	{ "vpdb6-urswrz", "hm", NULL, "inq vpd=0xb6", GOOD, "bm 4 0x01 0x01", "sd_zbc requires URSWRZ=1" },
	{ "vpdb6-max-open", "hm", NULL, "inq vpd=0xb6", GOOD, "be 16 4 4", "ZBC-2 6.5.2" },
	{ "vpdb6-max-open-unlimited", "hm-runt", NULL, "inq vpd=0xb6", GOOD, "be 16 4 0xffffffff", "ZBC-2: FFFFFFFFh not reported" },
	{ "vpdb6-align-constant-length", "hm", NULL, "inq vpd=0xb6", GOOD, "bm 23 0x0f 0x01", "ZBC-2: method 1" },
	{ "vpdb6-align-gap", "hm-gap", NULL, "inq vpd=0xb6", GOOD, "bm 23 0x0f 0x08; be 24 8 2048", "ZBC-2: method 8 + granularity" },
	{ "vpdb6-ha-optimal-open", "ha", NULL, "inq vpd=0xb6", GOOD, "be 8 4 0xffffffff", "ZBC-2 6.5.2 (host aware)" },

	/* ---- capacity (SBC-4 5.20, 5.21; zbc.md 2.1) ---- */
	{ "rc10-hm", "hm", NULL, "rc10", GOOD, "be 0 4 cap-1; be 4 4 512", "SBC-4 5.20" },
	{ "rc10-4kn", "hm-4kn", NULL, "rc10", GOOD, "be 0 4 cap-1; be 4 4 4096", "SBC-4 5.20" },
	{ "rc10-huge", "hm-huge", NULL, "rc10", GOOD, "be 0 4 0xffffffff", "SBC-4 5.20: too large for 32 bits" },
	{ "rc16-hm", "hm", NULL, "rc16", GOOD, "be 0 8 cap-1; be 8 4 512; bm 12 0x30 0x10; bm 13 0x0f 0", "RC BASIS 01b" },
	{ "rc16-512e", "hm-512e", NULL, "rc16", GOOD, "bm 13 0x0f 3", "LOGICAL BLOCKS PER PHYSICAL BLOCK EXPONENT" },
	{ "rc16-huge", "hm-huge", NULL, "rc16", GOOD, "be 0 8 cap-1", "SBC-4 5.21" },
	{ "rc16-runt", "hm-runt", NULL, "rc16", GOOD, "be 0 8 21503", "capacity is not a zone multiple" },
	{ "rc16-4kn", "hm-4kn", NULL, "rc16", GOOD, "be 0 8 2047; be 8 4 4096", "SBC-4 5.21" },
	{ "rc16-alloc-12", "hm", NULL, "rc16 alloc=12", GOOD, "be 0 8 cap-1", "truncated to the allocation length" },

	/* ---- simple commands ---- */
	{ "tur-good", "hm", NULL, "tur", GOOD, NULL, "SPC-5 6.47" },
	{ "ssu-start", "hm", NULL, "ssu", GOOD, NULL, "SBC-4 5.25" },
	{ "sync16", "hm", "w z2 8", "sync", GOOD, NULL, "SBC-4 5.27" },
	{ "sync10", "hm", "w z2 8", "sync10", GOOD, NULL, "SBC-4 5.26" },
	{ "sync16-lba-range", "hm", NULL, "cdb 91 00 00 00 00 00 00 00 80 00 00 00 00 00 00 00", S_LBA, NULL, "SBC-4 5.27" },
	{ "rs-no-sense", "hm", NULL, "rs", GOOD, "bm 0 0x7f 0x70; bm 2 0x0f 0; b 12 0", "SPC-5 6.39" },
	{ "zl-rs-after-error", "hm", "!w z2+8 8", "rs", GOOD, "bm 2 0x0f 5; b 12 0x21; b 13 0x04", "zonelab: last sense" },
	{ "zl-rs-after-read-error", "hm", "!r z1+2040 16", "rs", GOOD, "bm 2 0x0f 5; b 12 0x21; b 13 0x06", "zonelab: last sense of a READ" },
	{ "zl-rs-cleared-by-write", "hm", "!w z2+8 8; w z2 8", "rs", GOOD, "bm 2 0x0f 0; b 12 0", "zonelab: a good WRITE drops the kept sense" },
	{ "zl-rs-cleared-by-read", "hm", "w z2 8; !r z1+2040 16; r z2 8", "rs", GOOD, "bm 2 0x0f 0; b 12 0", "zonelab: a good READ drops the kept sense" },
	{ "rs-desc-unsupported", "hm", NULL, "cdb 03 01 00 00 12 00 in=18", S_FIELD, NULL, "SPC-5 6.39" },
	{ "luns", "hm", NULL, "luns", GOOD, "be 0 4 8", "SPC-5 6.33" },
	{ "opcode-unknown", "hm", NULL, "cdb ff 00 00 00 00 00", S_OPCODE, NULL, "SPC-5: INVALID COMMAND OPERATION CODE" },
	{ "opcode-unmap", "hm", NULL, "cdb 42 00 00 00 00 00 00 00 18 00 out=24", S_OPCODE, NULL, "UNMAP not implemented" },
	{ "opcode-write-same16", "hm", NULL, "cdb 93 00 00 00 00 00 00 00 00 00 00 00 00 01 00 00 out=512", S_OPCODE, NULL, "WRITE SAME not implemented" },
	{ "opcode-write-same10", "hm", NULL, "cdb 41 00 00 00 00 00 00 00 01 00 out=512", S_OPCODE, NULL, "WRITE SAME not implemented" },
	{ "sai-unknown-sa", "hm", NULL, "cdb 9e 11 00 00 00 00 00 00 00 00 00 00 00 20 00 00 in=32", S_FIELD, "sks 1 4", "SPC-5: unsupported service action" },
	{ "control-naca", "hm", NULL, "cdb 00 00 00 00 00 04", S_FIELD, "sks 5 2", "SAM-5 5.11: NACA not supported" },
	{ "rsoc-all", "hm", NULL, "rsoc", GOOD, "ge 0 4 160; b 4 0x00", "SPC-5 6.35" },
	{ "rsoc-one-read16", "hm", NULL, "rsoc ropt=1 op=0x88", GOOD, "bm 1 7 3; be 2 2 16; b 4 0x88", "SPC-5 6.35.3" },
	{ "rsoc-one-report-zones", "hm", NULL, "rsoc ropt=2 op=0x95 sa=0", GOOD, "bm 1 7 3; be 2 2 16; b 4 0x95", "SPC-5 6.35.3" },
	{ "rsoc-one-reset-wp", "hm", NULL, "rsoc ropt=2 op=0x94 sa=4", GOOD, "bm 1 7 3; b 5 4", "SPC-5 6.35.3" },
	{ "rsoc-one-needs-sa", "hm", NULL, "rsoc ropt=1 op=0x95", S_FIELD, NULL, "SPC-5: opcode has service actions" },
	{ "rsoc-one-unmap-unsupported", "hm", NULL, "rsoc ropt=1 op=0x42", GOOD, "bm 1 7 1", "not advertised" },
	{ "rsoc-one-write-same-unsupported", "hm", NULL, "rsoc ropt=1 op=0x93", GOOD, "bm 1 7 1", "not advertised" },
	{ "rsoc-rctd", "hm", NULL, "rsoc ropt=1 op=0x88 rctd", GOOD, "bm 1 0x80 0x80; be 20 2 10", "SPC-5 6.35.4" },
	{ "rsoc-bad-option", "hm", NULL, "rsoc ropt=7", S_FIELD, NULL, "SPC-5 6.35" },

	/* ---- mode pages (SPC-5 6.13/6.14, SBC-4 6.5) ---- */
	{ "ms6-caching", "hm", NULL, "ms6 8", GOOD, "b 12 0x08; b 13 0x12; bm 14 0x04 0x04", "SBC-4 6.5.5" },
	{ "ms6-caching-dbd", "hm", NULL, "ms6 8 dbd", GOOD, "b 3 0; b 4 0x08", "SPC-5 6.13" },
	{ "ms6-block-descriptor", "hm", NULL, "ms6 8", GOOD, "b 3 8; be 4 4 cap; be 9 3 512", "SBC-4 6.5.2" },
	{ "ms6-dpofua", "hm", NULL, "ms6 8", GOOD, "bm 2 0x10 0x10", "SBC-4 6.5.1: FUA supported" },
	{ "ms10-caching", "hm", NULL, "ms10 8", GOOD, "be 6 2 8; b 16 0x08; bm 18 0x04 0x04", "SPC-5 6.14" },
	{ "ms10-llbaa", "hm", NULL, "ms10 8 llbaa", GOOD, "bm 4 1 1; be 6 2 16; be 8 8 cap; be 20 4 512; b 24 0x08", "SBC-4 6.5.2.3" },
	{ "ms6-changeable-wce", "hm", NULL, "ms6 8 pc=1 dbd", GOOD, "bm 6 0x04 0x04; bm 6 0x01 0", "only WCE changeable" },
	{ "ms6-default", "hm", NULL, "ms6 8 pc=2 dbd", GOOD, "b 4 0x08", "SPC-5 6.13" },
	{ "ms6-saved-unsupported", "hm", NULL, "ms6 8 pc=3", S_NOSAVE, NULL, "SPC-5: SAVING PARAMETERS NOT SUPPORTED" },
	{ "ms6-control", "hm", NULL, "ms6 0x0a dbd", GOOD, "b 4 0x0a; b 5 0x0a", "SPC-5 7.5.8" },
	{ "ms6-rw-error-recovery", "hm", NULL, "ms6 1 dbd", GOOD, "b 4 0x01; b 5 0x0a", "SBC-4 6.5.9" },
	{ "ms6-all-pages", "hm", NULL, "ms6 0x3f dbd", GOOD, "b 4 0x01; b 16 0x08; b 36 0x0a", "SPC-5: 3Fh in page code order" },
	{ "ms10-all-pages-subpages", "hm", NULL, "ms10 0x3f sub=0xff dbd", GOOD, "b 8 0x01", "SPC-5: 3Fh/FFh" },
	{ "ms6-unknown-page", "hm", NULL, "ms6 0x1c", S_FIELD, "sks 2", "SPC-5 6.13" },
	{ "ms6-unknown-subpage", "hm", NULL, "ms6 8 sub=1", S_FIELD, "sks 3", "SPC-5 6.13" },
	{ "wce-off", "hm", "wce 0", "ms6 8 dbd", GOOD, "bm 6 0x04 0", "WCE changeable and reported" },
	{ "wce-on-again", "hm", "wce 0; wce 1", "ms6 8 dbd", GOOD, "bm 6 0x04 0x04", "WCE changeable" },
	{ "msel10-wce0", "hm", NULL, "msel10 " H10 CACHE_WCE0, GOOD, "wce 0", "SPC-5 6.11" },
	{ "msel6-wce0", "hm", NULL, "msel6 " H6 CACHE_WCE0, GOOD, "wce 0", "SPC-5 6.11" },
	{ "msel10-same-values", "hm", NULL, "msel10 " H10 CACHE_WCE1, GOOD, "wce 1", "SPC-5 6.11" },
	{ "msel10-control-unchanged", "hm", NULL, "msel10 " H10 CONTROL_CUR, GOOD, NULL, "unchanged values are accepted" },
	{ "msel10-zero-length", "hm", NULL, "msel10 - pll=0", GOOD, NULL, "SPC-5 6.11: no data is not an error" },
	{ "msel10-sp", "hm", NULL, "msel10 " H10 CACHE_WCE0 " sp", S_FIELD, "sks 1 0", "SPC-5: saving not supported" },
	{ "zl-msel10-pf0", "hm", NULL, "msel10 " H10 CACHE_WCE0 " nopf", S_FIELD, "sks 1 4", "zonelab: page format only" },
	{ "msel10-rcd-unchangeable", "hm", NULL, "msel10 " H10 "0812050000000000000000000000000000000000", S_PARAM, "sks 10 0", "SPC-5 6.11: unchangeable bit" },
	{ "msel10-page-length", "hm", NULL, "msel10 " H10 "0810" "00000000000000000000000000000000", S_PARAM, "sks 9", "SPC-5: wrong page length" },
	{ "msel10-unknown-page", "hm", NULL, "msel10 " H10 "1c0a00000000000000000000", S_PARAM, "sks 8", "SPC-5 6.11" },
	{ "msel10-truncated-page", "hm", NULL, "msel10 " H10 "08120000000000000000", S_PLL, NULL, "PARAMETER LIST LENGTH ERROR" },
	{ "msel10-medium-type", "hm", NULL, "msel10 0000010000000000" CACHE_WCE0, S_PARAM, "sks 2", "SPC-5: MEDIUM TYPE" },
	{ "msel10-block-length-change", "hm", NULL, "msel10 0000000000000008" "0000000000001000" CACHE_WCE0, S_PARAM, "sks 13", "block length is fixed" },
	{ "msel10-block-descriptor-same", "hm", NULL, "msel10 0000000000000008" "0000000000000200" CACHE_WCE0, GOOD, "wce 0", "SBC-4 6.5.2" },
	{ "msel10-control-dsense", "hm", NULL, "msel10 " H10 "0a0a061000000000ffff0000", S_PARAM, "sks 10 2", "D_SENSE not changeable" },
	{ "zl-msel10-pll-beyond-buffer", "hm", NULL, "msel10 " H10 CACHE_WCE0 " pll=64", S_FIELD, "sks 7", "zonelab: short data-out" },

	/* ---- writes (ZBC-2 4.4.3, zbc.md 2.4) ---- */
	{ "w-conv-anywhere", "hm", NULL, "w 100 8", GOOD, "pat 100 8", "conventional zones: random writes" },
	{ "w-conv-cross-conv", "hm", NULL, "w z1-4 8", GOOD, "pat z1-4 8", "tcmu PR #649: conv->conv is not a boundary" },
	{ "w-conv-into-seq", "hm", NULL, "w z2-4 8", S_WBOUND, "zone z2 empty z2", "ZBC-2 4.4.3.3: crosses zone type" },
	{ "w-seq-at-wp", "hm", NULL, "w z2 8", GOOD, "zone z2 iopen z2+8; pat z2 8", "ZBC-2 4.4.3.2" },
	{ "w-seq-not-at-wp", "hm", NULL, "w z2+8 8", S_UNALIGNED, "info z2+8; zone z2 empty z2", "UNALIGNED WRITE COMMAND" },
	{ "w-seq-below-wp", "hm", "w z2 16", "w z2 8", S_UNALIGNED, "zone z2 iopen z2+16", "UNALIGNED WRITE COMMAND" },
	{ "w-seq-append", "hm", "w z2 16", "w z2+16 16", GOOD, "zone z2 iopen z2+32; pat z2 32", "ZBC-2 4.4.3.2" },
	{ "w-seq-cross-zone", "hm", "w z2 2040", "w z2+2040 16", S_WBOUND, "zone z2 iopen z2+2040; zone z3 empty z3", "WRITE BOUNDARY VIOLATION" },
	{ "w-seq-fill", "hm", "w z3 2040", "w z3+2040 8", GOOD, "zone z3 full", "ZBC-2 4.4.3.4: WP at capacity -> FULL" },
	{ "w-seq-fill-one", "hm", NULL, "w z4 2048", GOOD, "zone z4 full; zcount 5 1", "FULL" },
	{ "w-full-zone", "hm", "finish z4", "w z4 8", S_FIELD, "zone z4 full", "zbc.md 2.4: write to FULL -> 24h/00h" },
	{ "w-end-of-medium", "hm", NULL, "w cap-4 8", S_LBA, NULL, "SBC-4: LBA OUT OF RANGE" },
	{ "w-lba-cap", "hm", NULL, "w cap 1", S_LBA, NULL, "SBC-4: LBA OUT OF RANGE" },
	{ "w-lba-huge", "hm", NULL, "w 0xfffffffffffffff8 8", S_LBA, NULL, "no 64-bit wrap" },
	{ "w-zero-length-opens", "hm", NULL, "w z5 0", GOOD, "zone z5 iopen z5", "libzbc IOPENZ helper" },
	{ "w-zero-length-out-of-range", "hm", NULL, "w cap 0", S_LBA, NULL, "SBC-4" },
	{ "w-zero-length-not-at-wp", "hm", "w z2 8", "w z2+16 0", S_UNALIGNED, "zone z2 iopen z2+8", "a zero-length write is checked like any write" },
	{ "w-zero-length-conv", "hm", NULL, "w 8 0", GOOD, NULL, "SBC-4: no transfer" },
	{ "w-zero-length-full", "hm", "finish z3", "w z3 0", S_FIELD, "zone z3 full", "write to a FULL zone" },
	{ "w-full-zone-mid", "hm", "finish z3", "w z3+8 8", S_FIELD, "zone z3 full", "FULL is checked before the WP (scsi_debug order)" },
	{ "w10-seq", "hm", NULL, "w10 z2 8", GOOD, "zone z2 iopen z2+8; pat z2 8", "SBC-4 5.40" },
	{ "w12-seq", "hm", NULL, "w12 z2 8", GOOD, "zone z2 iopen z2+8; pat z2 8", "SBC-4 5.41" },
	{ "w6-seq", "hm", NULL, "w6 z2 8", GOOD, "zone z2 iopen z2+8; pat z2 8", "SBC-4 5.39" },
	{ "w6-zero-means-256", "hm", NULL, "w6 z2 0", GOOD, "zone z2 iopen z2+256", "SBC-4: TRANSFER LENGTH 0 = 256" },
	{ "wf-fua", "hm", NULL, "wf z2 8", GOOD, "zone z2 iopen z2+8; pat z2 8", "SBC-4: FUA" },
	{ "w-wrprotect", "hm", NULL, "cdb 8a 20 00 00 00 00 00 00 10 00 00 00 00 08 00 00 out=4096", S_FIELD, "sks 1 7", "no protection information" },
	{ "zl-w-buffer-too-small", "hm", NULL, "cdb 8a 00 00 00 00 00 00 00 10 00 00 00 00 08 00 00 out=512", S_FIELD, "sks 10", "zonelab: transfer beyond the buffer" },
	{ "w-open-limit-implicit-close", "hm", "w z2 8; w z3 8; w z4 8; w z5 8", "w z6 8", GOOD, "zone z6 iopen z6+8; zcount 2 4; zcount 4 1", "ZBC-2 4.4.3.2: implicit close" },
	{ "w-open-limit-explicit", "hm", "open z2; open z3; open z4; open z5", "w z6 8", S_NORES, "zone z6 empty z6", "INSUFFICIENT ZONE RESOURCES" },
	{ "w-closed-reopens", "hm", "w z2 8; close z2", "w z2+8 8", GOOD, "zone z2 iopen z2+16", "ZBC-2: CLOSED -> IMP OPEN" },
	{ "w-eopen-stays", "hm", "open z2", "w z2 8", GOOD, "zone z2 eopen z2+8", "explicitly open stays explicit" },
	{ "w-eopen-fill-full", "hm", "open z2", "w z2 2048", GOOD, "zone z2 full; zcount 3 0", "FULL releases the open resource" },
	{ "w-512e-partial-pblock", "hm-512e", NULL, "w z1 4", S_UNALIGNED, "zone z1 empty z1", "libzbc: physical block alignment" },
	{ "w-512e-pblock", "hm-512e", NULL, "w z1 8", GOOD, "zone z1 iopen z1+8", "physical block aligned" },
	{ "w-4kn", "hm-4kn", NULL, "w z1 4", GOOD, "zone z1 iopen z1+4; pat z1 4", "4096-byte blocks" },
	{ "w-ha-anywhere", "ha", NULL, "w z1+8 8", GOOD, "pat z1+8 8", "ZBC-2: SWP zones accept any write" },
	{ "w-ha-cross-zone", "ha", NULL, "w z1+2040 16", GOOD, "pat z1+2040 16", "host aware: writes may cross zones" },
	{ "w-ha-type-swp", "ha", NULL, "rz z1 alloc=128", GOOD, "dt 0 3", "ZBC-2: SWP zones" },
	{ "w-ha-non-seq-attribute", "ha", NULL, "w z1+8 8", GOOD, "zcount 0x11 1", "ZBC-2: NON_SEQ after a write off the WP" },
	{ "w-ha-at-wp-stays-seq", "ha", NULL, "w z1 8", GOOD, "zcount 0x11 0; zone z1 iopen z1+8", "sequential writes keep NON_SEQ clear" },
	{ "w-ha-reset-clears-non-seq", "ha", "w z1+8 8", "reset z1", GOOD, "zcount 0x11 0; zone z1 empty z1", "RESET clears NON_SEQ" },
	{ "w-conv-4kn-any", "hm-4kn", NULL, "w 3 1", GOOD, "pat 3 1", "conventional zones: any block" },
	{ "w-conv-partial-pblock-512e", "hm-512e", NULL, "w 3 1", GOOD, "pat 3 1", "conventional zones need no physical alignment" },

	/* ---- reads ---- */
	{ "r-conv-unwritten", "hm", NULL, "r 0 8", GOOD, "data zero", "unwritten data reads as zeros" },
	{ "r-conv-written", "hm", "w 8 8", "r 8 8", GOOD, "data pat 8", "read back" },
	{ "r-seq-below-wp", "hm", "w z2 16", "r z2 16", GOOD, "data pat z2", "read back" },
	{ "r-seq-beyond-wp", "hm", "w z2 8", "r z2 16", GOOD, "data pat z2 0 8; data zero 8 8", "URSWRZ=1: beyond WP reads zeros" },
	{ "r-seq-empty", "hm", NULL, "r z6 8", GOOD, "data zero", "URSWRZ=1" },
	{ "r-seq-cross-zones", "hm", NULL, "r z2+2040 16", GOOD, NULL, "URSWRZ=1: reads may cross SWR zones" },
	{ "r-cross-conv-seq", "hm", NULL, "r z1+2040 16", S_RINVALID, "info z1+2040", "ZBC-2 4.4.3.4.2: cross-type read" },
	{ "r-cross-conv-into-full", "hm", "finish z2", "r z1+2040 16", S_RINVALID, NULL, "cross-type read, whatever the condition" },
	{ "r-cross-conv-seq-ha", "ha", NULL, "r z0+2040 16", GOOD, NULL, "host aware: no type boundary" },
	{ "r-end-of-medium", "hm", NULL, "r cap-1 2", S_LBA, NULL, "SBC-4" },
	{ "r-lba-huge", "hm", NULL, "r ones 1", S_LBA, NULL, "no 64-bit wrap" },
	{ "r-last-lba", "hm", NULL, "r cap-1 1", GOOD, NULL, "SBC-4" },
	{ "r-zero-length", "hm", NULL, "r z2 0", GOOD, NULL, "SBC-4: no transfer" },
	{ "r-zero-length-out-of-range", "hm", NULL, "r cap 0", S_LBA, NULL, "SBC-4" },
	{ "r10", "hm", "w z2 8", "r10 z2 8", GOOD, "data pat z2", "SBC-4 5.16" },
	{ "r12", "hm", "w z2 8", "r12 z2 8", GOOD, "data pat z2", "SBC-4 5.17" },
	{ "r6", "hm", "w z2 8", "r6 z2 8", GOOD, "data pat z2", "SBC-4 5.15" },
	{ "r-rdprotect", "hm", NULL, "cdb 88 e0 00 00 00 00 00 00 10 00 00 00 00 08 00 00 in=4096", S_FIELD, "sks 1 7", "no protection information" },
	{ "r-4kn", "hm-4kn", "w z1 4", "r z1 4", GOOD, "data pat z1", "4096-byte blocks" },
	{ "v-good", "hm", "w z2 8", "v z2 8", GOOD, NULL, "SBC-4 5.34: BYTCHK 0" },
	{ "v10-good", "hm", NULL, "v10 0 8", GOOD, NULL, "SBC-4 5.33" },
	{ "v-bytchk", "hm", NULL, "cdb 8f 02 00 00 00 00 00 00 10 00 00 00 00 08 00 00", S_FIELD, NULL, "BYTCHK not supported" },
	{ "v-out-of-range", "hm", NULL, "v cap-1 2", S_LBA, NULL, "SBC-4" },

	/* ---- zone management (ZBC-2 5.x; zbc.md 2.3) ---- */
	{ "open-empty", "hm", NULL, "open z2", GOOD, "zone z2 eopen z2", "ZBC-2 5.6" },
	{ "open-iopen", "hm", "w z2 8", "open z2", GOOD, "zone z2 eopen z2+8", "ZBC-2 5.6" },
	{ "open-closed", "hm", "w z2 8; close z2", "open z2", GOOD, "zone z2 eopen z2+8", "ZBC-2 5.6" },
	{ "open-eopen-noop", "hm", "open z2", "open z2", GOOD, "zone z2 eopen z2", "zbc.md 2.3" },
	{ "open-full-noop", "hm", "finish z2", "open z2", GOOD, "zone z2 full", "zbc.md 2.3" },
	{ "open-conv", "hm", NULL, "open z0", S_FIELD, "sks 2", "zbc.md 2.3: conventional zone" },
	{ "open-not-zone-start", "hm", NULL, "open z2+1", S_FIELD, "zone z2 empty z2", "zbc.md 2.3: not a zone start" },
	{ "open-out-of-range", "hm", NULL, "open cap", S_LBA, NULL, "ZBC-2 5.6" },
	{ "open-limit", "hm", "open z2; open z3; open z4; open z5", "open z6", S_NORES, "zone z6 empty z6", "ZBC-2 5.6: INSUFFICIENT ZONE RESOURCES" },
	{ "open-limit-closes-implicit", "hm", "w z2 8; w z3 8; w z4 8; w z5 8", "open z6", GOOD, "zone z6 eopen z6; zcount 4 1; zcount 2 3", "ZBC-2 4.4.3.2" },
	{ "open-all-closed", "hm", "w z2 8; close z2; w z3 8; close z3", "open all", GOOD, "zone z2 eopen z2+8; zone z3 eopen z3+8", "zbc.md 2.3: OPEN ALL opens CLOSED" },
	{ "open-all-skips-empty", "hm", NULL, "open all", GOOD, "zone z2 empty z2; zcount 3 0", "OPEN ALL opens only CLOSED zones" },
	{ "open-all-insufficient", "hm", "w z2 8; close z2; w z3 8; close z3; w z4 8; close z4; w z5 8; close z5; w z6 8; close z6", "open all", S_NORES, "zone z2 closed z2+8; zcount 4 5", "zbc.md 2.3: exp_open + closed > max_open" },
	{ "open-all-implicit-close", "hm", "w z2 8; close z2; w z3 8; w z4 8; w z5 8; w z6 8", "open all", GOOD, "zone z2 eopen z2+8; zcount 2 3; zcount 4 1", "OPEN ALL may close an implicitly open zone" },
	{ "open-after-reset-frees", "hm", "open z2; open z3; open z4; open z5; reset z2", "open z6", GOOD, "zone z6 eopen z6; zone z2 empty z2", "RESET releases the resource" },
	{ "open-after-close-frees", "hm", "open z2; open z3; open z4; open z5; close z2", "open z6", GOOD, "zone z6 eopen z6", "CLOSE releases the resource" },
	{ "close-iopen", "hm", "w z2 8", "close z2", GOOD, "zone z2 closed z2+8", "ZBC-2 5.3" },
	{ "close-eopen-written", "hm", "open z2; w z2 8", "close z2", GOOD, "zone z2 closed z2+8", "ZBC-2 5.3" },
	{ "close-eopen-empty", "hm", "open z2", "close z2", GOOD, "zone z2 empty z2", "zbc.md 2.3: WP at start -> EMPTY" },
	{ "close-empty-noop", "hm", NULL, "close z2", GOOD, "zone z2 empty z2", "ZBC-2 5.3" },
	{ "close-closed-noop", "hm", "w z2 8; close z2", "close z2", GOOD, "zone z2 closed z2+8", "ZBC-2 5.3" },
	{ "close-full-noop", "hm", "finish z2", "close z2", GOOD, "zone z2 full", "ZBC-2 5.3" },
	{ "close-all", "hm", "w z2 8; open z3; w z4 8", "close all", GOOD, "zone z2 closed z2+8; zone z3 empty z3; zone z4 closed z4+8", "ZBC-2 5.3 ALL" },
	{ "close-conv", "hm", NULL, "close z1", S_FIELD, NULL, "conventional zone" },
	{ "close-not-zone-start", "hm", "w z2 8", "close z2+8", S_FIELD, "zone z2 iopen z2+8", "not a zone start" },
	{ "finish-empty", "hm", NULL, "finish z2", GOOD, "zone z2 full", "ZBC-2 5.4" },
	{ "finish-iopen", "hm", "w z2 8", "finish z2", GOOD, "zone z2 full; zcount 2 0", "ZBC-2 5.4" },
	{ "finish-eopen", "hm", "open z2", "finish z2", GOOD, "zone z2 full; zcount 3 0", "ZBC-2 5.4" },
	{ "finish-closed", "hm", "w z2 8; close z2", "finish z2", GOOD, "zone z2 full; zcount 4 0", "ZBC-2 5.4" },
	{ "finish-full-noop", "hm", "finish z2", "finish z2", GOOD, "zone z2 full", "ZBC-2 5.4" },
	{ "finish-read-zeros", "hm", "w z2 8; finish z2", "r z2 16", GOOD, "data pat z2 0 8; data zero 8 8", "unwritten LBAs of a finished zone" },
	{ "finish-all", "hm", "w z2 8; open z3; w z4 8; close z4", "finish all", GOOD, "zone z2 full; zone z3 full; zone z4 full; zone z5 empty z5", "zbc.md 2.3: FINISH ALL acts on open/closed" },
	{ "finish-empty-at-open-limit", "hm", "open z2; open z3; open z4; open z5", "finish z6", GOOD, "zone z6 full; zcount 3 4", "FINISH needs no open resource (scsi_debug)" },
	{ "finish-conv", "hm", NULL, "finish z0", S_FIELD, NULL, "conventional zone" },
	{ "finish-not-zone-start", "hm", NULL, "finish z3+100", S_FIELD, "zone z3 empty z3", "not a zone start" },
	{ "reset-iopen", "hm", "w z2 8", "reset z2", GOOD, "zone z2 empty z2; zero z2 8", "ZBC-2 5.8" },
	{ "reset-eopen", "hm", "open z2", "reset z2", GOOD, "zone z2 empty z2; zcount 3 0", "ZBC-2 5.8" },
	{ "reset-closed", "hm", "w z2 8; close z2", "reset z2", GOOD, "zone z2 empty z2", "ZBC-2 5.8" },
	{ "reset-full", "hm", "w z2 2048", "reset z2", GOOD, "zone z2 empty z2; zero z2 8", "ZBC-2 5.8" },
	{ "reset-empty-noop", "hm", NULL, "reset z2", GOOD, "zone z2 empty z2", "ZBC-2 5.8" },
	{ "reset-all", "hm", "w 0 8; w z2 8; finish z3; open z4; w z5 8; close z5", "reset all", GOOD, "zone z2 empty z2; zone z3 empty z3; zone z4 empty z4; zone z5 empty z5; pat 0 8", "zbc.md 2.3: RESET ALL; conventional data kept" },
	{ "reset-all-then-write", "hm", "w z2 8; reset all", "w z2 8", GOOD, "zone z2 iopen z2+8", "WP back at the start" },
	{ "reset-conv", "hm", NULL, "reset z0", S_FIELD, NULL, "conventional zone" },
	{ "reset-not-zone-start", "hm", NULL, "reset z2+8", S_FIELD, NULL, "not a zone start" },
	{ "reset-out-of-range", "hm", NULL, "reset cap+2048", S_LBA, NULL, "ZBC-2 5.8" },
	{ "zl-zone-count-2", "hm", NULL, "open z2 cnt=2", S_FIELD, "sks 12; zone z2 empty z2", "zonelab: ZONE COUNT > 1 not supported" },
	{ "zone-count-1", "hm", NULL, "open z2 cnt=1", GOOD, "zone z2 eopen z2", "ZBC-2: ZONE COUNT 1" },
	{ "zone-count-ignored-with-all", "hm", "w z2 8", "reset all cnt=5", GOOD, "zone z2 empty z2", "ZBC-2: ALL ignores ZONE COUNT" },
	{ "all-ignores-zone-id", "hm", "w z2 8", "reset all id=cap+12345", GOOD, "zone z2 empty z2", "ZBC-2: ALL ignores ZONE ID" },
	{ "zbc-out-sequentialize", "hm", NULL, "cdb 94 05 00 00 00 00 00 00 10 00 00 00 00 00 00 00", S_FIELD, NULL, "SEQUENTIALIZE ZONE not supported" },
	{ "zbc-in-unknown-sa", "hm", NULL, "cdb 95 06 00 00 00 00 00 00 00 00 00 00 10 00 00 00 in=4096", S_FIELD, "sks 1 4", "only REPORT ZONES" },

	/* ---- REPORT ZONES (ZBC-2 5.7; zbc.md 2.2) ---- */
	{ "rz-all", "hm", NULL, "rz 0", GOOD, "zll 16; be 8 8 cap-1; ds 0 0; dt 0 1; dc 0 nwp; dw 0 -; dl 0 2048; ds 2 z2; dt 2 2; dc 2 empty; dw 2 z2; ds 15 z15", "ZBC-2 5.7" },
	{ "rz-no-granularity", "hm", NULL, "rz 0", GOOD, "be 16 8 0", "no gap zones: granularity 0" },
	{ "rz-start-mid-zone", "hm", NULL, "rz z3+100", GOOD, "zll 13; ds 0 z3", "ZBC-2: the zone containing ZONE START LBA" },
	{ "rz-start-last-lba", "hm", NULL, "rz cap-1", GOOD, "zll 1; ds 0 z15", "ZBC-2 5.7" },
	{ "rz-start-past-end", "hm", NULL, "rz cap", S_LBA, NULL, "zbc.md 2.2: start >= capacity" },
	{ "rz-start-huge", "hm", NULL, "rz ones", S_LBA, NULL, "zbc.md 2.2" },
	{ "rz-opt-empty", "hm", "w z2 8", "rz 0 opt=1", GOOD, "zll 13; ds 0 z3", "reporting option 01h" },
	{ "rz-opt-iopen", "hm", "w z2 8; w z5 8", "rz 0 opt=2", GOOD, "zll 2; ds 0 z2; ds 1 z5; dw 1 z5+8", "reporting option 02h" },
	{ "rz-opt-eopen", "hm", "open z4", "rz 0 opt=3", GOOD, "zll 1; ds 0 z4; dc 0 eopen", "reporting option 03h" },
	{ "rz-opt-closed", "hm", "w z3 8; close z3", "rz 0 opt=4", GOOD, "zll 1; ds 0 z3; dw 0 z3+8", "reporting option 04h" },
	{ "rz-opt-full", "hm", "finish z7", "rz 0 opt=5", GOOD, "zll 1; ds 0 z7; dc 0 full", "reporting option 05h" },
	{ "rz-opt-ro", "hm", "setcond 8 ro", "rz 0 opt=6", GOOD, "zll 1; ds 0 z8; dc 0 ro; dw 0 -", "reporting option 06h" },
	{ "rz-opt-offline", "hm", "setcond 9 offline", "rz 0 opt=7", GOOD, "zll 1; ds 0 z9; dc 0 offline; dw 0 -", "reporting option 07h" },
	{ "rz-opt-inactive", "hm", NULL, "rz 0 opt=8", GOOD, "zll 0", "reporting option 08h" },
	{ "rz-opt-rwp", "hm", NULL, "rz 0 opt=0x10", GOOD, "zll 0", "reporting option 10h" },
	{ "rz-opt-non-seq", "hm", NULL, "rz 0 opt=0x11", GOOD, "zll 0", "reporting option 11h" },
	{ "rz-opt-not-wp", "hm", NULL, "rz 0 opt=0x3f", GOOD, "zll 2; dt 1 1", "reporting option 3Fh" },
	{ "rz-opt-all-but-gap", "hm", NULL, "rz 0 opt=0x3e", GOOD, "zll 16", "reporting option 3Eh" },
	{ "rz-opt-invalid-09", "hm", NULL, "rz 0 opt=0x09", S_FIELD, "sks 14", "zbc.md 2.2: unknown option" },
	{ "rz-opt-invalid-20", "hm", NULL, "rz 0 opt=0x20", S_FIELD, "sks 14", "zbc.md 2.2: unknown option" },
	{ "rz-truncated-partial0", "hm", NULL, "rz 0 alloc=128", GOOD, "zll 16; ds 0 0", "zbc.md 2.2: PARTIAL=0 counts every zone" },
	{ "rz-truncated-partial1", "hm", NULL, "rz 0 alloc=128 partial", GOOD, "zll 1; ds 0 0", "PARTIAL=1 counts returned zones" },
	{ "rz-partial1-all-fit", "hm", NULL, "rz 0 partial", GOOD, "zll 16", "PARTIAL=1" },
	{ "rz-header-only", "hm", NULL, "rz 0 alloc=64", GOOD, "zll 16; be 8 8 cap-1", "sd_zbc capacity check style" },
	{ "rz-alloc-512", "hm", NULL, "rz 0 alloc=512", GOOD, "zll 16; ds 6 z6", "sd_zbc_check_capacity: 512 bytes, PARTIAL=0" },
	{ "rz-alloc-0", "hm", NULL, "rz 0 alloc=0", GOOD, NULL, "SPC-5: allocation length 0" },
	{ "rz-alloc-not-multiple", "hm", NULL, "rz 0 alloc=100", GOOD, "zll 16", "SPC-5 4.2.5.6" },
	{ "rz-filtered-truncated-partial1", "hm", "w z2 8; w z3 8; w z4 8", "rz 0 opt=2 partial alloc=192", GOOD, "zll 2; ds 1 z3", "PARTIAL with a filter" },
	{ "rz-filtered-truncated-partial0", "hm", "w z2 8; w z3 8; w z4 8", "rz 0 opt=2 alloc=192", GOOD, "zll 3; ds 0 z2", "PARTIAL=0 with a filter" },
	{ "rz-filtered-mid-start", "hm", "w z2 8; w z6 8", "rz z3 opt=2", GOOD, "zll 1; ds 0 z6", "filter from a start LBA" },
	{ "rz-wp-after-write", "hm", "w z2 24", "rz z2 alloc=128", GOOD, "dw 0 z2+24; dc 0 iopen", "WRITE POINTER LBA" },
	{ "rz-conv-wp-invalid", "hm", NULL, "rz 0 alloc=128", GOOD, "dw 0 -", "zbc.md 2.2: all-ones for conventional" },
	{ "zl-full-wp-invalid", "hm", "w z2 2048", "rz z2 alloc=128", GOOD, "dc 0 full; dw 0 -", "zonelab: FULL has no valid WP (docs/ZBC.md)" },
	{ "rz-swr-type", "hm", NULL, "rz z2 alloc=128", GOOD, "dt 0 2", "SWR zones on HM" },
	{ "rz-runt-last", "hm-runt", NULL, "rz z10", GOOD, "zll 1; ds 0 z10; dl 0 1024", "smaller last zone" },
	{ "rz-runt-max-lba", "hm-runt", NULL, "rz 0 alloc=64", GOOD, "zll 11; be 8 8 21503", "MAXIMUM LBA" },
	{ "rz-4kn-length", "hm-4kn", NULL, "rz z1 alloc=128", GOOD, "dl 0 256; ds 0 256", "lengths in logical blocks" },
	{ "rz-huge-count", "hm-huge", NULL, "rz 0 alloc=64", GOOD, "zll 8194", "many zones" },
	{ "rz-gap-layout", "hm-gap", NULL, "rz z2", GOOD, "zll 12; dt 0 2; dl 0 1536; dt 1 5; ds 1 z2+1536; dl 1 512; dw 1 -; dc 1 nwp; ds 2 z3", "ZBC-2 gap zones" },
	{ "rz-gap-granularity", "hm-gap", NULL, "rz 0 alloc=64", GOOD, "be 16 8 2048", "ZONE STARTING LBA GRANULARITY" },
	{ "rz-gap-start-in-gap", "hm-gap", NULL, "rz z2+1600", GOOD, "ds 0 z2+1536; dt 0 5", "report from inside a gap zone" },
	{ "rz-gap-all-but-gap", "hm-gap", NULL, "rz 0 opt=0x3e", GOOD, "zll 8", "reporting option 3Eh skips gaps" },
	{ "rz-gap-not-wp", "hm-gap", NULL, "rz 0 opt=0x3f", GOOD, "zll 8", "gap and conventional zones have no WP" },
	{ "rz-gap-all", "hm-gap", NULL, "rz 0", GOOD, "zll 14", "2 conventional + 6 x (SWR + gap)" },

	/* ---- gap zones ---- */
	{ "gap-write", "hm-gap", NULL, "w z2+1536 8", S_GAP, NULL, "ATTEMPT TO ACCESS GAP ZONE" },
	{ "gap-read", "hm-gap", NULL, "r z2+1536 8", S_GAP, NULL, "ATTEMPT TO ACCESS GAP ZONE" },
	{ "gap-read-into", "hm-gap", "w z2 1536", "r z2+1530 16", S_GAP, NULL, "read crossing into a gap zone" },
	{ "gap-write-into", "hm-gap", "w z2 1528", "w z2+1528 16", S_WBOUND, "zone z2 iopen z2+1528", "write crossing the zone end" },
	{ "gap-fill-full", "hm-gap", "w z2 1528", "w z2+1528 8", GOOD, "zone z2 full", "capacity reached" },
	{ "gap-open", "hm-gap", NULL, "open z2+1536", S_FIELD, NULL, "zone op on a gap zone" },
	{ "gap-reset-all", "hm-gap", "w z2 8; w z3 16", "reset all", GOOD, "zone z2 empty z2; zone z3 empty z3", "RESET ALL with gaps" },
	{ "gap-finish", "hm-gap", NULL, "finish z3", GOOD, "zone z3 full", "FINISH with a gap" },
	{ "gap-read-seq", "hm-gap", "w z2 16", "r z2 16", GOOD, "data pat z2", "reads inside the capacity" },

	/* ---- runt zone ---- */
	{ "runt-fill", "hm-runt", "w z10 1016", "w z10+1016 8", GOOD, "zone z10 full", "smaller last zone fills" },
	{ "runt-past-end", "hm-runt", "w z10 1016", "w z10+1016 16", S_LBA, "zone z10 iopen z10+1016", "LBA OUT OF RANGE first" },
	{ "runt-finish", "hm-runt", NULL, "finish z10", GOOD, "zone z10 full", "FINISH of the runt zone" },
	{ "runt-open", "hm-runt", NULL, "open z10", GOOD, "zone z10 eopen z10", "OPEN of the runt zone" },
	{ "runt-read-last", "hm-runt", "w z10 1024", "r cap-8 8", GOOD, "data pat cap-8", "last LBAs" },

	/* ---- read-only and offline zones ---- */
	{ "ro-write", "hm", "setcond 3 ro", "w z3 8", S_RO, NULL, "zbc.md 2.4: ZONE IS READ ONLY" },
	{ "ro-read", "hm", "w z3 8; setcond 3 ro", "r z3 8", GOOD, "data pat z3", "READ ONLY zones can be read" },
	{ "ro-open", "hm", "setcond 3 ro", "open z3", S_RO, NULL, "zone op on READ ONLY" },
	{ "ro-reset", "hm", "setcond 3 ro", "reset z3", S_RO, NULL, "zone op on READ ONLY" },
	{ "ro-report", "hm", "setcond 3 ro", "rz z3 alloc=128", GOOD, "dc 0 ro; dw 0 -", "WP invalid for READ ONLY" },
	{ "ro-conv-write", "hm", "setcond 1 ro", "w z1 8", S_RO, NULL, "conventional READ ONLY zone" },
	{ "ro-reset-all-skips", "hm", "w z2 8; setcond 3 ro", "reset all", GOOD, "zone z2 empty z2; zone z3 ro -", "ALL skips READ ONLY" },
	{ "offline-read", "hm", "setcond 4 offline", "r z4 8", S_OFFLINE, NULL, "zbc.md 2.4: ZONE IS OFFLINE" },
	{ "offline-write", "hm", "setcond 4 offline", "w z4 8", S_OFFLINE, NULL, "ZONE IS OFFLINE" },
	{ "offline-open", "hm", "setcond 4 offline", "open z4", S_OFFLINE, NULL, "zone op on OFFLINE" },
	{ "offline-finish", "hm", "setcond 4 offline", "finish z4", S_OFFLINE, NULL, "zone op on OFFLINE" },
	{ "offline-report", "hm", "setcond 4 offline", "rz z4 alloc=128", GOOD, "dc 0 offline; dw 0 -", "fio #1490: WP invalid for OFFLINE" },
	{ "offline-reset-all-skips", "hm", "w z2 8; setcond 4 offline", "reset all", GOOD, "zone z2 empty z2; zone z4 offline -", "ALL skips OFFLINE" },
	{ "offline-read-across", "hm", "setcond 4 offline", "r z3+2040 16", S_OFFLINE, NULL, "a read touching an OFFLINE zone" },

	/* ---- persistence across close and reopen (FILE store) ---- */
	{ "persist-wp", "hm-file", "w z2 16; reopen", "rz z2 alloc=128", GOOD, "dc 0 closed; dw 0 z2+16", "open zones come back CLOSED" },
	{ "persist-data", "hm-file", "w z2 16; reopen", "r z2 16", GOOD, "data pat z2", "data survives" },
	{ "persist-conv-data", "hm-file", "w 100 8; reopen", "r 100 8", GOOD, "data pat 100", "conventional data survives" },
	{ "persist-eopen-written", "hm-file", "open z3; w z3 8; reopen", "tur", GOOD, "zone z3 closed z3+8", "EXP OPEN -> CLOSED" },
	{ "persist-eopen-empty", "hm-file", "open z3; reopen", "tur", GOOD, "zone z3 empty z3", "EXP OPEN at start -> EMPTY" },
	{ "persist-full", "hm-file", "finish z4; reopen", "tur", GOOD, "zone z4 full", "FULL survives" },
	{ "persist-reset", "hm-file", "w z2 8; reset z2; reopen", "r z2 8", GOOD, "zone z2 empty z2; zero z2 8", "RESET survives" },
	{ "persist-append-after-reopen", "hm-file", "w z2 8; reopen", "w z2+8 8", GOOD, "zone z2 iopen z2+16; pat z2 16", "WP continues" },
	{ "persist-nowce", "hm-file-nowce", "w z2 8; reopen", "r z2 8", GOOD, "data pat z2; zone z2 closed z2+8", "WCE=0" },

	/* ---- write cache semantics ---- */
	{ "wce-default-on", "hm-file", NULL, "ms10 8 dbd", GOOD, "bm 10 0x04 0x04", "geometry wce=1" },
	{ "wce-default-off", "hm-file-nowce", NULL, "ms10 8 dbd", GOOD, "bm 10 0x04 0", "geometry wce=0" },
	{ "wce-select-then-write", "hm-file", "wce 0", "w z2 8", GOOD, "wce 0; pat z2 8", "WCE=0 honoured" },
	{ "wce-off-power-cycle", "hm-file", "wce 0; w z2 16; pcycle", "r z2 16", GOOD, "data pat z2; zone z2 closed z2+16", "WCE=0: completed writes are durable" },
	{ "wce-on-sync-power-cycle", "hm-file", "w z2 16; sync; pcycle", "r z2 16", GOOD, "data pat z2; zone z2 closed z2+16", "SYNCHRONIZE CACHE makes writes durable" },
	{ "wce-on-fua-power-cycle", "hm-file", "wf z2 16; pcycle", "r z2 16", GOOD, "data pat z2; zone z2 closed z2+16", "FUA writes are durable" },
	{ "wce-select-reopen-default", "hm-file", "wce 0; reopen", "ms10 8 dbd", GOOD, "bm 10 0x04 0x04", "pages are not saved: reopen restores the default" },
	{ "wce-conv-nowce-power-cycle", "hm-file-nowce", "w 64 8; pcycle", "r 64 8", GOOD, "data pat 64", "WCE=0: conventional writes durable" },

	/* ---- unit attention ---- */
	{ "ua-after-power-cycle", "hm-file", "pcycle!", "tur", S_UA, "ok tur", "SAM-5 5.14: reported once" },
	{ "ua-request-sense", "hm-file", "pcycle!", "rs", GOOD, "bm 2 0x0f 6; b 12 0x29; ok tur", "REQUEST SENSE reports and clears it" },
	{ "ua-not-on-inquiry", "hm-file", "pcycle!", "inq", GOOD, "b 0 0x14", "SAM-5: INQUIRY is not blocked" },
};

const size_t zbc_nr_cases = sizeof(zbc_cases) / sizeof(zbc_cases[0]);
