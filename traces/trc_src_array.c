/*
 * trc_src_array.c — the in-memory source and its re-readable input
 * (trc_src_array.h).  Not a reader: the records are already decoded.
 */
#include <errno.h>
#include <stdlib.h>

#include "trc_src_array.h"

struct arr {
	struct trc_source src;
	const struct trc_rec *recs;
	size_t nr, i;
};

static int arr_next(struct trc_source *src, struct trc_rec *rec)
{
	struct arr *a = (struct arr *)src;

	if (a->i >= a->nr)
		return 0;
	*rec = a->recs[a->i++];
	return 1;
}

static void arr_destroy(struct trc_source *src)
{
	free(src);
}

static const struct trc_source_ops arr_ops = { arr_next, arr_destroy };

int trc_src_array_create(const struct trc_rec *recs, size_t nr, struct trc_source **out)
{
	struct arr *a = calloc(1, sizeof(*a));

	if (!a)
		return -ENOMEM;
	a->src.ops = &arr_ops;
	a->recs = recs;
	a->nr = nr;
	*out = &a->src;
	return 0;
}

static int arr_open(void *arg, struct trc_source **out, char *msg, size_t msg_len)
{
	const struct trc_array_input *ai = arg;

	(void)msg;
	(void)msg_len;
	return trc_src_array_create(ai->recs, ai->nr, out);
}

void trc_array_input_init(struct trc_array_input *ai, const struct trc_rec *recs, size_t nr,
			  const char *name)
{
	ai->in.open = arr_open;
	ai->in.arg = ai;
	ai->in.name = name;
	ai->recs = recs;
	ai->nr = nr;
}
