# btrfs: mkfs.btrfs -O zoned, mount, write and fsync files, scrub, unmount,
# remount, verify every file's checksum.
. /e2e/lib.sh
dev=/dev/$(devname zl0)
modprobe btrfs || fail "modprobe btrfs"
blkzone reset $dev || fail "reset all"
t0=$EPOCHREALTIME
mkfs.btrfs -q -f -O zoned $dev || fail "mkfs.btrfs -O zoned"
t1=$EPOCHREALTIME
mkdir -p /mnt/b && mount -t btrfs $dev /mnt/b || fail "mount"
t2=$EPOCHREALTIME
for i in $(seq 1 20); do
	head -c $(( (i * 37 % 17 + 1) * 65536 )) /dev/urandom > /mnt/b/f$i
	sync /mnt/b/f$i || fail "fsync f$i"
done
head -c $((32 << 20)) /dev/urandom > /mnt/b/big && sync /mnt/b/big || fail "big file"
t3=$EPOCHREALTIME
(cd /mnt/b && sha256sum f* big) > /tmp/btrfs.sums
btrfs scrub start -B /mnt/b || fail "scrub"
umount /mnt/b || fail "umount"
mount -t btrfs $dev /mnt/b || fail "remount"
(cd /mnt/b && sha256sum -c --quiet /tmp/btrfs.sums) || fail "checksum mismatch after remount"
umount /mnt/b || fail "final umount"
kmsg_since | grep -iE 'BTRFS (error|critical)' && fail "btrfs errors in dmesg"
note "$(printf 'mkfs %.2fs, mount %.2fs, 21 files (~43 MiB) write+fsync %.2fs; scrub clean; all verified after remount' $(bc_sub $t1 $t0) $(bc_sub $t2 $t1) $(bc_sub $t3 $t2))"
