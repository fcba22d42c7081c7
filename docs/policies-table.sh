#!/bin/bash
# docs/policies-table.sh [ZONELAB] — the hot/cold table of docs/POLICIES.md:
# data WA (mean, min-max over seeds 1-3) per victim policy x placement x
# workload x utilization, 300 zones of 256 KiB (Np = 64), data only, no
# reordering, 150k warmup + 150k measured writes; bound = the two-log
# bound (Eqs. 20-22), one-log = Eq. 16 (greedy, one log).  Runs a private
# copy of the binary (a rebuild meanwhile does not disturb it).
set -eu
bin=$(mktemp /tmp/zonelab-table.XXXXXX)
trap 'rm -f "$bin"' EXIT
cp "${1:-build/zonelab}" "$bin"
chmod +x "$bin"
echo "| hot r/f | u | placement | policy | WA mean | min-max | two-log bound | one-log Eq.16 |"
echo "|---|---|---|---|---|---|---|---|"
for wl in "0.9 0.1" "0.95 0.05"; do
	set -- $wl
	for u in 0.8 0.85; do
		for pl in one-log hint hint:reloc=1; do
			for pol in fifo greedy cost-benefit cat d-choices windowed btrfs:threshold=90; do
				vals="" bound="" one=""
				for seed in 1 2 3; do
					out=$("$bin" sim --seed $seed --zones 300 --zone-size 256K \
						--no-metadata --workers 0 --qd 1 --dev-cmd-us 0 --dev-bw 0 \
						--workload hotcold --hot-r $1 --hot-f $2 --util $u \
						--warmup 150000 --writes 150000 --clean $pol --placement $pl)
					vals="$vals $(echo "$out" | grep -o '"data": [0-9.]*' | head -1 | cut -d' ' -f2)"
					bound=$(echo "$out" | grep -o '"oracle_two_log_bound": [0-9.]*' | cut -d' ' -f2)
					one=$(echo "$out" | grep -o '"oracle_hotcold_greedy": [0-9.]*' | cut -d' ' -f2)
				done
				echo "$1/$2 $u $pl $pol $bound $one $vals" | awk '{n=0; s=0; mn=1e9; mx=0
					for (i = 7; i <= NF; i++) { s += $i; n++; if ($i < mn) mn = $i; if ($i > mx) mx = $i }
					printf "| %s | %s | %s | %s | %.3f | %.3f-%.3f | %.3f | %.3f |\n", $1, $2, $3, $4, s / n, mn, mx, $5, $6}'
			done
		done
	done
done
