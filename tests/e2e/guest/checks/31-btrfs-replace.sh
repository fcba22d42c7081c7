# btrfs_replace: the kernel's `btrfs replace` on a zoned multi-device btrfs
# of two zonelab disks onto a third, beside fs-core's replay of the same
# replace (issue 34; docs/REBUILD.md "The kernel's replace beside
# fs-core's").  Three fresh disks (RP_DISK_MIB, RP_ZONE_MIB zones, no
# conventional zone: the superblock log in zones 0-1, every chunk in
# sequential zones; control socket on).  mkfs.btrfs -O zoned -d single -m dup
# on the first, the second added by `btrfs device add` (btrfs-progs 6.2
# refuses RAID1 with zoned: "zoned mode does not yet support RAID/DUP
# profiles"); then, on the empty mounted fs of two devices, a
# conversion of metadata and system to RAID1 is tried: Linux 6.1 refuses it
# in btrfs_load_block_group_zone_info() ("zoned: profile raid1 not yet
# supported", the balance fails with EINVAL and the fs stays as it was);
# a kernel that accepts it (zoned RAID1 metadata since 6.7's
# btrfs_load_block_group_raid1()) replaces RAID1 metadata instead of DUP.
# A fill (RP_NFILES files + one of RP_BIG_MIB, synced), umount, the layout
# taken (the chunk tree by `btrfs inspect-internal dump-tree -t chunk`, each
# device's zone write pointers by blkzone report) and replayed in fs-core
# (`zonelab sim --replace-layout`: the bytes its zoned replace copies),
# mount, `btrfs replace start -B` of devid 1 onto the third disk, `btrfs
# replace status`, the handler's statistics and both zone reports at once,
# sha256 of every file, umount, `btrfs check` clean, the source disk
# detached, remount from the other two, every sha256 again; last, a data
# conversion to RAID1 must be refused (no kernel accepts zoned RAID1 data
# without the raid-stripe-tree, which btrfs-progs 6.2's mkfs cannot make).
# Fails when the target holds bytes above its write pointers, when a zone of
# the target is behind the source's (a short copy), when the target is
# ahead of the source anywhere but in metadata/system zones or by more than
# RP_TOL_META_KIB in all (the commit after the source left: below), when
# fs-core's copy differs from the source's bytes below its write pointers
# at the start, on btrfs errors, a replace that does not finish clean, a
# check that is not clean, or a checksum mismatch.
. /e2e/lib.sh
[ "$E2E_HANDLER" = zonelab ] || skip "needs handler_zonelab's statistics (zonelab ctl stats)"
[ -x $ZONELAB ] || skip "zonelab command not in the VM"
for c in mkfs.btrfs btrfs blkzone sha256sum; do
	command -v $c > /dev/null || fail "$c not in the VM (E2E_PKGS)"
done
modprobe btrfs || fail "modprobe btrfs"
: "${RP_DISK_MIB:=512}" "${RP_ZONE_MIB:=16}" "${RP_NFILES:=24}" "${RP_BIG_MIB:=32}"
: "${RP_TOL_META_KIB:=1024}"
LBA=${E2E_LBA:-512}
ZB=$((RP_ZONE_MIB << 20)); NZ=$((RP_DISK_MIB / RP_ZONE_MIB))
W=/tmp/rp; M=/mnt/rp
mkdir -p $W $M
names=(rpa rpb rpc)
cleanup() {
	umount $M 2>/dev/null
	local n; for n in "${names[@]}"; do dev_remove $n; rm -f $W/$n.img; done
}
trap cleanup EXIT
stat_of() { $ZONELAB ctl --json $W/$1.img.ctl stats | grep -oE "\"$2\":[0-9]+" | head -1 | cut -d: -f2; }
# zone_table DEV - "ZONE WP_BYTES COND" per sequential zone (FULL: the zone size).
zone_table() {
	local s l w t c i=0
	zones_summary $1 | while read -r s l w t c; do
		case $t in SEQ*) ;; *) i=$((i + 1)); continue ;; esac
		if [ "$c" = fu ]; then echo "$i $((l * 512)) $c"; else echo "$i $((w * 512)) $c"; fi
		i=$((i + 1))
	done
}
# sum_wp TABLE FIRST - bytes below the write pointers of zones >= FIRST.
sum_wp() { awk -v f=$2 '$1 >= f { s += $2 } END { printf "%d\n", s }' $1; }
devid_of() { btrfs inspect-internal dump-super $1 | awk '$1 == "dev_item.devid" { print $2 }'; }
# chunks DEV - the chunk tree as layout "chunk" lines (sim/sim_kreplace.c).
chunks() {
	btrfs inspect-internal dump-tree -t chunk $1 | awk '
	/CHUNK_ITEM/ { s = $0; sub(/.*CHUNK_ITEM /, "", s); sub(/\).*/, "", s); lg = s; on = 1; next }
	on && $1 == "length" { len = $2; for (i = 1; i < NF; i++) if ($i == "type") ty = $(i + 1); next }
	on && $1 == "num_stripes" { n = $2; k = 0; st = ""; next }
	on && $1 == "stripe" && $3 == "devid" {
		st = st (k ? "," : "") $4 ":" $6; k++
		if (k < n) next
		t = ""; p = "single"; m = split(tolower(ty), f, "|")
		for (i = 1; i <= m; i++) {
			if (f[i] == "data" || f[i] == "metadata" || f[i] == "system") t = t (t == "" ? "" : "+") f[i]
			else p = f[i]
		}
		print "chunk", lg, len, t, p, st; on = 0
	}'
}

t0=$EPOCHREALTIME
declare -A dev
for n in "${names[@]}"; do
	rm -f $W/$n.img
	dev_create $n $((RP_DISK_MIB << 20)) "$(h_cfg_ctl $W/$n.img $RP_ZONE_MIB 0 128)" || fail "backstore $n"
	d=$(lun_attach $n) || fail "no disk for $n"
	dev[$n]=$d
	[ "$(cat /sys/block/${dev[$n]#/dev/}/queue/zoned)" = host-managed ] || fail "$n not host-managed"
done
A=${dev[rpa]} B=${dev[rpb]} T=${dev[rpc]}
say "disks: source $A, other $B, target $T ($RP_DISK_MIB MiB, $NZ zones of $RP_ZONE_MIB MiB, none conventional)"
kmsg_mark
if mkfs.btrfs -f -O zoned -d raid1 -m raid1 $A $B > $W/mkfs-raid1.out 2>&1; then
	note "mkfs.btrfs $(mkfs.btrfs --version | head -1) made a zoned RAID1 (formatted again below);"
else
	progs_msg=$(grep -m1 -o 'zoned mode does not yet support[^,]*' $W/mkfs-raid1.out)
	[ -n "$progs_msg" ] || { cat $W/mkfs-raid1.out; fail "mkfs -d raid1 -m raid1 refused without btrfs-progs' zoned message"; }
	say "mkfs -O zoned -d raid1 -m raid1: refused by btrfs-progs: $progs_msg"
fi
# One device, then the second added: mkfs.btrfs 6.2 -O zoned -d single -m
# dup of both at once segfaults (docs/REBUILD.md).
mkfs.btrfs -f -O zoned -d single -m dup $A > $W/mkfs.out 2>&1 || { cat $W/mkfs.out; fail "mkfs.btrfs -O zoned -d single -m dup $A"; }
mount -t btrfs $A $M || fail "mount"
btrfs device add -f $B $M > $W/devadd.out 2>&1 || { cat $W/devadd.out; fail "btrfs device add $B"; }

# RAID1 metadata: what this kernel makes of it.
meta=dup
if btrfs balance start -f -mconvert=raid1 -sconvert=raid1 $M > $W/balance-meta.out 2>&1; then
	meta=raid1
	say "balance -mconvert=raid1: accepted by $(uname -r): the replace copies RAID1 metadata"
else
	km=$(kmsg_since | grep -m1 -oE 'zoned: (profile|data) [a-z0-9]+ (not yet supported|needs raid-stripe-tree)')
	[ -n "$km" ] || { cat $W/balance-meta.out; kmsg_since | tail -20; fail "balance -mconvert=raid1 failed without the kernel's zoned refusal"; }
	say "balance -mconvert=raid1: refused by $(uname -r): $km"
	note "kernel $(uname -r) refuses zoned RAID1 metadata: '$km' (btrfs_load_block_group_zone_info());"
fi
btrfs filesystem df -b $M | grep -qiE "metadata, $meta" || { btrfs filesystem df $M; fail "metadata is not $meta"; }

for i in $(seq 1 $RP_NFILES); do
	head -c $(( (i * 37 % 17 + 1) * 262144 )) /dev/urandom > $M/f$i || fail "write f$i"
done
head -c $((RP_BIG_MIB << 20)) /dev/urandom > $M/big || fail "write big"
sync || fail "sync"
(cd $M && sha256sum f* big) > $W/sums
btrfs filesystem usage -b $M > $W/usage-before.txt 2>&1
umount $M || fail "umount after the fill"

# The layout at the start: chunk tree and write pointers of both devices.
ida=$(devid_of $A); idb=$(devid_of $B)
[ -n "$ida" ] && [ -n "$idb" ] || fail "no devid in the superblocks of $A / $B"
zone_table $A > $W/zones-src-start.txt || fail "blkzone report $A"
zone_table $B > $W/zones-other-start.txt || fail "blkzone report $B"
chunks $A > $W/chunks-start.txt || fail "dump-tree -t chunk $A"
[ -s $W/chunks-start.txt ] || fail "no chunk in the chunk tree of $A"
{
	echo "zonelab-replace-layout 1"
	echo "zone-size $ZB"
	echo "device $ida $NZ"
	echo "device $idb $NZ"
	awk -v d=$ida '$2 > 0 { print "wp", d, $1, $2 }' $W/zones-src-start.txt
	awk -v d=$idb '$2 > 0 { print "wp", d, $1, $2 }' $W/zones-other-start.txt
	cat $W/chunks-start.txt
} > $W/layout.txt
cp $W/layout.txt $LOGS/btrfs_replace-layout.txt
$ZONELAB sim --replace-layout $W/layout.txt --replace-dev $ida > $W/fscore.json 2> $W/fscore.err ||
	fail "fs-core replay: $(cat $W/fscore.err)"
cp $W/fscore.json $LOGS/btrfs_replace-fscore.txt
fj() { grep -oE "\"$1\":[0-9]+" $W/fscore.json | cut -d: -f2; }
F=$(fj tgt_write_bytes); F_src=$(fj src_wp_bytes)
# S0: the source's bytes below the write pointers of its chunk zones; a
# written zone in no chunk (a chunk mkfs or the kernel removed without a
# reset) is copied by neither replace: reported apart
S0=$F_src
stale0=$(( $(sum_wp $W/zones-src-start.txt 2) - S0 ))
[ "$stale0" = 0 ] || note "source: $stale0 bytes in written zones outside every chunk (copied by neither);"
[ "$F" = "$S0" ] || fail "fs-core's replace writes $F bytes to the target, the source holds $S0 below the write pointers of its chunk zones"
[ "$(fj wp_mismatch)" = 0 ] && [ "$(fj verify_bad)" = 0 ] || fail "fs-core's replay: $(cat $W/fscore.json)"

# The kernel's replace.
mount -t btrfs -o device=$B $A $M || fail "mount for the replace"
tw0=$(stat_of rpc write_lbas); sw0=$(stat_of rpa write_lbas); sr0=$(stat_of rpa read_lbas)
tr0=$(stat_of rpc resets)
kmsg_mark
t1=$EPOCHREALTIME
btrfs replace start -B -f $ida $T $M > $W/replace.out 2>&1 || { cat $W/replace.out; kmsg_since | tail -30; fail "btrfs replace start -B"; }
t2=$EPOCHREALTIME
# at once, before a later commit writes to the target alone
zone_table $A > $W/zones-src-end.txt; zone_table $T > $W/zones-tgt-end.txt
tw1=$(stat_of rpc write_lbas); sw1=$(stat_of rpa write_lbas); sr1=$(stat_of rpa read_lbas)
tr1=$(stat_of rpc resets)
btrfs replace status -1 $M > $W/replace-status.txt 2>&1
say "replace status: $(cat $W/replace-status.txt)"
grep -q '^Started on .*finished on .*, 0 write errs, 0 uncorr. read errs' $W/replace-status.txt ||
	fail "replace status: $(cat $W/replace-status.txt)"
(cd $M && sha256sum -c --quiet $W/sums) || fail "checksum mismatch after the replace"
btrfs filesystem usage -b $M > $W/usage-after.txt 2>&1
btrfs device usage -b $M > $W/devusage-after.txt 2>&1
umount $M || fail "umount after the replace"
chunks $T > $W/chunks-end.txt
# btrfs-progs 6.2 cannot open zoned RAID1 metadata (its own
# zoned_profile_supported(): "zoned: profile RAID1 not yet supported"):
# with it the kernel's replace is checked by the bytes and checksums alone
if btrfs check $T > $W/check.out 2>&1; then
	grep -E '^ERROR|[1-9][0-9]* errors? found' $W/check.out && { cat $W/check.out; fail "btrfs check reports errors"; }
elif [ $meta = raid1 ] && grep -q 'zoned: profile RAID1 not yet supported' $W/check.out; then
	say "btrfs check: $(btrfs --version) cannot open zoned RAID1 metadata: not checked"
	note "btrfs check not run: $(btrfs --version) refuses zoned RAID1 metadata ('zoned: profile RAID1 not yet supported');"
else
	cat $W/check.out; fail "btrfs check $T not clean"
fi

# Bytes: the handler's counters against the zone reports and fs-core.
K=$(( (tw1 - tw0) * LBA ))
Sw=$(( (sw1 - sw0) * LBA )); Sr=$(( (sr1 - sr0) * LBA ))
T_sb=$(awk '$1 < 2 { s += $2 } END { printf "%d\n", s }' $W/zones-tgt-end.txt)
T_data=$(sum_wp $W/zones-tgt-end.txt 2)
# the zones of devid $ida's stripes in the chunk tree at the end (a stripe of
# a single/dup/raid1 chunk is LENGTH bytes; no raid0/raid10 here)
awk -v zb=$ZB -v id=$ida '{ n = split($6, s, ","); for (i = 1; i <= n; i++) { split(s[i], d, ":")
	if (d[1] == id) for (z = d[2] / zb; z < (d[2] + $3) / zb; z++) print z, $4 } }' $W/chunks-end.txt |
	sort -n -u > $W/chunkzones.txt
inchunks() { awk 'NR == FNR { c[$1] = 1; next } ($1 in c)' $W/chunkzones.txt $1; }
S1=$(inchunks $W/zones-src-end.txt | awk '{ s += $2 } END { printf "%d\n", s }')
[ "$tr1" = "$tr0" ] || note "target: $((tr1 - tr0)) zone resets during the replace;"
[ "$K" = $((T_sb + T_data)) ] ||
	fail "target received $K bytes, $((T_sb + T_data)) are below its write pointers (superblock zones $T_sb + data $T_data)"
# zone by zone (zones 2+): the target never behind the source; ahead only in
# metadata/system zones (the commit of btrfs_dev_replace_finishing() after
# the source left writes to the target alone)
join -a1 -a2 -e 0 -o 0,1.2,2.2 <(inchunks $W/zones-src-end.txt | awk '{ print $1, $2 }' | sort -k1,1) \
	<(inchunks $W/zones-tgt-end.txt | awk '{ print $1, $2 }' | sort -k1,1) | sort -n > $W/zones-cmp.txt
metazones=$(awk '$2 != "data" { print $1 }' $W/chunkzones.txt | tr '\n' ' ')
tgt_out=$(( T_data - $(inchunks $W/zones-tgt-end.txt | awk '{ s += $2 } END { printf "%d\n", s }') ))
[ "$tgt_out" = 0 ] || fail "target: $tgt_out bytes written in zones 2+ outside every chunk"
short=$(awk '$3 < $2 { printf "%d(%d<%d) ", $1, $3, $2 }' $W/zones-cmp.txt)
[ -z "$short" ] || fail "target zones behind the source's write pointer (short copy): $short"
ahead=0; bad=""
while read -r z s t; do
	[ "$t" -gt "$s" ] || continue
	ahead=$((ahead + t - s))
	case " $metazones " in *" $z "*) ;; *) bad+="$z " ;; esac
done < $W/zones-cmp.txt
[ -z "$bad" ] || fail "target ahead of the source in zones that are not metadata/system: $bad"
[ "$ahead" -le $((RP_TOL_META_KIB * 1024)) ] ||
	fail "target ahead of the source by $ahead bytes, more than RP_TOL_META_KIB=$RP_TOL_META_KIB KiB"
[ $((T_data - ahead)) = "$S1" ] || fail "target data zones $T_data - ahead $ahead != source $S1"
during=$((S1 - S0))
kcopy=$((K - T_sb - ahead - during))
[ "$kcopy" = "$F" ] || fail "kernel's copy $kcopy bytes, fs-core's $F"
t3=$EPOCHREALTIME

# The source gone: remount from the other two, verify.
dev_remove rpa
mount -t btrfs -o device=$B $T $M || fail "mount without the source disk"
(cd $M && sha256sum -c --quiet $W/sums) || fail "checksum mismatch without the source disk"
btrfs filesystem show $M > $W/show-after.txt 2>&1
grep -q "devid *$ida .* path $T" $W/show-after.txt || { cat $W/show-after.txt; fail "devid $ida is not $T"; }
# RAID1 data: refused by every kernel without the raid-stripe-tree.
kmsg_mark
if btrfs balance start -f -dconvert=raid1 $M > $W/balance-data.out 2>&1; then
	note "kernel $(uname -r) converted zoned data to RAID1 (no raid-stripe-tree);"
	fail "balance -dconvert=raid1 succeeded"
fi
kd=$(kmsg_since | grep -m1 -oE 'zoned: (profile|data) [a-z0-9]+ (not yet supported|needs raid-stripe-tree)')
[ -n "$kd" ] || { cat $W/balance-data.out; kmsg_since | tail; fail "balance -dconvert=raid1 failed without the kernel's zoned refusal"; }
say "balance -dconvert=raid1: refused by $(uname -r): $kd"
(cd $M && sha256sum -c --quiet $W/sums) || fail "checksum mismatch after the refused conversion"
umount $M || fail "final umount"

kmsg_since > $LOGS/btrfs_replace-kmsg.txt
grep -iE 'BTRFS (error|critical)' $LOGS/btrfs_replace-kmsg.txt | grep -vE 'zoned: (profile|data) raid1' &&
	fail "btrfs errors in dmesg"
w=$(ksigs < $LOGS/btrfs_replace-kmsg.txt | wc -l)
[ "$w" = 0 ] || note "kernel: $w WARNING/BUG/Oops: $(ksigs < $LOGS/btrfs_replace-kmsg.txt | uniq -c | sed 's/^ *//' | tr '\n' ';')"
for f in zones-src-start zones-src-end zones-tgt-end zones-cmp chunks-start chunks-end replace \
	 usage-before usage-after devusage-after check show-after; do
	cp $W/$f.* $LOGS/btrfs_replace-$f.txt 2>/dev/null
done
say "$(printf 'bytes: kernel target written %d = superblock zones %d + source below wp at the end %d + after the source left %d; source below wp at the start %d, written during the replace %d (handler: source wrote %d, read %d); fs-core copy %d (copied %d, zeroes %d, read %d)' \
	$K $T_sb $S1 $ahead $S0 $during $Sw $Sr $F $(fj copied_bytes) $(fj zero_bytes) $(fj read_bytes))"
note "$(printf 'meta %s; kernel target written %d B = sb %d + source wp %d + post-finish meta %d; source wp at start %d = fs-core copy %d; during the replace +%d; source read %d; replace %.1fs;' \
	$meta $K $T_sb $S1 $ahead $S0 $F $during $Sr $(bc_sub $t2 $t1))"
