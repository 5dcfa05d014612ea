#!/usr/bin/env bash
# Builds the threaded engine and UI suites with ThreadSanitizer (CMake preset "tsan", folder
# build-tsan/, -fsanitize=thread -O1 -g) and runs them; any data race or lock-order report fails
# the suite that triggered it (halt_on_error=1). Which suites: DPLAB_TEST_ONLY in the preset — the
# tuning runner (engine), the async helpers and LatestOnlyTask (ui/async), the run controller and
# pause/resume, the privacy tab's LatestOnlyTask and the report writer. Qt and oneTBB are not
# instrumented; scripts/tsan.supp lists what is suppressed there and why.
#   scripts/tsan.sh                       # build and run the preset's suites
#   scripts/tsan.sh -R test_async_helpers # only the tests matching a ctest regex
# Not part of .ci/run: a cold TSan build of the engine, the UI library and two runners takes
# longer than CI's budget allows on 2 cores (measured numbers: docs/guide or the issue #26 note).
set -euo pipefail
cd "$(dirname "$0")/.."
if command -v ccache >/dev/null 2>&1; then
  export CCACHE_BASEDIR="$PWD"
  extra=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
else
  extra=()
fi
jobs="${DPLAB_JOBS:-$(nproc)}"
cmake --preset tsan "${extra[@]}" >/dev/null
cmake --build --preset tsan -j"$jobs" --target dplab_engine_tests dplab_ui_tests
ctest --preset tsan -j1 -L '^(engine|ui)$' "$@"
