#!/bin/bash
# 076-e2e-timing-cmp.sh - the e2e timing check's judge
# (tests/e2e/guest/timing_cmp.py) on one round of made-up inputs
# (tests/data/timing-cmp.json: tag -> the JSON the check writes as
# timing-TAG.json; the model's rows from `zonelab timing table` for the
# e2e disk).  As given, every figure passes.  Then, one change at a time:
#   order    hc620's ID stream at 105 MB/s (0.81 of the model, the drive
#            holding the job all that time) with no idle
#            start but 12 jump starts (5 back) in the handler's counters:
#            not fed, and above its feed-aware floor only with a turn
#            charged per jump start (said so): passes;
#   no-jumps the same without jump_starts / back_starts (a handler before
#            them): fed by its idle starts, 0.81 of the model: fails;
#   outside  hc620's OD stream at 611 ms for 128 MiB (0.868 of the model:
#            run R's round 2) with no idle, jump start or stall, the drive
#            holding the job 529 ms (job_start_ns .. last_done_ns): fed,
#            passes only with the 82 ms outside the drive added (said so);
#   outside-unknown  the same without the span counters: fails (run R);
#   held     the same with the drive holding it 608 ms: fails;
#   stall    QD32 FIFO at 30 IOPS in a round the serial calibration calls
#            starved, with a 3 s guest stall inside fio's measured window:
#            above its VM-bound floor only with the stall added (said so);
#   ramp     the same stall in the first 2 s (fio's --ramp_time, not in
#            its runtime): not counted: fails;
#   idle     QD32 SPTF at 184 IOPS (0.75 of the model) in a round whose
#            serial calibration was fed, the timed drive idle 931 ms of its
#            7 s job (run Q's round 1): not fed, VM-bound: passes.
#   w-vm     hc620's cached OD write stream at 130 MB/s, 600 of its 1,025
#            commands idle starts (the drive's destages idle 3.2 s: the VM's
#            feed of one write at a time): not fed, above its feed-aware
#            floor: passes, VM-bound said;
#   w-slow   the same stream at 0.85 of the model with no idle start, the
#            drive holding the whole job: fed, fails;
#   w-fast   the 40/20 MB/s disk's OD stream at 1.05 x the model (a flush
#            that did not wait for the media): fails its hard bound;
#   w-short  hc620's ID stream 256 MiB, shorter than the 512 MiB cache:
#            fails (the stream must outrun the cache).
#   w-stall  the 40/20 MB/s disk's OD stream at 0.80 of the model with no
#            idle start and a 2 s guest stall inside fio's window (the probe
#            ran 1 s longer than fio): passes only with the stall (said so);
#   w-edge   the same stall in the probe's first second, before fio's
#            window: not counted, fails.
set -u
cd "$(dirname "$0")/../.."
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
python3 - tests/data/timing-cmp.json tests/e2e/guest/timing_cmp.py "$dir" <<'PYEOF'
import copy
import json
import os
import subprocess
import sys

fixture, judge, top = sys.argv[1], sys.argv[2], sys.argv[3]
base = json.load(open(fixture))
fails = 0


def run(case, change):
    """Write the inputs with @change applied, run the judge: (exit status, output)."""
    f = copy.deepcopy(base)
    change(f)
    d = os.path.join(top, case)
    os.mkdir(d)
    for tag, v in f.items():
        with open(os.path.join(d, "timing-%s.json" % tag), "w") as o:
            json.dump(v, o)
    p = subprocess.run([sys.executable, judge, os.path.join(d, "timing"), "1", "F", "Z"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return p.returncode, p.stdout


def expect(case, what, ok, out):
    global fails
    if not ok:
        fails += 1
        print("FAIL %s: %s\n%s" % (case, what, out))
    else:
        print("ok   %s: %s" % (case, what))


def line(out, start):
    """The judge's line for a figure (its verdict, name and bound), or ''."""
    return next((l for l in out.splitlines() if l[5:].startswith(start)), "")


def none(f):
    pass


rc, out = run("base", none)
expect("base", "every figure passes", rc == 0 and "SUMMARY" in out and "FAIL" not in out, out)


def held(f, tag, runtime_ms, held_ms):
    """fio measured @runtime_ms for stream @tag's job; the drive held it @held_ms."""
    f["r1-" + tag]["jobs"][0]["read"]["runtime"] = runtime_ms
    a = f["r1-%s-hs" % tag]["after"]["timing"]
    a["last_done_ns"] = a["job_start_ns"] + int(held_ms * 1e6)


def order(f, counters=True):
    r = f["r1-id"]["jobs"][0]["read"]
    rt = round(r["io_bytes"] / 105.0 / 1e3, 1)
    held(f, "id", rt, rt - 3.0)     # the drive itself took the time
    a = f["r1-id-hs"]["after"]["timing"]
    if counters:
        a["jump_starts"] += 12
        a["back_starts"] += 5
    else:
        for h in ("before", "after"):
            for k in ("jump_starts", "back_starts"):
                del f["r1-id-hs"][h]["timing"][k]


rc, out = run("order", order)
l = line(out, "seq 1M QD32 ID hc620 r1 feed-aware")
expect("order", "passes on the feed-aware floor with 12 jump starts charged a turn each",
       rc == 0 and l.startswith("ok ") and "12 jump starts, 5 of them back" in l and
       "passes only with the jump starts' turns" in l, out)
expect("order", "not judged as fed", not line(out, "seq 1M QD32 ID hc620 r1 fed") and
       "not fed by its order alone: 12 jump starts (5 back)" in out and
       " id:12(5) " in out, out)
rc, out = run("no-jumps", lambda f: order(f, False))
expect("no-jumps", "without the counters the round is fed and fails",
       rc == 1 and line(out, "seq 1M QD32 ID hc620 r1 fed").startswith("FAIL") and
       "no jump_starts / back_starts" in out, out)


def outside(f, span=True, held_ms=529.0):
    held(f, "od", 611.0, held_ms)
    if not span:
        for h in ("before", "after"):
            for k in ("job_start_ns", "last_done_ns"):
                del f["r1-od-hs"][h]["timing"][k]


rc, out = run("outside", outside)
l = line(out, "seq 1M QD32 OD hc620 r1 fed")
expect("outside", "run R's round (0.868 of the model, fed, 82 ms of fio's 611 outside the "
       "drive's span) passes with that time added, and says so",
       rc == 0 and l.startswith("ok ") and "outside the drive 0.082 s (it held the job 0.529 "
       "of fio's 0.611 s)" in l and "(passes only with them)" in l, out)
rc, out = run("outside-unknown", lambda f: outside(f, span=False))
l = line(out, "seq 1M QD32 OD hc620 r1 fed")
expect("outside-unknown", "the same without the span counters (a handler before them) fails "
       "as run R did", rc == 1 and l.startswith("FAIL") and "outside the drive unknown" in l, out)
rc, out = run("held", lambda f: outside(f, held_ms=608.0))
l = line(out, "seq 1M QD32 OD hc620 r1 fed")
expect("held", "the drive itself holding the job 608 of fio's 611 ms (a late timer) fails",
       rc == 1 and l.startswith("FAIL") and "outside the drive 0.003 s" in l, out)


def stall(f, at_s=6.0, over_ms=3000.0):
    f["r1-fifo"]["jobs"][0]["read"].update(total_ios=150, iops=30.0)
    f["r1-s_fifo"]["jobs"][0]["read"].update(total_ios=350, iops=70.0)
    f["r1-fifo-probe"].update(over_ms=[over_ms], at_s=[at_s])


rc, out = run("stall", stall)
l = next((x for x in out.splitlines() if x[5:].split("  ")[0] == "QD32 FIFO"), "")
expect("stall", "a starved round passes its floor with the 3 s stall added, and says so",
       rc == 0 and l.startswith("ok ") and "stalls 3.000 s added" in l and
       "(passes only with them)" in l and "r1 3.000 s" in out, out)
rc, out = run("ramp", lambda f: stall(f, 1.9, 1800.0))
l = next((x for x in out.splitlines() if x[5:].split("  ")[0] == "QD32 FIFO"), "")
expect("ramp", "a stall inside fio's ramp is not counted: the round fails",
       rc == 1 and l.startswith("FAIL") and "r1 0.000 s" in out, out)


def idle(f):
    f["r1-sptf"]["jobs"][0]["read"].update(total_ios=920, iops=184.0)
    a = f["r1-sptf-hs"]["after"]["timing"]
    a["idle_starts"] += 7
    a["idle_ns"] += 931000000


rc, out = run("idle", idle)
l = next((x for x in out.splitlines() if x[5:].split("  ")[0] == "QD32 SPTF"), "")
expect("idle", "a round its serial calibration calls fed, with the timed drive idle 13%, "
       "is VM-bound", rc == 0 and l.startswith("ok ") and "VM-bound" in l and
       "the timed drive was idle 13.3% of its job" in out, out)


def wstream(f, tag, ratio, idle_starts=0, idle_ns=0, mib=None):
    """Stream @tag at @ratio of fio's base runtime, the drive holding the job
    to 3 ms of it, with @idle_starts / @idle_ns more idle starts (@mib: its
    bytes)."""
    w = f["r1-" + tag]["jobs"][0]["write"]
    if mib:
        w.update(io_bytes=mib << 20, total_ios=mib)
    w["runtime"] = round(w["runtime"] / ratio, 1)
    a = f["r1-%s-hs" % tag]["after"]["timing"]
    a["last_done_ns"] = a["job_start_ns"] + int((w["runtime"] - 3.0) * 1e6)
    a["idle_starts"] += idle_starts
    a["idle_ns"] += idle_ns


def wline(out, name):
    return line(out, "seq 1M write " + name)


rc, out = run("w-vm", lambda f: wstream(f, "w_od", 130.0 / 246.877, 600, 3200000000))
l = wline(out, "OD hc620 r1 feed-aware")
expect("w-vm", "a VM-bound write stream passes its feed-aware floor, not judged as fed",
       rc == 0 and l.startswith("ok ") and "(600 idle + 0 jump starts" in l and
       not wline(out, "OD hc620 r1 fed") and
       "seq 1M write OD hc620: VM-bound in every round" in out and " w_od:- " in out, out)
rc, out = run("w-slow", lambda f: wstream(f, "w_od", 0.85 / 0.97))
expect("w-slow", "a fed write stream at 0.85 of the model fails",
       rc == 1 and wline(out, "OD hc620 r1 fed").startswith("FAIL"), out)
rc, out = run("w-fast", lambda f: wstream(f, "v_od", 1.05 / 0.99))
expect("w-fast", "a write stream faster than the model (+2%) fails its hard bound",
       rc == 1 and wline(out, "OD 40/20 MB/s (hard)").startswith("FAIL"), out)
rc, out = run("w-short", lambda f: wstream(f, "w_id", 1.0, mib=256))
expect("w-short", "a write stream shorter than the cache fails",
       rc == 1 and "seq 1M write ID hc620: a stream of 268435456 bytes is not longer than the "
       "write cache (536870912 bytes)" in out, out)


def wstall(f, at_s):
    wstream(f, "v_od", 0.80 / 0.99)
    w = f["r1-v_od"]["jobs"][0]["write"]
    f["r1-v_od-probe"].update(secs=w["runtime"] / 1e3 + 1.0, over_ms=[2000.0], at_s=[at_s])


rc, out = run("w-stall", lambda f: wstall(f, 6.0))
l = wline(out, "OD 40/20 MB/s r1 fed")
expect("w-stall", "a fed round at 0.80 passes with a 2 s stall inside fio's window, and says so",
       rc == 0 and l.startswith("ok ") and "stalls beyond it 2.000 s" in l and
       "(passes only with them)" in l, out)
rc, out = run("w-edge", lambda f: wstall(f, 0.9))
l = wline(out, "OD 40/20 MB/s r1 fed")
expect("w-edge", "the same stall before fio's window is not counted: fails",
       rc == 1 and l.startswith("FAIL") and "stalls beyond it 0.000 s" in l, out)
sys.exit(1 if fails else 0)
PYEOF
