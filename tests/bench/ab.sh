#!/bin/bash
# tests/bench/ab.sh [-n ROUNDS] [-s SECONDS] [-c] REV [bench...] - is the working
# tree slower than REV?  Builds REV in a temporary git worktree under /tmp
# (removed at the end) and the working tree in $O (default build), then
# runs the benches in rounds in which REV and the working tree alternate,
# so drift and the other users of a shared machine hit both alike.  Prints
# every round's ratio (working tree / REV, ops/s: > 1 is faster) per row
# and, per row, the median with min/max and the middle half (interquartile
# range) of the ratios.
#
# bench...: names of tests/bench programs (default bench_tcmu).  bench_tcmu
# runs as one process per round, the working tree's harness holding both
# builds' handler_zonelab.so (ZL_HANDLER_SO and ZL_HANDLER_B_SO, swapping
# slots every round): its rows take turns in short interleaved slices, and
# a round's ratio is the bench's own median of its per-slice ratios, so
# the drift of a shared machine largely cancels.  Any other bench runs as
# each build's own program, REV and the working tree taking turns (A B,
# then B A, ...); its rows are its lines that give a rate (ops/s, zones/s,
# MiB/s ...), the first rate of a line, named by the text before it, or a
# line whose label ends in a rate unit and whose last field is the number
# (bench_sim: "simulated user writes/s  1445951"; times, which are better
# when lower, are not compared).
#
# -c: instructions instead of time, for the handler: tests/bench/bench_ops
# (the working tree's) runs each build's handler_zonelab.so under valgrind
# --tool=callgrind for a fixed number of commands per row and prints the
# instructions per command of each and their ratio (working / REV: below 1
# is fewer).  Deterministic: one run says it; timing cannot see a few
# percent on a shared machine, this can (but not cache or system-call
# costs: use both).
#
# Environment: O (working tree build directory, default build), AB_JOBS
# (make -j, default 2), ZL_BENCH_SECONDS (per row, default 0.5 here; -s),
# BENCH_DIR (scratch directory; default a temporary one in /dev/shm, a
# tmpfs, else under /var/tmp).
# Exit status: 0, or 1 when a build or a bench run failed.
set -euo pipefail
rounds=9 secs=${ZL_BENCH_SECONDS:-0.5} instr=0
while getopts n:s:c o; do
	case $o in
	c) instr=1 ;;
	n) rounds=$OPTARG ;;
	s) secs=$OPTARG ;;
	*) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || { echo "usage: $0 [-n ROUNDS] [-s SECONDS] [-c] REV [bench...]" >&2; exit 2; }
rev=$1; shift
benches=("$@"); [ ${#benches[@]} -gt 0 ] || benches=(bench_tcmu)
repo=$(cd "$(dirname "$0")/../.." && pwd)
O=${O:-build}; case $O in /*) ;; *) O=$repo/$O ;; esac
jobs=${AB_JOBS:-2}
sha=$(git -C "$repo" rev-parse --verify "$rev^{commit}") || { echo "ab: no commit $rev" >&2; exit 1; }

tmp=$(mktemp -d /tmp/zl-ab.XXXXXX)
# tmpfs by default: the rows measure the handler, not the page cache's
# writeback to a disk shared with other users (on /var/tmp 128 KiB writes
# ran at the disk's ~170 MB/s).
if [ -z "${BENCH_DIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then
	scratch=$(mktemp -d /dev/shm/zonelab-ab.XXXXXX)
else
	scratch=${BENCH_DIR:-$(mktemp -d /var/tmp/zonelab-ab.XXXXXX)}
fi
cleanup() {
	git -C "$repo" worktree remove --force "$tmp/src" 2> /dev/null || true
	rm -rf "$tmp"
	[ -n "${BENCH_DIR:-}" ] || rm -rf "$scratch"
}
trap cleanup EXIT

targets() { # BUILD_DIR SIDE: what the benches need (a: REV, b: the working tree)
	local b
	for b in "${benches[@]}"; do
		echo "$1/tests/bench/$b"
		[ "$b" = bench_tcmu ] && echo "$1/handler_zonelab.so"
	done | sort -u
	[ $instr = 0 ] || echo "$1/handler_zonelab.so"
	[ $instr = 0 ] || [ "$2" = a ] || echo "$1/tests/bench/bench_ops"   # (the working tree's runs both)
}
echo "ab: building $rev (${sha:0:12}) in $tmp/src and the working tree in $O (make -j$jobs)"
git -C "$repo" worktree add --detach -q "$tmp/src" "$sha"
make -s -C "$tmp/src" -j"$jobs" O=build $(targets build a) > "$tmp/build-a.log" 2>&1 ||
	{ tail -20 "$tmp/build-a.log"; echo "ab: building $rev failed" >&2; exit 1; }
make -s -C "$repo" -j"$jobs" O="$O" $(targets "$O" b) > "$tmp/build-b.log" 2>&1 ||
	{ tail -20 "$tmp/build-b.log"; echo "ab: building the working tree failed" >&2; exit 1; }

# run SIDE BENCH OUT: one run of a program of side a (REV) or b (the
# working tree).
run() {
	local prog=$O/tests/bench/$2
	[ "$1" = b ] || prog=$tmp/src/build/tests/bench/$2
	ZL_BENCH_SECONDS=$secs "$prog" "$scratch" > "$3" 2> "$3.err"
}

# tcmu_round R OUT: one bench_tcmu run holding both handlers (the working
# tree's harness); the slots swap every round, so neither build always
# runs first in a slice.
tcmu_round() {
	local a=$tmp/src/build/handler_zonelab.so b=$O/handler_zonelab.so
	if (($1 % 2)); then
		ZL_HANDLER_SO=$b ZL_HANDLER_B_SO=$a ZL_FLOOR_SO=/nonexistent ZL_BENCH_SECONDS=$secs \
			"$O/tests/bench/bench_tcmu" "$scratch" > "$2" 2> "$2.err"
	else
		ZL_HANDLER_SO=$a ZL_HANDLER_B_SO=$b ZL_FLOOR_SO=/nonexistent ZL_BENCH_SECONDS=$secs \
			"$O/tests/bench/bench_tcmu" "$scratch" > "$2" 2> "$2.err"
	fi
}

# tcmu_rows R FILE: "row<TAB>REV ops<TAB>working ops<TAB>ratio" from the
# table: the slot columns and the bench's own median of its 20 interleaved
# per-slice ratios (ours/B), turned to working/REV.
tcmu_rows() {
	awk -v swap=$(($1 % 2 ? 0 : 1)) '/^row \(ops\/s\)/ { t = 1; next } t && length($0) > 28 {
		n = substr($0, 1, 28); sub(/ +$/, "", n); split(substr($0, 29), f, " ")
		q = f[5]; sub(/x$/, "", q)
		if (f[1] !~ /^[0-9.]+$/ || f[2] !~ /^[0-9.]+$/ || q !~ /^[0-9.]+$/ || q == 0) next
		if (swap) printf "%s\t%s\t%s\t%.4f\n", n, f[1], f[2], 1 / q
		else printf "%s\t%s\t%s\t%.4f\n", n, f[2], f[1], q }' "$2"
}

# rows FILE: "row name<TAB>ops" per rate the program printed: the first
# rate of a line ("16.73 M ops/s", "249.7 M zones/s"), named by the text
# before it, or a rate named by its unit and printed last ("simulated user
# writes/s   1445951", bench_sim's form).  Target and ratio lines are not
# rates.
rows() {
	awk '/^ *(target|ratio)/ { next }
		match($0, /\/s( \([^)]*\))?[ \t]+[0-9][0-9.]*[ \t]*$/) {
			n = $0; sub(/[ \t]+[0-9][0-9.]*[ \t]*$/, "", n); sub(/^ +/, "", n); gsub(/  +/, " ", n)
			print n "\t" ($NF + 0); next }
		{ if (!match($0, /[0-9][0-9.]* *[kKMG]? *[A-Za-z]*\/s/)) next
		n = substr($0, 1, RSTART - 1); r = substr($0, RSTART, RLENGTH)
		gsub(/[0-9][0-9.]* *(ms|us|ns|s)( |$)/, "", n); gsub(/[()]/, "", n)
		gsub(/  +/, " ", n); sub(/^ +/, "", n); sub(/ +$/, "", n)
		v = r + 0; m = r; sub(/^[0-9.]+ */, "", m)
		if (m ~ /^k/) v *= 1e3; else if (m ~ /^M/) v *= 1e6; else if (m ~ /^G/) v *= 1e9
		if (n != "") print n "\t" v }' "$1"
}

# ir SO ROW COUNT: instructions of one bench_ops run under callgrind.
ir() {
	valgrind --tool=callgrind --callgrind-out-file=/dev/null "$O/tests/bench/bench_ops" "$1" \
		"$scratch" "$2" "$3" 2>&1 | sed -n 's/.*refs: *//p' | tr -d ,
}
# per_op SO: "row<TAB>instructions per command" for each row.
per_op() {
	local w0 w r z
	w0=$(ir "$1" write4k 0); w=$(ir "$1" write4k 20000)
	r=$(ir "$1" read4k 20000); z=$(ir "$1" reset 20000)
	printf 'write4k\t%s\n' $(( (w - w0) / 20000 ))
	printf 'read4k\t%s\n' $(( (r - w) / 20000 ))
	printf 'reset all\t%s\n' $(( (z - w) / 200 ))
	printf 'report 1024 zones\t%s\n' $(( ($(ir "$1" report 50) - $(ir "$1" report 0)) / 50 ))
}
if [ $instr = 1 ]; then
	type valgrind > /dev/null 2>&1 || { echo "ab: -c needs valgrind" >&2; exit 1; }
	echo "== instructions per command (callgrind, bench_ops); ratio = working tree / $rev"
	per_op "$tmp/src/build/handler_zonelab.so" > "$tmp/ir.a"
	per_op "$O/handler_zonelab.so" > "$tmp/ir.b"
	printf '  %-20s %12s %12s %7s\n' row "$rev" working ratio
	paste "$tmp/ir.a" "$tmp/ir.b" | awk -F'\t' '{ printf "  %-20s %12d %12d %7.3f\n", $1, $2, $4, $4 / $2 }'
	exit 0
fi

rc=0
for b in "${benches[@]}"; do
	echo "== $b: $rounds rounds, ${secs} s per row; ratio = working tree / $rev (ops/s)"
	: > "$tmp/$b.ratios"
	for ((r = 1; r <= rounds; r++)); do
		if [ "$b" = bench_tcmu ]; then
			tcmu_round $r "$tmp/$b.out" || { cat "$tmp/$b.out.err" >&2; rc=1; continue 2; }
			tcmu_rows $r "$tmp/$b.out" | awk -F'\t' -v r=$r -v OFS='\t' '{ print $1, r, $2, $3, $4 }' \
				>> "$tmp/$b.ratios"
		else
			if ((r % 2)); then order="a b"; else order="b a"; fi
			for s in $order; do
				run $s "$b" "$tmp/$b.$s.out" || { cat "$tmp/$b.$s.out.err" >&2; rc=1; continue 3; }
				rows "$tmp/$b.$s.out" > "$tmp/$b.$s.rows"
			done
			join -t $'\t' <(sort "$tmp/$b.a.rows") <(sort "$tmp/$b.b.rows") |
				awk -F'\t' -v r=$r '$2 > 0 { printf "%s\t%d\t%s\t%s\t%.4f\n", $1, r, $2, $3, $3 / $2 }' \
				>> "$tmp/$b.ratios"
		fi
		awk -F'\t' -v r=$r '$2 == r { printf "  round %2d  %-30s %12s %12s  %.3f\n", r, $1, $3, $4, $5 }' \
			"$tmp/$b.ratios"
	done
	echo "-- $b summary (ratio working/$rev over $rounds rounds)"
	printf '  %-30s %7s %7s %7s %15s\n' row median min max "middle half"
	sort -t $'\t' -k1,1 -k5,5g "$tmp/$b.ratios" | awk -F'\t' '
		function out() { if (!n) return
			med = n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
			q1 = v[int((n + 3) / 4)]; q3 = v[n - int((n + 3) / 4) + 1]
			printf "  %-30s %7.3f %7.3f %7.3f   %.3f-%.3f\n", row, med, v[1], v[n], q1, q3 }
		$1 != row { out(); row = $1; n = 0 }
		{ v[++n] = $5 }
		END { out() }'
done
exit $rc
