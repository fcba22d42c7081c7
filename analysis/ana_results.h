/*
 * ana_results.h — a result directory's points as data: tables (results.csv,
 * summary.csv with mean and 95% confidence interval over the seeds) and
 * the numbers plots are made of (ana_plot.h).  See docs/ANALYSIS.md.
 *
 * A point is the JSON file `zonelab run` writes (points/<id>.json): the
 * simulator's JSON plus a "point" object (scenario, id, index, label, seed,
 * exit_status, params).  This module reads only that: it does not know
 * scenario files (scenarios/) or how points are run (cli/cmd_run.c).  The
 * write-amplification oracles are ana.h's.
 */
#ifndef ZL_ANA_RESULTS_H
#define ZL_ANA_RESULTS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <glib.h>

#include "zl_json_read.h"

/* The errors of this module (a point file that is not one, a file not written). */
#define ANA_ERROR (ana_error_quark())
GQuark ana_error_quark(void);
enum { ANA_ERROR_SYNTAX = 1, ANA_ERROR_IO, ANA_ERROR_SPEC };

struct ana_point {
	char *id, *scenario;
	char *label;            /* the swept parameters without the seed ("-": none) */
	unsigned index;
	uint64_t seed;
	int exit_status;        /* of the `zonelab sim` child */
	GPtrArray *pkeys;       /* char *: parameter names (the options set, seed) */
	GPtrArray *pvals;       /* char *: their values */
	struct zl_json_doc *json; /* the whole file, flattened (zl_json_read.h) */
	char *csv_path;         /* the time series beside it, or NULL */
};

/* Points that differ only in the seed. */
struct ana_group {
	char *scenario, *label;
	GPtrArray *points;      /* struct ana_point * (borrowed) */
};

struct ana_set {
	GPtrArray *points;      /* struct ana_point *, in the order added */
	GPtrArray *param_keys;  /* char *: union over points, first seen first */
	GPtrArray *metrics;     /* char *: every leaf path outside "point." and histograms, first seen first */
	GPtrArray *groups;      /* struct ana_group *, first seen first */
};

struct ana_set *ana_set_create(void);
void ana_set_destroy(struct ana_set *set);
/* Add the point file @path; 0, or -1 with *@err ("PATH: byte N: why"). */
int ana_set_add_file(struct ana_set *set, const char *path, GError **err);
/* Add a point from its JSON text; @csv_path (may be NULL) is copied. */
int ana_set_add(struct ana_set *set, const char *text, size_t len, const char *csv_path,
		GError **err);
/* Group the points by (scenario, label): call after the last add. */
void ana_set_group(struct ana_set *set);

/* @path is inside a whole histogram ("reorder_latency_ns.hist.lo.3"): a
 * distribution (ana_dist), not a metric of the tables. */
static inline bool ana_path_is_hist(const char *path)
{
	return strstr(path, ".hist.") != NULL;
}

/* Mean and half-width of the 95% confidence interval (Student t) of @x. */
void ana_mean_ci95(const double *x, unsigned n, double *mean, double *ci95);
/* A numeric metric of @p, or NAN when absent or not a number. */
double ana_point_num(const struct ana_point *p, const char *path);

/* results.csv and summary.csv in @dir; 0 or -1 with *@err. */
int ana_write_results(const struct ana_set *set, const char *path, GError **err);
int ana_write_summary(const struct ana_set *set, const char *path, GError **err);

#endif
