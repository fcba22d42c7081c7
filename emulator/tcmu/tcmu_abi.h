/*
 * tcmu_abi.h — the part of the tcmu-runner 1.5.4 handler ABI that zonelab
 * uses, declared here because Debian's tcmu-runner package installs no
 * headers.  Layouts and prototypes match tcmu-runner 1.5.4 (tcmu-runner.h,
 * libtcmu.h, libtcmu_common.h, libtcmu_log.h, tcmur_device.h) exactly; the check
 * tests/scripts/030-tcmu-abi.sh compiles the same sizeof/offsetof probe
 * against this header and against the upstream headers and diffs them.
 *
 * This is not a copy of tcmu-runner's headers: only what a passthrough
 * handler (one that takes raw CDBs through ->handle_cmd) and the in-process
 * stand-in (tests/tcmu_standin) need.  Structures the runner allocates and a
 * handler only reads (tcmur_cmd, tcmulib_cmd) and the handler table the
 * runner reads (tcmur_handler) are declared in full, because their size and
 * every offset matter; struct tcmu_device stays opaque.
 */
#ifndef TCMU_ABI_H
#define TCMU_ABI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <sys/types.h>
#include <sys/uio.h>

struct tcmu_device;               /* opaque, owned by libtcmu */
struct tcmulib_cfg_info;          /* ->reconfig's argument, below */

/*
 * TCMU_ABI_PROTOS_ONLY: the ABI check includes the upstream headers first
 * and then only our prototypes, so the compiler rejects any prototype that
 * differs from tcmu-runner's.
 */
#ifndef TCMU_ABI_PROTOS_ONLY

/* TCMU return status codes (libtcmu_common.h, anonymous enum). */
enum {
	TCMU_STS_ASYNC_HANDLED = -2,
	TCMU_STS_NOT_HANDLED = -1,
	TCMU_STS_OK = 0,
	TCMU_STS_NO_RESOURCE,
	TCMU_STS_PASSTHROUGH_ERR,      /* handler has set up the sense buffer */
	TCMU_STS_BUSY,
	TCMU_STS_WR_ERR,
	TCMU_STS_RD_ERR,
	TCMU_STS_MISCOMPARE,
	TCMU_STS_INVALID_CMD,
	TCMU_STS_INVALID_CDB,
	TCMU_STS_INVALID_PARAM_LIST,
	TCMU_STS_INVALID_PARAM_LIST_LEN,
	TCMU_STS_TIMEOUT,
	TCMU_STS_FENCED,
	TCMU_STS_HW_ERR,
	TCMU_STS_RANGE,
	TCMU_STS_FRMT_IN_PROGRESS,
	TCMU_STS_CAPACITY_CHANGED,
	TCMU_STS_NOTSUPP_SAVE_PARAMS,
	TCMU_STS_WR_ERR_INCOMPAT_FRMT,
	TCMU_STS_TRANSITION,
	TCMU_STS_IMPL_TRANSITION_ERR,
	TCMU_STS_EXPL_TRANSITION_ERR,
	TCMU_STS_NO_LOCK_HOLDERS,
	TCMU_STS_NOTSUPP_SEG_DESC_TYPE,
	TCMU_STS_NOTSUPP_TGT_DESC_TYPE,
	TCMU_STS_CP_TGT_DEV_NOTCONN,
	TCMU_STS_INVALID_CP_TGT_DEV_TYPE,
	TCMU_STS_TOO_MANY_SEG_DESC,
	TCMU_STS_TOO_MANY_TGT_DESC,
};

/*
 * libtcmu.h: what a reconfig request from the kernel (a write to the
 * device's dev_config, dev_size or emulate_write_cache in configfs once it
 * is enabled) asks the handler's ->reconfig to change.
 */
enum tcmulib_cfg_type {
	TCMULIB_CFG_DEV_CFGSTR,
	TCMULIB_CFG_DEV_SIZE,
	TCMULIB_CFG_WRITE_CACHE,
};

struct tcmulib_cfg_info {
	enum tcmulib_cfg_type type;

	union {
		uint64_t dev_size;         /* bytes */
		char *dev_cfgstring;       /* the whole dev_config: "<subtype>/<config>" */
		bool write_cache;
	} data;
};

#define SENSE_BUFFERSIZE 96            /* libtcmu_common.h; = TCMU_SENSE_BUFFERSIZE */

/* ccan/list/list.h */
struct list_node {
	struct list_node *next, *prev;
};

/* libtcmu_common.h: one command as libtcmu hands it out. */
struct tcmulib_cmd {
	uint16_t cmd_id;
	uint8_t *cdb;
	struct iovec *iovec;               /* data buffer; helpers consume it */
	size_t iov_cnt;
	uint8_t sense_buf[SENSE_BUFFERSIZE];
	void *hm_private;                  /* tcmu-runner: the struct tcmur_cmd */
};

/* tcmu-runner.h: the runner's wrapper around a tcmulib_cmd. */
struct tcmur_cmd {
	struct tcmulib_cmd *lib_cmd;
	struct iovec *iovec;               /* compound commands (CAW, format...) */
	size_t iov_cnt;
	void *iov_base_copy;
	void *cmd_state;
	size_t requested;                  /* bytes to read/write from iovec */
	struct list_node cmds_list_entry;
	struct timespec start_time;
	bool timed_out;
	/* completion callback; called through tcmur_cmd_complete() */
	void (*done)(struct tcmu_device *dev, struct tcmur_cmd *cmd, int ret);
};

/* tcmu-runner.h: the table a handler .so registers from handler_init(). */
struct tcmur_handler {
	const char *name;                  /* human-friendly name */
	const char *subtype;               /* cfgstring prefix "<subtype>/" */
	const char *cfg_desc;              /* description of the cfgstring */
	void *opaque;                      /* handler private data */

	/* true if the cfgstring is valid; else *reason = malloc'ed text */
	bool (*check_config)(const char *cfgstring, char **reason);
	int (*reconfig)(struct tcmu_device *dev, struct tcmulib_cfg_info *cfg);

	int (*open)(struct tcmu_device *dev, bool reopen);
	void (*close)(struct tcmu_device *dev);

	/*
	 * 0: ->handle_cmd runs on the device's command-processing thread, one
	 * command at a time; > 0: up to nr_threads calls run concurrently
	 * from the runner's work queue.
	 */
	int nr_threads;

	/*
	 * Passthrough entry (the only I/O callout of a handler without
	 * read/write/flush): returns a TCMU_STS_* code, TCMU_STS_NOT_HANDLED,
	 * or TCMU_STS_ASYNC_HANDLED after which the handler completes the
	 * command with tcmur_cmd_complete().
	 */
	int (*handle_cmd)(struct tcmu_device *dev, struct tcmur_cmd *cmd);

	/* Callouts of tcmur_generic_handle_cmd(); NULL for passthrough. */
	int (*read)(struct tcmu_device *dev, struct tcmur_cmd *cmd,
		    struct iovec *iovec, size_t iov_cnt, size_t len, off_t off);
	int (*write)(struct tcmu_device *dev, struct tcmur_cmd *cmd,
		     struct iovec *iovec, size_t iov_cnt, size_t len, off_t off);
	int (*flush)(struct tcmu_device *dev, struct tcmur_cmd *cmd);
	int (*unmap)(struct tcmu_device *dev, struct tcmur_cmd *cmd,
		     uint64_t off, uint64_t len);
	int (*writesame)(struct tcmu_device *dev, struct tcmur_cmd *cmd, uint64_t off,
			 uint64_t len, struct iovec *iovec, size_t iov_cnt);
	int (*caw)(struct tcmu_device *dev, struct tcmur_cmd *cmd, uint64_t off,
		   uint64_t len, struct iovec *iovec, size_t iov_cnt);

	int (*report_event)(struct tcmu_device *dev);

	int (*lock)(struct tcmu_device *dev, uint16_t tag);
	int (*unlock)(struct tcmu_device *dev);
	int (*get_lock_tag)(struct tcmu_device *dev, uint16_t *tag);
	int (*get_lock_state)(struct tcmu_device *dev);

	bool _is_dbus_handler;             /* runner-internal: leave false */

	bool (*update_logdir)(void);
	int (*init)(void);
	void (*destroy)(void);
};

/*
 * The kernel's command ring (uapi <linux/target_core_user.h>, mailbox
 * version 2), as far as a handler needs it to report the data-in length of
 * a command (docs/TCMU.md, "Data-in length").  Declared here under our own
 * names because that header redefines struct iovec; the layout is the
 * kernel's (asserted below).  tcmu-runner 1.5.4 has no API for it.
 */
#define ZL_TCMU_MAILBOX_VERSION 2
#define ZL_TCMU_MAILBOX_FLAG_CAP_READ_LEN (1 << 1)  /* the kernel honours READ_LEN */
#define ZL_TCMU_UFLAG_READ_LEN 0x2                   /* rsp.read_len is valid */
#define ZL_TCMU_OP_MASK 0x7
enum { ZL_TCMU_OP_PAD = 0, ZL_TCMU_OP_CMD = 1 };

struct zl_tcmu_mailbox {
	uint16_t version;
	uint16_t flags;                    /* TCMU_MAILBOX_FLAG_CAP_* */
	uint32_t cmdr_off;                 /* ring offset from the mailbox, bytes */
	uint32_t cmdr_size;                /* ring size, bytes */
	uint32_t cmd_head;                 /* kernel: next entry it writes, ring offset */
	uint32_t cmd_tail __attribute__((aligned(64)));  /* user: next entry to complete */
} __attribute__((packed));

struct zl_tcmu_entry_hdr {
	uint32_t len_op;                   /* entry length (8-byte multiple) | opcode */
	uint16_t cmd_id;
	uint8_t kflags;
	uint8_t uflags;                    /* ZL_TCMU_UFLAG_* */
} __attribute__((packed));

/* The response half of struct tcmu_cmd_entry (what userspace writes back). */
struct zl_tcmu_entry_rsp {
	struct zl_tcmu_entry_hdr hdr;
	uint8_t scsi_status;
	uint8_t pad1;
	uint16_t pad2;
	uint32_t read_len;                 /* data-in bytes, with ZL_TCMU_UFLAG_READ_LEN */
	char sense_buffer[96];
} __attribute__((packed));

_Static_assert(offsetof(struct zl_tcmu_mailbox, cmd_head) == 12, "uapi tcmu_mailbox");
_Static_assert(offsetof(struct zl_tcmu_mailbox, cmd_tail) == 64, "uapi tcmu_mailbox");
_Static_assert(sizeof(struct zl_tcmu_entry_hdr) == 8, "uapi tcmu_cmd_entry_hdr");
_Static_assert(offsetof(struct zl_tcmu_entry_rsp, read_len) == 12, "uapi tcmu_cmd_entry rsp");
_Static_assert(offsetof(struct zl_tcmu_entry_rsp, sense_buffer) == 16, "uapi tcmu_cmd_entry rsp");

#define tcmu_dev_err(dev, ...)  tcmu_err_message(dev, __func__, __LINE__, __VA_ARGS__)
#define tcmu_dev_warn(dev, ...) tcmu_warn_message(dev, __func__, __LINE__, __VA_ARGS__)
#define tcmu_dev_info(dev, ...) tcmu_info_message(dev, __func__, __LINE__, __VA_ARGS__)
#define tcmu_dev_dbg(dev, ...)  tcmu_dbg_message(dev, __func__, __LINE__, __VA_ARGS__)

#endif /* !TCMU_ABI_PROTOS_ONLY */

/*
 * Entry point every handler .so exports; it calls tcmur_register_handler().
 */
int handler_init(void);

/* tcmu-runner (the daemon exports these to handlers). */
int tcmur_register_handler(struct tcmur_handler *handler);
bool tcmur_unregister_handler(struct tcmur_handler *handler);
void tcmur_cmd_complete(struct tcmu_device *dev, void *data, int rc);
void tcmur_dev_set_private(struct tcmu_device *dev, void *priv);
void *tcmur_dev_get_private(struct tcmu_device *dev);

/* libtcmu: device attributes. */
void *tcmu_dev_get_private(struct tcmu_device *dev);
void tcmu_dev_set_private(struct tcmu_device *dev, void *priv);
char *tcmu_dev_get_cfgstring(struct tcmu_device *dev);
/* The mapped region (*@base: the mailbox); returns its malloc'ed name or NULL. */
char *tcmu_dev_get_memory_info(struct tcmu_device *dev, void **base, size_t *len, off_t *offset);
void tcmu_dev_set_num_lbas(struct tcmu_device *dev, uint64_t num_lbas);
uint64_t tcmu_dev_get_num_lbas(struct tcmu_device *dev);
void tcmu_dev_set_block_size(struct tcmu_device *dev, uint32_t block_size);
uint32_t tcmu_dev_get_block_size(struct tcmu_device *dev);
void tcmu_dev_set_max_xfer_len(struct tcmu_device *dev, uint32_t len);
uint32_t tcmu_dev_get_max_xfer_len(struct tcmu_device *dev);
void tcmu_dev_set_write_cache_enabled(struct tcmu_device *dev, bool enabled);
bool tcmu_dev_get_write_cache_enabled(struct tcmu_device *dev);
void tcmu_dev_set_solid_state_media(struct tcmu_device *dev, bool solid_state);
bool tcmu_dev_get_solid_state_media(struct tcmu_device *dev);
void tcmu_dev_set_unmap_enabled(struct tcmu_device *dev, bool enabled);
bool tcmu_dev_get_unmap_enabled(struct tcmu_device *dev);
uint32_t tcmu_dev_get_max_unmap_len(struct tcmu_device *dev);
uint32_t tcmu_dev_get_opt_unmap_gran(struct tcmu_device *dev);
uint32_t tcmu_dev_get_unmap_gran_align(struct tcmu_device *dev);

/* libtcmu: configfs (the stand-in answers these from its device config). */
int tcmu_cfgfs_dev_get_attr_int(struct tcmu_device *dev, const char *name);
uint64_t tcmu_cfgfs_dev_get_info_u64(struct tcmu_device *dev, const char *name,
				     int *fn_ret);
char *tcmu_cfgfs_dev_get_wwn(struct tcmu_device *dev);

/* libtcmu: CDB, iovec and sense helpers. */
int tcmu_cdb_get_length(uint8_t *cdb);
uint64_t tcmu_cdb_get_lba(uint8_t *cdb);
uint32_t tcmu_cdb_get_xfer_length(uint8_t *cdb);
size_t tcmu_iovec_seek(struct iovec *iovec, size_t count);
size_t tcmu_iovec_length(struct iovec *iovec, size_t iov_cnt);
size_t tcmu_memcpy_into_iovec(struct iovec *iovec, size_t iov_cnt, void *src, size_t len);
size_t tcmu_memcpy_from_iovec(void *dest, size_t len, struct iovec *iovec, size_t iov_cnt);
int tcmu_sense_set_data(uint8_t *sense_buf, uint8_t key, uint16_t asc_ascq);
void tcmu_sense_set_info(uint8_t *sense_buf, uint32_t info);
void tcmu_sense_set_key_specific_info(uint8_t *sense_buf, uint16_t info);
void __tcmu_sense_set_data(uint8_t *sense_buf, uint8_t key, uint16_t asc_ascq);

/* libtcmu_log.h: logging (use the tcmu_dev_err()... macros above). */
__attribute__((format(printf, 4, 5)))
void tcmu_crit_message(struct tcmu_device *dev, const char *funcname, int linenr, const char *fmt, ...);
__attribute__((format(printf, 4, 5)))
void tcmu_err_message(struct tcmu_device *dev, const char *funcname, int linenr, const char *fmt, ...);
__attribute__((format(printf, 4, 5)))
void tcmu_warn_message(struct tcmu_device *dev, const char *funcname, int linenr, const char *fmt, ...);
__attribute__((format(printf, 4, 5)))
void tcmu_info_message(struct tcmu_device *dev, const char *funcname, int linenr, const char *fmt, ...);
__attribute__((format(printf, 4, 5)))
void tcmu_dbg_message(struct tcmu_device *dev, const char *funcname, int linenr, const char *fmt, ...);

#endif /* TCMU_ABI_H */
