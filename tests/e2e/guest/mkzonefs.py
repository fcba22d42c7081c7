#!/usr/bin/python3
"""mkzonefs.py DEV [aggr_cnv] - write a zonefs super block to zone 0 of DEV.

zonefs-tools (mkfs.zonefs) is not packaged in Debian 12, so the e2e zonefs
check formats with this: the 4096-byte super block Linux 6.1 reads from
sector 0 (fs/zonefs/zonefs.h, struct zonefs_super: magic 'ZOFS', crc32 of
the block with the crc field 0 as the kernel's crc32(~0, ...), label,
uuid, features, uid, gid, perm) written with O_DIRECT at offset 0.  The
caller resets zone 0 first when it is a sequential zone (the write is then
at its write pointer).  No feature but aggr_cnv (ZONEFS_F_AGGRCNV); files
get the kernel's defaults (uid/gid 0, mode 0640).  Not a mkfs.zonefs: no
checks of the device, no options beyond these.
"""
import mmap
import os
import struct
import sys
import zlib

ZONEFS_MAGIC = 0x5A4F4653
ZONEFS_F_AGGRCNV = 1 << 0


def super_block(features):
    sb = bytearray(4096)
    struct.pack_into("<II", sb, 0, ZONEFS_MAGIC, 0)
    label = b"zonelab-e2e"
    sb[8:8 + len(label)] = label                       # s_label[64]
    sb[72:88] = bytes(range(0x10, 0x20))                # s_uuid: fixed, runs are deterministic
    struct.pack_into("<QIII", sb, 88, features, 0, 0, 0)  # s_features, s_uid, s_gid, s_perm
    crc = zlib.crc32(bytes(sb)) ^ 0xFFFFFFFF            # the kernel's crc32(~0U, sb, 4096)
    struct.pack_into("<I", sb, 4, crc)
    return sb


def main():
    if len(sys.argv) < 2 or any(a != "aggr_cnv" for a in sys.argv[2:]):
        sys.exit("usage: mkzonefs.py DEV [aggr_cnv]")
    features = ZONEFS_F_AGGRCNV if "aggr_cnv" in sys.argv[2:] else 0
    buf = mmap.mmap(-1, 4096)                          # page-aligned, for O_DIRECT
    buf.write(super_block(features))
    fd = os.open(sys.argv[1], os.O_WRONLY | os.O_DIRECT)
    try:
        if os.pwrite(fd, buf, 0) != 4096:
            sys.exit("mkzonefs.py: short write")
    finally:
        os.close(fd)


if __name__ == "__main__":
    main()
