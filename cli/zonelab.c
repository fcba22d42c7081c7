/*
 * zonelab.c — the zonelab command: a git-style dispatcher to subcommands
 * (one cmd_*.c each, all built: a missing one fails the link), the
 * top-level help and --version.  It only routes: every subcommand reads
 * its own options (cli_opt.c's convention).
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "zl_version.h"   /* ZL_VERSION, ZL_GIT_REV: generated in $(O)/cli by cli/module.mk */

/* The commands, in the order the help lists them. */
static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *what;
} cmds[] = {
	{ "disk", cmd_disk, "create, inspect and drive an emulated zoned disk image" },
	{ "sim", cmd_sim, "run an fs-core simulation in virtual time" },
	{ "timing", cmd_timing, "the device timing model's benchmark table (docs/TIMING.md)" },
	{ "ctl", cmd_ctl, "control a running emulated device (faults, zones, stats)" },
	{ "trace", cmd_trace, "read, convert and replay block traces" },
	{ "run", cmd_run, "run every point of scenario files (sweeps, expectations, Slurm)" },
	{ "collect", cmd_collect, "build results, report and plots of a result directory" },
	{ "compare", cmd_compare, "compare two result directories point by point" },
	{ "plot", cmd_plot, "redraw the plots of a result directory" },
};
#define NR_CMDS (sizeof(cmds) / sizeof(cmds[0]))

static void usage(FILE *f)
{
	fprintf(f, "usage: zonelab <command> [args]\n\ncommands:\n");
	for (size_t i = 0; i < NR_CMDS; i++)
		fprintf(f, "  %-7s %s\n", cmds[i].name, cmds[i].what);
	fprintf(f, "\n'zonelab <command> --help' describes a command.\n");
}

static void version(void)
{
	printf("zonelab %s (git %s)\n", ZL_VERSION, ZL_GIT_REV);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", 0, 0, 'h' }, { "version", 0, 0, 'V' }, { 0, 0, 0, 0 },
	};
	/* '+': options before the command only; the rest is the command's */
	static const struct cli_opts co = { .cmd = "", .help = "", .shortopts = "+hV",
					    .longopts = opts };
	const char *cmd;
	int o;

	cli_opt_start();
	while ((o = cli_getopt(argc, argv, &co)) != -1) {
		switch (o) {
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			version();
			return 0;
		default:
			return 2;
		}
	}
	if (optind >= argc) {
		usage(stderr);
		return 2;
	}
	cmd = argv[optind];
	if (!strcmp(cmd, "help")) {
		usage(stdout);
		return 0;
	}
	for (size_t i = 0; i < NR_CMDS; i++)
		if (!strcmp(cmd, cmds[i].name))
			return cmds[i].fn(argc - optind, argv + optind);
	fprintf(stderr, "zonelab: '%s' is not a zonelab command\n", cmd);
	usage(stderr);
	return 2;
}
