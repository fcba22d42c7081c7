# fio_zbd: fio --zonemode=zbd sequential and random writes with md5
# verification on the sequential zones of zl0.
. /e2e/lib.sh
dev=/dev/$(devname zl0)
blkzone reset $dev || fail "reset all"
off=$(( ZL0_NCONV * (ZL0_ZONE_MIB << 20) ))
common="--filename=$dev --direct=1 --zonemode=zbd --ioengine=libaio --offset=$off --verify=md5 --do_verify=1 --output-format=terse --terse-version=3 --group_reporting"
fio --name=seqw --rw=write --bs=128k --iodepth=4 --size=256M $common > $LOGS/fio-seq.terse || fail "fio seq write+verify"
blkzone reset $dev
fio --name=randw --rw=randwrite --bs=16k --iodepth=8 --max_open_zones=8 --size=512M --io_size=96M --randseed=42 $common > $LOGS/fio-rand.terse || fail "fio rand write+verify"
for f in seq rand; do
	# terse v3: field 5 is the job's error (errno); missing output is a failure.
	e=$(cut -d';' -f5 $LOGS/fio-$f.terse | head -1)
	[ "${e:-none}" = 0 ] || fail "fio $f reported error ${e:-none (no terse output)}"
done

note "seq 256 MiB (bs 128k QD4) and rand 96 MiB (bs 16k QD8, 8 open zones) written and md5-verified"
