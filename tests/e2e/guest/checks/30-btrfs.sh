# btrfs: mkfs.btrfs -O zoned, mount, write and fsync files, scrub, unmount,
# remount, verify every file's checksum -- on the handler under test (zl0),
# then the same cycle with the same geometry (1 GiB, 16 MiB zones, 8
# conventional, max open 16) on the references in the same VM: the kernel's
# scsi_debug (zbc=managed) and, in the full run, tcmu-runner's
# handler_file_zbc.  Every kernel
# WARNING/BUG/Oops is reduced to a signature (function, file:line; ksigs in
# lib.sh).  The check fails when the handler under test produced a signature
# that no reference produced; as these messages come from background work
# (btrfs-cleaner), the references are run up to twice more before that is
# called a failure.  Signatures seen on both sides are reported as known
# kernel ones (docs/E2E.md says what causes them).
. /e2e/lib.sh
kmsg_mark
dev=/dev/$(devname zl0)
blkzone reset $dev || fail "reset all"
btrfs_cycle $dev
mine=$STATE/ksigs.$H_LABEL
: > $STATE/ksigs.refs
refs=""
ref_scsi_debug() {
	local d
	kmsg_mark
	d=$(scsi_debug_attach) || fail "scsi_debug (zbc=managed) did not attach as host-managed"
	btrfs_cycle /dev/$d scsi_debug
	cat $STATE/ksigs.scsi_debug >> $STATE/ksigs.refs
	rmmod scsi_debug || note "rmmod scsi_debug failed;"
}
ref_file_zbc() {
	local cfg
	cfg=$(. /e2e/handler-zbc.sh; h_fresh /tmp/zlref.img; h_cfg /tmp/zlref.img $ZL0_ZONE_MIB $ZL0_NCONV $ZL0_MAXOPEN)
	kmsg_mark
	dev_create zlref $ZL0_SIZE "$cfg" || fail "file_zbc reference backstore"
	lun_attach zlref > /dev/null || fail "file_zbc reference: no disk"
	btrfs_cycle /dev/$(devname zlref) file_zbc
	cat $STATE/ksigs.file_zbc >> $STATE/ksigs.refs
	dev_remove zlref; rm -f /tmp/zlref.img
}
# unexplained - signatures of the handler under test no reference produced.
unexplained() { comm -23 <(sort -u $mine) <(sort -u $STATE/ksigs.refs); }
for round in 1 2 3; do
	ref_scsi_debug
	# file_zbc as a second reference in the full run (time: see docs/E2E.md).
	[ "$H_LABEL" = file_zbc ] || [ "$E2E_MODE" != full ] || ref_file_zbc
	refs="$refs round $round;"
	[ -z "$(unexplained)" ] && break
done
u=$(unexplained | tr '\n' ';')
known=$(comm -12 <(sort -u $mine) <(sort -u $STATE/ksigs.refs) | tr '\n' ';')
[ -z "$known" ] || note "known kernel messages (also on the references):${known%;};"
note "references: scsi_debug$([ "$H_LABEL" = file_zbc ] || [ "$E2E_MODE" != full ] || echo ', file_zbc') ($(echo $refs | wc -w | awk '{ print $1 / 2 }') round(s))"
[ -z "$u" ] || fail "kernel messages on $H_LABEL that no reference shows: ${u%;}"
