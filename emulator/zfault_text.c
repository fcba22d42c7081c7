/*
 * zfault_text.c — lists of fault rules as text: zfault_add_text() splits a
 * ';'-separated list, parses every rule (zfault_parse()) and adds them all
 * or none (zfault_add_all()); zfault_list() writes the engine's rules back,
 * one line each with its counters (zfault_get(), zfault_format()).
 *
 * It sits above both halves of zfault: it uses the engine (zfault.c) only
 * through its public calls and the one-rule text form (zfault_parse.c) only
 * through zfault_parse()/zfault_format(); neither of them calls back here.
 * It holds no state and decides nothing.
 */
#include "zfault.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Length of the rule starting at @s: up to ';' or the end. */
static size_t rule_span(const char *s)
{
	return strcspn(s, ";");
}

/**
 * zfault_add_text() - parse ';'-separated rules and add all of them or none.
 * @f: engine.
 * @text: rules (borrowed).  Blank text adds nothing and succeeds.
 * @msg: may be NULL; gets the first parse error (see zfault_parse()).
 * @msg_len: size of @msg.
 *
 * Return: 0, ZL_E_FAULT_SYNTAX (nothing added), -EINVAL or -ENOMEM.
 */
int zfault_add_text(struct zfault *f, const char *text, char *msg, size_t msg_len)
{
	struct zfault_rule *parsed = NULL;
	const char *p;
	uint32_t nr = 0;
	size_t nr_max = 1;
	char *one = NULL;
	int ret = 0;

	if (msg && msg_len)
		msg[0] = '\0';
	if (!f || !text)
		return -EINVAL;
	/* A blank text is an empty list: nothing to add. */
	if (!text[strspn(text, " \t\r\n")])
		return 0;
	for (p = text; *p; p++)
		nr_max += *p == ';';
	parsed = calloc(nr_max, sizeof(*parsed));
	one = malloc(strlen(text) + 1);
	if (!parsed || !one) {
		ret = -ENOMEM;
		goto out_free;
	}
	for (p = text;;) {
		size_t n = rule_span(p);

		memcpy(one, p, n);
		one[n] = '\0';
		ret = zfault_parse(one, &parsed[nr], msg, msg_len);
		if (ret)
			goto out_free;
		nr++;
		if (!p[n])
			break;
		p += n + 1;
	}
	/* Parsed rules are always valid: only -ENOMEM can fail here. */
	ret = zfault_add_all(f, parsed, nr);
out_free:
	if (ret == -ENOMEM && msg && msg_len)
		snprintf(msg, msg_len, "fault rules: out of memory");
	free(one);
	free(parsed);
	return ret;
}

/**
 * zfault_list() - the rules as text, "id: text (matched N, fired M)\n" each.
 * @f: engine (NULL lists nothing).
 *
 * Return: a string the caller frees with free() ("" when there are no
 * rules), or NULL when out of memory.
 */
char *zfault_list(const struct zfault *f)
{
	size_t cap = 256, len = 0;
	char *out = malloc(cap), *n;
	struct zfault_rule_info e;
	char text[512];
	uint32_t i;

	if (!out)
		return NULL;
	out[0] = '\0';
	for (i = 0; zfault_get(f, i, &e) == 0; i++) {
		int tl = zfault_format(&e.rule, text, sizeof(text));
		int ll;

		if (tl < 0)
			snprintf(text, sizeof(text), "%s:?", zfault_action_name(e.rule.action));
		for (;;) {
			ll = snprintf(out + len, cap - len, "%u: %s (matched %llu, fired %llu)\n",
				      e.id, text, (unsigned long long)e.nr_matched,
				      (unsigned long long)e.nr_fired);
			if (ll < 0) {
				free(out);
				return NULL;
			}
			if ((size_t)ll < cap - len)
				break;
			n = realloc(out, cap * 2);
			if (!n) {
				free(out);
				return NULL;
			}
			out = n;
			cap *= 2;
		}
		len += (size_t)ll;
	}
	return out;
}
