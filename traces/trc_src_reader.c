/*
 * trc_src_reader.c — the workload source over a trace reader, and the
 * input that opens one per pass (trc_src_reader.h).  A reader's error
 * (file, line or byte offset, why) becomes the source's message.  Not a
 * reader itself.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "trc_src_reader.h"

struct rsrc {
	struct trc_source src;
	struct trc_reader *r;
	const struct trc_rec *rec, *end;   /* the reader's batch not yet handed out */
};

static int rsrc_next(struct trc_source *src, struct trc_rec *rec)
{
	struct rsrc *s = (struct rsrc *)src;
	int ret;

	if (s->rec == s->end) {
		ret = trc_reader_batch(s->r, &s->rec);
		if (ret <= 0) {
			s->rec = s->end = NULL;
			if (ret < 0)
				snprintf(src->msg, sizeof(src->msg), "%s", trc_reader_msg(s->r));
			return ret;
		}
		s->end = s->rec + ret;
	}
	*rec = *s->rec++;
	return 1;
}

static void rsrc_destroy(struct trc_source *src)
{
	struct rsrc *s = (struct rsrc *)src;

	trc_reader_close(s->r);
	free(s);
}

static const struct trc_source_ops rsrc_ops = { rsrc_next, rsrc_destroy };

static int file_open(void *arg, struct trc_source **out, char *msg, size_t msg_len)
{
	const struct trc_file_input *fi = arg;
	struct rsrc *s = calloc(1, sizeof(*s));
	int ret;

	if (!s)
		return -ENOMEM;
	ret = trc_reader_open(fi->path, &fi->cfg, &s->r, msg, msg_len);
	if (ret) {
		free(s);
		return ret;
	}
	s->src.ops = &rsrc_ops;
	*out = &s->src;
	return 0;
}

void trc_file_input_init(struct trc_file_input *fi, const char *path,
			 const struct trc_reader_cfg *cfg)
{
	fi->in.open = file_open;
	fi->in.arg = fi;
	fi->in.name = path;
	fi->path = path;
	if (cfg)
		fi->cfg = *cfg;
	else
		trc_reader_cfg_init(&fi->cfg);
}
