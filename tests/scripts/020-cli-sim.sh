#!/bin/bash
# 020-cli-sim.sh — `zonelab sim` from the command line: a small run prints
# JSON that is the same for the same seed and differs for another seed;
# bad options exit 2 with a message naming the option and the reason
# (values that do not fit their field are refused, not wrapped; geometries,
# profiles and room for data are checked before anything runs); RAID5/6
# runs end with the design's refusal in the JSON.
set -u
ZL=${O:-build}/zonelab
[ -x "$ZL" ] || { echo "SKIP: $ZL not built"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fails=0
small=(--zones 64 --zone-size 1M --writes 20000 --util 0.5)

"$ZL" sim "${small[@]}" --seed 7 >"$dir/a" 2>"$dir/err" || { echo "FAIL: small run: $(cat "$dir/err")"; fails=$((fails+1)); }
"$ZL" sim "${small[@]}" --seed 7 >"$dir/b" 2>/dev/null
"$ZL" sim "${small[@]}" --seed 8 >"$dir/c" 2>/dev/null
grep -q '"writes"' "$dir/a" || { echo "FAIL: no JSON summary: $(head -c 200 "$dir/a")"; fails=$((fails+1)); }
cmp -s "$dir/a" "$dir/b" || { echo "FAIL: same seed, different output"; fails=$((fails+1)); }
cmp -s "$dir/a" "$dir/c" && { echo "FAIL: seeds 7 and 8 gave the same output"; fails=$((fails+1)); }

# bad <args...> <text>: exit 2 and stderr contains <text>
bad() {
	local want=${*: -1}
	"$ZL" sim "${@:1:$#-1}" >"$dir/out" 2>"$dir/err"
	local rc=$?
	if [ $rc -ne 2 ] || ! grep -qF -- "$want" "$dir/err"; then
		echo "FAIL: sim ${*:1:$#-1}: exit $rc, want 2 and '$want'; stderr: $(head -3 "$dir/err")"
		fails=$((fails+1))
	fi
}
bad --zones 4294967297 "zones: 4294967297 is out of range (0 to 4294967295)"
bad --workers 4294967296 "workers: 4294967296 is out of range (0 to 4294967295)"
bad --expire-ms 99999999999999999 "expire-ms: 99999999999999999 is out of range"
# the largest value of a 32-bit field parses: what refuses it is the room check
bad --reserve 4294967295 "after superblocks, --reserve 4294967295, the open zone"
bad --zones 12x "zonelab: zones: '12x' is not an integer (stray 'x')"
bad --profile raid7 "profile: unknown value 'raid7' (one of: single dup raid1 raid0 raid10 raid5 raid6)"
bad --util 1.5 "zonelab: sim: --util 1.5: between 0 and 1, exclusive"
# a bad value exits before --csv creates its file
bad --util 1.5 --csv "$dir/never.csv" "--util 1.5"
[ -e "$dir/never.csv" ] && { echo "FAIL: --csv file created for a refused run"; fails=$((fails+1)); }
# geometries the zone model cannot build, and one without room for data
bad --zones 4294967295 "zonelab: sim: --zones 4294967295 --zone-size 1048576 --conv 1: not a device the zone model can build: 4294967295 zones: at most 4294967294 zones are supported"
bad --zone-size 0x8000000000000000 --zones 4 "zonelab: sim: --zones 4 --zone-size 9223372036854775808: the device would have more than 2^64 bytes"
bad --zones 8 --conv 6 "leave -3.0 zones for data (1 needed) after superblocks, --reserve 2, the open zone and the metadata estimate: short by 4 zones; give more --zones or a smaller --reserve"
# profiles that need more devices, zone append beyond SINGLE data
bad --profile raid1 --devices 1 "zonelab: sim: --profile raid1 --devices 1: raid1 needs at least 2 devices"
bad --profile raid10 --devices 2 "zonelab: sim: --profile raid10 --devices 2: raid10 needs at least 4 devices"
bad --meta-profile raid0 --devices 1 "zonelab: sim: --meta-profile raid0 --devices 1: raid0 needs at least 2 devices (or --no-metadata)"
bad --order append --profile raid1 --devices 2 "zonelab: sim: --order append --profile raid1: a zone append goes to one zone of one device: data needs --profile single"
# RAID5/6 are known profiles that the HMZONED design refuses (the RFC's mode
# check): the run reports it in its JSON and exits 1
"$ZL" sim --profile raid5 --writes 10 >"$dir/out" 2>"$dir/err"; rc=$?
if [ $rc -ne 1 ] || ! grep -q '"error": "raid56"' "$dir/out"; then
	echo "FAIL: --profile raid5: exit $rc, want 1 and error raid56"; fails=$((fails+1))
fi
[ $fails -eq 0 ] && echo "020-cli-sim: all checks passed"
exit $((fails > 0))
