# emulator/ — the zone model and the emulated disk.  Fragment of ./Makefile.
LIB_SRCS += emulator/zdev.c emulator/zdev_geo.c emulator/zdev_report.c emulator/zdev_pack.c \
	emulator/zstats.c emulator/zdisk.c emulator/zdisk_open.c emulator/zdisk_control.c
UNIT_TESTS += tests/unit/test_zdev.c tests/unit/test_zdisk.c tests/unit/test_zdisk_crash.c
# Components with their own fragments (each lists its sources and tests).
include emulator/zstore.mk
include emulator/zfault.mk
include emulator/zscsi.mk
include emulator/tcmu.mk
include emulator/zctl.mk
include emulator/ztime.mk
