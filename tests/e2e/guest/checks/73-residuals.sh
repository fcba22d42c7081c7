# residuals: READ(10/16) through tcm_loop with sg_raw, the buffer (the
# expected length) shorter or longer than the CDB's transfer, on zl0 and on
# a fileio backstore exported the same way as the reference.  Underflow
# (buffer 1024, one 512-byte block): the initiator must get 512 bytes and a
# residual of 512 on both.  Overflow (buffer 200, one block; buffer 512,
# two blocks): the handler must give the data that fits with GOOD (Linux
# 6.1's TCMU path carries no overflow residual; fileio through tcm_loop is
# refused by LIO itself with INVALID FIELD IN CDB: printed beside it;
# docs/E2E.md, kernel findings).  Tears down the fileio export and
# backstore.
. /e2e/lib.sh
[ "$E2E_HANDLER" = zonelab ] || skip "the expected residuals are zonelab's (handler_file_zbc reports no read length)"
type sg_raw > /dev/null 2>&1 || skip "no sg_raw"
modprobe target_core_file || fail "modprobe target_core_file"
zdev=/dev/$(devname zl0) || skip "no zl0 (attach did not run)"
w=naa.5001405000e2e073; t=$CFS/loopback/$w/tpgt_1; f=$CFS/core/fileio_2/frs
teardown() {
	rm -f $t/lun/lun_0/frs 2>/dev/null; rmdir $t/lun/lun_0 $t $CFS/loopback/$w 2>/dev/null
	rmdir $f $CFS/core/fileio_2 2>/dev/null; rm -f /tmp/frs.img
}
trap teardown EXIT
mkdir -p $f || fail "fileio backstore"
echo "fd_dev_name=/tmp/frs.img,fd_dev_size=$((64 << 20))" > $f/control || fail "fileio control"
echo 1 > $f/enable || fail "fileio enable"
mkdir -p $t/lun/lun_0 && echo $w > $t/nexus && ln -s $f $t/lun/lun_0/frs || fail "tcm_loop export of fileio"
fdev=/dev/$(loop_disk $w) || fail "no disk for the fileio export"

# One block of a known pattern at LBA 0 of both (zl0's zone 0 is conventional).
head -c 512 /dev/urandom > /tmp/blk
for d in $zdev $fdev; do dd if=/tmp/blk of=$d bs=512 count=1 oflag=direct status=none || fail "write $d"; done

# xfer DEV BUFLEN CDB...: "resid=N status=S" (N = BUFLEN - bytes received)
# from sg_raw, the data in /tmp/rd.<dev>; sg_raw's own lines go to the log.
xfer() {
	local d=$1 n=$2 o st got out=/tmp/rd.${1##*/}; shift 2
	rm -f $out
	o=$(sg_raw -v -r $n -o $out $d "$@" 2>&1)
	printf '%s\n' "== $d buffer $n: $*" "$o" >> $LOGS/residuals.out
	st=$(echo "$o" | sed -n 's/^SCSI Status: \([A-Za-z]*\).*/\1/p' | head -1)
	echo "$o" | grep -q 'Invalid field in cdb' && st="$st(24h/00h)"
	got=$(stat -c %s $out 2>/dev/null || echo 0)
	echo "resid=$((n - got)) status=$st"
}
r10="28 00 00 00 00 00 00 00 01 00"; r10x2="28 00 00 00 00 00 00 00 02 00"
r16="88 00 00 00 00 00 00 00 00 00 00 00 00 01 00 00"
res=""
for c in "under 1024 $r10" "under16 1024 $r16" "over 200 $r10" "over16 200 $r16" "over2 512 $r10x2"; do
	set -- $c; name=$1 n=$2; shift 2
	z=$(xfer $zdev $n "$@"); fr=$(xfer $fdev $n "$@")
	say "$name (buffer $n): $H_LABEL $z | fileio $fr"
	res+="$name/$n: $H_LABEL $z, fileio $fr; "
	case $name in
	under*) [ "$z" = "resid=512 status=Good" ] || fail "$name: $H_LABEL $z, want resid=512 (512 bytes)" ;;
	over2) [ "$z" = "resid=0 status=Good" ] || fail "$name: $H_LABEL $z, want the 512 bytes that fit" ;;
	over*) [ "$z" = "resid=0 status=Good" ] || fail "$name: $H_LABEL $z, want the 200 bytes that fit" ;;
	esac
	cmp -s -n $(( n < 512 ? n : 512 )) /tmp/rd.${zdev##*/} /tmp/blk || fail "$name: not the block's data"
done
note "sg_raw READ via tcm_loop: ${res% }"
