/*
 * zdisk_open.c — the life of an emulated disk: zdisk_cfg_init(), and
 * zdisk_open(), which opens the store, builds the zone model from the
 * image's geometry, formats a fresh table or restores every zone from it
 * (refusing a corrupt word rather than guessing), and adds the configured
 * fault rules; zdisk_close(), which flushes and frees; and the accessors
 * for code that works on the parts under the disk's lock.
 *
 * No I/O path and no zone rules here: those are zdisk.c and zdev.c.  This
 * file calls zdisk.c (the change hook, flush), never the other way.
 */
#include "zdisk_int.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void zdisk_cfg_init(struct zdisk_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	zdev_cfg_init(&cfg->geo);
	cfg->store.kind = ZSTORE_MEM;
	cfg->wce = true;
	cfg->seed = 1;
}

static int load_zones(struct zdisk *z, char *msg, size_t msg_len)
{
	uint32_t n = zdev_nr_zones(z->dev);

	if (zstore_is_fresh(z->store)) {
		for (uint32_t i = 0; i < n; i++)
			zstore_zone_word_set(z->store, i, zdev_zone_pack(z->dev, i));
		return zstore_sync_table(z->store);
	}
	for (uint32_t i = 0; i < n; i++) {
		uint64_t w = zstore_zone_word_get(z->store, i);
		int ret = zdev_zone_unpack(z->dev, i, w);

		if (ret) {
			if (msg)
				snprintf(msg, msg_len,
					 "%s: zone %u: corrupt zone record 0x%016" PRIx64
					 " (refusing to guess its state; check the image or reformat with force)",
					 z->path, i, w);
			return ret;
		}
	}
	return 0;
}

int zdisk_open(const struct zdisk_cfg *cfg, struct zdisk **out, char *msg, size_t msg_len)
{
	const struct zdev_cfg *geo;
	struct zdisk *z;
	uint32_t n;
	int ret;

	if (msg && msg_len)
		msg[0] = 0;
	if (!cfg->use_image_geo) {
		ret = zdev_cfg_check(&cfg->geo, msg, msg_len);
		if (ret)
			return ret;
	}
	z = calloc(1, sizeof(*z));
	if (!z)
		return -ENOMEM;
	pthread_mutex_init(&z->lock, NULL);
	pthread_cond_init(&z->zone_cv, NULL);
	z->wce = cfg->wce;
	z->realtime = cfg->realtime;
	z->store_mode = -1;
	snprintf(z->path, sizeof(z->path), "%s",
		 cfg->store.path ? cfg->store.path : zstore_kind_name(cfg->store.kind));

	ret = zstore_open(&cfg->store, cfg->use_image_geo ? NULL : &cfg->geo, &z->store,
			  msg, msg_len);
	if (ret)
		goto out_free;
	geo = zstore_geometry(z->store);
	ret = zdev_create(geo, &z->dev);
	if (ret) {
		if (msg)
			zdev_cfg_check(geo, msg, msg_len);
		goto out_close_store;
	}
	z->lba_size = zdev_cfg(z->dev)->lba_size;
	z->data_fd = zstore_data_fd(z->store, &z->data_off);
	n = zdev_nr_zones(z->dev);
	z->busy = calloc(n, 1);
	if (!z->busy || zbitmap_init(&z->dirty, n)) {
		ret = -ENOMEM;
		goto out_destroy_dev;
	}
	ret = load_zones(z, msg, msg_len);
	if (ret)
		goto out_destroy_dev;
	zdev_set_changed_cb(z->dev, zdisk_on_zone_changed, z);

	ret = zfault_create(cfg->seed, &z->faults);
	if (ret)
		goto out_destroy_dev;
	if (cfg->faults && *cfg->faults) {
		ret = zfault_add_text(z->faults, cfg->faults, msg, msg_len);
		if (ret)
			goto out_destroy_faults;
	}
	*out = z;
	return 0;

out_destroy_faults:
	zfault_destroy(z->faults);
out_destroy_dev:
	zbitmap_fini(&z->dirty);
	free(z->busy);
	zdev_destroy(z->dev);
out_close_store:
	zstore_close(z->store);
out_free:
	pthread_cond_destroy(&z->zone_cv);
	pthread_mutex_destroy(&z->lock);
	free(z);
	return ret;
}

void zdisk_close(struct zdisk *z)
{
	if (!z)
		return;
	zdisk_enter(z);
	zdisk_flush_locked(z);
	zdisk_leave(z);
	zfault_destroy(z->faults);
	zbitmap_fini(&z->dirty);
	free(z->busy);
	zdev_destroy(z->dev);
	zstore_close(z->store);
	pthread_cond_destroy(&z->zone_cv);
	pthread_mutex_destroy(&z->lock);
	free(z);
}

struct zdev *zdisk_zdev(struct zdisk *z) { return z->dev; }
const struct zdev_cfg *zdisk_geo(const struct zdisk *z) { return zdev_cfg(z->dev); }
const char *zdisk_timing(const struct zdisk *z) { return zstore_timing(z->store); }
struct zfault *zdisk_faults(struct zdisk *z) { return z->faults; }
void zdisk_lock(struct zdisk *z) { zdisk_enter(z); }
void zdisk_unlock(struct zdisk *z) { zdisk_leave(z); }
