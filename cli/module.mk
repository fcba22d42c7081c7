# cli/ — the zonelab command (git-style subcommands).  Fragment of ./Makefile.
CLI_SRCS += cli/zonelab.c cli/cmd_disk.c cli/cli_util.c
