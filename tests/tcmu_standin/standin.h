/*
 * standin.h — an in-process stand-in for tcmu-runner 1.5.4: it dlopen()s a
 * handler .so (ours or tcmu-runner's handler_file_zbc.so), provides the
 * tcmur_ and tcmu_ functions a handler calls, opens devices from a cfgstring
 * plus the size and block size configfs would give, and sends them CDBs.
 *
 * It is a test harness, not a target: no configfs, no ALUA, no generic
 * read/write path (only passthrough handlers, i.e. ->handle_cmd).  The
 * kernel's command ring is kept only as far as a handler can see it: each
 * device has a mailbox (tcmu_dev_get_memory_info()) and, for handlers with
 * nr_threads == 0, each command gets a ring entry that is completed as
 * libtcmu completes it; the data-in length a handler leaves there
 * (TCMU_UFLAG_READ_LEN) is read back as the kernel reads it.
 * The program that links it must be linked with -rdynamic so the handler's
 * undefined tcmu symbols resolve to this file's definitions.
 *
 * Command path as in tcmu-runner's tcmur_cmdproc_thread() for a passthrough
 * handler: ->handle_cmd(dev, tcmur_cmd) in the calling thread; a return of
 * TCMU_STS_ASYNC_HANDLED waits for tcmur_cmd_complete(); the TCMU status is
 * then turned into SCSI status + sense exactly as libtcmu's
 * tcmulib_command_complete() does.  Handlers with nr_threads > 0 may be
 * driven from several threads at once (the caller threads play the runner's
 * work queue); with nr_threads == 0 the caller must serialize per device.
 */
#ifndef STANDIN_H
#define STANDIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

#define STI_SENSE_LEN 96             /* = SENSE_BUFFERSIZE of tcmu-runner */

struct sti_handler;
struct sti_dev;

struct sti_dev_cfg {
	const char *cfgstring;       /* "<subtype>/<handler config>", as configfs dev_config */
	uint64_t size_bytes;         /* configfs dev_size (the "Size" info) */
	uint32_t block_size;         /* configfs hw_block_size: 512 or 4096 */
	uint32_t max_xfer_len;       /* hw_max_sectors, in blocks; 0 = 8192 */
	bool wce;                    /* emulate_write_cache */
	const char *wwn;             /* vpd_unit_serial; NULL = derived from cfgstring */
	bool reopen;                 /* ->open(dev, reopen) */
	bool no_read_len;            /* a kernel without TCMU_MAILBOX_FLAG_CAP_READ_LEN */
};

struct sti_result {
	uint8_t status;              /* SCSI status: 0 GOOD, 2 CHECK CONDITION, 8 BUSY, 28h TASK SET FULL */
	int tcmu_sts;                /* what the handler returned (TCMU_STS_*) */
	uint8_t sense[STI_SENSE_LEN];/* valid when status == 2 */
	size_t data_in_len;          /* bytes the handler copied into the buffer via the iovec helpers */
	/*
	 * The data-in length the handler reported in the ring entry
	 * (TCMU_UFLAG_READ_LEN + rsp.read_len), clamped to the buffer as
	 * the kernel's tcmu_handle_completion() does; 0 = none reported, and
	 * the kernel sends the whole buffer (or, with CHECK CONDITION, none).
	 */
	size_t read_len;
};

/* Sense helpers on sti_result.sense (fixed format). */
static inline uint8_t sti_sense_key(const struct sti_result *r)
{
	return r->sense[2] & 0x0f;
}

static inline uint16_t sti_sense_asc_ascq(const struct sti_result *r)
{
	return (uint16_t)(r->sense[12] << 8 | r->sense[13]);
}

/**
 * sti_handler_load() - dlopen @so_path and call its handler_init(), which
 * registers a struct tcmur_handler.  Several handlers may be loaded at once.
 * *@out set on success; @msg says what failed.  Returns 0, -ENOENT (file
 * missing), -EINVAL (not a handler), or the handler's init error.
 */
int sti_handler_load(const char *so_path, struct sti_handler **out, char *msg, size_t msg_len);
/* Calls ->destroy and dlclose()s; all devices must be closed.  NULL ok. */
void sti_handler_unload(struct sti_handler *h);
const char *sti_handler_subtype(const struct sti_handler *h);
const char *sti_handler_cfg_desc(const struct sti_handler *h);   /* may be NULL */
int sti_handler_nr_threads(const struct sti_handler *h);
/* ->check_config (true if absent); *@reason malloc'ed or NULL, caller frees. */
bool sti_handler_check_config(struct sti_handler *h, const char *cfgstring, char **reason);

/**
 * sti_dev_open() - a device as tcmu-runner creates it: check_config, then
 * ->open.  The cfgstring must start with the handler's subtype and '/'.
 * Returns 0, -EINVAL (subtype mismatch, check_config refused: reason in
 * @msg) or the ->open error.  Handler messages go to stderr (see
 * sti_set_log_level()).
 */
int sti_dev_open(struct sti_handler *h, const struct sti_dev_cfg *cfg, struct sti_dev **out,
		 char *msg, size_t msg_len);
/* ->close and free; NULL ok. */
void sti_dev_close(struct sti_dev *d);

/* num_lbas / block_size as the handler set them (tcmu_dev_set_*). */
uint64_t sti_dev_num_lbas(const struct sti_dev *d);
uint32_t sti_dev_block_size(const struct sti_dev *d);

/*
 * Reconfig requests, as the kernel sends them when dev_config, dev_size or
 * emulate_write_cache of an enabled device is written (what targetcli
 * restoreconfig does), through tcmu-runner 1.5.4's dev_reconfig(): -EOPNOTSUPP
 * if the handler has no ->reconfig; a size whose LBA count equals the
 * current one succeeds without calling it (dev_resize()); otherwise the
 * handler's result.  On success the device's configfs value is the new one
 * (num_lbas/Size, emulate_write_cache); the cfgstring stays what libtcmu
 * parsed at open, as in libtcmu.  Returns 0 or -errno.
 */
int sti_dev_reconfig_cfgstring(struct sti_dev *d, const char *dev_config);
int sti_dev_reconfig_size(struct sti_dev *d, uint64_t size_bytes);
int sti_dev_reconfig_write_cache(struct sti_dev *d, bool on);
/* What the handler told libtcmu (tcmu_dev_set_write_cache_enabled()) or configfs says. */
bool sti_dev_write_cache(const struct sti_dev *d);

/**
 * sti_execv() - send one CDB with data buffer @iov (data-in commands fill
 * it, data-out commands read it; the iovec array itself is not modified).
 * Returns the SCSI status (also in @r).
 */
uint8_t sti_execv(struct sti_dev *d, const uint8_t *cdb, size_t cdb_len,
		  const struct iovec *iov, int iov_cnt, struct sti_result *r);
/* One contiguous buffer (may be NULL with @len 0); inline: no extra frame per command. */
static inline uint8_t sti_exec(struct sti_dev *d, const uint8_t *cdb, size_t cdb_len,
			       void *buf, size_t len, struct sti_result *r)
{
	struct iovec iov = { .iov_base = buf, .iov_len = len };

	return sti_execv(d, cdb, cdb_len, &iov, len ? 1 : 0, r);
}

/*
 * Handler log messages at or below @level go to stderr (syslog levels:
 * 2 crit, 3 err, 4 warn, 6 info, 7 debug); default 3, or $ZL_STANDIN_LOG.
 * -1 silences everything.
 */
void sti_set_log_level(int level);

/* "TCMU_STS_PASSTHROUGH_ERR" etc. */
const char *sti_sts_name(int sts);

#endif /* STANDIN_H */
