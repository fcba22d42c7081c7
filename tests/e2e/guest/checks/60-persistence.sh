# persistence: kill -9 tcmu-runner while btrfs writes and fsyncs, start it
# again, recreate the device with the same cfgstring: the kernel sees the same
# zone layout (no write pointer went backwards), btrfs mounts and every file
# whose fsync returned verifies.
. /e2e/lib.sh
modprobe btrfs || fail "modprobe btrfs"
img=/tmp/zlp.img; h_fresh $img
cfg=$(h_cfg $img 16 8 16)
dev_create zlp $((1024 << 20)) "$cfg" || fail "backstore"
dev=$(lun_attach zlp) || fail "no disk"
mkfs.btrfs -q -f -O zoned $dev || fail "mkfs"
mkdir -p /mnt/p && mount -t btrfs $dev /mnt/p || fail "mount"
: > /tmp/persist.sums
for i in $(seq 1 10); do
	head -c $(( i * 100000 )) /dev/urandom > /mnt/p/a$i && sync /mnt/p/a$i || fail "fsync a$i"
	(cd /mnt/p && sha256sum a$i) >> /tmp/persist.sums
done
sync
zones_summary $dev > $LOGS/persist.before
# Writer: each file whose fsync returned success is recorded.
bash -c 'n=0; while :; do n=$((n+1)); head -c 2000000 /dev/urandom > /mnt/p/w$n || exit; sync /mnt/p/w$n || exit; (cd /mnt/p && sha256sum w$n) >> /tmp/persist.sums; done' > /dev/null 2>&1 &
wpid=$!
sleep 3
old=$(runner_pid)
kill -9 $old || fail "kill runner"
echo "killed tcmu-runner $old with $(wc -l < /tmp/persist.sums) fsynced files recorded"
sleep 1
kill -9 $wpid 2>/dev/null; pkill -9 -P $wpid 2>/dev/null
nsync=$(wc -l < /tmp/persist.sums)
runner_start || fail "tcmu-runner does not restart"
for i in $(seq 100); do uio_held zlp && break; sleep 0.1; done
uio_held zlp || fail "restarted runner did not reopen zlp"
timeout 60 umount /mnt/p || { umount -l /mnt/p; note "umount after the kill needed -l"; }
lun_detach zlp
rmdir $CFS/core/user_0/zlp || fail "remove backstore"
dev_create zlp $((1024 << 20)) "$cfg" || fail "recreate backstore with the same cfgstring"
dev=$(lun_attach zlp) || fail "no disk after recreate"
zones_summary $dev > $LOGS/persist.after
[ "$(cat /sys/block/${dev#/dev/}/queue/zoned)" = host-managed ] || fail "not host-managed after recreate"
paste $LOGS/persist.before $LOGS/persist.after | awk '
	$1 != $6 || $2 != $7 || $4 != $9 { print "zone " NR-1 " layout changed: " $0; bad = 1 }
	$4 == "SEQ_WRITE_REQUIRED" && strtonum($8) < strtonum($3) && $10 != "FULL" { print "zone " NR-1 " wp went back: " $0; bad = 1 }
	END { exit bad }' || fail "zones differ after recreate"
[ $(wc -l < $LOGS/persist.before) = $(wc -l < $LOGS/persist.after) ] || fail "zone count changed"
mount -t btrfs $dev /mnt/p || fail "btrfs does not mount after the kill"
(cd /mnt/p && sha256sum -c --quiet /tmp/persist.sums) || fail "fsynced files do not verify"
umount /mnt/p
note "$nsync fsynced files verified; zone layout same, no WP went back"
