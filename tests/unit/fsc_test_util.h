/*
 * fsc_test_util.h — fixtures shared by the fs-core test programs: N zone
 * models of one geometry, each behind a data-less zblk.  Header only.
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

#endif
