#!/bin/bash
# 050-fuzz-smoke.sh — a short bounded run of every libFuzzer target (built
# by `make check` into $FUZZ_O, by default $O/fuzz/), from its committed seed corpus.  Any
# crash or sanitizer report fails the check.  Long runs: `make fuzz`.
set -u
shopt -s nullglob
fz=${FUZZ_O:-${O:-build}/fuzz}
bins=("$fz"/fuzz_*)
[ ${#bins[@]} -gt 0 ] || { echo "SKIP: no fuzz targets in $fz (make fuzz-build O=${O:-build})"; exit 77; }
secs=${FUZZ_SMOKE_SECS:-8}
rc=0
for f in "${bins[@]}"; do
	[ -x "$f" ] || continue
	n=$(basename "$f")
	work=$(mktemp -d)
	seeds=()
	[ -d "tests/fuzz/corpus/$n" ] && seeds=("tests/fuzz/corpus/$n")
	if "$f" -max_total_time="$secs" -seed=1 -print_final_stats=1 "$work" "${seeds[@]}" \
		>"$work.log" 2>&1; then
		echo "ok   $f: $(grep -o 'stat::number_of_executed_units: [0-9]*' "$work.log" | awk '{print $2}') runs in ${secs}s"
	else
		echo "FAIL $n"; tail -40 "$work.log"; rc=1
	fi
	rm -rf "$work" "$work.log"
done
exit $rc
