/* zl_test.c — see zl_test.h. */
#include "zl_test.h"

#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

char *zl_test_mkdtemp(const char *tag)
{
	const char *tmp = getenv("TMPDIR");
	char *path;

	if (!tmp || !*tmp)
		tmp = "/tmp";
	if (asprintf(&path, "%s/zonelab-%s.XXXXXX", tmp, tag) < 0)
		return NULL;
	if (!mkdtemp(path)) {
		free(path);
		return NULL;
	}
	return path;
}

static int rm_one(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb; (void)flag; (void)ftw;
	return remove(p);
}

void zl_test_rmdir(const char *path)
{
	if (path)
		nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

uint64_t zl_test_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int zl_test_build_path(const char *rel, char *out, size_t len)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	int ret;

	if (n <= 0) {
		ret = n < 0 ? -errno : -ENOENT;
		snprintf(out, len, "%s", rel);
		return ret;
	}
	exe[n] = '\0';
	/* <build>/tests/<dir>/<name> -> <build> */
	for (int up = 0; up < 3; up++) {
		char *slash = strrchr(exe, '/');

		if (slash)
			*slash = '\0';
	}
	ret = snprintf(out, len, "%s/%s", exe, rel);
	return ret >= 0 && (size_t)ret < len ? 0 : -ENAMETOOLONG;
}

/* ---- stall probe ---------------------------------------------------------- */

#define PROBE_SPANS 4096u     /* kept (a ring): a test asks about the last few */

struct zl_test_probe {
	pthread_t thread;
	pthread_mutex_t lock;     /* spans, nr_spans */
	bool stop;                /* atomic */
	uint64_t last_wake_ns;    /* atomic: the probe has run at this time */
	uint64_t nr_spans;
	uint64_t span[PROBE_SPANS][2];   /* [due, woken] of each late wake-up */
};

static void *probe_main(void *arg)
{
	struct zl_test_probe *p = arg;

	while (!__atomic_load_n(&p->stop, __ATOMIC_ACQUIRE)) {
		uint64_t due = zl_test_now_ns() + ZL_TEST_PROBE_TICK_NS, now;
		struct timespec ts = { (time_t)(due / 1000000000ull), (long)(due % 1000000000ull) };

		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			;
		now = zl_test_now_ns();
		if (now > due + ZL_TEST_PROBE_LATE_NS) {
			pthread_mutex_lock(&p->lock);
			p->span[p->nr_spans % PROBE_SPANS][0] = due;
			p->span[p->nr_spans % PROBE_SPANS][1] = now;
			p->nr_spans++;
			pthread_mutex_unlock(&p->lock);
		}
		__atomic_store_n(&p->last_wake_ns, now, __ATOMIC_RELEASE);
	}
	return NULL;
}

int zl_test_probe_start(struct zl_test_probe **out)
{
	struct zl_test_probe *p = calloc(1, sizeof(*p));
	int ret;

	if (!p)
		return -ENOMEM;
	pthread_mutex_init(&p->lock, NULL);
	p->last_wake_ns = zl_test_now_ns();
	ret = pthread_create(&p->thread, NULL, probe_main, p);
	if (ret) {
		pthread_mutex_destroy(&p->lock);
		free(p);
		return -ret;
	}
	*out = p;
	return 0;
}

void zl_test_probe_stop(struct zl_test_probe *p)
{
	if (!p)
		return;
	__atomic_store_n(&p->stop, true, __ATOMIC_RELEASE);
	pthread_join(p->thread, NULL);
	pthread_mutex_destroy(&p->lock);
	free(p);
}

/* Sum (or the longest, @worst) of the stall spans' parts inside [t0, t1]. */
static uint64_t probe_scan(struct zl_test_probe *p, uint64_t t0, uint64_t t1, bool worst)
{
	uint64_t sum = 0, max = 0, first;

	/* a stall ending after t1 is seen once the probe has woken past t1 */
	while (__atomic_load_n(&p->last_wake_ns, __ATOMIC_ACQUIRE) <= t1) {
		struct timespec ts = { 0, 200000 };

		nanosleep(&ts, NULL);
	}
	pthread_mutex_lock(&p->lock);
	first = p->nr_spans > PROBE_SPANS ? p->nr_spans - PROBE_SPANS : 0;
	for (uint64_t i = first; i < p->nr_spans; i++) {
		uint64_t a = p->span[i % PROBE_SPANS][0], b = p->span[i % PROBE_SPANS][1];

		if (a < t0)
			a = t0;
		if (b > t1)
			b = t1;
		if (b > a) {
			sum += b - a;
			if (b - a > max)
				max = b - a;
		}
	}
	pthread_mutex_unlock(&p->lock);
	return worst ? max : sum;
}

uint64_t zl_test_probe_stalled_ns(struct zl_test_probe *p, uint64_t t0, uint64_t t1)
{
	return probe_scan(p, t0, t1, false);
}

uint64_t zl_test_probe_worst_ns(struct zl_test_probe *p, uint64_t t0, uint64_t t1)
{
	return probe_scan(p, t0, t1, true);
}
