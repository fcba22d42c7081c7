/*
 * test_sim_kreplace.c — fs-core's replay of a kernel `btrfs replace`
 * (sim/sim_kreplace.c): a layout as the e2e check takes it from a zoned
 * btrfs of two devices (superblock log zones, system and metadata DUP,
 * data single, zones partly written and full) is replaced device by
 * device: the target receives exactly the bytes below the source's write
 * pointers of its chunk zones, zone for zone, the superblock zones are not
 * copied, the new device verifies; bad layouts are refused with the line
 * and the reason.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "sim.h"

#define MIB (1024u * 1024u)

/* Two devices of 16 zones of 1 MiB, as a mkfs.btrfs -O zoned -m dup -d
 * single of two disks and a fill leave them (no conventional zone: the
 * superblock log in zones 0 and 1). */
static const char layout[] =
	"zonelab-replace-layout 1\n"
	"# taken by hand\n"
	"zone-size 1048576\n"
	"device 1 16\n"
	"device 2 16\n"
	"wp 1 0 4096    # superblock log\n"
	"wp 1 1 8192\n"
	"wp 2 0 4096\n"
	"wp 1 2 16384\n"
	"wp 1 3 16384\n"
	"wp 1 4 524288\n"
	"wp 1 5 524288\n"
	"wp 1 6 1048576\n"
	"wp 1 7 12288\n"
	"wp 2 2 65536\n"
	"wp 2 3 98304\n"
	"wp 2 4 98304\n"
	"chunk 1048576 1048576 system dup 1:2097152,1:3145728\n"
	"chunk 2097152 1048576 metadata dup 1:4194304,1:5242880\n"
	"chunk 3145728 1048576 data single 1:6291456\n"
	"chunk 4194304 1048576 data single 2:2097152\n"
	"chunk 5242880 1048576 data single 1:7340032\n"
	"chunk 6291456 1048576 metadata dup 2:3145728,2:4194304\n"
	"chunk 7340032 1048576 data single 2:5242880   # allocated, nothing written\n";

static char msg[512];

static int run(const char *text, uint32_t devid, struct sim_kr_result *r)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int ret;

	assert_non_null(f);
	ret = sim_kr_run(f, "layout", devid, r, msg, sizeof(msg));
	fclose(f);
	return ret;
}

static void test_replace_copies_the_source_up_to_its_write_pointers(void **state)
{
	struct sim_kr_result r;
	uint64_t wp = 2 * 16384 + 2 * 524288 + MIB + 12288;

	(void)state;
	assert_int_equal(run(layout, 1, &r), 0);
	assert_int_equal(r.src_devid, 1);
	assert_int_equal(r.nr_devs, 2);
	assert_int_equal(r.nr_chunks, 7);
	assert_int_equal(r.src_chunk_zones, 6);
	assert_int_equal(r.src_wp_bytes, wp);
	assert_int_equal(r.src_other_wp_bytes, 4096 + 8192);  /* not copied */
	assert_int_equal(r.nr_bgs, 4);
	assert_int_equal(r.alloc_bytes, wp);
	assert_int_equal(r.tgt_write_bytes, wp);
	assert_int_equal(r.copied_bytes + r.zero_bytes, wp);
	assert_int_equal(r.read_bytes, r.copied_bytes);
	assert_int_equal(r.tgt_wp_bytes, wp);
	assert_int_equal(r.nr_wp_mismatch, 0);
	assert_int_equal(r.verify_blocks, wp / 4096);
	assert_int_equal(r.verify_bad, 0);
}

static void test_replace_of_the_other_device_and_the_default(void **state)
{
	struct sim_kr_result r;

	(void)state;
	assert_int_equal(run(layout, 2, &r), 0);
	assert_int_equal(r.src_devid, 2);
	assert_int_equal(r.src_chunk_zones, 4);
	assert_int_equal(r.src_wp_bytes, 65536 + 2 * 98304);
	assert_int_equal(r.src_other_wp_bytes, 4096);
	assert_int_equal(r.tgt_write_bytes, 65536 + 2 * 98304);
	assert_int_equal(r.nr_wp_mismatch, 0);
	assert_int_equal(r.verify_bad, 0);
	assert_int_equal(run(layout, 0, &r), 0);  /* the first device line */
	assert_int_equal(r.src_devid, 1);
}

/* @text with @line appended must be refused with @what in the message. */
static void refused(const char *text, const char *line, uint32_t devid, const char *what)
{
	static char buf[8192];
	struct sim_kr_result r;

	snprintf(buf, sizeof(buf), "%s%s", text, line);
	assert_int_equal(run(buf, devid, &r), -EINVAL);
	if (!strstr(msg, what))
		fail_msg("message '%s' does not say '%s'", msg, what);
}

static void test_bad_layouts_are_refused_with_line_and_reason(void **state)
{
	(void)state;
	refused("", "", 1, "empty");
	refused("zonelab-replace-layout 2\n", "", 1, "layout:1: not a replace layout");
	refused("zonelab-replace-layout 1\n", "device 1 16\n", 1, "layout:2: zone-size must come first");
	refused("zonelab-replace-layout 1\nzone-size 1000\n", "", 1, "multiple of 4096");
	refused(layout, "wp 1 8 2000000\n", 1, "layout:25: wp: BYTES from 4096 to the zone size");
	refused(layout, "wp 1 2 4096\n", 1, "given twice");
	refused(layout, "wp 3 2 4096\n", 1, "wp: no such device");
	refused(layout, "chunk 9437184 1048576 data single 3:9437184\n", 1, "device 3, which no");
	refused(layout, "chunk 9437184 1048576 data single 1:9437185\n", 1, "not a zone start");
	refused(layout, "chunk 9437184 1048576 data raid5 1:9437184\n", 1, "PROFILE single");
	refused(layout, "chunk 9437184 1048576 data dup 1:9437184\n", 1, "stripe count");
	refused(layout, "chunk 9437184 1048576 stuff single 1:9437184\n", 1, "TYPE data");
	refused(layout, "device 3 16\n", 1, "device lines must come before chunks");
	refused(layout, "frobnicate 1\n", 1, "unknown item 'frobnicate'");
	refused("zonelab-replace-layout 1\nzone-size 1048576\ndevice 1 16 2\n",
		"chunk 1048576 1048576 data single 1:1048576\n", 1, "conventional zone");
	refused(layout, "", 5, "--replace-dev 5: no such device");
	/* a DUP block group whose two zones disagree: fs-core's mount refuses
	 * it as the kernel's btrfs_load_block_group_dup() does */
	refused(layout, "wp 1 9 8192\nwp 1 10 4096\n"
		"chunk 9437184 1048576 metadata dup 1:9437184,1:10485760\n", 1,
		"fs-core does not mount the layout");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_replace_copies_the_source_up_to_its_write_pointers),
		cmocka_unit_test(test_replace_of_the_other_device_and_the_default),
		cmocka_unit_test(test_bad_layouts_are_refused_with_line_and_reason),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
