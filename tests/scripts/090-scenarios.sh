#!/bin/bash
# 090-scenarios.sh — `zonelab run/collect/compare/plot` end to end with the
# real simulator: the regression scenarios of scenarios/ci/ pass with
# --check and their JUnit XML parses back with one testcase per point x
# (ran + expectations); two runs are identical (results.csv byte for byte,
# compare --tolerance 0 exits 0); an expectation that must fail exits 1
# naming scenario, point, field, expected and measured; resume runs only
# what is missing or changed; --points + collect equals a whole run;
# compare flags changed metrics and missing points; the plots exist as
# PNG and SVG with the expected series count; scenario errors go through
# the CLI with FILE:LINE (the simulator's own check included).
. "$(dirname "$0")/lib.sh"  # ZL, src, dir, fail, run

# --- the CI scenarios (make check's regression runs)
for f in "$src"/scenarios/ci/*.ini; do
	n=$(basename "$f" .ini)
	"$ZL" run "$f" -o "$dir/ci-$n" -j 2 -q --check --no-plots --junit "$dir/ci-$n.xml" \
		>"$dir/ci-$n.log" 2>&1 || fail "scenarios/ci/$n.ini: exit $?: $(tail -5 "$dir/ci-$n.log")"
	[ -s "$dir/ci-$n.xml" ] || { fail "$n: no JUnit file"; continue; }
	if command -v xmllint >/dev/null; then
		np=$(wc -l < "$dir/ci-$n/results.csv"); np=$((np - 1))
		ne=$(sed -n '/^\[expect\]/,/^\[/p' "$f" | grep -c '^[a-z_0-9]* *=')
		tc=$(xmllint --xpath 'count(//testcase)' "$dir/ci-$n.xml")
		nf=$(xmllint --xpath 'count(//testcase/failure)' "$dir/ci-$n.xml")
		[ "$tc" = $((np * (ne + 1))) ] || fail "$n: JUnit has $tc testcases, want $np points x ($ne + 1)"
		[ "$nf" = 0 ] || fail "$n: JUnit has $nf failures"
	fi
done

# --- scenarios/timing.ini: fs-core on the hc620 timing model (docs/TIMING.md)
"$ZL" run "$src/scenarios/timing.ini" -o "$dir/timing" -j 2 -q --check --no-plots >"$dir/timing.log" 2>&1 ||
	fail "scenarios/timing.ini: exit $?: $(tail -5 "$dir/timing.log")"
grep -q '"timing_model": "hc620,capacity=' "$dir/timing/points/timing-0000.json" ||
	fail "timing.ini: the point does not name its timing model"

# --- a small sweep used below: 2 policies x 2 utilizations x 2 seeds
cat >"$dir/t.ini" <<'EOF'
[scenario]
name = t
description = test sweep
seeds = [1, 2]
[devices]
zones = 128
zone-size = 256K
[fs-core]
no-metadata = true
[workload]
util = [0.6, 0.8]
writes = 40000
[cleaning]
clean = [fifo, greedy]
[output]
sample-ms = 100
[expect]
ok = error == "none"
sane = wa.data >= 1
[table wa]
title = Data WA and the error
columns = wa.data, error, nope.metric
EOF
"$ZL" run "$dir/t.ini" -o "$dir/a" -j 2 >"$dir/a.log" 2>&1 || fail "run t.ini: exit $?: $(tail -3 "$dir/a.log")"
for f in points/t-0000.json points/t-0007.json points/t-0007.csv results.csv summary.csv report.md \
	scenarios/t.ini scenarios/list; do
	[ -s "$dir/a/$f" ] || fail "run: no $f"
done
[ "$(wc -l < "$dir/a/results.csv")" = 9 ] || fail "results.csv: $(wc -l < "$dir/a/results.csv") lines, want 9"
[ "$(wc -l < "$dir/a/summary.csv")" = 5 ] || fail "summary.csv: $(wc -l < "$dir/a/summary.csv") lines, want 5 (4 groups)"
head -1 "$dir/a/summary.csv" | grep -q 'wa.data.mean,wa.data.ci95' || fail "summary.csv: no wa.data mean/ci95 columns"
grep -q '"params": { "zones": "128",' "$dir/a/points/t-0000.json" || fail "point file without its parameters"
grep -q '^| t | ok | `error == "none"` | 8 | 0 | 0 |' "$dir/a/report.md" || fail "report.md: expectation table"
# the scenario's own table: one row per configuration, mean ± CI of a number,
# a text leaf as it is, a column no point has is "–" and a note
grep -q '^## wa (scenario t)$' "$dir/a/report.md" || fail "report.md: no [table wa]"
grep -q '^| configuration | seeds | wa.data | error | nope.metric |$' "$dir/a/report.md" ||
	fail "report.md: [table wa] header"
[ "$(grep -cE '^\| util=0\.[68] clean=(fifo|greedy) \| 2 \| [0-9.]+ ± [0-9.e-]+ \| none \| – \|$' "$dir/a/report.md")" = 4 ] ||
	fail "report.md: [table wa] rows: $(grep -A8 '^## wa' "$dir/a/report.md")"
grep -q "^- table wa: column 'nope.metric' is in no point of scenario t$" "$dir/a/report.md" ||
	fail "report.md: no note for the missing column"
grep -q "table wa: column 'nope.metric' is in no point" "$dir/a.log" || fail "stderr: no note for the missing column"

# determinism: a second run gives the same bytes, compare finds nothing
"$ZL" run "$dir/t.ini" -o "$dir/b" -j 1 -q --no-plots >/dev/null 2>&1
cmp -s "$dir/a/results.csv" "$dir/b/results.csv" || fail "two runs: results.csv differ"
cmp -s "$dir/a/summary.csv" "$dir/b/summary.csv" || fail "two runs: summary.csv differ"
"$ZL" compare "$dir/a" "$dir/b" --tolerance 0 >"$dir/cmp.log" 2>&1 || fail "compare of two equal runs: exit $?: $(tail -3 "$dir/cmp.log")"

# --- plots: PNG and SVG, series per plot
if command -v gnuplot >/dev/null; then
	for p in wa_util wa_bars latency_cdf timeseries zone_timeline; do
		for x in png svg gp dat; do [ -s "$dir/a/plots/$p.$x" ] || fail "no plots/$p.$x"; done
		head -c 8 "$dir/a/plots/$p.png" | od -An -tx1 | grep -q '89 50 4e 47' || fail "$p.png is not a PNG"
		grep -q '<svg' "$dir/a/plots/$p.svg" || fail "$p.svg is not an SVG"
	done
	series() { grep -o 'id="gnuplot_plot_[0-9]*[a-z]*"' "$dir/a/plots/$1.svg" | sort -u | wc -l; }
	# 2 policies + each one's analytic curve (fifo: Eq. 4, greedy: Eq. 12) + the legend's "analytic model"
	[ "$(series wa_util)" = 5 ] || fail "wa_util.svg: $(series wa_util) series, want 5"
	# grouped bars: 2 policies + their analytic markers + the legend entry
	[ "$(series wa_bars)" = 5 ] || fail "wa_bars.svg: $(series wa_bars) series, want 5"
	# one CDF per configuration
	[ "$(series latency_cdf)" = 4 ] || fail "latency_cdf.svg: $(series latency_cdf) series, want 4"
	# 3 panels x 4 configurations
	[ "$(series timeseries)" = 12 ] || fail "timeseries.svg: $(series timeseries) series, want 12"
	# one image: zones x time of the first point
	[ "$(series zone_timeline)" = 1 ] || fail "zone_timeline.svg: $(series zone_timeline) series, want 1"
	[ "$(head -1 "$dir/a/points/t-0000.zones.csv" | tr ',' '\n' | wc -l)" = 129 ] || fail "zones.csv: want t_ns + 128 zones"
	grep -q '!\[wa_util\](plots/wa_util.png)' "$dir/a/report.md" || fail "report.md does not show wa_util"
	rm -f "$dir/a/plots/"*.png
	"$ZL" plot "$dir/a" >/dev/null 2>&1 || fail "zonelab plot: exit $?"
	[ -s "$dir/a/plots/wa_util.png" ] || fail "zonelab plot did not redraw wa_util.png"
fi
# without gnuplot: data and scripts, and the message says how to install it
PATH=/nonexistent "$ZL" plot "$dir/b" >"$dir/nogp.log" 2>&1
rc=$?
[ $rc = 1 ] || fail "plot without gnuplot: exit $rc, want 1"
grep -q 'apt-get install gnuplot-nox' "$dir/nogp.log" || fail "plot without gnuplot: no install hint: $(cat "$dir/nogp.log")"
[ -s "$dir/b/plots/wa_util.gp" ] && [ -s "$dir/b/plots/wa_util.dat" ] || fail "plot without gnuplot: no script/data"

# --- an expectation that must fail
cat >"$dir/f.ini" <<'EOF'
[scenario]
name = f
[sim]
zones = 64
writes = 5000
[expect]
impossible = wa.data < 0.5
fine = device.write_errors == 0
EOF
"$ZL" run "$dir/f.ini" -o "$dir/f" -q --check --junit "$dir/f.xml" >"$dir/f.log" 2>&1
rc=$?
[ $rc = 1 ] || fail "failing expectation: exit $rc, want 1"
grep -q '^- f, point f-0000 (- seed=1): impossible: wa.data = [0-9.]*, expected < 0.5$' "$dir/f.log" ||
	fail "failing expectation: message: $(cat "$dir/f.log")"
if command -v xmllint >/dev/null; then
	[ "$(xmllint --xpath 'count(//testcase[@name="impossible"]/failure)' "$dir/f.xml")" = 1 ] ||
		fail "JUnit: no failure for 'impossible'"
	[ "$(xmllint --xpath 'string(//testsuite/@failures)' "$dir/f.xml")" = 1 ] || fail "JUnit: failures != 1"
	[ "$(xmllint --xpath 'count(//testcase[@name="fine"]/failure)' "$dir/f.xml")" = 0 ] || fail "JUnit: 'fine' failed"
fi
"$ZL" run "$dir/f.ini" -o "$dir/f" -q >/dev/null 2>&1 || fail "without --check a failed expectation exits $?, want 0"

# --- resume: only missing or changed points run
rm "$dir/b/points/t-0003.json"
"$ZL" run "$dir/t.ini" -o "$dir/b" -j 1 --no-plots >"$dir/r.log" 2>&1
grep -q '8 points into .*: 7 already there, 1 to run' "$dir/r.log" || fail "resume: $(head -2 "$dir/r.log")"
cmp -s "$dir/a/results.csv" "$dir/b/results.csv" || fail "resume: results.csv differs"
sed 's/^writes = 40000/writes = 41000/' "$dir/t.ini" >"$dir/t2.ini"
"$ZL" run "$dir/t2.ini" -o "$dir/b" -j 2 --no-plots >"$dir/r2.log" 2>&1
grep -q '0 already there, 8 to run' "$dir/r2.log" || fail "changed arguments not rerun: $(head -2 "$dir/r2.log")"

# --- compare flags what moved (b now has 41000 writes)
"$ZL" compare "$dir/a" "$dir/b" >"$dir/cmp2.log" 2>&1
rc=$?
[ $rc = 1 ] || fail "compare of different runs: exit $rc, want 1"
grep -q 'other arguments' "$dir/cmp2.log" || fail "compare: other arguments not flagged"
"$ZL" run "$dir/t.ini" -o "$dir/c" -q --no-plots >/dev/null 2>&1
sed -i 's/"data": \([0-9.]*\)/"data": 9.5/' "$dir/c/points/t-0001.json"
rm "$dir/c/points/t-0002.json"
"$ZL" compare "$dir/a" "$dir/c" --tolerance 1% >"$dir/cmp3.log" 2>&1
rc=$?
[ $rc = 1 ] || fail "compare with a moved metric: exit $rc, want 1"
grep -q '^t-0001 *wa.data .* FLAG$' "$dir/cmp3.log" || fail "compare: wa.data change not flagged: $(cat "$dir/cmp3.log")"
grep -q '^t-0002 *only in A' "$dir/cmp3.log" || fail "compare: missing point not flagged"
"$ZL" compare "$dir/a" "$dir/c" --metrics device. --tolerance 0 >/dev/null 2>&1
[ $? = 1 ] || fail "compare --metrics: the missing point must still be flagged"
"$ZL" compare "$dir/a" "$dir/c" --tolerance x >/dev/null 2>&1
[ $? = 2 ] || fail "compare --tolerance x: want exit 2"

# --- --points and collect (the Slurm path, locally)
"$ZL" run "$dir/t.ini" -o "$dir/p" -q --points 0-2 >/dev/null 2>&1 || fail "--points 0-2: exit $?"
[ "$(ls "$dir/p/points/" | grep -c '\.json$')" = 3 ] || fail "--points 0-2 ran $(ls "$dir/p/points/" | grep -c json) points"
[ -e "$dir/p/results.csv" ] && fail "--points must not collect"
"$ZL" collect "$dir/p" -q --check --no-plots >"$dir/p.log" 2>&1
[ $? = 1 ] || fail "collect --check with missing points: want exit 1"
grep -q 'not run or unreadable' "$dir/p.log" || fail "collect: missing points not named"
"$ZL" run "$dir/t.ini" -o "$dir/p" -q --points 3-7 >/dev/null 2>&1 || fail "--points 3-7: exit $?"
"$ZL" collect "$dir/p" -q --check --no-plots || fail "collect after all points: exit $?"
cmp -s "$dir/a/results.csv" "$dir/p/results.csv" || fail "--points + collect: results.csv differs from a whole run"
"$ZL" run "$dir/t.ini" -o "$dir/p" --points 5-8 >/dev/null 2>"$dir/pe.log"
[ $? = 2 ] && grep -q 'have points 0-7' "$dir/pe.log" || fail "--points 5-8: $(cat "$dir/pe.log")"
"$ZL" run "$dir/t.ini" --emit-slurm "$dir/s" --chunk 3 >/dev/null || fail "--emit-slurm: exit $?"
grep -q '^#SBATCH --array=0-2$' "$dir/s/slurm.sbatch" || fail "--emit-slurm: no --array=0-2 for 8 points in 3s"

# --- scenario errors through the command line: FILE:LINE, exit 2
bad() {         # bad FILE-CONTENT TEXT
	printf '%b' "$1" >"$dir/bad.ini"
	"$ZL" run "$dir/bad.ini" -o "$dir/bad" >/dev/null 2>"$dir/bad.log"
	local rc=$?
	[ $rc = 2 ] && grep -qF -- "$2" "$dir/bad.log" || fail "bad scenario '$1': exit $rc, stderr: $(cat "$dir/bad.log") (want '$2')"
}
bad '[sim]\nutl = 1\n' "$dir/bad.ini:2: [sim] unknown key 'utl'; accepted: the options of \`zonelab sim\`: devices zones"
bad '[sim]\nutil = [0.5, 1.5]\n' "$dir/bad.ini:2: point 1 (util=1.5 seed=1): sim: --util 1.5: between 0 and 1, exclusive"
bad '[sim]\nzones = 64\nworkload = [uniform, nosuch]\n' "$dir/bad.ini:3: point 1 (workload=nosuch seed=1): workload: unknown value 'nosuch' (one of: seq uniform hotcold"
bad '[sim]\nprofile = raid1\n' "$dir/bad.ini:2: point 0 (- seed=1): sim: --profile raid1 --devices 1: raid1 needs at least 2 devices"
bad '[sim]\ncsv = x\n' "unknown key 'csv' (the runner sets it itself)"
bad '[sim]\nzones = [1 .. 9999]\nutil = [0.1 .. 0.9 step 0.1]\n' "$dir/bad.ini:3: the sweep expands to more than max_points = 10000"
[ -e "$dir/bad" ] && fail "a refused scenario created its result directory"
"$ZL" run "$dir/missing.ini" 2>"$dir/m.log"; [ $? = 2 ] && grep -q 'missing.ini' "$dir/m.log" || fail "missing file"
"$ZL" collect "$dir" 2>/dev/null; [ $? = 2 ] || fail "collect of a non-result directory: want exit 2"

[ $fails -eq 0 ] || { echo "$fails failures"; exit 1; }
echo "ok"
