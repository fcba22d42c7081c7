#!/bin/bash
# 075-e2e-ksigs.sh - the e2e btrfs check's kernel message signatures
# (tests/e2e/guest/ksigs.awk) on sample dmesg lines: a WARNING becomes
# "WARNING file:line function" without offset or .cold suffix; kernel BUG at,
# BUG: and Oops take the function from the following RIP line; addresses
# are masked; unrelated lines give nothing; and a signature present on the
# handler but absent on the reference is what the check calls unexplained.
set -u
cd "$(dirname "$0")/../.."
awkf=tests/e2e/guest/ksigs.awk
fails=0
sig() { awk -f $awkf | LC_ALL=C sort; }
expect() { # NAME WANT (stdin: log)
	local got; got=$(sig)
	[ "$got" = "$2" ] || { echo "FAIL $1: got"; echo "$got"; echo "want"; echo "$2"; fails=$((fails + 1)); }
}
expect warning "WARNING fs/btrfs/block-group.c:1111 btrfs_remove_block_group" <<'L'
[   42.101010] ------------[ cut here ]------------
[   42.101234] WARNING: CPU: 0 PID: 187 at fs/btrfs/block-group.c:1111 btrfs_remove_block_group.cold+0x1b/0x45 [btrfs]
[   42.101300] Modules linked in: btrfs blake2b_generic xor raid6_pq
[   42.101400] RIP: 0010:btrfs_remove_block_group.cold+0x1b/0x45 [btrfs]
L
expect bug "BUG fs/btrfs/ctree.c:123 @ btrfs_search_slot" <<'L'
[    9.000000] kernel BUG at fs/btrfs/ctree.c:123!
[    9.000100] invalid opcode: 0000 [#1] PREEMPT SMP NOPTI
[    9.000200] RIP: 0010:btrfs_search_slot+0x8f0/0x900 [btrfs]
L
expect nullptr "BUG kernel NULL pointer dereference, address: X @ sd_zbc_report_zones" <<'L'
[    9.5] BUG: kernel NULL pointer dereference, address: 0000000000000008
[    9.6] #PF: supervisor read access in kernel mode
[    9.7] Oops: 0000 [#1] PREEMPT SMP NOPTI
[    9.8] RIP: 0010:sd_zbc_report_zones+0x2a/0x300 [sd_mod]
L
expect gpf "Oops @ blk_zone_wp_offset" <<'L'
[   10.0] general protection fault, probably for non-canonical address 0xdead000000000100: 0000 [#1] SMP
[   10.1] RIP: 0010:blk_zone_wp_offset.isra.0+0x10/0x40
L
expect two "WARNING block/blk-zoned.c:50 a
WARNING block/blk-zoned.c:50 a" <<'L'
[1] WARNING: CPU: 1 PID: 2 at block/blk-zoned.c:50 a+0x1/0x2
[2] WARNING: CPU: 0 PID: 3 at block/blk-zoned.c:50 a+0x1/0x2
L
expect none "" <<'L'
[1] BTRFS warning (device sda): zone 3 is not empty
[2] sd 0:0:1:0: [sda] Add. Sense: Unaligned write command
[3] a line that mentions WARNING but not the kernel's format
L
# The check's rule: a signature of the handler under test that no reference has.
printf 'WARNING a.c:1 f\nWARNING b.c:2 g\n' > /tmp/ksigs-mine.$$
printf 'WARNING a.c:1 f\n' > /tmp/ksigs-refs.$$
u=$(comm -23 <(sort -u /tmp/ksigs-mine.$$) <(sort -u /tmp/ksigs-refs.$$))
rm -f /tmp/ksigs-mine.$$ /tmp/ksigs-refs.$$
[ "$u" = "WARNING b.c:2 g" ] || { echo "FAIL unexplained: '$u'"; fails=$((fails + 1)); }
grep -q 'comm -23 <(sort -u $mine) <(sort -u $STATE/ksigs.refs)' tests/e2e/guest/checks/30-btrfs.sh ||
	{ echo "FAIL: 30-btrfs.sh no longer uses this rule"; fails=$((fails + 1)); }
[ $fails = 0 ] && echo "ksigs: 7 cases"
exit $((fails > 0))
