#!/usr/bin/env python3
"""tests/validate/kwa_trace.py - what the kernel's space flusher did, from a
kernel_wa trace (KWA_TRACE=1: logs/kwa-trace-F-T-SEED.log; docs/VALIDATION.md,
"Reservations and flush commits").

  kwa_trace.py LOG                per phase: writes, tickets, commits, metadata
                                  chunks, flush cycles that ran the delayed
                                  refs and the MiB of may_use they gave back
  kwa_trace.py LOG --slack PHASE  at each metadata ticket of PHASE: the
                                  overcommit test's terms (MiB, relative to the
                                  trace's start) and its slack, which stays
                                  constant while the kernel follows
                                  btrfs_can_overcommit() (until a metadata
                                  block group is removed: 6.1's
                                  active_total_bytes keeps it)

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
MIB = 1 << 20


def events(path):
    phase = None
    with open(path, errors="replace") as f:
        for line in f:
            if line.startswith("# phase"):
                phase = line.split()[2]
                yield phase, None, "phase", ""
                continue
            m = RX.search(line)
            if m:
                yield phase, float(m.group(1)), m.group(2), m.group(3)


def main(argv):
    if not argv:
        raise SystemExit(__doc__)
    slack_phase = argv[argv.index("--slack") + 1] if "--slack" in argv else None
    disk, zone = 1 << 30, 16 << 20
    mu = alloc_bytes = gone = 0
    total = zone                    # mkfs's metadata chunk
    chunks = 5 * zone               # mkfs: data, system DUP, metadata DUP
    pend = None
    per = {}
    cur = None
    in_refs = False
    for phase, t, ev, rest in events(argv[0]):
        if ev == "phase":
            cur = per.setdefault(phase, {"writes": 0, "tickets": 0, "commits": 0, "meta_chunks": 0,
                                     "refs": 0, "refs_gave": 0.0})
            continue
        if ev == "btrfs_space_reservation":
            p = rest.split()
            typ, flags, op, val = p[0].rstrip(":"), p[1], p[2], int(p[3])
            if typ == "delalloc" and op == "reserve" and val >= 10 * 65536:
                cur["writes"] += 1
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
                continue
            if pend is not None:
                mu += pend
            pend = val if op == "reserve" else None
            if op == "release":
                mu -= val
                if in_refs:
                    cur["refs_gave"] += val / MIB
            continue
        if pend is not None:
            mu += pend
            pend = None
        if ev in ("btrfs_chunk_alloc", "btrfs_chunk_free"):
            n = int(re.search(r"num_stripes=(\d+)", rest).group(1))
            size = int(re.search(r"size=(\d+)", rest).group(1))
            sign = 1 if ev == "btrfs_chunk_alloc" else -1
            chunks += sign * n * size
            if "METADATA" in rest:
                total += sign * size
                cur["meta_chunks"] += sign > 0
        elif ev == "btrfs_transaction_commit":
            cur["commits"] += 1
        elif ev == "btrfs_trigger_flush" and "METADATA" in rest:
            cur["tickets"] += 1
            if phase == slack_phase:
                avail = (disk - chunks) // 2 // 8
                used = alloc_bytes - gone
                print(f"{t:.6f} total {total / MIB:.0f} avail {avail / MIB:.1f} "
                      f"may_use {mu / MIB:.2f} used {used / MIB:.2f} "
                      f"slack {(total + avail - mu - used) / MIB:.2f}")
        elif ev == "btrfs_flush_space" and "METADATA" in rest:
            # a state's event comes at its end: what was given back from
            # the ticket to the end of the delayed refs states is theirs
            state = re.search(r"state=\d+\((\w+)\)", rest).group(1)
            if state == "FLUSH_DELAYED_REFS_NR":
                cur["refs"] += 1
            in_refs = in_refs and state.startswith("FLUSH_DELAYED_") and state != "FLUSH_DELAYED_REFS"
        if ev == "btrfs_trigger_flush" and "METADATA" in rest:
            in_refs = True
        elif ev in ("btrfs_transaction_commit", "btrfs_reserve_ticket"):
            in_refs = False
    if slack_phase:
        return 0
    print("phase  writes tickets commits meta_chunks  refs_runs  MiB_given_back_by_refs")
    for ph, c in per.items():
        print(f"{ph:5s} {c['writes']:7d} {c['tickets']:7d} {c['commits']:7d} {c['meta_chunks']:11d} "
              f"{c['refs']:10d} {c['refs_gave']:23.1f}")
    return 0


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # quiet under head
    sys.exit(main(sys.argv[1:]))
