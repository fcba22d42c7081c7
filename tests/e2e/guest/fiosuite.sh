# tests/e2e/guest/fiosuite.sh - fio 3.33's zoned test suite (t/zbd/
# test-zbd-support) on one device, for the fio_suite checks (55, SCSI) and
# nvme_fio_suite (58, ZNS over nvmet).  Sourced after lib.sh.

# fio_suite_targs - "-t N" for each test of FS_TESTS (numbers and ranges,
# "1-53 60"; empty: the whole suite).
fio_suite_targs() {
	local w
	for w in ${FS_TESTS:-}; do
		case $w in
		*-*) seq -f '-t %g' ${w%-*} ${w#*-} ;;
		*) echo "-t $w" ;;
		esac
	done | tr '\n' ' '
}
# fs_progress TEXT - one progress line on the console (not in the check's log).
fs_progress() { [ -w /dev/console ] && echo "@@E2E PROGRESS $*" > /dev/console 2> /dev/null; return 0; }

# fio_suite_run DEV LABEL - run the suite on DEV; per-test results ("testNN
# PASS|FAIL|SKIP [why]") in $LOGS/fio-suite-LABEL.results, the whole output
# in fio-suite-LABEL.out, each failed test's log (last 20000 bytes) in
# fio-suite-LABEL.testN.log.  Sets FS_OK FS_BAD FS_SKIP (counts), FS_FAILED
# (the failed test numbers, space-separated) and FS_RC (the suite's exit
# status).  Returns 1 when the suite printed no test result at all.
# FS_TESTS chooses the tests (fio_suite_targs); each result is printed on
# the console as the test ends (fs_progress).
fio_suite_run() {
	local dev=$1 label=$2 out res t
	[ -x /e2e/fio/t/zbd/test-zbd-support ] || [ -f /e2e/fio/t/zbd/test-zbd-support ] || return 1
	out=$LOGS/fio-suite-$label.out; res=$LOGS/fio-suite-$label.results
	: > $out
	# Each finished test is also printed on the console as it ends
	# ("@@E2E PROGRESS", shown live by run.sh), so a hung test is seen by
	# its number while the VM still runs.
	( cd /e2e/fio/t/zbd && rm -f test-zbd-support.log.*
	  timeout ${E2E_SUITE_TIMEOUT:-3000} bash ./test-zbd-support $(fio_suite_targs) $dev 2>&1 ) |
	while IFS= read -r l; do
		printf '%s\n' "$l" >> $out
		case $l in *"Running test "*) fs_progress "$label ${SECONDS}s $(sed -E 's/\x1b\[[0-9;]*m//g' <<< "$l")" ;; esac
	done
	FS_RC=${PIPESTATUS[0]}
	# Lines look like "Running test 01 ... PASS", "... FAIL", "... SKIP    why".
	grep -aE '^Running test [0-9]+ \.\.\. ' $out | sed -E 's/\x1b\[[0-9;]*m//g; s/^Running test ([0-9]+) \.\.\. /test\1 /' > $res
	FS_OK=$(grep -c ' PASS' $res); FS_BAD=$(grep -c ' FAIL' $res); FS_SKIP=$(grep -c ' SKIP' $res)
	FS_FAILED=$(awk '$2 == "FAIL" { sub("test0*", "", $1); printf "%s ", $1 }' $res | sed "s/ *$//")
	for t in $FS_FAILED; do
		tail -c 20000 /e2e/fio/t/zbd/test-zbd-support.log.$t > $LOGS/fio-suite-$label.test$t.log 2>/dev/null
	done
	[ $((FS_OK + FS_BAD + FS_SKIP)) -gt 0 ]
}

# fio_suite_cmp A B - the two labels' results side by side, one line per
# test: "testNN A-RESULT B-RESULT" (- when a test has no result on one).
fio_suite_cmp() {
	join -a1 -a2 -e - -o 0,1.2,2.2 <(awk '{ print $1, $2 }' $LOGS/fio-suite-$1.results | sort) \
		<(awk '{ print $1, $2 }' $LOGS/fio-suite-$2.results | sort)
}
