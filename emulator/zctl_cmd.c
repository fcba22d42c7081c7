/*
 * zctl_cmd.c — the control protocol's executor: run a parsed request (struct
 * zctl_req, from zctl_parse() in zctl_parse.c) against a zdisk and its
 * trace, and build the one-line JSON reply; zctl_handle_line() is the two
 * together.  Used by the socket server (zctl.c), the unit tests and the
 * fuzzer.  No transport and no parsing here.  Zone rules stay in
 * zdev/zdisk: this file only names zones and prints what they say.
 */
#include "zctl.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zl_json.h"

/* ---- reply buffer ---------------------------------------------------------- */

struct jb {
	char *p;
	size_t len, cap;
	bool oom;
};

static void jb_grow(struct jb *j, size_t need)
{
	size_t cap = j->cap ? j->cap : 256;
	char *n;

	if (j->oom || j->len + need < j->cap)
		return;
	while (cap <= j->len + need)
		cap *= 2;
	n = realloc(j->p, cap);
	if (!n) {
		j->oom = true;
		return;
	}
	j->p = n;
	j->cap = cap;
}

static void jb_printf(struct jb *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void jb_printf(struct jb *j, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0) {
		j->oom = true;
		return;
	}
	jb_grow(j, (size_t)n + 1);
	if (j->oom)
		return;
	va_start(ap, fmt);
	vsnprintf(j->p + j->len, j->cap - j->len, fmt, ap);
	va_end(ap);
	j->len += (size_t)n;
}

/* A JSON string literal (escaped by zl_json_str()). */
static void jb_str(struct jb *j, const char *s)
{
	size_t n = zl_json_str(NULL, 0, s);

	jb_grow(j, n + 1);
	if (j->oom)
		return;
	zl_json_str(j->p + j->len, j->cap - j->len, s);
	j->len += n;
}

static char *jb_done(struct jb *j)
{
	if (j->oom || !j->p) {
		free(j->p);
		return NULL;
	}
	return j->p;
}

char *zctl_error_reply(const char *why)
{
	struct jb j = { 0 };

	jb_printf(&j, "{\"ok\":false,\"error\":");
	jb_str(&j, why);
	jb_printf(&j, "}");
	return jb_done(&j);
}

static char *errf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static char *errf(const char *fmt, ...)
{
	char why[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	return zctl_error_reply(why);
}

/* ---- executor -------------------------------------------------------------- */

static const char *const help_lines[] = {
	"help",
	"stats",
	"fault add RULES",
	"fault rm ID",
	"fault list",
	"fault clear",
	"zone offline|read-only|clear ZONE|lba=LBA",
	"zone report [START_LBA [OPTION [MAX]]]",
	"release",
	"power-cycle",
	"trace start ABSOLUTE_PATH",
	"trace stop",
	"trace [status]",
};

static char *do_help(void)
{
	struct jb j = { 0 };

	jb_printf(&j, "{\"ok\":true,\"commands\":[");
	for (size_t i = 0; i < sizeof(help_lines) / sizeof(help_lines[0]); i++) {
		jb_printf(&j, i ? "," : "");
		jb_str(&j, help_lines[i]);
	}
	jb_printf(&j, "]}");
	return jb_done(&j);
}

static void trace_json(struct jb *j, struct ztrace *tr)
{
	struct ztrace_status st;

	if (!tr) {
		jb_printf(j, "null");
		return;
	}
	ztrace_get_status(tr, &st);
	jb_printf(j, "{\"active\":%s,\"path\":", st.active ? "true" : "false");
	jb_str(j, st.path);
	jb_printf(j, ",\"records\":%" PRIu64 ",\"dropped\":%" PRIu64 ",\"error\":", st.nr_records,
		  st.nr_dropped);
	if (st.err)
		jb_str(j, zl_strerror(st.err));
	else
		jb_printf(j, "null");
	jb_printf(j, "}");
}

static char *do_stats(struct zdisk *z, struct ztrace *tr)
{
	const struct zdev_cfg *g = zdisk_geo(z);
	uint32_t nr, imp, exp, closed, nr_rules;
	int64_t offline, ro, full, empty;
	struct zl_stats st;
	struct zdisk_timing_stats ts;
	struct jb j = { 0 };
	char sj[4096];
	struct zdev *d;

	zdisk_stats(z, &st);
	if (zl_stats_json(&st, sj, sizeof(sj)) < 0)
		snprintf(sj, sizeof(sj), "null");
	zdisk_lock(z);
	d = zdisk_zdev(z);
	nr = zdev_nr_zones(d);
	imp = zdev_nr_imp_open(d);
	exp = zdev_nr_exp_open(d);
	closed = zdev_nr_closed(d);
	offline = zdev_report_count(d, 0, ZL_RO_OFFLINE);
	ro = zdev_report_count(d, 0, ZL_RO_READ_ONLY);
	full = zdev_report_count(d, 0, ZL_RO_FULL);
	empty = zdev_report_count(d, 0, ZL_RO_EMPTY);
	nr_rules = zfault_nr_rules(zdisk_faults(z));
	zdisk_unlock(z);

	jb_printf(&j, "{\"ok\":true,\"stats\":%s,\"geometry\":{\"lba_size\":%" PRIu32
		  ",\"pblock_size\":%" PRIu32 ",\"capacity_lba\":%" PRIu64 ",\"zone_size_lba\":%"
		  PRIu64 ",\"zone_cap_lba\":%" PRIu64 ",\"gap_zones\":%s,\"nr_zones\":%" PRIu32
		  ",\"model\":\"%s\",\"max_open\":%" PRIu32 ",\"max_active\":%" PRIu32 "}",
		  sj, g->lba_size, g->pblock_size ? g->pblock_size : g->lba_size, g->capacity_lba,
		  g->zone_size_lba, g->zone_cap_lba ? g->zone_cap_lba : g->zone_size_lba,
		  g->gap_zones ? "true" : "false", nr, g->model == ZL_MODEL_HA ? "ha" : "hm",
		  g->max_open, g->max_active);
	jb_printf(&j, ",\"zones\":{\"imp_open\":%" PRIu32 ",\"exp_open\":%" PRIu32 ",\"open\":%"
		  PRIu32 ",\"closed\":%" PRIu32 ",\"empty\":%" PRId64 ",\"full\":%" PRId64
		  ",\"read_only\":%" PRId64 ",\"offline\":%" PRId64 "},\"fault_rules\":%" PRIu32
		  ",\"wce\":%s,\"trace\":", imp, exp, imp + exp, closed, empty, full, ro, offline,
		  nr_rules, zdisk_wce(z) ? "true" : "false");
	trace_json(&j, tr);
	if (zdisk_timing_stats(z, &ts))
		jb_printf(&j, ",\"timing\":{\"timed\":%" PRIu64 ",\"service_ns\":%" PRIu64
			  ",\"wait_ns\":%" PRIu64 ",\"pending\":%" PRIu64 ",\"max_ns\":%" PRIu64
			  ",\"max_model_ns\":%" PRIu64 ",\"sptf_choices\":%" PRIu64
			  ",\"sptf_candidates\":%" PRIu64 ",\"idle_starts\":%" PRIu64
			  ",\"idle_ns\":%" PRIu64 ",\"idle_long_starts\":%" PRIu64
			  ",\"idle_long_ns\":%" PRIu64 ",\"jump_starts\":%" PRIu64
			  ",\"back_starts\":%" PRIu64 ",\"job_start_ns\":%" PRIu64
			  ",\"last_done_ns\":%" PRIu64 "}", ts.timed, ts.service_ns, ts.wait_ns,
			  ts.pending, ts.max_ns, ts.max_model_ns, ts.sptf_choices, ts.sptf_candidates,
			  ts.idle_starts, ts.idle_ns, ts.idle_long_starts, ts.idle_long_ns,
			  ts.jump_starts, ts.back_starts, ts.job_start_ns, ts.last_done_ns);
	jb_printf(&j, "}");
	return jb_done(&j);
}

/* Highest rule id in a zfault_list() text (0 when empty). */
static uint32_t max_id(const char *list)
{
	uint32_t max = 0;

	for (const char *p = list; p && *p;) {
		unsigned long id = strtoul(p, NULL, 10);

		if (id > max && id <= UINT32_MAX)
			max = (uint32_t)id;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return max;
}

static char *do_fault_add(struct zdisk *z, const char *rules)
{
	struct jb j = { 0 };
	char msg[512] = "";
	char *l1, *l2;
	bool first = true;
	uint32_t old;
	int ret;

	/* ids increase and are never reused: the new rules are those above the old maximum */
	zdisk_lock(z);
	l1 = zfault_list(zdisk_faults(z));
	ret = zfault_add_text(zdisk_faults(z), rules, msg, sizeof(msg));
	l2 = ret ? NULL : zfault_list(zdisk_faults(z));
	zdisk_unlock(z);
	old = max_id(l1);
	free(l1);
	if (ret)
		return errf("%s", msg[0] ? msg : zl_strerror(ret));
	if (!l2)
		return NULL;
	jb_printf(&j, "{\"ok\":true,\"ids\":[");
	for (const char *p = l2; *p;) {
		unsigned long id = strtoul(p, NULL, 10);

		if (id > old) {
			jb_printf(&j, "%s%lu", first ? "" : ",", id);
			first = false;
		}
		p = strchr(p, '\n');
		if (!p)
			break;
		p++;
	}
	free(l2);
	jb_printf(&j, "]}");
	return jb_done(&j);
}

static char *do_fault_list(struct zdisk *z)
{
	struct jb j = { 0 };
	char *list, *p;
	bool first = true;

	zdisk_lock(z);
	list = zfault_list(zdisk_faults(z));
	zdisk_unlock(z);
	if (!list)
		return NULL;
	jb_printf(&j, "{\"ok\":true,\"rules\":[");
	/* each line: "ID: TEXT (matched N, fired M)" */
	for (p = list; *p;) {
		char *nl = strchr(p, '\n'), *colon, *paren;
		unsigned long long matched = 0, fired = 0;
		unsigned long id;

		if (nl)
			*nl = '\0';
		id = strtoul(p, &colon, 10);
		paren = strrchr(p, '(');
		if (*colon == ':' && paren && paren > colon + 1 &&
		    sscanf(paren, "(matched %llu, fired %llu)", &matched, &fired) == 2) {
			paren[-1] = '\0';
			jb_printf(&j, "%s{\"id\":%lu,\"rule\":", first ? "" : ",", id);
			jb_str(&j, colon + 2);
			jb_printf(&j, ",\"matched\":%llu,\"fired\":%llu}", matched, fired);
			first = false;
		}
		if (!nl)
			break;
		p = nl + 1;
	}
	jb_printf(&j, "]}");
	free(list);
	return jb_done(&j);
}

/* Resolve a zone argument to a zone index; NULL or an error reply. */
static char *zone_index(struct zdisk *z, const struct zctl_req *req, uint32_t *idx)
{
	const struct zdev_cfg *g = zdisk_geo(z);
	uint32_t nr;

	zdisk_lock(z);
	nr = zdev_nr_zones(zdisk_zdev(z));
	zdisk_unlock(z);
	if (!req->by_lba) {
		if (req->num >= nr)
			return errf("zone %" PRIu64 " does not exist (the disk has %" PRIu32
				    " zones: 0-%" PRIu32 ")", req->num, nr, nr - 1);
		*idx = (uint32_t)req->num;
		return NULL;
	}
	if (req->num >= g->capacity_lba)
		return errf("LBA %" PRIu64 " is beyond the capacity (%" PRIu64 " LBAs)", req->num,
			    g->capacity_lba);
	*idx = (uint32_t)(req->num / g->zone_size_lba);
	if (req->num % g->zone_size_lba)
		return errf("LBA %" PRIu64 " is not a zone start (it is in zone %" PRIu32
			    ", which starts at LBA %" PRIu64 ")", req->num, *idx,
			    (uint64_t)*idx * g->zone_size_lba);
	return NULL;
}

static char *do_zone_cond(struct zdisk *z, const struct zctl_req *req)
{
	const char *what = req->cmd == ZCTL_ZONE_OFFLINE ? "offline" :
			   req->cmd == ZCTL_ZONE_READ_ONLY ? "read-only" : "clear";
	uint32_t idx = 0;
	uint8_t cond;
	char *e;
	int ret;

	e = zone_index(z, req, &idx);
	if (e)
		return e;
	if (req->cmd == ZCTL_ZONE_CLEAR)
		ret = zdisk_zone_clear_fault(z, idx);
	else
		ret = zdisk_zone_set_cond(z, idx, req->cmd == ZCTL_ZONE_OFFLINE ?
					  ZL_COND_OFFLINE : ZL_COND_READ_ONLY);
	if (ret)
		return errf("zone %s %" PRIu32 ": %s", what, idx,
			    ret == ZL_E_NOT_WP_ZONE ? "not possible on a gap zone" : zl_strerror(ret));
	zdisk_lock(z);
	cond = zdev_zone_cond(zdisk_zdev(z), idx);
	zdisk_unlock(z);
	{
		struct jb j = { 0 };

		jb_printf(&j, "{\"ok\":true,\"zone\":%" PRIu32 ",\"start_lba\":%" PRIu64
			  ",\"cond\":\"%s\"}", idx, (uint64_t)idx * zdisk_geo(z)->zone_size_lba,
			  zl_cond_name(cond));
		return jb_done(&j);
	}
}

static char *do_zone_report(struct zdisk *z, const struct zctl_req *req)
{
	const struct zdev_cfg *g = zdisk_geo(z);
	struct zl_zone_info zi[ZCTL_REPORT_MAX];
	struct jb j = { 0 };
	uint64_t next = 0;
	int n;

	if (req->num >= g->capacity_lba)
		return errf("start LBA %" PRIu64 " is beyond the capacity (%" PRIu64 " LBAs)",
			    req->num, g->capacity_lba);
	/* zdev directly, so the host-visible REPORT ZONES counters do not move */
	zdisk_lock(z);
	n = zdev_report(zdisk_zdev(z), req->num, (enum zl_report_opt)req->opt, zi,
			req->max > ZCTL_REPORT_MAX ? ZCTL_REPORT_MAX : req->max, &next);
	zdisk_unlock(z);
	if (n < 0)
		return errf("zone report: %s", zl_strerror(n));
	jb_printf(&j, "{\"ok\":true,\"option\":\"%s\",\"nr\":%d,\"next\":%" PRIu64 ",\"zones\":[",
		  zl_report_opt_name((enum zl_report_opt)req->opt), n, next);
	for (int i = 0; i < n; i++) {
		jb_printf(&j, "%s{\"start\":%" PRIu64 ",\"len\":%" PRIu64 ",\"cap\":%" PRIu64
			  ",\"wp\":", i ? "," : "", zi[i].start_lba, zi[i].len_lba, zi[i].cap_lba);
		if (zi[i].wp_lba == ZL_WP_INVALID)
			jb_printf(&j, "null");
		else
			jb_printf(&j, "%" PRIu64, zi[i].wp_lba);
		jb_printf(&j, ",\"type\":\"%s\",\"cond\":\"%s\",\"non_seq\":%s,\"reset_rec\":%s}",
			  zl_type_name(zi[i].type), zl_cond_name(zi[i].cond),
			  zi[i].non_seq ? "true" : "false", zi[i].reset_rec ? "true" : "false");
	}
	jb_printf(&j, "]}");
	return jb_done(&j);
}

static char *do_trace(struct ztrace *tr, const struct zctl_req *req)
{
	struct jb j = { 0 };
	char msg[512] = "";
	int ret;

	if (!tr)
		return errf("no command trace on this device");
	switch (req->cmd) {
	case ZCTL_TRACE_START:
		ret = ztrace_start(tr, req->arg, ztrace_clock_ns(), msg, sizeof(msg));
		if (ret)
			return errf("trace start: %s", msg[0] ? msg : zl_strerror(ret));
		break;
	case ZCTL_TRACE_STOP: {
		struct ztrace_status st;

		ret = ztrace_stop(tr, &st);
		if (ret == -ENOENT)
			return errf("trace stop: not tracing");
		if (ret)
			return errf("trace stop: writing %s failed (%s); %" PRIu64 " records were "
				    "dropped", st.path, zl_strerror(ret), st.nr_dropped);
		break;
	}
	default:
		break;
	}
	jb_printf(&j, "{\"ok\":true,\"trace\":");
	trace_json(&j, tr);
	jb_printf(&j, "}");
	return jb_done(&j);
}

char *zctl_exec(struct zdisk *z, struct ztrace *tr, const struct zctl_req *req)
{
	struct zl_stats st;
	uint32_t n;
	int ret;

	switch (req->cmd) {
	case ZCTL_HELP:
		return do_help();
	case ZCTL_STATS:
		return do_stats(z, tr);
	case ZCTL_FAULT_ADD:
		return do_fault_add(z, req->arg);
	case ZCTL_FAULT_RM:
		if (req->num == 0 || req->num > UINT32_MAX ||
		    zdisk_fault_remove(z, (uint32_t)req->num))
			return errf("no fault rule with id %" PRIu64 " (see fault list)", req->num);
		return strdup("{\"ok\":true}");
	case ZCTL_FAULT_LIST:
		return do_fault_list(z);
	case ZCTL_FAULT_CLEAR:
		zdisk_lock(z);
		n = zfault_nr_rules(zdisk_faults(z));
		zfault_clear(zdisk_faults(z));
		zdisk_unlock(z);
		{
			struct jb j = { 0 };

			jb_printf(&j, "{\"ok\":true,\"removed\":%" PRIu32 "}", n);
			return jb_done(&j);
		}
	case ZCTL_ZONE_OFFLINE:
	case ZCTL_ZONE_READ_ONLY:
	case ZCTL_ZONE_CLEAR:
		return do_zone_cond(z, req);
	case ZCTL_ZONE_REPORT:
		return do_zone_report(z, req);
	case ZCTL_RELEASE:
		zdisk_release_stalls(z);
		return strdup("{\"ok\":true}");
	case ZCTL_POWER_CYCLE:
		ret = zdisk_power_cycle(z);
		if (ret)
			return errf("power-cycle: %s", zl_strerror(ret));
		zdisk_stats(z, &st);
		{
			struct jb j = { 0 };

			jb_printf(&j, "{\"ok\":true,\"power_cycles\":%" PRIu64 "}", st.power_cycles);
			return jb_done(&j);
		}
	case ZCTL_TRACE_START:
	case ZCTL_TRACE_STOP:
	case ZCTL_TRACE_STATUS:
		return do_trace(tr, req);
	}
	return errf("internal: command %d not implemented", (int)req->cmd);
}

char *zctl_handle_line(struct zdisk *z, struct ztrace *tr, const char *line, size_t len)
{
	struct zctl_req *req = malloc(sizeof(*req));
	char err[512];
	char *reply;

	if (!req)
		return NULL;
	if (zctl_parse(line, len, req, err, sizeof(err)))
		reply = zctl_error_reply(err);
	else
		reply = zctl_exec(z, tr, req);
	free(req);
	return reply;
}
