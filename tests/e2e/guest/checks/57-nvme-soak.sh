# nvme_soak: mixed I/O with zone resets at QD32 and faults on a ZNS
# namespace, and no lost write (issue 33; docs/NVME-ZNS.md "Soak").  A
# 256 MiB all-sequential zonelab disk of 1,024 zones of 256 KiB exported
# through nvmet over NVMe/TCP (nvme_core multipath=N, mq-deadline where the
# kernel offers it, as for t/zbd).  Each of E2E_SOAK_ROUNDS rounds (3) runs
# one fio (libaio, QD32 each) of two jobs side by side: 64 KiB random writes
# in zbd mode over a region of 64 zones (a new region every round, at most 12
# zones open; fio writes at the write pointers and resets a full zone before
# writing it again: the round's share of the soak's zone resets) and 4 KiB
# random reads over the whole namespace, which end when the writes do
# (exitall).  Under fault rules added through `zonelab ctl`: seeded medium
# errors on reads (the host retries them: Access Denied without DNR) and
# seeded 20 ms write delays.  After each round's fio a write fault that
# reaches the initiator: a rule fails the next write in the zone after the
# region, a 64 KiB O_DIRECT dd at its start fails (EIO) and the same dd
# again succeeds; then blkzone resets the region and that zone (65 zone
# resets).  At the end the initiator's zone report (blkzone on the
# namespace) equals zonelab's own, every zone reset (blkzone then one reset
# of the whole namespace) and the accounting holds exactly: from before the
# first round to after it all, zonelab's written bytes (write_lbas) = fio's
# written bytes + the dd writes that succeeded = the namespace's written
# sectors (/sys/block/nvmeXnY/stat) - the dd writes that failed (the block
# layer counts a failed request's bytes); zonelab's read bytes = the
# namespace's read sectors = fio's read bytes; zonelab's single-zone resets
# (zop_reset) = fio's zone resets + blkzone's, its reset-all (zop_reset_all)
# = 1; every error zonelab counted is a fired fault (errors = faults fired -
# delays), and the write errors are the dd's.  Fails on any fio error or on
# an inequality.  Size: E2E_SOAK_RESETS fio zone resets in all (default 342,
# a tenth of the hour-equivalent), E2E_SOAK=hour for the hour-equivalent
# (3,420: the zones of 256 MiB an HC620 fills in an hour at its sustained
# 255 MB/s, here zones of 256 KiB; docs/NVME-ZNS.md).  Figures in
# logs/nvme-soak.txt.
. /e2e/lib.sh
. /e2e/nvme.sh
nv_need
ZKB=256; NZ=1024; REG=64
ROUNDS=${E2E_SOAK_ROUNDS:-3}
if [ "${E2E_SOAK:-}" = hour ]; then RESETS=3420; else RESETS=${E2E_SOAK_RESETS:-342}; fi
[ $(( ROUNDS * (REG + 1) )) -le $NZ ] || fail "E2E_SOAK_ROUNDS=$ROUNDS: at most $(( NZ / (REG + 1) )) rounds of $REG zones"
MP=N
nv_multipath N || fail "cannot reload nvme_core with multipath=N"
teardown() {
	$NVMET teardown zlsk > /dev/null 2>&1; nv_zl_rm zlsk; rm -f /tmp/zlsk.img
	[ -z "$MP" ] || nv_multipath Y
}
trap teardown EXIT
OUT=$LOGS/nvme-soak.txt; : > $OUT

d=$(nv_zl zlsk $(( NZ * ZKB >> 10 )) ${ZKB}K) && [ -n "$d" ] || fail "zonelab disk did not attach"
n=$(nv_up $d zlsk) && [ -n "$n" ] || fail "export/connect: $(cat $LOGS/nvmet-zlsk.out)"
[ "$(cat /sys/block/$n/queue/nr_zones)" = $NZ ] || fail "$n: $(cat /sys/block/$n/queue/nr_zones) zones, want $NZ"
grep -qw mq-deadline /sys/block/$n/queue/scheduler 2> /dev/null && echo mq-deadline > /sys/block/$n/queue/scheduler
ctl=/tmp/zlsk.img.ctl
say "zonelab $d -> $n: $NZ zones of $ZKB KiB, scheduler $(cat /sys/block/$n/queue/scheduler), $ROUNDS rounds, $RESETS fio zone resets in all"
zstats() { $ZONELAB ctl --json $ctl stats; }
zstats > /tmp/soak-z0.json || fail "zonelab ctl stats"
[ "$(cat /sys/module/nvme_core/parameters/max_retries)" -gt 0 ] || fail "nvme_core max_retries is 0: the read faults would reach fio"
cp /sys/block/$n/stat /tmp/soak-b0.stat
$ZONELAB ctl $ctl fault add 'medium-error:op=read,prob=0.003,count=40;latency:op=write,prob=0.02,ms=20,repeat' > /dev/null ||
	fail "fault add"
ZB=$(( ZKB << 10 )); per=$(( (RESETS + ROUNDS - 1) / ROUNDS ))
ddok=0; ddfail=0; bzr=0; kmsg_mark
for r in $(seq 1 $ROUNDS); do
	z0=$(( (r - 1) * (REG + 1) ))
	fio --output-format=normal,json --output=$LOGS/nvme-soak-fio-$r.out --direct=1 --ioengine=libaio --iodepth=32 \
		--filename=/dev/$n --randseed=$r --exitall \
		--name=w --rw=randwrite --zonemode=zbd --bs=64k --offset=$(( z0 * ZB )) --size=$(( REG * ZB )) \
		--io_size=$(( (REG + per) * ZB )) --max_open_zones=12 \
		--name=r --rw=randread --bs=4k --offset=0 --size=$(( NZ * ZB )) --time_based --runtime=36000 \
		> /dev/null 2>&1 || fail "round $r: fio: $(tail -5 $LOGS/nvme-soak-fio-$r.out)"
	# a write fault the initiator sees: every write into zone z0 + REG
	# (empty) fails until the rule goes, the host's retries included
	zf=$(( z0 + REG ))
	id=$($ZONELAB ctl --json $ctl fault add "medium-error:op=write,zone=$zf,repeat" | grep -o '"ids":\[[0-9]*' | grep -o '[0-9]*$')
	[ -n "$id" ] || fail "fault add (write, zone $zf)"
	if dd if=/dev/urandom of=/dev/$n bs=64k count=1 seek=$(( zf * ZB / 65536 )) oflag=direct status=none 2> /tmp/soak-dd.err; then
		fail "round $r: the write into zone $zf did not fail under its fault rule"
	fi
	ddfail=$((ddfail + 1))
	$ZONELAB ctl $ctl fault rm $id > /dev/null || fail "fault rm $id"
	# after a failed write the initiator reads the zone's write pointer
	# again, as btrfs and zonefs do: since zone write plugging (6.10) the
	# block layer fails every write into that zone until a zone report,
	# reset or finish (BLK_ZONE_WPLUG_NEED_WP_UPDATE, block/blk-zoned.c:970
	# in 6.12; a report syncs the plug in disk_report_zones_cb(), :135);
	# and the failed write stored nothing
	wp=$(bz_zones $n | awk -v s=$(( zf * ZB / 512 )) '$1 == s { print $3 - $1, $4 }')
	[ "${wp% *}" = 0 ] || fail "round $r: zone $zf after the failed write: write pointer +${wp% *} sectors (${wp#* }), want 0"
	dd if=/dev/urandom of=/dev/$n bs=64k count=1 seek=$(( zf * ZB / 65536 )) oflag=direct status=none ||
		fail "round $r: the write into zone $zf failed again after its rule was removed: $(cat /tmp/soak-dd.err)"
	ddok=$((ddok + 1))
	python3 - $LOGS/nvme-soak-fio-$r.out $r >> $OUT <<-'EOF' || fail "round $r: $(tail -1 $OUT)"
	import json, re, sys
	t = open(sys.argv[1]).read()
	j = json.JSONDecoder().raw_decode(t[t.index("{\n"):])[0]
	jobs = {x["jobname"]: x for x in j["jobs"]}
	m = re.search(r"; (\d+) zone resets", t)
	err = sum(x["error"] for x in j["jobs"]) + sum(x.get("total_err", 0) for x in j["jobs"])
	w, rd = jobs["w"]["write"], jobs["r"]["read"]
	print("round %s w_bytes %d w_ios %d r_bytes %d r_ios %d resets %s errors %d w_MiBps %.2f r_iops %.0f" % (sys.argv[2],
	      w["io_bytes"], w["total_ios"], rd["io_bytes"], rd["total_ios"], m.group(1) if m else "?", err,
	      w["bw_bytes"] / 1048576, rd["iops"]))
	if err or not m:
	    sys.exit("fio errors %d, zone resets %s" % (err, m.group(1) if m else "not printed"))
	EOF
	blkzone reset -o $(( z0 * ZB / 512 )) -c $(( REG + 1 )) /dev/$n || fail "round $r: blkzone reset of zones $z0-$zf"
	bzr=$(( bzr + REG + 1 ))
	say "$(tail -1 $OUT)"
done
# the zones as the initiator and as zonelab see them, before the last reset
bz_zones $n > /tmp/soak-bz.txt
for k in $(seq 0 256 $(( NZ - 1 ))); do $ZONELAB ctl --json $ctl zone report $(( k * ZB / 512 )) all 256; done | python3 -c '
import json, sys
c = {"empty": "em", "imp-open": "oi", "exp-open": "oe", "closed": "cl", "full": "fu", "read-only": "ro", "offline": "of"}
t, i, d = sys.stdin.read(), 0, json.JSONDecoder()
while t[i:].strip():
    o, i = d.raw_decode(t, i + len(t[i:]) - len(t[i:].lstrip()))
    for z in o["zones"]:
        print(z["start"], z["len"], z["wp"] if z["wp"] is not None else "-", c.get(z["cond"], z["cond"]))' > /tmp/soak-zl.txt
cmp -s /tmp/soak-bz.txt /tmp/soak-zl.txt || { diff /tmp/soak-bz.txt /tmp/soak-zl.txt | head -20 > $LOGS/nvme-soak-zones-diff.txt; fail "zone reports differ (logs/nvme-soak-zones-diff.txt)"; }
blkzone reset /dev/$n || fail "blkzone reset of the whole namespace"
zstats > /tmp/soak-z1.json || fail "zonelab ctl stats"
cp /sys/block/$n/stat /tmp/soak-b1.stat
kmsg_since > $LOGS/nvme-soak-kmsg.txt
tries=$(( $(cat /sys/module/nvme_core/parameters/max_retries) + 1 ))
python3 - $OUT $ddok $ddfail $bzr $tries /tmp/soak-z0.json /tmp/soak-z1.json /tmp/soak-b0.stat /tmp/soak-b1.stat >> $OUT <<'EOF' ||
import json, sys
rounds = [dict(zip(l.split()[0::2], l.split()[1::2])) for l in open(sys.argv[1]) if l.startswith("round ")]
ddok, ddfail, bzr, tries = (int(x) for x in sys.argv[2:6])
z0, z1 = (json.load(open(f))["stats"] for f in sys.argv[6:8])
b0, b1 = ([int(x) for x in open(f).read().split()] for f in sys.argv[8:10])
lba = json.load(open(sys.argv[7]))["geometry"]["lba_size"]
z = {k: z1[k] - z0[k] for k in z1 if isinstance(z1[k], int)}
ek = {k: z1["error_kinds"].get(k, 0) - z0["error_kinds"].get(k, 0) for k in z1["error_kinds"]}
ns_w, ns_r = (b1[6] - b0[6]) * 512, (b1[2] - b0[2]) * 512
fio_w = sum(int(r["w_bytes"]) for r in rounds); fio_r = sum(int(r["r_bytes"]) for r in rounds)
fio_z = sum(int(r["resets"]) for r in rounds)
dd = 65536
zl_w, zl_r = z["write_lbas"] * lba, z["read_lbas"] * lba
rows = [
    ("written bytes: zonelab = fio + dd ok", zl_w, fio_w + ddok * dd),
    ("written bytes: namespace - dd failed = zonelab", ns_w - ddfail * dd, zl_w),
    ("read bytes: zonelab = namespace", zl_r, ns_r),
    ("read bytes: zonelab = fio", zl_r, fio_r),
    ("single-zone resets: zonelab zop_reset = fio + blkzone", z["zop_reset"], fio_z + bzr),
    ("reset-all: zonelab zop_reset_all = 1", z["zop_reset_all"], 1),
    ("errors: zonelab = faults fired that fail (fired - delays)", z["errors"], None),
    ("write errors: zonelab medium_write = dd failed x the host's tries (nvme_core max_retries + 1)", ek.get("medium_write", 0), ddfail * tries),
]
bad = []
print("totals: fio written %d read %d zone resets %d; dd ok %d failed %d; blkzone single resets %d; zonelab writes %d (%d B) reads %d (%d B) zop_reset %d zop_reset_all %d faults_fired %d errors %d %s injected_delay_ms %.0f; namespace write_sectors %d read_sectors %d" % (
    fio_w, fio_r, fio_z, ddok, ddfail, bzr, z["writes"], zl_w, z["reads"], zl_r, z["zop_reset"], z["zop_reset_all"],
    z["faults_fired"], z["errors"], json.dumps({k: v for k, v in ek.items() if v}), z["injected_delay_ns"] / 1e6, ns_w // 512, ns_r // 512))
for name, a, b in rows:
    if b is None:
        continue
    print("%s: %d %s %d" % (name, a, "==" if a == b else "!=", b))
    if a != b:
        bad.append("%s: %d != %d" % (name, a, b))
# errors are only faults: every fault that fails a command is counted as an
# error (medium errors); delays fire without an error
med = ek.get("medium_read", 0) + ek.get("medium_write", 0)
print("errors %d = medium errors %d (read %d, write %d)" % (z["errors"], med, ek.get("medium_read", 0), ek.get("medium_write", 0)))
if z["errors"] != med:
    bad.append("errors other than the injected medium errors: %s" % json.dumps({k: v for k, v in ek.items() if v}))
if ek.get("medium_read", 0) == 0:
    bad.append("no read fault fired")
if bad:
    print("FAILED: " + "; ".join(bad))
    sys.exit(1)
EOF
	fail "$(tail -1 $OUT)"
cat $OUT
$NVMET teardown zlsk || fail "teardown of the export failed"
nv_zl_rm zlsk
left=$(nv_left)
[ -z "$left" ] || fail "left after teardown: $left"
note "$ROUNDS rounds, QD32 writes+reads, $(sed -n 's/^totals: //p' $OUT); every count equal"
