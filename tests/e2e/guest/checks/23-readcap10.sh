# readcap10: READ CAPACITY(10) (25h) through sg_raw returns the last LBA and
# the block length, as SBC requires.
. /e2e/lib.sh
dev=/dev/$(devname zl0)
sg_raw -r 8 -o /tmp/rc10.bin $dev 25 00 00 00 00 00 00 00 00 00 || fail "sg_raw READ CAPACITY(10)"
read -r last blen < <(od -An -tu1 -v /tmp/rc10.bin | awk '{ for (i = 1; i <= NF; i++) b[n++] = $i } END { print b[0]*16777216 + b[1]*65536 + b[2]*256 + b[3], b[4]*16777216 + b[5]*65536 + b[6]*256 + b[7] }')
echo "last LBA $last block $blen"
[ "$blen" = "${E2E_LBA:-512}" ] || fail "block length $blen"
[ "$last" = $(( ZL0_SIZE / ${E2E_LBA:-512} - 1 )) ] || fail "last LBA $last"
note "last LBA $last, block length $blen"
