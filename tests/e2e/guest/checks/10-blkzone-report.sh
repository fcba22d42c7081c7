# blkzone_report: the zone report matches the configuration: conventional
# zones first, then empty sequential-write-required zones, all 16 MiB.
. /e2e/lib.sh
dev=/dev/$(devname zl0) || fail "no zl0"
zones_summary $dev > $LOGS/zl0.zones || fail "cannot parse blkzone report"
nz=$(wc -l < $LOGS/zl0.zones)
[ "$nz" = 64 ] || fail "$nz zones reported"
zl=$(( (ZL0_ZONE_MIB << 20) / 512 ))
i=0
while read -r start len wp type cond; do
	[ $(( start )) = $(( i * zl )) ] || fail "zone $i starts at $start"
	[ $(( len )) = $zl ] || fail "zone $i len $len"
	if [ $i -lt $ZL0_NCONV ]; then
		[ "$type" = CONVENTIONAL ] || fail "zone $i type $type, want CONVENTIONAL"
		[ "$cond" = nw ] || fail "conventional zone $i cond $cond"
	else
		[ "$type" = SEQ_WRITE_REQUIRED ] || fail "zone $i type $type"
		[ "$cond" = em ] || fail "zone $i cond $cond"
		[ $(( wp )) = 0 ] || fail "zone $i wp $wp"
	fi
	i=$((i + 1))
done < $LOGS/zl0.zones
blkzone report -c 10 $dev
note "64 zones: $ZL0_NCONV conventional at LBA 0, 56 SWR empty"
