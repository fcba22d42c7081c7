#!/bin/bash
# 030-tcmu-abi.sh — emulator/tcmu/tcmu_abi.h matches tcmu-runner 1.5.4.
# Builds tests/tcmu_abi/abi_probe.c against our header and against the
# upstream headers (TCMU_SRC, else /var/tmp/tcmu-src/tcmu*-1.5.4, else the
# cache of tests/tcmu-src.sh) and diffs the printed sizeof/offsetof/values;
# the upstream build also redeclares our prototypes after upstream's, so a
# differing prototype is a compile error.  Skips (77) without the source.
set -u
cd "$(dirname "$0")/../.."
O=${O:-build}
src=${TCMU_SRC:-}
if [ -z "$src" ]; then
	for d in /var/tmp/tcmu-src/tcmu-runner-1.5.4 /var/tmp/tcmu-src/tcmu-1.5.4; do
		[ -f "$d/tcmu-runner.h" ] && { src=$d; break; }
	done
fi
[ -z "$src" ] && src=$(tests/tcmu-src.sh --print 2>/dev/null || true)
if [ -z "$src" ] || [ ! -f "$src/tcmu-runner.h" ]; then
	echo "skip: tcmu-runner 1.5.4 source not found (set TCMU_SRC or run tests/tcmu-src.sh)"
	exit 77
fi
if [ -f "$src/debian/changelog" ] && ! head -1 "$src/debian/changelog" | grep -q '(1\.5\.4'; then
	echo "FAIL: $src is not tcmu-runner 1.5.4: $(head -1 "$src/debian/changelog")"; exit 1
fi
out=$O/tests/tcmu_abi; mkdir -p "$out"
CC=${CC:-cc}
$CC -std=gnu11 -Wall -Wextra -Werror -Iemulator -o "$out/probe-ours" tests/tcmu_abi/abi_probe.c || exit 1
$CC -std=gnu11 -Wall -DZL_UPSTREAM -Iemulator -I"$src" -I"$src/ccan" \
	-o "$out/probe-upstream" tests/tcmu_abi/abi_probe.c || { echo "FAIL: prototypes or types differ from $src"; exit 1; }
"$out/probe-ours" > "$out/ours.txt" && "$out/probe-upstream" > "$out/upstream.txt" || exit 1
if ! diff -u "$out/upstream.txt" "$out/ours.txt"; then
	echo "FAIL: tcmu_abi.h layout differs from $src"; exit 1
fi
echo "ok: $(wc -l < "$out/ours.txt") layout lines identical to $src"
# Every tcmu symbol our plugin imports must be exported by the real daemon.
so=$O/handler_zonelab.so
runner=/usr/bin/tcmu-runner; libtcmu=/usr/lib/x86_64-linux-gnu/libtcmu.so.2
if [ -f "$so" ] && [ -f "$runner" ] && [ -f "$libtcmu" ]; then
	exported=$(nm -D --defined-only "$runner" "$libtcmu" | awk 'NF==3{print $3}' | sort -u)
	for sym in $(nm -D --undefined-only "$so" | awk '/tcmu/{print $2}'); do
		grep -qx "$sym" <<<"$exported" || { echo "FAIL: $so imports $sym, which tcmu-runner 1.5.4 does not export"; exit 1; }
	done
	echo "ok: every tcmu symbol $so imports is exported by $runner or $libtcmu"
fi
