#!/bin/bash
# 073-nvmet-script.sh - zonelab-nvmet's refusals (dist/zonelab-nvmet.sh,
# docs/NVME-ZNS.md) on a fake sysfs and blkzone: what nvmet_bdev_zns_enable()
# of Linux 6.1 would refuse silently is refused with the reason (not
# host-managed, a smaller last zone, conventional zones, no zone append),
# an all-sequential disk is accepted; names that are not NQN-safe are
# refused.  The configfs side runs in the VM (tests/e2e 77-nvme-zns.sh).
set -u
REPO=$(cd "$(dirname "$0")/../.." && pwd)
S=$REPO/dist/zonelab-nvmet.sh
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
export ZL_NVMET_SYSFS=$dir/sys ZL_NVMET_CFS=$dir/cfs ZL_NVMET_STATE=$dir/state BLKZONE=$dir/blkzone
cat > "$dir/blkzone" <<'EOB'
#!/bin/bash
cat "$ZL_NVMET_SYSFS/block/${2##*/}/report"
EOB
chmod +x "$dir/blkzone"

# disk NAME ZONED SECTORS ZONE_SECTORS NCONV [ZAMAX]
disk() {
	local q=$dir/sys/block/$1/queue i z=$4 n
	mkdir -p "$q"
	echo "$2" > "$q/zoned"; echo "$3" > "$dir/sys/block/$1/size"; echo "$z" > "$q/chunk_sectors"
	echo "${6:-1048576}" > "$q/zone_append_max_bytes"
	[ "$z" -gt 0 ] || return 0
	n=$(( ($3 + z - 1) / z ))
	for i in $(seq 0 $((n - 1))); do
		if [ "$i" -lt "$5" ]; then t='1(CONVENTIONAL)'; c='0(nw)'; else t='2(SEQ_WRITE_REQUIRED)'; c='1(em)'; fi
		printf '  start: 0x%09x, len 0x%06x, cap 0x%06x, wptr 0x000000 reset:0 non-seq:0, zcond: %s [type: %s]\n' \
			$((i * z)) $z $z "$c" "$t"
	done > "$dir/sys/block/$1/report"
}
# expect NAME RC PATTERN CMD... - exit status and a line of the output.
expect() {
	local name=$1 rc=$2 pat=$3 out got; shift 3
	out=$("$@" 2>&1); got=$?
	[ "$got" = "$rc" ] || fail "$name: exit $got, want $rc ($out)"
	grep -qE "$pat" <<< "$out" || fail "$name: output '$out' lacks /$pat/"
}
disk sda host-managed 524288 32768 0
disk sdb host-managed 524288 32768 2
disk sdc host-managed 532480 32768 0
disk sdd none 524288 0 0
disk sde host-aware 524288 32768 0
disk sdf host-managed 524288 32768 0 0
disk sdg host-managed 524288 32768 0 16777216
expect all-seq 0 '16 sequential zones of 32768 sectors' bash "$S" check /dev/sda
expect conv 1 'has conventional zones \(2 of 16 zones, 0 to 1\).*conv=0' bash "$S" check /dev/sdb
expect runt 1 'capacity 532480 sectors is not a multiple of the zone size 32768 sectors: the last zone has 8192 sectors' bash "$S" check /dev/sdc
expect not-zoned 1 'zoned=none, not host-managed' bash "$S" check /dev/sdd
expect host-aware 1 'zoned=host-aware, not host-managed' bash "$S" check sde
expect no-append 1 'zone_append_max_bytes is 0' bash "$S" check /dev/sdf
disk sdh host-managed 524288 32768 0 1310720
disk sdi host-managed 524288 32768 0 2097152
# 6.10+: zone appends up to the zone size; nvmet would advertise it (ZASL)
# and hits BUG() in bvec_alloc on appends over 1 MiB: refused, with the way
# out; ZL_NVMET_BIG_APPEND=1 takes it with a warning on stderr.
expect big-append 1 'takes zone appends of 16777216 bytes, nvmet would advertise 16777216.*zonelab-nvmet attach.*ZL_NVMET_BIG_APPEND=1' bash "$S" check /dev/sdg
expect big-append-2m 1 'takes zone appends of 2097152 bytes, nvmet would advertise 2097152' bash "$S" check /dev/sdi
expect big-append-export 1 'takes zone appends of 16777216' bash "$S" export /dev/sdg zl tcp:127.0.0.1:4420
expect big-append-forced 0 'zone append up to 16777216 bytes \(ZASL 16777216 bytes\)' env ZL_NVMET_BIG_APPEND=1 bash "$S" check /dev/sdg
expect big-append-warn 0 'warning: /dev/sdg takes zone appends of 16777216 bytes \(ZASL 16777216\).*over 1 MiB' env ZL_NVMET_BIG_APPEND=1 bash "$S" check /dev/sdg
# null_blk's 6.12 limit: 255 sectors; a limit between 1 and 2 MiB is
# advertised as 1 MiB (a power of two of 4 KiB pages): taken, no warning
expect append-1.25m 0 'zone append up to 1310720 bytes \(ZASL 1048576 bytes\)' bash "$S" check /dev/sdh
for x in sda sdh; do
	out=$(bash "$S" check /dev/$x 2>&1 >/dev/null); [ -z "$out" ] || fail "$x: a ZASL of at most 1 MiB warned: $out"
done
expect bad-maxhw 2 "ZL_NVMET_MAX_HW='1m': give 512k, 256k or host" env ZL_NVMET_MAX_HW=1m bash "$S" check /dev/sda
expect missing 1 'no .*/block/sdz/queue' bash "$S" check /dev/sdz
# A refused disk is never exported: nothing is made under configfs.
mkdir -p "$dir/cfs/nvmet/subsystems" "$dir/cfs/nvmet/ports"
expect export-conv 1 'has conventional zones' bash "$S" export /dev/sdb zl tcp:127.0.0.1:4420
[ -z "$(ls "$dir/cfs/nvmet/subsystems" "$dir/cfs/nvmet/ports" | grep -v '^$\|:$')" ] || fail "a refused export left configfs entries"
expect bad-name 1 "name 'a/b'" bash "$S" nqn a/b
expect nqn 0 '^nqn\.2026-12\.io\.zonelab:zns0$' bash "$S" nqn zns0
expect bad-transport 1 "transport 'udp:1'" bash "$S" export /dev/sda zl udp:1
expect usage 2 'usage: zonelab-nvmet check DEV' bash "$S" frobnicate
# teardown of a name never exported succeeds and leaves nothing
expect teardown-none 0 '' bash "$S" teardown zl
[ "$fails" = 0 ] && echo "PASS: zonelab-nvmet refusals" || exit 1
