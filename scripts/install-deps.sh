#!/usr/bin/env bash
# Installs dplab's build and run dependencies from Debian 12 packages (run as root).
#   scripts/install-deps.sh          # build, run and test
#   scripts/install-deps.sh --fuzz   # also clang's libFuzzer for scripts/fuzz.sh (CI runs it)
set -euo pipefail
packages=(
  cmake g++ make ninja-build pkg-config
  qt6-base-dev qt6-svg-dev libqcustomplot-dev libqcustomplot2.1-qt6 libgl-dev
  libeigen3-dev libtbb-dev nlohmann-json3-dev libsqlite3-dev zlib1g-dev libcli11-dev libfftw3-dev
  dataset-fashion-mnist
  bible-kjv-text bible-kjv
  liblbfgspp-dev  # L-BFGS for objective perturbation (header-only, on Eigen)
  libzip-dev  # model.npz (engine/data/npz_file)
  libonnx-dev libprotobuf-dev  # model.onnx through ONNX's protobuf classes (engine/release/onnx_model)
  libcairo2-dev fonts-dejavu-core  # figures as PNG, SVG and PDF (engine/figures/cairo_canvas), sans-serif text
  # checks run by the tests and CI: installed desktop entry / metainfo, formatting, ccache
  desktop-file-utils appstream clang-format ccache
  # the release files opened as users open them (tests/support/check_release_files.py)
  python3-pandas python3-jsonschema
  # the Python module `import dplab` (app/python) and its tests
  python3-dev python3-numpy pybind11-dev python3-pybind11
  python3-onnx  # model.onnx checked with onnx.checker and shape inference (tests/support/check_onnx_files.py)
)
if [[ "${1:-}" == "--fuzz" ]]; then
  packages+=(clang libclang-rt-14-dev)  # libFuzzer + ASan/UBSan runtimes (tests/fuzz)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
