#!/usr/bin/env bash
# Measures the cluster path at scale (issue #45): a plan of SHARDS shards (default 1,000) of tiny
# jobs (one job per shard: 40 learning rates x 25 clipping norms = 1,000 DPSGD candidates of 10
# steps on 500 synthetic rows). Times `slurm --out` (plan.json + dplab.sbatch + slurm.json,
# without submitting), every shard's `run-jobs` (run locally, nproc at a time; on a cluster each
# is an array task), `slurm-status` and `history merge`, and checks that the merge equals a local
# `tune` of the same experiment byte for byte (winners and curves). Prints one line per step.
#
#   scripts/cluster-scale.sh build/app/dplab-cli [SHARDS]
set -euo pipefail
cli="$(realpath "${1:?usage: cluster-scale.sh DPLAB_CLI [SHARDS]}")"
shards="${2:-1000}"
work="$(mktemp -d "${TMPDIR:-/tmp}/dplab-scale.XXXXXX")"
trap 'rm -rf "$work"' EXIT
lrs=$(/usr/bin/python3 -c 'print(",".join(f"{0.02 * 1.12 ** i:.6g}" for i in range(40)))')
clips=$(/usr/bin/python3 -c 'print(",".join(f"{0.1 * 1.1 ** i:.6g}" for i in range(25)))')
cat >"$work/scale.json" <<JSON
{
  "name": "cluster-scale",
  "dataset": {"source": "synthetic-binary", "num_samples": 500, "dim": 10},
  "model": {"kind": "logistic"},
  "privacy": {"noise_multiplier": 2, "lot_size": 50, "steps": 10},
  "optimizers": [{"name": "dpsgd", "grid": {"learning_rate": [$lrs], "clip": [$clips]}}],
  "repeats": 1,
  "eval_every": 5,
  "tuning": {"strategy": "grid"},
  "seed": 11
}
JSON
step() {  # step NAME COMMAND...: runs it, prints its wall time
  local name="$1"; shift
  local t0=$EPOCHREALTIME
  "$@" >"$work/$name.log" 2>&1 || { echo "cluster-scale: $name failed:"; tail -5 "$work/$name.log"; exit 1; }
  printf 'cluster-scale: %-34s %8.2f s\n' "$name" "$(echo "$EPOCHREALTIME - $t0" | bc)"
}
step "plan (slurm --out, $shards shards)" "$cli" slurm "$work/scale.json" --out "$work/plan" --shards "$shards"
run_all() {
  seq 0 $((shards - 1)) | xargs -P "$(nproc)" -I{} \
    "$cli" run-jobs "$work/plan" --shard {} --shards "$shards" --threads 1
}
step "run-jobs x $shards (nproc at a time)" run_all
step "slurm-status" "$cli" slurm-status "$work/plan"
step "history merge" "$cli" history merge "$work/plan" --db "$work/history.sqlite" --out "$work/merged"
step "local tune (the same search)" "$cli" tune --config "$work/scale.json" --out "$work/local" --threads "$(nproc)"
for f in aggregate_curves.csv alpha_clip_grid.csv; do
  cmp -s "$work/merged/$f" "$work/local/$f" || { echo "cluster-scale: $f differs from a local tune"; exit 1; }
done
echo "cluster-scale: merged files equal the local tune's; slurm-status said:"
tail -3 "$work/slurm-status.log"
