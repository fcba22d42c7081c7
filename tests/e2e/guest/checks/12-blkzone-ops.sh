# blkzone_ops: open, close, finish and reset through blkzone change the zone
# conditions as ZBC says.
. /e2e/lib.sh
dev=/dev/$(devname zl0)
z=10; zl=$(( (ZL0_ZONE_MIB << 20) / 512 )); off=$(( z * zl ))
blkzone open -o $off -c 1 $dev || fail "blkzone open"
c=$(zone_cond $dev $z); [ "$c" = oe ] || fail "after open: $c"
blkzone close -o $off -c 1 $dev || fail "blkzone close"
c=$(zone_cond $dev $z); [ "$c" = em ] || fail "close of empty open zone: $c, want EMPTY"
dd if=/dev/urandom of=$dev bs=4096 count=2 seek=$(( off / 8 )) oflag=direct status=none || fail "write"
c=$(zone_cond $dev $z); [ "$c" = oi ] || fail "after write: $c"
blkzone close -o $off -c 1 $dev || fail "blkzone close"
c=$(zone_cond $dev $z); [ "$c" = cl ] || fail "after close: $c"
blkzone finish -o $off -c 1 $dev || fail "blkzone finish"
c=$(zone_cond $dev $z); [ "$c" = fu ] || fail "after finish: $c"
blkzone reset -o $off -c 1 $dev || fail "blkzone reset"
c=$(zone_cond $dev $z); [ "$c" = em ] || fail "after reset: $c"
[ $(( $(zone_wp $dev $z) )) = 0 ] || fail "wp after reset $(zone_wp $dev $z)"
blkzone reset $dev || fail "reset all"
note "open->EXP_OPEN, close->EMPTY/CLOSED, finish->FULL, reset->EMPTY"
