#!/bin/bash
# 025-sim-replay.sh — `zonelab sim --trace`: the fio iolog sample of
# tests/data replays closed and timed (JSON with the replay object, the
# trace's records and ops, the same output twice), --loops says its
# warm-up, --device filters an MSR trace; a malformed trace exits 2 with
# the file and line, and replay options without a trace (or out of range)
# exit 2 naming the option.
set -u
ZL=${O:-build}/zonelab
[ -x "$ZL" ] || { echo "SKIP: $ZL not built"; exit 77; }
DATA=$(dirname "$0")/../data
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails+1)); }
geo=(--zone-size 256K --util 0.5)

"$ZL" sim --trace "$DATA/fio-iolog3.log" "${geo[@]}" >"$dir/a" 2>"$dir/err" || fail "closed replay: $(cat "$dir/err")"
"$ZL" sim --trace "$DATA/fio-iolog3.log" "${geo[@]}" >"$dir/b" 2>/dev/null
cmp -s "$dir/a" "$dir/b" || fail "the same replay twice gave different output"
grep -q '"records": 9,' "$dir/a" || fail "iolog sample: not 9 records: $(grep -m1 records "$dir/a")"
grep -q '"write": { "requests": 5, "bytes": 20480 }' "$dir/a" || fail "iolog sample: writes not counted"
grep -q '"flush_commits": 1' "$dir/a" || fail "iolog sample: the sync did not wait for a commit"
grep -q '"timing": "closed"' "$dir/a" || fail "closed run not said in the config"
grep -q '"descriptors": { "read_fraction_requests": 0.375000' "$dir/a" || fail "no trace descriptors: $(grep -m1 descriptors "$dir/a")"
"$ZL" sim --trace "$DATA/fio-iolog3.log" "${geo[@]}" --timing timed --speed 2 >"$dir/t" 2>"$dir/err" ||
	fail "timed replay: $(cat "$dir/err")"
grep -q '"timing": "timed", "speed": 2' "$dir/t" || fail "timed run not said in the config"
"$ZL" sim --trace "$DATA/fio-iolog3.log" "${geo[@]}" --loops 3 >"$dir/l" 2>"$dir/err" || fail "loops: $(cat "$dir/err")"
grep -q '"loops": 3, "warmup_loops": 2, "measured_loops": 1' "$dir/l" || fail "loops not said in the JSON"
"$ZL" sim --trace "$DATA/msr.csv" --device 1 "${geo[@]}" >"$dir/m" 2>"$dir/err" || fail "msr --device 1: $(cat "$dir/err")"
grep -q '"records": 1,' "$dir/m" || fail "--device 1 kept other devices: $(grep -m1 records "$dir/m")"

# bad <args...> <text>: exit 2 and stderr contains <text>
bad() {
	local want=${*: -1}
	"$ZL" sim "${@:1:$#-1}" >"$dir/out" 2>"$dir/err"
	local rc=$?
	if [ $rc -ne 2 ] || ! grep -qF -- "$want" "$dir/err"; then
		fail "sim ${*:1:$#-1}: exit $rc, want 2 and '$want'; stderr: $(head -3 "$dir/err")"
	fi
}
printf 'fio version 3 iolog\n1 /f add\n2 /f open\n3 /f write 0 4096\n4 /f write x 4096\n' >"$dir/bad.log"
bad --trace "$dir/bad.log" "$dir/bad.log:5:"
bad --trace "$DATA/fio-iolog3.log" --trace-format bogus "unknown trace format 'bogus'"
bad --device 1 "zonelab: sim: --device: needs --trace"
bad --timing timed "zonelab: sim: --timing timed: needs --trace"
bad --loops 2 "zonelab: sim: --loops 2: needs --trace"
bad --trace "$DATA/fio-iolog3.log" --loops 0 "zonelab: sim: --loops 0: at least 1 pass"
bad --trace "$DATA/fio-iolog3.log" --timing timed --speed 0 "zonelab: sim: --speed 0: above 0"
bad --trace "$DATA/fio-iolog3.log" --file-size 5000 "zonelab: sim: --file-size 5000: a multiple of 4 KiB"
bad --trace "$DATA/fio-iolog3.log" --file-size 4096 "--file-size 4096: the trace needs a file of 32768 bytes"
bad --trace "$DATA/fio-iolog3.log" --map wide "map: unknown value 'wide' (one of: compact direct scale)"
bad --trace "$DATA/fio-iolog3.log" --map scale --zones 0 "--map scale: the file's size comes from --file-size"
[ $fails -eq 0 ] || exit 1
echo "025-sim-replay: ok"
