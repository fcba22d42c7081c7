# tests/e2e/guest/lib.sh - helpers for the guest checks (sourced by each
# numbered check script).  Devices are made through configfs only: a TCMU
# backstore in user_0, exported through tcm_loop (or iSCSI, see 70-iscsi.sh).
# State shared between checks lives in /run/e2e.
set -u
export PATH=/usr/sbin:/usr/bin:/sbin:/bin:/bb
CFS=/sys/kernel/config/target
STATE=/run/e2e
LOGS=/tmp/logs
mkdir -p "$STATE" "$LOGS"
. /e2e/config.sh
. /e2e/handler-"$E2E_HANDLER".sh

# Standard geometry of the main test disk (zl0): 1 GiB, 16 MiB zones, 8
# conventional zones, at most 16 open zones.
ZL0_SIZE=$((1024 << 20)); ZL0_ZONE_MIB=16; ZL0_NCONV=8; ZL0_MAXOPEN=16

# Result helpers for a check script: print the reason and exit.
skip() { echo "$*" > "$LOGS/$CHECK.reason"; exit 77; }
fail() { echo "$*" > "$LOGS/$CHECK.reason"; echo "FAILED: $*"; exit 1; }
note() { echo "$*" >> "$LOGS/$CHECK.reason"; }
# Sub-result line inside a check (e.g. one per fio test); not counted.
say() { echo "$*"; }

# kmod_load SPEC... - load the modules the checks need, by guest/kmods.sh's
# specs (a|b: the first this kernel has; name?: only when it has it); built-in
# ones need nothing.  Fails the check naming what this kernel truly lacks.
. /e2e/kmods.sh
kmod_load() {
	local d=/lib/modules/$(uname -r) s r name where
	for s in "$@"; do
		r=$(kmod_resolve "$d" "$s") ||
			fail "kernel $(uname -r) has $(kmod_missing "$s") (not built in, no module in the initramfs: tests/e2e/mkinitramfs.sh MODULES)"
		[ -n "$r" ] || continue
		read -r name where <<< "$r"
		[ "$where" = builtin ] || modprobe "$name" || fail "modprobe $name (kernel $(uname -r))"
	done
}

runner_pid() { cat "$STATE/runner.pid" 2>/dev/null; }
runner_alive() { local p; p=$(runner_pid); [ -n "$p" ] && kill -0 "$p" 2>/dev/null; }

# The installed layout (make install PREFIX=/usr into the guest's root).
ZONELAB=/usr/bin/zonelab

# dbus_start - the D-Bus system bus (Debian's system.conf; tcmu-runner's
# policy from /etc/dbus-1/system.d), which targetcli uses to find
# tcmu-runner's handlers and check cfgstrings.
dbus_start() {
	[ -S /run/dbus/system_bus_socket ] && return 0
	mkdir -p /run/dbus
	dbus-daemon --system --fork >> "$LOGS/dbus.out" 2>&1 || { cat "$LOGS/dbus.out"; return 1; }
	local i; for i in $(seq 50); do [ -S /run/dbus/system_bus_socket ] && return 0; sleep 0.1; done
	echo "dbus-daemon made no /run/dbus/system_bus_socket"; return 1
}

# runner_start - start tcmu-runner as installed: handlers from its default
# directory (where make install puts handler_zonelab.so), registered on the
# system bus when one runs.
# Ready when every handler of the directory is registered (its log says so;
# handler_rbd.so pulls in librados and takes seconds under TCG): a device
# enabled before that fails with EAGAIN.
runner_start() {
	local log=$LOGS/tcmu/tcmu-runner.log n0 nh i
	mkdir -p "$LOGS/tcmu"
	n0=$(grep -c 'is registered' $log 2>/dev/null)
	nh=$(ls /usr/lib/x86_64-linux-gnu/tcmu-runner/handler_*.so | wc -l)
	tcmu-runner -l "$LOGS/tcmu" >> "$LOGS/tcmu-runner.out" 2>&1 &
	echo $! > "$STATE/runner.pid"
	for i in $(seq 300); do
		[ $(( $(grep -c 'is registered' $log 2>/dev/null) - ${n0:-0} )) -ge $nh ] && break
		runner_alive || break
		sleep 0.1
	done
	sleep 0.5
	runner_alive || { echo "tcmu-runner died at start"; return 1; }
}

# runner_stop - kill tcmu-runner and wait until it is gone.
runner_stop() {
	local p i; p=$(runner_pid); [ -n "$p" ] || return 0
	kill "$p" 2>/dev/null
	for i in $(seq 100); do kill -0 "$p" 2>/dev/null || { rm -f "$STATE/runner.pid"; return 0; }; sleep 0.1; done
	kill -9 "$p" 2>/dev/null; sleep 0.5; rm -f "$STATE/runner.pid"
}

# dev_create NAME SIZE_BYTES SUBTYPE/CONFIG [KEY=VALUE...] - make a TCMU
# backstore (further control parameters, e.g. hw_max_sectors=2048, written
# before the config) and wait until tcmu-runner holds its uio device open.
dev_create() {
	local name=$1 size=$2 cfg=$3 d=$CFS/core/user_0/$1 i kv
	mkdir -p "$d" || return 1
	echo -n "dev_size=$size" > "$d/control" || return 1
	echo -n "hw_block_size=${E2E_LBA:-512}" > "$d/control" || return 1
	for kv in "${@:4}"; do echo -n "$kv" > "$d/control" || return 1; done
	echo -n "dev_config=$cfg" > "$d/control" || return 1
	echo "$cfg" > "$STATE/$name.cfg"
	echo 1 > "$d/enable" || return 1
	for i in $(seq 100); do
		uio_held "$name" && return 0
		sleep 0.1
	done
	echo "tcmu-runner did not open $name"; return 1
}

# uio_held NAME - true when some process holds NAME's /dev/uioN open.
uio_held() {
	local u n
	for u in /sys/class/uio/uio*; do
		[ -e "$u/name" ] || continue
		n=$(cat "$u/name")
		case "$n" in */"$1"/*|*/"$1") ;; *) continue ;; esac
		ls -l /proc/[0-9]*/fd 2>/dev/null | grep -q "/dev/${u##*/}\$" && return 0
	done
	return 1
}

# wwn_of NAME - a stable naa WWN per device name.
wwn_of() { printf 'naa.50014050%08x' "$(cksum <<< "$1" | cut -d' ' -f1)"; }

# lun_attach NAME - export the backstore through tcm_loop; print /dev/sdX.
lun_attach() {
	local name=$1 w t i h before after dev
	w=$(wwn_of "$name"); t=$CFS/loopback/$w/tpgt_1
	before=$(ls /sys/block | grep '^sd' | sort)
	mkdir -p "$t" || return 1
	echo "$w" > "$t/nexus" || return 1
	mkdir -p "$t/lun/lun_0" || return 1
	ln -s "$CFS/core/user_0/$name" "$t/lun/lun_0/$name" || return 1
	for i in $(seq 200); do
		after=$(ls /sys/block | grep '^sd' | sort)
		dev=$(comm -13 <(echo "$before") <(echo "$after") | head -1)
		if [ -n "$dev" ]; then
			echo "$dev" > "$STATE/$name.dev"
			udevless_wait "$dev"
			echo "/dev/$dev"; return 0
		fi
		sleep 0.1
	done
	echo "no /dev/sdX for $name" >&2; return 1
}

# loop_disk WWN - sdX of LUN 0 of the tcm_loop target WWN (its TPG's
# "address" is host:0:target); waits up to 20 s.
loop_disk() {
	local a d i
	for i in $(seq 200); do
		a=$(cat $CFS/loopback/$1/tpgt_1/address 2>/dev/null)
		d=$(ls /sys/class/scsi_device/$a:0/device/block 2>/dev/null | head -1)
		[ -n "$a" ] && [ -n "$d" ] && { udevless_wait $d; echo $d; return 0; }
		sleep 0.1
	done
	return 1
}

# udevless_wait SDX - the node exists and the disk has its capacity: on 6.12
# the node can appear before sd's revalidation sets the size, and a dd
# seek= then fails "cannot seek: Invalid argument".  A disk sd refuses
# keeps size 0: give up waiting after 5 s, as before, without failing.
udevless_wait() {
	local i
	for i in $(seq 50); do [ -b "/dev/$1" ] && break; sleep 0.1; done
	for i in $(seq 50); do [ "$(cat /sys/block/$1/size 2>/dev/null)" != 0 ] && return 0; sleep 0.1; done
	return 0
}

# lun_detach NAME - remove the tcm_loop export (the disk goes away).
lun_detach() {
	local name=$1 w t
	w=$(wwn_of "$name"); t=$CFS/loopback/$w/tpgt_1
	[ -d "$t" ] || return 0
	rm -f "$t/lun/lun_0/$name"
	rmdir "$t/lun/lun_0" 2>/dev/null
	rmdir "$t" "$CFS/loopback/$w" 2>/dev/null
	rm -f "$STATE/$name.dev"
	return 0
}

dev_remove() { lun_detach "$1"; rmdir "$CFS/core/user_0/$1" 2>/dev/null; }

# iscsi_remove_all - tear down every iSCSI target made by hand in configfs
# (70-iscsi.sh, whose disk 95-load.sh goes on using): each TPG disabled (LIO
# ends its sessions), its LUN links, LUNs and portals removed, then the TPG
# and the target, so that the device behind it can be removed.  Returns
# non-zero if a target is left.
iscsi_remove_all() {
	local iqn t
	for iqn in "$CFS"/iscsi/iqn.*; do
		[ -d "$iqn" ] || continue
		for t in "$iqn"/tpgt_*; do
			[ -d "$t" ] || continue
			echo 0 > "$t/enable" 2>/dev/null
			find "$t/lun" -mindepth 2 -maxdepth 2 -type l -exec rm -f {} + 2>/dev/null
			rmdir "$t"/lun/lun_* "$t"/np/* 2>/dev/null
			rmdir "$t" 2>/dev/null
		done
		rmdir "$iqn" 2>/dev/null
	done
	! ls -d "$CFS"/iscsi/iqn.* > /dev/null 2>&1
}

devname() { cat "$STATE/$1.dev"; }

# neg_attach NAME SIZE_BYTES CFGSTRING KMSG_REGEX - export a disk the kernel
# must refuse: a kernel message matching KMSG_REGEX within 10 s, and NAME not
# attached as a host-managed disk with a capacity (sd gives a refused zoned
# disk capacity 0); tcmu-runner alive and zl0 still answering afterwards.
# Removes NAME; calls fail; notes the kernel message.
neg_attach() {
	local name=$1 size=$2 cfg=$3 re=$4 msg="" d i
	kmsg_mark
	dev_create "$name" "$size" "$cfg" || fail "backstore $name (the handler itself refused?)"
	lun_attach "$name" > /dev/null 2>&1
	for i in $(seq 100); do
		msg=$(kmsg_since | grep -m1 -E "$re") && break
		sleep 0.1
	done
	kmsg_since
	[ -n "$msg" ] || fail "no kernel message matching '$re'"
	d=$(cat "$STATE/$name.dev" 2>/dev/null)
	if [ -n "$d" ] && [ "$(cat /sys/block/$d/size)" != 0 ] &&
	   [ "$(cat /sys/block/$d/queue/zoned)" = host-managed ]; then
		fail "kernel attached $d as host-managed"
	fi
	runner_alive || fail "tcmu-runner died"
	dev_remove "$name"
	blkzone report -c 1 /dev/$(devname zl0) > /dev/null || fail "zl0 no longer answers"
	note "kernel: ${msg#*] }"
}

# zones_summary DEV - blkzone report reduced to "start len wp TYPE cond"
# lines (cond as blkzone abbreviates it: nw em oi oe cl fu ro ol).
zones_summary() {
	blkzone report "$@" | sed 's/zcond:/zcond: /' | awk '{
		s = l = w = c = t = ""
		for (i = 1; i <= NF; i++) {
			if ($i == "start:") s = $(i + 1); if ($i == "len") l = $(i + 1)
			if ($i == "wptr") w = $(i + 1); if ($i == "zcond:") c = $(i + 1)
			if ($i == "[type:") t = $(i + 1)
		}
		gsub(",", "", s); gsub(",", "", l); sub(/^[0-9]+\(/, "", c); sub(/\).*$/, "", c)
		sub(/^[0-9]+\(/, "", t); sub(/\).*$/, "", t)
		if (s == "" || l == "" || w == "" || c == "" || t == "") { print "unparsed: " $0 > "/dev/stderr"; exit 1 }
		print s, l, w, t, c }'
}

# zone_wp DEV ZONE_IDX - write pointer (sectors, relative to the zone start);
# zone_cond DEV ZONE_IDX - condition (blkzone abbreviation).
zone_off() { echo $(( $2 * $(cat /sys/block/${1#/dev/}/queue/chunk_sectors) )); }
zone_wp() { zones_summary -o $(zone_off $1 $2) -c 1 $1 | awk '{ print $3 }'; }
zone_cond() { zones_summary -o $(zone_off $1 $2) -c 1 $1 | awk '{ print $5 }'; }
zone_start_bytes() { echo $(( $2 * $(cat /sys/block/${1#/dev/}/queue/chunk_sectors) * 512 )); }

# kmsg_mark / kmsg_since - dmesg lines since the last mark.
kmsg_mark() { dmesg | wc -l > "$STATE/kmsg.mark"; }
kmsg_since() { dmesg | tail -n +$(( $(cat "$STATE/kmsg.mark" 2>/dev/null || echo 0) + 1 )); }

# kernel_at_least MAJOR MINOR - the running kernel is MAJOR.MINOR or newer.
kernel_at_least() {
	local v; v=$(uname -r | awk -F'[.-]' '{ printf "%d", $1 * 1000 + $2 }')
	[ "$v" -ge $(( $1 * 1000 + $2 )) ]
}
# bt_v1_blind - the guest's blktrace (Debian 12's 1.3.0, the version-1
# trace format: BLKTRACESETUP) records no zone management request and no
# FUA request: since Linux 6.19 (f9ee38bbf70f "blktrace: add block trace
# commands for zone operations") zone reset/open/close/finish have action
# bits above BLK_TC_END_V1, and __blk_add_trace() drops an event for a
# version-1 trace when its category bits, as a number, exceed BLK_TC_END_V1
# (7.3.4: kernel/trace/blktrace.c:371); BLK_TC_FUA is BLK_TC_END_V1 itself
# (1 << 15, include/uapi/linux/blktrace_api.h:27,29), so a FUA request,
# whose category also holds READ or WRITE, is dropped too.  Only a blktrace
# using BLKTRACESETUP2 sees them.
bt_v1_blind() { kernel_at_least 6 19; }

bc_sub() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a - b }'; }

# ksigs < KMSG - one signature per kernel WARNING, BUG or Oops in a dmesg
# extract: "WARNING fs/btrfs/block-group.c:1111 btrfs_remove_block_group",
# "BUG fs/x.c:12" (kernel BUG at), "BUG <message> @ <RIP function>",
# "Oops @ <RIP function>"; sorted, duplicates kept (a count per signature).
ksigs() { awk -f /e2e/ksigs.awk | LC_ALL=C sort; }

# btrfs_cycle DEV [LABEL] - mkfs.btrfs -O zoned, mount, 21 files written +
# fsynced, scrub, umount, remount, verify; calls fail; notes timings and
# kernel messages.  Caller did kmsg_mark.  The kernel's messages go to
# $LOGS/btrfs-LABEL.kmsg, their WARNING/BUG/Oops signatures (ksigs) to
# $STATE/ksigs.LABEL (LABEL defaults to the handler's).
btrfs_cycle() {
	local dev=$1 label=${2:-$H_LABEL} t0 t1 t2 t3 i w km
	modprobe btrfs || fail "modprobe btrfs"
	t0=$EPOCHREALTIME
	mkfs.btrfs -q -f -O zoned $dev || fail "mkfs.btrfs -O zoned"
	t1=$EPOCHREALTIME
	mkdir -p /mnt/b && mount -t btrfs $dev /mnt/b || fail "mount"
	t2=$EPOCHREALTIME
	for i in $(seq 1 20); do
		head -c $(( (i * 37 % 17 + 1) * 65536 )) /dev/urandom > /mnt/b/f$i
		sync /mnt/b/f$i || fail "fsync f$i"
	done
	head -c $((32 << 20)) /dev/urandom > /mnt/b/big && sync /mnt/b/big || fail "big file"
	t3=$EPOCHREALTIME
	(cd /mnt/b && sha256sum f* big) > /tmp/btrfs.sums
	btrfs scrub start -B /mnt/b || fail "scrub"
	umount /mnt/b || fail "umount"
	mount -t btrfs $dev /mnt/b || fail "remount"
	(cd /mnt/b && sha256sum -c --quiet /tmp/btrfs.sums) || fail "checksum mismatch after remount"
	umount /mnt/b || fail "final umount"
	# Linux 6.1 scrub counts one superblock corruption at physical 0 when
	# zone 0 is conventional (also on scsi_debug, see btrfs_scsi_debug_ref):
	# reported, not failed, as long as every file verifies.
	# btrfs-cleaner removes emptied block groups in the background: give it
	# the same time on every backend before the messages are collected.
	sleep 2
	km=$LOGS/btrfs-$label.kmsg
	kmsg_since > $km
	ksigs < $km > $STATE/ksigs.$label
	grep -q 'super block error on device .*physical 0$' $km && note "$label: scrub counted 1 superblock corruption at physical 0 (kernel, docs/E2E.md);"
	grep -iE 'BTRFS (error|critical)' $km | grep -vE 'errs: wr 0, rd 0, flush 0, corrupt 1, gen 0' && fail "btrfs errors in dmesg"
	w=$(wc -l < $STATE/ksigs.$label)
	[ "$w" = 0 ] || note "kernel ($label): $w WARNING/BUG/Oops: $(uniq -c $STATE/ksigs.$label | sed 's/^ *//' | tr '\n' ';' | sed 's/;$//');"
	note "$(printf '%s: mkfs %.2fs, mount %.2fs, 21 files (~43 MiB) write+fsync %.2fs; scrub exit 0; all verified after remount;' $label $(bc_sub $t1 $t0) $(bc_sub $t2 $t1) $(bc_sub $t3 $t2))"
}

# scsi_debug_attach - the kernel's own zoned emulator with zl0's geometry;
# prints sdX.
scsi_debug_attach() {
	local before d i
	before=$(ls /sys/block | grep '^sd' | sort)
	modprobe scsi_debug zbc=managed dev_size_mb=$((ZL0_SIZE >> 20)) zone_size_mb=$ZL0_ZONE_MIB \
		zone_nr_conv=$ZL0_NCONV zone_max_open=$ZL0_MAXOPEN || return 1
	for i in $(seq 100); do
		d=$(comm -13 <(echo "$before") <(ls /sys/block | grep '^sd' | sort) | head -1)
		[ -n "$d" ] && break; sleep 0.1
	done
	[ -n "$d" ] || return 1
	udevless_wait $d
	[ "$(cat /sys/block/$d/queue/zoned)" = host-managed ] || return 1
	echo $d
}

# dd_err TEXT - the error of a failed dd ("Remote I/O error"), first line.
dd_err() { local l=${1%%$'\n'*}; echo "${l##*: }"; }
