# fs-core/ — the HMZONED allocation core (fsc_*), with two sub-rooms: zblk/
# below it (the block interface to devices) and clean/ above it (the
# cleaning policies; the core reaches them only through their ops).
# fsc.c, the entry (create / mount / destroy), binds the two.  Fragment of
# ./Makefile.
include fs-core/zblk/module.mk
# The core, lowest module first (each calls only those before it).
LIB_SRCS += fs-core/fsc_dev.c fs-core/fsc_place.c fs-core/fsc_slab.c fs-core/fsc_chunk.c fs-core/fsc_r56.c \
	fs-core/fsc_bgtab.c fs-core/fsc_replace.c fs-core/fsc_reclaim.c fs-core/fsc_recover.c fs-core/fsc_active.c fs-core/fsc_bg.c \
	fs-core/fsc_alloc.c fs-core/fsc_extent.c fs-core/fsc_btree.c fs-core/fsc_resv.c fs-core/fsc_trans.c fs-core/fsc_reloc.c fs-core/fsc_file.c \
	fs-core/fsc_submit.c
UNIT_TESTS += tests/unit/test_fsc_dev.c tests/unit/test_fsc_bg.c tests/unit/test_fsc_submit.c \
	tests/unit/test_fsc_reclaim.c tests/unit/test_fsc_btree.c tests/unit/test_fsc_resv.c \
	tests/unit/test_fsc_replace.c tests/unit/test_fsc_extent.c
include fs-core/clean/module.mk
LIB_SRCS += fs-core/fsc.c
