# common/ — the pieces every room uses and that use no room: error codes and
# their one strerror (zl_err), CRC-32C, JSON escaping, byte order, the
# seeded generator, the summary bitmap; and the JSON reader (zl_json_read,
# GLib) that scenarios/, analysis/ and cli/ read result files with.
# Fragment of ./Makefile.
LIB_SRCS += common/zl_err.c common/zl_crc.c common/zl_json.c common/zbitmap.c
LIB_SRCS += common/zl_json_read.c
UNIT_TESTS += tests/unit/test_zl_json_read.c
UNIT_TESTS += tests/unit/test_zbitmap.c tests/unit/test_zl_json.c tests/unit/test_zl_err.c \
	tests/unit/test_zl_crc.c tests/unit/test_zl_codec.c
# zl_parse: the one number and size parser (the CLI's options and the
# handler's cfgstring read sizes the same way).
LIB_SRCS += common/zl_parse.c
UNIT_TESTS += tests/unit/test_zl_parse.c
