/*
 * zbc_cases.h — a table-driven ZBC conformance suite that any SCSI target
 * can run: zscsi in-process (tests/unit/test_zscsi_conformance.c) or a
 * tcmu-runner handler .so loaded by the in-process stand-in.
 *
 * A case names a geometry, a list of setup steps, one command under test,
 * the expected status and sense (key/ASC/ASCQ), and checks afterwards (zone
 * condition and write pointer through REPORT ZONES, bytes of the returned
 * data, data read back).  Steps and checks are written in a small text DSL
 * (documented in zbc_runner.c) so the table stays readable as a spec.
 *
 * The runner knows nothing of zonelab: it reaches the target only through
 * struct zbc_target (open a device with a geometry, execute a CDB, optional
 * control actions).  It links into every test program, so it must not call
 * zonelab functions.
 */
#ifndef ZBC_CASES_H
#define ZBC_CASES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Data direction of a command. */
enum zbc_dir {
	ZBC_DIR_NONE = 0,
	ZBC_DIR_IN = 1,     /* device to host */
	ZBC_DIR_OUT = 2,    /* host to device */
};

/*
 * Geometry of the device a case runs on.  @desc is a cfgstring-like text
 * of the same fields for humans and for glue that speaks cfgstrings.
 */
struct zbc_geom {
	const char *name;
	const char *desc;
	uint32_t lba_size;         /* bytes */
	uint32_t pblock_size;      /* bytes */
	uint64_t capacity_lba;
	uint64_t zone_size_lba;
	uint64_t zone_cap_lba;     /* 0 = zone size */
	bool gap_zones;            /* cap < size shown as gap zones */
	uint32_t nr_conv;          /* conventional zones at LBA 0 */
	bool host_aware;
	uint32_t max_open;         /* 0 = no limit */
	bool file_backed;          /* persistence cases: the image must survive close */
	bool wce;                  /* write cache enabled at open */
};

extern const struct zbc_geom zbc_geoms[];
extern const size_t zbc_nr_geoms;
const struct zbc_geom *zbc_geom_find(const char *name);

/* Expected outcome: GOOD, or CHECK CONDITION with this sense. */
#define ZBC_GOOD 0u
#define ZBC_SENSE(key, asc, ascq) (0x1000000u | (uint32_t)(key) << 16 | (uint32_t)(asc) << 8 | (ascq))

struct zbc_case {
	const char *id;            /* unique, stable: "rz-opt-empty" */
	const char *geom;          /* zbc_geom name */
	const char *setup;         /* DSL steps, ';'-separated; each must succeed */
	const char *cmd;           /* the DSL step under test */
	uint32_t expect;           /* ZBC_GOOD or ZBC_SENSE() */
	const char *check;         /* DSL checks, ';'-separated, or NULL */
	const char *ref;           /* spec clause / source of the expectation */
};

extern const struct zbc_case zbc_cases[];
extern const size_t zbc_nr_cases;

/* Control actions a target may support (others make a case skip). */
enum zbc_ctl {
	ZBC_CTL_POWER_CYCLE = 1,   /* drop volatile state, reload from the store */
	ZBC_CTL_SET_COND,          /* zone @zone -> condition @cond (0xd READ ONLY, 0xf OFFLINE) */
};

/*
 * Execute one CDB with a data buffer of @buflen bytes (the initiator's
 * expected transfer length).  *@xfer_len gets the data-in bytes the
 * initiator receives: what the target reports as transferred (the TCMU
 * read length, zscsi's data length), or @buflen where the transport sends
 * the whole buffer.
 */
typedef uint8_t (*zbc_exec_fn)(void *dev, const uint8_t *cdb, size_t len, void *buf,
			       size_t buflen, int dir, uint8_t *sense, size_t *xfer_len);

struct zbc_target {
	const char *name;
	void *ctx;
	/*
	 * Open a device with @geo.  @create: a fresh image (any old one is
	 * replaced); otherwise reopen the image of the last create with the
	 * same geometry (persistence cases).  Returns the device or NULL with
	 * a reason in @msg.
	 */
	void *(*open)(void *ctx, const struct zbc_geom *geo, bool create, char *msg, size_t msg_len);
	void (*close)(void *ctx, void *dev);
	zbc_exec_fn exec;
	/* Returns 0, or -ENOTSUP (the case is skipped), or another -errno. */
	int (*control)(void *ctx, void *dev, enum zbc_ctl op, uint32_t zone, uint8_t cond);
	/*
	 * The transport sends the whole buffer (no data-in length: a kernel
	 * without TCMU's read-length capability); the transfer-length table
	 * then checks the zeroing only.
	 */
	bool xfer_whole_buffer;
};

enum zbc_result {
	ZBC_PASS = 0,
	ZBC_FAIL = 1,
	ZBC_SKIP = 77,
};

/*
 * Run one case against @t.  @msg gets what differed (or why it skipped).
 */
enum zbc_result zbc_run_case(const struct zbc_target *t, const struct zbc_case *c,
			     char *msg, size_t msg_len);

/*
 * Run every case whose id starts with @prefix (NULL = all), print one line
 * per failure or skip (all lines with @verbose) to @out (may be NULL).
 * Counts go to the pointers (may be NULL).  Returns the number of failures.
 */
int zbc_run_all(const struct zbc_target *t, const char *prefix, FILE *out, bool verbose,
		unsigned *nr_pass, unsigned *nr_fail, unsigned *nr_skip);

/*
 * The transfer-length table (zbc_xfer.c): every data-in command at every
 * allocation length from 0 to the full size + 1 (and the field's largest
 * value), into a buffer of that length prefilled with a pattern.  The
 * first min(allocation length, available) bytes must be the full
 * response's, every byte after them zero (SPC-5 4.2.5.6), and the
 * transfer length the target reports min(allocation length, available).
 */
enum zbc_avail {
	ZBC_AV_INQ,         /* standard INQUIRY: ADDITIONAL LENGTH + 5 */
	ZBC_AV_VPD,         /* VPD page: PAGE LENGTH (bytes 2-3) + 4 */
	ZBC_AV_MS6,         /* MODE DATA LENGTH (byte 0) + 1 */
	ZBC_AV_MS10,        /* MODE DATA LENGTH (bytes 0-1) + 2 */
	ZBC_AV_RSOC_ALL,    /* COMMAND DATA LENGTH (bytes 0-3) + 4 */
	ZBC_AV_RSOC_ONE,    /* 4 + CDB SIZE, + 12 with CTDP */
	ZBC_AV_SENSE,       /* fixed sense: ADDITIONAL SENSE LENGTH + 8 */
	ZBC_AV_RZ,          /* REPORT ZONES: 64 + ZONE LIST LENGTH (all fit) */
	ZBC_AV_8,           /* always 8 bytes (READ CAPACITY(10)) */
	ZBC_AV_32,          /* always 32 bytes (READ CAPACITY(16)) */
};

struct zbc_xfer_case {
	const char *id;
	const char *geom;
	const char *setup;         /* DSL steps, or NULL */
	const char *cdb;           /* hex, ALLOCATION LENGTH field zero */
	uint8_t alloc_off;         /* CDB byte of ALLOCATION LENGTH */
	uint8_t alloc_size;        /* its bytes: 1, 2 or 4; 0 = none (the buffer is the limit) */
	enum zbc_avail avail;
	bool rz_partial;           /* REPORT ZONES PARTIAL=1: bytes 0-3 count whole descriptors */
};

extern const struct zbc_xfer_case zbc_xfer_cases[];
extern const size_t zbc_nr_xfer_cases;

enum zbc_result zbc_run_xfer_case(const struct zbc_target *t, const struct zbc_xfer_case *c,
				  char *msg, size_t msg_len);
/* As zbc_run_all(), over the transfer-length table. */
int zbc_run_xfer_all(const struct zbc_target *t, FILE *out, bool verbose,
		     unsigned *nr_pass, unsigned *nr_fail, unsigned *nr_skip);

#endif /* ZBC_CASES_H */
