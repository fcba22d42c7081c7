# emulator/zctl.mk — run-time control (control socket, `zonelab ctl`) and the
# command trace.  Fragment of ./Makefile, included by emulator/module.mk.
LIB_SRCS += emulator/zctl.c emulator/zctl_cmd.c emulator/zctl_parse.c emulator/ztrace.c emulator/zscsi_cdbinfo.c
UNIT_TESTS += tests/unit/test_zctl.c tests/unit/test_ztrace.c
CHECK_SCRIPTS += tests/scripts/060-ctl.sh

# A device held open through the tcmu-runner stand-in (tests/tcmu_standin,
# variables from emulator/tcmu.mk) for 060-ctl.sh; it also dumps traces.
CTL_STANDIN_BIN := $(O)/tests/tcmu_standin/ctl_standin
EXTRA_PROGS += $(CTL_STANDIN_BIN)
$(CTL_STANDIN_BIN): $(O)/tests/tcmu_standin/ctl_standin.o $(TCMU_STANDIN_OBJ) $(TCMU_HELPER_OBJ) \
		$(TCMU_LIBA)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(LDFLAGS) -rdynamic -o $@ $^ $(LDLIBS)
-include $(O)/tests/tcmu_standin/ctl_standin.d
