/*
 * fuzz_ztime_parse.c — libFuzzer target for the timing model's text
 * ("PRESET[,key=value...]", emulator/ztime_parse.c) and, for text that
 * parses, the model itself.
 *
 * Invariants beyond "no crash, no sanitizer report":
 *   - a refusal always says why, naming the text ("timing \"...");
 *   - accepted text formats (ztime_format()) to canonical text that parses and
 *     formats to the same text again;
 *   - accepted figures build a drive for a small disk (or refuse it with a
 *     reason) and a few commands complete no earlier than they were sent.
 * Built with clang only (make fuzz-build); `make check` runs it briefly.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ztime.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum ztime_op ops[] = { ZTIME_WRITE, ZTIME_READ, ZTIME_FLUSH, ZTIME_RESET,
					     ZTIME_FINISH, ZTIME_READ };
	struct ztime_params p, back;
	struct ztime_geo g = { 64ULL << 20, 16 };
	char msg[1024], buf[2048], buf2[2048];
	struct ztime *t;
	char *text;
	int n, i;

	text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (ztime_parse(text, &p, msg, sizeof(msg))) {
		if (strncmp(msg, "timing \"", 8))
			abort();
		free(text);
		return 0;
	}
	n = ztime_format(&p, buf, sizeof(buf));
	if (n <= 0 || ztime_parse(buf, &back, msg, sizeof(msg)))
		abort();
	if (ztime_format(&back, buf2, sizeof(buf2)) != n || strcmp(buf, buf2))
		abort();
	if (ztime_create(&p, &g, &t, msg, sizeof(msg)) == 0) {
		uint64_t now = 0;

		for (i = 0; i < 6; i++) {
			struct ztime_req r = { ops[i], (uint64_t)i * (9ULL << 20), 4096, i == 2, i == 0 };
			uint64_t done = ztime_submit(t, now, &r);

			if (done < now)
				abort();
			now += 1000;
		}
		ztime_destroy(t);
	} else if (!msg[0]) {
		abort();
	}
	free(text);
	return 0;
}
