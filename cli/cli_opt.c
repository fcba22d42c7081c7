/*
 * cli_opt.c — the one way every zonelab command reads its options:
 * getopt_long with `--opt value` and `--opt=value`, `--` ending the
 * options, and a refusal that names the option and the command's help
 * (exit 2 is the caller's).  Whether options may follow positionals is
 * the command's choice (a leading '+' in its short options stops at the
 * first positional, for commands that pass the rest on, like `ctl`).
 * It does not print help texts or parse values: see cli_util.c.
 */
#include "cli.h"

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* "--name" of the long option @tok names (up to any '='), into @buf. */
static const char *long_name(const char *tok, char *buf, size_t len)
{
	snprintf(buf, len, "%.*s", (int)strcspn(tok, "="), tok);
	return buf;
}

/* The long options whose names start with @name (without "--"), into @buf. */
static int prefix_matches(const struct option *longopts, const char *name, size_t n,
			  char *buf, size_t len)
{
	size_t off = 0;
	int nr = 0;

	buf[0] = '\0';
	for (const struct option *p = longopts; p && p->name; p++) {
		if (strncmp(p->name, name, n))
			continue;
		if (off < len)
			off += (size_t)snprintf(buf + off, len - off, "%s--%s", nr ? ", " : "", p->name);
		nr++;
	}
	return nr;
}

/* Is @name (@n bytes, no "--") a flag, exactly or as its only abbreviation? */
static bool takes_no_value(const struct option *longopts, const char *name, size_t n)
{
	const struct option *hit = NULL;
	int nr = 0;

	for (const struct option *p = longopts; p && p->name; p++) {
		if (strncmp(p->name, name, n))
			continue;
		if (strlen(p->name) == n)
			return p->has_arg == no_argument;
		hit = p;
		nr++;
	}
	return nr == 1 && hit->has_arg == no_argument;
}

/* The message for a refused option: what getopt_long returned '?' or ':' for. */
static void refusal(int o, char **argv, const struct option *longopts, const struct cli_opts *c)
{
	const char *tok = optind > 0 ? argv[optind - 1] : "";
	char name[128], list[512], who[64];

	snprintf(who, sizeof(who), "zonelab%s%s", *c->cmd ? " " : "", c->cmd);

	if (!strncmp(tok, "--", 2) && tok[2]) {
		const char *bare = tok + 2;
		size_t n = strcspn(bare, "=");

		long_name(tok, name, sizeof(name));
		if (o == ':') {
			fprintf(stderr, "%s: option %s needs a value", who, name);
		} else if (bare[n] == '=' && takes_no_value(longopts, bare, n)) {
			fprintf(stderr, "%s: option %s takes no value", who, name);
		} else if (prefix_matches(longopts, bare, n, list, sizeof(list)) > 1) {
			fprintf(stderr, "%s: ambiguous option '%s' (%s)", who, name, list);
		} else {
			fprintf(stderr, "%s: unknown option '%s'", who, name);
		}
	} else if (o == ':') {
		fprintf(stderr, "%s: option -%c needs a value", who, optopt);
	} else {
		fprintf(stderr, "%s: unknown option '-%c'", who, optopt);
	}
	fprintf(stderr, " (see zonelab%s%s --help)\n", *c->help ? " " : "", c->help);
}

void cli_opt_start(void)
{
	optind = 0;    /* glibc: a full restart, forgetting the previous vector */
	opterr = 0;
}

int cli_getopt(int argc, char **argv, const struct cli_opts *c)
{
	char shortopts[64];
	const char *s = c->shortopts ? c->shortopts : "";
	int o;

	/* '+' (stop at the first positional) must come first, then ':' */
	if (*s == '+')
		snprintf(shortopts, sizeof(shortopts), "+:%s", s + 1);
	else
		snprintf(shortopts, sizeof(shortopts), ":%s", s);
	o = getopt_long(argc, argv, shortopts, c->longopts, NULL);
	if (o == '?' || o == ':') {
		refusal(o, argv, c->longopts, c);
		return '?';
	}
	return o;
}

void cli_unexpected(const struct cli_opts *c, const char *arg)
{
	fprintf(stderr, "zonelab%s%s: unexpected argument '%s' (see zonelab%s%s --help)\n",
		*c->cmd ? " " : "", c->cmd, arg, *c->help ? " " : "", c->help);
}
