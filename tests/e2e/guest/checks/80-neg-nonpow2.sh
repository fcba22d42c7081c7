# neg_zone_nonpow2: a 3 MiB zone size is refused by the 6.1 kernel with its
# own message; tcmu-runner and the other disks stay healthy.
. /e2e/lib.sh
img=/tmp/zln.img; h_fresh $img
cfg=$(h_cfg_nonpow2 $img 2>$LOGS/why) || skip "$(cat $LOGS/why)"
kmsg_mark
dev_create zln $((96 << 20)) "$cfg" || fail "backstore (the handler itself refused?)"
lun_attach zln > /dev/null 2>&1
sleep 2
kmsg_since
msg=$(kmsg_since | grep -m1 -E 'not a power of two|Zone size') || fail "no kernel message about the zone size"
d=$(cat $STATE/zln.dev 2>/dev/null)
if [ -n "$d" ] && [ "$(cat /sys/block/$d/size)" != 0 ] && [ "$(cat /sys/block/$d/queue/zoned)" = host-managed ]; then
	fail "kernel attached $d as host-managed"
fi
runner_alive || fail "tcmu-runner died"
dev_remove zln
blkzone report -c 1 /dev/$(devname zl0) > /dev/null || fail "zl0 no longer answers"
note "kernel: ${msg#*] }"
