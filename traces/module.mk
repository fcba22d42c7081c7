# traces/ — trace readers, writers, workload sources and replay (trc_*).
# Fragment of ./Makefile.
LIB_SRCS += traces/trc.c
