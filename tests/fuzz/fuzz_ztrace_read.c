/*
 * fuzz_ztrace_read.c — libFuzzer target for the command trace reader: the
 * input is a trace file (read through fmemopen()).  The reader must refuse
 * or read it without a crash; every record it returns must re-encode to
 * the same 40 defined bytes, and it must stop at the first error.  Built
 * with clang only (make fuzz / make check).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ztrace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ztrace_reader *rd;
	struct ztrace_hdr h;
	struct ztrace_rec r;
	uint8_t enc[ZTRACE_REC_SIZE], hb[ZTRACE_HDR_SIZE];
	char msg[512];
	uint64_t n = 0;
	FILE *f;
	int ret;

	if (ztrace_hdr_decode(data, size, &h, msg, sizeof(msg)) == 0) {
		ztrace_hdr_encode(&h, hb);
		/* defined fields survive; reserved bytes 20-23 and 40-59 are not kept */
		if (memcmp(hb, data, 20) || memcmp(hb + 24, data + 24, 16))
			abort();
	}
	if (!size)
		return 0;
	f = fmemopen((void *)data, size, "rb");
	if (!f)
		return 0;
	if (ztrace_read_fopen(f, &rd, msg, sizeof(msg)) == 0) {
		while ((ret = ztrace_read_next(rd, &r, msg, sizeof(msg))) == 1) {
			const uint8_t *raw = data + ZTRACE_HDR_SIZE + n * ZTRACE_REC_SIZE;

			ztrace_rec_encode(&r, enc);
			if (memcmp(enc, raw, 40) || r.seq != (uint32_t)n)
				abort();
			n++;
		}
		if (ret == 0 && ZTRACE_HDR_SIZE + n * ZTRACE_REC_SIZE != size)
			abort();            /* end reported before the data ended */
		ztrace_read_close(rd);
	}
	fclose(f);
	return 0;
}
