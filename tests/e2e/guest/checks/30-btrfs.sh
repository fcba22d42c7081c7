# btrfs: mkfs.btrfs -O zoned, mount, write and fsync files, scrub, unmount,
# remount, verify every file's checksum.
. /e2e/lib.sh
kmsg_mark
dev=/dev/$(devname zl0)
blkzone reset $dev || fail "reset all"
btrfs_cycle $dev
