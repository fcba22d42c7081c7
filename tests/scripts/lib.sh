# tests/scripts/lib.sh - the preamble the check scripts share, sourced
# (`. "$(dirname "$0")/lib.sh"`): ZL, the zonelab binary of $O (default
# build) as an absolute path, or SKIP (exit 77) when it is not built; src,
# the repository; dir, a scratch directory removed at exit; fails and
# fail MSG (counts, the script ends with `exit $((fails > 0))`); run ARGS...
# (zonelab's exit status in $rc, stdout in $dir/out, stderr in $dir/err).
set -u
ZL=${O:-build}/zonelab
[ -x "$ZL" ] || { echo "SKIP: $ZL not built"; exit 77; }
ZL=$(realpath "$ZL")
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
run() { "$ZL" "$@" >"$dir/out" 2>"$dir/err"; rc=$?; }
