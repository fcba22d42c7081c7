# load_iscsi: fio at queue depth 32 across many zones of the iSCSI disk for
# E2E_LOAD_SECS seconds with zero errors.
. /e2e/lib.sh
d=$(cat $STATE/zli.dev 2>/dev/null) || skip "no iSCSI disk (iscsi check did not run)"
blkzone reset /dev/$d || fail "reset"
off=$(( 8 * (16 << 20) ))
fio --name=load --filename=/dev/$d --direct=1 --zonemode=zbd --ioengine=libaio --iodepth=32 \
	--rw=randwrite --bs=64k --max_open_zones=16 --offset=$off --time_based --runtime=${E2E_LOAD_SECS:-60} \
	--output-format=terse --terse-version=3 > $LOGS/load.terse || fail "fio QD32 over iSCSI"
e=$(cut -d';' -f5 $LOGS/load.terse | head -1)
kb=$(cut -d';' -f47 $LOGS/load.terse | head -1)
[ "${e:-1}" = 0 ] || fail "fio error $e"
note "QD32 64k randwrite (zbd, 16 open zones) ${E2E_LOAD_SECS:-60}s over iSCSI: 0 errors, ${kb} KiB written"
