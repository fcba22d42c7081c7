/*
 * fsc_reclaim.c — Linux 6.1's zoned reclaim list (cfg.reclaim = linux-6.1;
 * docs/VALIDATION.md has the kernel functions this follows).  A block
 * group joins the list in two ways:
 *  - a free takes its live bytes from at or above T% of its length to
 *    below (should_reclaim_block_group() in btrfs_update_block_group());
 *  - after a commit, the space freed behind its write pointer
 *    (zone_unusable) is at least T% of its capacity
 *    (__btrfs_add_free_space_zoned(), at unpin);
 * T is the type's bg_reclaim_threshold.  The list is worked through by a
 * pass the caller starts after a commit (the cleaner thread; the simulator
 * decides when): gated once per pass by the bytes allocated to chunks
 * against the disk (btrfs_zoned_should_reclaim()), sorted once, fewest
 * live bytes first, stable (reclaim_bgs_cmp() under list_sort()); an entry
 * that is busy (reserved, pinned, read-only) is dropped, one whose
 * relocation failed goes back on the list after the pass.  6.1 does not
 * check again that an entry is still under T when its turn comes.
 * The list is the core's, not a cleaning policy's: the free and commit
 * paths below fill it whatever the policy.  Calls nothing in fs-core: the
 * lowest of the core's modules that know block groups.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsc_int.h"

static uint32_t type_pct(const struct fsc *fs, const struct fsc_bg *bg)
{
	const struct fsc_reclaim_cfg *r = &fs->cfg.reclaim;

	if (bg->type & FSC_BG_DATA)
		return r->data_pct;
	if (bg->type & FSC_BG_META)
		return r->meta_pct;
	return r->sys_pct;
}

static void queue(struct fsc *fs, struct fsc_bg *bg)
{
	struct fsc_reclaim *rc = &fs->reclaim;
	struct fsc_bg **a;

	if (bg->rc_queued)
		return;
	a = fsc_grow(rc->list, &rc->cap, rc->nr, sizeof(*a));
	if (!a) {
		fs->st.nr_reclaim_lost++;  /* out of memory: counted, not queued */
		return;
	}
	rc->list = a;
	rc->list[rc->nr++] = bg;
	bg->rc_queued = true;
	fs->st.nr_reclaim_queued++;
}

void fsc_reclaim_freed_slow(struct fsc *fs, struct fsc_bg *bg, uint64_t old_used)
{
	uint64_t thresh;
	uint32_t pct;

	bg->rc_freed = true;  /* for the unpin check at the commit */
	pct = type_pct(fs, bg);
	if (!pct)
		return;
	thresh = bg->len_bytes * pct / 100;
	if (old_used >= thresh && bg->used_bytes < thresh) {
		fs->st.nr_reclaim_by_free++;
		queue(fs, bg);
	}
}

void fsc_reclaim_commit(struct fsc *fs)
{
	uint32_t i, pct;

	if (!fs->cfg.reclaim.linux61)
		return;
	for (i = 0; i < fs->nr_slots; i++) {
		struct fsc_bg *bg = fs->bgs[i];
		uint64_t unusable;

		if (!bg || !bg->rc_freed)
			continue;
		bg->rc_freed = false;
		pct = type_pct(fs, bg);
		unusable = bg->alloc_offset > bg->used_bytes ? bg->alloc_offset - bg->used_bytes : 0;
		if (pct && !bg->relocating && unusable >= bg->len_bytes * pct / 100 &&
		    !bg->rc_queued) {
			fs->st.nr_reclaim_by_unusable++;
			queue(fs, bg);
		}
	}
}

void fsc_reclaim_forget(struct fsc *fs, struct fsc_bg *bg)
{
	struct fsc_reclaim *rc = &fs->reclaim;
	uint32_t i, j;

	if (!bg->rc_queued)
		return;
	for (i = j = 0; i < rc->nr; i++)
		if (rc->list[i] != bg)
			rc->list[j++] = rc->list[i];
	rc->nr = j;
	if (rc->pos > rc->nr)
		rc->pos = rc->nr;
	bg->rc_queued = false;
}

uint32_t fsc_chunk_zones(const struct fsc *fs, uint32_t type)
{
	uint32_t i, n = 0;

	for (i = 0; i < fs->nr_slots; i++)
		if (fs->bgs[i] && (fs->bgs[i]->type & type))
			n += fs->bgs[i]->nr_stripes;
	return n;
}

bool fsc_reclaim_gate(const struct fsc *fs)
{
	uint64_t alloc = (uint64_t)fs->nr_chunk_zones * fs->zone_bytes, total = 0;
	uint32_t i;

	if (!fs->cfg.reclaim.global_pct)
		return false;
	for (i = 0; i < fs->nr_devs; i++)  /* the disk(s): every zone */
		if (fs->devs[i].blk)
			total += (uint64_t)fs->devs[i].nr_zones * fs->devs[i].zone_bytes;
	return total && alloc * 100 / total >= fs->cfg.reclaim.global_pct;
}

static int by_used(const void *a, const void *b)
{
	const struct fsc_bg *x = *(struct fsc_bg *const *)a, *y = *(struct fsc_bg *const *)b;

	if (x->used_bytes != y->used_bytes)
		return x->used_bytes < y->used_bytes ? -1 : 1;
	/* list_sort() is stable: equal ones keep the order they were queued in */
	return x->rc_order < y->rc_order ? -1 : x->rc_order > y->rc_order;
}

bool fsc_reclaim_pass_begin(struct fsc *fs)
{
	struct fsc_reclaim *rc = &fs->reclaim;
	uint32_t i;

	if (!fs->cfg.reclaim.linux61 || !rc->nr || rc->in_pass)
		return false;
	if (!fsc_reclaim_gate(fs)) {
		fs->st.nr_reclaim_gated++;
		return false;
	}
	for (i = 0; i < rc->nr; i++)
		rc->list[i]->rc_order = i;
	qsort(rc->list, rc->nr, sizeof(*rc->list), by_used);
	rc->pos = 0;
	rc->nr_retry = 0;
	rc->in_pass = true;
	fs->st.nr_reclaim_passes++;
	return true;
}

struct fsc_bg *fsc_reclaim_next(struct fsc *fs)
{
	struct fsc_reclaim *rc = &fs->reclaim;

	while (rc->in_pass && rc->pos < rc->nr) {
		struct fsc_bg *bg = rc->list[rc->pos];

		/* off the list; a failed relocation puts it back (fsc_reclaim_retry) */
		rc->list[rc->pos++] = NULL;
		bg->rc_queued = false;
		if (bg->relocating || bg->nr_inflight || bg->nr_held || bg->pinned_bytes ||
		    !(bg->type & (FSC_BG_DATA | FSC_BG_META)) || bg->alloc_type != FSC_ALLOC_SEQ) {
			fs->st.nr_reclaim_skipped++;  /* dropped, as the kernel drops it */
			continue;
		}
		return bg;
	}
	return NULL;
}

void fsc_reclaim_retry(struct fsc *fs, struct fsc_bg *bg)
{
	struct fsc_reclaim *rc = &fs->reclaim;

	/* its slot (pos - 1) is free: keep it there until the pass ends */
	if (rc->in_pass && rc->pos && !rc->list[rc->pos - 1]) {
		rc->list[rc->pos - 1] = bg;
		bg->rc_queued = true;
		rc->nr_retry++;
	}
}

void fsc_reclaim_pass_end(struct fsc *fs)
{
	struct fsc_reclaim *rc = &fs->reclaim;
	uint32_t i, j;

	/* what the pass did not reach, then the retries, stay queued: compact */
	for (i = j = 0; i < rc->nr; i++)
		if (rc->list[i])
			rc->list[j++] = rc->list[i];
	rc->nr = j;
	rc->pos = 0;
	rc->in_pass = false;
}

uint32_t fsc_reclaim_queued(const struct fsc *fs)
{
	return fs->reclaim.nr;
}

void fsc_reclaim_fini(struct fsc *fs)
{
	free(fs->reclaim.list);
	fs->reclaim.list = NULL;
	fs->reclaim.nr = fs->reclaim.cap = 0;
}

/* ---- the option: "reserve" or "linux-6.1[:data=P,meta=P,sys=P,global=P]" ---- */

void fsc_reclaim_cfg_init(struct fsc_reclaim_cfg *r)
{
	r->linux61 = false;
	r->data_pct = r->meta_pct = r->sys_pct = 75;  /* init_space_info(), zoned */
	r->global_pct = 75;                             /* BTRFS_DEFAULT_RECLAIM_THRESH */
}

int fsc_reclaim_parse(const char *spec, struct fsc_reclaim_cfg *r, char *msg, size_t msg_len)
{
	static const char *const keys[] = { "data", "meta", "sys", "global" };
	struct fsc_reclaim_cfg v;
	const char *p;

	fsc_reclaim_cfg_init(&v);
	if (!strcmp(spec, "reserve")) {
		*r = v;
		return 0;
	}
	if (strncmp(spec, "linux-6.1", 9) || (spec[9] && spec[9] != ':')) {
		snprintf(msg, msg_len, "reclaim '%s': unknown mode; valid: reserve, "
			 "linux-6.1[:data=PCT,meta=PCT,sys=PCT,global=PCT]", spec);
		return -EINVAL;
	}
	v.linux61 = true;
	if (spec[9] && !spec[10]) {
		snprintf(msg, msg_len, "reclaim '%s': no parameter after ':'; valid: "
			 "data, meta, sys, global (=0..100)", spec);
		return -EINVAL;
	}
	for (p = spec[9] ? spec + 10 : ""; *p;) {
		uint32_t *dst[] = { &v.data_pct, &v.meta_pct, &v.sys_pct, &v.global_pct };
		size_t k, n = strcspn(p, "=,");
		char *end;
		unsigned long x;

		for (k = 0; k < 4; k++)
			if (strlen(keys[k]) == n && !strncmp(p, keys[k], n))
				break;
		if (k == 4 || p[n] != '=') {
			snprintf(msg, msg_len, "reclaim '%s': '%.*s' is not a parameter; valid: "
				 "data, meta, sys, global (=0..100)", spec, (int)n, p);
			return -EINVAL;
		}
		errno = 0;
		x = strtoul(p + n + 1, &end, 10);
		if (end == p + n + 1 || errno || x > 100 || (*end && *end != ',')) {
			snprintf(msg, msg_len, "reclaim '%s': %s must be a percentage 0..100",
				 spec, keys[k]);
			return -EINVAL;
		}
		/* the kernel refuses a global threshold of 1..50 (sysfs store) */
		if (k == 3 && x && x <= 50) {
			snprintf(msg, msg_len, "reclaim '%s': global must be 0 or 51..100, as "
				 "/sys/fs/btrfs/UUID/bg_reclaim_threshold accepts", spec);
			return -EINVAL;
		}
		*dst[k] = (uint32_t)x;
		p = *end ? end + 1 : end;
	}
	*r = v;
	return 0;
}

void fsc_reclaim_spec(const struct fsc_reclaim_cfg *r, char *buf, size_t len)
{
	if (!r->linux61)
		snprintf(buf, len, "reserve");
	else
		snprintf(buf, len, "linux-6.1:data=%u,meta=%u,sys=%u,global=%u", r->data_pct,
			 r->meta_pct, r->sys_pct, r->global_pct);
}
