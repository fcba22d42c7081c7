/*
 * test_fsc_clean.c — fs-core's victim-selection policies: "NAME[:params]"
 * parsing and its errors (valid names and parameters listed); each policy's
 * choice on hand-built block groups (live bytes and seal times set by the
 * test, age by user writes: which victim, and that it differs where the
 * policies differ); the
 * fast structures agree with the scan of every block group over a long run
 * of random overwrites and relocations; d-choices' sampling (d = all
 * candidates without replacement = greedy; d = 1 spreads over all).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fsc_clean_int.h"
#include "fsc_test_util.h"
#include "zl_test.h"

#define BLOCKS_PER_BG 256u  /* 1 MiB zones of 4 KiB blocks */

struct cx {
	struct tdevs t;
	struct fsc *fs;
};

static struct cx *cx_new(uint32_t nr_zones, uint64_t file_blocks, enum fsc_clean_policy pol,
			 const struct fsc_clean_params *p)
{
	struct cx *x = calloc(1, sizeof(*x));
	struct fsc_cfg cfg;

	assert_non_null(x);
	tdevs_init(&x->t, 1, nr_zones, 1);
	tcfg(&cfg, &x->t, FSC_SINGLE);
	cfg.file_bytes = file_blocks * 4096;
	cfg.tree_fanout = 0;  /* data only */
	cfg.clean = pol;
	if (p)
		cfg.clean_params = *p;
	cfg.seed = 7;
	assert_int_equal(fsc_create(&cfg, &x->fs), 0);
	return x;
}

static void cx_free(struct cx *x)
{
	fsc_destroy(x->fs);
	tdevs_fini(&x->t);
	free(x);
}

/* Write file blocks [@first, @first + @n) at @now (synchronous completion). */
static void wr(struct cx *x, uint64_t first, uint64_t n, uint64_t now)
{
	struct fsc_bio *b;
	uint64_t l;

	for (l = first; l < first + n; l++) {
		assert_int_equal(fsc_write_file(x->fs, l, 1, now, &b), 0);
		assert_int_equal(fsc_submit(x->fs, b, now), 0);
	}
}

/* Delete file block @lbn (its space dies where it is). */
static void kill(struct cx *x, uint64_t lbn, uint64_t now)
{
	fsc_free_extent(x->fs, x->fs->file_map[lbn], 4096, now);
	x->fs->file_map[lbn] = FSC_NO_ADDR;
}

/*
 * Five full block groups A..E, written in that order, with 256, 100, 90,
 * 250, 60 live blocks of 256: A is fully live (never a candidate), B the
 * oldest candidate, E the emptiest and youngest.  Then @extra blocks
 * written elsewhere (fully live block groups, no candidates) age them: the
 * age clock is user bytes written.  Sealed at blocks 255, 511, 767, 1023,
 * 1279 (the last block's write seals before it counts), so ages in blocks
 * are B 769 + extra, C 513 + extra, D 257 + extra, E 1 + extra.
 */
static const uint32_t live[5] = { 256, 100, 90, 250, 60 };
#define EXTRA_FIRST (5 * BLOCKS_PER_BG)

static struct cx *five_aged(enum fsc_clean_policy pol, const struct fsc_clean_params *p,
			    uint32_t extra)
{
	struct cx *x = cx_new(32, EXTRA_FIRST + 4096, pol, p);
	uint32_t g, k;

	for (g = 0; g < 5; g++)
		wr(x, g * BLOCKS_PER_BG, BLOCKS_PER_BG, 10 * (g + 1));
	for (g = 0; g < 5; g++)
		for (k = live[g]; k < BLOCKS_PER_BG; k++)
			kill(x, g * BLOCKS_PER_BG + k, 55);
	wr(x, EXTRA_FIRST, extra, 60);
	return x;
}

static struct cx *five(enum fsc_clean_policy pol, const struct fsc_clean_params *p)
{
	return five_aged(pol, p, 256);
}

/* Which of A..E (0..4) @bg is, -1 for NULL. */
static int which(struct cx *x, const struct fsc_bg *bg)
{
	uint32_t g;

	if (!bg)
		return -1;
	for (g = 0; g < 5; g++)
		if (fsc_bg_lookup(x->fs, x->fs->file_map[g * BLOCKS_PER_BG]) == bg)
			return (int)g;
	return -2;
}

static int pick_of(enum fsc_clean_policy pol, const struct fsc_clean_params *p, uint32_t extra)
{
	struct cx *x = five_aged(pol, p, extra);
	int w = which(x, fsc_clean_pick(x->fs));

	if (pol != FSC_CLEAN_DCHOICES)  /* the scan reference agrees */
		assert_int_equal(which(x, fsc_clean_pick_scan(x->fs)), w);
	cx_free(x);
	return w;
}

static void test_fsc_clean_fifo_takes_the_oldest_candidate_not_a_fully_live_one(void **state)
{
	assert_int_equal(pick_of(FSC_CLEAN_FIFO, NULL, 256), 1);  /* B; A is fully live */
}

static void test_fsc_clean_greedy_takes_the_emptiest(void **state)
{
	assert_int_equal(pick_of(FSC_CLEAN_GREEDY, NULL, 256), 4);  /* E: 60 live */
}

static void test_fsc_clean_greedy_ties_go_to_the_oldest(void **state)
{
	struct cx *x;
	uint32_t k;

	/* two block groups of 156 live blocks, a full one between: the first */
	x = cx_new(16, 6 * BLOCKS_PER_BG, FSC_CLEAN_GREEDY, NULL);
	wr(x, 0, 3 * BLOCKS_PER_BG, 10);
	for (k = 0; k < 100; k++) {
		kill(x, k, 20);                      /* first: 156 live */
		kill(x, 2 * BLOCKS_PER_BG + k, 20);  /* third: 156 live */
	}
	assert_int_equal(fsc_clean_pick(x->fs)->start, fsc_bg_lookup(x->fs,
			 x->fs->file_map[100])->start);
	cx_free(x);
}

static void test_fsc_clean_windowed_is_greedy_among_the_w_oldest(void **state)
{
	struct fsc_clean_params p;

	fsc_clean_params_init(&p);
	p.w = 1;
	assert_int_equal(pick_of(FSC_CLEAN_WINDOWED, &p, 256), 1);  /* B alone */
	p.w = 2;
	assert_int_equal(pick_of(FSC_CLEAN_WINDOWED, &p, 256), 2);  /* C (90) < B (100) */
	p.w = 3;
	assert_int_equal(pick_of(FSC_CLEAN_WINDOWED, &p, 256), 2);  /* D (250) does not win */
	p.w = 4;
	assert_int_equal(pick_of(FSC_CLEAN_WINDOWED, &p, 256), 4);  /* E in: greedy */
}

static void test_fsc_clean_btrfs_takes_the_emptiest_under_the_threshold(void **state)
{
	struct fsc_clean_params p;

	fsc_clean_params_init(&p);
	assert_int_equal(p.threshold_pct, 75);
	assert_int_equal(pick_of(FSC_CLEAN_BTRFS, &p, 256), 4);   /* E: 23% used */
	p.threshold_pct = 24;
	assert_int_equal(pick_of(FSC_CLEAN_BTRFS, &p, 256), 4);   /* 60 * 100 < 24 * 256 */
	p.threshold_pct = 23;
	assert_int_equal(pick_of(FSC_CLEAN_BTRFS, &p, 256), -1);  /* none under 23% */
}

static void test_fsc_clean_cost_benefit_weighs_age_against_live_bytes(void **state)
{
	/* 256 blocks later: ages B 1025, C 769, E 257 -> (1-u) age / (1+u):
	 * B 449, C 369, E 159: B, though E is emptier */
	assert_int_equal(pick_of(FSC_CLEAN_COST_BENEFIT, NULL, 256), 1);
	/* 1280 later: B 898, C 860, E 795: still B */
	assert_int_equal(pick_of(FSC_CLEAN_COST_BENEFIT, NULL, 1280), 1);
	/* 2560 later: B 1459, C 1474, E 1588: ages closer, the emptiest wins */
	assert_int_equal(pick_of(FSC_CLEAN_COST_BENEFIT, NULL, 2560), 4);
}

static void test_fsc_clean_cat_divides_by_u(void **state)
{
	/* (1-u) age / (u (1 + erases)), no zone erased yet: 256 later: B 1599,
	 * C 1418, E 839: B; 1280 later: B 3197, C 3306, E 4184: E, where
	 * cost-benefit still takes B */
	assert_int_equal(pick_of(FSC_CLEAN_CAT, NULL, 256), 1);
	assert_int_equal(pick_of(FSC_CLEAN_CAT, NULL, 1280), 4);
}

static void test_fsc_clean_dchoices_samples_from_the_candidates(void **state)
{
	struct fsc_clean_params p;
	uint32_t hits[5] = { 0 }, i;
	struct cx *x;
	int w;

	fsc_clean_params_init(&p);
	p.d = 4;  /* every candidate, without replacement: the emptiest */
	assert_int_equal(pick_of(FSC_CLEAN_DCHOICES, &p, 256), 4);
	p.d = 1;  /* random selection: every candidate, about equally */
	x = five(FSC_CLEAN_DCHOICES, &p);
	for (i = 0; i < 4000; i++) {
		w = which(x, fsc_clean_pick(x->fs));
		assert_in_range(w, 1, 4);
		hits[w]++;
	}
	assert_int_equal(hits[0], 0);
	for (i = 1; i < 5; i++)
		assert_in_range(hits[i], 850, 1150);
	cx_free(x);
	/* the same seed gives the same sequence */
	x = five(FSC_CLEAN_DCHOICES, &p);
	{
		struct cx *y = five(FSC_CLEAN_DCHOICES, &p);

		for (i = 0; i < 100; i++)
			assert_int_equal(which(x, fsc_clean_pick(x->fs)),
					 which(y, fsc_clean_pick(y->fs)));
		cx_free(y);
	}
	cx_free(x);
	/* with replacement, d = 2: the larger of two draws is picked less
	 * often than the smaller; the fullest candidate (D) least */
	p.d = 2;
	p.replace = true;
	memset(hits, 0, sizeof(hits));
	x = five(FSC_CLEAN_DCHOICES, &p);
	for (i = 0; i < 4000; i++)
		hits[which(x, fsc_clean_pick(x->fs))]++;
	/* P(E) = 1 - (3/4)^2 = 7/16; P(D) = (1/4)^2 = 1/16 */
	assert_in_range(hits[4], 1550, 1950);
	assert_in_range(hits[3], 150, 350);
	cx_free(x);
}

/*
 * Random overwrites on 32 zones at 80% with cleaning whenever fewer than 2
 * zones are free: at every pick the policy's structures give the scan's
 * choice (same eligibility, same order, same ties).
 */
static void agree_over_a_run(enum fsc_clean_policy pol, const struct fsc_clean_params *p)
{
	uint64_t nblocks = 30 * BLOCKS_PER_BG * 8 / 10, i, now = 0;
	struct cx *x = cx_new(32, nblocks, pol, p);
	struct zl_rng r;
	uint32_t picks = 0;

	zl_rng_seed(&r, 3);
	wr(x, 0, nblocks, 0);
	for (i = 0; i < 20 * nblocks; i++) {
		now += 1000;
		while (fsc_min_free_zones(x->fs) < 2) {
			struct fsc_bg *v = fsc_clean_pick(x->fs), *sv;
			struct fsc_bio *list, *b, *next;

			sv = fsc_clean_pick_scan(x->fs);
			if (v != sv)
				fprintf(stderr, "pol %d pick %p used %llu seq %llu member %d / scan %p used %llu seq %llu member %d cleanable %d\n", pol, (void *)v, v ? (unsigned long long)v->used_bytes : 0, v ? (unsigned long long)v->seq : 0, v ? v->clean_member : 0, (void *)sv, sv ? (unsigned long long)sv->used_bytes : 0, sv ? (unsigned long long)sv->seq : 0, sv ? sv->clean_member : 0, v ? fsc_bg_is_cleanable(v) : 0);
			assert_ptr_equal(v, sv);
			assert_non_null(v);
			picks++;
			assert_true(fsc_relocate(x->fs, v, now, &list) >= 0);
			for (b = list; b; b = next) {
				next = b->next;
				fsc_submit(x->fs, b, now);
			}
		}
		wr(x, zl_rng_below(&r, nblocks), 1, now);
		/* the direct lookup map agrees with the binary search */
		{
			uint64_t a = x->fs->file_map[zl_rng_below(&r, nblocks)];

			assert_false(x->fs->bgmap.off);
			assert_ptr_equal(fsc_bg_lookup(x->fs, a), fsc_bg_lookup_search(x->fs, a));
			assert_ptr_equal(fsc_bg_lookup(x->fs, a + 1), fsc_bg_lookup_search(x->fs, a + 1));
			a = zl_rng_below(&r, x->fs->next_logical + (1u << 22));  /* holes too */
			assert_ptr_equal(fsc_bg_lookup(x->fs, a), fsc_bg_lookup_search(x->fs, a));
		}
	}
	assert_true(picks > 100);
	cx_free(x);
}

static void test_fsc_clean_structures_agree_with_the_scan(void **state)
{
	struct fsc_clean_params p;
	int pol;

	fsc_clean_params_init(&p);
	for (pol = 0; pol < FSC_NR_CLEAN; pol++)
		if (pol != FSC_CLEAN_DCHOICES && pol != FSC_CLEAN_BTRFS)
			agree_over_a_run((enum fsc_clean_policy)pol, &p);
	p.w = 3;
	agree_over_a_run(FSC_CLEAN_WINDOWED, &p);
	p.threshold_pct = 100;  /* at 80% victims hold ~65% live */
	agree_over_a_run(FSC_CLEAN_BTRFS, &p);
}

static void test_fsc_clean_parse_names_params_and_errors(void **state)
{
	struct fsc_clean_params p;
	enum fsc_clean_policy pol;
	char msg[512], spec[128];

	assert_int_equal(fsc_clean_parse("greedy", &pol, &p, msg, sizeof(msg)), 0);
	assert_int_equal(pol, FSC_CLEAN_GREEDY);
	assert_int_equal(fsc_clean_parse("d-choices:d=4,replace=1", &pol, &p, msg, sizeof(msg)), 0);
	assert_int_equal(pol, FSC_CLEAN_DCHOICES);
	assert_int_equal(p.d, 4);
	assert_true(p.replace);
	fsc_clean_spec(pol, &p, spec, sizeof(spec));
	assert_string_equal(spec, "d-choices:d=4,replace=1");
	assert_int_equal(fsc_clean_parse("windowed:32", &pol, &p, msg, sizeof(msg)), 0);
	assert_int_equal(p.w, 32);
	assert_int_equal(fsc_clean_parse("btrfs", &pol, &p, msg, sizeof(msg)), 0);
	assert_int_equal(p.threshold_pct, 75);
	fsc_clean_spec(pol, &p, spec, sizeof(spec));
	assert_string_equal(spec, "btrfs:threshold=75");

	assert_int_equal(fsc_clean_parse("lru", &pol, &p, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "unknown policy"));
	assert_non_null(strstr(msg, "fifo, greedy, cost-benefit, cat, d-choices, windowed, btrfs"));
	assert_int_equal(fsc_clean_parse("d-choices:k=3", &pol, &p, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "unknown parameter \"k=3\""));
	assert_non_null(strstr(msg, "d=1..1024"));
	assert_int_equal(fsc_clean_parse("d-choices:d=0", &pol, &p, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "between 1 and 1024"));
	assert_int_equal(fsc_clean_parse("btrfs:threshold=101", &pol, &p, msg, sizeof(msg)),
			 -EINVAL);
	assert_int_equal(fsc_clean_parse("btrfs:threshold=-5", &pol, &p, msg, sizeof(msg)),
			 -EINVAL);
	assert_int_equal(fsc_clean_parse("windowed:w=", &pol, &p, msg, sizeof(msg)), -EINVAL);
	assert_int_equal(fsc_clean_parse("windowed:w=9x", &pol, &p, msg, sizeof(msg)), -EINVAL);
	assert_int_equal(fsc_clean_parse("greedy:w=3", &pol, &p, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "greedy takes no parameters"));
	assert_int_equal(fsc_clean_parse("", &pol, &p, msg, sizeof(msg)), -EINVAL);
	/* a failed parse leaves the outputs alone */
	pol = FSC_CLEAN_FIFO;
	assert_int_equal(fsc_clean_parse("cat:1", &pol, &p, msg, sizeof(msg)), -EINVAL);
	assert_int_equal(pol, FSC_CLEAN_FIFO);
}

static void test_fsc_clean_bad_params_refuse_create(void **state)
{
	struct tdevs t;
	struct fsc_cfg cfg;
	struct fsc *fs = NULL;

	tdevs_init(&t, 1, 8, 1);
	tcfg(&cfg, &t, FSC_SINGLE);
	cfg.clean = FSC_CLEAN_DCHOICES;
	cfg.clean_params.d = 0;
	assert_int_equal(fsc_create(&cfg, &fs), -EINVAL);
	assert_null(fs);
	cfg.clean = (enum fsc_clean_policy)FSC_NR_CLEAN;
	assert_int_equal(fsc_create(&cfg, &fs), -EINVAL);
	tdevs_fini(&t);
}

/* Placement: the hint splits hot and cold into two logs, relocation goes
 * back to its log or (reloc=1) to its own; freq calls a block hot when the
 * data it replaces is young. */
static void test_fsc_place_streams_by_hint_age_and_relocation(void **state)
{
	struct tdevs t;
	struct fsc_cfg cfg;
	struct fsc *fs;
	struct fsc_bio *b, *list;
	struct fsc_bg *hot, *cold;
	char msg[256];
	uint64_t l;

	tdevs_init(&t, 1, 16, 1);
	tcfg(&cfg, &t, FSC_SINGLE);
	cfg.file_bytes = 1024 * 4096;
	cfg.tree_fanout = 0;
	assert_int_equal(fsc_place_parse("hint:reloc=1", &cfg.place, &cfg.place_params, msg,
					 sizeof(msg)), 0);
	assert_int_equal(fsc_place_nr_logs(cfg.place, &cfg.place_params), 3);
	assert_int_equal(fsc_create(&cfg, &fs), 0);
	assert_int_equal(fsc_write_file_hint(fs, 0, 1, FSC_HINT_SHORT, 0, &b), 0);
	hot = b->bg;
	assert_int_equal(fsc_submit(fs, b, 0), 0);
	assert_int_equal(fsc_write_file_hint(fs, 1, 1, FSC_HINT_LONG, 0, &b), 0);
	cold = b->bg;
	assert_int_equal(fsc_submit(fs, b, 0), 0);
	assert_ptr_not_equal(hot, cold);
	assert_int_equal(fsc_write_file_hint(fs, 2, 1, FSC_HINT_EXTREME, 0, &b), 0);
	assert_ptr_equal(b->bg, cold);
	assert_int_equal(fsc_submit(fs, b, 0), 0);
	assert_int_equal(fsc_write_file_hint(fs, 3, 1, FSC_HINT_NOT_SET, 0, &b), 0);
	assert_ptr_equal(b->bg, hot);
	assert_int_equal(fsc_submit(fs, b, 0), 0);
	/* fill the hot log's block group, kill half: relocation to a third */
	for (l = 4; l < BLOCKS_PER_BG + 2; l++) {
		assert_int_equal(fsc_write_file_hint(fs, l, 1, FSC_HINT_SHORT, 0, &b), 0);
		assert_int_equal(fsc_submit(fs, b, 0), 0);
	}
	assert_true(hot->alloc_done);
	for (l = 4; l < 100; l++) {
		fsc_free_extent(fs, fs->file_map[l], 4096, 1);
		fs->file_map[l] = FSC_NO_ADDR;
	}
	assert_ptr_equal(fsc_clean_pick(fs), hot);
	assert_true(fsc_relocate(fs, hot, 2, &list) > 0);
	assert_ptr_not_equal(list->bg, hot);
	assert_ptr_not_equal(list->bg, cold);
	assert_int_equal(list->bg->stream, 2);
	while (list) {
		b = list->next;
		fsc_submit(fs, list, 2);
		list = b;
	}
	fsc_destroy(fs);

	/* freq: first writes cold; a rewrite within age_writes hot, after it cold */
	tcfg(&cfg, &t, FSC_SINGLE);
	cfg.file_bytes = 1024 * 4096;
	cfg.tree_fanout = 0;
	assert_int_equal(fsc_place_parse("freq:age=3", &cfg.place, &cfg.place_params, msg,
					 sizeof(msg)), 0);
	assert_int_equal(fsc_create(&cfg, &fs), 0);
	assert_int_equal(fsc_place_user(fs, 10, 0), 1);  /* write 1: new, cold */
	assert_int_equal(fsc_place_user(fs, 10, 0), 0);  /* write 2: replaced 1 write ago */
	assert_int_equal(fsc_place_user(fs, 11, 0), 1);
	assert_int_equal(fsc_place_user(fs, 12, 0), 1);
	assert_int_equal(fsc_place_user(fs, 13, 0), 1);
	assert_int_equal(fsc_place_user(fs, 10, 0), 1);  /* write 6: 4 writes later: cold */
	fsc_destroy(fs);
	tdevs_fini(&t);

	assert_int_equal(fsc_place_parse("lru", &cfg.place, &cfg.place_params, msg, sizeof(msg)),
			 -EINVAL);
	assert_non_null(strstr(msg, "one of: one-log, reloc, hint, freq"));
	assert_int_equal(fsc_place_parse("hint:age=3", &cfg.place, &cfg.place_params, msg,
					 sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "hint takes reloc=0|1"));
	assert_int_equal(fsc_place_parse("one-log:reloc=2", &cfg.place, &cfg.place_params, msg,
					 sizeof(msg)), -EINVAL);
}

/* Max active zones: a third log beyond a limit of 2 finishes the active
 * block group with the least capacity left, counts what it wastes, and the
 * device sees the zone FULL; fully allocated block groups are waited for
 * rather than finished. */
static void test_fsc_active_limit_finishes_the_least_wasteful_zone(void **state)
{
	struct tdevs t;
	struct fsc_cfg cfg;
	struct fsc *fs;
	struct fsc_bio *b, *list;
	struct fsc_bg *hot, *cold;
	struct zblk_zone z;
	char msg[256];
	uint64_t l;

	tdevs_init(&t, 1, 16, 1);
	tcfg(&cfg, &t, FSC_SINGLE);
	cfg.file_bytes = 1024 * 4096;
	cfg.tree_fanout = 0;
	cfg.max_active_zones = 2;
	assert_int_equal(fsc_place_parse("hint:reloc=1", &cfg.place, &cfg.place_params, msg,
					 sizeof(msg)), 0);
	assert_int_equal(fsc_create(&cfg, &fs), 0);
	/* hot: 10 blocks; cold: 200 blocks, 100 of them then deleted */
	for (l = 0; l < 10; l++) {
		assert_int_equal(fsc_write_file_hint(fs, l, 1, FSC_HINT_SHORT, 0, &b), 0);
		hot = b->bg;
		assert_int_equal(fsc_submit(fs, b, 0), 0);
	}
	for (l = 10; l < 210; l++) {
		assert_int_equal(fsc_write_file_hint(fs, l, 1, FSC_HINT_LONG, 0, &b), 0);
		cold = b->bg;
		assert_int_equal(fsc_submit(fs, b, 0), 0);
	}
	assert_int_equal(fs->devs[0].nr_active, 2);
	for (l = 10; l < 110; l++) {
		fsc_free_extent(fs, fs->file_map[l], 4096, 1);
		fs->file_map[l] = FSC_NO_ADDR;
	}
	/* the cold block group is not sealed: no candidate yet; a relocation
	 * log needs a third zone: finish cold (56 blocks left) not hot (246) */
	assert_null(fsc_clean_pick(fs));
	assert_int_equal(fsc_alloc_make_room(fs, FSC_BG_DATA, 2), 0);
	assert_int_equal(fsc_stats(fs)->nr_zone_finishes, 1);
	assert_int_equal(fsc_stats(fs)->finish_waste_bytes, 56 * 4096);
	assert_true(cold->alloc_done);
	assert_false(hot->alloc_done);
	assert_int_equal(zblk_report(t.b[0], cold->stripes[0].phys, &z, 1), 1);
	assert_int_equal(z.cond, ZL_COND_FULL);
	/* finished, half dead: a candidate now; its relocation fits in 2 active */
	assert_ptr_equal(fsc_clean_pick(fs), cold);
	assert_true(fsc_relocate(fs, cold, 3, &list) > 0);
	while (list) {
		b = list->next;
		assert_int_equal(fsc_submit(fs, list, 3), 0);
		list = b;
	}
	assert_true(fs->devs[0].nr_active <= 2);
	assert_int_equal(fsc_stats(fs)->nr_dev_errors, 0);
	fsc_destroy(fs);
	tdevs_fini(&t);
}

/* The indexed heap on its own: keys moved up and down, deletions, a block
 * group of another heap sharing the slot; the top is always the least
 * member (checked against a scan) and draining it gives the sorted order. */
static void test_fsc_heap_keeps_the_least_on_top_through_rekeys(void **state)
{
	enum { N = 300 };
	struct fsc_heap h = { .slot = 0, .key = fsc_clean_key_emptier };
	struct fsc_heap other = { .slot = 0, .key = fsc_clean_key_older };
	struct fsc_bg *bg = calloc(N, sizeof(*bg)), *best;
	bool in[N] = { false };
	uint64_t rng = 42, prev_used = 0, prev_seq = 0;
	uint32_t i, k, nr = 0;

	assert_non_null(bg);
	for (i = 0; i < N; i++) {
		bg[i].seq = i;
		bg[i].used_bytes = (zl_test_rand(&rng) % 64) * 4096;
		if (i % 7 == 0) {  /* in the other heap, same slot */
			assert_int_equal(fsc_heap_push(&other, &bg[i]), 0);
			continue;
		}
		assert_int_equal(fsc_heap_push(&h, &bg[i]), 0);
		in[i] = true;
		nr++;
	}
	for (k = 0; k < 5000; k++) {
		i = (uint32_t)(zl_test_rand(&rng) % N);
		switch (zl_test_rand(&rng) % 4) {
		case 0:  /* key down */
			bg[i].used_bytes = bg[i].used_bytes ? bg[i].used_bytes - 4096 : 0;
			fsc_heap_fix(&h, &bg[i]);
			break;
		case 1:  /* key up */
			bg[i].used_bytes += 4096 * (1 + zl_test_rand(&rng) % 8);
			fsc_heap_fix(&h, &bg[i]);
			break;
		case 2:  /* out (a no-op for a non-member, also one of the other heap) */
			fsc_heap_del(&h, &bg[i]);
			nr -= in[i];
			in[i] = false;
			break;
		default:  /* in again */
			if (!in[i] && i % 7) {
				assert_int_equal(fsc_heap_push(&h, &bg[i]), 0);
				in[i] = true;
				nr++;
			}
		}
		assert_int_equal(h.nr, nr);
		best = NULL;
		for (uint32_t j = 0; j < N; j++)
			if (in[j] && (!best || fsc_clean_emptier(&bg[j], best)))
				best = &bg[j];
		assert_ptr_equal(fsc_heap_top(&h), best);
	}
	assert_int_equal(other.nr, (N + 6) / 7);  /* untouched by h's calls */
	while ((best = fsc_heap_top(&h))) {
		assert_true(best->used_bytes > prev_used ||
			    (best->used_bytes == prev_used && best->seq >= prev_seq));
		prev_used = best->used_bytes;
		prev_seq = best->seq;
		fsc_heap_del(&h, best);
		nr--;
	}
	assert_int_equal(nr, 0);
	fsc_heap_fini(&h);
	fsc_heap_fini(&other);
	free(bg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fsc_clean_fifo_takes_the_oldest_candidate_not_a_fully_live_one),
		cmocka_unit_test(test_fsc_clean_greedy_takes_the_emptiest),
		cmocka_unit_test(test_fsc_clean_greedy_ties_go_to_the_oldest),
		cmocka_unit_test(test_fsc_clean_windowed_is_greedy_among_the_w_oldest),
		cmocka_unit_test(test_fsc_clean_btrfs_takes_the_emptiest_under_the_threshold),
		cmocka_unit_test(test_fsc_clean_cost_benefit_weighs_age_against_live_bytes),
		cmocka_unit_test(test_fsc_clean_cat_divides_by_u),
		cmocka_unit_test(test_fsc_clean_dchoices_samples_from_the_candidates),
		cmocka_unit_test(test_fsc_clean_structures_agree_with_the_scan),
		cmocka_unit_test(test_fsc_heap_keeps_the_least_on_top_through_rekeys),
		cmocka_unit_test(test_fsc_clean_parse_names_params_and_errors),
		cmocka_unit_test(test_fsc_clean_bad_params_refuse_create),
		cmocka_unit_test(test_fsc_place_streams_by_hint_age_and_relocation),
		cmocka_unit_test(test_fsc_active_limit_finishes_the_least_wasteful_zone),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
