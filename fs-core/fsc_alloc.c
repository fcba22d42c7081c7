/*
 * fsc_alloc.c — fs-core's life cycle (create = mkfs + mount, mount from a
 * chunk table, destroy), sequential allocation inside block groups (008:
 * an allocation offset; space freed below it is not reused until the block
 * group is reset), freeing, removal of unused block groups, the bio pool,
 * and relocation (victim choice: fsc_clean*.c).  Ordering of
 * submission is in fsc_submit.c, transactions in fsc_trans.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <sys/mman.h>

#include "fsc_clean_int.h"

void fsc_cfg_init(struct fsc_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->hmzoned = true;
	cfg->data_profile = FSC_SINGLE;
	cfg->meta_profile = FSC_SINGLE;
	cfg->space_cache = true;
	cfg->tree_log = true;
	cfg->sector_bytes = 4096;
	cfg->node_bytes = 16384;
	cfg->expire_ns = 90ULL * 1000000000ULL;
	cfg->tree_fanout = 121;   /* ~16 KiB node / 33-byte key pointer */
	cfg->leaf_items = 128;
	cfg->clean = FSC_CLEAN_GREEDY;
	fsc_clean_params_init(&cfg->clean_params);
	cfg->place = FSC_PLACE_ONE_LOG;
	fsc_place_params_init(&cfg->place_params);
}

static int fsc_setup(const struct fsc_cfg *cfg, struct fsc **out)
{
	struct fsc *fs;
	uint32_t i, z;
	int ret;

	if (!cfg->nr_devs || cfg->nr_devs > FSC_MAX_DEVS || !cfg->sector_bytes ||
	    !cfg->node_bytes || cfg->node_bytes % cfg->sector_bytes)
		return -EINVAL;
	fs = calloc(1, sizeof(*fs));
	if (!fs)
		return -ENOMEM;
	fs->cfg = *cfg;
	fs->nr_devs = cfg->nr_devs;
	for (i = 0; i < fs->nr_devs; i++) {
		ret = fsc_dev_zone_info(&fs->devs[i], cfg->devs[i]);
		if (ret)
			goto out_destroy;
	}
	ret = fsc_check_mode(fs);
	if (ret)
		goto out_destroy;
	ret = fsc_sb_place(fs);
	if (ret)
		goto out_destroy;
	for (i = 0; i < fs->nr_devs; i++) {
		struct fsc_dev *dev = &fs->devs[i];

		if (!dev->zone_bytes)
			continue;
		fsc_bit_set(dev->used_bits, 0);  /* 007: first zone skipped */
		for (z = 1; z < dev->nr_zones; z++)
			if (fsc_zone_is_free(dev, z)) {
				dev->nr_free++;
				zbitmap_set(&dev->free_map, z);
			}
	}
	fs->next_logical = 1ULL << 20;  /* like btrfs: the first chunk is not at 0 */
	ret = fsc_clean_init(fs);
	if (ret)
		goto out_destroy;
	ret = fsc_tree_init(fs);
	if (ret)
		goto out_destroy;
	ret = fsc_place_init(fs);  /* after the tree model: needs the file's size */
	if (ret)
		goto out_destroy;
	fsc_active_init(fs);
	*out = fs;
	return 0;
out_destroy:
	fsc_destroy(fs);
	return ret;
}

int fsc_create(const struct fsc_cfg *cfg, struct fsc **out)
{
	return fsc_setup(cfg, out);
}

int fsc_mount(const struct fsc_cfg *cfg, const struct fsc_chunk *chunks, uint32_t nr,
	      struct fsc **out)
{
	struct fsc *fs;
	struct fsc_bg *bg;
	uint32_t i;
	int ret = fsc_setup(cfg, &fs);

	if (ret)
		return ret;
	for (i = 0; i < nr; i++) {
		ret = fsc_bg_load(fs, &chunks[i], &bg);
		if (ret) {
			fsc_destroy(fs);
			return ret;
		}
	}
	*out = fs;
	return 0;
}

uint32_t fsc_chunks(const struct fsc *fs, struct fsc_chunk *out, uint32_t max)
{
	uint32_t i, s;

	uint32_t slot;

	for (i = 0, slot = 0; slot < fs->nr_slots && i < max; slot++) {
		const struct fsc_bg *bg = fs->bgs[slot];

		if (!bg)
			continue;
		memset(&out[i], 0, sizeof(out[i]));
		out[i].start = bg->start;
		out[i].len_bytes = bg->len_bytes;
		out[i].type = bg->type;
		out[i].profile = bg->profile;
		out[i].nr_stripes = bg->nr_stripes;
		out[i].sub_stripes = bg->sub_stripes;
		for (s = 0; s < bg->nr_stripes; s++) {
			out[i].stripes[s].dev = bg->stripes[s].dev;
			out[i].stripes[s].phys = bg->stripes[s].phys;
		}
		i++;
	}
	return i;
}

void fsc_destroy(struct fsc *fs)
{
	struct fsc_bio *b;
	uint32_t i;

	if (!fs)
		return;
	for (i = 0; i < fs->nr_slots; i++) {
		if (!fs->bgs[i])
			continue;
		/* bios still held in a submit buffer are ours */
		while (fs->bgs[i]->nr_held)
			free(fs->bgs[i]->held[--fs->bgs[i]->nr_held]);
		fsc_bg_free(fs, fs->bgs[i]);
	}
	fsc_slab_fini(fs);
	free(fs->bgs);
	free(fs->bg_starts);
	free(fs->bgmap.ent);
	free(fs->active);
	free(fs->last_write);
	fsc_clean_fini(fs);
	for (i = 0; i < fs->nr_devs; i++)
		fsc_dev_fini(&fs->devs[i]);
	fsc_tree_fini(fs);
	while ((b = fs->bio_free)) {
		fs->bio_free = b->next;
		free(b);
	}
	free(fs);
}

void fsc_set_owner(struct fsc *fs, const struct fsc_owner_ops *ops, void *arg)
{
	if (ops)
		fs->ops = *ops;
	else
		memset(&fs->ops, 0, sizeof(fs->ops));
	fs->ops_arg = arg;
}

bool fsc_space_cache_on(const struct fsc *fs) { return fs->space_cache; }
bool fsc_tree_log_on(const struct fsc *fs) { return fs->tree_log; }
uint64_t fsc_zone_bytes(const struct fsc *fs) { return fs->zone_bytes; }
const struct fsc_stats *fsc_stats(const struct fsc *fs) { return &fs->st; }
uint64_t fsc_bg_start(const struct fsc_bg *bg) { return bg->start; }
uint64_t fsc_bg_alloc_offset(const struct fsc_bg *bg) { return bg->alloc_offset; }
uint64_t fsc_bg_used_bytes(const struct fsc_bg *bg) { return bg->used_bytes; }

int fsc_fallocate(struct fsc *fs, uint64_t off_bytes, uint64_t len_bytes)
{
	/* 005: preallocated space cannot be written later in place */
	return fs->cfg.hmzoned ? -EOPNOTSUPP : 0;
}

int fsc_dev_replace(struct fsc *fs, uint32_t src_dev, struct zblk *tgt)
{
	/* 006: the copy would not follow the write pointers */
	if (fs->cfg.hmzoned)
		return -EOPNOTSUPP;
	return src_dev < fs->nr_devs && tgt ? 0 : -EINVAL;
}

void *fsc_alloc_big(size_t bytes)
{
	const size_t huge = 2u << 20;
	void *p;

	if (bytes < 2 * huge)
		return malloc(bytes);
	bytes = (bytes + huge - 1) / huge * huge;
	p = aligned_alloc(huge, bytes);
	if (p)
		(void)madvise(p, bytes, MADV_HUGEPAGE);  /* a hint: refused is fine */
	return p;
}

struct fsc_bg *fsc_bg_lookup(struct fsc *fs, uint64_t logical)
{
	struct fsc_bg *bg;

	if (fsc_bgmap_get(fs, logical, &bg))  /* the fast path: O(1) */
		return bg;
	return fsc_bg_lookup_search(fs, logical);
}

/* The general path: binary search over the slots sorted by start. */
struct fsc_bg *fsc_bg_lookup_search(const struct fsc *fs, uint64_t logical)
{
	uint32_t lo = 0, hi = fs->nr_slots;

	/* the last slot starting at or before @logical */
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;

		if (fs->bg_starts[mid] <= logical)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || !fs->bgs[lo - 1] || logical >= fs->bg_starts[lo - 1] + fs->bgs[lo - 1]->len_bytes)
		return NULL;
	return fs->bgs[lo - 1];
}

static inline int type_slot(uint32_t type, uint32_t stream)
{
	if (type == FSC_BG_DATA)
		return stream ? 2 + (int)stream : 0;
	return type == FSC_BG_META ? 1 : 2;
}

int fsc_alloc(struct fsc *fs, uint32_t type, uint64_t len, uint32_t owner, uint64_t now_ns,
	      struct fsc_bg **bgp, uint64_t *logical)
{
	return fsc_alloc_stream(fs, type, 0, len, owner, now_ns, bgp, logical);
}

/**
 * fsc_alloc() - @len bytes in the current block group of @type at its
 * allocation offset (008), opening a new block group when the current one
 * cannot hold them (the tail left is never allocated: the zone is not
 * reused until reset).  Units from @owner on are recorded for relocation.
 * Returns 0 or -ENOSPC / block group creation errors.
 */
int fsc_alloc_stream(struct fsc *fs, uint32_t type, uint32_t stream, uint64_t len,
		     uint32_t owner, uint64_t now_ns, struct fsc_bg **bgp, uint64_t *logical)
{
	int slot = type_slot(type, stream);
	struct fsc_bg *bg = fs->cur[slot];
	uint64_t u, nr;
	int ret;

	if (bg && bg->alloc_offset + len > bg->len_bytes) {
		bg->alloc_done = true;
		bg->done_clock = fs->st.user_bytes;
		fs->cur[slot] = NULL;
		fsc_bg_put(fs, bg, now_ns);
		bg = NULL;
	}
	if (!bg) {
		ret = fsc_active_make_room(fs, type, now_ns);
		if (ret)
			return ret;
		ret = fsc_bg_create(fs, type, now_ns, &bg);
		if (ret)
			return ret;
		ret = fsc_active_add(fs, bg);
		if (ret)
			return ret;
		if (len > bg->len_bytes)
			return -EINVAL;
		bg->stream = type == FSC_BG_DATA ? stream : 0;
		fs->cur[slot] = bg;
	}
	*logical = bg->start + bg->alloc_offset;
	u = bg->alloc_offset / bg->unit_bytes;
	nr = len / bg->unit_bytes;
	for (uint64_t i = 0; owner != FSC_NO_OWNER && i < nr; i++)
		bg->owner[u + i] = owner + 1 + (uint32_t)(type == FSC_BG_DATA ? i : 0);
	bg->alloc_offset += len;
	bg->used_bytes += len;
	bg->nr_inflight++;
	if (bg->alloc_offset == bg->len_bytes) {
		bg->alloc_done = true;
		bg->done_clock = fs->st.user_bytes;
		fs->cur[slot] = NULL;
	}
	*bgp = bg;
	return 0;
}

/* fsc_bg_put() - @bg changed: tell the cleaning policy; remove @bg if
 * nothing lives or flies in it any more. */
void fsc_bg_put(struct fsc *fs, struct fsc_bg *bg, uint64_t now_ns)
{
	fsc_clean_sync(fs, bg);
	if (bg->alloc_done && !bg->used_bytes && !bg->nr_inflight && !bg->nr_held)
		fsc_bg_remove(fs, bg, now_ns);
}

/**
 * fsc_free_extent() - @len bytes at @logical are no longer referenced.  In a
 * sequential block group the space is not reusable; when the block group is
 * fully allocated and nothing is live or in flight it is reset (cover
 * letter: zone reset of unused block groups).
 */
void fsc_free_extent(struct fsc *fs, uint64_t logical, uint64_t len, uint64_t now_ns)
{
	struct fsc_bg *bg = fsc_bg_lookup(fs, logical);
	uint64_t u, nr, i;

	if (!bg)
		return;
	u = (logical - bg->start) / bg->unit_bytes;
	nr = len / bg->unit_bytes;
	for (i = 0; i < nr; i++)
		bg->owner[u + i] = 0;
	bg->used_bytes = bg->used_bytes > len ? bg->used_bytes - len : 0;
	fsc_bg_put(fs, bg, now_ns);
}

struct fsc_bio *fsc_bio_get(struct fsc *fs)
{
	struct fsc_bio *b = fs->bio_free;

	if (b)
		fs->bio_free = b->next;
	else
		b = malloc(sizeof(*b));
	if (b)
		memset(b, 0, sizeof(*b));
	return b;
}

void fsc_bio_put(struct fsc *fs, struct fsc_bio *bio)
{
	bio->next = fs->bio_free;
	fs->bio_free = bio;
}

uint32_t fsc_min_free_zones(const struct fsc *fs)
{
	uint32_t i, m = UINT32_MAX;

	for (i = 0; i < fs->nr_devs; i++)
		if (fs->devs[i].blk && fs->devs[i].zone_bytes && fs->devs[i].nr_free < m)
			m = fs->devs[i].nr_free;
	return m == UINT32_MAX ? 0 : m;
}

/**
 * fsc_relocate() - move @bg's live units into the current block group of
 * its type, one RELOC bio per unit (linked in *@list, ->src_bg = @bg), and
 * update the owners' maps.  @bg is reset when the last copy completes.
 * Returns the number of bios, or -ENOSPC when not even one unit could be
 * placed (the block group is left as it was).
 */
int fsc_relocate(struct fsc *fs, struct fsc_bg *bg, uint64_t now_ns, struct fsc_bio **list)
{
	uint64_t u, nr_units = bg->alloc_offset / bg->unit_bytes, logical;
	struct fsc_bio *head = NULL, **tail = &head, *b;
	struct fsc_bg *dst;
	bool append = fs->cfg.order == FSC_ORDER_APPEND;  /* data by zone append */
	int n = 0, ret = 0;

	bg->relocating = true;
	fsc_clean_sync(fs, bg);  /* no longer a candidate */
	if (bg->type != FSC_BG_DATA) {
		/* tree blocks move by CoW in the running transaction: the new
		 * copies are written at commit, the old ones unpinned then */
		for (u = 0; u < nr_units && !ret; u++)
			if (bg->owner[u]) {
				ret = fsc_tree_cow_node(fs, bg->owner[u] - 1, now_ns);
				n += !ret;
			}
		*list = NULL;
		if (n)
			fs->st.nr_relocations++;
		if (n && !ret) {
			fs->st.nr_relocating++;
			fs->st.nr_relocating_meta++;
		}
		if (ret) {
			bg->relocating = false;
			fsc_clean_sync(fs, bg);
		}
		return !n && ret ? ret : 0;
	}
	/* the owners' file map entries are scattered over the file: ask for
	 * all of them first, so their misses overlap instead of queueing */
	for (u = 0; u < nr_units; u++)
		if (bg->owner[u] && bg->owner[u] <= fs->nr_file_blocks)
			__builtin_prefetch(&fs->file_map[bg->owner[u] - 1], 1);
	for (u = 0; u < nr_units; u++) {
		uint32_t owner = bg->owner[u];

		if (!owner)
			continue;
		ret = fsc_alloc_stream(fs, bg->type, fsc_place_reloc(fs, bg), bg->unit_bytes,
				       append ? FSC_NO_OWNER : owner - 1, now_ns, &dst, &logical);
		if (ret)
			break;
		b = fsc_bio_get(fs);
		if (!b) {
			ret = -ENOMEM;
			break;
		}
		b->logical = logical;
		b->len_bytes = bg->unit_bytes;
		b->bg = dst;
		b->src_bg = bg;
		b->src_logical = bg->start + u * bg->unit_bytes;
		b->kind = FSC_KIND_RELOC;
		b->owner = owner - 1;
		b->t_alloc_ns = now_ns;
		b->trans_id = fs->trans_id;
		bg->nr_inflight++;
		if (append)  /* the address is known at completion */
			b->token = FSC_TOKEN_BIT | ++fs->bio_seq;
		fs->file_map[owner - 1] = append ? b->token : logical;
		bg->owner[u] = 0;
		bg->used_bytes -= bg->unit_bytes;
		*tail = b;
		tail = &b->next;
		n++;
	}
	*tail = NULL;
	*list = head;
	if (!n) {
		bg->relocating = false;
		fsc_clean_sync(fs, bg);
		if (ret)
			return ret;
		fsc_bg_put(fs, bg, now_ns);  /* nothing was live */
		return 0;
	}
	fs->st.nr_relocations++;
	if (ret) {
		bg->relocating = false;  /* partly moved: may be picked again */
		fsc_clean_sync(fs, bg);
	} else
		fs->st.nr_relocating++;
	return n;
}
