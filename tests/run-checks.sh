#!/bin/bash
# tests/run-checks.sh BUILD_DIR unit-binaries... -- scripts...
# Runs every cmocka program and every check script (exit 77 = skipped, with
# the reason on its last line), prints one line per program and a final
# "N passed, N failed, N skipped" line counting test cases.
set -u
O=$1; shift
bins=(); scripts=()
while [ $# -gt 0 ]; do
	if [ "$1" = -- ]; then shift; scripts=("$@"); break; fi
	bins+=("$1"); shift
done
mkdir -p "$O/test-logs"
pass=0; fail=0; skip=0; failed_names=()
for b in "${bins[@]}"; do
	name=$(basename "$b")
	log="$O/test-logs/$name.log"
	start=$(date +%s%N)
	"$b" >"$log" 2>&1; rc=$?
	ms=$(( ($(date +%s%N) - start) / 1000000 )); t=$(printf '%d.%02d' $((ms / 1000)) $((ms % 1000 / 10)))
	np=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -1)
	nf=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -1)
	ns=$(sed -n 's/^\[  SKIPPED \] \([0-9]*\) test.*/\1/p' "$log" | tail -1)
	np=${np:-0}; nf=${nf:-0}; ns=${ns:-0}
	if [ $rc -ne 0 ] && [ "$nf" = 0 ]; then nf=1; fi
	pass=$((pass + np)); fail=$((fail + nf)); skip=$((skip + ns))
	if [ $rc -eq 0 ]; then
		printf '  PASS  %-28s %4d cases  %6ss\n' "$name" "$np" "$t"
	else
		printf '  FAIL  %-28s %4d failed %6ss  (log: %s)\n' "$name" "$nf" "$t" "$log"
		grep -E '^\[  (FAILED|ERROR) \]|^\[  ERROR   \]|error:|Assertion|Sanitizer' "$log" | head -20 | sed 's/^/        /'
		failed_names+=("$name")
	fi
done
for s in "${scripts[@]}"; do
	name=$(basename "$s")
	log="$O/test-logs/$name.log"
	start=$(date +%s%N)
	O="$O" bash "$s" >"$log" 2>&1; rc=$?
	ms=$(( ($(date +%s%N) - start) / 1000000 )); t=$(printf '%d.%02d' $((ms / 1000)) $((ms % 1000 / 10)))
	if [ $rc -eq 0 ]; then
		pass=$((pass + 1)); printf '  PASS  %-28s %6ss\n' "$name" "$t"
	elif [ $rc -eq 77 ]; then
		skip=$((skip + 1)); printf '  SKIP  %-28s %s\n' "$name" "$(tail -1 "$log")"
	else
		fail=$((fail + 1)); failed_names+=("$name")
		printf '  FAIL  %-28s %6ss  (log: %s)\n' "$name" "$t" "$log"
		tail -15 "$log" | sed 's/^/        /'
	fi
done
echo
[ ${#failed_names[@]} -gt 0 ] && echo "failed: ${failed_names[*]}"
echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
