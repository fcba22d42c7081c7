# nvme_zonefs: zonefs on a ZNS namespace (docs/NVME-ZNS.md), the zonefs
# check's steps (guest/zonefs.sh, as 75 runs them on SCSI) on a 256 MiB
# all-sequential zonelab disk (16 MiB zones, ctl=1) exported through nvmet
# over NVMe/TCP (127.0.0.1:4420) and, as the reference, on a zoned null_blk
# of the same geometry exported and connected the same way.  ZNS has no
# conventional zone, so the super block is in sequential zone 0 and the
# files are seq/0 .. seq/14.  Then, on zonelab only, zone 5 taken offline
# with `zonelab ctl`: after a mount seq/4 has size 0, mode 000 and cannot be
# read, as zonefs documents (the offline condition reaches the initiator
# through the NVMe zone report).  Per-step outcomes side by side in
# logs/nvme-zonefs-cmp.txt; fails when an outcome differs from null_blk's
# or a documented outcome is not met on zonelab.  Tears down its exports,
# disk and null_blk.
. /e2e/lib.sh
. /e2e/nvme.sh
. /e2e/zonefs.sh
nv_need
modprobe zonefs 2> /dev/null || grep -qw zonefs /proc/filesystems || skip "no zonefs in this kernel"
type python3 > /dev/null 2>&1 || skip "no python3 for mkzonefs.py"
NZ=16
teardown() {
	umount $M 2> /dev/null
	$NVMET teardown zlnvz > /dev/null 2>&1; $NVMET teardown nbnvz > /dev/null 2>&1
	nv_zl_rm zlnvz; rm -f /tmp/zlnvz.img; nv_nullb_rm nbnvz
}
trap teardown EXIT

d=$(nv_zl zlnvz 256 16) && [ -n "$d" ] || fail "all-sequential zonelab disk did not attach"
n=$(nv_up $d zlnvz) && [ -n "$n" ] || fail "zonelab export/connect: $(cat $LOGS/nvmet-zlnvz.out)"
nb=$(nv_nullb nbnvz 256 16) || fail "null_blk zoned did not come up"
nn=$(nv_up $nb nbnvz) && [ -n "$nn" ] || fail "null_blk export/connect: $(cat $LOGS/nvmet-nbnvz.out)"
say "zonelab $d -> $n, null_blk $nb -> $nn (NVMe/TCP)"
zonefs_steps /dev/$n 0 nvme-zonelab
zonefs_steps /dev/$nn 0 nvme-null_blk
say "== step, zonelab | null_blk (both over NVMe/TCP)"
join -a1 -a2 -e - -o 0,1.2,2.2 <(sort $LOGS/zonefs-nvme-zonelab.txt) \
	<(sort $LOGS/zonefs-nvme-null_blk.txt) > $LOGS/nvme-zonefs-cmp.txt
cat $LOGS/nvme-zonefs-cmp.txt
diffs=$(awk '$2 != $3 { printf "%s(%s|%s) ", $1, $2, $3 }' $LOGS/nvme-zonefs-cmp.txt)
bad=""
want="mount ok
files cnv=0,seq=$((NZ - 1))
size_after_write 65536,wp=65536
read_back ok
after_truncate size=0,zone=em/0"
while read -r l; do
	grep -qxF "$l" $LOGS/zonefs-nvme-zonelab.txt || bad+="want '$l'; "
done <<< "$want"
grep -q '^dio_write_not_at_end error' $LOGS/zonefs-nvme-zonelab.txt || bad+="a write not at the end was accepted; "
grep -q '^buffered_write_seq error' $LOGS/zonefs-nvme-zonelab.txt || bad+="a buffered write to a sequential file was accepted; "
sa=$(sed -n 's/^size_after_append \([0-9]*\),wp=\([0-9]*\)$/\1 \2/p' $LOGS/zonefs-nvme-zonelab.txt)
[ -n "$sa" ] && [ "${sa% *}" = "${sa#* }" ] || bad+="size after the O_APPEND write is not the WP ($sa); "
# Offline: zone 5 is seq/4 (zone 0 holds the super block).
z=5
$ZONELAB ctl /tmp/zlnvz.img.ctl zone offline $z > $LOGS/nvme-zonefs-ctl.out 2>&1 || fail "zonelab ctl zone offline $z: $(cat $LOGS/nvme-zonefs-ctl.out)"
[ "$(zone_cond /dev/$n $z)" = of ] || bad+="zone $z not offline on $n: $(zone_cond /dev/$n $z); "
mount -t zonefs /dev/$n $M || fail "mount after zone $z went offline"
off="$(stat -c '%s %a' $M/seq/4)"
cat $M/seq/4 > /dev/null 2>&1 && bad+="offline file readable; "
umount $M
[ "$off" = "0 0" ] || bad+="offline zone's file is '$off' (size mode), want '0 0'; "
$NVMET teardown zlnvz || bad+="teardown of zonelab's export failed; "
$NVMET teardown nbnvz || bad+="teardown of null_blk's export failed; "
nv_zl_rm zlnvz; nv_nullb_rm nbnvz
left=$(nv_left)
[ -z "$left" ] || bad+="left after teardown: $left; "
[ -z "$bad" ] || fail "$bad"
[ -z "$diffs" ] || fail "differs from null_blk: $diffs"
note "zonefs on ZNS (NVMe/TCP): every step as on null_blk behind nvmet ($(wc -l < $LOGS/nvme-zonefs-cmp.txt) steps; synchronous O_DIRECT write $(awk '$1 == "dio_write_at_0" { print $2 }' $LOGS/nvme-zonefs-cmp.txt) on both); offline zone $z: seq/4 size 0 mode 0, unreadable (zonelab ctl); nothing left"
