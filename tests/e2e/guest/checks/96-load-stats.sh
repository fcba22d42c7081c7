# load_stats: the handler's statistics match fio's byte counts (needs the
# control channel).
. /e2e/lib.sh
[ "$E2E_HANDLER" = zonelab ] || skip "handler_file_zbc has no statistics"
[ -x /e2e/bin/zonelab ] && /e2e/bin/zonelab ctl --help > /dev/null 2>&1 || skip "zonelab ctl (control channel) not available yet"
skip "zonelab ctl exists, but the statistics comparison is not written yet"
