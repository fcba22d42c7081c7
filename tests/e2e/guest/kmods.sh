# tests/e2e/guest/kmods.sh - which kernel modules a kernel has, from its
# modules.dep and modules.builtin (sourced by the host's mkinitramfs.sh and
# by the guest's lib.sh).  Kernels drop and rename modules (Linux 7.x has no
# crc32c_generic: CRC32C is a library there, the crypto API's wrapper is
# crc32c-cryptoapi), so a module is asked for by a SPEC:
#   name       required: a module of the kernel or built into it
#   a|b|c      the first of these the kernel has (module or built in)
#   name?      optional: used when the kernel has it, else nothing
# Names compare as the kernel does ('-' = '_').

# kmod_find DIR NAME - "builtin", the module's path relative to DIR (as
# modules.dep gives it), or nothing when the kernel has no such module.
kmod_find() {
	awk -v m="${2//-/_}" 'FNR == 1 { bi = FILENAME ~ /modules\.builtin$/ }
		{ p = $1; sub(/:$/, "", p); b = p; sub(/.*\//, "", b); sub(/\.ko.*$/, "", b); gsub(/-/, "_", b)
		  if (b == m) { print bi ? "builtin" : p; exit } }' "$1/modules.builtin" "$1/modules.dep"
}

# kmod_resolve DIR SPEC - "NAME WHERE" for the module SPEC picks (WHERE as
# kmod_find gives it), nothing for an optional module the kernel lacks;
# returns 1 when a required SPEC has no module at all.
kmod_resolve() {
	local dir=$1 spec=$2 opt="" alt r
	case $spec in *\?) opt=1; spec=${spec%\?} ;; esac
	for alt in ${spec//|/ }; do
		r=$(kmod_find "$dir" "$alt")
		[ -z "$r" ] || { echo "$alt $r"; return 0; }
	done
	[ -n "$opt" ]
}

# kmod_missing SPEC - the words for a SPEC no module satisfies.
kmod_missing() {
	local s=${1%\?}
	case $s in *"|"*) echo "none of ${s//|/, }" ;; *) echo "no $s" ;; esac
}
