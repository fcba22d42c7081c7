/*
 * zstats.h — counters of an emulated disk, per operation and outcome, and
 * their JSON form.  Plain data; zdisk updates it under its lock.
 */
#ifndef ZSTATS_H
#define ZSTATS_H

#include <stddef.h>
#include <stdint.h>

#include "zl_err.h"

#define ZL_NR_ERR_KINDS (ZL_E_LAST - ZL_E_BASE)

struct zl_stats {
	uint64_t reads, read_lbas;           /* successful commands, LBAs transferred */
	uint64_t writes, write_lbas;
	/*
	 * Of those writes, the ones written through at the command's demand
	 * (zdisk_writev()'s @fua: the FUA bit of WRITE(10/12/16) and COMPARE
	 * AND WRITE, and WRITE AND VERIFY, which writes to the medium before it
	 * verifies), and their LBAs: what a version-1 blktrace on 6.19+ does not
	 * see (docs/E2E.md kernel_wa).
	 */
	uint64_t fua_writes, fua_write_lbas;
	uint64_t flushes;
	uint64_t reports, report_zones;      /* zdisk_report() calls (a SCSI REPORT ZONES makes one per
						256 zones), descriptors returned */
	uint64_t imp_opens, exp_opens;       /* zone transitions */
	uint64_t imp_closes, exp_closes;
	uint64_t finishes, resets;
	uint64_t zone_ops;                   /* successful zone management commands */
	/*
	 * The same commands per operation, a command with ALL apart (one each,
	 * whatever it touched), counted whether or not a zone changed (a
	 * RESET of an EMPTY zone is a command the host sent), and the zones
	 * they acted on: 1 for a single-zone command, the zones changed for ALL.
	 */
	uint64_t zop_reset, zop_reset_all, zop_finish, zop_finish_all;
	uint64_t zop_open, zop_open_all, zop_close, zop_close_all;
	uint64_t zop_zones;
	uint64_t errors;                     /* commands that failed, all kinds */
	uint64_t err_errno;                  /* failures with an errno (store I/O) */
	uint64_t err_kind[ZL_NR_ERR_KINDS];  /* failures per ZL_E_* code (index err - ZL_E_BASE) */
	uint64_t faults_fired;               /* fault verdicts acted on */
	uint64_t injected_delay_ns;
	uint64_t power_cycles;
};

static inline void zl_stats_count_err(struct zl_stats *s, int err)
{
	s->errors++;
	if (zl_is_own_error(err))
		s->err_kind[err - ZL_E_BASE]++;
	else
		s->err_errno++;
}

/* JSON object (no trailing newline).  Returns length, or -ENOSPC if @len is too small. */
int zl_stats_json(const struct zl_stats *s, char *buf, size_t len);

#endif /* ZSTATS_H */
