/* zl_test.c — see zl_test.h. */
#include "zl_test.h"

#include <errno.h>
#include <ftw.h>
#include <limits.h>
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
