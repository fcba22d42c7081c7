/*
 * zscsi_mode.c — MODE SENSE(6/10) and MODE SELECT(6/10) over three pages:
 * read-write error recovery (01h), caching (08h) and control (0Ah), plus
 * 3Fh (all pages).  Only WCE is changeable; it is not kept here but in the
 * disk (zdisk_wce()/zdisk_set_wce()), which honours it.  Saved pages are
 * not supported (PC = 11b: SAVING PARAMETERS NOT SUPPORTED; SP = 1: INVALID
 * FIELD IN CDB).  Parameter data of MODE SELECT is validated completely
 * before anything is applied.
 */
#include <stdlib.h>
#include <string.h>

#include "zscsi_int.h"

enum { PC_CURRENT = 0, PC_CHANGEABLE = 1, PC_DEFAULT = 2, PC_SAVED = 3 };

struct mode_page {
	uint8_t code;
	uint8_t len;        /* whole page, bytes */
};

static const struct mode_page mode_pages[] = {
	{ 0x01, 12 },
	{ 0x08, 20 },
	{ 0x0a, 12 },
};

#define NR_PAGES (sizeof(mode_pages) / sizeof(mode_pages[0]))

static const struct mode_page *find_page(uint8_t code)
{
	size_t i;

	for (i = 0; i < NR_PAGES; i++)
		if (mode_pages[i].code == code)
			return &mode_pages[i];
	return NULL;
}

/* Fill one page for @pc; returns its length. */
static size_t page_fill(const struct zscsi *s, const struct mode_page *p, int pc, uint8_t *b)
{
	memset(b, 0, p->len);
	b[0] = p->code;
	b[1] = p->len - 2;
	switch (p->code) {
	case 0x01:
		/* nothing recoverable to tune: all zero, nothing changeable */
		break;
	case 0x08:
		if (pc == PC_CHANGEABLE)
			b[2] = 0x04;                        /* WCE */
		else if (pc == PC_DEFAULT)
			b[2] = 0x04;                        /* default: write cache on */
		else
			b[2] = zdisk_wce(s->disk) ? 0x04 : 0x00;
		break;
	case 0x0a:
		if (pc != PC_CHANGEABLE) {
			b[2] = 0x02;                        /* GLTSD: no log pages */
			b[3] = 0x10;                        /* QUEUE ALGORITHM MODIFIER 1: unrestricted */
			zl_put_be16(b + 8, 0xffff);         /* BUSY TIMEOUT PERIOD: unlimited */
		}
		break;
	}
	return p->len;
}

uint8_t zscsi_mode_sense(struct zscsi_cmd *c)
{
	struct zscsi *s = c->s;
	bool ten = c->cdb[0] == 0x5a;
	bool dbd = c->cdb[1] & 0x08;
	bool llbaa = ten && (c->cdb[1] & 0x10);
	int pc = c->cdb[2] >> 6;
	uint8_t code = c->cdb[2] & 0x3f;
	uint8_t subpage = c->cdb[3];
	uint32_t alloc = ten ? zl_get_be16(c->cdb + 7) : c->cdb[4];
	uint8_t b[8 + 16 + 12 + 20 + 12];
	size_t hlen = ten ? 8 : 4, n, bdlen = 0, i;
	const struct mode_page *p;

	if (pc == PC_SAVED)
		return zscsi_fail(c, ZSK_ILLEGAL_REQUEST, 0x39, 0x00);
	if (subpage != 0x00 && !(code == 0x3f && subpage == 0xff))
		return zscsi_fail_cdb(c, 3, 7);
	if (code != 0x3f && !find_page(code))
		return zscsi_fail_cdb(c, 2, 5);

	memset(b, 0, sizeof(b));
	n = hlen;
	if (!dbd) {
		uint64_t nlb = s->capacity_lba;
		uint8_t *d = b + hlen;

		/* block descriptor: direct-access short or long LBA format */
		if (llbaa) {
			zl_put_be64(d, nlb);
			zl_put_be32(d + 12, s->lba_size);
			bdlen = 16;
		} else {
			zl_put_be32(d, nlb > 0xffffffffull ? 0xffffffffu : (uint32_t)nlb);
			zl_put_be32(d + 4, s->lba_size & 0xffffff);
			bdlen = 8;
		}
		n += bdlen;
	}
	for (i = 0; i < NR_PAGES; i++) {
		p = &mode_pages[i];
		if (code == 0x3f || code == p->code)
			n += page_fill(s, p, pc, b + n);
	}
	/* header */
	if (ten) {
		zl_put_be16(b, (uint16_t)(n - 2));
		b[3] = 0x10;                            /* DPOFUA */
		b[4] = llbaa && bdlen ? 0x01 : 0x00;    /* LONGLBA */
		zl_put_be16(b + 6, (uint16_t)bdlen);
	} else {
		b[0] = (uint8_t)(n - 1);
		b[2] = 0x10;                            /* DPOFUA */
		b[3] = (uint8_t)bdlen;
	}
	zscsi_data_in(c, b, n < alloc ? n : alloc);
	return ZSCSI_GOOD;
}

/*
 * Validate (and with @apply, apply) the parameter list @pl of @len bytes.
 * Returns GOOD or CHECK CONDITION.  Field pointers index the parameter
 * list.
 */
static uint8_t mode_select_parse(struct zscsi_cmd *c, const uint8_t *pl, size_t len, bool ten,
				 int *wce)
{
	struct zscsi *s = c->s;
	size_t hlen = ten ? 8 : 4, bdlen, off, i;
	uint8_t cur[32], chg[32];
	const struct mode_page *p;

	if (len < hlen)
		return zscsi_fail(c, ZSK_ILLEGAL_REQUEST, 0x1a, 0x00);
	/* MEDIUM TYPE must be 0; mode data length and device-specific are reserved/ignored */
	if (pl[ten ? 2 : 1])
		return zscsi_fail_param(c, ten ? 2 : 1, 7);
	bdlen = ten ? zl_get_be16(pl + 6) : pl[3];
	if (ten && (pl[4] & 0x01)) {                   /* LONGLBA */
		if (bdlen != 0 && bdlen != 16)
			return zscsi_fail_param(c, 6, 7);
	} else if (bdlen != 0 && bdlen != 8) {
		return zscsi_fail_param(c, ten ? 6 : 3, 7);
	}
	if (hlen + bdlen > len)
		return zscsi_fail(c, ZSK_ILLEGAL_REQUEST, 0x1a, 0x00);
	if (bdlen) {
		const uint8_t *d = pl + hlen;
		uint64_t nlb = bdlen == 16 ? zl_get_be64(d) : zl_get_be32(d);
		uint32_t blen = bdlen == 16 ? zl_get_be32(d + 12) : zl_get_be24(d + 5);
		uint64_t want = s->capacity_lba;

		if (bdlen == 8 && want > 0xffffffffull)
			want = 0xffffffffull;
		/* number of blocks 0 = unchanged; the block length cannot change */
		if (nlb && nlb != want)
			return zscsi_fail_param(c, (uint16_t)hlen, 7);
		if (blen != s->lba_size)
			return zscsi_fail_param(c, (uint16_t)(hlen + (bdlen == 16 ? 12 : 5)), 7);
	}
	off = hlen + bdlen;
	while (off < len) {
		if (len - off < 2)
			return zscsi_fail(c, ZSK_ILLEGAL_REQUEST, 0x1a, 0x00);
		if (pl[off] & 0x40)                    /* SPF: no subpages */
			return zscsi_fail_param(c, (uint16_t)off, 6);
		p = find_page(pl[off] & 0x3f);
		if (!p)
			return zscsi_fail_param(c, (uint16_t)off, 5);
		if (pl[off + 1] != p->len - 2)
			return zscsi_fail_param(c, (uint16_t)(off + 1), 7);
		if (off + p->len > len)
			return zscsi_fail(c, ZSK_ILLEGAL_REQUEST, 0x1a, 0x00);
		page_fill(s, p, PC_CURRENT, cur);
		page_fill(s, p, PC_CHANGEABLE, chg);
		for (i = 2; i < p->len; i++) {
			uint8_t bad = (uint8_t)((pl[off + i] ^ cur[i]) & ~chg[i]);
			int bit = 7;

			if (!bad)
				continue;
			while (bit > 0 && !(bad & (1u << bit)))
				bit--;
			return zscsi_fail_param(c, (uint16_t)(off + i), bit);
		}
		if (p->code == 0x08)
			*wce = (pl[off + 2] & 0x04) ? 1 : 0;
		off += p->len;
	}
	return ZSCSI_GOOD;
}

uint8_t zscsi_mode_select(struct zscsi_cmd *c)
{
	bool ten = c->cdb[0] == 0x55;
	uint32_t pll = ten ? zl_get_be16(c->cdb + 7) : c->cdb[4];
	uint8_t stack[256], *pl = stack;
	uint8_t status;
	int wce = -1, err;

	if (!(c->cdb[1] & 0x10))                       /* PF: only the standard page format */
		return zscsi_fail_cdb(c, 1, 4);
	if (c->cdb[1] & 0x01)                          /* SP: pages cannot be saved */
		return zscsi_fail_cdb(c, 1, 0);
	if (pll == 0)
		return ZSCSI_GOOD;
	if (pll > c->buf_len)                          /* more than the host sent */
		return zscsi_fail_cdb(c, ten ? 7 : 4, 7);
	if (pll > sizeof(stack)) {
		pl = malloc(pll);
		if (!pl)
			return zscsi_fail(c, ZSK_HARDWARE_ERROR, 0x44, 0x00);
	}
	zscsi_data_out(c, pl, pll);
	status = mode_select_parse(c, pl, pll, ten, &wce);
	if (status == ZSCSI_GOOD && wce >= 0 && (bool)wce != zdisk_wce(c->s->disk)) {
		err = zdisk_set_wce(c->s->disk, wce);
		if (err)
			status = zscsi_fail_err(c, err, ZSCSI_CTX_IO, UINT64_MAX);
	}
	if (pl != stack)
		free(pl);
	return status;
}
