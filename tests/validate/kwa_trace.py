#!/usr/bin/env python3
"""tests/validate/kwa_trace.py - what the kernel's space flusher did, from a
kernel_wa trace (KWA_TRACE=1: logs/kwa-trace-F-T-SEED.log; docs/VALIDATION.md,
"Reservations and flush commits").

  kwa_trace.py LOG                 per phase: writes, tickets, commits,
                                   metadata chunks, flush cycles that ran the
                                   delayed refs and the MiB of may_use they
                                   gave back
  kwa_trace.py LOG --cycles PHASE  per metadata ticket of PHASE: writes since
                                   the last commit, tree blocks the delayed
                                   refs states allocated (CoWs), the MiB they
                                   gave back, whether a commit followed
  kwa_trace.py LOG --slack PHASE   at each metadata ticket of PHASE: the
                                   overcommit test's terms (MiB, relative to
                                   the trace's start) and its slack, which
                                   stays constant while the kernel follows
                                   btrfs_can_overcommit() (until a metadata
                                   block group is removed: 6.1's
                                   active_total_bytes keeps it)
  kwa_trace.py LOG --rsv           (KWA_TRACE=rsv) per phase: metadata
                                   tickets (count, MiB, failed), the
                                   delayed refs reserve's refills and
                                   releases (count, MiB), the transaction
                                   starts' reserves (items; 6.12's local
                                   delayed refs top-ups), failed
                                   reservations, flusher cycles (tickets'
                                   flushes reaching ALLOC_CHUNK and
                                   COMMIT_TRANS), metadata chunks made
  kwa_trace.py LOG --rsv-bins PHASE  the same for PHASE in 5 s bins
  kwa_trace.py LOG --bgs           (KWA_TRACE=lean) after each phase, from
                                   its "# bgs" dump: the data block groups
                                   and the zones in chunks, then per
                                   metadata and system block group its
                                   used KiB and live tree blocks: how many,
                                   their generations (oldest-newest) and
                                   owners (root: count)

bytes_may_use is rebuilt from the btrfs_space_reservation events of the
metadata space (flags 4): a "space_info reserve X" followed at once by
"space_info release X" is btrfs_add_reserved_bytes() (a tree block
allocated: may_use -X, used +X), every other one changes may_use.  The
disk is the kernel_wa one (1 GiB, DUP metadata, mkfs's 5 zones in chunks).
"""
import re
import signal
import sys

RX = re.compile(r'\s(\d+\.\d+): (btrfs_\w+): \S+ (.*)')
RESV = re.compile(r'(\w+): (\d+) (reserve|release) (\d+)$')
MIB = 1 << 20


def events(path):
    """(line number, phase, time, event, its text) of each btrfs event."""
    phase = None
    with open(path, errors="replace") as f:
        for n, line in enumerate(f, 1):
            if line.startswith("# phase"):
                phase = line.split()[2] if len(line.split()) > 2 else "?"
                yield n, phase, None, "phase", ""
                continue
            m = RX.search(line)
            if m:
                yield n, phase, float(m.group(1)), m.group(2), m.group(3).rstrip()


def field(rx, rest, path, n, what):
    m = re.search(rx, rest)
    if not m:
        raise SystemExit(f"{path}:{n}: {what}: no {rx.split('=')[0]}= in '{rest[:80]}'")
    return int(m.group(1))


RSV_COLS = ("tickets", "tkt_MiB", "tkt_fail", "refill", "refill_MiB", "drel", "drel_MiB",
            "trans", "trans_MiB", "local", "local_MiB", "enospc", "cycles", "to_chunk",
            "to_commit", "mchunks", "mfreed")


def rsv(path, bins_phase=None):
    """--rsv / --rsv-bins: the reservations of KWA_TRACE=rsv, per phase or per
    5 s of one phase (docs/VALIDATION.md, "the delayed refs reserve traced")."""
    per = {}
    cur = None
    t0 = None
    try:
        evs = list(events(path))
    except OSError as e:
        raise SystemExit(f"{path}: {e.strerror}")
    for n, phase, t, ev, rest in evs:
        if ev == "phase":
            t0 = None
            if bins_phase is None:
                cur = per.setdefault(phase, dict.fromkeys(RSV_COLS, 0))
            continue
        if bins_phase is not None:
            if phase != bins_phase:
                continue
            if t0 is None:
                t0 = t
            cur = per.setdefault(f"{t0 + (t - t0) // 5 * 5:.0f}", dict.fromkeys(RSV_COLS, 0))
        if cur is None:
            raise SystemExit(f"{path}:{n}: an event before the first '# phase' line")
        if ev == "btrfs_reserve_ticket" and "flags=METADATA" in rest:
            cur["tickets"] += 1
            cur["tkt_MiB"] += field(r"bytes=(\d+)", rest, path, n, ev) / MIB
            cur["tkt_fail"] += field(r"error=(-?\d+)", rest, path, n, ev) != 0
        elif ev == "btrfs_space_reservation":
            m = RESV.search(rest)
            if not m:
                raise SystemExit(f"{path}:{n}: btrfs_space_reservation: want 'TYPE: ID reserve|release "
                                 f"BYTES', got '{rest[:80]}'")
            typ, flags, op, val = m.group(1), m.group(2), m.group(3), int(m.group(4))
            mib = val / MIB
            if typ == "delayed_refs_rsv":
                k = "refill" if op == "reserve" else "drel"
            elif typ in ("transaction", "local_delayed_refs_rsv") and op == "reserve":
                k = "trans" if typ == "transaction" else "local"
            elif typ == "enospc" and flags == "4":
                cur["enospc"] += 1
                continue
            else:
                continue
            cur[k] += 1
            cur[k + "_MiB"] += mib
        elif ev == "btrfs_flush_space" and "METADATA" in rest and "for_preempt=0" in rest:
            state = re.search(r"state=\d+\((\w+)\)", rest)
            state = state.group(1) if state else ""
            cur["cycles"] += state == "FLUSH_DELAYED_ITEMS_NR"
            cur["to_chunk"] += state == "ALLOC_CHUNK"
            cur["to_commit"] += state == "COMMIT_TRANS"
        elif ev == "btrfs_chunk_alloc" and "METADATA" in rest:
            cur["mchunks"] += 1
        elif ev == "btrfs_chunk_free" and "METADATA" in rest:
            cur["mfreed"] += 1
    print(("phase" if bins_phase is None else "t_s") + "   " + " ".join(RSV_COLS))
    for ph, c in per.items():
        print(f"{ph:7s} " + " ".join(f"{c[k]:.1f}" if k.endswith("MiB") else str(c[k]) for k in RSV_COLS))
    return 0


def bgs(path):
    """The "# bgs PHASE" dumps of a lean trace: "bg START LEN USED FLAGS",
    each followed by its tree blocks "tb ADDR LEVEL GEN ROOT".  Lines the
    serial console garbled (not of that form) are counted and skipped."""
    dumps, cur, bg, bad = [], None, None, 0
    try:
        f = open(path, errors="replace")
    except OSError as e:
        raise SystemExit(f"{path}: {e.strerror}")
    with f:
        for line in f:
            if line.startswith("# "):
                w = line.split()
                cur = None
                if len(w) > 2 and w[1] == "bgs":
                    cur = (w[2], [])
                    dumps.append(cur)
                continue
            if cur is None:
                continue
            w = line.split()
            if len(w) == 5 and w[0] == "bg" and all(x.isdigit() for x in w[1:4]):
                bg = {"start": int(w[1]), "len": int(w[2]), "used": int(w[3]), "flags": w[4], "tb": []}
                cur[1].append(bg)
            elif len(w) == 5 and w[0] == "tb" and all(x.isdigit() for x in w[1:4]) and bg:
                bg["tb"].append((int(w[3]), w[4]))
            elif w:
                bad += 1
    if not dumps:
        raise SystemExit(f"{path}: no '# bgs PHASE' dump (a KWA_TRACE=lean run has one per phase)")
    for phase, bl in dumps:
        data = [b for b in bl if b["flags"].startswith("DATA")]
        zones = sum((2 if "DUP" in b["flags"] else 1) * b["len"] for b in bl) // (data[0]["len"] if data else 1)
        meta = [b for b in bl if not b["flags"].startswith("DATA")]
        print(f"{phase}: {len(data)} data, {len(meta)} metadata/system block groups, {zones} zones in chunks")
        for b in meta:
            own = {}
            for _, root in b["tb"]:
                own[root] = own.get(root, 0) + 1
            gens = [g for g, _ in b["tb"]]
            span = f"{min(gens)}-{max(gens)}" if gens else "-"
            print((f"  {b['start'] >> 20:6d} MiB {b['flags']:<14} used {b['used'] >> 10:6d} KiB "
                   f"{len(b['tb']):4d} blocks gen {span:<10} "
                   + " ".join(f"{r}:{c}" for r, c in sorted(own.items(), key=lambda x: -x[1]))).rstrip())
    if bad:
        print(f"({bad} garbled lines skipped)")
    return 0


def main(argv):
    if not argv or argv[0].startswith("-"):
        raise SystemExit(__doc__)
    path = argv[0]
    if "--bgs" in argv:
        return bgs(path)
    if "--rsv" in argv:
        return rsv(path)
    if "--rsv-bins" in argv:
        return rsv(path, argv[argv.index("--rsv-bins") + 1])
    slack_phase = argv[argv.index("--slack") + 1] if "--slack" in argv else None
    cyc_phase = argv[argv.index("--cycles") + 1] if "--cycles" in argv else None
    disk, zone = 1 << 30, 16 << 20
    mu = alloc_bytes = gone = 0
    total = zone                    # mkfs's metadata chunk
    chunks = 5 * zone               # mkfs: data, system DUP, metadata DUP
    pend = None
    per = {}
    cur = None
    in_refs = False
    since_commit = 0
    cycle = None
    cycles = []
    try:
        evs = list(events(path))
    except OSError as e:
        raise SystemExit(f"{path}: {e.strerror}")
    for n, phase, t, ev, rest in evs:
        if ev == "phase":
            cur = per.setdefault(phase, {"writes": 0, "tickets": 0, "commits": 0, "meta_chunks": 0,
                                         "refs": 0, "refs_gave": 0.0})
            continue
        if cur is None:
            raise SystemExit(f"{path}:{n}: an event before the first '# phase' line")
        if ev == "btrfs_space_reservation":
            m = RESV.search(rest)
            if not m:
                raise SystemExit(f"{path}:{n}: btrfs_space_reservation: want 'TYPE: ID reserve|release "
                                 f"BYTES', got '{rest[:80]}'")
            typ, flags, op, val = m.group(1), m.group(2), m.group(3), int(m.group(4))
            if typ == "delalloc" and op == "reserve" and val >= 10 * 65536:
                cur["writes"] += 1
                since_commit += 1
            if flags != "4" or typ not in ("space_info", "zone_unusable"):
                continue
            if typ == "zone_unusable":
                if op == "release":
                    gone += val
                continue
            if pend is not None and op == "release" and val == pend:
                mu -= val
                alloc_bytes += val
                pend = None
                if in_refs and cycle:
                    cycle["cows"] += 1
                continue
            if pend is not None:
                mu += pend
            pend = val if op == "reserve" else None
            if op == "release":
                mu -= val
                if in_refs:
                    cur["refs_gave"] += val / MIB
                    if cycle:
                        cycle["gave"] += val / MIB
            continue
        if pend is not None:
            mu += pend
            pend = None
        if ev in ("btrfs_chunk_alloc", "btrfs_chunk_free"):
            stripes = field(r"num_stripes=(\d+)", rest, path, n, ev)
            size = field(r"size=(\d+)", rest, path, n, ev)
            sign = 1 if ev == "btrfs_chunk_alloc" else -1
            chunks += sign * stripes * size
            if "METADATA" in rest:
                total += sign * size
                cur["meta_chunks"] += sign > 0
        elif ev == "btrfs_transaction_commit":
            cur["commits"] += 1
            since_commit = 0
            if cycle:
                cycle["commit"] = True
        elif ev == "btrfs_trigger_flush" and "METADATA" in rest:
            cur["tickets"] += 1
            if phase == slack_phase:
                avail = (disk - chunks) // 2 // 8
                used = alloc_bytes - gone
                print(f"{t:.6f} total {total / MIB:.0f} avail {avail / MIB:.1f} "
                      f"may_use {mu / MIB:.2f} used {used / MIB:.2f} "
                      f"slack {(total + avail - mu - used) / MIB:.2f}")
            cycle = None
            if phase == cyc_phase:
                cycle = {"t": t, "writes": since_commit, "cows": 0, "gave": 0.0, "commit": False}
                cycles.append(cycle)
        elif ev == "btrfs_flush_space" and "METADATA" in rest:
            # a state's event comes at its end: what was given back from
            # the ticket to the end of the delayed refs states is theirs
            m = re.search(r"state=\d+\((\w+)\)", rest)
            if not m:
                raise SystemExit(f"{path}:{n}: btrfs_flush_space: no state=N(NAME) in '{rest[:80]}'")
            state = m.group(1)
            if state == "FLUSH_DELAYED_REFS_NR":
                cur["refs"] += 1
            in_refs = in_refs and state.startswith("FLUSH_DELAYED_") and state != "FLUSH_DELAYED_REFS"
        if ev == "btrfs_trigger_flush" and "METADATA" in rest:
            in_refs = True
        elif ev in ("btrfs_transaction_commit", "btrfs_reserve_ticket"):
            in_refs = False
    if slack_phase:
        return 0
    if cyc_phase:
        print("time        writes_since_commit  refs_cows  refs_gave_MiB  commit")
        for c in cycles:
            print(f"{c['t']:.6f} {c['writes']:20d} {c['cows']:10d} {c['gave']:14.1f}  "
                  f"{'yes' if c['commit'] else 'no'}")
        return 0
    print("phase  writes tickets commits meta_chunks  refs_runs  MiB_given_back_by_refs")
    for ph, c in per.items():
        print(f"{ph:5s} {c['writes']:7d} {c['tickets']:7d} {c['commits']:7d} {c['meta_chunks']:11d} "
              f"{c['refs']:10d} {c['refs_gave']:23.1f}")
    return 0


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # quiet under head
    sys.exit(main(sys.argv[1:]))
