#!/usr/bin/env bash
# Builds test suites under a sanitizer CMake preset (its own build folder) and runs them; any
# sanitizer report fails the test that triggered it.
#   asan  AddressSanitizer + UndefinedBehaviorSanitizer (build-asan/): the engine and CLI suites
#         (DPLAB_GUI=OFF, so no GUI suite). LeakSanitizer suppressions: scripts/lsan.supp.
#   tsan  ThreadSanitizer (build-tsan/, -fsanitize=thread -O1 -g1): the threaded engine and UI
#         suites named by DPLAB_TEST_ONLY in the preset — the tuning runner and the OSO protocol
#         (engine: their jobs run on oneTBB threads), the async helpers and LatestOnlyTask
#         (ui/async), the run controller and pause/resume, the privacy tab's LatestOnlyTask and
#         the report writer; a data race or lock-order report fails the
#         suite (halt_on_error=1). Qt and oneTBB are not instrumented: scripts/tsan.supp lists
#         what is suppressed there and why. The last stage of .ci/run (about 5 min cold on 2
#         cores: a build of about 240 s, the suites about 50 s).
#   scripts/sanitize.sh asan                 # everything
#   scripts/sanitize.sh asan -R store        # only the tests matching a ctest regex
#   scripts/sanitize.sh tsan -R test_async_helpers
# DPLAB_JOBS: parallel build and test jobs (default: all cores; TSan runs its suites one at a time).
# scripts/asan-tests.sh and scripts/tsan.sh are this script with the preset filled in.
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${1:-}"
case "$preset" in
  asan | tsan) shift ;;
  *)
    echo "usage: scripts/sanitize.sh asan|tsan [ctest arguments...]" >&2
    exit 2
    ;;
esac
if command -v ccache >/dev/null 2>&1; then
  export CCACHE_BASEDIR="$PWD"
  extra=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
else
  extra=()
fi
jobs="${DPLAB_JOBS:-$(nproc)}"
if [[ "$preset" == tsan ]]; then
  targets=(--target dplab_engine_tests dplab_ui_tests)
  run=(-j1 -L '^(engine|ui)$')
else
  targets=()
  run=(-j"$jobs")
fi
cmake --preset "$preset" "${extra[@]}" >/dev/null
cmake --build --preset "$preset" -j"$jobs" "${targets[@]}"
ctest --preset "$preset" "${run[@]}" "$@"
