/*
 * cmd_trace.c — `zonelab trace`: workload descriptors of block traces
 * (stat), records as text (cat), format conversion (convert) and replay of
 * a device-level trace onto an emulated disk or a zoned block device
 * (replay).  The readers, writers and descriptors are in traces/; this file
 * parses options, drives a reader and prints.  Exit status: 0, 1 (replay
 * --verify found a divergence), 2 (bad usage or malformed input).
 */
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trc.h"
#include "zl_json.h"

static void trace_usage(FILE *f)
{
	fprintf(f,
		"usage: zonelab trace <command> ...\n"
		"\n"
		"commands:\n"
		"  stat FILE... [--json]      workload descriptors of each trace\n"
		"  cat FILE                   records as text, one a line\n"
		"  convert IN OUT [--to native|iolog3|blkparse]\n"
		"                             write the records in another format (default native)\n"
		"  replay FILE --to IMAGE|/dev/sdX [--verify]\n"
		"                             replay a device-level trace (zonelab command trace,\n"
		"                             blktrace/blkparse) onto a zonelab image or a zoned\n"
		"                             block device; --verify compares each command's status\n"
		"\n"
		"reading options (every command):\n"
		"  --format F       auto (default: from the first bytes), native, ztrace, blktrace,\n"
		"                   iolog, blkparse, msr, alibaba, tencent, spc\n"
		"  --event E        blktrace/blkparse: the event that is the request: queue,\n"
		"                   dispatch (default) or complete\n"
		"  --lenient        skip malformed records, count them, go on\n"
		"  --from S --to S  keep records in [S, S') seconds after the first record\n"
		"                   (convert: --to with a format name is the output format)\n"
		"  --op LIST        keep these ops (comma-separated): read write flush discard\n"
		"                   zone-reset zone-finish zone-open zone-close zone-append other\n"
		"  --device N       keep device N (MSR disk, Alibaba device, Tencent volume, SPC ASU,\n"
		"                   iolog file index, blktrace MAJ,MIN)\n"
		"\n"
		"exit status: 0 ok, 1 replay --verify diverged, 2 usage or malformed input\n");
}

struct topts {
	struct trc_reader_cfg rc;
	bool json, verify;
	const char *out_fmt;         /* convert */
	const char *target;          /* replay */
	const char *to_arg;          /* the raw --to value */
	const char *files[64];
	int nr_files;
};

static int parse_secs(const char *what, const char *s, uint64_t *ns)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v >= 0) || v > 1.8e10) {
		fprintf(stderr, "zonelab: %s: '%s' is not a time in seconds (0 or more)\n", what, s);
		return -1;
	}
	*ns = (uint64_t)llround(v * 1e9);
	return 0;
}

static int parse_ops(const char *s, uint32_t *mask)
{
	char buf[256], *save = NULL, *tok;

	snprintf(buf, sizeof(buf), "%s", s);
	*mask = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int op;

		for (op = 0; op < TRC_NR_OPS; op++)
			if (!strcmp(tok, trc_op_name((enum trc_op)op)))
				break;
		if (op == TRC_NR_OPS) {
			fprintf(stderr, "zonelab: --op: unknown op '%s' (read write flush discard zone-reset "
				"zone-finish zone-open zone-close zone-append other)\n", tok);
			return -1;
		}
		*mask |= 1u << op;
	}
	if (!*mask) {
		fprintf(stderr, "zonelab: --op: empty list\n");
		return -1;
	}
	return 0;
}

static int parse_dev(const char *s, uint32_t *dev)
{
	const char *c = strchr(s, ',');
	uint64_t a, b;

	if (!c)
		return cli_parse_u64_max("--device", s, UINT32_MAX, &a) ? -1 : (*dev = (uint32_t)a, 0);
	{
		char ma[32];

		snprintf(ma, sizeof(ma), "%.*s", (int)(c - s), s);
		if (cli_parse_u64_max("--device major", ma, 0xfff, &a) ||
		    cli_parse_u64_max("--device minor", c + 1, 0xfffff, &b))
			return -1;
	}
	*dev = (uint32_t)(a << 20 | b);
	return 0;
}

static bool is_out_fmt(const char *s)
{
	return !strcmp(s, "native") || !strcmp(s, "iolog3") || !strcmp(s, "blkparse");
}

enum {
	T_JSON = 256, T_LENIENT, T_VERIFY, T_FORMAT, T_EVENT, T_FROM, T_TO, T_OP, T_DEVICE,
};

static const struct option trace_options[] = {
	{ "json", 0, 0, T_JSON }, { "lenient", 0, 0, T_LENIENT }, { "verify", 0, 0, T_VERIFY },
	{ "format", 1, 0, T_FORMAT }, { "event", 1, 0, T_EVENT }, { "from", 1, 0, T_FROM },
	{ "to", 1, 0, T_TO }, { "op", 1, 0, T_OP }, { "device", 1, 0, T_DEVICE },
	{ "help", 0, 0, 'h' }, { 0, 0, 0, 0 },
};

/* One option getopt returned into @o; -1 after a message. */
static int trace_opt(const char *cmd, int opt, const char *v, struct topts *o)
{
	switch (opt) {
	case T_JSON: o->json = true; break;
	case T_LENIENT: o->rc.lenient = true; break;
	case T_VERIFY: o->verify = true; break;
	case T_FORMAT:
		if (strcmp(v, "auto") && !trc_format_find(v)) {
			fprintf(stderr, "zonelab: --format: unknown format '%s' (auto native ztrace "
				"blktrace iolog blkparse msr alibaba tencent spc)\n", v);
			return -1;
		}
		o->rc.format = v;
		break;
	case T_EVENT:
		if (!strcmp(v, "dispatch") || !strcmp(v, "D"))
			o->rc.event = TRC_EV_DISPATCH;
		else if (!strcmp(v, "queue") || !strcmp(v, "Q"))
			o->rc.event = TRC_EV_QUEUE;
		else if (!strcmp(v, "complete") || !strcmp(v, "C"))
			o->rc.event = TRC_EV_COMPLETE;
		else {
			fprintf(stderr, "zonelab: --event: '%s' is not queue, dispatch or complete\n", v);
			return -1;
		}
		break;
	case T_FROM:
		if (parse_secs("--from", v, &o->rc.from_ns))
			return -1;
		break;
	case T_TO:
		o->to_arg = v;
		if (!strcmp(cmd, "replay")) {
			o->target = v;
		} else if (!strcmp(cmd, "convert") && is_out_fmt(v)) {
			o->out_fmt = v;
		} else {
			if (parse_secs("--to", v, &o->rc.to_ns))
				return -1;
			if (!o->rc.to_ns) {
				fprintf(stderr, "zonelab: --to: the window end must be above 0\n");
				return -1;
			}
		}
		break;
	case T_OP:
		if (parse_ops(v, &o->rc.op_mask))
			return -1;
		break;
	case T_DEVICE:
		if (parse_dev(v, &o->rc.dev))
			return -1;
		o->rc.dev_filter = true;
		break;
	}
	return 0;
}

/* `trace CMD` with @argv[0] = CMD: options anywhere, the rest are files.
 * 0, 1 when -h/--help printed the usage, -1 after a message. */
static int parse_opts(const char *cmd, int argc, char **argv, struct topts *o)
{
	char name[32];
	struct cli_opts co = { .cmd = name, .help = "trace", .shortopts = "h",
			       .longopts = trace_options };
	int opt;

	snprintf(name, sizeof(name), "trace %s", cmd);
	memset(o, 0, sizeof(*o));
	trc_reader_cfg_init(&o->rc);
	cli_opt_start();
	while ((opt = cli_getopt(argc, argv, &co)) != -1) {
		if (opt == '?')
			return -1;
		if (opt == 'h') {
			trace_usage(stdout);
			return 1;
		}
		if (trace_opt(cmd, opt, optarg, o))
			return -1;
	}
	for (int i = optind; i < argc; i++) {
		if (o->nr_files == (int)(sizeof(o->files) / sizeof(o->files[0]))) {
			fprintf(stderr, "zonelab: trace %s: too many files\n", cmd);
			return -1;
		}
		o->files[o->nr_files++] = argv[i];
	}
	if (o->rc.to_ns && o->rc.to_ns <= o->rc.from_ns) {
		fprintf(stderr, "zonelab: --to must be after --from\n");
		return -1;
	}
	return 0;
}

static int open_reader(const struct topts *o, const char *path, struct trc_reader **r)
{
	char msg[1024];
	int ret = trc_reader_open(path, &o->rc, r, msg, sizeof(msg));

	if (ret)
		fprintf(stderr, "zonelab: %s\n", msg);
	return ret;
}

/* Progress on stderr when it is a terminal: every 2^20 records. */
/* After records @prev to @n: a line each time a multiple of 2^20 is passed. */
static void progress(const struct trc_reader *r, const char *path, uint64_t prev, uint64_t n, bool tty)
{
	uint64_t size;

	if (!tty || prev >> 20 == n >> 20)
		return;
	size = trc_reader_size(r);
	if (size)
		fprintf(stderr, "\r%s: %5.1f%% (%" PRIu64 " records)", path,
			100.0 * (double)trc_reader_pos(r) / (double)size, n);
	else
		fprintf(stderr, "\r%s: %" PRIu64 " records", path, n);
}

static void progress_end(uint64_t n, bool tty)
{
	if (tty && n >= (1u << 20))
		fprintf(stderr, "\r\033[K");
}

/* Reader error / lenient count at the end; 0 or 2. */
static int finish_read(struct trc_reader *r, int ret)
{
	if (ret < 0) {
		fprintf(stderr, "zonelab: %s\n", trc_reader_msg(r));
		return 2;
	}
	if (trc_reader_nr_bad(r))
		fprintf(stderr, "zonelab: %s: %" PRIu64 " malformed record(s) skipped (--lenient)\n",
			trc_reader_format(r), trc_reader_nr_bad(r));
	return 0;
}

static void fmt_bytes(char *buf, size_t len, uint64_t b)
{
	static const char *const u[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	double v = (double)b;
	int i = 0;

	while (v >= 1024 && i < 6) {
		v /= 1024;
		i++;
	}
	snprintf(buf, len, i ? "%.2f %s" : "%.0f %s", v, u[i]);
}

static const char *const size_names[TRC_NR_SIZE_BUCKETS] = {
	"<=4K", "<=8K", "<=16K", "<=32K", "<=64K", "<=128K", "<=256K", "<=512K", "<=1M", ">1M",
};

static void stat_print(const char *path, const char *fmt, uint64_t nr_bad, const struct trc_stat_result *s)
{
	char b1[32], b2[32], b3[32];
	uint64_t rw = s->nr_ops[TRC_OP_READ] + s->nr_ops[TRC_OP_WRITE];

	printf("%s (%s)\n", path, fmt);
	printf("  records        %" PRIu64 "%s\n", s->nr_recs, nr_bad ? "" : "");
	if (nr_bad)
		printf("  skipped        %" PRIu64 " malformed (--lenient)\n", nr_bad);
	printf("  duration       %.6f s\n", (double)s->duration_ns / 1e9);
	printf("  devices        %" PRIu64 "\n", s->nr_devs);
	printf("  %-14s %12s %14s\n", "op", "requests", "bytes");
	for (int op = 0; op < TRC_NR_OPS; op++) {
		if (!s->nr_ops[op])
			continue;
		fmt_bytes(b1, sizeof(b1), s->bytes_ops[op]);
		printf("  %-14s %12" PRIu64 " %14s\n", trc_op_name((enum trc_op)op), s->nr_ops[op], b1);
	}
	if (rw) {
		uint64_t rb = s->bytes_ops[TRC_OP_READ], wb = s->bytes_ops[TRC_OP_WRITE];

		printf("  read share     %.4f of requests, %.4f of bytes\n",
		       (double)s->nr_ops[TRC_OP_READ] / (double)rw, rb + wb ? (double)rb / (double)(rb + wb) : 0);
	}
	fmt_bytes(b1, sizeof(b1), s->fp_touched_bytes);
	fmt_bytes(b2, sizeof(b2), s->fp_written_bytes);
	fmt_bytes(b3, sizeof(b3), s->fp_read_bytes);
	printf("  footprint      %s touched, %s written, %s read (4 KiB blocks)\n", b1, b2, b3);
	if (s->fp_written_bytes)
		printf("  overwrite      %.3f (bytes written / write footprint)\n",
		       (double)s->bytes_ops[TRC_OP_WRITE] / (double)s->fp_written_bytes);
	printf("  sequential     %.4f (%" PRIu64 " of %" PRIu64 " reads/writes start where the device's last ended)\n",
	       s->nr_seq_candidates ? (double)s->nr_seq / (double)s->nr_seq_candidates : 0, s->nr_seq,
	       s->nr_seq_candidates);
	printf("  write skew     hottest 1%%: %.4f  10%%: %.4f  20%%: %.4f of block writes\n", s->skew[0],
	       s->skew[1], s->skew[2]);
	printf("  sizes         ");
	for (int k = 0; k < TRC_NR_SIZE_BUCKETS; k++)
		printf(" %s:%" PRIu64, size_names[k], s->size_hist[k]);
	printf("\n  inter-arrival  mean %.0f ns;", s->iat_mean_ns);
	for (int p = 0; p < TRC_NR_PCT; p++)
		printf(" p%g %" PRIu64, trc_stat_pcts[p], s->iat_pct_ns[p]);
	printf(" ns\n");
}

static void stat_json(const char *path, const char *fmt, uint64_t nr_bad, const struct trc_stat_result *s)
{
	uint64_t rw = s->nr_ops[TRC_OP_READ] + s->nr_ops[TRC_OP_WRITE];
	uint64_t rb = s->bytes_ops[TRC_OP_READ], wb = s->bytes_ops[TRC_OP_WRITE];

	printf("{\"file\":");
	zl_json_fprint_str(stdout, path);
	printf(",\"format\":\"%s\",\"records\":%" PRIu64 ",\"skipped\":%" PRIu64
	       ",\"duration_ns\":%" PRIu64 ",\"devices\":%" PRIu64 ",\"ops\":{", fmt, s->nr_recs, nr_bad,
	       s->duration_ns, s->nr_devs);
	for (int op = 0, first = 1; op < TRC_NR_OPS; op++) {
		if (!s->nr_ops[op])
			continue;
		printf("%s\"%s\":{\"requests\":%" PRIu64 ",\"bytes\":%" PRIu64 "}", first ? "" : ",",
		       trc_op_name((enum trc_op)op), s->nr_ops[op], s->bytes_ops[op]);
		first = 0;
	}
	printf("},\"read_share_requests\":%.6f,\"read_share_bytes\":%.6f", rw ? (double)s->nr_ops[TRC_OP_READ] / (double)rw : 0,
	       rb + wb ? (double)rb / (double)(rb + wb) : 0);
	printf(",\"footprint_bytes\":{\"touched\":%" PRIu64 ",\"written\":%" PRIu64 ",\"read\":%" PRIu64 "}",
	       s->fp_touched_bytes, s->fp_written_bytes, s->fp_read_bytes);
	printf(",\"sequential_fraction\":%.6f,\"sequential\":%" PRIu64 ",\"sequential_candidates\":%" PRIu64,
	       s->nr_seq_candidates ? (double)s->nr_seq / (double)s->nr_seq_candidates : 0, s->nr_seq,
	       s->nr_seq_candidates);
	printf(",\"write_skew\":{\"hot1\":%.6f,\"hot10\":%.6f,\"hot20\":%.6f}", s->skew[0], s->skew[1], s->skew[2]);
	printf(",\"size_hist\":{");
	for (int k = 0; k < TRC_NR_SIZE_BUCKETS; k++)
		printf("%s\"%s\":%" PRIu64, k ? "," : "", size_names[k], s->size_hist[k]);
	printf("},\"interarrival_ns\":{\"mean\":%.1f", s->iat_mean_ns);
	for (int p = 0; p < TRC_NR_PCT; p++)
		printf(",\"p%g\":%" PRIu64, trc_stat_pcts[p], s->iat_pct_ns[p]);
	printf("}}");
}

static int do_stat(struct topts *o)
{
	bool tty = isatty(STDERR_FILENO);
	int rc = 0;

	if (!o->nr_files) {
		fprintf(stderr, "zonelab: trace stat: no FILE given\n");
		return 2;
	}
	if (o->json)
		printf("{\"traces\":[");
	for (int f = 0; f < o->nr_files; f++) {
		struct trc_stat_result res;
		struct trc_reader *r;
		struct trc_stat *st;
		const struct trc_rec *recs;
		uint64_t n = 0;
		int ret;

		if (open_reader(o, o->files[f], &r)) {
			rc = 2;
			break;
		}
		if (trc_stat_create(&st)) {
			fprintf(stderr, "zonelab: out of memory\n");
			trc_reader_close(r);
			rc = 2;
			break;
		}
		while ((ret = trc_reader_batch(r, &recs)) > 0) {
			int k = ret, i;

			for (i = 0; i < k && !trc_stat_add(st, &recs[i]); i++)
				;
			if (i < k) {
				fprintf(stderr, "zonelab: %s: out of memory for the footprint\n", o->files[f]);
				ret = 0;
				rc = 2;
				break;
			}
			progress(r, o->files[f], n, n + (uint64_t)k, tty);
			n += (uint64_t)k;
		}
		progress_end(n, tty);
		if (finish_read(r, ret))
			rc = 2;
		if (!rc) {
			trc_stat_result(st, &res);
			if (o->json) {
				if (f)
					printf(",");
				stat_json(o->files[f], trc_reader_format(r), trc_reader_nr_bad(r), &res);
			} else {
				stat_print(o->files[f], trc_reader_format(r), trc_reader_nr_bad(r), &res);
			}
		}
		trc_stat_destroy(st);
		trc_reader_close(r);
		if (rc)
			break;
	}
	if (o->json)
		printf("]}\n");
	return rc;
}

static int do_copy(struct topts *o, const char *in, const char *out, enum trc_out_fmt fmt)
{
	bool tty = isatty(STDERR_FILENO) && strcmp(out, "-");
	struct trc_writer *w;
	struct trc_reader *r;
	struct trc_rec rec;
	char msg[1024];
	uint64_t n = 0;
	int ret, rc;

	if (open_reader(o, in, &r))
		return 2;
	if (trc_writer_open(out, fmt, trc_reader_format(r), &w, msg, sizeof(msg))) {
		fprintf(stderr, "zonelab: %s\n", msg);
		trc_reader_close(r);
		return 2;
	}
	while ((ret = trc_reader_next(r, &rec)) == 1) {
		if (trc_writer_put(w, &rec, msg, sizeof(msg))) {
			fprintf(stderr, "zonelab: %s\n", msg);
			ret = 0;
			break;
		}
		progress(r, in, n, n + 1, tty);
		n++;
	}
	progress_end(n, tty);
	rc = finish_read(r, ret);
	if (trc_writer_nr_skipped(w))
		fprintf(stderr, "zonelab: %s: %" PRIu64 " record(s) the output format cannot express were not written\n",
			out, trc_writer_nr_skipped(w));
	if (trc_writer_close(w, msg, sizeof(msg))) {
		fprintf(stderr, "zonelab: %s\n", msg);
		rc = 2;
	}
	trc_reader_close(r);
	return rc;
}

static int do_replay(struct topts *o)
{
	struct trc_replay_result res;
	char msg[1024];
	int ret;

	ret = trc_replay(o->files[0], &o->rc, o->target, o->verify, &res, msg, sizeof(msg));
	if (ret) {
		fprintf(stderr, "zonelab: %s\n", msg[0] ? msg : strerror(-ret));
		return 2;
	}
	printf("%s -> %s: %" PRIu64 " records, %" PRIu64 " replayed, %" PRIu64 " skipped, %" PRIu64
	       " failed on the target\n", o->files[0], o->target, res.nr_recs, res.nr_replayed, res.nr_skipped,
	       res.nr_errors);
	if (!o->verify)
		return 0;
	if (res.diverged) {
		printf("verify: first divergence: %s\n", res.div);
		return 1;
	}
	printf("verify: no divergence (%" PRIu64 " commands compared)\n", res.nr_replayed);
	return 0;
}

int cmd_trace(int argc, char **argv)
{
	struct topts o;
	const char *cmd;

	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		trace_usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	cmd = argv[1];
	if (cmd[0] == '-') {
		fprintf(stderr, "zonelab trace: unknown option '%s' (see zonelab trace --help)\n", cmd);
		return 2;
	}
	if (strcmp(cmd, "stat") && strcmp(cmd, "cat") && strcmp(cmd, "convert") && strcmp(cmd, "replay")) {
		fprintf(stderr, "zonelab: trace: unknown command '%s' (stat, cat, convert, replay)\n", cmd);
		return 2;
	}
	switch (parse_opts(cmd, argc - 1, argv + 1, &o)) {
	case 0: break;
	case 1: return 0;
	default: return 2;
	}
	if (!strcmp(cmd, "stat"))
		return do_stat(&o);
	if (!strcmp(cmd, "cat")) {
		if (o.nr_files != 1) {
			fprintf(stderr, "zonelab: trace cat: give one FILE\n");
			return 2;
		}
		return do_copy(&o, o.files[0], "-", TRC_OUT_TEXT);
	}
	if (!strcmp(cmd, "convert")) {
		enum trc_out_fmt fmt = TRC_OUT_NATIVE;

		if (o.nr_files != 2) {
			fprintf(stderr, "zonelab: trace convert: give IN and OUT\n");
			return 2;
		}
		if (o.out_fmt && !strcmp(o.out_fmt, "iolog3"))
			fmt = TRC_OUT_IOLOG3;
		else if (o.out_fmt && !strcmp(o.out_fmt, "blkparse"))
			fmt = TRC_OUT_BLKPARSE;
		return do_copy(&o, o.files[0], o.files[1], fmt);
	}
	if (o.nr_files != 1 || !o.target) {
		fprintf(stderr, "zonelab: trace replay: give FILE and --to IMAGE|/dev/sdX\n");
		return 2;
	}
	return do_replay(&o);
}
