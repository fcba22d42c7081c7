# kernel_wa: the write amplification of the kernel's own zoned btrfs on a
# zonelab disk (issue 22; method in docs/VALIDATION.md).  For each point
# "F,T,SEED" of KWA_POINTS (file = F% of the disk, data
# bg_reclaim_threshold T, fio seed SEED) on a fresh disk of its own
# (KWA_DISK_MIB, KWA_ZONE_MIB zones, KWA_NCONV conventional, control socket
# on): mkfs.btrfs -O zoned (defaults: metadata and system DUP), mount with
# commit=KWA_COMMIT and enospc_debug, a sequential O_DIRECT fill of the file, then
# KWA_PASSES passes of uniform random O_DIRECT overwrites (fio norandommap,
# KWA_BS blocks), each pass in KWA_PHASES phases.  Every phase ends with
# `btrfs filesystem sync` (a commit, and the transaction thread wakes the
# cleaner: unused block groups deleted, the reclaim list worked through when
# the gate allows) and waits until the disk is quiet.  Per phase it records
# one JSON line in logs/kwa-F-T-SEED.out: the application's bytes (fio),
# the device's bytes (the handler's own statistics), the same split by a
# blktrace of the phase into data / metadata (REQ_META) / superblock
# (zones 0-1), the relocations the kernel logged with each victim's used
# percentage at its pick, commits, and the per-type space (allocated, used,
# zone_unusable) from sysfs.  fio stops a phase at its first failed write
# (ENOSPC); later phases still run, to see whether reclaim recovers.  The
# host replays each phase's writes in fs-core (the md5 of fio's
# iolog is recorded; the offsets of each random phase, in blocks, are kept
# in logs/kwa-F-T-SEED.idx) and replays them in fs-core (tests/validate/).
# A point may carry settings of its own after the seed, KEY=VALUE, comma
# separated (issue 31: other shapes in the same boot): tag (a name, the
# point's id becomes TAG-F-T-SEED), dist (fio's random_distribution, e.g.
# zoned:90/10:10/90 for 90% of the writes to 10% of the file), direct (0:
# buffered writes), fsync (fio's fsync=N: an fsync every N writes), bs,
# zone (MiB), disk (MiB), nconv, passes, wl (the workload: fio, the
# default, one file; files or applog: several files with deletes and
# truncates, or an append log deleting its oldest files, run by
# /e2e/kwa_wl.py, which keeps each phase's operations, one line a phase from
# the fill on, in logs/kwa-ID.idx in place of fio's offsets: the file
# is then F% of the disk as the live bytes the files hold), dyn and per
# (0 or 1: the kernel's per-space sysfs knobs allocation/SPACE/
# dynamic_reclaim and periodic_reclaim, issue 30, written after the data
# threshold on data, metadata and system alike, as fs-core's `--reclaim
# linux-6.12:dynamic=,periodic=` sets every space; 6.12's sysfs takes
# both on all three, and its periodic sweep passes system by,
# btrfs_should_periodic_reclaim(); a kernel without them, 6.1, fails the
# point); the rest come from the KWA_* knobs.  The header records every
# space's threshold as set (read before the knobs: with dynamic_reclaim on,
# bg_reclaim_threshold reads the dynamic threshold, sysfs.c:913) and, where
# the kernel has them, both knobs read back (dynamic_reclaim,
# periodic_reclaim: data, metadata, system); with dyn=1 each phase records
# the thresholds sysfs reads at its end (reclaim_thresh: data, metadata,
# system).
# The check fails when the measurement does not hold together: blktrace and
# the handler disagree on the bytes written or on the zone commands (the
# phase's line, with bt_dropped, is written first, and the message says how
# many events blktrace dropped), or no phase wrote anything.
. /e2e/lib.sh
[ "$E2E_HANDLER" = zonelab ] || skip "needs handler_zonelab's statistics (zonelab ctl stats)"
[ -x $ZONELAB ] || skip "zonelab command not in the VM"
for c in fio blktrace blkparse mkfs.btrfs btrfs; do
	command -v $c > /dev/null || fail "$c not in the VM (E2E_PKGS)"
done
modprobe btrfs || fail "modprobe btrfs"
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug || fail "cannot mount debugfs"
: "${KWA_POINTS:=25,75,1}" "${KWA_DISK_MIB:=1024}" "${KWA_ZONE_MIB:=16}" "${KWA_NCONV:=8}"
: "${KWA_PASSES:=4}" "${KWA_PHASES:=4}" "${KWA_BS:=65536}" "${KWA_COMMIT:=1000}"
LBA=${E2E_LBA:-512}
W=/tmp/kwa; M=/mnt/kwa
img=/tmp/kwa.img
bt_pid=""; tpi=""
cleanup() {
	[ -n "$bt_pid" ] && kill -INT $bt_pid 2>/dev/null && wait $bt_pid 2>/dev/null
	bt_pid=""; tp_stop 2>/dev/null
	umount $M 2>/dev/null; dev_remove kwa; rm -f $img
}
trap cleanup EXIT
ctl() { $ZONELAB ctl $img.ctl "$@"; }
# stat_of KEY - one counter of the handler's statistics.
stat_of() { $ZONELAB ctl --json $img.ctl stats | grep -oE "\"$1\":[0-9]+" | head -1 | cut -d: -f2; }
# wf_of - the handler's written LBAs, and of them its FUA commands and LBAs,
# from one reading: "WRITE_LBAS FUA_WRITES FUA_WRITE_LBAS".
wf_of() {
	$ZONELAB ctl --json $img.ctl stats | awk '{ o = ""
		for (i = 1; i <= 3; i++) { k = i == 1 ? "write_lbas" : i == 2 ? "fua_writes" : "fua_write_lbas"
			if (!match($0, "\"" k "\":[0-9]+")) { print "no " k > "/dev/stderr"; exit 1 }
			o = o (i > 1 ? " " : "") substr($0, RSTART + length(k) + 3, RLENGTH - length(k) - 3) }
		print o }'
}
# quiet - wait until the disk wrote nothing for 3 s (at most 300 s).
quiet() {
	local a b n=0 i
	a=$(stat_of write_lbas)
	for i in $(seq 300); do
		sleep 1; b=$(stat_of write_lbas)
		if [ "$b" = "$a" ]; then n=$((n + 1)); [ $n -ge 3 ] && return 0; else n=0; a=$b; fi
	done
	return 1
}
sysv() { cat /sys/fs/btrfs/$uuid/allocation/$1/$2 2>/dev/null || echo 0; }
# bt_start / bt_stop - a blktrace of one phase (issue events).  The relay
# buffers are KWA_BT_BUF KiB x KWA_BT_NBUF (blktrace's default is 512 x 4:
# 2 MiB, which a commit storm on 7.3 overran, dropping events); bt_dropped
# is the count blktrace reports at its end (bytes it did not see).
bt_start() {
	rm -f $W/ph.blktrace.*
	blktrace -d $dev -a issue -b ${KWA_BT_BUF:-4096} -n ${KWA_BT_NBUF:-16} -D $W -o ph > $W/blktrace.out 2>&1 &
	bt_pid=$!
	local i; for i in $(seq 100); do [ -e $W/ph.blktrace.0 ] && break; sleep 0.1; done
	[ -e $W/ph.blktrace.0 ] || { cat $W/blktrace.out; fail "blktrace did not start"; }
	sleep 0.5
}
# Sum the written bytes by kind: superblock (zones 0-1), metadata
# (REQ_META: M in RWBS), data; the requests without data that are not
# writes (N in RWBS: the commits' empty flushes, FN; zone resets are
# zero-byte writes, counted by bt_zops); and, across those kinds, the bytes
# written with FUA: blkparse's RWBS puts F after the direction letter for
# BLK_TC_FUA and before it for a flush (fill_rwbs(), blkparse_fmt.c; the
# kernel sets BLK_TC_FUA from REQ_FUA, 6.1 kernel/trace/blktrace.c:240, and
# sd turns REQ_FUA into the CDB's FUA bit, drivers/scsi/sd.c:1262): a
# version-1 trace on 6.19+ has none (bt_v1_blind).
# Prints "DATA META SB OTHER FUA".
bt_stop() { kill -INT $bt_pid; wait $bt_pid; bt_pid=""; }
# The events blktrace dropped in this phase ("Total: N events (dropped D)"
# per device; 0 if it printed no total).
bt_dropped() { grep -oE 'dropped [0-9]+' $W/blktrace.out | awk '{ s += $2 } END { print s + 0 }'; }
# Relocations from the tracepoint btrfs_reclaim_block_group (fired at each
# block group the reclaim worker picks, just before it relocates it: the
# same place as the log's "reclaiming chunk"; 6.1, 6.12 and 7.3 have it),
# in a trace instance of its own.  The kernel log is rate-limited
# ("callbacks suppressed": 7.3 lost every relocation message in a commit
# storm); the trace ring is not (its overruns are counted: tp_overrun).
tp_start() {
	local tr=/sys/kernel/tracing
	[ -d $tr/instances ] || tr=/sys/kernel/debug/tracing
	tpi=$tr/instances/kwa
	[ -d $tpi ] || mkdir $tpi 2>/dev/null || { tpi=""; return; }
	[ -e $tpi/events/btrfs/btrfs_reclaim_block_group/enable ] || { rmdir $tpi; tpi=""; return; }
	echo 4096 > $tpi/buffer_size_kb
	echo 1 > $tpi/events/btrfs/btrfs_reclaim_block_group/enable
	echo 1 > $tpi/tracing_on
}
tp_stop() { [ -n "$tpi" ] || return 0; echo 0 > $tpi/tracing_on; echo 0 > $tpi/events/btrfs/enable; rmdir $tpi; tpi=""; }
# One phase's picks: prints "DATA META SYS OVERRUN VICTIMS" (VICTIMS: used %
# of each pick, comma separated, "-" if none) and clears the ring.
tp_phase() {
	{ cat $tpi/trace; echo "overrun $(awk '/^overrun/ { s += $2 } END { print s + 0 }' $tpi/per_cpu/cpu*/stats)"; } |
	awk '/btrfs_reclaim_block_group/ && match($0, /len=[0-9]+ used=[0-9]+ flags=[0-9]+/) {
		split(substr($0, RSTART, RLENGTH), a, /[= ]/); len = a[2]; used = a[4]; fl = a[6]
		if (int(fl / 4) % 2) m++; else if (int(fl / 2) % 2) s++; else if (fl % 2) d++
		v = v (n++ ? "," : "") int(used * 100 / len)
	} /^overrun / { o = $2 }
	END { printf "%d %d %d %d %s\n", d, m, s, o, n ? v : "-" }'
	echo > $tpi/trace
}
bt_split() {
	blkparse -q -i ph -D $W -f '%a %d %S %n\n' 2>/dev/null |
	awk -v zs=$((zmib * 2048)) '$1 == "D" && $2 ~ /W/ && $4 > 0 {
		b = $4 * 512
		if ($3 < 2 * zs) sb += b; else if ($2 ~ /M/) m += b; else d += b
		if ($2 ~ /^F?WF/) fua += b
	} $1 == "D" && $2 ~ /N/ { o++ }
	END { printf "%d %d %d %d %d\n", d, m, sb, o, fua }'
}
# Zone commands as blktrace sees them (issued, flushes apart): zero-byte
# writes are RESET, RESET ALL and CLOSE (odd REQ_OP_ZONE_* codes), zero-byte
# non-writes OPEN and FINISH.  Prints "WRITES NONWRITES".
bt_zops() {
	blkparse -q -i ph -D $W -f '%a %d %n\n' 2>/dev/null |
	awk '$1 == "D" && $2 !~ /F/ && $3 == 0 { if ($2 ~ /W/) w++; else if ($2 ~ /N/) n++ }
	END { printf "%d %d\n", w, n }'
}
# The handler's zone command counters (docs/CTL.md), summed as bt_zops splits them.
zops_of() {
	echo $(( $(stat_of zop_reset) + $(stat_of zop_reset_all) + $(stat_of zop_close) + $(stat_of zop_close_all) )) \
		$(( $(stat_of zop_open) + $(stat_of zop_open_all) + $(stat_of zop_finish) + $(stat_of zop_finish_all) ))
}

run_point() {
	local F=$1 T=$2 S=$3 id=$1-$2-$3 out file disk ph pass k bs=$KWA_BS kv
	local tag="" wl=fio dist=random direct=1 fsync=0 zmib=$KWA_ZONE_MIB dmib=$KWA_DISK_MIB nconv=$KWA_NCONV passes=$KWA_PASSES
	local dyn="" per="" thr knobs="" kn sp kf kv2
	shift 3
	for kv in "$@"; do
		case $kv in
		tag=*) tag=${kv#*=}; id=$tag-$id ;;
		dist=*) dist=${kv#*=} ;;
		direct=*) direct=${kv#*=} ;;
		fsync=*) fsync=${kv#*=} ;;
		bs=*) bs=${kv#*=} ;;
		zone=*) zmib=${kv#*=} ;;
		disk=*) dmib=${kv#*=} ;;
		nconv=*) nconv=${kv#*=} ;;
		passes=*) passes=${kv#*=} ;;
		wl=fio|wl=files|wl=applog) wl=${kv#*=} ;;
		wl=*) fail "point $F,$T,$S: unknown workload '$kv' (wl=fio, files or applog)" ;;
		dyn=0|dyn=1) dyn=${kv#*=} ;;
		per=0|per=1) per=${kv#*=} ;;
		dyn=*|per=*) fail "point $F,$T,$S: '$kv': ${kv%%=*} is 0 or 1" ;;
		*) fail "point $F,$T,$S: unknown setting '$kv' (tag dist direct fsync bs zone disk nconv passes wl dyn per)" ;;
		esac
	done
	out=$LOGS/kwa-$id.out; : > $out; : > $LOGS/kwa-$id.idx
	disk=$((dmib << 20))
	file=$(( disk * F / 100 / bs * bs ))
	ph=$(( file / KWA_PHASES / bs * bs ))
	rm -rf $W; mkdir -p $W $M
	h_fresh $img
	dev_create kwa $disk "$(h_cfg_ctl $img $zmib $nconv 128)" || fail "$id: backstore"
	dev=$(lun_attach kwa) || fail "$id: no disk"
	mkfs.btrfs -f -O zoned $dev > $W/mkfs.out 2>&1 || { cat $W/mkfs.out; fail "$id: mkfs.btrfs -O zoned"; }
	# enospc_debug: the space infos in the kernel log at each ENOSPC (no
	# change to what is allocated; kept in logs/kwa-dmesg.log)
	mount -t btrfs -o commit=$KWA_COMMIT,enospc_debug $dev $M || fail "$id: mount"
	uuid=$(findmnt -no UUID $M)
	[ -d /sys/fs/btrfs/$uuid ] || fail "$id: no /sys/fs/btrfs/$uuid"
	echo $T > /sys/fs/btrfs/$uuid/allocation/data/bg_reclaim_threshold || fail "$id: data bg_reclaim_threshold=$T"
	# the thresholds as set, before the knobs (dynamic_reclaim on: the
	# sysfs file reads the dynamic threshold, and refuses a write, EINVAL)
	thr="$(sysv data bg_reclaim_threshold) $(sysv metadata bg_reclaim_threshold) $(sysv system bg_reclaim_threshold)"
	# dyn=, per=: the per-space knobs (6.12: space-info.h:201-207, sysfs.c:954-1009)
	for kv2 in "dyn dynamic_reclaim $dyn" "per periodic_reclaim $per"; do
		read -r kf kn kv <<< "$kv2"
		[ -n "$kv" ] || continue
		for sp in data metadata system; do
			[ -e /sys/fs/btrfs/$uuid/allocation/$sp/$kn ] ||
				fail "$id: $kf=$kv: kernel $(uname -r) has no /sys/fs/btrfs/UUID/allocation/$sp/$kn (the per-space knob $kn is not in this kernel; 6.12 has it, 6.1 does not)"
			echo $kv > /sys/fs/btrfs/$uuid/allocation/$sp/$kn || fail "$id: $kf=$kv: writing /sys/fs/btrfs/$uuid/allocation/$sp/$kn failed"
			[ "$(cat /sys/fs/btrfs/$uuid/allocation/$sp/$kn)" = $kv ] ||
				fail "$id: $kf=$kv: /sys/fs/btrfs/$uuid/allocation/$sp/$kn reads $(cat /sys/fs/btrfs/$uuid/allocation/$sp/$kn) after the write"
		done
	done
	# both knobs read back, where the kernel has them
	for kn in dynamic_reclaim periodic_reclaim; do
		[ -e /sys/fs/btrfs/$uuid/allocation/data/$kn ] || continue
		knobs="$knobs$(printf ',"%s":{"data":%d,"metadata":%d,"system":%d}' $kn $(sysv data $kn) $(sysv metadata $kn) $(sysv system $kn))"
	done
	# KWA_TRACE=1: the btrfs tracepoints of space flushing, commits and
	# chunk allocations (with the caller's stack), the reclaim lists and every change of
	# the space infos' may_use, pinned and zone_unusable, per phase in
	# logs/kwa-trace-F-T-SEED.log (docs/VALIDATION.md: why the kernel runs
	# out of space)
	if [ -n "${KWA_TRACE:-}" ]; then
		tr=/sys/kernel/tracing; [ -d $tr/events/btrfs ] || tr=/sys/kernel/debug/tracing
		[ -d $tr/events/btrfs ] || fail "$id: KWA_TRACE: no btrfs trace events"
		echo 0 > $tr/tracing_on; echo > $tr/trace; echo 65536 > $tr/buffer_size_kb
		# KWA_TRACE=lean: the block groups' lives only (chunk allocations
		# with their stacks, frees, the unused and reclaim lists, each
		# removal or skip of an unused one, the space flusher's states):
		# a few MiB a point where the full set overflows the serial console
		local evs="btrfs_flush_space btrfs_trigger_flush btrfs_transaction_commit btrfs_chunk_alloc
			btrfs_chunk_free btrfs_add_unused_block_group btrfs_add_reclaim_block_group
			btrfs_reclaim_block_group btrfs_reserve_ticket btrfs_fail_all_tickets btrfs_space_reservation"
		[ "$KWA_TRACE" = lean ] && evs="btrfs_flush_space btrfs_chunk_alloc btrfs_chunk_free
			btrfs_add_unused_block_group btrfs_skip_unused_block_group btrfs_remove_block_group
			btrfs_add_reclaim_block_group btrfs_reclaim_block_group btrfs_fail_all_tickets"
		# KWA_TRACE=rsv: the metadata reservations' failures and the
		# flusher (tickets with their bytes and outcome, each flush state
		# with its bytes and return, the triggers), the delayed refs
		# reserve's refills and releases and the transactions' own
		# reserves (btrfs_space_reservation filtered to those types: the
		# unfiltered event is every may_use change), commits, the block
		# groups' allocations and the reclaim list, with the stack of
		# every failed reservation (space_info:enospc) and of the flusher
		# failing its tickets: where 6.12 runs out at 45%/75
		[ "$KWA_TRACE" = rsv ] && evs="btrfs_flush_space btrfs_trigger_flush btrfs_reserve_ticket
			btrfs_fail_all_tickets btrfs_transaction_commit btrfs_chunk_alloc btrfs_chunk_free
			btrfs_add_unused_block_group btrfs_remove_block_group
			btrfs_add_reclaim_block_group btrfs_reclaim_block_group"
		for e in $evs; do
			echo 1 > $tr/events/btrfs/$e/enable || fail "$id: KWA_TRACE: cannot enable $e"
		done
		if [ "$KWA_TRACE" = rsv ]; then
			local sr=$tr/events/btrfs/btrfs_space_reservation
			echo 'type ~ "*delayed_refs_rsv" || type ~ "space_info:enospc" || type == "transaction"' > $sr/filter &&
				echo 1 > $sr/enable || note "$id: KWA_TRACE=rsv: no filter on btrfs_space_reservation, left off;"
			echo 'stacktrace if type ~ "space_info:enospc"' > $sr/trigger || note "$id: no stack trigger on enospc;"
			echo stacktrace > $tr/events/btrfs/btrfs_fail_all_tickets/trigger || note "$id: no stack trigger on fail_all_tickets;"
		fi
		for e in btrfs_transaction_commit btrfs_chunk_alloc; do
			case $KWA_TRACE in lean|rsv) [ $e = btrfs_transaction_commit ] && continue ;; esac
			[ "$KWA_TRACE" = rsv ] && continue
			echo stacktrace > $tr/events/btrfs/$e/trigger || note "$id: no stack trigger on $e;"
		done
		echo 1 > $tr/tracing_on
	fi
	tp_start
	[ -n "$tpi" ] || note "$id: no tracepoint btrfs_reclaim_block_group: relocations from the kernel log only;"
	printf '{"point":"%s","kernel":"%s","btrfs_progs":"%s","fio":"%s","disk_bytes":%d,"zone_bytes":%d,"conv_zones":%d,"lba":%d,"file_bytes":%d,"bs":%d,"passes":%d,"phases":%d,"phase_bytes":%d,"commit_s":%d,"seed":%d,"threshold":{"data":%s,"metadata":%s,"system":%s,"global":%s},"profiles":"%s","tag":"%s","dist":"%s","direct":%d,"fsync":%d%s}\n' \
		$id "$(sed 's/"/'"'"'/g' /proc/version)" "$(mkfs.btrfs --version | head -1)" "$(fio --version)" \
		$disk $((zmib << 20)) $nconv $LBA $file $bs $passes $KWA_PHASES $ph $KWA_COMMIT $S \
		$thr \
		$(cat /sys/fs/btrfs/$uuid/bg_reclaim_threshold) \
		"$(btrfs filesystem df $M | sed -E 's/^([A-Za-z]+), ([A-Za-z0-9]+):.*/\1:\2/' | tr '\n' ' ' | sed 's/ $//')" "$tag" "$dist" $direct $fsync \
		"$([ $wl = fio ] || printf ',"wl":"%s"' $wl)$knobs" >> $out
	local phases="fill" p
	for pass in $(seq $passes); do for k in $(seq $KWA_PHASES); do phases="$phases $pass.$k"; done; done
	for p in $phases; do
		local w0 fw0 f0 w1 fw1 f1 r0 c0 t0 rw size io seed split err app km rd rm rs vict md5
		local zw0 zn0 zw zn bzw bzn zerr="" rt=""
		read w0 fw0 f0 < <(wf_of) || fail "$id $p: no write counters in the handler's stats"
		r0=$(stat_of resets); read zw0 zn0 < <(zops_of)
		c0=$(awk '/commits/ { print $2 }' /sys/fs/btrfs/$uuid/commit_stats)
		# the kernel log of this phase alone: drained into logs/kwa-dmesg.log
		# first (a phase can log more than the ring holds, so a line-count
		# mark would lose relocations)
		dmesg -c >> $LOGS/kwa-dmesg.log; t0=$EPOCHREALTIME
		bt_start
		# the handler's counters inside the trace's window, for the
		# cross-check (a commit storm can outlast quiet: what the handler
		# writes after bt_stop is in dev_write_bytes, not in the trace)
		local tw0 tf0 tw1 tf1
		read tw0 _ tf0 < <(wf_of) || fail "$id $p: no write counters in the handler's stats"
		rm -f $W/iolog  # fio appends to an existing log
		if [ $p = fill ]; then rw=write; io=$file; seed=$S
		else rw=randwrite; io=$ph; seed=$(( S * 1000 + ${p%.*} * 100 + ${p#*.} )); fi
		if [ $wl = fio ]; then
			fio --name=kwa --filename=$M/f --size=$file --bs=$bs --direct=$direct --fsync=$fsync --ioengine=psync \
				--rw=$rw --random_distribution=$dist --norandommap --randrepeat=0 --randseed=$seed --io_size=$io --fallocate=none \
				--write_iolog=$W/iolog --output-format=json --output=$W/fio.json > $W/fio.err 2>&1
		else
			python3 /e2e/kwa_wl.py $wl $M $W/wl.state $p $S $file $ph $bs $direct $W/ops $W/wl.json > $W/wl.err 2>&1 ||
				{ cat $W/wl.err; fail "$id $p: kwa_wl.py $wl"; }
		fi
		btrfs filesystem sync $M > /dev/null 2>&1
		quiet || note "$id $p: the disk was not quiet after 300 s;"
		read tw1 _ tf1 < <(wf_of) || fail "$id $p: no write counters in the handler's stats"
		bt_stop; split=$(bt_split); drop=$(bt_dropped)
		[ $drop = 0 ] || note "$id $p: blktrace dropped $drop events;"
		local tp="" td tm ts tov tvict
		if [ -n "$tpi" ]; then
			read td tm ts tov tvict < <(tp_phase)
			[ "$tvict" = - ] && tvict=""
			tp=$(printf ',"reloc_tp":{"data":%d,"metadata":%d,"system":%d},"victims_tp":[%s],"tp_overrun":%d' $td $tm $ts "$tvict" $tov)
		fi
		read bzw bzn < <(bt_zops); read zw zn < <(zops_of); zw=$((zw - zw0)); zn=$((zn - zn0))
		# The handler's counters are read just outside the trace, so a
		# command of btrfs's cleaner may fall between: the handler may see
		# up to 2 more, never fewer (a command it did not count).
		# Since 6.19 Debian 12's blktrace 1.3.0 (the version-1 trace format)
		# records no zone management request at all (bt_v1_blind, lib.sh;
		# 7.3, the fill of 45,75,2 on 2026-12-06: the handler 26 FINISHes,
		# blktrace none; vm_trace shows it on scsi_debug): there a phase
		# where blktrace saw none of the handler's is noted, not failed;
		# one where it saw some must still match
		if [ $((bzw + bzn)) = 0 ] && [ $((zw + zn)) -gt 0 ] && bt_v1_blind; then
			zops_blind=$((zops_blind + zw + zn))
		else
			# a mismatch fails the point once the phase's line (with
			# bt_dropped) is written
			[ $zw -ge $bzw ] && [ $zw -le $((bzw + 2)) ] && [ $zn -ge $bzn ] && [ $zn -le $((bzn + 2)) ] ||
				zerr="$id $p: zone commands: handler reset/close $zw, open/finish $zn; blktrace zero-byte writes $bzw, non-writes $bzn; blktrace dropped $drop events"
		fi
		zops_w=$((zops_w + zw)); zops_n=$((zops_n + zn)); zops_bw=$((zops_bw + bzw)); zops_bn=$((zops_bn + bzn))
		if [ $wl = fio ]; then
			app=$(grep -m1 -oE '"io_bytes" : [0-9]+' <(sed -n '/"write" :/,/}/p' $W/fio.json) | grep -oE '[0-9]+$')
			err=$(grep -m1 -oE '"error" : [0-9]+' $W/fio.json | grep -oE '[0-9]+$')
			md5=$(awk '$3 == "write" { print $4, $5 }' $W/iolog | md5sum | cut -c1-32)
		else
			app=$(grep -oE '"app_bytes": [0-9]+' $W/wl.json | grep -oE '[0-9]+$')
			err=$(grep -oE '"error": [0-9]+' $W/wl.json | grep -oE '[0-9]+$')
			md5=$(tail -1 $W/ops | md5sum | cut -c1-32)
		fi
		km=$W/kmsg; dmesg -c > $km; cat $km >> $LOGS/kwa-dmesg.log
		rd=$(grep -c 'relocating block group .* flags data' $km)
		rm=$(grep -c 'relocating block group .* flags metadata' $km)
		rs=$(grep -c 'relocating block group .* flags system' $km)
		# 6.1: "... with U% used Z% unusable"; 6.12 on: "... with U% used R% reserved Z% unusable"
		vict=$(grep -oE 'reclaiming chunk [0-9]+ with [0-9]+% used ([0-9]+% reserved )?[0-9]+% unusable' $km |
			awk '{ u = $5; z = $(NF - 1); sub(/%/, "", u); sub(/%/, "", z); printf "%s[%d,%d]", n++ ? "," : "", u, z }')
		supp=$(grep -oE '[0-9]+ callbacks suppressed' $km | awk '{ s += $1 } END { print s + 0 }')
		read w1 fw1 f1 < <(wf_of) || fail "$id $p: no write counters in the handler's stats"
		[ "$dyn" != 1 ] || rt=$(printf ',"reclaim_thresh":[%d,%d,%d]' $(sysv data bg_reclaim_threshold) \
			$(sysv metadata bg_reclaim_threshold) $(sysv system bg_reclaim_threshold))
		printf '{"point":"%s","phase":"%s","secs":%.1f,"app_bytes":%d,"fio_error":%d,"iolog_md5":"%s","dev_write_bytes":%d,"dev_fua_writes":%d,"dev_fua_bytes":%d,"dev_resets":%d,"bt_data":%d,"bt_meta":%d,"bt_sb":%d,"bt_other":%d,"bt_fua":%d,"reloc":{"data":%d,"metadata":%d,"system":%d},"victims":[%s],"commits":%d,"space":{"data":[%d,%d,%d],"metadata":[%d,%d,%d],"system":[%d,%d,%d]},"enospc_msgs":%d,"bt_dropped":%d,"log_suppressed":%d,"dev_traced_bytes":%d,"dev_traced_fua_bytes":%d,"zops":{"handler":[%d,%d],"blktrace":[%d,%d]}%s%s}\n' \
			$id $p $(bc_sub $EPOCHREALTIME $t0) ${app:-0} ${err:-0} \
			"$md5" \
			$(( (w1 - w0) * LBA )) $((fw1 - fw0)) $(( (f1 - f0) * LBA )) $(( $(stat_of resets) - r0 )) $split \
			$rd $rm $rs "$vict" \
			$(( $(awk '/commits/ { print $2 }' /sys/fs/btrfs/$uuid/commit_stats) - c0 )) \
			$(sysv data total_bytes) $(sysv data bytes_used) $(sysv data bytes_zone_unusable) \
			$(sysv metadata total_bytes) $(sysv metadata bytes_used) $(sysv metadata bytes_zone_unusable) \
			$(sysv system total_bytes) $(sysv system bytes_used) $(sysv system bytes_zone_unusable) \
			$(grep -ciE 'enospc|No space left' $km) $drop $supp $(( (tw1 - tw0) * LBA )) $(( (tf1 - tf0) * LBA )) \
			$zw $zn $bzw $bzn "$tp" "$rt" >> $out
		# the offsets fio wrote, in blocks, one line per random phase (fio
		# 3.33 does not give the same offsets again from the same seed)
		if [ -n "${KWA_TRACE:-}" ]; then
			{ echo "# phase $p"; cat $tr/trace; } >> $LOGS/kwa-trace-$id.log; echo > $tr/trace
			# lean: each block group's item (start, length, used, flags)
			# and each tree block's (address, level, generation, owning
			# tree, or pPARENT when shared) as the commit left them, and
			# each zone's condition and write
			# pointer (an active zone's unwritten rest; used against wp:
			# what became zone_unusable)
			if [ "$KWA_TRACE" = lean ]; then
				# the block device's page cache may hold blocks btrfs
				# rewrote since (its bios bypass it): drop it first
				blockdev --flushbufs $dev 2>/dev/null; echo 3 > /proc/sys/vm/drop_caches
				{ echo "# bgs $p"
				  btrfs inspect-internal dump-tree -t extent $dev 2>&1 |
					awk '/BLOCK_GROUP_ITEM/ { st = $4; len = $6; gsub(/[()]/, "", st); gsub(/[()]/, "", len); getline
						print "bg", st, len, $4, $8 }
					/METADATA_ITEM/ { mb = $4; lv = $6; gsub(/[()]/, "", mb); gsub(/[()]/, "", lv); getline; gen = $4; m = 1; next }
					m && /block backref/ { print "tb", mb, lv, gen, ($3 == "shared" ? "p" $NF : $NF); m = 0 }'
				  echo "# zones $p"
				  blkzone report $dev 2>&1 | sed -E 's/ +/ /g'
				} >> $LOGS/kwa-trace-$id.log
			fi
		fi
		if [ $wl != fio ]; then tail -1 $W/ops >> $LOGS/kwa-$id.idx
		elif [ $p != fill ]; then awk -v p=$p -v bs=$bs '$3 == "write" { printf " %d", $4 / bs; n++ }
			BEGIN { printf "%s", p } END { printf "\n" }' $W/iolog >> $LOGS/kwa-$id.idx
		fi
		[ -z "$zerr" ] || fail "$zerr (the phase's line is in logs/kwa-$id.out)"
	done
	tp_stop
	umount $M || fail "$id: umount"
	if [ -n "${KWA_TRACE:-}" ]; then
		echo 0 > $tr/tracing_on
		for e in btrfs_transaction_commit btrfs_chunk_alloc; do echo '!stacktrace' > $tr/events/btrfs/$e/trigger; done
		if [ "$KWA_TRACE" = rsv ]; then
			echo '!stacktrace if type ~ "space_info:enospc"' > $tr/events/btrfs/btrfs_space_reservation/trigger
			echo '!stacktrace' > $tr/events/btrfs/btrfs_fail_all_tickets/trigger
			echo 0 > $tr/events/btrfs/btrfs_space_reservation/filter
		fi
		echo 0 > $tr/events/btrfs/enable
	fi
	dev_remove kwa; rm -f $img
}

zops_w=0; zops_n=0; zops_bw=0; zops_bn=0   # zone commands over every phase (handler, blktrace)
zops_blind=0   # the handler's zone commands in phases where blktrace showed none (6.19 on)
for pt in $KWA_POINTS; do
	IFS=, read -r -a f <<< "$pt"
	F=${f[0]} T=${f[1]} S=${f[2]}
	t_pt=$EPOCHREALTIME
	run_point "${f[@]}"
	say "point $F,$T,$S: $(bc_sub $EPOCHREALTIME $t_pt) s"
done
# The measurement holds together: over each point, blktrace's bytes are
# the handler's while the traces ran (its counters read after bt_start and
# before bt_stop: dev_traced_bytes, dev_traced_fua_bytes; what it wrote
# outside them, a commit storm outlasting quiet, is in dev_write_bytes and
# reported), the writes done with FUA (the handler's fua_write_lbas,
# blktrace's F after the direction in RWBS) apart from the others:
# - the others within 0.5% (a write in flight at either edge of a trace
#   may be counted on one side only), the FUA gap counted in the 0.5% too;
# - where blktrace records FUA requests (before 6.19, or any that shows
#   some), the FUA bytes equal in every phase whose other bytes are equal
#   (a late write is not a superblock alone: every one in the stored 6.1
#   and 6.12 runs was 160 KiB or more); where it records none (a
#   version-1 trace on 6.19+, bt_v1_blind) the handler's FUA bytes are set
#   aside and reported;
# unless blktrace said it dropped events: then it saw less, never more (the
# handler counts every write; the gap is reported); where the kernel log
# suppressed nothing, every relocation it logged was a pick the tracepoint
# saw (a pick whose relocation fails at once logs none); something was
# written.
J='function g(k) { return match($0, "\"" k "\":[0-9]+") ? substr($0, RSTART + length(k) + 3, RLENGTH - length(k) - 3) : 0 }'
for f in $LOGS/kwa-*.out; do
	awk "$J"' /"phase"/ { h = g("dev_traced_bytes"); b = g("bt_data") + g("bt_meta") + g("bt_sb"); hf = g("dev_traced_fua_bytes"); bf = g("bt_fua")
			dev += h; bt += b; app += g("app_bytes"); fh += hf; fb += bf; fw += g("dev_fua_writes")
			all += g("dev_write_bytes"); out += g("dev_write_bytes") - h; outp += g("dev_write_bytes") > h
			if (h - hf != b - bf) late++; else if (hf != bf) fx++
			drop += g("bt_dropped"); sup += g("log_suppressed"); tp += /"reloc_tp"/
			lr = g("data") + g("metadata") + g("system")   # the first of each: "reloc"
			rt = 0; if (match($0, /"reloc_tp":\{[^}]*\}/)) { x = substr($0, RSTART, RLENGTH); gsub(/[^0-9,]/, "", x); split(x, a, ","); rt = a[1] + a[2] + a[3] }
			logr += lr; tpr += rt }
		END { printf "%s %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d\n", FILENAME, dev, bt, app, drop, sup, tp, logr, tpr, fh, fb, fw, fx, late, all, out, outp }' $f
done > $W/sums
# sums: 1 file, 2 handler bytes inside the traces, 3 blktrace bytes, 4 app,
# 5 dropped, 6 suppressed, 7 phases with the tracepoint, 8 log relocations,
# 9 tracepoint relocations, 10 handler FUA bytes inside the traces, 11
# blktrace FUA bytes, 12 handler FUA writes, 13 phases whose FUA bytes alone
# differ, 14 phases whose other bytes differ, 15 handler bytes, 16 of them
# outside the traces, 17 phases with bytes outside
blind=0; bt_v1_blind && blind=1
bad=$(awk -v blind=$blind '{ hn = $2 - $10; bn = $3 - $11; vis = !(blind && $11 == 0)
	dn = hn - bn; if (dn < 0) dn = -dn; df = vis ? $10 - $11 : 0; if (df < 0) df = -df
	if ($5 == 0 && dn + df > hn / 200) print $1 ": handler " hn ", blktrace " bn " without FUA, FUA handler " $10 ", blktrace " (vis ? $11 : "-") " (blktrace dropped no event)"
	else if ($5 > 0 && (bn > hn + hn / 200 || (vis && $11 > $10))) print $1 ": handler " hn ", blktrace " bn " without FUA, FUA handler " $10 ", blktrace " $11 " (more, though it dropped " $5 " events)"
	if ($5 == 0 && vis && $13 > 0) print $1 ": FUA bytes differ (handler " $10 ", blktrace " $11 ") in " $13 " phases whose other bytes agree"
	if ($7 > 0 && $6 == 0 && $8 > $9) print $1 ": the kernel log names " $8 " relocations, the tracepoint " $9 }' $W/sums | sed "s|$LOGS/||")
[ -z "$bad" ] || fail "the measurement does not hold together: $bad"
note "$(awk -v blind=$blind '{ n = $1; sub(/.*kwa-/, "", n); sub(/\.out$/, "", n)
	if (blind && $11 == 0) printf "%s: FUA writes set aside: %d, %d bytes (blktrace version 1 records none since 6.19), other bytes differing in %d phases, %d bytes written outside the traces in %d phases; ", n, $12, $10, $14, $16, $17
	else printf "%s: FUA writes %d, %d bytes, blktrace %d bytes, other bytes differing in %d phases, %d bytes written outside the traces in %d phases; ", n, $12, $10, $11, $14, $16, $17 }' $W/sums)"
note "$(awk '$5 > 0 { n = $1; sub(/.*kwa-/, "", n); sub(/\.out$/, "", n); printf "%s: blktrace dropped %d events, saw %.2f%% fewer bytes than the handler; ", n, $5, 100 * ($2 - $3) / $2 }' $W/sums)"
note "$(awk '{ n = $1; sub(/.*kwa-/, "", n); sub(/\.out$/, "", n); printf "%s: relocations tracepoint %s, kernel log %d (%d lines suppressed); ", n, $7 ? $9 : "-", $8, $6 }' $W/sums)"
awk '{ s += $4 } END { exit !(s > 0) }' $W/sums || fail "no phase wrote anything"
note "zone commands (handler/blktrace): reset+close $zops_w/$zops_bw, open+finish $zops_n/$zops_bn;"
[ $zops_blind = 0 ] || note "blktrace showed no zone management request in phases where the handler counted $zops_blind (kernel $(uname -r): blktrace's version-1 format records none since 6.19);"
note "$(awk '{ n = $1; sub(/.*kwa-/, "", n); sub(/\.out$/, "", n); printf "%s: app %.0f MiB, device %.0f MiB (%.2fx), blktrace %.0f MiB; ", n, $4 / 1048576, $15 / 1048576, $4 ? $15 / $4 : 0, $3 / 1048576 }' $W/sums)"
