#!/usr/bin/env python3
"""Build the blktrace sample (sample.blktrace.0 and .1: two CPUs) to the
documented struct blk_io_trace v7 layout (docs/TRACES.md), little-endian.
Debian's blkparse reads the result: `blkparse -i sample` is the real-component
check, and its text output is committed as sample.blkparse.txt."""
import struct

MAGIC = 0x65617407
Q, D, C = 1, 7, 8
R, W, FL, SY, QU, IS, CO, FS, PC, DISC = 0, 1, 2, 3, 4, 6, 7, 8, 9, 13
DEV = (8 << 20) | 16          # 8,16


def cat(*bits):
    v = 0
    for b in bits:
        v |= 1 << b
    return v << 16


def rec(seq, t, sector, nbytes, action, pid, cpu, err=0, pdu=b''):
    return struct.pack('<IIQQIIIIIHH', MAGIC, seq, t, sector, nbytes, action, pid, DEV, cpu,
                       err, len(pdu)) + pdu


# (cpu, time, sector, bytes, action, pid, err, pdu)
ev = [
    (0, 1000, 0, 0, 0x04000000, 1234, 0, b'fio\0'.ljust(16, b'\0')),      # notify: process name
    (0, 100000, 2048, 8192, Q | cat(QU, FS, W, SY), 1234, 0, b''),
    (0, 101000, 2048, 8192, D | cat(IS, FS, W, SY), 1234, 0, b''),
    (1, 102000, 8192, 4096, Q | cat(QU, FS, R), 1300, 0, b''),
    (1, 103000, 8192, 4096, D | cat(IS, FS, R), 1300, 0, b''),
    (0, 150000, 2048, 8192, C | cat(CO, FS, W, SY), 0, 0, b''),
    (1, 160000, 8192, 4096, C | cat(CO, FS, R), 0, 0, b''),
    (1, 200000, 0, 0, Q | cat(QU, FS, W, FL), 1234, 0, b''),              # flush
    (1, 201000, 0, 0, D | cat(IS, FS, W, FL), 1234, 0, b''),
    (0, 210000, 0, 0, D | cat(IS, PC, R), 1234, 0, b'\x12\0\0\0\x24\0'),   # passthrough: skipped
    (1, 230000, 0, 0, C | cat(CO, FS, W, FL), 0, 0, b''),
    (0, 300000, 65536, 0, Q | cat(QU, FS, W, SY), 1234, 0, b''),          # zone reset (0-byte W)
    (0, 301000, 65536, 0, D | cat(IS, FS, W, SY), 1234, 0, b''),
    (0, 340000, 65536, 0, C | cat(CO, FS, W, SY), 0, 0, b''),
    (1, 400000, 4096, 16384, Q | cat(QU, FS, DISC, W), 1234, 0, b''),     # discard
    (1, 401000, 4096, 16384, D | cat(IS, FS, DISC, W), 1234, 0, b''),
    (1, 420000, 4096, 16384, C | cat(CO, FS, DISC, W), 0, 0, b''),
    (0, 500000, 70000, 4096, Q | cat(QU, FS, W, SY), 1234, 0, b''),       # a write that fails
    (0, 501000, 70000, 4096, D | cat(IS, FS, W, SY), 1234, 0, b''),
    (0, 530000, 70000, 4096, C | cat(CO, FS, W, SY), 0, 5, b''),          # EIO
]
out = {0: b'', 1: b''}
seq = {0: 0, 1: 0}
for cpu, t, sector, nbytes, action, pid, err, pdu in ev:
    s = 0 if action & (1 << 26) else seq[cpu] + 1
    if s:
        seq[cpu] = s
    out[cpu] += rec(s, t, sector, nbytes, action, pid, cpu, err, pdu)
for cpu, data in out.items():
    with open('sample.blktrace.%d' % cpu, 'wb') as f:
        f.write(data)
