/*
 * test_zl_cfgstr.c — the zonelab cfgstring parser: defaults, every key,
 * size suffixes and alignment, and a precise message for each rejection.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "tcmu/zl_cfgstr.h"

static struct zl_cfgstr c;
static char msg[512];

static void test_cfgstr_defaults_are_documented_ones(void **state)
{
	assert_int_equal(zl_cfgstr_parse("zonelab//var/tmp/d.img", &c, msg, sizeof(msg)), 0);
	assert_string_equal(c.path, "/var/tmp/d.img");
	assert_ptr_equal(c.disk.store.path, c.path);
	assert_int_equal(c.disk.store.kind, ZSTORE_FILE);
	assert_int_equal(c.zone_size_bytes, 256ull << 20);
	assert_int_equal(c.disk.geo.max_open, 128);
	assert_int_equal(c.disk.geo.max_active, 0);
	assert_int_equal(c.disk.geo.model, ZL_MODEL_HM);
	assert_true(c.disk.wce);
	assert_true(c.disk.geo.urswrz);
	assert_false(c.force);
	assert_null(c.disk.faults);
	assert_int_equal(zl_cfgstr_geometry(&c, 1ull << 30, 512, msg, sizeof(msg)), 0);
	assert_int_equal(c.disk.geo.capacity_lba, (1ull << 30) / 512);
	assert_int_equal(c.disk.geo.zone_size_lba, (256ull << 20) / 512);
}

static void test_cfgstr_every_key_is_applied(void **state)
{
	/* every value differs from its default, so an ignored key fails */
	const char *s = "/d?size=2G&zsize=64M&zcap=48M&gap=0&conv=2&conv_at=10-11:20+3&lba=4096"
			"&pblock=4096&model=ha&max_open=8&max_active=12&urswrz=0&wce=0&store=mem"
			"&punch=1&faults=medium-error:op=read/lba=0-7;latency:a=1ms&seed=42"
			"&realtime=0&profile=dhsmr&force=1";

	assert_int_equal(zl_cfgstr_parse(s, &c, msg, sizeof(msg)), 0);
	assert_int_equal(c.disk.store.kind, ZSTORE_MEM);
	assert_null(c.disk.store.path);
	assert_int_equal(c.disk.geo.nr_conv_start, 2);
	assert_int_equal(c.disk.geo.nr_conv_ranges, 2);
	assert_int_equal(c.disk.geo.conv_ranges[0].first, 10);
	assert_int_equal(c.disk.geo.conv_ranges[0].count, 2);
	assert_int_equal(c.disk.geo.conv_ranges[1].first, 20);
	assert_int_equal(c.disk.geo.conv_ranges[1].count, 3);
	assert_int_equal(c.disk.geo.model, ZL_MODEL_HA);
	assert_int_equal(c.disk.geo.max_open, 8);
	assert_int_equal(c.disk.geo.max_active, 12);
	assert_false(c.disk.wce);
	assert_true(c.disk.store.punch_on_reset);
	assert_string_equal(c.disk.faults, "medium-error:op=read,lba=0-7;latency:a=1ms");
	assert_int_equal(c.disk.seed, 42);
	assert_false(c.disk.realtime);
	assert_int_equal(c.profile, ZSCSI_PROFILE_DHSMR);
	assert_true(c.force);
	assert_false(c.disk.geo.urswrz);
	assert_false(c.disk.geo.gap_zones);
	assert_int_equal(c.disk.geo.pblock_size, 4096);
	/* hw_block_size 0: the logical block size is lba='s alone */
	if (zl_cfgstr_geometry(&c, 0, 0, msg, sizeof(msg)))
		fail_msg("geometry: %s", msg);
	assert_int_equal(c.disk.geo.lba_size, 4096);
	assert_int_equal(c.disk.geo.capacity_lba, (2ull << 30) / 4096);
	assert_int_equal(c.disk.geo.zone_size_lba, (64ull << 20) / 4096);
	assert_int_equal(c.disk.geo.zone_cap_lba, (48ull << 20) / 4096);
}

/* size= through the whole parser: common/zl_parse's forms and reasons. */
static uint64_t size_of(const char *v)
{
	char s[128];

	snprintf(s, sizeof(s), "/d?size=%s", v);
	if (zl_cfgstr_parse(s, &c, msg, sizeof(msg)))
		fail_msg("'%s': %s", s, msg);
	return c.size_bytes;
}

static int size_refused(const char *v)
{
	char s[128];

	snprintf(s, sizeof(s), "/d?size=%s", v);
	return zl_cfgstr_parse(s, &c, msg, sizeof(msg));
}

static void test_cfgstr_size_suffixes_are_binary(void **state)
{
	assert_int_equal(size_of("4k"), 4096);
	assert_int_equal(size_of("3M"), 3ull << 20);
	assert_int_equal(size_of("1T"), 1ull << 40);
	assert_int_equal(size_of("512"), 512);
	assert_int_equal(size_of("64MiB"), 64ull << 20);   /* the CLI's forms too */
	assert_int_equal(size_of("0x1000"), 4096);
	assert_int_equal(size_refused("1MB"), -EINVAL);
	assert_non_null(strstr(msg, "key 'size' value '1MB': stray characters after the size suffix"));
	assert_int_equal(size_refused("M"), -EINVAL);
	assert_non_null(strstr(msg, "key 'size' value 'M': not a size (e.g. 4096, 64K, 256M, 2G)"));
	assert_int_equal(size_refused("99999999999999999999"), -EINVAL);
	assert_non_null(strstr(msg, ": overflows 64 bits"));
	assert_int_equal(size_refused("17179869184G"), -EINVAL);
	assert_non_null(strstr(msg, "key 'size' value '17179869184G': overflows 64 bits"));
	assert_int_equal(size_refused("-1"), -EINVAL);
	assert_non_null(strstr(msg, "negative"));
}

#define REJECT(s, needle)							\
	do {									\
		assert_int_equal(zl_cfgstr_parse(s, &c, msg, sizeof(msg)), -EINVAL); \
		if (!strstr(msg, needle))					\
			fail_msg("'%s': message '%s' lacks '%s'", s, msg, needle); \
	} while (0)

static void test_cfgstr_rejections_name_key_value_and_reason(void **state)
{
	REJECT("/d?zsize=12Q", "key 'zsize' value '12Q'");
	assert_non_null(strstr(msg, "'12Q': unknown size suffix (K, M, G or T)"));
	REJECT("/d?colour=red", "unknown key 'colour' (keys: size, zsize, ");
	assert_non_null(strstr(msg, ", trace, geo, timing)"));   /* the whole list */
	REJECT("/d?wce=1&wce=0", "key 'wce' given twice");
	REJECT("/d?wce=", "key 'wce' has an empty value");
	REJECT("/d?wce", "has no '='");
	REJECT("/d?wce=2", "expected 0 or 1");
	REJECT("/d?wce=1&", "trailing '&'");
	REJECT("/d?&wce=1", "empty option");
	REJECT("/d?lba=1024", "expected 512 or 4096");
	REJECT("/d?model=dm", "expected hm");
	REJECT("/d?store=tape", "expected file, block, mem or none");
	REJECT("/d?conv_at=5-3", "reversed");
	REJECT("/d?conv_at=1:", "trailing ':'");
	REJECT("/d?faults=a,b", "splits dev_config at ','");
	REJECT("relative/d", "must be absolute");
	REJECT("?zsize=1M", "must be absolute");
	REJECT("/d?profile=scsi3", "expected zbc2 or dhsmr");
	REJECT("/d?geo=disk", "expected 'image'");
	REJECT("/d?faults=medium-error:op=foo", "key 'faults' value 'medium-error:op=foo': "
	       "fault rule \"medium-error:op=foo\": column 17: unknown operation");
	REJECT("/d?faults=latency:op=read/ms=1;bogus", "unknown");
	REJECT("/d?zcap=0", "key 'zcap' value '0'");
	REJECT("/d?size=0", "key 'size' value '0'");
	REJECT("/d?zsize=0", "key 'zsize' value '0'");
	REJECT("/d?geo=image&zsize=1M", "drop 'zsize='");
	REJECT("/d?max_open=4&geo=image", "drop 'max_open='");
	REJECT("/d?geo=image&force=1", "never reformatted");
	REJECT("?store=mem&geo=image", "keeps no image");
	REJECT("/d?timing=hc999", "key 'timing' value 'hc999': timing \"hc999\": unknown preset");
	REJECT("/d?timing=hc620/rpm=fast", "key 'timing' value 'hc620/rpm=fast'");
	REJECT("/d?timing=zn540/sched=sptf", "key 'timing'");
	REJECT("/d?timing=zn540/reset_exp=0", "reset_exp=0 is out of range (1..200)");
	REJECT("/d?timing=hc620/reset_gib=1ms", "unknown key \"reset_gib\" for hc620");
	REJECT("/d?timing=hc620,cache=0", "splits dev_config at ','");
}

/* timing=: ',' written as '/', kept for the disk; off = none. */
static void test_cfgstr_timing_key(void **state)
{
	(void)state;
	assert_int_equal(zl_cfgstr_parse("/var/d.img", &c, msg, sizeof(msg)), 0);
	assert_string_equal(c.timing, "");
	assert_null(c.disk.store.timing);
	assert_int_equal(zl_cfgstr_parse("/var/d.img?timing=hc620/cache=0/sched=sptf", &c, msg,
					 sizeof(msg)), 0);
	assert_string_equal(c.timing, "hc620,cache=0,sched=sptf");
	assert_string_equal(c.disk.store.timing, "hc620,cache=0,sched=sptf");
	assert_int_equal(zl_cfgstr_parse("/var/d.img?timing=zn540/reset_gib=12.8ms/reset_exp=100",
					 &c, msg, sizeof(msg)), 0);
	assert_string_equal(c.timing, "zn540,reset_gib=12.8ms,reset_exp=100");
	assert_int_equal(zl_cfgstr_parse("/var/d.img?timing=off", &c, msg, sizeof(msg)), 0);
	assert_string_equal(c.timing, "off");
	assert_null(c.disk.store.timing);
}

/* Every key the image records is refused next to geo=image, by name. */
static void test_cfgstr_geo_image_refuses_every_geometry_key(void **state)
{
	static const char *const kv[] = {
		"size=1G", "zsize=1M", "zcap=512K", "gap=1", "conv=2", "conv_at=3", "lba=4096",
		"pblock=4096", "model=ha", "max_open=4", "max_active=8", "urswrz=0",
	};
	char s[128], want[64];

	(void)state;
	for (size_t i = 0; i < sizeof(kv) / sizeof(kv[0]); i++) {
		snprintf(s, sizeof(s), "/d?geo=image&%s", kv[i]);
		snprintf(want, sizeof(want), "drop '%.*s='", (int)strcspn(kv[i], "="), kv[i]);
		REJECT(s, want);
		snprintf(s, sizeof(s), "/d?%s", kv[i]);             /* alone: fine */
		assert_int_equal(zl_cfgstr_parse(s, &c, msg, sizeof(msg)), 0);
	}
	assert_int_equal(zl_cfgstr_parse("/d?geo=image&wce=0&faults=latency:op=read/ms=1&seed=3",
					 &c, msg, sizeof(msg)), 0);
}

static void test_cfgstr_geometry_checks_alignment_and_block_size(void **state)
{
	assert_int_equal(zl_cfgstr_parse("/d?zsize=6K&pblock=4096", &c, msg, sizeof(msg)), 0);
	assert_int_equal(zl_cfgstr_geometry(&c, 1 << 30, 512, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "key 'zsize' value '6144' bytes: not a multiple of the physical block 4096"));

	assert_int_equal(zl_cfgstr_parse("/d?lba=4096", &c, msg, sizeof(msg)), 0);
	assert_int_equal(zl_cfgstr_geometry(&c, 1 << 30, 512, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "hw_block_size 512"));

	assert_int_equal(zl_cfgstr_parse("/d?zsize=1M&zcap=2M", &c, msg, sizeof(msg)), 0);
	assert_int_equal(zl_cfgstr_geometry(&c, 1 << 30, 512, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "larger than the zone size"));

	assert_int_equal(zl_cfgstr_parse("/d", &c, msg, sizeof(msg)), 0);
	assert_int_equal(zl_cfgstr_geometry(&c, 0, 512, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "device size is 0"));

	/* a size that is no whole number of blocks names where it came from */
	assert_int_equal(zl_cfgstr_parse("/d?size=1000", &c, msg, sizeof(msg)), 0);
	assert_int_equal(zl_cfgstr_geometry(&c, 1 << 30, 512, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "key 'size' value '1000' bytes: not a multiple of the physical block 512"));
	assert_int_equal(zl_cfgstr_parse("/d", &c, msg, sizeof(msg)), 0);
	assert_int_equal(zl_cfgstr_geometry(&c, 1000, 512, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "the backstore's dev_size 1000 bytes"));

	/* hw_block_size decides the LBA size when lba= is absent */
	assert_int_equal(zl_cfgstr_parse("/d?zsize=1M", &c, msg, sizeof(msg)), 0);
	assert_int_equal(zl_cfgstr_geometry(&c, 64 << 20, 4096, msg, sizeof(msg)), 0);
	assert_int_equal(c.disk.geo.lba_size, 4096);
	assert_int_equal(c.disk.geo.zone_size_lba, 256);
}

static void test_cfgstr_ctl_and_trace_keys(void **state)
{
	char s[400], longp[200];

	assert_int_equal(zl_cfgstr_parse("/var/d.img", &c, msg, sizeof(msg)), 0);
	assert_string_equal(c.ctl_path, "");
	assert_string_equal(c.trace_path, "");
	assert_int_equal(zl_cfgstr_parse("/var/d.img?ctl=1&trace=/var/d.trc", &c, msg, sizeof(msg)), 0);
	assert_string_equal(c.ctl_path, "/var/d.img.ctl");
	assert_string_equal(c.trace_path, "/var/d.trc");
	assert_int_equal(zl_cfgstr_parse("/var/d.img?ctl=/run/zl0.sock", &c, msg, sizeof(msg)), 0);
	assert_string_equal(c.ctl_path, "/run/zl0.sock");
	assert_int_equal(zl_cfgstr_parse("/var/d.img?ctl=0", &c, msg, sizeof(msg)), 0);
	assert_string_equal(c.ctl_path, "");
	assert_int_equal(zl_cfgstr_parse("?store=mem&ctl=/run/m.ctl", &c, msg, sizeof(msg)), 0);
	assert_string_equal(c.ctl_path, "/run/m.ctl");

	REJECT("/d?ctl=zl.sock", "key 'ctl' value 'zl.sock': expected an absolute socket path");
	REJECT("?store=mem&ctl=1", "no image path to put the socket beside");
	REJECT("/d?trace=t.trc", "key 'trace' value 't.trc': expected an absolute path");
	REJECT("/d?ctl=/a&ctl=/b", "key 'ctl' given twice");
	memset(longp, 'a', sizeof(longp));
	snprintf(s, sizeof(s), "/d?ctl=/%.110s", longp);
	REJECT(s, "a Unix socket path holds at most 107");
	snprintf(s, sizeof(s), "/%.105s?ctl=1", longp);
	REJECT(s, ".ctl' is longer than the 107 bytes of a Unix socket path");
	/* an option too long for the parser names its key */
	{
		static char big[1400], cs[1400];

		memset(big, 'a', sizeof(big) - 1);
		big[0] = '/';
		snprintf(cs, sizeof(cs), "/d?trace=%.1250s", big);
		REJECT(cs, "option 'trace' at offset 3 is 1256 bytes; an option holds at most 1199");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cfgstr_defaults_are_documented_ones),
		cmocka_unit_test(test_cfgstr_every_key_is_applied),
		cmocka_unit_test(test_cfgstr_size_suffixes_are_binary),
		cmocka_unit_test(test_cfgstr_rejections_name_key_value_and_reason),
		cmocka_unit_test(test_cfgstr_timing_key),
		cmocka_unit_test(test_cfgstr_geo_image_refuses_every_geometry_key),
		cmocka_unit_test(test_cfgstr_geometry_checks_alignment_and_block_size),
		cmocka_unit_test(test_cfgstr_ctl_and_trace_keys),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
