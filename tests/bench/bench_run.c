/*
 * bench_run.c — the scenario runner's overhead (`make bench`): N points of
 * one scenario through `zonelab run -j 1` against the same N `zonelab sim`
 * processes run one after the other directly (the baseline, in the same
 * invocation); then `-j 2` against `-j 1`.  Targets (issue 11): -j 1 at
 * most 1.05x the baseline; -j 2 at least 1.8x faster than -j 1 on 2 idle
 * cores.  The runner is measured with --no-plots (gnuplot's time is printed
 * on its own line: it is the plots' cost, not the runner's).  Best of 3.
 * Usage: bench_run SCRATCH_DIR (the zonelab binary is ../../zonelab from
 * this program).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib.h>

#include "zl_test.h"

#define NR_POINTS 12
#define REPS 3

static const char scenario[] =
	"[scenario]\nname = bench\nseeds = [1 .. 3]\n"
	"[sim]\nzones = 600\nzone-size = 256K\nno-metadata = true\nwrites = 150000\n"
	"util = [0.6, 0.7, 0.8, 0.85]\nclean = greedy\n";

static char zonelab[4096];

static int run(char *const argv[], const char *cwd, const char *out)
{
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		int fd = open(out ? out : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (cwd && chdir(cwd))
			_exit(126);
		if (fd < 0 || dup2(fd, 1) < 0 || dup2(open("/dev/null", O_WRONLY), 2) < 0)
			_exit(126);
		execv(argv[0], argv);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) > 1) {
		fprintf(stderr, "bench_run: %s failed\n", argv[0]);
		exit(1);
	}
	return 0;
}

/* The baseline: the N simulator runs `zonelab run --list` prints, one by one. */
static double direct(const char *dir, char ***argvs)
{
	uint64_t t0 = zl_test_now_ns();

	for (int i = 0; i < NR_POINTS; i++) {
		char *out = g_strdup_printf("%s/direct-%d.json", dir, i);

		run(argvs[i], dir, out);
		g_free(out);
	}
	return (zl_test_now_ns() - t0) / 1e9;
}

static double runner(const char *dir, const char *ini, const char *jobs, bool plots)
{
	char *out = g_strdup_printf("%s/out", dir), *rm = g_strdup_printf("rm -rf '%s'", out);
	char *argv[] = { zonelab, "run", (char *)ini, "-o", out, "-j", (char *)jobs, "-q",
			 plots ? "-q" : "--no-plots", NULL };
	uint64_t t0;

	if (system(rm))
		exit(1);
	t0 = zl_test_now_ns();
	run(argv, NULL, NULL);
	t0 = zl_test_now_ns() - t0;
	g_free(out);
	g_free(rm);
	return t0 / 1e9;
}

int main(int argc, char **argv)
{
	char *self = g_file_read_link("/proc/self/exe", NULL), *dir, *ini;
	char ***argvs = g_new0(char **, NR_POINTS);
	double best_d = 1e9, best_1 = 1e9, best_2 = 1e9, plots;
	char *cmd;
	int i, n = 0;
	bool ok;

	if (argc < 2 || !self) {
		fprintf(stderr, "usage: bench_run SCRATCH_DIR\n");
		return 2;
	}
	dir = g_strdup(argv[1]);
	snprintf(zonelab, sizeof(zonelab), "%s/../../zonelab", g_path_get_dirname(self));
	ini = g_strdup_printf("%s/bench.ini", dir);
	if (!g_file_set_contents(ini, scenario, -1, NULL))
		return 1;
	/* the baseline's command lines: the runner's own (--list), plus the
	 * --csv it adds, so both sides do the same work */
	cmd = g_strdup_printf("'%s' run '%s' --list", zonelab, ini);
	{
		FILE *p = popen(cmd, "r");
		char line[4096];

		while (p && fgets(line, sizeof(line), p) && n < NR_POINTS) {
			char *sim = strstr(line, "\tzonelab sim "), **v;
			GPtrArray *a = g_ptr_array_new();

			if (!sim)
				continue;
			g_strstrip(sim);
			v = g_strsplit(sim + strlen("zonelab sim "), " ", -1);
			g_ptr_array_add(a, zonelab);
			g_ptr_array_add(a, "sim");
			for (char **w = v; *w; w++)
				g_ptr_array_add(a, *w);
			g_ptr_array_add(a, "--csv");
			g_ptr_array_add(a, g_strdup_printf("direct-%d.csv", n));
			g_ptr_array_add(a, "--zone-csv");
			g_ptr_array_add(a, g_strdup_printf("direct-%d.zones.csv", n));
			g_ptr_array_add(a, NULL);
			argvs[n++] = (char **)g_ptr_array_free(a, FALSE);
		}
		if (p)
			pclose(p);
	}
	if (n != NR_POINTS) {
		fprintf(stderr, "bench_run: %s listed %d points, want %d\n", zonelab, n, NR_POINTS);
		return 1;
	}
	for (i = 0; i < REPS; i++) {
		double d = direct(dir, argvs), r1 = runner(dir, ini, "1", false);
		double r2 = runner(dir, ini, "2", false);

		best_d = d < best_d ? d : best_d;
		best_1 = r1 < best_1 ? r1 : best_1;
		best_2 = r2 < best_2 ? r2 : best_2;
	}
	plots = runner(dir, ini, "2", true) - best_2;
	printf("%d points, best of %d, seconds of wall time\n", NR_POINTS, REPS);
	printf("  %-44s %8.3f s\n", "zonelab sim x N, one after the other", best_d);
	printf("  %-44s %8.3f s  %.3fx the baseline (target <= 1.05)\n", "zonelab run -j 1 --no-plots",
	       best_1, best_1 / best_d);
	printf("  %-44s %8.3f s  %.2fx faster than -j 1 (target >= 1.8 on 2 idle cores; %ld "
	       "online)\n", "zonelab run -j 2 --no-plots", best_2, best_1 / best_2,
	       sysconf(_SC_NPROCESSORS_ONLN));
	printf("  %-44s %8.3f s  (gnuplot, 4 plots x PNG+SVG)\n", "plots on top of -j 2", plots);
	ok = best_1 / best_d <= 1.05;
	printf("  runner overhead target %s\n", ok ? "met" : "NOT met");
	return 0;
}
