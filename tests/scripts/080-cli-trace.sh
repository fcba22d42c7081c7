#!/bin/bash
# 080-cli-trace.sh — `zonelab trace` end to end on the committed samples:
# stat (table and JSON), cat, convert round trips, exit 2 with file:line on
# malformed input, --lenient's count, a refused unknown file, replay of a
# command trace onto a fresh image with --verify (0 divergences) and of the
# same trace with one changed record (exit 1, the record named); the option
# convention (--opt=value, --, -h/--help, refusals naming the option).
set -u
O=${O:-build}
Z=$O/zonelab
D=tests/data
[ -x "$Z" ] || { echo "SKIP: $Z not built"; exit 77; }
w=$(mktemp -d); trap 'rm -rf "$w"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# stat: every sample is read; JSON parses and carries the counts
for f in msr.csv alibaba.csv tencent.csv spc.csv fio-iolog2.log fio-iolog3.log sample.blktrace.0 \
	 sample.blkparse.txt msr.native msr-v1.native cmd.ztrace; do
	"$Z" trace stat "$D/$f" >"$w/out" 2>&1 || fail "stat $f: $(cat "$w/out")"
done
"$Z" trace stat "$D/msr.csv" --json >"$w/j" || fail "stat --json"
python3 - "$w/j" <<'PY' || fail "stat --json content"
import json, sys
t = json.load(open(sys.argv[1]))["traces"][0]
assert t["format"] == "msr" and t["records"] == 5, t
assert t["ops"]["write"] == {"requests": 4, "bytes": 8192 + 4096 * 2 + 65536}, t["ops"]
assert t["footprint_bytes"]["written"] == 4096 * 19, t["footprint_bytes"]
PY

# cat / convert: native and back, iolog3, blkparse text give the same records
"$Z" trace cat "$D/msr.csv" >"$w/a" || fail "cat"
[ "$(wc -l <"$w/a")" = 5 ] || fail "cat: $(wc -l <"$w/a") lines"
"$Z" trace convert "$D/msr.csv" "$w/m.native" || fail "convert native"
"$Z" trace cat "$w/m.native" >"$w/b" && cmp -s "$w/a" "$w/b" || fail "native round trip differs"
cmp -s "$w/m.native" "$D/msr.native" || fail "convert no longer writes tests/data/msr.native (version 2) byte for byte"
"$Z" trace cat "$D/msr-v1.native" >"$w/b" && cmp -s "$w/a" "$w/b" || fail "native version 1 sample reads differently"
"$Z" trace convert "$D/fio-iolog3.log" "$w/x.log" --to iolog3 || fail "convert iolog3"
head -1 "$w/x.log" | grep -qx 'fio version 3 iolog' || fail "iolog3 header"
"$Z" trace convert "$D/fio-iolog3.log" "$w/x.txt" --to blkparse || fail "convert blkparse"
[ "$("$Z" trace cat "$w/x.txt" | awk '{print $2, $3, $4}')" = "$("$Z" trace cat "$D/fio-iolog3.log" | awk '{print $2, $3, $4}')" ] ||
	fail "blkparse conversion changed records"
# windows and filters
[ "$("$Z" trace cat "$D/tencent.csv" --device 1234 | wc -l)" = 3 ] || fail "--device"
[ "$("$Z" trace cat "$D/msr.csv" --op read | wc -l)" = 1 ] || fail "--op"
[ "$("$Z" trace cat "$D/msr.csv" --from 0.01 --to 0.03 | wc -l)" = 2 ] || fail "--from/--to"

# malformed input: exit 2 naming file and line; --lenient counts
printf '128166036000000000,hm,0,Write,0,4096,1\n128166036000000000,hm,0,Wrote,0,4096,1\n128166036000000000,hm,0,Read,0,4096,1\n' >"$w/bad.csv"
"$Z" trace stat "$w/bad.csv" >/dev/null 2>"$w/err"; rc=$?
[ $rc = 2 ] || fail "malformed: exit $rc"
grep -q "bad.csv:2: Type 'Wrote' is neither Read nor Write" "$w/err" || fail "malformed message: $(cat "$w/err")"
"$Z" trace stat "$w/bad.csv" --lenient >"$w/out" 2>"$w/err" || fail "--lenient exit"
grep -q "1 malformed record(s) skipped" "$w/err" || fail "--lenient count: $(cat "$w/err")"
grep -q "records        2" "$w/out" || fail "--lenient records"
echo "not a trace" >"$w/junk"
"$Z" trace stat "$w/junk" 2>"$w/err"; rc=$?
[ $rc = 2 ] && grep -q "formats tried: native, ztrace, blktrace" "$w/err" || fail "unknown file: $rc $(cat "$w/err")"
"$Z" trace stat --format nope "$D/msr.csv" 2>/dev/null; [ $? = 2 ] || fail "--format nope"

# replay: a fresh image of the recorded geometry (4 KiB LBAs, 1 MiB zones, 64 zones)
"$Z" disk create "$w/r.img" --size 64M --zone-size 1M --lba-size 4096 >/dev/null || fail "disk create"
"$Z" trace replay "$D/cmd.ztrace" --to "$w/r.img" --verify >"$w/out" || fail "replay --verify: $(cat "$w/out")"
grep -q "verify: no divergence (11 commands compared)" "$w/out" || fail "replay output: $(cat "$w/out")"
# record 4 changed: GOOD -> CHECK CONDITION 5/21h/04h (status at byte 64 + 4 * 48 + 30)
cp "$D/cmd.ztrace" "$w/changed.ztrace"
printf '\x02\x05\x21\x04' | dd of="$w/changed.ztrace" bs=1 seek=$((64 + 4 * 48 + 30)) conv=notrunc status=none
"$Z" disk create "$w/r2.img" --size 64M --zone-size 1M --lba-size 4096 >/dev/null || fail "disk create 2"
"$Z" trace replay "$w/changed.ztrace" --to "$w/r2.img" --verify >"$w/out"; rc=$?
[ $rc = 1 ] || fail "changed record: exit $rc"
grep -q "first divergence: record 4: WRITE(10) lba 512 n 2: expected CHECK CONDITION 5/21h/04h, got GOOD" "$w/out" ||
	fail "divergence message: $(cat "$w/out")"
# one option convention: --opt=value is --opt value, options before the
# files, -- ends them (a file named -x), -h/--help on every trace command,
# refusals name the option and the help pointer (exit 2)
"$Z" trace stat --json --format=msr "$D/msr.csv" >"$w/eq1" && "$Z" trace stat "$D/msr.csv" --format msr --json >"$w/eq2" &&
	cmp -s "$w/eq1" "$w/eq2" || fail "stat --format=msr differs from --format msr"
cp "$D/msr.csv" "$w/-dash.csv"
za=$(realpath "$Z")
(cd "$w" && "$za" trace cat -- -dash.csv) >"$w/b" && cmp -s "$w/a" "$w/b" || fail "trace cat -- -dash.csv"
for c in stat cat convert replay; do
	for h in -h --help; do
		"$Z" trace $c $h >"$w/out" 2>&1 || fail "trace $c $h: exit $?"
		grep -q "^usage: zonelab trace <command>" "$w/out" || fail "trace $c $h: no usage"
	done
done
"$Z" trace stat "$D/msr.csv" --frobnicate >"$w/out" 2>&1; rc=$?
[ $rc = 2 ] && grep -qx "zonelab trace stat: unknown option '--frobnicate' (see zonelab trace --help)" "$w/out" ||
	fail "unknown option: exit $rc, $(cat "$w/out")"
"$Z" trace cat "$D/msr.csv" --format >"$w/out" 2>&1; rc=$?
[ $rc = 2 ] && grep -qx "zonelab trace cat: option --format needs a value (see zonelab trace --help)" "$w/out" ||
	fail "missing value: exit $rc, $(cat "$w/out")"
"$Z" trace cat "$D/msr.csv" --lenient=1 >"$w/out" 2>&1; rc=$?
[ $rc = 2 ] && grep -qx "zonelab trace cat: option --lenient takes no value (see zonelab trace --help)" "$w/out" ||
	fail "flag with a value: exit $rc, $(cat "$w/out")"
echo "ok"
