/*
 * fsc.c — fs-core's entry: the configuration's defaults, create (mkfs +
 * mount), mount from a chunk table, the chunk table's export, destroy, and
 * the mode-effective options.  It assembles a file system from the core's
 * modules and binds the configured cleaning policy, chosen by name in the
 * registry (clean/fsc_clean.c: fsc_clean_init()), so it is the one file of
 * fs-core above clean/: the core below reaches the policy only through its
 * ops.  It allocates, submits and cleans nothing itself.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

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
	fsc_reclaim_cfg_init(&cfg->reclaim);
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
	ret = fsc_resv_init(fs);  /* after the tree model: sizes its global reserve */
	if (ret)
		goto out_destroy;
	fsc_active_init(fs);
	*out = fs;
	return 0;
out_destroy:
	fsc_destroy(fs);
	return ret;
}

/*
 * mkfs.btrfs's first data chunk (single, one device): on the zone after
 * the 64 MiB superblock copy's (fsc_sb_copy_zone()), and the file's first
 * data goes there.  Measured on the e2e disk: mkfs puts data on zone 5,
 * system on 6-7, metadata on 8-9 (docs/VALIDATION.md).
 */
static int mkfs_data_chunk(struct fsc *fs)
{
	struct fsc_dev *dev = &fs->devs[0];
	uint32_t z = dev->nr_zones;
	struct fsc_bg *bg;
	int ret;

	if (fs->nr_devs != 1 || fs->cfg.data_profile != FSC_SINGLE || !dev->blk || !dev->sb_log)
		return 0;
	for (uint32_t i = 2; i + 1 < dev->nr_zones; i++)
		if (fsc_sb_copy_zone(fs, dev, i)) {
			z = i + 1;
			break;
		}
	if (z >= dev->nr_zones || !fsc_zone_is_free(dev, z))
		return 0;
	dev->cursor = z;
	ret = fsc_bg_create(fs, FSC_BG_DATA, 0, &bg);
	if (ret)
		return ret;
	fs->cur[0] = bg;
	return fsc_active_add(fs, bg);
}

int fsc_create(const struct fsc_cfg *cfg, struct fsc **out)
{
	struct fsc_bg *bg;
	int ret = fsc_setup(cfg, out);

	if (ret || !fsc_reclaim_on(&cfg->reclaim))
		return ret;
	/* the kernel's layout: mkfs.btrfs makes a data chunk and a system
	 * chunk (the chunk tree, metadata's profile), which count towards the
	 * reclaim gate */
	ret = mkfs_data_chunk(*out);
	if (!ret)
		ret = fsc_bg_create(*out, FSC_BG_SYSTEM, 0, &bg);
	if (ret) {
		fsc_destroy(*out);
		*out = NULL;
	}
	return ret;
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
	fsc_rp_fini(fs);  /* a replace still running: given up */
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
	free(fs->meta_bgs);
	free(fs->zpend);
	free(fs->bg_starts);
	free(fs->bgmap.ent);
	free(fs->active);
	free(fs->last_write);
	fsc_clean_fini(fs);
	fsc_reclaim_fini(fs);
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

int fsc_fallocate(struct fsc *fs, uint64_t off_bytes, uint64_t len_bytes)
{
	/* 005: preallocated space cannot be written later in place */
	return fs->cfg.hmzoned ? -EOPNOTSUPP : 0;
}

int fsc_dev_replace(struct fsc *fs, uint32_t src_dev, struct zblk *tgt)
{
	int ret, lost = 0;

	/* 006: the copy would not follow the write pointers */
	if (fs->cfg.hmzoned && fs->cfg.replace == FSC_REPLACE_REFUSE)
		return -EOPNOTSUPP;
	if (!fs->cfg.hmzoned)
		return src_dev < fs->nr_devs && tgt ? 0 : -EINVAL;
	/* zoned btrfs since 5.12 (fsc_replace.c), in one go */
	ret = fsc_replace_start(fs, src_dev, tgt, 0);
	if (ret)
		return ret;
	do {
		ret = fsc_replace_step(fs, 0, 0, NULL, 0, NULL);
		if (ret == FSC_E_DATA_LOST)
			lost = ret;
	} while (ret == 1 || ret == FSC_E_DATA_LOST);
	if (ret) {
		fsc_replace_cancel(fs);
		return ret;
	}
	ret = fsc_replace_finish(fs, 0);
	return ret ? ret : lost;
}
