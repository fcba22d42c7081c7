#!/bin/bash
# tests/run-bench.sh BUILD_DIR bench-binaries...
# Runs each benchmark in turn; each prints its own table with ratios against
# a baseline measured in the same process.  BENCH_DIR sets the scratch
# directory for backing files (default: a temporary directory under /var/tmp).
set -u
O=$1; shift
dir=${BENCH_DIR:-$(mktemp -d /var/tmp/zonelab-bench.XXXXXX)}
trap '[ -z "${BENCH_DIR:-}" ] && rm -rf "$dir"' EXIT
rc=0
for b in "$@"; do
	echo "== $(basename "$b")"
	"$b" "$dir" || rc=1
	echo
done
exit $rc
