/*
 * sim_time.c — the simulator's devices on the device timing model
 * (emulator/ztime.h, --timing-model PRESET[,k=v]): one struct ztime per
 * device, the zone operations fs-core makes (resets, finishes) charged on
 * the device they go to, and each data command's completion.  Without a
 * model nothing here runs and sim_io.c's first-order model times the
 * devices.  Queueing: the simulator has no device queue; a command goes to
 * the model when it is dispatched (FIFO, params.sched is not used here: the
 * workers and the submit buffer do the simulator's reordering), the model
 * serialises what its media serialise (the HDD's mechanism, a flash die),
 * and a zone operation blocks its device until it completes (fs-core makes
 * it synchronously).
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "sim_run.h"

/* A device's zblk ops with zone management timed; b->ops points at .ops. */
struct sim_tops {
	struct zblk_ops ops;
	const struct zblk_ops *inner;
	struct sim *s;
	uint32_t dev;
};

static struct sim_tops *tops_of(const struct zblk *b)
{
	return (struct sim_tops *)((char *)b->ops - offsetof(struct sim_tops, ops));
}

static enum ztime_op zop_of(enum zl_zone_op op)
{
	switch (op) {
	case ZL_ZOP_RESET: return ZTIME_RESET;
	case ZL_ZOP_FINISH: return ZTIME_FINISH;
	case ZL_ZOP_OPEN: return ZTIME_OPEN;
	default: return ZTIME_CLOSE;
	}
}

static int timed_zone_mgmt(struct zblk *b, enum zl_zone_op op, uint64_t pos_bytes)
{
	struct sim_tops *t = tops_of(b);
	struct zblk_zone z;
	uint64_t held = 0;
	int ret;

	/* what the zone held: a reset erases it (flash), a finish pads the rest */
	if (!zblk_zone_get(b, pos_bytes, &z) && z.type != ZL_ZONE_TYPE_CONV &&
	    z.wp_bytes != UINT64_MAX && z.wp_bytes > z.start_bytes)
		held = z.wp_bytes - z.start_bytes < z.len_bytes ? z.wp_bytes - z.start_bytes :
		       z.len_bytes;
	ret = t->inner->zone_mgmt(b, op, pos_bytes);
	if (!ret)
		sim_time_cmd(t->s, t->dev, zop_of(op), pos_bytes, held, 0);
	return ret;
}

int sim_time_open(struct sim *s)
{
	const struct sim_cfg *c = s->cfg;
	struct sim_result *res = s->res;
	struct ztime_params p;
	struct ztime_geo g = { c->zone_bytes, c->nr_zones };
	char why[200];
	uint32_t i;
	int ret;

	if (!c->timing_model)
		return 0;
	ret = ztime_parse(c->timing_model, &p, why, sizeof(why));
	if (ret) {
		zl_msgf(res->msg, sizeof(res->msg), "--timing-model: %s", why);
		return ret;
	}
	s->tops = calloc(sim_nr_open_devs(c), sizeof(*s->tops));
	if (!s->tops)
		return -ENOMEM;
	for (i = 0; i < sim_nr_open_devs(c); i++) {  /* the spare too (--fail-dev) */
		ret = ztime_create(&p, &g, &s->zt[i], why, sizeof(why));
		if (ret) {
			zl_msgf(res->msg, sizeof(res->msg), "--timing-model %s: device %u (%u zones "
				"of %llu bytes): %s", c->timing_model, i, c->nr_zones,
				(unsigned long long)c->zone_bytes, why);
			return ret;
		}
		s->tops[i].ops = *s->devs.blk[i]->ops;
		s->tops[i].ops.zone_mgmt = timed_zone_mgmt;
		s->tops[i].inner = s->devs.blk[i]->ops;
		s->tops[i].s = s;
		s->tops[i].dev = i;
		s->devs.blk[i]->ops = &s->tops[i].ops;
	}
	return 0;
}

void sim_time_close(struct sim *s)
{
	uint32_t i;

	for (i = 0; i < FSC_MAX_DEVS; i++) {
		if (s->tops && i < sim_nr_open_devs(s->cfg) && s->devs.blk[i] &&
		    s->devs.blk[i]->ops == &s->tops[i].ops)
			s->devs.blk[i]->ops = s->tops[i].inner;
		ztime_destroy(s->zt[i]);
		s->zt[i] = NULL;
	}
	free(s->tops);
	s->tops = NULL;
}

uint64_t sim_time_cmd(struct sim *s, uint32_t d, enum ztime_op op, uint64_t off, uint64_t bytes,
		      uint64_t extra_ns)
{
	struct ztime *zt = s->zt[d];
	struct ztime_req r = { op, off, bytes, false, false };
	uint64_t start = s->busy_until[d] > s->now ? s->busy_until[d] : s->now, done;
	uint64_t zb = s->cfg->zone_bytes;

	if (op == ZTIME_WRITE)  /* fs-core opens no zone explicitly: the first write does */
		r.implicit_open = off % zb == 0 && off / zb >= s->cfg->nr_conv;
	if (op >= ZTIME_FLUSH && ztime_media_free_ns(zt) > start)
		start = ztime_media_free_ns(zt);  /* the drive finishes what it is doing */
	done = ztime_submit(zt, start, &r) + extra_ns;
	if (op >= ZTIME_RESET) {  /* a zone op blocks the device until it is over */
		s->busy_until[d] = done;
		s->res->zone_op_ns += done - start;
	}
	s->res->nr_timed_cmds++;
	return done;
}
