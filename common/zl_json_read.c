/*
 * zl_json_read.c — the JSON reader (zl_json_read.h): flattens a document
 * into dotted paths, keeping every value's text as written.  It reads what
 * the simulator and the runner write (objects, arrays, strings, numbers,
 * true/false/null) and refuses anything else with the byte offset.  Not a
 * general JSON library: no writer (zl_json.c escapes strings), no tree.
 * It uses GLib (arrays, hash table, GError), the one file of common/ that
 * does: its callers are the command-line side (scenarios/, analysis/'s
 * result tables, cli/), never the emulator.
 */
#include <stdbool.h>
#include <string.h>

#include "zl_json_read.h"

G_DEFINE_QUARK(zl-json-error-quark, zl_json_error)

struct jp {
	const char *s;
	size_t len, pos;
	struct zl_json_doc *j;
	GError **err;
};

static int jp_fail(struct jp *p, const char *why)
{
	g_set_error(p->err, ZL_JSON_ERROR, ZL_JSON_ERROR_SYNTAX, "byte %zu: %s", p->pos, why);
	return -1;
}

static void jp_ws(struct jp *p)
{
	while (p->pos < p->len && strchr(" \t\r\n", p->s[p->pos]) && p->s[p->pos])
		p->pos++;
}

static void leaf_free(gpointer data)
{
	struct zl_json_leaf *l = data;

	g_free(l->path);
	g_free(l->text);
	g_free(l);
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* A string at p->pos (the opening quote); the unescaped text in *@out. */
static int jp_string(struct jp *p, char **out)
{
	GString *g = g_string_new(NULL);

	p->pos++;
	for (;;) {
		unsigned char c;

		if (p->pos >= p->len) {
			g_string_free(g, TRUE);
			return jp_fail(p, "unterminated string");
		}
		c = (unsigned char)p->s[p->pos++];
		if (c == '"')
			break;
		if (c < 0x20) {
			p->pos--;
			g_string_free(g, TRUE);
			return jp_fail(p, "control character in a string");
		}
		if (c != '\\') {
			g_string_append_c(g, (char)c);
			continue;
		}
		if (p->pos >= p->len)
			continue;       /* reported as unterminated next round */
		c = (unsigned char)p->s[p->pos++];
		switch (c) {
		case '"': case '\\': case '/': g_string_append_c(g, (char)c); break;
		case 'b': g_string_append_c(g, '\b'); break;
		case 'f': g_string_append_c(g, '\f'); break;
		case 'n': g_string_append_c(g, '\n'); break;
		case 'r': g_string_append_c(g, '\r'); break;
		case 't': g_string_append_c(g, '\t'); break;
		case 'u': {
			gunichar u = 0;

			for (int k = 0; k < 4; k++) {
				int h = p->pos < p->len ? hexval(p->s[p->pos]) : -1;

				if (h < 0) {
					g_string_free(g, TRUE);
					return jp_fail(p, "\\u needs 4 hex digits");
				}
				u = u * 16 + (gunichar)h;
				p->pos++;
			}
			if (u == 0 || (u >= 0xd800 && u <= 0xdfff))
				u = 0xfffd;     /* NUL and lone surrogates: replacement */
			g_string_append_unichar(g, u);
			break;
		}
		default:
			p->pos--;
			g_string_free(g, TRUE);
			return jp_fail(p, "unknown escape in a string");
		}
	}
	*out = g_string_free(g, FALSE);
	return 0;
}

static void jp_add(struct jp *p, const char *path, enum zl_json_kind kind, double num, char *text)
{
	struct zl_json_leaf *l = g_new0(struct zl_json_leaf, 1);

	l->path = g_strdup(path);
	l->kind = kind;
	l->num = num;
	l->text = text;
	g_ptr_array_add(p->j->leaves, l);
	g_hash_table_replace(p->j->by_path, l->path, l);
}

static char *join(const char *prefix, const char *name)
{
	return *prefix ? g_strconcat(prefix, ".", name, NULL) : g_strdup(name);
}

static int jp_value(struct jp *p, const char *path, int depth);

static int jp_container(struct jp *p, const char *path, int depth, bool object)
{
	char close = object ? '}' : ']';
	unsigned idx = 0;

	if (depth >= ZL_JSON_MAX_DEPTH)
		return jp_fail(p, "nested too deep");
	p->pos++;
	jp_ws(p);
	if (p->pos < p->len && p->s[p->pos] == close) {
		p->pos++;
		return 0;
	}
	for (;;) {
		char *name = NULL, *sub;
		int r;

		jp_ws(p);
		if (object) {
			if (p->pos >= p->len || p->s[p->pos] != '"')
				return jp_fail(p, "expected a member name");
			if (jp_string(p, &name))
				return -1;
			jp_ws(p);
			if (p->pos >= p->len || p->s[p->pos] != ':') {
				g_free(name);
				return jp_fail(p, "expected ':'");
			}
			p->pos++;
		} else {
			name = g_strdup_printf("%u", idx++);
		}
		sub = join(path, name);
		g_free(name);
		r = jp_value(p, sub, depth + 1);
		g_free(sub);
		if (r)
			return -1;
		jp_ws(p);
		if (p->pos < p->len && p->s[p->pos] == ',') {
			p->pos++;
			continue;
		}
		if (p->pos < p->len && p->s[p->pos] == close) {
			p->pos++;
			return 0;
		}
		return jp_fail(p, object ? "expected ',' or '}'" : "expected ',' or ']'");
	}
}

static int jp_value(struct jp *p, const char *path, int depth)
{
	char c;

	jp_ws(p);
	if (p->pos >= p->len)
		return jp_fail(p, "expected a value");
	c = p->s[p->pos];
	if (c == '{' || c == '[')
		return jp_container(p, path, depth, c == '{');
	if (c == '"') {
		char *s;

		if (jp_string(p, &s))
			return -1;
		jp_add(p, path, ZL_JSON_STR, 0, s);
		return 0;
	}
	static const struct { const char *w; enum zl_json_kind k; double v; } words[] = {
		{ "true", ZL_JSON_BOOL, 1 }, { "false", ZL_JSON_BOOL, 0 }, { "null", ZL_JSON_NULL, 0 },
	};
	for (size_t k = 0; k < G_N_ELEMENTS(words); k++) {
		size_t n = strlen(words[k].w);

		if (p->len - p->pos >= n && !memcmp(p->s + p->pos, words[k].w, n)) {
			p->pos += n;
			jp_add(p, path, words[k].k, words[k].v, g_strdup(words[k].w));
			return 0;
		}
	}
	if (c == '-' || (c >= '0' && c <= '9')) {
		size_t start = p->pos;
		char *t, *end;
		double v;

		while (p->pos < p->len && strchr("+-.eE0123456789", p->s[p->pos]) && p->s[p->pos])
			p->pos++;
		t = g_strndup(p->s + start, p->pos - start);
		v = g_ascii_strtod(t, &end);
		if (*end) {
			g_free(t);
			p->pos = start;
			return jp_fail(p, "not a number");
		}
		jp_add(p, path, ZL_JSON_NUM, v, t);
		return 0;
	}
	return jp_fail(p, "expected a value");
}

struct zl_json_doc *zl_json_parse(const char *text, size_t len, GError **err)
{
	struct zl_json_doc *j = g_new0(struct zl_json_doc, 1);
	struct jp p = { .s = text, .len = len, .j = j, .err = err };

	j->leaves = g_ptr_array_new_with_free_func(leaf_free);
	j->by_path = g_hash_table_new(g_str_hash, g_str_equal);
	jp_ws(&p);
	if (p.pos >= len || text[p.pos] != '{') {
		jp_fail(&p, "expected '{'");
		goto out_fail;
	}
	if (jp_value(&p, "", 0))
		goto out_fail;
	jp_ws(&p);
	if (p.pos != len) {
		jp_fail(&p, "text after the document");
		goto out_fail;
	}
	return j;
out_fail:
	zl_json_destroy(j);
	return NULL;
}

void zl_json_destroy(struct zl_json_doc *j)
{
	if (!j)
		return;
	g_hash_table_destroy(j->by_path);
	g_ptr_array_free(j->leaves, TRUE);
	g_free(j);
}

const struct zl_json_leaf *zl_json_get(const struct zl_json_doc *j, const char *path)
{
	return g_hash_table_lookup(j->by_path, path);
}
