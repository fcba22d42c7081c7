/*
 * bench_sim.c — simulated bios per second of the simulator on its
 * data-less path: one device of 256 x 1 MiB zones, SINGLE profile, uniform random 4 KiB
 * overwrites at 80% utilization with greedy cleaning, 8 async workers with
 * exponential service times, submit buffer, metadata on.  The baseline,
 * measured in the same process, is the raw zone model: zdev_write_check +
 * zdev_write_commit in a loop (what each simulated bio costs at least).
 * Run by `make bench` as `bench_sim <scratch-dir>` (the directory is unused).
 * Wall clock here only; the simulation itself never reads it.
 */
#include <stdio.h>
#include <stdlib.h>

#include "sim.h"
#include "zdev.h"
#include "zl_test.h"

static double baseline_ops_per_s(void)
{
	struct zdev_cfg c;
	struct zdev *d;
	uint64_t t0, ns, ops = 0, lba, zone_lba = 256, nr_zones = 4096;
	uint32_t z;

	zdev_cfg_init(&c);
	c.lba_size = 4096;
	c.zone_size_lba = zone_lba;
	c.capacity_lba = zone_lba * nr_zones;
	if (zdev_create(&c, &d))
		exit(1);
	t0 = zl_test_now_ns();
	for (int round = 0; round < 4; round++) {
		for (z = 0; z < nr_zones; z++)
			for (lba = z * zone_lba; lba < (z + 1) * zone_lba; lba++) {
				if (zdev_write_check(d, lba, 1))
					exit(1);
				zdev_write_commit(d, lba, 1);
				ops++;
			}
		zdev_zone_op(d, ZL_ZOP_RESET, 0, true);
	}
	ns = zl_test_now_ns() - t0;
	zdev_destroy(d);
	return (double)ops / ((double)ns / 1e9);
}

int main(int argc, char **argv)
{
	static struct sim_result r;
	struct sim_cfg c;
	uint64_t t0, ns;
	double base, sim_rate, user_rate;

	sim_cfg_init(&c);
	c.zone_bytes = 1 << 20;
	c.nr_zones = 256;
	c.writes = 3000000;
	c.seed = 1;
	base = baseline_ops_per_s();
	t0 = zl_test_now_ns();
	if (sim_run(&c, &r)) {
		fprintf(stderr, "bench_sim: run failed: %s\n",
			r.msg[0] ? r.msg : fsc_strerror(r.error));
		return 1;
	}
	ns = zl_test_now_ns() - t0;
	sim_rate = (double)r.nr_bios / ((double)ns / 1e9);
	user_rate = (double)r.nr_user_bios / ((double)ns / 1e9);
	printf("%-44s %14s\n", "measure", "value");
	printf("%-44s %14.0f\n", "baseline zdev write_check+commit ops/s", base);
	printf("%-44s %14llu\n", "simulated bios (all kinds)", (unsigned long long)r.nr_bios);
	printf("%-44s %14llu\n", "simulated user writes", (unsigned long long)r.nr_user_bios);
	printf("%-44s %14llu\n", "events", (unsigned long long)r.nr_events);
	printf("%-44s %14.3f\n", "wall seconds", (double)ns / 1e9);
	printf("%-44s %14.0f\n", "simulated bios/s", sim_rate);
	printf("%-44s %14.0f\n", "simulated user writes/s", user_rate);
	printf("%-44s %14.4f\n", "ratio sim bios/s : baseline ops/s", sim_rate / base);
	printf("%-44s %14.3f\n", "WA (total)", r.wa);
	printf("%-44s %14s\n", "target >= 1M bios/s", sim_rate >= 1e6 ? "met" : "NOT met");
	return 0;
}
