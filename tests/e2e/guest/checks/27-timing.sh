# timing: a timed zonelab disk (timing=hc620, the WD Ultrastar DC HC620
# model, docs/TIMING.md) measured with fio through the kernel (tcm_loop)
# and compared with the model's own figures for the same disk
# (`zonelab timing table --zones 64 --zone-size 256M --json`).
#
# Disks (64 zones of 256 MiB = 16 GiB, all sequential, sparse images in the
# guest's RAM: nothing is written but zone state): zltf (timing
# hc620/cache=0, sched fifo), zlts (the same with sched=sptf) and zltu (no
# timing: the VM's own overhead, measured the same way).  The model puts
# emulated zone i at the radius of the drive's zone slot i x 55,879/64
# (ztime_create()), so this disk spans the whole stroke: zone 0 is the
# outer diameter, zone 63 near the inner one; offsets inside a zone are not
# scaled.  Measured:
#   QD1 4 KiB random reads over the whole disk (IOPS, mean latency)
#   sequential 1 MiB reads (QD4) of zone 0 (OD) and zone 63 (ID) (MB/s)
#   QD32 4 KiB random reads, FIFO (zltf) and SPTF (zlts) (IOPS)
#   zone FINISH and RESET latency (guest/zoneop_lat.py: ioctls timed in one
#   process)
# and asserted (guest/timing_cmp.py): QD1 mean latency within
# [model - 3 standard errors, model + 3 se + the untimed disk's mean latency]
# and IOPS within 15%; sequential MB/s within 15% below the model and not
# above it (+2%); QD32 IOPS within 15% each and SPTF/FIFO > 2; every zone
# operation took at least the model's time, and the median at most the
# model + the untimed disk's 90th percentile.  The figures go to
# logs/timing.out and the check's log.
. /e2e/lib.sh
[ "$E2E_HANDLER" = zonelab ] || skip "needs the zonelab handler (timing=)"
NZ=64; ZMIB=256; SZ=$(( NZ * ZMIB << 20 ))
T_QD1=${TM_QD1_SECS:-10}; T_QD32=${TM_QD32_SECS:-12}
MODEL=hc620/cache=0
cfg() { echo "zonelab/$1?zsize=${ZMIB}M&conv=0&max_open=16&lba=${E2E_LBA:-512}&ctl=1${2:+&timing=$2}"; }
for d in zltf zlts zltu; do dev_remove $d; rm -f /tmp/$d.img /tmp/$d.img.ctl; done
# A timed disk needs tcmu-runner's work queue (docs/TIMING.md "In the
# handler": 1.5.4 gives a passthrough command no completion callback
# without one); tcmu-runner is restarted with ZONELAB_TCMU_THREADS=64 (its queue depth: a timed command holds its thread until due) for
# this check and without it afterwards (the devices of earlier checks are
# reopened by each start).
restart_runner() {
	runner_stop
	if [ -n "${1:-}" ]; then export ZONELAB_TCMU_THREADS=$1; else unset ZONELAB_TCMU_THREADS; fi
	runner_start || fail "tcmu-runner restart${1:+ with ZONELAB_TCMU_THREADS=$1}"
	unset ZONELAB_TCMU_THREADS
}
restart_runner 64
trap 'for d in zltf zlts zltu; do dev_remove $d; rm -f /tmp/$d.img; done; restart_runner' EXIT
# 1 MiB commands (TCMU's default hw_max_sectors is 64 KiB): a 1 MiB read is
# one command to the model, as in the table.
dev_create zltf $SZ "$(cfg /tmp/zltf.img $MODEL)" hw_max_sectors=2048 || fail "backstore zltf"
dev_create zlts $SZ "$(cfg /tmp/zlts.img $MODEL/sched=sptf)" hw_max_sectors=2048 || fail "backstore zlts"
dev_create zltu $SZ "$(cfg /tmp/zltu.img)" hw_max_sectors=2048 || fail "backstore zltu"
for d in zltf zlts zltu; do
	lun_attach $d > /dev/null || fail "no disk for $d"
	s=$(devname $d)
	[ "$(cat /sys/block/$s/queue/nr_zones)" = $NZ ] || fail "$d: nr_zones $(cat /sys/block/$s/queue/nr_zones), want $NZ"
	say "$d: /dev/$s, max_sectors_kb $(cat /sys/block/$s/queue/max_sectors_kb), scheduler $(cat /sys/block/$s/queue/scheduler), queue_depth $(cat /sys/block/$s/device/queue_depth 2>/dev/null)"
done
F=/dev/$(devname zltf); S=/dev/$(devname zlts); U=/dev/$(devname zltu)
J=$LOGS/timing

# The model's figures for this disk (deterministic, virtual time).
$ZONELAB timing table --timing-model "${MODEL//\//,}" --zones $NZ --zone-size ${ZMIB}M --json \
	> $J-model.json || fail "zonelab timing table"
$ZONELAB timing table --timing-model "${MODEL//\//,}" --zones $NZ --zone-size ${ZMIB}M > $LOGS/timing-model.txt

fio_j() { # TAG DEV fio-args...: one job, JSON into $J-TAG.json
	local tag=$1 dev=$2; shift 2
	fio --name=$tag --filename=$dev --direct=1 --ioengine=libaio --readonly \
		--output-format=json "$@" > $J-$tag.json 2> $J-$tag.err || fail "fio $tag: $(tail -1 $J-$tag.err)"
}
rnd="--rw=randread --bs=4k --norandommap --randrepeat=0 --time_based"
# The VM's own overhead: the untimed disk, the same jobs.
fio_j u_qd1 $U $rnd --iodepth=1 --runtime=4 --ramp_time=1
fio_j u_od $U --rw=read --bs=1M --iodepth=4 --offset=0 --size=${ZMIB}M
fio_j u_qd32 $U $rnd --iodepth=32 --runtime=4 --ramp_time=1
python3 /e2e/zoneop_lat.py $U 8 8 3 > $J-u_zop.json || fail "zone ops on zltu"
# The timed disks.
fio_j qd1 $F $rnd --iodepth=1 --runtime=$T_QD1 --ramp_time=1
fio_j od $F --rw=read --bs=1M --iodepth=4 --offset=0 --size=${ZMIB}M
fio_j id $F --rw=read --bs=1M --iodepth=4 --offset=$(( (NZ - 1) * ZMIB ))M --size=${ZMIB}M
fio_j fifo $F $rnd --iodepth=32 --runtime=$T_QD32 --ramp_time=2
fio_j sptf $S $rnd --iodepth=32 --runtime=$T_QD32 --ramp_time=2
stat1() { $ZONELAB ctl --json /tmp/$1.img.ctl stats | grep -oE "\"$2\":[0-9]+" | head -1 | cut -d: -f2; }
r0=$(stat1 zltf zop_reset); f0=$(stat1 zltf zop_finish)
python3 /e2e/zoneop_lat.py $F 8 8 3 > $J-zop.json || fail "zone ops on zltf"
r1=$(stat1 zltf zop_reset); f1=$(stat1 zltf zop_finish)
say "handler zltf: $(( r1 - r0 )) resets, $(( f1 - f0 )) finishes counted during the zone-op loop (24 each sent)"
[ "$(( r1 - r0 ))" = 24 ] && [ "$(( f1 - f0 ))" = 24 ] ||
	fail "the zone-op loop sent 24 resets and 24 finishes, the handler counted $(( r1 - r0 )) and $(( f1 - f0 ))"
for d in zltf zlts; do
	$ZONELAB ctl --json /tmp/$d.img.ctl stats > $J-stats-$d.json
	say "handler $d timing: $(grep -oE '"timing":\{[^}]*\}' $J-stats-$d.json)"
done
python3 /e2e/timing_cmp.py $J > $LOGS/timing.out; rc=$?
cat $LOGS/timing.out
[ $rc = 0 ] || fail "$(grep '^FAIL' $LOGS/timing.out | head -3 | tr '\n' ' ')"
note "$(grep '^SUMMARY' $LOGS/timing.out | cut -d' ' -f2-)"
