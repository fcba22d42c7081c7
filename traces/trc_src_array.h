/*
 * trc_src_array.h — a workload source over records in memory (borrowed
 * array), and a struct trc_input that opens one such source per pass: what
 * tests and the replay bench feed the simulator instead of a trace file.
 * Not a reader of any format.
 */
#ifndef TRC_SRC_ARRAY_H
#define TRC_SRC_ARRAY_H

#include <stddef.h>

#include "trc_map.h"

/**
 * trc_src_array_create() - a source that returns @recs[0..@nr) in order,
 * then 0.  @recs is borrowed (must outlive the source).  Returns 0 or
 * -ENOMEM.
 */
int trc_src_array_create(const struct trc_rec *recs, size_t nr, struct trc_source **out);

/* An input (trc_map.h) over a borrowed array: every open() reads it all. */
struct trc_array_input {
	struct trc_input in;
	const struct trc_rec *recs;
	size_t nr;
};

/* trc_array_input_init() - @ai over @recs[0..@nr), named @name (may be NULL). */
void trc_array_input_init(struct trc_array_input *ai, const struct trc_rec *recs, size_t nr,
			  const char *name);

#endif /* TRC_SRC_ARRAY_H */
