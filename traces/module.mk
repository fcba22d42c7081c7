# traces/ — trace readers, writers, workload sources and replay (trc_*).
# Fragment of ./Makefile.
LIB_SRCS += traces/trc.c traces/trc_gen.c
UNIT_TESTS += tests/unit/test_trc_gen.c
