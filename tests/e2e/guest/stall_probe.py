#!/usr/bin/python3
"""stall_probe.py READY_FILE - how long the guest stood still during a job.

Sleeps 10 ms at a time (CLOCK_MONOTONIC) until SIGTERM, then prints one
JSON object: {"n": wakeups, "secs": time probed, "over_ms": [the overshoot
of every sleep that woke more than 50 ms late], "at_s": [when each of them
woke, s after READY_FILE was made]}.  Touches READY_FILE once it is
sleeping, so the caller starts its job after the probe runs: the job lies
within [0, secs] of the probe's time (the caller stops the probe after the
job ended), which lets a judge count only the stalls inside the part of a
job fio measured (a QD32 job's --ramp_time is not in its runtime).

The e2e timing check (checks/27-timing.sh) runs it beside each 1 MiB
sequential read job: a sleeping task in a guest whose vCPU runs is woken
within a few ms (wakeup preemption), so an overshoot beyond 50 ms is time
the guest was not running at all (the loaded host did not schedule qemu),
when nothing in the guest could submit a command to the timed disk: the
drive model, keeping real time, runs its queue dry for at most that long.
guest/timing_cmp.py allows a round that long an idle drive (docs/TIMING.md
"Validation"); beside the QD32 jobs too, where it counts the stalls inside
the window fio surely measured.  This is not a measurement of the guest's own load: a guest
busy with the I/O itself still wakes the probe in time.
"""
import json
import signal
import sys
import time

STALL_MS = 50.0
over, at, n = [], [], 0
stop = False


def term(sig, frame):
    global stop
    stop = True


signal.signal(signal.SIGTERM, term)
t_start = time.monotonic()
open(sys.argv[1], "w").close()
while not stop:
    t0 = time.monotonic()
    time.sleep(0.010)
    o = (time.monotonic() - t0 - 0.010) * 1e3
    n += 1
    if o > STALL_MS:
        over.append(round(o, 3))
        at.append(round(time.monotonic() - t_start, 3))
print(json.dumps({"n": n, "secs": round(time.monotonic() - t_start, 3), "over_ms": over,
                  "at_s": at}))
