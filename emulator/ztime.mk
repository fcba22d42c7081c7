# emulator/ztime — the device timing model (HDD and ZNS flash) and its text
# form.  Fragment of ./Makefile, included by emulator/module.mk.
LIB_SRCS += emulator/ztime.c emulator/ztime_parse.c
UNIT_TESTS += tests/unit/test_ztime.c
