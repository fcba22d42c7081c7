# emulator/zstore.mk — the store (zstore: image header, zone table, data
# backends).  Fragment of ./Makefile, included by emulator/module.mk.
# zl_crc.c and zl_err.c are listed in common/module.mk.
LIB_SRCS += emulator/zstore.c emulator/zstore_hdr.c emulator/zstore_mem.c
UNIT_TESTS += tests/unit/test_zstore.c
