# cli/ — the zonelab command (git-style subcommands, one cmd_*.c each).
# Fragment of ./Makefile.
CLI_SRCS += cli/zonelab.c cli/cli_util.c cli/cmd_disk.c cli/cmd_ctl.c cli/cmd_sim.c \
	cli/cmd_trace.c cli/cmd_run.c cli/cmd_collect.c cli/cmd_compare.c
