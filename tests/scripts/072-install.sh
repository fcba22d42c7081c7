#!/bin/bash
# 072-install.sh - `make install` into a temporary DESTDIR puts exactly the
# expected files in place (zonelab, handler_zonelab.so in tcmu-runner's
# handler directory, zonelab(1), bash completion, README and docs) with the
# right modes; the installed program runs; the man page renders without
# troff warnings and holds every built command's --help text verbatim and
# nothing else; the completion completes commands, subcommands, options and
# option values; both pick up a new subcommand (a wrapper that adds one) and
# the man page check fails on drift; `make uninstall` removes every file.
set -u
O=${O:-build}
REPO=$(cd "$(dirname "$0")/../.." && pwd)
ZL=$O/zonelab
[ -x "$ZL" ] || { echo "SKIP: $ZL not built"; exit 77; }
case $O in /*) ;; *) O=$REPO/$O ;; esac
# make is given the build directory as the other builds spell it (relative
# to the repository when inside it): with an absolute O the objects it
# remade got dependency files naming absolute targets, which the usual
# relative builds never match, so a later header change left those objects
# stale (a mixed build: tests failing on struct layouts)
MO=${O#"$REPO"/}
command -v groff >/dev/null || { echo "SKIP: groff not installed (groff-base)"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
dest=$dir/dest
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

mk() { make -s --no-print-directory -C "$REPO" O="$MO" "$@"; }
# The handler directory is tcmu-runner's own default (tcmu-runner --help).
if command -v tcmu-runner >/dev/null; then
	rdir=$(tcmu-runner --help 2>&1 | sed -n 's/^[[:space:]]*default is \(\/.*tcmu-runner\)$/\1/p')
	[ -z "$rdir" ] || [ "$rdir" = "/usr/lib/$(${CC:-cc} -print-multiarch)/tcmu-runner" ] ||
		fail "tcmu-runner's handler path is $rdir, the Makefile's default /usr/lib/<multiarch>/tcmu-runner"
fi
hdir=/usr/lib/$(${CC:-cc} -print-multiarch)/tcmu-runner

# --- install into DESTDIR, PREFIX=/usr/local (the default) ---
mk install DESTDIR="$dest" > "$dir/install.log" 2>&1 || { cat "$dir/install.log"; fail "make install"; }
(cd "$dest" && find . ! -type d | sed 's|^\./|/|' | LC_ALL=C sort) > "$dir/got"
{
	echo "$hdir/handler_zonelab.so"
	echo /usr/local/bin/zonelab
	echo /usr/local/bin/zonelab-nvmet
	echo /usr/local/share/bash-completion/completions/zonelab
	echo /usr/local/share/doc/zonelab/README.md
	for d in "$REPO"/docs/*.md; do echo "/usr/local/share/doc/zonelab/docs/${d##*/}"; done
	echo /usr/local/share/man/man1/zonelab.1
} | LC_ALL=C sort > "$dir/want"
diff -u "$dir/want" "$dir/got" || fail "installed files differ from the expected list (- expected, + installed)"
mode() { stat -c %a "$dest$1" 2>/dev/null; }
[ "$(mode /usr/local/bin/zonelab)" = 755 ] || fail "zonelab mode $(mode /usr/local/bin/zonelab), want 755"
[ "$(mode /usr/local/bin/zonelab-nvmet)" = 755 ] || fail "zonelab-nvmet mode $(mode /usr/local/bin/zonelab-nvmet), want 755"
for f in "$hdir/handler_zonelab.so" /usr/local/share/man/man1/zonelab.1 /usr/local/share/doc/zonelab/README.md; do
	[ "$(mode "$f")" = 644 ] || fail "$f mode $(mode "$f"), want 644"
done
cmp -s "$O/handler_zonelab.so" "$dest$hdir/handler_zonelab.so" || fail "installed handler is not the built one"
izl=$dest/usr/local/bin/zonelab
"$izl" --help > "$dir/help" || fail "installed zonelab --help"
grep -q '^usage: zonelab' "$dir/help" || fail "installed zonelab prints no usage"
man=$dest/usr/local/share/man/man1/zonelab.1
comp=$dest/usr/local/share/bash-completion/completions/zonelab

# --- the man page ---
groff -man -Tutf8 -ww -z "$man" 2> "$dir/groff.err"
[ -s "$dir/groff.err" ] && { cat "$dir/groff.err"; fail "groff warnings in zonelab.1"; }
grep -q "^\.I $hdir/handler_zonelab.so" "$man" || fail "man page does not name $hdir/handler_zonelab.so"
grep -q '^\.I /usr/local/share/doc/zonelab/' "$man" || fail "man page does not name the installed doc directory"
grep -q '@[A-Z_]*@' "$man" && fail "man page has an unreplaced @KEY@"

# built_cmds ZONELAB - the commands its --help lists (every one is built).
built_cmds() {
	"$1" --help | awk '/^commands:/ { on = 1; next } on && /^$/ { exit }
		on && /^  [a-z]/ { print $1 }'
}
# man_check ZONELAB MANPAGE - every built command's --help text is in the page
# verbatim (read back from its marked no-fill block), and the page has no
# block for a command that is not built.  Prints the differences.
man_check() {
	local zl=$1 page=$2 c rc=0
	for c in $(built_cmds "$zl"); do
		awk -v c="$c" '$0 == ".\\\" zonelab-help-end " c { on = 0 } on { print } $0 == ".\\\" zonelab-help-begin " c { on = 1 }' "$page" |
			perl -pe 's/\\(e|-|&)/$1 eq "e" ? "\\" : $1 eq "-" ? "-" : ""/ge' > "$dir/man.$c"
		"$zl" "$c" --help > "$dir/help.$c" 2>&1
		if ! diff -u "$dir/help.$c" "$dir/man.$c" > "$dir/diff.$c"; then
			echo "zonelab $c: the man page differs from --help (- help, + man page):"; cat "$dir/diff.$c"; rc=1
		fi
	done
	for c in $(sed -n 's/^\.\\" zonelab-help-begin //p' "$page"); do
		built_cmds "$zl" | grep -qx "$c" || { echo "man page documents '$c', which $zl does not list"; rc=1; }
	done
	return $rc
}
man_check "$izl" "$man" || fail "installed man page does not match the installed zonelab's --help texts"
ncmd=$(built_cmds "$izl" | wc -l)
[ "$ncmd" -ge 3 ] || fail "only $ncmd commands listed by zonelab --help"
[ "$(grep -c '^\.\\" zonelab-help-begin ' "$man")" = "$ncmd" ] || fail "man page has not one help block per command"
groff -man -Tutf8 -rLL=100n "$man" 2>/dev/null | sed "s/\x08.//g" | grep -q 'zonelab disk <command> IMAGE' || fail "rendered man page lacks the disk usage line"
# the version: --version and -V print "zonelab VERSION (git REV)", the page's header names it
ver=$("$izl" --version) || fail "installed zonelab --version"
[[ $ver =~ ^zonelab\ ([0-9][0-9.]*)\ \(git\ [^\ ]+\)$ ]] || fail "zonelab --version printed '$ver', not 'zonelab VERSION (git REV)'"
[ "$("$izl" -V)" = "$ver" ] || fail "zonelab -V differs from --version"
grep -q "^\.TH ZONELAB 1 \"\" \"zonelab ${BASH_REMATCH[1]}\"" "$man" || fail "man page .TH does not name version ${BASH_REMATCH[1]}"

# --- bash completion ---
# comp WORDS... - the completions bash offers for the last word.
comp() {
	bash --norc --noprofile -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _zonelab; [ ${#COMPREPLY[@]} = 0 ] || printf "%s\n" "${COMPREPLY[@]}" | LC_ALL=C sort | tr "\n" " "' \
		comp "$comp" "$@"
}
expect() { local want=$1; shift; local got; got=$(comp "$@"); [ "$got" = "$want" ] || fail "completing '$*': got '$got', want '$want'"; }
bash --norc --noprofile -c ". '$comp'; complete -p zonelab" > "$dir/complete" 2>&1
grep -qx 'complete -o default -F _zonelab zonelab' "$dir/complete" || { cat "$dir/complete"; fail "complete -p zonelab"; }
expect "$(built_cmds "$izl" | sed 's/$/ /' | { cat; echo '--help '; echo '--version '; } | LC_ALL=C sort | tr -d '\n')" zonelab ''
expect "--version " zonelab --v
expect "create " zonelab disk cr
expect "check close create " zonelab disk c
expect "" zonelab disk create img.img            # image name: files (-o default)
expect "ha hm " zonelab disk create img --model ''
expect "--max --max-active --max-open " zonelab disk create img --max
expect "fault " zonelab ctl /run/x.ctl f           # the command comes after SOCKET
expect "" zonelab ctl f                            # ...so the first word is a file
expect "fault " zonelab ctl --timeout 5 /run/x.ctl fa   # --timeout takes a value
expect "hotcold " zonelab sim --workload h
expect "--blkdev " zonelab sim --blkd
# Every --option in a command's help completes for that command.
for c in $(built_cmds "$izl"); do
	got=" $(comp zonelab "$c" --) "
	for o in $("$izl" "$c" --help | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u); do
		[[ $got == *" $o "* ]] || fail "zonelab $c: $o not completed"
	done
done

# --- a new subcommand is picked up; drift is detected ---
cat > "$dir/zonelab" <<WRAP
#!/bin/bash
if [ "\$1" = --help ]; then "$izl" --help | sed '/^commands:/a\\  frob    twiddle the frobnicator'; exit 0; fi
if [ "\$1" = frob ]; then printf 'usage: zonelab frob [--wobble N] FILE\\n\\n  --wobble N   wobble N times (\\\\n is not a newline)\\n'; exit 0; fi
exec "$izl" "\$@"
WRAP
chmod +x "$dir/zonelab"
"$REPO/dist/mkman.sh" "$dir/zonelab" "$REPO/dist/zonelab.1.in" > "$dir/frob.1" || fail "mkman.sh with a new command"
man_check "$dir/zonelab" "$dir/frob.1" > "$dir/mc.out" || { cat "$dir/mc.out"; fail "generated page with 'frob' does not match"; }
grep -q '^\.SS "zonelab frob"' "$dir/frob.1" || fail "no section for the new command frob"
"$REPO/dist/mkcompletion.sh" "$dir/zonelab" > "$dir/frob.bash" || fail "mkcompletion.sh with a new command"
comp=$dir/frob.bash
expect "frob " zonelab fr
expect "--help --wobble " zonelab frob --
comp=$dest/usr/local/share/bash-completion/completions/zonelab
# The installed page against a zonelab that grew a command: must fail.
man_check "$dir/zonelab" "$man" > "$dir/mc.out" && fail "man_check accepted a page that lacks the new command"
grep -q "frob" "$dir/mc.out" || fail "man_check did not name the missing command"
# ...and a changed help text.
cat > "$dir/zonelab2" <<WRAP
#!/bin/bash
if [ "\$1" = disk ] && [ "\${2:-}" = --help ]; then "$izl" disk --help | sed 's/--zone-size BYTES /--zone-size SIZE  /'; exit 0; fi
exec "$izl" "\$@"
WRAP
chmod +x "$dir/zonelab2"
man_check "$dir/zonelab2" "$man" > "$dir/mc.out" && fail "man_check accepted a changed disk --help"
grep -q '^+  --zone-size BYTES' "$dir/mc.out" || { cat "$dir/mc.out"; fail "man_check did not show the changed line"; }

# --- another PREFIX: paths in the page follow it ---
mk install DESTDIR="$dir/dest2" PREFIX=/usr TCMU_HANDLER_DIR=/opt/tcmu > "$dir/install2.log" 2>&1 || { cat "$dir/install2.log"; fail "make install PREFIX=/usr"; }
[ -x "$dir/dest2/usr/bin/zonelab" ] || fail "PREFIX=/usr: no /usr/bin/zonelab"
[ -f "$dir/dest2/opt/tcmu/handler_zonelab.so" ] || fail "TCMU_HANDLER_DIR=/opt/tcmu: no handler there"
grep -q '^\.I /usr/share/doc/zonelab/' "$dir/dest2/usr/share/man/man1/zonelab.1" || fail "PREFIX=/usr: man page names another doc directory"
mk >/dev/null 2>&1   # the default paths again in $(O)'s page

# --- uninstall removes every file ---
mk uninstall DESTDIR="$dest" > "$dir/uninstall.log" 2>&1 || { cat "$dir/uninstall.log"; fail "make uninstall"; }
left=$(cd "$dest" && find . ! -type d)
[ -z "$left" ] || fail "left after make uninstall: $left"
[ -d "$dest/usr/local/share/doc/zonelab" ] && fail "doc directory left after make uninstall"

[ $fails = 0 ] && echo "install: $(wc -l < "$dir/want") files, man page and completion checked, uninstall clean"
exit $((fails > 0))
