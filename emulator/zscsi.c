/*
 * zscsi.c — the zscsi front: create/destroy and the entries a transport
 * calls.  zscsi_execute() sends READ and WRITE (10/16) to the fast path,
 * everything else to the opcode table (zscsi_dispatch.c); zscsi_read_fast()
 * is the common READ for a caller that wants it in its own frame (the tcmu
 * handler).
 *
 * The fast paths are here, beside the entry that calls them, and above the
 * table: a command they do not simply carry out goes to
 * zscsi_execute_table() untouched.  They share the READ/WRITE parsing and
 * checks with the table's handler through zscsi_rw_int.h (static inline:
 * no call on the 4 KiB path).  It is not a transport: no tcmu types, no
 * threads of its own.  Command families live in zscsi_inquiry.c
 * (identification, capacity), zscsi_mode.c (mode pages), zscsi_rw.c
 * (READ/WRITE/SYNCHRONIZE CACHE), zscsi_sbc.c (VERIFY, WRITE AND VERIFY,
 * WRITE SAME, COMPARE AND WRITE), zscsi_zbc.c (ZBC IN/OUT); the helpers
 * below them in zscsi_cmd.c and zscsi_sense.c (the error-to-sense table).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zscsi_int.h"
#include "zscsi_rw_int.h"

void zscsi_cfg_init(struct zscsi_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->profile = ZSCSI_PROFILE_ZBC2;
	cfg->naa_id = 0x5000000000000001ull;
}

static void copy_id(char *dst, size_t size, const char *src, const char *def)
{
	size_t i, n;

	if (!src)
		src = def;
	n = strlen(src);
	if (n > size - 1)
		n = size - 1;
	/* printable ASCII only: these strings go on the wire as-is */
	for (i = 0; i < n; i++)
		dst[i] = (src[i] >= 0x20 && src[i] < 0x7f) ? src[i] : '_';
	dst[n] = '\0';
}

int zscsi_create(struct zdisk *disk, const struct zscsi_cfg *cfg, struct zscsi **out)
{
	const struct zdev_cfg *geo;
	struct zscsi_cfg def;
	struct zscsi *s;
	uint32_t ratio;

	if (!disk || !out)
		return -EINVAL;
	zscsi_dispatch_init();
	if (!cfg) {
		zscsi_cfg_init(&def);
		cfg = &def;
	}
	if (cfg->profile != ZSCSI_PROFILE_ZBC2 && cfg->profile != ZSCSI_PROFILE_DHSMR)
		return -EINVAL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	if (pthread_mutex_init(&s->lock, NULL)) {
		free(s);
		return -ENOMEM;
	}
	if (pthread_mutex_init(&s->caw_lock, NULL)) {
		pthread_mutex_destroy(&s->lock);
		free(s);
		return -ENOMEM;
	}
	s->disk = disk;
	s->profile = cfg->profile;
	copy_id(s->vendor, sizeof(s->vendor), cfg->vendor, "ZONELAB");
	copy_id(s->product, sizeof(s->product), cfg->product, "ZONED DISK");
	s->naa_id = cfg->naa_id;
	if ((s->naa_id >> 60) != 5 && (s->naa_id >> 60) != 6)
		s->naa_id = (s->naa_id & 0x0fffffffffffffffull) | (5ull << 60);
	if (cfg->serial) {
		copy_id(s->serial, sizeof(s->serial), cfg->serial, "");
	} else {
		snprintf(s->serial, sizeof(s->serial), "ZL%016llX",
			 (unsigned long long)s->naa_id);
	}

	geo = zdisk_geo(disk);
	s->lba_size = geo->lba_size;
	ratio = geo->pblock_size > geo->lba_size ? geo->pblock_size / geo->lba_size : 1;
	while ((1u << s->pblock_exp) < ratio && s->pblock_exp < 15)
		s->pblock_exp++;
	s->capacity_lba = geo->capacity_lba;
	s->zone_size_lba = geo->zone_size_lba;
	s->has_gaps = geo->gap_zones && geo->zone_cap_lba && geo->zone_cap_lba < geo->zone_size_lba;

	/* Power cycles before we existed are not ours to report. */
	s->seen_power_cycles = zdisk_power_cycles(disk);
	*out = s;
	return 0;
}

void zscsi_destroy(struct zscsi *s)
{
	if (!s)
		return;
	pthread_mutex_destroy(&s->caw_lock);
	pthread_mutex_destroy(&s->lock);
	free(s);
}

/*
 * A READ/WRITE the fast paths sent to zdisk that failed with @err after
 * @done_lba blocks: the table path's sense (zscsi_rw()), kept as any
 * command's is.
 */
static __attribute__((noinline)) uint8_t rw_fast_failed(struct zscsi *s, const uint8_t *cdb,
							size_t cdb_len, const struct iovec *iov,
							int iov_cnt, const struct rw_args *a,
							int err, uint64_t done_lba,
							uint8_t *sense, size_t *data_len)
{
	struct zscsi_cmd c;

	zscsi_cmd_init(&c, s, cdb, cdb_len, iov, iov_cnt);
	c.data_in = !a->write;
	if (!a->write)
		c.data_len = (size_t)done_lba * s->lba_size;
	return zscsi_finish(&c, zscsi_fail_err(&c, err, ZSCSI_CTX_IO, a->lba + done_lba),
			    sense, data_len);
}

/*
 * READ/WRITE(10) or (16) (the caller knows the opcode is one of them):
 * parse it if it passes zscsi_execute_table()'s checks (CDB length, NACA,
 * no unit attention) and no sense is kept (which only zscsi_finish() may
 * drop).  False: the command is the table's.
 */
static ZL_HOT_INLINE bool rw_fast_parse(const struct zscsi *s, const uint8_t *cdb,
					size_t cdb_len, struct rw_args *a)
{
	if (cdb[0] & 0x80) {                    /* 88h/8Ah */
		if (cdb_len < 16 || (cdb[15] & 0x04))
			return false;
		rw_parse_16(cdb, a);
	} else {                                /* 28h/2Ah */
		if (cdb_len < 10 || (cdb[9] & 0x04))
			return false;
		rw_parse_10(cdb, a);
	}
	return !zscsi_ua_pending(s) && !__atomic_load_n(&s->have_sense, __ATOMIC_RELAXED);
}

/*
 * On the READ path (zl_hot.h; an external definition: zscsi.h declares it
 * without inline).
 */
ZL_HOT_INLINE int zscsi_read_fast(struct zscsi *s, const uint8_t *cdb, size_t cdb_len,
				  const struct iovec *iov, int iov_cnt, uint8_t *sense,
				  size_t *data_len)
{
	struct rw_args a;
	int ret;

	if ((cdb[0] != 0x88 && cdb[0] != 0x28) || !rw_fast_parse(s, cdb, cdb_len, &a) ||
	    iov_cnt != 1 || !iov || !iov[0].iov_base || !a.nr_lba ||
	    rw_check_parsed(s, cdb, iov[0].iov_len, &a) != RW_OK || a.bytes != iov[0].iov_len)
		return -1;                      /* (a longer buffer: the table zeroes its tail) */
	ret = zdisk_read_try(s->disk, a.lba, a.nr_lba, iov[0].iov_base);
	if (!ret)
		return -1;
	if (ret < 0)
		return rw_fast_failed(s, cdb, cdb_len, iov, iov_cnt, &a, ret, 0, sense, data_len);
	if (data_len)
		*data_len = a.bytes;
	return ZSCSI_GOOD;
}

uint8_t zscsi_rw_fast(struct zscsi *s, const uint8_t *cdb, size_t cdb_len,
		      const struct iovec *iov, int iov_cnt, uint8_t *sense, size_t *data_len)
{
	struct zdisk_io io;
	struct rw_args a;
	size_t buf_len;
	int err, n;

	if (!rw_fast_parse(s, cdb, cdb_len, &a))
		goto table;
	if (iov_cnt == 1 && iov && iov[0].iov_base) {   /* (zscsi_iov_usable()'s answer) */
		n = 1;
		buf_len = iov[0].iov_len;
	} else {
		n = zscsi_iov_usable(iov, iov_cnt, &buf_len);
	}
	if (rw_check_parsed(s, cdb, buf_len, &a) != RW_OK || (!a.write && a.bytes != buf_len))
		goto table;                     /* (a longer READ buffer: the table zeroes its tail) */
	err = rw_transfer(s, &a, iov, n, &io);
	if (!err) {
		if (data_len)
			*data_len = a.write ? 0 : a.bytes;
		return ZSCSI_GOOD;
	}
	return rw_fast_failed(s, cdb, cdb_len, iov, iov_cnt, &a, err, io.done_lba, sense, data_len);
table:
	return zscsi_execute_table(s, cdb, cdb_len, iov, iov_cnt, sense, data_len);
}

uint8_t zscsi_execute(struct zscsi *s, const uint8_t *cdb, size_t cdb_len,
		      const struct iovec *iov, int iov_cnt, uint8_t *sense, size_t *data_len)
{
	/*
	 * READ and WRITE (10/16) go to zscsi_rw_fast(), which hands every
	 * command it does not simply carry out back to the table (a tail call).
	 * Its READs try zdisk_read_try() first, as zscsi_read_fast() does.
	 */
	if (cdb && cdb_len >= 10 && ((cdb[0] | 0x02) == 0x2a || (cdb[0] | 0x02) == 0x8a))
		return zscsi_rw_fast(s, cdb, cdb_len, iov, iov_cnt, sense, data_len);
	return zscsi_execute_table(s, cdb, cdb_len, iov, iov_cnt, sense, data_len);
}
