/*
 * zscsi.h — transport-neutral SCSI / ZBC translation: CDB bytes and data
 * buffers in; status, sense and data out.
 *
 * No tcmu types: the tcmu-runner glue, the in-process test harness and the
 * fuzzer all call zscsi_execute() with raw CDBs.  Zone rules are not here:
 * zscsi parses the CDB, calls zdisk, and translates the zdisk/zdev error
 * reason into sense data exactly once.
 */
#ifndef ZSCSI_H
#define ZSCSI_H

#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

#include "zdisk.h"

#define ZSCSI_SENSE_LEN 18         /* fixed-format sense data we return */

/* SCSI status codes. */
enum {
	ZSCSI_GOOD = 0x00,
	ZSCSI_CHECK_CONDITION = 0x02,
	ZSCSI_BUSY = 0x08,
};

/* Where implementations disagree (see docs/ZBC.md): pick per spec revision. */
enum zscsi_profile {
	ZSCSI_PROFILE_ZBC2 = 0,    /* cross-type reads 21h/06h; OFFLINE/RO as DATA PROTECT */
	ZSCSI_PROFILE_DHSMR = 1,   /* cross-type reads 21h/07h */
};

struct zscsi_cfg {
	enum zscsi_profile profile;
	const char *vendor;        /* INQUIRY T10 VENDOR (8 chars max); NULL = "ZONELAB" */
	const char *product;       /* INQUIRY PRODUCT (16 chars max); NULL = "ZONED DISK" */
	const char *serial;        /* VPD 80h; NULL = derived from the device id */
	uint64_t naa_id;           /* VPD 83h NAA identifier (stable per device) */
};

struct zscsi;

void zscsi_cfg_init(struct zscsi_cfg *cfg);

/* A SCSI front for @disk (borrowed: it must outlive the zscsi). */
int zscsi_create(struct zdisk *disk, const struct zscsi_cfg *cfg, struct zscsi **out);
void zscsi_destroy(struct zscsi *s);

/*
 * Execute one command.  @iov/@iov_cnt is the data buffer: filled for
 * data-in commands (up to its size; the allocation length in the CDB also
 * limits it), read for data-out commands.  @sense gets ZSCSI_SENSE_LEN bytes
 * of fixed-format sense data when the status is CHECK CONDITION.
 * *@data_len (may be NULL) gets the number of data-in bytes produced:
 * exactly min(allocation length, bytes available, buffer size), cut
 * anywhere (SPC-5 4.2.5.6).  Every byte of a data-in command's buffer past
 * *@data_len is zeroed, whatever the status, so a transport that sends the
 * whole buffer sends nothing stale.
 * Thread-safe: commands may run concurrently from several threads.
 * Returns the SCSI status.
 */
uint8_t zscsi_execute(struct zscsi *s, const uint8_t *cdb, size_t cdb_len,
		      const struct iovec *iov, int iov_cnt, uint8_t *sense, size_t *data_len);

/*
 * The common READ: a READ(10) or (16) of data into one buffer, with no
 * unit attention or kept sense pending, that zdisk_read_try() takes.
 * Returns -1 if it declined before any I/O (nothing read, nothing
 * changed: give the command to zscsi_execute(), which decides and reports
 * everything), else the SCSI status, exactly as zscsi_execute() would give
 * it: GOOD with *@data_len bytes read, or CHECK CONDITION for a store
 * error, with sense as for any command.  For a caller that wants the
 * common READ in its own frame (the tcmu handler); zscsi_execute() gives
 * every READ the same answer through zdisk_readv(), which tries
 * zdisk_read_try() first.
 */
int zscsi_read_fast(struct zscsi *s, const uint8_t *cdb, size_t cdb_len,
		    const struct iovec *iov, int iov_cnt, uint8_t *sense, size_t *data_len);

#endif /* ZSCSI_H */
