# emulator/tcmu.mk — the tcmu-runner glue (handler_zonelab.so), the
# in-process tcmu-runner stand-in used by tests, and their checks and
# benchmark.  Fragment of ./Makefile, included by emulator/module.mk.
#
# Programs that dlopen() a handler link tests/tcmu_standin/standin.o and are
# linked with -rdynamic so the handler's tcmu symbols resolve to the
# stand-in; they have explicit rules here (the generic test rule has neither).
# LIB, TEST_HELPER_OBJS are defined after the fragments are read, so the
# prerequisites below spell their paths out.

TCMU_STANDIN_OBJ := $(O)/tests/tcmu_standin/standin.o
TCMU_LIBA := $(O)/libzonelab.a
TCMU_HELPER_OBJ := $(O)/tests/zl_test.o

LIB_SRCS += emulator/tcmu/zl_cfgstr.c
UNIT_TESTS += tests/unit/test_tcmu_standin.c tests/unit/test_zl_cfgstr.c
CHECK_SCRIPTS += tests/scripts/030-tcmu-abi.sh

$(O)/tests/unit/test_tcmu_standin: $(O)/tests/unit/test_tcmu_standin.o $(TCMU_STANDIN_OBJ) $(TCMU_HELPER_OBJ)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(LDFLAGS) -rdynamic -o $@ $^ $(LDLIBS)

-include $(TCMU_STANDIN_OBJ:.o=.d)
