/*
 * fuzz_zfault_parse.c — libFuzzer target for the fault rule text.
 *
 * Feeds arbitrary bytes to zfault_parse(); a rule that parses must format
 * (zfault_format()) to text that parses back to an identical rule and
 * formats to the same text again.  It also feeds the bytes to
 * zfault_add_text() and zfault_list() to exercise splitting and listing.
 * Built with clang only (make fuzz); not part of the unit tests.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zfault.h"
#include "zl_test.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct zfault_rule r, back;
	char msg[256], buf[512], buf2[512];
	struct zfault_verdict v;
	struct zfault *f;
	char *text, *list;
	int n, n2;

	text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';

	if (zfault_parse(text, &r, msg, sizeof(msg)) == 0) {
		n = zfault_format(&r, buf, sizeof(buf));
		if (n <= 0 || (size_t)n != strlen(buf))
			abort();
		if (zfault_parse(buf, &back, msg, sizeof(msg)) != 0) {
			fprintf(stderr, "canonical \"%s\" does not parse: %s\n", buf, msg);
			abort();
		}
		if (!zl_test_zfault_rule_is_equal(&r, &back)) {
			fprintf(stderr, "canonical \"%s\" parses to a different rule\n", buf);
			abort();
		}
		n2 = zfault_format(&back, buf2, sizeof(buf2));
		if (n2 != n || strcmp(buf, buf2))
			abort();
	} else if (msg[0] == '\0' || strncmp(msg, "fault rule \"", 12)) {
		abort();        /* every rejection says where and why */
	}

	if (zfault_create(size, &f) == 0) {
		if (zfault_add_text(f, text, msg, sizeof(msg)) == 0) {
			zfault_eval(f, ZFAULT_OP_WRITE, 100, 8, 0, 0, &v);
			zfault_eval(f, ZFAULT_OP_READ, 0, 1, 0, 0, &v);
			zfault_eval(f, ZFAULT_OP_FLUSH, 0, 0, 0, UINT32_MAX, &v);
			list = zfault_list(f);
			free(list);
		}
		zfault_destroy(f);
	}
	free(text);
	return 0;
}
