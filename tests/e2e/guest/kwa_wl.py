#!/usr/bin/env python3
"""kwa_wl.py - the multi-file workloads of the e2e check kernel_wa (issue 31;
docs/VALIDATION.md "Several files, an append log").

  kwa_wl.py WL DIR STATE PHASE SEED LIVE PHASE_BYTES BS DIRECT OPS JSON

Runs one phase of workload WL in directory DIR and appends the operations it
executed to OPS as one line, "PHASE OP...", where each OP is three or four
tokens:
  w ID BLOCK N   wrote N blocks (BS bytes each, one write a block) of file
                 fID from block BLOCK (creating it at its first write)
  t ID N         truncated fID to N blocks
  u ID           unlinked fID
The phase's outcome goes to JSON: {"app_bytes": bytes written, "error": the
errno of the first failed call, 0 if none, "ops": N, "live_bytes": ...}.
A failed write stops the phase there (as fio does); the write that failed
is recorded with the blocks written before it.  STATE carries the files and
the generator between phases (PHASE "fill" starts afresh from SEED).

Workloads (LIVE: the bytes the files hold after the fill, kept near it;
PHASE_BYTES: the bytes each later phase writes):
  files   16 files on average, sizes drawn around LIVE/16; each phase mixes
          overwrites of runs of 1-64 blocks, appends, truncates (to 30-90%
          of the size), unlinks and creates (a new file written whole),
          steering the live bytes back within 5% of LIVE
  applog  a LevelDB/RocksDB-like log: one block to the current WAL file for
          every 3 blocks appended to the current table file (a new WAL file
          every 10 WAL blocks); a table is closed at 96-160 blocks (drawn),
          the WAL files that cover it are deleted, and
          the oldest tables are deleted while the live bytes exceed LIVE
The generator is Python's random.Random(SEED); the host replays the
operations recorded in OPS, not the generator (tests/validate/kwa.py).
"""
import errno
import json
import mmap
import os
import pickle
import random
import sys

TABLE_BLOCKS = 128   # applog: a table file's size
WAL_EVERY = 3        # applog: one WAL block per this many table blocks


class Phase:
    def __init__(self, d, st, bs, direct, budget):
        self.d, self.st, self.bs, self.budget = d, st, bs, budget
        self.flags = os.O_WRONLY | os.O_CREAT | (os.O_DIRECT if direct else 0)
        self.buf = mmap.mmap(-1, bs)
        self.buf.write(b"\xa5" * bs)
        self.fds, self.ops, self.written, self.error = {}, [], 0, 0

    def path(self, i):
        return os.path.join(self.d, f"f{i}")

    def fd(self, i):
        if i not in self.fds:
            self.fds[i] = os.open(self.path(i), self.flags, 0o644)
        return self.fds[i]

    def left(self):
        return self.budget - self.written

    def write(self, i, blk, n):
        """Writes n blocks of file i from block blk (cut at the phase's
        budget); False once a write failed."""
        n = min(n, self.left())
        if n <= 0:
            return not self.error
        done = 0
        try:
            fd = self.fd(i)
            for b in range(blk, blk + n):
                if os.pwrite(fd, self.buf, b * self.bs) != self.bs:
                    raise OSError(errno.ENOSPC, "short write")
                done += 1
        except OSError as e:
            self.error = e.errno or errno.EIO
        if done:
            self.ops.append(f"w {i} {blk} {done}")
            self.written += done
            files = self.st["files"]
            files[i] = max(files.get(i, 0), blk + done)
        return not self.error

    def truncate(self, i, n):
        try:
            os.ftruncate(self.fd(i), n * self.bs)
        except OSError as e:
            self.error = e.errno or errno.EIO
            return False
        self.ops.append(f"t {i} {n}")
        self.st["files"][i] = n
        return True

    def unlink(self, i):
        try:
            if i in self.fds:
                os.close(self.fds.pop(i))
            os.unlink(self.path(i))
        except OSError as e:
            self.error = e.errno or errno.EIO
            return False
        self.ops.append(f"u {i}")
        del self.st["files"][i]
        return True

    def close(self):
        for fd in self.fds.values():
            os.close(fd)


def live(st):
    return sum(st["files"].values())


def new_id(st):
    st["next"] += 1
    return st["next"] - 1


def files_phase(p, st, rng, target, fill):
    mean = max(4, target // 16)
    draw = lambda: rng.randint(max(1, mean // 4), 2 * mean - mean // 4)
    cap = 3 * mean
    if fill:
        while live(st) < target and p.left() > 0:
            if not p.write(new_id(st), 0, min(draw(), target - live(st))):
                return
        return
    while p.left() > 0 and not p.error:
        f = st["files"]
        n, r = live(st), rng.random()
        if not f:
            op = "create"
        elif n > target * 1.05:
            op = "truncate" if r < 0.5 else "unlink"
        elif n < target * 0.95:
            op = "append" if r < 0.4 else "create"
        else:
            op = ("overwrite" if r < 0.6 else "append" if r < 0.7 else "truncate" if r < 0.8
                  else "unlink" if r < 0.9 else "create")
        ids = sorted(f)
        i = ids[rng.randrange(len(ids))] if ids else None
        if op == "overwrite" and f[i]:
            k = rng.randint(1, 64)
            b = rng.randrange(f[i])
            p.write(i, b, min(k, f[i] - b))
        elif op == "append" and f[i] < cap:
            p.write(i, f[i], min(rng.randint(1, 32), cap - f[i]))
        elif op == "truncate" and f[i] > 1:
            p.truncate(i, int(f[i] * rng.uniform(0.3, 0.9)))
        elif op == "unlink" and len(f) > 1:
            p.unlink(i)
        elif op == "create":
            p.write(new_id(st), 0, draw())


def applog_phase(p, st, rng, target, fill):
    while p.left() > 0 and not p.error:
        if fill and live(st) >= target:
            return
        if st.get("table") is None:
            st["table"], st["wal"] = new_id(st), new_id(st)
            st["wals"], st["size"] = [st["wal"]], rng.randint(TABLE_BLOCKS * 3 // 4, TABLE_BLOCKS * 5 // 4)
        t, w = st["table"], st["wal"]
        if st["files"].get(t, 0) % WAL_EVERY == 0:
            if not p.write(w, st["files"].get(w, 0), 1) or not p.left():
                return
        if not p.write(t, st["files"].get(t, 0), 1):
            return
        if st["files"][t] >= st["size"]:
            # the table is complete: its WAL files go, the oldest tables
            # go while the log holds more than LIVE
            for x in st["wals"]:
                if x in st["files"] and not p.unlink(x):
                    return
            st["tables"].append(t)
            st["table"] = None
            while live(st) > target and len(st["tables"]) > 1:
                if not p.unlink(st["tables"].pop(0)):
                    return
        elif st["files"].get(w, 0) >= TABLE_BLOCKS // WAL_EVERY // 4:
            st["wal"] = new_id(st)       # a new WAL file (LevelDB's log rotation)
            st["wals"].append(st["wal"])


def main(a):
    if len(a) != 11:
        raise SystemExit(__doc__)
    wl, d, state, phase = a[0], a[1], a[2], a[3]
    seed, live_b, ph_b, bs, direct = (int(x) for x in a[4:9])
    ops_out, js = a[9], a[10]
    if wl not in ("files", "applog"):
        raise SystemExit(f"kwa_wl.py: unknown workload '{wl}' (files, applog)")
    fill = phase == "fill"
    if fill:
        st = {"files": {}, "next": 0, "tables": [], "table": None, "rng": random.Random(seed)}
    else:
        with open(state, "rb") as f:
            st = pickle.load(f)
    target = live_b // bs
    p = Phase(d, st, bs, direct, target * 2 if fill else ph_b // bs)
    (files_phase if wl == "files" else applog_phase)(p, st, st["rng"], target, fill)
    p.close()
    with open(state, "wb") as f:
        pickle.dump(st, f)
    with open(ops_out, "a") as f:
        f.write(phase + "".join(" " + o for o in p.ops) + "\n")
    with open(js, "w") as f:
        json.dump({"app_bytes": p.written * bs, "error": p.error, "ops": len(p.ops),
                   "live_bytes": live(st) * bs, "files": len(st["files"])}, f)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
