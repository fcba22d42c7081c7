#!/bin/bash
# 015-block-device.sh — the block-device backend on a loop device: format,
# write, reopen (the zones and bytes persist), a device too small for the
# geometry is refused, and a block device is never truncated.  Skips (77)
# when loop devices cannot be set up (not root, no loop driver).
set -u
ZL=${O:-build}/zonelab
[ -x "$ZL" ] || { echo "SKIP: $ZL not built"; exit 77; }
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root for losetup"; exit 77; }
command -v losetup >/dev/null || { echo "SKIP: losetup missing"; exit 77; }
dir=$(mktemp -d)
back=$dir/backing
truncate -s 80M "$back"
dev=$(losetup -f --show "$back" 2>/dev/null) || { rm -rf "$dir"; echo "SKIP: cannot attach a loop device"; exit 77; }
trap 'losetup -d "$dev"; rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

$ZL disk create "$dev" --size 64M --zone-size 4M --conv 1 --max-open 2 >/dev/null || fail "create on $dev"
$ZL disk write "$dev" 8192 16 --pattern 0x77 >"$dir/w" || fail "write"
$ZL disk finish "$dev" 16384 || fail "finish"
# reopen: zones and data persist
$ZL disk report "$dev" --option closed | grep -q "8208" || fail "write pointer not persisted"
$ZL disk report "$dev" --option full | grep -q "1 zone(s)" || fail "full zone not persisted"
crc=$(awk '{print $NF}' "$dir/w")
$ZL disk read "$dev" 8192 16 | grep -q "$crc" || fail "data not persisted"
$ZL disk check "$dev" | grep -q consistent || fail "check"
# the device keeps its size
[ "$(blockdev --getsize64 "$dev")" = $((80 << 20)) ] || fail "device size changed"
# too small for the geometry: refused with needed vs actual bytes
if $ZL disk create "$dev" --size 1G --zone-size 4M --force 2>"$dir/err"; then fail "1G geometry on an 80M device accepted"; fi
grep -q "the geometry needs" "$dir/err" || { cat "$dir/err"; fail "no 'too small' message"; }
# and that refusal left the image intact
$ZL disk check "$dev" | grep -q consistent || fail "image damaged by a refused create"
echo "block device backend ok on $dev"
