# tests/e2e/guest/nvme.sh - helpers of the NVMe ZNS checks (77-79, sourced
# after lib.sh): zonelab disks and null_blk references exported through
# nvmet as ZNS namespaces with the installed zonelab-nvmet (docs/NVME-ZNS.md).
NVMET=/usr/bin/zonelab-nvmet
NVPORT=tcp:127.0.0.1:4420
NVCFS=/sys/kernel/config/nvmet

# nv_need - skip unless the kernel has nvmet with ZNS, the transports and
# null_blk, and nvme-cli is there.
nv_need() {
	local m
	[ -x $NVMET ] || fail "zonelab-nvmet is not installed ($NVMET)"
	type nvme > /dev/null 2>&1 || skip "no nvme-cli in the guest"
	for m in nvmet nvmet-tcp nvme-tcp; do
		modprobe $m 2> /dev/null || skip "no module $m in this kernel"
	done
	# no default nullb0: the references are made through configfs
	modprobe null_blk nr_devices=0 2> /dev/null || skip "no module null_blk in this kernel"
	# the loop transport is optional (Debian's 6.1 has no CONFIG_NVME_TARGET_LOOP)
	NVLOOP=""; modprobe nvme-loop 2> /dev/null && NVLOOP=loop
	[ -d $NVCFS ] || skip "nvmet loaded but no $NVCFS"
}

# nv_zl NAME SIZE_MIB ZONE [NCONV [CFG-EXTRA]] - a zonelab disk with a
# control socket (/tmp/NAME.img.ctl), all zones sequential unless NCONV,
# attached with `zonelab-nvmet attach` (TCMU backstore user_0/NAME + its
# tcm_loop target; the SCSI disk's max_hw_sectors capped at 512 KiB through
# scsi_mod's default_dev_flags for the scan, which must be back to what it
# was); prints sdX.  ZONE is in MiB, or with its unit (256K).  nv_zl_rm
# NAME removes it.  NV_KEEP=1: the image NAME had is opened again (its
# durable state: a power cycle, after nv_zl_rm), not made afresh.
nv_zl() {
	local img=/tmp/$1.img cfg d f=/sys/module/scsi_mod/parameters/default_dev_flags flags zs=$3
	[ -n "${NV_KEEP:-}" ] || h_fresh $img
	case $zs in *[KMG]) ;; *) zs=${zs}M ;; esac
	cfg="zonelab/$img?zsize=$zs&conv=${4:-0}&max_open=16&lba=${E2E_LBA:-512}&ctl=1${5:-}"
	flags=$(cat $f)
	d=$($NVMET attach $1 $(( $2 << 20 )) "$cfg" 2>> $LOGS/nvmet-attach.err) || { cat $LOGS/nvmet-attach.err >&2; return 1; }
	d=${d#/dev/}
	[ "$(cat $f)" = "$flags" ] || { echo "default_dev_flags is $(cat $f) after attach, was $flags" >&2; return 1; }
	[ "$(cat /sys/block/$d/queue/max_hw_sectors_kb)" = 512 ] ||
		{ echo "$d: max_hw_sectors_kb $(cat /sys/block/$d/queue/max_hw_sectors_kb), want 512 (zonelab-nvmet attach)" >&2; return 1; }
	udevless_wait $d
	echo $d
}
nv_zl_rm() { $NVMET detach $1 > /dev/null 2>&1; }

# nv_nullb NAME SIZE_MIB ZONE_MIB - a memory-backed zoned null_blk with that
# geometry (no conventional zones, at most 16 open); prints its disk name
# (NAME on 6.1+, nullbN before).
nv_nullb() {
	local d=/sys/kernel/config/nullb/$1 before b i
	[ -d /sys/kernel/config/nullb ] || modprobe null_blk nr_devices=0 || return 1
	before=$(ls /sys/block | sort)
	mkdir "$d" || return 1
	echo $2 > $d/size; echo 512 > $d/blocksize; echo 1 > $d/memory_backed
	echo 1 > $d/zoned; echo $3 > $d/zone_size; echo 0 > $d/zone_nr_conv
	echo 16 > $d/zone_max_open
	echo 1 > $d/power || return 1
	# the disk's name: 6.1 names it after the configfs item (NAME), older
	# kernels nullbN with N not the configfs index: the new one in /sys/block
	for i in $(seq 50); do
		b=$(comm -13 <(echo "$before") <(ls /sys/block | sort) | head -1)
		[ -n "$b" ] && break; sleep 0.1
	done
	[ -n "$b" ] || return 1
	udevless_wait $b; echo $b
}
nv_nullb_rm() { local d=/sys/kernel/config/nullb/$1; [ -d $d ] || return 0; echo 0 > $d/power; rmdir $d; }

# nv_up DEV NAME [TRANSPORT] - export DEV as NAME and connect; prints nvmeXnY.
nv_up() {
	local t=${3:-$NVPORT}
	$NVMET export /dev/$1 $2 $t > $LOGS/nvmet-$2.out 2>&1 || { cat $LOGS/nvmet-$2.out; return 1; }
	$NVMET connect $2 $t 2>> $LOGS/nvmet-$2.out | sed 's|/dev/||'
}

# nv_zones DEV - `nvme zns report-zones` as "start len wp cond" lines
# (sectors of 512 bytes, wp absolute; cond as blkzone abbreviates it: of
# for offline).  Fails, with nvme-cli's message on stderr, when nvme-cli
# does: nvme-cli 2.3 first asks for the zone count alone (a 64-byte,
# non-partial report), which 7.3.4's nvmet refuses (0x6002, docs/NVME-ZNS.md
# "Kernel differences"); nv_zones_zmr reads the zones on every kernel.
nv_zones() {
	local lbs out; lbs=$(cat /sys/block/${1#/dev/}/queue/logical_block_size)
	out=$(nvme zns report-zones /dev/${1#/dev/} 2>&1) || { echo "$out" >&2; return 1; }
	awk -v f=$((lbs / 512)) -v zs=$(cat /sys/block/${1#/dev/}/queue/chunk_sectors) '
		/SLBA:/ { s = c = w = ""
			for (i = 1; i <= NF; i++) { if ($i == "SLBA:") s = $(i + 1); if ($i == "WP:") w = $(i + 1); if ($i == "State:") c = $(i + 1) }
			m["EMPTY"] = "em"; m["IMP_OPENED"] = "oi"; m["EXP_OPENED"] = "oe"; m["CLOSED"] = "cl"
			m["FULL"] = "fu"; m["READONLY"] = "ro"; m["OFFLINE"] = "of"
			# nvme-cli 2.3 prints the state as a number too (ZS << 4)
			m["0x10"] = "em"; m["0x20"] = "oi"; m["0x30"] = "oe"; m["0x40"] = "cl"
			m["0xd0"] = "ro"; m["0xe0"] = "fu"; m["0xf0"] = "of"
			printf "%d %d %d %s\n", strtonum(s) * f, zs, strtonum(w) * f, (c in m) ? m[c] : c }' <<< "$out"
}
# nv_zmr DEV SLBA BYTES [PARTIAL] - one Zone Management Receive command
# (opcode 0x7a, Report Zones, all zones from SLBA, ZNS 1.1 3.4.2) with a
# BYTES buffer through `nvme io-passthru`: the raw report on stdout, the
# NVMe status on stderr as nvme-cli prints it (nv_status).  PARTIAL=1 sets
# Partial Report (the zone count is then that of the descriptors returned).
# nvme-cli 2.3's `zone-mgmt-recv` does the same command but prints nothing
# of the data, hence io-passthru.
nv_zmr() {
	local d=${1#/dev/} slba=$2 len=$3 part=${4:-0} nsid
	nsid=$(cat /sys/block/$d/nsid 2> /dev/null || echo 1)
	nvme io-passthru /dev/$d --opcode=0x7a --namespace-id=$nsid --data-len=$len --read -b \
		--cdw10=$((slba & 0xffffffff)) --cdw11=$((slba >> 32)) --cdw12=$((len / 4 - 1)) \
		--cdw13=$((part << 16))
}
# nv_zones_zmr DEV NR - the report of all NR zones read with one
# Zone Management Receive whose buffer holds them all (64 + 64 * NR bytes,
# not partial: what 7.3.4's nvmet accepts), as nv_zones's lines; fails when
# the command does or the report's zone count is not NR.
nv_zones_zmr() {
	local d=${1#/dev/} f
	f=$(mktemp)
	# nvme-cli says "... is Success" on stderr: only a failure's message is kept
	nv_zmr $d 0 $((64 + 64 * $2)) > $f 2> $f.err || { cat $f.err >&2; rm -f $f $f.err; return 1; }
	rm -f $f.err
	python3 - $f $2 $(( $(cat /sys/block/$d/queue/logical_block_size) / 512 )) $(cat /sys/block/$d/queue/chunk_sectors) << 'PY'
import struct, sys
b = open(sys.argv[1], "rb").read()
nr, f, zs = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
cond = {1: "em", 2: "oi", 3: "oe", 4: "cl", 0xd: "ro", 0xe: "fu", 0xf: "of"}
n = struct.unpack_from("<Q", b, 0)[0]
if n != nr:
    sys.exit("report's zone count %d, want %d" % (n, nr))
for i in range(nr):
    o = 64 + 64 * i
    st = b[o + 1] >> 4
    slba, wp = struct.unpack_from("<QQ", b, o + 16)
    print(slba * f, zs, wp * f, cond.get(st, hex(st)))
PY
	local r=$?; rm -f $f; return $r
}
# bz_zones DEV - blkzone report as the same "start len wp cond" lines.
bz_zones() {
	zones_summary /dev/${1#/dev/} | awk '{ printf "%d %d %d %s\n", strtonum($1), strtonum($2), strtonum($1) + strtonum($3), $5 }'
}
# zl_zones CTL - zonelab's own report (`zonelab ctl zone report`) as the
# same lines.
zl_zones() {
	$ZONELAB ctl --json $1 zone report 0 all 256 | python3 -c '
import json, sys
c = {"empty": "em", "imp-open": "oi", "exp-open": "oe", "closed": "cl", "full": "fu", "read-only": "ro", "offline": "of"}
for z in json.load(sys.stdin)["zones"]:
    print(z["start"], z["len"], z["wp"] if z["wp"] is not None else "-", c.get(z["cond"], z["cond"]))'
}

# zones_norm < LINES - the write pointer of offline and read-only zones is
# not valid (ZBC, ZNS): "-".
zones_norm() { awk '$4 == "of" || $4 == "ro" { $3 = "-" } { print }'; }

# nv_status OUTPUT - the NVMe status code nvme-cli printed ("...(0x4006)").
nv_status() { grep -o '(0x[0-9a-fA-F]*)' <<< "$1" | tail -1 | tr -d '()'; }

# nv_clean - nothing of nvmet, nvme fabrics or null_blk left.
nv_left() {
	local l
	l=$(ls $NVCFS/subsystems $NVCFS/ports 2> /dev/null | grep -v ':$' | grep -v '^$' | tr '\n' ' ')
	l+=$(ls /sys/class/nvme 2> /dev/null | tr '\n' ' ')
	l+=$(ls /sys/kernel/config/nullb 2> /dev/null | grep -v features | tr '\n' ' ')
	echo "$l"
}

# nv_multipath Y|N - nvme_core's native multipath, reloading the host's
# NVMe modules when it differs (nothing may be connected).  With it (the
# default), a fabrics namespace is the head nvmeXnY whose bios are remapped
# to the path's disk (nvmeXcYnZ): 6.1's btrfs then maps a zone append's
# completion with the path's block device and finds no block group
# (docs/NVME-ZNS.md, "btrfs on 6.1").
nv_multipath() {
	local p=/sys/module/nvme_core/parameters/multipath m
	[ "$(cat $p 2> /dev/null)" = "$1" ] && return 0
	# since 6.x nvmet itself holds nvme_core: the target goes too (nothing
	# may be exported) and comes back after
	for m in nvme-loop nvme-tcp nvmet-tcp nvmet nvme-fabrics nvme nvme-core; do modprobe -r $m 2> /dev/null; done
	[ ! -d /sys/module/nvme_core ] || { echo "nvme_core still loaded: $(ls /sys/module/nvme_core/holders)" >&2; return 1; }
	modprobe nvme-core multipath=$1 && modprobe nvme-tcp && modprobe nvmet && modprobe nvmet-tcp || return 1
	[ -z "${NVLOOP:-}" ] || modprobe nvme-loop
	[ -d $NVCFS ] && [ "$(cat $p)" = "$1" ]
}
