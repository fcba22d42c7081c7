/*
 * zctl.h — the control channel of one emulated disk while it is in use: a
 * Unix stream socket where each request is one text line and each reply one
 * JSON object on one line ({"ok":true,...} or {"ok":false,"error":"..."}).
 * Commands add and remove fault rules, set zones offline or read-only,
 * report zones, release stalls, power-cycle, start and stop the command
 * trace and print statistics.  Protocol: docs/CTL.md.
 *
 * Two halves: the request parser and executor (zctl_parse(), zctl_exec(),
 * zctl_handle_line(); no sockets, used by the fuzzer and tests) and the
 * server (zctl_start()/zctl_stop(): a listening thread and one thread per
 * connection).  zctl never decides zone rules; it calls zdisk, which is
 * thread-safe.
 */
#ifndef ZCTL_H
#define ZCTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "zdisk.h"
#include "ztrace.h"

#define ZCTL_LINE_MAX 4096          /* longest request line, without its '\n' */
#define ZCTL_REPORT_MAX 256         /* most zones one `zone report` returns */

enum zctl_cmd {
	ZCTL_HELP = 1,
	ZCTL_STATS,
	ZCTL_FAULT_ADD,
	ZCTL_FAULT_RM,
	ZCTL_FAULT_LIST,
	ZCTL_FAULT_CLEAR,
	ZCTL_ZONE_OFFLINE,
	ZCTL_ZONE_READ_ONLY,
	ZCTL_ZONE_CLEAR,
	ZCTL_ZONE_REPORT,
	ZCTL_RELEASE,
	ZCTL_POWER_CYCLE,
	ZCTL_TRACE_START,
	ZCTL_TRACE_STOP,
	ZCTL_TRACE_STATUS,
};

/* A parsed request. */
struct zctl_req {
	enum zctl_cmd cmd;
	uint64_t num;                 /* fault id; zone index or LBA; report start LBA */
	bool by_lba;                  /* zone given as lba=N (a zone start LBA) */
	uint32_t opt;                 /* report: enum zl_report_opt */
	uint32_t max;                 /* report: most zones */
	char arg[ZCTL_LINE_MAX + 1];  /* fault rules ('/' read as ','), trace path */
};

/**
 * zctl_parse() - parse one request line (without its '\n'; a trailing '\r'
 * is ignored).  @line need not be NUL-terminated and may hold any bytes.
 * Return: 0, or -EINVAL with the reason in @err (unknown command, missing or
 * bad argument, NUL byte, too long).
 */
int zctl_parse(const char *line, size_t len, struct zctl_req *req, char *err, size_t err_len);

/**
 * zctl_exec() - run a parsed request against @z (borrowed) and @tr
 * (borrowed, may be NULL: trace commands then fail).
 * Return: the reply, one JSON object without '\n', malloc'ed (caller
 * frees); NULL only when out of memory.
 */
char *zctl_exec(struct zdisk *z, struct ztrace *tr, const struct zctl_req *req);

/* zctl_parse() + zctl_exec(); a parse error gives an {"ok":false,...} reply. */
char *zctl_handle_line(struct zdisk *z, struct ztrace *tr, const char *line, size_t len);

/* {"ok":false,"error":"<@why, JSON-escaped>"} (malloc'ed; NULL when out of memory). */
char *zctl_error_reply(const char *why);

struct zctl_cfg {
	struct zdisk *disk;           /* borrowed: must outlive the server */
	struct ztrace *trace;         /* borrowed, may be NULL */
	const char *sock_path;        /* at most 107 bytes (sun_path) */
	uint32_t line_timeout_ms;     /* a started line must end within this; 0 = 5000 */
	uint32_t idle_timeout_ms;     /* close a connection idle this long; 0 = 300000 */
	uint32_t max_clients;         /* concurrent connections; 0 = 8 */
};

struct zctl;

/**
 * zctl_start() - listen on @sock_path (created with mode 0600) for the disk
 * @z, with the trace @tr (may be NULL).  A stale socket (nobody listening)
 * is replaced; a live one, or a path that is not a socket, is refused.
 * Only connections from the server's own user or root are served.
 * *@out set on success; stop with zctl_stop().
 * Return: 0, -EADDRINUSE (live socket), -EEXIST (not a socket),
 * -ENAMETOOLONG, -errno.
 */
int zctl_start(struct zdisk *z, const char *sock_path, struct ztrace *tr, struct zctl **out);
/* The same with timeouts and limits; @msg says what failed and why. */
int zctl_start_cfg(const struct zctl_cfg *cfg, struct zctl **out, char *msg, size_t msg_len);

/**
 * zctl_stop() - stop listening, close every connection, join every thread
 * and unlink the socket.  A request blocked inside zdisk behind a stalled
 * command (e.g. `zone offline` of a zone whose write is stalled) is freed by
 * releasing the stalls, so stop never hangs.  NULL is a no-op.
 */
void zctl_stop(struct zctl *c);

const char *zctl_sock_path(const struct zctl *c);

#endif /* ZCTL_H */
