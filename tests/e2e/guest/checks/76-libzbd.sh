# libzbd: libzbd's zbd tool (Debian's zbd-utils) against a 256 MiB disk of
# the handler (16 MiB zones, 2 conventional) and the kernel's scsi_debug
# (zbc=managed, same geometry) as the reference: `zbd report -csv` must
# agree with `blkzone report` on every zone (start, length, type, condition,
# and the write pointer of sequential zones) after each of: a fresh disk,
# 64 KiB written into zone 4, `zbd close` of zone 4 (closed), `zbd open`
# of zone 5 (explicitly open), `zbd finish` of zone 4 (full), `zbd reset`
# of zone 4 (empty, WP at its start); and the conditions zbd leaves must be
# the ones ZBC-2 gives, as on scsi_debug.  Tears down its disks.
. /e2e/lib.sh
type zbd > /dev/null 2>&1 || skip "no zbd (zbd-utils)"
SZ=$((256 << 20)); ZB=$((16 << 20))
teardown() { dev_remove zlzb; rm -f /tmp/zlzb.img; rmmod scsi_debug 2> /dev/null; }
trap teardown EXIT

# views DEV: one line per zone from each tool, "start len type cond wp"
# (sectors; the WP only for sequential zones), then compared.
zbd_view() {
	zbd report -csv /dev/$1 | awk -F', *' '$1 ~ /^[0-9]+$/ {
		t = $2 == 1 ? "cnv" : ($2 == 2 ? "swr" : "swp")
		printf "%d %d %s %d %s\n", $3 / 512, $4 / 512, t, strtonum($7), t == "cnv" ? "-" : ($6 - $3) / 512 }'
}
blkzone_view() {
	blkzone report /dev/$1 | sed 's/zcond:/zcond: /' | awk '{
		for (i = 1; i <= NF; i++) {
			if ($i == "start:") s = $(i + 1); if ($i == "len") l = $(i + 1)
			if ($i == "wptr") w = $(i + 1); if ($i == "zcond:") c = $(i + 1)
			if ($i == "[type:") t = $(i + 1)
		}
		gsub(",", "", s); gsub(",", "", l); c = c + 0; t = t + 0
		t = t == 1 ? "cnv" : (t == 2 ? "swr" : "swp")
		printf "%d %d %s %d %s\n", strtonum(s), strtonum(l), t, c, t == "cnv" ? "-" : strtonum(w) }'
}
# run DEV LABEL: the steps; "step cond4 cond5 wp4" lines in $LOGS/libzbd-LABEL.txt
run() {
	local d=$1 out=$LOGS/libzbd-$2.txt st
	: > $out
	step() {
		st=$1
		zbd_view $d > /tmp/zv; blkzone_view $d > /tmp/bv
		cmp -s /tmp/zv /tmp/bv || { diff /tmp/zv /tmp/bv | head -5 >> $LOGS/libzbd-diff.txt
			echo "$st zbd!=blkzone" >> $out; return; }
		echo "$st $(awk 'NR == 5 { printf "%s %s ", $4, $5 } NR == 6 { printf "%s", $4 }' /tmp/zv)" >> $out
	}
	zbd reset /dev/$d > /dev/null || echo "reset-all error" >> $out
	step fresh
	dd if=/dev/urandom of=/dev/$d bs=64K count=1 seek=$(( 4 * ZB / 65536 )) oflag=direct status=none ||
		echo "write error" >> $out
	step written
	zbd close -ofst $((4 * ZB)) -len $ZB /dev/$d > /dev/null || echo "close error" >> $out
	step close4
	zbd open -ofst $((5 * ZB)) -len $ZB /dev/$d > /dev/null || echo "open error" >> $out
	step open5
	zbd finish -ofst $((4 * ZB)) -len $ZB /dev/$d > /dev/null || echo "finish error" >> $out
	step finish4
	zbd reset -ofst $((4 * ZB)) -len $ZB /dev/$d > /dev/null || echo "reset error" >> $out
	step reset4
	zbd close -ofst $((5 * ZB)) -len $ZB /dev/$d > /dev/null || echo "close5 error" >> $out
	step close5
}
h_fresh /tmp/zlzb.img
dev_create zlzb $SZ "$(h_cfg /tmp/zlzb.img 16 2 16)" || fail "backstore zlzb"
z=$(lun_attach zlzb) || fail "no disk for zlzb"
run ${z#/dev/} $H_LABEL
rmmod scsi_debug 2> /dev/null
before=$(ls /sys/block | grep '^sd' | sort)
modprobe scsi_debug zbc=managed dev_size_mb=$((SZ >> 20)) zone_size_mb=16 zone_nr_conv=2 zone_max_open=16 ||
	fail "modprobe scsi_debug"
for i in $(seq 100); do s=$(comm -13 <(echo "$before") <(ls /sys/block | grep '^sd' | sort) | head -1); [ -n "$s" ] && break; sleep 0.1; done
[ -n "$s" ] && udevless_wait $s || fail "scsi_debug did not attach"
run $s scsi_debug
paste -d'|' $LOGS/libzbd-$H_LABEL.txt $LOGS/libzbd-scsi_debug.txt | tee $LOGS/libzbd-cmp.txt
# ZBC-2 conditions (1 empty, 2 implicit open, 3 explicit open, 4 closed, 14 full),
# WP of zone 4 in sectors from its start.
want="fresh 1 0 1
written 2 128 1
close4 4 128 1
open5 4 128 3
finish4 14 32768 3
reset4 1 0 3
close5 1 0 1"
[ "$(cat $LOGS/libzbd-$H_LABEL.txt | sed 's/ *$//')" = "$want" ] ||
	fail "$H_LABEL: $(diff <(echo "$want") $LOGS/libzbd-$H_LABEL.txt | grep '^>' | tr '\n' ';')"
cmp -s $LOGS/libzbd-$H_LABEL.txt $LOGS/libzbd-scsi_debug.txt ||
	fail "differs from scsi_debug: $(diff $LOGS/libzbd-$H_LABEL.txt $LOGS/libzbd-scsi_debug.txt | grep '^[<>]' | tr '\n' ';')"
note "zbd report/reset/open/close/finish: zbd's report equals blkzone's after every step, conditions as ZBC-2 and as on scsi_debug"
