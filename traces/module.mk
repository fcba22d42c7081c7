# traces/ — trace readers, writers, workload sources and replay (trc_*).
# Fragment of ./Makefile.
LIB_SRCS += traces/trc.c traces/trc_gen.c
UNIT_TESTS += tests/unit/test_trc_gen.c
# Readers (one file per format), writers, descriptors, replay; `zonelab trace`.
LIB_SRCS += traces/trc_read.c traces/trc_lex.c traces/trc_write.c traces/trc_stat.c \
	traces/trc_stat_mem.c traces/trc_native.c traces/trc_nat2.c traces/trc_nat2_read.c traces/trc_ztrace.c traces/trc_blktrace.c traces/trc_blkparse.c \
	traces/trc_iolog.c traces/trc_msr.c traces/trc_alibaba.c traces/trc_tencent.c traces/trc_spc.c traces/trc_replay.c
UNIT_TESTS += tests/unit/test_trc.c
CHECK_SCRIPTS += tests/scripts/080-cli-trace.sh
CHECK_SCRIPTS += tests/scripts/082-vm-traces.sh
BENCH_SRCS += tests/bench/bench_trace.c
# replay into the simulator: the mapping, in-memory and file-backed inputs (trc_map.h)
LIB_SRCS += traces/trc_map.c traces/trc_src_array.c
UNIT_TESTS += tests/unit/test_trc_map.c
LIB_SRCS += traces/trc_src_reader.c
CHECK_SCRIPTS += tests/scripts/025-sim-replay.sh
