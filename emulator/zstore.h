/*
 * zstore.h — where the bytes and the zone state of an emulated disk live.
 *
 * Backends: a sparse regular file, a block device (never truncated), memory
 * (sparse, allocated on first write) and none (writes dropped, reads return
 * zeros: for fast simulation).  File and block-device images start with a
 * header that records the geometry, then a table of one 64-bit word per zone
 * (the packed zone state, see zdev_zone_pack()), then the data; the layout is
 * documented in docs/FORMAT.md.  The zone table is mapped shared, so a word
 * stored with zstore_zone_word_set() survives the process being killed at any
 * instant (one aligned 8-byte store is atomic); zstore_sync_data() and
 * zstore_sync_table() make data and table durable against power loss as well.
 *
 * zstore is not the zone model: it does not interpret the words beyond
 * storing them, and it knows nothing of write pointers or SCSI.  It is not
 * thread-safe for the zone table (zstore_zone_word_set() and
 * zstore_sync_table() share the dirty range; zstore_sync_words() may run
 * beside them); data reads and writes to disjoint ranges may run
 * concurrently.
 */
#ifndef ZSTORE_H
#define ZSTORE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>
#include <unistd.h>

#include "zdev.h"
#include "zl_hot.h"

enum zstore_kind {
	ZSTORE_FILE = 0,   /* sparse regular file (created if missing) */
	ZSTORE_BLOCK = 1,  /* existing block device; size must suffice */
	ZSTORE_MEM = 2,    /* process memory, sparse */
	ZSTORE_NONE = 3,   /* no data kept; zone table in memory */
};

struct zstore;

struct zstore_cfg {
	enum zstore_kind kind;
	const char *path;          /* FILE/BLOCK: backing path; borrowed */
	bool create;               /* format a new image (FILE/BLOCK) */
	bool force;                /* with create: overwrite an existing zonelab image */
	bool punch_on_reset;       /* FILE: free the blocks of reset zones (fallocate) */
	const char *timing;        /* with create: the timing model text kept in the header
				      (NULL or "" = none; < ZSTORE_TIMING_MAX bytes) */
};

#define ZSTORE_TIMING_MAX 256      /* header field: the text and its NUL */

/**
 * zstore_open() - open or create the store for geometry @geo.
 * With cfg->create: refuse (-EEXIST, message says to use force) if the path
 * already holds a zonelab image and !cfg->force; then write a fresh header
 * and an all-zero zone table (zdev_zone_pack() words of a fresh device are
 * written by the caller).  Without create: read and verify the header (magic,
 * version, checksum); if @geo is not NULL it must equal the stored geometry
 * (ZL_E_GEOMETRY_MISMATCH with a message naming the field and how to
 * reformat); if @geo is NULL the stored geometry is used (zstore_geometry()).
 * MEM and NONE always start fresh.
 * @msg gets a human message on error (may be NULL).
 * Returns 0, -errno, ZL_E_BAD_MAGIC, ZL_E_BAD_VERSION, ZL_E_BAD_CSUM,
 * ZL_E_GEOMETRY_MISMATCH, ZL_E_TOO_SMALL, ZL_E_GEOMETRY.
 */
int zstore_open(const struct zstore_cfg *cfg, const struct zdev_cfg *geo,
		struct zstore **out, char *msg, size_t msg_len);
void zstore_close(struct zstore *s);

/* The geometry recorded in the image (or given at open). */
const struct zdev_cfg *zstore_geometry(const struct zstore *s);
/* The timing model text recorded in the image ("" = none; MEM/NONE: what create gave). */
const char *zstore_timing(const struct zstore *s);
enum zstore_kind zstore_kind(const struct zstore *s);
/* True if this store was created fresh by this open (the zone table must be initialised). */
bool zstore_is_fresh(const struct zstore *s);

/* Data.  LBAs are in units of the geometry's lba_size.  Full transfers or -errno. */
int zstore_read(struct zstore *s, uint64_t lba, uint64_t nr_lba, void *buf);
int zstore_write(struct zstore *s, uint64_t lba, uint64_t nr_lba, const void *buf);
/* The same with a scatter-gather buffer of at least nr_lba blocks (no copy
 * for FILE/BLOCK: preadv/pwritev). */
int zstore_readv(struct zstore *s, uint64_t lba, uint64_t nr_lba, const struct iovec *iov,
		 int iov_cnt);
int zstore_writev(struct zstore *s, uint64_t lba, uint64_t nr_lba, const struct iovec *iov,
		  int iov_cnt);

/*
 * The hot path of FILE and BLOCK stores: zstore_data_fd() gives the
 * descriptor and the byte offset of LBA 0 (or -1 for MEM and NONE stores),
 * and zstore_prw() transfers a range the caller has already checked against
 * the geometry, with one pread/pwrite in the common case (no range check, no
 * dispatch on the store kind).  Returns 0 or -errno, like zstore_read/write.
 */
int zstore_data_fd(const struct zstore *s, uint64_t *data_off);
int zstore_prw_rest(int fd, bool write, void *buf, uint64_t len, uint64_t off, ssize_t done);

static ZL_HOT_INLINE int zstore_prw(int fd, bool write, void *buf, uint64_t len, uint64_t off)
{
	ssize_t r = write ? pwrite(fd, buf, (size_t)len, (off_t)off)
			  : pread(fd, buf, (size_t)len, (off_t)off);

	if (r >= 0 && (uint64_t)r == len)
		return 0;
	return zstore_prw_rest(fd, write, buf, len, off, r);   /* short (> ~2 GiB), EINTR, error */
}

/* Drop the data of a range (zone reset); a no-op where unsupported. */
int zstore_discard(struct zstore *s, uint64_t lba, uint64_t nr_lba);

/* Zone table. */
uint64_t zstore_zone_word_get(const struct zstore *s, uint32_t idx);
void zstore_zone_word_set(struct zstore *s, uint32_t idx, uint64_t word);

/*
 * Make data durable (fdatasync), then the zone table (msync of the words set
 * since the last zstore_sync_table()).  -errno on failure.
 */
int zstore_sync_data(struct zstore *s);
int zstore_sync_table(struct zstore *s);
/*
 * Make zone words [first, last] durable (msync of their pages), whatever the
 * dirty range.  Unlike zstore_sync_table() it reads and changes no shared
 * state, so it may run while another thread sets words; it leaves the words
 * in the dirty range (the next zstore_sync_table() syncs them again).  0 for
 * MEM and NONE stores, or -errno.
 */
int zstore_sync_words(const struct zstore *s, uint32_t first, uint32_t last);

/* Names for messages: "file", "block", "mem", "none"; parse returns -EINVAL. */
const char *zstore_kind_name(enum zstore_kind k);
int zstore_kind_parse(const char *s, enum zstore_kind *k);

/**
 * zstore_kind_of_path() - the store for an image at @path when none is named.
 * ZSTORE_BLOCK if @path (followed through links) is a block device,
 * ZSTORE_FILE otherwise, also when it does not exist or stat() fails: opening
 * it then reports the error.  One stat(); opens nothing.
 */
enum zstore_kind zstore_kind_of_path(const char *path);

#endif /* ZSTORE_H */
