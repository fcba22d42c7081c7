# nvme_btrfs: btrfs on a ZNS namespace (docs/NVME-ZNS.md): a 512 MiB
# all-sequential zonelab disk (16 MiB zones, ctl=1) exported over NVMe/TCP,
# and as the reference a zoned null_blk of the same geometry exported the
# same way.  On each: mkfs.btrfs -O zoned, mount, data reclaim at 50% (the
# fs-wide threshold at 51%), a
# fill of 35% (9 files of 20 MiB, NVB_FILES, NVB_MIB) and two rounds of overwrites
# (delete + rewrite of half the files), every write done (step "space"),
# sync, umount, remount, every sha256 verifies, umount, `btrfs check`
# clean; `btrfs filesystem usage` after mount, fill and overwrites in
# logs/nvme-btrfs-LABEL-usage.txt, the block groups btrfs relocated (kernel log)
# in the result line.  On zonelab, the command trace (zonelab ctl trace) of that cycle:
# the superblock log's writes are 4 KiB writes into sequential zones 0 and 1
# (ZNS has no conventional zone: btrfs keeps its superblock as a log in two
# zones), and nothing else is written there.  A file write that fails
# (ENOSPC) is named in logs/nvme-btrfs-enospc.txt.  Then a seeded power loss on a fresh
# file system (mkfs again): 10 files of 1 MiB written and synced, then the
# fault rule power-loss:op=write,after=300 while more files are written
# until it fires: the emulator counts a power cycle and from then on serves
# nothing (NOT READY), as a drive without power; the command trace of it in
# logs/nvme-btrfs-powerloss-trace.txt, zonelab's zones after it in
# logs/nvme-btrfs-powerloss-zones.txt.  The power comes back as on a real
# drive: the disk is detached and attached again (the image reopened, the
# NVMe controller connected anew); then the file
# system mounts again, the 10 synced files verify, and `btrfs check` runs
# (its result, btrfs's write error count and the kernel's WARNING/BUG
# signatures are reported; logs/nvme-btrfs-powerloss-kmsg.txt).  Fails when
# a cycle step fails on zonelab or differs from null_blk, when the cycle
# stops early, when the rule never fires, when the file system does not
# mount after the power loss or a file synced before it does not verify.
. /e2e/lib.sh
. /e2e/nvme.sh
nv_need
modprobe btrfs || skip "no btrfs"
# The host's NVMe modules are reloaded with nvme_core multipath=N for this
# check (back to Y after it): btrfs on the multipath head nvmeXnY fails on
# both kernels, with zonelab and null_blk alike (docs/NVME-ZNS.md "btrfs on
# the ZNS namespace").  6.1: btrfs maps a zone append's completion back to
# its block group with the bio's block device (btrfs_record_physical_zoned:
# ordered->bdev = bio->bi_bdev; btrfs_rmap_block() skips a stripe whose
# device's bdev differs), and the head remapped the bio to the path's disk
# (nvme_ns_head_submit_bio: bio_set_dev(bio, ns->disk->part0)): WARN(nr != 1)
# in zoned.c, then a NULL dereference in btrfs_zone_finish_endio.  6.12: the
# head's zone append limit is stacked as 0 (multipath.c sets
# max_zone_append_sectors = 0, blk_stack_limits keeps it), so it shows the
# zone size, btrfs sizes its appends by it, and the path refuses those over
# its own ZASL (blk_check_zone_append: BLK_STS_IOERR): write errors and
# files that do not verify.  (Since 6.10 a zone append over 1 MiB hits
# BUG() in nvmet's bvec_alloc; nv_zl attaches the disk with `zonelab-nvmet
# attach`, which caps the SCSI disk's max_hw_sectors, and with it the zone
# append limit nvmet advertises, at 512 KiB.)
MP=N
nv_multipath N || fail "cannot reload nvme_core with multipath=N"
M=/mnt/nvb
teardown() {
	umount $M 2> /dev/null
	$NVMET teardown zlnvb > /dev/null 2>&1; $NVMET teardown nbnvb > /dev/null 2>&1
	nv_zl_rm zlnvb; rm -f /tmp/zlnvb.img /tmp/zlnvb.trc /tmp/zlnvb-pl.trc; nv_nullb_rm nbnvb
	[ -z "$MP" ] || nv_multipath Y
}
trap teardown EXIT
mkdir -p $M
# The fill: NVB_FILES files of NVB_MIB MiB (default 9 of 20 MiB, 180 MiB,
# 35% of the disk), then the odd ones rewritten twice: 380 MiB of data in
# all, within the ~26 data zones once the 50% reclaim and the unused block
# group cleaner give zones back.  20 MiB files straddle the 16 MiB zones
# unevenly, so deleting the odd ones leaves block groups below the 50%
# reclaim threshold (24 MiB files would leave them at exactly 50%, not
# reclaimed), and the fs-wide reclaim threshold is 51% (below).  Until 2026-12-06 the fill was 12 files of 24 MiB (56%,
# 576 MiB written): every run on every kernel and both disks then hit
# ENOSPC in the overwrites, which the check accepted, and on 7.3 btrfs once
# aborted a transaction there (ENOSPC in __btrfs_free_extent after "error
# relocating chunk", on null_blk; docs/NVME-ZNS.md "btrfs on the ZNS
# namespace"): a test of the kernel's ENOSPC error paths, not of the
# device.  Now a write that fails fails the step "space"; out of space is
# the kernel's (noted, below) only where the device is shown clean.
NVB_FILES=${NVB_FILES:-9}; NVB_MIB=${NVB_MIB:-20}
: > $LOGS/nvme-btrfs-enospc.txt

# cycle DEV LABEL - "step ok|fail" lines in $LOGS/nvme-btrfs-LABEL.txt
cycle() {
	local dev=/dev/$1 out=$LOGS/nvme-btrfs-$2.txt i r u
	: > $out
	r() { echo "$1 $2" >> $out; }
	mkfs.btrfs -q -f -O zoned $dev > $LOGS/nvme-btrfs-$2.mkfs 2>&1 && r mkfs ok || { r mkfs fail; return; }
	mount -t btrfs $dev $M && r mount ok || { r mount fail; return; }
	u=$(btrfs filesystem show -m $M | sed -n 's/.*uuid: //p')
	# the size btrfs sees (equal on both disks, or the geometries differ)
	r size "$(btrfs filesystem usage -b $M 2> /dev/null | awk '/Device size:/ { print $3; exit }')"
	# data block groups below 50% used are reclaimed, on a zoned file system
	# only while the devices are at least bg_reclaim_threshold (fs-wide,
	# default 75, at least 51) allocated (btrfs_zoned_should_reclaim(),
	# zoned.c:2242 in 6.1): 51, so that the reclaim runs at this fill
	echo 50 > /sys/fs/btrfs/$u/allocation/data/bg_reclaim_threshold 2> /dev/null &&
		echo 51 > /sys/fs/btrfs/$u/bg_reclaim_threshold 2> /dev/null && r reclaim_50 ok || r reclaim_50 fail
	{ echo "== after mount"; btrfs filesystem usage -b $M; } > $LOGS/nvme-btrfs-$2-usage.txt 2>&1
	for i in $(seq 1 $NVB_FILES); do
		head -c $((NVB_MIB << 20)) /dev/urandom > $M/f$i 2> /dev/null || { echo "$2 fill f$i" >> $LOGS/nvme-btrfs-enospc.txt; break; }
	done
	sync && r fill ok || r fill fail
	{ echo "== after the fill"; btrfs filesystem usage -b $M; } >> $LOGS/nvme-btrfs-$2-usage.txt 2>&1
	for round in 1 2; do
		for i in $(seq 1 2 $NVB_FILES); do
			rm -f $M/f$i
			head -c $((NVB_MIB << 20)) /dev/urandom > $M/f$i 2> /dev/null || { echo "$2 overwrite $round f$i" >> $LOGS/nvme-btrfs-enospc.txt; break; }
			sync
		done
	done
	btrfs filesystem sync $M && r overwrite ok || r overwrite fail
	grep -q "^$2 " $LOGS/nvme-btrfs-enospc.txt && r space fail || r space ok
	{ echo "== after the overwrites"; btrfs filesystem usage -b $M; } >> $LOGS/nvme-btrfs-$2-usage.txt 2>&1
	(cd $M && sha256sum f*) > /tmp/nvb.sums
	umount $M && r umount ok || r umount fail
	mount -t btrfs $dev $M && r remount ok || { r remount fail; return; }
	(cd $M && sha256sum -c --quiet /tmp/nvb.sums) && r verify ok || r verify fail
	umount $M
	btrfs check $dev > $LOGS/nvme-btrfs-$2.check 2>&1 && r check ok || r check fail
}

d=$(nv_zl zlnvb 512 16) && [ -n "$d" ] || fail "zonelab disk did not attach"
za=$(cat /sys/block/$d/queue/zone_append_max_bytes)
[ "$za" -le 1048576 ] || fail "the disk's zone append limit is $za bytes after zonelab-nvmet attach: nvmet would advertise it, and appends over 1 MiB hit BUG() in bvec_alloc"
n=$(nv_up $d zlnvb) && [ -n "$n" ] || fail "export/connect: $(cat $LOGS/nvmet-zlnvb.out)"
say "zonelab $d (zone_append_max_bytes $za) -> $n (zone_append_max_bytes $(cat /sys/block/$n/queue/zone_append_max_bytes))"
ctl=/tmp/zlnvb.img.ctl
$ZONELAB ctl $ctl trace start /tmp/zlnvb.trc > /dev/null || fail "trace start"
# the errors zonelab returned during the cycle (no fault rule is set: any
# error is the device's) and the I/O errors the kernel logged on it
zerr() { $ZONELAB ctl --json $ctl stats | grep -o '"errors":[0-9]*' | head -1 | grep -o '[0-9]*$'; }
zerr0=$(zerr)
kmsg_mark
cycle $n zonelab
zerrs=$(( $(zerr) - zerr0 ))
$ZONELAB ctl $ctl trace stop > /dev/null || fail "trace stop"
kmsg_since > $LOGS/nvme-btrfs-zonelab-kmsg.txt
kio() { grep -cE 'I/O error|critical (medium|target) error|errs: wr [1-9]|errs: wr [0-9]+, rd [1-9]' $LOGS/nvme-btrfs-$1-kmsg.txt; }
# the superblock log: writes into zones 0 and 1 (bytes 0 .. 32 MiB)
$ZONELAB trace cat --op write /tmp/zlnvb.trc > $LOGS/nvme-btrfs-trace.txt || fail "trace cat"
sbw=$(awk '$3 < 33554432' $LOGS/nvme-btrfs-trace.txt | wc -l)
sbodd=$(awk '$3 < 33554432 && $4 != 4096' $LOGS/nvme-btrfs-trace.txt | wc -l)
sbz=$(awk '$3 < 33554432 { print int($3 / 16777216) }' $LOGS/nvme-btrfs-trace.txt | sort -u | tr '\n' ' ')
say "superblock log: $sbw writes in zones ${sbz}(sizes other than 4 KiB: $sbodd)"
bad=""
[ "$sbw" -ge 2 ] || bad+="superblock log: $sbw writes in zones 0-1; "
[ "$sbodd" = 0 ] || bad+="$sbodd writes in zones 0-1 that are not 4 KiB superblocks; "
# the seeded power loss, on a fresh file system (the cycle's may be full:
# writes that fail with ENOSPC never reach the disk, and the rule would not fire)
mkfs.btrfs -q -f -O zoned /dev/$n > $LOGS/nvme-btrfs-powerloss.mkfs 2>&1 || fail "mkfs before the power loss"
mount -t btrfs /dev/$n $M || fail "mount before the power loss"
for i in $(seq 1 10); do head -c $((1 << 20)) /dev/urandom > $M/s$i || fail "writing s$i before the power loss"; done
sync || fail "sync before the power loss"
(cd $M && sha256sum s*) > /tmp/nvb-pl.sums
kmsg_mark
$ZONELAB ctl $ctl trace start /tmp/zlnvb-pl.trc > /dev/null || fail "trace start (power loss)"
$ZONELAB ctl $ctl fault add 'power-loss:op=write,after=300' > /dev/null || fail "fault add power-loss"
for i in $(seq 1 200); do
	head -c $((1 << 20)) /dev/urandom > $M/p$i 2> /dev/null && sync $M/p$i 2> /dev/null
	$ZONELAB ctl --json $ctl stats | grep -q '"power_cycles":[1-9]' && break
done
pc=$($ZONELAB ctl --json $ctl stats | grep -o '"power_cycles":[0-9]*')
$ZONELAB ctl --json $ctl stats > $LOGS/nvme-btrfs-powerloss-stats.txt
say "after $i files: $pc"
grep -q ':[1-9]' <<< "$pc" || bad+="the power-loss rule never fired ($pc after $i files); "
umount $M 2> /dev/null || umount -l $M
$ZONELAB ctl $ctl trace stop > /dev/null
$ZONELAB trace cat /tmp/zlnvb-pl.trc > $LOGS/nvme-btrfs-powerloss-trace.txt 2>&1
$ZONELAB ctl $ctl zone report > $LOGS/nvme-btrfs-powerloss-zones.txt 2>&1
# Since the rule fired the disk serves nothing (NOT READY: docs/FAULTS.md);
# the power comes back as it does for a real drive: the host loses the disk
# (NVMe disconnect, nvmet's export, the SCSI disk and the backstore go) and
# finds it again, the image opened again with what was durable.  (A power
# loss inside a live disk that keeps its host-side state would leave the
# block layer's cached write pointers, 6.12's zone write plugs, stale.)
$NVMET teardown zlnvb > /dev/null 2>&1; nv_zl_rm zlnvb
d=$(NV_KEEP=1 nv_zl zlnvb 512 16) && [ -n "$d" ] || fail "zonelab disk did not attach again after the power loss"
n=$(nv_up $d zlnvb) && [ -n "$n" ] || fail "export/connect after the power loss: $(cat $LOGS/nvmet-zlnvb.out)"
say "power back: zonelab $d -> $n"
pl_synced=-
if mount -t btrfs /dev/$n $M; then
	pl_mount=ok
	(cd $M && sha256sum -c --quiet /tmp/nvb-pl.sums) > $LOGS/nvme-btrfs-powerloss-verify.txt 2>&1 && pl_synced=ok ||
		{ pl_synced=fail; bad+="files synced before the power loss do not verify (logs/nvme-btrfs-powerloss-verify.txt); "; }
	umount $M
else
	pl_mount=fail; bad+="not mountable after the power loss; "
fi
btrfs check /dev/$n > $LOGS/nvme-btrfs-powerloss.check 2>&1 && pl_check=clean || pl_check="errors (logs/nvme-btrfs-powerloss.check)"
kmsg_since > $LOGS/nvme-btrfs-powerloss-kmsg.txt
pl_wr=$(grep -o 'errs: wr [0-9]*' $LOGS/nvme-btrfs-powerloss-kmsg.txt | tail -1 | grep -o '[0-9]*$')
pl_sigs=$(ksigs < $LOGS/nvme-btrfs-powerloss-kmsg.txt | uniq -c | sed 's/^ *//' | tr '\n' ';')
$NVMET teardown zlnvb; nv_zl_rm zlnvb

nb=$(nv_nullb nbnvb 512 16) || fail "null_blk"
nn=$(nv_up $nb nbnvb) && [ -n "$nn" ] || fail "null_blk export/connect"
kmsg_mark
cycle $nn null_blk
kmsg_since > $LOGS/nvme-btrfs-null_blk-kmsg.txt
join -a1 -a2 -e - -o 0,1.2,2.2 <(sort $LOGS/nvme-btrfs-zonelab.txt) <(sort $LOGS/nvme-btrfs-null_blk.txt) > $LOGS/nvme-btrfs-cmp.txt
say "== step zonelab null_blk"; cat $LOGS/nvme-btrfs-cmp.txt
# Out of space is the kernel's, not the device's, when the device served
# every command: btrfs's zoned allocator at this fill runs out or not by
# how its asynchronous reclaim races the writer, on either device (6.1,
# 2026-12-07: null_blk alone; 6.12 the same day: both disks in one run,
# zonelab alone in the next, docs/NVME-ZNS.md).  So a disk out of space is
# noted when btrfs saw the same device size on both, zonelab returned no
# error in the cycle and the kernel logged no I/O error on it; with a
# device error, or a size that differs, it fails.  Any other step that
# fails on zonelab or differs from null_blk fails the check.
zio=$(kio zonelab)
zclean=0; [ "$zerrs" = 0 ] && [ "$zio" = 0 ] && zclean=1
diffs=$(awk -v zc=$zclean '$2 != $3 && !($1 == "space" && ($3 == "fail" || zc)) { printf "%s(%s|%s) ", $1, $2, $3 }' $LOGS/nvme-btrfs-cmp.txt)
[ -n "$diffs" ] && bad+="differs from null_blk: $diffs; "
spacenote=$(awk -v ze=$zerrs -v zi=$zio '$1 == "space" && $2 != $3 && $3 == "fail" { print "; null_blk alone ran out of space (the kernel'"'"'s ENOSPC on the reference, noted)" }
	$1 == "space" && $2 == "fail" && $3 == "ok" { print "; zonelab alone ran out of space, the device clean (" ze " errors returned, " zi " I/O errors logged; the kernel'"'"'s ENOSPC, noted)" }
	$1 == "space" && $2 == "fail" && $3 == "fail" { print "; both disks ran out of space (the kernel'"'"'s ENOSPC on the reference too, noted)" }' $LOGS/nvme-btrfs-cmp.txt)
zfail=$(awk -v zc=$zclean '$2 == "fail" && !($1 == "space" && ($3 == "fail" || zc)) { printf "%s ", $1 }' $LOGS/nvme-btrfs-cmp.txt)
[ "$zerrs" = 0 ] || bad+="zonelab returned $zerrs errors during the cycle (no fault rule was set); "
[ -n "$zfail" ] && bad+="failed on zonelab: $zfail; "
[ "$(wc -l < $LOGS/nvme-btrfs-zonelab.txt)" -ge 11 ] || bad+="cycle stopped early; "
[ -z "$bad" ] || fail "$bad"
reloc() { grep -c 'relocating block group' $LOGS/nvme-btrfs-$1-kmsg.txt; }
note "btrfs on ZNS: every step as on null_blk ($(wc -l < $LOGS/nvme-btrfs-cmp.txt) steps, btrfs check clean on both, $NVB_FILES x $NVB_MIB MiB, block groups relocated $(reloc zonelab) | $(reloc null_blk)); superblock log $sbw x 4 KiB in zones $sbz; power loss ($pc, after $i files): mount $pl_mount, 10 files synced before it $pl_synced, btrfs check $pl_check, btrfs write errors ${pl_wr:-0}${pl_sigs:+, kernel: $pl_sigs}; out of space: $(tr '\n' ',' < $LOGS/nvme-btrfs-enospc.txt)$spacenote"
