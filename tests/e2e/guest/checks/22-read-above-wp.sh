# read_above_wp: reads between the write pointer and the zone end return
# zeros (URSWRZ=1).
. /e2e/lib.sh
dev=/dev/$(devname zl0); z=13
base=$(zone_start_bytes $dev $z)
dd if=/dev/urandom of=$dev bs=64K count=1 seek=$(( base / 65536 )) oflag=direct status=none || fail "write"
dd if=$dev bs=64K count=16 skip=$(( base / 65536 + 1 )) iflag=direct status=none > /tmp/above.bin || fail "read above wp failed"
[ $(stat -c %s /tmp/above.bin) = $((16 * 65536)) ] || fail "short read"
cmp -n $((16 * 65536)) /tmp/above.bin /dev/zero || fail "data above the WP is not zero"
dd if=$dev bs=64K count=1 skip=$(( base / 65536 + 255 )) iflag=direct status=none | cmp -n 65536 - /dev/zero || fail "zone end not zero"
note "1 MiB above the WP of zone $z and the zone's last 64 KiB read as zeros"
