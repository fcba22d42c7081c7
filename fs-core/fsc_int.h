/*
 * fsc_int.h — fs-core's private structures, shared by the fsc_*.c files and
 * white-box unit tests.  The simulator (sim/sim_run.h) includes it too, to
 * read a block group's stripes when it times a bio on its devices and
 * redirects a read to where the data lives; that is reading, never
 * changing, fs-core's state behind its back.
 */
#ifndef FSC_INT_H
#define FSC_INT_H

#include <errno.h>
#include <stdlib.h>

#include "fsc.h"
#include "zl_rng.h"
#include "zbitmap.h"

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
	struct zbitmap free_map;  /* those zones (fsc_zone_is_free()), for an O(log64 n) search */
	uint32_t cursor;          /* next zone to look at for a device extent */
	uint64_t sb_pos[FSC_NR_SB_MIRRORS]; /* conventional superblock copies, FSC_NO_ADDR = none */
	bool sb_log;              /* superblock log ring on two sequential zones */
	uint32_t sb_zone[2];      /* the ring's zones */
	uint32_t sb_cur;          /* ring zone in use (0/1) */
	uint32_t *resets;         /* per zone: resets fs-core made (CAT's erase count) */
	uint32_t nr_active;       /* zones active (written, not full) as fs-core counts them */
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

/* fsc_push_u32() - @v appended to *@arr (*@nr used of *@cap): 0, or
 * -ENOMEM with the array unchanged. */
static inline int fsc_push_u32(uint32_t **arr, uint32_t *nr, uint32_t *cap, uint32_t v)
{
	uint32_t *a = fsc_grow(*arr, cap, *nr, sizeof(**arr));

	if (!a)
		return -ENOMEM;
	*arr = a;
	a[(*nr)++] = v;
	return 0;
}

/* fsc_grow_ptrs() - room in *@arr (pointers, capacity *@cap) for element
 * @nr: 0, or -ENOMEM with the array unchanged. */
static inline int fsc_grow_ptrs(struct fsc_bg ***arr, uint32_t *cap, uint32_t nr)
{
	struct fsc_bg **a = fsc_grow(*arr, cap, nr, sizeof(**arr));

	if (!a)
		return -ENOMEM;
	*arr = a;
	return 0;
}

/*
 * fsc_alloc_big() (fsc_slab.c) - memory for a large array read at random
 * (the file map): in 2 MiB huge pages where the kernel offers them
 * (madvise), so a random access costs a cache miss and not also a page
 * walk.  free() releases it.
 */
void *fsc_alloc_big(size_t bytes);

struct fsc_stripe {
	uint32_t dev;
	uint64_t phys;
};

struct fsc_bg {
	/* hot: what freeing a block, a policy update and the cleanable test
	 * read, in the first two cache lines (bg_alloc aligns them) */
	uint64_t start;           /* logical bytes */
	uint64_t len_bytes;
	uint64_t alloc_offset;    /* bytes allocated from start (sequential) */
	uint64_t used_bytes;      /* live bytes (pinned ones included) */
	uint64_t pinned_bytes;    /* freed by a transaction not yet committed */
	uint32_t *owner;          /* per unit: owner id + 1, 0 = free */
	uint32_t unit_bytes;      /* owner granularity */
	uint32_t type;            /* enum fsc_bg_type */
	enum fsc_alloc_type alloc_type;
	uint32_t nr_inflight;     /* allocated bios not completed + relocation copies */
	uint32_t nr_held, held_cap;
	bool alloc_done;          /* no further allocation (full or abandoned) */
	bool expired;             /* submit buffer expired: IO fails (010) */
	bool relocating;
	bool busy;                /* serialization: a bio holds the per-BG lock */
	bool active;              /* its zones count as active (fsc_active_*) */
	/* cleaning policy bookkeeping (fsc_clean_sync(), clean/) */
	bool clean_member;        /* in the policy's structures (a candidate) */
	uint8_t clean_where;      /* policy's use (windowed: in the window) */
	uint32_t clean_idx[2];    /* the policy's handles: heap ids, score id and class, array index */
	uint64_t clean_used;      /* used_bytes the policy last saw */
	uint64_t seq;             /* creation order (FIFO cleaning) */
	uint64_t done_clock;      /* user bytes written when allocation ended (sealed): the
				   * score policies' age = user bytes written since */
	uint32_t erases;          /* resets of its first zone before it was created (CAT) */
	uint32_t stream;          /* data log it belongs to (placement) */
	/* cold: the layout on the devices and the submit path's state */
	enum fsc_profile profile;
	uint32_t nr_stripes, sub_stripes;
	uint64_t submit_offset;   /* absolute logical address of the next bio to send */
	struct fsc_bio **held;    /* submit buffer, sorted by logical */
	uint64_t last_submit_ns;
	uint64_t create_ns;
	uint64_t dispatched_bytes;/* bytes sent to the devices (full when = len_bytes) */
	bool in_slab;             /* memory from fs->slab (owner[] follows the struct) */
	bool rc_queued;           /* on the Linux 6.1 reclaim list (fsc_reclaim.c) */
	bool rc_freed;            /* freed bytes since the last commit (the unpin check) */
	uint32_t rc_order;        /* its place on the list when a pass sorts it */
	uint32_t rc_mark;         /* linux-6.12 periodic: sweeps since its last allocation */
	bool reclaimed;           /* relocation began: removed at once when empty */
	bool unused;              /* on fs->unused, deleted by fsc_delete_unused() */
	uint64_t loaded_bytes;    /* from a chunk at mount: its recovered allocation
				   * offset; owner[] is unknown below it, all live */
	bool rp_to_copy;          /* device replace: not copied yet, its writes are
				   * not duplicated (BLOCK_GROUP_FLAG_TO_COPY) */
	uint16_t kmax;            /* btrfs model: leaves per keyed tree it may have */
	uint32_t *kleaf;          /* btrfs model: their node ids, [tree][kmax] (0 = none) */
	uint16_t khigh[2];        /* btrfs model: per keyed tree, slots below it may hold a leaf */
	uint16_t kleaves[2];      /* btrfs model: per keyed tree, the leaves its key range
				   * spreads over now (leaves_live()) */
	uint32_t resv_trans;      /* cfg.resv_linux61: transaction that last changed its used bytes */
	struct fsc_bg *pool_next; /* on fs->slab's free list, once removed */
	struct fsc_stripe stripes[FSC_MAX_STRIPES];
};

_Static_assert(__builtin_offsetof(struct fsc_bg, profile) <= 128,
	       "struct fsc_bg: the hot fields fit the first two cache lines");

/*
 * What the core keeps of the configured cleaning policy (the policies and
 * the machinery they share are in clean/, fsc_clean_int.h): the core calls
 * a policy only through these ops (fsc_clean_sync() in fsc_bg.c), never by
 * name.  The heap's type is here because struct fsc_clean holds three.
 *
 * An indexed binary heap of block groups (clean/fsc_clean_heap.c), ordered by a
 * two-word key @key computes (the top has the least, compared k[0] then
 * k[1]).  The key is kept in the entry, so sifting compares entries without
 * reading the block groups (at 100,000 of them each read would be a cache
 * miss).  Each member has an id (in its clean_idx[@slot]) and the heap
 * keeps every id's position in @pos, a dense array that stays in cache:
 * a sift writes there, not into the block groups it moves.  Removing or
 * re-keying one costs O(log n).
 */
struct fsc_heap_ent {
	uint64_t k[2];
	struct fsc_bg *bg;
	uint32_t id;
};

struct fsc_heap {
	struct fsc_heap_ent *v;
	uint32_t nr, cap;
	uint32_t slot;
	void (*key)(const struct fsc_bg *bg, uint64_t k[2]);
	uint32_t *pos;            /* per id: its entry's index in v */
	uint32_t nr_ids, cap_ids;
	uint32_t *free_ids;
	uint32_t nr_free_ids, cap_free_ids;
};

struct fsc_clean;

/*
 * A victim-selection policy: one file each, one row in clean/fsc_clean.c's table.
 * fs-core tells it which block groups are candidates (add: one became a
 * candidate, sealed and idle; remove: it stopped being one, or was
 * relocated, or removed; update: a candidate's live bytes changed, the
 * old value given) and asks it for a victim (pick, among its candidates,
 * NULL if it declines).  Every call O(log n) or amortised O(1).  add may
 * fail (-ENOMEM); fs-core then falls back to the scan for that pick.
 */
struct fsc_clean_ops {
	const char *name;
	const char *params;       /* accepted parameters, for messages */
	int (*init)(struct fsc_clean *c);
	void (*fini)(struct fsc_clean *c);
	int (*add)(struct fsc_clean *c, struct fsc_bg *bg);
	void (*remove)(struct fsc_clean *c, struct fsc_bg *bg);
	void (*update)(struct fsc_clean *c, struct fsc_bg *bg, uint64_t old_used);
	struct fsc_bg *(*pick)(struct fsc_clean *c, uint64_t now_ns);
	/* the same choice over @bgs (any order), or NULL: the scan reference */
	struct fsc_bg *(*pick_scan)(struct fsc_clean *c, struct fsc_bg *const *bgs, uint32_t nr,
				    uint64_t now_ns);
	/* optional hint: @bg (a candidate) is about to lose live bytes; start
	 * loading what update will touch (fsc_prefetch_file(), stage 3) */
	void (*prefetch)(const struct fsc_clean *c, const struct fsc_bg *bg);
};

/* A policy's state: the shared pieces each may use, and its own. */
struct fsc_clean {
	const struct fsc_clean_ops *ops;
	struct fsc_clean_params p;
	struct zl_rng rng;
	struct fsc_heap heap[3];
	struct fsc_bg **arr;      /* d-choices: the candidates, clean_idx[0] */
	uint32_t nr, cap;
	void *priv;
	bool broken;              /* an add failed: picks scan */
};

/*
 * RAID5/6, the hypothetical profile (cfg.raid56_model): a block group of N
 * stripes (one zone each) is cut in rows of 64 KiB per stripe; row r's P
 * parity is on stripe r % N, Q (RAID6) on the next, the data units follow
 * in order, wrapping.  Data unit k of row r holds logical bytes
 * [(r * D + k) * 64 KiB, +64 KiB) of the block group (D = N - 1 or N - 2).
 * Every write covers whole rows (fsc_bg_span()).
 */
static inline bool fsc_bg_is_r56(const struct fsc_bg *bg)
{
	return bg->profile == FSC_RAID5 || bg->profile == FSC_RAID6;
}
static inline uint32_t fsc_r56_nr_parity(const struct fsc_bg *bg)
{
	return bg->profile == FSC_RAID6 ? 2 : 1;
}
/* Logical bytes of a row (a full stripe). */
static inline uint64_t fsc_r56_full(const struct fsc_bg *bg)
{
	return (uint64_t)(bg->nr_stripes - fsc_r56_nr_parity(bg)) * FSC_RAID0_STRIPE_BYTES;
}
/* Stripe of row @row's P parity (Q: the next one). */
static inline uint32_t fsc_r56_pstripe(const struct fsc_bg *bg, uint64_t row)
{
	return (uint32_t)(row % bg->nr_stripes);
}
/* Stripe of data unit @k of row @row. */
static inline uint32_t fsc_r56_dstripe(const struct fsc_bg *bg, uint64_t row, uint32_t k)
{
	return (fsc_r56_pstripe(bg, row) + fsc_r56_nr_parity(bg) + k) % bg->nr_stripes;
}
/* Bytes of @bg a write of @len takes: itself, in RAID5/6 whole rows. */
static inline uint64_t fsc_bg_span(const struct fsc_bg *bg, uint64_t len)
{
	uint64_t full;

	if (!fsc_bg_is_r56(bg))
		return len;
	full = fsc_r56_full(bg);
	return (len + full - 1) / full * full;
}

/* A block group is a cleaning candidate (docs/POLICIES.md). */
static inline bool fsc_bg_is_cleanable(const struct fsc_bg *bg)
{
	return (bg->type & (FSC_BG_DATA | FSC_BG_META)) && bg->alloc_done && !bg->relocating &&
	       !bg->nr_inflight && !bg->nr_held && bg->alloc_type == FSC_ALLOC_SEQ &&
	       !bg->pinned_bytes &&  /* could not be reset before the commit */
	       bg->used_bytes < bg->alloc_offset;
}

/* A tree node of the B-tree model. */
struct fsc_node {
	uint64_t logical;
	uint32_t gen;             /* transaction that last CoW'ed it */
	uint32_t tree;            /* btrfs model keyed nodes: which tree (FSC_BT_*) */
};

/* The btrfs model's trees (fsc_btree.c); the file tree is fs->nodes. */
enum { FSC_BT_FILE, FSC_BT_EXT, FSC_BT_CSUM, FSC_BT_ROOT, FSC_BT_DRELOC, FSC_BT_NR };
#define FSC_KID 0x40000000u       /* node ids from here are fs->bt.kn's */

struct fsc_pin {
	uint64_t logical;
	uint32_t len;
};

struct fsc {
	struct fsc_cfg cfg;
	struct fsc_dev devs[FSC_MAX_DEVS];
	uint32_t nr_devs;
	uint64_t zone_bytes;
	uint32_t zone_shift;      /* log2(zone_bytes) when a power of two, else 0 */
	bool space_cache, tree_log;
	struct fsc_owner_ops ops;
	void *ops_arg;

	struct fsc_bg **bgs;      /* slots sorted by start; NULL = removed (compacted lazily) */
	uint64_t *bg_starts;      /* start of each slot's block group (kept for NULL ones) */
	uint32_t nr_slots;        /* slots in use, NULL ones included */
	uint32_t nr_bgs, bgs_cap; /* block groups (non-NULL slots); capacity of both arrays */
	/* direct lookup (fsc_bgtab.c): zone-sized slot of the logical space ->
	 * block group; off = some block group is not on the grid: binary search */
	struct {
		struct fsc_bgmap_ent {
			uint64_t key;     /* slot + 1, 0 = empty; open addressing */
			struct fsc_bg *bg;
		} *ent;               /* key and value side by side: one miss a probe */
		uint32_t cap, nr;
		bool off;
	} bgmap;
	uint64_t next_logical;
	uint64_t bg_seq;
	struct fsc_slab {         /* block group memory (fsc_slab.c) */
		char **chunks;
		uint32_t nr_chunks, cap_chunks;
		size_t elem, chunk_bytes;  /* elem 0: not set up, or off */
		char *next;           /* next unused element of the last chunk */
		uint32_t left;        /* unused elements there */
		struct fsc_bg *free;  /* removed ones, through pool_next */
	} slab;
	struct fsc_bg *cur[3 + FSC_MAX_STREAMS]; /* allocation target: data stream 0, meta,
						  * system, data streams 1.. at 3.. */
	uint64_t *last_write;     /* freq placement: user write count at each block's last write */
	uint64_t nr_user_writes;

	uint64_t *file_map;       /* file block -> logical, FSC_NO_ADDR = hole */
	uint64_t nr_file_blocks;
	struct fsc_bg *treelog_bg; /* fsc_log_sync()'s block group (fs_info->treelog_bg) */
	uint64_t *dirty_map;      /* fsc_buffer_write(): one bit per file block */
	uint64_t nr_dirty_blocks;
	struct {                  /* cfg.extent_refs (fsc_extent.c) */
		uint32_t *of;     /* per file block: its extent's id + 1, 0 = none */
		struct fsc_ext {
			uint32_t nr_live;            /* file blocks referencing it */
			uint32_t nr_ghost, ghost_cap;
			uint64_t *ghost;             /* addresses of its dead blocks */
		} *v;
		uint32_t nr, cap;
		uint32_t *free;   /* released ids */
		uint32_t nr_free, free_cap;
		int err;          /* sticks: out of memory while tracking */
	} ext;

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

	struct fsc_bt {           /* cfg.meta_model btrfs (fsc_btree.c) */
		struct fsc_node *kn;  /* keyed trees' nodes (id FSC_KID + index); 0 unused */
		uint32_t nr_kn, kn_cap;
		uint32_t *kfree, nr_kfree, kfree_cap;  /* free indexes */
		uint64_t span[3];     /* key bytes a leaf covers: data extent items,
				       * tree block items (extent tree), checksums */
		uint32_t root[FSC_BT_NR];  /* keyed trees' roots, root tree, data reloc tree */
		uint32_t *par[FSC_BT_NR]; /* extent / csum trees' level-1 nodes (0 = none yet) */
		uint32_t par_cap[FSC_BT_NR], nr_leaves[FSC_BT_NR];
		uint32_t ext_blocks;  /* file blocks per extent */
		uint32_t *dead, nr_dead, dead_cap;     /* leaves of removed block groups */
		uint32_t *edge, nr_edge, edge_cap;     /* linux-6.12: neighbours' checksum leaves
							* a removal's deletions rewrite */
		/* fsc_bt_bg_removed(), set by fsc_bt_init(): bg_remove()
		 * (fsc_bg.c, below this file) calls it through this hook */
		void (*bg_removed)(struct fsc *fs, const struct fsc_bg *bg);
		uint32_t *moved, nr_moved, moved_cap;  /* file leaves the relocation moved */
		uint32_t *mark;       /* per file leaf: relocation seq that listed it */
		uint32_t seq, stage, nr_stages; /* relocation in progress */
		bool meta_victim;
		bool freeing;         /* fsc_bt_data_free() runs (fsc_resv.c counts what it CoWs) */
		int err;              /* a tree block allocation failed: sticky (abort) */
	} bt;
	struct fsc_resv {         /* cfg.resv_linux61 (fsc_resv.c) */
		uint64_t global;      /* the global block reserve (in may_use throughout) */
		uint64_t drsv;        /* reserved for the delayed refs: the writes' reservations */
		uint32_t fresh;       /* extent/csum-tree blocks CoW'd since the delayed refs ran */
		uint32_t dirty_bgs;   /* block groups whose used bytes this transaction changed */
		uint32_t cycles;      /* commits the waiting reservation went through */
		uint64_t pending;     /* the last reservation, its write not yet allocated:
				       * the inode's, which a commit does not give back */
		struct fsc_bg *spare; /* a metadata block group allocated ahead (ALLOC_CHUNK) */
		/* fsc_resv_spare_short(), set by fsc_resv_init(): the cleaner
		 * (fsc_bg.c, below this file) asks it through this hook */
		bool (*spare_short)(const struct fsc *fs, const struct fsc_bg *bg);
		uint64_t reloc;       /* cfg.resv_612: held by the running relocation until
				       * its copies are done (fsc_resv_reloc()) */
		const struct fsc_bg *reloc_bg; /* ... the victim being reserved for */
		uint64_t reloc_ext;   /* ... its extents still to reserve */
		bool reloc_ctl;       /* ... its relocation control's reserve is held */
		bool reloc_inode;     /* ... its relocation inode's start fitted (6.12) */
		uint64_t reloc_starts; /* ... metadata victim: its tree blocks' transaction
				       * starts still to make (data: one per extent) */
		uint8_t reloc_step;   /* ... this extent's steps done: 1 its start refilled
				       * the delayed refs reserve, 2 its prealloc's start
				       * fitted (6.12, fsc_resv_reloc()) */
		uint64_t gone;        /* bytes of metadata block groups removed: still in
				       * 6.1's active_total_bytes (fsc_resv.c) */
		uint64_t drefs;       /* cfg.resv_73: the delayed refs reserve's size, bytes:
				       * heads and dirty block group items since the refs
				       * last ran (fsc_resv.c) */
		bool cap_committed;   /* cfg.resv_73: this refill's cap commit is done */
	} resv;
	struct fsc_bg **meta_bgs; /* the metadata block groups (fsc_bg_insert() keeps it) */
	uint32_t nr_meta_bgs, meta_bgs_cap;
	uint32_t nr_chunk_zones;  /* zones in the block groups' chunks (device extents):
				   * fsc_chunk_zones() of every type, kept by fsc_bg_insert()/unlink() */
	struct fsc_bg **unused;   /* reclaim mode: left empty, deleted by fsc_delete_unused() */
	uint32_t nr_unused, unused_cap;
	/* cfg.resv_612: zones of block groups removed since the last commit,
	 * (device, zone) pairs, out of the free pool until fsc_commit_finish()
	 * (btrfs_finish_extent_commit() resets them, extent-tree.c:2890) */
	uint32_t *zpend;
	uint32_t nr_zpend, zpend_cap;

	struct fsc_clean clean;   /* victim selection */
	struct fsc_reclaim {      /* the kernel's reclaim list (fsc_reclaim.c) */
		struct fsc_bg **list; /* queued order; sorted by a pass; NULL = taken */
		uint32_t nr, cap, pos, nr_retry;
		bool in_pass;
		/* linux-6.12 periodic: per space (data, metadata, system) the
		 * bytes freed less those allocated, and ready for a sweep */
		int64_t reclaimable[3];
		bool ready[3];
	} reclaim;
	struct fsc_bg **active;   /* block groups holding active zones (fsc_active.c) */
	uint32_t nr_active_bgs, active_cap;

	struct fsc_rp {           /* device replace / rebuild (fsc_replace.c) */
		struct zblk *tgt;     /* NULL: none running */
		uint32_t src;
		struct fsc_rp_ent {   /* a block group to copy, in source zone order */
			uint64_t start;   /* its logical start (looked up again: it may go) */
			uint64_t phys;    /* its lowest stripe on the source */
		} *ents;
		uint32_t nr_ents, pos;
		uint64_t cursor;      /* bytes of the current entry's zones walked */
		uint64_t tgt_wp[FSC_MAX_STRIPES]; /* per stripe: bytes written on the target */
		bool src_dataless, tgt_dataless; /* zblk_zdev: NULL buffers only */
		uint8_t *buf;         /* copy / zero buffer (FSC_RP_IO_BYTES) */
		uint8_t *rbuf;        /* RAID5/6 reconstruction: FSC_MAX_STRIPES x FSC_RP_IO_BYTES */
		struct fsc_replace_progress pr;
	} rp;
	struct fsc_bio *bio_free; /* pool */
	uint64_t bio_seq;         /* zone append tokens */
	struct fsc_stats st;
};

/*
 * The core's modules, lowest first: each calls only those listed before it
 * (and zblk/); fs-core's entry fsc.c and clean/ sit above them all.
 */

/* fsc_dev.c: zone info, mode checks, superblock */
int fsc_dev_zone_info(struct fsc_dev *dev, struct zblk *blk);
void fsc_dev_fini(struct fsc_dev *dev);
int fsc_check_mode(struct fsc *fs);
int fsc_sb_place(struct fsc *fs);
/* fsc_sb_place() for device @d alone (a replace target taking a slot). */
int fsc_sb_place_dev(struct fsc *fs, uint32_t d);
bool fsc_sb_copy_zone(const struct fsc *fs, const struct fsc_dev *dev, uint32_t z);
int fsc_sb_write(struct fsc *fs);
/* Superblock log: where is the latest copy, from the two zones alone. */
int fsc_sb_log_locate(const struct zblk_zone *z0, const struct zblk_zone *z1,
		      uint64_t *pos_bytes, uint64_t *alt_pos_bytes);

/* fsc_place.c: which data log a write goes to */
/* The data log of a user write of @lbn with @hint, or of a relocation out of @src. */
uint32_t fsc_place_user(struct fsc *fs, uint64_t lbn, uint32_t hint);
uint32_t fsc_place_reloc(const struct fsc *fs, const struct fsc_bg *src);
int fsc_place_init(struct fsc *fs);

/* fsc_slab.c: block group memory */
/* fsc_bg_alloc() - a zeroed block group of @type and @len bytes with its
 * owner array, its creation seq taken; NULL when out of memory. */
struct fsc_bg *fsc_bg_alloc(struct fsc *fs, uint32_t type, uint64_t len);
/* fsc_bg_free() - its memory (and submit buffer array) back; NULL is a no-op. */
void fsc_bg_free(struct fsc *fs, struct fsc_bg *bg);
void fsc_slab_fini(struct fsc *fs);

/* fsc_reclaim.c: the kernel's reclaim list (cfg.reclaim.mode; no-ops when off) */
/* @bg lost live bytes (now bg->used_bytes, @old_used before): queue it when
 * that crossed its type's threshold; remember it for the commit's check.
 * On the free path: with the list off, one test of a flag and no call. */
void fsc_reclaim_freed_slow(struct fsc *fs, struct fsc_bg *bg, uint64_t old_used);
static inline void fsc_reclaim_freed(struct fsc *fs, struct fsc_bg *bg, uint64_t old_used)
{
	if (fsc_reclaim_on(&fs->cfg.reclaim))
		fsc_reclaim_freed_slow(fs, bg, old_used);
}
/* linux-6.12: @len bytes allocated in @bg (btrfs_update_block_group()):
 * its reclaim mark clears; with periodic, the space's reclaimable bytes
 * fall.  One test of the mode on the allocation path otherwise. */
void fsc_reclaim_alloced_slow(struct fsc *fs, struct fsc_bg *bg, uint64_t len);
static inline void fsc_reclaim_alloced(struct fsc *fs, struct fsc_bg *bg, uint64_t len)
{
	if (fs->cfg.reclaim.mode == FSC_RECLAIM_LINUX_6_12)
		fsc_reclaim_alloced_slow(fs, bg, len);
}
/* After a commit unpinned: queue those freed since whose unusable space
 * (freed behind the write pointer) reached the threshold of their length. */
void fsc_reclaim_commit(struct fsc *fs);
/* @bg goes away: off the list (linux-6.12 periodic: a relocated one shrank
 * its space, which makes the space ready again). */
void fsc_reclaim_forget(struct fsc *fs, struct fsc_bg *bg);
void fsc_reclaim_fini(struct fsc *fs);

/* fsc_chunk.c: free zones, device extents, stripes */
enum fsc_profile fsc_profile_of(const struct fsc *fs, uint32_t type);
/* Zone @z of @dev goes into a device extent (out of the free pool if it was in). */
void fsc_zone_take(struct fsc_dev *dev, uint32_t z);
/* Zone @z of @dev, empty (reset or never written), returns to the free pool. */
void fsc_zone_put(struct fsc_dev *dev, uint32_t z);
int fsc_dev_extent_find(struct fsc *fs, uint32_t dev, uint32_t nr_zones, uint64_t *phys);
int fsc_chunk_alloc(struct fsc *fs, uint32_t type, struct fsc_stripe *st, uint32_t *nr_out,
		    uint32_t *data_out);
void fsc_chunk_release(struct fsc *fs, const struct fsc_stripe *st, uint32_t nr);
void fsc_zones_unpend(struct fsc *fs);
int fsc_map_stripe(const struct fsc_bg *bg, uint64_t off, uint64_t len, uint32_t *idx,
		   uint64_t *phys, uint64_t *run);

/* fsc_r56.c: the bytes of the hypothetical RAID5/6 profile */
/* fsc_r56_fill() - what stripe @s of @bg holds at zone offsets [@p, @p +
 * @len) once its rows are written (@p, @len multiples of 4 KiB): data units
 * their stamps, P and Q the parity of the row's data stamps. */
void fsc_r56_fill(const struct fsc_bg *bg, uint32_t s, uint64_t p, uint64_t len, uint8_t *buf);
/* fsc_r56_rebuild() - stripe @x's bytes at zone offsets [@p, @p + @len)
 * into @out, from the others' bytes there: @src[s] (indexed by stripe; NULL:
 * not read, at most one besides @x in RAID6, none in RAID5).  0, -EINVAL,
 * FSC_E_DATA_LOST (too few read). */
int fsc_r56_rebuild(const struct fsc_bg *bg, uint32_t x, uint8_t *const *src, uint64_t p,
		    uint64_t len, uint8_t *out);
/* Does @blk keep data (zblk_zdev refuses buffers: -EOPNOTSUPP)?  A
 * zero-length read probes it without counting. */
static inline bool fsc_blk_keeps_data(struct zblk *blk)
{
	static _Alignas(4096) uint8_t probe[4096];

	return blk->ops->read(blk, 0, probe, 0) != -EOPNOTSUPP;
}

/* fsc_bgtab.c: the table of block groups and lookup (fsc_bg_lookup() in fsc.h) */
/* fsc_bgmap_get() - the block group whose zone-sized slot holds @logical
 * (true, *@bg possibly NULL), or false when the map is off. */
bool fsc_bgmap_get(const struct fsc *fs, uint64_t logical, struct fsc_bg **bg);
/* fsc_bgmap_prefetch() - start loading the map entry fsc_bgmap_get() will
 * probe first for @logical (a hint: nothing changes). */
void fsc_bgmap_prefetch(const struct fsc *fs, uint64_t logical);
/* fsc_bg_lookup_search() - fsc_bg_lookup() by binary search (the general
 * path, and the reference the map is tested against). */
struct fsc_bg *fsc_bg_lookup_search(const struct fsc *fs, uint64_t logical);
/* fsc_bg_insert() - @bg into the table (0 or -ENOMEM); fsc_bg_unlink() - out. */
int fsc_bg_insert(struct fsc *fs, struct fsc_bg *bg);
void fsc_bg_unlink(struct fsc *fs, struct fsc_bg *bg);

/* fsc_replace.c: device replace / rebuild (API in fsc.h); the hooks the
 * write path and block group removal call while one runs */
static inline bool fsc_rp_on(const struct fsc *fs)
{
	return fs->rp.tgt != NULL;
}
/* @len bytes were written at @phys of device @dev for @bg (@kind): when @dev
 * is the source and @bg is no longer to copy, write them on the target too
 * (handle_ops_on_dev_replace()).  0 or the target's error. */
int fsc_rp_dup_write(struct fsc *fs, const struct fsc_bg *bg, uint32_t dev, uint64_t phys,
		     uint64_t len, uint32_t kind);
/* fsc_rp_dup_write() of the bytes in @buf (NULL: stamp blocks; ignored on
 * a target that keeps no data): RAID5/6 parity. */
int fsc_rp_dup_write_buf(struct fsc *fs, const struct fsc_bg *bg, uint32_t dev, uint64_t phys,
			 uint64_t len, uint32_t kind, const void *buf);
/* Zone op @op on @bg's zone at @phys of device @dev: when @dev is the
 * source, a reset is done on the target too (do_discard_extent()), and a
 * finish once @bg is copied. */
void fsc_rp_zone_op(struct fsc *fs, const struct fsc_bg *bg, uint32_t dev, uint64_t phys,
		    enum zl_zone_op op);
void fsc_rp_fini(struct fsc *fs);

/* fsc_recover.c: allocation offset from the write pointers (008) */
int fsc_bg_recover_offset(struct fsc *fs, struct fsc_bg *bg);

/* fsc_active.c: the max-active-zones limit, counted and chosen */
void fsc_active_init(struct fsc *fs);
int fsc_active_add(struct fsc *fs, struct fsc_bg *bg);
void fsc_active_drop(struct fsc *fs, struct fsc_bg *bg);
/* @bytes of @bg went to the devices: its zones become full at len_bytes. */
void fsc_active_dispatched(struct fsc *fs, struct fsc_bg *bg, uint64_t bytes);
int fsc_active_victim(struct fsc *fs, uint32_t type, struct fsc_bg **out);

/* fsc_bg.c: a block group's life */
int fsc_bg_create(struct fsc *fs, uint32_t type, uint64_t now_ns, struct fsc_bg **out);
int fsc_bg_load(struct fsc *fs, const struct fsc_chunk *c, struct fsc_bg **out);
int fsc_bg_finish(struct fsc *fs, struct fsc_bg *bg, uint64_t now_ns);
void fsc_bg_put(struct fsc *fs, struct fsc_bg *bg, uint64_t now_ns);
void fsc_bg_relocating(struct fsc *fs, struct fsc_bg *bg, bool on);
/* fsc_clean_sync() - @bg's state changed: tell the policy (add / update /
 * remove), through fs->clean.ops. */
void fsc_clean_sync(struct fsc *fs, struct fsc_bg *bg);
/* fsc_clean_forget() - @bg goes away. */
void fsc_clean_forget(struct fsc *fs, struct fsc_bg *bg);

/* fsc_alloc.c: sequential allocation, freeing, the bio pool */
int fsc_alloc_make_room(struct fsc *fs, uint32_t type, uint64_t now_ns);
int fsc_alloc(struct fsc *fs, uint32_t type, uint64_t len, uint32_t owner, uint64_t now_ns,
	      struct fsc_bg **bgp, uint64_t *logical);
/* fsc_alloc_stream() - fsc_alloc() of data into log @stream. */
int fsc_alloc_stream(struct fsc *fs, uint32_t type, uint32_t stream, uint64_t len,
		     uint32_t owner, uint64_t now_ns, struct fsc_bg **bgp, uint64_t *logical);
void fsc_free_extent(struct fsc *fs, uint64_t logical, uint64_t len, uint64_t now_ns);
struct fsc_bio *fsc_bio_get(struct fsc *fs);
void fsc_bio_put(struct fsc *fs, struct fsc_bio *bio);

/* fsc_btree.c: tree blocks: CoW of a node; the btrfs model's keyed trees */
static inline struct fsc_node *fsc_node(struct fsc *fs, uint32_t id)
{
	return id < FSC_KID ? &fs->nodes[id] : &fs->bt.kn[id - FSC_KID];
}
static inline bool fsc_bt_on(const struct fsc *fs)
{
	return fs->cfg.meta_model == FSC_META_BTRFS && fs->nr_nodes;
}
/* fsc_node_cow() - node @id copied on write in the running transaction:
 * a new block, the old one pinned until commit. */
int fsc_node_cow(struct fsc *fs, uint32_t id, uint64_t now_ns);
/* The old copy of a tree block at @logical waits for the commit. */
int fsc_node_pin(struct fsc *fs, uint64_t logical);
int fsc_bt_init(struct fsc *fs);
void fsc_bt_fini(struct fsc *fs);
/* Data at @logical of @bg was allocated or freed (its extent item and
 * checksums change): their leaves dirty.  Returns 0 or an error. */
int fsc_bt_data(struct fsc *fs, struct fsc_bg *bg, uint64_t logical, bool csum, uint64_t now_ns);
/* The data bytes of @bg one checksum leaf covers now (fsc_btree.c). */
uint64_t fsc_bt_csum_span(const struct fsc *fs, const struct fsc_bg *bg);
static inline int fsc_bt_data_at(struct fsc *fs, uint64_t logical, uint64_t now_ns)
{
	struct fsc_bg *bg;

	if (!fsc_bt_on(fs) || (logical & FSC_TOKEN_BIT) || logical == FSC_NO_ADDR)
		return 0;
	bg = fsc_bg_lookup(fs, logical);
	return bg ? fsc_bt_data(fs, bg, logical, true, now_ns) : 0;
}
/* fsc_bt_data_at() for data no longer referenced: the kernel deletes its
 * extent item and checksums when it runs the drop's delayed ref. */
static inline int fsc_bt_data_free(struct fsc *fs, uint64_t logical, uint64_t now_ns)
{
	int ret;

	fs->bt.freeing = true;
	ret = fsc_bt_data_at(fs, logical, now_ns);
	fs->bt.freeing = false;
	return ret;
}
/* CoW keyed node @id and its path (relocation of a tree block). */
int fsc_bt_cow_node(struct fsc *fs, uint32_t id, uint64_t now_ns);
/* CoW node @id (file tree or keyed) and its path to the root. */
int fsc_tree_cow_node(struct fsc *fs, uint32_t id, uint64_t now_ns);
/* Data block group @bg is being removed: with --reclaim linux-6.12 the
 * checksum leaves its deletions rewrite (its neighbours' by address) are
 * listed for the next commit (fsc_btree.c). */
void fsc_bt_bg_removed(struct fsc *fs, const struct fsc_bg *bg);
/* Before a commit: leaves of removed block groups go, the root tree is CoW'd. */
int fsc_bt_commit_prep(struct fsc *fs, uint64_t now_ns);
/* Relocation moved file-tree leaf @leaf's data or the leaf itself. */
int fsc_bt_moved(struct fsc *fs, uint32_t leaf);
/* The relocation of a victim of @meta type, @moved anything: its commits. */
void fsc_bt_reloc_begin(struct fsc *fs, bool meta, bool moved, uint64_t now_ns);

/* fsc_extent.c: extents freed whole (cfg.extent_refs) */
int fsc_ext_init(struct fsc *fs);
void fsc_ext_fini(struct fsc *fs);
/* A new extent: its id in *@id.  0, -ENOMEM, -ENOSPC (ids exhausted). */
int fsc_ext_new(struct fsc *fs, uint32_t *id);
/* File block @lbn now refers to extent @id. */
void fsc_ext_ref(struct fsc *fs, uint64_t lbn, uint32_t id);
/* File block @lbn, stored at @old, no longer refers to its extent: the
 * whole extent is freed when that was its last reference, else the block
 * stays allocated, owned by the extent.  0, -ENOMEM, -EINVAL. */
int fsc_ext_drop(struct fsc *fs, uint64_t lbn, uint64_t old, uint64_t now_ns);
/* @owner (a unit's owner slot) is a dead block of extent *@id. */
bool fsc_ext_is_ghost(const struct fsc *fs, uint32_t owner, uint32_t *id);
/* Relocation moved extent @id's dead block @from to @to. */
void fsc_ext_ghost_moved(struct fsc *fs, uint32_t id, uint64_t from, uint64_t to);

/* fsc_resv.c: Linux 6.1's metadata reservation (fsc_resv_write() in fsc.h) */
/* One delayed ref head's bytes in the delayed refs reserve's size:
 * btrfs_calc_delayed_ref_bytes(1), an insert's (node x BTRFS_MAX_LEVEL x
 * 2) doubled by the free space tree (delayed-ref.h:309 of 7.3.4). */
static inline uint64_t fsc_resv_head_bytes(const struct fsc *fs)
{
	return (uint64_t)fs->cfg.node_bytes * 8 * 2 * 2;
}
/* A tree block was allocated (a CoW; @ext: of the extent tree): it uses
 * its bytes of the reservations (may_use -> used).  cfg.resv_73: two
 * heads (the new block's reference, the old one's drop) join the delayed
 * refs reserve's size (btrfs_update_delayed_refs_rsv(), delayed-ref.c:88). */
static inline void fsc_resv_cow(struct fsc *fs, bool ext)
{
	struct fsc_resv *r = &fs->resv;

	if (!fs->cfg.resv_linux61)
		return;
	if (fs->cfg.resv_73)
		r->drefs += 2 * fsc_resv_head_bytes(fs);
	r->drsv -= r->drsv < fs->cfg.node_bytes ? r->drsv : fs->cfg.node_bytes;
	r->fresh += ext;
}
/* @bg's used bytes changed: the first time in a transaction its item is
 * dirty, a head's worth of the delayed refs reserve until the commit
 * writes it (btrfs_update_block_group()). */
static inline void fsc_resv_bg_dirty(struct fsc *fs, struct fsc_bg *bg)
{
	if (fs->cfg.resv_linux61 && bg->resv_trans != fs->trans_id) {
		bg->resv_trans = fs->trans_id;
		fs->resv.dirty_bgs++;
		/* 7.3: btrfs_inc_delayed_refs_rsv_bg_updates(), a
		 * btrfs_calc_metadata_size(1) (node x BTRFS_MAX_LEVEL) */
		if (fs->cfg.resv_73)
			fs->resv.drefs += (uint64_t)fs->cfg.node_bytes * 8;
	}
}
/* The write a reservation was made for is allocated (fsc_write_file_hint()).
 * cfg.resv_73: its extent's reference and the overwritten one's drop are
 * two heads of the delayed refs reserve's size. */
static inline void fsc_resv_spent(struct fsc *fs)
{
	fs->resv.pending = 0;
	if (fs->cfg.resv_73)
		fs->resv.drefs += 2 * fsc_resv_head_bytes(fs);
}
/* The commit starts: its delayed refs run, the reservations come back. */
void fsc_resv_commit(struct fsc *fs);
/* The bytes btrfs_can_overcommit() lets metadata reserve beyond its block
 * groups (6.1's or, with cfg.resv_612, 6.12's calc_available_free_space()). */
uint64_t fsc_resv_overcommit(const struct fsc *fs);
bool fsc_resv_spare_short(const struct fsc *fs, const struct fsc_bg *bg);
void fsc_bg_mark_unused(struct fsc *fs, struct fsc_bg *bg);
int fsc_resv_init(struct fsc *fs);

/* fsc_trans.c: the transaction and the file tree */
int fsc_tree_init(struct fsc *fs);
void fsc_tree_fini(struct fsc *fs);
int fsc_tree_dirty(struct fsc *fs, uint64_t lbn, uint64_t now_ns);

/* fsc_reloc.c: fsc_relocate() (fsc.h).  fsc_file.c: fsc_file_locate() ... (fsc.h). */

/* fsc_submit.c: the write path after allocation */
/* Data goes by zone append in FSC_ORDER_APPEND (user writes and relocation). */
static inline bool fsc_bio_is_append(const struct fsc *fs, const struct fsc_bio *bio)
{
	return fs->cfg.order == FSC_ORDER_APPEND && bio->bg->type == FSC_BG_DATA;
}
void fsc_bio_finish(struct fsc *fs, struct fsc_bio *bio, uint64_t now_ns);

#endif /* FSC_INT_H */
