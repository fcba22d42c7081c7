#!/usr/bin/python3
"""zoneop_lat.py FIRST_ZONE NR_ZONES ROUNDS DEV... - time zone FINISH and RESET.

For ROUNDS rounds, on each of the zones FIRST_ZONE .. FIRST_ZONE+NR_ZONES-1
in turn: BLKFINISHZONE (an empty zone becomes full), then BLKRESETZONE
(back to empty), each ioctl timed alone with time.perf_counter_ns() in this
one process (no exec per command, as `blkzone` would pay).  With several
devices the same operation goes to each in turn, the order reversed every
other zone (A B, B A, ...), so a drift of the machine's speed hits them
alike: the e2e timing check (checks/27-timing.sh) times a timed disk and
its zero-mechanism calibration disk this way.  Prints one JSON object:
{"DEV": {"finish": [ms...], "reset": [ms...]}, ..., "sleep_over": {"0.1":
[ms...], "1.1": [...], "11": [...]}}, the last the overshoot of
time.sleep() of 0.1, 1.1 and 11 ms (the guest's timer lateness, whether it
depends on the length of the wait).
"""
import fcntl
import json
import os
import struct
import sys
import time


def iow(nr, size):
    return (1 << 30) | (size << 16) | (0x12 << 8) | nr


BLKRESETZONE = iow(131, 16)    # _IOW(0x12, 131, struct blk_zone_range)
BLKFINISHZONE = iow(136, 16)   # _IOW(0x12, 136, struct blk_zone_range)


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__.splitlines()[0])
    first, nr, rounds = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    devs = sys.argv[4:]
    zsec = {}
    for dev in devs:
        with open("/sys/block/%s/queue/chunk_sectors" % os.path.basename(dev)) as f:
            zsec[dev] = int(f.read())
    fds = {dev: os.open(dev, os.O_RDWR) for dev in devs}
    out = {dev: {"finish": [], "reset": []} for dev in devs}
    out["sleep_over"] = {}
    for ms in (0.1, 1.1, 11):
        v = []
        for _ in range(24 if ms > 10 else 48):
            t0 = time.perf_counter_ns()
            time.sleep(ms / 1e3)
            v.append((time.perf_counter_ns() - t0) / 1e6 - ms)
        out["sleep_over"]["%g" % ms] = v
    k = 0
    try:
        for _ in range(rounds):
            for z in range(first, first + nr):
                order = devs if k % 2 == 0 else devs[::-1]
                k += 1
                for op, req in (("finish", BLKFINISHZONE), ("reset", BLKRESETZONE)):
                    for dev in order:
                        rng = struct.pack("=QQ", z * zsec[dev], zsec[dev])
                        t0 = time.perf_counter_ns()
                        fcntl.ioctl(fds[dev], req, rng)
                        out[dev][op].append((time.perf_counter_ns() - t0) / 1e6)
    finally:
        for fd in fds.values():
            os.close(fd)
    print(json.dumps(out))


main()
