#!/bin/bash
# dist/mkman.sh ZONELAB TEMPLATE [KEY=VALUE...] - write the zonelab(1) man
# page to stdout:
# TEMPLATE (dist/zonelab.1.in, the hand-written parts) with its @COMMANDS@
# line replaced by one section per subcommand that `ZONELAB --help` lists,
# holding that subcommand's `ZONELAB CMD --help` text verbatim, and
# @SUMMARY@ by the command list itself; @VERSION@ by the version
# `ZONELAB --version` prints; @KEY@ by VALUE (installed paths).  A new subcommand is picked up
# without editing anything here; tests/scripts/072-install.sh checks the
# result against the binary's --help texts.
#
# Each help text sits between the comment lines
#   .\" zonelab-help-begin CMD   and   .\" zonelab-help-end CMD
# in a no-fill block, escaped for troff (backslashes, leading dots and
# apostrophes), so it can be read back exactly.
set -euo pipefail
zl=$1; tpl=$2; shift 2
subst=("$@")
# "zonelab 0.1.0 (git REV)": the version, not the revision (the page does
# not change with every commit)
version=$("$zl" --version | awk 'NR == 1 { print $2 }')
[ -n "$version" ] || { echo "mkman.sh: '$zl --version' prints no version" >&2; exit 1; }
subst+=("VERSION=$version")

# esc - troff-escape plain text read on stdin (one no-fill line per line).
esc() { sed -e 's/\\/\\e/g' -e "s/^\\([.']\\)/\\\\\\&\\1/" -e 's/-/\\-/g'; }

# commands - "NAME<TAB>one-line description" for every command.
commands() {
	"$zl" --help | awk '
		/^commands:/ { on = 1; next }
		on && /^$/ { exit }
		on && /^  [a-z]/ {
			name = $1; $1 = ""; sub(/^ +/, ""); print name "\t" $0 }'
}

emit_commands() {
	local name desc
	while IFS=$'\t' read -r name desc; do
		printf '.SS "zonelab %s"\n' "$name"
		printf '%s.\n' "$(printf '%s' "${desc^}" | esc)"
		printf '.PP\n.nf\n.\\" zonelab-help-begin %s\n' "$name"
		"$zl" "$name" --help | esc
		printf '.\\" zonelab-help-end %s\n.fi\n' "$name"
	done < <(commands)
}

emit_summary() {
	local name desc
	while IFS=$'\t' read -r name desc; do
		printf '.TP\n.B %s\n%s\n' "$name" "$(printf '%s' "$desc" | esc)"
	done < <(commands)
}

[ -n "$(commands)" ] || { echo "mkman.sh: '$zl --help' lists no commands" >&2; exit 1; }
while IFS= read -r line; do
	case $line in
	@COMMANDS@) emit_commands ;;
	@SUMMARY@) emit_summary ;;
	*)	for kv in "${subst[@]}"; do line=${line//@${kv%%=*}@/${kv#*=}}; done
		printf '%s\n' "$line" ;;
	esac
done < "$tpl"
