# persistence: kill -9 tcmu-runner while btrfs writes and fsyncs, start it
# again, recreate the device with the same cfgstring: the kernel sees the same
# zones (layout, write pointers, conditions), btrfs mounts and every file
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
# The zones as the restarted handler reports them through the old disk.
zones_summary $dev > $LOGS/persist.before || fail "blkzone report after restart"
lun_detach zlp
rmdir $CFS/core/user_0/zlp || fail "remove backstore"
dev_create zlp $((1024 << 20)) "$cfg" || fail "recreate backstore with the same cfgstring"
dev=$(lun_attach zlp) || fail "no disk after recreate"
zones_summary $dev > $LOGS/persist.after || fail "blkzone report after recreate"
[ "$(cat /sys/block/${dev#/dev/}/queue/zoned)" = host-managed ] || fail "not host-managed after recreate"
# Same layout, same write pointers; an open zone may come back closed (as
# after a power cycle).
paste $LOGS/persist.before $LOGS/persist.after | awk '
	function c(x) { return (x == "oi" || x == "oe") ? "cl" : x }
	$1 != $6 || $2 != $7 || $4 != $9 { print "zone " NR-1 " layout changed: " $0; bad = 1 }
	$3 != $8 || c($5) != c($10) { print "zone " NR-1 " state changed: " $0; bad = 1 }
	END { exit bad }' > $LOGS/persist.diff
zdiff=$(wc -l < $LOGS/persist.diff); cat $LOGS/persist.diff
[ $(wc -l < $LOGS/persist.before) = $(wc -l < $LOGS/persist.after) ] || fail "zone count changed"
mount -t btrfs $dev /mnt/p || fail "btrfs does not mount after the kill${zdiff/#0*/}${zdiff:+ ($zdiff zones differ after recreate: $(head -1 $LOGS/persist.diff))}"
nbad=$(cd /mnt/p && sha256sum -c --quiet /tmp/persist.sums 2>&1 | grep -c FAILED)
umount /mnt/p
[ "$zdiff" = 0 ] || fail "$zdiff zones differ after recreate (first: $(head -1 $LOGS/persist.diff)); $nbad of $nsync fsynced files do not verify"
[ "$nbad" = 0 ] || fail "$nbad of $nsync fsynced files do not verify"
note "killed during writes; $nsync fsynced files verified after recreate; zones identical before/after recreate ($(grep -vc ' em$' $LOGS/persist.after) non-empty)"
