# load_stats: the handler's statistics (zonelab ctl stats, taken around the
# load run) match fio's byte count, with no errors counted.
. /e2e/lib.sh
[ "$E2E_HANDLER" = zonelab ] || skip "handler_file_zbc has no statistics"
[ -x $ZONELAB ] && $ZONELAB ctl --help > /dev/null 2>&1 || skip "zonelab ctl (control channel) not available"
[ -s $STATE/load.stats ] || skip "no statistics from load_iscsi (it did not run or had no control socket)"
read -r kb_fio kb_h err_h < $STATE/load.stats
echo "fio wrote $kb_fio KiB; handler counted $kb_h KiB of writes and $err_h errors"
[ "$err_h" = 0 ] || fail "handler counted $err_h errors"
[ "$kb_fio" = "$kb_h" ] || fail "fio wrote $kb_fio KiB, handler counted $kb_h KiB"
note "fio $kb_fio KiB written = handler write_lbas ($kb_h KiB); 0 errors"
