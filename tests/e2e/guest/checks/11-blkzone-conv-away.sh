# blkzone_conv_away: conventional zones placed away from LBA 0 (4 at 0, 4
# at zones 32..35) show in the report where configured.
. /e2e/lib.sh
img=/tmp/zlc.img; h_fresh $img
cfg=$(h_cfg_conv_at $img 16 4 32 4 16 2>$LOGS/why) || skip "$(cat $LOGS/why)"
dev_create zlc $((1024 << 20)) "$cfg" || fail "backstore zlc"
dev=$(lun_attach zlc) || fail "no disk for zlc"
zones_summary $dev > $LOGS/zlc.zones || fail "cannot parse blkzone report"
awk '{ t = ($4 == "CONVENTIONAL"); want = (NR <= 4 || (NR >= 33 && NR <= 36)); if (t != want) { print "zone " NR-1 " type " $4; bad = 1 } } END { exit bad }' $LOGS/zlc.zones ||
	fail "conventional zones not where configured"
dev_remove zlc
note "conventional zones 0-3 and 32-35"
