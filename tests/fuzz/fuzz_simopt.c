/*
 * fuzz_simopt.c — libFuzzer target for the option specs fs-core parses for
 * `zonelab sim` and the scenarios' keys: --reclaim (fsc_reclaim_parse()),
 * --clean (fsc_clean_parse()) and --placement (fsc_place_parse()).
 *
 * Invariants beyond "no crash, no sanitizer report":
 *   - a refusal always comes with a reason (non-empty message);
 *   - an accepted --reclaim spec (linux-6.1 or linux-6.12) prints back
 *     (fsc_reclaim_spec()) as a spec that parses to the same settings.
 * Built with clang only (make fuzz-build); `make check` runs it briefly.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fsc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fsc_reclaim_cfg r, back;
	struct fsc_clean_params cp;
	struct fsc_place_params pp;
	enum fsc_clean_policy policy;
	enum fsc_placement place;
	char msg[512], spec[160];
	char *text = malloc(size + 1);

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';

	msg[0] = '\0';
	if (fsc_reclaim_parse(text, &r, msg, sizeof(msg)) == 0) {
		fsc_reclaim_spec(&r, spec, sizeof(spec));
		if (fsc_reclaim_parse(spec, &back, msg, sizeof(msg)) ||
		    back.mode != r.mode || back.data_pct != r.data_pct ||
		    back.meta_pct != r.meta_pct || back.sys_pct != r.sys_pct ||
		    back.global_pct != r.global_pct || back.dynamic != r.dynamic ||
		    back.periodic != r.periodic)
			abort();
	} else if (!msg[0]) {
		abort();
	}
	msg[0] = '\0';
	if (fsc_clean_parse(text, &policy, &cp, msg, sizeof(msg)) && !msg[0])
		abort();
	msg[0] = '\0';
	if (fsc_place_parse(text, &place, &pp, msg, sizeof(msg)) && !msg[0])
		abort();
	free(text);
	return 0;
}
