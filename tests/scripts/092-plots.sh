#!/bin/bash
# 092-plots.sh — `zonelab plot` with real gnuplot on a result directory
# made here by a quick deterministic run (3 policies x 5 utilizations x 2
# placements, hot/cold writes, 2 seeds: 30 configurations): every kind is
# drawn, and tests/plotcheck.py checks what each promises from its script
# and SVG (panel count, series per panel, legends outside the data,
# Okabe-Ito colours, no text outside the canvas); the analytic curves go
# only where a model applies; drawing twice writes the same bytes; a
# scenario's own [plot NAME] is drawn; unknown metric, parameter, kind,
# point, distribution and an empty or foreign directory exit 2 with a
# message that says what is accepted.
set -u
ZL=${O:-build}/zonelab
[ -x "$ZL" ] || { echo "SKIP: $ZL not built"; exit 77; }
command -v gnuplot >/dev/null || { echo "SKIP: gnuplot missing (tests/deps.sh installs it)"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: python3 missing (tests/deps.sh installs it)"; exit 77; }
ZL=$(realpath "$ZL")
src=$(cd "$(dirname "$0")/../.." && pwd)
chk="python3 $src/tests/plotcheck.py"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails+1)); }

cat >"$dir/p.ini" <<'INI'
[scenario]
name = p30
description = 3 policies x 5 utilizations x 2 placements, hot/cold writes
seeds = [1, 2]
[devices]
zones = 64
zone-size = 256K
[fs-core]
no-metadata = true
[workload]
workload = hotcold
hot-r = 0.9
hot-f = 0.1
util = [0.5 .. 0.9 step 0.1]
writes = 8000
[cleaning]
clean = [fifo, greedy, cost-benefit]
placement = [one-log, hint]
[output]
sample-ms = 20
[plot resets]
kind = bars
x = util
y = device.zone_resets
series = placement
facet = clean
INI
"$ZL" run "$dir/p.ini" -o "$dir/r" -j 2 -q >"$dir/run.log" 2>&1 || fail "run: exit $?: $(tail -3 "$dir/run.log")"
P=$dir/r/plots
check() { out=$($chk "$@") || fail "$out"; }

# --- the built-in plots: x = util (numeric), series = clean, facet = placement
check "$P/wa_util" --panels 2 --series 3 --shared-key
check "$P/wa_bars" --panels 2 --series 3 --shared-key
# 30 configurations: one CDF panel per utilization, 6 configurations in each
check "$P/latency_cdf" --panels 5 --series 6 --shared-key
# 3 metrics x 5 columns of 6 configurations
check "$P/timeseries" --panels 15 --series 6
check "$P/zone_timeline" --panels 1
check "$P/resets" --panels 3 --series 2 --shared-key
for p in wa_util wa_bars latency_cdf timeseries zone_timeline resets; do
	for x in png svg gp dat; do [ -s "$P/$p.$x" ] || fail "no plots/$p.$x"; done
	head -c 8 "$P/$p.png" | od -An -tx1 | grep -q '89 50 4e 47' || fail "$p.png is not a PNG"
	if gnuplot -e 'set terminal' 2>&1 | grep -q pdfcairo; then
		head -c 5 "$P/$p.pdf" | grep -q '%PDF' || fail "$p.pdf is not a PDF"
	fi
done
# the analytic curves where a model applies, nothing for cost-benefit
grep -q 'panel 0 "placement=one-log", series "clean=fifo", analytic: Eq. 14' "$P/wa_util.dat" || fail "one log, FIFO: no Eq. 14"
grep -q 'panel 0 "placement=one-log", series "clean=greedy", analytic: Eq. 16' "$P/wa_util.dat" || fail "one log, greedy: no Eq. 16"
grep -q 'panel 1 "placement=hint", series "clean=greedy", analytic: two-log bound' "$P/wa_util.dat" || fail "hint: no two-log bound"
# (the two-log bound is a bound for any policy under hint placement; Eqs. 14/16 model FIFO and greedy only)
grep 'one-log", series "clean=cost-benefit' "$P/wa_util.dat" | grep -q analytic && fail "cost-benefit on one log got an analytic curve"
grep -q 'hint", series "clean=cost-benefit", analytic: two-log bound' "$P/wa_util.dat" || fail "cost-benefit, hint: no two-log bound"
grep -q 'set title "placement=hint; analytic: two-log bound"' "$P/wa_util.gp" || fail "hint panel title"
# bars: horizontal labels, one group per utilization
grep -q 'set xtics ("0.5" 0, "0.6" 1, "0.7" 2, "0.8" 3, "0.9" 4) scale 0' "$P/wa_bars.gp" || fail "wa_bars: x groups"
grep -q 'rotate' "$P/wa_bars.gp" && fail "wa_bars: rotated labels"
# the title names the scenario and the fixed parameters
grep -q 'set multiplot title "p30 .*zones=64.*workload=hotcold' "$P/wa_util.gp" || fail "title without the fixed parameters"
# the CDF is the whole histogram: many points per configuration, F ends at 1
[ "$(sed -n '/^# block 0:/,/^$/p' "$P/latency_cdf.dat" | grep -c '^[0-9]')" -gt 20 ] || fail "latency_cdf: a few points, not a distribution"
sed -n '/^# block 0:/,/^$/p' "$P/latency_cdf.dat" | grep '^[0-9]' | tail -1 | grep -q ' 1$' || fail "latency_cdf: F does not reach 1"

# --- every kind on demand
"$ZL" plot "$dir/r" --kind line --x wa.util_effective --y wa.data --series clean --facet placement -o eff >/dev/null || fail "--x metric: exit $?"
# x is a metric: util stays a swept parameter, so it joins the series (clean x util = 15): 3 panels a placement
check "$P/eff" --panels 6
"$ZL" plot "$dir/r" --kind line --x util --y reorder_latency_ns.p99 -o p99 >/dev/null || fail "p99: exit $?"
check "$P/p99" --panels 2 --series 3
grep -q 'analytic' "$P/p99.gp" && fail "an analytic WA curve on a latency plot"
grep -q 'set ylabel "reorder_latency.p99 (us)"' "$P/p99.gp" || fail "latency axis without its unit"
# everything in one panel's series: 30 series, split into panels of at most 6
"$ZL" plot "$dir/r" --kind line --x util --series clean --facet placement --y wa.total -o tot >/dev/null || fail "tot: exit $?"
check "$P/tot" --panels 2
"$ZL" plot "$dir/r" --kind bars --x clean --series placement --facet util -o byclean >/dev/null || fail "bars by clean: exit $?"
check "$P/byclean" --panels 5 --series 2
"$ZL" plot "$dir/r" --kind cdf --ccdf -o tail >/dev/null || fail "ccdf: exit $?"
check "$P/tail" --panels 5 --series 6
grep -q 'set logscale y' "$P/tail.gp" || fail "ccdf: y not logarithmic"
"$ZL" plot "$dir/r" --kind timeseries --y interval_wa --smooth 5 -o wa_ts >/dev/null || fail "timeseries: exit $?"
check "$P/wa_ts" --panels 5 --series 6
grep -q 'moving average of 5 samples' "$P/wa_ts.dat" || fail "smoothing window not applied"
"$ZL" plot "$dir/r" --kind zones --point p30-0007 -o z7 >/dev/null || fail "zones --point: exit $?"
check "$P/z7" --panels 1
grep -q 'point p30-0007' "$P/z7.dat" || fail "zones --point: another point drawn"
grep -q 'set palette maxcolors 7' "$P/z7.gp" || fail "zones: palette not discrete"
# determinism: the same scripts and data twice
cp "$P/wa_util.gp" "$P/wa_util.dat" "$P/latency_cdf.dat" "$dir/"
"$ZL" plot "$dir/r" >/dev/null 2>&1 || fail "redraw: exit $?"
for f in wa_util.gp wa_util.dat latency_cdf.dat; do cmp -s "$dir/$f" "$P/$f" || fail "$f differs when drawn again"; done

# --- compare --plot: every configuration before and after, the change on the right axis
cp -r "$dir/r" "$dir/r2"
sed -i 's/"data": \([0-9.]*\)/"data": 2.5/' "$dir/r2/points/p30-0000.json" "$dir/r2/points/p30-0001.json"
"$ZL" compare "$dir/r" "$dir/r2" --plot >"$dir/cmp.log" 2>&1
[ $? = 1 ] || fail "compare --plot of changed runs: exit $?, want 1 (flagged)"
check "$dir/r2/plots/compare" --panels 1 --series 2
[ "$(grep -c '^[0-9]' "$dir/r2/plots/compare.dat")" = 30 ] || fail "compare: want 30 configurations"
grep -q '^29 .* 2.5 0 [0-9.]* "util=0.5 clean=fifo placement=one-log"$' "$dir/r2/plots/compare.dat" ||
	fail "compare: first configuration: $(grep '^29 ' "$dir/r2/plots/compare.dat")"
grep -q 'y2tic(sprintf("%+.1f%%", $6))' "$dir/r2/plots/compare.gp" || fail "compare: no change in percent"
"$ZL" compare "$dir/r" "$dir/r2" --plot --y nope >"$dir/cmp.log" 2>&1
[ $? = 2 ] || fail "compare --plot --y nope: exit $?, want 2"
grep -q "unknown metric 'nope' in both directories" "$dir/cmp.log" || fail "compare --y nope: $(cat "$dir/cmp.log")"

# --- trace replay: the per-op latency histograms; a distribution that is all 0 is a note
cat >"$dir/rp.ini" <<INI
[scenario]
name = rp
[sim]
trace = $src/tests/data/msr.csv
zone-size = 256K
util = [0.6, 0.7]
timing = timed
INI
"$ZL" run "$dir/rp.ini" -o "$dir/rp" -q >"$dir/rp.log" 2>&1 || fail "replay run: exit $?: $(tail -3 "$dir/rp.log")"
grep -q '^- latency_cdf: reorder_latency_ns is 0 in every configuration (no workers?)' "$dir/rp/report.md" ||
	fail "replay run: report.md has no note for the empty reorder CDF"
"$ZL" plot "$dir/rp" --kind cdf --y replay.requests.write.latency_ns -o wlat >/dev/null || fail "write latency CDF: exit $?"
check "$dir/rp/plots/wlat" --panels 1 --series 2
[ "$(grep -c '^[0-9]' "$dir/rp/plots/wlat.dat")" -gt 10 ] || fail "write latency CDF: a few points"

# --- the checker itself catches a clipped label
sed 's/translate(\([0-9.]*\),18\.25)/translate(5000,18.25)/' "$P/wa_util.svg" >"$P/clip.svg"
cp "$P/wa_util.gp" "$P/clip.gp"
$chk "$P/clip" >/dev/null && fail "plotcheck.py missed a text outside the canvas"
sed 's/set key outside at screen [0-9.]*/set key outside at screen 0.1000/' "$P/wa_util.gp" >"$P/clip.gp"
$chk "$P/clip" >/dev/null && fail "plotcheck.py missed a legend over the data"

# --- errors: exit 2 and a message that says what is accepted
err() {         # want-regexp args...
	local want=$1; shift
	"$ZL" plot "$@" >"$dir/e.out" 2>"$dir/e.err"
	rc=$?
	[ $rc = 2 ] || fail "plot $*: exit $rc, want 2"
	grep -q -- "$want" "$dir/e.err" || fail "plot $*: message: $(cat "$dir/e.err")"
}
err "unknown metric 'nope'.*metrics: " "$dir/r" --y nope
err "unknown parameter 'nope'; swept: util clean placement" "$dir/r" --x nope
err "unknown parameter 'nope' for --series" "$dir/r" --series nope
err "not a kind of plot; accepted: line bars cdf timeseries zones" "$dir/r" --kind pie
err "unknown distribution 'wa.data'.*distributions: reorder_latency_ns" "$dir/r" --kind cdf --y wa.data
err "no point 'nope'" "$dir/r" --kind zones --point nope
err "unknown time-series metric 'nope'" "$dir/r" --kind timeseries --y nope
err "a file name without '/'" "$dir/r" -o ../x
err "smooth '0'" "$dir/r" --smooth 0
err "not a result directory" "$dir" --kind line
mkdir -p "$dir/empty/scenarios" && cp "$dir/r/scenarios/"* "$dir/empty/scenarios/"
err "no points to plot" "$dir/empty" --kind line
err "no points to plot" "$dir/empty"
# a scenario's [plot NAME] is checked when loaded: FILE:LINE and what is accepted
for bad in 'kind = pie|not a kind of plot' 'colour = red|unknown key .colour.; accepted: kind x y' \
	'smooth = 0|not a number of samples'; do
	printf '[scenario]\nname = b\n[sim]\nzones = 64\n[plot w]\n%s\n' "${bad%%|*}" >"$dir/b.ini"
	"$ZL" run "$dir/b.ini" -o "$dir/b" -q >"$dir/b.log" 2>&1
	rc=$?
	[ $rc = 2 ] || fail "[plot w] ${bad%%|*}: exit $rc, want 2"
	grep -q "b.ini:6: \[plot w\] .*${bad#*|}" "$dir/b.log" || fail "[plot w] ${bad%%|*}: $(cat "$dir/b.log")"
done
printf '[scenario]\nname = b\n[plot a/b]\nkind = line\n' >"$dir/b.ini"
"$ZL" run "$dir/b.ini" -o "$dir/b" -q >"$dir/b.log" 2>&1
grep -q "b.ini:4: \[plot a/b\] kind: 'a/b': a plot's name is 1 to 64" "$dir/b.log" || fail "bad plot name: $(cat "$dir/b.log")"

[ $fails = 0 ] && echo "ok"
exit $((fails > 0))
