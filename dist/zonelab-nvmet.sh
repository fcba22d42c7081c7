#!/bin/bash
# zonelab-nvmet - export a zonelab disk (or any host-managed zoned block
# device) as an NVMe ZNS namespace through the kernel's NVMe target (nvmet),
# over TCP and/or the loop transport, and connect to it with nvme-cli.
# Installed as $(BINDIR)/zonelab-nvmet by `make install`; docs/NVME-ZNS.md.
#
#   zonelab-nvmet check DEV                 can nvmet take DEV as ZNS? (reason if not)
#   zonelab-nvmet export DEV NAME [tcp:ADDR:PORT] [loop]
#   zonelab-nvmet connect NAME tcp:ADDR:PORT|loop     prints /dev/nvmeXnY
#   zonelab-nvmet teardown NAME             disconnect, unlink ports, remove namespace+subsystem
#   zonelab-nvmet attach NAME SIZE CFGSTRING   TCMU backstore + tcm_loop LUN, prints /dev/sdX
#   zonelab-nvmet detach NAME
#   zonelab-nvmet up NAME SIZE CFGSTRING tcp:ADDR:PORT|loop   attach+export+connect
#   zonelab-nvmet down NAME                 teardown+detach
#   zonelab-nvmet nqn NAME                  the subsystem NQN of NAME
#
# Environment: ZL_NVMET_HOSTNQN, ZL_NVMET_HOSTID (the initiator's host NQN
# and ID; the ID defaults to the NQN's UUID); ZL_NVMET_MAX_HW (attach: the
# SCSI disk's max_hw_sectors, 512k (default), 256k or host);
# ZL_NVMET_BIG_APPEND=1 (export a device whose zone append limit is over
# 1 MiB anyway, with a warning).  For tests: ZL_NVMET_SYSFS (default /sys), ZL_NVMET_CFS
# (default /sys/kernel/config), ZL_NVMET_STATE (default /run/zonelab-nvmet),
# BLKZONE (default blkzone), NVME (default nvme).
set -u
SYSFS=${ZL_NVMET_SYSFS:-/sys}
CFS=${ZL_NVMET_CFS:-/sys/kernel/config}
NV=$CFS/nvmet
TGT=$CFS/target
STATE=${ZL_NVMET_STATE:-/run/zonelab-nvmet}
BLKZONE=${BLKZONE:-blkzone}
NVME=${NVME:-nvme}
HOSTNQN=${ZL_NVMET_HOSTNQN:-nqn.2014-08.org.nvmexpress:uuid:7a6f6e65-6c61-6200-0000-000000000001}
# The host ID goes with the host NQN: without --hostid the kernel uses its
# default host's random ID, and since 6.x nvme-fabrics refuses a connect
# whose ID is a known host's with another NQN ("found same hostid ... but
# different hostnqn", EINVAL).  A uuid-based NQN gives its UUID.
case $HOSTNQN in *:uuid:*) d_hostid=${HOSTNQN##*:uuid:} ;; *) d_hostid=7a6f6e65-6c61-6200-0000-000000000001 ;; esac
HOSTID=${ZL_NVMET_HOSTID:-$d_hostid}
MAXHW=${ZL_NVMET_MAX_HW:-512k}
case $MAXHW in 512k|256k|host) ;; *) echo "zonelab-nvmet: ZL_NVMET_MAX_HW='$MAXHW': give 512k, 256k or host" >&2; exit 2 ;; esac
prog=zonelab-nvmet

die() { echo "$prog: $*" >&2; exit 1; }
usage() { sed -n '/^#   zonelab-nvmet/s/^#   /usage: /p' "$0" >&2; exit 2; }

nqn_of() {
	case $1 in ''|*[!A-Za-z0-9._-]*) die "name '$1': use letters, digits, '.', '_' and '-' only" ;; esac
	echo "nqn.2026-12.io.zonelab:$1"
}

# devname DEV - the kernel name of a block device path (/dev/sdb -> sdb).
devname() {
	local d=$1
	[ -b "$d" ] || [ -z "${ZL_NVMET_SYSFS:-}" ] || d=/dev/${d##*/}
	case $d in /dev/*) ;; *) d=/dev/$d ;; esac
	if [ -z "${ZL_NVMET_SYSFS:-}" ]; then
		[ -b "$d" ] || die "$1: not a block device"
		d=$(readlink -f "$d")
	fi
	echo "${d##*/}"
}

# check DEV - refuse, with the reason, what nvmet_bdev_zns_enable() (6.1,
# drivers/nvme/target/zns.c) would refuse silently: the namespace's enable
# only fails with EINVAL.
check() {
	local n q zoned zs nsec nz conv zamax zasl
	n=$(devname "$1"); q=$SYSFS/block/$n/queue
	[ -d "$q" ] || die "$1: no $q (not a whole-disk block device)"
	zoned=$(cat "$q/zoned")
	[ "$zoned" = host-managed ] ||
		die "$1: zoned=$zoned, not host-managed: nvmet would export it as a conventional NVM namespace, not ZNS"
	zs=$(cat "$q/chunk_sectors"); nsec=$(cat "$SYSFS/block/$n/size")
	[ "$zs" -gt 0 ] 2>/dev/null || die "$1: zone size (chunk_sectors) is '$zs'"
	if [ $((nsec % zs)) -ne 0 ]; then
		die "$1: capacity $nsec sectors is not a multiple of the zone size $zs sectors: the last zone has $((nsec % zs)) sectors, and ZNS zones all have one size (nvmet refuses a smaller last zone)"
	fi
	zamax=$(cat "$q/zone_append_max_bytes" 2>/dev/null || echo 0)
	[ "$zamax" -ge 4096 ] ||
		die "$1: zone_append_max_bytes is $zamax: nvmet needs zone append of at least 4096 bytes (its ZASL unit)"
	conv=$("$BLKZONE" report "/dev/$n" 2>&1) || die "$1: blkzone report failed: $conv"
	nz=$(grep -c 'start:' <<< "$conv")
	[ "$nz" -gt 0 ] || die "$1: blkzone report listed no zones"
	conv=$(grep -n 'CONVENTIONAL' <<< "$conv" | cut -d: -f1 |
		awk '{ n++; if (n == 1) f = $1 - 1; l = $1 - 1 } END { if (n) printf "%d of %d zones, %d to %d", n, nz, f, l }' nz="$nz")
	[ -z "$conv" ] ||
		die "$1: has conventional zones ($conv): ZNS has no conventional zone type (nvmet refuses the device); make the disk with conv=0"
	# nvmet advertises ZASL = the largest power of two of 4 KiB pages within
	# the device's zone append limit (nvmet_zasl(), zns.c), and allocates one
	# bio vector per 4 KiB page of a Zone Append (bio_alloc(sg_cnt)), at
	# most 256: an append over 1 MiB hits BUG() in bvec_alloc.  Since 6.10
	# sd's zone append is the block layer's emulation, whose limit is
	# min(zone size, max_hw_sectors) (queue_limits_max_zone_append_sectors),
	# so a disk attached without a lower max_hw_sectors advertises its zone
	# size (seen on 6.12 with btrfs: the guest's nvmet worker dies).
	zasl=4096; while [ $((zasl * 2)) -le "$zamax" ]; do zasl=$((zasl * 2)); done
	if [ "$zasl" -gt 1048576 ]; then
		[ -n "${ZL_NVMET_BIG_APPEND:-}" ] ||
			die "$1: takes zone appends of $zamax bytes, nvmet would advertise $zasl (ZASL), and it hits BUG() in bvec_alloc on a Zone Append over 1 MiB (256 pages; Linux 6.10+): attach the disk with 'zonelab-nvmet attach' (max_hw_sectors 512 KiB), or ZL_NVMET_BIG_APPEND=1 to export it anyway"
		echo "$prog: warning: $1 takes zone appends of $zamax bytes (ZASL $zasl): nvmet hits BUG() in bvec_alloc on a Zone Append over 1 MiB; keep the initiator's appends at 1 MiB or less (btrfs does not)" >&2
	fi
	echo "$1: ZNS-capable: $nz sequential zones of $zs sectors, zone append up to $zamax bytes (ZASL $zasl bytes)"
}

need_nvmet() {
	[ -d "$NV" ] || modprobe nvmet 2>/dev/null
	[ -d "$NV" ] || die "no $NV: the kernel has no nvmet (modprobe nvmet failed)"
}

# port_for TRTYPE [ADDR PORT] - the id of our port with that address, made
# when missing (recorded in $STATE/ports so teardown removes only ours).
port_for() {
	local t=$1 a=${2:-} s=${3:-} p id
	for p in "$NV"/ports/*; do
		[ -d "$p" ] || continue
		[ "$(cat "$p/addr_trtype")" = "$t" ] || continue
		if [ "$t" = tcp ]; then
			[ "$(cat "$p/addr_traddr")" = "$a" ] && [ "$(cat "$p/addr_trsvcid")" = "$s" ] || continue
		fi
		echo "${p##*/}"; return 0
	done
	id=1; while [ -e "$NV/ports/$id" ]; do id=$((id + 1)); done
	mkdir "$NV/ports/$id" || die "cannot create nvmet port $id"
	mkdir -p "$STATE/ports"; touch "$STATE/ports/$id"
	if [ "$t" = tcp ]; then
		case $a in *:*) echo ipv6 ;; *) echo ipv4 ;; esac > "$NV/ports/$id/addr_adrfam"
		echo "$a" > "$NV/ports/$id/addr_traddr"
		echo "$s" > "$NV/ports/$id/addr_trsvcid"
	fi
	echo "$t" > "$NV/ports/$id/addr_trtype" || die "port $id: transport $t refused (modprobe nvmet-$t?)"
	echo "$id"
}

# parse_tr SPEC - "tcp ADDR PORT" or "loop".
parse_tr() {
	case $1 in
	loop) echo loop ;;
	tcp:*:*) local r=${1#tcp:}; echo "tcp ${r%:*} ${r##*:}" ;;
	*) die "transport '$1': give tcp:ADDR:PORT or loop" ;;
	esac
}

export_dev() {
	local dev=$1 name=$2 nqn s ns tr p; shift 2
	check "$dev" >/dev/null || exit 1
	need_nvmet
	nqn=$(nqn_of "$name"); s=$NV/subsystems/$nqn
	[ ! -e "$s" ] || die "$nqn is already exported (zonelab-nvmet teardown $name)"
	for tr in "$@"; do
		case $tr in
		tcp:*) [ -d "$SYSFS/module/nvmet_tcp" ] || modprobe nvmet-tcp 2>/dev/null ||
			die "$tr: no nvmet-tcp module in this kernel (CONFIG_NVME_TARGET_TCP)" ;;
		loop) [ -d "$SYSFS/module/nvme_loop" ] || modprobe nvme-loop 2>/dev/null ||
			die "loop: no nvme-loop module in this kernel (CONFIG_NVME_TARGET_LOOP; Debian's 6.1 has none): use tcp:127.0.0.1:PORT" ;;
		esac
	done
	mkdir "$s" || die "cannot create subsystem $nqn"
	echo 1 > "$s/attr_allow_any_host"
	ns=$s/namespaces/1; mkdir "$ns" || die "cannot create namespace 1 of $nqn"
	echo "/dev/$(devname "$dev")" > "$ns/device_path"
	if ! echo 1 > "$ns/enable" 2>/dev/null; then
		rmdir "$ns" "$s"
		die "$dev: nvmet refused to enable the namespace (see dmesg); the checks above passed, so this is another reason (zone append limit below another namespace's?)"
	fi
	[ "$(cat "$ns/enable")" = 1 ] || die "$nqn: namespace not enabled"
}

do_export() {
	local dev=$1 name=$2 tr nqn p; shift 2
	[ $# -gt 0 ] || die "export: give at least one transport (tcp:ADDR:PORT, loop)"
	for tr in "$@"; do parse_tr "$tr" >/dev/null; done
	export_dev "$dev" "$name" "$@"
	nqn=$(nqn_of "$name")
	for tr in "$@"; do
		p=$(port_for $(parse_tr "$tr")) || { teardown "$name"; exit 1; }
		ln -s "$NV/subsystems/$nqn" "$NV/ports/$p/subsystems/$nqn" ||
			{ teardown "$name"; die "$tr: cannot link $nqn to port $p (address in use?)"; }
	done
	echo "$nqn"
}

# nsdev NQN - the block device of namespace 1 of NQN on the host side
# (the multipath head nvmeXnY when native multipath is on).
nsdev() {
	local b
	for b in "$SYSFS"/block/nvme*n*; do
		[ -e "$b" ] || continue
		case ${b##*/} in nvme*c*) continue ;; esac
		[ "$(cat "$b/device/subsysnqn" 2>/dev/null)" = "$1" ] && { echo "/dev/${b##*/}"; return 0; }
	done
	return 1
}

do_connect() {
	local name=$1 nqn i d out; nqn=$(nqn_of "$name")
	set -- $(parse_tr "$2")
	case $1 in
	tcp) modprobe nvme-tcp 2>/dev/null
	     out=$("$NVME" connect -t tcp -a "$2" -s "$3" -n "$nqn" --hostnqn "$HOSTNQN" --hostid "$HOSTID" 2>&1) ;;
	loop) modprobe nvme-loop 2>/dev/null
	      out=$("$NVME" connect -t loop -n "$nqn" --hostnqn "$HOSTNQN" --hostid "$HOSTID" 2>&1) ;;
	esac || die "nvme connect to $nqn failed: $out"
	for i in $(seq 100); do
		d=$(nsdev "$nqn") && { [ -b "$d" ] || [ -n "${ZL_NVMET_SYSFS:-}" ]; } && { echo "$d"; return 0; }
		sleep 0.1
	done
	die "connected to $nqn but no namespace block device appeared"
}

# teardown NAME - in any state: disconnect every controller of the
# subsystem, unlink it from every port, disable and remove the namespace and
# the subsystem, remove our ports left without subsystems.
teardown() {
	local nqn c p l i; nqn=$(nqn_of "$1")
	for c in "$SYSFS"/class/nvme/nvme*; do
		[ "$(cat "$c/subsysnqn" 2>/dev/null)" = "$nqn" ] || continue
		"$NVME" disconnect -d "${c##*/}" >/dev/null 2>&1 || echo 1 > "$c/delete_controller" 2>/dev/null
	done
	for i in $(seq 50); do
		grep -qxF "$nqn" "$SYSFS"/class/nvme/nvme*/subsysnqn 2>/dev/null || break
		sleep 0.1
	done
	[ -d "$NV" ] || return 0
	for l in "$NV"/ports/*/subsystems/"$nqn"; do [ -L "$l" ] && rm "$l"; done
	if [ -d "$NV/subsystems/$nqn" ]; then
		for p in "$NV/subsystems/$nqn"/namespaces/*; do
			[ -d "$p" ] || continue
			echo 0 > "$p/enable" 2>/dev/null; rmdir "$p"
		done
		rmdir "$NV/subsystems/$nqn" || die "cannot remove subsystem $nqn"
	fi
	for p in "$STATE"/ports/*; do
		[ -e "$p" ] || continue
		[ -d "$NV/ports/${p##*/}" ] || { rm -f "$p"; continue; }
		[ -z "$(ls "$NV/ports/${p##*/}/subsystems")" ] || continue
		rmdir "$NV/ports/${p##*/}" && rm -f "$p"
	done
	return 0
}

wwn_of() { printf 'naa.5001405%09x' "$(cksum <<< "zonelab-nvmet:$1" | cut -d' ' -f1)"; }

# attach NAME SIZE CFGSTRING - a TCMU backstore user_0/NAME (tcmu-runner
# must run with handler_zonelab.so) exported through tcm_loop; prints /dev/sdX.
attach() {
	local name=$1 size=$2 cfg=$3 d=$TGT/core/user_0/$1 w t a i b
	nqn_of "$name" >/dev/null
	case $size in *[Gg]) size=$((${size%?} << 30)) ;; *[Mm]) size=$((${size%?} << 20)) ;; esac
	case $size in ''|*[!0-9]*) die "size '$2': bytes, or a number with M or G" ;; esac
	[ -d "$TGT" ] || modprobe target_core_user 2>/dev/null
	modprobe tcm_loop 2>/dev/null
	[ -d "$TGT/core" ] || die "no $TGT/core: LIO (target_core_mod) is not loaded"
	[ ! -e "$d" ] || die "backstore user_0/$name exists already"
	mkdir -p "$d" && echo -n "dev_size=$size" > "$d/control" && echo -n "dev_config=$cfg" > "$d/control" &&
		echo 1 > "$d/enable" || { rmdir "$d" 2>/dev/null; die "cannot enable backstore user_0/$name (tcmu-runner running? cfgstring accepted? see its log)"; }
	w=$(wwn_of "$name"); t=$TGT/loopback/$w/tpgt_1
	mkdir -p "$t/lun/lun_0" && echo "$w" > "$t/nexus" || { detach "$name"; die "cannot export user_0/$name through tcm_loop"; }
	scan_limited "$t/lun/lun_0" "$d" "$name" || { detach "$name"; die "cannot export user_0/$name through tcm_loop"; }
	for i in $(seq 200); do
		a=$(cat "$t/address" 2>/dev/null)
		b=$(ls "$SYSFS/class/scsi_device/$a:0/device/block" 2>/dev/null | head -1)
		if [ -n "$a" ] && [ -n "$b" ] && [ -b "/dev/$b" ]; then
			[ "$MAXHW" = host ] || [ "$(cat "$SYSFS/block/$b/queue/max_hw_sectors_kb")" -le "${MAXHW%k}" ] ||
				echo "$prog: warning: /dev/$b: max_hw_sectors_kb is $(cat "$SYSFS/block/$b/queue/max_hw_sectors_kb"), not $MAXHW (scsi_mod's default_dev_flags not taken?)" >&2
			echo "/dev/$b"; return 0
		fi
		sleep 0.1
	done
	detach "$name"; die "no SCSI disk appeared for user_0/$name"
}

# scan_limited LUNDIR BACKSTORE NAME - link the backstore as the LUN (tcm_loop
# scans it synchronously: scsi_add_device) with scsi_mod's default device
# flags (/sys/module/scsi_mod/parameters/default_dev_flags, which apply to a
# device no scsi_devinfo entry names, as zonelab's "ZONELAB ZONED DISK")
# holding BLIST_MAX_1024 (512 KiB) or BLIST_MAX_512 (256 KiB) for that scan
# only, so the disk's max_hw_sectors, and with it the zone append limit nvmet
# advertises, stays at or below 1 MiB (see check).  The handler cannot do it:
# the Block Limits VPD's MAXIMUM TRANSFER LENGTH sets sd's max_dev_sectors,
# and the zone append limit follows max_hw_sectors (tcm_loop's host: 65535
# sectors).  ZL_NVMET_MAX_HW=512k (default), 256k, or host (no change).
scan_limited() {
	local lun=$1 bs=$2 name=$3 f=$SYSFS/module/scsi_mod/parameters/default_dev_flags old bit rc
	case $MAXHW in
	512k) bit=$((1 << 30)) ;;
	256k) bit=$((1 << 23)) ;;
	host) ln -s "$bs" "$lun/$name"; return ;;
	esac
	if [ ! -w "$f" ]; then
		echo "$prog: warning: no writable $f: the disk keeps the host's max_hw_sectors (its zone append limit may exceed what nvmet handles)" >&2
		ln -s "$bs" "$lun/$name"; return
	fi
	mkdir -p "$STATE"
	exec 8> "$STATE/scan.lock"; flock 8
	old=$(cat "$f")
	echo $((old | bit)) > "$f" || { flock -u 8; ln -s "$bs" "$lun/$name"; return; }
	ln -s "$bs" "$lun/$name"; rc=$?
	echo "$old" > "$f"
	flock -u 8; exec 8>&-
	return $rc
}

detach() {
	local name=$1 w t; w=$(wwn_of "$name"); t=$TGT/loopback/$w/tpgt_1
	rm -f "$t/lun/lun_0/$name"; rmdir "$t/lun/lun_0" "$t" "$TGT/loopback/$w" 2>/dev/null
	[ ! -d "$TGT/core/user_0/$name" ] || rmdir "$TGT/core/user_0/$name" ||
		die "cannot remove backstore user_0/$name"
	return 0
}

[ $# -ge 1 ] || usage
cmd=$1; shift
case $cmd in
check) [ $# = 1 ] || usage; check "$1" ;;
export) [ $# -ge 3 ] || usage; do_export "$@" ;;
connect) [ $# = 2 ] || usage; do_connect "$1" "$2" ;;
teardown) [ $# = 1 ] || usage; teardown "$1" ;;
attach) [ $# = 3 ] || usage; attach "$@" ;;
detach) [ $# = 1 ] || usage; detach "$1" ;;
up) [ $# = 4 ] || usage
    dev=$(attach "$1" "$2" "$3") || exit 1
    do_export "$dev" "$1" "$4" >/dev/null || { detach "$1"; exit 1; }
    do_connect "$1" "$4" || { teardown "$1"; detach "$1"; exit 1; } ;;
down) [ $# = 1 ] || usage; teardown "$1"; detach "$1" ;;
nqn) [ $# = 1 ] || usage; nqn_of "$1" ;;
-h|--help|help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//' ;;
*) usage ;;
esac
