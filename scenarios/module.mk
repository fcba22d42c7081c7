# scenarios/ — scenario files, sweeps and expectations (scn_*); the
# run/collect/compare/plot commands (their tables and plots: analysis/).
# Fragment of ./Makefile.
LIB_SRCS += scenarios/scn_load.c scenarios/scn_keys.c scenarios/scn_point.c scenarios/scn_sweep.c \
	scenarios/scn_plot.c scenarios/scn_table.c \
	scenarios/scn_expect.c
UNIT_TESTS += tests/unit/test_scn.c
CHECK_SCRIPTS += tests/scripts/090-scenarios.sh tests/scripts/095-slurm.sh
BENCH_SRCS += tests/bench/bench_run.c

# make scenarios: every scenario, each into $(O)/scenarios/<name>, with its
# expectations checked (exit 1 on the first file that fails).
# (not the rebuild sweeps: minutes each; make rebuild, make rebuild-12)
SCN_ALL := $(filter-out scenarios/rebuild.ini scenarios/rebuild-12.ini,\
	$(wildcard scenarios/*.ini scenarios/ci/*.ini))
.PHONY: scenarios
scenarios: all
	@for f in $(SCN_ALL); do \
		n=$$(basename $$f .ini); echo "== $$f"; \
		$(ZONELAB) run $$f -o $(O)/scenarios/$$n --check --junit $(O)/scenarios/$$n.junit.xml || exit 1; \
	done

# make rebuild: the whole rebuild sweep of docs/REBUILD.md (scenarios/rebuild.ini,
# 144 points, about 6 min on two shared cores, sampled) into $(O)/rebuild;
# make rebuild-12: the 12-drive table alone (about a minute).
.PHONY: rebuild rebuild-12
rebuild: all
	$(ZONELAB) run scenarios/rebuild.ini -o $(O)/rebuild
rebuild-12: all
	$(ZONELAB) run scenarios/rebuild-12.ini -o $(O)/rebuild-12
