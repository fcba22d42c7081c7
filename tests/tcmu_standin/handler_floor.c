/*
 * handler_floor.c — the benchmark's floor: a tcmu handler (subtype "floor")
 * that does nothing but pread/pwrite its backing file for READ(16) and
 * WRITE(16), with no zone model and no SCSI checks.  bench_tcmu runs it
 * beside handler_zonelab.so and file_zbc so the table shows what the
 * stand-in's command path itself costs: ours/floor is the price of the
 * zone model and the SCSI translation, floor/raw the price of the harness.
 * It bounds the transfer by the buffer, as any handler must, and nothing
 * else.  cfgstring: floor/<path>; the file must exist.  Not a usable disk.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tcmu/tcmu_abi.h"
#include "zl_be.h"

struct floor_dev {
	int fd;
	uint32_t lba;
};

static int floor_open(struct tcmu_device *dev, bool reopen)
{
	const char *cfg = tcmu_dev_get_cfgstring(dev);
	const char *path = cfg ? strchr(cfg, '/') : NULL;
	struct floor_dev *f = calloc(1, sizeof(*f));

	if (!f || !path)
		goto fail;
	f->fd = open(path + 1, O_RDWR | O_NOATIME);   /* as zstore opens an image */
	if (f->fd < 0)
		goto fail;
	f->lba = tcmu_dev_get_block_size(dev);
	tcmur_dev_set_private(dev, f);
	return 0;
fail:
	free(f);
	return -1;
}

static void floor_close(struct tcmu_device *dev)
{
	struct floor_dev *f = tcmur_dev_get_private(dev);

	close(f->fd);
	free(f);
}

static int floor_handle_cmd(struct tcmu_device *dev, struct tcmur_cmd *rcmd)
{
	struct floor_dev *f = tcmur_dev_get_private(dev);
	struct tcmulib_cmd *cmd = rcmd->lib_cmd;
	const uint8_t *cdb = cmd->cdb;
	size_t len;
	off_t off;
	ssize_t r;

	if ((cdb[0] != 0x88 && cdb[0] != 0x8a) || cmd->iov_cnt != 1)
		return TCMU_STS_NOT_HANDLED;
	len = (size_t)zl_get_be32(cdb + 10) * f->lba;
	if (len > cmd->iovec[0].iov_len)
		return TCMU_STS_INVALID_CDB;
	off = (off_t)(zl_get_be64(cdb + 2) * f->lba);
	if (cdb[0] == 0x88)
		r = pread(f->fd, cmd->iovec[0].iov_base, len, off);
	else
		r = pwrite(f->fd, cmd->iovec[0].iov_base, len, off);
	return r == (ssize_t)len ? TCMU_STS_OK : TCMU_STS_HW_ERR;
}

static struct tcmur_handler floor_handler = {
	.name = "benchmark floor: pread/pwrite only",
	.subtype = "floor",
	.open = floor_open,
	.close = floor_close,
	.handle_cmd = floor_handle_cmd,
};

int handler_init(void)
{
	return tcmur_register_handler(&floor_handler);
}
