/*
 * trc_gen.h — the synthetic workload sources: sequential, uniform random,
 * hot/cold (Rosenblum's r/f) and Zipf overwrites of a file of a given size,
 * after a sequential fill.  Each is a struct trc_source (trc.h), so the
 * simulator reads generators and traces the same way.  Deterministic from
 * the seed; one generator state per source.  Not a trace reader.
 */
#ifndef TRC_GEN_H
#define TRC_GEN_H

#include <stdint.h>

#include "trc.h"

enum trc_gen_kind { TRC_GEN_SEQ = 0, TRC_GEN_UNIFORM, TRC_GEN_HOTCOLD, TRC_GEN_ZIPF };

/* Linux write-lifetime hints (fcntl F_SET_RW_HINT, RWH_WRITE_LIFE_*). */
enum trc_hint {
	TRC_HINT_NOT_SET = 0, TRC_HINT_NONE = 1, TRC_HINT_SHORT = 2,
	TRC_HINT_MEDIUM = 3, TRC_HINT_LONG = 4, TRC_HINT_EXTREME = 5,
};

struct trc_gen_cfg {
	enum trc_gen_kind kind;
	uint64_t seed;
	uint64_t file_bytes;         /* the address space; a multiple of 4096 */
	uint32_t req_bytes;          /* bytes per write; a multiple of 4096, <= file_bytes */
	uint64_t nr_fill;            /* first writes: sequential from offset 0 (wrapping) */
	uint64_t nr_reqs;            /* writes in all, fill included */
	double hot_r, hot_f;         /* hotcold: a fraction r of the writes to the first f of the space */
	double zipf_theta;           /* zipf: P(rank k) ~ 1 / k^theta, theta > 0 (rank 1 = offset 0) */
	uint64_t ts_step_ns;         /* arrival time step between writes (0: all at 0) */
};

/*
 * trc_gen_create() - a generator source of @cfg->nr_reqs writes.  Hot/cold
 * writes carry a hint: TRC_HINT_SHORT in the hot part, TRC_HINT_LONG in the
 * cold part (fill included: the hint describes the data written).
 * Returns 0 and *@out (caller owns; trc_source_destroy()), -EINVAL for a
 * configuration it cannot generate, -ENOMEM.
 */
int trc_gen_create(const struct trc_gen_cfg *cfg, struct trc_source **out);

#endif /* TRC_GEN_H */
