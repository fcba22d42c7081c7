#!/bin/bash
# 082-vm-traces.sh — the real kernel traces captured in the e2e VM
# (tests/data/vm-btrfs.*, made by the vm_trace check, tests/e2e/guest/
# checks/46-vm-trace.sh): zonelab's command trace and the blktrace of the
# same disk while zoned btrfs and fio ran.  On the host: both are read,
# agree on the requests and bytes of every read, write, flush and zone reset
# (and on the sorted per-request op/zone/length lists: blktrace records a
# zone append at its zone's start, the command trace the WRITE at the write
# pointer that sd made of it), carry the counts
# seen at capture time, and the command trace replays onto a fresh image of
# the capture's geometry with --verify with zero divergences.
set -u
O=${O:-build}
Z=$O/zonelab
D=tests/data
[ -x "$Z" ] || { echo "SKIP: $Z not built"; exit 77; }
w=$(mktemp -d); trap 'rm -rf "$w"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
CT=$D/vm-btrfs.ztrace
BT=$(ls $D/vm-btrfs.blktrace.* | sort -V)

"$Z" trace stat --json "$CT" >"$w/z.json" || fail "stat $CT"
"$Z" trace stat --json $BT >"$w/b.json" || fail "stat $BT"
python3 - "$w/z.json" "$w/b.json" <<'PY' || fail "stat: the two traces disagree"
import json, sys
z = json.load(open(sys.argv[1]))["traces"][0]
b = json.load(open(sys.argv[2]))["traces"][0]
assert z["format"] == "ztrace" and b["format"] == "blktrace", (z["format"], b["format"])
for op in ("read", "write", "flush", "zone-reset"):
    assert z["ops"].get(op) == b["ops"].get(op), (op, z["ops"].get(op), b["ops"].get(op))
# the capture (tests/data/README.md): counts seen in the VM
want = {"read": {"requests": 22, "bytes": 299008},
        "write": {"requests": 148, "bytes": 21360640},
        "flush": {"requests": 25, "bytes": 0},
        "zone-reset": {"requests": 2, "bytes": 0}}
for op, v in want.items():
    assert z["ops"].get(op) == v, (op, z["ops"].get(op), v)
# passthrough commands (REPORT ZONES, INQUIRY, ...) are only in the command trace
assert z["ops"]["other"]["requests"] > 0, z["ops"]
assert "other" not in b["ops"] or b["ops"]["other"]["requests"] == 0, b["ops"]
PY

ops=read,write,flush,zone-reset
zl() { awk -v zs=$((16 << 20)) '{ printf "%s %d %s\n", $2, int($3 / zs), $4 }' | sort; }
"$Z" trace cat --op $ops "$CT" >"$w/z.cat" || fail "cat $CT"
"$Z" trace cat --op $ops $BT >"$w/b.cat" || fail "cat blktrace"
zl <"$w/z.cat" >"$w/z.ops"; zl <"$w/b.cat" >"$w/b.ops"
[ -s "$w/z.ops" ] || fail "no requests in $CT"
cmp -s "$w/z.ops" "$w/b.ops" || { diff "$w/z.ops" "$w/b.ops" | head; fail "per-request lists differ"; }

# golden replay: zero divergences on a fresh image with the capture's geometry
"$Z" disk create "$w/fresh.img" --size 512M --zone-size 16M --conv 4 --max-open 16 >/dev/null ||
	fail "disk create"
"$Z" trace replay "$CT" --to "$w/fresh.img" --verify >"$w/r.out" 2>&1 ||
	fail "replay --verify: $(cat "$w/r.out")"
# ... and onto an image where zone 5 (btrfs's first data zone, written in the
# trace without a reset before) already holds data, it diverges
"$Z" disk create "$w/used.img" --size 512M --zone-size 16M --conv 4 --max-open 16 >/dev/null
"$Z" disk write "$w/used.img" $((5 * 32768)) 8 >/dev/null || fail "disk write"
"$Z" trace replay "$CT" --to "$w/used.img" --verify >"$w/r2.out" 2>&1
rc=$?
[ $rc = 1 ] || fail "replay onto a used image: exit $rc, want 1: $(cat "$w/r2.out")"
grep -q 'first divergence: record' "$w/r2.out" || fail "no divergence named: $(cat "$w/r2.out")"
# the blktrace's completions tell a flush's own empty bio (never issued)
# from a zone reset (issued): the same requests as its issue events
"$Z" trace cat --op $ops --event complete $BT >"$w/c.cat" || fail "cat --event complete"
zl <"$w/c.cat" >"$w/c.ops"
cmp -s "$w/b.ops" "$w/c.ops" || { diff "$w/b.ops" "$w/c.ops" | head; fail "complete events differ from issue events"; }
# ... and the blktrace itself replays with --verify (C events' status)
"$Z" disk create "$w/fresh2.img" --size 512M --zone-size 16M --conv 4 --max-open 16 >/dev/null
"$Z" trace replay $BT --to "$w/fresh2.img" --verify >"$w/r3.out" 2>&1 ||
	fail "blktrace replay --verify: $(cat "$w/r3.out")"
echo "ok: $(wc -l <"$w/z.ops") requests agree; replay --verify: 0 divergences"
