/*
 * trc_iolog.c — fio's I/O log (--write_iolog / --read_iolog), version 2 and
 * version 3.  Line 1 is "fio version 2 iolog" or "fio version 3 iolog";
 * then file actions "[TS] FILE add|open|close" and I/O actions
 * "[TS] FILE read|write|trim|sync|datasync OFFSET LENGTH" (bytes), v3 with a
 * timestamp in µs since the log was opened.  v2 has no timestamps: its
 * "FILE wait N" lines set the time, taken as N ms since the job's start
 * (what fio 3.33 does, see docs/TRACES.md).  Each file named by an "add" gets
 * a device number (0, 1, ... in order of appearance); trim is a discard,
 * sync and datasync a flush.  Version 1 (no header) is refused, as fio does.
 */
#include "trc_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FILES 256

struct iolog {
	int version;
	uint64_t wait_ns;            /* v2: time of the last wait */
	uint32_t nr_files;
	struct {
		char *name;
		size_t len;
	} files[MAX_FILES];
};

bool trc_iolog_detect(const uint8_t *buf, size_t len)
{
	bool complete;
	size_t n = trc_first_line(buf, len, &complete);

	return n == 19 && (!memcmp(buf, "fio version 2 iolog", 19) || !memcmp(buf, "fio version 3 iolog", 19));
}

static int file_index(struct iolog *l, struct trc_field f)
{
	for (uint32_t i = 0; i < l->nr_files; i++)
		if (l->files[i].len == f.n && !memcmp(l->files[i].name, f.p, f.n))
			return (int)i;
	return -1;
}

static int iolog_next(struct trc_reader *r, struct trc_rec *rec)
{
	struct iolog *l = r->priv;
	const char *line;
	size_t len;
	struct trc_field f[7];
	uint64_t ts = 0, off, n;
	int ret, nf, i0, fi;
	bool datasync = false;

	for (;;) {
		ret = trc_next_line(r, &line, &len);
		if (ret <= 0)
			return ret;
		nf = trc_split_ws(line, len, f, 6);
		i0 = l->version == 3 ? 1 : 0;
		if (l->version == 3) {
			if (nf < 1 || !trc_parse_u64(f[0], &ts) || ts > UINT64_MAX / 1000)
				return trc_err_line(r, -EINVAL, "v3 line does not start with a time in microseconds");
			ts *= 1000;
		}
		if (nf < i0 + 2)
			return trc_err_line(r, -EINVAL, "expected 'FILE ACTION [OFFSET LENGTH]'");
		if (nf == i0 + 2) {          /* file action */
			struct trc_field a = f[i0 + 1];

			if (trc_field_is(a, "add")) {
				if (file_index(l, f[i0]) >= 0)
					continue;
				if (l->nr_files == MAX_FILES)
					return trc_err_line(r, -EBADMSG, "more than %d files", MAX_FILES);
				/* a copy of the bytes (a name may hold a NUL) */
				l->files[l->nr_files].name = malloc(f[i0].n ? f[i0].n : 1);
				if (!l->files[l->nr_files].name)
					return trc_err_line(r, -ENOMEM, "out of memory");
				memcpy(l->files[l->nr_files].name, f[i0].p, f[i0].n);
				l->files[l->nr_files].len = f[i0].n;
				l->nr_files++;
				continue;
			}
			if (trc_field_is(a, "open") || trc_field_is(a, "close")) {
				if (file_index(l, f[i0]) < 0)
					return trc_err_line(r, -EINVAL, "file '%.*s' was not added",
							    TRC_FLD(f[i0]));
				continue;
			}
			return trc_err_line(r, -EINVAL, "unknown file action '%.*s' (add, open, close)",
					    TRC_FLD(a));
		}
		if (l->version == 2 && nf == 3 && trc_field_is(f[1], "wait")) {
			if (!trc_parse_u64(f[2], &n) || n > UINT64_MAX / 1000000)
				return trc_err_line(r, -EINVAL, "wait '%.*s' is not a number", TRC_FLD(f[2]));
			l->wait_ns = n * 1000000;
			continue;
		}
		if (nf != i0 + 4)
			return trc_err_line(r, -EINVAL, "%s fields: I/O lines are '%sFILE OP OFFSET LENGTH'",
					    nf > i0 + 4 ? "too many" : "too few", i0 ? "TS " : "");
		fi = file_index(l, f[i0]);
		if (trc_field_is(f[i0 + 1], "read"))
			rec->op = TRC_OP_READ;
		else if (trc_field_is(f[i0 + 1], "write"))
			rec->op = TRC_OP_WRITE;
		else if (trc_field_is(f[i0 + 1], "trim"))
			rec->op = TRC_OP_DISCARD;
		else if (trc_field_is(f[i0 + 1], "sync"))
			rec->op = TRC_OP_FLUSH;
		else if (trc_field_is(f[i0 + 1], "datasync"))
			rec->op = TRC_OP_FLUSH, datasync = true;
		else
			return trc_err_line(r, -EINVAL, "unknown I/O action '%.*s' (read, write, trim, sync, datasync%s)",
					    TRC_FLD(f[i0 + 1]), l->version == 2 ? ", wait" : "");
		if (fi < 0)
			return trc_err_line(r, -EINVAL, "file '%.*s' was not added", TRC_FLD(f[i0]));
		if (!trc_parse_u64(f[i0 + 2], &off))
			return trc_err_line(r, -EINVAL, "offset '%.*s' is not an unsigned integer", TRC_FLD(f[i0 + 2]));
		if (!trc_parse_u64(f[i0 + 3], &n) || n > UINT64_MAX - off)
			return trc_err_line(r, -EINVAL, "length '%.*s' is not an unsigned integer (or offset + length overflows)",
					    TRC_FLD(f[i0 + 3]));
		rec->ts_ns = l->version == 3 ? ts : l->wait_ns;
		rec->offset_bytes = off;
		rec->len_bytes = rec->op == TRC_OP_FLUSH ? 0 : n;
		rec->latency_ns = 0;
		rec->dev = (uint32_t)fi;
		rec->pid = 0;
		rec->status = 0;
		rec->hint = 0;
		rec->has = TRC_HAS_DEV | (datasync ? TRC_HAS_DATASYNC : 0);
		return 1;
	}
}

static void iolog_close(struct trc_reader *r)
{
	struct iolog *l = r->priv;

	if (!l)
		return;
	for (uint32_t i = 0; i < l->nr_files; i++)
		free(l->files[i].name);
	free(l);
	r->priv = NULL;
}

int trc_iolog_open(struct trc_reader *r)
{
	struct iolog *l;
	const char *line;
	size_t len;
	int ret;

	ret = trc_next_line(r, &line, &len);
	if (ret < 0)
		return ret == -EINVAL ? trc_err_line(r, -EBADMSG, "no complete header line") : ret;
	if (ret == 0 || len != 19 || memcmp(line, "fio version ", 12) || memcmp(line + 13, " iolog", 6) ||
	    (line[12] != '2' && line[12] != '3'))
		return trc_err_line(r, -EBADMSG, "not a fio iolog: line 1 must be 'fio version 2 iolog' "
				    "or 'fio version 3 iolog' (version 1 is not supported)");
	l = calloc(1, sizeof(*l));
	if (!l)
		return -ENOMEM;
	l->version = line[12] - '0';
	r->priv = l;
	r->next = iolog_next;
	r->close = iolog_close;
	return 0;
}
