# btrfs_scsi_debug_ref: the same btrfs cycle on the kernel's own emulator,
# scsi_debug (zbc=managed, same geometry as zl0), so that kernel messages seen
# with our handler can be told apart from emulator behaviour.
. /e2e/lib.sh
kmsg_mark
before=$(ls /sys/block | grep '^sd' | sort)
modprobe scsi_debug zbc=managed dev_size_mb=1024 zone_size_mb=16 zone_nr_conv=8 zone_max_open=16 ||
	fail "modprobe scsi_debug"
for i in $(seq 100); do
	d=$(comm -13 <(echo "$before") <(ls /sys/block | grep '^sd' | sort) | head -1)
	[ -n "$d" ] && break; sleep 0.1
done
[ -n "$d" ] || fail "no scsi_debug disk"
udevless_wait $d
[ "$(cat /sys/block/$d/queue/zoned)" = host-managed ] || fail "scsi_debug disk not host-managed"
btrfs_cycle /dev/$d
note "(scsi_debug, reference)"
