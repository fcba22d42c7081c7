/*
 * zctl_parse.c — the control protocol's request parser: zctl_parse() turns
 * one request line into a struct zctl_req, or refuses it with a reason
 * (unknown command, missing or bad argument, NUL/CR/LF byte, too long).
 * Nothing from the line is trusted: any bytes, any length; a token quoted
 * in a message is cut and made printable.  Protocol: docs/CTL.md.
 *
 * It only parses: it touches no disk and builds no reply (zctl_cmd.c does,
 * and calls this file; this file calls nothing of zctl).
 */
#include "zctl.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "zl_err.h"

#define ZCTL_REPORT_DEFAULT 32

struct lex {
	const char *p, *end;
};

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Next blank-separated token; false at the end of the line. */
static bool next_tok(struct lex *lx, const char **tok, size_t *len)
{
	while (lx->p < lx->end && is_blank(*lx->p))
		lx->p++;
	if (lx->p == lx->end)
		return false;
	*tok = lx->p;
	while (lx->p < lx->end && !is_blank(*lx->p))
		lx->p++;
	*len = (size_t)(lx->p - *tok);
	return true;
}

/* The rest of the line with blanks trimmed at both ends. */
static size_t rest(struct lex *lx, const char **s)
{
	const char *e = lx->end;

	while (lx->p < e && is_blank(*lx->p))
		lx->p++;
	while (e > lx->p && is_blank(e[-1]))
		e--;
	*s = lx->p;
	lx->p = lx->end;
	return (size_t)(e - *s);
}

static bool tok_is(const char *tok, size_t len, const char *word)
{
	return strlen(word) == len && !memcmp(tok, word, len);
}

/* A token for an error message: at most 40 bytes, unprintable bytes as '?'. */
static const char *shown(const char *tok, size_t len, char buf[48])
{
	size_t n = len > 40 ? 40 : len, i;

	for (i = 0; i < n; i++)
		buf[i] = tok[i] >= 0x20 && tok[i] < 0x7f ? tok[i] : '?';
	if (len > 40) {
		memcpy(buf + n, "...", 3);
		n += 3;
	}
	buf[n] = '\0';
	return buf;
}

static int parse_num(const char *tok, size_t len, uint64_t *out)
{
	uint64_t v = 0;
	unsigned base = 10;
	size_t i = 0;

	if (len > 2 && tok[0] == '0' && (tok[1] == 'x' || tok[1] == 'X')) {
		base = 16;
		i = 2;
	}
	if (i == len)
		return -EINVAL;
	for (; i < len; i++) {
		unsigned d;
		char c = tok[i];

		if (c >= '0' && c <= '9')
			d = (unsigned)(c - '0');
		else if (base == 16 && c >= 'a' && c <= 'f')
			d = (unsigned)(c - 'a' + 10);
		else if (base == 16 && c >= 'A' && c <= 'F')
			d = (unsigned)(c - 'A' + 10);
		else
			return -EINVAL;
		if (v > (UINT64_MAX - d) / base)
			return -ERANGE;
		v = v * base + d;
	}
	*out = v;
	return 0;
}

/* The reason of a parse error into @err (zl_msgf()); evaluates to -EINVAL. */
#define perr(err, err_len, ...) (zl_msgf((err), (err_len), __VA_ARGS__), -EINVAL)

/* The number @what in the token @t (already taken from the line). */
static int tok_num(const char *t, size_t n, const char *what, uint64_t *out, char *err,
		   size_t err_len)
{
	char b[48];
	int ret = parse_num(t, n, out);

	if (ret)
		return perr(err, err_len, "%s '%s' is %s", what, shown(t, n, b),
			    ret == -ERANGE ? "larger than 64 bits" :
			    "not a number (decimal or 0x hex)");
	return 0;
}

static int want_num(struct lex *lx, const char *what, uint64_t *out, char *err, size_t err_len)
{
	const char *t;
	size_t n;

	if (!next_tok(lx, &t, &n))
		return perr(err, err_len, "missing %s", what);
	return tok_num(t, n, what, out, err, err_len);
}

static int no_more(struct lex *lx, const char *after, char *err, size_t err_len)
{
	const char *t;
	size_t n;
	char b[48];

	if (next_tok(lx, &t, &n))
		return perr(err, err_len, "unexpected argument '%s' after '%s'", shown(t, n, b), after);
	return 0;
}

static int parse_zone_arg(struct lex *lx, struct zctl_req *req, char *err, size_t err_len)
{
	const char *t;
	size_t n;
	char b[48];
	int ret;

	if (!next_tok(lx, &t, &n))
		return perr(err, err_len, "missing zone (a zone index N, or lba=N for the zone "
			    "starting at LBA N)");
	req->by_lba = n > 4 && !memcmp(t, "lba=", 4);
	ret = req->by_lba ? parse_num(t + 4, n - 4, &req->num) : parse_num(t, n, &req->num);
	if (ret)
		return perr(err, err_len, "zone '%s': expected a zone index N or lba=N",
			    shown(t, n, b));
	return 0;
}

static int parse_fault(struct lex *lx, struct zctl_req *req, char *err, size_t err_len)
{
	const char *t, *s;
	size_t n;
	char b[48];

	if (!next_tok(lx, &t, &n))
		return perr(err, err_len, "missing fault subcommand (add, rm, list, clear)");
	if (tok_is(t, n, "add")) {
		req->cmd = ZCTL_FAULT_ADD;
		n = rest(lx, &s);
		if (!n)
			return perr(err, err_len, "fault add: missing rules (e.g. fault add "
				    "medium-error:op=read,lba=0-7)");
		for (size_t i = 0; i < n; i++)
			req->arg[i] = s[i] == '/' ? ',' : s[i];
		req->arg[n] = '\0';
		return 0;
	}
	if (tok_is(t, n, "rm") || tok_is(t, n, "remove")) {
		req->cmd = ZCTL_FAULT_RM;
		if (want_num(lx, "fault rule id", &req->num, err, err_len))
			return -EINVAL;
		return no_more(lx, "fault rm ID", err, err_len);
	}
	if (tok_is(t, n, "list")) {
		req->cmd = ZCTL_FAULT_LIST;
		return no_more(lx, "fault list", err, err_len);
	}
	if (tok_is(t, n, "clear")) {
		req->cmd = ZCTL_FAULT_CLEAR;
		return no_more(lx, "fault clear", err, err_len);
	}
	return perr(err, err_len, "unknown fault subcommand '%s' (add, rm, list, clear)",
		    shown(t, n, b));
}

static int parse_zone(struct lex *lx, struct zctl_req *req, char *err, size_t err_len)
{
	const char *t;
	size_t n;
	char b[48], name[32];
	enum zl_report_opt opt;
	uint64_t max;

	if (!next_tok(lx, &t, &n))
		return perr(err, err_len, "missing zone subcommand (offline, read-only, clear, report)");
	if (tok_is(t, n, "offline") || tok_is(t, n, "read-only") || tok_is(t, n, "clear")) {
		req->cmd = t[0] == 'o' ? ZCTL_ZONE_OFFLINE : t[0] == 'r' ? ZCTL_ZONE_READ_ONLY :
			   ZCTL_ZONE_CLEAR;
		if (parse_zone_arg(lx, req, err, err_len))
			return -EINVAL;
		return no_more(lx, "the zone", err, err_len);
	}
	if (!tok_is(t, n, "report"))
		return perr(err, err_len, "unknown zone subcommand '%s' (offline, read-only, clear, "
			    "report)", shown(t, n, b));
	req->cmd = ZCTL_ZONE_REPORT;
	req->opt = ZL_RO_ALL;
	req->max = ZCTL_REPORT_DEFAULT;
	if (!next_tok(lx, &t, &n))
		return 0;
	if (tok_num(t, n, "start LBA", &req->num, err, err_len))
		return -EINVAL;
	if (!next_tok(lx, &t, &n))
		return 0;
	snprintf(name, sizeof(name), "%.*s", (int)n, t);
	if (n >= sizeof(name) || zl_report_opt_parse(name, &opt))
		return perr(err, err_len, "unknown reporting option '%s' (all, empty, imp-open, "
			    "exp-open, closed, full, read-only, offline, inactive, reset-rec, "
			    "non-seq, all-but-gap, not-wp)", shown(t, n, b));
	req->opt = (uint32_t)opt;
	if (!next_tok(lx, &t, &n))
		return 0;
	if (tok_num(t, n, "max", &max, err, err_len))
		return -EINVAL;
	if (max < 1 || max > ZCTL_REPORT_MAX)
		return perr(err, err_len, "max %" PRIu64 " is out of 1..%d", max, ZCTL_REPORT_MAX);
	req->max = (uint32_t)max;
	return no_more(lx, "zone report START OPTION MAX", err, err_len);
}

static int parse_trace(struct lex *lx, struct zctl_req *req, char *err, size_t err_len)
{
	const char *t, *s;
	size_t n;
	char b[48];

	if (!next_tok(lx, &t, &n) || tok_is(t, n, "status")) {
		req->cmd = ZCTL_TRACE_STATUS;
		return no_more(lx, "trace status", err, err_len);
	}
	if (tok_is(t, n, "stop")) {
		req->cmd = ZCTL_TRACE_STOP;
		return no_more(lx, "trace stop", err, err_len);
	}
	if (!tok_is(t, n, "start"))
		return perr(err, err_len, "unknown trace subcommand '%s' (start PATH, stop, status)",
			    shown(t, n, b));
	req->cmd = ZCTL_TRACE_START;
	n = rest(lx, &s);
	if (!n)
		return perr(err, err_len, "trace start: missing the trace file path");
	if (s[0] != '/')
		return perr(err, err_len, "trace start: path '%s' must be absolute (the server's "
			    "working directory is not yours)", shown(s, n, b));
	memcpy(req->arg, s, n);
	req->arg[n] = '\0';
	return 0;
}

/* Commands of one word, without arguments. */
static const struct {
	const char *word;
	enum zctl_cmd cmd;
} bare_cmds[] = {
	{ "help", ZCTL_HELP },
	{ "stats", ZCTL_STATS },
	{ "release", ZCTL_RELEASE },
	{ "power-cycle", ZCTL_POWER_CYCLE },
};

int zctl_parse(const char *line, size_t len, struct zctl_req *req, char *err, size_t err_len)
{
	struct lex lx;
	const char *t;
	size_t n;
	char b[48];

	memset(req, 0, sizeof(*req));
	if (len && line[len - 1] == '\r')
		len--;
	if (len > ZCTL_LINE_MAX)
		return perr(err, err_len, "request is %zu bytes, longer than %d", len, ZCTL_LINE_MAX);
	if (memchr(line, '\0', len) || memchr(line, '\n', len) || memchr(line, '\r', len))
		return perr(err, err_len, "request contains a NUL, CR or LF byte");
	lx.p = line;
	lx.end = line + len;
	if (!next_tok(&lx, &t, &n))
		return perr(err, err_len, "empty request (try 'help')");
	for (size_t i = 0; i < sizeof(bare_cmds) / sizeof(bare_cmds[0]); i++)
		if (tok_is(t, n, bare_cmds[i].word)) {
			req->cmd = bare_cmds[i].cmd;
			return no_more(&lx, bare_cmds[i].word, err, err_len);
		}
	if (tok_is(t, n, "fault"))
		return parse_fault(&lx, req, err, err_len);
	if (tok_is(t, n, "zone"))
		return parse_zone(&lx, req, err, err_len);
	if (tok_is(t, n, "trace"))
		return parse_trace(&lx, req, err, err_len);
	return perr(err, err_len, "unknown command '%s' (try 'help')", shown(t, n, b));
}
