# analysis/ — the metrics library (histograms, WA oracles: ana_*) that the
# simulator links, and the plotting / comparison side.  Fragment of ./Makefile.
LIB_SRCS += analysis/ana_hist.c analysis/ana_oracle.c
UNIT_TESTS += tests/unit/test_ana.c
LIB_SRCS += analysis/ana_results.c analysis/ana_plot.c analysis/ana_plot_gp.c analysis/ana_plot_xy.c \
	analysis/ana_plot_dist.c analysis/ana_plot_ts.c analysis/ana_plot_cmp.c
CHECK_SCRIPTS += tests/scripts/092-plots.sh
