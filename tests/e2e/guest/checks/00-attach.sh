# attach: load the modules, start tcmu-runner, create the main disk zl0 and
# export it through tcm_loop; the kernel must see it as host-managed with the
# configured zone count, zone size and max open zones, without dmesg errors.
. /e2e/lib.sh
kmsg_mark
# the crypto API's CRC32C on a CPU without SSE4.2: crc32c_generic up to 6.x,
# crc32c-cryptoapi (a wrapper of the CRC library) since 7.x
kmod_load configfs target_core_mod target_core_user uio tcm_loop sd_mod sg "crc32c_generic|crc32c_cryptoapi"
mountpoint -q /sys/kernel/config || mount -t configfs configfs /sys/kernel/config || fail "mount configfs"
dbus_start || fail "no D-Bus system bus"
runner_start || fail "tcmu-runner does not start"
img=/tmp/zl0.img; h_fresh "$img"
dev_create zl0 $ZL0_SIZE "$(h_cfg $img $ZL0_ZONE_MIB $ZL0_NCONV $ZL0_MAXOPEN)" || fail "backstore zl0"
dev=$(lun_attach zl0) || fail "no disk for zl0"
q=/sys/block/${dev#/dev/}/queue
zoned=$(cat $q/zoned); nr=$(cat $q/nr_zones); cs=$(cat $q/chunk_sectors); mo=$(cat $q/max_open_zones)
echo "dev=$dev zoned=$zoned nr_zones=$nr chunk_sectors=$cs max_open_zones=$mo"
[ "$zoned" = host-managed ] || fail "zoned=$zoned"
[ "$nr" = $(( ZL0_SIZE / (ZL0_ZONE_MIB << 20) )) ] || fail "nr_zones=$nr"
[ "$cs" = $(( (ZL0_ZONE_MIB << 20) / 512 )) ] || fail "chunk_sectors=$cs"
[ "$mo" = $ZL0_MAXOPEN ] || fail "max_open_zones=$mo, want $ZL0_MAXOPEN"
[ "$(cat /sys/block/${dev#/dev/}/size)" = $(( ZL0_SIZE / 512 )) ] || fail "size $(cat /sys/block/${dev#/dev/}/size)"
kmsg_since
if kmsg_since | grep -iE 'error|fail|critical|warn|bug|call trace' | grep -v 'tcmu-runner' ; then
	fail "dmesg errors while attaching"
fi
# Ours comes as `make install PREFIX=/usr` put it (mkinitramfs.sh).
inst=""
if [ "$E2E_HANDLER" = zonelab ]; then
	[ -s /e2e/installed.list ] || fail "no installed layout (make install) in the guest"
	while read -r f; do [ -e "$f" ] || fail "installed file $f missing"; done < /e2e/installed.list
	$ZONELAB --help > /dev/null || fail "installed $ZONELAB --help"
	inst="; installed layout: $(wc -l < /e2e/installed.list) files, handler from $(dirname $(ls /usr/lib/*/tcmu-runner/handler_zonelab.so))"
fi
note "$dev host-managed, $nr zones of ${ZL0_ZONE_MIB} MiB, max open $mo ($H_LABEL)$inst"
