# nvme_zonefs_faults: zonefs's reaction to injected faults on a ZNS
# namespace (docs/NVME-ZNS.md), zonelab against a zoned null_blk of the same
# geometry (256 MiB, 16 MiB zones, all sequential), both exported through
# nvmet and connected over NVMe/TCP.  Faults: zonelab's through `zonelab
# ctl` (a write error rule on zone 3, zone 4 read-only), null_blk's through
# its configfs (bad blocks over zone 3's first 64 KiB, zone_readonly with
# zone 4's start).  Steps, each recorded as "step outcome" in
# logs/zonefs-faults-LABEL.txt: mount; zone 4 made read-only, then a mount:
# seq/3's size and mode, a read, an O_DIRECT write; a 64 KiB O_DIRECT write
# into seq/2 (zone 3) under the write error: its outcome, the file's size,
# the zone's condition and write pointer, whether zonefs went read-only; the
# fault cleared, a mount: size, a write at the file's end.  Side by side in
# logs/nvme-zonefs-faults-cmp.txt; fails when an outcome differs from
# null_blk's.  Tears down its exports, disk and null_blk.
. /e2e/lib.sh
. /e2e/nvme.sh
. /e2e/zonefs.sh
nv_need
modprobe zonefs 2> /dev/null || grep -qw zonefs /proc/filesystems || skip "no zonefs in this kernel"
type python3 > /dev/null 2>&1 || skip "no python3 for mkzonefs.py"
teardown() {
	umount $M 2> /dev/null
	$NVMET teardown zlnzf > /dev/null 2>&1; $NVMET teardown nbnzf > /dev/null 2>&1
	nv_zl_rm zlnzf; rm -f /tmp/zlnzf.img; nv_nullb_rm nbnzf
}
trap teardown EXIT
ZS=32768   # sectors per 16 MiB zone

# zf_faults DEV LABEL WERR_ON WERR_OFF RO_ON - the steps; the three commands
# inject a write error into zone 3, clear it, make zone 4 read-only.
zf_faults() {
	local dev=/dev/$1 out=$LOGS/zonefs-faults-$2.txt e
	: > $out
	r() { echo "$1 $(echo "$2" | tr ' ' ,)" >> $out; }
	dio() { local s=$1; shift; e=$(dd if=/tmp/zf64k bs=64K count=1 status=none oflag=direct conv=notrunc "$@" 2>&1) &&
		r $s ok || r $s "error:$(dd_err "$e" | tr ' ' _)"; }
	fsmode() { awk -v m=$M '$2 == m { split($4, o, ","); print o[1] }' /proc/mounts; }
	blkzone reset $dev
	python3 /e2e/mkzonefs.py $dev || { r mkfs fail; return; }
	mkdir -p $M
	e=$(mount -t zonefs $dev $M 2>&1) && r mount ok || { r mount "fail:$e"; return; }
	umount $M
	# read-only zone 4 = seq/3 (empty)
	eval "$5" && r ro_inject ok || r ro_inject fail
	e=$(mount -t zonefs $dev $M 2>&1) && r ro_mount ok || { r ro_mount "fail:$e"; return; }
	r ro_zone "$(zone_cond $dev 4)"
	r ro_file "$(stat -c '%s %a' $M/seq/3)"
	cat $M/seq/3 > /dev/null 2>&1 && r ro_read ok || r ro_read error
	dio ro_write of=$M/seq/3
	r ro_fs "$(fsmode)"
	umount $M; mount -t zonefs $dev $M || { r wr_mount fail; return; }
	# write error in zone 3 = seq/2
	eval "$3" && r werr_inject ok || r werr_inject fail
	dio werr_write of=$M/seq/2
	r werr_size "$(stat -c %s $M/seq/2)"
	r werr_zone "$(zone_cond $dev 3)/$(zone_wp $dev 3)"
	r werr_fs "$(fsmode)"
	eval "$4" && r werr_clear ok || r werr_clear fail
	umount $M; e=$(mount -t zonefs $dev $M 2>&1) && r werr_remount ok || { r werr_remount "fail:$e"; return; }
	r werr_size_after "$(stat -c %s $M/seq/2)"
	dio werr_rewrite of=$M/seq/2 seek=$(( $(stat -c %s $M/seq/2) / 65536 ))
	r werr_zone_after "$(zone_cond $dev 3)/$(zone_wp $dev 3)"
	umount $M
}

d=$(nv_zl zlnzf 256 16) && [ -n "$d" ] || fail "all-sequential zonelab disk did not attach"
n=$(nv_up $d zlnzf) && [ -n "$n" ] || fail "zonelab export/connect: $(cat $LOGS/nvmet-zlnzf.out)"
nb=$(nv_nullb nbnzf 256 16) || fail "null_blk zoned did not come up"
nn=$(nv_up $nb nbnzf) && [ -n "$nn" ] || fail "null_blk export/connect: $(cat $LOGS/nvmet-nbnzf.out)"
ctl=/tmp/zlnzf.img.ctl; nbc=/sys/kernel/config/nullb/nbnzf
say "zonelab $d -> $n, null_blk $nb -> $nn (NVMe/TCP)"
kmsg_mark
zf_faults $n zonelab "$ZONELAB ctl $ctl fault add 'medium-error:op=write,zone=3,repeat' > /dev/null" \
	"$ZONELAB ctl $ctl fault clear > /dev/null" "$ZONELAB ctl $ctl zone read-only 4 > /dev/null"
kmsg_since > $LOGS/nvme-zonefs-faults-zonelab.kmsg
kmsg_mark
zf_faults $nn null_blk "echo +$((3 * ZS))-$((3 * ZS + 127)) > $nbc/badblocks" \
	"echo -$((3 * ZS))-$((3 * ZS + 127)) > $nbc/badblocks" "echo $((4 * ZS)) > $nbc/zone_readonly"
kmsg_since > $LOGS/nvme-zonefs-faults-null_blk.kmsg
join -a1 -a2 -e - -o 0,1.2,2.2 <(sort $LOGS/zonefs-faults-zonelab.txt) \
	<(sort $LOGS/zonefs-faults-null_blk.txt) > $LOGS/nvme-zonefs-faults-cmp.txt
say "== step, zonelab | null_blk (both over NVMe/TCP)"; cat $LOGS/nvme-zonefs-faults-cmp.txt
diffs=$(awk '$2 != $3 { printf "%s(%s|%s) ", $1, $2, $3 }' $LOGS/nvme-zonefs-faults-cmp.txt)
$NVMET teardown zlnzf || fail "teardown of zonelab's export failed"
$NVMET teardown nbnzf || fail "teardown of null_blk's export failed"
nv_zl_rm zlnzf; nv_nullb_rm nbnzf
left=$(nv_left)
[ -z "$left" ] || fail "left after teardown: $left"
[ "$(wc -l < $LOGS/nvme-zonefs-faults-cmp.txt)" -ge 15 ] || fail "steps stopped early: $(tr '\n' ' ' < $LOGS/nvme-zonefs-faults-cmp.txt)"
[ -z "$diffs" ] || fail "differs from null_blk: ${diffs% }"
g() { awk -v s=$1 '$1 == s { print $2 }' $LOGS/nvme-zonefs-faults-cmp.txt; }
note "zonefs faults on ZNS, every step as on null_blk behind nvmet: read-only zone: file $(g ro_file), read $(g ro_read), write $(g ro_write), fs $(g ro_fs); write error: $(g werr_write), size $(g werr_size), zone $(g werr_zone), fs $(g werr_fs); cleared + mount: size $(g werr_size_after), write $(g werr_rewrite)"
