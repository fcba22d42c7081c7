/*
 * test_zdev.c — unit tests of the zone model.  The state machine is tested
 * by a table covering every (zone condition x operation) pair; then the ALL
 * variants, open/active limits, boundaries, gap zones, host-aware zones,
 * the runt zone, persistence words and report filters.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <inttypes.h>
#include <cmocka.h>

#include "zdev.h"
#include "zl_test.h"

#define ZS 64u          /* zone size in LBAs */
#define NZ 16u          /* zones */
#define NCONV 2u        /* conventional zones at the start */

static void small_cfg(struct zdev_cfg *c)
{
	zdev_cfg_init(c);
	c->capacity_lba = (uint64_t)ZS * NZ;
	c->zone_size_lba = ZS;
	c->nr_conv_start = NCONV;
}

static int setup(void **state)
{
	struct zdev_cfg c;
	struct zdev *d;

	small_cfg(&c);
	assert_int_equal(zdev_create(&c, &d), 0);
	*state = d;
	return 0;
}

static int teardown(void **state)
{
	zdev_destroy(*state);
	return 0;
}

static uint64_t zstart(uint32_t idx) { return (uint64_t)idx * ZS; }

static uint8_t cond_of(struct zdev *d, uint32_t idx)
{
	struct zl_zone_info zi;

	zdev_zone_get(d, idx, &zi);
	return zi.cond;
}

static uint64_t wp_of(struct zdev *d, uint32_t idx)
{
	struct zl_zone_info zi;

	zdev_zone_get(d, idx, &zi);
	return zi.wp_lba;
}

static void do_write(struct zdev *d, uint64_t lba, uint64_t n)
{
	assert_int_equal(zdev_write_check(d, lba, n), 0);
	zdev_write_commit(d, lba, n);
}

/* Bring zone @idx into @cond; partially written zones hold 8 LBAs. */
static void make_cond(struct zdev *d, uint32_t idx, uint8_t cond)
{
	switch (cond) {
	case ZL_COND_EMPTY:
		break;
	case ZL_COND_IMP_OPEN:
		do_write(d, zstart(idx), 8);
		break;
	case ZL_COND_EXP_OPEN:
		do_write(d, zstart(idx), 8);
		assert_int_equal(zdev_zone_op(d, ZL_ZOP_OPEN, zstart(idx), false), 0);
		break;
	case ZL_COND_CLOSED:
		do_write(d, zstart(idx), 8);
		assert_int_equal(zdev_zone_op(d, ZL_ZOP_CLOSE, zstart(idx), false), 0);
		break;
	case ZL_COND_FULL:
		do_write(d, zstart(idx), 8);
		assert_int_equal(zdev_zone_op(d, ZL_ZOP_FINISH, zstart(idx), false), 0);
		break;
	case ZL_COND_READ_ONLY:
	case ZL_COND_OFFLINE:
		do_write(d, zstart(idx), 8);
		assert_int_equal(zdev_zone_set_cond(d, idx, cond), 0);
		break;
	default:
		fail_msg("no recipe for condition %u", cond);
	}
	assert_int_equal(cond_of(d, idx), cond);
}

/* ---- the (condition x operation) table ------------------------------------ */

enum top {
	T_WRITE_AT_WP, T_WRITE_OFF_WP, T_WRITE_ZERO_LEN, T_READ, T_OPEN, T_CLOSE, T_FINISH, T_RESET,
	T_OPEN_ALL, T_CLOSE_ALL, T_FINISH_ALL, T_RESET_ALL,
};

static const char *const top_name[] = {
	"write@wp", "write!wp", "write0", "read", "open", "close", "finish", "reset",
	"open-all", "close-all", "finish-all", "reset-all",
};

struct trow {
	uint8_t cond;
	enum top op;
	int ret;
	uint8_t cond_after;
	int64_t wp_after;      /* offset from zone start; -1 = invalid WP */
};

#define E ZL_COND_EMPTY
#define IO ZL_COND_IMP_OPEN
#define EO ZL_COND_EXP_OPEN
#define CL ZL_COND_CLOSED
#define FU ZL_COND_FULL
#define RO ZL_COND_READ_ONLY
#define OFF ZL_COND_OFFLINE

static const struct trow table[] = {
	/* EMPTY (wp 0) */
	{ E, T_WRITE_AT_WP, 0, IO, 8 },
	{ E, T_WRITE_OFF_WP, ZL_E_UNALIGNED, E, 0 },
	{ E, T_WRITE_ZERO_LEN, 0, IO, 0 },
	{ E, T_READ, 0, E, 0 },
	{ E, T_OPEN, 0, EO, 0 },
	{ E, T_CLOSE, 0, E, 0 },
	{ E, T_FINISH, 0, FU, ZS },
	{ E, T_RESET, 0, E, 0 },
	/* IMPLICIT OPEN (wp 8) */
	{ IO, T_WRITE_AT_WP, 0, IO, 16 },
	{ IO, T_WRITE_OFF_WP, ZL_E_UNALIGNED, IO, 8 },
	{ IO, T_WRITE_ZERO_LEN, 0, IO, 8 },
	{ IO, T_READ, 0, IO, 8 },
	{ IO, T_OPEN, 0, EO, 8 },
	{ IO, T_CLOSE, 0, CL, 8 },
	{ IO, T_FINISH, 0, FU, ZS },
	{ IO, T_RESET, 0, E, 0 },
	/* EXPLICIT OPEN (wp 8) */
	{ EO, T_WRITE_AT_WP, 0, EO, 16 },
	{ EO, T_WRITE_OFF_WP, ZL_E_UNALIGNED, EO, 8 },
	{ EO, T_WRITE_ZERO_LEN, 0, EO, 8 },
	{ EO, T_READ, 0, EO, 8 },
	{ EO, T_OPEN, 0, EO, 8 },
	{ EO, T_CLOSE, 0, CL, 8 },
	{ EO, T_FINISH, 0, FU, ZS },
	{ EO, T_RESET, 0, E, 0 },
	/* CLOSED (wp 8) */
	{ CL, T_WRITE_AT_WP, 0, IO, 16 },
	{ CL, T_WRITE_OFF_WP, ZL_E_UNALIGNED, CL, 8 },
	{ CL, T_WRITE_ZERO_LEN, 0, IO, 8 },
	{ CL, T_READ, 0, CL, 8 },
	{ CL, T_OPEN, 0, EO, 8 },
	{ CL, T_CLOSE, 0, CL, 8 },
	{ CL, T_FINISH, 0, FU, ZS },
	{ CL, T_RESET, 0, E, 0 },
	/* FULL */
	{ FU, T_WRITE_AT_WP, ZL_E_ZONE_FULL, FU, ZS },
	{ FU, T_WRITE_OFF_WP, ZL_E_ZONE_FULL, FU, ZS },
	{ FU, T_WRITE_ZERO_LEN, ZL_E_ZONE_FULL, FU, ZS },
	{ FU, T_READ, 0, FU, ZS },
	{ FU, T_OPEN, 0, FU, ZS },
	{ FU, T_CLOSE, 0, FU, ZS },
	{ FU, T_FINISH, 0, FU, ZS },
	{ FU, T_RESET, 0, E, 0 },
	/* READ ONLY */
	{ RO, T_WRITE_AT_WP, ZL_E_READ_ONLY, RO, -1 },
	{ RO, T_WRITE_OFF_WP, ZL_E_READ_ONLY, RO, -1 },
	{ RO, T_WRITE_ZERO_LEN, ZL_E_READ_ONLY, RO, -1 },
	{ RO, T_READ, 0, RO, -1 },
	{ RO, T_OPEN, ZL_E_READ_ONLY, RO, -1 },
	{ RO, T_CLOSE, ZL_E_READ_ONLY, RO, -1 },
	{ RO, T_FINISH, ZL_E_READ_ONLY, RO, -1 },
	{ RO, T_RESET, ZL_E_READ_ONLY, RO, -1 },
	/* OFFLINE */
	{ OFF, T_WRITE_AT_WP, ZL_E_OFFLINE, OFF, -1 },
	{ OFF, T_WRITE_OFF_WP, ZL_E_OFFLINE, OFF, -1 },
	{ OFF, T_WRITE_ZERO_LEN, ZL_E_OFFLINE, OFF, -1 },
	{ OFF, T_READ, ZL_E_OFFLINE, OFF, -1 },
	{ OFF, T_OPEN, ZL_E_OFFLINE, OFF, -1 },
	{ OFF, T_CLOSE, ZL_E_OFFLINE, OFF, -1 },
	{ OFF, T_FINISH, ZL_E_OFFLINE, OFF, -1 },
	{ OFF, T_RESET, ZL_E_OFFLINE, OFF, -1 },
	/* ALL variants: READ ONLY and OFFLINE zones are skipped, not errors */
	{ E, T_OPEN_ALL, 0, E, 0 },
	{ E, T_CLOSE_ALL, 0, E, 0 },
	{ E, T_FINISH_ALL, 0, E, 0 },
	{ E, T_RESET_ALL, 0, E, 0 },
	{ IO, T_OPEN_ALL, 0, IO, 8 },
	{ IO, T_CLOSE_ALL, 0, CL, 8 },
	{ IO, T_FINISH_ALL, 0, FU, ZS },
	{ IO, T_RESET_ALL, 0, E, 0 },
	{ EO, T_OPEN_ALL, 0, EO, 8 },
	{ EO, T_CLOSE_ALL, 0, CL, 8 },
	{ EO, T_FINISH_ALL, 0, FU, ZS },
	{ EO, T_RESET_ALL, 0, E, 0 },
	{ CL, T_OPEN_ALL, 0, EO, 8 },
	{ CL, T_CLOSE_ALL, 0, CL, 8 },
	{ CL, T_FINISH_ALL, 0, FU, ZS },
	{ CL, T_RESET_ALL, 0, E, 0 },
	{ FU, T_OPEN_ALL, 0, FU, ZS },
	{ FU, T_CLOSE_ALL, 0, FU, ZS },
	{ FU, T_FINISH_ALL, 0, FU, ZS },
	{ FU, T_RESET_ALL, 0, E, 0 },
	{ RO, T_OPEN_ALL, 0, RO, -1 },
	{ RO, T_CLOSE_ALL, 0, RO, -1 },
	{ RO, T_FINISH_ALL, 0, RO, -1 },
	{ RO, T_RESET_ALL, 0, RO, -1 },
	{ OFF, T_OPEN_ALL, 0, OFF, -1 },
	{ OFF, T_CLOSE_ALL, 0, OFF, -1 },
	{ OFF, T_FINISH_ALL, 0, OFF, -1 },
	{ OFF, T_RESET_ALL, 0, OFF, -1 },
};

static int run_top(struct zdev *d, uint32_t idx, enum top op)
{
	struct zl_zone_info zi;
	uint64_t wp;
	int ret;

	zdev_zone_get(d, idx, &zi);
	wp = zi.wp_lba == ZL_WP_INVALID ? zi.start_lba + 8 : zi.wp_lba;
	switch (op) {
	case T_WRITE_AT_WP:
		if (wp >= zi.start_lba + zi.cap_lba)
			wp = zi.start_lba;      /* FULL: any LBA of the zone */
		ret = zdev_write_check(d, wp, 8);
		if (!ret)
			zdev_write_commit(d, wp, 8);
		return ret;
	case T_WRITE_OFF_WP:
		return zdev_write_check(d, zi.start_lba + 32, 8);
	case T_WRITE_ZERO_LEN:
		if (wp >= zi.start_lba + zi.cap_lba)
			wp = zi.start_lba;
		return zdev_write_check(d, wp, 0);
	case T_READ:
		return zdev_read_check(d, zi.start_lba, ZS);
	case T_OPEN:
		return zdev_zone_op(d, ZL_ZOP_OPEN, zi.start_lba, false);
	case T_CLOSE:
		return zdev_zone_op(d, ZL_ZOP_CLOSE, zi.start_lba, false);
	case T_FINISH:
		return zdev_zone_op(d, ZL_ZOP_FINISH, zi.start_lba, false);
	case T_RESET:
		return zdev_zone_op(d, ZL_ZOP_RESET, zi.start_lba, false);
	case T_OPEN_ALL:
		return zdev_zone_op(d, ZL_ZOP_OPEN, 0, true);
	case T_CLOSE_ALL:
		return zdev_zone_op(d, ZL_ZOP_CLOSE, 0, true);
	case T_FINISH_ALL:
		return zdev_zone_op(d, ZL_ZOP_FINISH, 0, true);
	case T_RESET_ALL:
		return zdev_zone_op(d, ZL_ZOP_RESET, 0, true);
	}
	return -EINVAL;
}

static void test_zdev_state_table_covers_every_condition_and_operation(void **state)
{
	(void)state;
	/* The table holds every (condition, operation) pair exactly once. */
	assert_int_equal(sizeof(table) / sizeof(table[0]), 7 * 12);
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		for (size_t j = 0; j < i; j++)
			assert_false(table[i].cond == table[j].cond && table[i].op == table[j].op);

	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		const struct trow *t = &table[i];
		struct zdev_cfg c;
		struct zdev *d;
		const uint32_t idx = 5;
		int ret;

		small_cfg(&c);
		assert_int_equal(zdev_create(&c, &d), 0);
		make_cond(d, idx, t->cond);
		ret = run_top(d, idx, t->op);
		if (ret != t->ret || cond_of(d, idx) != t->cond_after)
			fail_msg("row %zu: %s on %s: got %d (%s) -> %s, want %d -> %s", i,
				 top_name[t->op], zl_cond_name(t->cond), ret, zl_strerror(ret),
				 zl_cond_name(cond_of(d, idx)), t->ret, zl_cond_name(t->cond_after));
		if (t->wp_after < 0)
			assert_true(wp_of(d, idx) == ZL_WP_INVALID);
		else
			assert_true(wp_of(d, idx) == zstart(idx) + (uint64_t)t->wp_after);
		/* Counters agree with the conditions. */
		assert_int_equal(zdev_nr_imp_open(d), cond_of(d, idx) == IO);
		assert_int_equal(zdev_nr_exp_open(d), cond_of(d, idx) == EO);
		assert_int_equal(zdev_nr_closed(d), cond_of(d, idx) == CL);
		zdev_destroy(d);
	}
}

/* ---- zone operations: addressing ----------------------------------------- */

static void test_zdev_zone_op_on_conventional_zone_is_not_wp_zone(void **state)
{
	struct zdev *d = *state;

	for (int op = ZL_ZOP_CLOSE; op <= ZL_ZOP_RESET; op++)
		assert_int_equal(zdev_zone_op(d, op, zstart(0), false), ZL_E_NOT_WP_ZONE);
}

static void test_zdev_zone_op_not_at_zone_start_is_rejected(void **state)
{
	struct zdev *d = *state;

	assert_int_equal(zdev_zone_op(d, ZL_ZOP_OPEN, zstart(4) + 1, false), ZL_E_NOT_ZONE_START);
	assert_int_equal(zdev_zone_op(d, ZL_ZOP_RESET, zstart(NZ), false), ZL_E_LBA_RANGE);
	assert_int_equal(zdev_zone_op(d, 0, zstart(4), false), -EINVAL);
	assert_int_equal(zdev_zone_op(d, 9, zstart(4), false), -EINVAL);
}

static void test_zdev_close_of_open_zone_at_start_becomes_empty(void **state)
{
	struct zdev *d = *state;

	assert_int_equal(zdev_zone_op(d, ZL_ZOP_OPEN, zstart(3), false), 0);
	assert_int_equal(cond_of(d, 3), EO);
	assert_int_equal(zdev_zone_op(d, ZL_ZOP_CLOSE, zstart(3), false), 0);
	assert_int_equal(cond_of(d, 3), E);
	assert_int_equal(zdev_nr_active(d), 0);
}

/* ---- writes --------------------------------------------------------------- */

static void test_zdev_write_crossing_zone_end_is_boundary_violation(void **state)
{
	struct zdev *d = *state;

	do_write(d, zstart(4), ZS - 8);
	assert_int_equal(zdev_write_check(d, zstart(4) + ZS - 8, 16), ZL_E_WRITE_BOUNDARY);
	assert_int_equal(wp_of(d, 4), zstart(4) + ZS - 8);
	do_write(d, zstart(4) + ZS - 8, 8);
	assert_int_equal(cond_of(d, 4), FU);
	assert_int_equal(zdev_nr_open(d), 0);
}

static void test_zdev_write_conv_to_conv_crosses_but_conv_to_seq_does_not(void **state)
{
	struct zdev *d = *state;

	assert_int_equal(zdev_write_check(d, ZS - 4, 8), 0);
	assert_int_equal(zdev_write_check(d, 2 * ZS - 4, 8), ZL_E_WRITE_BOUNDARY);
	/* a conventional write over two conventional zones into a sequential one */
	assert_int_equal(zdev_write_check(d, 0, 3 * ZS), ZL_E_WRITE_BOUNDARY);
}

static void test_zdev_write_beyond_capacity_is_lba_range(void **state)
{
	struct zdev *d = *state;

	assert_int_equal(zdev_write_check(d, zstart(NZ), 1), ZL_E_LBA_RANGE);
	assert_int_equal(zdev_write_check(d, zstart(NZ) - 1, 2), ZL_E_LBA_RANGE);
	assert_int_equal(zdev_write_check(d, UINT64_MAX, 2), ZL_E_LBA_RANGE);
	assert_int_equal(zdev_read_check(d, zstart(NZ) - 1, UINT64_MAX), ZL_E_LBA_RANGE);
	assert_int_equal(zdev_read_check(d, zstart(NZ), 0), ZL_E_LBA_RANGE);
}

static void test_zdev_commit_of_prefix_moves_wp_only_over_stored_lbas(void **state)
{
	struct zdev *d = *state;

	assert_int_equal(zdev_write_check(d, zstart(6), 32), 0);
	zdev_write_commit(d, zstart(6), 5);         /* a torn write kept 5 LBAs */
	assert_true(wp_of(d, 6) == zstart(6) + 5);
	assert_int_equal(zdev_write_check(d, zstart(6), 32), ZL_E_UNALIGNED);
	assert_int_equal(zdev_write_check(d, zstart(6) + 5, 8), 0);
	/* a failed store commits nothing */
	zdev_write_commit(d, zstart(6) + 5, 0);
	assert_true(wp_of(d, 6) == zstart(6) + 5);
}

static void test_zdev_write_not_physical_block_multiple_is_unaligned(void **state)
{
	struct zdev_cfg c;
	struct zdev *d;

	(void)state;
	small_cfg(&c);
	c.pblock_size = 4096;   /* 8 LBAs per physical block */
	assert_int_equal(zdev_create(&c, &d), 0);
	assert_int_equal(zdev_write_check(d, zstart(3), 4), ZL_E_UNALIGNED);
	assert_int_equal(zdev_write_check(d, zstart(3), 8), 0);
	zdev_destroy(d);
}

/* ---- limits --------------------------------------------------------------- */

static struct zdev *limited(uint32_t max_open, uint32_t max_active)
{
	struct zdev_cfg c;
	struct zdev *d;

	small_cfg(&c);
	c.max_open = max_open;
	c.max_active = max_active;
	assert_int_equal(zdev_create(&c, &d), 0);
	return d;
}

static void test_zdev_implicit_open_at_limit_closes_an_implicitly_open_zone(void **state)
{
	struct zdev *d = limited(2, 0);

	(void)state;
	do_write(d, zstart(2), 8);
	do_write(d, zstart(3), 8);
	assert_int_equal(zdev_nr_open(d), 2);
	do_write(d, zstart(4), 8);
	assert_int_equal(zdev_nr_open(d), 2);
	assert_int_equal(cond_of(d, 2), CL);      /* round-robin: the first one */
	assert_int_equal(cond_of(d, 4), IO);
	do_write(d, zstart(5), 8);
	assert_int_equal(cond_of(d, 3), CL);      /* then the next */
	zdev_destroy(d);
}

static void test_zdev_open_limit_with_only_explicit_opens_is_no_resources(void **state)
{
	struct zdev *d = limited(2, 0);

	(void)state;
	assert_int_equal(zdev_zone_op(d, ZL_ZOP_OPEN, zstart(2), false), 0);
	assert_int_equal(zdev_zone_op(d, ZL_ZOP_OPEN, zstart(3), false), 0);
	assert_int_equal(zdev_write_check(d, zstart(4), 8), ZL_E_NO_RESOURCES);
	assert_int_equal(zdev_zone_op(d, ZL_ZOP_OPEN, zstart(4), false), ZL_E_NO_RESOURCES);
	assert_int_equal(cond_of(d, 4), E);
	/* writes into the open zones still work */
	do_write(d, zstart(2), 8);
	/* an explicit open closes an implicitly open zone when it can */
	assert_int_equal(zdev_zone_op(d, ZL_ZOP_CLOSE, zstart(3), false), 0);
	do_write(d, zstart(5), 8);
	assert_int_equal(cond_of(d, 5), IO);
	assert_int_equal(zdev_zone_op(d, ZL_ZOP_OPEN, zstart(6), false), 0);
	assert_int_equal(cond_of(d, 5), CL);
	assert_int_equal(cond_of(d, 6), EO);
	zdev_destroy(d);
}

static void test_zdev_active_limit_refuses_opening_an_empty_zone(void **state)
{
	struct zdev *d = limited(0, 2);

	(void)state;
	make_cond(d, 2, CL);
	make_cond(d, 3, IO);
	assert_int_equal(zdev_nr_active(d), 2);
	assert_int_equal(zdev_write_check(d, zstart(4), 8), ZL_E_NO_RESOURCES);
	assert_int_equal(zdev_zone_op(d, ZL_ZOP_OPEN, zstart(4), false), ZL_E_NO_RESOURCES);
	/* a closed zone can be reopened: it already holds an active resource */
	do_write(d, zstart(2) + 8, 8);
	assert_int_equal(cond_of(d, 2), IO);
	/* finishing one frees a resource */
	assert_int_equal(zdev_zone_op(d, ZL_ZOP_FINISH, zstart(3), false), 0);
	do_write(d, zstart(4), 8);
	assert_int_equal(zdev_nr_active(d), 2);
	zdev_destroy(d);
}

static void test_zdev_open_all_fails_when_explicit_plus_closed_exceed_limit(void **state)
{
	struct zdev *d = limited(2, 0);

	(void)state;
	make_cond(d, 2, CL);
	make_cond(d, 3, CL);
	make_cond(d, 4, CL);
	assert_int_equal(zdev_zone_op(d, ZL_ZOP_OPEN, 0, true), ZL_E_NO_RESOURCES);
	assert_int_equal(zdev_nr_closed(d), 3);
	assert_int_equal(zdev_zone_op(d, ZL_ZOP_RESET, zstart(4), false), 0);
	do_write(d, zstart(5), 8);        /* implicitly open: closed when needed */
	assert_int_equal(zdev_zone_op(d, ZL_ZOP_OPEN, 0, true), 0);
	assert_int_equal(cond_of(d, 2), EO);
	assert_int_equal(cond_of(d, 3), EO);
	assert_int_equal(cond_of(d, 5), CL);  /* closed implicitly, not reopened */
	assert_int_equal(zdev_nr_open(d), 2);
	zdev_destroy(d);
}

static void test_zdev_all_operations_touch_only_their_conditions(void **state)
{
	struct zdev *d = *state;

	make_cond(d, 2, IO);
	make_cond(d, 3, EO);
	make_cond(d, 4, CL);
	make_cond(d, 5, FU);
	make_cond(d, 6, RO);
	make_cond(d, 7, OFF);
	assert_int_equal(zdev_zone_op(d, ZL_ZOP_CLOSE, 0, true), 0);
	assert_int_equal(cond_of(d, 2), CL);
	assert_int_equal(cond_of(d, 3), CL);
	assert_int_equal(cond_of(d, 8), E);
	assert_int_equal(zdev_zone_op(d, ZL_ZOP_OPEN, 0, true), 0);
	assert_int_equal(cond_of(d, 2), EO);
	assert_int_equal(cond_of(d, 4), EO);
	assert_int_equal(cond_of(d, 8), E);       /* OPEN ALL leaves EMPTY zones */
	assert_int_equal(zdev_zone_op(d, ZL_ZOP_FINISH, 0, true), 0);
	for (uint32_t i = 2; i <= 5; i++)
		assert_int_equal(cond_of(d, i), FU);
	assert_int_equal(cond_of(d, 8), E);       /* FINISH ALL leaves EMPTY zones */
	assert_int_equal(zdev_zone_op(d, ZL_ZOP_RESET, 0, true), 0);
	for (uint32_t i = 2; i <= 5; i++)
		assert_int_equal(cond_of(d, i), E);
	assert_int_equal(cond_of(d, 6), RO);      /* faults are skipped */
	assert_int_equal(cond_of(d, 7), OFF);
	assert_int_equal(cond_of(d, 0), ZL_COND_NOT_WP);
	assert_int_equal(zdev_nr_active(d), 0);
}

/* ---- reads ---------------------------------------------------------------- */

static void test_zdev_read_run_splits_data_and_unwritten(void **state)
{
	struct zdev *d = *state;
	bool data;

	do_write(d, zstart(3), 24);
	assert_int_equal(zdev_read_run(d, zstart(3), ZS, &data), 24);
	assert_true(data);
	assert_int_equal(zdev_read_run(d, zstart(3) + 24, ZS, &data), ZS - 24);
	assert_false(data);
	assert_int_equal(zdev_read_run(d, zstart(0) + 10, 5, &data), 5);
	assert_true(data);
	assert_int_equal(zdev_read_check(d, zstart(3), 2 * ZS), 0);   /* URSWRZ */
}

static void test_zdev_read_across_zone_types_is_cross_type_on_hm(void **state)
{
	struct zdev *d = *state;

	assert_int_equal(zdev_read_check(d, zstart(2) - 4, 8), ZL_E_READ_CROSS_TYPE);
	assert_int_equal(zdev_read_check(d, 0, 2 * ZS), 0);
}

static void test_zdev_read_without_urswrz_checks_wp_and_zone_boundary(void **state)
{
	struct zdev_cfg c;
	struct zdev *d;

	(void)state;
	small_cfg(&c);
	c.urswrz = false;
	assert_int_equal(zdev_create(&c, &d), 0);
	do_write(d, zstart(3), 16);
	assert_int_equal(zdev_read_check(d, zstart(3), 16), 0);
	assert_int_equal(zdev_read_check(d, zstart(3), 17), ZL_E_READ_INVALID);
	make_cond(d, 4, FU);
	assert_int_equal(zdev_read_check(d, zstart(4), ZS), 0);
	assert_int_equal(zdev_read_check(d, zstart(4) + ZS - 8, 16), ZL_E_READ_BOUNDARY);
	zdev_destroy(d);
}

/* zdev_read_prep() (fast path for one zone) answers as read_check + read_run. */
static void check_read_prep(struct zdev *d)
{
	uint64_t cap = zdev_cfg(d)->capacity_lba, zs = zdev_cfg(d)->zone_size_lba;

	for (uint64_t lba = 0; lba <= cap; lba++)
		for (uint64_t n = 0; n <= 2 * zs + 1 && lba + n <= cap + 1; n++) {
			uint64_t run = 7777, want_run;
			bool data = false, want_data = false;
			int ret = zdev_read_prep(d, lba, n, &run, &data);
			int want = zdev_read_check(d, lba, n);

			if (ret != want)
				fail_msg("read_prep(%" PRIu64 ", %" PRIu64 ") = %d, read_check = %d",
					 lba, n, ret, want);
			if (ret)
				continue;
			want_run = zdev_read_run(d, lba, n, &want_data);
			if (run != want_run || data != want_data)
				fail_msg("read_prep(%" PRIu64 ", %" PRIu64 ") run %" PRIu64 " data %d, "
					 "read_run %" PRIu64 " data %d", lba, n, run, data, want_run,
					 want_data);
		}
}

/*
 * zdev_read_common() (the lock-free common read) takes exactly the reads
 * that are all data inside one zone that is not offline: below the write
 * pointer of a sequential zone, or in a conventional one.  Each read it
 * takes, zdev_read_prep() accepts with run = nr_lba and data.  Read-only
 * zones report no write pointer, so there only the agreement is checked
 * (zone 6: 8 LBAs written, checked by the caller).
 */
static void check_read_common(struct zdev *d)
{
	uint64_t cap = zdev_cfg(d)->capacity_lba, zs = zdev_cfg(d)->zone_size_lba;
	unsigned taken = 0, conv = 0;

	for (uint64_t lba = 0; lba <= cap; lba++)
		for (uint64_t n = 0; n <= 2 * zs + 1 && lba + n <= cap + 1; n++) {
			uint64_t prun = 8888;
			bool pdata = false, want;
			bool common = zdev_read_common(d, lba, n);
			int ret = zdev_read_prep(d, lba, n, &prun, &pdata);
			uint32_t idx = lba < cap ? zdev_zone_of(d, lba) : 0;
			struct zl_zone_info zi;

			if (common && (ret || prun != n || !pdata))
				fail_msg("read_common(%" PRIu64 ", %" PRIu64 ") took a read read_prep "
					 "answers %d run %" PRIu64 " data %d", lba, n, ret, prun, pdata);
			taken += common;
			zdev_zone_get(d, idx, &zi);
			if (zi.cond == ZL_COND_READ_ONLY)
				continue;
			want = n && lba < cap && lba + n <= cap && zi.cond != ZL_COND_OFFLINE &&
			       (zi.type == ZL_ZONE_TYPE_CONV ? lba + n <= zi.start_lba + zi.len_lba
							      : lba + n <= zi.wp_lba);
			if (common != want)
				fail_msg("read_common(%" PRIu64 ", %" PRIu64 ") = %d in zone %u "
					 "(cond %#x), want %d", lba, n, common, idx, zi.cond, want);
			conv += common && zi.type == ZL_ZONE_TYPE_CONV;
		}
	assert_true(taken > conv);
	assert_true(conv > 0);
}

static void test_zdev_read_prep_agrees_with_read_check_and_read_run(void **state)
{
	static const struct { bool urswrz, ha; uint64_t cap; bool gap; } v[] = {
		{ true, false, 0, false }, { false, false, 0, false }, { true, false, 48, true },
		{ false, false, 48, false }, { true, true, 48, true }, { false, true, 0, false },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		struct zdev_cfg c;
		struct zdev *d;

		small_cfg(&c);
		c.urswrz = v[i].urswrz;
		c.model = v[i].ha ? ZL_MODEL_HA : ZL_MODEL_HM;
		c.zone_cap_lba = v[i].cap;
		c.gap_zones = v[i].gap;
		assert_int_equal(zdev_create(&c, &d), 0);
		do_write(d, zstart(3), 16);                 /* partly written */
		do_write(d, zstart(4), 8);
		assert_int_equal(zdev_zone_op(d, ZL_ZOP_FINISH, zstart(4), false), 0);
		do_write(d, zstart(6), 8);
		assert_int_equal(zdev_zone_set_cond(d, 6, ZL_COND_READ_ONLY), 0);
		assert_int_equal(zdev_zone_set_cond(d, 7, ZL_COND_OFFLINE), 0);
		assert_int_equal(zdev_zone_set_cond(d, 1, ZL_COND_OFFLINE), 0);
		check_read_prep(d);
		check_read_common(d);
		assert_true(zdev_read_common(d, zstart(6), 8));       /* read-only: the data */
		assert_false(zdev_read_common(d, zstart(6), 9));
		assert_false(zdev_read_common(d, zstart(6) + 8, 1));
		zdev_destroy(d);
	}
}

/* The same over a zone size that is no power of two and a runt last zone. */
static void test_zdev_read_common_exact_with_odd_zone_size_and_runt(void **state)
{
	static const struct { uint64_t zs, cap; } v[] = { { 48, 48 * 12 + 20 }, { 64, 64 * 12 + 9 } };

	(void)state;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		struct zdev_cfg c;
		struct zdev *d;
		uint32_t last;

		zdev_cfg_init(&c);
		c.capacity_lba = v[i].cap;
		c.zone_size_lba = v[i].zs;
		c.nr_conv_start = 1;
		c.model = ZL_MODEL_HM;
		c.urswrz = false;
		assert_int_equal(zdev_create(&c, &d), 0);
		last = zdev_nr_zones(d) - 1;
		assert_int_equal(last, 12);
		do_write(d, 2 * v[i].zs, 16);
		do_write(d, (uint64_t)last * v[i].zs, 8);          /* the runt: partly */
		do_write(d, 5 * v[i].zs, v[i].zs);                   /* full */
		check_read_prep(d);
		check_read_common(d);
		assert_true(zdev_read_common(d, (uint64_t)last * v[i].zs, 8));
		assert_false(zdev_read_common(d, (uint64_t)last * v[i].zs, 9));
		assert_true(zdev_read_common(d, 5 * v[i].zs, v[i].zs));
		zdev_destroy(d);
	}
}

/* ---- gap zones and capacity ----------------------------------------------- */

static struct zdev *capped(bool gap)
{
	struct zdev_cfg c;
	struct zdev *d;

	small_cfg(&c);
	c.zone_cap_lba = 48;
	c.gap_zones = gap;
	assert_int_equal(zdev_create(&c, &d), 0);
	return d;
}

static void test_zdev_gap_zone_access_is_gap_zone_error(void **state)
{
	struct zdev *d = capped(true);

	(void)state;
	assert_int_equal(zdev_write_check(d, zstart(3) + 48, 8), ZL_E_GAP_ZONE);
	assert_int_equal(zdev_read_check(d, zstart(3) + 50, 2), ZL_E_GAP_ZONE);
	assert_int_equal(zdev_read_check(d, zstart(3) + 40, 16), ZL_E_GAP_ZONE);
	assert_int_equal(zdev_read_check(d, zstart(3), 48), 0);
	assert_int_equal(zdev_zone_op(d, ZL_ZOP_RESET, zstart(3) + 48, false), ZL_E_NOT_WP_ZONE);
	do_write(d, zstart(3), 48);
	assert_int_equal(cond_of(d, 3), FU);
	zdev_destroy(d);
}

static void test_zdev_zns_capacity_tail_is_write_boundary(void **state)
{
	struct zdev *d = capped(false);
	struct zl_zone_info zi;

	(void)state;
	assert_int_equal(zdev_write_check(d, zstart(3) + 40, 16), ZL_E_WRITE_BOUNDARY);
	assert_int_equal(zdev_write_check(d, zstart(3) + 48, 8), ZL_E_WRITE_BOUNDARY);
	assert_int_equal(zdev_read_check(d, zstart(3) + 50, 2), 0);
	zdev_zone_get(d, 3, &zi);
	assert_int_equal(zi.len_lba, ZS);
	assert_int_equal(zi.cap_lba, 48);
	assert_int_equal(zdev_zone_op(d, ZL_ZOP_FINISH, zstart(3), false), 0);
	assert_true(wp_of(d, 3) == zstart(3) + 48);
	zdev_destroy(d);
}

static void test_zdev_report_shows_gap_zones_after_capped_zones(void **state)
{
	struct zdev *d = capped(true);
	struct zl_zone_info zi[64];
	uint64_t next;
	int n;

	(void)state;
	n = zdev_report(d, 0, ZL_RO_ALL, zi, 64, &next);
	/* 2 conventional + 14 sequential each followed by a gap */
	assert_int_equal(n, 2 + 14 * 2);
	assert_int_equal(zdev_report_count(d, 0, ZL_RO_ALL), n);
	assert_int_equal(zi[2].type, ZL_ZONE_TYPE_SWR);
	assert_int_equal(zi[2].len_lba, 48);
	assert_int_equal(zi[3].type, ZL_ZONE_TYPE_GAP);
	assert_true(zi[3].start_lba == zstart(2) + 48);
	assert_int_equal(zi[3].len_lba, 16);
	for (int i = 1; i < n; i++)       /* contiguous, no holes */
		assert_true(zi[i].start_lba == zi[i - 1].start_lba + zi[i - 1].len_lba);
	assert_true(next == zstart(NZ));
	assert_int_equal(zdev_report(d, 0, ZL_RO_ALL_BUT_GAP, zi, 64, NULL), 16);
	assert_int_equal(zdev_report_count(d, 0, ZL_RO_ALL_BUT_GAP), 16);
	assert_int_equal(zdev_report(d, 0, ZL_RO_NOT_WP, zi, 64, NULL), 2 + 14);
	assert_int_equal(zdev_report_count(d, 0, ZL_RO_NOT_WP), 16);
	/* start inside a gap: the gap zone comes first */
	n = zdev_report(d, zstart(5) + 50, ZL_RO_ALL, zi, 2, &next);
	assert_int_equal(n, 2);
	assert_int_equal(zi[0].type, ZL_ZONE_TYPE_GAP);
	assert_true(zi[1].start_lba == zstart(6));
	assert_true(next == zstart(6) + 48);
	assert_int_equal(zdev_report_count(d, zstart(5) + 50, ZL_RO_ALL), 1 + 10 * 2);
	zdev_destroy(d);
}

/* ---- host-aware ----------------------------------------------------------- */

static void test_zdev_host_aware_write_off_wp_sets_non_seq(void **state)
{
	struct zdev_cfg c;
	struct zdev *d;
	struct zl_zone_info zi;

	(void)state;
	small_cfg(&c);
	c.model = ZL_MODEL_HA;
	c.max_open = 1;
	assert_int_equal(zdev_create(&c, &d), 0);
	do_write(d, zstart(3) + 16, 8);
	zdev_zone_get(d, 3, &zi);
	assert_int_equal(zi.type, ZL_ZONE_TYPE_SWP);
	assert_true(zi.non_seq);
	assert_true(zi.wp_lba == zstart(3) + 24);
	/* a write across two SWP zones is accepted; limits do not apply */
	do_write(d, zstart(5) - 8, 16);
	assert_int_equal(cond_of(d, 4), FU);
	assert_int_equal(cond_of(d, 5), IO);
	assert_true(wp_of(d, 5) == zstart(5) + 8);
	assert_int_equal(zdev_report_count(d, 0, ZL_RO_NON_SEQ), 2);   /* 3, and 4 (not at its WP) */
	assert_int_equal(zdev_zone_op(d, ZL_ZOP_RESET, zstart(3), false), 0);
	assert_int_equal(zdev_report(d, 0, ZL_RO_NON_SEQ, &zi, 1, NULL), 1);
	assert_true(zi.start_lba == zstart(4));
	assert_true(zi.non_seq);
	/* FINISH of a FULL zone clears NON_SEQ */
	assert_int_equal(zdev_zone_op(d, ZL_ZOP_FINISH, zstart(4), false), 0);
	assert_int_equal(zdev_report_count(d, 0, ZL_RO_NON_SEQ), 0);
	zdev_destroy(d);
}

/* ---- runt zone, conventional ranges --------------------------------------- */

static void test_zdev_runt_last_zone_is_shorter_and_fills(void **state)
{
	struct zdev_cfg c;
	struct zdev *d;
	struct zl_zone_info zi;

	(void)state;
	small_cfg(&c);
	c.capacity_lba = ZS * 4 + 16;
	c.nr_conv_start = 0;
	assert_int_equal(zdev_create(&c, &d), 0);
	assert_int_equal(zdev_nr_zones(d), 5);
	zdev_zone_get(d, 4, &zi);
	assert_int_equal(zi.len_lba, 16);
	assert_int_equal(zi.cap_lba, 16);
	assert_int_equal(zdev_write_check(d, zstart(4), 24), ZL_E_LBA_RANGE);
	do_write(d, zstart(4), 16);
	assert_int_equal(cond_of(d, 4), FU);
	zdev_destroy(d);
}

static void test_zdev_conventional_ranges_anywhere(void **state)
{
	struct zdev_cfg c;
	struct zdev *d;
	struct zl_zone_info zi[16];

	(void)state;
	small_cfg(&c);
	c.nr_conv_start = 0;
	c.nr_conv_ranges = 2;
	c.conv_ranges[0] = (struct zdev_range){ 5, 2 };
	c.conv_ranges[1] = (struct zdev_range){ 15, 1 };
	assert_int_equal(zdev_create(&c, &d), 0);
	assert_int_equal(zdev_report(d, 0, ZL_RO_NOT_WP, zi, 16, NULL), 3);
	assert_true(zi[0].start_lba == zstart(5));
	assert_true(zi[2].start_lba == zstart(15));
	assert_int_equal(zdev_write_check(d, zstart(5) + 3, 70), 0);    /* conv -> conv */
	assert_int_equal(zdev_write_check(d, zstart(7) - 4, 8), ZL_E_WRITE_BOUNDARY);
	zdev_destroy(d);
}

static void test_zdev_faulted_conventional_zone_leaves_not_wp_and_comes_back(void **state)
{
	struct zdev *d = *state;
	struct zl_zone_info zi[NZ];
	uint64_t next;

	assert_int_equal(zdev_zone_set_cond(d, 0, ZL_COND_OFFLINE), 0);
	assert_int_equal(zdev_write_check(d, zstart(0), 8), ZL_E_OFFLINE);
	assert_int_equal(zdev_report(d, 0, ZL_RO_NOT_WP, zi, NZ, &next), 1);
	assert_true(zi[0].start_lba == zstart(1));
	assert_int_equal(zdev_report_count(d, 0, ZL_RO_NOT_WP), 1);
	assert_int_equal(zdev_report(d, 0, ZL_RO_OFFLINE, zi, NZ, NULL), 1);
	assert_true(zi[0].start_lba == zstart(0));
	assert_true(zi[0].wp_lba == ZL_WP_INVALID);
	/* a conventional zone has no RESET recommended attribute */
	assert_int_equal(zdev_zone_set_reset_rec(d, 1, true), ZL_E_NOT_WP_ZONE);
	assert_int_equal(zdev_zone_set_cond(d, 0, ZL_COND_EMPTY), -EINVAL);
	assert_int_equal(zdev_zone_set_cond(d, NZ, ZL_COND_OFFLINE), -EINVAL);
	/* cleared: NOT WP again, in the report too; a restored word likewise */
	assert_int_equal(zdev_zone_clear_fault(d, 0), 0);
	assert_int_equal(cond_of(d, 0), ZL_COND_NOT_WP);
	assert_int_equal(zdev_report_count(d, 0, ZL_RO_NOT_WP), NCONV);
	assert_int_equal(zdev_report_count(d, 0, ZL_RO_OFFLINE), 0);
	assert_int_equal(zdev_zone_set_cond(d, 1, ZL_COND_READ_ONLY), 0);
	{
		struct zdev_cfg c;
		struct zdev *d2;

		small_cfg(&c);
		assert_int_equal(zdev_create(&c, &d2), 0);
		assert_int_equal(zdev_zone_unpack(d2, 1, zdev_zone_pack(d, 1)), 0);
		assert_int_equal(zdev_report(d2, 0, ZL_RO_NOT_WP, zi, NZ, NULL), 1);
		assert_true(zi[0].start_lba == zstart(0));
		assert_int_equal(zdev_report_count(d2, 0, ZL_RO_READ_ONLY), 1);
		assert_int_equal(zdev_zone_clear_fault(d2, 1), 0);
		assert_int_equal(zdev_report_count(d2, 0, ZL_RO_NOT_WP), NCONV);
		zdev_destroy(d2);
	}
}

/* ---- report filters ------------------------------------------------------- */

static void test_zdev_report_filters_return_only_matching_zones(void **state)
{
	struct zdev *d = *state;
	struct zl_zone_info zi[NZ];
	static const struct { uint8_t cond; enum zl_report_opt opt; } m[] = {
		{ IO, ZL_RO_IMP_OPEN }, { EO, ZL_RO_EXP_OPEN }, { CL, ZL_RO_CLOSED },
		{ FU, ZL_RO_FULL }, { RO, ZL_RO_READ_ONLY }, { OFF, ZL_RO_OFFLINE },
	};
	uint64_t next;

	for (size_t i = 0; i < 6; i++)
		make_cond(d, (uint32_t)(3 + 2 * i), m[i].cond);
	for (size_t i = 0; i < 6; i++) {
		assert_int_equal(zdev_report(d, 0, m[i].opt, zi, NZ, NULL), 1);
		assert_true(zi[0].start_lba == zstart(3 + 2 * i));
		assert_int_equal(zi[0].cond, m[i].cond);
		assert_int_equal(zdev_report_count(d, 0, m[i].opt), 1);
		/* starting past it finds nothing */
		assert_int_equal(zdev_report(d, zstart(4 + 2 * i), m[i].opt, zi, NZ, &next), 0);
		assert_true(next == zstart(NZ));
	}
	assert_int_equal(zdev_report(d, 0, ZL_RO_EMPTY, zi, NZ, NULL), NZ - NCONV - 6);
	assert_int_equal(zdev_report(d, 0, ZL_RO_NOT_WP, zi, NZ, NULL), NCONV);
	assert_int_equal(zdev_report(d, 0, ZL_RO_INACTIVE, zi, NZ, NULL), 0);
	assert_int_equal(zdev_report(d, 0, ZL_RO_ALL, zi, NZ, NULL), NZ);
	assert_int_equal(zdev_zone_set_reset_rec(d, 9, true), 0);
	assert_int_equal(zdev_report(d, 0, ZL_RO_RWP_RECOMMENDED, zi, NZ, NULL), 1);
	assert_true(zi[0].reset_rec);
	assert_int_equal(zdev_report(d, 0, 0x12, zi, NZ, NULL), -EINVAL);
	assert_int_equal(zdev_report(d, zstart(NZ), ZL_RO_ALL, zi, NZ, NULL), ZL_E_LBA_RANGE);
}

static void test_zdev_report_resumes_from_next(void **state)
{
	struct zdev *d = *state;
	struct zl_zone_info zi[3];
	uint64_t lba = 0, next;
	uint32_t seen = 0;
	int n;

	while (lba < zstart(NZ)) {
		n = zdev_report(d, lba, ZL_RO_ALL, zi, 3, &next);
		assert_true(n > 0);
		for (int i = 0; i < n; i++)
			assert_true(zi[i].start_lba == zstart(seen + (uint32_t)i));
		seen += (uint32_t)n;
		lba = next;
	}
	assert_int_equal(seen, NZ);
	assert_int_equal(zdev_report_count(d, zstart(4) + 7, ZL_RO_ALL), NZ - 4);
}

/* ---- persistence words ---------------------------------------------------- */

static void test_zdev_pack_unpack_round_trip_and_open_comes_back_closed(void **state)
{
	struct zdev *d = *state, *d2;
	struct zdev_cfg c;
	uint64_t w;

	make_cond(d, 2, IO);
	make_cond(d, 3, EO);
	make_cond(d, 4, CL);
	make_cond(d, 5, FU);
	make_cond(d, 6, RO);
	make_cond(d, 7, OFF);
	assert_int_equal(zdev_zone_op(d, ZL_ZOP_OPEN, zstart(8), false), 0);
	small_cfg(&c);
	assert_int_equal(zdev_create(&c, &d2), 0);
	for (uint32_t i = 0; i < NZ; i++)
		assert_int_equal(zdev_zone_unpack(d2, i, zdev_zone_pack(d, i)), 0);
	assert_int_equal(cond_of(d2, 2), CL);
	assert_int_equal(cond_of(d2, 3), CL);
	assert_int_equal(cond_of(d2, 4), CL);
	assert_int_equal(cond_of(d2, 5), FU);
	assert_int_equal(cond_of(d2, 6), RO);
	assert_int_equal(cond_of(d2, 7), OFF);
	assert_int_equal(cond_of(d2, 8), E);          /* open at start -> EMPTY */
	assert_true(wp_of(d2, 2) == zstart(2) + 8);
	assert_int_equal(zdev_nr_closed(d2), 3);
	assert_int_equal(zdev_nr_open(d2), 0);
	/* corruption of any bit is detected; a zero word is never valid */
	w = zdev_zone_pack(d, 4);
	for (int bit = 0; bit < 64; bit++)
		assert_int_equal(zdev_zone_unpack(d2, 4, w ^ (1ull << bit)), ZL_E_CORRUPT);
	assert_int_equal(zdev_zone_unpack(d2, 4, 0), ZL_E_CORRUPT);
	/* a word is bound to its zone index */
	assert_int_equal(zdev_zone_unpack(d2, 9, zdev_zone_pack(d, 4)), ZL_E_CORRUPT);
	/* a conventional zone's word restores it */
	assert_int_equal(zdev_zone_unpack(d2, 0, zdev_zone_pack(d, 0)), 0);
	assert_int_equal(cond_of(d2, 0), ZL_COND_NOT_WP);
	zdev_destroy(d2);
	/* a word of the other zone type (same index, valid check) is refused */
	small_cfg(&c);
	c.nr_conv_start = 3;
	assert_int_equal(zdev_create(&c, &d2), 0);
	assert_int_equal(zdev_zone_unpack(d2, 2, zdev_zone_pack(d, 2)), ZL_E_CORRUPT);
	assert_int_equal(zdev_zone_unpack(d, 2, zdev_zone_pack(d2, 2)), ZL_E_CORRUPT);
	assert_int_equal(cond_of(d2, 2), ZL_COND_NOT_WP);
	assert_int_equal(cond_of(d, 2), IO);
	zdev_destroy(d2);
}

/* ---- geometry ------------------------------------------------------------- */

static void test_zdev_cfg_check_rejects_bad_geometry_with_reason(void **state)
{
	struct zdev_cfg c;
	char msg[256];

	(void)state;
#define BAD(stmt, word) do { small_cfg(&c); stmt; \
		assert_int_equal(zdev_cfg_check(&c, msg, sizeof(msg)), ZL_E_GEOMETRY); \
		if (!strstr(msg, word)) fail_msg("message '%s' lacks '%s'", msg, word); } while (0)
	BAD(c.lba_size = 1024, "logical block size 1024");
	BAD(c.pblock_size = 8192, "physical block size 8192");
	BAD((c.lba_size = 4096, c.pblock_size = 512), "smaller than the logical");
	BAD(c.capacity_lba = 0, "capacity is 0");
	BAD((c.pblock_size = 4096, c.capacity_lba = 1001), "capacity 1001 LBAs is not a multiple");
	BAD(c.zone_size_lba = 0, "zone size is 0");
	BAD((c.pblock_size = 4096, c.zone_size_lba = 12), "zone size 12 LBAs is not a multiple");
	BAD(c.zone_cap_lba = ZS + 8, "exceeds the zone size");
	BAD(c.nr_conv_start = NZ + 1, "conventional zones at the start");
	BAD((c.nr_conv_ranges = 1, c.conv_ranges[0] = (struct zdev_range){ 15, 2 }), "ends past the last zone");
	BAD((c.nr_conv_ranges = 1, c.conv_ranges[0] = (struct zdev_range){ 3, 0 }), "is empty");
	BAD(c.nr_conv_ranges = ZDEV_MAX_CONV_RANGES + 1, "conventional zone ranges");
	BAD((c.max_open = 4, c.max_active = 2), "exceeds max active");
	BAD(c.model = 7, "unknown zone model");
	BAD(c.zone_size_lba = 1ull << 33, "above the model's limit");
#undef BAD
	/* a non-power-of-two zone size is the kernel's rule, not the model's */
	small_cfg(&c);
	c.zone_size_lba = 96;
	c.capacity_lba = 96 * 10 + 32;
	assert_int_equal(zdev_cfg_check(&c, msg, sizeof(msg)), 0);
	{
		struct zdev *d;

		assert_int_equal(zdev_create(&c, &d), 0);
		assert_int_equal(zdev_nr_zones(d), 11);
		assert_int_equal(zdev_zone_of(d, 96 * 3 + 5), 3);
		zdev_destroy(d);
	}
	small_cfg(&c);
	c.capacity_lba = 0;
	{
		struct zdev *d = (struct zdev *)0x1;

		assert_int_equal(zdev_create(&c, &d), ZL_E_GEOMETRY);
		assert_true(d == (struct zdev *)0x1);     /* *out untouched on failure */
	}
	zdev_destroy(NULL);
}

/* ---- change notifications -------------------------------------------------- */

static uint32_t changed_log[64];
static uint8_t changed_old[64];
static uint32_t nr_changed;

static void on_changed(void *arg, uint32_t idx, uint8_t old_cond)
{
	(void)arg;
	if (nr_changed < 64) {
		changed_log[nr_changed] = idx;
		changed_old[nr_changed] = old_cond;
	}
	nr_changed++;
}

static void test_zdev_change_callback_names_every_changed_zone(void **state)
{
	struct zdev *d = limited(1, 0);

	(void)state;
	nr_changed = 0;
	zdev_set_changed_cb(d, on_changed, NULL);
	do_write(d, zstart(2), 8);                  /* open, then commit */
	assert_int_equal(nr_changed, 2);
	assert_int_equal(changed_log[0], 2);
	assert_int_equal(changed_old[0], ZL_COND_EMPTY);
	assert_int_equal(changed_log[1], 2);
	assert_int_equal(changed_old[1], ZL_COND_IMP_OPEN);
	nr_changed = 0;
	do_write(d, zstart(3), 8);                  /* implicitly closes zone 2 */
	assert_int_equal(nr_changed, 3);
	assert_int_equal(changed_log[0], 2);
	assert_int_equal(changed_old[0], ZL_COND_IMP_OPEN);   /* what it was before */
	assert_int_equal(changed_log[1], 3);
	assert_int_equal(changed_old[1], ZL_COND_EMPTY);
	assert_int_equal(changed_log[2], 3);
	nr_changed = 0;
	/* a refused write and a no-op operation notify nothing */
	assert_int_equal(zdev_write_check(d, zstart(3), 8), ZL_E_UNALIGNED);
	assert_int_equal(zdev_zone_op(d, ZL_ZOP_RESET, zstart(4), false), 0);
	assert_int_equal(zdev_zone_op(d, ZL_ZOP_CLOSE, zstart(2), false), 0);
	assert_int_equal(nr_changed, 0);
	assert_int_equal(zdev_zone_op(d, ZL_ZOP_RESET, 0, true), 0);
	assert_int_equal(nr_changed, 2);
	assert_int_equal(changed_log[0], 3);        /* the open one, then the closed one */
	assert_int_equal(changed_old[0], ZL_COND_IMP_OPEN);
	assert_int_equal(changed_log[1], 2);
	assert_int_equal(changed_old[1], ZL_COND_CLOSED);
	zdev_destroy(d);
}

/* ---- scale ---------------------------------------------------------------- */

static void test_zdev_million_zones_small_memory(void **state)
{
	struct zdev_cfg c;
	struct zdev *d;
	struct zl_zone_info zi;

	(void)state;
	zdev_cfg_init(&c);
	c.capacity_lba = (1ull << 40) / 512;       /* 1 TiB */
	c.zone_size_lba = (1ull << 20) / 512;      /* 1 MiB zones */
	assert_int_equal(zdev_create(&c, &d), 0);
	assert_int_equal(zdev_nr_zones(d), 1u << 20);
	/* documented in docs/ZONE-MODEL.md: under 10 bytes per zone */
	assert_true(zdev_mem_bytes(d) < 10ull * (1u << 20));
	do_write(d, (uint64_t)((1u << 20) - 1) * 2048, 8);
	assert_int_equal(zdev_report(d, 0, ZL_RO_IMP_OPEN, &zi, 1, NULL), 1);
	assert_true(zi.start_lba == (uint64_t)((1u << 20) - 1) * 2048);
	zdev_destroy(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zdev_state_table_covers_every_condition_and_operation),
		cmocka_unit_test_setup_teardown(test_zdev_zone_op_on_conventional_zone_is_not_wp_zone, setup, teardown),
		cmocka_unit_test_setup_teardown(test_zdev_zone_op_not_at_zone_start_is_rejected, setup, teardown),
		cmocka_unit_test_setup_teardown(test_zdev_close_of_open_zone_at_start_becomes_empty, setup, teardown),
		cmocka_unit_test_setup_teardown(test_zdev_write_crossing_zone_end_is_boundary_violation, setup, teardown),
		cmocka_unit_test_setup_teardown(test_zdev_write_conv_to_conv_crosses_but_conv_to_seq_does_not, setup, teardown),
		cmocka_unit_test_setup_teardown(test_zdev_write_beyond_capacity_is_lba_range, setup, teardown),
		cmocka_unit_test_setup_teardown(test_zdev_commit_of_prefix_moves_wp_only_over_stored_lbas, setup, teardown),
		cmocka_unit_test(test_zdev_write_not_physical_block_multiple_is_unaligned),
		cmocka_unit_test(test_zdev_implicit_open_at_limit_closes_an_implicitly_open_zone),
		cmocka_unit_test(test_zdev_open_limit_with_only_explicit_opens_is_no_resources),
		cmocka_unit_test(test_zdev_active_limit_refuses_opening_an_empty_zone),
		cmocka_unit_test(test_zdev_open_all_fails_when_explicit_plus_closed_exceed_limit),
		cmocka_unit_test_setup_teardown(test_zdev_all_operations_touch_only_their_conditions, setup, teardown),
		cmocka_unit_test_setup_teardown(test_zdev_read_run_splits_data_and_unwritten, setup, teardown),
		cmocka_unit_test_setup_teardown(test_zdev_read_across_zone_types_is_cross_type_on_hm, setup, teardown),
		cmocka_unit_test(test_zdev_read_without_urswrz_checks_wp_and_zone_boundary),
		cmocka_unit_test(test_zdev_read_prep_agrees_with_read_check_and_read_run),
		cmocka_unit_test(test_zdev_read_common_exact_with_odd_zone_size_and_runt),
		cmocka_unit_test(test_zdev_gap_zone_access_is_gap_zone_error),
		cmocka_unit_test(test_zdev_zns_capacity_tail_is_write_boundary),
		cmocka_unit_test(test_zdev_report_shows_gap_zones_after_capped_zones),
		cmocka_unit_test(test_zdev_host_aware_write_off_wp_sets_non_seq),
		cmocka_unit_test(test_zdev_runt_last_zone_is_shorter_and_fills),
		cmocka_unit_test(test_zdev_conventional_ranges_anywhere),
		cmocka_unit_test_setup_teardown(test_zdev_faulted_conventional_zone_leaves_not_wp_and_comes_back, setup, teardown),
		cmocka_unit_test_setup_teardown(test_zdev_report_filters_return_only_matching_zones, setup, teardown),
		cmocka_unit_test_setup_teardown(test_zdev_report_resumes_from_next, setup, teardown),
		cmocka_unit_test_setup_teardown(test_zdev_pack_unpack_round_trip_and_open_comes_back_closed, setup, teardown),
		cmocka_unit_test(test_zdev_cfg_check_rejects_bad_geometry_with_reason),
		cmocka_unit_test(test_zdev_change_callback_names_every_changed_zone),
		cmocka_unit_test(test_zdev_million_zones_small_memory),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
