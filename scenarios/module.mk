# scenarios/ — scenario files, sweeps and expectations (scn_*); the
# run/collect/compare/plot commands (their tables and plots: analysis/).
# Fragment of ./Makefile.
LIB_SRCS += scenarios/scn_load.c scenarios/scn_json.c scenarios/scn_expect.c
CLI_SRCS += cli/cmd_run.c cli/cmd_collect.c cli/cmd_compare.c
