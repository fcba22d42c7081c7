/*
 * fsc_file.c — the file as a trace replay reads and discards it: where a
 * file block lives now (a hole, still in memory on its way to the devices,
 * or stored at an address), and the discard that frees blocks the way a
 * hole punch does.  Writes are fsc_write_file() (fsc_submit.c); this file
 * does no I/O: the caller reads the devices.
 */
#include "fsc_int.h"

/* State of one file map entry. */
static enum fsc_where where_of(const struct fsc *fs, uint64_t addr, const struct fsc_bg **bgp)
{
	const struct fsc_bg *bg;

	*bgp = NULL;
	if (addr == FSC_NO_ADDR)
		return FSC_WHERE_HOLE;
	if (addr & FSC_TOKEN_BIT)
		return FSC_WHERE_PENDING;  /* zone append in flight */
	bg = fsc_bg_lookup((struct fsc *)fs, addr);
	if (!bg)
		return FSC_WHERE_HOLE;
	*bgp = bg;
	if (fs->cfg.order == FSC_ORDER_APPEND && bg->type == FSC_BG_DATA)
		return FSC_WHERE_STORED;   /* completed appends hold addresses */
	/* the submit offset: everything below was sent to the devices */
	if (bg->alloc_type == FSC_ALLOC_SEQ && addr + fs->cfg.sector_bytes > bg->submit_offset)
		return FSC_WHERE_PENDING;
	return FSC_WHERE_STORED;
}

int fsc_file_locate(const struct fsc *fs, uint64_t lbn, uint32_t nr_blocks,
		    struct fsc_file_loc *loc)
{
	const struct fsc_bg *bg, *b2;
	uint64_t addr;
	uint32_t n;

	if (!nr_blocks || lbn >= fs->nr_file_blocks || nr_blocks > fs->nr_file_blocks - lbn)
		return -EINVAL;
	addr = fs->file_map[lbn];
	loc->where = where_of(fs, addr, &bg);
	loc->logical = loc->where == FSC_WHERE_STORED ? addr : 0;
	loc->bg = loc->where == FSC_WHERE_STORED ? bg : NULL;
	for (n = 1; n < nr_blocks; n++) {
		uint64_t a = fs->file_map[lbn + n];

		if (where_of(fs, a, &b2) != loc->where)
			break;
		if (loc->where == FSC_WHERE_STORED &&
		    (b2 != bg || a != addr + (uint64_t)n * fs->cfg.sector_bytes))
			break;
	}
	return (int)n;
}

int fsc_discard_file(struct fsc *fs, uint64_t lbn, uint32_t nr_blocks, uint64_t now_ns)
{
	uint64_t i, old;
	int ret, n = 0;

	if (!nr_blocks || lbn >= fs->nr_file_blocks || nr_blocks > fs->nr_file_blocks - lbn)
		return -EINVAL;
	for (i = 0; i < nr_blocks; i++)
		n += fs->file_map[lbn + i] != FSC_NO_ADDR;
	if (!n)
		return 0;  /* a hole already: the tree does not change */
	/* the tree first, as a write: a failure frees nothing */
	for (i = 0; fs->nr_nodes && i < nr_blocks; i++)
		if (i == 0 || (lbn + i) % fs->cfg.leaf_items == 0) {
			ret = fsc_tree_dirty(fs, lbn + i, now_ns);
			if (ret)
				return ret;
		}
	for (i = 0; i < nr_blocks; i++) {
		old = fs->file_map[lbn + i];
		if (old == FSC_NO_ADDR)
			continue;
		fs->file_map[lbn + i] = FSC_NO_ADDR;
		(void)fsc_bt_data_free(fs, old, now_ns);  /* btrfs model: errors stick */
		if (fs->ext.of) {  /* the extent freed whole, or a bookend */
			ret = fsc_ext_drop(fs, lbn + i, old, now_ns);
			if (ret && !fs->ext.err)
				fs->ext.err = ret;
		} else if (!(old & FSC_TOKEN_BIT)) {  /* a token: the append frees itself */
			fsc_free_extent(fs, old, fs->cfg.sector_bytes, now_ns);
		}
	}
	return n;
}

void fsc_prefetch_file(const struct fsc *fs, uint64_t lbn, unsigned int stage)
{
	struct fsc_bg *bg;
	uint64_t addr;

	if (!fs->file_map || lbn >= fs->nr_file_blocks)
		return;
	if (stage == 0) {
		__builtin_prefetch(&fs->file_map[lbn], 1);
		return;
	}
	addr = fs->file_map[lbn];
	if (addr == FSC_NO_ADDR || (addr & FSC_TOKEN_BIT))
		return;
	if (stage == 1) {
		fsc_bgmap_prefetch(fs, addr);
		return;
	}
	if (!fsc_bgmap_get(fs, addr, &bg) || !bg)
		return;
	if (stage == 2) {
		/* the hot fields, two lines; reading them here would wait */
		__builtin_prefetch(bg, 1);
		__builtin_prefetch((const char *)bg + 64, 1);
		return;
	}
	if (addr >= bg->start && addr - bg->start < bg->len_bytes)
		__builtin_prefetch(&bg->owner[(addr - bg->start) / bg->unit_bytes], 1);
	if (bg->clean_member && fs->clean.ops && fs->clean.ops->prefetch && !fs->clean.broken)
		fs->clean.ops->prefetch(&fs->clean, bg);
}
