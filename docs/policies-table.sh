#!/bin/bash
# hot/cold table: WA (data) mean and spread over seeds, per victim policy
Z=${Z:-build/zonelab}
for wl in "0.9 0.1" "0.95 0.05"; do set -- $wl; r=$1; f=$2
for u in 0.8 0.85; do for pl in hint hint:reloc=1; do
for pol in fifo greedy cost-benefit cat d-choices windowed btrfs:threshold=90; do
  vals=""; bound=""
  for seed in 1 2 3; do
    out=$($Z sim --seed $seed --zones 300 --zone-size 256K --no-metadata --workers 0 --qd 1 --dev-cmd-us 0 --dev-bw 0 \
      --workload hotcold --hot-r $r --hot-f $f --util $u --warmup 150000 --writes 150000 --clean $pol --placement $pl)
    vals="$vals $(echo "$out" | grep -o '"data": [0-9.]*' | head -1 | cut -d' ' -f2)"
    bound=$(echo "$out" | grep -o '"oracle_two_log_bound": [0-9.]*' | cut -d' ' -f2)
    one=$(echo "$out" | grep -o '"oracle_hotcold_greedy": [0-9.]*' | cut -d' ' -f2)
  done
  echo "$r/$f $u $pl $pol $bound $one $vals" | awk '{n=0;s=0;mn=1e9;mx=0;for(i=7;i<=NF;i++){s+=$i;n++;if($i<mn)mn=$i;if($i>mx)mx=$i} printf "| %s | %s | %s | %s | %.3f | %.3f-%.3f | %.3f | %.3f |\n",$1,$2,$3,$4,s/n,mn,mx,$5,$6}'
done; done; done; done
