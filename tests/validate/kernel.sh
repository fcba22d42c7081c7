#!/bin/bash
# tests/validate/kernel.sh - make validate-kernel: the kernel side of the
# fs-core/kernel comparison (issue 22, docs/VALIDATION.md).  Runs the e2e
# check kernel_wa in the VM over a grid of points "F,T,SEED" (file F% of the
# 1 GiB disk, data bg_reclaim_threshold T, fio seed SEED), a few points per
# boot, and stores each point's measurements (kwa-F-T-SEED.out and .idx) in
# KWA_DATA (default tests/data/kernel-KERNEL: tests/data/kernel-6.1 for
# Debian 12's 6.1, the default; E2E_KERNEL=6.12 or 7.3, `make validate-kernel
# KERNEL=6.12`, boots that kernel, docs/E2E.md "Kernels"), where `make check`
# replays them in fs-core.  Resumable: a point already stored is skipped
# (KWA_FORCE=1 measures it again).  Then prints the comparison table.
# Knobs: KWA_FILLS (25 35 45 50), KWA_THRESHOLDS (75 50), KWA_SEEDS (1 2 3),
# KWA_NO_TABLE=1 (measure only), KWA_BATCH (points per boot, 3), KWA_POINT_S (a point's time limit, 900 s), and the check's own KWA_* (E2E.md).
# KWA_SHAPE: settings added to every point (the check's KEY=VALUE list,
# comma separated, e.g. tag=hot90,dist=zoned:90/10:10/90; issue 31): with
# a tag the points are stored as kwa-TAG-F-T-SEED.*.
# KWA_LIST: the points themselves, in place of the grid ("F,T,SEED[,K=V...]"
# separated by spaces, each with settings of its own, e.g. one boot of three
# shapes: "25,75,1,tag=files,wl=files 25,75,1,tag=applog,wl=applog ...").
set -euo pipefail
cd "$(dirname "$0")/../.."
O=${O:-build}
kernel=${E2E_KERNEL:-6.1}
data=${KWA_DATA:-tests/data/kernel-$kernel}
shape=${KWA_SHAPE:+,$KWA_SHAPE}
tag=$(tr ',' '\n' <<< "${KWA_SHAPE:-}" | sed -n 's/^tag=//p')
mkdir -p "$data"
# pid F,T,SEED[,K=V...] - the point's id (TAG-F-T-SEED with a tag= setting)
pid() { local t; t=$(tr ',' '\n' <<< "$1" | sed -n 's/^tag=//p' | tail -1); IFS=, read -r -a f <<< "$1"; echo "${t:+$t-}${f[0]}-${f[1]}-${f[2]}"; }
todo=()
if [ -n "${KWA_LIST:-}" ]; then
	for p in $KWA_LIST; do
		if [ -s "$data/kwa-$(pid "$p").out" ] && [ -z "${KWA_FORCE:-}" ]; then continue; fi
		todo+=("$p")
	done
else
for f in ${KWA_FILLS:-25 35 45 50}; do
	for t in ${KWA_THRESHOLDS:-75 50}; do
		for s in ${KWA_SEEDS:-1 2 3}; do
			if [ -s "$data/kwa-${tag:+$tag-}$f-$t-$s.out" ] && [ -z "${KWA_FORCE:-}" ]; then continue; fi
			todo+=("$f,$t,$s$shape")
		done
	done
done
fi
echo "validate-kernel: ${#todo[@]} point(s) to measure, results in $data"
batch=${KWA_BATCH:-3}
for ((i = 0; i < ${#todo[@]}; i += batch)); do
	pts="${todo[*]:i:batch}"
	out=${ZL_E2E_CACHE:-/var/cache/zonelab-e2e}/runs/kwa-k$kernel-$(date +%Y%m%d-%H%M%S)-$$
	echo "validate-kernel: points $pts"
	# ~2-6 min a point here (software-emulated VM): the check's timeout scales
	per=${KWA_POINT_S:-900}  # a larger disk or smaller writes take longer
	KWA_POINTS="$pts" KWA_TMO=$((batch * per)) E2E_TIMEOUT=$((batch * per + 300)) \
		E2E_KERNEL=$kernel E2E_ONLY=attach,kernel_wa E2E_OUT=$out O=$O tests/e2e/run.sh full || true
	for p in $pts; do
		id=$(pid "$p")
		if [ -s "$out/logs/kwa-$id.out" ] && grep -q '"phase"' "$out/logs/kwa-$id.out"; then
			cp "$out/logs/kwa-$id.out" "$data/"
			# the offsets, compressed (about 100 KiB a point as text)
			[ ! -s "$out/logs/kwa-$id.idx" ] || gzip -9 < "$out/logs/kwa-$id.idx" > "$data/kwa-$id.idx.gz"
		else
			echo "validate-kernel: point $p left no results (see $out)" >&2
		fi
	done
done
[ -n "${KWA_NO_TABLE:-}" ] || python3 tests/validate/kwa.py table "$data" --zonelab "$O/zonelab" --json "$O/kernel-$kernel-table.json"
