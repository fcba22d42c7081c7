# neg_urswrz0: a host-managed disk with URSWRZ=0 is refused by the 6.1
# kernel ("constrained reads devices are not supported"); tcmu-runner and the
# other disks stay healthy.
. /e2e/lib.sh
img=/tmp/zlu.img; h_fresh $img
cfg=$(h_cfg_urswrz0 $img 2>$LOGS/why) || skip "$(cat $LOGS/why)"
neg_attach zlu $((128 << 20)) "$cfg" 'constrained reads'
