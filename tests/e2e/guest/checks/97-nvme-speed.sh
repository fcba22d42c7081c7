# nvme_speed: one zonelab disk (512 MiB, 16 MiB zones, no conventional
# zone) reached three ways in the same VM: tcm_loop (/dev/sdX), an LIO
# iSCSI target on 127.0.0.1:3263 logged in with iscsistart (/dev/sdY), and
# nvmet over NVMe/TCP on 127.0.0.1:4420 with /dev/sdX as its namespace
# (/dev/nvmeXnY).  On each, in turn: every zone reset, fio 128 KiB
# sequential writes (zonemode=zbd, libaio, QD4) over the first 256 MiB,
# then 4 KiB random reads at QD32 (libaio) over that data, each for
# E2E_SPEED_SECS seconds (default 15).  The table (MiB/s, IOPS, mean
# completion latency) is in logs/nvme-speed.txt and the result line; the
# figures are of a TCG guest on a shared host, for comparing the paths
# with each other only (docs/NVME-ZNS.md).  Fails on a fio error only.
# Tears down the NVMe export, the iSCSI target (the initiator's session is
# left to fail, as after the iscsi check) and the disk.  Opt-in:
# E2E_NVME_SPEED=1.
. /e2e/lib.sh
. /e2e/nvme.sh
nv_need
for m in iscsi_target_mod iscsi_tcp; do modprobe $m || skip "no module $m"; done
S=${E2E_SPEED_SECS:-15}
iqn=iqn.2003-01.org.zonelab:speed; t=$CFS/iscsi/$iqn/tpgt_1
teardown() {
	$NVMET teardown zlsp > /dev/null 2>&1
	[ -n "${isd:-}" ] && echo 1 > /sys/block/$isd/device/delete 2> /dev/null
	if [ -d $t ]; then
		echo 0 > $t/enable 2> /dev/null
		rm -f $t/lun/lun_0/zlsp; rmdir $t/lun/lun_0 $t/np/* $t $CFS/iscsi/$iqn 2> /dev/null
	fi
	nv_zl_rm zlsp; rm -f /tmp/zlsp.img
}
trap teardown EXIT

d=$(nv_zl zlsp 512 16) && [ -n "$d" ] || fail "zonelab disk did not attach"
# the same backstore behind an iSCSI target
mkdir -p $t/lun/lun_0 && ln -s $CFS/core/user_0/zlsp $t/lun/lun_0/zlsp && mkdir $t/np/127.0.0.1:3263 || fail "iSCSI target"
for a in authentication=0 generate_node_acls=1 cache_dynamic_acls=1 demo_mode_write_protect=0; do
	echo ${a#*=} > $t/attrib/${a%=*} || fail "attrib $a"
done
echo 1 > $t/enable || fail "enable tpg"
before=$(ls /sys/block | grep '^sd' | sort)
iscsistart -i iqn.2003-01.org.zonelab:speedguest -t $iqn -g 1 -a 127.0.0.1 -p 3263 > $LOGS/nvme-speed-iscsistart.out 2>&1 || fail "iscsistart login"
isd=""
for i in $(seq 100); do
	isd=$(comm -13 <(echo "$before") <(ls /sys/block | grep '^sd' | sort) | head -1)
	[ -n "$isd" ] && break; sleep 0.1
done
[ -n "$isd" ] || fail "no disk after the iSCSI login"
udevless_wait $isd
n=$(nv_up $d zlsp) && [ -n "$n" ] || fail "export/connect: $(cat $LOGS/nvmet-zlsp.out)"
say "one disk: tcm_loop $d, iSCSI $isd, NVMe/TCP $n"

# run PATH DEV - "PATH write MiB/s IOPS lat_us read MiB/s IOPS lat_us"
run() {
	local dev=/dev/$2 w r
	blkzone reset $dev || fail "$1: reset"
	fio --name=w --filename=$dev --direct=1 --ioengine=libaio --zonemode=zbd --rw=write --bs=128k \
		--iodepth=4 --size=256M --time_based --runtime=$S --output-format=json > $LOGS/nvme-speed-$1-w.json 2>&1 ||
		fail "$1: fio write: $(tail -3 $LOGS/nvme-speed-$1-w.json)"
	fio --name=r --filename=$dev --direct=1 --ioengine=libaio --rw=randread --bs=4k --iodepth=32 \
		--size=256M --time_based --runtime=$S --output-format=json > $LOGS/nvme-speed-$1-r.json 2>&1 ||
		fail "$1: fio read: $(tail -3 $LOGS/nvme-speed-$1-r.json)"
	python3 - $1 $LOGS/nvme-speed-$1-w.json $LOGS/nvme-speed-$1-r.json <<-'EOF'
	import json, sys
	out = [sys.argv[1]]
	for f, k in ((sys.argv[2], "write"), (sys.argv[3], "read")):
	    j = json.load(open(f))["jobs"][0]
	    if j["error"]:
	        sys.exit("%s: fio error %d" % (f, j["error"]))
	    s = j[k]
	    out += ["%.1f" % (s["bw_bytes"] / 1048576), "%.0f" % s["iops"], "%.0f" % (s["clat_ns"]["mean"] / 1000)]
	print(" ".join(out))
	EOF
}
{
	echo "path write128k_MiB/s IOPS clat_us randread4k_QD32_MiB/s IOPS clat_us"
	run tcm_loop $d && run iscsi $isd && run nvme_tcp $n
} > $LOGS/nvme-speed.txt || fail "$(tail -1 $LOGS/nvme-speed.txt)"
column -t $LOGS/nvme-speed.txt 2> /dev/null || cat $LOGS/nvme-speed.txt
note "${S}s each, 128k seq write QD4 | 4k randread QD32 (MiB/s IOPS clat_us): $(sed 1d $LOGS/nvme-speed.txt | tr '\n' ';' | sed 's/;$//; s/;/; /g')"
