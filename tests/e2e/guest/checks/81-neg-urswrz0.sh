# neg_urswrz0: a host-managed disk with URSWRZ=0 is refused by the 6.1
# kernel ("constrained reads devices are not supported"); tcmu-runner and the
# other disks stay healthy.
. /e2e/lib.sh
img=/tmp/zlu.img; h_fresh $img
cfg=$(h_cfg_urswrz0 $img 2>$LOGS/why) || skip "$(cat $LOGS/why)"
kmsg_mark
dev_create zlu $((128 << 20)) "$cfg" || fail "backstore"
lun_attach zlu > /dev/null 2>&1
sleep 2
kmsg_since
msg=$(kmsg_since | grep -m1 -E 'constrained reads') || fail "no kernel message about constrained reads"
runner_alive || fail "tcmu-runner died"
dev_remove zlu
blkzone report -c 1 /dev/$(devname zl0) > /dev/null || fail "zl0 no longer answers"
note "kernel: ${msg#*] }"
