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
 * A relocation read of a RAID5/6 block group (the hypothetical profile):
 * each data unit the copy covers from its stripe, or, that device missing,
 * from N-1 (N-2) others (sim_r56_read()); the copy goes on when the last
 * read is done.
 */
static void reloc_read_r56(struct sim *s, struct fsc_bio *b, uint32_t idx, uint64_t phys)
{
	const struct fsc_bg *src = b->src_bg;
	uint64_t off = b->src_logical - src->start, left = b->len_bytes, run, done = s->now, t;
	uint32_t st[FSC_MAX_STRIPES], n, i;
	int ret;

	while (left) {
		fsc_map_stripe(src, off, left, &idx, &phys, &run);
		n = sim_r56_read(s, src, idx, st);
		if (!n)
			s->res->nr_read_errors++;
		for (i = 0; i < n; i++) {
			const struct fsc_stripe *x = &src->stripes[st[i]];
			struct zblk *blk = s->fs->devs[x->dev].blk;

			blk->last_delay_ns = 0;
			ret = zblk_read(blk, x->phys + phys, NULL, run);
			if (ret) {
				s->res->nr_read_errors++;
				if (s->cfg->dev_error_abort && !s->err)
					s->err = ret;
			}
			t = sim_dev_time(s, s->fl.tdev[x->dev], ZTIME_READ, x->phys, x->phys + phys,
					 run, blk->last_delay_ns);
			if (t > done)
				done = t;
		}
		off += run;
		left -= run;
	}
	sim_push(s, done, EV_READ_DONE, b);
}

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
	if (fsc_bg_is_r56(src)) {
		reloc_read_r56(s, b, idx, phys);
		return;
	}
	/* the first copy, or its mirror when its device is missing (--fail-dev) */
	st = src->profile == FSC_RAID0 || src->profile == FSC_RAID10 ? idx * src->sub_stripes : 0;
	st = sim_read_stripe(s, src, st);
	if (st == SIM_NO_DEV) {  /* no copy left: the copy goes on, the read failed */
		s->res->nr_read_errors++;
		sim_push(s, s->now, EV_READ_DONE, b);
		return;
	}
	blk = s->fs->devs[src->stripes[st].dev].blk;
	blk->last_delay_ns = 0;
	ret = zblk_read(blk, src->stripes[st].phys + phys, NULL, b->len_bytes);
	if (ret) {
		s->res->nr_read_errors++;
		if (s->cfg->dev_error_abort && !s->err)
			s->err = ret;
	}
	sim_push(s, sim_dev_time(s, s->fl.tdev[src->stripes[st].dev], ZTIME_READ, src->stripes[st].phys,
				 src->stripes[st].phys + phys, b->len_bytes, blk->last_delay_ns),
		 EV_READ_DONE, b);
}

/* The copies of a victim into the write path. */
static void reloc_issue(struct sim *s, struct fsc_bio *list)
{
	struct fsc_bio *b, *next;

	for (b = list; b; b = next) {
		next = b->next;
		if (s->cfg->reloc_reads)
			reloc_read(s, b);  /* then the normal write path */
		else
			sim_enqueue(s, b);  /* the normal write path (checksums) */
	}
}

/*
 * The kernel's reclaim (linux-6.1, linux-6.12) as the cleaner thread runs
 * it after a commit (btrfs_reclaim_bgs(), btrfs_reclaim_bgs_work()):
 * fs-core's list (6.12: swept first), gated and sorted when the pass
 * begins; one victim at a time, the next when the last one's copies are
 * done (and, for tree blocks, committed); a failed relocation goes back on
 * the list.  User writes wait while a pass runs (the method's phases wait
 * for a quiet disk, docs/VALIDATION.md).
 */
static void reclaim(struct sim *s)
{
	struct fsc_bio *list;
	struct fsc_bg *victim;
	int n;

	if (s->rc_wanted && !s->rc_active) {
		s->rc_wanted = false;
		fsc_delete_unused(s->fs, s->now);  /* the cleaner deletes first */
		s->rc_active = fsc_reclaim_pass_begin(s->fs);
	}
	while (s->rc_active && !fsc_stats(s->fs)->nr_relocating) {
		/* --meta-model btrfs: the victim's stages, a commit each */
		while (fsc_reloc_commits(s->fs)) {
			if (s->in_commit)
				return;  /* its end kicks us again */
			if (fsc_reloc_stage(s->fs, s->now) && !s->err)
				s->err = -EROFS;  /* the kernel aborts the transaction */
			sim_commit_start(s);
			if (s->err) {
				fsc_reclaim_pass_end(s->fs);
				s->rc_active = false;
				return;
			}
		}
		if (s->in_commit)
			return;
		victim = s->rc_victim;
		s->rc_victim = NULL;
		if (!victim) {
			/* the last victim's copies are written: its reservation goes */
			fsc_resv_reloc_done(s->fs);
			/* between entries the worker deletes unused block groups too */
			fsc_delete_unused(s->fs, s->now);
			victim = fsc_reclaim_next(s->fs);
			if (!victim) {
				fsc_reclaim_pass_end(s->fs);
				s->rc_active = false;
				return;
			}
			s->res->rc_victims[victim->used_bytes * 10 / victim->len_bytes] +=
				victim->used_bytes <= victim->len_bytes;
		}
		/* linux-6.12: the relocation's reservations first (a ticket) */
		n = fsc_resv_reloc(s->fs, victim, s->now);
		if (n == FSC_RESV_COMMIT) {
			s->rc_victim = victim;  /* asked again after the commit */
			sim_commit_start(s);
			if (s->err) {
				fsc_reclaim_pass_end(s->fs);
				s->rc_active = false;
				return;
			}
			continue;  /* the commit's end kicks us (or it is over) */
		}
		if (n < 0) {
			fsc_reclaim_retry(s->fs, victim);  /* "error relocating chunk" */
			continue;
		}
		n = fsc_relocate(s->fs, victim, s->now, &list);
		if (n < 0) {
			fsc_reclaim_retry(s->fs, victim);  /* ENOSPC: after this pass */
			continue;
		}
		reloc_issue(s, list);
		/* tree blocks moved by CoW: freed when a commit writes them */
		if (fsc_stats(s->fs)->nr_relocating_meta && !s->in_commit)
			sim_commit_start(s);
	}
}

void sim_clean(struct sim *s)
{
	struct fsc_bio *list;
	struct fsc_bg *victim;
	int n, guard = 0;

	if (fsc_reclaim_on(&s->cfg->reclaim)) {
		reclaim(s);
		return;
	}
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
		reloc_issue(s, list);
	}
}
