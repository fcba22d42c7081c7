# dio_at_wp: O_DIRECT writes at the write pointer succeed, advance it, and
# read back the same bytes.
. /e2e/lib.sh
dev=/dev/$(devname zl0); z=12
base=$(zone_start_bytes $dev $z)
head -c $((128 << 10)) /dev/urandom > /tmp/dio.bin
dd if=/tmp/dio.bin of=$dev bs=64K count=1 seek=$(( base / 65536 )) oflag=direct status=none || fail "write at wp (zone start)"
[ $(( $(zone_wp $dev $z) )) = 128 ] || fail "wp $(zone_wp $dev $z) after 64 KiB, want 0x80"
dd if=/tmp/dio.bin of=$dev bs=64K count=1 skip=1 seek=$(( base / 65536 + 1 )) oflag=direct status=none || fail "second write at wp"
[ $(( $(zone_wp $dev $z) )) = 256 ] || fail "wp $(zone_wp $dev $z), want 0x100"
dd if=$dev bs=64K count=2 skip=$(( base / 65536 )) iflag=direct status=none | cmp - /tmp/dio.bin || fail "read back differs"
note "2 x 64 KiB at the WP of zone $z, wp 0x100, data verified"
