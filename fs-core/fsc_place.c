/*
 * fsc_place.c — placement: which data log (stream, one open block group
 * each) a write goes to.  One row per policy; the policies are small
 * enough to share this file (each is its row's function).  Streams: 0 =
 * the default / hot log, 1 = the cold log, 2 = the relocation log.
 * Relocated data goes to stream 2 with reloc=1, else back into the log of
 * the block group it came from.  Metadata and system block groups keep
 * their own logs.  docs/POLICIES.md.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsc_int.h"
#include "zl_err.h"

enum { S_HOT = 0, S_COLD = 1, S_RELOC = 2 };

static uint32_t place_one(struct fsc *fs, uint64_t lbn, uint32_t hint)
{
	(void)fs;
	(void)lbn;
	(void)hint;
	return S_HOT;
}

/* RWH_WRITE_LIFE_LONG / EXTREME are cold; NOT_SET, NONE, SHORT, MEDIUM hot. */
static uint32_t place_hint(struct fsc *fs, uint64_t lbn, uint32_t hint)
{
	(void)fs;
	(void)lbn;
	return hint >= FSC_HINT_LONG ? S_COLD : S_HOT;
}

/* Hot when the data replaced was written fewer than age_writes user
 * writes ago; first writes (nothing replaced) are cold. */
static uint32_t place_freq(struct fsc *fs, uint64_t lbn, uint32_t hint)
{
	uint64_t last = fs->last_write[lbn], age = fs->cfg.place_params.age_writes;

	(void)hint;
	fs->last_write[lbn] = ++fs->nr_user_writes;
	if (!age)
		age = fs->nr_file_blocks;
	return last && fs->nr_user_writes - last <= age ? S_HOT : S_COLD;
}

static const struct place_row {
	const char *name;
	uint32_t (*user)(struct fsc *fs, uint64_t lbn, uint32_t hint);
	uint32_t nr_user_logs;
	bool force_reloc;
} place_table[FSC_NR_PLACE] = {
	[FSC_PLACE_ONE_LOG] = { "one-log", place_one, 1, false },
	[FSC_PLACE_RELOC] = { "reloc", place_one, 1, true },
	[FSC_PLACE_HINT] = { "hint", place_hint, 2, false },
	[FSC_PLACE_FREQ] = { "freq", place_freq, 2, false },
};

const char *const fsc_place_names[FSC_NR_PLACE + 1] = { "one-log", "reloc", "hint", "freq",
							NULL };

void fsc_place_params_init(struct fsc_place_params *p)
{
	memset(p, 0, sizeof(*p));
}

static bool reloc_on(enum fsc_placement place, const struct fsc_place_params *p)
{
	return place_table[place].force_reloc || p->reloc;
}

uint32_t fsc_place_nr_logs(enum fsc_placement place, const struct fsc_place_params *p)
{
	if ((unsigned)place >= FSC_NR_PLACE)
		return 0;
	return place_table[place].nr_user_logs + reloc_on(place, p);
}

uint32_t fsc_place_user(struct fsc *fs, uint64_t lbn, uint32_t hint)
{
	return place_table[fs->cfg.place].user(fs, lbn, hint);
}

uint32_t fsc_place_reloc(const struct fsc *fs, const struct fsc_bg *src)
{
	if (src->type != FSC_BG_DATA)
		return 0;
	return reloc_on(fs->cfg.place, &fs->cfg.place_params) ? S_RELOC : src->stream;
}

int fsc_place_init(struct fsc *fs)
{
	if ((unsigned)fs->cfg.place >= FSC_NR_PLACE)
		return -EINVAL;
	if (fs->cfg.place == FSC_PLACE_FREQ && fs->nr_file_blocks) {
		fs->last_write = calloc(fs->nr_file_blocks, sizeof(*fs->last_write));
		if (!fs->last_write)
			return -ENOMEM;
	}
	return 0;
}

int fsc_place_parse(const char *spec, enum fsc_placement *place, struct fsc_place_params *p,
		    char *msg, size_t msg_len)
{
	char buf[128], *colon, *tok, *save = NULL;
	struct fsc_place_params pp;
	int pl = -1, k;

	if (!spec || strlen(spec) >= sizeof(buf)) {
		zl_msgf(msg, msg_len, "--placement: a policy name is needed");
		return -EINVAL;
	}
	strcpy(buf, spec);
	colon = strchr(buf, ':');
	if (colon)
		*colon++ = '\0';
	for (k = 0; fsc_place_names[k]; k++)
		if (!strcmp(fsc_place_names[k], buf))
			pl = k;
	if (pl < 0) {
		zl_msgf(msg, msg_len, "--placement %s: unknown policy (one of: one-log, reloc, hint, "
			"freq)", buf);
		return -EINVAL;
	}
	fsc_place_params_init(&pp);
	for (tok = colon ? strtok_r(colon, ",", &save) : NULL; tok;
	     tok = strtok_r(NULL, ",", &save)) {
		char *end;
		unsigned long long v;

		errno = 0;
		if (!strncmp(tok, "reloc=", 6) && (!strcmp(tok + 6, "0") || !strcmp(tok + 6, "1"))) {
			pp.reloc = tok[6] == '1';
			continue;
		}
		if (!strncmp(tok, "age=", 4) && pl == FSC_PLACE_FREQ && tok[4] && tok[4] != '-') {
			v = strtoull(tok + 4, &end, 10);
			if (!errno && !*end) {
				pp.age_writes = v;
				continue;
			}
		}
		zl_msgf(msg, msg_len, "--placement %s: bad parameter \"%s\" (%s takes reloc=0|1%s)",
			spec, tok, fsc_place_names[pl],
			pl == FSC_PLACE_FREQ ? ", age=N (user writes; 0 = the file's blocks)" : "");
		return -EINVAL;
	}
	*place = (enum fsc_placement)pl;
	*p = pp;
	return 0;
}

void fsc_place_spec(enum fsc_placement place, const struct fsc_place_params *p, char *buf,
		    size_t len)
{
	if ((unsigned)place >= FSC_NR_PLACE) {
		snprintf(buf, len, "?");
		return;
	}
	if (place == FSC_PLACE_FREQ)
		snprintf(buf, len, "%s:reloc=%d,age=%llu", fsc_place_names[place], p->reloc,
			 (unsigned long long)p->age_writes);
	else if (place == FSC_PLACE_RELOC)
		snprintf(buf, len, "%s", fsc_place_names[place]);
	else
		snprintf(buf, len, "%s:reloc=%d", fsc_place_names[place], p->reloc);
}
