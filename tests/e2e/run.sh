#!/bin/bash
# tests/e2e/run.sh [short|full] - build the VM from Debian packages, boot it
# with qemu (software emulation), run the guest checks, bring the results
# back and exit non-zero when a check failed or the guest did not finish.
#
# Environment: ZL_E2E_CACHE (downloads, kernel, initramfs; default
# /var/cache/zonelab-e2e), O (build dir holding handler_zonelab.so and
# zonelab; default build), E2E_HANDLER (auto|zonelab|zbc; auto = zonelab when
# $O/handler_zonelab.so exists), E2E_ONLY (comma list of check names),
# E2E_MEM (guest MiB), E2E_TIMEOUT (s), E2E_OUT (result directory),
# E2E_KERNEL (6.1 = Debian 12's, the default; 6.12, 7.3: Debian 13's and
# trixie-backports', fetched by fetch-kernel.sh).  The kernel booted is
# recorded in the results: kernel.txt, the boot line, every results.jsonl
# object ("kernel"), and the run directory's name.
set -euo pipefail
. "$(dirname "$0")/common.sh"
mode=${1:-short}
case $mode in short|full) ;; *) e2e_die "usage: $0 [short|full]" ;; esac
O=${O:-build}; case $O in /*) ;; *) O=$REPO_DIR/$O ;; esac
handler=${E2E_HANDLER:-auto}
if [ "$handler" = auto ]; then
	if [ -f "$O/handler_zonelab.so" ]; then handler=zonelab; else handler=zbc; fi
fi
[ "$handler" != zonelab ] || [ -f "$O/handler_zonelab.so" ] || e2e_die "$O/handler_zonelab.so not built"
out=${E2E_OUT:-$ZL_E2E_CACHE/runs/$mode-$handler-k$E2E_KERNEL-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$out/logs"
t_start=$(date +%s.%N)

"$E2E_DIR/host-deps.sh"
"$E2E_DIR/fetch.sh"
initrd=$out/initramfs.cpio   # per run; removed when qemu is done
E2E_MODE=$mode E2E_HANDLER=$handler "$E2E_DIR/mkinitramfs.sh" "$initrd" "$O"
kver=$(cat "$KTREE/.kver")
printf 'kernel=%s\nversion=%s\npackages=%s\n' "$E2E_KERNEL" "$kver" \
	"$(cat "$KTREE/.debs/list" 2>/dev/null || grep '^linux-image-' "$ZL_E2E_CACHE/pkgs.list")" > "$out/kernel.txt"
if [ $mode = full ]; then mem=${E2E_MEM:-6144}; tmo=${E2E_TIMEOUT:-7200}; else mem=${E2E_MEM:-3072}; tmo=${E2E_TIMEOUT:-900}; fi

e2e_log "booting $kver, handler $handler, mode $mode, ${mem} MiB; results in $out"
t_boot=$(date +%s.%N)
# No -enable-kvm (hangs here).  No network device: iSCSI runs over the
# guest's own loopback.
set +e
timeout -k 10 "$tmo" qemu-system-x86_64 -M pc -cpu qemu64 -smp 1 -m "$mem" \
	-nographic -no-reboot -net none \
	-kernel "$KTREE/boot/vmlinuz-$kver" -initrd "$initrd" \
	-append "console=ttyS0 panic=-1 quiet loglevel=3 rdinit=/init" < /dev/null 2>&1 |
while IFS= read -r l; do
	l=${l%$'\r'}
	printf '%s\n' "$l" >> "$out/console.log"
	case $l in
	*"@@E2E START"*) printf 'host: guest /init after %.1fs\n' \
		"$(awk -v a="$(date +%s.%N)" -v b="$t_boot" 'BEGIN { print a - b }')" | tee "$out/boot.txt" ;;
	"@@E2E RESULT "*) echo "${l#@@E2E RESULT }" ;;
	"@@E2E SUMMARY"*|"@@E2E END"*) echo "$l" ;;
	"@@E2E PROGRESS "*) printf '[%s] %s\n' "$(date +%H:%M:%S)" "${l#@@E2E PROGRESS }" ;;
	"  | "*) echo "$l" ;;
	esac
done
qrc=${PIPESTATUS[0]}
set -e
rm -f "$initrd"

# Results and the logs the guest dumped between markers.
sed -n 's/^@@E2E RESULT //p' "$out/console.log" > "$out/results.txt"
awk -v dir="$out/logs" '
	/^@@E2E FILE / { f = dir "/" $3; next }
	/^@@E2E EOF/ { close(f); f = ""; next }
	f != "" && /^@@\| / { sub(/^@@\| /, ""); print > f }' "$out/console.log"
npass=$(grep -c '^PASS' "$out/results.txt" || true)
nfail=$(grep -c '^FAIL' "$out/results.txt" || true)
nskip=$(grep -c '^SKIP' "$out/results.txt" || true)
total=$(awk -v a="$(date +%s.%N)" -v b="$t_start" 'BEGIN { printf "%.0f", a - b }')
if ! grep -q '^@@E2E END' "$out/console.log"; then
	echo "FAIL guest_finished ${total}s guest did not finish (qemu rc $qrc; see $out/console.log)" | tee -a "$out/results.txt"
	tail -30 "$out/console.log"
	nfail=$((nfail + 1))
fi
# Machine-readable copy: one JSON object per line.
awk -v k="$kver" '{ st = $1; name = $2; secs = $3; sub(/s$/, "", secs); $1 = $2 = $3 = ""; r = $0; sub(/^ +/, "", r);
	gsub(/\\/, "\\\\", r); gsub(/"/, "\\\"", r);
	printf "{\"status\":\"%s\",\"name\":\"%s\",\"seconds\":%s,\"kernel\":\"%s\",\"reason\":\"%s\"}\n", st, name, secs, k, r }' \
	"$out/results.txt" > "$out/results.jsonl"
echo "e2e $mode ($handler, kernel $kver): ${total}s wall clock, results in $out"
echo "e2e: $npass passed, $nfail failed, $nskip skipped"
ln -sfn "$out" "$ZL_E2E_CACHE/runs/last-$mode"
ln -sfn "$out" "$ZL_E2E_CACHE/runs/last-$mode-$E2E_KERNEL"
[ "$nfail" = 0 ] && [ "$npass" -gt 0 ]
