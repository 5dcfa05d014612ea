#!/usr/bin/env bash
# Builds the libFuzzer harnesses (tests/fuzz, clang + ASan + UBSan) and runs each one on its seed
# corpus for a fixed time budget, as many at a time as there are cores (each harness is one
# process on one core). Any finding (crash, sanitizer report, leak, timeout, OOM) makes the script
# exit 1; the input is saved under build-fuzz/findings/ and the command to reproduce it is printed.
#
#   scripts/fuzz.sh                       # 30 s per target, 15 targets
#   scripts/fuzz.sh --seconds 10 --deep-seconds 60
#                                         # CI: 10 s each, then ONE target 60 s more
#   scripts/fuzz.sh --seconds 3600        # long run: an hour per target
#   scripts/fuzz.sh --only csv            # one target: idx, gzip, csv, libsvm, experiment_json,
#                                         # loader_budget, preset_json, cli_flags, corpus,
#                                         # search_plan, slurm_json, feature_bounds, oso_preset,
#                                         # output_writers, store
#   scripts/fuzz.sh --jobs 1              # one target at a time (default: nproc)
#
# --deep-seconds N: after the per-target runs, one target chosen by rotation (the HEAD commit's
# hash modulo the number of targets, printed) runs N seconds more, so successive CI runs fuzz each
# target deeply in turn (15 commits cover them all).
#
# loader_budget runs with inputs up to 64 KB that stand for files up to 64 MB and a 32 MB memory
# budget, corpus with inputs that stand for text corpora up to 1 MB and a 4 MB budget (the other
# loader harnesses: 4 KB inputs, 4 MB budget); they fail when a loader's peak memory outgrows the
# budget. store mutates small SQLite files (512-byte pages, up to 64 KB). preset_json also starts
# from the shipped resources/presets/.
#
# The grown corpus is kept in build-fuzz/corpus/<target>/ so later runs start where earlier
# ones stopped; the seed corpus in tests/fuzz/corpus/ is never modified.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=30
deep_seconds=0
only=""
build=build-fuzz
jobs=$(nproc)
while [[ $# -gt 0 ]]; do
  case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    --deep-seconds) deep_seconds="$2"; shift 2 ;;
    --only) only="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    --build-dir) build="$2"; shift 2 ;;
    -h|--help) sed -n '2,29p' "$0"; exit 0 ;;
    *) echo "fuzz.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
command -v clang++ >/dev/null || { echo "fuzz.sh: clang++ is needed (apt-get install clang)" >&2; exit 2; }
# cli_flags declares every command: a command added to cli/command_flags.h but not to the harness
# would go unfuzzed silently.
for declared in $(grep -oE 'add_[a-z_]+_flags\(' app/cli/command_flags.h | sort -u); do
  grep -q "${declared%(}" tests/fuzz/fuzz_cli_flags.cpp || {
    echo "fuzz.sh: ${declared%(} (app/cli/command_flags.h) is not declared by tests/fuzz/fuzz_cli_flags.cpp" >&2
    exit 1
  }
done
launcher=()
if command -v ccache >/dev/null 2>&1; then
  export CCACHE_BASEDIR="$PWD"
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
all_targets=(idx gzip csv libsvm experiment_json loader_budget preset_json cli_flags corpus
             search_plan slurm_json feature_bounds oso_preset output_writers store)
targets=("${all_targets[@]}")
[[ -n "$only" ]] && targets=("$only")
# The deep run's target: HEAD's hash (its first 8 hex digits) modulo the number of targets.
deep=""
if [[ "$deep_seconds" -gt 0 ]]; then
  head=$(git rev-parse --short=8 HEAD 2>/dev/null || echo 0)
  deep_index=$(( 16#$head % ${#targets[@]} ))
  deep=${targets[$deep_index]}
fi
generator=()  # Ninja for a fresh folder: the same relative paths as the other builds (ccache)
if [ ! -f "$build/CMakeCache.txt" ] && command -v ninja >/dev/null 2>&1; then generator=(-G Ninja); fi
cmake -S . -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ -DDPLAB_FUZZ=ON \
  -DDPLAB_GUI=OFF -DDPLAB_BUILD_TESTS=OFF "${launcher[@]}" >/dev/null
# The build's own output is kept in a log and shown only when the build fails, so a harness
# that no longer links says why instead of ending the script silently.
if ! cmake --build "$build" -j"$(nproc)" --target "${targets[@]/#/fuzz_}" >"$build/build.log" 2>&1; then
  echo "fuzz.sh: building the harnesses failed; the errors:" >&2
  grep -E 'error|undefined reference' "$build/build.log" | head -20 >&2
  echo "fuzz.sh: whole log: $build/build.log" >&2
  exit 1
fi

export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
mkdir -p "$build/findings"

# One run of target $1 for $2 seconds; its exit status in $build/fuzz_$1.rc, its output in
# $build/fuzz_$1.log.
run_target() {
  local t=$1 secs=$2 corpus="$build/corpus/$1" extra=()
  mkdir -p "$corpus"
  case "$t" in
    loader_budget|store) extra=(-max_len=65536) ;;
    preset_json) extra=(-max_len=16384 resources/presets) ;;
    search_plan) extra=(-max_len=16384) ;;
  esac
  local rc=0
  "$build/tests/fuzz/fuzz_$t" -max_total_time="$secs" -timeout=60 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$build/findings/$t-" "$corpus" "tests/fuzz/corpus/$t" \
    "${extra[@]}" >"$build/fuzz_$t.log" 2>&1 || rc=$?
  echo "$rc" >"$build/fuzz_$t.rc"
}

# Reports target $1's run ($2 seconds); returns 1 on a finding.
report() {
  local t=$1 secs=$2 log="$build/fuzz_$1.log" rc
  rc=$(cat "$build/fuzz_$t.rc")
  local runs
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
  if [[ $rc -ne 0 ]]; then
    echo "fuzz $t: FINDING after $runs inputs (exit $rc); see $log"
    # Base64: the input itself (libFuzzer prints it for small inputs), so a CI log that outlives
    # its deleted work folder still holds what to reproduce.
    grep -E 'ERROR|SUMMARY|Test unit written|^Base64:' "$log" | head -6 || true
    echo "  reproduce: $build/tests/fuzz/fuzz_$t $build/findings/$t-*"
    return 1
  fi
  echo "fuzz $t: $runs inputs in ${secs} s, no finding"
}

status=0
running=0
for t in "${targets[@]}"; do
  if [[ $running -ge $jobs ]]; then
    wait -n || true
    running=$((running - 1))
  fi
  run_target "$t" "$seconds" &
  running=$((running + 1))
done
wait
for t in "${targets[@]}"; do report "$t" "$seconds" || status=1; done
if [[ -n "$deep" ]]; then
  echo "fuzz deep: $deep (HEAD $head mod ${#targets[@]} = $deep_index), $deep_seconds s more"
  run_target "$deep" "$deep_seconds"
  report "$deep" "$deep_seconds" || status=1
fi
exit $status
