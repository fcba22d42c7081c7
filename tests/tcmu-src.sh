#!/bin/bash
# tests/tcmu-src.sh [--print] — fetch tcmu-runner's Debian source (1.5.4) into
# a cache directory outside the repository, idempotently, and print the path
# of the unpacked tree on stdout.  Used by .ci/run and by the ABI check.
#   cache: $ZL_CACHE_DIR, else $XDG_CACHE_HOME/zonelab, else /var/cache/zonelab
#          (root) or ~/.cache/zonelab.
#   --print  only print the path if the tree is already there (exit 1 if not).
# Needs a deb-src entry for bookworm and dpkg-dev (dpkg-source); as root it
# adds /etc/apt/sources.list.d/zonelab-src.sources when none exists.
set -eu
want=1.5.4
if [ -n "${ZL_CACHE_DIR:-}" ]; then cache=$ZL_CACHE_DIR
elif [ -n "${XDG_CACHE_HOME:-}" ]; then cache=$XDG_CACHE_HOME/zonelab
elif [ "$(id -u)" = 0 ]; then cache=/var/cache/zonelab
else cache=$HOME/.cache/zonelab; fi
dir=$cache/tcmu-src
tree=$dir/tcmu-$want
if [ -f "$tree/tcmu-runner.h" ]; then echo "$tree"; exit 0; fi
[ "${1:-}" = --print ] && exit 1
mkdir -p "$dir"
has_src() { apt-get source --print-uris tcmu-runner >/dev/null 2>&1; }
if ! has_src; then
	if [ "$(id -u)" = 0 ]; then
		printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: bookworm\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
			> /etc/apt/sources.list.d/zonelab-src.sources
		apt-get update >&2
	fi
	has_src || { echo "tcmu-src: no deb-src entry for tcmu-runner (add one and apt-get update)" >&2; exit 1; }
fi
command -v dpkg-source >/dev/null || { echo "tcmu-src: dpkg-source missing (apt-get install dpkg-dev)" >&2; exit 1; }
(cd "$dir" && apt-get source tcmu-runner >&2)
[ -f "$tree/tcmu-runner.h" ] || { echo "tcmu-src: unpacked tree not found at $tree" >&2; exit 1; }
echo "$tree"
