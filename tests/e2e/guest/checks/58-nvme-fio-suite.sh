# nvme_fio_suite: fio 3.33's zoned test suite (t/zbd/test-zbd-support, as
# the fio_suite checks run it on SCSI: guest/fiosuite.sh) on a ZNS namespace
# (docs/NVME-ZNS.md): a 576 MiB all-sequential zonelab disk (4 MiB zones,
# 144 zones, at most 16 open) exported through nvmet over NVMe/TCP, and as
# the reference a zoned null_blk of the same geometry exported and connected
# the same way.  One after the other (the zonelab image and null_blk's memory
# both live in the guest's RAM).  Per-test results side by side in
# logs/nvme-fio-suite-cmp.txt; fails when a test's result differs between
# the two, except the tests of E2E_NVME_FIO_XDIFF (expected differences,
# each explained in docs/NVME-ZNS.md), or when the suite gave no result.
# Tests that fail on both are named in the result line (the kernel's or
# fio's, not the emulator's).  The host's NVMe modules are reloaded with
# nvme_core multipath=N for the check (back to Y after it): the suite sets
# the disk's I/O scheduler to mq-deadline and stops ("exit 1", no test run)
# on the multipath head nvmeXnY, a bio-based disk without schedulers.
# Tears down its exports, disk and null_blk.
# E2E_NVME_FIO_TESTS chooses the tests (numbers and ranges, "1-53"; default
# all) and E2E_NVME_FIO_ON the disks ("zonelab null_blk", the default, or
# one of them: its counts only, no comparison).  Each test's result is
# printed on the console as it ends (run.sh shows it), so a hang is seen by
# its test number.
. /e2e/lib.sh
. /e2e/nvme.sh
. /e2e/fiosuite.sh
[ -f /e2e/fio/t/zbd/test-zbd-support ] || skip "fio source (t/zbd) not in the initramfs"
nv_need
teardown() {
	$NVMET teardown zlnvf > /dev/null 2>&1; $NVMET teardown nbnvf > /dev/null 2>&1
	nv_zl_rm zlnvf; rm -f /tmp/zlnvf.img; nv_nullb_rm nbnvf
	nv_multipath Y
}
nv_multipath N || fail "cannot reload nvme_core with multipath=N"
trap teardown EXIT
SIZE=576; ZMIB=4
FS_TESTS=${E2E_NVME_FIO_TESTS:-}
on=" ${E2E_NVME_FIO_ON:-zonelab null_blk} "
sel=${FS_TESTS:+tests $FS_TESTS}

zl="not run"; zl_s=0
if [[ $on = *" zonelab "* ]]; then
	d=$(nv_zl zlnvf $SIZE $ZMIB) && [ -n "$d" ] || fail "all-sequential zonelab disk did not attach"
	n=$(nv_up $d zlnvf) && [ -n "$n" ] || fail "zonelab export/connect: $(cat $LOGS/nvmet-zlnvf.out)"
	say "zonelab $d -> $n (NVMe/TCP); zone_append_max_bytes $(cat /sys/block/$n/queue/zone_append_max_bytes), max_open_zones $(cat /sys/block/$n/queue/max_open_zones)"
	t0=$EPOCHREALTIME
	fio_suite_run /dev/$n nvme-zonelab || fail "no test results on zonelab (rc=$FS_RC): $(tail -3 $LOGS/fio-suite-nvme-zonelab.out | tr '\n' ' ')"
	zl="$FS_OK ok, $FS_BAD failed${FS_FAILED:+ ($FS_FAILED)}, $FS_SKIP skipped"
	zl_s=$(awk -v a=$EPOCHREALTIME -v b=$t0 'BEGIN { printf "%d", a - b }')
	say "zonelab: $zl in ${zl_s}s"
	$NVMET teardown zlnvf || fail "teardown of zonelab's export failed"
	nv_zl_rm zlnvf; rm -f /tmp/zlnvf.img
fi

nbr="not run"; nb_s=0
if [[ $on = *" null_blk "* ]]; then
	nb=$(nv_nullb nbnvf $SIZE $ZMIB) || fail "null_blk zoned did not come up"
	nn=$(nv_up $nb nbnvf) && [ -n "$nn" ] || fail "null_blk export/connect: $(cat $LOGS/nvmet-nbnvf.out)"
	say "null_blk $nb -> $nn (NVMe/TCP); zone_append_max_bytes $(cat /sys/block/$nn/queue/zone_append_max_bytes), max_open_zones $(cat /sys/block/$nn/queue/max_open_zones)"
	t0=$EPOCHREALTIME
	fio_suite_run /dev/$nn nvme-null_blk || fail "no test results on null_blk (rc=$FS_RC): $(tail -3 $LOGS/fio-suite-nvme-null_blk.out | tr '\n' ' ')"
	nbr="$FS_OK ok, $FS_BAD failed${FS_FAILED:+ ($FS_FAILED)}, $FS_SKIP skipped"
	nb_s=$(awk -v a=$EPOCHREALTIME -v b=$t0 'BEGIN { printf "%d", a - b }')
	say "null_blk: $nbr in ${nb_s}s"
	$NVMET teardown nbnvf || fail "teardown of null_blk's export failed"
	nv_nullb_rm nbnvf
fi

left=$(nv_left)
[ -z "$left" ] || fail "left after teardown: $left"
if [[ $on != *" zonelab "* || $on != *" null_blk "* ]]; then
	note "t/zbd on ZNS (NVMe/TCP)${sel:+, $sel}: zonelab: $zl (${zl_s}s); null_blk: $nbr (${nb_s}s); not compared (E2E_NVME_FIO_ON=${E2E_NVME_FIO_ON:-})"
	exit 0
fi
fio_suite_cmp nvme-zonelab nvme-null_blk > $LOGS/nvme-fio-suite-cmp.txt
say "== test zonelab null_blk (both ZNS over NVMe/TCP)"; cat $LOGS/nvme-fio-suite-cmp.txt
diffs=""; xdiffs=""
while read -r t a b; do
	[ "$a" = "$b" ] && continue
	case " ${E2E_NVME_FIO_XDIFF:-} " in *" ${t#test} "*|*" $((10#${t#test})) "*) xdiffs+="$t($a|$b) " ;; *) diffs+="$t($a|$b) " ;; esac
done < $LOGS/nvme-fio-suite-cmp.txt
both=$(awk '$2 == "FAIL" && $3 == "FAIL" { sub("test0*", "", $1); printf "%s ", $1 }' $LOGS/nvme-fio-suite-cmp.txt)
[ -z "$diffs" ] || fail "differs from null_blk: ${diffs% } (zonelab: $zl; null_blk: $nbr)"
note "t/zbd on ZNS (NVMe/TCP)${sel:+, $sel}, zonelab: $zl (${zl_s}s); null_blk: $nbr (${nb_s}s); ${both:+failed on both: ${both% }; }${xdiffs:+expected differences: ${xdiffs% }; }every other test as on null_blk"
