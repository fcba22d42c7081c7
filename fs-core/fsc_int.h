/*
 * fsc_int.h — fs-core's private structures, shared by the fsc_*.c files and
 * white-box unit tests.  Not part of the interface the simulator uses.
 */
#ifndef FSC_INT_H
#define FSC_INT_H

#include <errno.h>
#include <stdlib.h>

#include "fsc.h"

#define FSC_NO_ADDR UINT64_MAX
#define FSC_NO_OWNER UINT32_MAX
#define FSC_TOKEN_BIT (1ULL << 63)  /* file map: zone append in flight */
#define FSC_SB_BYTES 4096u
#define FSC_NR_SB_MIRRORS 3
#define FSC_RAID0_STRIPE_BYTES (64u * 1024)

/* Per device zone information (002). */
struct fsc_dev {
	struct zblk *blk;         /* borrowed; NULL = missing */
	uint64_t zone_bytes;      /* 0 = regular device */
	uint32_t nr_zones;
	uint64_t *seq_bits;       /* zone is sequential write required */
	uint64_t *empty_bits;     /* zone was empty at mount / is free again */
	uint64_t *used_bits;      /* zone belongs to a device extent or a superblock */
	uint32_t nr_free;         /* sequential, empty, unused zones */
	uint32_t cursor;          /* next zone to look at for a device extent */
	uint64_t sb_pos[FSC_NR_SB_MIRRORS]; /* conventional superblock copies, FSC_NO_ADDR = none */
	bool sb_log;              /* superblock log ring on two sequential zones */
	uint32_t sb_zone[2];      /* the ring's zones */
	uint32_t sb_cur;          /* ring zone in use (0/1) */
};

static inline bool fsc_bit(const uint64_t *b, uint32_t i)
{
	return (b[i >> 6] >> (i & 63)) & 1;
}

static inline void fsc_bit_set(uint64_t *b, uint32_t i)
{
	b[i >> 6] |= 1ULL << (i & 63);
}

static inline void fsc_bit_clear(uint64_t *b, uint32_t i)
{
	b[i >> 6] &= ~(1ULL << (i & 63));
}

/* A sequential zone, empty and in no device extent: free for a block group. */
static inline bool fsc_zone_is_free(const struct fsc_dev *dev, uint32_t z)
{
	return fsc_bit(dev->seq_bits, z) && fsc_bit(dev->empty_bits, z) &&
	       !fsc_bit(dev->used_bits, z);
}

/*
 * fsc_grow() - @arr (capacity *@cap elements of @size bytes) with room for
 * element @nr: itself, or reallocated with the capacity doubled (64 at
 * first).  NULL when out of memory (@arr and *@cap unchanged then).
 */
static inline void *fsc_grow(void *arr, uint32_t *cap, uint32_t nr, size_t size)
{
	uint32_t c;

	if (nr < *cap)
		return arr;
	c = *cap ? *cap * 2 : 64;
	arr = realloc(arr, c * size);
	if (arr)
		*cap = c;
	return arr;
}

struct fsc_stripe {
	uint32_t dev;
	uint64_t phys;
};

struct fsc_bg {
	uint64_t start;           /* logical bytes */
	uint64_t len_bytes;
	uint32_t type;            /* enum fsc_bg_type */
	enum fsc_profile profile;
	enum fsc_alloc_type alloc_type;
	uint32_t nr_stripes, sub_stripes;
	struct fsc_stripe stripes[FSC_MAX_STRIPES];
	uint64_t alloc_offset;    /* bytes allocated from start (sequential) */
	uint64_t submit_offset;   /* absolute logical address of the next bio to send */
	uint64_t used_bytes;      /* live bytes (pinned ones included) */
	uint64_t pinned_bytes;    /* freed by a transaction not yet committed */
	bool alloc_done;          /* no further allocation (full or abandoned) */
	bool expired;             /* submit buffer expired: IO fails (010) */
	bool relocating;
	bool busy;                /* serialization: a bio holds the per-BG lock */
	uint32_t nr_inflight;     /* allocated bios not completed + relocation copies */
	uint32_t unit_bytes;      /* owner granularity */
	uint32_t *owner;          /* per unit: owner id + 1, 0 = free */
	struct fsc_bio **held;    /* submit buffer, sorted by logical */
	uint32_t nr_held, held_cap;
	uint64_t last_submit_ns;
	uint64_t create_ns;
	uint64_t seq;             /* creation order (FIFO cleaning) */
};

/* A tree node of the B-tree model. */
struct fsc_node {
	uint64_t logical;
	uint32_t gen;             /* transaction that last CoW'ed it */
};

struct fsc_pin {
	uint64_t logical;
	uint32_t len;
};

struct fsc {
	struct fsc_cfg cfg;
	struct fsc_dev devs[FSC_MAX_DEVS];
	uint32_t nr_devs;
	uint64_t zone_bytes;
	bool space_cache, tree_log;
	struct fsc_owner_ops ops;
	void *ops_arg;

	struct fsc_bg **bgs;      /* sorted by start */
	uint32_t nr_bgs, bgs_cap;
	uint64_t next_logical;
	uint64_t bg_seq;
	struct fsc_bg *cur[3];    /* allocation target per type: data, meta, system */

	uint64_t *file_map;       /* file block -> logical, FSC_NO_ADDR = hole */
	uint64_t nr_file_blocks;

	struct fsc_node *nodes;   /* all levels: leaves first */
	uint32_t nr_nodes, nr_leaves, nr_levels;
	uint32_t level_first[16];
	uint32_t *dirty;          /* node ids dirty in the running transaction */
	uint32_t nr_dirty, dirty_cap;
	uint64_t *released;       /* tree blocks released in the running transaction */
	uint32_t nr_released, released_cap;
	struct fsc_pin *pinned;   /* freed by the running transaction, freed at commit */
	uint32_t nr_pinned, pinned_cap;
	struct fsc_pin *commit_pinned; /* those of the committing transaction */
	uint32_t nr_commit_pinned, commit_pinned_cap;
	uint32_t trans_id;
	uint64_t generation;

	struct fsc_bio *bio_free; /* pool */
	uint64_t bio_seq;         /* zone append tokens */
	struct fsc_stats st;
};

/* fsc_dev.c */
int fsc_dev_zone_info(struct fsc_dev *dev, struct zblk *blk);
void fsc_dev_fini(struct fsc_dev *dev);
int fsc_check_mode(struct fsc *fs);
int fsc_sb_place(struct fsc *fs);
int fsc_sb_write(struct fsc *fs);
/* Superblock log: where is the latest copy, from the two zones alone. */
int fsc_sb_log_locate(const struct zblk_zone *z0, const struct zblk_zone *z1,
		      uint64_t *pos_bytes, uint64_t *alt_pos_bytes);

/* fsc_chunk.c */
int fsc_dev_extent_find(struct fsc *fs, uint32_t dev, uint32_t nr_zones, uint64_t *phys);
int fsc_bg_create(struct fsc *fs, uint32_t type, uint64_t now_ns, struct fsc_bg **out);
int fsc_bg_load(struct fsc *fs, const struct fsc_chunk *c, struct fsc_bg **out);
int fsc_bg_recover_offset(struct fsc *fs, struct fsc_bg *bg);
void fsc_bg_remove(struct fsc *fs, struct fsc_bg *bg, uint64_t now_ns);
int fsc_bg_insert(struct fsc *fs, struct fsc_bg *bg);
void fsc_bg_free(struct fsc_bg *bg);
int fsc_map_stripe(const struct fsc_bg *bg, uint64_t off, uint64_t len, uint32_t *idx,
		   uint64_t *phys, uint64_t *run);
enum fsc_profile fsc_profile_of(const struct fsc *fs, uint32_t type);

/* fsc_alloc.c */
int fsc_alloc(struct fsc *fs, uint32_t type, uint64_t len, uint32_t owner, uint64_t now_ns,
	      struct fsc_bg **bgp, uint64_t *logical);
void fsc_free_extent(struct fsc *fs, uint64_t logical, uint64_t len, uint64_t now_ns);
void fsc_bg_put(struct fsc *fs, struct fsc_bg *bg, uint64_t now_ns);
struct fsc_bio *fsc_bio_get(struct fsc *fs);
void fsc_bio_put(struct fsc *fs, struct fsc_bio *bio);

/* Data goes by zone append in FSC_ORDER_APPEND (user writes and relocation). */
static inline bool fsc_bio_is_append(const struct fsc *fs, const struct fsc_bio *bio)
{
	return fs->cfg.order == FSC_ORDER_APPEND && bio->bg->type == FSC_BG_DATA;
}

/* fsc_submit.c */
void fsc_bio_finish(struct fsc *fs, struct fsc_bio *bio, uint64_t now_ns);

/* fsc_trans.c */
int fsc_tree_init(struct fsc *fs);
void fsc_tree_fini(struct fsc *fs);
int fsc_tree_dirty(struct fsc *fs, uint64_t lbn, uint64_t now_ns);
int fsc_tree_cow_node(struct fsc *fs, uint32_t id, uint64_t now_ns);

#endif /* FSC_INT_H */
