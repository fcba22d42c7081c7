# faults: zone offline/read-only, media errors and latency injected at run time through
# `zonelab ctl` reach the kernel.  Needs our control channel.
. /e2e/lib.sh
[ -e /e2e/handlers/handler_zonelab.so ] || skip "handler_zonelab.so not built yet"
[ "$E2E_HANDLER" = zonelab ] || skip "runs only against handler_zonelab"
[ -x /e2e/bin/zonelab ] && /e2e/bin/zonelab ctl --help > /dev/null 2>&1 || skip "zonelab ctl (control channel) not available yet"
skip "zonelab ctl exists, but the e2e fault checks are not written yet"
