/*
 * scn_sweep.c — the values of one scenario key: a list `a, b, "c,d"`
 * split on commas outside quotes, and a range `LOW .. HIGH [step STEP]`
 * expanded into its values (integers stay integers).  Pure text to text:
 * it knows no keys, no lines and no files (the loader, scn_keys.c, adds
 * those to an error), and it does not multiply axes into points
 * (scn_point.c).
 */
#include <math.h>
#include <string.h>

#include "scn_ld.h"

/* Split @text on commas outside double quotes; items trimmed and unquoted. */
int scn_list_split(const char *text, GPtrArray *out, char **why)
{
	GString *cur = g_string_new(NULL);
	bool q = false, quoted = false;
	unsigned item = 1;

	for (const char *c = text;; c++) {
		if (*c == '"' && !quoted) {
			/* an item is either bare or one quoted string (blanks around) */
			if (*g_strstrip(cur->str)) {
				*why = g_strdup_printf("item %u: a quote inside a bare item", item);
				goto out_fail;
			}
			g_string_truncate(cur, 0);
			q = quoted = true;
			continue;
		}
		if (*c == '"' && q) {
			q = false;
			continue;
		}
		if (*c && q) {
			g_string_append_c(cur, *c);
			continue;
		}
		if (*c && *c != ',') {
			if (quoted && *c != ' ' && *c != '\t') {
				*why = g_strdup_printf("item %u: text after its closing quote", item);
				goto out_fail;
			}
			if (!quoted)
				g_string_append_c(cur, *c);
			continue;
		}
		if (q) {
			*why = g_strdup("a \"quoted\" item without its closing quote");
			goto out_fail;
		}
		{
			char *v = g_strdup(quoted ? cur->str : g_strstrip(cur->str));

			if (!*v && !quoted) {
				g_free(v);
				*why = g_strdup_printf("item %u of the list is empty", item);
				goto out_fail;
			}
			g_ptr_array_add(out, v);
		}
		g_string_truncate(cur, 0);
		quoted = false;
		item++;
		if (!*c)
			break;
	}
	g_string_free(cur, TRUE);
	return 0;
out_fail:
	g_string_free(cur, TRUE);
	return -1;
}

static int parse_num(const char *s, double *v, bool *integral)
{
	char *end;

	*v = g_ascii_strtod(s, &end);
	if (end == s || *end || !isfinite(*v))
		return -1;
	*integral = !strpbrk(s, ".eE") && fabs(*v) < 9e15;
	return 0;
}

int scn_sweep_parse(const char *text, GPtrArray *values, char **why)
{
	const char *dots = strstr(text, "..");
	char *lo_s, *hi_s, *step_s = NULL, *st;
	double lo, hi, step = 1;
	bool ilo, ihi, istep = true;
	double n;
	int r = -1;

	*why = NULL;
	if (!dots || strchr(text, '"'))
		return scn_list_split(text, values, why);
	lo_s = g_strstrip(g_strndup(text, (size_t)(dots - text)));
	hi_s = g_strdup(dots + 2);
	st = strstr(hi_s, "step");
	if (st) {
		step_s = g_strstrip(g_strdup(st + 4));
		*st = 0;
	}
	g_strstrip(hi_s);
	if (parse_num(lo_s, &lo, &ilo) || parse_num(hi_s, &hi, &ihi) ||
	    (step_s && parse_num(step_s, &step, &istep))) {
		*why = g_strdup("a range is [LOW .. HIGH] or [LOW .. HIGH step STEP] with plain numbers");
		goto out;
	}
	if (!(step > 0)) {
		*why = g_strdup_printf("the step must be above 0, not %s", step_s);
		goto out;
	}
	if (hi < lo) {
		*why = g_strdup_printf("the range %s .. %s expands to nothing (HIGH below LOW)",
				       lo_s, hi_s);
		goto out;
	}
	n = floor((hi - lo) / step + 1e-9) + 1;
	if (n > SCN_MAX_VALUES) {
		*why = g_strdup_printf("the range expands to %.0f values (at most %u)", n,
				       SCN_MAX_VALUES);
		goto out;
	}
	for (unsigned i = 0; i < (unsigned)n; i++) {
		double v = lo + step * i;

		if (ilo && istep)
			g_ptr_array_add(values, g_strdup_printf("%lld", (long long)llround(v)));
		else
			g_ptr_array_add(values, g_strdup_printf("%.10g", v));
	}
	r = 0;
out:
	g_free(lo_s);
	g_free(hi_s);
	g_free(step_s);
	return r;
}
