/*
 * ztime.h — the device timing model: how long a real zoned drive takes to
 * serve each command, in virtual time (ns).  One model, two front ends: the
 * simulator calls it with its own clock, the tcmu handler with the wall
 * clock's nanoseconds.
 *
 * Two kinds of drive:
 *   - an SMR hard disk: Ruemmler-Wilkes seek curve (settle + b*sqrt(d) for
 *     short seeks, linear for long ones) fitted to the track-to-track,
 *     average and full-stroke figures; the platter's angle from the time
 *     and the RPM; zoned recording (the track holds fewer bytes, so the rate
 *     falls, from the outer to the inner diameter); head and track switches
 *     hidden by track skew when streaming; a command overhead; a volatile
 *     write cache destaged in order, whose flush (SYNCHRONIZE CACHE, a FUA
 *     write) waits for the media; zone reset / finish / open costs and an
 *     implicit-open cost;
 *   - a ZNS flash drive: channels x dies, page read / program and block
 *     erase times, a zone striped over a set of dies, append = a write at
 *     the write pointer, reset = erasing what was written, finish = padding
 *     the rest, and the open-zone resources.
 *
 * What it is not: it keeps no data, checks no zone rule (zdev does) and
 * never sleeps or reads a clock.  Everything is a function of the
 * parameters, the commands submitted so far and the @now_ns the caller
 * passes: same inputs, same times.  One struct ztime is one drive with one
 * actuator (or one flash controller); it is not thread-safe (the caller
 * serialises).  The drive serves commands in the order they are submitted;
 * a caller that holds a queue reorders it with ztime_position_ns() (SPTF).
 *
 * Text form (docs/TIMING.md): "PRESET[,key=value...]", e.g.
 * "hc620,cache=0,sched=sptf".  ztime_parse() reports what is wrong, where
 * and why; ztime_create() refuses a geometry the drive cannot hold.
 */
#ifndef ZTIME_H
#define ZTIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum ztime_kind { ZTIME_HDD = 0, ZTIME_FLASH };

/* The order a caller with a queue serves it in (the model itself is FIFO). */
enum ztime_sched { ZTIME_SCHED_FIFO = 0, ZTIME_SCHED_SPTF };

/*
 * HDD: whether the mechanism takes time.  ZTIME_MECH_OFF (`mech=off`): no
 * seek, rotation, head switch or media transfer; a command costs only its
 * fixed figures (cmd, the zone operations, implicit_open).  Not a drive: a
 * calibration disk that goes through the same timed path as a real model
 * and costs a known constant (what the e2e timing check subtracts).
 * With mech=off the fixed costs run beside each other (32 commands sent at
 * once all complete one `cmd` later); `serial=1` makes such a disk serve
 * one command at a time: a command's service starts at the later of its
 * arrival and the previous command's completion and lasts its fixed cost,
 * so 32 commands sent at once complete at 1, 2, ... 32 x cmd (a drive that
 * serves one 1 MiB command in `cmd`: the e2e check's stream calibration).
 */
enum ztime_mech { ZTIME_MECH_ON = 0, ZTIME_MECH_OFF };

enum ztime_op {
	ZTIME_READ = 0,
	ZTIME_WRITE,        /* also zone append (at the write pointer) */
	ZTIME_FLUSH,        /* SYNCHRONIZE CACHE / NVMe flush */
	ZTIME_RESET,        /* reset write pointer: len_bytes = what the zone held */
	ZTIME_FINISH,       /* finish zone: len_bytes = what the zone held */
	ZTIME_OPEN,         /* explicit open */
	ZTIME_CLOSE,
	ZTIME_NR_OPS
};

/* The drive's figures (a preset, then key=value overrides); units in names. */
struct ztime_params {
	enum ztime_kind kind;
	char preset[24];
	uint64_t capacity_bytes;    /* what the drive holds: a bigger disk is refused */
	uint64_t cmd_ns;            /* command overhead (controller), every command */
	uint64_t reset_ns, finish_ns, open_ns, close_ns;  /* zone ops (HDD: fixed) */
	uint64_t implicit_open_ns;  /* a write that opens a zone implicitly pays this */
	enum ztime_sched sched;     /* for callers with a queue (handler, sim, table) */
	uint32_t qd;                /* the drive's queue depth (handler, table) */
	/* HDD */
	uint32_t rpm;
	uint32_t heads;             /* recording surfaces */
	uint64_t seek_t2t_ns, seek_avg_ns, seek_full_ns;
	uint64_t rate_od_bps;       /* sustained (with switches) at the outer diameter */
	uint64_t rate_id_bps;       /* ... at the inner diameter */
	uint64_t head_switch_ns;
	uint64_t cache_bytes;       /* volatile write cache; 0 = write through */
	uint64_t iface_bps;         /* host link: a cached write's transfer */
	uint32_t seek_knee_pct;     /* Ruemmler-Wilkes: sqrt below this % of the stroke */
	enum ztime_mech mech;       /* ZTIME_MECH_OFF: the mechanism costs nothing */
	uint32_t serial;            /* 1 (needs mech=off): one command at a time, each
				     * starting when the previous one completed */
	/* flash */
	uint32_t channels, dies_per_channel;
	uint32_t zone_dies;         /* dies a zone is striped over */
	uint64_t page_bytes;        /* program / read unit of one die */
	uint64_t block_bytes;       /* erase unit of one die */
	uint64_t read_ns, prog_ns, erase_ns;  /* erase: one block, each die its blocks */
	uint64_t reset_gib_ns;      /* reset of a zone holding 1 GiB: this on its dies ... */
	uint32_t reset_exp_pct;     /* ... scaled by (held / 1 GiB)^(this / 100): 100 =
				     * proportional to the data held, 50 = square root */
	uint64_t chan_bps;          /* one channel's transfer rate */
	uint32_t max_open;          /* open-zone resources (0 = no limit) */
};

/* The presets, by name; NULL-terminated list for help texts. */
extern const char *const ztime_preset_names[];

/**
 * ztime_params_preset() - the figures of preset @name into @p.
 * Returns 0 or -ENOENT (unknown name).
 */
int ztime_params_preset(const char *name, struct ztime_params *p);

/**
 * ztime_parse() - "PRESET[,key=value...]" into @p: the preset, then each
 * override (keys and units in docs/TIMING.md), then the whole checked
 * (ztime_params_check()).  Returns 0 or -EINVAL with what, where (the key)
 * and why in @msg: unknown preset (the known ones listed), unknown key (the
 * keys of that kind of drive listed), a value that does not parse, out of
 * range, or figures that contradict each other.
 */
int ztime_parse(const char *text, struct ztime_params *p, char *msg, size_t msg_len);

/**
 * ztime_format() - the canonical text of @p (every key of its kind), which
 * ztime_parse() turns back into equal figures.  Returns the length, or
 * -ENOSPC when @len is too small.
 */
int ztime_format(const struct ztime_params *p, char *buf, size_t len);

/* ztime_params_check() - 0, or -EINVAL with which figure and why in @msg. */
int ztime_params_check(const struct ztime_params *p, char *msg, size_t msg_len);

struct ztime;

/* The emulated disk the model times (zone_bytes is the zone pitch). */
struct ztime_geo {
	uint64_t zone_bytes;
	uint32_t nr_zones;
};

/**
 * ztime_create() - one drive with figures @p (copied) timing a disk of
 * geometry @g.  HDD: emulated zone i sits at the radius of the drive's
 * i * (drive zones / nr_zones)-th zone slot (so a small disk still spans the
 * whole stroke; offsets inside a zone are not scaled, so streaming is
 * real).  Returns 0, -ENOMEM, or -EINVAL with @msg when the drive cannot
 * hold the geometry (too big, zone not a multiple of the flash stripe).
 */
int ztime_create(const struct ztime_params *p, const struct ztime_geo *g, struct ztime **out,
		 char *msg, size_t msg_len);
void ztime_destroy(struct ztime *t);
const struct ztime_params *ztime_params(const struct ztime *t);

/* One command for ztime_submit(). */
struct ztime_req {
	enum ztime_op op;
	uint64_t off_bytes;         /* byte address on the emulated disk (zone ops: zone start) */
	uint64_t len_bytes;         /* data length (reset / finish: bytes the zone held) */
	bool fua;                   /* write through the cache */
	bool implicit_open;         /* this write opens its zone implicitly */
};

/**
 * ztime_submit() - the drive receives @r at @now_ns (not before the last
 * submit's @now_ns): returns the time it completes, and moves the drive's
 * state (head, angle reference, cache, die and channel timelines) on.
 */
uint64_t ztime_submit(struct ztime *t, uint64_t now_ns, const struct ztime_req *r);

/**
 * ztime_position_ns() - HDD: the positioning time (seek + rotation) to
 * reach @off_bytes if the mechanism started at @start_ns, without changing
 * anything: what SPTF minimises.  Flash and `mech=off`: 0.
 */
uint64_t ztime_position_ns(const struct ztime *t, uint64_t start_ns, uint64_t off_bytes);

/**
 * ztime_reach_ns() - HDD: when the head would reach the first byte of @r
 * (a read or a write) if the drive received it at @now_ns, without
 * changing anything: the mechanism's start for @r (ztime_submit()'s: the
 * command overhead from @now_ns, the implicit open, a cached write's
 * acceptance, the mechanism's free time) plus ztime_position_ns() from
 * there.  What SPTF minimises: `zonelab timing table` and the handler's
 * queue (emulator/tcmu/zl_timed.c) both choose with it.  Flash, `mech=off`
 * and the other operations: @now_ns.
 */
uint64_t ztime_reach_ns(const struct ztime *t, uint64_t now_ns, const struct ztime_req *r);

/* When the media (HDD mechanism; flash: the last die) is idle again. */
uint64_t ztime_media_free_ns(const struct ztime *t);

/* ---- the HDD model's pieces, exposed for tests and docs/TIMING.md ---- */

/* Seek time for a move of @dist cylinders (0 = none). */
uint64_t ztime_seek_ns(const struct ztime *t, uint64_t dist);
uint64_t ztime_nr_cylinders(const struct ztime *t);
uint64_t ztime_rev_ns(const struct ztime *t);
/* Sustained (streaming) rate at the radius of emulated byte @off_bytes, bytes/s. */
double ztime_rate_at(const struct ztime *t, uint64_t off_bytes);
/* The cylinder emulated byte @off_bytes lies on. */
uint64_t ztime_cylinder_of(const struct ztime *t, uint64_t off_bytes);

#endif /* ZTIME_H */
