/*
 * cli.h — shared pieces of the zonelab command: subcommand entry points and
 * small argument parsers (sizes with suffixes, LBA ranges, geometry
 * options).  Parsers print "zonelab: <what>: <why>" to stderr and return -1.
 */
#ifndef ZL_CLI_H
#define ZL_CLI_H

#include <stdbool.h>
#include <stdint.h>

#include "zdisk.h"

/* Subcommands.  Optional ones are weak: absent when their module is not built. */
int cmd_disk(int argc, char **argv);
int cmd_sim(int argc, char **argv) __attribute__((weak));
int cmd_ctl(int argc, char **argv) __attribute__((weak));
int cmd_trace(int argc, char **argv) __attribute__((weak));
int cmd_run(int argc, char **argv) __attribute__((weak));
int cmd_collect(int argc, char **argv) __attribute__((weak));
int cmd_compare(int argc, char **argv) __attribute__((weak));
int cmd_plot(int argc, char **argv) __attribute__((weak));
/* `zonelab sim`'s getopt table (cli/cmd_sim.c): the scenario keys. */
struct option;
const struct option *cmd_sim_options(void) __attribute__((weak));

/* "4096", "4K", "256M", "1G", "2T" (binary) -> bytes.  0 or -1 with a message. */
int cli_parse_bytes(const char *what, const char *s, uint64_t *out);
/* Decimal or 0x hex unsigned integer.  0 or -1 with a message. */
int cli_parse_u64(const char *what, const char *s, uint64_t *out);
/* The same, refusing values above @max (the message gives the range). */
int cli_parse_u64_max(const char *what, const char *s, uint64_t max, uint64_t *out);
/* "A-B" or "A" (inclusive) or "A+N" -> first, count. */
int cli_parse_range(const char *what, const char *s, uint64_t *first, uint64_t *count);
/* 0 if option argv[i] has a value after it, else -1 with a message. */
int cli_need_value(int argc, char **argv, int i);

/*
 * Geometry options shared by `disk create` and friends.  cli_geo_opt()
 * consumes one option (and its value) if it is a geometry option: returns
 * the number of argv entries used (1 or 2), 0 if not a geometry option, or
 * -1 after printing an error.  cli_geo_finish() converts byte sizes to LBAs
 * and validates.
 */
struct cli_geo {
	uint64_t size_bytes, zone_bytes, zcap_bytes;
	uint32_t lba, pblock;
	struct zdev_cfg cfg;
};
void cli_geo_init(struct cli_geo *g);
int cli_geo_opt(struct cli_geo *g, int argc, char **argv, int i);
int cli_geo_finish(struct cli_geo *g);
extern const char cli_geo_help[];

#endif
