#!/usr/bin/python3
"""timing_cmp.py PREFIX ROUNDS FDEV ZDEV - the e2e timing check's verdict
(checks/27-timing.sh; the bounds and why: docs/TIMING.md "Validation").

Reads PREFIX-model.json and PREFIX-model_slow.json (`zonelab timing table
--json` for the disks), PREFIX-cal.json (the calibration disks' costs: c0,
the model's zone operation, for zlt0; c1, the model's mean QD1 read, for
zlt1: mech=off, every command costs exactly that; pace_ns, the serial
calibration disks' command time for each stream, 1 MiB / the model's rate),
per round r PREFIX-rR-qd1.json (fio: the timed disk and zlt1 at the same
time), PREFIX-rR-{od,id,r_od,r_id}.json (the streams) and
PREFIX-rR-s_{od,id,r_od,r_id}.json (their serial calibrations), each with
-probe.json (guest/stall_probe.py) and -hs.json (the handler's timing
counters before and after the job), PREFIX-model_w.json and
PREFIX-model_wslow.json (the write disks' tables) with
PREFIX-rR-{w_od,w_id,v_od,v_id}.json (the cached write streams, each with
-probe.json and -hs.json), PREFIX-rR-{fifo,sptf,z_qd32}.json and
PREFIX-rR-zop.json
(guest/zoneop_lat.py alternating between FDEV, the timed disk, and ZDEV,
zlt0), PREFIX-u_{qd1,od,qd32}.json (the untimed disk, shown only) and the
handlers' statistics.  Prints one line per figure (model, measured, the
calibration disk's figure, ratio, ok/FAIL with the bound and why), notes
(per-round figures, VM-bound figures, the guest's timer overshoot) and a
SUMMARY line; exits 1 when a figure is out of its bound.
tests/scripts/076-e2e-timing-cmp.sh runs it on the host (make check) on
one round of made-up inputs, tests/data/timing-cmp.json.

Hard bounds (hold under any load; a failure means a command completed
sooner than the model allows):
  every zone FINISH / RESET on the timed disk >= the model's time; every
  command on a calibration disk >= its cost; QD1 mean latency >= the model's
  mean - 3 standard errors; sequential MB/s <= 1.02 x the model, and a
  serial calibration's <= 1.02 x its exact rate (one command at a time),
  every round; QD32 IOPS <= 1.10 x the model.
Recovered figures (the calibration disk's overhead, measured in the same
rounds, taken out):
  QD1: per round, mean latency(timed) - (mean latency(zlt1) - c1);
      the mean over the rounds within max(10% of the model, 3 se), se the
      larger of the statistical one (fio's standard deviations) and the
      rounds' spread.
  zone FINISH / RESET: each timed op paired with the calibration op sent
      next to it: median of (timed - calibration + c0) within max(10%,
      3 se of that median, from its interquartile range).
  sequential reads: each stream (hc620 OD and ID on zlts, the SPTF disk:
      the kernel and tcmu-runner's threads hand the commands over out of
      LBA order, and a FIFO drive loses up to a turn on each one arriving
      after its successor, run N; the same on zltr, SPTF too, at 40 / 20
      MB/s) is judged per round by the timed disk's
      own counters over the job (docs/CTL.md: idle_starts, the commands
      that found the mechanism idle, and idle_ns, the gaps; the job's first
      idle start, the gap since the previous job, which the check makes
      over 2 s, taken out by idle_long_*, gaps >= 2 s): a gap in the VM's
      feed costs a serial calibration disk only the gap, but the timed
      drive the gap and the platter's turn back to the next sector (no read
      look-ahead is modelled), which no calibration disk sees (run M: 0.66
      of the model in a round its serial calibration called fed at 0.97);
      and by its jump starts (since tm7: jump_starts, a command given to
      the busy mechanism not where the previous one ended, back_starts
      those before it, the late partners; an idle start is not counted
      again there): a start out of LBA order waits up to a turn and a
      short seek (run P: hc620 ID 0.891 with 0 idle starts).
      Every round: >= 0.9 x bytes / (bytes / model + idle_s + (n_idle +
      n_jump) x (rev + cmd)), the drive's time given the feed and the order
      (media time, the gaps, at most one turn and the command overhead lost
      per idle or jump start; on the host a FIFO drive loses 0.4-0.7 of a
      turn per jump start, up to 2 per back start, so every jump is
      charged, not only the back ones), and <= 1.02 x the model (hard).  A
      round is fed when its idle and jump starts are at most 2% of its
      commands; fed rounds are held to the model within 10%, its time for
      their bytes lengthened by the drive's idle time (>= 0.9 x bytes /
      (bytes / model + idle_s), <= 1.1 x the model).  Both bounds add the
      larger of the guest's stalls beyond the drive's idle time and (since
      tm8) the time fio measured outside the drive's span of the job
      (the handler's job_start_ns .. last_done_ns, docs/CTL.md: the guest's
      path to the handler and back; run R: 82 ms of 611, no counter then),
      so what is held to the model is the drive's own time, the timer's
      lateness included.
      Each stream's serial calibration disk (mech=off, serial=1, cmd =
      1 MiB / the model's rate, read with the same QD32 job right before or
      after it, never beside it) is still run and shown with its verdict
      (fed at >= 0.95 x its exact rate), its hard bound kept; the guest's
      stalls (guest/stall_probe.py) are shown, inside idle_ns.  Until run M
      the serial calibration decided fed rounds; before run K a mech=off
      disk's throughput did (unsound: it measures how many commands the VM
      can push through, not whether it keeps one waiting at a drive that
      serves one at a time).  The handler's counters over each job are
      printed (commands, mechanism time a command against the pace, the
      drive's busy share).
  QD32: judged per round by a serial calibration disk
      at 1 / the model's IOPS (FIFO's for FIFO, SPTF's for SPTF) read with
      the same job right before or after it: fed when it reached 0.95 of
      its exact IOPS and (since tm7) the timed drive itself was idle at
      most 2% of its job (its own idle_ns, the job boundary taken out,
      against ramp + runtime: run Q's SPTF round 1 left the drive idle
      931 ms, 13%, while its adjacent calibration was fed at 0.98: the
      calibration job cannot see the timed job's feed, as run M showed for
      the streams).  (Until run K: when zlt0's QD32 IOPS C32 was >= 2 x
      the model, the throughput test found unsound for the streams; run K's
      SPTF failed at 0.81 'fed' by it.)  Fed rounds: FIFO within 10% of
      the model (the mechanism is the bottleneck; the VM's per-command time
      hides behind the queued commands); SPTF within 10% of the model at
      the queue depth the handler's choices saw (its ctl stats
      sptf_candidates / sptf_choices + 1, the model's sptf_iops_by_qd
      interpolated there) and SPTF / FIFO >= 0.9 x the model's ratio at
      that depth.  Unfed rounds: VM-bound, >= 0.85 x min(C32, FIFO's model)
      (SPTF is never worse than FIFO at the same feed), and SPTF / FIFO >=
      0.9 when not both are fed.  Since tm7 the guest's stalls (the probe
      beside each QD32 job, guest/stall_probe.py) inside the window fio
      surely measured (not its --ramp_time) are added to the model's time
      for the round's commands in both bounds (0.9 x n / (n / model +
      stalls), 0.85 x n / (n / min(C32, model) + stalls)) and taken out of
      both jobs' time in SPTF / FIFO; a round passing only with them says
      so (run P: FIFO 11.1 IOPS in a round whose drive was busy 32% of
      fio's time).
"""
import json
import math
import statistics
import sys

pre, R, fdev, zdev = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
fails = []
lines = []
notes = []


def load(tag):
    with open("%s-%s.json" % (pre, tag)) as f:
        return json.load(f)


def fio(tag, job=0, ddir="read"):
    r = load(tag)["jobs"][job][ddir]
    if r.get("total_ios", 0) <= 0:
        fails.append("fio %s: no I/O" % tag)
    return r


def rounds(tag, job=0, ddir="read"):
    return [fio("r%d-%s" % (i, tag), job, ddir) for i in range(1, R + 1)]


def stalls(tag):
    """The guest's stalls (ms) during a job (guest/stall_probe.py); none if not probed."""
    try:
        return load(tag + "-probe")["over_ms"]
    except (OSError, ValueError, KeyError):
        return []


def rate(rs):
    """MB/s over the rounds: bytes / time."""
    return sum(r["io_bytes"] for r in rs) / sum(r["runtime"] / 1e3 for r in rs) / 1e6


def iops(rs):
    return sum(r["total_ios"] for r in rs) / sum(r["runtime"] / 1e3 for r in rs)


def quantile(v, q):
    v = sorted(v)
    return v[min(len(v) - 1, int(q * len(v)))]


def check(name, unit, mod, meas, cal, lo, hi, bound):
    ok = lo <= meas <= hi
    lines.append("%-4s %-42s %10.3f %10.3f %10s %6.3f %-5s %s [%.3f, %s]" % (
        "ok" if ok else "FAIL", name, mod, meas, "-" if cal is None else "%.3f" % cal,
        meas / mod if mod else 0, unit, bound, lo, "inf" if hi >= INF else "%.3f" % hi))
    if not ok:
        fails.append("%s %.3f %s not in [%.3f, %.3f] (model %.3f; %s)" % (name, meas, unit, lo,
                                                                         hi, mod, bound))
    return ok


mj = load("model")
model = {r["name"]: r["value"] for r in mj["rows"]}
slow = {r["name"]: r["value"] for r in load("model_slow")["rows"]}
kv = dict(i.split("=") for i in mj["model"].split(",")[1:])
cal = load("cal")
c0 = cal["c0_ms"]        # zlt0: every command costs this (the model's zone operation)
c1 = cal["c1_ms"]        # zlt1: the model's mean QD1 random read
cmd = float(kv["cmd"].rstrip("ns")) / 1e6
rev = 60e3 / int(kv["rpm"])                         # ms
INF = 1e12

# ---- QD1 random reads ----
m_iops = model["QD1 4 KiB random read"]
m_lat = 1e3 / m_iops
qt, qz = rounds("qd1", 0), rounds("qd1", 1)
recs, var = [], 0.0
for t, z in zip(qt, qz):
    lt, lz = t["lat_ns"]["mean"] / 1e6, z["lat_ns"]["mean"] / 1e6
    recs.append(lt - (lz - c1))
    var += (t["lat_ns"]["stddev"] / 1e6) ** 2 / t["total_ios"] + \
        (z["lat_ns"]["stddev"] / 1e6) ** 2 / z["total_ios"]
n_t = sum(t["total_ios"] for t in qt)
lat_t = sum(t["lat_ns"]["mean"] * t["total_ios"] for t in qt) / n_t / 1e6
sd_t = max(t["lat_ns"]["stddev"] for t in qt) / 1e6
lat_z = sum(z["lat_ns"]["mean"] * z["total_ios"] for z in qz) / sum(z["total_ios"] for z in qz) / 1e6
rec = statistics.mean(recs)
se_stat = math.sqrt(var) / R
se_rounds = statistics.stdev(recs) / math.sqrt(R) if R > 1 else 0
se = max(se_stat, se_rounds)
tol = max(0.10 * m_lat, 3 * se)
check("QD1 4K read mean latency (hard)", "ms", m_lat, lat_t, lat_z,
      m_lat - 3 * sd_t / math.sqrt(n_t), INF, ">= model - 3 se")
check("QD1 latency, calib. min (hard)", "ms", c1, min(z["lat_ns"]["min"] for z in qz) / 1e6,
      None, c1, INF, ">= c1 each")
check("QD1 latency, overhead out", "ms", m_lat, rec, lat_z - c1, m_lat - tol, m_lat + tol,
      "model +- max(10%%, 3 se); se %.3f ms (stat %.3f, rounds %.3f), per round %s" % (
          se, se_stat, se_rounds, " ".join("%.2f" % x for x in recs)))
notes.append("QD1 per round: timed %s ms, calib. (c1 %.3f) %s ms" % (
    " ".join("%.2f" % (t["lat_ns"]["mean"] / 1e6) for t in qt), c1,
    " ".join("%.2f" % (z["lat_ns"]["mean"] / 1e6) for z in qz)))
# the latency's interval mapped to IOPS; a tolerance as large as the
# latency (wildly scattered rounds) leaves IOPS unbounded above, not negative
check("QD1 IOPS, overhead out", "IOPS", m_iops, 1e3 / rec if rec > 0 else INF, None,
      1e3 / (m_lat + tol), 1e3 / (m_lat - tol) if m_lat > tol else INF,
      "from the latency above")

# ---- zone FINISH / RESET ----
zops = [load("r%d-zop" % i) for i in range(1, R + 1)]
zop_rec = {}
for op, name in (("finish", "zone finish (half-full zone)"), ("reset", "zone reset (full zone)")):
    m = model[name]
    t = [x for z in zops for x in z[fdev][op]]
    c = [x for z in zops for x in z[zdev][op]]
    d = [a - b + c0 for a, b in zip(t, c)]
    med = statistics.median(d)
    iqr = quantile(d, 0.75) - quantile(d, 0.25)
    se_m = 1.2533 * (iqr / 1.349) / math.sqrt(len(d))
    tolz = max(0.10 * m, 3 * se_m)
    zop_rec[op] = (med, statistics.median(t), statistics.median(c))
    check("zone %s min (hard)" % op, "ms", m, min(t), min(c), m, INF, ">= model each")
    check("zone %s calib. min (hard)" % op, "ms", c0, min(c), None, c0, INF, ">= c0 each")
    check("zone %s, overhead out" % op, "ms", m, med, statistics.median(c) - c0, m - tolz,
          m + tolz, "median of paired (timed - calib. + c0), model +- max(10%%, 3 se); "
          "se %.3f ms, %d pairs" % (se_m, len(d)))

# ---- sequential reads ----
# Each stream has a serial calibration disk at its pace (mech=off,
# serial=1, cmd = P = 1 MiB / the model's rate: one command at a time, so
# its exact rate is the model's), read with the same job right before or
# after it.  Its shortfall from that exact rate is the time the VM left a
# drive that serves one P-long command at a time with no command waiting.
FED = 0.95
pace = cal.get("pace_ns") or {}


def hstats(tag):
    """The handler's timing counters over a job: (commands, busy s) or None."""
    try:
        h = load(tag + "-hs")
        b, a = h["before"]["timing"], h["after"]["timing"]
        return a["timed"] - b["timed"], (a["service_ns"] - b["service_ns"]) / 1e9
    except (OSError, ValueError, KeyError, TypeError):
        return None


IDLE_FED = 0.02   # a round is fed when at most this share of its commands found the drive idle
IDLE_LONG_S = 2.0  # the handler's ZL_TIMED_IDLE_LONG_NS: a gap this long is a job boundary
seq_fed = {}


def idle_stats(tag):
    """The timed disk's idle starts over a job (docs/CTL.md): (commands, idle
    starts, idle s, the gap before the job s, a note, jump starts, back
    starts), the job's boundary taken out: the check leaves the disk idle
    over 2 s before the job, so its first command is an idle start the
    handler also counts in idle_long_* (gaps >= 2 s); a second long one is
    a gap of over 2 s inside the job (a guest stall), counted as an idle
    start of at most its share of idle_long_ns less the boundary's 2 s;
    None without the counters.  The jump starts (given to the busy
    mechanism not where the previous one ended; back starts: before it)
    exclude idle starts, so the boundary's command is not among them; a
    handler without them (before issue 32's tm7) gives None for both."""
    try:
        h = load(tag + "-hs")
        b, a = h["before"]["timing"], h["after"]["timing"]
        d = {k: a[k] - b[k] for k in ("timed", "idle_starts", "idle_ns", "idle_long_starts",
                                       "idle_long_ns")}
    except (OSError, ValueError, KeyError, TypeError):
        return None
    try:
        jump, back = (a["jump_starts"] - b["jump_starts"], a["back_starts"] - b["back_starts"])
    except KeyError:
        jump = back = None
    n, ns, note = d["idle_starts"], d["idle_ns"], ""
    if d["idle_long_starts"] >= 1:
        n -= 1
        ns -= d["idle_long_ns"]
        if d["idle_long_starts"] > 1:   # the boundary is >= 2 s: the rest at most this
            ns += d["idle_long_ns"] - IDLE_LONG_S * 1e9
            note = " (%d gaps over 2 s inside the job)" % (d["idle_long_starts"] - 1)
        before = d["idle_long_ns"] / 1e9 if d["idle_long_starts"] == 1 else IDLE_LONG_S
    else:
        before, note = 0.0, " (no job boundary of 2 s: nothing taken out)"
    return d["timed"], n, ns / 1e9, before, note, jump, back


def busy_note(tag, r, per_cmd_ms, ramp_s=0.0):
    """The handler's view of a job: commands, mechanism time a command, busy
    share of the job's time (fio's runtime plus its ramp, which the counters
    include; the drain of the last commands is not in either)."""
    h = hstats(tag)
    if not h or not h[0]:
        return "%s: no handler counters" % tag.split("-", 1)[1]
    return "%s %d cmds, %.2f ms/cmd (pace %.2f), drive busy %.0f%%" % (
        tag.split("-", 1)[1], h[0], h[1] / h[0] * 1e3, per_cmd_ms,
        100 * h[1] / (r["runtime"] / 1e3 + ramp_s))


def span_stats(tag, r):
    """The drive's span of a job and the time fio measured beyond it:
    (span s, outside s) from the timed disk's job_start_ns and last_done_ns
    after the job (docs/CTL.md: the arrival of the command that began the
    job, the disk idle over 2 s before it, and when the last command's
    completion was taken, the timer's lateness included); None without the
    counters (a handler before issue 32's tm8) or when no job began at the
    drive after the counters' first read."""
    try:
        h = load(tag + "-hs")
        b, a = h["before"]["timing"], h["after"]["timing"]
        start, done = a["job_start_ns"], a["last_done_ns"]
        if start <= b["last_done_ns"] or done <= start:
            return None
    except (OSError, ValueError, KeyError, TypeError):
        return None
    span = (done - start) / 1e9
    return span, max(0.0, r["runtime"] / 1e3 - span)


def window_stalls(tag, ramp_s, runtime_s):
    """The guest's stalls (s) inside the part of a job fio surely measured
    (guest/stall_probe.py's at_s: when each woke, from the probe's start; the
    job starts after it and ends before the probe stops, at secs): fio's
    measured window [w0, w0 + runtime] has w0 in [ramp, secs - runtime], so
    every point of [secs - runtime, ramp + runtime] is in it whatever fio's
    start-up and drain took; only a stall's part inside that is counted
    (never one in the ramp, which fio does not count).  None without the
    probe's times (a probe before tm7)."""
    try:
        p = load(tag + "-probe")
        over, at, secs = p["over_ms"], p["at_s"], p["secs"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    w0, w1 = secs - runtime_s, ramp_s + runtime_s
    return sum(max(0.0, min(t, w1) - max(t - o / 1e3, w0)) for o, t in zip(over, at))


def stream_round(nm, tag, i, r, m, idl, fed, cal_rate=None):
    """Judge round @i + 1 of stream @tag (fio's job @r, the model's MB/s @m,
    the timed disk's idle_stats() @idl): the feed-aware floor every round,
    the model within 10% in a fed round (@fed); @cal_rate the serial
    calibration's MB/s, shown."""
    mb = r["io_bytes"] / 1e6
    rr = rate([r])
    n, n_idle, idle_s, n_jump, n_back = idl[0], idl[1], idl[2], idl[5], idl[6]
    # the guest's stalls beyond the drive's idle time: the handler's
    # timer thread runs in the guest, so a stalled vCPU delivers
    # completions late while the model's queue stays full (run O: zltr
    # ID 0.84 with no idle start and 2.27 s of stalls); fio counts that
    # time, the drive did not idle.  Since run X only those inside the
    # window fio surely measured (window_stalls(), as for QD32: a stall in
    # fio's start-up or after its end is in the probe's window, not in
    # fio's runtime); the whole probe's with a probe before tm7
    ws = window_stalls("r%d-%s" % (i + 1, tag), 0.0, r["runtime"] / 1e3)
    if ws is None:
        ws = sum(stalls("r%d-%s" % (i + 1, tag))) / 1e3
    late = max(0.0, ws - idle_s)
    # the time fio measured outside the drive's span of the job (its
    # first command's arrival at the handler to its last completion
    # taken, the timer's lateness inside it): the guest's path to the
    # handler and back (run R: hc620 OD 0.868 with no idle start, no
    # jump start and no stall, 82 ms of fio's 611 outside the drive).
    # The larger of it and the stalls is added (a stall at the job's
    # edge is in both): what remains is the drive's own time, held to
    # the model; a timer that completes late lengthens the span and is
    # not excused
    sp = span_stats("r%d-%s" % (i + 1, tag), r)
    out_s = sp[1] if sp else 0.0
    vm = max(late, out_s)
    vm_txt = "stalls beyond it %.3f s, outside the drive %s: %.3f s added" % (
        late, "%.3f s (it held the job %.3f of fio's %.3f s)" % (
            out_s, sp[0], r["runtime"] / 1e3) if sp else "unknown", vm)
    turn_s = (rev + cmd) / 1e3
    lo = 0.9 * mb / (mb / m + idle_s + vm + (n_idle + n_jump) * turn_s)
    lo_nj = 0.9 * mb / (mb / m + idle_s + vm + n_idle * turn_s)
    check("%s r%d feed-aware" % (nm, i + 1), "MB/s", m, rr, cal_rate, lo, 1.02 * m,
          "0.9 x bytes / (bytes / model + idle %.3f s + (%s) + (%d idle "
          "+ %d jump starts, %d of them back) x (rev + cmd))%s" % (
              idle_s, vm_txt, n_idle, n_jump, n_back,
              " (passes only with the jump starts' turns)" if n_jump and rr < lo_nj
              else ""))
    if fed:
        lo_f = 0.9 * mb / (mb / m + idle_s + vm)
        check("%s r%d fed" % (nm, i + 1), "MB/s", m, rr, cal_rate, lo_f, 1.1 * m,
              "fed (%d idle + %d jump starts <= %.0f%% of %d cmds): model +-10%%, the drive "
              "idle %.3f s, %s%s" % (
                  n_idle, n_jump, 100 * IDLE_FED, n, idle_s, vm_txt,
                  " (passes only with them)" if vm and rr < 0.9 * mb / (mb / m + idle_s)
                  else ""))
    elif n_idle <= IDLE_FED * n:
        notes.append("%s r%d: not fed by its order alone: %d jump starts (%d back) with %d "
                     "idle starts, over %.0f%% of %d cmds: judged by the feed-aware floor "
                     "with a turn a jump start" % (nm, i + 1, n_jump, n_back, n_idle,
                                                   100 * IDLE_FED, n))


seq_sum = {}
jumps = {}   # per stream, per round: (jump starts, back starts)
for tag, name, label, mod in (("od", "sequential 1 MiB read, OD", "hc620", model),
                              ("id", "sequential 1 MiB read, ID", "hc620", model),
                              ("r_od", "sequential 1 MiB read, OD", "40/20 MB/s", slow),
                              ("r_id", "sequential 1 MiB read, ID", "40/20 MB/s", slow)):
    m = mod[name]
    nm = "seq 1M QD32 %s %s" % (tag[-2:].upper(), label)
    if tag not in pace:
        fails.append("%s: no serial calibration pace in %s-cal.json" % (nm, pre))
        continue
    exact = 1048576e3 / pace[tag]            # MB/s: 1 MiB every pace_ns
    rs, cs = rounds(tag), rounds("s_" + tag)
    rr, rc = [rate([x]) for x in rs], [rate([x]) for x in cs]
    seq_sum[tag] = (rate(rs), rate(cs))
    check(nm + " (hard)", "MB/s", m, max(rr), max(rc), 0, 1.02 * m,
          "<= model +2%, every round")
    check(nm + " ser. cal. (hard)", "MB/s", exact, max(rc), None, 0, 1.02 * exact,
          "one command at a time: <= its pace +2%, every round")
    notes.append("%s per round: %s MB/s; serial calib. (exact %.1f) %s MB/s; %s" % (
        nm, " ".join("%.1f" % x for x in rr), exact, " ".join("%.1f" % x for x in rc),
        "; ".join("r%d %s, %s" % (i + 1, busy_note("r%d-%s" % (i + 1, tag), rs[i], pace[tag] / 1e6),
                                  busy_note("r%d-s_%s" % (i + 1, tag), cs[i], pace[tag] / 1e6))
                  for i in range(R))))
    # Judged by the timed disk's own counters (the handler's idle starts:
    # a command that found the mechanism idle, and the gap; the first of
    # the job, the gap since the previous job, taken out; and its jump
    # starts: a command given to the busy mechanism not where the previous
    # one ended, served out of LBA order): a round is fed when its idle and
    # jump starts together are at most 2% of its commands, and then held to
    # the model within 10%, the drive's idle time added; every round (fed
    # or not) to the feed-aware floor, the drive's time given the feed and
    # the order: the media time for the bytes, the gaps, and at most one
    # turn (and the command overhead) lost per idle or jump start (no read
    # look-ahead; a start not where the head is waits at most a turn and a
    # short seek).  Jump starts, not only the back starts (the late
    # partners) among them: the turns lost around a late partner are the
    # order's, also on the jumps over it and past it (on the host, FIFO
    # loses 0.8-2.0 turns per back start, 0.4-0.7 per jump start; SPTF,
    # which serves what is queued in LBA order, 0.11-0.15 and 0.07-0.10 on
    # late partners held 32 arrivals; docs/TIMING.md "Jump starts").
    ids = [idle_stats("r%d-%s" % (i + 1, tag)) for i in range(R)]
    if any(x is None for x in ids):
        fails.append("%s: no handler idle counters around the timed jobs (%s-rR-%s-hs.json)" % (
            nm, pre, tag))
        continue
    if any(x[5] is None for x in ids):
        notes.append("%s: no jump_starts / back_starts in the handler's counters (a handler "
                     "before tm7): the order's turns are not charged" % nm)
        ids = [x[:5] + (0, 0) for x in ids]
    jumps[tag] = [(x[5], x[6]) for x in ids]
    ser_fed = [i for i in range(R) if rc[i] >= FED * exact]
    notes.append("%s: the serial calibration calls round(s) %s fed (>= %.2f x exact), "
                 "the timed disk's idle starts: %s" % (
                     nm, ",".join(str(i + 1) for i in ser_fed) or "none", FED,
                     "; ".join("r%d %d of %d cmds, idle %.1f ms (gap before the job %.0f ms%s), "
                               "%d jump starts (%d back), guest stalls > 50 ms %.0f ms" % (
                                   i + 1, ids[i][1], ids[i][0], ids[i][2] * 1e3, ids[i][3] * 1e3,
                                   ids[i][4], ids[i][5], ids[i][6],
                                   sum(stalls("r%d-%s" % (i + 1, tag))))
                               for i in range(R))))
    fed = [i for i in range(R) if ids[i][1] + ids[i][5] <= IDLE_FED * ids[i][0]]
    seq_fed[tag] = fed
    for i in range(R):
        stream_round(nm, tag, i, rs[i], m, ids[i], i in fed, rc[i])
    if not fed:
        notes.append("%s: VM-bound in every round: the VM left the timed drive idle or served "
                     "it out of LBA order at over %.0f%% of its commands (serial calib. %.1f of "
                     "%.1f MB/s)" % (nm, 100 * IDLE_FED, rate(cs), exact))

# ---- sequential writes through the write cache ----
# zltw (hc620 as the preset has it: 512 MiB cache, zones of 1 GiB) and zltv
# (40 / 20 MB/s, a 64 MiB cache), each zone reset, written whole in 1 MiB
# writes and flushed (fio --end_fsync=1: fio's runtime includes the flush,
# which waits for the media).  The kernel hands a zone's writes to the disk
# one at a time (mq-deadline's zone write lock, zone write plugging), so
# the drive's feed is the VM's round trip per command: a write the cache
# takes in a command overhead and its link transfer, its destage joining
# the mechanism's queue; a write that finds no destage under way is an
# idle start (the platter's turn back to the next sector may be lost, as
# for a read), counted by the handler as for the read streams, and judged
# as they are (stream_round): the feed-aware floor every round, the model
# +-10% in a fed round.  No serial calibration disk: the drive's own
# counters decide.  The stream being longer than the cache (hc620: 1 GiB
# into 512 MiB; zltv: 256 MiB into 64 MiB) is asserted from the models;
# on zltv the cache fills and the writes wait for the destages: the
# handler's mean command time over the job (arrival to the model's
# completion, docs/CTL.md; fio's latency would add the kernel's queue of
# the zone's writes waiting their turn) is shown beside the cache's own
# accept time (command + link).
wmod = {r["name"]: r["value"] for r in load("model_w")["rows"]}
wslow_j = load("model_wslow")
wslow = {r["name"]: r["value"] for r in wslow_j["rows"]}
wkv = {t: dict(i.split("=") for i in j["model"].split(",")[1:])
       for t, j in (("w", load("model_w")), ("v", wslow_j))}
wseq, wseq_fed = {}, {}
for tag, name, label, mod in (("w_od", "sequential 1 MiB write, OD (+flush)", "hc620", wmod),
                              ("w_id", "sequential 1 MiB write, ID (+flush)", "hc620", wmod),
                              ("v_od", "sequential 1 MiB write, OD (+flush)", "40/20 MB/s", wslow),
                              ("v_id", "sequential 1 MiB write, ID (+flush)", "40/20 MB/s", wslow)):
    m = mod[name]
    nm = "seq 1M write %s %s" % (tag[-2:].upper(), label)
    k = wkv[tag[0]]
    rs = rounds(tag, 0, "write")
    rr = [rate([x]) for x in rs]
    wseq[tag] = rate(rs)
    cache_b = int(k["cache"])
    if not all(x["io_bytes"] > cache_b > 0 for x in rs):
        fails.append("%s: a stream of %s bytes is not longer than the write cache (%d bytes)" % (
            nm, "/".join(str(x["io_bytes"]) for x in rs), cache_b))
    check(nm + " (hard)", "MB/s", m, max(rr), None, 0, 1.02 * m,
          "<= model +2%, every round (the flush included)")
    ids = [idle_stats("r%d-%s" % (i + 1, tag)) for i in range(R)]
    if any(x is None for x in ids):
        fails.append("%s: no handler idle counters around the timed jobs (%s-rR-%s-hs.json)" % (
            nm, pre, tag))
        continue
    ids = [x[:5] + (x[5] or 0, x[6] or 0) for x in ids]
    fed = [i for i in range(R) if ids[i][1] + ids[i][5] <= IDLE_FED * ids[i][0]]
    wseq_fed[tag] = fed
    accept = (float(k["cmd"].rstrip("ns")) / 1e6 + 1048576 / (float(k["iface"]) * 1e3))

    def hmean(tag):
        """The handler's mean command time over the job, ms (None without counters)."""
        try:
            h = load(tag + "-hs")
            b, a = h["before"]["timing"], h["after"]["timing"]
            n = a["timed"] - b["timed"]
            return (a["service_ns"] - b["service_ns"] + a["wait_ns"] - b["wait_ns"]) / n / 1e6
        except (OSError, ValueError, KeyError, TypeError, ZeroDivisionError):
            return None
    hm = [hmean("r%d-%s" % (i + 1, tag)) for i in range(R)]
    notes.append("%s per round: %s MB/s; %s" % (
        nm, " ".join("%.1f" % x for x in rr), "; ".join(
            "r%d %d of %d cmds idle starts, idle %.1f ms (gap before the job %.0f ms%s), %d jump "
            "starts, the handler's mean command time %s ms (the cache's accept %.2f), guest stalls "
            "> 50 ms %.0f ms" % (i + 1, ids[i][1], ids[i][0], ids[i][2] * 1e3, ids[i][3] * 1e3,
                                 ids[i][4], ids[i][5],
                                 "-" if hm[i] is None else "%.2f" % hm[i], accept,
                         sum(stalls("r%d-%s" % (i + 1, tag))))
            for i in range(R))))
    for i in range(R):
        stream_round(nm, tag, i, rs[i], m, ids[i], i in fed)
    if not fed:
        notes.append("%s: VM-bound in every round: the VM left the timed drive's destages "
                     "idle at over %.0f%% of its writes" % (nm, 100 * IDLE_FED))

# ---- QD32 random reads ----
# zlt0's QD32 IOPS (commands costing 1.1 ms each, in parallel) is the timed
# path's capacity C32, shown and used in the VM-bound floor; whether a
# round was fed is its serial calibration's (zlt6 at 1 / FIFO's model IOPS,
# zlt7 at 1 / SPTF's: one command at a time), as for the streams: fed when
# it reached 0.95 of its exact IOPS.
cap32 = iops(rounds("z_qd32"))
m_f, m_s = model["QD32 4 KiB random read, FIFO"], model["QD32 4 KiB random read, SPTF"]
fifo, sptf = iops(rounds("fifo")), iops(rounds("sptf"))
notes.append("QD32 per round: FIFO %s, SPTF %s, zlt0 %s IOPS" % tuple(
    " ".join("%.1f" % iops([x]) for x in rounds(t)) for t in ("fifo", "sptf", "z_qd32")))
check("QD32 FIFO (hard)", "IOPS", m_f, fifo, cap32, 0, 1.10 * m_f, "<= model +10%")
check("QD32 SPTF (hard)", "IOPS", m_s, sptf, cap32, 0, 1.10 * m_s, "<= model +10%")
# SPTF chooses among the commands waiting at the drive: the model's figure is
# a closed loop at QD32 (31 to choose among, the completed one's replacement
# not sent yet); the handler counts how many it chose among
# (sptf_candidates / sptf_choices), fewer when the guest's resubmissions or
# the runner's threads lag.  The fed figure is judged against the model at
# that depth (sptf_iops_by_qd, the same job at QD 1..32, interpolated at
# mean candidates + 1; the curve is concave, so the model at the mean depth
# is at least the model's mean over the depths seen: not a looser bound).
# Counted over the SPTF QD32 jobs only (their -hs.json): zlts also serves the
# hc620 streams.
m_s_q, depth = m_s, None
try:
    st = {"sptf_choices": 0, "sptf_candidates": 0}
    for i in range(1, R + 1):
        h = load("r%d-sptf-hs" % i)
        for k in st:
            st[k] += h["after"]["timing"][k] - h["before"]["timing"][k]
    by_qd = mj.get("sptf_iops_by_qd") or []
    if st.get("sptf_choices") and len(by_qd) >= 2:
        depth = min(max(st["sptf_candidates"] / st["sptf_choices"] + 1, 1.0), float(len(by_qd)))
        lo_q = int(math.floor(depth))
        hi_q = min(lo_q + 1, len(by_qd))
        m_s_q = by_qd[lo_q - 1] + (by_qd[hi_q - 1] - by_qd[lo_q - 1]) * (depth - lo_q)
        notes.append("QD32 SPTF: the handler chose among %.2f commands on average (%d choices): "
                     "the model at QD %.2f is %.1f IOPS (%.1f at QD %d)" % (
                         depth - 1, st["sptf_choices"], depth, m_s_q, by_qd[-1], len(by_qd)))
except (OSError, ValueError, KeyError, TypeError):
    pass
if depth is None:
    notes.append("QD32 SPTF: no queue depth from the handler (sptf_choices) or the model "
                 "(sptf_iops_by_qd): judged at the full queue")
m_ratio = m_s / m_f


QD32_RAMP_S = 2.0   # the QD32 jobs' --ramp_time (checks/27-timing.sh)


def qd32(tag, name, m_full, m_judge, floor_base, floor_k, why):
    """Judge a QD32 figure per round by its serial calibration; returns fed
    rounds.  The guest's stalls inside each job's measured window are added
    to the model's time for its commands, as for the streams: the handler
    and the guest's fio stand still while the model's clock runs (run P:
    FIFO 11.1 IOPS in a round where the drive was busy 32% of fio's time);
    a round passing only with them says so."""
    if tag not in pace:
        fails.append("%s: no serial calibration pace in %s-cal.json" % (name, pre))
        return []
    exact = 1e9 / pace[tag]
    rs, cs = rounds(tag), rounds("s_" + tag)
    ri, ci = [iops([x]) for x in rs], [iops([x]) for x in cs]
    check(name + " ser. cal. (hard)", "IOPS", exact, max(ci), None, 0, 1.02 * exact,
          "one command at a time: <= its pace +2%, every round")
    notes.append("%s per round: %s IOPS; serial calib. (exact %.1f) %s; %s" % (
        name, " ".join("%.1f" % x for x in ri), exact, " ".join("%.1f" % x for x in ci),
        "; ".join("r%d %s, %s" % (i + 1, busy_note("r%d-%s" % (i + 1, tag), rs[i], 1e3 / m_full,
                                                    QD32_RAMP_S),
                                  busy_note("r%d-s_%s" % (i + 1, tag), cs[i], pace[tag] / 1e6,
                                            QD32_RAMP_S))
                  for i in range(R))))
    ids = [idle_stats("r%d-%s" % (i + 1, tag)) for i in range(R)]
    # the timed drive's own idle time over the job (its boundary, the gap
    # since the previous job, taken out), against the job's time (ramp and
    # runtime: the counters include the ramp): a round whose serial
    # calibration, in the job before or after it, was fed may still have
    # left this drive idle (run Q: SPTF round 1, 931 ms idle in 7 gaps with
    # the calibration at 0.98 of its exact IOPS: 0.75 of the model), as
    # run M showed for the streams; such a round is judged VM-bound
    idle_share = [ids[i][2] / (rs[i]["runtime"] / 1e3 + QD32_RAMP_S) if ids[i] else 0.0
                  for i in range(R)]
    notes.append("%s: the timed disk's idle starts: %s" % (name, "; ".join(
        "r%d %s" % (i + 1, "%d of %d cmds, idle %.1f ms (%.1f%% of the job; gap before the job "
                    "%.0f ms%s)" % (ids[i][1], ids[i][0], ids[i][2] * 1e3, 100 * idle_share[i],
                                    ids[i][3] * 1e3, ids[i][4])
                    if ids[i] else "no counters") for i in range(R))))
    st = [window_stalls("r%d-%s" % (i + 1, tag), QD32_RAMP_S, rs[i]["runtime"] / 1e3)
          for i in range(R)]
    if any(x is None for x in st):
        notes.append("%s: no stall times from the probe (at_s): no stall allowed" % name)
        st = [x or 0.0 for x in st]
    stall_s[tag] = st
    notes.append("%s: the guest's stalls > 50 ms inside fio's measured window: %s" % (
        name, " ".join("r%d %.3f s" % (i + 1, st[i]) for i in range(R))))
    fed = [i for i in range(R) if ci[i] >= FED * exact and idle_share[i] <= IDLE_FED]
    idle_out = [i for i in range(R) if ci[i] >= FED * exact and idle_share[i] > IDLE_FED]
    if idle_out:
        notes.append("%s: round(s) %s fed by the serial calibration, but the timed drive was idle "
                     "%s of its job (> %.0f%%): not fed (VM-bound)" % (
                         name, ",".join(str(i + 1) for i in idle_out),
                         " ".join("%.1f%%" % (100 * idle_share[i]) for i in idle_out),
                         100 * IDLE_FED))
    starved = [i for i in range(R) if i not in fed]

    def with_stalls(base, k, sel, what):
        """k x the round(s)' commands / (their time at base IOPS + their stalls)."""
        n = sum(rs[i]["total_ios"] for i in sel)
        s = sum(st[i] for i in sel)
        lo = k * n / (n / base + s)
        return lo, "%s%s" % (what, "; the guest's stalls %.3f s added to the model's time%s" % (
            s, " (passes only with them)" if iops([rs[i] for i in sel]) < k * base else "")
            if s else "")
    if starved:
        notes.append("%s: round(s) %s not fed (serial calib. %s of its exact %.1f, >= %.2f x "
                     "needed; the timed drive idle %s of its job, <= %.0f%% needed)" % (
                         name, ",".join(str(i + 1) for i in starved),
                         " ".join("%.1f" % ci[i] for i in starved), exact, FED,
                         " ".join("%.1f%%" % (100 * idle_share[i]) for i in starved),
                         100 * IDLE_FED))
        lo, why_s = with_stalls(floor_base, floor_k, starved, "VM-bound (serial calib. < %.2f x "
                                "exact, or the drive idle > %.0f%% of the job): %s" % (
                                    FED, 100 * IDLE_FED, why))
        check(name + (" starved rounds" if fed else ""), "IOPS", m_full,
              iops([rs[i] for i in starved]), iops([cs[i] for i in starved]), lo,
              1.1 * m_full, why_s)
    if fed:
        lo, why_f = with_stalls(m_judge, 0.9, fed, "fed in round(s) %s (serial calib. >= %.2f x "
                                "exact, the drive idle <= %.0f%% of the job): model%s +-10%%" % (
                                    ",".join(str(i + 1) for i in fed), FED, 100 * IDLE_FED,
                                    "" if m_judge == m_full else
                                    " at the queue depth the handler saw (%s)" % (
                                        "%.2f" % depth if depth else "32, unknown")))
        check(name, "IOPS", m_judge, iops([rs[i] for i in fed]), iops([cs[i] for i in fed]),
              lo, 1.1 * m_judge, why_f)
    else:
        notes.append("%s: VM-bound in every round" % name)
    return fed


stall_s = {}   # QD32 per job tag, per round: the guest's stalls in fio's window, s


fed_f = qd32("fifo", "QD32 FIFO", m_f, m_f, min(cap32, m_f), 0.85,
             ">= 0.85 x min(zlt0 %.0f, model)" % cap32)
fed_s = qd32("sptf", "QD32 SPTF", m_s, m_s_q, min(cap32, m_f), 0.85,
             ">= 0.85 x min(zlt0 %.0f, FIFO's model): SPTF never worse than FIFO fed" % cap32)


def iops_unstalled(tag, sel):
    """IOPS over the rounds @sel with the guest's stalls in fio's window out of the time."""
    rs = rounds(tag)
    return sum(rs[i]["total_ios"] for i in sel) / max(1e-3, sum(
        rs[i]["runtime"] / 1e3 - stall_s.get(tag, [0.0] * R)[i] for i in sel))


unst = " (the guest's stalls out of both jobs' time: %.3f s SPTF, %.3f s FIFO)" % (
    sum(stall_s.get("sptf", [0.0])), sum(stall_s.get("fifo", [0.0])))
if fed_s and fed_f:
    r_s, r_f = iops_unstalled("sptf", fed_s), iops_unstalled("fifo", fed_f)
    check("QD32 SPTF / FIFO", "x", m_s_q / m_f, r_s / r_f, None, 0.9 * m_s_q / m_f, INF,
          "fed rounds: >= 0.9 x the model's at that depth" + unst)
else:
    check("QD32 SPTF / FIFO", "x", m_ratio, iops_unstalled("sptf", range(R)) /
          iops_unstalled("fifo", range(R)), None, 0.9, INF,
          "VM-bound: SPTF no worse than FIFO" + unst)

# ---- the handler's own view and the guest's timer ----
for d in ("zltf", "zlts", "zlt0", "zlt1", "zltr", "zlt2", "zlt3", "zlt4", "zlt5", "zlt6", "zlt7"):
    try:
        t = json.load(open("%s-stats-%s.json" % (pre, d))).get("timing")
    except (OSError, ValueError, KeyError):
        t = None
    if t and t["timed"]:
        notes.append("handler %s: %d timed, mechanism %.3f ms/command, queue wait %.3f ms/command"
                     % (d, t["timed"], t["service_ns"] / t["timed"] / 1e6,
                        t["wait_ns"] / t["timed"] / 1e6))
so = {}
for z in zops:
    for k, v in z["sleep_over"].items():
        so.setdefault(k, []).extend(v)
notes.append("guest timer overshoot (median / p90 ms) of sleeps of " + ", ".join(
    "%s ms: %.2f / %.2f" % (k, statistics.median(v), quantile(v, 0.9)) for k, v in so.items()))
uq1, uod, uq32 = fio("u_qd1"), fio("u_od"), fio("u_qd32")
notes.append("untimed disk: QD1 %.2f ms, seq %.0f MB/s, QD32 %.0f IOPS; calibration disks: QD1 "
             "%.2f ms (c1 %.3f, overhead %.2f), QD32 %.0f IOPS" % (
                 uq1["lat_ns"]["mean"] / 1e6, uod["bw_bytes"] / 1e6, uq32["iops"], lat_z, c1,
                 lat_z - c1, cap32))

print("%-4s %-42s %10s %10s %10s %6s %-5s %s" % ("", "figure", "model", "measured", "calib.",
                                                 "ratio", "unit", "bound"))
for l in lines:
    print(l)
for n in notes:
    print("NOTE " + n)
for f in fails:
    print("FAIL " + f)
print("SUMMARY QD1 %.2f ms (model %.2f; overhead out %.2f, calib. overhead %.2f), zone reset %.2f "
      "finish %.2f ms overhead out (model %.2f; raw medians %.2f %.2f, calib. %.2f %.2f), "
      "seq OD %.1f ID %.1f MB/s (model %.1f %.1f; serial calib. %.1f %.1f), 40/20 disk %.1f %.1f "
      "(model %.1f %.1f; serial calib. %.1f %.1f), fed rounds (idle + jump starts <= 2%%) %s, "
      "cached writes (+flush) OD %.1f ID %.1f MB/s (model %.1f %.1f), 40/20 disk %.1f %.1f "
      "(model %.1f %.1f), fed write rounds %s, "
      "jump starts (back) per round %s, QD32 FIFO %.1f SPTF %.1f IOPS (model %.1f %.1f; "
      "serial calib. %.1f %.1f; zlt0 %.0f)" % (
          lat_t, m_lat, rec, lat_z - c1, zop_rec["reset"][0], zop_rec["finish"][0],
          model["zone reset (full zone)"], zop_rec["reset"][1], zop_rec["finish"][1],
          zop_rec["reset"][2], zop_rec["finish"][2],
          rate(rounds("od")), rate(rounds("id")), model["sequential 1 MiB read, OD"],
          model["sequential 1 MiB read, ID"], rate(rounds("s_od")), rate(rounds("s_id")),
          rate(rounds("r_od")), rate(rounds("r_id")),
          slow["sequential 1 MiB read, OD"], slow["sequential 1 MiB read, ID"],
          rate(rounds("s_r_od")), rate(rounds("s_r_id")),
          " ".join("%s:%s" % (k, ",".join(str(i + 1) for i in v) or "-")
                   for k, v in seq_fed.items()) or "-",
          wseq.get("w_od", 0), wseq.get("w_id", 0), wmod["sequential 1 MiB write, OD (+flush)"],
          wmod["sequential 1 MiB write, ID (+flush)"], wseq.get("v_od", 0), wseq.get("v_id", 0),
          wslow["sequential 1 MiB write, OD (+flush)"], wslow["sequential 1 MiB write, ID (+flush)"],
          " ".join("%s:%s" % (k, ",".join(str(i + 1) for i in v) or "-")
                   for k, v in wseq_fed.items()) or "-",
          " ".join("%s:%s" % (k, ",".join("%d(%d)" % x for x in v)) for k, v in jumps.items())
          or "-", fifo, sptf, m_f, m_s,
          iops(rounds("s_fifo")), iops(rounds("s_sptf")), cap32))
sys.exit(1 if fails else 0)
