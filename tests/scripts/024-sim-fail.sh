#!/bin/bash
# 024-sim-fail.sh — `zonelab sim --fail-dev` (sim/sim_fail.c, docs/SIM.md
# "Device failure and rebuild"): a RAID1 run whose device 1 fails and is
# rebuilt by fs-core exits 0 with the "rebuild" object (finished, the new
# device holding exactly the allocated space, the data check ok); a second
# failure during the rebuild exits 3 with data_lost and the lost blocks;
# the pipelined copy (--rebuild-depth 2) checks clean too; bad values exit
# 2 naming the option and the reason.
. "$(dirname "$0")/lib.sh"  # ZL, src, dir, fail, run
command -v python3 >/dev/null || { echo "SKIP: python3 (reads the JSON)"; exit 77; }
A="sim --devices 3 --profile raid1 --meta-profile raid1 --zones 64 --zone-size 4M --util 0.5
   --writes 8000 --timing-model hc620 --fail-dev 1 --fail-at-write 40M"

run $A --store mem
[ $rc = 0 ] || fail "rebuild run: exit $rc: $(cat "$dir/err")"
python3 - "$dir/out" <<'PY' || fail "rebuild run: JSON"
import json, sys
r = json.load(open(sys.argv[1]))["rebuild"]
assert r["finished"] and r["end_ns"] > r["start_ns"], r
assert r["target_used_bytes"] == r["alloc_end_bytes"] > 0, r
assert r["data_check"]["result"] == "ok" and r["data_check"]["stamps"], r
assert not r["data_lost"] and r["lost_blocks"] == 0, r
assert r["fg_latency"]["before"]["count"] > 0 and r["fg_latency"]["during"]["count"] > 0, r
PY

run $A --store mem --fail2-dev 2 --fail2-at 8M
[ $rc = 3 ] || fail "second failure: exit $rc, want 3"
python3 - "$dir/out" <<'PY' || fail "second failure: JSON"
import json, sys
d = json.load(open(sys.argv[1])); r = d["rebuild"]
assert d["error"] == "data_lost", d["error"]
assert r["data_lost"] and r["lost_blocks"] > 0 and r["second_failure"]["failed"], r
assert r["data_check"]["result"] == "bad", r
assert r["data_check"]["bad_blocks"] == r["lost_blocks"], r
PY

# the pipelined copy (--rebuild-depth 2): the same bytes, the data check ok,
# "depth" and "batches" in the JSON
run $A --store mem --rebuild-depth 2
[ $rc = 0 ] || fail "depth 2: exit $rc: $(cat "$dir/err")"
python3 - "$dir/out" <<'PY' || fail "depth 2: JSON"
import json, sys
r = json.load(open(sys.argv[1]))["rebuild"]
assert r["finished"] and r["depth"] == 2 and r["batch_bytes"] == 8 << 20, r
assert r["batches"] > 0 and r["steps"] >= r["batches"], r
assert r["target_used_bytes"] == r["alloc_end_bytes"] > 0, r
assert r["data_check"]["result"] == "ok" and r["data_check"]["stamps"], r
PY

# refused WANT_SUBSTRING ARGS... - exit 2, stderr names it
refused() {
	local want=$1; shift
	run "$@"
	[ $rc = 2 ] || fail "zonelab $*: exit $rc, want 2"
	grep -qF -- "$want" "$dir/err" || fail "zonelab $*: stderr '$(cat "$dir/err")' lacks '$want'"
}
refused "--fail-dev 5: not a device of the array" $A --fail-dev 5
refused "--profile single: no copy on another device" sim --devices 3 --fail-dev 0
refused "--rebuild-prio share:0: " $A --rebuild-prio share:0
refused "rebuild-prio: 'fast': idle or share:X" $A --rebuild-prio fast
refused "--rebuild-prio: needs --fail-dev" sim --rebuild-prio idle
refused "--fail-at-write: needs --fail-dev" sim --fail-at-write 1M
refused "--fail2-at: needs --fail2-dev" $A --fail2-at 1M
refused "--fail2-dev 1: the device of --fail-dev already failed" $A --fail2-dev 1
refused "fail-at-write" $A --fail-at-write lots
refused "--rebuild-depth 0: 1 to 16 batches" $A --rebuild-depth 0
refused "--rebuild-depth 17: 1 to 16 batches" $A --rebuild-depth 17
refused "--rebuild-depth: needs --fail-dev" sim --rebuild-depth 2
[ $fails -eq 0 ] || { echo "$fails failures"; exit 1; }
echo "ok"
