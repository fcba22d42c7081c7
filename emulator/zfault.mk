# emulator/zfault — fault rules (engine + text).  Fragment of ./Makefile.
LIB_SRCS += emulator/zfault.c emulator/zfault_parse.c emulator/zfault_text.c
UNIT_TESTS += tests/unit/test_zfault.c
