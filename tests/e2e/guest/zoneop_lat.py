#!/usr/bin/python3
"""zoneop_lat.py DEV FIRST_ZONE NR_ZONES ROUNDS - time zone FINISH and RESET.

For ROUNDS rounds, on each of the zones FIRST_ZONE .. FIRST_ZONE+NR_ZONES-1
in turn: BLKFINISHZONE (an empty zone becomes full), then BLKRESETZONE
(back to empty), each ioctl timed alone with time.perf_counter_ns() in this
one process (no exec per command, as `blkzone` would pay).  Prints one JSON
object: {"finish": [ms...], "reset": [ms...], "sleep_over": [ms...]}, the
last the overshoot of as many 1.1 ms sleeps (the VM's timer lateness).  Used by the e2e timing check
(checks/27-timing.sh) on a timed and an untimed disk of the same geometry.
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
    if len(sys.argv) != 5:
        sys.exit(__doc__.splitlines()[0])
    dev, first, nr, rounds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    name = os.path.basename(dev)
    with open("/sys/block/%s/queue/chunk_sectors" % name) as f:
        zsec = int(f.read())
    fd = os.open(dev, os.O_RDWR)
    out = {"finish": [], "reset": [], "sleep_over": []}
    # the VM's own lateness of a timed wait (what the handler's timer thread
    # pays on top of the model's time): 1.1 ms sleeps, their overshoot in ms
    for _ in range(2 * nr * rounds):
        t0 = time.perf_counter_ns()
        time.sleep(0.0011)
        out["sleep_over"].append((time.perf_counter_ns() - t0) / 1e6 - 1.1)
    try:
        for _ in range(rounds):
            for z in range(first, first + nr):
                rng = struct.pack("=QQ", z * zsec, zsec)
                for op, req in (("finish", BLKFINISHZONE), ("reset", BLKRESETZONE)):
                    t0 = time.perf_counter_ns()
                    fcntl.ioctl(fd, req, rng)
                    out[op].append((time.perf_counter_ns() - t0) / 1e6)
    finally:
        os.close(fd)
    print(json.dumps(out))


main()
