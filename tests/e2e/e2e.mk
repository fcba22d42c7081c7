# tests/e2e/e2e.mk - end-to-end runs in a qemu VM (fragment for the top-level
# Makefile: -include tests/e2e/e2e.mk).
#   make e2e         full run: every check (btrfs, f2fs, fio, fio's t/zbd suite
#                    on our handler and on file_zbc, persistence, iSCSI, load,
#                    negative geometry, faults); ~1 h on 2 cores
#   make e2e-short   what .ci/run runs: boot, attach (installed layout), blkzone,
#                    zoned I/O, btrfs against scsi_debug, persistence, targetcli;
#                    4.5-8 min on a shared 2-core machine (+~10 min the first time)
# Knobs: E2E_HANDLER=auto|zonelab|zbc, E2E_ONLY=name,name, ZL_E2E_CACHE=dir
# (downloads, outside the repo; default /var/cache/zonelab-e2e).
#   make validate-kernel   kernel btrfs vs fs-core (issue 22): the kernel_wa
#                    grid in the VM, resumable, stored in tests/data/kernel-6.1
#                    (docs/VALIDATION.md); ~2-6 min a point
#   make validate-fscore   fs-core's side alone: replays every stored point and
#                    prints the table (no VM; seconds)
.PHONY: e2e e2e-short e2e-fetch validate-kernel validate-fscore validate-scenario
E2E_SHLIB_DEP := $(filter %handler_zonelab.so,$(SHLIBS))

e2e: $(E2E_SHLIB_DEP) $(ZONELAB)
	@O=$(O) tests/e2e/run.sh full

e2e-short: $(E2E_SHLIB_DEP)
	@O=$(O) tests/e2e/run.sh short

validate-kernel: $(E2E_SHLIB_DEP) $(ZONELAB)
	@O=$(O) tests/validate/kernel.sh

validate-fscore: $(ZONELAB)
	@python3 tests/validate/kwa.py table tests/data/kernel-6.1 --zonelab $(ZONELAB)
	@python3 tests/validate/kwa.py table tests/data/kernel-6.1-shapes --zonelab $(ZONELAB)
	@python3 tests/validate/kwa.py check tests/data/kernel-6.1-shapes tests/data/kernel-6.1-shapes/expect.json --zonelab $(ZONELAB)

# fs-core's side as a scenario: every stored point's workload replayed by
# `zonelab run` (report, tables, plots in $(O)/kernel-6.1/run)
validate-scenario: $(ZONELAB)
	@python3 tests/validate/kwa.py scenario tests/data/kernel-6.1 $(O)/kernel-6.1
	$(ZONELAB) run $(O)/kernel-6.1/kernel-6.1.ini -o $(O)/kernel-6.1/run

e2e-fetch:
	@tests/e2e/host-deps.sh && tests/e2e/fetch.sh
CHECK_SCRIPTS += tests/scripts/075-e2e-ksigs.sh
