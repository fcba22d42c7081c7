/*
 * zonelab.c — the zonelab command: a git-style dispatcher to subcommands
 * (disk, sim, ctl, trace).  Each subcommand lives in its own cmd_*.c file;
 * this file only routes and prints the top-level help.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: zonelab <command> [args]\n"
		"\n"
		"commands:\n"
		"  disk    create, inspect and drive an emulated zoned disk image\n"
		"  sim     run an fs-core simulation in virtual time%s\n"
		"  ctl     control a running emulated device (faults, zones, stats)%s\n"
		"  trace   read, convert and replay block traces%s\n"
		"  run     run every point of scenario files (sweeps, expectations, Slurm)%s\n"
		"  collect build results, report and plots of a result directory%s\n"
		"  compare compare two result directories point by point%s\n"
		"  plot    redraw the plots of a result directory%s\n"
		"\n"
		"'zonelab <command> --help' describes a command.\n",
		cmd_sim ? "" : " (not built)", cmd_ctl ? "" : " (not built)",
		cmd_trace ? "" : " (not built)", cmd_run ? "" : " (not built)",
		cmd_collect ? "" : " (not built)", cmd_compare ? "" : " (not built)",
		cmd_plot ? "" : " (not built)");
}

int main(int argc, char **argv)
{
	const char *cmd;

	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	cmd = argv[1];
	if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") || !strcmp(cmd, "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(cmd, "disk"))
		return cmd_disk(argc - 1, argv + 1);
	if (!strcmp(cmd, "sim") && cmd_sim)
		return cmd_sim(argc - 1, argv + 1);
	if (!strcmp(cmd, "ctl") && cmd_ctl)
		return cmd_ctl(argc - 1, argv + 1);
	if (!strcmp(cmd, "trace") && cmd_trace)
		return cmd_trace(argc - 1, argv + 1);
	if (!strcmp(cmd, "run") && cmd_run)
		return cmd_run(argc - 1, argv + 1);
	if (!strcmp(cmd, "collect") && cmd_collect)
		return cmd_collect(argc - 1, argv + 1);
	if (!strcmp(cmd, "compare") && cmd_compare)
		return cmd_compare(argc - 1, argv + 1);
	if (!strcmp(cmd, "plot") && cmd_plot)
		return cmd_plot(argc - 1, argv + 1);
	fprintf(stderr, "zonelab: '%s' is not a zonelab command\n", cmd);
	usage(stderr);
	return 2;
}
