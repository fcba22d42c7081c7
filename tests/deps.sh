#!/bin/bash
# tests/deps.sh — make sure the Debian packages zonelab needs are installed.
#   --check    exit 1 with the apt-get line if something is missing
#   --install  install what is missing when root; otherwise print the line and exit 1
# The package list is the single source of truth; .ci/run and the README's
# commands both come through here.
set -u
PKGS=(build-essential pkg-config libglib2.0-dev libcmocka-dev clang libclang-rt-14-dev
      tcmu-runner groff-base gnuplot-nox libxml2-utils slurm-wlm munge python3)
mode=${1:---check}
missing=()
for p in "${PKGS[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
line="apt-get install -y ${missing[*]}"
if [ "$mode" = --install ] && [ "$(id -u)" = 0 ]; then
	echo "zonelab: installing missing packages: ${missing[*]}" >&2
	export DEBIAN_FRONTEND=noninteractive
	if ! apt-get install -y "${missing[@]}" >&2; then
		apt-get update >&2 && apt-get install -y "${missing[@]}" >&2 || {
			echo "zonelab: '$line' failed" >&2; exit 1; }
	fi
	exit 0
fi
echo "zonelab: missing Debian packages: ${missing[*]}" >&2
echo "zonelab: run as root:  $line" >&2
exit 1
