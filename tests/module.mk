# tests/ — helpers shared by test programs, benchmarks, check scripts.
TEST_HELPERS += tests/zl_test.c tests/zl_test_disk.c
BENCH_SRCS += tests/bench/bench_zdev.c
CHECK_SCRIPTS += tests/scripts/005-layering.sh tests/scripts/010-cli-disk.sh tests/scripts/015-block-device.sh tests/scripts/020-cli-sim.sh
