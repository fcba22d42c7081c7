# f2fs: on the host-managed disk with 8 conventional zones (metadata):
# mkfs.f2fs -m, mount, write, remount, verify.
. /e2e/lib.sh
dev=/dev/$(devname zl0)
# f2fs up to 6.x needs a "crc32" shash (qemu64 has no pclmul); 7.x's f2fs
# calls the CRC library
kmod_load "crc32_generic|crc32_cryptoapi" f2fs
blkzone reset $dev || fail "reset all"
mkfs.f2fs -f -m $dev > $LOGS/mkfs.f2fs.out 2>&1 || { cat $LOGS/mkfs.f2fs.out; fail "mkfs.f2fs -m"; }
mkdir -p /mnt/f && mount -t f2fs $dev /mnt/f || fail "mount"
for i in $(seq 1 20); do head -c $(( (i % 7 + 1) * 131072 )) /dev/urandom > /mnt/f/f$i; done
head -c $((48 << 20)) /dev/urandom > /mnt/f/big
sync
(cd /mnt/f && sha256sum f* big) > /tmp/f2fs.sums
umount /mnt/f || fail "umount"
mount -t f2fs $dev /mnt/f || fail "remount"
(cd /mnt/f && sha256sum -c --quiet /tmp/f2fs.sums) || fail "checksum mismatch"
umount /mnt/f
kmsg_since | grep -iE 'F2FS-fs.*(error|fail)' && fail "f2fs errors in dmesg"
note "mkfs -m, 21 files (~58 MiB) verified after remount"
