#!/bin/bash
# 010-cli-disk.sh — `zonelab disk` end to end on a file image: create, info (--json with a path that needs escaping),
# report with options, write/read, zone management, persistence across
# invocations, check; and the error paths (bad geometry, foreign file,
# unaligned write, out-of-range, unknown options) fail with a message and a
# non-zero exit, never silently; the option convention (--opt=value, --,
# -h/--help on every disk command, refusals naming the option and the help).
set -u
ZL=${O:-build}/zonelab
[ -x "$ZL" ] || { echo "SKIP: $ZL not built"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
img=$dir/disk.img
fails=0
ok()   { if "$@" >"$dir/out" 2>"$dir/err"; then :; else echo "FAIL (exit $?): $*"; cat "$dir/err"; fails=$((fails+1)); fi; }
bad()  { local want=$1; shift
	 if "$@" >"$dir/out" 2>"$dir/err"; then echo "FAIL (should fail): $*"; fails=$((fails+1));
	 elif ! grep -q -- "$want" "$dir/err"; then echo "FAIL (message lacks '$want'): $*"; cat "$dir/err"; fails=$((fails+1)); fi; }
has()  { grep -q -- "$1" "$dir/out" || { echo "FAIL: output lacks '$1'"; cat "$dir/out"; fails=$((fails+1)); }; }

ok  $ZL disk create "$img" --size 64M --zone-size 4M --conv 2 --conv-at 10-11 --max-open 3
has "16 x 8192 LBAs"
has "max open 3"
ok  $ZL disk report "$img" --option not-wp
has "4 zone(s) reported"
ok  $ZL disk write "$img" 16384 16 --pattern 0x42
has "wrote 16 LBAs"
crc=$(awk '{print $NF}' "$dir/out")
ok  $ZL disk read "$img" 16384 16
has "crc32c $crc"
ok  $ZL disk report "$img" --option closed
has "16400 *seq-req *closed"                  # reopened: implicitly open came back closed
bad "unaligned write" $ZL disk write "$img" 16384 8
grep -q "is closed, write pointer at LBA 16400" "$dir/err" || { echo "FAIL: no write pointer hint"; cat "$dir/err"; fails=$((fails+1)); }
bad "LBA out of range" $ZL disk write "$img" 131072 8
ok  $ZL disk finish "$img" 24576
ok  $ZL disk report "$img" --option full
has "1 zone(s) reported"
bad "not the start of a zone" $ZL disk reset "$img" 24577
grep -q "the zone at LBA 24576 " "$dir/err" || { echo "FAIL: no zone hint"; cat "$dir/err"; fails=$((fails+1)); }
bad "either the zone's start LBA or --all" $ZL disk reset "$img"
bad "either the zone's start LBA or --all" $ZL disk reset "$img" 24576 --all
bad "conventional or gap zone" $ZL disk open "$img" 0
ok  $ZL disk reset "$img" --stats --all
has '"resets":2'
ok  $ZL disk check "$img"
has "consistent"
ok  $ZL disk info "$img" --json
has '"nr_zones":16'
# the path is a JSON string: quote, backslash and control character escaped
odd=$dir/q\"b\\c$'\x01'd.img
ok  $ZL disk create "$odd" --size 8M --zone-size 4M
ok  $ZL disk info "$odd" --json
want="{\"path\":\"$dir/q\\\"b\\\\c\\u0001d.img\",\"model\":"
grep -qF -- "$want" "$dir/out" || { echo "FAIL: info --json lacks '$want'"; cat "$dir/out"; fails=$((fails+1)); }
if command -v python3 >/dev/null; then
	python3 -c 'import json, sys; sys.exit(json.load(open(sys.argv[1]))["path"] != sys.argv[2])' \
		"$dir/out" "$odd" || { echo "FAIL: info --json is not valid JSON with the path"; cat "$dir/out"; fails=$((fails+1)); }
else
	echo "note: python3 missing, JSON parse of info --json not run"
fi
# geometry is recorded in the image; create refuses to overwrite without --force
bad "force" $ZL disk create "$img" --size 64M --zone-size 4M
ok  $ZL disk create "$img" --size 32M --zone-size 8M --force
has "4 x 16384 LBAs"
# bad input: precise messages
bad "zone capacity" $ZL disk create "$dir/b.img" --size 64M --zone-size 4M --zone-cap 8M
bad "not a multiple" $ZL disk create "$dir/b.img" --size 64M --zone-size 3000
bad "unknown size suffix" $ZL disk create "$dir/b.img" --size 64Q
bad "required" $ZL disk create "$dir/b.img"
bad "only apply to create" $ZL disk info "$img" --size 1G
bad "unknown reporting option" $ZL disk report "$img" --option sideways
bad "unknown option '--frobnicate'" $ZL disk info "$img" --frobnicate
bad "unknown command 'frobnicate'" $ZL disk frobnicate "$img"
bad "--start needs a value" $ZL disk report "$img" --start
bad "out of range (0 to 255)" $ZL disk write "$img" 32768 8 --pattern 256
# the largest value is accepted: --pattern 255 writes 0xff bytes, --wce 1 opens
ok  $ZL disk write "$img" 32768 8 --pattern 255
has "wrote 8 LBAs at LBA 32768"
ok  $ZL disk read "$img" 32768 8 --output "$dir/ff"
[ "$(od -An -tx1 -v "$dir/ff" | tr -s ' \n' '\n\n' | sort -u | grep .)" = ff ] ||
	{ echo "FAIL: --pattern 255 did not write 0xff bytes"; fails=$((fails+1)); }
ok  $ZL disk info "$img" --wce 1
bad "wce: 2 is out of range (0 to 1)" $ZL disk info "$img" --wce 2
bad "expected LBA and COUNT" $ZL disk read "$img"
ok  $ZL disk read "$img" 010 1                # decimal, not octal
has "at LBA 10:"
head -c 8192 /dev/urandom > "$dir/foreign"
bad "not a zonelab image" $ZL disk info "$dir/foreign"
bad "no such file" $ZL disk info "$dir/missing.img"
# a corrupted header byte is refused, never reformatted
cp "$img" "$dir/corrupt.img"
printf '\xff' | dd of="$dir/corrupt.img" bs=1 seek=100 conv=notrunc status=none
bad "checksum" $ZL disk info "$dir/corrupt.img"
ok  $ZL disk demo "$dir/demo.img"
has '"unaligned":1'

# one option convention (getopt_long): --opt=value is --opt value, --size
# 64MiB is 64M, options may follow IMAGE, -- ends them (a path starting
# with '-'), -h/--help on every disk command, refusals name the option
info_of() { $ZL disk info --json "$@" | sed 's/"path":"[^"]*",//'; }
ok  $ZL disk create "$dir/eq1.img" --size 64M --zone-size 4M --conv 2 --model ha
ok  $ZL disk create "$dir/eq2.img" --size=64M --zone-size=4M --conv=2 --model=ha
ok  $ZL disk create --size 64MiB --zone-size 4KiB "$dir/eq3.img" --zone-size=4M --conv 2 --model ha
[ "$(info_of "$dir/eq1.img")" = "$(info_of "$dir/eq2.img")" ] && [ -n "$(info_of "$dir/eq1.img")" ] ||
	{ echo "FAIL: --size=64M and --size 64M give different disks"; fails=$((fails+1)); }
[ "$(info_of "$dir/eq1.img")" = "$(info_of "$dir/eq3.img")" ] ||
	{ echo "FAIL: --size 64MiB (options before IMAGE) gives another disk"; fails=$((fails+1)); }
zla=$(realpath "$ZL")
(cd "$dir" && $zla disk create --size 64M --zone-size 4M --conv 2 --model ha -- -dash.img >/dev/null) ||
	{ echo "FAIL: disk create -- -dash.img"; fails=$((fails+1)); }
[ -f "$dir/-dash.img" ] || { echo "FAIL: -- did not end the options (no file -dash.img)"; fails=$((fails+1)); }
[ "$(cd "$dir" && ZL=$zla info_of -- -dash.img)" = "$(info_of "$dir/eq1.img")" ] ||
	{ echo "FAIL: disk info -- -dash.img"; fails=$((fails+1)); }
ok  $ZL disk write "$dir/eq1.img" 16384 8 --pattern=0x42
has "wrote 8 LBAs"
ok  $ZL disk report "$dir/eq1.img" --start=16384 --max=1 --option=closed
has "1 zone(s) reported"
for c in create info report write read open close finish reset check demo; do
	for h in -h --help; do
		ok  $ZL disk $c $h
		has "usage: zonelab disk <command> IMAGE"
	done
done
bad "zonelab disk create: unknown option '--frobnicate' (see zonelab disk --help)" $ZL disk create "$dir/x.img" --size 64M --frobnicate
bad "zonelab disk info: unknown option '-z' (see zonelab disk --help)" $ZL disk info "$img" -z
bad "zonelab disk: unknown option '--json' (see zonelab disk --help)" $ZL disk --json info "$img"
bad "zonelab disk info: option --json takes no value (see zonelab disk --help)" $ZL disk info "$img" --json=1
bad "zonelab disk report: option --max needs a value (see zonelab disk --help)" $ZL disk report "$img" --max
bad "zonelab disk info: unexpected argument 'more' (see zonelab disk --help)" $ZL disk info "$img" more
bad "zonelab disk info: unexpected argument '--json' (see zonelab disk --help)" $ZL disk info -- "$img" --json
bad "zonelab: --size: '64MB': stray characters after the size suffix" $ZL disk create "$dir/y.img" --size 64MB
bad "zonelab: --size: '-64M': negative, a size is 0 or more" $ZL disk create "$dir/y.img" --size=-64M
# --timing: kept in the image, shown by info (text and JSON), survives a write
ok  $ZL disk create "$dir/t.img" --size 64M --zone-size 4M --timing hc620,cache=0,sched=sptf
has "timing:       hc620,cache=0,sched=sptf"
ok  $ZL disk write "$dir/t.img" 0 8
ok  $ZL disk info "$dir/t.img" --json
has '"timing":"hc620,cache=0,sched=sptf"'
ok  $ZL disk info "$img"
grep -q "^timing:" "$dir/out" && { echo "FAIL: an image without --timing shows a timing line"; fails=$((fails+1)); }
bad "zonelab disk create: --timing 'hc999': timing \"hc999\": unknown preset \"hc999\" (presets: hc620, zn540)" $ZL disk create "$dir/tb.img" --size 64M --timing hc999
bad "unknown key \"colour\" for hc620" $ZL disk create "$dir/tb.img" --size 64M --timing hc620,colour=red
bad "zonelab disk info: --timing only applies to create" $ZL disk info "$img" --timing hc620
bad "zonelab disk create: --timing 'zn540,capacity=16M': timing: zn540 holds 16777216 bytes" $ZL disk create "$dir/tb.img" --size 64M --zone-size 4M --timing zn540,capacity=16M
bad "zonelab disk create: --timing 'zn540,reset_exp=0': timing \"zn540,reset_exp=0\": reset_exp=0 is out of range (1..200)" $ZL disk create "$dir/tb.img" --size 64M --zone-size 4M --timing zn540,reset_exp=0
[ -e "$dir/tb.img" ] && { echo "FAIL: a refused --timing left an image"; fails=$((fails+1)); }
$ZL disk create "$dir/tb.img" --size 64M --timing hc999 >/dev/null 2>&1; rc=$?
[ $rc = 2 ] || { echo "FAIL: disk create --timing hc999: exit $rc, want 2"; fails=$((fails+1)); }
for o in --frobnicate --json=1 --max; do
	$ZL disk report "$img" $o >/dev/null 2>&1; rc=$?
	[ $rc = 2 ] || { echo "FAIL: disk report $o: exit $rc, want 2"; fails=$((fails+1)); }
done

if [ $fails -ne 0 ]; then echo "$fails check(s) failed"; exit 1; fi
echo "all cli checks passed"
