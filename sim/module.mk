# sim/ — the simulator: the discrete-event engine in virtual time, the
# devices it runs on, workload and trace replay, its results (sim_*).
# Fragment of ./Makefile.  In the order of sim/sim_run.h's parts: a file
# uses only those before it (configuration and devices first, the run last).
LIB_SRCS += sim/sim_engine.c sim/sim_dev.c sim/sim_out.c sim/sim_cfg.c \
	sim/sim_gen.c sim/sim_replay.c sim/sim_tbench.c sim/sim_rebuild.c sim/sim_kreplace.c \
	sim/sim_time.c sim/sim_io.c sim/sim_clean.c sim/sim_fail.c sim/sim_acct.c sim/sim_req.c sim/sim_issue.c \
	sim/sim_loop.c sim/sim_run.c
UNIT_TESTS += tests/unit/test_sim.c tests/unit/test_sim_replay.c tests/unit/test_sim_time.c \
	tests/unit/test_sim_rebuild.c tests/unit/test_sim_kreplace.c tests/unit/test_sim_fail.c
BENCH_SRCS += tests/bench/bench_sim.c
CHECK_SCRIPTS += tests/scripts/027-kernel-reclaim.sh tests/scripts/022-timing.sh tests/scripts/024-sim-fail.sh
