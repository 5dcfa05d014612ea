#!/usr/bin/env bash
# Builds the libFuzzer harnesses (tests/fuzz, clang + ASan + UBSan) and runs each one on its seed
# corpus for a fixed time budget. Any finding (crash, sanitizer report, leak, timeout, OOM) makes
# the script exit 1; the input is saved under build-fuzz/findings/ and the command to reproduce
# it is printed.
#
#   scripts/fuzz.sh                 # CI: 30 s per target, 8 targets (4 min of fuzzing)
#   scripts/fuzz.sh --seconds 3600  # long run: an hour per target
#   scripts/fuzz.sh --only csv      # one target (idx, gzip, csv, libsvm, experiment_json,
#                                   # loader_budget, preset_json, cli_flags)
#
# loader_budget runs with inputs up to 64 KB that stand for files up to 64 MB and a 32 MB memory
# budget (the other loader harnesses: 4 KB inputs, 4 MB budget); it fails when a loader's peak
# memory outgrows the budget. preset_json also starts from the shipped resources/presets/.
#
# The grown corpus is kept in build-fuzz/corpus/<target>/ so later runs start where earlier
# ones stopped; the seed corpus in tests/fuzz/corpus/ is never modified.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=30
only=""
build=build-fuzz
while [[ $# -gt 0 ]]; do
  case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    --only) only="$2"; shift 2 ;;
    --build-dir) build="$2"; shift 2 ;;
    -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
    *) echo "fuzz.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
command -v clang++ >/dev/null || { echo "fuzz.sh: clang++ is needed (apt-get install clang)" >&2; exit 2; }
launcher=()
if command -v ccache >/dev/null 2>&1; then
  export CCACHE_BASEDIR="$PWD"
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
targets=(idx gzip csv libsvm experiment_json loader_budget preset_json cli_flags)
[[ -n "$only" ]] && targets=("$only")
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
status=0
for t in "${targets[@]}"; do
  corpus="$build/corpus/$t"
  mkdir -p "$corpus"
  log="$build/fuzz_$t.log"
  extra=()
  case "$t" in
    loader_budget) extra=(-max_len=65536) ;;
    preset_json) extra=(-max_len=16384 resources/presets) ;;
  esac
  set +e
  "$build/tests/fuzz/fuzz_$t" -max_total_time="$seconds" -timeout=60 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$build/findings/$t-" "$corpus" "tests/fuzz/corpus/$t" \
    "${extra[@]}" >"$log" 2>&1
  rc=$?
  set -e
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
  if [[ $rc -ne 0 ]]; then
    status=1
    echo "fuzz $t: FINDING after $runs inputs (exit $rc); see $log"
    # Base64: the input itself (libFuzzer prints it for small inputs), so a CI log that outlives
    # its deleted work folder still holds what to reproduce.
    grep -E 'ERROR|SUMMARY|Test unit written|^Base64:' "$log" | head -6 || true
    echo "  reproduce: $build/tests/fuzz/fuzz_$t $build/findings/$t-*"
  else
    echo "fuzz $t: $runs inputs in ${seconds} s, no finding"
  fi
done
exit $status
