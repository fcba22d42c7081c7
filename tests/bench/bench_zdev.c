/*
 * bench_zdev.c — speed of the zone model and the emulated disk without I/O.
 *
 * Prints, for the two large geometries of the foundation issue (20 TB with
 * 256 MiB zones, 1 TB with 1 MiB zones): creation time and bytes per zone;
 * 4 KiB write+commit operations per second through zdev alone (the
 * baseline) and through zdisk on the data-less NONE store, with the ratio;
 * and the time to report every zone.  Run by `make bench`; argv[1] is a
 * scratch directory (unused here).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zdisk.h"
#include "zl_test.h"

static double secs(uint64_t ns) { return (double)ns / 1e9; }

static struct zdev *create_or_die(const char *what, const struct zdev_cfg *c)
{
	struct zdev *d;
	char msg[256];
	int ret = zdev_cfg_check(c, msg, sizeof(msg));

	if (!ret)
		ret = zdev_create(c, &d);
	if (ret) {
		fprintf(stderr, "bench_zdev: %s: cannot create the zone model: %s\n", what,
			ret == ZL_E_GEOMETRY ? msg : zl_strerror(ret));
		exit(1);
	}
	return d;
}

struct geo { const char *name; uint64_t bytes, zone_bytes; };

static void bench_geometry(const struct geo *g)
{
	struct zdev_cfg c;
	struct zdev *d;
	struct zl_zone_info *zi = malloc(sizeof(*zi) * 4096);
	uint64_t t0, t1, lba, next, n = 0;
	uint32_t nz;
	int r;

	if (!zi)
		abort();
	zdev_cfg_init(&c);
	c.capacity_lba = g->bytes / 512;
	c.zone_size_lba = g->zone_bytes / 512;
	c.nr_conv_start = 4;
	t0 = zl_test_now_ns();
	d = create_or_die(g->name, &c);
	t1 = zl_test_now_ns();
	nz = zdev_nr_zones(d);
	printf("%-22s %9u zones  create %8.2f ms  %5.2f bytes/zone\n", g->name, nz,
	       secs(t1 - t0) * 1e3, (double)zdev_mem_bytes(d) / nz);

	/* report every zone, 4096 descriptors per call */
	t0 = zl_test_now_ns();
	for (lba = 0; lba < c.capacity_lba; lba = next) {
		r = zdev_report(d, lba, ZL_RO_ALL, zi, 4096, &next);
		if (r <= 0)
			break;
		n += (uint64_t)r;
	}
	t1 = zl_test_now_ns();
	printf("%-22s report all %9" PRIu64 " zones   %8.2f ms  (%.1f M zones/s)\n", "", n,
	       secs(t1 - t0) * 1e3, n / secs(t1 - t0) / 1e6);

	/* a filtered report of a sparse condition: cost follows the zones returned */
	for (uint32_t i = 4; i < nz; i += nz / 64 + 1) {
		zdev_write_check(d, (uint64_t)i * c.zone_size_lba, 8);
		zdev_write_commit(d, (uint64_t)i * c.zone_size_lba, 8);
	}
	t0 = zl_test_now_ns();
	for (int k = 0; k < 1000; k++)
		r = zdev_report(d, 0, ZL_RO_IMP_OPEN, zi, 4096, &next);
	t1 = zl_test_now_ns();
	printf("%-22s report imp-open (%d of %u) %6.2f us per report\n", "", r, nz,
	       secs(t1 - t0) * 1e6 / 1000);
	zdev_destroy(d);
	free(zi);
}

static void bench_writes(void)
{
	const uint64_t nops = 4000000;
	struct zdev_cfg c;
	struct zdev *d;
	struct zdisk_cfg zc;
	struct zdisk *z;
	uint64_t t0, t1, lba;
	double base, disk;
	char msg[256];
	static uint8_t buf[4096];

	zdev_cfg_init(&c);
	c.capacity_lba = (1ull << 40) / 512;
	c.zone_size_lba = (256ull << 20) / 512;
	d = create_or_die("write benchmark", &c);
	t0 = zl_test_now_ns();
	lba = 0;
	for (uint64_t i = 0; i < nops; i++) {
		if (zdev_write_check(d, lba, 8))
			abort();
		zdev_write_commit(d, lba, 8);
		lba += 8;
	}
	t1 = zl_test_now_ns();
	base = nops / secs(t1 - t0);
	zdev_destroy(d);

	zdisk_cfg_init(&zc);
	zc.geo = c;
	zc.store.kind = ZSTORE_NONE;
	if (zdisk_open(&zc, &z, msg, sizeof(msg))) {
		fprintf(stderr, "zdisk_open: %s\n", msg);
		exit(1);
	}
	t0 = zl_test_now_ns();
	lba = 0;
	for (uint64_t i = 0; i < nops; i++) {
		if (zdisk_write(z, lba, 8, buf, false, NULL))
			abort();
		lba += 8;
	}
	t1 = zl_test_now_ns();
	disk = nops / secs(t1 - t0);
	zdisk_close(z);
	printf("4 KiB write+commit, zdev alone (baseline)   %8.2f M ops/s\n", base / 1e6);
	printf("4 KiB write, zdisk on the none store         %8.2f M ops/s  (%.2f of baseline)\n",
	       disk / 1e6, disk / base);
}

int main(int argc, char **argv)
{
	static const struct geo geos[] = {
		{ "20 TB, 256 MiB zones", 20000000000000ull, 256ull << 20 },
		{ "1 TB, 1 MiB zones", 1ull << 40, 1ull << 20 },
	};

	(void)argc;
	(void)argv;
	for (size_t i = 0; i < 2; i++)
		bench_geometry(&geos[i]);
	bench_writes();
	return 0;
}
