#!/bin/bash
# 040-tcmu-conformance.sh — the ZBC conformance table through the in-process
# tcmu-runner stand-in: handler_zonelab.so must pass every case and the
# transfer-length table (with and without the kernel's read-length
# capability); then tcmu-runner's own handler_file_zbc.so is run for a case-by-case difference
# report (not a gate).  Skips (77) when tcmu-runner's .so is not installed
# (after running ours).
set -u
O=${O:-build}
bin=$O/tests/tcmu_standin/tcmu_conformance
ours=$O/handler_zonelab.so
fzbc=${ZL_FILE_ZBC_SO:-/usr/lib/x86_64-linux-gnu/tcmu-runner/handler_file_zbc.so}
[ -x "$bin" ] || { echo "skip: $bin not built (tests/conformance/zbc_cases.c missing?)"; exit 77; }
[ -f "$ours" ] || { echo "FAIL: $ours not built"; exit 1; }
"$bin" "$ours" || { echo "FAIL: handler_zonelab.so fails conformance cases"; exit 1; }
# a kernel without TCMU's read-length capability: the data area must still hold nothing stale
out=$("$bin" --no-read-len "$ours") ||
	{ echo "$out"; echo "FAIL: handler_zonelab.so without the read-length capability"; exit 1; }
echo "$out" | grep '^== ' | sed 's/^== /== (no read-length capability) /'
echo
if [ ! -f "$fzbc" ]; then
	echo "skip: handler_zonelab.so passed; $fzbc missing (apt-get install tcmu-runner) so no file_zbc report"
	exit 77
fi
"$bin" --report "$fzbc"
exit 0
