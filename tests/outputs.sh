#!/bin/bash
# tests/outputs.sh BUILD_DIR OUT_DIR — write the outputs that a change meant
# to keep behaviour (a refactor, a move, a speed-up) must leave byte-identical,
# one file each, so two builds can be compared with `diff -r`:
#   - `zonelab sim` JSON (with --csv and --zone-csv samples) of every point of
#     scenarios/ci/*.ini and scenarios/default.ini, the simulator run
#     directly with the arguments `zonelab run --list` prints;
#   - the same for trace replay (every sample trace through --trace);
#   - `trace stat --json` and `trace cat` of every sample in tests/data;
#   - `disk create/write/report/info` on a few geometries;
#   - the conformance table's case-by-case report of handler_zonelab.so
#     (every case's status, sense and data compared with the table).
# Usage, comparing a build of main with this tree's:
#   git worktree add --detach /var/tmp/base main && make -C /var/tmp/base -j2 all
#   tests/outputs.sh /var/tmp/base/build /var/tmp/out-base
#   tests/outputs.sh build /var/tmp/out-new && diff -r /var/tmp/out-base /var/tmp/out-new
# Paths inside the outputs are made relative so the two trees compare.
set -euo pipefail
B=$(cd "$1" && pwd); OUT=$2
Z=$B/zonelab
[ -x "$Z" ] || { echo "outputs.sh: $Z not built" >&2; exit 2; }
rm -rf "$OUT"; mkdir -p "$OUT"/{sim,replay,trace,disk}
OUT=$(cd "$OUT" && pwd)
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT

# 1. simulator points of the scenarios
for f in scenarios/ci/*.ini scenarios/default.ini; do
	"$Z" run "$f" --list
done | while IFS=$'\t' read -r id _ cmd; do
	args=${cmd#zonelab sim }
	printf '%s\t%s\n' "$id" "$args"
done > "$TMP/points"
run_point() {  # id args...
	local id=$1; shift
	"$Z" sim "$@" --csv "$OUT/sim/$id.csv" --zone-csv "$OUT/sim/$id.zones.csv" --sample-ms 50 \
		> "$OUT/sim/$id.json" 2> "$OUT/sim/$id.err" || echo "exit $?" >> "$OUT/sim/$id.err"
}
export -f run_point; export Z OUT
while IFS=$'\t' read -r id args; do
	printf '%s %s\n' "$id" "$args"
done < "$TMP/points" | xargs -P 2 -L 1 bash -c 'run_point "$@"' _

# 2. trace replay through the simulator, and 3. trace stat / cat
for t in tests/data/*; do
	case $t in *.md|*.py|*.blktrace.1) continue;; esac
	n=$(basename "$t")
	"$Z" trace stat --json "$t" > "$OUT/trace/$n.stat.json" 2>&1 || echo "exit $?" >> "$OUT/trace/$n.stat.json"
	"$Z" trace stat "$t" > "$OUT/trace/$n.stat.txt" 2>&1 || echo "exit $?" >> "$OUT/trace/$n.stat.txt"
	"$Z" trace cat "$t" 2>&1 | head -n 2000 > "$OUT/trace/$n.cat.txt" || true
	"$Z" sim --trace "$t" --zone-size 256K --util 0.7 --loops 2 \
		> "$OUT/replay/$n.json" 2>&1 || echo "exit $?" >> "$OUT/replay/$n.json"
	"$Z" sim --trace "$t" --zone-size 256K --util 0.7 --timing timed --clean cost-benefit \
		> "$OUT/replay/$n.timed.json" 2>&1 || echo "exit $?" >> "$OUT/replay/$n.timed.json"
done
"$Z" trace convert tests/data/msr.csv "$TMP/msr.native" > /dev/null
cmp -s "$TMP/msr.native" tests/data/msr.native && echo same > "$OUT/trace/convert" || echo differs > "$OUT/trace/convert"

# 4. disks
disk() {  # name create-args...
	local n=$1; shift
	local img=$TMP/$n.img
	{
		"$Z" disk create "$img" "$@"
		"$Z" disk write "$img" 0 8 --pattern 0x5a || true
		"$Z" disk report "$img" --max 40
		"$Z" disk report "$img" --option closed
		"$Z" disk info "$img" --json
		"$Z" disk check "$img"
	} 2>&1 | sed "s|$TMP/||g" > "$OUT/disk/$n.txt" || true
}
disk hm --size 64M --zone-size 1M --conv 4 --conv-at 30-31 --max-open 8
disk cap --size 256M --zone-size 16M --zone-cap 12M --gap-zones --lba-size 4096
disk ha --size 32M --zone-size 2M --model ha

# 5. the conformance table through the stand-in
conf=$B/tests/tcmu_standin/tcmu_conformance
if [ -x "$conf" ]; then
	"$conf" --report "$B/handler_zonelab.so" 2>&1 | sed "s|$B/||g" > "$OUT/conformance.txt" || true
fi
echo "outputs.sh: $(find "$OUT" -type f | wc -l) files in $OUT"
