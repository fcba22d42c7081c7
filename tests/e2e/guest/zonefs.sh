# tests/e2e/guest/zonefs.sh - the zonefs steps shared by the zonefs check
# (75, SCSI: the handler vs scsi_debug) and nvme_zonefs (79, NVMe ZNS:
# zonelab vs null_blk behind nvmet).  Sourced after lib.sh; M is the mount
# point, /tmp/zf64k the 64 KiB written.
M=/mnt/zonefs
[ -s /tmp/zf64k ] || head -c $((64 << 10)) /dev/urandom > /tmp/zf64k

# zonefs_steps DEV NCONV LABEL - the steps, "step outcome" lines in
# $LOGS/zonefs-LABEL.txt.  The refusals come first: on Linux 6.1 the first
# synchronous O_DIRECT write to a sequential file fails with EIO and zonefs
# remounts read-only, on every device alike (docs/E2E.md, kernel
# findings); after it the file system is mounted again, which reads the
# write pointers anew.
zonefs_steps() {
	local dev=$1 nc=$2 out=$LOGS/zonefs-$3.txt f z e
	: > $out
	r() { echo "$1 $(echo "$2" | tr ' ' ,)" >> $out; }
	# dd_r STEP DD-ARGS...: the outcome of a dd of 64 KiB into a file
	dd_r() { local s=$1; shift; e=$(dd if=/tmp/zf64k bs=64K count=1 status=none "$@" 2>&1) &&
		r $s ok || r $s "error:$(dd_err "$e" | tr ' ' _)"; }
	remount() { umount $M; e=$(mount -t zonefs $dev $M 2>&1) || r remount "fail:$e"; }
	[ $nc -gt 0 ] || blkzone reset -o 0 -c 1 $dev
	python3 /e2e/mkzonefs.py $dev || { r mkfs fail; return; }
	mkdir -p $M
	e=$(mount -t zonefs $dev $M 2>&1) || { r mount "fail:$e"; return; }
	r mount ok
	r files "cnv=$(ls $M/cnv 2> /dev/null | wc -l) seq=$(ls $M/seq | wc -l)"
	f=$M/seq/0; z=$(( nc > 0 ? nc : 1 ))
	r seq0_size_empty $(stat -c %s $f)
	dd_r buffered_write_seq of=$f conv=notrunc
	dd_r dio_write_not_at_end of=$f oflag=direct conv=notrunc seek=1
	if [ $nc -gt 1 ]; then
		r cnv0_size $(stat -c %s $M/cnv/0)
		dd_r cnv_write_mid of=$M/cnv/0 conv=notrunc seek=3
	fi
	dd_r dio_write_at_0 of=$f oflag=direct conv=notrunc
	remount
	r size_after_write "$(stat -c %s $f) wp=$(( $(zone_wp $dev $z) * 512 ))"
	cmp -s -n $((64 << 10)) $f /tmp/zf64k && r read_back ok || r read_back differs
	dd_r o_append_dio of=$f oflag=append,direct conv=notrunc
	remount
	r size_after_append "$(stat -c %s $f) wp=$(( $(zone_wp $dev $z) * 512 ))"
	truncate -s 0 $f && r truncate_0 ok || r truncate_0 error
	r after_truncate "size=$(stat -c %s $f) zone=$(zone_cond $dev $z)/$(( $(zone_wp $dev $z) ))"
	umount $M
}

