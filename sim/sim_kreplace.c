/*
 * sim_kreplace.c — the kernel's `btrfs replace`, replayed in fs-core: a
 * layout read from a real zoned btrfs (its chunk tree and the write
 * pointers of its devices' zones, as the e2e check `btrfs_replace` takes
 * them with `btrfs inspect-internal dump-tree -t chunk` and `blkzone
 * report`) is mounted in fs-core on data-less zone models (zblk_zdev) of
 * the same geometry, and fs-core's zoned device replace (fsc_replace.c,
 * modelled on Linux 6.1's dev-replace.c and scrub.c) copies one device
 * onto an empty model of it: the bytes it copies, the zeroes it writes and
 * the target's write pointers are what the kernel's replace of the same
 * layout should write (docs/REBUILD.md, "The kernel's replace beside
 * fs-core's").  No data: fs-core has no extent tree at mount, so every
 * byte below a write pointer counts as live (the kernel's zeroes for dead
 * gaps are copies here; the sum is the same).  Not a parser of the
 * kernel's tools' output: the check turns that into the layout format
 * below.
 *
 * Layout format (text, one item a line, '#' to the end of a line a comment):
 *
 *     zonelab-replace-layout 1
 *     zone-size BYTES
 *     device DEVID ZONES [CONV]        a device of ZONES zones, the first CONV
 *                                      conventional (default 0); every device
 *                                      before the first wp or chunk line
 *     wp DEVID ZONE BYTES              bytes written in sequential zone ZONE
 *                                      (1..zone size; zone size = FULL); the
 *                                      zones not listed are empty
 *     chunk LOGICAL LENGTH TYPE PROFILE DEVID:PHYS[,DEVID:PHYS...]
 *                                      TYPE data|metadata|system, PROFILE
 *                                      single|dup|raid1|raid0|raid10
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"
#include "zblk.h"
#include "zdev.h"

#define KR_LBA 4096u   /* the models' block: btrfs's sector */
#define KR_MAX_CHUNKS 65536u

struct kr_dev {
	uint32_t devid, nr_zones, nr_conv;
	struct zdev *zd;
	struct zblk *blk;
};

struct kr {
	uint64_t zone_bytes;
	uint32_t nr_devs;
	struct kr_dev devs[FSC_MAX_DEVS];
	struct fsc_chunk *chunks;
	uint32_t nr_chunks, cap_chunks;
	bool have_meta_profile, have_data_profile;
	enum fsc_profile data_profile, meta_profile;
};

static const char *const kr_profiles[] = { "single", "dup", "raid1", "raid0", "raid10", NULL };
static const enum fsc_profile kr_profile_vals[] = { FSC_SINGLE, FSC_DUP, FSC_RAID1, FSC_RAID0,
						    FSC_RAID10 };

static int kr_err(char *msg, size_t len, const char *name, unsigned int line, const char *what)
{
	snprintf(msg, len, "%s:%u: %s", name, line, what);
	return -EINVAL;
}

static int kr_dev_index(const struct kr *k, uint32_t devid)
{
	for (uint32_t i = 0; i < k->nr_devs; i++)
		if (k->devs[i].devid == devid)
			return (int)i;
	return -1;
}

static int kr_model_create(uint64_t zone_bytes, uint32_t nr_zones, uint32_t nr_conv,
			   struct zdev **zd, struct zblk **blk)
{
	struct zdev_cfg c;
	int ret;

	zdev_cfg_init(&c);
	c.lba_size = KR_LBA;
	c.zone_size_lba = zone_bytes / KR_LBA;
	c.capacity_lba = c.zone_size_lba * nr_zones;
	c.nr_conv_start = nr_conv;
	ret = zdev_create(&c, zd);
	if (ret)
		return ret;
	ret = zblk_zdev_create(*zd, true, blk);
	if (ret) {
		zdev_destroy(*zd);
		*zd = NULL;
	}
	return ret;
}

static int kr_parse_u64(const char *s, uint64_t *v)
{
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 0);
	return errno || *end ? -1 : 0;
}

/* "DEVID:PHYS[,DEVID:PHYS...]" into @c's stripes (device indexes). */
static int kr_parse_stripes(const struct kr *k, char *s, struct fsc_chunk *c, char *what,
			    size_t what_len)
{
	char *save = NULL, *tok;

	c->nr_stripes = 0;
	for (tok = strtok_r(s, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *colon = strchr(tok, ':');
		uint64_t devid, phys;
		int idx;

		if (!colon) {
			snprintf(what, what_len, "stripe '%s': DEVID:PHYS expected", tok);
			return -1;
		}
		*colon = 0;
		if (kr_parse_u64(tok, &devid) || kr_parse_u64(colon + 1, &phys)) {
			snprintf(what, what_len, "stripe '%s:%s': not two numbers", tok, colon + 1);
			return -1;
		}
		idx = devid > UINT32_MAX ? -1 : kr_dev_index(k, (uint32_t)devid);
		if (idx < 0) {
			snprintf(what, what_len, "stripe on device %" PRIu64 ", which no device line names",
				 devid);
			return -1;
		}
		if (phys % k->zone_bytes ||
		    phys / k->zone_bytes >= k->devs[idx].nr_zones) {
			snprintf(what, what_len, "stripe %" PRIu64 ":%" PRIu64 ": not a zone start of the "
				 "device", devid, phys);
			return -1;
		}
		if (phys / k->zone_bytes < k->devs[idx].nr_conv) {
			snprintf(what, what_len, "stripe %" PRIu64 ":%" PRIu64 " is in a conventional "
				 "zone: without an extent tree fs-core cannot find its allocation "
				 "offset (the kernel's calculate_alloc_pointer())", devid, phys);
			return -1;
		}
		if (c->nr_stripes == FSC_MAX_STRIPES) {
			snprintf(what, what_len, "more than %u stripes", FSC_MAX_STRIPES);
			return -1;
		}
		c->stripes[c->nr_stripes].dev = (uint32_t)idx;
		c->stripes[c->nr_stripes].phys = phys;
		c->nr_stripes++;
	}
	if (!c->nr_stripes) {
		snprintf(what, what_len, "no stripes");
		return -1;
	}
	return 0;
}

static int kr_line(struct kr *k, char *line, const char *name, unsigned int ln, bool *magic,
		   char *msg, size_t len)
{
	char *w[8], *save = NULL, what[256];
	uint32_t n = 0;
	uint64_t a, b, c;

	for (char *t = strtok_r(line, " \t\r\n", &save); t; t = strtok_r(NULL, " \t\r\n", &save)) {
		if (n == 8)
			return kr_err(msg, len, name, ln, "too many words");
		w[n++] = t;
	}
	if (!n)
		return 0;
	if (!*magic) {
		if (n != 2 || strcmp(w[0], "zonelab-replace-layout") || strcmp(w[1], "1"))
			return kr_err(msg, len, name, ln,
				      "not a replace layout (first line: zonelab-replace-layout 1)");
		*magic = true;
		return 0;
	}
	if (!strcmp(w[0], "zone-size")) {
		if (n != 2 || kr_parse_u64(w[1], &a) || !a || a % KR_LBA)
			return kr_err(msg, len, name, ln, "zone-size BYTES: a multiple of 4096");
		if (k->zone_bytes)
			return kr_err(msg, len, name, ln, "zone-size given twice");
		k->zone_bytes = a;
		return 0;
	}
	if (!k->zone_bytes)
		return kr_err(msg, len, name, ln, "zone-size must come first");
	if (!strcmp(w[0], "device")) {
		struct kr_dev *d;

		if ((n != 3 && n != 4) || kr_parse_u64(w[1], &a) || kr_parse_u64(w[2], &b) ||
		    (n == 4 && kr_parse_u64(w[3], &c)))
			return kr_err(msg, len, name, ln, "device DEVID ZONES [CONV]: numbers");
		if (n == 3)
			c = 0;
		if (!a || a > UINT32_MAX || !b || b > UINT32_MAX || c >= b)
			return kr_err(msg, len, name, ln,
				      "device: DEVID > 0, ZONES > 0, CONV below ZONES");
		if (kr_dev_index(k, (uint32_t)a) >= 0)
			return kr_err(msg, len, name, ln, "device named twice");
		if (k->nr_chunks)
			return kr_err(msg, len, name, ln, "device lines must come before chunks");
		if (k->nr_devs == FSC_MAX_DEVS)
			return kr_err(msg, len, name, ln, "too many devices");
		d = &k->devs[k->nr_devs];
		d->devid = (uint32_t)a;
		d->nr_zones = (uint32_t)b;
		d->nr_conv = (uint32_t)c;
		if (kr_model_create(k->zone_bytes, d->nr_zones, d->nr_conv, &d->zd, &d->blk)) {
			snprintf(msg, len, "%s:%u: device %u: cannot make a zone model of %u zones",
				 name, ln, d->devid, d->nr_zones);
			return -EINVAL;
		}
		k->nr_devs++;
		return 0;
	}
	if (!strcmp(w[0], "wp")) {
		int idx;

		if (n != 4 || kr_parse_u64(w[1], &a) || kr_parse_u64(w[2], &b) ||
		    kr_parse_u64(w[3], &c))
			return kr_err(msg, len, name, ln, "wp DEVID ZONE BYTES: numbers");
		idx = a > UINT32_MAX ? -1 : kr_dev_index(k, (uint32_t)a);
		if (idx < 0)
			return kr_err(msg, len, name, ln, "wp: no such device");
		if (b >= k->devs[idx].nr_zones || b < k->devs[idx].nr_conv)
			return kr_err(msg, len, name, ln, "wp: not a sequential zone of the device");
		if (!c || c > k->zone_bytes || c % KR_LBA)
			return kr_err(msg, len, name, ln,
				      "wp: BYTES from 4096 to the zone size, a multiple of 4096");
		if (zblk_write(k->devs[idx].blk, b * k->zone_bytes, NULL, c)) {
			snprintf(msg, len, "%s:%u: wp: zone %" PRIu64 " of device %" PRIu64
				 " given twice", name, ln, b, a);
			return -EINVAL;
		}
		return 0;
	}
	if (!strcmp(w[0], "chunk")) {
		struct fsc_chunk ch;
		int p;

		if (n != 6 || kr_parse_u64(w[1], &a) || kr_parse_u64(w[2], &b))
			return kr_err(msg, len, name, ln,
				      "chunk LOGICAL LENGTH TYPE PROFILE DEVID:PHYS[,...]");
		memset(&ch, 0, sizeof(ch));
		ch.start = a;
		ch.len_bytes = b;
		if (!b || b % k->zone_bytes)
			return kr_err(msg, len, name, ln, "chunk: LENGTH not a multiple of the zone size");
		if (!strcmp(w[3], "data"))
			ch.type = FSC_BG_DATA;
		else if (!strcmp(w[3], "metadata"))
			ch.type = FSC_BG_META;
		else if (!strcmp(w[3], "system"))
			ch.type = FSC_BG_SYSTEM;
		else
			return kr_err(msg, len, name, ln, "chunk: TYPE data, metadata or system");
		p = sim_name_parse(kr_profiles, w[4]);
		if (p < 0)
			return kr_err(msg, len, name, ln,
				      "chunk: PROFILE single, dup, raid1, raid0 or raid10");
		ch.profile = kr_profile_vals[p];
		if (kr_parse_stripes(k, w[5], &ch, what, sizeof(what)))
			return kr_err(msg, len, name, ln, what);
		if ((ch.profile == FSC_SINGLE && ch.nr_stripes != 1) ||
		    ((ch.profile == FSC_DUP || ch.profile == FSC_RAID1) && ch.nr_stripes != 2) ||
		    (ch.profile == FSC_RAID10 && (ch.nr_stripes < 4 || ch.nr_stripes % 2)))
			return kr_err(msg, len, name, ln, "chunk: the stripe count does not fit the "
				      "profile (single 1, dup and raid1 2, raid10 an even number >= 4)");
		if (ch.profile == FSC_RAID10)
			ch.sub_stripes = 2;
		if (k->nr_chunks == KR_MAX_CHUNKS)
			return kr_err(msg, len, name, ln, "too many chunks");
		if (k->nr_chunks == k->cap_chunks) {
			uint32_t cap = k->cap_chunks ? k->cap_chunks * 2 : 64;
			struct fsc_chunk *v = realloc(k->chunks, cap * sizeof(*v));

			if (!v)
				return -ENOMEM;
			k->chunks = v;
			k->cap_chunks = cap;
		}
		k->chunks[k->nr_chunks++] = ch;
		if (ch.type == FSC_BG_DATA && !k->have_data_profile) {
			k->data_profile = ch.profile;
			k->have_data_profile = true;
		} else if (ch.type != FSC_BG_DATA && !k->have_meta_profile) {
			k->meta_profile = ch.profile;
			k->have_meta_profile = true;
		}
		return 0;
	}
	snprintf(what, sizeof(what), "unknown item '%s' (zone-size, device, wp, chunk)", w[0]);
	return kr_err(msg, len, name, ln, what);
}

static void kr_fini(struct kr *k)
{
	for (uint32_t i = 0; i < k->nr_devs; i++) {
		zblk_destroy(k->devs[i].blk);
		zdev_destroy(k->devs[i].zd);
	}
	free(k->chunks);
}

/* Bytes below the write pointer of the sequential zone at @pos of @b. */
static uint64_t kr_zone_wp_bytes(struct zblk *b, uint64_t pos)
{
	struct zblk_zone z;

	if (zblk_zone_get(b, pos, &z) || z.wp_bytes == UINT64_MAX)
		return 0;
	if (z.cond == ZL_COND_FULL)
		return z.len_bytes;
	return z.wp_bytes - z.start_bytes;
}

/* The bytes one stripe of @c takes on its device. */
static uint64_t kr_stripe_bytes(const struct fsc_chunk *c)
{
	uint32_t sub = c->sub_stripes ? c->sub_stripes : 1;

	if (c->profile == FSC_RAID0 || c->profile == FSC_RAID10)
		return c->len_bytes / (c->nr_stripes / sub);
	return c->len_bytes;  /* single, dup, raid1: each stripe a whole copy */
}

/* Is zone @zone of device index @dev in a stripe of some chunk? */
static bool kr_zone_in_chunk(const struct kr *k, uint32_t dev, uint32_t zone)
{
	uint64_t pos = (uint64_t)zone * k->zone_bytes;

	for (uint32_t i = 0; i < k->nr_chunks; i++)
		for (uint32_t s = 0; s < k->chunks[i].nr_stripes; s++)
			if (k->chunks[i].stripes[s].dev == dev &&
			    k->chunks[i].stripes[s].phys <= pos &&
			    pos < k->chunks[i].stripes[s].phys + kr_stripe_bytes(&k->chunks[i]))
				return true;
	return false;
}

int sim_kr_run(FILE *in, const char *name, uint32_t src_devid, struct sim_kr_result *res,
	       char *msg, size_t msg_len)
{
	struct kr k = { 0 };
	struct fsc_cfg cfg;
	struct fsc *fs = NULL;
	struct zdev *tzd = NULL;
	struct zblk *tgt = NULL;
	struct fsc_verify v;
	const struct fsc_replace_progress *p;
	char line[4096];
	unsigned int ln = 0;
	bool magic = false;
	int ret = 0, src = -1;
	uint32_t z, nr_ios;

	memset(res, 0, sizeof(*res));
	msg[0] = 0;
	while (fgets(line, sizeof(line), in)) {
		char *hash = strchr(line, '#');

		ln++;
		if (!strchr(line, '\n') && !feof(in)) {
			ret = kr_err(msg, msg_len, name, ln, "line longer than 4095 characters");
			goto out;
		}
		if (hash)
			*hash = 0;
		ret = kr_line(&k, line, name, ln, &magic, msg, msg_len);
		if (ret)
			goto out;
	}
	if (ferror(in)) {
		snprintf(msg, msg_len, "%s: read error", name);
		ret = -EIO;
		goto out;
	}
	if (!magic || !k.nr_devs || !k.nr_chunks) {
		snprintf(msg, msg_len, "%s: %s", name, !magic ? "empty (no zonelab-replace-layout line)"
			 : !k.nr_devs ? "no device line" : "no chunk line");
		ret = -EINVAL;
		goto out;
	}
	src = src_devid ? kr_dev_index(&k, src_devid) : 0;
	if (src < 0) {
		snprintf(msg, msg_len, "%s: --replace-dev %u: no such device in the layout", name,
			 src_devid);
		ret = -EINVAL;
		goto out;
	}
	res->src_devid = k.devs[src].devid;
	res->nr_devs = k.nr_devs;
	res->zone_bytes = k.zone_bytes;
	res->nr_chunks = k.nr_chunks;
	for (z = 0; z < k.devs[src].nr_zones; z++) {
		uint64_t b = kr_zone_wp_bytes(k.devs[src].blk, (uint64_t)z * k.zone_bytes);

		if (kr_zone_in_chunk(&k, (uint32_t)src, z)) {
			res->src_chunk_zones++;
			res->src_wp_bytes += b;
		} else {
			res->src_other_wp_bytes += b;
		}
	}

	fsc_cfg_init(&cfg);
	cfg.nr_devs = k.nr_devs;
	for (uint32_t i = 0; i < k.nr_devs; i++)
		cfg.devs[i] = k.devs[i].blk;
	cfg.data_profile = k.have_data_profile ? k.data_profile : FSC_SINGLE;
	cfg.meta_profile = k.have_meta_profile ? k.meta_profile : FSC_SINGLE;
	cfg.file_bytes = k.zone_bytes;
	cfg.replace = FSC_REPLACE_ZONED;
	ret = fsc_mount(&cfg, k.chunks, k.nr_chunks, &fs);
	if (ret) {
		snprintf(msg, msg_len, "%s: fs-core does not mount the layout: %s", name,
			 fsc_strerror(ret));
		ret = ret == -ENOMEM ? ret : -EINVAL;
		goto out;
	}
	ret = kr_model_create(k.zone_bytes, k.devs[src].nr_zones, k.devs[src].nr_conv, &tzd, &tgt);
	if (ret) {
		snprintf(msg, msg_len, "%s: the target's zone model: %s", name, fsc_strerror(ret));
		goto out;
	}
	ret = fsc_replace_start(fs, (uint32_t)src, tgt, 0);
	if (ret) {
		snprintf(msg, msg_len, "%s: fsc_replace_start: %s", name, fsc_strerror(ret));
		goto out;
	}
	while ((ret = fsc_replace_step(fs, 0, 0, NULL, 0, &nr_ios)) == 1)
		;
	if (ret) {
		snprintf(msg, msg_len, "%s: fsc_replace_step: %s", name, fsc_strerror(ret));
		goto out;
	}
	p = fsc_replace_progress(fs);
	res->nr_bgs = p->nr_bgs;
	res->alloc_bytes = p->alloc_bytes;
	res->copied_bytes = p->copied_bytes;
	res->zero_bytes = p->zero_bytes;
	res->tgt_write_bytes = p->tgt_write_bytes;
	res->read_bytes = p->read_bytes[src];
	res->nr_reads = p->nr_reads;
	res->nr_writes = p->nr_writes;
	/* the target's write pointers against the source's, zone by zone,
	 * before finish hands the source's slot over */
	for (z = 0; z < k.devs[src].nr_zones; z++) {
		uint64_t pos = (uint64_t)z * k.zone_bytes;
		uint64_t t = kr_zone_wp_bytes(tgt, pos);

		res->tgt_wp_bytes += t;
		if (kr_zone_in_chunk(&k, (uint32_t)src, z) &&
		    t != kr_zone_wp_bytes(k.devs[src].blk, pos))
			res->nr_wp_mismatch++;
	}
	ret = fsc_replace_finish(fs, 0);
	if (ret) {
		snprintf(msg, msg_len, "%s: fsc_replace_finish: %s", name, fsc_strerror(ret));
		goto out;
	}
	ret = fsc_dev_verify(fs, (uint32_t)src, &v);
	res->verify_blocks = v.nr_blocks;
	res->verify_bad = v.nr_bad + v.nr_wp_bad;
	if (ret && ret != FSC_E_VERIFY) {
		snprintf(msg, msg_len, "%s: fsc_dev_verify: %s", name, fsc_strerror(ret));
		goto out;
	}
	ret = 0;
out:
	fsc_destroy(fs);
	zblk_destroy(tgt);
	zdev_destroy(tzd);
	kr_fini(&k);
	return ret;
}

void sim_kr_json(FILE *f, const struct sim_kr_result *r)
{
	fprintf(f, "{\"model\":\"fs-core replay of a kernel btrfs replace (docs/REBUILD.md)\","
		"\"src_devid\":%u,\"devices\":%u,\"zone_bytes\":%" PRIu64 ",\"chunks\":%u,"
		"\"src_chunk_zones\":%u,\"src_wp_bytes\":%" PRIu64 ",\"src_other_wp_bytes\":%" PRIu64
		",\"block_groups\":%u,\"alloc_bytes\":%" PRIu64 ",\"copied_bytes\":%" PRIu64
		",\"zero_bytes\":%" PRIu64 ",\"tgt_write_bytes\":%" PRIu64 ",\"read_bytes\":%" PRIu64
		",\"reads\":%" PRIu64 ",\"writes\":%" PRIu64 ",\"tgt_wp_bytes\":%" PRIu64
		",\"wp_mismatch\":%u,\"verify_blocks\":%" PRIu64 ",\"verify_bad\":%" PRIu64 "}\n",
		r->src_devid, r->nr_devs, r->zone_bytes, r->nr_chunks, r->src_chunk_zones,
		r->src_wp_bytes, r->src_other_wp_bytes, r->nr_bgs, r->alloc_bytes,
		r->copied_bytes, r->zero_bytes, r->tgt_write_bytes, r->read_bytes, r->nr_reads,
		r->nr_writes, r->tgt_wp_bytes, r->nr_wp_mismatch, r->verify_blocks, r->verify_bad);
}
