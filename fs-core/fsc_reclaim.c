/*
 * fsc_reclaim.c — the kernel's zoned reclaim list (cfg.reclaim = linux-6.1
 * or linux-6.12; docs/VALIDATION.md has the kernel functions this follows).
 * A block group joins the list in two ways:
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
 *
 * linux-6.12 (fs/btrfs of 6.12.117; block-group.c btrfs_reclaim_bgs_work(),
 * space-info.c) differs in four places, each off in linux-6.1:
 *  - at its turn an entry found empty is marked unused instead of
 *    relocated, and one whose used bytes are no longer under the threshold
 *    is skipped (should_reclaim_block_group(bg, bg->length));
 *  - with the space's dynamic_reclaim, T is calc_dynamic_reclaim_threshold()
 *    (fsc_reclaim_thresh()) on the free path and at the turn; the unusable
 *    path keeps the static bg_reclaim_threshold;
 *  - with periodic_reclaim, a free adds to the space's reclaimable bytes
 *    instead of queueing; at one data chunk of them the space is ready and
 *    the next cleaner run sweeps it (btrfs_reclaim_sweep()); a failed
 *    relocation is not retried;
 *  - an allocation clears the block group's reclaim mark (the sweep takes
 *    only block groups it saw before, untouched since).
 * The list is the core's, not a cleaning policy's: the free and commit
 * paths below fill it whatever the policy.  Calls nothing in fs-core: the
 * lowest of the core's modules that know block groups.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsc_int.h"

/* The space a block group of @type belongs to: 0 data, 1 metadata, 2 system. */
static uint32_t space_of(uint32_t type)
{
	return type & FSC_BG_DATA ? 0 : type & FSC_BG_META ? 1 : 2;
}

/* The space's static bg_reclaim_threshold (sysfs; 75 in zoned mode). */
static uint32_t static_pct(const struct fsc *fs, uint32_t type)
{
	const struct fsc_reclaim_cfg *r = &fs->cfg.reclaim;

	if (type & FSC_BG_DATA)
		return r->data_pct;
	if (type & FSC_BG_META)
		return r->meta_pct;
	return r->sys_pct;
}

static uint32_t type_pct(const struct fsc *fs, const struct fsc_bg *bg)
{
	return fsc_reclaim_thresh(fs, bg->type);
}

static bool periodic(const struct fsc *fs)
{
	return fs->cfg.reclaim.mode == FSC_RECLAIM_LINUX_6_12 && fs->cfg.reclaim.periodic;
}

static uint64_t disk_bytes(const struct fsc *fs)
{
	uint64_t total = 0;
	uint32_t i;

	for (i = 0; i < fs->nr_devs; i++)  /* the disk(s): every zone */
		if (fs->devs[i].blk)
			total += (uint64_t)fs->devs[i].nr_zones * fs->devs[i].zone_bytes;
	return total;
}

/* free_chunk_space: the device bytes in no chunk */
static uint64_t unalloc_bytes(const struct fsc *fs)
{
	uint64_t total = disk_bytes(fs), alloc = (uint64_t)fs->nr_chunk_zones * fs->zone_bytes;

	return total > alloc ? total - alloc : 0;
}

/*
 * calc_dynamic_reclaim_threshold() (space-info.c:1990): the target is
 * BTRFS_UNALLOC_BLOCK_GROUP_TARGET (10) data chunks, a chunk being one
 * zone in zoned mode (calc_effective_data_chunk_size()); want = target -
 * unallocated (0 when above); T = want x 100 / target (calc_pct_ratio()),
 * but 0 when the space's allocated bytes less its used ones
 * (btrfs_space_info_used(, false): used, reserved, pinned, read-only,
 * zone_unusable: in fs-core a block group's write pointer, all of a
 * read-only one) are under one chunk: relocation would have nowhere to go.
 */
static uint32_t dynamic_pct(const struct fsc *fs, uint32_t sp)
{
	uint64_t chunk = fs->zone_bytes, target = 10 * chunk, unalloc = unalloc_bytes(fs);
	uint64_t alloc = 0, used = 0, want;
	uint32_t i;

	for (i = 0; i < fs->nr_slots; i++) {
		const struct fsc_bg *bg = fs->bgs[i];

		if (!bg || space_of(bg->type) != sp)
			continue;
		alloc += bg->len_bytes;
		used += bg->relocating ? bg->len_bytes : bg->alloc_offset;
	}
	if (alloc < used || alloc - used < chunk || !target)
		return 0;
	want = target > unalloc ? target - unalloc : 0;
	return (uint32_t)(want * 100 / target);
}

uint32_t fsc_reclaim_thresh(const struct fsc *fs, uint32_t type)
{
	if (fs->cfg.reclaim.mode == FSC_RECLAIM_LINUX_6_12 && fs->cfg.reclaim.dynamic)
		return dynamic_pct(fs, space_of(type));  /* btrfs_calc_reclaim_threshold() */
	return static_pct(fs, type);
}

/* btrfs_set_periodic_reclaim_ready() (space-info.c:2092) */
static void set_ready(struct fsc *fs, uint32_t sp, bool ready)
{
	struct fsc_reclaim *rc = &fs->reclaim;

	if (!periodic(fs))
		return;
	if (ready != rc->ready[sp]) {
		rc->ready[sp] = ready;
		if (!ready)
			rc->reclaimable[sp] = 0;
	}
}

/* btrfs_space_info_update_reclaimable() (space-info.c:2080): ready at one
 * data chunk of bytes freed, net of those allocated since */
static void update_reclaimable(struct fsc *fs, uint32_t sp, int64_t bytes)
{
	struct fsc_reclaim *rc = &fs->reclaim;

	rc->reclaimable[sp] += bytes;
	if (rc->reclaimable[sp] > 0 && (uint64_t)rc->reclaimable[sp] >= fs->zone_bytes)
		set_ready(fs, sp, true);
}

bool fsc_reclaim_ready(const struct fsc *fs, uint32_t type)
{
	uint32_t sp = space_of(type);

	/* btrfs_should_periodic_reclaim(): never the system space */
	return periodic(fs) && sp != 2 && fs->reclaim.ready[sp];
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
	if (periodic(fs)) {
		/* btrfs_update_block_group() (block-group.c:3773): counted, not queued */
		update_reclaimable(fs, space_of(bg->type), (int64_t)(old_used - bg->used_bytes));
		return;
	}
	pct = type_pct(fs, bg);
	if (!pct)
		return;
	thresh = bg->len_bytes * pct / 100;
	if (old_used >= thresh && bg->used_bytes < thresh) {
		fs->st.nr_reclaim_by_free++;
		queue(fs, bg);
	}
}

void fsc_reclaim_alloced_slow(struct fsc *fs, struct fsc_bg *bg, uint64_t len)
{
	/* btrfs_update_block_group(), alloc (block-group.c:3759) */
	bg->rc_mark = 0;
	if (periodic(fs))
		update_reclaimable(fs, space_of(bg->type), -(int64_t)len);
}

void fsc_reclaim_commit(struct fsc *fs)
{
	uint32_t i, pct;

	if (!fsc_reclaim_on(&fs->cfg.reclaim))
		return;
	for (i = 0; i < fs->nr_slots; i++) {
		struct fsc_bg *bg = fs->bgs[i];
		uint64_t unusable;

		if (!bg || !bg->rc_freed)
			continue;
		bg->rc_freed = false;
		/* the space's bg_reclaim_threshold as set, never the dynamic one */
		pct = static_pct(fs, bg->type);
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

	/* btrfs_reclaim_bgs_work() (block-group.c:2024): a relocation that
	 * shrank the space makes it ready for the next sweep */
	if (bg->reclaimed)
		set_ready(fs, space_of(bg->type), true);
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
	uint64_t alloc = (uint64_t)fs->nr_chunk_zones * fs->zone_bytes, total;

	if (!fs->cfg.reclaim.global_pct)
		return false;
	total = disk_bytes(fs);
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

/*
 * do_reclaim_sweep() (space-info.c:2032): the space's block groups under
 * the threshold whose mark is set (no allocation since the last sweep)
 * are queued, and every mark goes up; when unallocated space is under one
 * chunk (is_reclaim_urgent()) and none was stale, a second walk takes the
 * fresh ones too.  True when it queued one.
 */
static bool sweep_space(struct fsc *fs, uint32_t sp)
{
	bool urgent = unalloc_bytes(fs) < fs->zone_bytes, will = false;
	uint32_t pct = fsc_reclaim_thresh(fs, sp == 0 ? FSC_BG_DATA : FSC_BG_META), i;

again:
	for (i = 0; i < fs->nr_slots; i++) {
		struct fsc_bg *bg = fs->bgs[i];

		if (!bg || space_of(bg->type) != sp)
			continue;
		if (bg->used_bytes < bg->len_bytes * pct / 100 && bg->rc_mark) {
			will = true;
			if (!bg->rc_queued)
				fs->st.nr_reclaim_by_sweep++;
			queue(fs, bg);
		}
		if (bg->rc_mark < UINT32_MAX)
			bg->rc_mark++;
	}
	if (!will && urgent) {
		urgent = false;
		goto again;
	}
	return will;
}

/* btrfs_reclaim_sweep() (space-info.c:2120), first thing each cleaner run
 * (btrfs_reclaim_bgs()): every ready space but system */
static void sweep(struct fsc *fs)
{
	uint32_t sp;

	for (sp = 0; sp < 2; sp++) {
		if (!fsc_reclaim_ready(fs, sp == 0 ? FSC_BG_DATA : FSC_BG_META))
			continue;
		fs->st.nr_reclaim_sweeps++;
		if (sweep_space(fs, sp))
			set_ready(fs, sp, false);
	}
}

bool fsc_reclaim_pass_begin(struct fsc *fs)
{
	struct fsc_reclaim *rc = &fs->reclaim;
	uint32_t i;

	if (!fsc_reclaim_on(&fs->cfg.reclaim) || rc->in_pass)
		return false;
	if (periodic(fs))
		sweep(fs);
	if (!rc->nr)
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
		if (fs->cfg.reclaim.mode == FSC_RECLAIM_LINUX_6_12 && !bg->used_bytes) {
			/* 6.12 (block-group.c:1910): empty, btrfs_mark_bg_unused()
			 * rather than a relocation.  Written full, it is on the
			 * unused list already (fsc_bg_put()); still open, the
			 * caller's relocation finishes and removes it without the
			 * relocation's commits (fsc_relocate()), as
			 * btrfs_delete_unused_bgs() would */
			fs->st.nr_reclaim_empty++;
			if (bg->alloc_done)
				continue;
			return bg;
		}
		if (fs->cfg.reclaim.mode == FSC_RECLAIM_LINUX_6_12 &&
		    bg->used_bytes >= bg->len_bytes * type_pct(fs, bg) / 100) {
			/* 6.12 (block-group.c:1940): no longer under the threshold
			 * (should_reclaim_block_group(bg, bg->length)), skipped; a
			 * threshold of 0 skips every entry */
			fs->st.nr_reclaim_rechecked++;
			continue;
		}
		return bg;
	}
	return NULL;
}

void fsc_reclaim_retry(struct fsc *fs, struct fsc_bg *bg)
{
	struct fsc_reclaim *rc = &fs->reclaim;

	if (periodic(fs)) {
		/* 6.12 (block-group.c:2028): not retried with periodic reclaim */
		fs->st.nr_reclaim_dropped++;
		return;
	}
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

/* ---- the option: "reserve", "linux-6.1[:data=P,meta=P,sys=P,global=P]" or
 *      "linux-6.12[:data=P,meta=P,sys=P,global=P,dynamic=0|1,periodic=0|1]" ---- */

void fsc_reclaim_cfg_init(struct fsc_reclaim_cfg *r)
{
	r->mode = FSC_RECLAIM_OFF;
	r->data_pct = r->meta_pct = r->sys_pct = 75;  /* init_space_info(), zoned */
	r->global_pct = 75;                             /* BTRFS_DEFAULT_RECLAIM_THRESH */
	r->dynamic = r->periodic = false;               /* 6.12's sysfs knobs: off */
}

#define MODES "reserve, linux-6.1[:data=PCT,meta=PCT,sys=PCT,global=PCT], " \
	"linux-6.12[:data=PCT,meta=PCT,sys=PCT,global=PCT,dynamic=0|1,periodic=0|1]"

int fsc_reclaim_parse(const char *spec, struct fsc_reclaim_cfg *r, char *msg, size_t msg_len)
{
	static const char *const keys[] = { "data", "meta", "sys", "global", "dynamic",
					    "periodic" };
	struct fsc_reclaim_cfg v;
	const char *p, *valid;
	size_t name_len = strcspn(spec, ":"), nkeys;

	fsc_reclaim_cfg_init(&v);
	if (!strcmp(spec, "reserve")) {
		*r = v;
		return 0;
	}
	if (name_len == 9 && !strncmp(spec, "linux-6.1", 9)) {
		v.mode = FSC_RECLAIM_LINUX_6_1;
		nkeys = 4;
		valid = "data, meta, sys, global (=0..100)";
	} else if (name_len == 10 && !strncmp(spec, "linux-6.12", 10)) {
		v.mode = FSC_RECLAIM_LINUX_6_12;
		nkeys = 6;
		valid = "data, meta, sys, global (=0..100), dynamic, periodic (=0|1)";
	} else {
		snprintf(msg, msg_len, "reclaim '%s': unknown mode; valid: " MODES, spec);
		return -EINVAL;
	}
	if (spec[name_len] && !spec[name_len + 1]) {
		snprintf(msg, msg_len, "reclaim '%s': no parameter after ':'; valid: %s", spec,
			 valid);
		return -EINVAL;
	}
	for (p = spec[name_len] ? spec + name_len + 1 : ""; *p;) {
		uint32_t *dst[] = { &v.data_pct, &v.meta_pct, &v.sys_pct, &v.global_pct };
		size_t k, n = strcspn(p, "=,");
		char *end;
		unsigned long x;

		for (k = 0; k < 6; k++)
			if (strlen(keys[k]) == n && !strncmp(p, keys[k], n))
				break;
		if (k >= 4 && k < 6 && nkeys == 4 && p[n] == '=') {
			snprintf(msg, msg_len, "reclaim '%s': %s is a knob of Linux 6.12 "
				 "(linux-6.12:%s=1); linux-6.1 has no such knob", spec, keys[k],
				 keys[k]);
			return -EINVAL;
		}
		if (k == 6 || p[n] != '=') {
			snprintf(msg, msg_len, "reclaim '%s': '%.*s' is not a parameter; valid: %s",
				 spec, (int)n, p, valid);
			return -EINVAL;
		}
		errno = 0;
		x = strtoul(p + n + 1, &end, 10);
		if (k >= 4) {
			if (end == p + n + 1 || errno || x > 1 || (*end && *end != ',') ||
			    p[n + 1] == '-' || p[n + 1] == '+' || p[n + 1] == ' ') {
				snprintf(msg, msg_len, "reclaim '%s': %s must be 0 or 1", spec,
					 keys[k]);
				return -EINVAL;
			}
			*(k == 4 ? &v.dynamic : &v.periodic) = x == 1;
			p = *end ? end + 1 : end;
			continue;
		}
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
	if (r->mode == FSC_RECLAIM_OFF)
		snprintf(buf, len, "reserve");
	else if (r->mode == FSC_RECLAIM_LINUX_6_1)
		snprintf(buf, len, "linux-6.1:data=%u,meta=%u,sys=%u,global=%u", r->data_pct,
			 r->meta_pct, r->sys_pct, r->global_pct);
	else
		snprintf(buf, len, "linux-6.12:data=%u,meta=%u,sys=%u,global=%u,dynamic=%d,"
			 "periodic=%d", r->data_pct, r->meta_pct, r->sys_pct, r->global_pct,
			 r->dynamic, r->periodic);
}
