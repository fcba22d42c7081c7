# nvme_zns: a zonelab disk as an NVMe ZNS namespace (docs/NVME-ZNS.md),
# with the installed zonelab-nvmet.
# - Refusals: a disk with conventional zones and one with a smaller last
#   zone are refused by `zonelab-nvmet check`/`export` with the reason, and
#   the kernel itself refuses them (namespace enable fails with EINVAL and
#   nothing in dmesg says why), so the script's reasons are the kernel's.
# - A 256 MiB all-sequential disk (16 MiB zones, ctl=1) exported on
#   127.0.0.1:4420 (TCP) and on the loop transport; `nvme connect -t tcp`:
#   the namespace is zoned (`nvme zns id-ns` ZSZE = the zone size, the block
#   device host-managed), and after writes, an explicit open, a finish, a
#   zone append, an offline and a read-only zone, the NVMe report (one Zone
#   Management Receive with room for every zone, `nvme io-passthru`, and
#   `nvme zns report-zones` where nvmet answers it) equals blkzone on the
#   SCSI disk, blkzone on the NVMe disk and zonelab's own report (`zonelab
#   ctl zone report`).
# - `nvme zns report-zones` (nvme-cli 2.3) and its first request alone (a
#   64-byte, non-partial report: the zone count) get the same status on
#   zonelab and on null_blk: success on 6.1 and 6.12; on 7.3.4, whose
#   nvmet refuses a non-partial report that does not fit its buffer
#   (`nvmet_bdev_zone_zmgmt_recv_work()`), Invalid Field with DNR (0x6002)
#   on both, which is then asserted (docs/NVME-ZNS.md).
# - Zone append (`nvme zns zone-append`): two 4 KiB appends land at the LBAs
#   their completions give (the zone's WP, then WP + 8) and read back.
# - Faults through the control socket reach the initiator as NVMe status:
#   read of an offline zone and write to a read-only zone -> LBA Out of
#   Range with DNR (0x6080 as nvme-cli prints it: sd fails DATA PROTECT
#   with BLK_STS_TARGET), a write error (medium-error:op=write) -> Internal
#   Error with DNR (0x6006, BLK_STS_IOERR), a read medium error -> Access
#   Denied (0x2286, BLK_STS_MEDIUM); null_blk's bad blocks, exported the
#   same way, give the same status for a write as zonelab's write error.
# - The loop transport: the same namespace over `nvme connect -t loop`.
# - Teardown in two orders (the target's disk detached while connected,
#   then torn down; and torn down first) leaves no subsystem, port, NVMe
#   controller, backstore or null_blk device.
. /e2e/lib.sh
. /e2e/nvme.sh
nv_need
ZS=$((16 << 11))   # zone size in sectors
teardown() {
	for n in zlnv zlnvc zlnvr zlnvl; do $NVMET teardown $n > /dev/null 2>&1; done
	$NVMET teardown nbnv > /dev/null 2>&1
	for n in zlnv zlnvc zlnvr; do nv_zl_rm $n; rm -f /tmp/$n.img; done
	nv_nullb_rm nbnv
}
trap teardown EXIT
bad=""
# kernel_refuses DEV - true when nvmet refuses DEV's namespace (configfs by
# hand, no script).
kernel_refuses() {
	local s=$NVCFS/subsystems/nqn.2026-12.io.zonelab:raw r=1
	mkdir -p $s/namespaces/1 && echo /dev/$1 > $s/namespaces/1/device_path
	echo 1 > $s/namespaces/1/enable 2> $LOGS/nvme-raw-enable.err && r=0
	echo 0 > $s/namespaces/1/enable; rmdir $s/namespaces/1 $s
	[ $r = 1 ]
}

# --- refusals ---
c=$(nv_zl zlnvc 256 16 2) && [ -n "$c" ] || fail "disk with conventional zones did not attach"
out=$($NVMET export /dev/$c zlnvc $NVPORT 2>&1) && bad+="export of a disk with conventional zones succeeded; "
grep -q 'has conventional zones (2 of 16 zones, 0 to 1)' <<< "$out" || bad+="conv refusal: '$out'; "
say "refused: $out"
kernel_refuses $c || bad+="the kernel took a disk with conventional zones; "
r=$(nv_zl zlnvr 264 16) && [ -n "$r" ] || fail "disk with a smaller last zone did not attach"
out=$($NVMET check /dev/$r 2>&1) && bad+="check of a disk with a smaller last zone passed; "
grep -q 'the last zone has 16384 sectors' <<< "$out" || bad+="runt refusal: '$out'; "
say "refused: $out"
kernel_refuses $r || bad+="the kernel took a disk with a smaller last zone; "
[ -z "$(ls $NVCFS/subsystems)" ] || bad+="refusals left subsystems: $(ls $NVCFS/subsystems); "

# --- the namespace ---
d=$(nv_zl zlnv 256 16) && [ -n "$d" ] || fail "all-sequential zonelab disk did not attach"
ctl=/tmp/zlnv.img.ctl
$NVMET check /dev/$d || fail "zonelab-nvmet check refused the all-sequential disk"
$NVMET export /dev/$d zlnv $NVPORT $NVLOOP > $LOGS/nvme-export.out 2>&1 || fail "export: $(cat $LOGS/nvme-export.out)"
n=$($NVMET connect zlnv $NVPORT) || fail "nvme connect -t tcp failed"
n=${n#/dev/}
say "zonelab disk $d -> $n over NVMe/TCP"
[ "$(cat /sys/block/$n/queue/zoned)" = host-managed ] || fail "$n: zoned=$(cat /sys/block/$n/queue/zoned)"
[ "$(cat /sys/block/$n/queue/chunk_sectors)" = $ZS ] || bad+="$n chunk_sectors $(cat /sys/block/$n/queue/chunk_sectors); "
[ "$(cat /sys/block/$n/queue/nr_zones)" = 16 ] || bad+="$n nr_zones $(cat /sys/block/$n/queue/nr_zones); "
nvme zns id-ns /dev/$n > $LOGS/nvme-id-ns.txt 2>&1 || fail "nvme zns id-ns: $(cat $LOGS/nvme-id-ns.txt)"
nvme zns id-ctrl /dev/$n > $LOGS/nvme-id-ctrl.txt 2>&1 || bad+="nvme zns id-ctrl failed; "
nvme id-ns /dev/$n > $LOGS/nvme-id-ns-nvm.txt 2>&1
zsze=$(sed -n 's/.*zsze: *\(0x[0-9a-f]*\).*/\1/p' $LOGS/nvme-id-ns.txt | head -1)
[ -n "$zsze" ] && [ $((zsze)) = $ZS ] || bad+="id-ns zsze '$zsze', want $ZS; "
say "id-ns: $(tr -s ' \n' ' ' < $LOGS/nvme-id-ns.txt | cut -c1-300)"
say "id-ctrl: $(tr -s ' \n' ' ' < $LOGS/nvme-id-ctrl.txt)"

# Writes through NVMe, zone state changes through nvme-cli.
head -c $((128 << 10)) /dev/urandom > /tmp/nv128k
dd if=/tmp/nv128k of=/dev/$n bs=64K count=1 seek=$((ZS * 1 / 128)) oflag=direct status=none || bad+="write at zone 1's WP failed; "
dd if=/tmp/nv128k of=/dev/$n bs=128K count=1 seek=$((ZS * 3 / 256)) oflag=direct status=none || bad+="write at zone 3's WP failed; "
cmp -s -n $((64 << 10)) /tmp/nv128k <(dd if=/dev/$n bs=64K count=1 skip=$((ZS / 128)) iflag=direct status=none) || bad+="zone 1 data differs; "
nvme zns finish-zone /dev/$n -s $((4 * ZS)) > /dev/null || bad+="finish-zone 4 failed; "
nvme zns open-zone /dev/$n -s $((5 * ZS)) > /dev/null || bad+="open-zone 5 failed; "
# Zone append into zone 2: the completions give the LBAs.
head -c 4096 /dev/urandom > /tmp/nva1; head -c 4096 /dev/urandom > /tmp/nva2
a1=$(nvme zns zone-append /dev/$n -s $((2 * ZS)) -z 4096 -d /tmp/nva1 2>&1)
a2=$(nvme zns zone-append /dev/$n -s $((2 * ZS)) -z 4096 -d /tmp/nva2 2>&1)
say "zone-append: $a1 / $a2"
l1=$(sed -n 's/.*appended data to LBA \([0-9a-fA-F]*\).*/\1/p' <<< "$a1"); l2=$(sed -n 's/.*appended data to LBA \([0-9a-fA-F]*\).*/\1/p' <<< "$a2")
[ -n "$l1" ] && [ $((16#$l1)) = $((2 * ZS)) ] || bad+="first append at LBA '$l1', want $((2 * ZS)) (the empty zone's start); "
[ -n "$l2" ] && [ $((16#$l2)) = $((2 * ZS + 8)) ] || bad+="second append at LBA '$l2', want $((2 * ZS + 8)); "
if [ -n "$l1" ] && [ -n "$l2" ]; then
	cmp -s /tmp/nva1 <(dd if=/dev/$n bs=512 count=8 skip=$((16#$l1)) iflag=direct status=none) || bad+="data of the first append not at LBA $l1; "
	cmp -s /tmp/nva2 <(dd if=/dev/$n bs=512 count=8 skip=$((16#$l2)) iflag=direct status=none) || bad+="data of the second append not at LBA $l2; "
fi

# --- faults through the control socket ---
$ZONELAB ctl $ctl zone offline 6 > /dev/null || fail "zonelab ctl zone offline 6"
$ZONELAB ctl $ctl zone read-only 7 > /dev/null || fail "zonelab ctl zone read-only 7"
o=$(nvme read /dev/$n -s $((6 * ZS)) -c 7 -z 4096 -d /dev/null 2>&1) && bad+="read of offline zone 6 succeeded; "
s_off=$(nv_status "$o"); say "offline read: $o"
o=$(nvme write /dev/$n -s $((7 * ZS)) -c 7 -z 4096 -d /tmp/nva1 2>&1) && bad+="write to read-only zone 7 succeeded; "
s_ro=$(nv_status "$o"); say "read-only write: $o"
nvme read /dev/$n -s $((7 * ZS)) -c 7 -z 4096 -d /dev/null > /dev/null 2>&1 || bad+="read of read-only zone 7 failed; "
$ZONELAB ctl $ctl fault add 'medium-error:op=write,zone=8,repeat' > /dev/null || fail "fault add write error"
o=$(nvme write /dev/$n -s $((8 * ZS)) -c 7 -z 4096 -d /tmp/nva1 2>&1) && bad+="write with a write error rule succeeded; "
s_we=$(nv_status "$o"); say "write error: $o"
$ZONELAB ctl $ctl fault clear > /dev/null
$ZONELAB ctl $ctl fault add 'medium-error:op=read,zone=1,repeat' > /dev/null || fail "fault add read error"
o=$(nvme read /dev/$n -s $ZS -c 7 -z 4096 -d /dev/null 2>&1) && bad+="read with a medium error rule succeeded; "
s_re=$(nv_status "$o"); say "read medium error: $o"
$ZONELAB ctl $ctl fault clear > /dev/null
nvme read /dev/$n -s $ZS -c 7 -z 4096 -d /dev/null > /dev/null 2>&1 || bad+="read after fault clear failed; "
# After a failed write, 6.12's zone write plugging (on sd, under nvmet)
# fails every write to that zone until the zone is reported again (its
# write pointer re-read, blkdev_report_zones); 6.1 does not.  The
# initiator reports the zone first, as a ZNS host does after a write error.
# (A partial report of that one zone: nvme-cli's report-zones is refused on 7.3.)
nv_zmr $n $((8 * ZS)) 128 1 > /dev/null 2> $LOGS/nvme-zmr-zone8.err || bad+="report of zone 8 after the write error failed: $(cat $LOGS/nvme-zmr-zone8.err); "
o=$(nvme write /dev/$n -s $((8 * ZS)) -c 7 -z 4096 -d /tmp/nva1 2>&1) || bad+="write after fault clear failed: $o; "
# nvme-cli prints the status field with DNR (0x4000) and More (0x2000):
# sd fails DATA PROTECT (offline, read-only) with BLK_STS_TARGET -> LBA Out
# of Range (0x80), a write error with BLK_STS_IOERR -> Internal Error (0x6),
# a read medium error with BLK_STS_MEDIUM -> Access Denied (0x286, no DNR).
for v in "offline-read $s_off 0x6080" "read-only-write $s_ro 0x6080" "write-error $s_we 0x6006" "read-medium-error $s_re 0x2286"; do
	set -- $v
	[ "${3:-}" ] || { bad+="$1: no NVMe status printed; "; continue; }
	[ $(( $2 )) = $(( $3 )) ] || bad+="$1: NVMe status $2, want $3; "
done
note "NVMe status: offline read $s_off, read-only write $s_ro, write error $s_we, read medium error $s_re;"

# --- the reports: NVMe, blkzone on both sides, zonelab ---
# nvme-cli's report-zones, and its first request alone (the zone count in a
# 64-byte buffer, not partial): their status is compared with null_blk's below.
if nv_zones $n > $LOGS/nvme-zones.nvme 2> $LOGS/nvme-zones.nvme.err; then rz_zl=ok; else rz_zl=$(nv_status "$(cat $LOGS/nvme-zones.nvme.err)"); rz_zl=${rz_zl:-error}; fi
nv_zmr $n 0 64 > /dev/null 2> $LOGS/nvme-zmr-count.err && cnt_zl=ok || { cnt_zl=$(nv_status "$(cat $LOGS/nvme-zmr-count.err)"); cnt_zl=${cnt_zl:-error}; }
say "nvme zns report-zones: $rz_zl; count-only report (64 bytes, not partial): $cnt_zl"
nv_zones_zmr $n 16 > $LOGS/nvme-zones.zmr 2> $LOGS/nvme-zones.zmr.err || bad+="zone management receive of 16 zones failed: $(tr '\n' ' ' < $LOGS/nvme-zones.zmr.err); "
bz_zones $n > $LOGS/nvme-zones.blkzone-nvme
bz_zones $d > $LOGS/nvme-zones.blkzone-scsi
zl_zones $ctl > $LOGS/nvme-zones.zonelab
reps="zmr blkzone-nvme blkzone-scsi"
[ $rz_zl = ok ] && reps="nvme $reps"
for f in $reps zonelab; do
	zones_norm < $LOGS/nvme-zones.$f > $LOGS/nvme-zones.$f.n
done
for f in $reps; do
	cmp -s $LOGS/nvme-zones.$f.n $LOGS/nvme-zones.zonelab.n || bad+="report $f differs from zonelab's: $(comm -3 <(sort $LOGS/nvme-zones.$f.n) <(sort $LOGS/nvme-zones.zonelab.n) | head -4 | tr '\n\t' ' |'); "
done
want="0 em 1 oi 2 oi 3 oi 4 fu 5 oe 6 of 7 ro 8 oi"
got=$(awk 'NR <= 9 { printf "%s%d %s", (NR > 1 ? " " : ""), NR - 1, $4 }' $LOGS/nvme-zones.zonelab)
[ "$got" = "$want" ] || bad+="zone conditions '$got', want '$want'; "
wp=$(awk 'NR == 3 { print $3 - $1 }' $LOGS/nvme-zones.zmr)
[ "$wp" = 16 ] || bad+="zone 2's WP after two 4 KiB appends: $wp sectors, want 16; "
say "== zones (start len wp cond), NVMe zone management receive:"; cat $LOGS/nvme-zones.zmr

# --- loop transport: the same namespace (where the kernel has nvme-loop) ---
if [ -n "$NVLOOP" ]; then
	nvme disconnect -n $($NVMET nqn zlnv) > /dev/null || bad+="nvme disconnect failed; "
	l=$($NVMET connect zlnv loop) || fail "nvme connect -t loop failed"
	nv_zones_zmr $l 16 > $LOGS/nvme-zones.loop
	cmp -s $LOGS/nvme-zones.loop $LOGS/nvme-zones.zmr || bad+="report over loop differs from over TCP; "
	cmp -s -n $((64 << 10)) /tmp/nv128k <(dd if=$l bs=64K count=1 skip=$((ZS / 128)) iflag=direct status=none) || bad+="zone 1 data over loop differs; "
	say "loop transport: $l"; note "loop transport: same report and data;"
else
	out=$($NVMET export /dev/$d zlnvl loop 2>&1) && bad+="export on the loop transport succeeded without nvme-loop; "
	note "loop transport: not in this kernel (no nvme-loop module; refused: ${out##*: });"
fi

# --- null_blk with bad blocks: a write error the same way ---
nb=$(nv_nullb nbnv 256 16) || fail "null_blk zoned did not come up"
echo "+$((3 * ZS))-$((3 * ZS + 63))" > /sys/kernel/config/nullb/nbnv/badblocks || bad+="null_blk badblocks refused; "
nn=$(nv_up $nb nbnv) && [ -n "$nn" ] || fail "null_blk export/connect: $(cat $LOGS/nvmet-nbnv.out)"
o=$(nvme write /dev/$nn -s $((3 * ZS)) -c 7 -z 4096 -d /tmp/nva1 2>&1) && bad+="write to null_blk's bad blocks succeeded; "
s_nb=$(nv_status "$o"); say "null_blk bad block write: $o"
[ -n "$s_nb" ] && [ $((s_nb)) = $((s_we)) ] || bad+="null_blk write error status '$s_nb' differs from zonelab's '$s_we'; "
# The reports on null_blk: nvme-cli's and the count-only request get what
# zonelab's got; where nvmet refuses them it is 0x6002 (7.3.4: a
# non-partial report that does not fit its buffer), and the full-buffer
# report still equals blkzone on the null_blk disk.
if nv_zones $nn > $LOGS/nvme-zones.nb-nvme 2> $LOGS/nvme-zones.nb-nvme.err; then rz_nb=ok; else rz_nb=$(nv_status "$(cat $LOGS/nvme-zones.nb-nvme.err)"); rz_nb=${rz_nb:-error}; fi
nv_zmr $nn 0 64 > /dev/null 2> $LOGS/nvme-zmr-count-nb.err && cnt_nb=ok || { cnt_nb=$(nv_status "$(cat $LOGS/nvme-zmr-count-nb.err)"); cnt_nb=${cnt_nb:-error}; }
say "null_blk: nvme zns report-zones: $rz_nb; count-only report: $cnt_nb"
for v in "report-zones $rz_zl $rz_nb" "count-only-report $cnt_zl $cnt_nb"; do
	set -- $v
	[ "$2" = "$3" ] || bad+="$1: zonelab $2, null_blk $3; "
	[ "$2" = ok ] || [ $(( $2 )) = $((0x6002)) ] || bad+="$1 on zonelab: $2, want success or 0x6002; "
done
nv_zones_zmr $nn 16 > $LOGS/nvme-zones.nb-zmr 2> $LOGS/nvme-zones.nb-zmr.err || bad+="zone management receive on null_blk failed: $(head -2 $LOGS/nvme-zones.nb-zmr.err | tr '\n' ' '); "
bz_zones $nb > $LOGS/nvme-zones.nb-blkzone
cmp -s $LOGS/nvme-zones.nb-zmr $LOGS/nvme-zones.nb-blkzone || bad+="null_blk: NVMe report differs from blkzone's: $(diff $LOGS/nvme-zones.nb-zmr $LOGS/nvme-zones.nb-blkzone | grep '^[<>]' | head -4 | tr '\n' ' '); "
[ $rz_zl = ok ] && note "nvme zns report-zones: ok on zonelab and null_blk;" ||
	note "nvme zns report-zones refused ($rz_zl) on zonelab and null_blk alike, its 64-byte count-only first request too ($cnt_zl): this kernel's nvmet refuses a non-partial report that does not fit the buffer; the full-buffer report equals blkzone;"

# --- teardown, two orders ---
nv_zl_rm zlnv          # the disk goes first, the host still connected
$NVMET teardown zlnv || bad+="teardown after the disk went failed; "
$NVMET teardown nbnv || bad+="teardown of null_blk's export failed; "
nv_nullb_rm nbnv
for x in zlnvc zlnvr; do nv_zl_rm $x; done
left=$(nv_left)
[ -z "$left" ] || bad+="left after teardown: $left; "
ls $CFS/core/user_0 2> /dev/null | grep -q zlnv && bad+="backstores left: $(ls $CFS/core/user_0); "
[ -z "$bad" ] || fail "$bad"
note "ZNS namespace over TCP: id-ns zsze $((zsze)), reports equal (nvme, blkzone on nvme and sd, zonelab), appends at $l1 and $l2; refusals as the kernel's; nothing left"
