/*
 * standin.c — the in-process stand-in for tcmu-runner 1.5.4 (see standin.h):
 * handler loading, devices, the passthrough command path, and our own
 * definitions of the tcmur_/tcmu_ functions a handler imports (the set
 * `nm -D --undefined-only handler_file_zbc.so` lists, plus those zonelab's
 * handler uses).  Helper semantics follow libtcmu 1.5.4 (api.c, libtcmu.c):
 * the iovec helpers consume the iovec they are given, the sense helpers
 * write fixed-format sense, TCMU status codes map to SCSI status and sense
 * as tcmu_sts_to_scsi() does.  configfs lookups are answered from the
 * device's sti_dev_cfg.
 *
 * The ring: a mailbox per device and, for nr_threads == 0 handlers, one
 * entry per command, laid out as the kernel lays it out (PAD entries at the
 * wrap) and completed as libtcmu 1.5.4 completes it (status and sense
 * written into the entry at cmd_tail, uflags and read_len left alone), so a
 * handler that reports a data-in length there is checked against the same
 * layout the kernel reads.
 *
 * Not here: configfs, ALUA, the generic read/write callouts, command
 * timeouts, recovery.
 */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tcmu/tcmu_abi.h"
#include "tcmu_standin/standin.h"
#include "zl_be.h"

struct sti_handler {
	void *dl;
	struct tcmur_handler *rh;
	char path[PATH_MAX];
	int nr_devs;
};

/* What libtcmu keeps per device; handlers only see the pointer. */
struct tcmu_device {
	struct sti_handler *h;
	char cfgstring[PATH_MAX];
	uint64_t size_bytes;
	uint64_t num_lbas;
	uint32_t block_size;
	uint32_t hw_block_size;
	uint32_t max_xfer_len;
	bool wce, solid_state, unmap;
	char wwn[64];
	void *tcmur_priv;              /* tcmur_dev_set_private() */
	void *tcmu_priv;               /* tcmu_dev_set_private() */
	struct zl_tcmu_mailbox *mb;    /* the mapped region: mailbox, then the ring */
};

/*
 * Ring geometry: the mailbox's own cache lines, then a ring whose size is
 * no multiple of an entry's, so entries wrap with a PAD as the kernel's do.
 */
#define STI_RING_OFF 128u
#define STI_RING_SIZE 4000u
#define STI_ENTRY_BASE 112u           /* sizeof(struct tcmu_cmd_entry), packed */

struct sti_dev {
	struct tcmu_device dev;
};

/*
 * One command in flight.  tcmu-runner keeps a command structure per ring
 * slot; the stand-in keeps one per calling thread (sti_execv is synchronous),
 * so the lock and condition are set up once, not per command, and the
 * per-command work is what libtcmu does: fill in the CDB, the iovec and a
 * cleared sense buffer.
 */
struct sti_cmd {
	struct tcmur_cmd rcmd;
	struct tcmulib_cmd lcmd;
	uint8_t cdb[32];
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool done;
	int rc;
	uint16_t next_id;          /* this slot's command ids (sti_execv()) */
};

static atomic_uint sti_nr_slots;           /* slots made so far: each gets its own ids */

static pthread_key_t sti_slot_key;         /* only to free the slot at thread exit */
static pthread_once_t sti_slot_once = PTHREAD_ONCE_INIT;
/* initial-exec: the stand-in is linked into programs, never dlopen()ed, so
 * the per-command lookup is one load instead of a __tls_get_addr() call */
static __thread struct sti_cmd *sti_slot __attribute__((tls_model("initial-exec")));

static void sti_slot_free(void *p)
{
	struct sti_cmd *c = p;

	pthread_cond_destroy(&c->cond);
	pthread_mutex_destroy(&c->lock);
	free(c);
}

static void sti_slot_key_init(void)
{
	if (pthread_key_create(&sti_slot_key, sti_slot_free))
		abort();
}

/* This thread's command slot (NULL: out of memory). */
static struct sti_cmd *sti_slot_get(void)
{
	struct sti_cmd *c = sti_slot;

	if (c)
		return c;
	pthread_once(&sti_slot_once, sti_slot_key_init);
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	pthread_mutex_init(&c->lock, NULL);
	pthread_cond_init(&c->cond, NULL);
	/* ids slot << 8 | n: unique among commands in flight (one per slot) for 256 threads */
	c->next_id = (uint16_t)(atomic_fetch_add(&sti_nr_slots, 1) << 8);
	pthread_setspecific(sti_slot_key, c);   /* freed when the thread exits */
	sti_slot = c;
	return c;
}

static int sti_log_level = -2;               /* -2: not yet read from the environment */
static pthread_mutex_t sti_reg_lock = PTHREAD_MUTEX_INITIALIZER;
static struct tcmur_handler *sti_registered;  /* set by handler_init() during load */

#define STI_MIN(a, b) ((a) < (b) ? (a) : (b))

/* ---- loading ---------------------------------------------------------- */

int sti_handler_load(const char *so_path, struct sti_handler **out, char *msg, size_t msg_len)
{
	struct sti_handler *h;
	int (*init)(void);
	int ret;

	if (access(so_path, R_OK) != 0) {
		snprintf(msg, msg_len, "%s: %s", so_path, strerror(errno));
		return -ENOENT;
	}
	h = calloc(1, sizeof(*h));
	if (!h)
		return -ENOMEM;
	snprintf(h->path, sizeof(h->path), "%s", so_path);
	/* tcmu-runner: dlopen(path, RTLD_NOW|RTLD_LOCAL) */
	h->dl = dlopen(so_path, RTLD_NOW | RTLD_LOCAL);
	if (!h->dl) {
		snprintf(msg, msg_len, "dlopen: %s", dlerror());
		ret = -EINVAL;
		goto out_free;
	}
	init = (int (*)(void))dlsym(h->dl, "handler_init");
	if (!init) {
		snprintf(msg, msg_len, "%s: no handler_init symbol", so_path);
		ret = -EINVAL;
		goto out_close;
	}
	pthread_mutex_lock(&sti_reg_lock);
	sti_registered = NULL;
	ret = init();
	h->rh = sti_registered;
	sti_registered = NULL;
	pthread_mutex_unlock(&sti_reg_lock);
	if (ret) {
		snprintf(msg, msg_len, "%s: handler_init returned %d", so_path, ret);
		goto out_close;
	}
	if (!h->rh || !h->rh->subtype) {
		snprintf(msg, msg_len, "%s: handler_init registered no handler", so_path);
		ret = -EINVAL;
		goto out_close;
	}
	if (!h->rh->handle_cmd || h->rh->read || h->rh->write || h->rh->flush) {
		snprintf(msg, msg_len, "%s: not a passthrough handler (the stand-in drives ->handle_cmd only)",
			 so_path);
		ret = -EINVAL;
		goto out_destroy;
	}
	*out = h;
	return 0;

out_destroy:
	if (h->rh->destroy)
		h->rh->destroy();
out_close:
	dlclose(h->dl);
out_free:
	free(h);
	return ret;
}

void sti_handler_unload(struct sti_handler *h)
{
	if (!h)
		return;
	if (h->rh->destroy)
		h->rh->destroy();
	dlclose(h->dl);
	free(h);
}

const char *sti_handler_subtype(const struct sti_handler *h)
{
	return h->rh->subtype;
}

const char *sti_handler_cfg_desc(const struct sti_handler *h)
{
	return h->rh->cfg_desc;
}

int sti_handler_nr_threads(const struct sti_handler *h)
{
	return h->rh->nr_threads;
}

bool sti_handler_check_config(struct sti_handler *h, const char *cfgstring, char **reason)
{
	*reason = NULL;
	if (!h->rh->check_config)
		return true;
	return h->rh->check_config(cfgstring, reason);
}

/* ---- devices ---------------------------------------------------------- */

int sti_dev_open(struct sti_handler *h, const struct sti_dev_cfg *cfg, struct sti_dev **out,
		 char *msg, size_t msg_len)
{
	size_t sub_len = strlen(h->rh->subtype);
	struct sti_dev *d;
	char *reason = NULL;
	int ret;

	if (strncmp(cfg->cfgstring, h->rh->subtype, sub_len) != 0 || cfg->cfgstring[sub_len] != '/') {
		snprintf(msg, msg_len, "cfgstring '%s' does not start with '%s/'", cfg->cfgstring,
			 h->rh->subtype);
		return -EINVAL;
	}
	if (!sti_handler_check_config(h, cfg->cfgstring, &reason)) {
		snprintf(msg, msg_len, "check_config: %s", reason ? reason : "(no reason given)");
		free(reason);
		return -EINVAL;
	}
	free(reason);

	d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	d->dev.h = h;
	snprintf(d->dev.cfgstring, sizeof(d->dev.cfgstring), "%s", cfg->cfgstring);
	d->dev.size_bytes = cfg->size_bytes;
	d->dev.hw_block_size = cfg->block_size ? cfg->block_size : 512;
	/* tcmu-runner's dev_added(): block size and LBAs from configfs first */
	d->dev.block_size = d->dev.hw_block_size;
	d->dev.num_lbas = cfg->size_bytes / d->dev.block_size;
	d->dev.max_xfer_len = cfg->max_xfer_len ? cfg->max_xfer_len : 8192;
	d->dev.wce = cfg->wce;
	if (cfg->wwn) {
		snprintf(d->dev.wwn, sizeof(d->dev.wwn), "%s", cfg->wwn);
	} else {
		uint64_t hsh = 1469598103934665603ULL;   /* FNV-1a of the cfgstring */

		for (const char *p = cfg->cfgstring; *p; p++)
			hsh = (hsh ^ (uint8_t)*p) * 1099511628211ULL;
		snprintf(d->dev.wwn, sizeof(d->dev.wwn), "%08x-%04x-%04x-%04x-%012llx",
			 (unsigned)(hsh >> 32), (unsigned)(hsh >> 16) & 0xffff, (unsigned)hsh & 0xffff,
			 (unsigned)(hsh >> 48), (unsigned long long)(hsh & 0xffffffffffffULL));
	}

	/* (posix_memalign: aligned_alloc wants a size that is a multiple of 64) */
	if (posix_memalign((void **)&d->dev.mb, 64, STI_RING_OFF + STI_RING_SIZE)) {
		free(d);
		return -ENOMEM;
	}
	memset(d->dev.mb, 0, STI_RING_OFF + STI_RING_SIZE);
	d->dev.mb->version = ZL_TCMU_MAILBOX_VERSION;
	d->dev.mb->flags = 1 << 0 | (cfg->no_read_len ? 0 : ZL_TCMU_MAILBOX_FLAG_CAP_READ_LEN);
	d->dev.mb->cmdr_off = STI_RING_OFF;
	d->dev.mb->cmdr_size = STI_RING_SIZE;

	if (h->rh->open) {
		ret = h->rh->open(&d->dev, cfg->reopen);
		if (ret) {
			snprintf(msg, msg_len, "%s ->open failed: %d (%s)", h->rh->subtype, ret,
				 ret < 0 ? strerror(-ret) : "?");
			free(d->dev.mb);
			free(d);
			return ret < 0 ? ret : -EIO;
		}
	}
	h->nr_devs++;
	*out = d;
	return 0;
}

void sti_dev_close(struct sti_dev *d)
{
	if (!d)
		return;
	if (d->dev.h->rh->close)
		d->dev.h->rh->close(&d->dev);
	d->dev.h->nr_devs--;
	free(d->dev.mb);
	free(d);
}

uint64_t sti_dev_num_lbas(const struct sti_dev *d)
{
	return d->dev.num_lbas;
}

uint32_t sti_dev_block_size(const struct sti_dev *d)
{
	return d->dev.block_size;
}

/* ---- reconfig: libtcmu's reconfig_device() + tcmu-runner's dev_reconfig() */

static int sti_reconfig(struct sti_dev *d, struct tcmulib_cfg_info *cfg)
{
	struct tcmur_handler *rh = d->dev.h->rh;

	if (!rh->reconfig)
		return -EOPNOTSUPP;
	return rh->reconfig(&d->dev, cfg);
}

int sti_dev_reconfig_cfgstring(struct sti_dev *d, const char *dev_config)
{
	struct tcmulib_cfg_info cfg = { .type = TCMULIB_CFG_DEV_CFGSTR };

	cfg.data.dev_cfgstring = (char *)dev_config;
	return sti_reconfig(d, &cfg);
}

int sti_dev_reconfig_size(struct sti_dev *d, uint64_t size_bytes)
{
	struct tcmulib_cfg_info cfg = { .type = TCMULIB_CFG_DEV_SIZE };
	uint64_t lbas = size_bytes / d->dev.block_size;
	int ret;

	if (!d->dev.h->rh->reconfig)
		return -EOPNOTSUPP;
	if (lbas == d->dev.num_lbas)
		return 0;                      /* dev_resize(): unchanged */
	cfg.data.dev_size = size_bytes;
	ret = sti_reconfig(d, &cfg);
	if (!ret) {
		d->dev.num_lbas = lbas;
		d->dev.size_bytes = size_bytes;
	}
	return ret;
}

int sti_dev_reconfig_write_cache(struct sti_dev *d, bool on)
{
	struct tcmulib_cfg_info cfg = { .type = TCMULIB_CFG_WRITE_CACHE };
	int ret;

	cfg.data.write_cache = on;
	ret = sti_reconfig(d, &cfg);
	if (!ret)
		d->dev.wce = on;               /* the kernel stores emulate_write_cache */
	return ret;
}

bool sti_dev_write_cache(const struct sti_dev *d)
{
	return d->dev.wce;
}

/* ---- the command path ------------------------------------------------- */

static void sti_cmd_done(struct tcmu_device *dev, struct tcmur_cmd *rcmd, int rc)
{
	struct sti_cmd *c = (struct sti_cmd *)((char *)rcmd - offsetof(struct sti_cmd, rcmd));

	pthread_mutex_lock(&c->lock);
	c->rc = rc;
	c->done = true;
	pthread_cond_signal(&c->cond);
	pthread_mutex_unlock(&c->lock);
}

static void sti_set_sense(uint8_t *sense, uint8_t key, uint16_t asc_ascq)
{
	memset(sense, 0, STI_SENSE_LEN);
	__tcmu_sense_set_data(sense, key, asc_ascq);
}

/* libtcmu.c tcmu_sts_to_scsi(), 1.5.4. */
static uint8_t sti_sts_to_scsi(int sts, uint8_t *sense)
{
	switch (sts) {
	case TCMU_STS_OK:
		return 0x00;
	case TCMU_STS_NO_RESOURCE:
		return 0x28;                        /* TASK SET FULL */
	case TCMU_STS_TIMEOUT:
	case TCMU_STS_BUSY:
		return 0x08;
	case TCMU_STS_PASSTHROUGH_ERR:
		break;
	case TCMU_STS_RANGE:
		sti_set_sense(sense, 0x5, 0x2100);
		break;
	case TCMU_STS_HW_ERR:
		sti_set_sense(sense, 0x4, 0x4400);
		break;
	case TCMU_STS_MISCOMPARE:
		__tcmu_sense_set_data(sense, 0xe, 0x1d00);
		break;
	case TCMU_STS_RD_ERR:
		sti_set_sense(sense, 0x3, 0x1100);
		break;
	case TCMU_STS_WR_ERR:
		sti_set_sense(sense, 0x3, 0x0c00);
		break;
	case TCMU_STS_INVALID_CDB:
		sti_set_sense(sense, 0x5, 0x2400);
		break;
	case TCMU_STS_INVALID_PARAM_LIST:
		sti_set_sense(sense, 0x5, 0x2600);
		break;
	case TCMU_STS_INVALID_PARAM_LIST_LEN:
		sti_set_sense(sense, 0x5, 0x1a00);
		break;
	case TCMU_STS_NOTSUPP_SEG_DESC_TYPE:
		sti_set_sense(sense, 0x5, 0x2609);
		break;
	case TCMU_STS_NOTSUPP_TGT_DESC_TYPE:
		sti_set_sense(sense, 0x5, 0x2607);
		break;
	case TCMU_STS_TOO_MANY_SEG_DESC:
		sti_set_sense(sense, 0x5, 0x2608);
		break;
	case TCMU_STS_TOO_MANY_TGT_DESC:
		sti_set_sense(sense, 0x5, 0x2606);
		break;
	case TCMU_STS_CP_TGT_DEV_NOTCONN:
		sti_set_sense(sense, 0xa, 0x0d02);
		break;
	case TCMU_STS_INVALID_CP_TGT_DEV_TYPE:
		sti_set_sense(sense, 0xa, 0x0d03);
		break;
	case TCMU_STS_CAPACITY_CHANGED:
		sti_set_sense(sense, 0x6, 0x2a09);
		break;
	case TCMU_STS_TRANSITION:
		sti_set_sense(sense, 0x2, 0x040a);
		break;
	case TCMU_STS_IMPL_TRANSITION_ERR:
		sti_set_sense(sense, 0x6, 0x2a07);
		break;
	case TCMU_STS_EXPL_TRANSITION_ERR:
		sti_set_sense(sense, 0x4, 0x670a);
		break;
	case TCMU_STS_FENCED:
		sti_set_sense(sense, 0x2, 0x040b);
		break;
	case TCMU_STS_WR_ERR_INCOMPAT_FRMT:
		sti_set_sense(sense, 0x5, 0x3005);
		break;
	case TCMU_STS_NOTSUPP_SAVE_PARAMS:
		sti_set_sense(sense, 0x5, 0x3900);
		break;
	case TCMU_STS_FRMT_IN_PROGRESS:
		__tcmu_sense_set_data(sense, 0x2, 0x0404);
		break;
	case TCMU_STS_NOT_HANDLED:
	case TCMU_STS_INVALID_CMD:
		sti_set_sense(sense, 0x5, 0x2000);
		break;
	default:
		/* tcmu-runner logs "Invalid tcmu status code"; the kernel sees CHECK CONDITION */
		tcmu_err_message(NULL, __func__, __LINE__, "Invalid tcmu status code %d\n", sts);
		break;
	}
	return 0x02;
}

#define STI_MAX_IOV 64

/* The kernel queues a command: a ring entry at cmd_head (a PAD first at the wrap). */
static void sti_ring_submit(struct zl_tcmu_mailbox *mb, uint16_t cmd_id, int iov_cnt,
			    size_t cdb_len)
{
	uint8_t *ring = (uint8_t *)mb + mb->cmdr_off;
	uint32_t len = (uint32_t)((STI_ENTRY_BASE + 16u * (unsigned)iov_cnt + cdb_len + 7) & ~7u);
	struct zl_tcmu_entry_hdr *hdr;

	if (mb->cmdr_size - mb->cmd_head < len) {
		hdr = (struct zl_tcmu_entry_hdr *)(ring + mb->cmd_head);
		memset(hdr, 0, sizeof(*hdr));
		hdr->len_op = (mb->cmdr_size - mb->cmd_head) | ZL_TCMU_OP_PAD;
		mb->cmd_head = 0;
	}
	hdr = (struct zl_tcmu_entry_hdr *)(ring + mb->cmd_head);
	memset(hdr, 0, len);
	hdr->len_op = len | ZL_TCMU_OP_CMD;
	hdr->cmd_id = cmd_id;                       /* kflags, uflags: 0 */
	mb->cmd_head = (mb->cmd_head + len) % mb->cmdr_size;
}

/*
 * libtcmu's tcmulib_command_complete() (status and sense into the entry at
 * cmd_tail, past PADs), then the kernel's tcmu_handle_completion() reading
 * the data-in length: returns it (0: none reported).
 */
static size_t sti_ring_complete(struct zl_tcmu_mailbox *mb, uint16_t cmd_id, uint8_t status,
				const uint8_t *sense, size_t buf_len)
{
	uint8_t *ring = (uint8_t *)mb + mb->cmdr_off;
	struct zl_tcmu_entry_rsp *ent = (struct zl_tcmu_entry_rsp *)(ring + mb->cmd_tail);
	size_t read_len = 0;

	while (mb->cmd_tail != mb->cmd_head && (ent->hdr.len_op & ZL_TCMU_OP_MASK) != ZL_TCMU_OP_CMD) {
		mb->cmd_tail = (mb->cmd_tail + (ent->hdr.len_op & ~ZL_TCMU_OP_MASK)) % mb->cmdr_size;
		ent = (struct zl_tcmu_entry_rsp *)(ring + mb->cmd_tail);
	}
	ent->hdr.cmd_id = cmd_id;
	ent->scsi_status = status;
	if (status == 0x02)
		memcpy(ent->sense_buffer, sense, sizeof(ent->sense_buffer));
	if ((mb->flags & ZL_TCMU_MAILBOX_FLAG_CAP_READ_LEN) &&
	    (ent->hdr.uflags & ZL_TCMU_UFLAG_READ_LEN) && ent->read_len)
		read_len = ent->read_len < buf_len ? ent->read_len : buf_len;
	mb->cmd_tail = (mb->cmd_tail + (ent->hdr.len_op & ~ZL_TCMU_OP_MASK)) % mb->cmdr_size;
	return read_len;
}

uint8_t sti_execv(struct sti_dev *d, const uint8_t *cdb, size_t cdb_len,
		  const struct iovec *iov, int iov_cnt, struct sti_result *r)
{
	struct iovec work[STI_MAX_IOV];
	struct sti_cmd *c = sti_slot_get();
	size_t total = 0, left;
	int ret;

	r->tcmu_sts = 0;
	r->data_in_len = 0;
	r->read_len = 0;
	if (!c || iov_cnt < 0 || iov_cnt > STI_MAX_IOV || cdb_len > sizeof(c->cdb)) {
		memset(r->sense, 0, sizeof(r->sense));
		r->tcmu_sts = TCMU_STS_HW_ERR;
		r->status = sti_sts_to_scsi(r->tcmu_sts, r->sense);
		return r->status;
	}
	/* a short CDB reads as zero-padded; the common 16-byte one in two fixed-size moves */
	if (cdb_len == 16) {
		memcpy(c->cdb, cdb, 16);
		memset(c->cdb + 16, 0, sizeof(c->cdb) - 16);
	} else {
		memset(c->cdb, 0, sizeof(c->cdb));
		memcpy(c->cdb, cdb, cdb_len);
	}
	/* (field by field: a struct copy in a loop becomes a slow rep movs) */
	for (int i = 0; i < iov_cnt; i++) {
		work[i].iov_base = iov[i].iov_base;
		work[i].iov_len = iov[i].iov_len;
		total += iov[i].iov_len;
	}
	/* tcmu-runner's ids come from the ring, unique among commands in flight */
	c->lcmd.cmd_id = (uint16_t)(c->next_id & 0xff00) | (uint8_t)(c->next_id + 1);
	c->next_id = c->lcmd.cmd_id;
	c->lcmd.cdb = c->cdb;
	c->lcmd.iovec = work;
	c->lcmd.iov_cnt = (size_t)iov_cnt;
	/* sense_buf is clean: zeroed at creation and after every command that wrote it */
	c->lcmd.hm_private = &c->rcmd;
	c->rcmd.lib_cmd = &c->lcmd;
	c->rcmd.iovec = NULL;
	c->rcmd.iov_cnt = 0;
	c->rcmd.iov_base_copy = NULL;
	c->rcmd.cmd_state = NULL;
	c->rcmd.requested = 0;
	c->rcmd.timed_out = false;
	/* as tcmu-runner 1.5.4: a completion callback only on the work-queue path
	 * (tcmur_cmd_passthrough_handler() calls handle_cmd directly when
	 * nr_threads == 0, after main.c zeroed the tcmur_cmd) */
	c->rcmd.done = d->dev.h->rh->nr_threads ? sti_cmd_done : NULL;
	c->done = false;
	if (!d->dev.h->rh->nr_threads)      /* (a work queue's completions are out of order) */
		sti_ring_submit(d->dev.mb, c->lcmd.cmd_id, iov_cnt, cdb_len);

	ret = d->dev.h->rh->handle_cmd(&d->dev, &c->rcmd);
	if (ret == TCMU_STS_ASYNC_HANDLED) {
		pthread_mutex_lock(&c->lock);
		while (!c->done)
			pthread_cond_wait(&c->cond, &c->lock);
		ret = c->rc;
		pthread_mutex_unlock(&c->lock);
	}

	r->tcmu_sts = ret;
	if (ret == TCMU_STS_OK) {
		r->status = 0x00;
	} else {
		memcpy(r->sense, c->lcmd.sense_buf, STI_SENSE_LEN);
		r->status = sti_sts_to_scsi(ret, r->sense);
	}
	if (!d->dev.h->rh->nr_threads)
		r->read_len = sti_ring_complete(d->dev.mb, c->lcmd.cmd_id, r->status, r->sense, total);
	/* any sense a handler wrote (byte 0: response code, never 0) is not the next command's */
	if (c->lcmd.sense_buf[0])
		memset(c->lcmd.sense_buf, 0, sizeof(c->lcmd.sense_buf));
	left = tcmu_iovec_length(work, (size_t)iov_cnt);
	r->data_in_len = total - left;
	return r->status;
}

const char *sti_sts_name(int sts)
{
	static const char *const names[] = {
		"OK", "NO_RESOURCE", "PASSTHROUGH_ERR", "BUSY", "WR_ERR", "RD_ERR", "MISCOMPARE",
		"INVALID_CMD", "INVALID_CDB", "INVALID_PARAM_LIST", "INVALID_PARAM_LIST_LEN",
		"TIMEOUT", "FENCED", "HW_ERR", "RANGE", "FRMT_IN_PROGRESS", "CAPACITY_CHANGED",
		"NOTSUPP_SAVE_PARAMS", "WR_ERR_INCOMPAT_FRMT", "TRANSITION", "IMPL_TRANSITION_ERR",
		"EXPL_TRANSITION_ERR", "NO_LOCK_HOLDERS", "NOTSUPP_SEG_DESC_TYPE",
		"NOTSUPP_TGT_DESC_TYPE", "CP_TGT_DEV_NOTCONN", "INVALID_CP_TGT_DEV_TYPE",
		"TOO_MANY_SEG_DESC", "TOO_MANY_TGT_DESC",
	};

	if (sts == TCMU_STS_ASYNC_HANDLED)
		return "ASYNC_HANDLED";
	if (sts == TCMU_STS_NOT_HANDLED)
		return "NOT_HANDLED";
	if (sts >= 0 && (size_t)sts < sizeof(names) / sizeof(names[0]))
		return names[sts];
	return "?";
}

/* ---- logging ---------------------------------------------------------- */

void sti_set_log_level(int level)
{
	sti_log_level = level;
}

static void sti_log(int level, struct tcmu_device *dev, const char *fn, int line,
		    const char *fmt, va_list ap)
{
	static const char *const tags[] = { "emerg", "alert", "crit", "err", "warn", "notice",
					    "info", "debug" };

	if (sti_log_level == -2) {
		const char *e = getenv("ZL_STANDIN_LOG");

		sti_log_level = e ? atoi(e) : 3;
	}
	if (level > sti_log_level)
		return;
	flockfile(stderr);
	fprintf(stderr, "[%s %s] %s:%d: ", dev ? dev->h->rh->subtype : "tcmu",
		tags[level & 7], fn, line);
	vfprintf(stderr, fmt, ap);
	funlockfile(stderr);
}

#define STI_LOG_FN(name, level)							\
void name(struct tcmu_device *dev, const char *funcname, int linenr, const char *fmt, ...) \
{										\
	va_list ap;								\
	if (sti_log_level != -2 && (level) > sti_log_level)			\
		return;								\
	va_start(ap, fmt);							\
	sti_log(level, dev, funcname, linenr, fmt, ap);				\
	va_end(ap);								\
}

STI_LOG_FN(tcmu_crit_message, 2)
STI_LOG_FN(tcmu_err_message, 3)
STI_LOG_FN(tcmu_warn_message, 4)
STI_LOG_FN(tcmu_info_message, 6)
STI_LOG_FN(tcmu_dbg_message, 7)

/* ---- tcmu-runner exports ---------------------------------------------- */

int tcmur_register_handler(struct tcmur_handler *handler)
{
	int ret;

	/* called from handler_init() with sti_reg_lock held by sti_handler_load() */
	if (sti_registered)
		return -1;
	if (handler->init) {
		ret = handler->init();
		if (ret)
			return ret;
	}
	sti_registered = handler;
	return 0;
}

bool tcmur_unregister_handler(struct tcmur_handler *handler)
{
	return true;
}

void tcmur_cmd_complete(struct tcmu_device *dev, void *data, int rc)
{
	struct tcmur_cmd *rcmd = data;

	if (!rcmd->done) {  /* tcmu-runner 1.5.4 would jump to address 0 here */
		fprintf(stderr, "standin: tcmur_cmd_complete() of a command without a completion "
			"callback (handler with nr_threads 0: tcmu-runner 1.5.4 segfaults)\n");
		abort();
	}
	rcmd->done(dev, rcmd, rc);
}

void tcmur_dev_set_private(struct tcmu_device *dev, void *priv)
{
	dev->tcmur_priv = priv;
}

void *tcmur_dev_get_private(struct tcmu_device *dev)
{
	return dev->tcmur_priv;
}

/* ---- libtcmu: device attributes ---------------------------------------- */

void *tcmu_dev_get_private(struct tcmu_device *dev) { return dev->tcmu_priv; }
void tcmu_dev_set_private(struct tcmu_device *dev, void *priv) { dev->tcmu_priv = priv; }
char *tcmu_dev_get_cfgstring(struct tcmu_device *dev) { return dev->cfgstring; }

char *tcmu_dev_get_memory_info(struct tcmu_device *dev, void **base, size_t *len, off_t *offset)
{
	if (base)
		*base = dev->mb;
	if (len)
		*len = STI_RING_OFF + STI_RING_SIZE;
	if (offset)
		*offset = 0;
	return strdup("/dev/uio-standin");
}
void tcmu_dev_set_num_lbas(struct tcmu_device *dev, uint64_t num_lbas) { dev->num_lbas = num_lbas; }
uint64_t tcmu_dev_get_num_lbas(struct tcmu_device *dev) { return dev->num_lbas; }
void tcmu_dev_set_block_size(struct tcmu_device *dev, uint32_t bs) { dev->block_size = bs; }
uint32_t tcmu_dev_get_block_size(struct tcmu_device *dev) { return dev->block_size; }
void tcmu_dev_set_max_xfer_len(struct tcmu_device *dev, uint32_t len) { dev->max_xfer_len = len; }
uint32_t tcmu_dev_get_max_xfer_len(struct tcmu_device *dev) { return dev->max_xfer_len; }
void tcmu_dev_set_write_cache_enabled(struct tcmu_device *dev, bool on) { dev->wce = on; }
bool tcmu_dev_get_write_cache_enabled(struct tcmu_device *dev) { return dev->wce; }
void tcmu_dev_set_solid_state_media(struct tcmu_device *dev, bool on) { dev->solid_state = on; }
bool tcmu_dev_get_solid_state_media(struct tcmu_device *dev) { return dev->solid_state; }
void tcmu_dev_set_unmap_enabled(struct tcmu_device *dev, bool on) { dev->unmap = on; }
bool tcmu_dev_get_unmap_enabled(struct tcmu_device *dev) { return dev->unmap; }
uint32_t tcmu_dev_get_max_unmap_len(struct tcmu_device *dev) { return 0; }
uint32_t tcmu_dev_get_opt_unmap_gran(struct tcmu_device *dev) { return 0; }
uint32_t tcmu_dev_get_unmap_gran_align(struct tcmu_device *dev) { return 0; }

uint64_t tcmu_lba_to_byte(struct tcmu_device *dev, uint64_t lba);
uint64_t tcmu_lba_to_byte(struct tcmu_device *dev, uint64_t lba) { return lba * dev->block_size; }
uint64_t tcmu_byte_to_lba(struct tcmu_device *dev, uint64_t byte);
uint64_t tcmu_byte_to_lba(struct tcmu_device *dev, uint64_t byte) { return byte / dev->block_size; }

/* ---- libtcmu: configfs, answered from the device config ----------------- */

int tcmu_cfgfs_dev_get_attr_int(struct tcmu_device *dev, const char *name)
{
	if (!strcmp(name, "hw_block_size"))
		return (int)dev->hw_block_size;
	if (!strcmp(name, "hw_max_sectors"))
		return (int)dev->max_xfer_len;
	if (!strcmp(name, "emulate_write_cache"))
		return dev->wce;
	return -ENOENT;
}

uint64_t tcmu_cfgfs_dev_get_info_u64(struct tcmu_device *dev, const char *name, int *fn_ret)
{
	if (!strcmp(name, "Size")) {
		*fn_ret = 0;
		return dev->size_bytes;
	}
	*fn_ret = -ENOENT;
	return 0;
}

char *tcmu_cfgfs_dev_get_wwn(struct tcmu_device *dev)
{
	return strdup(dev->wwn);
}

/* ---- libtcmu: CDB, iovec and sense helpers (api.c semantics) ------------- */

int tcmu_cdb_get_length(uint8_t *cdb)
{
	switch (cdb[0] >> 5) {
	case 0:
		return 6;
	case 1:
	case 2:
		return 10;
	case 3:
		if (cdb[0] == 0x7f)
			return 8 + cdb[7];
		break;
	case 4:
		return 16;
	case 5:
		return 12;
	}
	tcmu_err_message(NULL, __func__, __LINE__, "CDB %x0x not supported.\n", cdb[0]);
	return -EINVAL;
}

uint64_t tcmu_cdb_get_lba(uint8_t *cdb)
{
	switch (tcmu_cdb_get_length(cdb)) {
	case 6:
		return (uint64_t)(cdb[1] & 0x1f) << 16 | (uint64_t)cdb[2] << 8 | cdb[3];
	case 10:
	case 12:
		return zl_get_be32(&cdb[2]);
	case 16:
		return zl_get_be64(&cdb[2]);
	}
	return 0;   /* libtcmu asserts here; a stand-in reports 0 */
}

uint32_t tcmu_cdb_get_xfer_length(uint8_t *cdb)
{
	switch (tcmu_cdb_get_length(cdb)) {
	case 6:
		return cdb[4];
	case 10:
		return (uint32_t)cdb[7] << 8 | cdb[8];
	case 12:
		return zl_get_be32(&cdb[6]);
	case 16:
		return zl_get_be32(&cdb[10]);
	}
	return 0;
}

size_t tcmu_iovec_seek(struct iovec *iovec, size_t count)
{
	size_t consumed = 0;

	while (count) {
		if (count >= iovec->iov_len) {
			count -= iovec->iov_len;
			iovec->iov_len = 0;
			iovec++;
			consumed++;
		} else {
			iovec->iov_base = (char *)iovec->iov_base + count;
			iovec->iov_len -= count;
			count = 0;
		}
	}
	return consumed;
}

size_t tcmu_iovec_length(struct iovec *iovec, size_t iov_cnt)
{
	size_t len = 0;

	for (size_t i = 0; i < iov_cnt; i++)
		len += iovec[i].iov_len;
	return len;
}

size_t tcmu_memcpy_into_iovec(struct iovec *iovec, size_t iov_cnt, void *src, size_t len)
{
	size_t copied = 0;

	for (; len && iov_cnt; iovec++, iov_cnt--) {
		size_t n = STI_MIN(iovec->iov_len, len);

		if (!n)
			continue;
		memcpy(iovec->iov_base, (char *)src + copied, n);
		len -= n;
		copied += n;
		iovec->iov_base = (char *)iovec->iov_base + n;
		iovec->iov_len -= n;
	}
	return copied;
}

size_t tcmu_memcpy_from_iovec(void *dest, size_t len, struct iovec *iovec, size_t iov_cnt)
{
	size_t copied = 0;

	for (; len && iov_cnt; iovec++, iov_cnt--) {
		size_t n = STI_MIN(iovec->iov_len, len);

		if (!n)
			continue;
		memcpy((char *)dest + copied, iovec->iov_base, n);
		len -= n;
		copied += n;
		iovec->iov_base = (char *)iovec->iov_base + n;
		iovec->iov_len -= n;
	}
	return copied;
}

void __tcmu_sense_set_data(uint8_t *sense_buf, uint8_t key, uint16_t asc_ascq)
{
	sense_buf[0] |= 0x70;      /* fixed, current */
	sense_buf[2] = key;
	sense_buf[7] = 0xa;
	sense_buf[12] = (asc_ascq >> 8) & 0xff;
	sense_buf[13] = asc_ascq & 0xff;
}

int tcmu_sense_set_data(uint8_t *sense_buf, uint8_t key, uint16_t asc_ascq)
{
	memset(sense_buf, 0, SENSE_BUFFERSIZE);
	__tcmu_sense_set_data(sense_buf, key, asc_ascq);
	return TCMU_STS_PASSTHROUGH_ERR;
}

/* 1.5.4 clears the first 18 bytes here (callers set the key afterwards). */
void tcmu_sense_set_key_specific_info(uint8_t *sense_buf, uint16_t info)
{
	memset(sense_buf, 0, 18);
	sense_buf[16] = info >> 8;
	sense_buf[17] = info & 0xff;
	sense_buf[15] |= 0x80;     /* SKSV */
}

void tcmu_sense_set_info(uint8_t *sense_buf, uint32_t info)
{
	memset(sense_buf, 0, 18);
	sense_buf[3] = info >> 24;
	sense_buf[4] = info >> 16;
	sense_buf[5] = info >> 8;
	sense_buf[6] = info;
	sense_buf[0] |= 0x80;      /* VALID */
}
