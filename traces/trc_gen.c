/*
 * trc_gen.c — the synthetic workload sources (trc_gen.h): a sequential fill,
 * then sequential, uniform, hot/cold or Zipf overwrites, in 4 KiB blocks.
 * Zipf uses rejection-inversion sampling (Hörmann and Derflinger, 1996):
 * O(1) per draw and no table, so a file of millions of blocks costs nothing
 * to set up.  Not a trace reader, not a mapping of a trace's addresses.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "trc_gen.h"
#include "zl_rng.h"

#define BLOCK 4096u

struct gen {
	struct trc_source src;
	struct trc_gen_cfg cfg;
	struct zl_rng rng;
	uint64_t file_blocks, req_blocks, span;  /* span: start blocks a request may take */
	uint64_t hot_blocks;
	uint64_t cursor;                         /* sequential: next block */
	uint64_t nr_done;
	/* zipf (rejection-inversion) */
	double z_s, z_hx1, z_hn, z_sv;
};

/* expm1(x) / x and log1p(x) / x, continuous at 0 */
static double helper2(double x)
{
	return fabs(x) > 1e-8 ? expm1(x) / x : 1.0 + x / 2.0 * (1.0 + x / 3.0);
}

static double helper1(double x)
{
	return fabs(x) > 1e-8 ? log1p(x) / x : 1.0 - x * (0.5 - x / 3.0);
}

static double z_h(const struct gen *g, double x)
{
	return exp(-g->z_s * log(x));
}

static double z_hint(const struct gen *g, double x)
{
	double lx = log(x);

	return helper2((1.0 - g->z_s) * lx) * lx;
}

static double z_hint_inv(const struct gen *g, double x)
{
	double t = x * (1.0 - g->z_s);

	if (t < -1.0)
		t = -1.0;
	return exp(helper1(t) * x);
}

static void zipf_init(struct gen *g)
{
	g->z_s = g->cfg.zipf_theta;
	g->z_hx1 = z_hint(g, 1.5) - 1.0;
	g->z_hn = z_hint(g, (double)g->span + 0.5);
	g->z_sv = 2.0 - z_hint_inv(g, z_hint(g, 2.5) - z_h(g, 2.0));
}

/* A rank in [1, span]. */
static uint64_t zipf_draw(struct gen *g)
{
	for (;;) {
		double u = g->z_hn + zl_rng_unit(&g->rng) * (g->z_hx1 - g->z_hn);
		double x = z_hint_inv(g, u);
		uint64_t k;

		if (!(x >= 1.0))
			k = 1;
		else if (x + 0.5 >= (double)g->span)
			k = g->span;
		else
			k = (uint64_t)(x + 0.5);
		if ((double)k - x <= g->z_sv || u >= z_hint(g, (double)k + 0.5) - z_h(g, (double)k))
			return k;
	}
}

static uint64_t pick_block(struct gen *g)
{
	uint64_t l;

	if (g->nr_done < g->cfg.nr_fill || g->cfg.kind == TRC_GEN_SEQ) {
		l = g->cursor;
		g->cursor += g->req_blocks;
		if (g->cursor + g->req_blocks > g->file_blocks)
			g->cursor = 0;
		return l;
	}
	switch (g->cfg.kind) {
	case TRC_GEN_HOTCOLD:
		if (zl_rng_unit(&g->rng) < g->cfg.hot_r || g->hot_blocks >= g->span)
			return zl_rng_below(&g->rng, g->hot_blocks);
		return g->hot_blocks + zl_rng_below(&g->rng, g->span - g->hot_blocks);
	case TRC_GEN_ZIPF:
		return zipf_draw(g) - 1;
	default:
		return zl_rng_below(&g->rng, g->span);
	}
}

static int gen_next(struct trc_source *src, struct trc_rec *rec)
{
	struct gen *g = (struct gen *)src;
	uint64_t b;

	if (g->nr_done >= g->cfg.nr_reqs)
		return 0;
	b = pick_block(g);
	*rec = (struct trc_rec){
		.ts_ns = g->nr_done * g->cfg.ts_step_ns,
		.offset_bytes = b * BLOCK,
		.len_bytes = g->req_blocks * BLOCK,
		.op = TRC_OP_WRITE,
	};
	if (g->cfg.kind == TRC_GEN_HOTCOLD) {
		rec->has = TRC_HAS_HINT;
		rec->hint = b < g->hot_blocks ? TRC_HINT_SHORT : TRC_HINT_LONG;
	}
	g->nr_done++;
	return 1;
}

static void gen_destroy(struct trc_source *src)
{
	free(src);
}

static const struct trc_source_ops gen_ops = { gen_next, gen_destroy };

int trc_gen_create(const struct trc_gen_cfg *cfg, struct trc_source **out)
{
	struct gen *g;

	if (cfg->kind > TRC_GEN_ZIPF || !cfg->req_bytes || cfg->req_bytes % BLOCK ||
	    cfg->file_bytes % BLOCK || cfg->req_bytes > cfg->file_bytes)
		return -EINVAL;
	if (cfg->kind == TRC_GEN_HOTCOLD &&
	    !(cfg->hot_r >= 0 && cfg->hot_r <= 1 && cfg->hot_f > 0 && cfg->hot_f < 1))
		return -EINVAL;
	if (cfg->kind == TRC_GEN_ZIPF && !(cfg->zipf_theta > 0 && cfg->zipf_theta <= 100))
		return -EINVAL;
	g = calloc(1, sizeof(*g));
	if (!g)
		return -ENOMEM;
	g->src.ops = &gen_ops;
	g->cfg = *cfg;
	/* its own stream: the seed's splitmix successor, apart from the
	 * simulator's generator of the same seed */
	zl_rng_seed(&g->rng, cfg->seed ^ 0x7472635f67656e00ULL);  /* "trc_gen" */
	g->file_blocks = cfg->file_bytes / BLOCK;
	g->req_blocks = cfg->req_bytes / BLOCK;
	g->span = g->file_blocks - g->req_blocks + 1;
	g->hot_blocks = (uint64_t)(cfg->hot_f * (double)g->span);
	if (g->hot_blocks < 1)
		g->hot_blocks = 1;
	if (cfg->kind == TRC_GEN_ZIPF)
		zipf_init(g);
	*out = &g->src;
	return 0;
}
