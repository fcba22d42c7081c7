/*
 * cmd_ctl.c — `zonelab ctl SOCKET COMMAND...`: send one request line to a
 * device's control socket (docs/CTL.md) and print the reply, indented, or
 * as the raw JSON line with --json.  Exit status: 0 ok, 1 the server said
 * ok=false, 2 usage, 3 no server / timeout / malformed reply.  A client only:
 * it does not interpret commands (the server parses them).
 */
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "zctl.h"

#define CTL_REPLY_MAX (4u << 20)

static void ctl_usage(FILE *f)
{
	fprintf(f,
		"usage: zonelab ctl [--json] [--timeout SECONDS] SOCKET COMMAND [ARGS...]\n"
		"\n"
		"Send COMMAND to the control socket of a running zonelab device (the handler's\n"
		"ctl= cfgstring key) and print the reply.  Commands (docs/CTL.md):\n"
		"  help                             list the commands the server knows\n"
		"  stats                            statistics, geometry, zone counts (JSON)\n"
		"  fault add RULES                  add fault rules (docs/FAULTS.md); prints ids\n"
		"  fault rm ID | fault list | fault clear\n"
		"  zone offline|read-only|clear ZONE   ZONE: index N, or lba=LBA (a zone start)\n"
		"  zone report [START [OPTION [MAX]]]  at most 256 zones\n"
		"  release                          release stalled commands\n"
		"  power-cycle                      drop what is not durable, as a power loss\n"
		"  trace start PATH | trace stop | trace status\n"
		"\n"
		"options:\n"
		"  --json             print the reply line as received\n"
		"  --timeout SECONDS  give up after this long (default 10; 0 = wait forever)\n"
		"exit status: 0 ok, 1 the command failed (reason on stderr), 2 usage,\n"
		"             3 no server, timeout or malformed reply\n"
		"e.g.  zonelab ctl /var/lib/zonelab/d0.img.ctl fault add medium-error:op=read,lba=0-7\n");
}

/* Indent a one-line JSON value (strings copied verbatim). */
static void pretty(const char *s)
{
	int depth = 0;
	bool in_str = false;

	for (; *s; s++) {
		char c = *s;

		if (in_str) {
			putchar(c);
			if (c == '\\' && s[1])
				putchar(*++s);
			else if (c == '"')
				in_str = false;
			continue;
		}
		switch (c) {
		case '"':
			in_str = true;
			putchar(c);
			break;
		case '{':
		case '[':
			if (s[1] == (c == '{' ? '}' : ']')) {
				printf("%c%c", c, s[1]);
				s++;
				break;
			}
			printf("%c\n%*s", c, 2 * ++depth, "");
			break;
		case '}':
		case ']':
			printf("\n%*s%c", 2 * (depth > 0 ? --depth : 0), "", c);
			break;
		case ',':
			printf(",\n%*s", 2 * depth, "");
			break;
		case ':':
			printf(": ");
			break;
		default:
			putchar(c);
		}
	}
	putchar('\n');
}

/* The "error" string of a reply, unescaped (\uXXXX below 0x80 only). */
static void print_error(const char *reply)
{
	const char *p = strstr(reply, "\"error\":\"");

	fputs("zonelab ctl: ", stderr);
	if (!p) {
		fprintf(stderr, "%s\n", reply);
		return;
	}
	for (p += 9; *p && *p != '"'; p++) {
		if (*p == '\\' && p[1] == 'u' && p[2] && p[3] && p[4] && p[5]) {
			unsigned v = (unsigned)strtoul((char[5]){ p[2], p[3], p[4], p[5], 0 }, NULL, 16);

			fputc(v < 0x80 && v >= 0x20 ? (int)v : '?', stderr);
			p += 5;
		} else if (*p == '\\' && p[1]) {
			fputc(*++p, stderr);
		} else {
			fputc(*p, stderr);
		}
	}
	fputc('\n', stderr);
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Wait for @events on @fd until @deadline (ms; < 0 = forever); false on timeout. */
static bool wait_fd(int fd, short events, long long deadline)
{
	struct pollfd p = { .fd = fd, .events = events };
	int r;

	do {
		long long left = deadline < 0 ? -1 : deadline - now_ms();

		if (deadline >= 0 && left <= 0)
			return false;
		r = poll(&p, 1, left > 1000000 ? 1000000 : (int)left);
	} while (r < 0 && errno == EINTR);
	return r > 0;
}

enum { CTL_JSON = 256, CTL_TIMEOUT };

static const struct option ctl_options[] = {
	{ "json", 0, 0, CTL_JSON }, { "timeout", 1, 0, CTL_TIMEOUT }, { "help", 0, 0, 'h' },
	{ 0, 0, 0, 0 },
};

int cmd_ctl(int argc, char **argv)
{
	static const struct cli_opts co = { .cmd = "ctl", .help = "ctl", .shortopts = "+h",
					    .longopts = ctl_options };
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	bool raw = false;
	double timeout_s = 10;
	long long deadline;
	size_t len = 0, cap = 0, off = 0;
	char *line = NULL, *reply = NULL;
	const char *sock;
	int i, o, fd, rc = 3;

	/* options before SOCKET only ('+'): the words after it are the command's */
	cli_opt_start();
	while ((o = cli_getopt(argc, argv, &co)) != -1) {
		char *end;

		switch (o) {
		case 'h':
			ctl_usage(stdout);
			return 0;
		case CTL_JSON:
			raw = true;
			break;
		case CTL_TIMEOUT:
			timeout_s = strtod(optarg, &end);
			if (*end || end == optarg || timeout_s < 0) {
				fprintf(stderr, "zonelab ctl: --timeout: '%s' is not a number of "
					"seconds >= 0\n", optarg);
				return 2;
			}
			break;
		default:
			return 2;
		}
	}
	i = optind;
	if (argc - i < 2) {
		fprintf(stderr, "zonelab ctl: expected SOCKET and COMMAND\n");
		ctl_usage(stderr);
		return 2;
	}
	sock = argv[i++];
	if (strlen(sock) >= sizeof(sa.sun_path)) {
		fprintf(stderr, "zonelab ctl: socket path '%s' is longer than %zu bytes\n", sock,
			sizeof(sa.sun_path) - 1);
		return 2;
	}
	for (int k = i; k < argc; k++)
		len += strlen(argv[k]) + 1;
	line = malloc(len + 1);
	if (!line) {
		fprintf(stderr, "zonelab ctl: out of memory\n");
		return 3;
	}
	line[0] = '\0';
	for (int k = i; k < argc; k++) {
		strcat(line, argv[k]);
		strcat(line, k + 1 < argc ? " " : "\n");
	}
	len = strlen(line);
	if (len - 1 > ZCTL_LINE_MAX) {
		fprintf(stderr, "zonelab ctl: the command is %zu bytes; the server takes %d\n",
			len - 1, ZCTL_LINE_MAX);
		free(line);
		return 2;
	}
	deadline = timeout_s > 0 ? now_ms() + (long long)(timeout_s * 1000) : -1;

	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		perror("zonelab ctl: socket");
		goto out_free;
	}
	memcpy(sa.sun_path, sock, strlen(sock) + 1);
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		fprintf(stderr, "zonelab ctl: %s: %s%s\n", sock, strerror(errno),
			errno == ECONNREFUSED ? " (no server: the device is not open?)" : "");
		goto out_close;
	}
	while (off < len) {
		ssize_t n;

		if (!wait_fd(fd, POLLOUT, deadline))
			goto out_timeout;
		n = send(fd, line + off, len - off, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n < 0) {
			fprintf(stderr, "zonelab ctl: %s: send: %s\n", sock, strerror(errno));
			goto out_close;
		}
		off += (size_t)n;
	}
	for (len = 0;;) {
		ssize_t n;
		char *nl;

		if (len + 4096 + 1 > cap) {
			char *nr;

			cap = cap ? cap * 2 : 8192;
			nr = cap > CTL_REPLY_MAX ? NULL : realloc(reply, cap);
			if (!nr) {
				fprintf(stderr, "zonelab ctl: %s: reply longer than %u bytes\n", sock,
					CTL_REPLY_MAX);
				goto out_close;
			}
			reply = nr;
		}
		if (!wait_fd(fd, POLLIN, deadline))
			goto out_timeout;
		n = recv(fd, reply + len, cap - len - 1, MSG_DONTWAIT);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0) {
			fprintf(stderr, "zonelab ctl: %s: the server closed the connection without a "
				"complete reply\n", sock);
			goto out_close;
		}
		len += (size_t)n;
		reply[len] = '\0';
		nl = strchr(reply, '\n');
		if (nl) {
			*nl = '\0';
			break;
		}
	}
	if (!strncmp(reply, "{\"ok\":true", 10)) {
		rc = 0;
	} else if (!strncmp(reply, "{\"ok\":false", 11)) {
		rc = 1;
	} else {
		fprintf(stderr, "zonelab ctl: %s: malformed reply (not a zonelab control socket?): "
			"%.200s\n", sock, reply);
		goto out_close;
	}
	if (raw)
		printf("%s\n", reply);
	else if (rc == 0)
		pretty(reply);
	if (rc == 1)
		print_error(reply);
	goto out_close;

out_timeout:
	fprintf(stderr, "zonelab ctl: no reply from %s within %g s\n", sock, timeout_s);
	rc = 3;
out_close:
	close(fd);
out_free:
	free(line);
	free(reply);
	return rc;
}
