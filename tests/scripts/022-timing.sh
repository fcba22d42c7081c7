#!/bin/bash
# 022-timing.sh — the device timing model from the command line
# (docs/TIMING.md): `zonelab sim --timing-model` runs, names the model in its
# JSON, is deterministic and leaves a run without it unchanged; `zonelab
# timing table` prints the benchmark table (text and JSON, deterministic,
# the published figures beside); bad model texts and geometries the drive
# cannot hold exit 2 with what, where and why.
. "$(dirname "$0")/lib.sh"  # ZL, src, dir, fail, run

sim="sim --zones 64 --zone-size 16M --writes 5000 --no-metadata"

# --- sim: a timed run, twice the same; without the option no timing keys
run $sim --timing-model hc620
[ $rc = 0 ] || fail "sim --timing-model hc620: exit $rc: $(cat "$dir/err")"
cp "$dir/out" "$dir/t1.json"
grep -q '"timing_model": "hc620,capacity=15000000000000,' "$dir/t1.json" || fail "sim JSON without the canonical model"
grep -q '"timing": { "timed_commands": [1-9]' "$dir/t1.json" || fail "sim JSON without timing counters"
run $sim --timing-model hc620
cmp -s "$dir/out" "$dir/t1.json" || fail "two timed runs differ"
run $sim
[ $rc = 0 ] || fail "sim without a model: exit $rc"
grep -q 'timing' "$dir/out" && fail "a run without --timing-model prints timing keys"
cmp -s "$dir/out" "$dir/t1.json" && fail "the timed run is the same as the untimed one"
run sim --zones 64 --zone-size 3M --writes 5000 --no-metadata --timing-model=zn540,cmd=20us --check-config
[ $rc = 2 ] && grep -q 'zone size 3145728 is not a multiple of the stripe' "$dir/err" ||
	fail "zn540 on 3M zones: exit $rc: $(cat "$dir/err")"
run sim --zones 64 --zone-size 2M --writes 5000 --no-metadata --timing-model=zn540,cmd=20us
[ $rc = 0 ] || fail "sim zn540 on 2M zones: exit $rc: $(cat "$dir/err")"

# --- sim: commits end with a cache flush on every device (timed only)
fl() { grep -oE '"commit_flush(es|_ns)": [0-9]+' "$dir/out" | awk '{ printf "%s ", $2 }'; }
run sim --zones 64 --zone-size 16M --writes 20000 --timing-model hc620
read -r nf ns_cache <<< "$(fl)"
nc=$(grep -oE '"commits": [0-9]+' "$dir/out" | head -1 | awk '{ print $2 }')
[ "${nf:-0}" -gt 0 ] && [ "$nf" = "$nc" ] || fail "timed sim: $nf commit flushes for $nc commits (one device)"
run sim --zones 64 --zone-size 16M --writes 20000 --timing-model hc620,cache=0
read -r nf ns_nocache <<< "$(fl)"
[ "${ns_cache:-0}" -gt "${ns_nocache:-0}" ] && [ "${ns_nocache:-0}" -gt 0 ] ||
	fail "commit flushes should wait for the cache's destage: ${ns_cache:-?} ns with the cache, ${ns_nocache:-?} without"

# --- sim: bad texts, clear errors, exit 2
bad() {         # bad MODEL TEXT [sim options]
	local m=$1 want=$2
	shift 2
	run sim --zones 64 --zone-size 16M --writes 100 "$@" --timing-model "$m"
	[ $rc = 2 ] && grep -qF -- "$want" "$dir/err" || fail "sim --timing-model '$m': exit $rc, stderr: $(cat "$dir/err") (want '$want')"
}
bad nosuch 'zonelab: sim: --timing-model: timing "nosuch": unknown preset "nosuch" (presets: hc620, zn540)'
bad hc620,rpm=fast 'rpm'
bad hc620,seek=3ms 'unknown key "seek" for hc620'
bad hc620,capacity=512M '--timing-model hc620,capacity=512M: --zones 64 --zone-size 16777216:'
bad hc620 '--blkdev' --blkdev /dev/null
bad hc620,serial=1 'timing "hc620,serial=1": serial=1 needs mech=off'
bad hc620,mech=off,serial=2 'serial=2 is out of range (0..1)'
bad zn540,serial=1 'unknown key "serial" for zn540'
bad zn540,reset_exp=0 'timing "zn540,reset_exp=0": reset_exp=0 is out of range (1..200)'
bad zn540,reset_gib=5 'reset_gib="5": no unit (ns, us, ms or s)'
bad hc620,reset_gib=5ms 'unknown key "reset_gib" for hc620 (a hard disk)'

# --- timing table: the figures, the published ones beside, deterministic
run timing table
[ $rc = 0 ] || fail "timing table: exit $rc: $(cat "$dir/err")"
cp "$dir/out" "$dir/tab1"
grep -q '^timing model: hc620,capacity=' "$dir/tab1" || fail "table: no model line"
grep -Eq '^sequential 1 MiB read, OD +25[0-9]\.[0-9]+ MB/s +255\.000 +(0\.99|1\.00)[0-9] \[[0-9]\]$' "$dir/tab1" ||
	fail "table: OD read not within 1% of the data sheet: $(grep 'read, OD' "$dir/tab1")"
for r in 'QD1 4 KiB random read' 'QD32 4 KiB random read, FIFO' 'QD32 4 KiB random read, SPTF' \
	'sequential 1 MiB write, ID' 'zone reset' 'zone finish' 'flush, idle drive' 'implicit open'; do
	grep -q "^$r" "$dir/tab1" || fail "table: no row '$r'"
done
grep -q 'HC620 data sheet' "$dir/tab1" || fail "table: no source of the published figures"
run timing table
cmp -s "$dir/out" "$dir/tab1" || fail "two tables differ"
run timing table --seed 2
cmp -s "$dir/out" "$dir/tab1" && fail "--seed 2 gives the seed-1 table"
run timing table --timing-model zn540 --json
[ $rc = 0 ] || fail "timing table zn540 --json: exit $rc"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["model"].startswith("zn540,"); assert any(r["name"].startswith("sequential 1 MiB write") for r in d["rows"])' "$dir/out" ||
	fail "timing table --json: not the expected JSON: $(head -3 "$dir/out")"
# zn540 on the measured drive's geometry: every row with a measurement
# beside it (write, read, QD1, QD32, seven resets, three finishes)
# within 10% of it, the source cited once
run timing table --timing-model zn540 --zones 904 --zone-size 1130364928
[ $rc = 0 ] || fail "timing table zn540 on its geometry: exit $rc: $(cat "$dir/err")"
n=$(grep -Ec ' (0\.9[0-9]{2}|1\.0[0-9]{2}|1\.100) \[1\]$' "$dir/out")
[ "$n" = 14 ] || fail "zn540: $n of 14 measured rows within 10%: $(cat "$dir/out")"
[ "$(grep -c '^\[1\] measured ZN540' "$dir/out")" = 1 ] || fail "zn540: the source not cited once"
grep -Eq '^zone reset \(1/16 full\) +[0-9.]+ ms +5\.120 ' "$dir/out" || fail "zn540: no 1/16 reset row"
run timing table --timing-model zn540,reset_exp=100
grep -Eq '^zone reset \(full zone\) +' "$dir/out" || fail "zn540,reset_exp=100: no reset row"
run timing table --timing-model hc620,implicit_open=3ms
grep -Eq '^implicit open \(4 KiB write, extra\) +3\.000 ms' "$dir/out" || fail "implicit_open knob not measured: $(grep implicit "$dir/out")"
# serial=1 (a calibration disk serving one command at a time, cmd each):
# every job at QD32 runs at 1 / cmd, sequential reads at 1 MiB / cmd; the
# canonical text keeps it; `zonelab disk create --timing` takes the same
# text and refuses the same bad ones (no image made)
run timing table --timing-model hc620,cache=0,mech=off,serial=1,cmd=8101000ns --zones 64 --zone-size 256M
[ $rc = 0 ] || fail "timing table serial=1: exit $rc: $(cat "$dir/err")"
grep -q '^timing model: hc620,.*,mech=off,serial=1$' "$dir/out" || fail "serial=1 not in the canonical text: $(head -1 "$dir/out")"
grep -Eq '^QD32 4 KiB random read, FIFO +123\.4[0-9]+ IOPS' "$dir/out" || fail "serial: QD32 not 1 / cmd: $(grep 'QD32.*FIFO' "$dir/out")"
grep -Eq '^sequential 1 MiB read, ID +129\.43[0-9] MB/s' "$dir/out" || fail "serial: stream not 1 MiB / cmd: $(grep 'read, ID' "$dir/out")"
run timing table --timing-model hc620,cache=0,mech=off,cmd=8101000ns --zones 64 --zone-size 256M
grep -Eq '^sequential 1 MiB read, ID +129\.4' "$dir/out" && fail "mech=off without serial streams at its pace: $(grep 'read, ID' "$dir/out")"
grep -q '^timing model: hc620,.*,mech=off,serial=0$' "$dir/out" || fail "serial=0 not in the canonical text: $(head -1 "$dir/out")"
run disk create "$dir/ser.img" --size 64M --timing hc620,serial=1
[ $rc = 2 ] && grep -q 'serial=1 needs mech=off' "$dir/err" && [ ! -e "$dir/ser.img" ] ||
	fail "disk create --timing hc620,serial=1: exit $rc: $(cat "$dir/err")"
run disk create "$dir/ser.img" --size 64M --timing hc620,mech=off,serial=1,cmd=4ms
[ $rc = 0 ] || fail "disk create --timing ...,serial=1: exit $rc: $(cat "$dir/err")"
run disk info "$dir/ser.img"
grep -q '^timing: *hc620,mech=off,serial=1,cmd=4ms$' "$dir/out" || fail "disk info: no serial timing: $(grep timing "$dir/out")"

# --- timing table on a given disk (the e2e VM's: 64 zones of 256 MiB)
run timing table --zones 64 --zone-size 256M --json
[ $rc = 0 ] || fail "timing table --zones 64 --zone-size 256M: exit $rc: $(cat "$dir/err")"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["zones"] == 64 and d["zone_size"] == 256 << 20, d; r={x["name"]: x["value"] for x in d["rows"]}; assert 240 < r["sequential 1 MiB read, OD"] <= 255, r; assert r["sequential 1 MiB read, ID"] < r["sequential 1 MiB read, OD"] * 0.6, r; assert r["QD32 4 KiB random read, SPTF"] > 2 * r["QD32 4 KiB random read, FIFO"], r; b=d["sptf_iops_by_qd"]; assert len(b) == 32 and b[-1] == r["QD32 4 KiB random read, SPTF"] and b[0] < b[1] < 1.02 * b[0] and b[1] < b[7] < b[15] < b[-1], b' "$dir/out" ||
	fail "timing table --zones: not the expected figures (the SPTF job at QD 1..32: the closed loop at QD2 has 1 to choose among, as QD1, but chosen before the drive is free, its overhead hidden; growing; QD32 the row): $(cat "$dir/out")"
run timing table --zones 64 --zone-size 256M
grep -q '^disk: 64 zones of 268435456 bytes$' "$dir/out" || fail "timing table --zones: no disk line"
run timing table
grep -q '^disk:' "$dir/out" && fail "timing table without --zones prints a disk line"
run timing table --zones 64
[ $rc = 2 ] && grep -q -- '--zones and --zone-size go together' "$dir/err" || fail "--zones alone: exit $rc: $(cat "$dir/err")"
run timing table --zones 1 --zone-size 256M
[ $rc = 1 ] && grep -q 'a disk of 1 zones of 268435456 bytes: the benchmarks need at least 2 zones' "$dir/err" ||
	fail "--zones 1: exit $rc: $(cat "$dir/err")"
run timing table --zones 100000 --zone-size 256M
[ $rc = 1 ] && grep -q 'hc620 holds 15000000000000 bytes; a disk of 100000 zones' "$dir/err" ||
	fail "a disk bigger than the drive: exit $rc: $(cat "$dir/err")"
run timing table --zones 64 --zone-size 512K
[ $rc = 1 ] && grep -q 'zones of 524288 bytes: the sequential jobs need 1 MiB' "$dir/err" ||
	fail "512 KiB zones: exit $rc: $(cat "$dir/err")"
run timing table --timing-model zn540 --zones 64 --zone-size 3M
[ $rc = 1 ] && grep -q 'zone size 3145728 is not a multiple of the stripe' "$dir/err" ||
	fail "zn540 on 3M zones: exit $rc: $(cat "$dir/err")"

# --- timing: bad input
run timing table --timing-model hc620,bogus=1
[ $rc = 2 ] && grep -q 'zonelab: timing: --timing-model: timing "hc620,bogus=1": unknown key "bogus"' "$dir/err" ||
	fail "timing table bad key: exit $rc: $(cat "$dir/err")"
run timing table --timing-model hc620,capacity=2G
[ $rc = 1 ] && grep -q 'fewer than 32 zones' "$dir/err" || fail "timing table on a tiny drive: exit $rc: $(cat "$dir/err")"
run timing tabel
[ $rc = 2 ] && grep -q "unknown subcommand 'tabel'" "$dir/err" || fail "timing tabel: exit $rc: $(cat "$dir/err")"
run timing
[ $rc = 2 ] || fail "timing without a subcommand: exit $rc"
run timing table extra
[ $rc = 2 ] || fail "timing table extra: exit $rc"
run timing --help
[ $rc = 0 ] && grep -q 'usage: zonelab timing table' "$dir/out" || fail "timing --help"

[ $fails -eq 0 ] || { echo "$fails failures"; exit 1; }
echo "ok"
