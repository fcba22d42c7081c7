# iscsi_suite: libiscsi's own SCSI test suite (iscsi-test-cu, an initiator
# in the guest's userspace) against an all-conventional host-aware disk of
# the handler and the kernel's LIO fileio backstore, both as LUNs of one
# iSCSI target on the guest's loopback.  Every test of the chosen families
# runs on both; the check fails when a test passes on fileio and fails on
# the handler, except the ones listed in E2E_SUITE_XFAIL (kernel limits,
# docs/E2E.md).  Tears down its target and both backstores.
. /e2e/lib.sh
[ "$E2E_HANDLER" = zonelab ] || skip "the expected differences are zonelab's (handler_file_zbc: host-managed only, no WRITE SAME)"
type iscsi-test-cu > /dev/null 2>&1 || skip "no iscsi-test-cu (libiscsi-bin)"
modprobe iscsi_target_mod || fail "modprobe iscsi_target_mod"
modprobe target_core_file || fail "modprobe target_core_file"
iqn=iqn.2003-01.org.zonelab:suite; t=$CFS/iscsi/$iqn/tpgt_1
size=$((256 << 20))
# E2E_SUITE_FAMILIES: ALL (every family iscsi-test-cu -l lists) or a list
# such as "ALL.Inquiry ALL.Reserve6".
families=${E2E_SUITE_FAMILIES:-ALL}
[ "$families" = ALL ] && families=$(iscsi-test-cu -l | grep '^ALL\.[^.]*$' | tr '\n' ' ')
# Overflow residuals: LIO's passthrough parsing (TCMU) never compares the
# CDB's length with the expected one (docs/E2E.md, kernel findings).
# Inquiry.Standard: libiscsi 1.19 accepts VERSION 04h-06h only, zonelab
# says SPC-5 (07h; docs/ZBC.md).
xfail=${E2E_SUITE_XFAIL-iSCSIResiduals.Read10Invalid iSCSIResiduals.Read10Residuals iSCSIResiduals.Read12Residuals iSCSIResiduals.Read16Residuals Inquiry.Standard}

teardown() {
	[ -d $t ] && echo 0 > $t/enable 2>/dev/null
	rm -f $t/lun/lun_*/* 2>/dev/null
	rmdir $t/lun/lun_* $t/np/* $t $CFS/iscsi/$iqn 2>/dev/null
	rmdir $CFS/core/user_0/zls $CFS/core/fileio_1/fls 2>/dev/null
	rmdir $CFS/core/fileio_1 2>/dev/null
	rm -f /tmp/zls.img /tmp/fls.img
}
trap teardown EXIT

img=/tmp/zls.img; h_fresh $img
nz=$(( size / (16 << 20) ))
cfg="$(h_cfg $img 16 $nz 16)&model=ha"
dev_create zls $size "$cfg" || fail "backstore zls"
f=$CFS/core/fileio_1/fls
mkdir -p $f || fail "fileio backstore"
echo "fd_dev_name=/tmp/fls.img,fd_dev_size=$size" > $f/control || fail "fileio control"
echo 1 > $f/enable || fail "fileio enable"
mkdir -p $t/lun/lun_0 $t/lun/lun_1 || fail "iscsi tpg"
ln -s $CFS/core/user_0/zls $t/lun/lun_0/zls || fail "lun 0"
ln -s $f $t/lun/lun_1/fls || fail "lun 1"
mkdir $t/np/127.0.0.1:3261 || fail "portal"
for a in authentication=0 generate_node_acls=1 cache_dynamic_acls=1 demo_mode_write_protect=0; do
	echo ${a#*=} > $t/attrib/${a%=*} || fail "attrib $a"
done
echo 1 > $t/enable || fail "enable tpg"

# run LUN LABEL: "Suite.Test passed|FAILED" per test of the families
# (iscsi-test-cu -n lists only the tests that had failures; a test it
# skips counts as passed, on both LUNs alike).
run() {
	local lun=$1 lab=$2 fam
	: > $LOGS/suite-$lab.out
	for fam in $families; do
		iscsi-test-cu -d -n -t $fam iscsi://127.0.0.1:3261/$iqn/$lun >> $LOGS/suite-$lab.out 2>&1
	done
	sed -n 's/^Suite \(.*\), Test \(.*\) had failures:.*/\1.\2/p' $LOGS/suite-$lab.out | sort -u > $LOGS/suite-$lab.failed
	awk 'NR == FNR { f[$1] = 1; next } { print $1, ($1 in f) ? "FAILED" : "passed" }' \
		$LOGS/suite-$lab.failed $LOGS/suite.tests > $LOGS/suite-$lab.results
}
for fam in $families; do iscsi-test-cu -l | grep "^$fam\.[^.]*$" | sed 's/^ALL\.//'; done |
	sort -u > $LOGS/suite.tests
[ -s $LOGS/suite.tests ] || fail "iscsi-test-cu -l lists none of $families"
run 0 zonelab
run 1 fileio
join -a1 -a2 -e - -o 0,1.2,2.2 $LOGS/suite-zonelab.results $LOGS/suite-fileio.results > $LOGS/suite-cmp.txt
cat $LOGS/suite-cmp.txt
bad=""; known=""
while read -r name zs fs; do
	case "$zs/$fs" in
	passed/*) ;;
	*/passed)
		case " $xfail " in *" $name "*) known+="$name "; continue ;; esac
		bad+="$name " ;;
	esac
done < $LOGS/suite-cmp.txt
# A difference is retried alone on both LUNs (twice at most, 5 s apart):
# the Reserve6 tests depend on when LIO's core drops the sessions and
# SPC-2 reservations an earlier test left behind (transport_deregister_session
# releases them for every backstore alike; RESERVE/RELEASE never reach the
# handler), so their outcome follows the order of the run, on fileio as on
# zonelab (docs/E2E.md).  Only a test that fails on the handler and passes
# on fileio again counts.
flaky=""
retry() {   # retry NAME: 0 when it passes on the handler or fails on fileio
	local n=$1 i l r0 r1
	for i in 1 2; do
		sleep 5
		for l in 0 1; do
			echo "== $n on LUN $l" >> $LOGS/suite-retries.out
			iscsi-test-cu -d -n -t ALL.$n iscsi://127.0.0.1:3261/$iqn/$l > $LOGS/suite-retry.out 2>&1
			cat $LOGS/suite-retry.out >> $LOGS/suite-retries.out
			grep -q "^Suite .*, Test .* had failures:" $LOGS/suite-retry.out && eval r$l=FAILED || eval r$l=passed
		done
		[ $r0 = passed ] || [ $r1 = FAILED ] && return 0
	done
	return 1
}
still=""
for n in $bad; do
	if retry $n; then flaky+="$n "; else still+="$n "; fi
done
bad=$still
# The residual tests may fail only on their overflow residuals: status,
# data and the underflow residual must be right.
for n in $known; do
	case $n in iSCSIResiduals.*) ;; *) continue ;; esac
	awk -v h="Suite ${n%%.*}, Test ${n#*.} had failures:" '$0 == h { on = 1; next }
		on && /^Suite / { on = 0 } on && /CU_/' $LOGS/suite-zonelab.out > $LOGS/suite-why.txt
	grep -v 'residual_status,SCSI_RESIDUAL_OVERFLOW)\|task->residual,block_size' $LOGS/suite-why.txt &&
		fail "$n fails on more than the overflow residual"
done
better=$(awk '$2 == "passed" && $3 == "FAILED" { printf "%s ", $1 }' $LOGS/suite-cmp.txt)
np=$(awk '$2 == "passed"' $LOGS/suite-cmp.txt | wc -l); nf=$(awk '$3 == "passed"' $LOGS/suite-cmp.txt | wc -l)
[ -z "$bad" ] || fail "pass on fileio, fail on $H_LABEL: $bad"
note "iscsi-test-cu ($families): $H_LABEL passes $np, fileio $nf of $(wc -l < $LOGS/suite-cmp.txt); expected differences (docs/E2E.md): ${known:-none}; passed alone on retry: ${flaky:-none}; $H_LABEL only: ${better:-none}"
