/*
 * zscsi_cmd.c — the helpers every command uses, below the handlers: data-in
 * and data-out over the caller's iovec, the flat view of a buffer, and
 * zscsi_finish(), the end of every command (the unfilled tail of a data-in
 * buffer zeroed, sense kept for REQUEST SENSE, a power-loss unit attention
 * counted as reported).
 *
 * It calls no handler and no dispatch: the edges go dispatch -> handlers ->
 * this file (and zscsi_sense.c).  It parses no CDB beyond the opcode byte
 * zscsi_finish() needs.
 */
#include <string.h>

#include "zscsi_int.h"

void zscsi_data_in(struct zscsi_cmd *c, const void *src, size_t len)
{
	const uint8_t *p = src;
	size_t done = 0, n;
	int i;

	if (len > c->buf_len)
		len = c->buf_len;
	for (i = 0; i < c->iov_cnt && done < len; i++) {
		n = c->iov[i].iov_len;
		if (n > len - done)
			n = len - done;
		if (n)
			memcpy(c->iov[i].iov_base, p + done, n);
		done += n;
	}
	c->data_len = done;
}

size_t zscsi_data_out(struct zscsi_cmd *c, void *dst, size_t len)
{
	uint8_t *p = dst;
	size_t done = 0, n;
	int i;

	for (i = 0; i < c->iov_cnt && done < len; i++) {
		n = c->iov[i].iov_len;
		if (n > len - done)
			n = len - done;
		if (n)
			memcpy(p + done, c->iov[i].iov_base, n);
		done += n;
	}
	return done;
}

/*
 * Zero the command's buffer from byte c->data_len to its end: what a
 * data-in command did not fill.  Under tcmu-runner the buffer is the TCMU
 * data area that every command shares, so without this the initiator
 * would get whatever an earlier command (of any initiator) left there.
 */
static void zero_tail(struct zscsi_cmd *c)
{
	size_t skip = c->data_len, n;
	int i;

	for (i = 0; i < c->iov_cnt; i++) {
		n = c->iov[i].iov_len;
		if (skip >= n) {
			skip -= n;
			continue;
		}
		memset((uint8_t *)c->iov[i].iov_base + skip, 0, n - skip);
		skip = 0;
	}
}

void *zscsi_flat_buf(struct zscsi_cmd *c, size_t len)
{
	uint8_t *base;
	size_t run;
	int i;

	if (c->iov_cnt < 1 || !c->iov[0].iov_base)
		return NULL;
	/* Entries that follow each other in memory form one flat buffer. */
	base = c->iov[0].iov_base;
	run = c->iov[0].iov_len;
	for (i = 1; i < c->iov_cnt && run < len; i++) {
		if ((uint8_t *)c->iov[i].iov_base != base + run)
			break;
		run += c->iov[i].iov_len;
	}
	return run >= len ? base : NULL;
}

uint8_t zscsi_finish(struct zscsi_cmd *c, uint8_t status, uint8_t *sense,
		     size_t *data_len)
{
	struct zscsi *s = c->s;

	if (c->data_len > c->buf_len)
		c->data_len = c->buf_len;
	if (c->data_in && c->data_len < c->buf_len)
		zero_tail(c);
	if (status == ZSCSI_CHECK_CONDITION) {
		if (sense)
			memcpy(sense, c->sense, ZSCSI_SENSE_LEN);
		pthread_mutex_lock(&s->lock);
		memcpy(s->last_sense, c->sense, ZSCSI_SENSE_LEN);
		__atomic_store_n(&s->have_sense, true, __ATOMIC_RELAXED);
		pthread_mutex_unlock(&s->lock);
	} else if (c->cdb && c->cdb_len && c->cdb[0] != 0x03 &&
		   __atomic_load_n(&s->have_sense, __ATOMIC_RELAXED)) {
		/* REQUEST SENSE reports on the most recent command only. */
		pthread_mutex_lock(&s->lock);
		__atomic_store_n(&s->have_sense, false, __ATOMIC_RELAXED);
		pthread_mutex_unlock(&s->lock);
	}
	if (data_len)
		*data_len = c->data_len;
	return status;
}
