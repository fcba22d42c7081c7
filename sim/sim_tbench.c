/*
 * sim_tbench.c — the timing model's own microbenchmarks (`zonelab timing
 * table`): fio-like jobs run directly on one struct ztime in virtual time,
 * seeded, so the table is the same on every machine.  Each job gets a
 * fresh drive (the head at the outer diameter, the cache empty, the dies
 * idle) on a disk as big as the drive: zones of 256 MiB (HDD) or of the
 * flash stripe's multiple nearest 2 GiB, as many as the capacity holds;
 * or on a given geometry (sim_tbench_geo(): the disk a measurement ran
 * on, e.g. the e2e VM's handler disk), where the sequential jobs stream one
 * zone: the first (OD) and the last (ID).
 *
 * How the queue is served: the model serves commands in the order they are
 * submitted; a job at QD > 1 on the HDD keeps QD commands pending and, each
 * time the mechanism is free, submits the one params.sched picks (fifo: the
 * oldest; sptf: the least ztime_reach_ns(), as the handler's queue
 * chooses); on flash the QD commands are in flight at once (the dies work
 * in parallel) and refilled as fio refills them: the first to complete
 * frees its slot (until issue 32's fit command i waited for command
 * i - QD, whose die may have been the busiest: 207,142 IOPS where fio's
 * refill gives 275,724 and the drive 274,050).  Beside each figure,
 * the preset's published one where docs/TIMING.md records one.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"
#include "ztime.h"

#define KIB 1024ULL
#define MIB (1024ULL * 1024)
#define NS 1e9
/* The measured ZN540's zone capacity, 1077 MiB, rounded up to zn540's stripe. */
#define ZN540_ZONE_BYTES (1078 * MIB)

struct bench {
	const struct ztime_params *p;
	struct ztime_geo g;
	uint64_t cap;                   /* g's bytes */
	struct zl_rng rng;
	char *msg;
	size_t msg_len;
};

static struct ztime *drive(struct bench *b)
{
	struct ztime *t;

	if (ztime_create(b->p, &b->g, &t, b->msg, b->msg_len))
		return NULL;
	return t;
}

static uint64_t rnd4k(struct bench *b)
{
	return zl_rng_below(&b->rng, b->cap / (4 * KIB)) * 4 * KIB;
}

/* QD1 4 KiB random reads: IOPS. */
static int qd1_read(struct bench *b, uint32_t n, double *out)
{
	struct ztime *t = drive(b);
	uint64_t now = 0;
	uint32_t i;

	if (!t)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		struct ztime_req r = { ZTIME_READ, rnd4k(b), 4 * KIB, false, false };

		now = ztime_submit(t, now, &r);
	}
	ztime_destroy(t);
	*out = n * NS / (double)now;
	return 0;
}

/*
 * @total bytes in @io commands from @off on, QD commands in flight (the
 * next is sent when the one QD before it completed); writes end with a
 * flush, so what the cache took counts when it is on the media.  MB/s.
 */
static int stream(struct bench *b, enum ztime_op op, uint64_t off, uint64_t total, uint64_t io,
		  double *out)
{
	struct ztime *t = drive(b);
	uint32_t qd = b->p->qd ? b->p->qd : 1, i, n = (uint32_t)(total / io);
	uint64_t *done = calloc(qd, sizeof(*done)), now = 0, end = 0;

	if (!t || !done) {
		ztime_destroy(t);
		free(done);
		return t ? -ENOMEM : -EINVAL;
	}
	for (i = 0; i < n; i++) {
		struct ztime_req r = { op, off + (uint64_t)i * io, io, false, false };

		if (i >= qd && done[i % qd] > now)
			now = done[i % qd];
		done[i % qd] = ztime_submit(t, now, &r);
		if (done[i % qd] > end)
			end = done[i % qd];
	}
	if (op == ZTIME_WRITE) {
		struct ztime_req f = { ZTIME_FLUSH, 0, 0, false, false };
		uint64_t e = ztime_submit(t, end > now ? end : now, &f);

		end = e > end ? e : end;
	}
	ztime_destroy(t);
	free(done);
	*out = (double)total / ((double)end / NS) / 1e6;
	return 0;
}

/*
 * HDD SPTF, @n 4 KiB random reads in a closed loop at @qd, served as the
 * handler's queue serves them (emulator/tcmu/zl_timed.c dispatch()): the
 * drive chooses the next command a command overhead (cmd_ns) before the
 * mechanism is free, so that overhead overlaps the work in progress (as a
 * queued command's does under FIFO, and an NCQ drive's), among the commands
 * that had arrived by then (ties: the oldest); the command replacing the
 * one just completed arrives at that completion, after the choice, so the
 * choice is among the qd - 1 others; when none had arrived by then (QD1),
 * the oldest is served from its arrival.  Until issue 32's stream fix the
 * choice came at the free time itself and the overhead was paid after it:
 * a stream in LBA order lost a turn a command (186 of 242 MB/s at QD32).
 */
static int sptf_read(struct bench *b, uint32_t qd, uint32_t n, double *out)
{
	struct ztime *t = drive(b);
	uint64_t *off = calloc(qd, sizeof(*off)), *arr = calloc(qd, sizeof(*arr));
	uint64_t *seq = calloc(qd, sizeof(*seq)), next_seq = 0, done = 0, last = 0, cmd;
	uint32_t i, k, best, fresh = UINT32_MAX;

	if (!t || !off || !arr || !seq) {
		ztime_destroy(t);
		free(off);
		free(arr);
		free(seq);
		return t ? -ENOMEM : -EINVAL;
	}
	cmd = b->p->cmd_ns;
	for (k = 0; k < qd; k++) {
		off[k] = rnd4k(b);
		seq[k] = next_seq++;
	}
	for (i = 0; i < n; i++) {
		struct ztime_req r = { ZTIME_READ, 0, 4 * KIB, false, false };
		uint64_t ch = done, best_ns = UINT64_MAX, oldest = UINT64_MAX;

		/* the choice: cmd before the mechanism is free, never before the
		 * model's clock, never before the oldest waiting command arrived */
		if (i && ztime_media_free_ns(t) > cmd && ztime_media_free_ns(t) - cmd < ch)
			ch = ztime_media_free_ns(t) - cmd;
		if (ch < last)
			ch = last;
		for (k = 0; k < qd; k++)
			if (k != fresh && (oldest == UINT64_MAX || seq[k] < seq[oldest]))
				oldest = k;
		if (oldest == UINT64_MAX)  /* qd 1: only the replacement, sent at @done */
			oldest = fresh;
		if (arr[oldest] > ch)
			ch = arr[oldest];
		best = (uint32_t)oldest;
		for (k = 0; i && k < qd; k++) {   /* the first is served alone */
			struct ztime_req rk = { ZTIME_READ, off[k], 4 * KIB, false, false };
			uint64_t ns;

			if ((k == fresh && qd > 1) || arr[k] > ch)
				continue;
			ns = ztime_reach_ns(t, ch, &rk);
			if (ns < best_ns || (ns == best_ns && seq[k] < seq[best])) {
				best_ns = ns;
				best = k;
			}
		}
		r.off_bytes = off[best];
		last = ch;
		done = ztime_submit(t, ch, &r);
		off[best] = rnd4k(b);
		arr[best] = done;
		seq[best] = next_seq++;
		fresh = best;
	}
	ztime_destroy(t);
	free(off);
	free(arr);
	free(seq);
	*out = n * NS / (double)done;
	return 0;
}

/* @n 4 KiB random reads at QD: IOPS.  HDD: picked by @sched; flash: in flight. */
static int qd_read(struct bench *b, uint32_t qd, enum ztime_sched sched, uint32_t n, double *out)
{
	struct ztime *t = drive(b);
	uint64_t *off = calloc(qd, sizeof(*off)), *seq = calloc(qd, sizeof(*seq)), now = 0;
	uint64_t next_seq = 0, end = 0;
	uint32_t i, k, best, fresh = UINT32_MAX;

	if (b->p->kind == ZTIME_HDD && sched == ZTIME_SCHED_SPTF) {
		ztime_destroy(t);
		free(off);
		free(seq);
		return sptf_read(b, qd, n, out);
	}
	if (!t || !off || !seq) {
		ztime_destroy(t);
		free(off);
		free(seq);
		return t ? -ENOMEM : -EINVAL;
	}
	for (k = 0; k < qd; k++) {
		off[k] = rnd4k(b);
		seq[k] = next_seq++;
	}
	for (i = 0; i < n; i++) {
		struct ztime_req r = { ZTIME_READ, 0, 4 * KIB, false, false };

		if (b->p->kind == ZTIME_FLASH) {
			/* qd in flight, refilled as fio does: the first to
			 * complete frees its slot (seq holds each slot's
			 * completion here; ties: the lowest slot) */
			best = i < qd ? i : 0;
			for (k = 1; i >= qd && k < qd; k++)
				if (seq[k] < seq[best])
					best = k;
			if (i >= qd && seq[best] > now)
				now = seq[best];
			r.off_bytes = rnd4k(b);
			seq[best] = ztime_submit(t, now, &r);
			end = seq[best] > end ? seq[best] : end;
			continue;
		}
		/* a closed loop: the command that replaces the one just completed
		 * is sent when the host sees that completion, after the drive
		 * chose the next, so the choice is among the qd - 1 others (the
		 * handler's queue sees the same: tests/unit/test_zl_timed.c);
		 * the first is served alone, the drive idle when it arrived */
		best = fresh == 0 && qd > 1 ? 1 : 0;
		for (k = best + 1; i && k < qd; k++) {
			struct ztime_req rk = { ZTIME_READ, off[k], 4 * KIB, false, false };
			struct ztime_req rb = { ZTIME_READ, off[best], 4 * KIB, false, false };

			if (k == fresh && qd > 1)
				continue;
			if (sched == ZTIME_SCHED_FIFO ? seq[k] < seq[best] :
			    ztime_reach_ns(t, now, &rk) < ztime_reach_ns(t, now, &rb))
				best = k;
		}
		r.off_bytes = off[best];
		now = end = ztime_submit(t, now, &r);
		off[best] = rnd4k(b);
		seq[best] = next_seq++;
		fresh = best;
	}
	ztime_destroy(t);
	free(off);
	free(seq);
	*out = n * NS / (double)end;
	return 0;
}

/* One command on an idle drive after @nr_before random cached 4 KiB writes: ms. */
static int one_op(struct bench *b, enum ztime_op op, uint64_t len, uint32_t nr_before,
		  bool implicit_open, double *out)
{
	struct ztime *t = drive(b);
	struct ztime_req r = { op, b->g.zone_bytes, len, false, implicit_open };
	uint64_t now = 0;
	uint32_t i;

	if (!t)
		return -EINVAL;
	for (i = 0; i < nr_before; i++) {
		struct ztime_req w = { ZTIME_WRITE, rnd4k(b), 4 * KIB, false, false };

		now = ztime_submit(t, now, &w);
	}
	if (!nr_before)  /* idle: the mechanism settled at its start */
		now = ztime_media_free_ns(t);
	*out = (double)(ztime_submit(t, now, &r) - now) / 1e6;
	ztime_destroy(t);
	return 0;
}

static void row(struct sim_tbench_row *rows, uint32_t max, uint32_t *nr, const char *name,
		const char *unit, double v, double published, const char *source)
{
	struct sim_tbench_row *r;

	if (*nr >= max)
		return;
	r = &rows[(*nr)++];
	snprintf(r->name, sizeof(r->name), "%s", name);
	r->unit = unit;
	r->value = v;
	r->published = published;
	r->source = source;
}

/* The disk of sim_tbench_geo(): @geo, or as big as the drive (HDD: 256 MiB zones). */
static int bench_disk(struct bench *b, const struct ztime_geo *geo)
{
	if (geo) {
		b->g = *geo;
	} else {
		b->g.zone_bytes = 256 * MIB;
		b->g.nr_zones = b->p->capacity_bytes / b->g.zone_bytes > UINT32_MAX ? UINT32_MAX :
				(uint32_t)(b->p->capacity_bytes / b->g.zone_bytes);
	}
	b->cap = (uint64_t)b->g.nr_zones * b->g.zone_bytes;
	return b->cap ? 0 : -EINVAL;
}

int sim_tbench_sptf_by_qd(const struct ztime_params *p, const struct ztime_geo *geo,
			  uint64_t seed, uint32_t max_qd, double *iops, char *msg, size_t msg_len)
{
	struct bench b = { .p = p, .msg = msg, .msg_len = msg_len };
	uint32_t qd = p->qd ? p->qd : 32, q, i;
	int ret;

	if (p->kind != ZTIME_HDD) {
		snprintf(msg, msg_len, "SPTF needs a hard disk");
		return -EINVAL;
	}
	if (bench_disk(&b, geo)) {
		snprintf(msg, msg_len, "a disk of no zones");
		return -EINVAL;
	}
	for (q = 1; q <= max_qd; q++) {
		zl_rng_seed(&b.rng, seed);
		/* the draws sim_tbench_geo() makes before its SPTF job: QD1's
		 * 2000, FIFO's qd + 4000 */
		for (i = 0; i < 2000 + qd + 4000; i++)
			(void)rnd4k(&b);
		ret = qd_read(&b, q, ZTIME_SCHED_SPTF, 4000, &iops[q - 1]);
		if (ret)
			return ret;
	}
	return 0;
}

int sim_tbench(const struct ztime_params *p, uint64_t seed, struct sim_tbench_row *rows,
	       uint32_t max, uint32_t *nr, char *msg, size_t msg_len)
{
	return sim_tbench_geo(p, NULL, seed, rows, max, nr, msg, msg_len);
}

int sim_tbench_geo(const struct ztime_params *p, const struct ztime_geo *geo, uint64_t seed,
		   struct sim_tbench_row *rows, uint32_t max, uint32_t *nr, char *msg,
		   size_t msg_len)
{
	static const char ds[] = "HC620 data sheet, sustained transfer rate";
	static const char dv[] = "derived: seek_avg (HC310 spec.) + average rotational latency "
				 "(7200 RPM, 4.16 ms)";
	static const char zm[] = "measured ZN540: Doekemeijer et al., CLUSTER 2023 "
				 "(stonet-research/NVMeBenchmarks; docs/TIMING.md)";
	static const struct {
		const char *name;
		uint32_t div;           /* held = zone / div, or ... */
		uint64_t bytes;         /* ... these bytes when div is 0 */
		double measured;        /* ms, ZN540, 1077 MiB zone */
	} reset_at[] = {
		{ "zone reset (1/2 full)", 2, 0, 11.24 }, { "zone reset (1/4 full)", 4, 0, 7.75 },
		{ "zone reset (1/8 full)", 8, 0, 5.98 }, { "zone reset (1/16 full)", 16, 0, 5.12 },
		{ "zone reset (4 KiB held)", 0, 4 * KIB, 1.69 },
		{ "zone reset (empty zone)", 0, 0, 1.63 },
	};
	struct bench b = { .p = p, .msg = msg, .msg_len = msg_len };
	bool hc620 = !strcmp(p->preset, "hc620");
	bool zn540 = !strcmp(p->preset, "zn540");
	/* the zone operations were measured on the drive's 1077 MiB zones:
	 * beside the model's only on a disk of that zone (rounded up to the
	 * 2 MiB stripe: --zone-size 1130364928) */
	bool zn540_zone = zn540 && geo && geo->zone_bytes == ZN540_ZONE_BYTES;
	uint32_t qd = p->qd ? p->qd : 32;
	uint64_t zone, stripe, seq_len, od = 0, id;
	struct ztime *t;
	double v, v2;
	int ret = 0;

	*nr = 0;
	zl_rng_seed(&b.rng, seed);
	if (geo) {
		if (geo->nr_zones < 2 || !geo->zone_bytes) {
			snprintf(msg, msg_len, "a disk of %u zones of %llu bytes: the benchmarks need "
				 "at least 2 zones", geo->nr_zones,
				 (unsigned long long)geo->zone_bytes);
			return -EINVAL;
		}
		b.g = *geo;
		zone = geo->zone_bytes;
	} else {
		if (p->kind == ZTIME_HDD) {
			zone = 256 * MIB;
		} else {
			stripe = (uint64_t)p->zone_dies * p->page_bytes;
			zone = (2048 * MIB + stripe / 2) / stripe * stripe;
			if (!zone)
				zone = stripe;
		}
		b.g.zone_bytes = zone;
		b.g.nr_zones = p->capacity_bytes / zone > UINT32_MAX ? UINT32_MAX :
			       (uint32_t)(p->capacity_bytes / zone);
		if (b.g.nr_zones < 32) {
			snprintf(msg, msg_len, "capacity %llu: fewer than 32 zones of %llu bytes, "
				 "too small for the benchmarks",
				 (unsigned long long)p->capacity_bytes, (unsigned long long)zone);
			return -EINVAL;
		}
	}
	b.cap = (uint64_t)b.g.nr_zones * zone;
	/* the streams: 4 GiB (flash 1 GiB) from the OD and into the last 16
	 * zones; on a given geometry one zone (its whole MiBs), the first and
	 * the last (zones are spread over the stroke: crossing one seeks) */
	seq_len = p->kind == ZTIME_HDD ? 4096 * MIB : 1024 * MIB;
	id = b.cap - 16 * zone;
	if (geo) {
		if (zone < seq_len)
			seq_len = zone / MIB * MIB;
		id = b.cap - zone;
		if (!seq_len) {
			snprintf(msg, msg_len, "zones of %llu bytes: the sequential jobs need 1 MiB",
				 (unsigned long long)zone);
			return -EINVAL;
		}
		/* a drive too small for the geometry: say so before any job */
		t = drive(&b);
		if (!t)
			return -EINVAL;
		ztime_destroy(t);
	}
#define RUN(x) do { ret = (x); if (ret) return ret; } while (0)
	if (p->kind == ZTIME_HDD) {
		RUN(qd1_read(&b, 2000, &v));
		row(rows, max, nr, "QD1 4 KiB random read", "IOPS", v,
		    hc620 ? NS / (7.4e6 + 4.16e6) : 0, hc620 ? dv : NULL);
		RUN(qd_read(&b, qd, ZTIME_SCHED_FIFO, 4000, &v));
		row(rows, max, nr, "QD32 4 KiB random read, FIFO", "IOPS", v, 0, NULL);
		RUN(qd_read(&b, qd, ZTIME_SCHED_SPTF, 4000, &v2));
		row(rows, max, nr, "QD32 4 KiB random read, SPTF", "IOPS", v2, 0, NULL);
		RUN(stream(&b, ZTIME_READ, od, seq_len, MIB, &v));
		row(rows, max, nr, "sequential 1 MiB read, OD", "MB/s", v, hc620 ? 255 : 0,
		    hc620 ? ds : NULL);
		RUN(stream(&b, ZTIME_READ, id, seq_len, MIB, &v));
		row(rows, max, nr, "sequential 1 MiB read, ID", "MB/s", v, 0, NULL);
		RUN(stream(&b, ZTIME_WRITE, od, seq_len, MIB, &v));
		row(rows, max, nr, "sequential 1 MiB write, OD (+flush)", "MB/s", v, hc620 ? 255 : 0,
		    hc620 ? ds : NULL);
		RUN(stream(&b, ZTIME_WRITE, id, seq_len, MIB, &v));
		row(rows, max, nr, "sequential 1 MiB write, ID (+flush)", "MB/s", v, 0, NULL);
		RUN(one_op(&b, ZTIME_RESET, zone, 0, false, &v));
		row(rows, max, nr, "zone reset (full zone)", "ms", v, 0, NULL);
		RUN(one_op(&b, ZTIME_FINISH, zone / 2, 0, false, &v));
		row(rows, max, nr, "zone finish (half-full zone)", "ms", v, 0, NULL);
		RUN(one_op(&b, ZTIME_FLUSH, 0, 0, false, &v));
		row(rows, max, nr, "flush, idle drive", "ms", v, 0, NULL);
		RUN(one_op(&b, ZTIME_FLUSH, 0, 64, false, &v));
		row(rows, max, nr, "flush after 64 random 4 KiB writes", "ms", v, 0, NULL);
	} else {
		RUN(stream(&b, ZTIME_WRITE, od, seq_len, MIB, &v));
		row(rows, max, nr, "sequential 1 MiB write, one zone (+flush)", "MB/s", v,
		    zn540 ? 1202 : 0, zn540 ? zm : NULL);
		RUN(stream(&b, ZTIME_READ, od, seq_len, MIB, &v));
		row(rows, max, nr, "sequential 1 MiB read, one zone", "MB/s", v,
		    zn540 ? 3277 : 0, zn540 ? zm : NULL);
		RUN(qd1_read(&b, 20000, &v));
		row(rows, max, nr, "QD1 4 KiB random read", "IOPS", v, zn540 ? 13704 : 0,
		    zn540 ? zm : NULL);
		RUN(qd_read(&b, qd, ZTIME_SCHED_FIFO, 100000, &v));
		row(rows, max, nr, "QD32 4 KiB random read", "IOPS", v,
		    zn540 && qd == 32 ? 274050 : 0, zn540 && qd == 32 ? zm : NULL);
		RUN(one_op(&b, ZTIME_RESET, zone, 0, false, &v));
		row(rows, max, nr, "zone reset (full zone)", "ms", v, zn540_zone ? 15.49 : 0,
		    zn540_zone ? zm : NULL);
		/* the points the ZN540 was measured at (docs/TIMING.md) */
		for (uint32_t i = 0; i < sizeof(reset_at) / sizeof(reset_at[0]); i++) {
			/* a fraction of the zone is the drive's only on its zone */
			bool beside = zn540 && (zn540_zone || !reset_at[i].div);

			RUN(one_op(&b, ZTIME_RESET, reset_at[i].div ? zone / reset_at[i].div :
				   reset_at[i].bytes, 0, false, &v));
			row(rows, max, nr, reset_at[i].name, "ms", v,
			    beside ? reset_at[i].measured : 0, beside ? zm : NULL);
		}
		RUN(one_op(&b, ZTIME_FINISH, zone / 2, 0, false, &v));
		row(rows, max, nr, "zone finish (half-full zone)", "ms", v, zn540_zone ? 456.5 : 0,
		    zn540_zone ? zm : NULL);
		RUN(one_op(&b, ZTIME_FINISH, 4 * KIB, 0, false, &v));
		row(rows, max, nr, "zone finish (4 KiB held)", "ms", v, zn540_zone ? 908.3 : 0,
		    zn540_zone ? zm : NULL);
		/* the drive's last LBA before its capacity: one page a die left */
		RUN(one_op(&b, ZTIME_FINISH, zone - 4 * KIB, 0, false, &v));
		row(rows, max, nr, "zone finish (4 KiB left)", "ms", v, zn540 ? 2.57 : 0,
		    zn540 ? zm : NULL);
		RUN(one_op(&b, ZTIME_FLUSH, 0, 0, false, &v));
		row(rows, max, nr, "flush, idle drive", "ms", v, 0, NULL);
	}
	/* implicit open: a 4 KiB write at an empty zone's start, with and without */
	RUN(one_op(&b, ZTIME_WRITE, 4 * KIB, 0, true, &v));
	RUN(one_op(&b, ZTIME_WRITE, 4 * KIB, 0, false, &v2));
	row(rows, max, nr, "implicit open (4 KiB write, extra)", "ms", v - v2, 0, NULL);
#undef RUN
	return 0;
}
