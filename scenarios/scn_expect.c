/*
 * scn_expect.c — expectations: parse "FIELD OP VALUE [if FIELD OP VALUE]"
 * and "FIELD within TOL[%] of VALUE", and check one against a point's
 * flattened JSON (scn.h; the reader is common/zl_json_read.c).  The
 * grammar and its units are in docs/SCENARIOS.md.  This file knows no
 * field names: any dotted path the JSON has can be compared.
 */
#include <math.h>
#include <string.h>

#include "scn.h"

static const struct { const char *sym; enum scn_op op; } ops[] = {
	{ "==", SCN_OP_EQ }, { "!=", SCN_OP_NE }, { "<=", SCN_OP_LE }, { ">=", SCN_OP_GE },
	{ "<", SCN_OP_LT }, { ">", SCN_OP_GT },
};

static const char *op_sym(enum scn_op op)
{
	for (size_t i = 0; i < G_N_ELEMENTS(ops); i++)
		if (ops[i].op == op)
			return ops[i].sym;
	return "within";
}

/* Units a number may carry: time in ns, sizes in bytes (binary). */
static const struct { const char *unit; double mul; } units[] = {
	{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
	{ "K", 1024.0 }, { "M", 1048576.0 }, { "G", 1073741824.0 }, { "T", 1099511627776.0 },
	{ "%", 0.01 },
};

struct lex {
	const char *s;
	size_t pos;
};

static void skip_ws(struct lex *x)
{
	while (x->s[x->pos] == ' ' || x->s[x->pos] == '\t')
		x->pos++;
}

static bool is_word_char(char c)
{
	return g_ascii_isalnum(c) || c == '_' || c == '.' || c == '-' || c == '[' || c == ']';
}

/* A word (field path or keyword) at x; NULL if none. */
static char *word(struct lex *x)
{
	size_t start;

	skip_ws(x);
	start = x->pos;
	while (x->s[x->pos] && is_word_char(x->s[x->pos]))
		x->pos++;
	return x->pos > start ? g_strndup(x->s + start, x->pos - start) : NULL;
}

static bool keyword(struct lex *x, const char *kw)
{
	size_t n = strlen(kw), save = x->pos;

	skip_ws(x);
	if (!strncmp(x->s + x->pos, kw, n) && !is_word_char(x->s[x->pos + n])) {
		x->pos += n;
		return true;
	}
	x->pos = save;
	return false;
}

/* A number with an optional unit at x; 0, or -1 if there is none. */
static int number(struct lex *x, double *v, char **text, bool *pct)
{
	const char *start;
	char *end;

	skip_ws(x);
	start = x->s + x->pos;
	if (!(g_ascii_isdigit(*start) || ((*start == '-' || *start == '+' || *start == '.') &&
					  (g_ascii_isdigit(start[1]) || start[1] == '.'))))
		return -1;
	*v = g_ascii_strtod(start, &end);
	if (end == start)
		return -1;
	*pct = false;
	for (size_t i = 0; i < G_N_ELEMENTS(units); i++) {
		size_t n = strlen(units[i].unit);

		if (!strncmp(end, units[i].unit, n) && !g_ascii_isalnum(end[n]) && end[n] != '_') {
			*v *= units[i].mul;
			*pct = units[i].unit[0] == '%';
			end += n;
			break;
		}
	}
	if (is_word_char(*end) && *end != '.') {
		return -1;      /* "2xs": not a number we know */
	}
	x->pos = (size_t)(end - x->s);
	*text = g_strndup(start, (size_t)(end - start));
	return 0;
}

static int operand(struct lex *x, struct scn_operand *o, char **why)
{
	bool pct;

	memset(o, 0, sizeof(*o));
	skip_ws(x);
	if (x->s[x->pos] == '"') {
		const char *q = strchr(x->s + x->pos + 1, '"');

		if (!q) {
			*why = g_strdup("a string without its closing '\"'");
			return -1;
		}
		o->is_str = true;
		o->text = g_strndup(x->s + x->pos + 1, (size_t)(q - (x->s + x->pos + 1)));
		x->pos = (size_t)(q - x->s) + 1;
		return 0;
	}
	if (!number(x, &o->num, &o->text, &pct))
		return 0;
	o->text = word(x);
	if (!o->text) {
		*why = g_strdup_printf("expected a field, a number or a \"string\" at '%s'",
				       x->s + x->pos);
		return -1;
	}
	if (!strcmp(o->text, "true") || !strcmp(o->text, "false") || !strcmp(o->text, "none"))
		o->is_str = true;
	else
		o->is_field = true;
	return 0;
}

static void operand_fini(struct scn_operand *o)
{
	g_free(o->text);
	o->text = NULL;
}

static int cond_parse(struct lex *x, struct scn_cond *c, bool allow_within, char **why)
{
	memset(c, 0, sizeof(*c));
	if (operand(x, &c->lhs, why))
		return -1;
	if (!c->lhs.is_field) {
		*why = g_strdup_printf("the left side must be a field of the results, not '%s'",
				       c->lhs.text);
		return -1;
	}
	skip_ws(x);
	if (keyword(x, "within")) {
		char *t = NULL;

		if (!allow_within) {
			*why = g_strdup("'within' is not allowed in an 'if' condition");
			return -1;
		}
		c->op = SCN_OP_WITHIN;
		if (number(x, &c->tol, &t, &c->tol_rel) || c->tol < 0) {
			g_free(t);      /* a negative tolerance was read as a number */
			*why = g_strdup_printf("'within' needs a tolerance (a number, e.g. 1%% or 0.05) at '%s'",
					       x->s + x->pos);
			return -1;
		}
		g_free(t);
		if (!keyword(x, "of")) {
			*why = g_strdup_printf("expected 'of' after the tolerance at '%s'", x->s + x->pos);
			return -1;
		}
		if (c->tol_rel)
			c->tol *= 100;  /* number() took % as 0.01: keep the percentage */
	} else {
		size_t i;

		for (i = 0; i < G_N_ELEMENTS(ops); i++)
			if (!strncmp(x->s + x->pos, ops[i].sym, strlen(ops[i].sym)))
				break;
		if (i == G_N_ELEMENTS(ops)) {
			*why = g_strdup_printf("expected one of == != < <= > >= within, at '%s'",
					       x->s + x->pos);
			return -1;
		}
		c->op = ops[i].op;
		x->pos += strlen(ops[i].sym);
	}
	if (operand(x, &c->rhs, why))
		return -1;
	return 0;
}

int scn_expect_parse(const char *text, struct scn_expect *e, char **why)
{
	struct lex x = { .s = text };

	*why = NULL;
	if (cond_parse(&x, &e->cond, true, why))
		goto out_fail;
	if (keyword(&x, "if")) {
		e->has_if = true;
		if (cond_parse(&x, &e->when, false, why))
			goto out_fail;
	}
	skip_ws(&x);
	if (x.s[x.pos]) {
		*why = g_strdup_printf("unexpected '%s' after the expectation", x.s + x.pos);
		goto out_fail;
	}
	e->text = g_strdup(text);
	return 0;
out_fail:
	scn_expect_fini(e);
	return -1;
}

void scn_expect_fini(struct scn_expect *e)
{
	operand_fini(&e->cond.lhs);
	operand_fini(&e->cond.rhs);
	operand_fini(&e->when.lhs);
	operand_fini(&e->when.rhs);
	g_free(e->name);
	g_free(e->text);
	memset(e, 0, sizeof(*e));
}

/* An operand's value on this point: a leaf, or a made-up one for constants. */
static const struct zl_json_leaf *value_of(const struct scn_operand *o,
					   const struct zl_json_doc *j, struct zl_json_leaf *tmp)
{
	if (o->is_field)
		return zl_json_get(j, o->text);
	tmp->path = o->text;
	tmp->text = o->text;
	tmp->kind = o->is_str ? ZL_JSON_STR : ZL_JSON_NUM;
	tmp->num = o->num;
	return tmp;
}

static char *show(const struct zl_json_leaf *l)
{
	if (l->kind == ZL_JSON_STR)
		return g_strdup_printf("\"%s\"", l->text);
	return g_strdup(l->text);
}

/* 1 true, 0 false, -1 cannot compare (*msg says why). */
static int cond_eval(const struct scn_cond *c, const struct zl_json_doc *j, char **msg)
{
	struct zl_json_leaf ta = { 0 }, tb = { 0 };
	const struct zl_json_leaf *a = value_of(&c->lhs, j, &ta), *b = value_of(&c->rhs, j, &tb);
	bool num;
	double d;

	if (!a || !b) {
		*msg = g_strdup_printf("field '%s' is not in the results",
				       !a ? c->lhs.text : c->rhs.text);
		return -1;
	}
	num = (a->kind == ZL_JSON_NUM || a->kind == ZL_JSON_BOOL) &&
	      (b->kind == ZL_JSON_NUM || b->kind == ZL_JSON_BOOL) &&
	      !c->rhs.is_str;
	if (!num) {
		int cmp = strcmp(a->text, b->text);

		switch (c->op) {
		case SCN_OP_EQ: return cmp == 0;
		case SCN_OP_NE: return cmp != 0;
		default:
			*msg = g_strdup_printf("'%s' is not a number here (%s): only == and != "
					       "compare text", a->kind == ZL_JSON_NUM ? b->path : a->path,
					       a->kind == ZL_JSON_NUM ? b->text : a->text);
			return -1;
		}
	}
	d = a->num - b->num;
	switch (c->op) {
	case SCN_OP_EQ: return d == 0;
	case SCN_OP_NE: return d != 0;
	case SCN_OP_LT: return d < 0;
	case SCN_OP_LE: return d <= 0;
	case SCN_OP_GT: return d > 0;
	case SCN_OP_GE: return d >= 0;
	case SCN_OP_WITHIN:
		return fabs(d) <= (c->tol_rel ? c->tol / 100 * fabs(b->num) : c->tol);
	}
	return -1;
}

enum scn_verdict scn_expect_eval(const struct scn_expect *e, const struct zl_json_doc *j,
				 char **msg)
{
	struct zl_json_leaf ta = { 0 }, tb = { 0 };
	const struct zl_json_leaf *a, *b;
	char *sa, *sb, *why = NULL;
	int r;

	*msg = NULL;
	if (e->has_if) {
		r = cond_eval(&e->when, j, &why);
		if (r <= 0) {
			*msg = r < 0 ? why : g_strdup_printf("not applicable (%s %s %s is false)",
							     e->when.lhs.text, op_sym(e->when.op),
							     e->when.rhs.text);
			return SCN_SKIP;
		}
	}
	r = cond_eval(&e->cond, j, &why);
	if (r == 1)
		return SCN_PASS;
	if (r < 0) {
		*msg = why;
		return SCN_FAIL;
	}
	a = value_of(&e->cond.lhs, j, &ta);
	b = value_of(&e->cond.rhs, j, &tb);
	sa = show(a);
	sb = show(b);
	if (e->cond.op == SCN_OP_WITHIN) {
		double off = b->num ? (a->num - b->num) / fabs(b->num) * 100 : 0;

		*msg = g_strdup_printf("%s = %s, expected within %g%s of %s%s%s (off by %g, %+.3g%%)",
				       e->cond.lhs.text, sa, e->cond.tol, e->cond.tol_rel ? "%" : "",
				       e->cond.rhs.is_field ? e->cond.rhs.text : "",
				       e->cond.rhs.is_field ? " = " : "", sb, a->num - b->num, off);
	} else {
		*msg = g_strdup_printf("%s = %s, expected %s %s%s%s", e->cond.lhs.text, sa,
				       op_sym(e->cond.op),
				       e->cond.rhs.is_field ? e->cond.rhs.text : "",
				       e->cond.rhs.is_field ? " = " : "", sb);
	}
	g_free(sa);
	g_free(sb);
	return SCN_FAIL;
}
