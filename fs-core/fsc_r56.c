/*
 * fsc_r56.c — the bytes of the HYPOTHETICAL RAID5/6 profile
 * (cfg.raid56_model; no zoned kernel has it): what each stripe of a
 * RAID5/6 block group holds, parity included, and the reconstruction of a
 * stripe from the others.  Data blocks are the stamp blocks the write path
 * stores (zblk: a 4 KiB block holds its device byte offset, little endian,
 * then zeros); P is the XOR of a row's data units, Q (RAID6) the
 * Reed-Solomon syndrome sum of g^k D_k over GF(2^8) (polynomial 0x11d,
 * g = 2, the one Linux's lib/raid6 uses), both computed byte by byte over
 * the whole 4 KiB, so a rebuild that reads parity and recomputes a lost
 * unit proves itself: a wrong reconstruction is a wrong stamp.  Layout
 * (rows, rotation): fsc_int.h, fsc_r56_pstripe().  Not here: where a write
 * goes (fsc_submit.c), which stripes a rebuild reads (fsc_replace.c).
 */
#include <string.h>

#include "fsc_int.h"

#define R56_BLOCK 4096u  /* a stamp block (ZBLK_STAMP_BYTES) */

static uint8_t gf_exp[512], gf_log[256];
static bool gf_ready;

static void gf_init(void)
{
	uint32_t x = 1, i;

	if (gf_ready)
		return;
	for (i = 0; i < 255; i++) {
		gf_exp[i] = gf_exp[i + 255] = (uint8_t)x;
		gf_log[x] = (uint8_t)i;
		x <<= 1;
		if (x & 0x100)
			x ^= 0x11d;
	}
	gf_exp[510] = gf_exp[0];
	gf_ready = true;
}

static inline uint8_t gf_mul(uint8_t a, uint8_t b)
{
	return a && b ? gf_exp[gf_log[a] + gf_log[b]] : 0;
}

/* a / b, b != 0 */
static inline uint8_t gf_div(uint8_t a, uint8_t b)
{
	return a ? gf_exp[gf_log[a] + 255 - gf_log[b]] : 0;
}

/* g^k */
static inline uint8_t gf_pow2(uint32_t k)
{
	return gf_exp[k % 255];
}

/* Role of stripe @s in row @row: 0 P, 1 Q (RAID6), else 2 + data unit k. */
static uint32_t r56_role(const struct fsc_bg *bg, uint32_t s, uint64_t row)
{
	uint32_t nr = bg->nr_stripes, np = fsc_r56_nr_parity(bg);
	uint32_t rel = (s + nr - fsc_r56_pstripe(bg, row)) % nr;

	return rel < np ? rel : 2 + (rel - np);
}

void fsc_r56_fill(const struct fsc_bg *bg, uint32_t s, uint64_t p, uint64_t len, uint8_t *buf)
{
	uint32_t data = bg->nr_stripes - fsc_r56_nr_parity(bg), k, role;
	uint64_t q, v, row;
	uint8_t b[8];
	int i;

	gf_init();
	memset(buf, 0, len);
	for (q = p; q < p + len; q += R56_BLOCK) {
		uint8_t *o = buf + (q - p);
		uint32_t n = p + len - q < 8 ? (uint32_t)(p + len - q) : 8;

		row = q / FSC_RAID0_STRIPE_BYTES;
		role = r56_role(bg, s, row);
		if (role >= 2) {  /* a data unit: its own stamp */
			v = bg->stripes[s].phys + q;
			for (i = 0; i < 8; i++)
				b[i] = (uint8_t)(v >> (8 * i));
			memcpy(o, b, n);
			continue;
		}
		memset(b, 0, sizeof(b));
		for (k = 0; k < data; k++) {
			v = bg->stripes[fsc_r56_dstripe(bg, row, k)].phys + q;
			for (i = 0; i < 8; i++)
				b[i] ^= role == 0 ? (uint8_t)(v >> (8 * i)) :
						    gf_mul(gf_pow2(k), (uint8_t)(v >> (8 * i)));
		}
		memcpy(o, b, n);
	}
}

/*
 * One row segment: the unknowns are stripes @x (wanted) and @y (RAID6: the
 * other one not read; UINT32_MAX for none), the rest in @src[s] (NULL: not
 * read).  @n bytes at offset @o of each buffer.
 */
static void r56_solve(const struct fsc_bg *bg, uint64_t row, uint32_t x, uint32_t y,
		      uint8_t *const *src, uint64_t o, uint64_t n, uint8_t *out)
{
	uint32_t nr = bg->nr_stripes, s, rx = r56_role(bg, x, row);
	uint32_t ry = y == UINT32_MAX ? UINT32_MAX : r56_role(bg, y, row);
	uint64_t i;
	uint8_t gx, gy;

	if (bg->profile == FSC_RAID5) {  /* X = the XOR of all the others */
		memset(out, 0, n);
		for (s = 0; s < nr; s++)
			if (s != x)
				for (i = 0; i < n; i++)
					out[i] ^= src[s][o + i];
		return;
	}
	if (ry == UINT32_MAX)  /* all others read: leave out a parity */
		ry = rx == 1 ? 0 : 1;
	uint32_t role[FSC_MAX_STRIPES];
	uint8_t coef[FSC_MAX_STRIPES];

	for (s = 0; s < nr; s++) {
		role[s] = r56_role(bg, s, row);
		coef[s] = role[s] >= 2 ? gf_pow2(role[s] - 2) : 0;
	}
	for (i = 0; i < n; i++) {
		uint8_t pacc = 0, qacc = 0, pv = 0, qv = 0, dy;

		for (s = 0; s < nr; s++) {
			uint8_t v;

			if (s == x || role[s] == ry)
				continue;
			v = src[s][o + i];
			if (role[s] == 0)
				pv = v;
			else if (role[s] == 1)
				qv = v;
			else if (v) {
				pacc ^= v;
				qacc ^= gf_mul(coef[s], v);
			}
		}
		if (rx == 0) {          /* P: the data first (Y: Q, or data via Q) */
			dy = ry == 1 ? 0 : gf_div(qv ^ qacc, gf_pow2(ry - 2));
			out[i] = pacc ^ dy;
		} else if (rx == 1) {   /* Q (Y: P, or data via P) */
			dy = ry == 0 ? 0 : pv ^ pacc;
			out[i] = qacc ^ (ry == 0 ? 0 : gf_mul(gf_pow2(ry - 2), dy));
		} else if (ry == 1) {   /* data, Q unknown: from P */
			out[i] = pv ^ pacc;
		} else if (ry == 0) {   /* data, P unknown: from Q */
			out[i] = gf_div(qv ^ qacc, gf_pow2(rx - 2));
		} else {                /* two data units */
			gx = gf_pow2(rx - 2);
			gy = gf_pow2(ry - 2);
			out[i] = gf_div((uint8_t)(qv ^ qacc) ^ gf_mul(gy, pv ^ pacc), gx ^ gy);
		}
	}
}

int fsc_r56_rebuild(const struct fsc_bg *bg, uint32_t x, uint8_t *const *src, uint64_t p,
		    uint64_t len, uint8_t *out)
{
	uint32_t s, y = UINT32_MAX, missing = 0;
	uint64_t o = 0;

	gf_init();
	if (!fsc_bg_is_r56(bg) || x >= bg->nr_stripes)
		return -EINVAL;
	for (s = 0; s < bg->nr_stripes; s++)
		if (s != x && !src[s]) {
			y = s;
			missing++;
		}
	if (missing > fsc_r56_nr_parity(bg) - 1)
		return FSC_E_DATA_LOST;
	while (o < len) {
		uint64_t q = p + o, row = q / FSC_RAID0_STRIPE_BYTES;
		uint64_t n = FSC_RAID0_STRIPE_BYTES - q % FSC_RAID0_STRIPE_BYTES;

		if (n > len - o)
			n = len - o;
		r56_solve(bg, row, x, y, src, o, n, out + o);
		o += n;
	}
	return 0;
}
