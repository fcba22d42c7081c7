/*
 * zl_parse.c — numbers and byte sizes as users type them (zl_parse.h):
 * one digit scanner under both, so a size and a number agree on what a
 * number is.  Parsing only: no printing, no option or key names, no
 * range checks beyond 64 bits.
 */
#include "zl_parse.h"

#include <errno.h>
#include <stdbool.h>
#include <strings.h>

#include "zl_err.h"

#define SIZE_EXAMPLES "(e.g. 4096, 64K, 256M, 2G)"

static int digit_value(char c, unsigned base)
{
	int v;

	if (c >= '0' && c <= '9')
		v = c - '0';
	else if (c >= 'a' && c <= 'f')
		v = c - 'a' + 10;
	else if (c >= 'A' && c <= 'F')
		v = c - 'A' + 10;
	else
		return -1;
	return v < (int)base ? v : -1;
}

/*
 * The number at the start of @s: decimal, or hex after "0x" when a hex
 * digit follows (else "0x..." is the number 0 and "x..." the rest).
 * *@end is set after the digits.  0, -EINVAL (no digit) or -ERANGE.
 */
static int scan_u64(const char *s, uint64_t *out, const char **end)
{
	unsigned base = 10;
	const char *p = s;
	uint64_t v = 0;
	bool over = false;
	int d;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && digit_value(p[2], 16) >= 0) {
		base = 16;
		p += 2;
	}
	if (digit_value(*p, base) < 0) {
		*end = s;
		return -EINVAL;
	}
	for (; (d = digit_value(*p, base)) >= 0; p++) {
		if (v > (UINT64_MAX - (uint64_t)d) / base)
			over = true;
		else
			v = v * base + (uint64_t)d;
	}
	*end = p;
	if (over)
		return -ERANGE;
	*out = v;
	return 0;
}

int zl_parse_u64(const char *s, uint64_t *out, char *why, size_t why_len)
{
	const char *end;
	uint64_t v;
	int ret;

	if (!s)
		s = "";
	if (!*s || *s == '-') {
		zl_msgf(why, why_len, "not a non-negative integer");
		return -EINVAL;
	}
	ret = scan_u64(s, &v, &end);
	if (ret == -ERANGE) {
		zl_msgf(why, why_len, "too large");
		return -ERANGE;
	}
	if (ret || *end) {
		zl_msgf(why, why_len, "not an integer (stray '%s')", end);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

int zl_parse_size(const char *s, uint64_t *bytes, char *why, size_t why_len)
{
	const char *end;
	unsigned shift;
	uint64_t v;
	int ret;

	if (!s)
		s = "";
	if (!*s) {
		zl_msgf(why, why_len, "empty, expected a size " SIZE_EXAMPLES);
		return -EINVAL;
	}
	if (*s == '-') {
		zl_msgf(why, why_len, "negative, a size is 0 or more");
		return -EINVAL;
	}
	ret = scan_u64(s, &v, &end);
	if (ret == -EINVAL) {
		zl_msgf(why, why_len, "not a size " SIZE_EXAMPLES);
		return -EINVAL;
	}
	if (ret == -ERANGE) {
		zl_msgf(why, why_len, "overflows 64 bits");
		return -ERANGE;
	}
	switch (*end) {
	case '\0': shift = 0; break;
	case 'k': case 'K': shift = 10; break;
	case 'm': case 'M': shift = 20; break;
	case 'g': case 'G': shift = 30; break;
	case 't': case 'T': shift = 40; break;
	default:
		zl_msgf(why, why_len, "unknown size suffix (K, M, G or T)");
		return -EINVAL;
	}
	if (shift && end[1] && strcasecmp(end + 1, "iB")) {
		zl_msgf(why, why_len, "stray characters after the size suffix (K, M, G or T, "
			"optionally followed by iB)");
		return -EINVAL;
	}
	if (shift && v > (UINT64_MAX >> shift)) {
		zl_msgf(why, why_len, "overflows 64 bits");
		return -ERANGE;
	}
	*bytes = v << shift;
	return 0;
}
