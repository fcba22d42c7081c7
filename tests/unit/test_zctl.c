/*
 * test_zctl.c — the control socket: a server on an in-memory zdisk in a
 * scratch directory, a client over the real Unix socket, every command and
 * its effect checked on the zdisk directly, and the error paths (unknown
 * command, bad zone, bad fault syntax, overlong line, a client that
 * disconnects or stalls mid-line, too many clients, a live or foreign
 * socket path, stop while a request is blocked behind a stalled write).
 * The request parser is also driven through a table, without sockets.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include <cmocka.h>

#include "zctl.h"
#include "zl_test.h"

#define ZS 2048u                  /* zone size, LBAs */
#define NZ 16u                    /* zones */
#define LBS 512u

struct fx {
	char *dir;
	char sock[108];
	struct zdisk *z;
	struct ztrace *tr;
	struct zctl *ctl;
};

static int open_fx(struct fx *f, uint32_t line_timeout_ms, uint32_t max_clients)
{
	struct zctl_cfg cc = { 0 };
	struct ztrace_cfg tc = { .lba_size = LBS, .capacity_lba = (uint64_t)ZS * NZ };
	struct zdisk_cfg c;
	char msg[256];

	zdisk_cfg_init(&c);
	c.geo.capacity_lba = (uint64_t)ZS * NZ;
	c.geo.zone_size_lba = ZS;
	c.geo.nr_conv_start = 2;
	c.geo.max_open = 4;
	c.realtime = true;
	if (zdisk_open(&c, &f->z, msg, sizeof(msg)) || ztrace_create(&tc, &f->tr))
		return -1;
	cc.disk = f->z;
	cc.trace = f->tr;
	cc.sock_path = f->sock;
	cc.line_timeout_ms = line_timeout_ms;
	cc.max_clients = max_clients;
	return zctl_start_cfg(&cc, &f->ctl, msg, sizeof(msg));
}

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	f->dir = zl_test_mkdtemp("zctl");
	assert_non_null(f->dir);
	snprintf(f->sock, sizeof(f->sock), "%s/d.ctl", f->dir);
	/* a line is given 30 s: a stalled host must not cut one a test sends in two */
	assert_int_equal(open_fx(f, 30000, 4), 0);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	zctl_stop(f->ctl);
	ztrace_destroy(f->tr);
	zdisk_close(f->z);
	zl_test_rmdir(f->dir);
	free(f->dir);
	free(f);
	return 0;
}

/* ---- client helpers -------------------------------------------------------- */

static int cli_connect(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	assert_true(fd >= 0);
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	assert_int_equal(connect(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	return fd;
}

static void cli_send(int fd, const char *s, size_t len)
{
	while (len) {
		ssize_t n = send(fd, s, len, MSG_NOSIGNAL);

		assert_true(n > 0);
		s += n;
		len -= (size_t)n;
	}
}

/* One reply line (without '\n'), or NULL when the server closed first.
 * Byte by byte, so a second reply stays in the socket for the next call. */
static char *cli_recv(int fd)
{
	static char buf[1 << 17];
	size_t len = 0;

	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t n;

		assert_int_equal(poll(&p, 1, 60000), 1);       /* a hang fails the test */
		n = recv(fd, buf + len, 1, 0);
		if (n <= 0)
			return NULL;
		if (buf[len] == '\n') {
			buf[len] = '\0';
			return buf;
		}
		len++;
		assert_true(len < sizeof(buf) - 1);
	}
}

/* Send one command on a fresh connection, return its reply (static buffer). */
static char *req(struct fx *f, const char *line)
{
	int fd = cli_connect(f->sock);
	char *r;

	cli_send(fd, line, strlen(line));
	cli_send(fd, "\n", 1);
	r = cli_recv(fd);
	close(fd);
	assert_non_null(r);
	return r;
}

#define assert_ok(r) do { const char *r_ = (r); \
	if (strncmp(r_, "{\"ok\":true", 10)) fail_msg("not ok: %s", r_); } while (0)
#define assert_err(r, sub) do { const char *r_ = (r); \
	if (strncmp(r_, "{\"ok\":false,\"error\":\"", 21) || !strstr(r_, sub)) \
		fail_msg("expected an error with \"%s\": %s", sub, r_); } while (0)
#define assert_has(r, sub) do { const char *r_ = (r); \
	if (!strstr(r_, sub)) fail_msg("expected \"%s\" in %s", sub, r_); } while (0)

static uint8_t cond_of(struct zdisk *z, uint32_t idx)
{
	uint8_t c;

	zdisk_lock(z);
	c = zdev_zone_cond(zdisk_zdev(z), idx);
	zdisk_unlock(z);
	return c;
}

/* ---- commands -------------------------------------------------------------- */

static void test_zctl_help_lists_every_command(void **state)
{
	char *r = req(*state, "help");

	assert_ok(r);
	assert_has(r, "\"fault add RULES\"");
	assert_has(r, "\"power-cycle\"");
	assert_has(r, "\"trace stop\"");
}

static void test_zctl_stats_has_counters_geometry_and_zone_counts(void **state)
{
	struct fx *f = *state;
	uint8_t buf[8 * LBS] = { 0 };
	char *r;

	assert_int_equal(zdisk_write(f->z, 3 * ZS, 8, buf, false, NULL), 0);
	assert_int_equal(zdisk_zone_op(f->z, ZL_ZOP_OPEN, 4 * ZS, false, NULL), 0);
	r = req(f, "stats");
	assert_ok(r);
	assert_has(r, "\"writes\":1,\"write_lbas\":8");
	assert_has(r, "\"capacity_lba\":32768,\"zone_size_lba\":2048");
	assert_has(r, "\"nr_zones\":16");
	assert_has(r, "\"imp_open\":1,\"exp_open\":1,\"open\":2,\"closed\":0");
	assert_has(r, "\"fault_rules\":0");
	assert_has(r, "\"trace\":{\"active\":false");
}

/* A front end's timing counters (zdisk_set_timing_stats), as the handler's timed mode fills them. */
static void fake_timing(void *arg, struct zdisk_timing_stats *out)
{
	(void)arg;
	out->timed = 7;
	out->service_ns = 70000000;
	out->wait_ns = 5000000;
	out->pending = 2;
	out->max_ns = 31000000;
	out->max_model_ns = 29500000;
	out->sptf_choices = 6;
	out->sptf_candidates = 93;
	out->idle_starts = 4;
	out->idle_ns = 2500000;
	out->idle_long_starts = 1;
	out->idle_long_ns = 2000000;
	out->jump_starts = 3;
	out->back_starts = 1;
	out->job_start_ns = 4100000000;
	out->last_done_ns = 4712000000;
}

static void test_zctl_stats_timing_block_only_with_a_model_and_carries_the_max(void **state)
{
	struct fx *f = *state;
	char *r;

	r = req(f, "stats");
	assert_ok(r);
	assert_null(strstr(r, "\"timing\""));                 /* no model: no block */
	zdisk_set_timing_stats(f->z, fake_timing, NULL);
	r = req(f, "stats");
	assert_ok(r);
	assert_has(r, "\"timing\":{\"timed\":7,\"service_ns\":70000000,\"wait_ns\":5000000,"
		   "\"pending\":2,\"max_ns\":31000000,\"max_model_ns\":29500000,"
		   "\"sptf_choices\":6,\"sptf_candidates\":93,\"idle_starts\":4,"
		   "\"idle_ns\":2500000,\"idle_long_starts\":1,\"idle_long_ns\":2000000,"
		   "\"jump_starts\":3,\"back_starts\":1,\"job_start_ns\":4100000000,"
		   "\"last_done_ns\":4712000000}");
	zdisk_set_timing_stats(f->z, NULL, NULL);
	r = req(f, "stats");
	assert_null(strstr(r, "\"timing\""));
}

static void test_zctl_fault_add_list_rm_clear_act_on_the_disk(void **state)
{
	struct fx *f = *state;
	uint8_t buf[8 * LBS];
	char *r;

	r = req(f, "fault add medium-error:op=read,lba=0-7; latency:op=write/ns=1");
	assert_string_equal(r, "{\"ok\":true,\"ids\":[1,2]}");
	assert_int_equal(zdisk_read(f->z, 0, 8, buf, NULL), ZL_E_MEDIUM_READ);
	r = req(f, "fault list");
	assert_ok(r);
	assert_has(r, "{\"id\":1,\"rule\":\"medium-error:op=read,lba=0-7,once\",\"matched\":1,"
		   "\"fired\":1}");
	assert_has(r, "{\"id\":2,\"rule\":\"latency:op=write,once,ns=1\"");
	assert_string_equal(req(f, "fault add stall:op=flush"), "{\"ok\":true,\"ids\":[3]}");
	assert_ok(req(f, "fault rm 1"));
	assert_err(req(f, "fault rm 1"), "no fault rule with id 1");
	assert_int_equal(zdisk_read(f->z, 0, 8, buf, NULL), 0);
	assert_string_equal(req(f, "fault clear"), "{\"ok\":true,\"removed\":2}");
	assert_string_equal(req(f, "fault list"), "{\"ok\":true,\"rules\":[]}");
	/* ids are never reused */
	assert_string_equal(req(f, "fault add offline:zone=5"), "{\"ok\":true,\"ids\":[4]}");
}

static void test_zctl_fault_add_bad_syntax_names_column_and_adds_nothing(void **state)
{
	struct fx *f = *state;
	char *r;

	r = req(f, "fault add stall:op=flush;medium-error:op=rd");
	assert_err(r, "column 17: unknown operation \\\"rd\\\"");
	assert_string_equal(req(f, "fault list"), "{\"ok\":true,\"rules\":[]}");
}

static void test_zctl_zone_offline_read_only_clear_by_index_and_lba(void **state)
{
	struct fx *f = *state;
	uint8_t buf[8 * LBS] = { 0 };
	char *r;

	r = req(f, "zone offline 3");
	assert_string_equal(r, "{\"ok\":true,\"zone\":3,\"start_lba\":6144,\"cond\":\"offline\"}");
	assert_int_equal(cond_of(f->z, 3), ZL_COND_OFFLINE);
	assert_int_equal(zdisk_write(f->z, 3 * ZS, 8, buf, false, NULL), ZL_E_OFFLINE);
	assert_int_equal(zdisk_read(f->z, 3 * ZS, 8, buf, NULL), ZL_E_OFFLINE);
	assert_ok(req(f, "zone clear 3"));
	assert_int_equal(cond_of(f->z, 3), ZL_COND_EMPTY);
	assert_int_equal(zdisk_write(f->z, 3 * ZS, 8, buf, false, NULL), 0);

	r = req(f, "zone read-only lba=8192");
	assert_has(r, "\"zone\":4,\"start_lba\":8192,\"cond\":\"read-only\"");
	assert_int_equal(zdisk_write(f->z, 4 * ZS, 8, buf, false, NULL), ZL_E_READ_ONLY);
	assert_int_equal(zdisk_read(f->z, 4 * ZS, 8, buf, NULL), 0);
	assert_ok(req(f, "zone clear lba=0x2000"));
	assert_int_equal(cond_of(f->z, 4), ZL_COND_EMPTY);
}

/* Zones the parser accepts but the disk has not (syntax errors: the parser table). */
static void test_zctl_bad_zone_is_refused_with_reason(void **state)
{
	struct fx *f = *state;

	assert_err(req(f, "zone offline 16"), "zone 16 does not exist (the disk has 16 zones: 0-15)");
	assert_err(req(f, "zone offline lba=8193"),
		   "LBA 8193 is not a zone start (it is in zone 4, which starts at LBA 8192)");
	assert_err(req(f, "zone read-only lba=32768"),
		   "LBA 32768 is beyond the capacity (32768 LBAs)");
	assert_err(req(f, "zone offline three"), "zone 'three': expected a zone index");
	for (uint32_t i = 0; i < NZ; i++)
		assert_int_not_equal(cond_of(f->z, i), ZL_COND_OFFLINE);
}

static void test_zctl_zone_report_lists_zones_in_json(void **state)
{
	struct fx *f = *state;
	uint8_t buf[8 * LBS] = { 0 };
	struct zl_stats st;
	char *r;

	assert_int_equal(zdisk_write(f->z, 2 * ZS, 8, buf, false, NULL), 0);
	r = req(f, "zone report 0 all 3");
	assert_ok(r);
	assert_has(r, "\"option\":\"all\",\"nr\":3,\"next\":6144");
	assert_has(r, "{\"start\":0,\"len\":2048,\"cap\":2048,\"wp\":null,\"type\":\"conv\","
		   "\"cond\":\"not-wp\"");
	assert_has(r, "{\"start\":4096,\"len\":2048,\"cap\":2048,\"wp\":4104,\"type\":\"seq-req\","
		   "\"cond\":\"imp-open\"");
	r = req(f, "zone report 0 imp-open");
	assert_has(r, "\"nr\":1,");
	r = req(f, "zone report");
	assert_has(r, "\"nr\":16,");
	assert_err(req(f, "zone report 32768"), "start LBA 32768 is beyond the capacity");
	/* the control report is not a host command: the counters do not move */
	zdisk_stats(f->z, &st);
	assert_int_equal(st.reports, 0);
}

static void test_zctl_release_lets_a_stalled_write_complete(void **state)
{
	struct fx *f = *state;
	struct zl_test_io w = { .z = f->z, .write = true, .lba = 5 * ZS, .nr_lba = 8, .ret = -1 };
	pthread_t t;

	assert_ok(req(f, "fault add stall:op=write"));
	assert_int_equal(pthread_create(&t, NULL, zl_test_io_thread, &w), 0);
	zl_test_wait_faults_fired(f->z, 1);
	assert_int_equal(w.ret, -1);
	assert_string_equal(req(f, "release"), "{\"ok\":true}");
	pthread_join(t, NULL);
	assert_int_equal(w.ret, 0);
}

static void test_zctl_power_cycle_drops_unflushed_writes(void **state)
{
	struct fx *f = *state;
	uint8_t buf[8 * LBS] = { 0 };
	struct zl_zone_info zi;

	assert_int_equal(zdisk_write(f->z, 6 * ZS, 8, buf, false, NULL), 0);   /* WCE on */
	assert_string_equal(req(f, "power-cycle"), "{\"ok\":true,\"power_cycles\":1}");
	zdisk_lock(f->z);
	zdev_zone_get(zdisk_zdev(f->z), 6, &zi);
	zdisk_unlock(f->z);
	assert_int_equal(zi.wp_lba, 6 * ZS);
	assert_int_equal(zi.cond, ZL_COND_EMPTY);
}

static void test_zctl_trace_start_stop_writes_a_readable_trace(void **state)
{
	struct fx *f = *state;
	const uint8_t cdb[16] = { 0x8a, 0, 0, 0, 0, 0, 0, 0, 0x10, 0, 0, 0, 0, 8, 0, 0 };
	struct ztrace_reader *rd;
	struct ztrace_rec rec;
	char line[512], path[400], msg[256];
	char *r;

	snprintf(path, sizeof(path), "%s/t.trc", f->dir);
	snprintf(line, sizeof(line), "trace start %s", path);
	r = req(f, line);
	assert_has(r, "\"active\":true");
	assert_err(req(f, line), "already tracing");
	assert_true(ztrace_is_active(f->tr));
	assert_int_equal(ztrace_record_cmd(f->tr, cdb, 16, 0, NULL, 100, 5), 0);
	assert_has(req(f, "trace"), "\"records\":1");
	r = req(f, "trace stop");
	assert_has(r, "\"active\":false");
	assert_has(r, "\"records\":1,\"dropped\":0,\"error\":null");
	assert_err(req(f, "trace stop"), "not tracing");
	assert_int_equal(ztrace_read_open(path, &rd, msg, sizeof(msg)), 0);
	assert_int_equal(ztrace_read_next(rd, &rec, msg, sizeof(msg)), 1);
	assert_int_equal(rec.opcode, 0x8a);
	assert_int_equal(rec.lba, 0x10 << 8);
	assert_int_equal(rec.nr_lba, 8);
	assert_int_equal(ztrace_read_next(rd, &rec, msg, sizeof(msg)), 0);
	ztrace_read_close(rd);

	snprintf(line, sizeof(line), "trace start %s/none/t.trc", f->dir);
	assert_err(req(f, line), "No such file or directory");
}

/* A write error (here the file size limit, EFBIG) is reported with the path
 * and the number of records lost. */
static void test_zctl_trace_stop_after_a_write_error_says_what_was_lost(void **state)
{
	struct fx *f = *state;
	const uint8_t tur[6] = { 0 };
	struct rlimit old, lim;
	void (*old_sig)(int);
	char line[512], path[400];
	int nr_failed = 0;

	snprintf(path, sizeof(path), "%s/t.trc", f->dir);
	snprintf(line, sizeof(line), "trace start %s", path);
	assert_has(req(f, line), "\"active\":true");
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	lim = old;
	lim.rlim_cur = ZTRACE_HDR_SIZE;       /* not one record more */
	old_sig = signal(SIGXFSZ, SIG_IGN);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
	/* enough records to fill the writer's buffer (1024) and one after */
	for (int i = 0; i < 1025; i++)
		nr_failed += ztrace_record_cmd(f->tr, tur, 6, 0, NULL, (uint64_t)i, 1) != 0;
	setrlimit(RLIMIT_FSIZE, &old);
	signal(SIGXFSZ, old_sig);
	assert_int_equal(nr_failed, 2);       /* the one that flushed, the one after */
	assert_has(req(f, "trace"), "\"records\":0,\"dropped\":1025,\"error\":\"File too large\"");
	snprintf(line, sizeof(line), "trace stop: writing %s failed (File too large); 1025 records "
		 "were dropped", path);
	assert_err(req(f, "trace stop"), line);
}

static void test_zctl_trace_refuses_to_overwrite_a_foreign_file(void **state)
{
	struct fx *f = *state;
	char line[512], path[400];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/precious.txt", f->dir);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs("not a trace\n", fp);
	fclose(fp);
	snprintf(line, sizeof(line), "trace start %s", path);
	assert_err(req(f, line), "is not a zonelab trace");
	fp = fopen(path, "r");
	assert_non_null(fp);
	assert_non_null(fgets(line, sizeof(line), fp));
	fclose(fp);
	assert_string_equal(line, "not a trace\n");
}

/* ---- protocol errors ------------------------------------------------------- */

/* Over the socket: a parse error is an error reply; a CRLF line is served. */
static void test_zctl_unknown_command_and_empty_line_get_errors(void **state)
{
	struct fx *f = *state;

	assert_err(req(f, "frobnicate now"), "unknown command 'frobnicate' (try 'help')");
	assert_err(req(f, ""), "empty request");
	assert_ok(req(f, "  stats\r"));
}

static void test_zctl_several_lines_and_split_lines_on_one_connection(void **state)
{
	struct fx *f = *state;
	const char *two = "help\nfault add stall:op=flush\n";
	int fd = cli_connect(f->sock);
	char *r;

	cli_send(fd, two, strlen(two));
	assert_ok(cli_recv(fd));
	r = cli_recv(fd);
	assert_string_equal(r, "{\"ok\":true,\"ids\":[1]}");
	cli_send(fd, "fault l", 7);
	usleep(20000);
	cli_send(fd, "ist\n", 4);
	assert_has(cli_recv(fd), "\"id\":1");
	close(fd);
}

static void test_zctl_overlong_line_is_refused_and_connection_closed(void **state)
{
	struct fx *f = *state;
	size_t len = ZCTL_LINE_MAX + 100;
	char *big = malloc(len);
	int fd = cli_connect(f->sock);

	memset(big, 'a', len);
	cli_send(fd, big, len);
	assert_err(cli_recv(fd), "longer than 4096 bytes");
	assert_null(cli_recv(fd));
	close(fd);
	free(big);
	assert_ok(req(f, "stats"));        /* the server lives on */
}

static void test_zctl_client_disconnecting_mid_line_executes_nothing(void **state)
{
	struct fx *f = *state;
	int fd = cli_connect(f->sock);

	cli_send(fd, "fault add stall:op=write", 24);
	close(fd);
	usleep(50000);
	assert_string_equal(req(f, "fault list"), "{\"ok\":true,\"rules\":[]}");
}

static void test_zctl_line_not_finished_in_time_is_dropped(void **state)
{
	struct fx *f = *state;
	struct zctl_cfg cc = { .disk = f->z, .trace = f->tr, .sock_path = f->sock,
			       .line_timeout_ms = 100 };
	char msg[256];
	int fd;

	zctl_stop(f->ctl);
	assert_int_equal(zctl_start_cfg(&cc, &f->ctl, msg, sizeof(msg)), 0);
	fd = cli_connect(f->sock);
	cli_send(fd, "fault add stall", 15);
	assert_err(cli_recv(fd), "not ended by a newline in time");
	assert_null(cli_recv(fd));
	close(fd);
	assert_string_equal(req(f, "fault list"), "{\"ok\":true,\"rules\":[]}");
}

static void test_zctl_too_many_clients_get_an_error(void **state)
{
	struct fx *f = *state;
	int fds[4], extra;

	for (int i = 0; i < 4; i++) {
		fds[i] = cli_connect(f->sock);
		cli_send(fds[i], "help\n", 5);
		assert_ok(cli_recv(fds[i]));
	}
	extra = cli_connect(f->sock);
	assert_err(cli_recv(extra), "too many control connections (at most 4)");
	close(extra);
	close(fds[0]);
	/* a closed connection frees its slot for the next one at once, whether
	 * or not its thread has run since the close */
	assert_ok(req(f, "help"));
	for (int i = 1; i < 4; i++)
		close(fds[i]);
}

/*
 * One request per connection, one connection after the other (what a
 * script calling `zonelab ctl` in a loop does), with all slots but one held
 * by live clients: never refused.  The server once counted a connection
 * until its thread had seen the end of file, which a loaded host delays:
 * `make check` under load got "too many control connections".
 */
static void test_zctl_sequential_clients_never_find_the_slots_taken(void **state)
{
	struct fx *f = *state;
	int fds[3];

	for (int i = 0; i < 3; i++) {
		fds[i] = cli_connect(f->sock);
		cli_send(fds[i], "help\n", 5);
		assert_ok(cli_recv(fds[i]));
	}
	for (int i = 0; i < 200; i++)
		assert_ok(req(f, i % 2 ? "fault list" : "help"));
	for (int i = 0; i < 3; i++)
		close(fds[i]);
}

/* ---- socket path ----------------------------------------------------------- */

static void test_zctl_socket_is_0600_and_live_or_foreign_paths_are_refused(void **state)
{
	struct fx *f = *state;
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct zctl_cfg cc = { .disk = f->z, .sock_path = f->sock };
	struct zctl *c2 = NULL;
	char msg[256], path[100], longpath[200];
	struct stat st;
	int fd;

	assert_int_equal(lstat(f->sock, &st), 0);
	assert_true(S_ISSOCK(st.st_mode));
	assert_int_equal(st.st_mode & 0777, 0600);
	assert_int_equal(zctl_start_cfg(&cc, &c2, msg, sizeof(msg)), -EADDRINUSE);
	assert_non_null(strstr(msg, "in use by a running server"));

	/* a regular file is never removed */
	snprintf(path, sizeof(path), "%s/file", f->dir);
	close(creat(path, 0644));
	cc.sock_path = path;
	assert_int_equal(zctl_start_cfg(&cc, &c2, msg, sizeof(msg)), -EEXIST);
	assert_int_equal(access(path, F_OK), 0);

	/* a stale socket (bound, nobody listening) is replaced */
	snprintf(path, sizeof(path), "%s/stale.ctl", f->dir);
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	close(fd);
	assert_int_equal(zctl_start(f->z, path, NULL, &c2), 0);
	assert_string_equal(zctl_sock_path(c2), path);
	assert_err(({ int c = cli_connect(path); cli_send(c, "trace\n", 6);
		      char *r = cli_recv(c); close(c); r; }), "no command trace on this device");
	zctl_stop(c2);
	assert_int_equal(access(path, F_OK), -1);        /* unlinked at stop */

	memset(longpath, 'x', sizeof(longpath) - 1);
	longpath[0] = '/';
	longpath[sizeof(longpath) - 1] = '\0';
	assert_int_equal(zctl_start(f->z, longpath, NULL, &c2), -ENAMETOOLONG);
}

static void test_zctl_stop_frees_a_request_blocked_behind_a_stall(void **state)
{
	struct fx *f = *state;
	struct zl_test_io w = { .z = f->z, .write = true, .lba = 7 * ZS, .nr_lba = 8, .ret = -1 };
	pthread_t t;
	int fd;

	assert_ok(req(f, "fault add stall:op=write"));
	assert_int_equal(pthread_create(&t, NULL, zl_test_io_thread, &w), 0);
	zl_test_wait_faults_fired(f->z, 1);
	/* zone 7 has a write in flight: setting it offline waits for it */
	fd = cli_connect(f->sock);
	cli_send(fd, "zone offline 7\n", 15);
	usleep(50000);
	zctl_stop(f->ctl);                 /* must not hang */
	f->ctl = NULL;
	pthread_join(t, NULL);
	assert_int_equal(w.ret, 0);
	close(fd);
	assert_int_equal(access(f->sock, F_OK), -1);
}

/* ---- parser table ---------------------------------------------------------- */

static const struct {
	const char *line;
	int cmd;                  /* 0: must fail */
	const char *detail;       /* arg for success, error substring for failure */
} parse_cases[] = {
	{ "help", ZCTL_HELP, "" },
	{ "stats", ZCTL_STATS, "" },
	{ "fault add a:b/c ; d", ZCTL_FAULT_ADD, "a:b,c ; d" },
	{ "fault rm 0x10", ZCTL_FAULT_RM, "" },
	{ "fault remove 3", ZCTL_FAULT_RM, "" },
	{ "fault list", ZCTL_FAULT_LIST, "" },
	{ "fault clear", ZCTL_FAULT_CLEAR, "" },
	{ "zone offline 1", ZCTL_ZONE_OFFLINE, "" },
	{ "zone read-only lba=0", ZCTL_ZONE_READ_ONLY, "" },
	{ "zone clear 2", ZCTL_ZONE_CLEAR, "" },
	{ "zone report 0 full 5", ZCTL_ZONE_REPORT, "" },
	{ "release", ZCTL_RELEASE, "" },
	{ "power-cycle", ZCTL_POWER_CYCLE, "" },
	{ "trace start /tmp/a b.trc ", ZCTL_TRACE_START, "/tmp/a b.trc" },
	{ "trace stop", ZCTL_TRACE_STOP, "" },
	{ "trace status", ZCTL_TRACE_STATUS, "" },
	{ "trace", ZCTL_TRACE_STATUS, "" },
	{ "HELP", 0, "unknown command 'HELP'" },
	{ "   \t", 0, "empty request (try 'help')" },
	{ "stats please", 0, "unexpected argument 'please' after 'stats'" },
	{ "help me", 0, "unexpected argument 'me' after 'help'" },
	{ "release all", 0, "unexpected argument 'all' after 'release'" },
	{ "fault", 0, "missing fault subcommand" },
	{ "fault rm", 0, "missing fault rule id" },
	{ "fault rm x1", 0, "fault rule id 'x1' is not a number" },
	{ "fault add", 0, "fault add: missing rules" },
	{ "fault add  \t ", 0, "fault add: missing rules" },
	{ "fault frobnicate", 0, "unknown fault subcommand 'frobnicate'" },
	{ "fault list all", 0, "unexpected argument 'all' after 'fault list'" },
	{ "fault rm 18446744073709551616", 0, "larger than 64 bits" },
	{ "fault rm 0x", 0, "not a number" },
	{ "zone", 0, "missing zone subcommand" },
	{ "zone offline lba=", 0, "expected a zone index" },
	{ "zone offline", 0, "missing zone (a zone index N, or lba=N" },
	{ "zone offline 99999999999999999999", 0, "zone '99999999999999999999': expected" },
	{ "zone offline 3 4", 0, "unexpected argument '4' after 'the zone'" },
	{ "zone melt 3", 0, "unknown zone subcommand 'melt'" },
	{ "zone report 0 bogus", 0, "unknown reporting option 'bogus'" },
	{ "zone report 0 all 0", 0, "max 0 is out of 1..256" },
	{ "zone report 0 all 257", 0, "max 257 is out of 1..256" },
	{ "zone report 0 all x", 0, "max 'x' is not a number" },
	{ "zone report 0 all 5 6", 0, "unexpected argument '6'" },
	{ "trace start t.trc", 0, "path 't.trc' must be absolute" },
	{ "trace start", 0, "missing the trace file path" },
	{ "trace rewind", 0, "unknown trace subcommand 'rewind'" },
	{ "zone report x", 0, "start LBA 'x' is not a number" },
	{ "power-cycle now", 0, "unexpected argument 'now'" },
	{ "trace stop now", 0, "unexpected argument" },
};

static void test_zctl_parse_table(void **state)
{
	struct zctl_req *rq = malloc(sizeof(*rq));
	char err[256];

	for (size_t i = 0; i < sizeof(parse_cases) / sizeof(parse_cases[0]); i++) {
		const char *l = parse_cases[i].line;
		int ret;

		strcpy(err, "(no reason given)");
		ret = zctl_parse(l, strlen(l), rq, err, sizeof(err));

		if (parse_cases[i].cmd) {
			if (ret)
				fail_msg("'%s': %s", l, err);
			assert_int_equal(rq->cmd, parse_cases[i].cmd);
			if (parse_cases[i].detail[0])
				assert_string_equal(rq->arg, parse_cases[i].detail);
		} else {
			assert_int_equal(ret, -EINVAL);
			if (!strstr(err, parse_cases[i].detail))
				fail_msg("'%s': \"%s\" lacks \"%s\"", l, err, parse_cases[i].detail);
		}
	}
	assert_int_equal(zctl_parse("fault rm 0x10", 13, rq, err, sizeof(err)), 0);
	assert_int_equal(rq->num, 16);
	assert_int_equal(zctl_parse("zone read-only lba=4096", 23, rq, err, sizeof(err)), 0);
	assert_true(rq->by_lba);
	assert_int_equal(rq->num, 4096);
	assert_int_equal(zctl_parse("zone report 0x800 full 5", 24, rq, err, sizeof(err)), 0);
	assert_int_equal(rq->num, 0x800);
	assert_int_equal(rq->opt, ZL_RO_FULL);
	assert_int_equal(rq->max, 5);
	assert_int_equal(zctl_parse("zone report", 11, rq, err, sizeof(err)), 0);
	assert_int_equal(rq->num, 0);
	assert_int_equal(rq->opt, ZL_RO_ALL);
	assert_int_equal(rq->max, 32);
	assert_int_equal(zctl_parse("zone offline 7", 14, rq, err, sizeof(err)), 0);
	assert_false(rq->by_lba);
	assert_int_equal(rq->num, 7);
	assert_int_equal(zctl_parse("stats\0x", 7, rq, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "NUL"));
	free(rq);
}

static void test_zctl_error_reply_escapes_json(void **state)
{
	char *r = zctl_error_reply("a \"q\" \\ \n\x01\xff");

	assert_string_equal(r, "{\"ok\":false,\"error\":\"a \\\"q\\\" \\\\ \\u000a\\u0001\\u00ff\"}");
	free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_zctl_help_lists_every_command, setup, teardown),
		cmocka_unit_test_setup_teardown(test_zctl_stats_has_counters_geometry_and_zone_counts,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_zctl_stats_timing_block_only_with_a_model_and_carries_the_max,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_zctl_fault_add_list_rm_clear_act_on_the_disk,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_zctl_fault_add_bad_syntax_names_column_and_adds_nothing,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_zctl_zone_offline_read_only_clear_by_index_and_lba,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_zctl_bad_zone_is_refused_with_reason, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_zctl_zone_report_lists_zones_in_json, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_zctl_release_lets_a_stalled_write_complete, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_zctl_power_cycle_drops_unflushed_writes, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_zctl_trace_start_stop_writes_a_readable_trace,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_zctl_trace_stop_after_a_write_error_says_what_was_lost,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_zctl_trace_refuses_to_overwrite_a_foreign_file,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_zctl_unknown_command_and_empty_line_get_errors,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_zctl_several_lines_and_split_lines_on_one_connection,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_zctl_overlong_line_is_refused_and_connection_closed,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_zctl_client_disconnecting_mid_line_executes_nothing,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_zctl_line_not_finished_in_time_is_dropped, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_zctl_too_many_clients_get_an_error, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_zctl_sequential_clients_never_find_the_slots_taken, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_zctl_socket_is_0600_and_live_or_foreign_paths_are_refused,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_zctl_stop_frees_a_request_blocked_behind_a_stall,
						setup, teardown),
		cmocka_unit_test(test_zctl_parse_table),
		cmocka_unit_test(test_zctl_error_reply_escapes_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
