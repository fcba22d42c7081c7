/*
 * zstats.c — JSON form of struct zl_stats.  Error counters are keyed by
 * zl_errname(); only non-zero ones are printed.
 */
#include "zstats.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

struct jbuf {
	char *p;
	size_t len, off;
	bool overflow;
};

static void jprintf(struct jbuf *j, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (j->overflow)
		return;             /* the result is -ENOSPC anyway; off may be past the end */
	va_start(ap, fmt);
	n = vsnprintf(j->p + j->off, j->len - j->off, fmt, ap);
	va_end(ap);
	if (n < 0 || j->off + (size_t)n >= j->len)
		j->overflow = true;
	j->off += n > 0 ? (size_t)n : 0;
}

int zl_stats_json(const struct zl_stats *s, char *buf, size_t len)
{
	struct jbuf j = { buf, len, 0, false };
	bool first = true;

	if (!len)
		return -ENOSPC;
	jprintf(&j, "{\"reads\":%" PRIu64 ",\"read_lbas\":%" PRIu64
		",\"writes\":%" PRIu64 ",\"write_lbas\":%" PRIu64
		",\"fua_writes\":%" PRIu64 ",\"fua_write_lbas\":%" PRIu64 ",\"flushes\":%" PRIu64
		",\"reports\":%" PRIu64 ",\"report_zones\":%" PRIu64
		",\"zone_ops\":%" PRIu64 ",\"imp_opens\":%" PRIu64 ",\"exp_opens\":%" PRIu64
		",\"imp_closes\":%" PRIu64 ",\"exp_closes\":%" PRIu64
		",\"finishes\":%" PRIu64 ",\"resets\":%" PRIu64
		",\"zop_reset\":%" PRIu64 ",\"zop_reset_all\":%" PRIu64
		",\"zop_finish\":%" PRIu64 ",\"zop_finish_all\":%" PRIu64
		",\"zop_open\":%" PRIu64 ",\"zop_open_all\":%" PRIu64
		",\"zop_close\":%" PRIu64 ",\"zop_close_all\":%" PRIu64
		",\"zop_zones\":%" PRIu64
		",\"faults_fired\":%" PRIu64 ",\"injected_delay_ns\":%" PRIu64
		",\"power_cycles\":%" PRIu64 ",\"errors\":%" PRIu64 ",\"error_kinds\":{",
		s->reads, s->read_lbas, s->writes, s->write_lbas, s->fua_writes, s->fua_write_lbas,
		s->flushes,
		s->reports, s->report_zones, s->zone_ops, s->imp_opens, s->exp_opens,
		s->imp_closes, s->exp_closes, s->finishes, s->resets,
		s->zop_reset, s->zop_reset_all, s->zop_finish, s->zop_finish_all,
		s->zop_open, s->zop_open_all, s->zop_close, s->zop_close_all, s->zop_zones,
		s->faults_fired, s->injected_delay_ns, s->power_cycles, s->errors);
	for (int i = 1; i < ZL_NR_ERR_KINDS; i++) {
		if (!s->err_kind[i])
			continue;
		jprintf(&j, "%s\"%s\":%" PRIu64, first ? "" : ",", zl_errname(ZL_E_BASE + i),
			s->err_kind[i]);
		first = false;
	}
	if (s->err_errno)
		jprintf(&j, "%s\"io\":%" PRIu64, first ? "" : ",", s->err_errno);
	jprintf(&j, "}}");
	if (j.overflow)
		return -ENOSPC;
	return (int)j.off;
}
