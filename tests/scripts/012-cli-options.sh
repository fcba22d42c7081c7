#!/bin/bash
# 012-cli-options.sh — one option convention for every zonelab command
# (cli/cli_opt.c): -h and --help exit 0 with the usage on stdout; an
# unknown option, a missing value and a value given to a flag exit 2 naming
# the option and the command's help pointer; --opt=value equals --opt value;
# -- ends the options (a path starting with '-' after it); zonelab
# --version and -V print the version and the git revision.  Each command's
# own script checks its options in depth (010 disk, 060 ctl, 080 trace).
. "$(dirname "$0")/lib.sh"  # ZL, src, dir, fail, run
# refused WANT_TEXT ARGS... - exit 2 and stderr is exactly WANT_TEXT
refused() {
	local want=$1; shift
	run "$@"
	[ $rc = 2 ] || fail "zonelab $*: exit $rc, want 2"
	[ "$(cat "$dir/err")" = "$want" ] || fail "zonelab $*: stderr '$(cat "$dir/err")', want '$want'"
}

cmds=$("$ZL" --help | awk '/^commands:/ { on = 1; next } on && /^$/ { exit } on { print $1 }')
[ "$(echo $cmds)" = "disk sim timing ctl trace run collect compare plot" ] || fail "zonelab --help lists: $(echo $cmds)"
"$ZL" --help | grep -q "not built" && fail "zonelab --help says 'not built'"

# --- -h and --help everywhere, the top level included
for h in -h --help; do
	run $h
	[ $rc = 0 ] && grep -q "^usage: zonelab <command>" "$dir/out" || fail "zonelab $h: exit $rc"
	for c in $cmds; do
		run "$c" $h
		[ $rc = 0 ] || fail "zonelab $c $h: exit $rc"
		grep -q "^usage: zonelab $c" "$dir/out" || fail "zonelab $c $h: no usage on stdout"
		[ -s "$dir/err" ] && fail "zonelab $c $h: wrote to stderr: $(cat "$dir/err")"
	done
done

# --- refusals: the option named, the help pointer, exit 2
for c in $cmds; do
	refused "zonelab $c: unknown option '--frobnicate' (see zonelab $c --help)" "$c" --frobnicate
	refused "zonelab $c: unknown option '-Z' (see zonelab $c --help)" "$c" -Z
done
# the same when the option follows a command word or a positional
refused "zonelab disk create: unknown option '--frobnicate' (see zonelab disk --help)" disk create x.img --frobnicate
refused "zonelab trace stat: unknown option '--frobnicate' (see zonelab trace --help)" trace stat x --frobnicate
refused "zonelab run: unknown option '--frobnicate' (see zonelab run --help)" run x.ini --frobnicate
refused "zonelab collect: unknown option '--frobnicate' (see zonelab collect --help)" collect dir --frobnicate
refused "zonelab compare: unknown option '--frobnicate' (see zonelab compare --help)" compare a b --frobnicate
refused "zonelab plot: unknown option '--frobnicate' (see zonelab plot --help)" plot dir --frobnicate
refused "zonelab: unknown option '--frobnicate' (see zonelab --help)" --frobnicate
# a missing value, a value given to a flag, an ambiguous abbreviation
refused "zonelab sim: option --zones needs a value (see zonelab sim --help)" sim --zones
refused "zonelab run: option -o needs a value (see zonelab run --help)" run x.ini -o
refused "zonelab compare: option --tolerance needs a value (see zonelab compare --help)" compare a b --tolerance
refused "zonelab collect: option --junit needs a value (see zonelab collect --help)" collect dir --junit
refused "zonelab ctl: option --timeout needs a value (see zonelab ctl --help)" ctl --timeout
refused "zonelab sim: option --no-metadata takes no value (see zonelab sim --help)" sim --no-metadata=1
refused "zonelab run: option --check takes no value (see zonelab run --help)" run x.ini --check=yes
refused "zonelab: option --version takes no value (see zonelab --help)" --version=1
refused "zonelab sim: ambiguous option '--zone' (--zones, --zone-size, --zone-switch-us, --zone-csv) (see zonelab sim --help)" sim --zone 4
refused "zonelab sim: unexpected argument 'extra' (see zonelab sim --help)" sim --check-config extra
refused "zonelab compare: unexpected argument 'c' (see zonelab compare --help)" compare a b c

# --- --opt=value is --opt value (each command that takes values)
sim_args="--zones 64 --zone-size 1M --writes 3000 --seed 7 --util 0.5"
"$ZL" sim $sim_args >"$dir/s1" 2>&1 || fail "sim $sim_args: $(cat "$dir/s1")"
"$ZL" sim $(echo "$sim_args" | sed 's/\(--[a-z-]*\) /\1=/g') >"$dir/s2" 2>&1 || fail "sim --opt=value: $(cat "$dir/s2")"
cmp -s "$dir/s1" "$dir/s2" || fail "sim --zones=64 ... differs from --zones 64 ..."
"$ZL" sim --zone-size=1MiB --zones=64 --writes=3000 --seed=7 --util=0.5 >"$dir/s3" 2>&1
cmp -s "$dir/s1" "$dir/s3" || fail "sim --zone-size=1MiB differs from --zone-size 1M"
"$ZL" run "$src/scenarios/ci/"*.ini --list -o "$dir/r1" >"$dir/l1" 2>&1 || fail "run --list: $(cat "$dir/l1")"
"$ZL" run --list --out="$dir/r1" "$src/scenarios/ci/"*.ini >"$dir/l2" 2>&1
cmp -s "$dir/l1" "$dir/l2" || fail "run --out=DIR --list differs from -o DIR --list"

# --- -- ends the options: a path starting with '-' after it
cd "$dir" || exit 1
run collect -- -results
[ $rc = 2 ] && grep -q "zonelab: -results: not a result directory" "$dir/err" || fail "collect -- -results: exit $rc, $(cat "$dir/err")"
run plot -- -results
[ $rc = 2 ] && grep -q "zonelab: -results: not a result directory" "$dir/err" || fail "plot -- -results: exit $rc, $(cat "$dir/err")"
run compare -- -a -b
[ $rc = 2 ] && grep -q "zonelab: compare: -a: not a result directory" "$dir/err" || fail "compare -- -a -b: exit $rc, $(cat "$dir/err")"
cp "$src/scenarios/ci/"*.ini "$dir/" && first=$(ls "$dir"/*.ini | head -1) && cp "$first" "$dir/-s.ini"
run run --list -- -s.ini
[ $rc = 0 ] && [ -s "$dir/out" ] || fail "run --list -- -s.ini: exit $rc, $(cat "$dir/err")"
run ctl -- -nosock stats
[ $rc = 3 ] && grep -q "zonelab ctl: -nosock:" "$dir/err" || fail "ctl -- -nosock: exit $rc, $(cat "$dir/err")"
run disk create --size 16M --zone-size 1M -- -d.img
[ $rc = 0 ] && [ -f "$dir/-d.img" ] || fail "disk create -- -d.img: exit $rc, $(cat "$dir/err")"
cp "$src/tests/data/msr.csv" "$dir/-t.csv"
run trace stat --json -- -t.csv
[ $rc = 0 ] && grep -q '"file":"-t.csv","format":"msr","records":5' "$dir/out" || fail "trace stat -- -t.csv: exit $rc, $(cat "$dir/err")"
cd "$src" || exit 1

# --- --version and -V
run --version
[ $rc = 0 ] || fail "zonelab --version: exit $rc"
v=$(cat "$dir/out")
[[ $v =~ ^zonelab\ [0-9][0-9.]*\ \(git\ [^\ ]+\)$ ]] || fail "zonelab --version printed '$v', not 'zonelab VERSION (git REV)'"
if rev=$(git -C "$src" describe --always 2>/dev/null); then
	[[ $v == *"(git $rev"* ]] || fail "zonelab --version names another revision than $rev: '$v'"
fi
run -V
[ $rc = 0 ] && [ "$(cat "$dir/out")" = "$v" ] || fail "zonelab -V: exit $rc, '$(cat "$dir/out")', want '$v'"

if [ $fails -ne 0 ]; then echo "$fails check(s) failed"; exit 1; fi
echo "all option convention checks passed"
