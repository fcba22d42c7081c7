# neg_zone_nonpow2: a 3 MiB zone size is refused by the 6.1 kernel with its
# own message; tcmu-runner and the other disks stay healthy.
. /e2e/lib.sh
img=/tmp/zln.img; h_fresh $img
cfg=$(h_cfg_nonpow2 $img 2>$LOGS/why) || skip "$(cat $LOGS/why)"
neg_attach zln $((96 << 20)) "$cfg" 'not a power of two|Zone size'
