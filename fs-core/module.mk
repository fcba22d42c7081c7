# fs-core/ — the HMZONED allocation core (fsc_*) with two sub-rooms: zblk/
# below it (the block interface) and clean/ (the cleaning policies).  Fragment of ./Makefile.
include fs-core/zblk/module.mk
LIB_SRCS += fs-core/fsc_dev.c fs-core/fsc_chunk.c \
	fs-core/fsc_alloc.c fs-core/fsc_submit.c fs-core/fsc_trans.c fs-core/fsc_file.c \
	fs-core/fsc_place.c fs-core/fsc_active.c
UNIT_TESTS += tests/unit/test_fsc_dev.c tests/unit/test_fsc_bg.c tests/unit/test_fsc_submit.c
include fs-core/clean/module.mk
