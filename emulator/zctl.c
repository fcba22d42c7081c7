/*
 * zctl.c — the control socket server (zctl.h, protocol in docs/CTL.md): a
 * listening thread accepts connections on a Unix stream socket and hands
 * each to its own thread, which reads request lines and writes one JSON
 * reply per line.  One thread per connection because a request may block
 * inside zdisk (a zone whose write is stalled) until another connection
 * sends `release`.  This file is transport only: parsing and execution are
 * zctl_cmd.c.
 *
 * Bounds: a line is at most ZCTL_LINE_MAX bytes (longer: error reply, then
 * the connection is closed); a started line must end within
 * line_timeout_ms; an idle connection is closed after idle_timeout_ms; at
 * most max_clients connections at once (one whose peer has hung up does not
 * count); replies are sent with a timeout, so
 * a client that does not read cannot hold a thread.  A line cut off by a
 * disconnect is never executed.
 */
#include "zctl.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

struct zctl_client {
	struct zctl *ctl;
	int fd;                       /* closed by whoever joins the thread */
	pthread_t thr;
	bool used;                    /* slot holds a thread not yet joined */
	atomic_bool done;             /* the thread has finished */
	atomic_bool in_cmd;           /* executing a request (may block in zdisk) */
};

struct zctl {
	struct zctl_cfg cfg;
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	dev_t sock_dev;               /* the socket file we bound, to unlink only ours */
	ino_t sock_ino;
	int lfd;
	int wake[2];                  /* written once at stop; stays readable */
	pthread_t thr;
	struct zctl_client *clients;  /* cfg.max_clients slots, owned by the accept thread */
};


static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* Send all of @buf within @timeout_ms; false if the peer is gone or slow. */
static bool send_all(int fd, const char *buf, size_t len, uint32_t timeout_ms)
{
	uint64_t deadline = now_ms() + timeout_ms;

	while (len) {
		ssize_t n = send(fd, buf, len, MSG_NOSIGNAL | MSG_DONTWAIT);

		if (n > 0) {
			buf += n;
			len -= (size_t)n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			struct pollfd p = { .fd = fd, .events = POLLOUT };
			uint64_t t = now_ms();

			if (t >= deadline || poll(&p, 1, (int)(deadline - t)) <= 0)
				return false;
			continue;
		}
		return false;
	}
	return true;
}

static bool send_reply(struct zctl *c, int fd, char *reply)
{
	bool ok;

	if (!reply)
		reply = strdup("{\"ok\":false,\"error\":\"out of memory\"}");
	if (!reply)
		return false;
	ok = send_all(fd, reply, strlen(reply), c->cfg.line_timeout_ms) &&
	     send_all(fd, "\n", 1, c->cfg.line_timeout_ms);
	free(reply);
	return ok;
}

static void *client_main(void *arg)
{
	struct zctl_client *cl = arg;
	struct zctl *c = cl->ctl;
	char *buf = malloc(ZCTL_LINE_MAX + 2);
	size_t used = 0;
	uint64_t since = now_ms();    /* start of the idle period or of the partial line */

	while (buf) {
		struct pollfd p[2] = {
			{ .fd = cl->fd, .events = POLLIN }, { .fd = c->wake[0], .events = POLLIN },
		};
		uint32_t limit = used ? c->cfg.line_timeout_ms : c->cfg.idle_timeout_ms;
		uint64_t t = now_ms();
		char *nl;
		ssize_t n;
		int pr;

		if (t - since >= limit) {
			if (used)
				send_reply(c, cl->fd, zctl_error_reply("request line not ended by a "
								       "newline in time; closing"));
			break;
		}
		pr = poll(p, 2, (int)(limit - (t - since)));
		if (pr < 0 && errno == EINTR)
			continue;
		if (pr < 0 || p[1].revents)
			break;
		if (!pr)
			continue;
		n = recv(cl->fd, buf + used, ZCTL_LINE_MAX + 1 - used, MSG_DONTWAIT);
		if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK))
			continue;
		if (n <= 0)
			break;        /* disconnect (a partial line is dropped) or error */
		if (!used)
			since = now_ms();
		used += (size_t)n;
		/* run every complete line in the buffer */
		while ((nl = memchr(buf, '\n', used))) {
			size_t len = (size_t)(nl - buf);
			char *reply;

			atomic_store(&cl->in_cmd, true);
			reply = zctl_handle_line(c->cfg.disk, c->cfg.trace, buf, len);
			atomic_store(&cl->in_cmd, false);
			if (!send_reply(c, cl->fd, reply))
				goto out_free;
			used -= len + 1;
			memmove(buf, nl + 1, used);
			since = now_ms();
		}
		if (used > ZCTL_LINE_MAX) {
			char why[96];

			snprintf(why, sizeof(why), "request line longer than %d bytes; closing",
				 ZCTL_LINE_MAX);
			send_reply(c, cl->fd, zctl_error_reply(why));
			break;
		}
	}
out_free:
	free(buf);
	shutdown(cl->fd, SHUT_RDWR);
	atomic_store(&cl->done, true);
	return NULL;
}

static void reap(struct zctl *c, bool all)
{
	for (uint32_t i = 0; i < c->cfg.max_clients; i++) {
		struct zctl_client *cl = &c->clients[i];

		if (!cl->used || (!all && !atomic_load(&cl->done)))
			continue;
		pthread_join(cl->thr, NULL);
		close(cl->fd);
		cl->used = false;
	}
}

/*
 * Free the slot of every connection whose peer has hung up.  Its thread may
 * not have seen the end of file yet (a loaded host schedules it late), so a
 * client sending one request per connection, one after the other, would find
 * the slots taken by connections it has already closed.  Such a thread is at
 * most finishing its last command and reading the end of file: the join is
 * bounded.
 */
static void reap_hung_up(struct zctl *c)
{
	for (uint32_t i = 0; i < c->cfg.max_clients; i++) {
		struct zctl_client *cl = &c->clients[i];
		struct pollfd p = { .fd = cl->fd, .events = POLLRDHUP };

		if (!cl->used || poll(&p, 1, 0) <= 0 ||
		    !(p.revents & (POLLRDHUP | POLLHUP | POLLERR)))
			continue;
		pthread_join(cl->thr, NULL);
		close(cl->fd);
		cl->used = false;
	}
}

static bool peer_allowed(int fd)
{
	struct ucred cr;
	socklen_t len = sizeof(cr);

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &len))
		return false;
	return cr.uid == geteuid() || cr.uid == 0;
}

static void accept_one(struct zctl *c)
{
	struct zctl_client *cl = NULL;
	int fd = accept4(c->lfd, NULL, NULL, SOCK_CLOEXEC);

	if (fd < 0)
		return;
	if (!peer_allowed(fd)) {
		send_reply(c, fd, zctl_error_reply("permission denied: not the server's user"));
		close(fd);
		return;
	}
	reap(c, false);
	for (int pass = 0; pass < 2 && !cl; pass++) {
		if (pass)
			reap_hung_up(c);
		for (uint32_t i = 0; i < c->cfg.max_clients && !cl; i++)
			if (!c->clients[i].used)
				cl = &c->clients[i];
	}
	if (!cl) {
		char why[96];

		snprintf(why, sizeof(why), "too many control connections (at most %u); try again",
			 c->cfg.max_clients);
		send_reply(c, fd, zctl_error_reply(why));
		close(fd);
		return;
	}
	cl->ctl = c;
	cl->fd = fd;
	atomic_store(&cl->done, false);
	atomic_store(&cl->in_cmd, false);
	if (pthread_create(&cl->thr, NULL, client_main, cl)) {
		send_reply(c, fd, zctl_error_reply("cannot start a thread for this connection"));
		close(fd);
		return;
	}
	cl->used = true;
}

static void *accept_main(void *arg)
{
	struct zctl *c = arg;

	for (;;) {
		struct pollfd p[2] = {
			{ .fd = c->lfd, .events = POLLIN }, { .fd = c->wake[0], .events = POLLIN },
		};
		int pr = poll(p, 2, 1000);

		if (pr < 0 && errno != EINTR)
			break;
		if (pr > 0 && p[1].revents)
			break;
		if (pr > 0 && p[0].revents)
			accept_one(c);
		else
			reap(c, false);
	}
	return NULL;
}

/* Refuse a live socket or a non-socket at @path; remove a stale socket. */
static int clear_path(const char *path, char *msg, size_t msg_len)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct stat st;
	int fd, ret;

	if (lstat(path, &st)) {
		if (errno == ENOENT)
			return 0;
		ret = -errno;
		zl_msgf(msg, msg_len, "control socket %s: %s", path, strerror(errno));
		return ret;
	}
	if (!S_ISSOCK(st.st_mode)) {
		zl_msgf(msg, msg_len, "control socket %s: the path exists and is not a socket; "
		     "not removed", path);
		return -EEXIST;
	}
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		ret = -errno;
		zl_msgf(msg, msg_len, "control socket %s: cannot create a socket to probe it: %s",
			path, strerror(-ret));
		return ret;
	}
	memcpy(sa.sun_path, path, strlen(path) + 1);
	ret = connect(fd, (struct sockaddr *)&sa, sizeof(sa)) ? -errno : 0;
	close(fd);
	if (ret == 0) {
		zl_msgf(msg, msg_len, "control socket %s is in use by a running server", path);
		return -EADDRINUSE;
	}
	if (ret != -ECONNREFUSED) {
		zl_msgf(msg, msg_len, "control socket %s: cannot tell whether it is in use: %s", path,
		     strerror(-ret));
		return ret;
	}
	if (unlink(path) && errno != ENOENT) {
		ret = -errno;
		zl_msgf(msg, msg_len, "control socket %s: cannot remove the stale socket: %s", path,
		     strerror(errno));
		return ret;
	}
	return 0;
}

int zctl_start_cfg(const struct zctl_cfg *cfg, struct zctl **out, char *msg, size_t msg_len)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct zctl *c;
	struct stat st;
	const char *step;
	int ret;

	if (!cfg || !cfg->disk || !cfg->sock_path || !cfg->sock_path[0]) {
		zl_msgf(msg, msg_len, "control socket: no disk or no path");
		return -EINVAL;
	}
	if (strlen(cfg->sock_path) >= sizeof(sa.sun_path)) {
		zl_msgf(msg, msg_len, "control socket path %s is %zu bytes; a Unix socket path holds "
			"at most %zu", cfg->sock_path, strlen(cfg->sock_path), sizeof(sa.sun_path) - 1);
		return -ENAMETOOLONG;
	}
	c = calloc(1, sizeof(*c));
	if (!c) {
		zl_msgf(msg, msg_len, "control socket %s: out of memory", cfg->sock_path);
		return -ENOMEM;
	}
	c->cfg = *cfg;
	if (!c->cfg.line_timeout_ms)
		c->cfg.line_timeout_ms = 5000;
	if (!c->cfg.idle_timeout_ms)
		c->cfg.idle_timeout_ms = 300000;
	if (!c->cfg.max_clients)
		c->cfg.max_clients = 8;
	snprintf(c->path, sizeof(c->path), "%s", cfg->sock_path);
	c->cfg.sock_path = c->path;
	c->clients = calloc(c->cfg.max_clients, sizeof(*c->clients));
	if (!c->clients) {
		ret = -ENOMEM;
		zl_msgf(msg, msg_len, "control socket %s: out of memory", c->path);
		goto out_free;
	}
	if (pipe2(c->wake, O_CLOEXEC)) {
		ret = -errno;
		zl_msgf(msg, msg_len, "control socket %s: pipe: %s", c->path, strerror(-ret));
		goto out_free;
	}
	ret = clear_path(c->path, msg, msg_len);
	if (ret)
		goto out_close_pipe;
	c->lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (c->lfd < 0) {
		ret = -errno;
		zl_msgf(msg, msg_len, "control socket %s: socket: %s", c->path, strerror(-ret));
		goto out_close_pipe;
	}
	memcpy(sa.sun_path, c->path, strlen(c->path) + 1);
	if (bind(c->lfd, (struct sockaddr *)&sa, sizeof(sa))) {
		ret = -errno;
		zl_msgf(msg, msg_len, "control socket %s: bind: %s", c->path, strerror(errno));
		goto out_close_sock;
	}
	/* connections before the chmod are still refused by the SO_PEERCRED check */
	step = chmod(c->path, 0600) ? "chmod 0600" : lstat(c->path, &st) ? "lstat" :
	       listen(c->lfd, 8) ? "listen" : NULL;
	if (step) {
		ret = -errno;
		zl_msgf(msg, msg_len, "control socket %s: %s: %s", c->path, step, strerror(-ret));
		goto out_unlink;
	}
	c->sock_dev = st.st_dev;
	c->sock_ino = st.st_ino;
	ret = pthread_create(&c->thr, NULL, accept_main, c);
	if (ret) {
		ret = -ret;
		zl_msgf(msg, msg_len, "control socket %s: cannot start its thread: %s", c->path,
			strerror(-ret));
		goto out_unlink;
	}
	*out = c;
	return 0;

out_unlink:
	unlink(c->path);
out_close_sock:
	close(c->lfd);
out_close_pipe:
	close(c->wake[0]);
	close(c->wake[1]);
out_free:
	free(c->clients);
	free(c);
	return ret;
}

int zctl_start(struct zdisk *z, const char *sock_path, struct ztrace *tr, struct zctl **out)
{
	struct zctl_cfg cfg = { .disk = z, .trace = tr, .sock_path = sock_path };

	return zctl_start_cfg(&cfg, out, NULL, 0);
}

void zctl_stop(struct zctl *c)
{
	struct stat st;
	ssize_t n;

	if (!c)
		return;
	do
		n = write(c->wake[1], "x", 1);
	while (n < 0 && errno == EINTR);
	pthread_join(c->thr, NULL);
	/* wake clients blocked in poll or send; free those blocked behind a stall */
	for (uint32_t i = 0; i < c->cfg.max_clients; i++) {
		struct zctl_client *cl = &c->clients[i];

		if (!cl->used)
			continue;
		shutdown(cl->fd, SHUT_RDWR);
		while (pthread_tryjoin_np(cl->thr, NULL)) {
			struct timespec ts = { 0, 10 * 1000 * 1000 };

			if (atomic_load(&cl->in_cmd))
				zdisk_release_stalls(c->cfg.disk);
			nanosleep(&ts, NULL);
		}
		close(cl->fd);
		cl->used = false;
	}
	if (!lstat(c->path, &st) && st.st_dev == c->sock_dev && st.st_ino == c->sock_ino)
		unlink(c->path);
	close(c->lfd);
	close(c->wake[0]);
	close(c->wake[1]);
	free(c->clients);
	free(c);
}

const char *zctl_sock_path(const struct zctl *c)
{
	return c->path;
}
