/*
 * cli.h — shared pieces of the zonelab command: subcommand entry points,
 * the option convention (cli_opt.c) and small argument parsers (sizes
 * with suffixes, LBA ranges, geometry options: cli_util.c).  Parsers print
 * "zonelab: <what>: <why>" to stderr and return -1.
 */
#ifndef ZL_CLI_H
#define ZL_CLI_H

#include <stdbool.h>
#include <stdint.h>

#include "zdisk.h"

/* Subcommands, one cmd_*.c each; every one is built (cli/module.mk), so a
 * missing one fails the link. */
int cmd_disk(int argc, char **argv);
int cmd_sim(int argc, char **argv);
int cmd_timing(int argc, char **argv);
int cmd_ctl(int argc, char **argv);
int cmd_trace(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_collect(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_plot(int argc, char **argv);
/* `zonelab sim`'s getopt table (cli/cmd_sim.c): the scenario keys. */
struct option;
const struct option *cmd_sim_options(void);

/*
 * The option convention of every command (cli_opt.c): getopt_long, so
 * `--opt value` and `--opt=value` both work and `--` ends the options;
 * -h/--help is each command's own; a refused option prints
 * "zonelab CMD: unknown option '--x' (see zonelab HELP --help)" and the
 * command exits 2.
 */
struct cli_opts {
	const char *cmd;                  /* in messages: "disk create", "trace stat" */
	const char *help;                 /* the help pointer: "disk" */
	const char *shortopts;            /* getopt's, without ':'; a leading '+' stops
					   * at the first positional */
	const struct option *longopts;
};
/* Before the first cli_getopt() of an argument vector (restarts getopt). */
void cli_opt_start(void);
/* getopt_long(); '?' after printing the message for a refused option. */
int cli_getopt(int argc, char **argv, const struct cli_opts *c);
/* "zonelab CMD: unexpected argument 'ARG' (see zonelab HELP --help)" */
void cli_unexpected(const struct cli_opts *c, const char *arg);

/* "4096", "4K", "256M", "1G", "2T" (binary) -> bytes.  0 or -1 with a message. */
int cli_parse_bytes(const char *what, const char *s, uint64_t *out);
/* Decimal or 0x hex unsigned integer.  0 or -1 with a message. */
int cli_parse_u64(const char *what, const char *s, uint64_t *out);
/* The same, refusing values above @max (the message gives the range). */
int cli_parse_u64_max(const char *what, const char *s, uint64_t max, uint64_t *out);
/* "A-B" or "A" (inclusive) or "A+N" -> first, count. */
int cli_parse_range(const char *what, const char *s, uint64_t *first, uint64_t *count);
/*
 * Geometry options shared by `disk create` and friends: CLI_GEO_OPTIONS
 * goes into a command's getopt table; cli_geo_opt() takes one option
 * getopt returned: 1 if it was a geometry option (applied to @g), 0 if
 * not, -1 after printing an error.  cli_geo_finish() converts byte sizes
 * to LBAs and validates.
 */
enum {
	CLI_GEO_SIZE = 1000, CLI_GEO_ZONE_SIZE, CLI_GEO_ZONE_CAP, CLI_GEO_GAP_ZONES, CLI_GEO_CONV,
	CLI_GEO_CONV_AT, CLI_GEO_LBA_SIZE, CLI_GEO_PBLOCK_SIZE, CLI_GEO_MODEL, CLI_GEO_MAX_OPEN,
	CLI_GEO_MAX_ACTIVE, CLI_GEO_NO_URSWRZ,
};
#define CLI_GEO_OPTIONS							\
	{ "size", 1, 0, CLI_GEO_SIZE }, { "zone-size", 1, 0, CLI_GEO_ZONE_SIZE },	\
	{ "zone-cap", 1, 0, CLI_GEO_ZONE_CAP }, { "gap-zones", 0, 0, CLI_GEO_GAP_ZONES },	\
	{ "conv", 1, 0, CLI_GEO_CONV }, { "conv-at", 1, 0, CLI_GEO_CONV_AT },		\
	{ "lba-size", 1, 0, CLI_GEO_LBA_SIZE }, { "pblock-size", 1, 0, CLI_GEO_PBLOCK_SIZE }, \
	{ "model", 1, 0, CLI_GEO_MODEL }, { "max-open", 1, 0, CLI_GEO_MAX_OPEN },	\
	{ "max-active", 1, 0, CLI_GEO_MAX_ACTIVE }, { "no-urswrz", 0, 0, CLI_GEO_NO_URSWRZ }

struct cli_geo {
	uint64_t size_bytes, zone_bytes, zcap_bytes;
	uint32_t lba, pblock;
	struct zdev_cfg cfg;
};
void cli_geo_init(struct cli_geo *g);
int cli_geo_opt(struct cli_geo *g, int opt, const char *arg);
/* "--size" for CLI_GEO_SIZE ...; NULL if @opt is not a geometry option. */
const char *cli_geo_name(int opt);
int cli_geo_finish(struct cli_geo *g);
extern const char cli_geo_help[];

#endif
