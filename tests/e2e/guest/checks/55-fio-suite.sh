# fio_suite: fio 3.33's t/zbd/test-zbd-support against a 2304 MiB disk with
# 16 MiB zones and 8 conventional zones, for our handler and for
# handler_file_zbc.  One line per handler; per-test results in
# fio-suite-<label>.results.  E2E_FIO_XFAIL lists tests expected to fail on
# every emulator (54 fails identically on the kernel's scsi_debug).
. /e2e/lib.sh
. /e2e/fiosuite.sh
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
fio_suite_run $dev $label; rc=$FS_RC; ok=$FS_OK; bad=$FS_BAD; sk=$FS_SKIP; failed=$FS_FAILED
unexpected=""
for t in $failed; do case " ${E2E_FIO_XFAIL:-54} " in *" $t "*) ;; *) unexpected+="$t ";; esac; done
lun_detach $name; rmdir $CFS/core/user_0/$name; rm -f $img
[ $((ok + bad + sk)) -gt 0 ] || fail "no test results (rc=$rc)"
[ -z "$unexpected" ] || fail "$ok ok, $bad failed ($failed), $sk skipped; unexpected failures: $unexpected"
[ $rc = 0 ] || [ -n "$failed" ] || fail "suite rc=$rc"
note "$ok ok, $bad failed${failed:+ (expected: $failed)}, $sk skipped"
