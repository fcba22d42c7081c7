/*
 * zbc_int.h — private to the conformance runner (zbc_steps.c builds and
 * executes the DSL steps, zbc_runner.c evaluates the checks and runs the
 * cases).  Not for targets: they see zbc_cases.h only.
 */
#ifndef ZBC_INT_H
#define ZBC_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "zbc_cases.h"
#include "zl_test.h"

#define MAX_TOK 40
#define SENSE_BUF 64

struct run {
	const struct zbc_target *t;
	const struct zbc_geom *g;
	void *dev;
	uint8_t status;
	uint8_t sense[SENSE_BUF];
	uint8_t *data;          /* last data-in buffer */
	size_t data_len;
	size_t xfer_len;        /* data-in bytes of the last command, as the target reports them */
	char *msg;
	size_t msg_len;
	bool skip;
};

int zr_failf(struct run *r, const char *fmt, ...);
int zr_eval(struct run *r, const char *s, uint64_t *out);
int zr_split(char *s, char **tok);
bool zr_opt_num(struct run *r, char **tok, int n, const char *key, uint64_t *v);
bool zr_opt_flag(char **tok, int n, const char *key);
void zr_pattern(const struct zbc_geom *g, uint64_t lba, uint8_t *b);
int zr_hexbytes(struct run *r, const char *s, uint8_t *out, size_t max, size_t *n);
void zr_sense_kcq(const uint8_t *s, uint8_t *key, uint8_t *asc, uint8_t *ascq);
const char *zr_outcome(uint8_t status, const uint8_t *sense, char *buf, size_t len);
uint8_t zr_exec(struct run *r, const uint8_t *cdb, size_t len, void *buf, size_t buflen, int dir);
void zr_keep_data(struct run *r, uint8_t *buf, size_t len);
uint8_t zr_exec_in(struct run *r, const uint8_t *cdb, size_t len, size_t alloc);
int zr_ctl(struct run *r, enum zbc_ctl op, uint32_t zone, uint8_t cond);
int zr_do_wce(struct run *r, int on);
int zr_open_dev(struct run *r, bool create);
int zr_step(struct run *r, const char *text);

#endif /* ZBC_INT_H */
