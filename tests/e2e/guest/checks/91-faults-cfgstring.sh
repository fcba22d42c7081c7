# faults_cfgstring: fault rules given in the cfgstring (docs/FAULTS.md) reach
# the kernel: a media error on an LBA range fails reads (fio and dd) with the
# sense in dmesg; a zone turned offline / read-only by a rule shows in
# blkzone and refuses I/O; injected write latency shows in fio's completion
# latency.  (Faults changed at run time need `zonelab ctl`: see "faults".)
. /e2e/lib.sh
[ "$E2E_HANDLER" = zonelab ] || skip "fault rules are a handler_zonelab feature"
type h_cfg_faults > /dev/null 2>&1 || skip "adapter has no h_cfg_faults"
img=/tmp/zlf.img; h_fresh $img
# zone = 32768 LBAs; zone 2 is conventional.
me_lo=$(( 2 * 32768 + 128 )); me_hi=$(( me_lo + 127 ))
rules="medium-error:op=read/lba=$me_lo-$me_hi/repeat;offline:op=read/zone=20;read-only:op=write/zone=21;latency:op=write/zone=30/ms=20/repeat"
cfg=$(h_cfg_faults $img 16 8 16 "$rules")
echo "cfg (${#cfg} bytes): $cfg"
kmsg_mark
dev_create zlf $((1024 << 20)) "$cfg" || fail "backstore with fault rules"
dev=$(lun_attach zlf) || fail "no disk"
# 1. media error: dd and fio reads over the range fail.
err=$(dd if=$dev of=/dev/null bs=64K count=1 skip=$(( me_lo * 512 / 65536 )) iflag=direct 2>&1) && fail "read over the media-error range succeeded"
echo "dd: $err"
fio --name=me --filename=$dev --rw=read --direct=1 --bs=64k --offset=$(( 2 * 16 << 20 )) --size=1M > $LOGS/fio-me.out 2>&1 && fail "fio read over the media-error range succeeded"
fioerr=$(grep -oE 'err= *[0-9]+|error=[^)]*' $LOGS/fio-me.out | head -2 | tr '\n' ' ' | sed 's/ $//')
kmsg_since | grep -iE 'medium error|unrecovered read' | head -2 > $LOGS/me.kmsg
[ -s $LOGS/me.kmsg ] || fail "no medium error in dmesg"
dd if=$dev of=/dev/null bs=64K count=1 skip=$(( 3 * 256 )) iflag=direct status=none || fail "read outside the range failed"
# 2. offline: the first read of zone 20 turns it offline.
dd if=$dev of=/dev/null bs=4K count=1 skip=$(( 20 * 4096 )) iflag=direct status=none 2>/dev/null
c20=$(zone_cond $dev 20); [ "$c20" = of ] || fail "zone 20 is '$c20' after the offline rule, want of"
dd if=$dev of=/dev/null bs=4K count=1 skip=$(( 20 * 4096 )) iflag=direct status=none 2>/dev/null && fail "read of offline zone 20 succeeded"
# 3. read-only: the first write to zone 21 turns it read-only.
dd if=/dev/urandom of=$dev bs=4K count=1 seek=$(( 21 * 4096 )) oflag=direct status=none 2>/dev/null
c21=$(zone_cond $dev 21); [ "$c21" = ro ] || fail "zone 21 is '$c21' after the read-only rule, want ro"
dd if=/dev/urandom of=$dev bs=4K count=1 seek=$(( 21 * 4096 )) oflag=direct status=none 2>/dev/null && fail "write to read-only zone 21 succeeded"
# 4. latency: 20 ms per write in zone 30.
fio --name=lat --filename=$dev --rw=write --direct=1 --zonemode=zbd --bs=4k --iodepth=1 \
	--offset=$(( 30 << 24 )) --size=16M --io_size=160k --output-format=json > $LOGS/fio-lat.json || fail "fio latency run"
clat=$(awk '/"write" *:/ { w = 1 } w && /"clat_ns"/ { c = 1 } w && c && /"mean"/ { gsub(/[^0-9.]/, "", $3); print $3; exit }' $LOGS/fio-lat.json)
echo "write clat mean ${clat} ns"
awk -v c="${clat:-0}" 'BEGIN { exit !(c >= 20000000) }' || fail "write clat mean ${clat:-?} ns < 20 ms"
runner_alive || fail "tcmu-runner died"
dev_remove zlf
note "media error: dd '$(dd_err "$err")', fio '${fioerr:-?}', dmesg '$(head -1 $LOGS/me.kmsg | sed 's/^\[[^]]*\] //')'; zone 20 offline (of), zone 21 read-only (ro), both refuse I/O; write clat mean $(awk -v c=$clat 'BEGIN { printf "%.1f", c / 1e6 }') ms with 20 ms injected"
