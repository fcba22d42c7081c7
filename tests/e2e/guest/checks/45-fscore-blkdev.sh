# fscore_blkdev: fs-core (the btrfs HMZONED allocation core) driven by
# `zonelab sim --blkdev` against a kernel zoned block device through the
# zoned ioctls (BLKREPORTZONE, BLKRESETZONE, ...): the run must end without
# a device error, reset zones and relocate, and match, write for write, the
# in-process run on the zone model with the same geometry.  Its own disk
# (512 MiB, 16 MiB zones, 4 conventional) is removed afterwards: the guest's
# images live in RAM.
. /e2e/lib.sh
[ -x $ZONELAB ] || skip "zonelab command not in the VM"
img=/tmp/zlf.img; h_fresh $img
dev_create zlf $((512 << 20)) "$(h_cfg $img 16 4 16)" || fail "backstore zlf"
lun_attach zlf > /dev/null || fail "no disk for zlf"
dev=/dev/$(devname zlf)
trap 'dev_remove zlf; rm -f $img' EXIT
kmsg_mark
args="--util 0.5 --bio-blocks 16 --writes 6000 --seed 1"
$ZONELAB sim --blkdev $dev $args > $LOGS/sim-blkdev.json 2> $LOGS/sim-blkdev.err \
	|| { cat $LOGS/sim-blkdev.err; fail "zonelab sim --blkdev $dev failed"; }
$ZONELAB sim --zones 32 --zone-size 16M --conv 4 $args > $LOGS/sim-zdev.json \
	|| fail "in-process reference run failed"
j=$LOGS/sim-blkdev.json
grep -q '"backend": *"blkdev"' $j || fail "not the blkdev backend"
grep -q '"error": *"none"' $j || fail "run ended with $(grep -o '"error": *"[a-z_]*"' $j)"
num() { grep -oE "\"$1\": *[0-9.]+" "$2" | head -1 | grep -oE '[0-9.]+$'; }
[ "$(num write_errors $j)" = 0 ] || fail "device write errors: $(num write_errors $j)"
[ "$(num zone_resets $j)" -gt 0 ] 2>/dev/null || fail "no zone was reset"
for k in total user_bytes relocation_bytes zone_resets; do
	a=$(num $k $j); b=$(num $k $LOGS/sim-zdev.json)
	[ "$a" = "$b" ] || fail "$k differs: kernel device $a, in-process model $b"
done
kmsg_since | grep -iE 'critical target error|unaligned write' && fail "device refused writes (dmesg)"
note "WA $(num total $j), $(num zone_resets $j) zone resets through the kernel's zoned ioctls; identical to the in-process model"
