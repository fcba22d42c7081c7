/*
 * fsc_test_util.h — fixtures shared by the fs-core test programs: N zone
 * models of one geometry, each behind a data-less zblk; writing file
 * extents and committing as the simulator would.  Header only; include
 * <cmocka.h> first.
 */
#ifndef FSC_TEST_UTIL_H
#define FSC_TEST_UTIL_H

#include <stdlib.h>
#include <string.h>

#include "fsc_int.h"
#include "zdev.h"

#define T_ZONE_LBA 2048u  /* 1 MiB zones of 512 B */
#define T_ZONE_BYTES (1u << 20)

struct tdevs {
	uint32_t nr;
	struct zdev *d[FSC_MAX_DEVS];
	struct zblk *b[FSC_MAX_DEVS];
};

static inline void tdevs_init(struct tdevs *t, uint32_t nr, uint32_t nr_zones, uint32_t nr_conv)
{
	struct zdev_cfg cfg;
	uint32_t i;

	memset(t, 0, sizeof(*t));
	t->nr = nr;
	for (i = 0; i < nr; i++) {
		zdev_cfg_init(&cfg);
		cfg.capacity_lba = (uint64_t)nr_zones * T_ZONE_LBA;
		cfg.zone_size_lba = T_ZONE_LBA;
		cfg.nr_conv_start = nr_conv;
		if (zdev_create(&cfg, &t->d[i]) || zblk_zdev_create(t->d[i], true, &t->b[i]))
			abort();
	}
}

static inline void tdevs_fini(struct tdevs *t)
{
	uint32_t i;

	for (i = 0; i < t->nr; i++) {
		zblk_destroy(t->b[i]);
		zdev_destroy(t->d[i]);
	}
}

static inline void tcfg(struct fsc_cfg *cfg, struct tdevs *t, enum fsc_profile p)
{
	uint32_t i;

	fsc_cfg_init(cfg);
	cfg->nr_devs = t->nr;
	for (i = 0; i < t->nr; i++)
		cfg->devs[i] = t->b[i];
	cfg->data_profile = p;
	cfg->meta_profile = p;
}

/* Write @n extents of @ext_bytes from file block @lbn, each submitted (and
 * so completed).  0 or the first error. */
static inline int twrite_ext(struct fsc *fs, uint64_t lbn, uint32_t n, uint32_t ext_bytes)
{
	uint32_t blocks = ext_bytes / fs->cfg.sector_bytes, i;
	struct fsc_bio *b;
	int ret;

	for (i = 0; i < n; i++) {
		ret = fsc_write_file(fs, lbn + (uint64_t)i * blocks, blocks, 0, &b);
		if (ret)
			return ret;
		assert_int_equal(fsc_submit(fs, b, 0), 0);
	}
	return 0;
}

/* Commit: write the dirty tree blocks (synchronously), unpin.  The bios
 * written, or the commit's error. */
static inline int tcommit(struct fsc *fs)
{
	struct fsc_bio *list, *b, *next;
	int n = fsc_commit_start(fs, 0, &list);

	for (b = list; b; b = next) {
		next = b->next;
		assert_int_equal(fsc_submit(fs, b, 0), 0);
	}
	if (n >= 0)
		assert_int_equal(fsc_commit_finish(fs, 0), 0);
	return n;
}

#endif
