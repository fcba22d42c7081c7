# write_same: the kernel sends write-zeroes (blkdiscard -z, BLKZEROOUT) to
# zonelab as WRITE SAME: sd found WRITE SAME(10/16) in REPORT SUPPORTED
# OPERATION CODES and MAXIMUM WRITE SAME LENGTH in VPD B0h, so the queue's
# write_zeroes_max_bytes is not zero (with it zero, BLKZEROOUT would fall
# back to writing zero pages and prove nothing).  Then zeroes a written
# range of a conventional zone, and 1 MiB at the write pointer of an empty
# sequential zone, which must move the write pointer by 1 MiB.
. /e2e/lib.sh
[ "$E2E_HANDLER" = zonelab ] || skip "handler_file_zbc has no WRITE SAME"
dev=/dev/$(devname zl0); q=/sys/block/${dev#/dev/}/queue
wz=$(cat $q/write_zeroes_max_bytes 2>/dev/null) || fail "no $q/write_zeroes_max_bytes"
[ "${wz:-0}" -gt 0 ] || fail "write_zeroes_max_bytes is 0: sd does not use WRITE SAME"
# conventional zone 1: data, then zeroed
base=$(zone_start_bytes $dev 1)
dd if=/dev/urandom of=$dev bs=64K count=16 seek=$(( base / 65536 )) oflag=direct status=none || fail "write conv"
blkdiscard -z -o $base -l $((1 << 20)) $dev || fail "blkdiscard -z on a conventional zone"
dd if=$dev bs=64K count=16 skip=$(( base / 65536 )) iflag=direct status=none | cmp -n $((1 << 20)) - /dev/zero ||
	fail "conventional range not zero after blkdiscard -z"
# sequential zone 14 (empty): write-zeroes at the WP moves it
z=14; seq=$(zone_start_bytes $dev $z)
blkzone reset -o $(zone_off $dev $z) -c 1 $dev || fail "reset zone $z"
blkdiscard -z -o $seq -l $((1 << 20)) $dev || fail "blkdiscard -z at the WP of zone $z"
wp=$(zone_wp $dev $z)
echo "zone $z: wp $wp after 1 MiB of write-zeroes"
[ $(( wp )) = 2048 ] || fail "zone $z WP $wp (relative), want 2048"
note "write_zeroes_max_bytes $wz; blkdiscard -z zeroed 1 MiB of conventional zone 1 and moved zone $z's WP by 1 MiB"
