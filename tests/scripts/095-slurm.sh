#!/bin/bash
# 095-slurm.sh — a sweep on a real one-node Slurm cluster (Debian's munge,
# slurmctld, slurmd; /work/shared/reference/slurm.md): a private munged
# (own key copy, socket, pid file) and Slurm daemons with their own config,
# state, spool and ports in a temporary directory; `zonelab run
# --emit-slurm` writes the array script, sbatch runs it (bounded wait),
# `zonelab collect` builds the results, which must equal a local run of the
# same sweep byte for byte (results.csv, summary.csv).  Every daemon started
# here is stopped by its pid.  Skips (77) only when Slurm cannot start here
# (packages missing, not root, daemons refusing), saying why.
set -u
ZL=${O:-build}/zonelab
[ -x "$ZL" ] || { echo "SKIP: $ZL not built"; exit 77; }
ZL=$(realpath "$ZL")
for p in munged slurmctld slurmd sbatch sinfo squeue; do
	command -v $p >/dev/null || { echo "SKIP: $p not installed (tests/deps.sh lists slurm-wlm and munge)"; exit 77; }
done
[ "$(id -u)" = 0 ] || { echo "SKIP: starting munged and slurmd needs root"; exit 77; }
id munge >/dev/null 2>&1 || { echo "SKIP: no munge user (munge package not configured)"; exit 77; }
[ -r /etc/munge/munge.key ] || { echo "SKIP: no /etc/munge/munge.key"; exit 77; }

tmp=$(mktemp -d /tmp/zonelab-slurm.XXXXXX)
chmod 755 "$tmp"
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	[ -s "$tmp/munge/munged.pid" ] && kill "$(cat "$tmp/munge/munged.pid")" 2>/dev/null
	sleep 0.5
	for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT
skip() { echo "--- $1 log:"; tail -5 "$2" 2>/dev/null; echo "SKIP: $3"; exit 77; }

# munge: our own daemon and socket, the package's key
mkdir -m 700 "$tmp/munge"
cp /etc/munge/munge.key "$tmp/munge/munge.key"
chmod 400 "$tmp/munge/munge.key"
chown -R munge: "$tmp/munge"
sock=$tmp/munge/munge.socket
runuser -u munge -- munged --force --socket="$sock" --key-file="$tmp/munge/munge.key" \
	--log-file="$tmp/munge/munged.log" --pid-file="$tmp/munge/munged.pid" \
	--seed-file="$tmp/munge/munged.seed" || skip munged "$tmp/munge/munged.log" "munged did not start"
chmod 755 "$tmp/munge"
for i in $(seq 50); do [ -S "$sock" ] && break; sleep 0.1; done
[ -S "$sock" ] || skip munged "$tmp/munge/munged.log" "munged made no socket"

# slurm: own config, state, spool, ports
host=$(hostname -s)
port=$((20000 + ($$ % 20000)))
mkdir -p "$tmp/state" "$tmp/spool"
cat >"$tmp/slurm.conf" <<EOF
ClusterName=zltest
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$sock
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ReturnToService=2
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$tmp/slurm.conf
slurmctld -D -i -f "$SLURM_CONF" >"$tmp/slurmctld.out" 2>&1 &
pids+=($!)
sleep 1
slurmd -D -f "$SLURM_CONF" >"$tmp/slurmd.out" 2>&1 &
pids+=($!)
up=
for i in $(seq 60); do
	if sinfo -h -o '%t' 2>/dev/null | grep -q idle; then up=1; break; fi
	sleep 0.5
done
[ -n "$up" ] || { tail -5 "$tmp/slurmctld.out" "$tmp/slurmd.out"; skip slurmctld "$tmp/slurmctld.log" "the Slurm node did not come up idle in 30 s"; }
echo "slurm up: $(sinfo -h -o '%N %t %c')"

fails=0
fail() { echo "FAIL: $*"; fails=$((fails+1)); }
cat >"$tmp/t.ini" <<'EOF'
[scenario]
name = slurm
seeds = [1, 2]
[sim]
zones = 96
zone-size = 256K
no-metadata = true
writes = 20000
util = [0.6, 0.8]
clean = [fifo, greedy]
[expect]
finished = error == "none"
EOF
"$ZL" run "$tmp/t.ini" --emit-slurm "$tmp/res" --chunk 3 || fail "--emit-slurm: exit $?"
grep -q '^#SBATCH --array=0-2$' "$tmp/res/slurm.sbatch" || fail "8 points in chunks of 3: want --array=0-2"
(cd "$tmp" && timeout 180 sbatch --wait "$tmp/res/slurm.sbatch") >"$tmp/sbatch.out" 2>&1 ||
	fail "sbatch --wait: exit $?: $(cat "$tmp/sbatch.out"; tail -3 "$tmp/res/slurm/"*.out 2>/dev/null)"
n=$(ls "$tmp/res/points" 2>/dev/null | grep -c '\.json$')
[ "$n" = 8 ] || fail "the array job wrote $n point files, want 8"
[ "$(ls "$tmp/res/slurm/" | wc -l)" = 3 ] || fail "want 3 array task logs in res/slurm/"
"$ZL" collect "$tmp/res" --check -q --no-plots || fail "collect: exit $?"
"$ZL" run "$tmp/t.ini" -o "$tmp/local" -q --no-plots --check || fail "local run: exit $?"
cmp "$tmp/res/results.csv" "$tmp/local/results.csv" || fail "Slurm and local results.csv differ"
cmp "$tmp/res/summary.csv" "$tmp/local/summary.csv" || fail "Slurm and local summary.csv differ"
[ $fails -eq 0 ] || { echo "$fails failures"; exit 1; }
echo "ok: 8 points in 3 Slurm array tasks, results identical to a local run"
