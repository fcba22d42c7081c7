# fs-core/clean/ — the victim-selection (cleaning) policies: the registry
# (fsc_clean.c: name -> ops), one file per policy, and the machinery they
# share (fsc_clean_heap.c, fsc_clean_score.c).  Uses the fs-core core; the
# core reaches a policy only through its ops.  Fragment of ./Makefile (via
# fs-core/module.mk).
LIB_SRCS += fs-core/clean/fsc_clean.c fs-core/clean/fsc_clean_fifo.c \
	fs-core/clean/fsc_clean_greedy.c fs-core/clean/fsc_clean_cost_benefit.c \
	fs-core/clean/fsc_clean_cat.c fs-core/clean/fsc_clean_dchoices.c \
	fs-core/clean/fsc_clean_windowed.c fs-core/clean/fsc_clean_btrfs.c \
	fs-core/clean/fsc_clean_heap.c fs-core/clean/fsc_clean_score.c
UNIT_TESTS += tests/unit/test_fsc_clean.c
