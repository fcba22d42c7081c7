#!/bin/bash
# 027-kernel-reclaim.sh — `zonelab sim --reclaim linux-6.1` (fs-core's model
# of Linux 6.1's zoned reclaim, docs/VALIDATION.md) and linux-6.12, and the
# comparison with the kernel's stored measurements:
#  - bad --reclaim values exit 2 with what was wrong;
#  - on a fill + uniform-overwrite workload with syncs (the kernel_wa
#    shape): block groups are queued by frees and reclaimed in passes,
#    victims picked under the threshold; with the global gate at 100 nothing
#    is ever reclaimed and the run ends in ENOSPC, as the kernel's would;
#    with data=0 nothing is queued; the reserve mode ignores the list;
#  - linux-6.12: with its knobs off as many relocations as linux-6.1 on that
#    workload; periodic=1 queues by sweeps only; dynamic=1 skips every entry
#    (threshold 0) and runs out of space; kwa.py picks the mode by the
#    kernel version a point records, and 6.12's knobs (dynamic_reclaim,
#    periodic_reclaim) from its header;
#  - tests/validate/kwa.py check: fs-core's replay of every stored kernel
#    point (tests/data/kernel-6.1/) against the kernel's numbers, within the
#    tolerance or as a known gap that has not moved;
#  - kwa.py phases: the file system's writes per phase (commits, metadata
#    beside user bytes, relocations from the tracepoint or the log), a
#    commit storm flagged, bad paths refused without a traceback.
. "$(dirname "$0")/lib.sh"  # ZL, src, dir, fail, run
refused() {
	local want=$1; shift
	run "$@"
	[ $rc = 2 ] || fail "zonelab $*: exit $rc, want 2"
	grep -qF -- "$want" "$dir/err" || fail "zonelab $*: stderr '$(cat "$dir/err")' lacks '$want'"
}
refused "reclaim 'linux-6.2': unknown mode" sim --reclaim linux-6.2
refused "'foo' is not a parameter" sim --reclaim linux-6.1:foo=1
refused "data must be a percentage 0..100" sim --reclaim linux-6.1:data=101
refused "data must be a percentage 0..100" sim --reclaim linux-6.1:data=
refused "global must be 0 or 51..100" sim --reclaim linux-6.1:global=40
refused "dynamic must be 0 or 1" sim --reclaim linux-6.12:dynamic=2
refused "periodic is a knob of Linux 6.12" sim --reclaim linux-6.1:periodic=1
refused "reclaim 'linux-6.13': unknown mode" sim --reclaim linux-6.13

# The kernel_wa shape: 256 MiB file on 64 zones of 16 MiB, fill, 12 phases
# of 64 MiB uniform overwrites, a sync after each.
python3 - "$dir/w.iolog" <<'EOF'
import random, sys
bs, nb, ph = 65536, 4096, 1024
r = random.Random(7)
with open(sys.argv[1], "w") as f:
    f.write("fio version 2 iolog\nf add\nf open\n")
    f.write("".join(f"f write {b * bs} {bs}\n" for b in range(nb)) + "f sync 0 0\n")
    for p in range(12):
        f.write("".join(f"f write {r.randrange(nb) * bs} {bs}\n" for _ in range(ph)) + "f sync 0 0\n")
EOF
base=(sim --trace "$dir/w.iolog" --trace-format iolog --zones 64 --zone-size 16M --conv 0
	--meta-profile dup --placement reloc --reserve 0 --commit-interval-ms 100000000 --commit-bytes 1T --qd 1)
num() { grep -oE "\"$1\": [0-9.]+" "$dir/out" | head -1 | awk '{ print $2 }'; }
run "${base[@]}" --reclaim linux-6.1
[ $rc = 0 ] || fail "linux-6.1: exit $rc: $(head -c 300 "$dir/err")"
grep -q '"reclaim": "linux-6.1:data=75,meta=75,sys=75,global=75"' "$dir/out" || fail "linux-6.1: config lacks the reclaim spec"
[ "$(num passes)" -ge 1 ] || fail "linux-6.1: no reclaim pass"
[ "$(num by_free)" -ge 1 ] || fail "linux-6.1: nothing queued by a free crossing the threshold"
[ "$(num relocated)" -ge 1 ] || fail "linux-6.1: nothing relocated"
[ "$(num gated)" -ge 1 ] || fail "linux-6.1: the gate never held a pass back (the disk starts under 75% allocated)"
# victims mostly under the threshold at their pick (6.1 does not check
# again: one queued while still being written may be fuller by its turn),
# never full (it lost bytes to be queued)
v=$(grep -oE '"victims_used_tenths": \[[0-9, ]+\]' "$dir/out" | grep -oE '[0-9]+' | tr '\n' ' ')
echo "$v" | awk '{ for (i = 1; i <= 8; i++) lo += $i; hi = $9 + $10 + $11; exit !(lo > 4 * hi && $11 == 0) }' ||
	fail "linux-6.1: victims' used tenths $v: want most under 80% and none full"
grep -q '"error": "none"' "$dir/out" || fail "linux-6.1: the run did not complete: $(grep -m1 error_text "$dir/out")"
# the gate closed: never reclaimed, out of space
run "${base[@]}" --reclaim linux-6.1:global=100
grep -q '"error": "enospc"' "$dir/out" || fail "global=100: want ENOSPC, got $(grep -m1 '"error"' "$dir/out")"
[ "$(num relocated)" = 0 ] || fail "global=100: $(num relocated) relocations, want 0"
# linux-6.12 with its knobs off (the kernel's defaults): on this workload
# every entry still qualifies at its turn, so 6.12 relocates as 6.1 does
# (the re-check only drops entries that regained data or emptied)
run "${base[@]}" --reclaim linux-6.1
r61=$(num relocated)
run "${base[@]}" --reclaim linux-6.12
[ $rc = 0 ] || fail "linux-6.12: exit $rc: $(head -c 300 "$dir/err")"
grep -q '"reclaim": "linux-6.12:data=75,meta=75,sys=75,global=75,dynamic=0,periodic=0"' "$dir/out" ||
	fail "linux-6.12: config lacks the reclaim spec"
grep -q '"rechecked": 0, "empty": 0, "sweeps": 0' "$dir/out" || fail "linux-6.12: $(grep -o '"rechecked[^]]*' "$dir/out")"
[ "$(num relocated)" = "$r61" ] || fail "linux-6.12: $(num relocated) relocations, linux-6.1 $r61"
# periodic=1: frees queue nothing, sweeps do
run "${base[@]}" --reclaim linux-6.12:periodic=1
[ "$(num by_free)" = 0 ] || fail "periodic=1: $(num by_free) queued by frees, want 0"
[ "$(num by_sweep)" -ge 1 ] || fail "periodic=1: nothing queued by a sweep"
# dynamic=1: every data block group written full, what was freed in them
# counts as used (zone_unusable), so the dynamic threshold is 0 and every
# entry is skipped at its turn: the disk fills, ENOSPC (a prediction)
run "${base[@]}" --reclaim linux-6.12:dynamic=1
[ "$(num relocated)" = 0 ] || fail "dynamic=1: $(num relocated) relocations, want 0"
[ "$(num rechecked)" -ge 1 ] || fail "dynamic=1: no entry skipped at its turn"
grep -q '"error": "enospc"' "$dir/out" || fail "dynamic=1: want ENOSPC, got $(grep -m1 '"error"' "$dir/out")"
# --space-resv linux-6.12: 6.12's overcommit, named in the config
refused "--space-resv linux-6.12: the reservations cover the kernel's trees" sim --space-resv linux-6.12
run "${base[@]}" --reclaim linux-6.12 --meta-model btrfs --extent-size 64K --space-resv linux-6.12
[ $rc = 0 ] || fail "--space-resv linux-6.12: exit $rc: $(head -c 300 "$dir/err")"
grep -q '"space_resv": "linux-6.12"' "$dir/out" || fail "--space-resv linux-6.12: not in the config"
c612=$(grep -o '"commits": [0-9]*' "$dir/out" | head -1)
# --space-resv linux-7.3: named in the config, its cap counted; with no
# overcommit on this disk the flusher commits more often than 6.12's
refused "--space-resv linux-7.3: the reservations cover the kernel's trees" sim --space-resv linux-7.3
run "${base[@]}" --reclaim linux-6.12 --meta-model btrfs --extent-size 64K --space-resv linux-7.3
[ $rc = 0 ] || fail "--space-resv linux-7.3: exit $rc: $(head -c 300 "$dir/err")"
grep -q '"space_resv": "linux-7.3"' "$dir/out" || fail "--space-resv linux-7.3: not in the config"
grep -q '"cap_commits": [0-9]' "$dir/out" || fail "--space-resv linux-7.3: no cap_commits in the output"
c73=$(grep -o '"commits": [0-9]*' "$dir/out" | head -1)
[ "${c73#*: }" -gt "${c612#*: }" ] || fail "--space-resv linux-7.3: $c73, not more than 6.12's $c612"
# kwa.py picks the model by the kernel each point ran: a 6.12 point (a
# fake header) replays with linux-6.12, a 6.1 one with linux-6.1, 7.3 with
# linux-6.12's reclaim and linux-7.3's reservations, one that does not say
# by its directory's name
mkdir -p "$dir/kernel-6.12"
python3 - "$src/tests/validate" "$dir/kernel-6.12" <<'EOF3' || fail "kwa.py's model by kernel version"
import os, sys
sys.path.insert(0, sys.argv[1])
import kwa
d = sys.argv[2]
head = {"point": "45-75-2", "kernel": "Linux version 6.12.117+deb13-amd64 (debian-kernel@lists.debian.org) "
        "#1 SMP PREEMPT_DYNAMIC Debian 6.12.117-1 (2026-11-20)", "disk_bytes": 1 << 30,
        "zone_bytes": 16 << 20, "file_bytes": 480 << 20, "bs": 65536, "commit_s": 1000,
        "threshold": {"data": 75, "metadata": 75, "system": 75, "global": 75}}
ph = {"point": "45-75-2", "phase": "fill", "app_bytes": 0, "fio_error": 0}
with open(os.path.join(d, "kwa-45-75-2.out"), "w") as f:
    f.write(kwa.json.dumps(head) + "\n" + kwa.json.dumps(ph) + "\n")
h, _, _ = kwa.load_point(os.path.join(d, "kwa-45-75-2.out"))
a = kwa.sim_args(h)
want = "linux-6.12:data=75,meta=75,sys=75,global=75"
assert a[a.index("--reclaim") + 1] == want, a
assert a[a.index("--space-resv") + 1] == "linux-6.12", a
cases = [("Linux version 6.1.0-57-amd64 ... Debian 6.1.192-3", "", "linux-6.1"),
         ("Linux version 7.3.4+bpo-amd64 ...", "", "linux-6.12"),
         ("Linux version 6.11.2 ...", "", "linux-6.1"),
         ("", os.path.join(d, "kwa-x.out"), "linux-6.12"),
         ("", "/x/kernel-6.1/kwa-x.out", "linux-6.1"),
         ("", "/x/elsewhere/kwa-x.out", "linux-6.1")]
for k, path, m in cases:
    got = kwa.reclaim_model({"kernel": k}, path)
    assert got == m, (k, path, got, m)
# the reservations: 7.3's from 7.0 on, 6.12's for 6.12..6.x, 6.1's below
for k, m in [("Linux version 7.3.4+deb13-amd64 ...", "linux-7.3"),
             ("Linux version 7.0.1 ...", "linux-7.3"),
             ("Linux version 6.19.3 ...", "linux-6.12"),
             ("Linux version 6.12.117+deb13-amd64 ...", "linux-6.12"),
             ("Linux version 6.1.0-57-amd64 ...", "linux-6.1")]:
    got = kwa.resv_model({"kernel": k})
    assert got == m, (k, got, m)
h73 = dict(h, kernel="Linux version 7.3.4+deb13-amd64 ...")
a = kwa.sim_args(h73)
assert a[a.index("--space-resv") + 1] == "linux-7.3", a
assert a[a.index("--reclaim") + 1] == want, a
# 6.12's knobs as kernel_wa's header records them (dyn=, per=: every space
# alike): replayed as linux-6.12's dynamic= and periodic=, on 7.x with 7.3's
# reservations; knobs off (recorded 0) the same as the kernel's defaults
sp = lambda v: {"data": v, "metadata": v, "system": v}
for hk, kn in [(h, "linux-6.12"), (h73, "linux-7.3")]:
    for d_, p_ in [(1, 0), (0, 1), (0, 0)]:
        a = kwa.sim_args(dict(hk, dynamic_reclaim=sp(d_), periodic_reclaim=sp(p_)))
        assert a[a.index("--reclaim") + 1] == f"{want},dynamic={d_},periodic={p_}", a
        assert a[a.index("--space-resv") + 1] == kn, a
a = kwa.sim_args(dict(h, dynamic_reclaim=sp(1), periodic_reclaim=sp(0)))
open(os.path.join(d, "dyn.spec"), "w").write(a[a.index("--reclaim") + 1])
assert kwa.shape(dict(h, tag="dyn", dynamic_reclaim=sp(1), periodic_reclaim=sp(0))) == "dyn, dynamic_reclaim=1"
# fs-core has one setting for every space; 6.1's model has no knob
for bad, msg in [(dict(h, dynamic_reclaim={"data": 1, "metadata": 0, "system": 0}), "differs between spaces"),
                 (dict(h, kernel="Linux version 6.1.0-57-amd64 ...", periodic_reclaim=sp(1)), "linux-6.1, which has no such knob")]:
    try:
        kwa.sim_args(bad)
        raise AssertionError(f"replayed {bad}")
    except SystemExit as e:
        assert msg in str(e), e
# superblock bytes: blktrace's where it saw them; the handler's FUA bytes
# where blktrace recorded no FUA write at all (>= 6.19 drops them)
sb = [({"bt_sb": 8192, "bt_fua": 8192, "dev_fua_bytes": 8192}, 8192),
      ({"bt_sb": 0, "bt_fua": 0, "dev_fua_bytes": 12288}, 12288),
      ({"bt_sb": 4096, "bt_fua": 0, "dev_fua_bytes": 12288}, 4096),
      ({"bt_sb": 0, "bt_fua": 4096, "dev_fua_bytes": 4096}, 0),
      ({"bt_sb": 4096}, 4096), ({"bt_sb": 0}, 0)]
for ph, want in sb:
    assert kwa.sb_bytes(ph) == want, (ph, kwa.sb_bytes(ph), want)
print("kwa.py model by kernel: ok")
EOF3
# the knobs' spec kwa.py writes is one zonelab takes
run "${base[@]}" --reclaim "$(cat "$dir/kernel-6.12/dyn.spec")"
grep -q '"reclaim": "linux-6.12:data=75,meta=75,sys=75,global=75,dynamic=1,periodic=0"' "$dir/out" ||
	fail "kwa.py's knobs spec: $(head -c 300 "$dir/err")$(grep -o '"reclaim": "[^"]*"' "$dir/out")"

# thresholds 0: nothing queued
run "${base[@]}" --reclaim linux-6.1:data=0,meta=0,sys=0
[ "$(num queued)" = 0 ] || fail "thresholds 0: $(num queued) block groups queued"
# reserve mode: no reclaim section, the list unused
run "${base[@]}" --reclaim reserve --reserve 2
grep -q '"reclaim"' "$dir/out" && fail "reserve: a reclaim section in the JSON"
# --meta-model btrfs: the kernel's trees and relocation stages
# the file tree alone, with the leaves the btrfs model derives (208 extents)
run "${base[@]}" --reclaim linux-6.1 --leaf-items 3328
fm=$(num metadata_bytes)
run "${base[@]}" --reclaim linux-6.1 --meta-model btrfs --extent-size 64K
[ $rc = 0 ] || fail "btrfs model: exit $rc: $(head -c 300 "$dir/err")"
grep -q '"meta_model": "btrfs", "extent_bytes": 65536' "$dir/out" || fail "btrfs model: not in the config"
bm=$(num metadata_bytes)
# the extent and checksum trees, and relocation's stages: several times the
# file tree's metadata (docs/VALIDATION.md)
[ "$bm" -gt $((fm * 4)) ] || fail "btrfs model: metadata $bm bytes, file model $fm: want over 4x"
[ "$(num relocated)" -ge 1 ] || fail "btrfs model: nothing relocated"
grep -q '"error": "none"' "$dir/out" || fail "btrfs model: the run did not complete: $(grep -m1 error_text "$dir/out")"
for bad in "--meta-model btree" "--meta-model btrfs --extent-size 1000" "--meta-model btrfs --extent-size 16M" \
	"--meta-model btrfs --no-metadata"; do
	# shellcheck disable=SC2086
	run "${base[@]}" --reclaim linux-6.1 $bad
	[ $rc = 2 ] || fail "$bad: exit $rc, want 2 (a refused option)"
	grep -qE "meta-model|extent-size" "$dir/err" || fail "$bad: the message does not name the option: $(head -c 200 "$dir/err")"
done

# --space-resv linux-6.1: the kernel's metadata reservations and the
# commits they force (fs-core/fsc_resv.c); they need the btrfs model
run "${base[@]}" --reclaim linux-6.1 --meta-model btrfs --extent-size 64K --space-resv linux-6.1
[ $rc = 0 ] || fail "space-resv: exit $rc: $(head -c 300 "$dir/err")"
grep -q '"space_resv": "linux-6.1"' "$dir/out" || fail "space-resv: not in the config"
[ "$(num tickets)" -gt 0 ] || fail "space-resv: no reservation waited (tickets $(num tickets))"
[ "$(num by_delayed_refs)" -le "$(num tickets)" ] || fail "space-resv: more tickets met by the refs than tickets"
[ "$(num metadata_bytes)" -gt "$bm" ] || fail "space-resv: metadata $(num metadata_bytes), without $bm: the flush commits write more"
refused "give --meta-model btrfs too" "${base[@]}" --space-resv linux-6.1
refused "space-resv" "${base[@]}" --meta-model btrfs --space-resv linux-6.2

# kwa_trace.py on a made-up trace: a write's reservation (640 KiB), a tree
# block allocated (may_use -16 KiB), a ticket, the refs giving back 1 MiB,
# a commit
u=00000000-0000-0000-0000-000000000000
{ echo "# phase 1.1"
  printf '  fio-1 [000] ..... %s: btrfs_space_reservation: %s: %s\n' \
	1.000001 $u "space_info: 4 reserve 655360" 1.000002 $u "delalloc: 257 reserve 655360" \
	1.000003 $u "space_info: 4 reserve 16384" 1.000004 $u "space_info: 4 release 16384"
  printf '  fio-1 [000] ..... 1.000005: btrfs_trigger_flush: %s: enospc: flush=5(BTRFS_RESERVE_FLUSH_ALL) flags=4(METADATA) bytes=655360\n' $u
  printf '  kw-2 [000] ..... 1.000006: btrfs_space_reservation: %s: space_info: 4 release 1048576\n' $u
  printf '  kw-2 [000] ..... 1.000007: btrfs_flush_space: %s: state=3(FLUSH_DELAYED_REFS_NR) flags=4(METADATA) num_bytes=655360 ret=0 for_preempt=0\n' $u
  printf '  kw-2 [000] ..... 1.000008: btrfs_transaction_commit: %s: root=1(ROOT_TREE) gen=9\n' $u
} > "$dir/t.log"
python3 "$src/tests/validate/kwa_trace.py" "$dir/t.log" > "$dir/t.out" 2>&1 || fail "kwa_trace.py: $(tail -2 "$dir/t.out")"
grep -qE '^1\.1 +1 +1 +1 +0 +1 +1\.0$' "$dir/t.out" || fail "kwa_trace.py: want 1 write, ticket, commit, refs run, 1 MiB back: $(cat "$dir/t.out")"
python3 "$src/tests/validate/kwa_trace.py" "$dir/t.log" --slack 1.1 > "$dir/t.out" 2>&1
grep -q 'may_use 0.61 used 0.02' "$dir/t.out" || fail "kwa_trace.py --slack: $(cat "$dir/t.out")"
python3 "$src/tests/validate/kwa_trace.py" "$dir/t.log" --cycles 1.1 > "$dir/t.out" 2>&1
grep -qE '^1\.000005 +1 +0 +1\.0  yes$' "$dir/t.out" || fail "kwa_trace.py --cycles: $(cat "$dir/t.out")"
python3 "$src/tests/validate/kwa_trace.py" > "$dir/t.out" 2>&1 && fail "kwa_trace.py without a trace: exit 0"
# --bgs: a lean trace's dump after a phase: a data block group, a metadata
# one holding two checksum leaves and the file tree's root, a garbled line
{ echo "# bgs 2.2"
  echo "bg 67108864 16777216 16777216 DATA|single"
  echo "bg 100663296 16777216 49152 METADATA|DUP"
  echo "tb 100777984 0 956 CSUM_TREE"; echo "tb 100794368 0 962 CSUM_TREE"; echo "tb 100810752 1 990 FS_TREE"
  echo "bg 16777216 15071 65536) 407"
  echo "# zones 2.2"; echo " start: 0x000000000, len 0x008000"
} > "$dir/bgs.log"
python3 "$src/tests/validate/kwa_trace.py" "$dir/bgs.log" --bgs > "$dir/t.out" 2>&1 || fail "kwa_trace.py --bgs: $(tail -2 "$dir/t.out")"
grep -q '^2.2: 1 data, 1 metadata/system block groups, 3 zones in chunks$' "$dir/t.out" &&
	grep -qE '^ +96 MiB METADATA\|DUP +used +48 KiB +3 blocks gen 956-990 +CSUM_TREE:2 FS_TREE:1$' "$dir/t.out" &&
	grep -q '(1 garbled lines skipped)' "$dir/t.out" || fail "kwa_trace.py --bgs: $(cat "$dir/t.out")"
python3 "$src/tests/validate/kwa_trace.py" "$dir/t.log" --bgs > "$dir/t.out" 2>&1 && fail "kwa_trace.py --bgs without a dump: exit 0"
grep -q "no '# bgs PHASE' dump" "$dir/t.out" || fail "kwa_trace.py --bgs without a dump: $(cat "$dir/t.out")"
# a damaged line: where and what, no traceback
{ head -3 "$dir/t.log"; printf '  fio-1 [000] ..... 1.9: btrfs_space_reservation: %s: space_info: 4 reserve\n' $u; } > "$dir/bad.log"
python3 "$src/tests/validate/kwa_trace.py" "$dir/bad.log" > "$dir/t.out" 2>&1 && fail "kwa_trace.py on a damaged line: exit 0"
grep -q "bad.log:4: btrfs_space_reservation: want" "$dir/t.out" && ! grep -q Traceback "$dir/t.out" ||
	fail "kwa_trace.py on a damaged line: $(tail -2 "$dir/t.out")"

# fs-core against the stored kernel measurements
if command -v python3 > /dev/null && [ -d "$src/tests/data/kernel-6.1" ]; then
	python3 "$src/tests/validate/kwa.py" table "$src/tests/data/kernel-6.1" --zonelab "$ZL" \
		--json "$dir/results.json" > "$dir/table" 2>&1 || fail "kwa.py table: $(tail -3 "$dir/table")"
	python3 "$src/tests/validate/kwa.py" check "$src/tests/data/kernel-6.1" \
		"$src/tests/data/kernel-6.1/expect.json" --results "$dir/results.json" > "$dir/kwa" 2>&1 ||
		fail "kwa.py check: $(grep FAIL "$dir/kwa" | head -5 | tr '\n' ' ')$(tail -3 "$dir/kwa")"
	cat "$dir/kwa"
	# every other kernel's stored grid with an expect.json (issue 30:
	# tests/data/kernel-6.12, replayed with --reclaim and --space-resv
	# linux-6.12, the mode kwa.py reads from each point's kernel) is held
	# to it the same way (every kernel's shapes, tests/data/kernel-*-shapes,
	# are validate-fscore's: their replays would add minutes to make check)
	for e in "$src"/tests/data/kernel-*/expect.json; do
		d=${e%/expect.json}
		case $d in */kernel-6.1 | */kernel-*-shapes) continue ;; esac
		python3 "$src/tests/validate/kwa.py" check "$d" "$e" --zonelab "$ZL" > "$dir/kwa-${d##*/}" 2>&1 ||
			fail "kwa.py check ${d##*/}: $(grep FAIL "$dir/kwa-${d##*/}" | head -5 | tr '\n' ' ')$(tail -3 "$dir/kwa-${d##*/}")"
		cat "$dir/kwa-${d##*/}"
	done
	# the comparison can fail: a tolerance of 0.1%, the ENOSPC gap not
	# listed, and a recorded ratio 0.1 away are all reported
	python3 - "$src/tests/data/kernel-6.1/expect.json" "$dir/strict.json" "$dir/results.json" \
		"$dir/strict-results.json" <<'EOF2'
import json, sys
e = json.load(open(sys.argv[1]))
e["tolerance"] = 0.001
for p in e["points"].values():
    p.pop("enospc_gap", None)
e["points"]["25-75-1"]["ratio"] += 0.1
e["points"]["35-75-2"]["total_ratio"] += 0.1
e["total_tolerance"] = 0.001
json.dump(e, open(sys.argv[2], "w"))
# and a replay that runs out where the kernel did not
r = json.load(open(sys.argv[3]))
for x in r:
    if x["point"] == "25-75-1":
        x["fscore_enospc_after"] = 700 << 20
json.dump(r, open(sys.argv[4], "w"))
EOF2
	python3 "$src/tests/validate/kwa.py" check "$src/tests/data/kernel-6.1" "$dir/strict.json" \
		--results "$dir/strict-results.json" > "$dir/strict" 2>&1 && fail "kwa.py check passed with a 0.1% tolerance"
	grep -q "over 0%" "$dir/strict" || fail "kwa.py check (0.1%): no point reported over tolerance"
	grep -q "kernel ENOSPC after" "$dir/strict" || fail "kwa.py check: an unlisted ENOSPC difference not reported"
	grep -q "kernel's first failed write after .* apart" "$dir/strict" || fail "kwa.py check: failed writes far apart not reported"
	grep -q "25-75-1: data WA ratio .* fs-core's replay moved" "$dir/strict" || fail "kwa.py check: a moved ratio not reported"
	grep -q "35-75-2: total WA ratio .* fs-core's replay moved" "$dir/strict" || fail "kwa.py check: a moved total ratio not reported"
	grep -q "fs-core total WA .* over 0%" "$dir/strict" || fail "kwa.py check (0.1%): no total WA over tolerance reported"
	# the file system's own writes per phase (issue 30): a stored 6.1 point
	# (relocations from its log), and a 7.3-like point whose phase 1.2 is a
	# commit storm, relocations from the tracepoint (the log suppressed)
	python3 "$src/tests/validate/kwa.py" phases "$src/tests/data/kernel-6.1/kwa-45-75-2.out" > "$dir/ph" 2>&1 ||
		fail "kwa.py phases: $(tail -3 "$dir/ph")"
	grep -qE '^\| 1\.2 \| 115 \| 474 \| 189 \| 1\.6 \| 367 \| - / 42 \| - \| - \|  \|$' "$dir/ph" ||
		fail "kwa.py phases, 45-75-2 1.2: $(grep '^| 1.2' "$dir/ph")"
	grep -q '| commit storm |' "$dir/ph" && fail "kwa.py phases: a storm in 6.1's 45-75-2"
	{ head -1 "$src/tests/data/kernel-6.1/kwa-45-75-2.out" | sed 's/"point":"45-75-2"/"point":"storm"/'
	  grep '"phase":"fill"' "$src/tests/data/kernel-6.1/kwa-45-75-2.out" | sed 's/"point":"45-75-2"/"point":"storm"/'
	  echo '{"point":"storm","phase":"1.1","secs":1,"app_bytes":120586240,"fio_error":0,"iolog_md5":"x","dev_write_bytes":8865710080,"dev_resets":0,"bt_data":120586240,"bt_meta":8745123840,"bt_sb":0,"reloc":{"data":0,"metadata":0,"system":0},"victims":[],"commits":11910,"space":{"data":[1,1,0],"metadata":[1,1,0],"system":[1,1,0]},"enospc_msgs":0,"bt_dropped":7,"log_suppressed":300,"reloc_tp":{"data":3,"metadata":2,"system":0},"victims_tp":[40,2,3,50,60],"tp_overrun":0}'
	} > "$dir/kwa-storm.out"
	python3 "$src/tests/validate/kwa.py" phases "$dir" > "$dir/ph" 2>&1 || fail "kwa.py phases DIR: $(tail -3 "$dir/ph")"
	grep -qE '^\| 1\.1 \| 115 \| 115 \| 8340 \| 72\.5 \| 11910 \| 5 / 0 \(300 suppressed\) \| 7 \| - \| commit storm \|$' "$dir/ph" ||
		fail "kwa.py phases, the storm: $(grep '^| 1.1' "$dir/ph")"
	python3 "$src/tests/validate/kwa.py" phases "$dir/none" > "$dir/ph" 2>&1 && fail "kwa.py phases on nothing: exit 0"
	grep -q "none: no such file or directory" "$dir/ph" && ! grep -q Traceback "$dir/ph" || fail "kwa.py phases on nothing: $(tail -2 "$dir/ph")"
	mkdir -p "$dir/empty"
	python3 "$src/tests/validate/kwa.py" phases "$dir/empty" > "$dir/ph" 2>&1 && fail "kwa.py phases on an empty directory: exit 0"
	grep -q "no kwa-\*.out" "$dir/ph" && ! grep -q Traceback "$dir/ph" || fail "kwa.py phases on an empty directory: $(tail -2 "$dir/ph")"
	# fs-core's side as a scenario (make validate-scenario): one point per
	# stored measurement, each replaying its own workload
	python3 "$src/tests/validate/kwa.py" scenario "$src/tests/data/kernel-6.1" "$dir/scn" > "$dir/scn.out" 2>&1 ||
		fail "kwa.py scenario: $(tail -3 "$dir/scn.out")"
	n=$(ls "$src"/tests/data/kernel-6.1/kwa-*.out | wc -l)
	[ "$(ls "$dir"/scn/traces/*.iolog | wc -l)" = "$n" ] || fail "kwa.py scenario: not one trace per stored point ($n)"
	"$ZL" run "$dir/scn/kernel-6.1.ini" -o "$dir/scn/run" --list > "$dir/scn.list" 2>&1 ||
		fail "the kernel-6.1 scenario does not load: $(tail -3 "$dir/scn.list")"
	[ "$(grep -c 'kernel-6.1-' "$dir/scn.list")" = "$n" ] || fail "the kernel-6.1 scenario lists $(grep -c 'kernel-6.1-' "$dir/scn.list") points, want $n"
	# the multi-file workloads (kernel_wa wl=files, wl=applog; issue 31):
	# the guest's generator run here on a plain directory (buffered) gives
	# the same operations from the same seed, phase by phase, within its
	# budget; a point of made-up operations replays with its files in
	# slots of fs-core's one file, truncates and unlinks as trims
	wl=$src/tests/e2e/guest/kwa_wl.py
	for w in files applog; do
		for k in a b; do
			mkdir -p "$dir/wl$k"; rm -f "$dir/ops$k"
			for p in fill 1.1 1.2; do
				python3 "$wl" $w "$dir/wl$k" "$dir/st$k" $p 3 $((8 << 20)) $((2 << 20)) 65536 0 "$dir/ops$k" "$dir/wl.json" > "$dir/wl.err" 2>&1 ||
					fail "kwa_wl.py $w $p: $(tail -2 "$dir/wl.err")"
				[ $p = fill ] || grep -q '"app_bytes": 2097152, "error": 0' "$dir/wl.json" || fail "kwa_wl.py $w $p: $(cat "$dir/wl.json")"
			done
			rm -rf "$dir/wl$k"
		done
		cmp -s "$dir/opsa" "$dir/opsb" || fail "kwa_wl.py $w: two runs from seed 3 differ"
		[ "$(cut -d' ' -f1 "$dir/opsa" | tr '\n' ' ')" = "fill 1.1 1.2 " ] || fail "kwa_wl.py $w: phases $(cut -d' ' -f1 "$dir/opsa")"
		grep -qE '^1\.1( (w [0-9]+ [0-9]+ [0-9]+|t [0-9]+ [0-9]+|u [0-9]+))+$' "$dir/opsa" || fail "kwa_wl.py $w: ops $(sed -n 2p "$dir/opsa" | head -c 200)"
		[ $w = files ] || grep -q ' u ' "$dir/opsa" || fail "kwa_wl.py applog: no file deleted"
	done
	python3 "$wl" nosuch "$dir" "$dir/st" fill 1 1 1 65536 0 "$dir/o" "$dir/j" > "$dir/wl.err" 2>&1 && fail "kwa_wl.py: an unknown workload ran"
	grep -q "unknown workload 'nosuch'" "$dir/wl.err" || fail "kwa_wl.py nosuch: $(tail -1 "$dir/wl.err")"
	mkdir -p "$dir/mf"
	head -1 "$src/tests/data/kernel-6.1/kwa-25-75-1.out" | sed 's/"point":"25-75-1"/"point":"mf-25-75-1"/; s/}$/,"tag":"mf","wl":"files"}/' > "$dir/mf/kwa-mf-25-75-1.out"
	for p in fill 1.1; do
		grep "\"phase\":\"$p\"" "$src/tests/data/kernel-6.1/kwa-25-75-1.out" | sed 's/"point":"25-75-1"/"point":"mf-25-75-1"/'
	done >> "$dir/mf/kwa-mf-25-75-1.out"
	# f0: 4 blocks, f1: 2 blocks; f0 truncated to 1, unlinked; f2 (3 blocks) takes f0's range
	printf 'fill w 0 0 4 w 1 0 2\n1.1 t 0 1 w 1 1 1 u 0 w 2 0 3 u 2\n' > "$dir/mf/kwa-mf-25-75-1.idx"
	python3 "$src/tests/validate/kwa.py" scenario "$dir/mf" "$dir/mfs" > "$dir/mf.out" 2>&1 || fail "kwa.py scenario, files: $(tail -3 "$dir/mf.out")"
	t=$dir/mfs/traces/kwa-mf-25-75-1.iolog
	[ "$(grep -v '^f add\|^f open\|^fio' "$t" | tr '\n' ,)" = "f write 0 65536,f write 65536 65536,f write 131072 65536,f write 196608 65536,f write 262144 65536,f write 327680 65536,f sync 0 0,f trim 65536 196608,f write 327680 65536,f trim 0 65536,f write 0 65536,f write 65536 65536,f write 131072 65536,f trim 0 196608,f sync 0 0," ] ||
		fail "kwa.py: the files point's replay: $(tr '\n' , < "$t")"
	grep -q 'file-size = .*393216' "$dir/mfs/kernel-6.1.ini" || fail "kwa.py: fs-core's file is not 4 + 2 blocks: $(grep file-size "$dir/mfs/kernel-6.1.ini")"
	printf 'fill w 0 0 4 w 1 0 2\n1.1 t 0 x\n' > "$dir/mf/kwa-mf-25-75-1.idx"
	python3 "$src/tests/validate/kwa.py" scenario "$dir/mf" "$dir/mfs" > "$dir/mf.out" 2>&1 && fail "kwa.py: a bad operation replayed"
	grep -q "kwa-mf-25-75-1.idx:2: operation 1 ('t 0 x')" "$dir/mf.out" && ! grep -q Traceback "$dir/mf.out" || fail "kwa.py, a bad operation: $(tail -2 "$dir/mf.out")"
	rm "$dir/mf/kwa-mf-25-75-1.idx"
	python3 "$src/tests/validate/kwa.py" scenario "$dir/mf" "$dir/mfs" > "$dir/mf.out" 2>&1 && fail "kwa.py: a files point without operations replayed"
	grep -q "workload files without its operations" "$dir/mf.out" || fail "kwa.py, no operations: $(tail -2 "$dir/mf.out")"
else
	fail "no tests/data/kernel-6.1 or no python3"
fi
[ $fails = 0 ] && echo "PASS: --reclaim linux-6.1 and linux-6.12 (errors, queueing, gate, ENOSPC) and the kernel comparison"
exit $((fails > 0))
