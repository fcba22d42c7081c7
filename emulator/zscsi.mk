# emulator/zscsi.mk — SCSI/ZBC translation (zscsi) and its tests.  Fragment of ./Makefile.
# The conformance table and runner (tests/conformance/) are shared with the
# tcmu stand-in, which runs the same cases against a loaded handler .so.
# In call order, top to bottom: the front and fast paths, the opcode table,
# the command handlers, the helpers (emulator/zscsi_int.h).
LIB_SRCS += emulator/zscsi.c emulator/zscsi_dispatch.c \
	emulator/zscsi_inquiry.c emulator/zscsi_mode.c emulator/zscsi_rw.c emulator/zscsi_sbc.c \
	emulator/zscsi_zbc.c emulator/zscsi_cmd.c emulator/zscsi_sense.c
UNIT_TESTS += tests/unit/test_zscsi.c tests/unit/test_zscsi_conformance.c
TEST_HELPERS += tests/conformance/zbc_cases.c tests/conformance/zbc_runner.c \
	tests/conformance/zbc_steps.c tests/conformance/zbc_xfer.c
