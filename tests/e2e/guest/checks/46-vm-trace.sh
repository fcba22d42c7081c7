# vm_trace: the golden replay (issue 14).  On a disk of its own (512 MiB,
# 16 MiB zones, 4 conventional, control socket on) zonelab's command trace
# (`zonelab ctl SOCK trace start`, docs/TRACE-FORMAT.md) and a blktrace of
# the same /dev/sdX (issue and complete events) are recorded while a small
# zoned btrfs (mkfs, write files, sync, delete, sync, umount) and a short
# fio zoned write job run.  Then: (1) the two traces agree on the requests
# and bytes of every read, write, flush and zone reset (`zonelab trace
# stat --json` on both; and the sorted per-request lists of op, zone,
# length from `zonelab trace cat` are identical: btrfs writes data with zone
# append, which sd turns into a WRITE at the write pointer, while blktrace
# records such a request at the zone's start, so offsets are compared per
# zone); the commands the kernel or
# LIO issue as SCSI passthrough (REPORT ZONES, INQUIRY, ...) are in the
# command trace as "other" and skipped by the blktrace reader, so they are
# not compared; (2) `zonelab trace replay` of the command trace onto a fresh
# image of the same geometry with --verify has zero divergences; (3) the
# same replay onto a fresh zoned block device of that geometry (a second
# disk, /dev/sdY: O_DIRECT and the kernel's zone ioctls) has zero
# divergences too, and leaves every zone's type, condition and write
# pointer as the capture left the first disk (blkzone report).  The traces
# are dumped base64-encoded into logs/vm-trace-data.out (the source of
# tests/data/vm-btrfs.*; see tests/data/README.md).
. /e2e/lib.sh
[ "$E2E_HANDLER" = zonelab ] || skip "needs handler_zonelab's command trace"
[ -x $ZONELAB ] || skip "zonelab command not in the VM"
command -v blktrace > /dev/null || fail "blktrace not in the VM (E2E_PKGS)"
img=/tmp/zlv.img; h_fresh $img
W=/tmp/vmtrace; rm -rf $W; mkdir -p $W
ctl() { $ZONELAB ctl $img.ctl "$@"; }
dev_create zlv $((512 << 20)) "$(h_cfg_ctl $img 16 4 16)" || fail "backstore zlv"
dev=$(lun_attach zlv) || fail "no disk for zlv"
bt_pid=""
img2=/tmp/zlw.img; h_fresh $img2
trap '[ -n "$bt_pid" ] && kill -INT $bt_pid 2>/dev/null; umount /mnt 2>/dev/null; dev_remove zlw; dev_remove zlv; rm -f $img $img2 $W/fresh.img' EXIT
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug || fail "cannot mount debugfs"

# Record: blktrace first (idle disk), then the handler's trace.
blktrace -d $dev -a issue -a complete -D $W -o vm-btrfs > $LOGS/blktrace.out 2>&1 &
bt_pid=$!
for i in $(seq 100); do [ -e $W/vm-btrfs.blktrace.0 ] && break; sleep 0.1; done
[ -e $W/vm-btrfs.blktrace.0 ] || { cat $LOGS/blktrace.out; fail "blktrace did not start"; }
sleep 1
ctl trace start $W/vm-btrfs.ztrace > /dev/null || fail "ctl trace start"

mkfs.btrfs -f -O zoned $dev > $LOGS/vm-trace-mkfs.out 2>&1 || fail "mkfs.btrfs -O zoned"
mount -t btrfs $dev /mnt || fail "mount"
for i in 1 2 3 4 5 6; do
	head -c $((i * 48 * 1024)) /dev/urandom > /mnt/f$i || fail "write /mnt/f$i"
done
sync
rm -f /mnt/f2 /mnt/f4 /mnt/f6
sync
umount /mnt || fail "umount"
# fio: zones 20 and 21 (above what btrfs used), reset first, then zone 20
# written sequentially (fio wants io_size of at least one zone).
zs=$((16 << 20))
blkzone reset -o $((20 * zs / 512)) -c 2 $dev || fail "blkzone reset zones 20-21"
fio --name=zw --filename=$dev --zonemode=zbd --direct=1 --ioengine=psync \
	--rw=write --bs=256k --offset=$((20 * zs)) --size=16M > $LOGS/vm-trace-fio.out 2>&1 ||
	fail "fio zoned write"
sync; sleep 1

ctl trace stop > $LOGS/vm-trace-stop.out || fail "ctl trace stop: $(cat $LOGS/vm-trace-stop.out)"
kill -INT $bt_pid; wait $bt_pid; bt_pid=""
ls -l $W > $LOGS/vm-trace-files.out
# Both traces are kept before anything is compared, so that a failure can be
# read request by request: base64 (one "=== name" header per file; the
# source of tests/data/vm-btrfs.*), each as `zonelab trace cat`, and the
# blktrace as blkparse text (RWBS flags: F = FUA, ...).
Z=$W/vm-btrfs.ztrace
bts=$(ls $W/vm-btrfs.blktrace.* | sort -V)
for f in $Z $bts; do echo "=== ${f##*/}"; base64 -w 76 $f; done > $LOGS/vm-trace-data.out
$ZONELAB trace cat $Z > $LOGS/vm-trace-zcat.out 2>&1
$ZONELAB trace cat $bts > $LOGS/vm-trace-bcat.out 2>&1
command -v blkparse > /dev/null && blkparse -i vm-btrfs -D $W > $LOGS/vm-trace-blkparse.out 2>&1

# (1) The two traces agree.
$ZONELAB trace stat --json $Z > $LOGS/vm-trace-zstat.json || fail "trace stat on the command trace"
$ZONELAB trace stat --json $bts > $LOGS/vm-trace-bstat.json || fail "trace stat on the blktrace"
opstat() { grep -oE "\"$1\":\{\"requests\":[0-9]+,\"bytes\":[0-9]+\}" "$2" | head -1; }
# Since Linux 6.19 the guest's blktrace 1.3.0 (version-1 format) records no
# zone reset and no FUA request (bt_v1_blind, lib.sh): there blktrace must
# show none of either, the resets are compared no further (the command trace
# must still hold them) and the command trace's FUA writes (btrfs's primary
# superblock, `trace cat`'s "fua") are left out of the write comparison.
ops=read,write,flush,zone-reset
nofua=cat
# The same shown on the kernel's scsi_debug: a 64 KiB write, a 4 KiB FUA
# write after it (O_DIRECT|O_DSYNC: REQ_FUA, block/fops.c) and a reset of
# two zones under the same blktrace; it must record the 64 KiB write only
# (ref: "WRITE-STAT|RESET-STAT").
bt_ref() {
	local before s i f=$W/sdref
	rmmod scsi_debug 2> /dev/null
	before=$(ls /sys/block | grep '^sd' | sort)
	modprobe scsi_debug zbc=managed dev_size_mb=128 zone_size_mb=16 zone_nr_conv=0 || fail "modprobe scsi_debug zbc=managed"
	for i in $(seq 100); do
		s=$(comm -13 <(echo "$before") <(ls /sys/block | grep '^sd' | sort) | head -1)
		[ -n "$s" ] && break; sleep 0.1
	done
	[ -n "$s" ] && udevless_wait $s || fail "scsi_debug zbc=managed did not attach"
	blktrace -d /dev/$s -a issue -a complete -D $W -o sdref > $LOGS/blktrace-ref.out 2>&1 &
	bt_pid=$!
	for i in $(seq 100); do [ -e $f.blktrace.0 ] && break; sleep 0.1; done
	sleep 1
	dd if=/dev/urandom of=/dev/$s bs=64K count=1 oflag=direct status=none || fail "write to scsi_debug"
	dd if=/dev/urandom of=/dev/$s bs=4K seek=16 count=1 oflag=direct,dsync status=none ||
		fail "FUA write to scsi_debug"
	blkzone reset -o 0 -c 2 /dev/$s || fail "blkzone reset on scsi_debug"
	sleep 1; kill -INT $bt_pid; wait $bt_pid; bt_pid=""
	rmmod scsi_debug || note "rmmod scsi_debug failed;"
	$ZONELAB trace stat --json $f.blktrace.* > $LOGS/vm-trace-ref-bstat.json || fail "trace stat on scsi_debug's blktrace"
	ref="$(opstat write $LOGS/vm-trace-ref-bstat.json)|$(opstat zone-reset $LOGS/vm-trace-ref-bstat.json)"
}
if bt_v1_blind; then
	b=$(opstat zone-reset $LOGS/vm-trace-bstat.json)
	[ -z "$b" ] || fail "kernel $(uname -r): blktrace's version-1 format recorded zone resets ($b), which 6.19 on drops"
	bt_ref
	[ "$ref" = '"write":{"requests":1,"bytes":65536}|' ] ||
		fail "scsi_debug under blktrace: '$ref', want the 64 KiB write, not the 4 KiB FUA write, no zone reset (kernel $(uname -r))"
	b=$(grep -c ' fua$' $LOGS/vm-trace-bcat.out)
	[ "$b" -eq 0 ] || fail "kernel $(uname -r): blktrace's version-1 format recorded $b FUA requests, which 6.19 on drops"
	ops=read,write,flush
	nofua="grep -v ' fua$'"
	fua=$($ZONELAB trace cat --op write $Z | grep ' fua$' |
		awk -v zs=$zs '{ n++; b += $4; z = z sprintf("%s%d+%d@zone%d", n > 1 ? "," : "", $3, $4, int($3 / zs)) }
			END { printf "%d (%d B: %s)", n, b, z }')
	note "kernel $(uname -r): zone resets not compared, nor the command trace's FUA writes, $fua: blktrace's version-1 format records neither since 6.19 (scsi_debug alike: its 64 KiB write, not its 4 KiB FUA write, none of its 2 resets);"
fi
# catstat OP FILE... - '"OP":{"requests":N,"bytes":B}' from `trace cat`
# (the FUA writes left out where blktrace cannot see them); empty for none.
catstat() {
	local op=$1; shift
	$ZONELAB trace cat --op $op "$@" | eval "$nofua" |
		awk -v op=$op '{ n++; b += $4 } END { if (n) printf "\"%s\":{\"requests\":%d,\"bytes\":%d}", op, n, b }'
}
for op in ${ops//,/ }; do
	a=$(opstat $op $LOGS/vm-trace-zstat.json); b=$(opstat $op $LOGS/vm-trace-bstat.json)
	[ "$nofua" = cat ] || { a=$(catstat $op $Z); b=$(catstat $op $bts); }
	[ "$a" = "$b" ] || fail "$op differs: command trace ${a:-none}, blktrace ${b:-none}"
	[ $op = write ] && cw=$a
done
nw=$(opstat write $LOGS/vm-trace-zstat.json | grep -oE 'requests":[0-9]+' | grep -oE '[0-9]+')
[ "${nw:-0}" -gt 64 ] || fail "only ${nw:-0} writes recorded"
nr=$(opstat zone-reset $LOGS/vm-trace-zstat.json | grep -oE 'requests":[0-9]+' | grep -oE '[0-9]+')
[ "${nr:-0}" -ge 2 ] || fail "only ${nr:-0} zone resets recorded"
zl() { awk -v zs=$zs '{ printf "%s %d %s\n", $2, int($3 / zs), $4 }' | sort; }
$ZONELAB trace cat --op $ops $Z | eval "$nofua" | zl > $W/z.ops
$ZONELAB trace cat --op $ops $bts | zl > $W/b.ops
if ! cmp -s $W/z.ops $W/b.ops; then
	diff $W/z.ops $W/b.ops | head -40
	fail "per-request op/zone/length lists differ"
fi

# (2) Golden replay onto a fresh image of the same geometry.
$ZONELAB disk create $W/fresh.img --size 512M --zone-size 16M --conv 4 --max-open 16 > /dev/null ||
	fail "zonelab disk create"
$ZONELAB trace replay $Z --to $W/fresh.img --verify > $LOGS/vm-trace-replay.out 2>&1 ||
	{ cat $LOGS/vm-trace-replay.out; fail "replay --verify diverged: $(grep -m1 divergence $LOGS/vm-trace-replay.out)"; }

# (3) The same onto a zoned block device: a second disk of the same
# geometry, fresh; then its zones are those the capture left on the first.
dev_create zlw $((512 << 20)) "$(h_cfg_ctl $img2 16 4 16)" || fail "backstore zlw"
dev2=$(lun_attach zlw) || fail "no disk for zlw"
$ZONELAB trace replay $Z --to $dev2 --verify > $LOGS/vm-trace-replay-blk.out 2>&1 ||
	{ cat $LOGS/vm-trace-replay-blk.out; fail "replay --verify onto $dev2 diverged: $(grep -m1 divergence $LOGS/vm-trace-replay-blk.out)"; }
zones() { blkzone report "$1" | sed 's/^ *//'; }
zones $dev > $W/zones-captured; zones $dev2 > $W/zones-replayed
if ! cmp -s $W/zones-captured $W/zones-replayed; then
	diff $W/zones-captured $W/zones-replayed | head -20
	fail "zones after the replay onto $dev2 differ from the captured disk's"
fi
nz=$(grep -c "wptr" $W/zones-replayed)
[ "$nz" -eq 32 ] || fail "blkzone report of $dev2 listed $nz zones, want 32"

note "$(wc -l < $W/z.ops) requests agree ($cw); replay --verify: 0 divergences on an image ($(tail -1 $LOGS/vm-trace-replay.out)) and on $dev2 ($(tail -1 $LOGS/vm-trace-replay-blk.out)), zones equal"
