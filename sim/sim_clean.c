/*
 * sim_clean.c — cleaning as the simulator drives it: while the free zones
 * are below the reserve, fs-core's policy picks a victim (fs-core/
 * fsc_clean*.c: greedy, fifo, ...) and its live blocks are relocated; each
 * copy first reads its source on the device when relocation reads are on,
 * then takes the normal write path.  Which victim and how blocks move are
 * fs-core's; this file only decides when, and what it costs in device time.
 */
#include "sim_run.h"

/*
 * A relocation copy first reads its source (one copy of a mirror, the
 * mapped stripe of RAID0/10) on the device, which takes device time like a
 * write; the copy enters the write path when the read completed.
 */
static void reloc_read(struct sim *s, struct fsc_bio *b)
{
	const struct fsc_bg *src = b->src_bg;
	uint64_t phys, run;
	uint32_t idx, st;
	struct zblk *blk;
	int ret;

	fsc_map_stripe(src, b->src_logical - src->start, b->len_bytes, &idx, &phys, &run);
	/* the first copy (every device of a run is present) */
	st = src->profile == FSC_RAID0 || src->profile == FSC_RAID10 ? idx * src->sub_stripes : 0;
	blk = s->devs.blk[src->stripes[st].dev];
	blk->last_delay_ns = 0;
	ret = zblk_read(blk, src->stripes[st].phys + phys, NULL, b->len_bytes);
	if (ret) {
		s->res->nr_read_errors++;
		if (s->cfg->dev_error_abort && !s->err)
			s->err = ret;
	}
	sim_push(s, sim_dev_time(s, src->stripes[st].dev, src->stripes[st].phys, b->len_bytes,
				 blk->last_delay_ns), EV_READ_DONE, b);
}

void sim_clean(struct sim *s)
{
	struct fsc_bio *list, *b, *next;
	struct fsc_bg *victim;
	int n, guard = 0;

	while (fsc_min_free_zones(s->fs) + fsc_stats(s->fs)->nr_relocating < s->reserve_free_zones &&
	       guard++ < 64) {
		victim = fsc_clean_pick(s->fs);
		if (!victim) {
			/* unpin what the running transaction freed, at most once
			 * per zone of user data (no commit storms) */
			if (s->cfg->metadata && !s->in_commit &&
			    s->bytes_since_commit >= s->cfg->zone_bytes)
				sim_commit_start(s);
			return;
		}
		n = fsc_relocate(s->fs, victim, s->now, &list);
		if (n < 0)
			return;  /* ENOSPC shows up at the next allocation */
		for (b = list; b; b = next) {
			next = b->next;
			if (s->cfg->reloc_reads)
				reloc_read(s, b);  /* then the normal write path */
			else
				sim_enqueue(s, b);  /* the normal write path (checksums) */
		}
	}
}
