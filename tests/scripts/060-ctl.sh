#!/bin/bash
# 060-ctl.sh — the control socket end to end: handler_zonelab.so is opened
# through the in-process tcmu-runner stand-in (ctl_standin) with ctl=1 and
# trace= in its cfgstring; `zonelab ctl` then changes the device while SCSI
# commands run, and the script checks what the host sees (sense data), what
# ctl reports, the exit statuses, the command trace written at close, and
# that the socket is removed at close and a live socket is never taken over.
# Skips (77) only when the stand-in program or the handler is not built.
set -u
O=${O:-build}
zl=$O/zonelab
cs=$O/tests/tcmu_standin/ctl_standin
so=$O/handler_zonelab.so
[ -x "$cs" ] || { echo "skip: $cs not built"; exit 77; }
[ -f "$so" ] || { echo "skip: $so not built"; exit 77; }
[ -x "$zl" ] || { echo "FAIL: $zl not built"; exit 1; }

d=$(mktemp -d "${TMPDIR:-/tmp}/zl060.XXXXXX")
sock=$d/d.img.ctl
fails=0
cleanup() {
	[ -n "${cs_pid:-}" ] && kill "$cs_pid" 2>/dev/null
	rm -rf "$d"
}
trap cleanup EXIT

ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; fails=$((fails + 1)); }
# expect DESCRIPTION EXIT_STATUS PATTERN -- zonelab ctl args...
expect() {
	local what=$1 want_rc=$2 pat=$3; shift 4
	local out rc
	out=$("$zl" ctl "$@" 2>&1); rc=$?
	if [ "$rc" = "$want_rc" ] && grep -q -- "$pat" <<<"$out"; then
		ok "$what"
	else
		bad "$what: exit $rc (want $want_rc), output: $out (want /$pat/)"
	fi
}
# scsi COMMAND EXPECTED-ANSWER
scsi() {
	local ans
	echo "$1" >&"$cs_in"
	read -r -t 10 -u "$cs_out" ans || ans="(no answer)"
	if [ "$ans" = "$2" ]; then ok "scsi '$1' -> $2"; else bad "scsi '$1' -> $ans (want $2)"; fi
}

cfg="zonelab/$d/d.img?zsize=1M&conv=1&max_open=4&ctl=1&trace=$d/cmd.trc"
coproc CS { exec "$cs" "$so" "$cfg" 16777216 2>"$d/standin.err"; }
# own copies: bash closes the coproc's descriptors as soon as it exits
exec {cs_in}>&"${CS[1]}" {cs_out}<&"${CS[0]}"
cs_pid=$CS_PID
read -r -t 10 -u "$cs_out" line
[ "$line" = ready ] || { echo "FAIL: device did not open: $(cat "$d/standin.err")"; exit 1; }
[ -S "$sock" ] && ok "ctl=1 made the socket <image>.ctl" || bad "no socket at $sock"
[ "$(stat -c %a "$sock")" = 600 ] && ok "socket mode 0600" || bad "socket mode $(stat -c %a "$sock")"

# help, stats, usage
expect "ctl --help" 0 "usage: zonelab ctl" -- --help
expect "help lists commands" 0 '"power-cycle"' -- "$sock" help
expect "stats has geometry" 0 '"nr_zones": 16' -- "$sock" stats
expect "stats --json is one raw line" 0 '^{"ok":true,"stats":{' -- --json "$sock" stats
expect "missing command is a usage error" 2 "expected SOCKET and COMMAND" -- "$sock"
expect "--timeout without a value is a usage error" 2 "option --timeout needs a value (see zonelab ctl --help)" -- --timeout
# the option convention: -h, --opt=value, options only before SOCKET (the
# words after it are the command's, sent as they are), -- ends the options
expect "ctl -h" 0 "usage: zonelab ctl" -- -h
expect "--timeout=5 --json" 0 '^{"ok":true,"stats":{' -- --timeout=5 --json "$sock" stats
expect "an option after SOCKET goes to the server" 1 "unexpected argument '--json' after 'stats'" -- "$sock" stats --json
expect "-- ends the options" 3 "zonelab ctl: -nosock: No such file" -- -- -nosock stats
expect "unknown option names the help" 2 "zonelab ctl: unknown option '--frob' (see zonelab ctl --help)" -- --frob "$sock" stats
expect "unknown command fails with the reason" 1 "unknown command 'frobnicate'" -- "$sock" frobnicate
expect "no server: exit 3" 3 "No such file" -- "$d/none.ctl" stats

# zone offline -> the host sees 2Ch/0Eh (DATA PROTECT); clear -> writable again
scsi "write 4096 8" "status=0x00"
expect "zone offline by index" 0 '"cond": "offline"' -- "$sock" zone offline 2
scsi "write 4104 8" "status=0x02 sense=7/2c/0e"
scsi "read 4096 8" "status=0x02 sense=7/2c/0e"
expect "zone report shows it offline" 0 '"cond":"offline"' -- --json "$sock" zone report 4096 all 1
expect "zone clear" 0 '"cond": "closed"' -- "$sock" zone clear 2
scsi "write 4104 8" "status=0x00"
scsi "read 4096 16" "status=0x00"
expect "zone read-only by start LBA" 0 '"zone": 3' -- "$sock" zone read-only lba=6144
scsi "write 6144 8" "status=0x02 sense=7/27/08"
scsi "read 6144 8" "status=0x00"
expect "bad zone is refused" 1 "zone 16 does not exist" -- "$sock" zone offline 16
expect "LBA not at a zone start is refused" 1 "is not a zone start" -- "$sock" zone offline lba=100

# fault rules: add (ids), the host sees the medium error, list counts, rm
expect "fault add returns ids" 0 '"ids":\[1\]' -- --json "$sock" fault add medium-error:op=read,lba=0-7,repeat
scsi "read 0 8" "status=0x02 sense=3/11/00"
expect "fault list counts the firing" 0 '"fired":1' -- --json "$sock" fault list
expect "bad fault syntax names the column" 1 "column 17: unknown operation" -- "$sock" fault add medium-error:op=rd
expect "fault rm" 0 '"ok": true' -- "$sock" fault rm 1
expect "fault rm of a missing id" 1 "no fault rule with id 1" -- "$sock" fault rm 1
scsi "read 0 8" "status=0x00"

# power cycle: unflushed writes vanish; the host gets a unit attention first
scsi "write 8192 8" "status=0x00"
expect "power-cycle" 0 '"power_cycles": 1' -- "$sock" power-cycle
scsi "write 8200 8" "status=0x02 sense=6/29/00"
expect "the unflushed write is gone" 0 '"wp":8192' -- --json "$sock" zone report 8192 all 1

# a second device may not take over a live socket
if "$cs" "$so" "zonelab/$d/e.img?zsize=1M&ctl=$sock" 16777216 </dev/null >"$d/second.out" 2>&1; then
	bad "a second server took over the live socket"
else
	grep -q "in use by a running server" "$d/second.out" && ok "live socket refused" ||
		bad "live socket: $(cat "$d/second.out")"
fi

# trace status/stop over ctl, then close flushes and removes the socket
expect "trace status" 0 '"active":true' -- --json "$sock" trace
echo quit >&"$cs_in"
read -r -t 10 -u "$cs_out" line
[ "$line" = closed ] && ok "device closed" || bad "device did not close: $line"
wait "$cs_pid" 2>/dev/null
[ -e "$sock" ] && bad "socket left behind at close" || ok "socket removed at close"
"$cs" --dump-trace "$d/cmd.trc" >"$d/trace.txt" 2>&1 || bad "trace unreadable: $(cat "$d/trace.txt")"
grep -q "^lba_size=512 capacity_lba=32768 clock=0" "$d/trace.txt" && ok "trace header" ||
	bad "trace header: $(head -1 "$d/trace.txt")"
grep -q "op=0x8a sa=0x00 lba=4104 n=8 status=0x02 sense=7/2c/0e" "$d/trace.txt" &&
	ok "trace has the write refused by the offline zone" || bad "trace lacks the offline write"
grep -q "op=0x88 sa=0x00 lba=0 n=8 status=0x02 sense=3/11/00" "$d/trace.txt" &&
	ok "trace has the injected medium error" || bad "trace lacks the medium error"
grep -q "op=0x88 sa=0x00 lba=4096 n=16 status=0x00" "$d/trace.txt" &&
	ok "trace has a plain read of written data" || bad "trace lacks the read of written data"
n=$(grep -c '^seq=' "$d/trace.txt")
[ "$n" = 11 ] && ok "trace has every command (11)" || bad "trace has $n records, want 11"

# a timed disk (timing=hc620): stats carry the timing counters
cfg="zonelab/$d/t.img?zsize=1M&conv=1&ctl=1&timing=hc620"
# (a timed disk needs the runner's work queue: ZONELAB_TCMU_THREADS)
coproc CS { ZONELAB_TCMU_THREADS=1 exec "$cs" "$so" "$cfg" 16777216 2>"$d/standin.err"; }
exec {cs_in}>&"${CS[1]}" {cs_out}<&"${CS[0]}"
cs_pid=$CS_PID
read -r -t 10 -u "$cs_out" line
if [ "$line" = ready ]; then
	expect "stats of a timed disk before any command" 0 '"timed": 0,' -- "$d/t.img.ctl" stats
	scsi "read 0 8" "status=0x00"
	scsi "read 30000 8" "status=0x00"
	scsi "sync" "status=0x00"
	expect "stats count the timed commands" 0 '"timed": 3,' -- "$d/t.img.ctl" stats
	echo quit >&"$cs_in"
	wait "$cs_pid" 2>/dev/null
else
	bad "timed device did not open: $(cat "$d/standin.err")"
fi
cs_pid=

# a client that never gets an answer times out (a listener that does not reply)
if command -v python3 >/dev/null; then
	python3 -c '
import socket, sys, time
s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.listen(1)
c, _ = s.accept(); time.sleep(5)' "$d/mute.ctl" &
	mute=$!
	for _ in $(seq 50); do [ -S "$d/mute.ctl" ] && break; sleep 0.1; done
	expect "a silent server times out" 3 "no reply from" -- --timeout 0.5 "$d/mute.ctl" stats
	kill "$mute" 2>/dev/null; wait "$mute" 2>/dev/null
else
	echo "note: python3 missing, timeout case not run"
fi

[ $fails = 0 ] || { echo "$fails check(s) failed"; exit 1; }
echo "all control socket checks passed"
