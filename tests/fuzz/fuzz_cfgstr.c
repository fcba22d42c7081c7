/*
 * fuzz_cfgstr.c — libFuzzer target for the text users type: the handler's
 * cfgstring (what targetcli hands tcmu-runner, checked before a device is
 * made) and the shared number and size parser (common/zl_parse.c) that it
 * and every `zonelab` option use.
 *
 * Invariants beyond "no crash, no sanitizer report":
 *   - a refusal always comes with a reason (non-empty message);
 *   - a size that parses prints back as decimal bytes that parse to the
 *     same value, and a plain number that parses is the same size;
 *   - a cfgstring that parses completes its geometry without a crash for
 *     a few device sizes and block sizes (refusing is fine).
 * Built with clang only (make fuzz-build); `make check` runs it briefly.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tcmu/zl_cfgstr.h"
#include "zl_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct zl_cfgstr c;     /* large (two PATH_MAX buffers): not on the stack */
	static const uint64_t devs[] = { 0, 4096, 64ull << 20, 1ull << 40 };
	static const uint32_t blks[] = { 0, 512, 4096 };
	char msg[512], why[256], dec[32];
	uint64_t v, back, n;
	char *text;

	text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';

	why[0] = '\0';
	if (zl_parse_size(text, &v, why, sizeof(why)) == 0) {
		snprintf(dec, sizeof(dec), "%" PRIu64, v);
		if (zl_parse_size(dec, &back, why, sizeof(why)) || back != v)
			abort();
	} else if (!why[0]) {
		abort();
	}
	why[0] = '\0';
	if (zl_parse_u64(text, &n, why, sizeof(why)) == 0) {
		if (zl_parse_size(text, &v, why, sizeof(why)) || v != n)
			abort();
	} else if (!why[0]) {
		abort();
	}

	msg[0] = '\0';
	if (zl_cfgstr_parse(text, &c, msg, sizeof(msg)) == 0) {
		for (size_t i = 0; i < sizeof(devs) / sizeof(devs[0]); i++) {
			for (size_t j = 0; j < sizeof(blks) / sizeof(blks[0]); j++) {
				static struct zl_cfgstr g;

				g = c;

				g.disk.store.path = g.path;
				if (c.disk.faults == c.faults)
					g.disk.faults = g.faults;
				msg[0] = '\0';
				if (zl_cfgstr_geometry(&g, devs[i], blks[j], msg, sizeof(msg)) && !msg[0])
					abort();
			}
		}
	} else if (!msg[0]) {
		abort();
	}
	free(text);
	return 0;
}
