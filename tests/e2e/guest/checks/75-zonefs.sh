# zonefs: the file system that makes each zone a file, on two 256 MiB disks
# of the handler (16 MiB zones; 4 conventional zones, and none: then the
# super block is in sequential zone 0) and, as the reference, on the
# kernel's scsi_debug (zbc=managed) with the same two geometries.  The same
# steps on each (zonefs_steps): format (guest/mkzonefs.py: zonefs-tools is
# not in Debian 12), mount, one file per zone (cnv/ and seq/), buffered
# writes to a sequential file and O_DIRECT writes not at its end refused, a
# conventional file is the zone's size and writable anywhere, an O_DIRECT
# write and an O_APPEND one at the end (their outcome compared with the
# reference; see docs/E2E.md), a sequential file's size = its zone's write
# pointer after a mount, truncate to 0 resets the zone; then, on the
# handler only, a zone made offline with `zonelab ctl`
# shows as zonefs says (size 0, no permissions, unreadable).  Each step's
# outcome lands in logs/zonefs-<disk>.txt; the check fails when an outcome
# on the handler differs from scsi_debug's for the same geometry, or an
# outcome zonefs documents is not met on the handler.  Tears down its disks.
. /e2e/lib.sh
. /e2e/zonefs.sh
modprobe zonefs 2> /dev/null || grep -qw zonefs /proc/filesystems || skip "no zonefs in this kernel"
type python3 > /dev/null 2>&1 || skip "no python3 for mkzonefs.py"
[ "$E2E_HANDLER" = zonelab ] || skip "the offline step needs zonelab ctl (handler_file_zbc: no control channel)"
SZ=$((256 << 20)); NZ=16
teardown() {
	umount $M 2> /dev/null
	for n in zlzc zlzn; do dev_remove $n; rm -f /tmp/$n.img /tmp/$n.img.ctl; done
	rmmod scsi_debug 2> /dev/null
}
trap teardown EXIT

# The handler's disks, each with a control socket for the offline step.
mkdisk() { # NAME NCONV: prints sdX
	local img=/tmp/$1.img
	h_fresh $img
	dev_create $1 $SZ "$(h_cfg_ctl $img 16 $2 16)" > /dev/null || return 1
	lun_attach $1 | sed 's|/dev/||'
}
ref() { # NCONV: scsi_debug with that many conventional zones; prints sdX
	local before d i
	rmmod scsi_debug 2> /dev/null
	before=$(ls /sys/block | grep '^sd' | sort)
	modprobe scsi_debug zbc=managed dev_size_mb=$((SZ >> 20)) zone_size_mb=16 zone_nr_conv=$1 \
		zone_max_open=16 || return 1
	for i in $(seq 100); do
		d=$(comm -13 <(echo "$before") <(ls /sys/block | grep '^sd' | sort) | head -1)
		[ -n "$d" ] && break; sleep 0.1
	done
	[ -n "$d" ] && udevless_wait $d && echo $d
}
bad=""; diffs=""
for nc in 4 0; do
	n=$([ $nc = 4 ] && echo zlzc || echo zlzn)
	d=$(mkdisk $n $nc) && [ -n "$d" ] || fail "disk $n"
	zonefs_steps /dev/$d $nc $H_LABEL-conv$nc
	s=$(ref $nc) || fail "scsi_debug zbc=managed zone_nr_conv=$nc did not attach"
	zonefs_steps /dev/$s $nc scsi_debug-conv$nc
	rmmod scsi_debug || note "rmmod scsi_debug failed;"
	say "== conv=$nc: step, $H_LABEL | scsi_debug"
	join -a1 -a2 -e - -o 0,1.2,2.2 <(sort $LOGS/zonefs-$H_LABEL-conv$nc.txt) \
		<(sort $LOGS/zonefs-scsi_debug-conv$nc.txt) > $LOGS/zonefs-cmp-conv$nc.txt
	cat $LOGS/zonefs-cmp-conv$nc.txt
	diffs+=$(awk -v c=$nc '$2 != $3 { printf "conv%s:%s(%s|%s) ", c, $1, $2, $3 }' $LOGS/zonefs-cmp-conv$nc.txt)
	# What zonefs documents, on the handler whatever the reference says.
	want="files cnv=$(( nc > 1 ? nc - 1 : 0 )),seq=$(( NZ - (nc > 0 ? nc : 1) ))
size_after_write 65536,wp=65536
read_back ok
after_truncate size=0,zone=em/0"
	[ $nc -gt 1 ] && want+="
cnv0_size $((16 << 20))
cnv_write_mid ok"
	while read -r l; do
		grep -qxF "$l" $LOGS/zonefs-$H_LABEL-conv$nc.txt || bad+="conv$nc: want '$l'; "
	done <<< "$want"
	grep -q '^dio_write_not_at_end error' $LOGS/zonefs-$H_LABEL-conv$nc.txt || bad+="conv$nc: a write not at the end was accepted; "
	grep -q '^buffered_write_seq error' $LOGS/zonefs-$H_LABEL-conv$nc.txt || bad+="conv$nc: a buffered write to a sequential file was accepted; "
	sa=$(sed -n 's/^size_after_append \([0-9]*\),wp=\([0-9]*\)$/\1 \2/p' $LOGS/zonefs-$H_LABEL-conv$nc.txt)
	[ -n "$sa" ] && [ "${sa% *}" = "${sa#* }" ] || bad+="conv$nc: size after the O_APPEND write is not the WP ($sa); "
done
# Offline: zone of seq/1 on the conventional-zone disk.
d=$(devname zlzc); z=5
$ZONELAB ctl /tmp/zlzc.img.ctl zone offline $z > $LOGS/zonefs-ctl.out 2>&1 || fail "zonelab ctl zone offline $z: $(cat $LOGS/zonefs-ctl.out)"
mount -t zonefs /dev/$d $M || fail "mount after zone $z went offline"
off="$(stat -c '%s %a' $M/seq/1)"
cat $M/seq/1 > /dev/null 2>&1 && bad+="offline file readable; "
umount $M
[ "$off" = "0 0" ] || bad+="offline zone's file is '$off' (size mode), want '0 0'; "
[ -z "$bad" ] || fail "$bad"
[ -z "$diffs" ] || fail "differs from scsi_debug: $diffs"
note "zonefs on conv=4 and conv=0 disks: every step as on scsi_debug ($(wc -l < $LOGS/zonefs-cmp-conv4.txt) + $(wc -l < $LOGS/zonefs-cmp-conv0.txt) steps; synchronous O_DIRECT write $(awk '$1 == "dio_write_at_0" { print $2 }' $LOGS/zonefs-cmp-conv4.txt) on both); offline zone $z: seq/1 size 0 mode 0, unreadable (zonelab ctl)"
