#!/bin/bash
# 020-cli-sim.sh — `zonelab sim` from the command line: a small run prints
# JSON that is the same for the same seed and differs for another seed;
# bad options exit 2 with a message naming the option and the reason
# (values that do not fit their field are refused, not wrapped); RAID5/6
# runs end with the design's refusal in the JSON.
set -u
ZL=${O:-build}/zonelab
[ -x "$ZL" ] || { echo "SKIP: $ZL not built"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fails=0
small=(--zones 64 --zone-size 1M --writes 20000 --util 0.5)

"$ZL" sim "${small[@]}" --seed 7 >"$dir/a" 2>"$dir/err" || { echo "FAIL: small run: $(cat "$dir/err")"; fails=$((fails+1)); }
"$ZL" sim "${small[@]}" --seed 7 >"$dir/b" 2>/dev/null
"$ZL" sim "${small[@]}" --seed 8 >"$dir/c" 2>/dev/null
grep -q '"writes"' "$dir/a" || { echo "FAIL: no JSON summary: $(head -c 200 "$dir/a")"; fails=$((fails+1)); }
cmp -s "$dir/a" "$dir/b" || { echo "FAIL: same seed, different output"; fails=$((fails+1)); }
cmp -s "$dir/a" "$dir/c" && { echo "FAIL: seeds 7 and 8 gave the same output"; fails=$((fails+1)); }

# bad <args...> <text>: exit 2 and stderr contains <text>
bad() {
	local want=${*: -1}
	"$ZL" sim "${@:1:$#-1}" >"$dir/out" 2>"$dir/err"
	local rc=$?
	if [ $rc -ne 2 ] || ! grep -qF -- "$want" "$dir/err"; then
		echo "FAIL: sim ${*:1:$#-1}: exit $rc, want 2 and '$want'; stderr: $(head -3 "$dir/err")"
		fails=$((fails+1))
	fi
}
bad --zones 4294967297 "zones: 4294967297 is out of range (0 to 4294967295)"
bad --workers 4294967296 "workers: 4294967296 is out of range"
bad --expire-ms 99999999999999999 "expire-ms: 99999999999999999 is out of range"
bad --zones 12x "zones"
bad --profile raid7 "profile: unknown value 'raid7' (one of: single dup raid1 raid0 raid10 raid5 raid6)"
bad --util 1.5 "util"
# RAID5/6 are known profiles that the HMZONED design refuses (the RFC's mode
# check): the run reports it in its JSON and exits 1
"$ZL" sim --profile raid5 --writes 10 >"$dir/out" 2>"$dir/err"; rc=$?
if [ $rc -ne 1 ] || ! grep -q '"error": "raid56"' "$dir/out"; then
	echo "FAIL: --profile raid5: exit $rc, want 1 and error raid56"; fails=$((fails+1))
fi
[ $fails -eq 0 ] && echo "020-cli-sim: all checks passed"
exit $((fails > 0))
