# tests/e2e/guest/ksigs.awk - reduce kernel log lines (dmesg) to one
# signature per WARNING, BUG or Oops, for comparing backends (30-btrfs.sh):
#   WARNING fs/btrfs/block-group.c:1111 btrfs_remove_block_group
#   BUG fs/btrfs/ctree.c:123 @ btrfs_foo       (kernel BUG at ..., RIP)
#   BUG unable to handle page fault for address: X @ btrfs_foo
#   Oops @ btrfs_foo
# Offsets, addresses and compiler suffixes (.cold, .isra.0...) are dropped.
# Checked on sample logs by tests/scripts/075-e2e-ksigs.sh.
# fn - a function name from "name.cold+0x1b/0x45": no offset, no suffix.
function fn(x) { sub(/\+0x.*/, "", x); sub(/\.(cold|isra|constprop|part)[.0-9]*$/, "", x); return x }
function flush() { if (pend != "") { print pend (rip != "" ? " @ " rip : ""); pend = ""; rip = "" } }
/ WARNING: CPU: [0-9]+ PID: [0-9]+ at / {
	flush(); l = $0; sub(/.* at /, "", l); n = split(l, w, " ")
	print "WARNING " w[1] " " fn(w[2]); next }
/ kernel BUG at / { flush(); l = $0; sub(/.* kernel BUG at /, "", l); sub(/!.*/, "", l); pend = "BUG " l; next }
/ BUG: / { flush(); l = $0; sub(/.* BUG: /, "", l); gsub(/0x[0-9a-f]+|[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]+/, "X", l); pend = "BUG " l; next }
/ Oops: | general protection fault/ { if (pend == "") pend = "Oops"; next }
/ RIP: [0-9]+:/ { if (pend != "" && rip == "") { r = $0; sub(/.* RIP: [0-9]+:/, "", r); rip = fn(r) } next }
END { flush() }
