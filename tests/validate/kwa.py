#!/usr/bin/env python3
"""tests/validate/kwa.py - fs-core against the kernel (issue 22; docs/VALIDATION.md).

Reads the kernel's measurements (kwa-F-T-SEED.out, one JSON line per phase,
from the e2e check kernel_wa: tests/e2e/guest/checks/47-kernel-wa.sh), replays
the same workload in fs-core (`zonelab sim --trace` with the --reclaim and
--space-resv modes of the point's kernel: linux-6.1, linux-6.12 for 6.12..6.x,
and from 7.0 on linux-6.12's reclaim with linux-7.3's reservations, read from
the header's "kernel" line; the kernel's geometry and thresholds, and 6.12's
dynamic_reclaim and periodic_reclaim knobs where the header records them, as
`--reclaim linux-6.12:...,dynamic=D,periodic=P`), and compares write
amplification phase by phase.

  kwa.py table DIR [--zonelab Z] [--json OUT]   the comparison table (markdown)
  kwa.py check DIR EXPECT [--zonelab Z]         make check: every point within
                                                tolerance, or a listed gap whose
                                                size has not moved
  (check --results R reads the replays from a table's --json R instead of
  running them again)
  kwa.py phases DIR|FILE...                     per point and phase, the file
                                                system's own writes: user, data
                                                and metadata bytes, commits,
                                                relocations, commit storms (no
                                                replay; also part of table)
  kwa.py scenario DIR OUT                       OUT/kernel-6.1.ini and
                                                OUT/traces/: every point's
                                                workload as a fio iolog and a
                                                scenario that replays them all
                                                with the kernel's settings
                                                (`zonelab run`, docs/VALIDATION.md)
The workload of a point: the sequential fill of the file, then the random
phases.  A point measured with its offsets (kwa-*.idx) is replayed exactly;
one measured before the offsets were kept gets uniform offsets from a
generator seeded by the point (the same distribution, not the same offsets:
the table says which).
"""
import concurrent.futures
import glob
import gzip
import json
import os
import random
import re
import subprocess
import sys
import tempfile


def load_point(path):
    head, phases = None, []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            try:
                r = json.loads(line)
            except json.JSONDecodeError as e:
                raise SystemExit(f"{path}: not a JSON line ({e}): {line[:80]}")
            if "phase" in r:
                phases.append(r)
            else:
                head = r
    if head is None or not phases:
        raise SystemExit(f"{path}: no header line or no phase")
    head["_path"] = path  # where it came from: reclaim_model()'s fallback
    idx = {}
    ipath = path[:-4] + ".idx"
    opener = open
    if not os.path.exists(ipath) and os.path.exists(ipath + ".gz"):
        ipath, opener = ipath + ".gz", gzip.open
    ops = head.get("wl", "fio") != "fio"
    if ops and not os.path.exists(ipath):
        raise SystemExit(f"{path}: workload {head['wl']} without its operations ({ipath}[.gz])")
    if os.path.exists(ipath):
        with opener(ipath, "rt") as f:
            for n, line in enumerate(f, 1):
                w = line.split()
                if w and ops:
                    idx[w[0]] = parse_ops(ipath, n, w[1:])
                elif w:
                    idx[w[0]] = [int(x) for x in w[1:]]
    if ops:
        head["_slots"] = wl_slots(path, head, phases, idx)
    return head, phases, idx


def parse_ops(path, n, w):
    """One phase's operations of a multi-file workload (tests/e2e/guest/
    kwa_wl.py): "w ID BLOCK N", "t ID N" and "u ID".
    """
    out, i = [], 0
    try:
        while i < len(w):
            k = {"w": 4, "t": 3, "u": 2}[w[i]]
            out.append((w[i],) + tuple(int(x) for x in w[i + 1:i + k]))
            if len(out[-1]) != k or min(out[-1][1:]) < 0:
                raise ValueError
            i += k
    except (KeyError, ValueError):
        raise SystemExit(f"{path}:{n}: operation {len(out) + 1} ('{' '.join(w[i:i + 4])}'): "
                         f"want w ID BLOCK N, t ID N or u ID (kwa_wl.py)")
    return out


def wl_slots(path, head, phases, idx):
    """fs-core holds one file: each of the workload's files gets a range of
    that one file as large as the file ever grew (known from its
    operations), placed first-fit at its first write and freed at its
    unlink.  Returns ({file: first block}, blocks of the one file)."""
    size, order = {}, []
    for ph in phases:
        if ph["phase"] not in idx:
            raise SystemExit(f"{path}: phase {ph['phase']} has no operations in the .idx")
        for o in idx[ph["phase"]]:
            if o[0] == "w":
                if o[1] not in size:
                    size[o[1]] = 0
                size[o[1]] = max(size[o[1]], o[2] + o[3])
            order.append(o)
    base, free, top, live = {}, [], 0, set()   # free: sorted [start, end) ranges
    for o in order:
        f = o[1]
        if o[0] == "w" and f not in live:
            if f in base:
                raise SystemExit(f"{path}: f{f} written again after its unlink")
            n = size[f]
            k = next((k for k, (a, b) in enumerate(free) if b - a >= n), None)
            if k is None:
                base[f], top = top, top + n
            else:
                a, b = free[k]
                base[f] = a
                free[k:k + 1] = [(a + n, b)] if a + n < b else []
            live.add(f)
        elif o[0] in "tu" and f not in live:
            raise SystemExit(f"{path}: {o[0]} of f{f} before its first write")
        elif o[0] == "u":
            live.discard(f)
            free.append((base[f], base[f] + size[f]))
            free.sort()
            merged = []
            for a, b in free:
                if merged and merged[-1][1] == a:
                    merged[-1] = (merged[-1][0], b)
                else:
                    merged.append((a, b))
            free = merged
    return base, max(top, 1)


def wl_lines(head, phases, idx, upto):
    """The iolog lines of a multi-file workload through phase @upto: its
    files mapped to their ranges of fs-core's one file (wl_slots()), a
    truncate and an unlink a discard (fio's trim) of the blocks they free,
    a sync after each phase."""
    bs, (base, _) = head["bs"], head["_slots"]
    size, out = {}, []
    for i, ph in enumerate(phases):
        if i > upto:
            break
        for o in idx[ph["phase"]]:
            f = o[1]
            b0 = base[f]
            if o[0] == "w":
                out += [f"f write {(b0 + b) * bs} {bs}\n" for b in range(o[2], o[2] + o[3])]
                size[f] = max(size.get(f, 0), o[2] + o[3])
            elif o[0] == "t":
                if o[2] < size.get(f, 0):
                    out.append(f"f trim {(b0 + o[2]) * bs} {(size[f] - o[2]) * bs}\n")
                size[f] = o[2]
            else:
                if size.get(f):
                    out.append(f"f trim {b0 * bs} {size[f] * bs}\n")
                size.pop(f, None)
        out.append("f sync 0 0\n")
    return out


def phase_writes(head, ph, idx, rng):
    """Block numbers the phase wrote (as the kernel run did, or drawn)."""
    bs, nb = head["bs"], head["file_bytes"] // head["bs"]
    if ph["phase"] == "fill":
        return list(range(nb)), True
    if ph["phase"] in idx:
        got = idx[ph["phase"]]
        if len(got) < ph["app_bytes"] // bs:
            raise SystemExit(f"{head['point']} phase {ph['phase']}: {len(got)} offsets kept, "
                             f"fio wrote {ph['app_bytes'] // bs} blocks")
        return got, True
    return [rng.randrange(nb) for _ in range(head["phase_bytes"] // bs)], False


def write_iolog(path, head, phases, idx, upto, as_run=True):
    """The workload through phase @upto (index), a sync after each phase:
    @as_run, the writes the kernel completed (a phase fio stopped at a
    failed write is cut there); else the workload as intended."""
    rng = random.Random(head["seed"] * 7919 + head["threshold"]["data"])
    bs = head["bs"]
    exact = True
    if "_slots" in head:
        # a multi-file workload: the operations as run (also @as_run false:
        # the operations after a failed write were never drawn)
        with open(path, "w") as f:
            f.write("fio version 2 iolog\nf add\nf open\n")
            f.write("".join(wl_lines(head, phases, idx, upto)))
        return True
    with open(path, "w") as f:
        f.write("fio version 2 iolog\nf add\nf open\n")
        for i, ph in enumerate(phases):
            blocks, ex = phase_writes(head, ph, idx, rng)
            exact = exact and ex
            if i > upto:
                continue
            if as_run:
                blocks = blocks[:ph["app_bytes"] // bs]
            n = buffered_fsync(head)
            if n:
                # fio's fsync=N: the file's fsync after every N writes of
                # the phase (fs-core: a datasync, writeback without commit)
                f.write("".join(f"f write {b * bs} {bs}\n" + ("f datasync 0 0\n" if (k + 1) % n == 0 else "")
                                for k, b in enumerate(blocks)))
            else:
                f.write("".join(f"f write {b * bs} {bs}\n" for b in blocks))
            f.write("f sync 0 0\n")
    return exact


# The kernel version each point records (its .out header's "kernel": the
# guest's /proc/version, "Linux version 6.12.117+deb13-amd64 ..."), and the
# fs-core models that follow that kernel, (--reclaim, --space-resv):
# from 7.0 on 6.12's reclaim list (7.3's differs only off these defaults:
# docs/VALIDATION.md, "Linux 7.3: the stored points") with 7.3's reservations,
# linux-6.12 for 6.12..6.x, linux-6.1 below.
MODELS = [((7, 0), ("linux-6.12", "linux-7.3")), ((6, 12), ("linux-6.12", "linux-6.12")),
          ((0, 0), ("linux-6.1", "linux-6.1"))]


def kernel_release(head, path=""):
    """(major, minor) of the kernel a point ran on: the header's "kernel"
    line, else the data directory's name (tests/data/kernel-6.12), else
    None."""
    m = re.search(r"Linux version (\d+)\.(\d+)", head.get("kernel") or "")
    if not m:
        m = re.search(r"kernel-(\d+)\.(\d+)", os.path.basename(os.path.dirname(os.path.abspath(path))))
    return (int(m.group(1)), int(m.group(2))) if m else None


def models(head, path=""):
    """(--reclaim, --space-resv) modes for a point: by its kernel's version
    (linux-6.1 when the point does not say: every point stored before issue 30)."""
    rel = kernel_release(head, path)
    if rel is None:
        return MODELS[-1][1]
    return next(m for v, m in MODELS if rel >= v)


def reclaim_model(head, path=""):
    """The --reclaim mode for a point (models())."""
    return models(head, path)[0]


def resv_model(head, path=""):
    """The --space-resv mode for a point (models())."""
    return models(head, path)[1]


# 6.12's per-space sysfs knobs as the header records them (kernel_wa's dyn=
# and per=, read back from allocation/{data,metadata,system}), and the
# --reclaim parameter each becomes; fs-core has one setting for every space
KNOBS = (("dynamic_reclaim", "dynamic"), ("periodic_reclaim", "periodic"))


def knobs(head):
    """{"dynamic": 0|1, "periodic": 0|1} for the knobs the point's header
    records (none for a kernel without them, or a point stored before they
    were recorded: then fs-core's default, off, as the kernel's).  Raises
    SystemExit when a knob differs between spaces, which fs-core cannot
    replay."""
    got = {}
    for k, param in KNOBS:
        v = head.get(k)
        if v is None:
            continue
        if len(set(v.values())) != 1:
            raise SystemExit(f"{head['point']}: {k} differs between spaces ({v}); fs-core's "
                             f"--reclaim {param}= sets every space alike")
        got[param] = 1 if next(iter(v.values())) else 0
    return got


def reclaim_spec(head):
    """--reclaim's value: the kernel's model with the point's thresholds,
    and its knobs from the header (linux-6.12's parameters; a point whose
    model has no knobs but which ran with one on is refused)."""
    t = head["threshold"]
    model = reclaim_model(head, head.get("_path", ""))
    spec = f"{model}:data={t['data']},meta={t['metadata']},sys={t['system']},global={t['global']}"
    kn = knobs(head)
    if model == "linux-6.1":
        on = [p for p, v in kn.items() if v]
        if on:
            raise SystemExit(f"{head['point']}: {', '.join(on)} on, but its kernel replays with "
                             f"linux-6.1, which has no such knob")
        return spec
    return spec + "".join(f",{p}={v}" for p, v in kn.items())


# Buffered points (header direct=0): the largest extent writeback allocates.
# The kernel's fs_info->max_extent_size, zoned: the device's zone append
# limit (btrfs_check_zoned_mode()); the stored point's fsync batches (16 x
# 64 KiB) stay below it: with 1 MiB extents fs-core's model gives the
# kernel's sysfs data "used" at every phase (docs/VALIDATION.md)
KWA_MAX_EXTENT = 1 << 20


def buffered_fsync(head):
    """fio's fsync=N of a buffered point (0: none or O_DIRECT)."""
    return 0 if head.get("direct", 1) else int(head.get("fsync", 0))


# fs-core's tree indexes the file in 4 KiB blocks; btrfs's fs tree holds one
def sim_args(head):
    z = head["zone_bytes"]
    # --meta-model btrfs: the kernel's trees, their sizes from the 16 KiB
    # node (mkfs's default) and the extent size, the point's block size
    # the reservations follow the same kernel: 6.12's overcommit from 6.12 on, 7.3's from 7.0
    return ["--meta-model", "btrfs", "--extent-size", str(head["bs"]), "--space-resv",
            resv_model(head, head.get("_path", "")), "--zones", str(head["disk_bytes"] // z), "--zone-size", str(z), "--conv", "0",
            "--profile", "single", "--meta-profile", "dup", "--placement", "reloc",
            "--reserve", "0",
            "--reclaim", reclaim_spec(head),
            # commits come from the phases' syncs (the kernel ran with commit=KWA_COMMIT)
            "--commit-interval-ms", str(head["commit_s"] * 1000), "--commit-bytes", "1T",
            "--qd", "1", "--timing", "closed", "--file-size", str(file_size(head))] + \
        ([] if head.get("direct", 1) else ["--buffered", str(KWA_MAX_EXTENT)])


def file_size(head):
    """fs-core's one file: the point's file, or its slots (wl_slots())."""
    if "_slots" in head:
        return head["_slots"][1] * head["bs"]
    return head["file_bytes"]


def run_sim(zonelab, iolog, head):
    p = subprocess.run([zonelab, "sim", "--trace", iolog, "--trace-format", "iolog"] + sim_args(head),
                       capture_output=True, text=True)
    try:
        return json.loads(p.stdout)
    except json.JSONDecodeError:
        raise SystemExit(f"zonelab sim on {iolog} printed no JSON (exit {p.returncode}): "
                         f"{p.stderr.strip()[:300]}")


def fscore_intended(zonelab, head, phases, idx):
    """fs-core on the workload as intended (every phase whole): the user
    bytes before its first failed write, or None."""
    with tempfile.TemporaryDirectory() as d:
        log = os.path.join(d, "w.iolog")
        write_iolog(log, head, phases, idx, len(phases) - 1, as_run=False)
        j = run_sim(zonelab, log, head)
        return (j["wa"]["user_bytes"], j["error"]) if j["error"] != "none" else (None, "none")


def fscore_phases(zonelab, head, phases, idx):
    """Cumulative device bytes after each phase (a replay of each prefix of
    the writes the kernel completed)."""
    out = []
    with tempfile.TemporaryDirectory() as d:
        log = os.path.join(d, "w.iolog")
        exact = True
        for i in range(len(phases)):
            exact = write_iolog(log, head, phases, idx, i)
            j = run_sim(zonelab, log, head)
            wa = j["wa"]
            out.append({"user": wa["user_bytes"], "data": wa["data_bytes"] + wa["relocation_bytes"],
                        "meta": wa["metadata_bytes"] + wa["redirty_bytes"] + wa["zeros_bytes"],
                        "sb": wa["superblock_bytes"], "error": j["error"],
                        "relocated": j["block_groups"]["relocated"],
                        "chunk_zones": sum(j.get("reclaim", {}).get("chunk_zones", {}).values()),
                        "victims": j.get("reclaim", {}).get("victims_used_tenths", [])})
            if j["error"] != "none":
                break  # later prefixes end there too
    return out, exact


# a phase whose metadata writes exceed STORM x its user bytes (and a zone)
# is a commit storm: the file system rewrote its trees far more often than
# the user's data needed (7.3 at 45%/75: 8 GiB of metadata for 115 MiB)
STORM = 10


def relocs(ph):
    """A phase's relocations by type: from the tracepoint
    btrfs_reclaim_block_group where kernel_wa recorded it (not
    rate-limited), else from the kernel log's "relocating block group"."""
    return ph.get("reloc_tp") or ph["reloc"]


def victims_used(ph):
    """Used % of each block group reclaim picked in the phase."""
    if "victims_tp" in ph:
        return list(ph["victims_tp"])
    return [u for u, _ in ph["victims"]]


def storm(ph, zone_bytes):
    return ph["bt_meta"] >= zone_bytes and ph["bt_meta"] > STORM * ph["app_bytes"]


def sb_bytes(ph):
    """A phase's superblock bytes: blktrace's, unless blktrace recorded no
    FUA write while the handler counted some (>= 6.19: a version-1 trace
    drops every REQ_FUA request, docs/E2E.md "Kernels"); then the
    handler's FUA bytes, btrfs's only FUA writes being its superblocks."""
    if "dev_fua_bytes" in ph and not ph.get("bt_fua") and not ph["bt_sb"]:
        return ph["dev_fua_bytes"]
    return ph["bt_sb"]


def kernel_cum(phases):
    out, c = [], {"user": 0, "data": 0, "meta": 0, "sb": 0, "reloc": 0}
    for ph in phases:
        c = dict(c)
        c["user"] += ph["app_bytes"]
        c["data"] += ph["bt_data"]
        c["meta"] += ph["bt_meta"]
        c["sb"] += sb_bytes(ph)
        c["reloc"] += sum(relocs(ph).values())
        c["error"] = ph["fio_error"]
        out.append(c)
    return out


def ratio(a, b):
    return a / b if b else 0.0


def compare(zonelab, path):
    head, phases, idx = load_point(path)
    k = kernel_cum(phases)
    f, exact = fscore_phases(zonelab, head, phases, idx)
    fill = 0  # window: the random phases (after the fill)
    last = len(phases) - 1
    r = {"point": head["point"], "file_pct": round(100 * head["file_bytes"] / head["disk_bytes"]),
         "threshold": head["threshold"]["data"], "seed": head["seed"], "exact_offsets": exact,
         "kernel_version": head["kernel"].split("Debian ")[-1].split(" ")[0],
         "model": reclaim_model(head, path)}
    if resv_model(head, path) != r["model"]:
        r["space_resv"] = resv_model(head, path)
    # first failed write (kernel: fio stopped a phase with an error, ENOSPC
    # or, once a transaction aborted, EROFS); whether writes went on after it
    kfail = next((i for i, ph in enumerate(phases) if ph["fio_error"]), None)
    r["kernel_enospc_after"] = k[kfail]["user"] if kfail is not None else None
    r["kernel_errors"] = sorted({ph["fio_error"] for ph in phases if ph["fio_error"]})
    r["kernel_recovered"] = kfail is not None and any(ph["app_bytes"] for ph in phases[kfail + 1:])
    r["kernel_stuck_from"] = next((phases[i]["phase"] for i in range(len(phases))
                                   if all(not ph["app_bytes"] for ph in phases[i:])), None)
    r["fscore_enospc_after"], r["fscore_error"] = fscore_intended(zonelab, head, phases, idx)
    # the window: the random phases through the kernel's last write, as far
    # as fs-core's replay of those writes went
    ffail = next((i for i, x in enumerate(f) if x["error"] != "none"), None)
    klast = max((i for i, ph in enumerate(phases) if ph["app_bytes"]), default=0)
    if 30 in r["kernel_errors"]:
        # the transaction aborted (EROFS from then on) in the reclaim after
        # the last phase that wrote: that phase's bytes stop where the abort
        # cut the pass short, fs-core's do not; leave it out
        klast -= 1
    r["kernel_aborted"] = 30 in r["kernel_errors"]
    end = min(klast, ffail - 1 if ffail is not None else last)
    if end <= fill:
        r["window"] = None
    else:
        du = k[end]["user"] - k[fill]["user"]
        r["window"] = [phases[fill + 1]["phase"], phases[end]["phase"]]
        r["kernel_data_wa"] = ratio(k[end]["data"] - k[fill]["data"], du)
        r["kernel_total_wa"] = ratio(sum(k[end][x] - k[fill][x] for x in ("data", "meta", "sb")), du)
        fu = f[end]["user"] - f[fill]["user"]
        r["fscore_data_wa"] = ratio(f[end]["data"] - f[fill]["data"], fu)
        r["fscore_total_wa"] = ratio(sum(f[end][x] - f[fill][x] for x in ("data", "meta", "sb")), fu)
        r["data_wa_ratio"] = ratio(r["fscore_data_wa"], r["kernel_data_wa"])
        r["total_wa_ratio"] = ratio(r["fscore_total_wa"], r["kernel_total_wa"])
    # per phase: data bytes written / user bytes, both sides
    r["phases"] = []
    for i in range(1, len(phases)):
        row = {"phase": phases[i]["phase"]}
        ku = k[i]["user"] - k[i - 1]["user"]
        row["kernel"] = round(ratio(k[i]["data"] - k[i - 1]["data"], ku), 3) if ku else None
        row["kernel_relocs"] = relocs(phases[i])["data"] + relocs(phases[i])["metadata"]
        # space allocated to chunks after the phase, % of the disk (the gate's
        # figure): the kernel's from sysfs (DUP counted twice), fs-core's zones
        s = phases[i]["space"]
        copies = {"DUP": 2}
        prof = dict(x.split(":") for x in head["profiles"].split())
        row["kernel_alloc_pct"] = round(100 * (s["data"][0] * copies.get(prof.get("Data"), 1) +
                                              s["metadata"][0] * copies.get(prof.get("Metadata"), 1) +
                                              s["system"][0] * copies.get(prof.get("System"), 1))
                                        / head["disk_bytes"])
        if i < len(f):
            fu = f[i]["user"] - f[i - 1]["user"]
            row["fscore"] = round(ratio(f[i]["data"] - f[i - 1]["data"], fu), 3) if fu else None
            row["fscore_relocs"] = f[i]["relocated"] - f[i - 1]["relocated"]
            row["fscore_alloc_pct"] = round(100 * f[i]["chunk_zones"] * head["zone_bytes"] /
                                            head["disk_bytes"])
        r["phases"].append(row)
    # victims' used fraction at their pick, in tenths
    kv = [0] * 11
    for ph in phases:
        for u in victims_used(ph):
            kv[min(u // 10, 10)] += 1
    r["kernel_victims_tenths"] = kv
    r["fscore_victims_tenths"] = f[-1]["victims"] if f else []
    r["kernel_relocations"] = k[-1]["reloc"]
    # a phase that wrote more data beyond the user's than its logged
    # relocations can move (a block group each) lost some from the kernel log
    # (points measured before kernel_wa drained the log each phase): the
    # count is then a lower bound
    # counted from the tracepoint, it is complete unless its ring overran
    if all("reloc_tp" in ph for ph in phases):
        r["kernel_relocations_complete"] = not any(ph.get("tp_overrun", 0) for ph in phases)
    else:
        r["kernel_relocations_complete"] = not any(
            ph["bt_data"] - ph["app_bytes"] > (sum(ph["reloc"].values()) + 1) * head["zone_bytes"]
            for ph in phases)
    r["fs_phases"] = fs_phases(head, phases)
    r["fscore_relocations"] = f[-1]["relocated"] if f else 0
    r["timing"] = timing(head, r["phases"])
    r["shape"] = shape(head)
    return r


def fs_phases(head, phases):
    """Per phase, what the file system itself wrote beside the user's
    bytes: blktrace's data / metadata (REQ_META) bytes, commits
    (/sys/fs/btrfs/UUID/commit_stats), relocations by both sources, and
    whether blktrace dropped events (its bytes are then a lower bound)."""
    out = []
    for ph in phases:
        tp = ph.get("reloc_tp")
        out.append({"phase": ph["phase"], "user": ph["app_bytes"], "data": ph["bt_data"],
                    "meta": ph["bt_meta"], "commits": ph["commits"],
                    "relocs_tp": sum(tp.values()) if tp else None,
                    "relocs_log": sum(ph["reloc"].values()),
                    "log_suppressed": ph.get("log_suppressed"),
                    "bt_dropped": ph.get("bt_dropped"), "fio_error": ph["fio_error"],
                    "storm": storm(ph, head["zone_bytes"])})
    return out


def phases_table(point, rows):
    """The per-phase table of one point (markdown)."""
    lines = [f"{point}: per phase, the file system's writes beside the user's (MiB; a commit "
             f"storm: metadata > {STORM}x user)", "",
             "| phase | user | data | metadata | meta/user | commits | relocations tp / log "
             "| blktrace dropped | fio error | |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
    for p in rows:
        sup = p["log_suppressed"]
        log = f"{p['relocs_log']}" + (f" ({sup} suppressed)" if sup else "")
        lines.append(f"| {p['phase']} | {mib(p['user'])} | {mib(p['data'])} | {mib(p['meta'])} | "
                     f"{fmt(ratio(p['meta'], p['user']), 1) if p['user'] else '-'} | {p['commits']} | "
                     f"{fmt(p['relocs_tp'])} / {log} | {fmt(p['bt_dropped'])} | "
                     f"{p['fio_error'] or '-'} | {'commit storm' if p['storm'] else ''} |")
    return "\n".join(lines)


def shape(head):
    """What sets a point apart from the first grid's (issue 31's shapes)."""
    s = [] if head.get("tag") is None else [head["tag"] or "grid"]
    if head.get("wl", "fio") != "fio":
        s.append({"files": "several files, deletes and truncates",
                  "applog": "append log, oldest files deleted"}.get(head["wl"], head["wl"]))
    if head["zone_bytes"] != 16 << 20 or head["disk_bytes"] != 1 << 30:
        s.append(f"{head['disk_bytes'] >> 20} MiB disk, {head['zone_bytes'] >> 20} MiB zones")
    if head["bs"] != 65536:
        s.append(f"{head['bs'] >> 10} KiB writes")
    if head.get("dist", "random") != "random":
        s.append(head["dist"])
    s += [f"{k}=1" for k, _ in KNOBS if any(head.get(k, {}).values())]
    if not head.get("direct", 1):
        s.append(f"buffered, fsync every {head.get('fsync', 0)}" if head.get("fsync") else "buffered")
    return ", ".join(s) or "grid"


def timing(head, rows):
    """Reclaim's timing phase by phase (issue 31): each side's chunks
    allocated after each phase in zones (one metadata chunk is 2 zones
    with DUP: the tolerance), and the phases with a reclaim burst (a phase
    writing 1.1x its user bytes or more as data: the device's bytes, exact
    also where the kernel log lost relocation messages)."""
    zpct = 100 * head["zone_bytes"] / head["disk_bytes"]
    t = {"alloc_gaps": [], "kernel_bursts": [], "fscore_bursts": []}
    for p in rows:
        if p.get("fscore_alloc_pct") is None or p["kernel"] is None:
            continue
        gap = round((p["fscore_alloc_pct"] - p["kernel_alloc_pct"]) / zpct)
        if abs(gap) > 2:
            t["alloc_gaps"].append([p["phase"], gap])
        if p["kernel"] >= 1.1:
            t["kernel_bursts"].append(p["phase"])
        if p.get("fscore") is not None and p["fscore"] >= 1.1:
            t["fscore_bursts"].append(p["phase"])
    t["same_bursts"] = t["kernel_bursts"] == t["fscore_bursts"]
    return t


def fmt(x, p=2):
    return "-" if x is None else (f"{x:.{p}f}" if isinstance(x, float) else str(x))


def mib(x):
    return "-" if x is None else f"{x / 1048576:.0f}"


def after(r):
    if r["kernel_enospc_after"] is None:
        return "-"
    errs = "/".join({28: "ENOSPC", 30: "EROFS"}.get(e, str(e)) for e in r["kernel_errors"])
    s = "writes went on" if r["kernel_recovered"] else "no write after it"
    if r["kernel_stuck_from"] and r["kernel_recovered"]:
        s += f", none from {r['kernel_stuck_from']} on"
    return f"{errs}; {s}"


def table(results):
    lines = ["| point (F% T seed) | offsets | kernel data WA | fs-core data WA | ratio | kernel total WA "
             "| fs-core total WA | relocations k / f | first failed write after MiB k / f | kernel after it |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|---|"]
    for r in results:
        name = f"{r['file_pct']} {r['threshold']} {r['seed']}"
        if r.get("shape", "grid") != "grid":
            name = f"{r['point']}: {r['shape']}"
        if r.get("model", "linux-6.1") != "linux-6.1":
            name += f" ({r['model']}{', ' + r['space_resv'] if 'space_resv' in r else ''})"
        lines.append(f"| {name} | "
                     f"{'exact' if r['exact_offsets'] else 'drawn'} | {fmt(r.get('kernel_data_wa'))} | "
                     f"{fmt(r.get('fscore_data_wa'))} | {fmt(r.get('data_wa_ratio'))} | "
                     f"{fmt(r.get('kernel_total_wa'))} | {fmt(r.get('fscore_total_wa'))} | "
                     f"{r['kernel_relocations']}{'' if r['kernel_relocations_complete'] else '+'} / "
                     f"{r['fscore_relocations']} | "
                     f"{mib(r['kernel_enospc_after'])} / {mib(r['fscore_enospc_after'])} | "
                     f"{after(r)} |")
    lines.append("")
    lines.append("Per phase: device data bytes / user bytes (relocations) [chunks allocated, % of "
                 "the disk, after the phase], kernel | fs-core:")
    for r in results:
        lines.append(f"- {r['point']}: " + " ".join(
            f"{p['phase']} {fmt(p['kernel'])}({p['kernel_relocs']})[{p['kernel_alloc_pct']}]|"
            f"{fmt(p.get('fscore'))}({p.get('fscore_relocs', '-')})[{p.get('fscore_alloc_pct', '-')}]"
            for p in r["phases"]))
    lines.append("")
    lines.append("Reclaim's timing: bursts (phases writing >= 1.1x their user bytes as data) "
                 "kernel | fs-core, and the phases where fs-core's chunks stood more than one "
                 "metadata chunk (2 zones) from the kernel's [phase, zones fs-core - kernel]:")
    for r in results:
        t = r["timing"]
        lines.append(f"- {r['point']} ({r['shape']}): {' '.join(t['kernel_bursts']) or '-'} | "
                     f"{' '.join(t['fscore_bursts']) or '-'}{'' if t['same_bursts'] else ' (differ)'}; "
                     f"chunks {' '.join(f'{ph}:{g:+d}' for ph, g in t['alloc_gaps']) or 'within 2 zones'}")
    for r in results:
        lines.append("")
        lines.append(phases_table(r["point"], r["fs_phases"]))
    lines.append("")
    lines.append("Victims by used % at their pick, tenths 0-9%..100% (kernel | fs-core):")
    for r in results:
        lines.append(f"- {r['point']}: {r['kernel_victims_tenths']} | {r['fscore_victims_tenths']}")
    return "\n".join(lines)


def scenario(d, out):
    """Every point's intended workload as OUT/traces/kwa-F-T-SEED.iolog and
    OUT/kernel-6.1.ini, a scenario zipping them with each point's own
    settings (the file size and the thresholds; the rest is the same at
    every point) so `zonelab run` replays the lot, and a researcher can
    sweep anything else over the kernel's workloads."""
    files = sorted(glob.glob(os.path.join(d, "kwa-*.out")))
    if not files:
        raise SystemExit(f"{d}: no kwa-*.out (the kernel_wa check's results)")
    tdir = os.path.abspath(os.path.join(out, "traces"))
    os.makedirs(tdir, exist_ok=True)
    heads, traces = [], []
    for path in files:
        head, phases, idx = load_point(path)
        t = os.path.join(tdir, os.path.basename(path)[:-4] + ".iolog")
        write_iolog(t, head, phases, idx, len(phases) - 1, as_run=False)
        heads.append(head)
        traces.append(t)
    args = sim_args(heads[0])
    fixed = {args[i][2:]: args[i + 1] for i in range(0, len(args), 2)}
    per = {"reclaim": [], "file-size": [], "extent-size": []}
    for h in heads:
        a = sim_args(h)
        for k, v in zip(a[::2], a[1::2]):
            if k[2:] in per:
                per[k[2:]].append(v)
            elif fixed.get(k[2:]) != v:
                raise SystemExit(f"{h['point']}: {k} {v} differs from the first point's; "
                                 f"kwa.py scenario zips only {', '.join(per)}")
    for k in per:
        fixed.pop(k, None)
    q = lambda v: '"' + v + '"'
    lines = ["# kernel-6.1.ini - fs-core's side of the kernel comparison (issue 22,",
             "# docs/VALIDATION.md), written by tests/validate/kwa.py scenario from",
             f"# {d}: one point per stored kernel measurement, its workload as the",
             "# kernel ran it (the fill, then the random phases, a sync after each).",
             "# `make validate-scenario` writes and runs it; edit a copy to sweep",
             "# other settings (--clean, --reclaim, ...) over the kernel's workloads.",
             "[scenario]", "name = kernel-6.1",
             "description = fs-core (--reclaim linux-6.1, --meta-model btrfs) on the workloads measured on kernel btrfs 6.1",
             "seeds = 1", "zip = trace, " + ", ".join(per), "",
             "[sim]", "trace = [" + ", ".join(q(t) for t in traces) + "]", "trace-format = iolog"]
    lines += [f"{k} = {q(v) if ',' in v else v}" for k, v in fixed.items()]
    lines += [f"{k} = [" + ", ".join(q(v) for v in vs) + "]" for k, vs in per.items()]
    lines += ["", "[expect]", "# out of space (enospc, or EROFS after an aborted transaction) is the",
              "# kernel's outcome at 50% too (docs/VALIDATION.md); a stall is not",
              'no_stall = error != "EDEADLK"', "no_device_errors = device.write_errors == 0", ""]
    with open(os.path.join(out, "kernel-6.1.ini"), "w") as f:
        f.write("\n".join(lines))
    print(f"{out}/kernel-6.1.ini: {len(traces)} points, traces in {tdir}")
    return 0


def main(argv):
    if len(argv) >= 3 and argv[0] == "scenario":
        return scenario(argv[1], argv[2])
    if len(argv) >= 2 and argv[0] == "phases":
        files = []
        for a in argv[1:]:
            if os.path.isdir(a):
                files += sorted(glob.glob(os.path.join(a, "kwa-*.out")))
            elif os.path.isfile(a):
                files.append(a)
            else:
                raise SystemExit(f"{a}: no such file or directory (want kwa-*.out or a directory of them)")
        if not files:
            raise SystemExit(f"{' '.join(argv[1:])}: no kwa-*.out (the kernel_wa check's results)")
        for path in files:
            head, phases, _ = load_point(path)
            print(phases_table(head["point"], fs_phases(head, phases)))
            print()
        return 0
    if len(argv) < 2 or argv[0] not in ("table", "check"):
        raise SystemExit(__doc__)
    zonelab = "build/zonelab"
    if "--zonelab" in argv:
        zonelab = argv[argv.index("--zonelab") + 1]
    d = argv[1]
    files = sorted(glob.glob(os.path.join(d, "kwa-*.out")))
    if not files:
        raise SystemExit(f"{d}: no kwa-*.out (the kernel_wa check's results)")
    if "--results" in argv:
        with open(argv[argv.index("--results") + 1]) as f:
            results = json.load(f)
    else:
        # one point per CPU at a time (each is a chain of `zonelab sim` runs)
        with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as ex:
            results = list(ex.map(lambda p: compare(zonelab, p), files))
    if argv[0] == "table":
        print(table(results))
        if "--json" in argv:
            with open(argv[argv.index("--json") + 1], "w") as f:
                json.dump(results, f, indent=1)
        return 0
    with open(argv[2]) as f:
        expect = json.load(f)
    tol, bad = expect["tolerance"], []
    for r in results:
        e = expect["points"].get(r["point"])
        if e is None:
            bad.append(f"{r['point']}: not in {argv[2]}")
            continue
        if (r["kernel_enospc_after"] is None) != (r["fscore_enospc_after"] is None) and not e.get("enospc_gap"):
            bad.append(f"{r['point']}: kernel ENOSPC after {mib(r['kernel_enospc_after'])} MiB, "
                       f"fs-core after {mib(r['fscore_enospc_after'])} MiB")
        kb, fb = r["kernel_enospc_after"], r["fscore_enospc_after"]
        if kb and fb and abs(fb / kb - 1) > tol and not e.get("enospc_gap"):
            bad.append(f"{r['point']}: kernel's first failed write after {mib(kb)} MiB, fs-core's "
                       f"after {mib(fb)} MiB: over {tol:.0%} apart")
        q = r.get("data_wa_ratio")
        if q is None:
            continue
        # the ratio as last recorded: a change to fs-core that moves it shows
        # here long before it leaves the tolerance (the replay is deterministic)
        if "ratio" in e and abs(q - e["ratio"]) > expect.get("drift", 0.02):
            bad.append(f"{r['point']}: data WA ratio {q:.3f}, recorded {e['ratio']:.3f}: fs-core's "
                       f"replay moved (update expect.json if that is meant, and docs/VALIDATION.md)")
        if e.get("gap"):
            pass  # a known WA gap (docs/VALIDATION.md says why): only its drift is checked
        elif abs(q - 1) > tol:
            bad.append(f"{r['point']}: fs-core data WA {r['fscore_data_wa']:.3f} vs kernel "
                       f"{r['kernel_data_wa']:.3f}: ratio {q:.3f}, over {tol:.0%}")
        # total WA (data, metadata, superblocks): the same, its own tolerance
        qt, ttol = r["total_wa_ratio"], expect.get("total_tolerance", 0.1)
        if "total_ratio" in e and abs(qt - e["total_ratio"]) > expect.get("drift", 0.02):
            bad.append(f"{r['point']}: total WA ratio {qt:.3f}, recorded {e['total_ratio']:.3f}: "
                       f"fs-core's replay moved (update expect.json if that is meant)")
        if not e.get("total_gap") and abs(qt - 1) > ttol:
            bad.append(f"{r['point']}: fs-core total WA {r['fscore_total_wa']:.3f} vs kernel "
                       f"{r['kernel_total_wa']:.3f}: ratio {qt:.3f}, over {ttol:.0%}")
        print(f"{r['point']}: data WA kernel {fmt(r.get('kernel_data_wa'), 3)} fs-core "
              f"{fmt(r.get('fscore_data_wa'), 3)} ratio {q:.3f}{' (known gap)' if e.get('gap') else ''}; "
              f"total WA kernel {fmt(r.get('kernel_total_wa'), 3)} fs-core "
              f"{fmt(r.get('fscore_total_wa'), 3)} ratio {qt:.3f}"
              f"{' (known gap)' if e.get('total_gap') else ''}")
    if bad:
        print("\n".join("FAIL " + b for b in bad))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
