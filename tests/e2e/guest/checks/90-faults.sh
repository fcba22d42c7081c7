# faults: faults injected at run time through `zonelab ctl` (the control
# socket, docs/CTL.md) reach the kernel: a zone set offline / read-only shows
# in blkzone and refuses I/O with the right errors; a media error on an LBA
# range fails fio and shows in dmesg; injected write latency shows in fio's
# completion latency; offline + media error again over iSCSI (127.0.0.1:3261).
. /e2e/lib.sh
[ "$E2E_HANDLER" = zonelab ] || skip "runs only against handler_zonelab"
[ -x $ZONELAB ] && $ZONELAB ctl --help > /dev/null 2>&1 || skip "zonelab ctl (control channel) not available"
type h_cfg_ctl > /dev/null 2>&1 || skip "adapter has no h_cfg_ctl"
ctl() { $ZONELAB ctl /tmp/zlx.img.ctl "$@"; }
img=/tmp/zlx.img; h_fresh $img
dev_create zlx $((1024 << 20)) "$(h_cfg_ctl $img 16 8 16)" || fail "backstore"
dev=$(lun_attach zlx) || fail "no disk"
ctl help > /dev/null || fail "zonelab ctl help: no server at /tmp/zlx.img.ctl"
kmsg_mark
# Offline zone 20 (written first, so it has data).
dd if=/dev/urandom of=$dev bs=64K count=4 seek=$(( 20 * 256 )) oflag=direct status=none || fail "write zone 20"
ctl zone offline 20 || fail "ctl zone offline 20"
c=$(zone_cond $dev 20); [ "$c" = of ] || fail "zone 20 is '$c' in blkzone after ctl zone offline, want of"
e_off=$(dd if=$dev of=/dev/null bs=4K count=1 skip=$(( 20 * 4096 )) iflag=direct 2>&1) && fail "read of offline zone 20 succeeded"
dd if=/dev/urandom of=$dev bs=4K count=1 seek=$(( 20 * 4096 + 64 )) oflag=direct status=none 2>/dev/null && fail "write to offline zone 20 succeeded"
# Read-only zone 21.
ctl zone read-only 21 || fail "ctl zone read-only 21"
c=$(zone_cond $dev 21); [ "$c" = ro ] || fail "zone 21 is '$c' after ctl zone read-only, want ro"
e_ro=$(dd if=/dev/urandom of=$dev bs=4K count=1 seek=$(( 21 * 4096 )) oflag=direct 2>&1) && fail "write to read-only zone 21 succeeded"
dd if=$dev of=/dev/null bs=4K count=1 skip=$(( 21 * 4096 )) iflag=direct status=none || fail "read of read-only zone 21 failed"
kmsg_since | grep -iE 'Sense Key|Add\. Sense' | sed -E 's/^\[[^]]*\] //; s/.*tag#[0-9]+ //' | sort -u > $LOGS/faults.sense
# Media error on LBAs of conventional zone 3.
lo=$(( 3 * 32768 + 256 )); hi=$(( lo + 255 ))
ctl fault add "medium-error:op=read,lba=$lo-$hi,repeat" || fail "ctl fault add medium-error"
kmsg_mark
fio --name=me --filename=$dev --rw=read --direct=1 --bs=64k --offset=$(( 3 << 24 )) --size=1M > $LOGS/fio-me-ctl.out 2>&1 && fail "fio read over the media-error range succeeded"
fioerr=$(grep -oE 'err= *[0-9]+|error=[^)]*' $LOGS/fio-me-ctl.out | head -2 | tr '\n' ' ' | sed 's/ $//')
me=$(kmsg_since | grep -m1 -iE 'medium error|unrecovered read' | sed 's/^\[[^]]*\] //')
[ -n "$me" ] || fail "no medium error in dmesg"
ctl fault clear > /dev/null
fio --name=me2 --filename=$dev --rw=read --direct=1 --bs=64k --offset=$(( 3 << 24 )) --size=1M > /dev/null 2>&1 || fail "read still fails after fault clear"
# Latency: 20 ms per write.
ctl fault add "latency:op=write,ms=20,repeat" > /dev/null || fail "ctl fault add latency"
fio --name=lat --filename=$dev --rw=write --direct=1 --zonemode=zbd --bs=4k --iodepth=1 \
	--offset=$(( 30 << 24 )) --size=16M --io_size=160k --output-format=json > $LOGS/fio-lat-ctl.json || fail "fio latency run"
clat=$(awk '/"write" *:/ { w = 1 } w && /"clat_ns"/ { c = 1 } w && c && /"mean"/ { gsub(/[^0-9.]/, "", $3); print $3; exit }' $LOGS/fio-lat-ctl.json)
awk -v c="${clat:-0}" 'BEGIN { exit !(c >= 20000000) }' || fail "write clat mean ${clat:-?} ns < 20 ms with 20 ms injected"
ctl fault clear > /dev/null
# The same over iSCSI: export zlx on 127.0.0.1:3261 and log in.
for m in iscsi_target_mod iscsi_tcp; do modprobe $m || fail "modprobe $m"; done
iqn=iqn.2003-01.org.zonelab:faults; t=$CFS/iscsi/$iqn/tpgt_1
mkdir -p $t/lun/lun_0 && ln -s $CFS/core/user_0/zlx $t/lun/lun_0/zlx && mkdir $t/np/127.0.0.1:3261 || fail "iscsi target"
for a in authentication=0 generate_node_acls=1 cache_dynamic_acls=1 demo_mode_write_protect=0; do echo ${a#*=} > $t/attrib/${a%=*}; done
echo 1 > $t/enable || fail "enable tpg"
before=$(ls /sys/block | grep '^sd' | sort)
iscsistart -i iqn.2003-01.org.zonelab:guest -t $iqn -g 1 -a 127.0.0.1 -p 3261 > /dev/null || fail "iscsistart"
d=""; for i in $(seq 100); do d=$(comm -13 <(echo "$before") <(ls /sys/block | grep '^sd' | sort) | head -1); [ -n "$d" ] && break; sleep 0.1; done
[ -n "$d" ] || fail "no iSCSI disk"; udevless_wait $d
c=$(zone_cond /dev/$d 20); [ "$c" = of ] || fail "zone 20 is '$c' over iSCSI, want of"
dd if=/dev/$d of=/dev/null bs=4K count=1 skip=$(( 20 * 4096 )) iflag=direct status=none 2>/dev/null && fail "read of offline zone over iSCSI succeeded"
ctl fault add "medium-error:op=read,lba=$lo-$hi,repeat" > /dev/null
e_is=$(dd if=/dev/$d of=/dev/null bs=64K count=1 skip=$(( lo * 512 / 65536 )) iflag=direct 2>&1) && fail "media-error read over iSCSI succeeded"
ctl fault clear > /dev/null
echo 1 > /sys/block/$d/device/delete
ctl zone clear 20 > /dev/null; ctl zone clear 21 > /dev/null
runner_alive || fail "tcmu-runner died"
note "offline zone 20: blkzone 'of', read '$(dd_err "$e_off")'; read-only zone 21: blkzone 'ro', write '$(dd_err "$e_ro")', reads ok; sense: $(tr '\n' ' ' < $LOGS/faults.sense | sed 's/  */ /g; s/ $//');"
note "media error: fio '${fioerr:-?}', dmesg '$me'; latency: write clat mean $(awk -v c=$clat 'BEGIN { printf "%.1f", c / 1e6 }') ms with 20 ms injected; over iSCSI: zone 20 'of' and refuses reads, media error '$(dd_err "$e_is")'"
