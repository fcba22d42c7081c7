# unaligned_write: a direct write that is not at the write pointer fails with
# an I/O error and leaves the zone's condition and write pointer unchanged.
. /e2e/lib.sh
dev=/dev/$(devname zl0); z=12
base=$(zone_start_bytes $dev $z)
wp0=$(zone_wp $dev $z)
if [ $(( wp0 )) = 0 ]; then   # empty (dio_at_wp did not run): give it a write pointer
	dd if=/dev/urandom of=$dev bs=64K count=1 seek=$(( base / 65536 )) oflag=direct status=none ||
		fail "write at the start of zone $z"
	wp0=$(zone_wp $dev $z)
fi
c0=$(zone_cond $dev $z)
[ $(( wp0 )) -gt 0 ] && [ -n "$c0" ] || fail "zone $z before the write: wp '$wp0', cond '$c0'"
kmsg_mark
# 64 KiB past the write pointer.
if err=$(dd if=/dev/urandom of=$dev bs=64K count=1 seek=$(( base / 65536 + wp0 / 128 + 1 )) oflag=direct 2>&1); then
	fail "write beyond the WP succeeded"
fi
echo "dd: $err"
case "$err" in
*"Input/output error"*) e=EIO ;;
*"Remote I/O error"*) e=EREMOTEIO ;;
*) fail "unexpected error: $err" ;;
esac
kmsg_since
wp1=$(zone_wp $dev $z); c1=$(zone_cond $dev $z)
[ "$wp1" = "$wp0" ] && [ "$c1" = "$c0" ] || fail "zone changed: $c0/$wp0 -> $c1/$wp1"
sense=$(kmsg_since | grep -oiE 'Unaligned write command|Add\. Sense: [^]]*' | head -1)
note "refused with $e (${sense:-no sense in dmesg}); zone stays $c1 wp $wp1"
