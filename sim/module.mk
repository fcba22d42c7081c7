# sim/ — the simulator: the discrete-event engine in virtual time, the
# devices it runs on, workload and trace replay, its results (sim_*).
# Fragment of ./Makefile.
LIB_SRCS += sim/sim_engine.c sim/sim_dev.c sim/sim.c sim/sim_out.c sim/sim_replay.c
UNIT_TESTS += tests/unit/test_sim.c
BENCH_SRCS += tests/bench/bench_sim.c
