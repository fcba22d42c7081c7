# fs-core/zblk/ — the block interface fs-core talks to devices through: an
# in-process zdev, an emulated zdisk, or a real zoned block device (ioctls).
# Uses only common/ and emulator/.  Fragment of ./Makefile (via fs-core/module.mk).
LIB_SRCS += fs-core/zblk/zblk.c fs-core/zblk/zblk_zdev.c fs-core/zblk/zblk_zdisk.c \
	fs-core/zblk/zblk_linux.c
UNIT_TESTS += tests/unit/test_fsc_zblk.c
