# zonelab — one non-recursive Makefile.
#
# Targets:
#   make              build everything (library, zonelab CLI, tcmu handler, tests)
#   make check        build and run every test (unit, conformance, crash, fuzz smoke)
#   make check SAN=1  the same under AddressSanitizer + UndefinedBehaviorSanitizer
#   make bench        run the benchmarks (ratios against a baseline in the same run)
#   make fuzz         long libFuzzer runs (clang); FUZZ_TIME=seconds per target (default 300)
#   make e2e          end-to-end checks in a qemu VM (Debian kernel, tcmu-runner, btrfs,
#                     f2fs, fio); make e2e-short is the CI subset (tests/e2e/e2e.mk)
#   make demo         the main job: run scenarios/default.ini (cleaning policies x
#                     utilizations x 3 seeds, about a minute) and print where its
#                     report and plots are (DEMO_OUT=dir, default build/demo)
#   make demo-disk    create an emulated zoned disk, drive it, print its zone report
#                     and statistics (DEMO_IMG=path, default /tmp)
#   make scenarios    run every scenarios/*.ini and scenarios/ci/*.ini (--check;
#                     not the rebuild sweeps)
#   make rebuild      the rebuild sweep of docs/REBUILD.md (scenarios/rebuild.ini,
#                     minutes; make rebuild-12: the 12-drive table)
#   make deps         install missing Debian packages (root) or print the apt-get line
#   make install      zonelab, handler_zonelab.so (into tcmu-runner's handler directory),
#                     zonelab(1), bash completion, docs; PREFIX=/usr/local, DESTDIR=
#                     (make uninstall removes them; dist/module.mk)
#   make docs         rewrite the generated picture of the rooms in docs/ARCHITECTURE.md
#                     (tests/layering.py; make check fails while it is stale)
#   make clean        remove build outputs (build/, build-san/ and O)
#   make help         this text
#
# Knobs: SAN=1 (sanitizers, separate build dir), V=1 (verbose), O=dir (build dir),
#        CC=clang, OPT=-O2, LTO=0 (no link-time optimization of the plugin).
#
# Each directory lists its sources in a module.mk fragment included below; the
# fragments only append to variables, they never recurse into make.

.DEFAULT_GOAL := all
SHELL := /bin/bash

SAN ?= 0
V ?= 0
OPT ?= -O2
ifeq ($(SAN),1)
O ?= build-san
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
else
O ?= build
SANFLAGS :=
endif

ifeq ($(V),1)
Q :=
else
Q := @
endif

# Install missing Debian packages first (as root), or stop with the apt-get line.
ifeq ($(filter clean help,$(MAKECMDGOALS)),)
DEPS_RC := $(shell tests/deps.sh --install 1>&2; echo $$?)
ifneq ($(DEPS_RC),0)
$(error missing packages (see the apt-get line above))
endif
endif

PKGS := glib-2.0 cmocka
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS := $(shell pkg-config --libs $(PKGS) 2>/dev/null)

CFLAGS ?= $(OPT) -g
# -fPIC for the plugin; -fno-semantic-interposition lets the compiler inline
# a library function into its callers in the same file, as it would without
# -fPIC (nothing interposes the library's symbols: the plugin exports only
# handler_init).
CFLAGS += -std=gnu11 -Wall -Wextra -Wno-unused-parameter -Wshadow -Wstrict-prototypes \
	-fPIC -fno-semantic-interposition -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 $(SANFLAGS) \
	-Icommon -Iemulator -Ifs-core -Ifs-core/zblk -Ifs-core/clean -Ianalysis -Itraces -Isim -Iscenarios -Icli -Itests $(PKG_CFLAGS)
LDFLAGS += $(SANFLAGS)

# Link-time optimization of the plugin (GCC, not in sanitizer builds): the
# objects carry GCC's IR beside their machine code (fat objects), so the
# handler_zonelab.so link inlines across files on the per-command path
# (handler -> zscsi -> zdisk -> zdev) while every other link uses the plain
# code.  Measured: docs/TCMU.md.
LTO ?= 1
ifeq ($(SAN)$(LTO),01)
ifneq ($(findstring Free Software Foundation,$(shell $(CC) --version 2>/dev/null)),)
LTO_FLAGS := -flto=auto -ffat-lto-objects
endif
endif
LDLIBS += $(PKG_LIBS) -lpthread -lm -ldl

# Filled by the fragments.
LIB_SRCS :=          # core library sources (libzonelab.a)
CLI_SRCS :=          # the zonelab command
UNIT_TESTS :=        # tests/unit/test_<module>.c, one program each
TEST_HELPERS :=      # sources linked into every test program
BENCH_SRCS :=        # benchmark programs (tests/bench/*.c)
SHLIBS :=            # shared objects to build (handler_zonelab.so)
EXTRA_PROGS :=       # other programs built by `make` but not run as unit tests
CHECK_SCRIPTS :=     # extra test scripts run by make check (exit 77 = skip)

# In the order of the rooms (a room uses only the rooms before it: docs/ARCHITECTURE.md).
# Every fragment must exist: a missing one is an error, not a silently smaller build.
include common/module.mk
include emulator/module.mk
include fs-core/module.mk
include analysis/module.mk
include traces/module.mk
include sim/module.mk
include scenarios/module.mk
include cli/module.mk
include tests/module.mk

LIB := $(O)/libzonelab.a
LIB_OBJS := $(LIB_SRCS:%.c=$(O)/%.o)
CLI_OBJS := $(CLI_SRCS:%.c=$(O)/%.o)
ZONELAB := $(O)/zonelab
UNIT_BINS := $(UNIT_TESTS:%.c=$(O)/%)
TEST_HELPER_OBJS := $(TEST_HELPERS:%.c=$(O)/%.o)
BENCH_BINS := $(BENCH_SRCS:%.c=$(O)/%)
# (the library and the handler object only: see LTO above)
$(LIB_OBJS) $(O)/emulator/tcmu/handler_zonelab.o: CFLAGS += $(LTO_FLAGS)
ALL_OBJS := $(LIB_OBJS) $(CLI_OBJS) $(TEST_HELPER_OBJS) $(UNIT_TESTS:%.c=$(O)/%.o) $(BENCH_SRCS:%.c=$(O)/%.o)

# The VM end-to-end fragment uses the program paths above.
include tests/e2e/e2e.mk
# make install / uninstall, the man page and the bash completion.
include dist/module.mk

.PHONY: all check bench fuzz fuzz-build demo demo-disk deps docs clean help
all: $(LIB) $(ZONELAB) $(UNIT_BINS) $(BENCH_BINS) $(SHLIBS) $(EXTRA_PROGS)

$(O)/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CFLAGS) -MMD -MP -c -o $@ $<

$(LIB): $(LIB_OBJS)
	@$(if $(Q),echo "  AR      $@")
	$(Q)rm -f $@ && $(AR) rcs $@ $^

$(ZONELAB): $(CLI_OBJS) $(LIB)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(LDFLAGS) -o $@ $(CLI_OBJS) $(LIB) $(LDLIBS)

$(O)/tests/unit/%: $(O)/tests/unit/%.o $(TEST_HELPER_OBJS) $(LIB)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(LDFLAGS) -o $@ $< $(TEST_HELPER_OBJS) $(LIB) $(LDLIBS)

$(O)/tests/bench/%: $(O)/tests/bench/%.o $(TEST_HELPER_OBJS) $(LIB)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(LDFLAGS) -o $@ $< $(TEST_HELPER_OBJS) $(LIB) $(LDLIBS)

deps:
	@tests/deps.sh --install

docs: all
	python3 tests/layering.py --objdir $(O) doc docs/ARCHITECTURE.md

check: all fuzz-build
	@FUZZ_O="$(FUZZ_O)" tests/run-checks.sh "$(O)" $(UNIT_BINS) -- $(CHECK_SCRIPTS)

DEMO_IMG ?= /tmp/zonelab-demo.img
DEMO_OUT ?= $(O)/demo
demo: all
	$(ZONELAB) run scenarios/default.ini -o $(DEMO_OUT)

demo-disk: all
	$(ZONELAB) disk demo $(DEMO_IMG)

# Fuzzing: every tests/fuzz/fuzz_*.c is a libFuzzer target linked with the
# library built by clang with -fsanitize=fuzzer-no-link,address,undefined in
# $(FUZZ_O) ($(O)/fuzz/).  `make check` builds them and runs each briefly
# (tests/scripts/050-fuzz-smoke.sh); `make fuzz` runs each for FUZZ_TIME s.
# FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION (the libFuzzer convention) makes
# the native trace reader skip its block checksums there, so that mutated
# blocks reach the decoder.
# The fuzz targets bring their own sanitizers, so SAN does not change them:
# a SAN=1 run in the default directories uses the plain build's.
ifeq ($(SAN)$(O),1build-san)
FUZZ_O := build/fuzz
else
FUZZ_O := $(O)/fuzz
endif
FUZZ_TIME ?= 300
FUZZ_SRCS := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BINS := $(patsubst tests/fuzz/%.c,$(FUZZ_O)/%,$(FUZZ_SRCS))
FUZZ_CFLAGS := $(filter-out $(SANFLAGS),$(CFLAGS)) -O1 -fsanitize=fuzzer-no-link,address,undefined \
	-fno-sanitize-recover=undefined -fno-omit-frame-pointer -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
FUZZ_LIB_OBJS := $(LIB_SRCS:%.c=$(FUZZ_O)/%.o)
CHECK_SCRIPTS += tests/scripts/050-fuzz-smoke.sh

$(FUZZ_O)/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CLANG   $<")
	$(Q)clang $(FUZZ_CFLAGS) -MMD -MP -c -o $@ $<

$(FUZZ_O)/fuzz_%: $(FUZZ_O)/tests/fuzz/fuzz_%.o $(FUZZ_LIB_OBJS)
	@$(if $(Q),echo "  FUZZLD  $@")
	$(Q)clang -fsanitize=fuzzer,address,undefined -o $@ $^ $(LDLIBS)

fuzz-build: $(FUZZ_BINS)

fuzz: fuzz-build
	@for f in $(FUZZ_BINS); do \
		n=$$(basename $$f); mkdir -p $(FUZZ_O)/corpus-$$n; \
		seeds=; [ -d tests/fuzz/corpus/$$n ] && seeds=tests/fuzz/corpus/$$n; \
		echo "== $$n for $(FUZZ_TIME) s"; \
		$$f -max_total_time=$(FUZZ_TIME) -print_final_stats=1 $(FUZZ_O)/corpus-$$n $$seeds || exit 1; \
	done

-include $(FUZZ_LIB_OBJS:.o=.d) $(FUZZ_SRCS:%.c=$(FUZZ_O)/%.d)

bench: all
	@tests/run-bench.sh "$(O)" $(BENCH_BINS)

clean:
	rm -rf build build-san $(O)

help:
	@sed -n '2,/^$$/p' Makefile | sed 's/^# \{0,1\}//'

# Keep objects of pattern-built programs (no "rm *.o" after each build).
.SECONDARY:

-include $(ALL_OBJS:.o=.d)
