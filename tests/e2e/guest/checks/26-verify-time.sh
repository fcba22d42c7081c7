# verify_time: how long VERIFY takes on a zoned zonelab disk vs an
# all-conventional one of the same size (issue 13: "3-5x longer on zoned").
# Two fresh 256 MiB disks, 16 MiB zones: zlvz (zone 0 conventional, the rest
# sequential) and zlvc (every zone conventional but the last: since 6.10
# the block layer refuses a zoned disk with no sequential zone, "Invalid
# number of conventional zones 16 / 16", and leaves it at size 0; zone 1,
# where the loops run, is conventional either way); 1 MiB of one pattern
# written at the start of zone 1 of both; then the same commands timed on
# each, over those blocks:
#   vfy0_proc  N x sg_verify (VERIFY(16), BYTCHK=0, 8 blocks), a process each
#   vfy1_proc  N x sg_verify --ndo (BYTCHK=1, 8 blocks of data-out)
#   read_proc  N x sg_raw READ(16) of 8 blocks (control)
#   vfy0_cmds  one sg_verify issuing N VERIFY(16) of 8 blocks (--bpc)
#   read_cmds  one sg_read issuing N READ(16) of 8 blocks over SG_IO
# and the same loops with each disk's scheduler switched (mq-deadline /
# none), and on scsi_debug zbc=managed vs plain when scsi_debug is not in
# use.  Prints ms per command and zoned/conventional ratios.  Fails only on a
# functional error (a command that fails, a MISCOMPARE not reported), never
# on timing.
. /e2e/lib.sh
[ "$E2E_HANDLER" = zonelab ] || skip "needs the zonelab handler (all-conventional disk)"
N=${VT_N:-40}
SZ=$((256 << 20)); ZMIB=16; NZ=$(( SZ / (ZMIB << 20) ))
pat=/tmp/vt.pat; head -c $((1 << 20)) /dev/urandom > $pat
head -c 4096 $pat > $pat.4k
{ head -c 100 $pat.4k; printf 'X'; tail -c +102 $pat.4k; } > $pat.bad
for i in $(seq 0 $((N - 1))); do # the data-out of vfy1_proc's i-th VERIFY
	tail -c +$(( (i * 8 % 2048) * 512 + 1 )) $pat | head -c 4096 > /tmp/vt.cmp.$i
done
cmp -s $pat.4k $pat.bad && { head -c 100 $pat.4k; printf 'Y'; tail -c +102 $pat.4k; } > $pat.bad

# ms per command of a loop: t_loop NAME COUNT CMD... (CMD runs once)
declare -A T
t_loop() {
	local key=$1 n=$2 t0 t1; shift 2
	t0=$EPOCHREALTIME
	"$@" || fail "$key: $* failed"
	t1=$EPOCHREALTIME
	T[$key]=$(awk -v a=$t1 -v b=$t0 -v n=$n 'BEGIN { printf "%.2f", (a - b) * 1000 / n }')
}
lba_of() { echo $(( $1 + ($2 * 8) % 2048 )); }
vfy0_proc() { local i; for i in $(seq 0 $((N - 1))); do
	sg_verify --16 --lba=$(lba_of $2 $i) --count=8 $1 || return 1; done; }
vfy1_proc() { local i; for i in $(seq 0 $((N - 1))); do
	sg_verify --16 --ndo=4096 --in=/tmp/vt.cmp.$i --lba=$(lba_of $2 $i) --count=8 $1 || return 1; done; }
read_proc() { local i l; for i in $(seq 0 $((N - 1))); do
	l=$(lba_of $2 $i)
	sg_raw -r 4096 -o /dev/null $1 88 00 $(printf '%02x ' $((l >> 56 & 255)) $((l >> 48 & 255)) \
		$((l >> 40 & 255)) $((l >> 32 & 255)) $((l >> 24 & 255)) $((l >> 16 & 255)) $((l >> 8 & 255)) \
		$((l & 255))) 00 00 00 08 00 00 > /dev/null 2>&1 || return 1; done; }
vfy0_cmds() { sg_verify --16 --lba=$2 --count=$((N * 8)) --bpc=8 $1; }
read_cmds() { sg_read blk_sgio=1 if=$1 bs=512 bpt=8 cdbsz=16 count=$((N * 8)) skip=$2 > /dev/null; }

# measure TAG DEV LBA0: the five loops; functional checks first.
measure() {
	local tag=$1 dev=$2 l0=$3 rc
	sg_verify --16 --ndo=4096 --in=$pat.4k --lba=$l0 --count=8 $dev || fail "$tag: BYTCHK=1 VERIFY of written data"
	sg_verify --16 --ndo=4096 --in=$pat.bad --lba=$l0 --count=8 -q $dev; rc=$?
	[ $rc = 14 ] || fail "$tag: BYTCHK=1 VERIFY of a changed byte: exit $rc, want 14 (MISCOMPARE)"
	for f in vfy0_proc vfy1_proc read_proc vfy0_cmds read_cmds; do
		t_loop $tag.$f $N $f $dev $l0
	done
	say "$tag ($(cat /sys/block/${dev#/dev/}/queue/zoned), $(sed 's/.*\[\(.*\)\].*/\1/' /sys/block/${dev#/dev/}/queue/scheduler)):" \
		"$(for f in vfy0_proc vfy1_proc read_proc vfy0_cmds read_cmds; do printf '%s %s ms  ' $f ${T[$tag.$f]}; done)"
}
ratios() { # ZTAG CTAG: zoned/conventional per loop
	local f r out=""
	for f in vfy0_proc vfy1_proc read_proc vfy0_cmds read_cmds; do
		r=$(awk -v a=${T[$1.$f]} -v b=${T[$2.$f]} 'BEGIN { printf "%.2f", (b > 0) ? a / b : 0 }')
		out+="$f ${r}x "
	done
	echo "$1/$2: ${out% }"
}
sched() { echo "$2" > /sys/block/${1#/dev/}/queue/scheduler 2>/dev/null; }

# The two zonelab disks.
for d in zlvz zlvc; do dev_remove $d; rm -f /tmp/$d.img; done
dev_create zlvz $SZ "$(h_cfg_ctl /tmp/zlvz.img $ZMIB 1 8)" || fail "backstore zlvz"
dev_create zlvc $SZ "$(h_cfg_ctl /tmp/zlvc.img $ZMIB $((NZ - 1)) 8)" || fail "backstore zlvc"
# The handler's command counters (zonelab ctl stats), one "name value" a
# line: what reached the handler during a measurement (e.g. REPORT ZONES
# the kernel sent to the zoned disk only).
counters() { $ZONELAB ctl --json /tmp/$1.img.ctl stats 2>/dev/null | sed 's/.*"stats":{\([^}]*\)}.*/\1/' |
	grep -oE '"[a-z_]+":[0-9]+' | tr -d '"' | tr : ' ' | LC_ALL=C sort; }
cdelta() { LC_ALL=C join <(echo "$1") <(echo "$2") | awk '$3 != $2 { printf "%s +%d ", $1, $3 - $2 }'; }
dz=$(lun_attach zlvz) || fail "no disk for zlvz"
dc=$(lun_attach zlvc) || fail "no disk for zlvc"
l0=$(( (ZMIB << 20) / 512 ))
for dev in $dz $dc; do
	dd if=$pat of=$dev bs=1M count=1 seek=$ZMIB oflag=direct status=none || fail "write 1 MiB at zone 1 of $dev"
done
echo "zoned $dz: $(cat /sys/block/${dz#/dev/}/queue/zoned) $(cat /sys/block/${dz#/dev/}/queue/scheduler)"
echo "conv  $dc: $(cat /sys/block/${dc#/dev/}/queue/zoned) $(cat /sys/block/${dc#/dev/}/queue/scheduler)"
# warm-up (page cache of the tools, the image pages)
vfy0_cmds $dz $l0 > /dev/null; vfy0_cmds $dc $l0 > /dev/null
k0z=$(counters zlvz); k0c=$(counters zlvc)
measure zl_z $dz $l0
measure zl_c $dc $l0
kz=$(cdelta "$k0z" "$(counters zlvz)"); kc=$(cdelta "$k0c" "$(counters zlvc)")
say "handler counters over one measurement: zoned: $kz; conv: $kc"
note "handler counters over one measurement: zoned: ${kz:-none} / conv: ${kc:-none};"
measure zl_z2 $dz $l0
measure zl_c2 $dc $l0
r1=$(ratios zl_z zl_c); r2=$(ratios zl_z2 zl_c2); say "$r1"; say "$r2"
note "N=$N 8-block commands; $r1; $r2;"
# Scheduler swapped: zoned on none, conventional on mq-deadline.
sz=$(sed 's/.*\[\(.*\)\].*/\1/' /sys/block/${dz#/dev/}/queue/scheduler)
sc=$(sed 's/.*\[\(.*\)\].*/\1/' /sys/block/${dc#/dev/}/queue/scheduler)
if sched $dz none && sched $dc mq-deadline; then
	measure zl_z_none $dz $l0
	measure zl_c_mqd $dc $l0
	r3=$(ratios zl_z_none zl_c_mqd); say "$r3"; note "schedulers swapped (zoned none, conv mq-deadline): $r3;"
	sched $dz $sz; sched $dc $sc
else
	note "scheduler swap refused (zoned $sz, conv $sc)"
fi
runner_alive || fail "tcmu-runner died"
for d in zlvz zlvc; do dev_remove $d; rm -f /tmp/$d.img; done

# The kernel's scsi_debug, same geometry, when no other check holds it.
if lsmod | grep -q '^scsi_debug'; then
	note "scsi_debug in use: not compared"
else
	sdz=$(modprobe scsi_debug zbc=managed dev_size_mb=256 zone_size_mb=$ZMIB zone_nr_conv=1 &&
	      for i in $(seq 100); do d=$(ls /sys/bus/pseudo/drivers/scsi_debug/adapter*/host*/target*/*/block 2>/dev/null | head -1); [ -n "$d" ] && { echo $d; break; }; sleep 0.1; done)
	[ -n "$sdz" ] || fail "scsi_debug zbc=managed: no disk"
	udevless_wait $sdz
	dd if=$pat of=/dev/$sdz bs=1M count=1 seek=$ZMIB oflag=direct status=none || fail "write scsi_debug zbc"
	measure sd_z /dev/$sdz $l0
	rmmod scsi_debug || fail "rmmod scsi_debug"
	sdc=$(modprobe scsi_debug dev_size_mb=256 &&
	      for i in $(seq 100); do d=$(ls /sys/bus/pseudo/drivers/scsi_debug/adapter*/host*/target*/*/block 2>/dev/null | head -1); [ -n "$d" ] && { echo $d; break; }; sleep 0.1; done)
	[ -n "$sdc" ] || fail "scsi_debug plain: no disk"
	udevless_wait $sdc
	dd if=$pat of=/dev/$sdc bs=1M count=1 seek=$ZMIB oflag=direct status=none || fail "write scsi_debug plain"
	measure sd_c /dev/$sdc $l0
	rmmod scsi_debug || fail "rmmod scsi_debug"
	r4=$(ratios sd_z sd_c); say "$r4"; note "scsi_debug: $r4"
fi
