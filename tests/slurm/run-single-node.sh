#!/usr/bin/env bash
# A real Slurm on this one machine runs a search as a job array (issue #28), and the merge
# equals a local `tune` byte for byte.
#   tests/slurm/run-single-node.sh PATH/TO/dplab-cli
# Installs Debian's slurm-wlm and munge if missing; writes a minimal one-node slurm.conf (this
# host's short name as SlurmctldHost and NodeName, proctrack/linuxproc, task/none, cons_tres with
# CR_Core so array tasks share the node, SlurmUser=root, no accounting: sacct is absent, jobs are
# followed with squeue and the stores) with its state, spool, logs and munge socket under a
# temporary folder; starts munged (as the munge user), slurmctld -D and slurmd -D in the
# background (no systemd, no cgroups); waits for the node to be idle; `dplab-cli slurm --submit`
# a 4-shard array; waits (time limit); removes one shard's store and resubmits it alone
# (slurm-status --resubmit-missing); merges; compares with `dplab-cli tune`; stops the daemons
# it started (trap). Prints the wall time of the search on Slurm and of the local tune.
# Exit 0 = passed; 1 = failed; it SKIPS (exit 0, saying why) only when slurmd cannot start here.
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 PATH/TO/dplab-cli" >&2; exit 2; }
cli=$(readlink -f "$1")
[ -x "$cli" ] || { echo "FAIL: no dplab-cli at $1" >&2; exit 1; }
fail() { echo "FAIL (slurm single-node): $*" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || fail "must run as root (it installs packages and runs slurmd as SlurmUser=root)"

if ! command -v slurmd >/dev/null || ! command -v slurmctld >/dev/null ||
   ! command -v sbatch >/dev/null || ! command -v munged >/dev/null; then
  echo "slurm single-node: installing slurm-wlm and munge"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q slurm-wlm munge >/dev/null ||
    { apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q slurm-wlm munge >/dev/null; } ||
    fail "apt-get install slurm-wlm munge failed"
fi
id munge >/dev/null 2>&1 || fail "no munge user after installing munge"

work=$(mktemp -d "${TMPDIR:-/tmp}/dplab-slurm.XXXXXX")
chmod 755 "$work"
pids=()
cleanup() {
  local pid
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
host=$(hostname -s)
# munge: its own key, socket and logs in a folder only the munge user can write.
mdir="$work/munge"
mkdir -p "$mdir"
dd if=/dev/urandom of="$mdir/munge.key" bs=1024 count=1 status=none
chown -R munge: "$mdir"
chmod 711 "$mdir"
chmod 400 "$mdir/munge.key"
socket="$mdir/munge.socket"
runuser -u munge -- munged --key-file="$mdir/munge.key" --socket="$socket" \
  --pid-file="$mdir/munged.pid" --log-file="$mdir/munged.log" --seed-file="$mdir/munged.seed" \
  --foreground >"$work/munged.out" 2>&1 &
pids+=($!)
for _ in $(seq 50); do [ -S "$socket" ] && break; sleep 0.1; done
[ -S "$socket" ] || fail "munged did not start: $(tail -5 "$work/munged.out")"

# Free ports for this run's controller and node daemon.
port=$((20000 + RANDOM % 20000))
mkdir -p "$work/state" "$work/spool"
cat >"$work/slurm.conf" <<EOF
ClusterName=dplabci
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$socket
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=ci Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$work/slurm.conf"
slurmctld -D -c -f "$SLURM_CONF" >"$work/slurmctld.out" 2>&1 &
pids+=($!)
ctld=$!
slurmd -D -f "$SLURM_CONF" -N "$host" >"$work/slurmd.out" 2>&1 &
pids+=($!)
node=$!
started=$SECONDS
state=""
while [ $((SECONDS - started)) -lt 30 ]; do
  kill -0 "$ctld" 2>/dev/null ||
    fail "slurmctld exited: $(tail -5 "$work/slurmctld.log" "$work/slurmctld.out" 2>/dev/null)"
  if ! kill -0 "$node" 2>/dev/null; then
    echo "SKIP (slurm single-node): slurmd cannot start on this machine:" >&2
    tail -8 "$work/slurmd.log" "$work/slurmd.out" >&2 2>/dev/null || true
    exit 0
  fi
  state=$(sinfo -h -n "$host" -o %T 2>/dev/null || true)
  [ "$state" = idle ] && break
  sleep 0.5
done
[ "$state" = idle ] || fail "node $host not idle after 30 s (state '$state'): $(tail -5 "$work/slurmd.log")"
echo "slurm single-node: $host idle after $((SECONDS - started)) s"

# A small search: 5 candidates x 2 repeats, 60000 steps each (about a second a job here).
exp="$work/search.json"
cat >"$exp" <<'EOF'
{
  "name": "slurm-ci",
  "dataset": {"source": "synthetic-binary", "num_samples": 2000, "dim": 10},
  "model": {"kind": "logistic"},
  "privacy": {"noise_multiplier": 1.0, "lot_size": 50, "steps": 60000},
  "optimizers": [
    {"name": "dpsgd", "grid": {"learning_rate": [0.1, 0.5], "clip": [0.5, 1]}},
    {"name": "dpadam", "grid": {"clip": 1}}
  ],
  "repeats": 2,
  "eval_every": 6000,
  "seed": 11
}
EOF
plan="$work/plan"
t0=$(date +%s.%N)
"$cli" slurm "$exp" --out "$plan" --shards 4 --cpus-per-task 1 --time 00:05:00 --submit \
  >"$work/slurm.out" 2>&1 || fail "dplab-cli slurm --submit: $(cat "$work/slurm.out")"
job=$(sed -n 's/^submitted job \([0-9]*\) .*/\1/p' "$work/slurm.out")
[ -n "$job" ] || fail "no job id in: $(cat "$work/slurm.out")"
echo "slurm single-node: submitted array job $job (4 shards)"
deadline=$((SECONDS + 120))
while [ -n "$(squeue -h -j "$job" 2>/dev/null)" ]; do
  [ $SECONDS -lt $deadline ] || { squeue -j "$job" || true; fail "array $job not done after 120 s"; }
  sleep 0.5
done
t1=$(date +%s.%N)
"$cli" slurm-status "$plan" >"$work/status.out" || fail "slurm-status: $(cat "$work/status.out")"
grep -q "total: 10 jobs, 10 done, 0 failed, 0 missing" "$work/status.out" ||
  fail "not every job stored: $(cat "$work/status.out"; tail -3 "$plan"/logs/*)"
for i in 0 1 2 3; do [ -s "$plan/stores/shard-$i.sqlite" ] || fail "no store of shard $i"; done
# A lost shard (its store removed, as after a node failure) is resubmitted alone and rerun.
rm -f "$plan/stores/shard-2.sqlite"*
"$cli" slurm-status "$plan" --resubmit-missing >"$work/resubmit.out" 2>&1 ||
  fail "slurm-status --resubmit-missing: $(cat "$work/resubmit.out")"
job2=$(sed -n 's/^resubmitted shards 2 as job \([0-9]*\)$/\1/p' "$work/resubmit.out")
[ -n "$job2" ] || fail "shard 2 alone was not resubmitted: $(cat "$work/resubmit.out")"
deadline=$((SECONDS + 60))
while [ -n "$(squeue -h -j "$job2" 2>/dev/null)" ]; do
  [ $SECONDS -lt $deadline ] || fail "resubmitted job $job2 not done after 60 s"
  sleep 0.5
done
"$cli" slurm-status "$plan" >"$work/status.out" || fail "slurm-status: $(cat "$work/status.out")"
grep -q "total: 10 jobs, 10 done, 0 failed, 0 missing" "$work/status.out" ||
  fail "shard 2 not complete after the resubmission: $(cat "$work/status.out")"
echo "slurm single-node: a removed shard was resubmitted alone (job $job2) and completed"
t1m=$(date +%s.%N)
"$cli" history merge "$plan" --db "$work/history.sqlite" --out "$work/merged" >"$work/merged.out" 2>&1 ||
  fail "history merge: $(cat "$work/merged.out")"
t2=$(date +%s.%N)
"$cli" tune --config "$exp" --out "$work/local" >"$work/local.out" 2>&1 || fail "tune: $(cat "$work/local.out")"
t3=$(date +%s.%N)
for f in curves.csv aggregate_curves.csv alpha_clip_grid.csv; do
  cmp "$work/local/$f" "$work/merged/$f" || fail "$f differs between the Slurm merge and the local tune"
done
# summary.json without its timings (wall_seconds; cpu_time: a local search's, the merged jobs ran
# elsewhere) at any depth.
untimed() {
  /usr/bin/python3 -c '
import json, sys
def drop(node):
    if isinstance(node, dict):
        return {k: drop(v) for k, v in node.items() if k not in ("wall_seconds", "cpu_time")}
    return [drop(v) for v in node] if isinstance(node, list) else node
print(json.dumps(drop(json.load(open(sys.argv[1]))), indent=2, sort_keys=True))' "$1"
}
diff <(untimed "$work/local/summary.json") <(untimed "$work/merged/summary.json") ||
  fail "summary.json differs (beyond the timings) between the Slurm merge and the local tune"
label=$(grep -m1 '^eps' "$work/local.out")
grep -qF "$label" "$work/merged.out" || fail "the epsilon label differs: $label"
awk -v a="$t0" -v b="$t1" -v m="$t1m" -v c="$t2" -v d="$t3" 'BEGIN {
  printf "slurm single-node: 4-shard search on Slurm %.1f s (submit to last task), merge %.1f s; local tune %.1f s\n", b - a, c - m, d - c }'
echo "slurm single-node: PASSED (merge equals local tune byte for byte)"
