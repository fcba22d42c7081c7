/*
 * fsc.h — fs-core: the allocation core of the btrfs HMZONED design (the 2018
 * RFC) in user space, over zblk devices.  Zone info per device, mode checks,
 * superblock placement, zone-aligned device extents, block groups with
 * sequential allocation and write-pointer recovery, the submit buffer with
 * its expiry, redirty of released tree blocks, a transaction with a CoW
 * B-tree model, reset of unused block groups, relocation; and the upstream
 * replacements (per-BG serialization, zone append, write zeros) to compare.
 *
 * It is not a file system: no names, no on-disk trees, no checksums.  Bytes
 * everywhere (logical = the fs address space, physical = device offset).
 * Time is whatever the caller passes in now_ns (the simulator's virtual time).
 * Single threaded: the caller serializes.
 */
#ifndef FSC_H
#define FSC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "zblk.h"

#define FSC_MAX_DEVS 16
#define FSC_MAX_STRIPES FSC_MAX_DEVS

/* fs-core reasons, in their own range below zl_err's (see fsc_strerror()). */
enum fsc_err {
	FSC_E_BASE = -6000,
	FSC_E_ZONE_COUNT,      /* report zones disagrees with capacity / zone size (002) */
	FSC_E_ZONE_SIZE,       /* zoned devices with different zone sizes (003) */
	FSC_E_MIXED_DEVS,      /* zoned mixed with regular devices (003) */
	FSC_E_NO_ZONED_DEV,    /* HMZONED requested, no zoned device (003) */
	FSC_E_RAID56,          /* RAID5/6 refused in HMZONED mode (003) */
	FSC_E_UNALIGNED_BG,    /* block group length not zone aligned (008) */
	FSC_E_MIXED_ZONES,     /* block group over conventional and sequential zones (008) */
	FSC_E_WP_MISMATCH,     /* mirrors / stripes disagree on the write pointer (008) */
	FSC_E_DEV_MISSING,     /* write pointer cannot be recovered: device missing (008) */
	FSC_E_ZONE_OFFLINE,    /* write pointer cannot be recovered: offline / read-only zone (008) */
	FSC_E_SUBMIT_UNALIGNED,/* bio below the block group's submit offset (009) */
	FSC_E_EXPIRED,         /* bio failed: submit buffer expired (010) */
	FSC_E_BAD_PROFILE,     /* profile impossible with these devices */
	FSC_E_REPLACE_RUNNING, /* a device replace / rebuild is already running */
	FSC_E_NO_REPLACE,      /* no device replace / rebuild is running */
	FSC_E_TGT_SMALL,       /* replace target smaller than the source device */
	FSC_E_TGT_ZONES,       /* replace target's zones do not match the source's */
	FSC_E_TGT_NOT_EMPTY,   /* replace target has written zones */
	FSC_E_DATA_LOST,       /* rebuild: live data with no surviving copy */
	FSC_E_VERIFY,          /* data check: a live block wrong or unreadable */
	FSC_E_LAST
};

/* fsc_strerror() - text for an fsc, zl or errno code; never NULL. */
const char *fsc_strerror(int err);
/* fsc_errname() - short stable identifier for JSON. */
const char *fsc_errname(int err);

enum fsc_profile {
	FSC_SINGLE = 0, FSC_DUP, FSC_RAID1, FSC_RAID0, FSC_RAID10, FSC_RAID5, FSC_RAID6,
};

/* fsc_profile_min_devs() - devices a block group of profile @p needs (DUP:
 * 1, two zones of it; RAID1, RAID0: 2; RAID10: 4; the hypothetical RAID5
 * 3, RAID6 4, which HMZONED refuses without cfg.raid56_model), 0 for none. */
uint32_t fsc_profile_min_devs(enum fsc_profile p);

enum fsc_bg_type {
	FSC_BG_DATA = 1, FSC_BG_META = 2, FSC_BG_SYSTEM = 4,
};

/* How write order inside a sequential block group is kept. */
enum fsc_order {
	FSC_ORDER_SUBMIT_BUFFER = 0, /* the RFC (009/010): hold, sort, send in sequence */
	FSC_ORDER_SERIALIZE,         /* upstream: allocation + submission under one per-BG lock */
	FSC_ORDER_APPEND,            /* upstream: zone append for data, address fixed at completion */
	FSC_ORDER_NONE,              /* nothing: reordered bios reach the device (errors expected) */
};

/* What happens to tree blocks released in the transaction that allocated them. */
enum fsc_release {
	FSC_RELEASE_REDIRTY = 0,     /* the RFC (011): write them anyway */
	FSC_RELEASE_ZEROS,           /* upstream: write zeros over them */
	FSC_RELEASE_NONE,            /* leave a hole (stalls the submit buffer) */
};

enum fsc_alloc_type { FSC_ALLOC_FIT = 0, FSC_ALLOC_SEQ = 1 };

/* Kinds of write, for the write-amplification breakdown. */
enum fsc_bio_kind {
	FSC_KIND_USER = 0, FSC_KIND_META, FSC_KIND_REDIRTY, FSC_KIND_ZEROS, FSC_KIND_SB,
	FSC_KIND_RELOC, FSC_NR_KINDS
};

/*
 * Victim-selection (cleaning) policies, one file each
 * (fs-core/clean/fsc_clean_*.c), registered in one table
 * (clean/fsc_clean.c); docs/POLICIES.md.  Values index fsc_clean_names[].
 */
enum fsc_clean_policy {
	FSC_CLEAN_FIFO = 0,     /* oldest block group */
	FSC_CLEAN_GREEDY,       /* fewest live bytes (ties: oldest) */
	FSC_CLEAN_COST_BENEFIT, /* LFS: max (1 - u) * age / (1 + u) */
	FSC_CLEAN_CAT,          /* cost-age-times: max (1 - u) * age / (u * (1 + erases)) */
	FSC_CLEAN_DCHOICES,     /* d random candidates, the emptiest */
	FSC_CLEAN_WINDOWED,     /* greedy among the w oldest */
	FSC_CLEAN_BTRFS,        /* upstream reclaim: under threshold %, fewest live first */
	FSC_NR_CLEAN
};

/* A policy's parameters (those it does not use are ignored). */
struct fsc_clean_params {
	uint32_t d;             /* d-choices: candidates sampled (default 2) */
	bool replace;           /* d-choices: sample with replacement (default false) */
	uint32_t w;             /* windowed: the w oldest (default 16) */
	uint32_t threshold_pct; /* btrfs: reclaim under this used % (default 75) */
};

/*
 * Placement: which data log (stream) a write goes to (fsc_place.c, one row
 * per policy).  Every policy takes reloc=0|1: relocated data in its own
 * log (1) or back into the log of the block group it came from (0).
 */
enum fsc_placement {
	FSC_PLACE_ONE_LOG = 0,  /* one log for all data (reloc=1: plus a relocation log) */
	FSC_PLACE_RELOC,        /* one-log with reloc=1: upstream's relocation block group */
	FSC_PLACE_HINT,         /* hot / cold by the write-life hint of each write */
	FSC_PLACE_FREQ,         /* hot / cold by the age of the data a write replaces */
	FSC_NR_PLACE
};
#define FSC_MAX_STREAMS 3       /* data logs: hot (0), cold (1), relocation (2) */

/* Linux write-life hints (RWH_WRITE_LIFE_*, fcntl F_SET_RW_HINT). */
enum { FSC_HINT_NOT_SET = 0, FSC_HINT_NONE, FSC_HINT_SHORT, FSC_HINT_MEDIUM, FSC_HINT_LONG,
       FSC_HINT_EXTREME };

struct fsc_place_params {
	bool reloc;             /* relocated data in its own log */
	uint64_t age_writes;    /* freq: replaced data younger than this many user
				 * writes is hot (0 = the file's blocks) */
};
extern const char *const fsc_place_names[];
void fsc_place_params_init(struct fsc_place_params *p);
/* fsc_place_parse() - "NAME[:reloc=0|1][,age=N]"; 0 or -EINVAL with @msg. */
int fsc_place_parse(const char *spec, enum fsc_placement *place, struct fsc_place_params *p,
		    char *msg, size_t msg_len);
void fsc_place_spec(enum fsc_placement place, const struct fsc_place_params *p, char *buf,
		    size_t len);
/* fsc_place_nr_logs() - data logs the policy keeps open (against open/active zones). */
uint32_t fsc_place_nr_logs(enum fsc_placement place, const struct fsc_place_params *p);

struct fsc_cfg {
	uint32_t nr_devs;
	struct zblk *devs[FSC_MAX_DEVS];  /* borrowed; NULL = missing device */
	bool hmzoned;                     /* the HMZONED incompat flag */
	enum fsc_profile data_profile;
	enum fsc_profile meta_profile;
	bool space_cache;                 /* requested; turned off in HMZONED mode */
	bool tree_log;                    /* requested; turned off in HMZONED mode */
	uint32_t sector_bytes;            /* data allocation unit (4096) */
	uint32_t node_bytes;              /* tree block size (16384) */
	uint64_t expire_ns;               /* submit buffer expiry (90 s) */
	enum fsc_order order;
	enum fsc_release release;
	uint64_t file_bytes;              /* size of the one file the model holds */
	uint32_t tree_fanout;             /* child pointers per internal node */
	uint32_t leaf_items;              /* file blocks described per leaf */
	/* metadata model: FSC_META_FILE the one file tree above; FSC_META_BTRFS
	 * the kernel's trees besides (extent, checksum, root, data relocation;
	 * fsc_btree.c), sizes derived from node_bytes and extent_bytes, which
	 * then also set leaf_items and tree_fanout */
	enum fsc_meta_model { FSC_META_FILE, FSC_META_BTRFS } meta_model;
	uint32_t extent_bytes;            /* a data extent (the application's write size) */
	/* buffered writes (issue 31, fsc_extent.c): a data extent is freed
	 * whole, when its last block is overwritten or discarded (btrfs's
	 * extent references: bookends), and relocation copies its dead
	 * blocks too.  Not with FSC_ORDER_APPEND (fsc_create() -EINVAL) */
	bool extent_refs;
	bool sb_log;                      /* force the two-zone superblock log */
	enum fsc_clean_policy clean;      /* victim selection (fsc_clean_pick()) */
	struct fsc_clean_params clean_params;
	uint64_t seed;                    /* randomised policies (d-choices) */
	enum fsc_placement place;         /* which data log a write goes to */
	struct fsc_place_params place_params;
	struct fsc_reclaim_cfg {          /* the kernel's reclaim list (fsc_reclaim.c) */
		/* OFF: the caller's free-zone trigger; LINUX_6_1, LINUX_6_12:
		 * frees and commits queue block groups as that kernel does */
		enum fsc_reclaim_mode {
			FSC_RECLAIM_OFF, FSC_RECLAIM_LINUX_6_1, FSC_RECLAIM_LINUX_6_12
		} mode;
		uint32_t data_pct, meta_pct, sys_pct; /* per type bg_reclaim_threshold (75) */
		uint32_t global_pct;      /* the gate: chunks allocated x 100 / disk (75) */
		/* linux-6.12 only: every space's sysfs knobs dynamic_reclaim and
		 * periodic_reclaim (off by default, as in the kernel) */
		bool dynamic, periodic;
	} reclaim;
	uint32_t max_active_zones;        /* the devices' max active zones (0 = no limit):
					   * fs-core finishes a zone rather than exceed it */
	/* Linux 6.1's metadata space reservation for user writes, with its
	 * flush commits (fsc_resv.c, fsc_resv_write()); needs meta_model btrfs */
	bool resv_linux61;
	/* with it, Linux 6.12's btrfs_can_overcommit() instead of 6.1's: the
	 * space's total without the removed block groups, and of the
	 * unallocated bytes per copy one data chunk less, an eighth, aligned
	 * down to the zone (fsc_resv.c; --space-resv linux-6.12) */
	bool resv_612;
	/* with both, Linux 7.3's: the overcommit a 64th, not an eighth
	 * (space-info.c:506 of 7.3.4), and a relocation's transaction start
	 * commits first when the delayed refs reserve is over half the
	 * metadata space's usable bytes (btrfs_zoned_cap_metadata_reservation(),
	 * delayed-ref.c:210, transaction.c:692; fsc_resv.c; --space-resv linux-7.3) */
	bool resv_73;
	/* device replace (fsc_replace.c): REFUSE is the RFC (006: -EOPNOTSUPP
	 * in HMZONED mode); ZONED is zoned btrfs since 5.12 (dev-replace.c +
	 * scrub.c): copy in zone order, write pointers kept in step */
	enum fsc_replace_mode { FSC_REPLACE_REFUSE = 0, FSC_REPLACE_ZONED } replace;
	/* HYPOTHETICAL, no kernel has it: RAID5 / RAID6 data block groups on
	 * zoned devices (docs/FSCORE.md "RAID5/6, a hypothetical profile"):
	 * full-stripe writes only (each write padded to a full stripe), parity
	 * rotating over the devices, rebuild by reconstruction from N-1 / N-2
	 * devices.  Off: RAID5/6 refused (FSC_E_RAID56), as in the RFC (003)
	 * and every zoned kernel.  Metadata stays refused (RAID56 tree blocks
	 * would pad each 16 KiB node to a full stripe). */
	bool raid56_model;
};

struct fsc;
struct fsc_bg;

/* A write in flight; owned by fs-core (pool), lent to the caller. */
struct fsc_bio {
	uint64_t logical;       /* fs address; for zone append set at completion */
	uint64_t len_bytes;
	struct fsc_bg *bg;
	struct fsc_bg *src_bg;  /* relocation source, released at completion */
	uint64_t src_logical;   /* relocation: where the copy is read from */
	uint32_t kind;          /* enum fsc_bio_kind */
	uint32_t owner;         /* first owner id (file block or tree node) */
	uint64_t t_alloc_ns;    /* allocated */
	uint64_t t_ready_ns;    /* handed to fsc_submit() */
	uint64_t t_dispatch_ns; /* sent to the devices */
	int status;             /* 0 or the error it completed with */
	uint64_t token;         /* zone append: file map token */
	uint32_t trans_id;
	uint32_t worker;        /* caller's use */
	struct fsc_bio *next;   /* caller's use while not inside fs-core */
};

/*
 * Callbacks to the owner.  dispatch: the bio continues the write sequence
 * (or ordering is off) and goes to the devices now; the owner calls
 * fsc_bio_execute() (in dispatch order) and later fsc_bio_complete().  NULL
 * dispatch = execute and complete synchronously.  failed: a bio completes
 * without reaching the devices (expired); the owner must not complete it.
 * bg_removed (optional): a block group of @type (enum fsc_bg_type) was
 * reset and freed after @life_ns (creation to removal), for lifetime
 * statistics.
 */
/* ->owner of a tree-log bio (fsc_log_sync()): its fsync waits for it, no commit */
#define FSC_LOG_OWNER (UINT32_MAX - 1)

struct fsc_owner_ops {
	void (*dispatch)(void *arg, struct fsc_bio *bio);
	void (*failed)(void *arg, struct fsc_bio *bio);
	void (*bg_removed)(void *arg, uint32_t type, uint64_t life_ns);
};

void fsc_cfg_init(struct fsc_cfg *cfg);

/**
 * fsc_create() - mkfs + mount: zone info, mode checks, superblock placement.
 * Returns 0 or a FSC_E_* / -errno; *@out only on success (fsc_destroy()).
 */
int fsc_create(const struct fsc_cfg *cfg, struct fsc **out);

/* A chunk as the chunk tree would persist it. */
struct fsc_chunk {
	uint64_t start, len_bytes;
	uint32_t type;             /* enum fsc_bg_type */
	enum fsc_profile profile;
	uint32_t nr_stripes, sub_stripes;
	struct { uint32_t dev; uint64_t phys; } stripes[FSC_MAX_STRIPES];
};

/**
 * fsc_mount() - mount from the chunk table alone: every block group's
 * allocation offset is recovered from the zones' write pointers (008).
 * Returns 0 or the first block group's error (FSC_E_WP_MISMATCH...).
 */
int fsc_mount(const struct fsc_cfg *cfg, const struct fsc_chunk *chunks, uint32_t nr,
	      struct fsc **out);

/* fsc_chunks() - export the chunk table (up to @max); returns the count. */
uint32_t fsc_chunks(const struct fsc *fs, struct fsc_chunk *out, uint32_t max);

void fsc_destroy(struct fsc *fs);

void fsc_set_owner(struct fsc *fs, const struct fsc_owner_ops *ops, void *arg);

/* Mode-effective options after fsc_create() (003). */
bool fsc_space_cache_on(const struct fsc *fs);
bool fsc_tree_log_on(const struct fsc *fs);
uint64_t fsc_zone_bytes(const struct fsc *fs);

/**
 * fsc_sb_layout() - where a zoned device of @nr_zones zones of @zone_bytes,
 * the first @nr_conv conventional, keeps its superblock (fsc_sb_place()'s
 * rule, 004): the number of the fixed copies (64 KiB, 64 MiB, 256 GiB) that
 * fall in conventional zones, 0 for the two-zone log (no conventional
 * zone), or -ENOSPC when neither works: conventional zones exist but end
 * before 68 KiB, so no copy fits in them and zones 0-1 are not sequential.
 */
int fsc_sb_layout(uint64_t zone_bytes, uint32_t nr_zones, uint32_t nr_conv);

/* Refused in HMZONED mode: -EOPNOTSUPP (005); 0 otherwise. */
int fsc_fallocate(struct fsc *fs, uint64_t off_bytes, uint64_t len_bytes);
/**
 * fsc_dev_replace() - replace device @src_dev by @tgt in one call.  With
 * cfg.replace REFUSE in HMZONED mode: -EOPNOTSUPP (the RFC, 006).  With
 * cfg.replace ZONED: fsc_replace_start(), fsc_replace_step() until done,
 * fsc_replace_finish(); returns their first error.
 */
int fsc_dev_replace(struct fsc *fs, uint32_t src_dev, struct zblk *tgt);

/* ---- device replace and RAID rebuild (fsc_replace.c, docs/FSCORE.md) ---- */

/*
 * Zoned btrfs's device replace (Linux 5.12+, cfg.replace = ZONED), in
 * steps so that foreground writes interleave: start marks every block
 * group with a stripe on the source "to copy" (mark_block_group_to_copy());
 * each step copies block group after block group in the source's zone
 * order, only the live (allocated) blocks up to the source zone's write
 * pointer, the target zone written strictly sequentially: dead gaps filled
 * with zeroes (fill_writer_pointer_gap()), the tail up to the source's
 * write pointer too (sync_write_pointer_for_zoned() ->
 * btrfs_sync_zone_write_pointer()).  A block group copied
 * (btrfs_finish_block_group_to_copy()) and every block group created
 * since gets each write to the source on the target too
 * (handle_ops_on_dev_replace() in btrfs_map_block()), and zone resets and
 * finishes too (do_discard_extent()).  finish puts the target in the
 * source's slot (btrfs_dev_replace_finishing()); the caller's next commit
 * writes its superblocks.
 *
 * A source that is missing (cfg.devs[i] == NULL, or fsc_dev_fail()) makes
 * it a rebuild: each stripe is copied from a surviving mirror (RAID1: the
 * other stripe; RAID10: the other of its pair; none for SINGLE, RAID0, and
 * DUP, whose two copies live on the one device), or reconstructed from N-1
 * (RAID5) / N-2 (RAID6) stripes (the hypothetical cfg.raid56_model).  A stripe with no
 * surviving copy is lost: counted (lost_bytes, lost_blocks), its step
 * returns FSC_E_DATA_LOST, so does finish; nothing is made up.
 */

/* One I/O of a step, for the caller to time (executed already). */
struct fsc_rio {
	uint32_t dev;           /* device index, or FSC_RIO_TARGET */
	bool write;
	uint8_t kind;           /* FSC_RIO_COPY (live data), FSC_RIO_ZERO (gap fill) */
	uint64_t phys;          /* device byte offset */
	uint64_t len_bytes;
};
#define FSC_RIO_TARGET UINT32_MAX
enum { FSC_RIO_COPY = 0, FSC_RIO_ZERO = 1 };

struct fsc_replace_progress {
	bool running;           /* between start and finish */
	bool rebuild;           /* the source is missing: copies come from mirrors */
	uint32_t src_dev;
	uint32_t nr_bgs, nr_bgs_done;  /* block groups to copy (at start), done (copied,
					* lost or gone) */
	uint64_t alloc_bytes;   /* at start: bytes below the write pointers of the
				 * source's stripes (the allocated space to walk) */
	uint64_t walked_bytes;  /* of the stripes' space walked so far */
	uint64_t copied_bytes;  /* live bytes read and written to the target */
	uint64_t zero_bytes;    /* dead bytes written as zeroes (gaps, tails) */
	uint64_t dup_bytes;     /* foreground writes duplicated to the target */
	uint64_t lost_bytes, lost_blocks;  /* live data with no surviving copy */
	uint64_t r56_rebuilt_bytes;  /* RAID5/6: bytes computed from N-1 / N-2 stripes
				      * (devices that keep data; else stamps) */
	uint64_t read_bytes[FSC_MAX_DEVS]; /* per device, read for the copy */
	uint64_t tgt_write_bytes;          /* copy + zero + dup, on the target */
	uint64_t nr_reads, nr_writes;      /* I/Os of the copy (reads; target writes) */
	uint64_t start_ns, end_ns;         /* the callers' now_ns at start / finish */
};

/**
 * fsc_replace_start() - begin replacing device @src_dev (present: a
 * replace; missing: a rebuild) by @tgt (borrowed; it must outlive the file
 * system once it took the slot).  @tgt must be zoned with the file
 * system's zone size, at least as large as the source (its extents), with
 * sequential zones where the source has them and every sequential zone
 * empty (btrfs-progs resets them first).  Returns 0, -EOPNOTSUPP
 * (cfg.replace REFUSE, or not HMZONED), -EINVAL (@src_dev out of range,
 * @tgt NULL), -EEXIST (@tgt is a device of the file system),
 * FSC_E_REPLACE_RUNNING, FSC_E_TGT_ZONES, FSC_E_TGT_SMALL,
 * FSC_E_TGT_NOT_EMPTY, -ENOMEM or a report error.
 */
int fsc_replace_start(struct fsc *fs, uint32_t src_dev, struct zblk *tgt, uint64_t now_ns);

/**
 * fsc_replace_step() - copy about @max_bytes more of the source's space
 * (0: no limit), block group by block group, zone by zone, in order.  Each
 * I/O made is executed at once (zblk) and, when @ios is given, reported in
 * @ios (@max_ios at least FSC_MAX_STRIPES + 4, else -EINVAL; the step stops
 * before it overflows), *@nr_ios set.
 * Returns 1 (more to copy), 0 (everything copied: call finish), -EAGAIN
 * (the next block group has zone appends in flight, whose blocks are
 * known only at completion: complete them, call again), FSC_E_DATA_LOST
 * (this step met a stripe with no surviving copy; counted; call again to go
 * on), FSC_E_NO_REPLACE, or a device error (the replace stays running).
 */
int fsc_replace_step(struct fsc *fs, uint64_t max_bytes, uint64_t now_ns, struct fsc_rio *ios,
		     uint32_t max_ios, uint32_t *nr_ios);

/* fsc_replace_progress() - counters of the running or last replace. */
const struct fsc_replace_progress *fsc_replace_progress(const struct fsc *fs);

/**
 * fsc_replace_finish() - the target takes the source's slot (zone info
 * read again from it; the source, if present, is no longer used).  Returns
 * 0, FSC_E_DATA_LOST (finished, but data was lost: lost_bytes), -EBUSY
 * (copy not complete), FSC_E_NO_REPLACE, -ENOMEM or a report error.
 */
int fsc_replace_finish(struct fsc *fs, uint64_t now_ns);

/**
 * fsc_replace_cancel() - stop a running replace; the source keeps its slot
 * (in a rebuild the slot stays missing); the target's zones are left as
 * they are.  FSC_E_NO_REPLACE when none runs.
 */
int fsc_replace_cancel(struct fsc *fs);

/**
 * fsc_dev_fail() - device @dev fails at run time: no further I/O goes to
 * it (writes to its mirrors go on degraded).  0 or -EINVAL.
 */
int fsc_dev_fail(struct fsc *fs, uint32_t dev);

/* The data check of fsc_dev_verify(). */
struct fsc_verify {
	uint64_t nr_blocks;     /* live blocks (cfg.sector_bytes) checked */
	uint64_t nr_bad;        /* unreadable, or not holding what was written there */
	uint64_t nr_wp_bad;     /* zones whose write pointer differs from a mirror's */
	uint64_t nr_r56_blocks; /* of nr_blocks, RAID5/6 parity and dead units of live
				 * rows (contents: the parity of the row's data) */
	uint64_t first_bad;     /* logical address of the first bad block, or UINT64_MAX */
	bool stamps;            /* the device keeps data: contents compared */
};

/**
 * fsc_dev_verify() - the data check after a replace or rebuild: every live
 * block of every block group with a stripe on device @dev is read back from
 * @dev; on a device that keeps data (zblk_zdisk, zblk_linux: stamp blocks)
 * its first 8 bytes must be a stamp written for that block (its own
 * device offset, or a mirror stripe's when the rebuild copied it from
 * there; RAID5/6, the hypothetical profile: the whole block equal to
 * its stamp, or for P / Q to the parity of the row's data stamps, every
 * unit of a row holding live data checked); on a data-less one (zblk_zdev)
 * the read must succeed (below the write pointer).  Zones' write pointers are compared with present
 * mirrors'.  Returns 0, FSC_E_VERIFY (details in *@out), -EINVAL, -ENOMEM.
 */
int fsc_dev_verify(struct fsc *fs, uint32_t dev, struct fsc_verify *out);


/* ---- writes, submission, completion ---- */

/**
 * fsc_write_file() - CoW write of file blocks [@lbn, @lbn + @nr_blocks):
 * allocate a data extent (sequentially in a data block group), free the old
 * extents, dirty the tree path of each block.  *@out is the bio to process
 * then pass to fsc_submit().  With FSC_ORDER_APPEND the address is known
 * only at completion.  Returns 0, -ENOSPC, -EBUSY (a new block group would
 * exceed cfg.max_active_zones and no active one can be finished yet: its
 * writes are still in flight; retry after completions) or a device error
 * on block group creation.
 */
int fsc_write_file(struct fsc *fs, uint64_t lbn, uint32_t nr_blocks, uint64_t now_ns,
		   struct fsc_bio **out);

/* fsc_write_file_hint() - fsc_write_file() with the write's life hint
 * (FSC_HINT_*, the placement policy's input; fsc_write_file() = NOT_SET). */
int fsc_write_file_hint(struct fsc *fs, uint64_t lbn, uint32_t nr_blocks, uint32_t hint,
			uint64_t now_ns, struct fsc_bio **out);

/**
 * fsc_submit() - a processed write bio is ready.  Submit buffer order: sent
 * (dispatch callback) only when it continues the block group's sequence,
 * else held sorted; below the submit offset it is sent anyway and counted
 * (FSC_E_SUBMIT_UNALIGNED, the RFC's WARN); into an expired block group it
 * fails (FSC_E_EXPIRED, failed callback).  Returns 0 or that code.
 */
int fsc_submit(struct fsc *fs, struct fsc_bio *bio, uint64_t now_ns);

/* fsc_bio_execute() - write @bio to its stripes (zblk); 0 or the device error. */
int fsc_bio_execute(struct fsc *fs, struct fsc_bio *bio);

/* fsc_bio_complete() - the devices finished @bio; the bio returns to the pool. */
void fsc_bio_complete(struct fsc *fs, struct fsc_bio *bio, uint64_t now_ns);

/* fsc_expire() - fail the held bios of block groups idle for expire_ns
 * (010); returns the number of bios failed. */
int fsc_expire(struct fsc *fs, uint64_t now_ns);
/* Earliest expiry deadline, UINT64_MAX when nothing is held. */
uint64_t fsc_next_expiry_ns(const struct fsc *fs);

/* ---- reads and discards of the file (trace replay: fsc_file.c) ---- */

enum fsc_where {
	FSC_WHERE_HOLE = 0,   /* never written, or discarded: nothing to read */
	FSC_WHERE_PENDING,    /* written, not on the devices yet (a worker, a submit
			       * buffer, a zone append in flight): in memory */
	FSC_WHERE_STORED,     /* on the devices, at logical */
};

struct fsc_file_loc {
	enum fsc_where where;
	uint64_t logical;             /* STORED: fs address of the first block */
	const struct fsc_bg *bg;      /* STORED: its block group (borrowed) */
};

/**
 * fsc_file_locate() - where file block @lbn lives now, in *@loc, and how
 * many of the @nr_blocks blocks from @lbn share that state (STORED: at
 * consecutive addresses of the same block group).  Returns that count
 * (>= 1), or -EINVAL for a range outside the file or @nr_blocks 0.
 */
int fsc_file_locate(const struct fsc *fs, uint64_t lbn, uint32_t nr_blocks,
		    struct fsc_file_loc *loc);

/**
 * fsc_buffer_write() - buffered write of file blocks [@lbn, @lbn +
 * @nr_blocks): they only become dirty in memory (delalloc); nothing is
 * allocated until fsc_writeback_next() hands them out.  Returns the number
 * of blocks newly dirtied (0 when all already were), -EINVAL for a range
 * outside the file, -ENOMEM.
 */
int fsc_buffer_write(struct fsc *fs, uint64_t lbn, uint32_t nr_blocks);

/**
 * fsc_writeback_next() - the next extent writeback allocates: the lowest
 * dirty block's contiguous dirty run, at most @max_blocks (the kernel's
 * maximum extent size), in file order whatever order the writes came in
 * (btrfs: extent_write_cache_pages() walks the page cache by index,
 * cow_file_range() allocates one extent per run).  The run is clean
 * afterwards: the caller writes it with fsc_write_file().  Returns its
 * length with *@lbn its first block, 0 when nothing is dirty, -EINVAL
 * for @max_blocks 0.
 */
int fsc_writeback_next(struct fsc *fs, uint32_t max_blocks, uint64_t *lbn);

/* fsc_dirty_blocks() - blocks written by fsc_buffer_write() and not yet
 * handed out by fsc_writeback_next(). */
uint64_t fsc_dirty_blocks(const struct fsc *fs);

/**
 * fsc_discard_file() - file blocks [@lbn, @lbn + @nr_blocks) no longer hold
 * data (a discard, as punching a hole: the tree path of each leaf is
 * dirtied like a write's): their extents are freed at once, so the live
 * bytes of their block groups drop and a block group left empty is reset.
 * A block whose zone append is in flight is freed when it completes.
 * Returns the number of blocks that held data, -EINVAL for a range outside
 * the file, -ENOSPC / -ENOMEM from the tree (nothing freed then).
 */
int fsc_discard_file(struct fsc *fs, uint64_t lbn, uint32_t nr_blocks, uint64_t now_ns);

/**
 * fsc_prefetch_file() - a hint ahead of a write or read of file block @lbn:
 * start loading what it will touch, one link of the chain per call.  @stage
 * 0: the file map entry; 1: the block group map entry of the block's
 * current address; 2: that block group; 3: its owner slot.  Each stage reads
 * what the one before loaded, so call them in order, a few records apart
 * (the simulator's read-ahead does).  Changes nothing; a block outside the
 * file is ignored.
 */
void fsc_prefetch_file(const struct fsc *fs, uint64_t lbn, unsigned int stage);

/* ---- transactions and the tree model ---- */

uint32_t fsc_trans_id(const struct fsc *fs);
/* Release the leaf holding @lbn in this transaction (split/merge model):
 * its new block is freed and a fresh one allocated.  0 or -ENOSPC. */
int fsc_tree_release(struct fsc *fs, uint64_t lbn, uint64_t now_ns);
/**
 * fsc_log_sync() - an fsync's tree log (btrfs_sync_file() ->
 * btrfs_log_dentry_safe() -> btrfs_sync_log()): @nr_nodes tree blocks
 * CoW'd into the dedicated tree-log block group (zoned btrfs:
 * fs_info->treelog_bg, a metadata block group nothing else allocates
 * from, taken empty at the first log allocation and again when the
 * current one is full: find_free_extent_zoned()), written now, as bios
 * linked in *@list (kind FSC_KIND_META, owner FSC_LOG_OWNER: no commit
 * waits for them).  The blocks are pinned: the next commit frees them
 * (btrfs_free_log()), and a full tree-log block group left empty is
 * removed like any other.  The block group counts in the allocated
 * chunks the reclaim gate reads.  Returns the number of bios, -EINVAL
 * without the btrfs metadata model or for @nr_nodes 0, -ENOSPC, -ENOMEM.
 */
int fsc_log_sync(struct fsc *fs, uint32_t nr_nodes, uint64_t now_ns, struct fsc_bio **list);
/* fsc_log_bg_start() - the current tree-log block group's logical start,
 * 0 when there is none (before the first fsync, after it filled). */
uint64_t fsc_log_bg_start(const struct fsc *fs);

/**
 * fsc_commit_start() - close the running transaction: its dirty tree blocks
 * (and, per cfg.release, its released ones) become bios linked by ->next in
 * *@list.  Returns the number of bios or -errno.
 */
int fsc_commit_start(struct fsc *fs, uint64_t now_ns, struct fsc_bio **list);
/* fsc_commit_finish() - all commit bios done: write the superblocks, unpin
 * the blocks the transaction freed.  Returns 0 or a device error. */
int fsc_commit_finish(struct fsc *fs, uint64_t now_ns);

/* ---- cleaning ---- */

/* Spelling of each policy (NULL-terminated, indexed by enum value) and the
 * parameters each accepts ("" when none), for messages and help. */
extern const char *const fsc_clean_names[];
const char *fsc_clean_param_help(enum fsc_clean_policy p);
/* fsc_clean_params_init() - the defaults above. */
void fsc_clean_params_init(struct fsc_clean_params *p);
/**
 * fsc_clean_parse() - "NAME[:KEY=VALUE[,KEY=VALUE...]]" (e.g. "d-choices:d=4",
 * "btrfs:threshold=60"; a lone value is the policy's first parameter:
 * "windowed:32").  Fills *@policy and *@params (defaults first).  Returns 0
 * or -EINVAL with what was wrong in @msg (the valid names, or the policy's
 * valid parameters and ranges).
 */
int fsc_clean_parse(const char *spec, enum fsc_clean_policy *policy,
		    struct fsc_clean_params *params, char *msg, size_t msg_len);
/* fsc_clean_params_check() - 0, or -EINVAL with the parameter and its range. */
int fsc_clean_params_check(enum fsc_clean_policy policy, const struct fsc_clean_params *params,
			   char *msg, size_t msg_len);
/* fsc_clean_spec() - "NAME[:params]" of a policy as it ran, into @buf. */
void fsc_clean_spec(enum fsc_clean_policy policy, const struct fsc_clean_params *params,
		    char *buf, size_t len);

/* Fewest free zones on any device (what cleaning must keep above zero). */
uint32_t fsc_min_free_zones(const struct fsc *fs);
/**
 * fsc_clean_pick() - the configured policy's victim (cfg.clean) among the
 * candidates: data and metadata block groups fully allocated, idle (nothing
 * in flight or held), not relocating, nothing pinned, not every byte live.
 * O(log n) or amortised O(1) in the number of block groups.  NULL if none.
 * Age (score policies) = user bytes written since a block group was sealed.
 */
struct fsc_bg *fsc_clean_pick(struct fsc *fs);
/* fsc_clean_pick_scan() - the same choice by a scan of every block group
 * (the reference the fast path is tested against; FIFO / greedy / windowed
 * / btrfs / cost-benefit / CAT; d-choices has none: NULL). */
struct fsc_bg *fsc_clean_pick_scan(struct fsc *fs);
/**
 * fsc_relocate() - copy @bg's live blocks elsewhere (bios in *@list, kind
 * RELOC, to submit like any other) and reset @bg once they completed.
 * Returns the number of bios, or -ENOSPC when no other block group can take
 * them (nothing moved then).
 */
int fsc_relocate(struct fsc *fs, struct fsc_bg *bg, uint64_t now_ns, struct fsc_bio **list);
/*
 * cfg.meta_model btrfs: the kernel's relocation of the last victim goes on
 * after its copies, in commits (btrfs_relocate_block_group() calls
 * relocate_block_group() once per stage, each commits three times: data
 * MOVE_DATA_EXTENTS, UPDATE_DATA_PTRS and a last call that finds nothing,
 * 9; tree blocks 6; nothing to move 3).  fsc_reloc_commits() - how many
 * are left (0 in the file model); fsc_reloc_stage() - what changes before
 * the next one, then the caller commits.  0, -ENOSPC, -EROFS or -ENOMEM.
 */
uint32_t fsc_reloc_commits(const struct fsc *fs);
int fsc_reloc_stage(struct fsc *fs, uint64_t now_ns);
/* fsc_delete_unused() - the cleaner's btrfs_delete_unused_bgs(): block
 * groups left empty since the last call go (a cfg.reclaim mode keeps them
 * until then, as the kernel does; otherwise they went at once).  With
 * cfg.resv_612 also the reservation's fresh chunk, unless the metadata
 * space would be short without it. */
void fsc_delete_unused(struct fsc *fs, uint64_t now_ns);

/*
 * The kernel's reclaim list (cfg.reclaim.mode, fsc_reclaim.c): frees and
 * commits fill it; the caller works it through after a commit, as the
 * cleaner thread does: fsc_reclaim_pass_begin() (false: nothing queued, or
 * the gate holds it back), then fsc_reclaim_next() until NULL, relocating
 * each (fsc_relocate()) and handing back those that failed with
 * fsc_reclaim_retry(), then fsc_reclaim_pass_end().
 */
/* The option: "reserve" (the caller's free-zone trigger, cfg.reclaim off),
 * "linux-6.1[:data=PCT,meta=PCT,sys=PCT,global=PCT]" (defaults 75, as the
 * zoned kernel sets them) or
 * "linux-6.12[:data=PCT,meta=PCT,sys=PCT,global=PCT,dynamic=0|1,periodic=0|1]"
 * (dynamic and periodic 0 by default, as in 6.12).  0 or -EINVAL with what
 * was wrong in @msg. */
void fsc_reclaim_cfg_init(struct fsc_reclaim_cfg *r);
int fsc_reclaim_parse(const char *spec, struct fsc_reclaim_cfg *r, char *msg, size_t msg_len);
void fsc_reclaim_spec(const struct fsc_reclaim_cfg *r, char *buf, size_t len);
bool fsc_reclaim_pass_begin(struct fsc *fs);
struct fsc_bg *fsc_reclaim_next(struct fsc *fs);
void fsc_reclaim_retry(struct fsc *fs, struct fsc_bg *bg);
void fsc_reclaim_pass_end(struct fsc *fs);
static inline bool fsc_reclaim_on(const struct fsc_reclaim_cfg *r)
{
	return r->mode != FSC_RECLAIM_OFF;
}
/* Chunks allocated x 100 / disk >= cfg.reclaim.global_pct (btrfs_zoned_should_reclaim()). */
bool fsc_reclaim_gate(const struct fsc *fs);
uint32_t fsc_reclaim_queued(const struct fsc *fs);
/* The threshold (percent of a block group's length) the block groups of
 * @type's space are reclaimed under now: the type's PCT, or in linux-6.12
 * with dynamic=1 calc_dynamic_reclaim_threshold() (fsc_reclaim.c). */
uint32_t fsc_reclaim_thresh(const struct fsc *fs, uint32_t type);
/* linux-6.12 with periodic=1: is @type's space ready for a sweep
 * (btrfs_should_periodic_reclaim(); never for system) */
bool fsc_reclaim_ready(const struct fsc *fs, uint32_t type);
/* Zones in chunks of the block group types in @type (a mask of enum fsc_bg_type). */
uint32_t fsc_chunk_zones(const struct fsc *fs, uint32_t type);

/*
 * Linux 6.1's metadata space reservation (cfg.resv_linux61, fsc_resv.c;
 * docs/VALIDATION.md): before a user write of @bytes, fsc_resv_write()
 * reserves the tree blocks its completion may CoW, as
 * btrfs_delalloc_reserve_metadata() does, and when they do not fit runs
 * what the kernel's flusher runs: the delayed refs, a metadata chunk.
 * Returns 0 (reserved), FSC_RESV_COMMIT (the caller commits the running
 * transaction, which gives the reservations back, and asks again) or
 * -ENOSPC (three commits did not make room: the write fails).  0 at once
 * with the model off.
 */
#define FSC_RESV_COMMIT 1
int fsc_resv_write(struct fsc *fs, uint64_t bytes, uint64_t now_ns);
/* bytes_may_use of the metadata space now (0 with the model off). */
uint64_t fsc_resv_may_use(const struct fsc *fs);
/*
 * With cfg.resv_612 (--space-resv linux-6.12), before @bg is relocated,
 * fsc_resv_reloc() makes the relocation's metadata reservations
 * (docs/VALIDATION.md, "Relocation's reservations"): the relocation
 * control's reserve, 256 tree blocks (RELOCATION_RESERVED_NODES,
 * prepare_to_relocate(), relocation.c:3630 of 6.12), held until
 * fsc_resv_reloc_done() (the copies are written); then, for a data block
 * group, per extent (each stays its own, EXTENT_BOUNDARY) what a write of
 * it reserves (relocate_one_folio(), relocation.c:3034), into the delayed
 * refs reserve as a write's.  Each goes through the flusher's steps as
 * fsc_resv_write()'s.  Returns 0 (all made; at once in the 6.1 mode, which
 * reserves nothing here), FSC_RESV_COMMIT (the caller commits and asks
 * again for the same @bg: what was made stays) or -ENOSPC (after three
 * commits: the relocation fails, the kernel's "error relocating chunk",
 * and gives its control reserve back).
 */
int fsc_resv_reloc(struct fsc *fs, const struct fsc_bg *bg, uint64_t now_ns);
void fsc_resv_reloc_done(struct fsc *fs);

/* Block group inspection. */
uint64_t fsc_bg_start(const struct fsc_bg *bg);
uint64_t fsc_bg_alloc_offset(const struct fsc_bg *bg);
uint64_t fsc_bg_used_bytes(const struct fsc_bg *bg);
struct fsc_bg *fsc_bg_lookup(struct fsc *fs, uint64_t logical);

struct fsc_stats {
	uint64_t dev_bytes[FSC_NR_KINDS];  /* bytes written to devices, per kind (all copies) */
	uint64_t user_bytes;               /* bytes the user asked to write */
	uint64_t nr_bios_dispatched;
	uint64_t nr_held;                  /* bios that waited in a submit buffer */
	uint64_t sbuf_now, sbuf_max;       /* bios held now / at most */
	uint64_t nr_expired;               /* bios failed by expiry */
	uint64_t nr_bg_expired;
	uint64_t nr_submit_unaligned;      /* bios below the submit offset */
	uint64_t nr_dev_errors;            /* writes refused by a device */
	int last_dev_error;
	uint64_t nr_zone_resets;
	uint64_t nr_bg_created, nr_bg_removed;
	uint64_t bg_life_ns_sum, bg_life_ns_max;
	uint64_t nr_redirty, nr_zeros;
	uint64_t nr_commits;
	uint64_t nr_relocations;
	/* cfg.extent_refs: bytes that stayed allocated when overwritten (the
	 * bookends), extents freed whole; fsc_log_sync(): log syncs, log tree
	 * blocks written, tree-log block groups taken */
	uint64_t bookend_bytes, nr_bookend_freed;
	uint64_t nr_log_syncs, nr_log_nodes, nr_log_bgs;
	uint64_t nr_relocating;            /* victims whose copies are still in flight */
	uint64_t nr_relocating_meta;       /* of which tree-block groups waiting for a commit */
	/* cfg.meta_model btrfs: tree blocks CoW'd per tree (file, extent, csum,
	 * root, data relocation), metadata allocations that failed (ENOSPC:
	 * the kernel aborts the transaction), block groups deleted unused */
	uint64_t nr_cow[5];
	uint64_t nr_meta_enospc;
	/* the kernel's reclaim (cfg.reclaim.mode): block groups queued by a
	 * free crossing the threshold, by unusable space at a commit; passes
	 * run, passes the gate held back, entries dropped busy, lost (no memory) */
	uint64_t nr_reclaim_queued, nr_reclaim_by_free, nr_reclaim_by_unusable;
	uint64_t nr_reclaim_passes, nr_reclaim_gated, nr_reclaim_skipped, nr_reclaim_lost;
	/* linux-6.12: entries no longer under the threshold at their turn,
	 * entries found empty at their turn (marked unused, not relocated),
	 * sweeps run (periodic), block groups they queued, failed relocations
	 * not retried (periodic) */
	uint64_t nr_reclaim_rechecked, nr_reclaim_empty, nr_reclaim_sweeps, nr_reclaim_by_sweep;
	uint64_t nr_reclaim_dropped;
	/* cfg.resv_linux61: reservations that did not fit at once (tickets),
	 * of them met by running the delayed refs, metadata chunks allocated
	 * ahead (ALLOC_CHUNK), commits asked for, tickets failed (ENOSPC);
	 * the most bytes_may_use reached */
	uint64_t nr_resv_tickets, nr_resv_by_refs, nr_resv_chunks, nr_resv_commits;
	uint64_t nr_resv_spare_deleted; /* 6.12: a fresh chunk deleted by the cleaner */
	uint64_t nr_resv_enospc, resv_may_use_max;
	/* cfg.resv_612: relocations' reservations made, and failed (ENOSPC) */
	uint64_t nr_resv_reloc, nr_resv_reloc_enospc;
	/* cfg.resv_612: the relocation's transaction starts that refilled the
	 * delayed refs reserve (one head's bytes each, fsc_resv_reloc()) */
	uint64_t nr_resv_reloc_refills;
	/* cfg.resv_612: the data relocation's transaction starts with items
	 * (per victim its inode's, 6 items, 4.5 MiB; per extent its prealloc's,
	 * 3 items, 2.25 MiB: fsc_resv_reloc()) */
	uint64_t nr_resv_reloc_starts;
	/* cfg.resv_73: commits the zoned cap on the delayed refs reserve
	 * forced at a relocation's transaction start, and relocations it
	 * deferred (-EAGAIN: still over the cap after that commit) */
	uint64_t nr_resv_cap_commits, nr_resv_cap_deferred;
	/* cfg.resv_73: fully zone_unusable unused metadata block groups the
	 * flusher's RESET_ZONES reset and allocates from again */
	uint64_t nr_resv_zone_resets;
	uint64_t nr_zone_finishes;         /* zones finished to stay under max active */
	uint64_t finish_waste_bytes;       /* capacity those finishes left unwritten (all copies) */
	uint32_t active_max;               /* most zones fs-core held active on one device */
	/* cfg.raid56_model (hypothetical): parity bytes written (P and Q), and
	 * padding written to complete a full stripe (both in dev_bytes too) */
	uint64_t r56_parity_bytes, r56_pad_bytes;
};
const struct fsc_stats *fsc_stats(const struct fsc *fs);

#endif /* FSC_H */
