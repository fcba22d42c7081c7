/*
 * fuzz_zctl_line.c — libFuzzer target for the control protocol without a
 * socket: the input is split at '\n' into request lines, each parsed by
 * zctl_parse() and, when it parses, executed by zctl_exec() against a fresh
 * 16-zone in-memory disk (not realtime: latency and stalls are reported,
 * never slept).  `trace start` is parsed but not executed (it would create
 * files).  Every reply must be one line starting with {"ok":true or
 * {"ok":false,"error":".  Built with clang only (make fuzz / make check).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zctl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_reply(const char *r)
{
	if (!r)
		return;               /* out of memory */
	if (strchr(r, '\n') || (strncmp(r, "{\"ok\":true", 10) &&
				strncmp(r, "{\"ok\":false,\"error\":\"", 21))) {
		fprintf(stderr, "bad reply: %s\n", r);
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ztrace_cfg tc = { .lba_size = 512, .capacity_lba = 16 * 256 };
	struct zctl_req *req;
	struct ztrace *tr = NULL;
	struct zdisk *z = NULL;
	struct zdisk_cfg c;
	const char *p = (const char *)data, *end = p + size;
	char msg[256], err[512];

	zdisk_cfg_init(&c);
	c.geo.capacity_lba = 16 * 256;
	c.geo.zone_size_lba = 256;
	c.geo.nr_conv_start = 1;
	c.geo.max_open = 3;
	c.realtime = false;
	req = malloc(sizeof(*req));
	if (!req || zdisk_open(&c, &z, msg, sizeof(msg)) || ztrace_create(&tc, &tr))
		abort();
	for (int lines = 0; p <= end && lines < 64; lines++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
		char *r;

		if (zctl_parse(p, len, req, err, sizeof(err)) == 0) {
			if (req->cmd != ZCTL_TRACE_START) {
				r = zctl_exec(z, tr, req);
				check_reply(r);
				free(r);
			}
		} else {
			r = zctl_error_reply(err);
			check_reply(r);
			free(r);
		}
		if (!nl)
			break;
		p = nl + 1;
	}
	ztrace_destroy(tr);
	zdisk_close(z);
	free(req);
	return 0;
}
