/*
 * trc_src_reader.h — a trace file as a re-readable input (struct trc_input,
 * trc_map.h): each pass opens a trace reader (trc_reader_open()) over the
 * file with the same format and filters, so the simulator can scan it and
 * replay it any number of times.  The adapter only: parsing is the
 * readers'.
 */
#ifndef TRC_SRC_READER_H
#define TRC_SRC_READER_H

#include "trc_map.h"

struct trc_file_input {
	struct trc_input in;
	const char *path;            /* borrowed */
	struct trc_reader_cfg cfg;   /* copied: format, event, filters */
};

/* trc_file_input_init() - @fi over @path read with @cfg (NULL = defaults). */
void trc_file_input_init(struct trc_file_input *fi, const char *path,
			 const struct trc_reader_cfg *cfg);

#endif /* TRC_SRC_READER_H */
