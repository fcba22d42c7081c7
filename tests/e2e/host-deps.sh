#!/bin/bash
# tests/e2e/host-deps.sh - install what the host needs to build and boot the
# e2e VM (idempotent): qemu, cpio, dpkg-dev (apt-get source), and a deb-src
# entry for Debian's fio source package.
set -euo pipefail
need=()
command -v qemu-system-x86_64 >/dev/null || need+=(qemu-system-x86)
command -v cpio >/dev/null || need+=(cpio)
command -v dpkg-source >/dev/null || need+=(dpkg-dev)
command -v iscsi-inq >/dev/null || need+=(libiscsi-bin)
src_missing=0
grep -rqsE '^(Types:.*deb-src|deb-src )' /etc/apt/sources.list /etc/apt/sources.list.d/ || src_missing=1
if [ ${#need[@]} -eq 0 ] && [ $src_missing -eq 0 ]; then exit 0; fi
if [ "$(id -u)" != 0 ]; then
	echo "e2e: as root run: apt-get install ${need[*]} (and add a deb-src entry for bookworm)" >&2
	exit 1
fi
if [ $src_missing -eq 1 ]; then
	cat > /etc/apt/sources.list.d/zonelab-src.sources <<'SRC'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
fi
apt-get update -qq
[ ${#need[@]} -eq 0 ] || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
