# iscsi: the same kind of disk through an LIO iSCSI target on the guest's
# loopback (127.0.0.1:3260 only): open-iscsi's iscsistart logs in, the kernel
# attaches it as host-managed, blkzone and a direct write at the WP work;
# libiscsi's iscsi-readcapacity16 reads it as a second initiator.
. /e2e/lib.sh
for m in iscsi_target_mod iscsi_tcp; do modprobe $m || fail "modprobe $m"; done
img=/tmp/zli.img; h_fresh $img
if type h_cfg_ctl > /dev/null 2>&1; then cfg=$(h_cfg_ctl $img 16 8 16); else cfg=$(h_cfg $img 16 8 16); fi
dev_create zli $((1024 << 20)) "$cfg" || fail "backstore"
iqn=iqn.2003-01.org.zonelab:e2e; t=$CFS/iscsi/$iqn/tpgt_1
mkdir -p $t/lun/lun_0 || fail "iscsi tpg"
ln -s $CFS/core/user_0/zli $t/lun/lun_0/zli || fail "lun"
mkdir $t/np/127.0.0.1:3260 || fail "portal"
for a in authentication=0 generate_node_acls=1 cache_dynamic_acls=1 demo_mode_write_protect=0; do
	echo ${a#*=} > $t/attrib/${a%=*} || fail "attrib $a"
done
echo 1 > $t/enable || fail "enable tpg"
iscsi-readcapacity16 iscsi://127.0.0.1:3260/$iqn/0 > $LOGS/rc16.out 2>&1 || fail "iscsi-readcapacity16: $(cat $LOGS/rc16.out)"
cat $LOGS/rc16.out
before=$(ls /sys/block | grep '^sd' | sort)
iscsistart -i iqn.2003-01.org.zonelab:guest -t $iqn -g 1 -a 127.0.0.1 -p 3260 || fail "iscsistart login"
dev=""
for i in $(seq 100); do
	dev=$(comm -13 <(echo "$before") <(ls /sys/block | grep '^sd' | sort) | head -1)
	[ -n "$dev" ] && break; sleep 0.1
done
[ -n "$dev" ] || fail "no disk after iSCSI login"
echo $dev > $STATE/zli.dev; udevless_wait $dev
q=/sys/block/$dev/queue
[ "$(cat $q/zoned)" = host-managed ] || fail "zoned=$(cat $q/zoned) over iSCSI"
[ "$(cat $q/nr_zones)" = 64 ] || fail "nr_zones=$(cat $q/nr_zones)"
[ "$(blkzone report /dev/$dev | wc -l)" = 64 ] || fail "blkzone report over iSCSI"
off=$(( 20 * (16 << 20) ))
dd if=/dev/urandom of=/dev/$dev bs=64K count=4 seek=$(( off / 65536 )) oflag=direct status=none || fail "write at WP over iSCSI"
[ $(( $(zone_wp /dev/$dev 20) )) = 512 ] || fail "wp $(zone_wp /dev/$dev 20) over iSCSI"
dd if=/dev/urandom of=/dev/$dev bs=64K count=1 seek=$(( off / 65536 + 8 )) oflag=direct status=none 2>/dev/null && fail "unaligned write over iSCSI succeeded"
note "/dev/$dev via iSCSI 127.0.0.1:3260: host-managed, 64 zones, WP write ok, unaligned refused; iscsi-readcapacity16 ok"
