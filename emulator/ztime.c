/*
 * ztime.c — the device timing model (ztime.h): the HDD's geometry, seek
 * curve, rotation, transfer and write cache, and the flash drive's dies and
 * channels.  Pure arithmetic over the drive's state in virtual time: no
 * clock, no threads, no I/O.  The figures and their text form are
 * ztime_parse.c's; the fit of the seek curve is here because the check of
 * the figures needs it.
 *
 * HDD geometry (docs/TIMING.md, "The SMR disk"): cylinder fraction x in
 * [0, 1) from the outer diameter; a track at x holds
 * T(x) = T_od - (T_od - T_id) x bytes (a continuous stand-in for zoned
 * recording), T = sustained rate x (revolution + switch); the drive holds
 * heads x the integral, which fixes the number of cylinders.  LBA 0 is at the
 * outer diameter; a cylinder's tracks are filled head by head.  Track k
 * starts at angle frac(k x switch / revolution) (skew), so a transfer that
 * runs into the next track loses exactly the switch time, which is what the
 * sustained rate already counts.
 */
#include "ztime.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NS 1000000000.0
#define RING_CAP 4096u          /* destages the write cache remembers */

struct dirty {
	uint64_t end_ns;            /* destage done */
	uint64_t bytes;
};

struct ztime {
	struct ztime_params p;
	struct ztime_geo g;
	/* HDD, derived */
	double rev_ns, sw_ns;
	double t_od, t_id, t_avg;   /* bytes per track */
	double nr_cyl;
	double seek_b, knee;        /* fitted curve */
	uint64_t slots;             /* drive capacity in emulated-zone slots */
	/* HDD, state */
	uint64_t cyl;
	uint32_t head;
	uint64_t media_free_ns;
	struct dirty ring[RING_CAP];
	uint32_t r_head, r_nr;
	uint64_t dirty_bytes;
	/* flash, state */
	uint32_t nr_dies;
	uint64_t *die_free, *chan_free;
};

static void say(char *msg, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!msg || !len)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, len, fmt, ap);
	va_end(ap);
}

/* ---- HDD geometry and seek curve (shared by the check and the model) ---- */

struct hdd_geo {
	double rev_ns, sw_ns, t_od, t_id, t_avg, nr_cyl;
};

static void hdd_geo(const struct ztime_params *p, struct hdd_geo *h)
{
	h->rev_ns = 60.0 * NS / p->rpm;
	h->sw_ns = (double)(p->head_switch_ns > p->seek_t2t_ns ? p->head_switch_ns : p->seek_t2t_ns);
	h->t_od = (double)p->rate_od_bps * (h->rev_ns + h->sw_ns) / NS;
	h->t_id = (double)p->rate_id_bps * (h->rev_ns + h->sw_ns) / NS;
	h->t_avg = (h->t_od + h->t_id) / 2;
	h->nr_cyl = floor((double)p->capacity_bytes / ((double)p->heads * h->t_avg));
}

/* Seek time of a move of @d cylinders over a stroke of @n, with factor @b. */
static double seek_curve(const struct ztime_params *p, double n, double knee, double b, double d)
{
	double tk;

	if (d <= 0)
		return 0;
	if (d <= 1)
		return (double)p->seek_t2t_ns;
	if (d <= knee)
		return (double)p->seek_t2t_ns + b * (sqrt(d) - 1);
	tk = (double)p->seek_t2t_ns + b * (sqrt(knee) - 1);
	if (d >= n - 1)
		return (double)p->seek_full_ns;
	return tk + ((double)p->seek_full_ns - tk) * (d - knee) / (n - 1 - knee);
}

/* The mean seek between two uniformly random cylinders: distance u*n has
 * density 2(1 - u) (the weighting the data sheets' "average" uses). */
static double seek_mean(const struct ztime_params *p, double n, double knee, double b)
{
	const int steps = 4096;
	double sum = 0;
	int i;

	for (i = 0; i < steps; i++) {
		double u = (i + 0.5) / steps;

		sum += seek_curve(p, n, knee, b, u * n) * 2 * (1 - u);
	}
	return sum / steps;
}

/*
 * Fit b so that the mean is the published average; the curve then passes
 * through track-to-track (d = 1) and full stroke (d = n - 1) by
 * construction.  The mean grows with b; b runs from 0 (sqrt part flat) to
 * the value that puts the knee at the full-stroke time.
 */
static int seek_fit(const struct ztime_params *p, double n, double *knee_out, double *b_out,
		    char *msg, size_t msg_len)
{
	double knee = n * p->seek_knee_pct / 100.0, lo = 0, hi, want = (double)p->seek_avg_ns;
	int i;

	if (knee < 4)
		knee = 4;
	if (knee > n - 2) {
		say(msg, msg_len, "timing: the drive has %.0f cylinders, too few for a seek curve "
		    "(capacity, heads and rates give the count)", n);
		return -EINVAL;
	}
	hi = ((double)p->seek_full_ns - (double)p->seek_t2t_ns) / (sqrt(knee) - 1);
	if (seek_mean(p, n, knee, lo) > want) {
		say(msg, msg_len, "timing: seek_avg=%.3fms is too short for seek_t2t and seek_full: "
		    "even a flat short-seek curve averages %.3fms", want / 1e6,
		    seek_mean(p, n, knee, lo) / 1e6);
		return -EINVAL;
	}
	if (seek_mean(p, n, knee, hi) < want) {
		say(msg, msg_len, "timing: seek_avg=%.3fms is too long for seek_full=%.3fms: the "
		    "steepest monotone curve averages %.3fms (raise seek_knee or seek_full)",
		    want / 1e6, (double)p->seek_full_ns / 1e6, seek_mean(p, n, knee, hi) / 1e6);
		return -EINVAL;
	}
	for (i = 0; i < 60; i++) {
		double mid = (lo + hi) / 2;

		if (seek_mean(p, n, knee, mid) < want)
			lo = mid;
		else
			hi = mid;
	}
	*knee_out = knee;
	*b_out = (lo + hi) / 2;
	return 0;
}

int ztime_params_check(const struct ztime_params *p, char *msg, size_t msg_len)
{
	struct hdd_geo h;
	double knee, b;

	if (!p->capacity_bytes) {
		say(msg, msg_len, "timing: capacity must be > 0");
		return -EINVAL;
	}
	if (p->sched == ZTIME_SCHED_SPTF && p->kind != ZTIME_HDD) {
		say(msg, msg_len, "timing: sched=sptf needs a hard disk (a flash drive has no seek)");
		return -EINVAL;
	}
	if (!p->qd) {
		say(msg, msg_len, "timing: qd must be at least 1");
		return -EINVAL;
	}
	if (p->kind == ZTIME_FLASH) {
		uint32_t dies = p->channels * p->dies_per_channel;

		if (!p->channels || !p->dies_per_channel || !p->page_bytes || !p->block_bytes ||
		    !p->chan_bps || !p->zone_dies) {
			say(msg, msg_len, "timing: channels, dies, page, block, chan_rate and "
			    "zone_dies must all be > 0");
			return -EINVAL;
		}
		if (p->zone_dies > dies) {
			say(msg, msg_len, "timing: zone_dies=%u is more than the drive's %u dies "
			    "(channels x dies)", p->zone_dies, dies);
			return -EINVAL;
		}
		if (!p->reset_exp_pct || p->reset_exp_pct > 200) {
			say(msg, msg_len, "timing: reset_exp=%u is out of range (1..200)",
			    p->reset_exp_pct);
			return -EINVAL;
		}
		if (p->block_bytes % p->page_bytes) {
			say(msg, msg_len, "timing: block=%llu is not a multiple of page=%llu",
			    (unsigned long long)p->block_bytes, (unsigned long long)p->page_bytes);
			return -EINVAL;
		}
		return 0;
	}
	if (!p->rpm || !p->heads || !p->rate_od_bps || !p->rate_id_bps || !p->iface_bps) {
		say(msg, msg_len, "timing: rpm, heads, rate_od, rate_id and iface must all be > 0");
		return -EINVAL;
	}
	if (p->rate_id_bps > p->rate_od_bps) {
		say(msg, msg_len, "timing: rate_id=%llu B/s is above rate_od=%llu B/s (the rate "
		    "falls from the outer to the inner diameter)",
		    (unsigned long long)p->rate_id_bps, (unsigned long long)p->rate_od_bps);
		return -EINVAL;
	}
	if (!p->seek_t2t_ns || p->seek_t2t_ns >= p->seek_avg_ns || p->seek_avg_ns >= p->seek_full_ns) {
		say(msg, msg_len, "timing: seeks must grow: 0 < seek_t2t (%.3fms) < seek_avg "
		    "(%.3fms) < seek_full (%.3fms)", p->seek_t2t_ns / 1e6, p->seek_avg_ns / 1e6,
		    p->seek_full_ns / 1e6);
		return -EINVAL;
	}
	if (p->serial && p->mech != ZTIME_MECH_OFF) {
		say(msg, msg_len, "timing: serial=1 needs mech=off (with the mechanism on, the "
		    "drive already serves its media accesses one at a time; serial=1 makes a "
		    "calibration disk's fixed cost do so)");
		return -EINVAL;
	}
	if (p->serial > 1) {
		say(msg, msg_len, "timing: serial=%u must be 0 or 1", p->serial);
		return -EINVAL;
	}
	if (!p->seek_knee_pct || p->seek_knee_pct >= 100) {
		say(msg, msg_len, "timing: seek_knee=%u must be 1..99 (%% of the stroke)",
		    p->seek_knee_pct);
		return -EINVAL;
	}
	hdd_geo(p, &h);
	return seek_fit(p, h.nr_cyl, &knee, &b, msg, msg_len);
}

/* ---- create ---- */

int ztime_create(const struct ztime_params *p, const struct ztime_geo *g, struct ztime **out,
		 char *msg, size_t msg_len)
{
	unsigned __int128 need = (unsigned __int128)g->zone_bytes * g->nr_zones;
	struct ztime *t;
	struct hdd_geo h;
	int ret;

	ret = ztime_params_check(p, msg, msg_len);
	if (ret)
		return ret;
	if (!g->zone_bytes || !g->nr_zones) {
		say(msg, msg_len, "timing: the disk has no zones");
		return -EINVAL;
	}
	if (need > p->capacity_bytes) {
		say(msg, msg_len, "timing: %s holds %llu bytes; a disk of %u zones of %llu bytes "
		    "needs %llu (use a smaller disk or capacity=)", p->preset,
		    (unsigned long long)p->capacity_bytes, g->nr_zones,
		    (unsigned long long)g->zone_bytes, (unsigned long long)need);
		return -EINVAL;
	}
	if (p->kind == ZTIME_FLASH && g->zone_bytes % ((uint64_t)p->zone_dies * p->page_bytes)) {
		say(msg, msg_len, "timing: zone size %llu is not a multiple of the stripe "
		    "(zone_dies %u x page %llu)", (unsigned long long)g->zone_bytes, p->zone_dies,
		    (unsigned long long)p->page_bytes);
		return -EINVAL;
	}
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->p = *p;
	t->g = *g;
	if (p->kind == ZTIME_HDD) {
		hdd_geo(p, &h);
		t->rev_ns = h.rev_ns;
		t->sw_ns = h.sw_ns;
		t->t_od = h.t_od;
		t->t_id = h.t_id;
		t->t_avg = h.t_avg;
		t->nr_cyl = h.nr_cyl;
		ret = seek_fit(p, h.nr_cyl, &t->knee, &t->seek_b, msg, msg_len);
		if (ret) {
			free(t);
			return ret;
		}
		t->slots = p->capacity_bytes / g->zone_bytes;
	} else {
		t->nr_dies = p->channels * p->dies_per_channel;
		t->die_free = calloc(t->nr_dies, sizeof(*t->die_free));
		t->chan_free = calloc(p->channels, sizeof(*t->chan_free));
		if (!t->die_free || !t->chan_free) {
			ztime_destroy(t);
			return -ENOMEM;
		}
	}
	*out = t;
	return 0;
}

void ztime_destroy(struct ztime *t)
{
	if (!t)
		return;
	free(t->die_free);
	free(t->chan_free);
	free(t);
}

const struct ztime_params *ztime_params(const struct ztime *t)
{
	return &t->p;
}

/* ---- HDD ---- */

uint64_t ztime_nr_cylinders(const struct ztime *t)
{
	return (uint64_t)t->nr_cyl;
}

uint64_t ztime_rev_ns(const struct ztime *t)
{
	return (uint64_t)llround(t->rev_ns);
}

uint64_t ztime_seek_ns(const struct ztime *t, uint64_t dist)
{
	return (uint64_t)llround(seek_curve(&t->p, t->nr_cyl, t->knee, t->seek_b, (double)dist));
}

/* Emulated byte -> byte on the drive (zone slots spread over the stroke). */
static uint64_t drive_pos(const struct ztime *t, uint64_t off)
{
	uint64_t zone = off / t->g.zone_bytes, slot;

	if (zone >= t->g.nr_zones)
		zone = t->g.nr_zones - 1;
	slot = (uint64_t)((unsigned __int128)zone * t->slots / t->g.nr_zones);
	return slot * t->g.zone_bytes + off % t->g.zone_bytes;
}

/* Bytes before cylinder fraction @x: heads x the integral of T (exact at
 * cylinder boundaries: a cylinder holds heads x T at its middle). */
static double bytes_before(const struct ztime *t, double x)
{
	return (double)t->p.heads * t->nr_cyl * (t->t_od * x - (t->t_od - t->t_id) * x * x / 2);
}

static double track_bytes(const struct ztime *t, uint64_t cyl)
{
	double x = ((double)cyl + 0.5) / t->nr_cyl;

	return t->t_od - (t->t_od - t->t_id) * x;
}

struct where {
	uint64_t cyl;
	uint32_t head;
	double off;                 /* bytes into the track */
	double track;               /* the track's bytes */
};

static void locate(const struct ztime *t, uint64_t drive_byte, struct where *w)
{
	double f = (double)drive_byte / ((double)t->p.heads * t->nr_cyl), x, before, into, a, q;
	double dt = t->t_od - t->t_id;

	if (dt > 1e-9 * t->t_od) {
		q = t->t_od * t->t_od - 2 * dt * f;
		x = (t->t_od - sqrt(q > 0 ? q : 0)) / dt;
	} else {
		x = f / t->t_od;
	}
	w->cyl = (uint64_t)(x * t->nr_cyl);
	if ((double)w->cyl >= t->nr_cyl)
		w->cyl = (uint64_t)t->nr_cyl - 1;
	before = bytes_before(t, (double)w->cyl / t->nr_cyl);
	w->track = track_bytes(t, w->cyl);
	into = (double)drive_byte - before;
	/* the square root may land a byte on the wrong side of a boundary */
	if (into < 0 && w->cyl) {
		w->cyl--;
		w->track = track_bytes(t, w->cyl);
		into += w->track * t->p.heads;
	} else if (into >= w->track * t->p.heads && (double)(w->cyl + 1) < t->nr_cyl) {
		into -= w->track * t->p.heads;
		w->cyl++;
		w->track = track_bytes(t, w->cyl);
	}
	if (into < 0)
		into = 0;
	a = floor(into / w->track);
	if (a >= t->p.heads)
		a = t->p.heads - 1;
	w->head = (uint32_t)a;
	w->off = into - a * w->track;
	if (w->off >= w->track)
		w->off = w->track - 1;
}

/* Angle (fraction of a revolution) where byte @w passes under the head. */
static double angle_of(const struct ztime *t, const struct where *w)
{
	double k = (double)w->cyl * t->p.heads + w->head, a;

	a = k * (t->sw_ns / t->rev_ns) + w->off / w->track;
	return a - floor(a);
}

static double angle_at(const struct ztime *t, double time_ns)
{
	double a = time_ns / t->rev_ns;

	return a - floor(a);
}

double ztime_rate_at(const struct ztime *t, uint64_t off_bytes)
{
	struct where w;

	locate(t, drive_pos(t, off_bytes), &w);
	return w.track * NS / (t->rev_ns + t->sw_ns);
}

uint64_t ztime_cylinder_of(const struct ztime *t, uint64_t off_bytes)
{
	struct where w;

	locate(t, drive_pos(t, off_bytes), &w);
	return w.cyl;
}

static double position(const struct ztime *t, double start, const struct where *w)
{
	uint64_t d = w->cyl > t->cyl ? w->cyl - t->cyl : t->cyl - w->cyl;
	double seek = seek_curve(&t->p, t->nr_cyl, t->knee, t->seek_b, (double)d), wait;

	if (t->p.mech == ZTIME_MECH_OFF)
		return 0;
	if (!d && w->head != t->head)
		seek = (double)t->p.head_switch_ns;
	wait = angle_of(t, w) - angle_at(t, start + seek);
	if (wait < 0)
		wait += 1;
	if ((1 - wait) * t->rev_ns < 1000)  /* on time within 1 us: rounding, not a missed turn */
		wait = 0;
	return seek + wait * t->rev_ns;
}

uint64_t ztime_position_ns(const struct ztime *t, uint64_t start_ns, uint64_t off_bytes)
{
	struct where w;

	if (t->p.kind != ZTIME_HDD || t->p.mech == ZTIME_MECH_OFF)
		return 0;
	locate(t, drive_pos(t, off_bytes), &w);
	return (uint64_t)llround(position(t, (double)start_ns, &w));
}

/* Where hdd_write() accepts a cached write of @len at @now (the cache full:
 * when enough destages are done), without draining the ring. */
static uint64_t cache_accept(const struct ztime *t, uint64_t now, uint64_t len)
{
	uint64_t accept = now, dirty = t->dirty_bytes;
	uint32_t h = t->r_head, nr = t->r_nr;

	while (nr && t->ring[h].end_ns <= now) {
		dirty -= t->ring[h].bytes;
		h = (h + 1) % RING_CAP;
		nr--;
	}
	while (nr && (dirty + len > t->p.cache_bytes || nr == RING_CAP)) {
		if (t->ring[h].end_ns > accept)
			accept = t->ring[h].end_ns;
		dirty -= t->ring[h].bytes;
		h = (h + 1) % RING_CAP;
		nr--;
	}
	return accept;
}

uint64_t ztime_reach_ns(const struct ztime *t, uint64_t now_ns, const struct ztime_req *r)
{
	uint64_t start;

	if (t->p.kind != ZTIME_HDD || t->p.mech == ZTIME_MECH_OFF)
		return now_ns;
	switch (r->op) {
	case ZTIME_READ:
		start = now_ns + t->p.cmd_ns;
		break;
	case ZTIME_WRITE:
		start = now_ns + t->p.cmd_ns + (r->implicit_open ? t->p.implicit_open_ns : 0);
		if (!r->fua && t->p.cache_bytes && r->len_bytes <= t->p.cache_bytes)
			start = cache_accept(t, now_ns, r->len_bytes) + t->p.cmd_ns +
				(r->implicit_open ? t->p.implicit_open_ns : 0) +
				(uint64_t)((double)r->len_bytes * NS / (double)t->p.iface_bps);
		break;
	default:
		return now_ns;
	}
	if (start < t->media_free_ns)
		start = t->media_free_ns;
	return start + ztime_position_ns(t, start, r->off_bytes);
}

/* The mechanism moves to @off and transfers @len from @start: the end time. */
static uint64_t mech(struct ztime *t, uint64_t start, uint64_t off, uint64_t len)
{
	struct where w;
	double now = (double)start, left = (double)len;

	if (t->p.mech == ZTIME_MECH_OFF)
		return start;   /* a calibration disk: the mechanism costs nothing */
	locate(t, drive_pos(t, off), &w);
	now += position(t, now, &w);
	for (;;) {
		double chunk = w.track - w.off;

		if (chunk > left)
			chunk = left;
		now += chunk * t->rev_ns / w.track;
		left -= chunk;
		if (left <= 0)
			break;
		/* the next track: skew makes the switch cost exactly sw_ns */
		now += t->sw_ns;
		if (++w.head == t->p.heads) {
			w.head = 0;
			if ((double)(w.cyl + 1) < t->nr_cyl)
				w.cyl++;
		}
		w.track = track_bytes(t, w.cyl);
		w.off = 0;
	}
	t->cyl = w.cyl;
	t->head = w.head;
	return (uint64_t)llround(now);
}

static void ring_drain(struct ztime *t, uint64_t now)
{
	while (t->r_nr && t->ring[t->r_head].end_ns <= now) {
		t->dirty_bytes -= t->ring[t->r_head].bytes;
		t->r_head = (t->r_head + 1) % RING_CAP;
		t->r_nr--;
	}
}

static uint64_t hdd_write(struct ztime *t, uint64_t now, const struct ztime_req *r, uint64_t extra)
{
	uint64_t accept = now, done, start, end;

	if (r->fua || !t->p.cache_bytes || r->len_bytes > t->p.cache_bytes) {
		start = now + t->p.cmd_ns + extra;
		if (start < t->media_free_ns)
			start = t->media_free_ns;
		t->media_free_ns = mech(t, start, r->off_bytes, r->len_bytes);
		return t->media_free_ns;
	}
	ring_drain(t, now);
	while (t->r_nr && (t->dirty_bytes + r->len_bytes > t->p.cache_bytes || t->r_nr == RING_CAP)) {
		if (t->ring[t->r_head].end_ns > accept)
			accept = t->ring[t->r_head].end_ns;
		t->dirty_bytes -= t->ring[t->r_head].bytes;
		t->r_head = (t->r_head + 1) % RING_CAP;
		t->r_nr--;
	}
	done = accept + t->p.cmd_ns + extra +
	       (uint64_t)((double)r->len_bytes * NS / (double)t->p.iface_bps);
	start = done > t->media_free_ns ? done : t->media_free_ns;
	end = mech(t, start, r->off_bytes, r->len_bytes);
	t->media_free_ns = end;
	t->ring[(t->r_head + t->r_nr) % RING_CAP] = (struct dirty){ end, r->len_bytes };
	t->r_nr++;
	t->dirty_bytes += r->len_bytes;
	return done;
}

static uint64_t hdd_serve(struct ztime *t, uint64_t now, const struct ztime_req *r)
{
	const struct ztime_params *p = &t->p;
	uint64_t start;

	switch (r->op) {
	case ZTIME_READ:
		start = now + p->cmd_ns;
		if (start < t->media_free_ns)
			start = t->media_free_ns;
		t->media_free_ns = mech(t, start, r->off_bytes, r->len_bytes);
		return t->media_free_ns;
	case ZTIME_WRITE:
		return hdd_write(t, now, r, r->implicit_open ? p->implicit_open_ns : 0);
	case ZTIME_FLUSH:
		start = now + p->cmd_ns;
		return start > t->media_free_ns ? start : t->media_free_ns;
	case ZTIME_RESET:
		return now + p->cmd_ns + p->reset_ns;
	case ZTIME_FINISH:
		return now + p->cmd_ns + p->finish_ns;
	case ZTIME_OPEN:
		return now + p->cmd_ns + p->open_ns;
	case ZTIME_CLOSE:
	default:
		return now + p->cmd_ns + p->close_ns;
	}
}

/*
 * serial=1 (mech=off only): the command's service starts when the previous
 * one completed (the drive is idle before it), so its fixed cost is paid
 * after theirs, not beside them; the media's free time is that completion.
 */
static uint64_t hdd_submit(struct ztime *t, uint64_t now, const struct ztime_req *r)
{
	uint64_t end;

	if (!t->p.serial)
		return hdd_serve(t, now, r);
	if (now < t->media_free_ns)
		now = t->media_free_ns;
	end = hdd_serve(t, now, r);
	t->media_free_ns = end;
	return end;
}

/* ---- flash ---- */

static uint32_t die_of(const struct ztime *t, uint64_t off)
{
	uint64_t zone = off / t->g.zone_bytes, page = off % t->g.zone_bytes / t->p.page_bytes;

	return (uint32_t)((zone * t->p.zone_dies + page % t->p.zone_dies) % t->nr_dies);
}

static uint64_t max64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

static uint64_t xfer_ns(const struct ztime *t, uint64_t bytes)
{
	return (uint64_t)((double)bytes * NS / (double)t->p.chan_bps);
}

static uint64_t flash_rw(struct ztime *t, uint64_t start, const struct ztime_req *r)
{
	uint64_t off = r->off_bytes, left = r->len_bytes, done = start;

	while (left) {
		uint64_t chunk = t->p.page_bytes - off % t->p.page_bytes;
		uint32_t d = die_of(t, off), c = d % t->p.channels;
		uint64_t s, e;

		if (chunk > left)
			chunk = left;
		if (r->op == ZTIME_READ) {
			s = max64(start, t->die_free[d]);
			e = s + t->p.read_ns;
			t->die_free[d] = e;
			s = max64(e, t->chan_free[c]);
			e = s + xfer_ns(t, chunk);
			t->chan_free[c] = e;
		} else {
			s = max64(start, t->chan_free[c]);
			e = s + xfer_ns(t, chunk);
			t->chan_free[c] = e;
			s = max64(e, t->die_free[d]);
			e = s + (uint64_t)((double)t->p.prog_ns * (double)chunk / (double)t->p.page_bytes);
			t->die_free[d] = e;
		}
		done = max64(done, e);
		off += chunk;
		left -= chunk;
	}
	return done;
}

/* Every die of the zone at @off does @per_die_ns of work; the last one's end. */
static uint64_t flash_zone_work(struct ztime *t, uint64_t start, uint64_t off, uint64_t per_die_ns)
{
	uint64_t zone = off / t->g.zone_bytes, done = start;
	uint32_t i;

	for (i = 0; i < t->p.zone_dies; i++) {
		uint32_t d = (uint32_t)((zone * t->p.zone_dies + i) % t->nr_dies);
		uint64_t s = max64(start, t->die_free[d]);

		t->die_free[d] = s + per_die_ns;
		done = max64(done, t->die_free[d]);
	}
	return done;
}

static uint64_t ceil_div(uint64_t a, uint64_t b)
{
	return (a + b - 1) / b;
}

/*
 * What a reset of a zone holding @held bytes costs each of its dies: the
 * erase of its blocks (erase x ceil(held / zone_dies / block)) and the
 * drive's cost per data held, reset_gib x (held / 1 GiB)^(reset_exp / 100).
 * The ZN540 measures the second (docs/TIMING.md, "Measured ZN540"): 1 LBA
 * costs 0.06 ms more than none, a full zone 13.9 ms more, growing as the
 * square root of the data held; no block erase of a few ms shows.
 */
static uint64_t flash_reset_per_die(const struct ztime *t, uint64_t held)
{
	const struct ztime_params *p = &t->p;
	double gib = (double)held / (double)(1ULL << 30);
	uint64_t blocks = ceil_div(ceil_div(held, p->zone_dies), p->block_bytes);

	return blocks * p->erase_ns +
	       (uint64_t)llround((double)p->reset_gib_ns * pow(gib, p->reset_exp_pct / 100.0));
}

static uint64_t flash_submit(struct ztime *t, uint64_t now, const struct ztime_req *r)
{
	const struct ztime_params *p = &t->p;
	uint64_t start = now + p->cmd_ns, held, per_die;

	switch (r->op) {
	case ZTIME_READ:
		return flash_rw(t, start, r);
	case ZTIME_WRITE:
		if (r->implicit_open)
			start += p->implicit_open_ns;
		return flash_rw(t, start, r);
	case ZTIME_FLUSH:
		return start;  /* no volatile cache modelled: writes complete programmed */
	case ZTIME_RESET:
		held = r->len_bytes < t->g.zone_bytes ? r->len_bytes : t->g.zone_bytes;
		if (!held)
			return start + p->reset_ns;
		return flash_zone_work(t, start + p->reset_ns, r->off_bytes,
				       flash_reset_per_die(t, held));
	case ZTIME_FINISH:
		held = r->len_bytes < t->g.zone_bytes ? r->len_bytes : t->g.zone_bytes;
		per_die = ceil_div(ceil_div(t->g.zone_bytes - held, p->zone_dies), p->page_bytes);
		return flash_zone_work(t, start + p->finish_ns, r->off_bytes, per_die * p->prog_ns);
	case ZTIME_OPEN:
		return start + p->open_ns;
	case ZTIME_CLOSE:
	default:
		return start + p->close_ns;
	}
}

uint64_t ztime_submit(struct ztime *t, uint64_t now_ns, const struct ztime_req *r)
{
	return t->p.kind == ZTIME_HDD ? hdd_submit(t, now_ns, r) : flash_submit(t, now_ns, r);
}

uint64_t ztime_media_free_ns(const struct ztime *t)
{
	uint64_t m = 0;
	uint32_t i;

	if (t->p.kind == ZTIME_HDD)
		return t->media_free_ns;
	for (i = 0; i < t->nr_dies; i++)
		m = max64(m, t->die_free[i]);
	return m;
}
