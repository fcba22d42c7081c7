# fio_suite: fio 3.33's t/zbd/test-zbd-support against a 2304 MiB disk with
# 16 MiB zones and 8 conventional zones, for our handler and for
# handler_file_zbc.  One line per handler; per-test results in
# fio-suite-<label>.results.  E2E_FIO_XFAIL lists tests expected to fail on
# every emulator (54 fails identically on the kernel's scsi_debug).
. /e2e/lib.sh
suite=$(ls /e2e/fio/t/zbd/test-zbd-support 2>/dev/null) || skip "fio source (t/zbd) not in the initramfs"
label=$1
case $label in
zonelab) [ -e /usr/lib/x86_64-linux-gnu/tcmu-runner/handler_zonelab.so ] || skip "handler_zonelab.so not built yet"
	. /e2e/handler-zonelab.sh ;;
file_zbc) . /e2e/handler-zbc.sh ;;
esac
img=/tmp/suite-$label.img; h_fresh $img
name=zs_$label
dev_create $name $((2304 << 20)) "$(h_cfg $img 16 8 32)" || fail "backstore"
dev=$(lun_attach $name) || fail "no disk"
cd /e2e/fio/t/zbd
out=$LOGS/fio-suite-$label.out
timeout ${E2E_SUITE_TIMEOUT:-3000} bash ./test-zbd-support $dev > $out 2>&1
rc=$?
res=$LOGS/fio-suite-$label.results
# Lines look like "Running test 01 ... PASS", "... FAIL", "... SKIP    why".
grep -aE '^Running test [0-9]+ \.\.\. ' $out | sed -E 's/\x1b\[[0-9;]*m//g; s/^Running test ([0-9]+) \.\.\. /test\1 /' > $res
ok=$(grep -c ' PASS' $res); bad=$(grep -c ' FAIL' $res); sk=$(grep -c ' SKIP' $res)
failed=$(awk '$2 == "FAIL" { sub("test0*", "", $1); printf "%s ", $1 }' $res | sed "s/ *$//")
for t in $failed; do tail -c 20000 ./test-zbd-support.log.$t > $LOGS/fio-suite-$label.test$t.log 2>/dev/null; done
unexpected=""
for t in $failed; do case " ${E2E_FIO_XFAIL:-54} " in *" $t "*) ;; *) unexpected+="$t ";; esac; done
lun_detach $name; rmdir $CFS/core/user_0/$name; rm -f $img
[ $((ok + bad + sk)) -gt 0 ] || fail "no test results (rc=$rc)"
[ -z "$unexpected" ] || fail "$ok ok, $bad failed ($failed), $sk skipped; unexpected failures: $unexpected"
[ $rc = 0 ] || [ -n "$failed" ] || fail "suite rc=$rc"
note "$ok ok, $bad failed${failed:+ (expected: $failed)}, $sk skipped"
