#!/usr/bin/env bash
# Sets up, builds and starts the dplab GUI on the built-in Fashion-MNIST data set.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j"$(nproc)" --target dplab
exec ./build/app/dplab "$@"
