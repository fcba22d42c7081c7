# tests/e2e/e2e.mk - end-to-end runs in a qemu VM (fragment for the top-level
# Makefile: -include tests/e2e/e2e.mk).
#   make e2e         full run: every check (btrfs, f2fs, fio, fio's t/zbd suite
#                    on our handler and on file_zbc, persistence, iSCSI, load,
#                    negative geometry, faults); ~30-60 min on 2 cores
#   make e2e-short   what .ci/run runs: boot, attach (installed layout), blkzone,
#                    zoned I/O, btrfs against scsi_debug, persistence, targetcli;
#                    4.5-8 min on a shared 2-core machine (+~10 min the first
#                    time); always on Debian 12's 6.1 (CI's kernel)
#   make e2e KERNEL=6.12   the same on Debian 13's kernel (trixie's
#                    linux-image-amd64); KERNEL=7.3: the newest 7.3.x of
#                    trixie-backports; KERNEL=6.1 (default): Debian 12's.  The
#                    user space stays Debian 12's; the kernel is fetched by
#                    tests/e2e/fetch-kernel.sh with a private apt
#                    configuration into $(ZL_E2E_CACHE)/kernels/KERNEL/
#                    (docs/E2E.md, "Kernels")
#   make e2e-kernels the whole suite on each of E2E_KERNELS (6.1 6.12 7.3), one
#                    after the other, a summary line per kernel; ~1.5-3 h
#   make e2e-fetch [KERNEL=..]  only download and unpack
# Knobs: KERNEL, E2E_HANDLER=auto|zonelab|zbc, E2E_ONLY=name,name,
# ZL_E2E_CACHE=dir (downloads, outside the repo; default /var/cache/zonelab-e2e).
#   make validate-kernel [KERNEL=..]   kernel btrfs vs fs-core (issue 22): the
#                    kernel_wa grid in the VM, resumable, stored in
#                    tests/data/kernel-KERNEL (docs/VALIDATION.md); ~2-6 min a point
#   make validate-fscore   fs-core's side alone: replays every stored point of
#                    every kernel (tests/data/kernel-*; each with its kernel's
#                    --reclaim mode) and prints the tables (no VM; minutes)
.PHONY: e2e e2e-short e2e-kernels e2e-fetch validate-kernel validate-fscore validate-scenario
E2E_SHLIB_DEP := $(filter %handler_zonelab.so,$(SHLIBS))
KERNEL ?= 6.1
E2E_KERNELS ?= 6.1 6.12 7.3

e2e: $(E2E_SHLIB_DEP) $(ZONELAB)
	@O=$(O) E2E_KERNEL=$(KERNEL) tests/e2e/run.sh full

# CI's subset stays on one kernel (Debian 12's) whatever KERNEL says
e2e-short: $(E2E_SHLIB_DEP)
	@O=$(O) E2E_KERNEL=6.1 tests/e2e/run.sh short

# every kernel in turn, all of them run even when one fails; fails when any did
e2e-kernels: $(E2E_SHLIB_DEP) $(ZONELAB)
	@rc=0; for k in $(E2E_KERNELS); do \
		O=$(O) E2E_KERNEL=$$k tests/e2e/run.sh full > $(O)/e2e-kernel-$$k.log 2>&1; r=$$?; \
		[ $$r = 0 ] || rc=1; \
		echo "e2e-kernels: KERNEL=$$k rc=$$r: $$(grep -h '^e2e: ' $(O)/e2e-kernel-$$k.log | tail -1) ($(O)/e2e-kernel-$$k.log)"; \
	done; exit $$rc

validate-kernel: $(E2E_SHLIB_DEP) $(ZONELAB)
	@O=$(O) E2E_KERNEL=$(KERNEL) tests/validate/kernel.sh

# every other kernel's stored points (tests/data/kernel-6.12, its shapes
# kernel-6.12-shapes, ..., grids first): kwa.py replays each with the
# --reclaim mode of the kernel its header names, and checks those with an
# expect.json
KWA_ALL_DIRS := $(filter-out tests/data/kernel-6.1/ tests/data/kernel-6.1-shapes/,$(sort $(dir $(wildcard tests/data/kernel-*/kwa-*.out))))
KWA_OTHER_DIRS := $(filter-out %-shapes/,$(KWA_ALL_DIRS)) $(filter %-shapes/,$(KWA_ALL_DIRS))
validate-fscore: $(ZONELAB)
	@python3 tests/validate/kwa.py table tests/data/kernel-6.1 --zonelab $(ZONELAB)
	@python3 tests/validate/kwa.py table tests/data/kernel-6.1-shapes --zonelab $(ZONELAB)
	@python3 tests/validate/kwa.py check tests/data/kernel-6.1-shapes tests/data/kernel-6.1-shapes/expect.json --zonelab $(ZONELAB)
	@for d in $(KWA_OTHER_DIRS); do python3 tests/validate/kwa.py table $${d%/} --zonelab $(ZONELAB) || exit 1; \
		[ ! -f $${d}expect.json ] || python3 tests/validate/kwa.py check $${d%/} $${d}expect.json --zonelab $(ZONELAB) || exit 1; done

# fs-core's side as a scenario: every stored point's workload replayed by
# `zonelab run` (report, tables, plots in $(O)/kernel-6.1/run)
validate-scenario: $(ZONELAB)
	@python3 tests/validate/kwa.py scenario tests/data/kernel-6.1 $(O)/kernel-6.1
	$(ZONELAB) run $(O)/kernel-6.1/kernel-6.1.ini -o $(O)/kernel-6.1/run

e2e-fetch:
	@tests/e2e/host-deps.sh && E2E_KERNEL=$(KERNEL) tests/e2e/fetch.sh
CHECK_SCRIPTS += tests/scripts/075-e2e-ksigs.sh tests/scripts/076-e2e-timing-cmp.sh
