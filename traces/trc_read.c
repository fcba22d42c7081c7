/*
 * trc_read.c — the reader interface: the format table (one row per format,
 * in detection order), opening by name or by sniffing the first bytes, the
 * filters every reader shares (device, op, time window), --lenient, and
 * records one at a time or in batches.  No format is parsed here (each
 * lives in its own trc_<format>.c), and no bytes are lexed here (the
 * buffered input, messages and field parsers are trc_lex.c): calls go
 * table -> readers -> lexing, never back up.
 */
#include "trc_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Binary formats first (magic numbers), then text by its first line. */
const struct trc_format trc_formats[] = {
	{ "native", "zonelab native binary trace (docs/TRACES.md)", trc_native_detect, trc_native_open },
	{ "ztrace", "zonelab command trace (docs/TRACE-FORMAT.md)", trc_ztrace_detect, trc_ztrace_open },
	{ "blktrace", "blktrace binary, NAME.blktrace.N per CPU (v7, v8; either byte order)",
	  trc_blktrace_detect, trc_blktrace_open },
	{ "iolog", "fio iolog version 2 or 3", trc_iolog_detect, trc_iolog_open },
	{ "blkparse", "blkparse default text output", trc_blkparse_detect, trc_blkparse_open },
	{ "msr", "MSR Cambridge CSV (SNIA IOTTA)", trc_msr_detect, trc_msr_open },
	{ "alibaba", "Alibaba Cloud block trace CSV (2020)", trc_alibaba_detect, trc_alibaba_open },
	{ "tencent", "Tencent CBS CSV (OSCA, 2018)", trc_tencent_detect, trc_tencent_open },
	{ "spc", "SPC ASCII (UMass Financial / WebSearch)", trc_spc_detect, trc_spc_open },
};
const size_t trc_nr_formats = sizeof(trc_formats) / sizeof(trc_formats[0]);

const struct trc_format *trc_format_find(const char *name)
{
	for (size_t i = 0; i < trc_nr_formats; i++)
		if (!strcmp(trc_formats[i].name, name))
			return &trc_formats[i];
	return NULL;
}

void trc_reader_cfg_init(struct trc_reader_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->event = TRC_EV_DISPATCH;
}

/* ---- the reader ----------------------------------------------------------- */

int trc_reader_open(const char *path, const struct trc_reader_cfg *cfg, struct trc_reader **out,
		    char *msg, size_t msg_len)
{
	struct trc_reader *r;
	const struct trc_format *fmt = NULL;
	long got;
	int ret;

	r = calloc(1, sizeof(*r));
	if (!r) {
		snprintf(msg, msg_len, "%s: out of memory", path);
		return -ENOMEM;
	}
	if (cfg)
		r->cfg = *cfg;
	else
		trc_reader_cfg_init(&r->cfg);
	snprintf(r->path, sizeof(r->path), "%s", path);
	if (r->cfg.format && strcmp(r->cfg.format, "auto")) {
		fmt = trc_format_find(r->cfg.format);
		if (!fmt) {
			char *p = msg;
			size_t left = msg_len;
			int n = snprintf(p, left, "unknown trace format '%s' (formats: auto", r->cfg.format);

			for (size_t i = 0; i < trc_nr_formats && n > 0 && (size_t)n < left; i++) {
				p += n;
				left -= (size_t)n;
				n = snprintf(p, left, ", %s", trc_formats[i].name);
			}
			if (n > 0 && (size_t)n < left)
				snprintf(p + n, left - (size_t)n, ")");
			free(r);
			return -EINVAL;
		}
	}
	ret = trc_in_open(&r->in, path);
	if (ret) {
		snprintf(msg, msg_len, "%s: cannot open: %s", path, strerror(-ret));
		free(r);
		return ret;
	}
	got = trc_in_fill(&r->in, TRC_DETECT_BYTES);
	if (got < 0) {
		snprintf(msg, msg_len, "%s: cannot read: %s", path, strerror((int)-got));
		ret = (int)got;
		goto out_close;
	}
	if (!fmt) {
		for (size_t i = 0; i < trc_nr_formats; i++)
			if (trc_formats[i].detect(r->in.buf, (size_t)got)) {
				fmt = &trc_formats[i];
				break;
			}
		if (!fmt) {
			char *p = msg;
			size_t left = msg_len;
			int n = snprintf(p, left, "%s: %s; formats tried:", path,
					 got ? "not a trace format zonelab reads" : "empty file");

			for (size_t i = 0; i < trc_nr_formats && n > 0 && (size_t)n < left; i++) {
				p += n;
				left -= (size_t)n;
				n = snprintf(p, left, "%s %s", i ? "," : "", trc_formats[i].name);
			}
			ret = -EPROTO;
			goto out_close;
		}
	}
	r->fmt = fmt;
	r->plain = !r->cfg.lenient && !r->cfg.dev_filter && !r->cfg.op_mask && !r->cfg.from_ns && !r->cfg.to_ns;
	ret = fmt->open(r);
	if (ret) {
		snprintf(msg, msg_len, "%s", r->msg[0] ? r->msg : strerror(-ret));
		if (r->close)
			r->close(r);
		goto out_close;
	}
	*out = r;
	return 0;

out_close:
	trc_in_close(&r->in);
	free(r);
	return ret;
}

static bool keep(struct trc_reader *r, const struct trc_rec *rec)
{
	const struct trc_reader_cfg *c = &r->cfg;

	if (!r->have_first) {
		r->have_first = true;
		r->first_ns = rec->ts_ns;
	}
	if (c->dev_filter && (rec->has & TRC_HAS_DEV) && rec->dev != c->dev)
		return false;
	if (c->op_mask && !(c->op_mask & (1u << rec->op)))
		return false;
	if (c->from_ns || c->to_ns) {
		uint64_t t = rec->ts_ns >= r->first_ns ? rec->ts_ns - r->first_ns : 0;

		if (t < c->from_ns || (c->to_ns && t >= c->to_ns))
			return false;
	}
	return true;
}

/* The error a batch left for the next call: returned once, then the end. */
static int take_pending(struct trc_reader *r)
{
	int ret = r->pending;

	r->pending = 0;
	r->done = true;
	return ret;
}

int trc_reader_next(struct trc_reader *r, struct trc_rec *rec)
{
	if (__builtin_expect(r->pending, 0))     /* behind a batch (trc_reader_batch()) */
		return take_pending(r);
	if (r->ahead != r->ahead_end && r->plain) {   /* decoded ahead, nothing to filter */
		*rec = *r->ahead++;
		return 1;
	}
	if (r->plain) {                  /* nothing to filter or skip: the format's own next() */
		int ret = r->done ? 0 : r->next(r, rec);

		if (ret != 1)
			r->done = true;
		return ret;
	}
	for (;;) {
		int ret;

		if (r->done)
			return 0;
		if (r->ahead != r->ahead_end) {
			*rec = *r->ahead++;
			ret = 1;
		} else {
			ret = r->next(r, rec);
		}
		if (ret == 1) {
			if (keep(r, rec))
				return 1;
			continue;
		}
		if (ret == 0) {
			r->done = true;
			return 0;
		}
		if (ret == -EINVAL && r->cfg.lenient) {
			r->nr_bad++;
			continue;
		}
		r->done = true;
		return ret;
	}
}

int trc_reader_batch(struct trc_reader *r, const struct trc_rec **recs)
{
	int k, ret;

	if (r->pending)                  /* found behind the last batch */
		return take_pending(r);
	if (r->plain && r->ahead != r->ahead_end) {   /* decoded ahead, nothing to filter */
		*recs = r->ahead;
		k = (int)(r->ahead_end - r->ahead);
		r->ahead = r->ahead_end;
		return k;
	}
	if (r->plain && r->batch) {      /* the format's own */
		if (r->done)
			return 0;
		ret = r->batch(r, recs);
		if (ret <= 0)
			r->done = true;
		return ret;
	}
	for (k = 0; k < TRC_BATCH; k++) {
		ret = trc_reader_next(r, &r->slots[k]);
		if (ret != 1)
			break;
	}
	if (k == 0)
		return ret;
	if (k < TRC_BATCH && ret < 0)
		r->pending = ret;
	*recs = r->slots;
	return k;
}

const char *trc_reader_msg(const struct trc_reader *r)
{
	return r->msg;
}

const char *trc_reader_format(const struct trc_reader *r)
{
	return r->fmt->name;
}

uint64_t trc_reader_nr_bad(const struct trc_reader *r)
{
	return r->nr_bad;
}

uint64_t trc_reader_pos(const struct trc_reader *r)
{
	return r->pos ? r->pos(r) : r->in.base + r->in.pos;
}

uint64_t trc_reader_size(const struct trc_reader *r)
{
	return r->size ? r->size(r) : r->in.size;
}

void trc_reader_close(struct trc_reader *r)
{
	if (!r)
		return;
	if (r->close)
		r->close(r);
	trc_in_close(&r->in);
	free(r);
}
