/*
 * sim_test_util.h — fixtures shared by the simulator's test programs
 * (test_sim.c, test_sim_replay.c): a small configuration and a run to
 * JSON in memory.  Header only; include after <cmocka.h>.
 */
#ifndef SIM_TEST_UTIL_H
#define SIM_TEST_UTIL_H

#include <stdio.h>

#include "sim.h"

/* A small, fast, metadata-heavy configuration. */
static inline void small_cfg(struct sim_cfg *c)
{
	sim_cfg_init(c);
	c->zone_bytes = 1 << 20;
	c->nr_zones = 200;
	c->writes = 100000;
}

static inline char *run_json(const struct sim_cfg *c, struct sim_result *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	sim_run(c, r);
	sim_json(f, c, r);
	fclose(f);
	return buf;
}

#endif /* SIM_TEST_UTIL_H */
