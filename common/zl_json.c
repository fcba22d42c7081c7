/*
 * zl_json.c — JSON string escaping (rule in zl_json.h).  next_piece()
 * decides how each character is spelled, put_literal() walks the string,
 * and a sink takes the pieces to a buffer or a FILE.  Not a hot path:
 * replies, summaries and info output.
 */
#include "zl_json.h"

#include <string.h>

/* Length (2-4) of the well-formed UTF-8 sequence at @p, or 0 (Unicode Table 3-7). */
static size_t utf8_len(const unsigned char *p)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n;

	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4;
	else
		return 0;
	if (p[0] == 0xe0)
		lo = 0xa0;              /* no overlong 3-byte form */
	else if (p[0] == 0xed)
		hi = 0x9f;              /* no surrogates */
	else if (p[0] == 0xf0)
		lo = 0x90;              /* no overlong 4-byte form */
	else if (p[0] == 0xf4)
		hi = 0x8f;              /* nothing above U+10FFFF */
	if (p[1] < lo || p[1] > hi)     /* also stops at the NUL */
		return 0;
	for (size_t i = 2; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

/*
 * The JSON spelling of the character at @p (not the NUL) into @out, its
 * length into *@out_len (1-6); returns how many bytes of @p it stands for.
 */
static size_t next_piece(const unsigned char *p, char out[6], size_t *out_len)
{
	static const char hex[] = "0123456789abcdef";
	size_t n;

	if (*p == '"' || *p == '\\') {
		out[0] = '\\';
		out[1] = (char)*p;
		*out_len = 2;
		return 1;
	}
	if (*p >= 0x20 && *p < 0x7f) {
		out[0] = (char)*p;
		*out_len = 1;
		return 1;
	}
	n = *p >= 0x80 ? utf8_len(p) : 0;
	if (n) {
		memcpy(out, p, n);
		*out_len = n;
		return n;
	}
	memcpy(out, "\\u00", 4);
	out[4] = hex[*p >> 4];
	out[5] = hex[*p & 0xf];
	*out_len = 6;
	return 1;
}

/* Where the pieces go: @f, or else as much of @buf (@len bytes) as leaves room for a NUL. */
struct sink {
	FILE *f;
	char *buf;
	size_t len;
	size_t total;             /* bytes put so far, kept or not */
};

static void put(struct sink *k, const char *src, size_t n)
{
	if (k->f)
		fwrite(src, 1, n, k->f);
	else
		for (size_t i = 0; i < n; i++)
			if (k->total + i + 1 < k->len)
				k->buf[k->total + i] = src[i];
	k->total += n;
}

static void put_literal(struct sink *k, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	char piece[6];
	size_t n;

	if (!s) {
		put(k, "null", 4);
		return;
	}
	put(k, "\"", 1);
	while (*p) {
		p += next_piece(p, piece, &n);
		put(k, piece, n);
	}
	put(k, "\"", 1);
}

size_t zl_json_str(char *buf, size_t len, const char *s)
{
	struct sink k = { .buf = buf, .len = len };

	put_literal(&k, s);
	if (len)
		buf[k.total < len ? k.total : len - 1] = '\0';
	return k.total;
}

void zl_json_fprint_str(FILE *f, const char *s)
{
	struct sink k = { .f = f };

	put_literal(&k, s);
}
