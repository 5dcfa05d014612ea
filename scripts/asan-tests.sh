#!/usr/bin/env bash
# Builds the engine and CLI test suites with AddressSanitizer + UndefinedBehaviorSanitizer
# (CMake preset "asan", folder build-asan/) and runs them; any sanitizer report fails the test
# that triggered it. GUI suites are not included (DPLAB_GUI=OFF).
#   scripts/asan-tests.sh            # everything
#   scripts/asan-tests.sh -R store   # only the tests matching a ctest regex
set -euo pipefail
cd "$(dirname "$0")/.."
if command -v ccache >/dev/null 2>&1; then
  export CCACHE_BASEDIR="$PWD"
  extra=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
else
  extra=()
fi
cmake --preset asan "${extra[@]}" >/dev/null
cmake --build --preset asan -j"$(nproc)"
ctest --preset asan -j"$(nproc)" "$@"
