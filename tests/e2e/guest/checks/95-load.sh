# load_iscsi: fio at queue depth 32 across many zones of the iSCSI disk for
# E2E_LOAD_SECS seconds with zero errors.
. /e2e/lib.sh
d=$(cat $STATE/zli.dev 2>/dev/null) || skip "no iSCSI disk (iscsi check did not run)"
blkzone reset /dev/$d || fail "reset"
off=$(( 8 * (16 << 20) ))
sock=/tmp/zli.img.ctl
stat1() { $ZONELAB ctl --json $sock stats | grep -oE "\"$1\":[0-9]+" | head -1 | cut -d: -f2; }
if [ -S $sock ] && [ -x $ZONELAB ]; then w0=$(stat1 write_lbas); e0=$(stat1 errors); fi
fio --name=load --filename=/dev/$d --direct=1 --zonemode=zbd --ioengine=libaio --iodepth=32 \
	--rw=randwrite --bs=64k --max_open_zones=16 --offset=$off --time_based --runtime=${E2E_LOAD_SECS:-60} \
	--output-format=terse --terse-version=3 > $LOGS/load.terse || fail "fio QD32 over iSCSI"
e=$(cut -d';' -f5 $LOGS/load.terse | head -1)
kb=$(cut -d';' -f47 $LOGS/load.terse | head -1)
[ "${e:-1}" = 0 ] || fail "fio error $e"
if [ -n "${w0:-}" ]; then
	w1=$(stat1 write_lbas); e1=$(stat1 errors)
	echo "$kb $(( (w1 - w0) * ${E2E_LBA:-512} / 1024 )) $(( e1 - e0 ))" > $STATE/load.stats
fi
note "QD32 64k randwrite (zbd, 16 open zones) ${E2E_LOAD_SECS:-60}s over iSCSI: 0 errors, ${kb} KiB written"
