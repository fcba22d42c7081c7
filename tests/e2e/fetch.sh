#!/bin/bash
# tests/e2e/fetch.sh - download the guest's Debian packages (kernel + userspace)
# and fio's source package into $ZL_E2E_CACHE and unpack them.  Nothing comes
# from the host's installed files.  Cached: reruns only fetch what is missing.
# The user space (and Debian 12's kernel, 6.1) always; E2E_KERNEL other than
# 6.1 is fetched by fetch-kernel.sh into a tree of its own (common.sh).
set -euo pipefail
. "$(dirname "$0")/common.sh"
mkdir -p "$DEBS" "$ROOT"

kpkg=$(apt-cache depends linux-image-amd64 | awk '/Depends: linux-image-[0-9]/ {print $2; exit}')
[ -n "$kpkg" ] || { apt-get update -qq; kpkg=$(apt-cache depends linux-image-amd64 | awk '/Depends: linux-image-[0-9]/ {print $2; exit}'); }
[ -n "$kpkg" ] || e2e_die "cannot resolve linux-image-amd64"

pkgs=$(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts \
	--no-breaks --no-replaces --no-enhances $E2E_PKGS |
	grep -v '^ ' | grep -v '[<:]' | sort -u |
	awk -v want=" $(echo $E2E_PKGS) " '/^lib/ || index(want, " " $0 " ")')
pkgs="$pkgs $kpkg"
stamp=$ZL_E2E_CACHE/pkgs.list
echo $pkgs | tr ' ' '\n' | sort > "$stamp.new"
if [ -f "$stamp" ] && cmp -s "$stamp" "$stamp.new" && [ -f "$ROOT/.unpacked" ]; then
	rm -f "$stamp.new"
else
	# --print-uris prints nothing for files already in the cwd: download
	# into an empty temporary directory, then move into the cache.
	tmp=$(mktemp -d "$ZL_E2E_CACHE/dl.XXXXXX")
	missing=()
	for p in $pkgs; do
		v=$(apt-cache policy "$p" | awk '/Candidate:/ {print $2}')
		f=$(ls "$DEBS/${p}_"*.deb 2>/dev/null | grep -F "_${v//:/%3a}_" | head -1 || true)
		[ -n "$f" ] || missing+=("$p")
	done
	if [ ${#missing[@]} -gt 0 ]; then
		e2e_log "downloading ${#missing[@]} packages into $DEBS"
		(cd "$tmp" && apt-get download -qq "${missing[@]}" >/dev/null)
		mv "$tmp"/*.deb "$DEBS"/ 2>/dev/null || true
	fi
	rmdir "$tmp" 2>/dev/null || rm -rf "$tmp"
	e2e_log "unpacking into $ROOT"
	mkdir -p "$ROOT/.debs"
	for p in $pkgs; do
		v=$(apt-cache policy "$p" | awk '/Candidate:/ {print $2}')
		f=$(ls "$DEBS/${p}_"*.deb | grep -F "_${v//:/%3a}_" | head -1)
		[ -e "$ROOT/.debs/${f##*/}" ] && continue
		dpkg-deb -x "$f" "$ROOT"
		touch "$ROOT/.debs/${f##*/}"
	done
	kver=${kpkg#linux-image-}
	# depmod from the unpacked kmod, run by the unpacked dynamic loader.
	"$LDSO" --library-path "$LIBPATH" \
		--argv0 depmod "$ROOT"/bin/kmod -b "$ROOT" "$kver"
	echo "$kver" > "$ROOT/.kver"
	touch "$ROOT/.unpacked"
	mv "$stamp.new" "$stamp"
fi

# fio's own zoned test suite, from the source package matching the guest fio.
if [ ! -x "$FIO_SRC_DIR"/fio-*/t/zbd/test-zbd-support ]; then
	e2e_log "apt-get source fio into $FIO_SRC_DIR"
	rm -rf "$FIO_SRC_DIR" && mkdir -p "$FIO_SRC_DIR"
	(cd "$FIO_SRC_DIR" && apt-get source -qq fio >/dev/null 2>&1) ||
		e2e_log "warning: apt-get source fio failed (fio suite will SKIP)"
fi
"$E2E_DIR/fetch-kernel.sh"
e2e_log "fetch done: kernel $E2E_KERNEL = $(cat "$KTREE/.kver") ($KTREE)"
