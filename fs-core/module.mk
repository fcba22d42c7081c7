# fs-core/ — the HMZONED allocation core (fsc_*) with its cleaning
# policies, over zblk/ (the block interface, a sub-room).  Fragment of ./Makefile.
include fs-core/zblk/module.mk
LIB_SRCS += fs-core/fsc_dev.c fs-core/fsc_chunk.c \
	fs-core/fsc_alloc.c fs-core/fsc_submit.c fs-core/fsc_trans.c fs-core/fsc_file.c \
	fs-core/fsc_clean.c fs-core/fsc_clean_score.c fs-core/fsc_clean_fifo.c fs-core/fsc_clean_greedy.c \
	fs-core/fsc_clean_cost_benefit.c fs-core/fsc_clean_cat.c fs-core/fsc_clean_dchoices.c \
	fs-core/fsc_clean_windowed.c fs-core/fsc_clean_btrfs.c fs-core/fsc_place.c fs-core/fsc_active.c
UNIT_TESTS += tests/unit/test_fsc_dev.c tests/unit/test_fsc_bg.c tests/unit/test_fsc_submit.c \
	tests/unit/test_fsc_clean.c
