/*
 * ctl_standin.c — a device kept open through the in-process tcmu-runner
 * stand-in, for tests/scripts/060-ctl.sh, which drives its control socket
 * with `zonelab ctl` while sending it SCSI commands:
 *
 *   ctl_standin HANDLER.so CFGSTRING SIZE_BYTES   commands on stdin
 *   ctl_standin --dump-trace TRACE                print a trace, one line per record
 *
 * Commands (one per line; each answered by one line on stdout):
 *   write LBA N | read LBA N | sync | quit
 * answer: "status=0x00" or "status=0x02 sense=K/ASC/ASCQ" (hex).  It prints
 * "ready" once the device is open.  A test tool, not a server: no options,
 * no error recovery.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tcmu_standin/standin.h"
#include "zl_err.h"
#include "zl_test.h"
#include "ztrace.h"

static int dump_trace(const char *path)
{
	struct ztrace_reader *rd;
	struct ztrace_rec r;
	char msg[512];
	int ret;

	ret = ztrace_read_open(path, &rd, msg, sizeof(msg));
	if (ret) {
		fprintf(stderr, "ctl_standin: %s\n", msg);   /* @msg names the file */
		return 1;
	}
	printf("lba_size=%u capacity_lba=%" PRIu64 " clock=%u\n", ztrace_read_hdr(rd)->lba_size,
	       ztrace_read_hdr(rd)->capacity_lba, ztrace_read_hdr(rd)->clock);
	while ((ret = ztrace_read_next(rd, &r, msg, sizeof(msg))) == 1)
		printf("seq=%u op=0x%02x sa=0x%02x lba=%" PRIu64 " n=%u status=0x%02x "
		       "sense=%x/%02x/%02x\n", r.seq, r.opcode, r.sa, r.lba, r.nr_lba, r.status,
		       r.sense_key, r.asc, r.ascq);
	ztrace_read_close(rd);
	if (ret) {
		fprintf(stderr, "ctl_standin: %s: %s\n", path, msg);
		return 1;
	}
	return 0;
}

static void rw16(struct sti_dev *d, uint8_t op, uint64_t lba, uint32_t n, uint32_t lbs)
{
	uint8_t cdb[16] = { op };
	struct sti_result r;
	void *buf = calloc(n ? n : 1, lbs);

	zl_test_put_be(&cdb[2], lba, 8);
	zl_test_put_be(&cdb[10], n, 4);
	if (op == 0x91)
		sti_exec(d, cdb, 16, NULL, 0, &r);
	else
		sti_exec(d, cdb, 16, buf, (size_t)n * lbs, &r);
	free(buf);
	if (r.status == 2)
		printf("status=0x02 sense=%x/%02x/%02x\n", sti_sense_key(&r), r.sense[12], r.sense[13]);
	else
		printf("status=0x%02x\n", r.status);
}

int main(int argc, char **argv)
{
	struct sti_dev_cfg cfg = { .block_size = 512 };
	struct sti_handler *h;
	struct sti_dev *d;
	char msg[512], line[256];

	if (argc == 3 && !strcmp(argv[1], "--dump-trace"))
		return dump_trace(argv[2]);
	if (argc != 4) {
		fprintf(stderr, "usage: ctl_standin HANDLER.so CFGSTRING SIZE_BYTES | --dump-trace TRACE\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	cfg.cfgstring = argv[2];
	cfg.size_bytes = strtoull(argv[3], NULL, 0);
	if (sti_handler_load(argv[1], &h, msg, sizeof(msg))) {
		fprintf(stderr, "ctl_standin: %s\n", msg);
		return 1;
	}
	if (sti_dev_open(h, &cfg, &d, msg, sizeof(msg))) {
		fprintf(stderr, "ctl_standin: open failed: %s\n", msg);
		sti_handler_unload(h);
		return 1;
	}
	printf("ready\n");
	while (fgets(line, sizeof(line), stdin)) {
		unsigned long long lba = 0;
		unsigned n = 0;

		if (sscanf(line, "write %llu %u", &lba, &n) == 2)
			rw16(d, 0x8a, lba, n, sti_dev_block_size(d));
		else if (sscanf(line, "read %llu %u", &lba, &n) == 2)
			rw16(d, 0x88, lba, n, sti_dev_block_size(d));
		else if (!strncmp(line, "sync", 4))
			rw16(d, 0x91, 0, 0, sti_dev_block_size(d));
		else if (!strncmp(line, "quit", 4))
			break;
		else
			printf("? %s", line);
	}
	sti_dev_close(d);
	sti_handler_unload(h);
	printf("closed\n");
	return 0;
}
