# emulator/tcmu.mk — the tcmu-runner glue (handler_zonelab.so), the
# in-process tcmu-runner stand-in used by tests, and their checks and
# benchmark.  Fragment of ./Makefile, included by emulator/module.mk.
#
# Programs that dlopen() a handler link tests/tcmu_standin/standin.o and are
# linked with -rdynamic so the handler's tcmu symbols resolve to the
# stand-in; they have explicit rules here (the generic test rule has neither).
# LIB, TEST_HELPER_OBJS are defined after the fragments are read, so the
# prerequisites below spell their paths out.  They link tests/zl_test.o
# (no library calls) and no libzonelab.a: the code under test is the .so.

TCMU_STANDIN_OBJ := $(O)/tests/tcmu_standin/standin.o
TCMU_LIBA := $(O)/libzonelab.a
TCMU_HELPER_OBJ := $(O)/tests/zl_test.o

LIB_SRCS += emulator/tcmu/zl_cfgstr.c emulator/tcmu/zl_timed.c
UNIT_TESTS += tests/unit/test_tcmu_standin.c tests/unit/test_zl_cfgstr.c tests/unit/test_zl_timed.c
CHECK_SCRIPTS += tests/scripts/030-tcmu-abi.sh

$(O)/tests/unit/test_tcmu_standin: $(O)/tests/unit/test_tcmu_standin.o $(TCMU_STANDIN_OBJ) $(TCMU_HELPER_OBJ)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(LDFLAGS) -rdynamic -o $@ $^ $(LDLIBS)

-include $(TCMU_STANDIN_OBJ:.o=.d)

# Timed mode through the stand-in; ztime from the library is the reference.
UNIT_TESTS += tests/unit/test_tcmu_timed.c
$(O)/tests/unit/test_tcmu_timed: $(O)/tests/unit/test_tcmu_timed.o $(TCMU_STANDIN_OBJ) $(TCMU_HELPER_OBJ) \
		$(TCMU_LIBA) | $(O)/handler_zonelab.so
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(LDFLAGS) -rdynamic -o $@ $(filter %.o %.a,$^) $(LDLIBS)

# The plugin: handler_zonelab.o + the whole library, only handler_init exported.
SHLIBS += $(O)/handler_zonelab.so
TCMU_SO_LIBS := $(shell pkg-config --libs glib-2.0 2>/dev/null) -lpthread -lm

$(O)/handler_zonelab.so: $(O)/emulator/tcmu/handler_zonelab.o $(TCMU_LIBA) emulator/tcmu/handler_zonelab.map
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) -shared $(LDFLAGS) $(LTO_FLAGS) -Wl,--version-script=emulator/tcmu/handler_zonelab.map \
		-o $@ $(O)/emulator/tcmu/handler_zonelab.o $(TCMU_LIBA) $(TCMU_SO_LIBS)

-include $(O)/emulator/tcmu/handler_zonelab.d

# The conformance table through the stand-in (needs the table: tests/conformance).
ZBC_CONF_SRCS := $(wildcard tests/conformance/*.c)
ifneq ($(filter tests/conformance/zbc_cases.c,$(ZBC_CONF_SRCS)),)
TCMU_CONF_BIN := $(O)/tests/tcmu_standin/tcmu_conformance
EXTRA_PROGS += $(TCMU_CONF_BIN)
CHECK_SCRIPTS += tests/scripts/040-tcmu-conformance.sh
$(TCMU_CONF_BIN): $(O)/tests/tcmu_standin/tcmu_conformance.o $(TCMU_STANDIN_OBJ) \
		$(ZBC_CONF_SRCS:%.c=$(O)/%.o) $(TCMU_HELPER_OBJ)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(LDFLAGS) -rdynamic -o $@ $^ $(LDLIBS)
-include $(O)/tests/tcmu_standin/tcmu_conformance.d $(ZBC_CONF_SRCS:%.c=$(O)/%.d)
endif

# Benchmark: both handlers through the stand-in, plus the raw file and the
# floor handler (pread/pwrite only: what the stand-in itself costs).
BENCH_SRCS += tests/bench/bench_tcmu.c
FLOOR_SO := $(O)/tests/tcmu_standin/handler_floor.so
$(FLOOR_SO): $(O)/tests/tcmu_standin/handler_floor.o
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) -shared $(LDFLAGS) -o $@ $^
-include $(O)/tests/tcmu_standin/handler_floor.d
$(O)/tests/bench/bench_tcmu: $(O)/tests/bench/bench_tcmu.o $(TCMU_STANDIN_OBJ) $(TCMU_HELPER_OBJ) \
		| $(O)/handler_zonelab.so $(FLOOR_SO)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(LDFLAGS) -rdynamic -o $@ $(filter %.o %.a,$^) $(LDLIBS)
# Instruction counts per command (under callgrind; tests/bench/ab.sh -c):
# not a timed bench, so not in BENCH_SRCS (make bench runs those).
BENCH_OPS_BIN := $(O)/tests/bench/bench_ops
EXTRA_PROGS += $(BENCH_OPS_BIN)
$(BENCH_OPS_BIN): $(O)/tests/bench/bench_ops.o $(TCMU_STANDIN_OBJ) $(TCMU_HELPER_OBJ) | $(O)/handler_zonelab.so
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(LDFLAGS) -rdynamic -o $@ $(filter %.o %.a,$^) $(LDLIBS)
-include $(O)/tests/bench/bench_ops.d
