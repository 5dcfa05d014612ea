#!/usr/bin/env bash
# What a package promises (issue #43), checked on the installed tree of a package build (CMake
# preset "package", or any build configured -DDPLAB_NATIVE=OFF -DDPLAB_SOURCE_TREE_DATA=OFF):
# - the installed programs (and the Python module) hold no AVX, AVX2 or AVX-512 instruction
#   (objdump: no ymm / zmm / mask register, no VEX-encoded xmm instruction), so they run on any
#   x86-64 CPU;
# - no installed file (programs, man pages, completion, ...) names the source checkout or the
#   build folder;
# - cpack refuses a native build (cmake/package-check.cmake) - checked by configuring this
#   source tree once more, -DDPLAB_NATIVE=ON, with nothing built;
# - when cpack and dpkg-deb are there, the .deb it makes holds no such path either, and when
#   lintian is installed, it reports no error or warning but the one docs/guide/install.md
#   justifies.
#   test_package.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$(cd "$1" && pwd) source=$(cd "$2" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/dplab-package.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

grep -q '^DPLAB_NATIVE:BOOL=OFF$' "$build/CMakeCache.txt" || fail "$build is not a portable build (DPLAB_NATIVE=ON)"
DESTDIR="$work/stage" cmake --install "$build" --prefix /usr >/dev/null

programs=$(find "$work/stage/usr/bin" "$work/stage/usr/lib" -type f \( -perm -u+x -o -name '*.so' \) 2>/dev/null)
[ -n "$programs" ] || fail "no installed program"
# shellcheck disable=SC2086
bash "$(dirname "$0")/check_portable_code.sh" $programs || fail "installed programs with AVX code"

# No path of this machine's checkout or build folder in what is installed.
no_build_paths() {
  local tree=$1 hits
  hits=$(grep -rlaF -e "$source" -e "$build" "$tree" || true)
  while IFS= read -r -d '' gz; do
    if zcat "$gz" | grep -qaF -e "$source" -e "$build"; then hits+=" $gz"; fi
  done < <(find "$tree" -name '*.gz' -print0)
  [ -z "$hits" ] || fail "build paths ($source, $build) in: $hits"
}
no_build_paths "$work/stage"

# cpack refuses a native build, with a message that names the preset.
cmake -S "$source" -B "$work/native" -G Ninja -DDPLAB_NATIVE=ON -DDPLAB_BUILD_TESTS=OFF \
  -DDPLAB_GUI=OFF >/dev/null
status=0
(cd "$work/native" && cpack -G TGZ) >"$work/refused" 2>&1 || status=$?
[ "$status" != 0 ] || fail "cpack packaged a native build"
grep -q 'DPLAB_NATIVE=ON' "$work/refused" && grep -q 'cmake --preset package' "$work/refused" ||
  fail "cpack's refusal does not say why and what to do: $(cat "$work/refused")"

if command -v dpkg-deb >/dev/null && command -v dpkg-shlibdeps >/dev/null; then
  cpack --config "$build/CPackConfig.cmake" -G DEB -B "$work/deb" >/dev/null
  debs=$(find "$work/deb" -maxdepth 1 -name '*.deb')  # dplab, and python3-dplab when built
  [ -n "$debs" ] || fail "cpack wrote no .deb"
  for deb in $debs; do
    rm -rf "$work/unpacked"
    dpkg-deb -x "$deb" "$work/unpacked"
    no_build_paths "$work/unpacked"
    name=$(dpkg-deb -f "$deb" Package)
    [ -s "$work/unpacked/usr/share/doc/$name/copyright" ] || fail "$name has no copyright file"
  done
  if command -v lintian >/dev/null; then
    # The one tag docs/guide/install.md ("lintian") explains: the default maintainer address
    # (set DPLAB_PACKAGE_MAINTAINER). Any other error or warning fails.
    justified='bogus-mail-host|bogus-mail-host-in-debian-changelog'
    # shellcheck disable=SC2086
    lintian --tag-display-limit 0 $debs >"$work/lintian" 2>&1 || true
    unexplained=$(grep -E '^[EW]: ' "$work/lintian" | grep -vE "^[EW]: [^ ]+: ($justified) " || true)
    [ -z "$unexplained" ] || fail "lintian tags not explained in docs/guide/install.md:
$unexplained"
  else
    echo "test_package: note: lintian not installed, the .deb was not linted" >&2
  fi
fi
echo "package OK: no AVX instructions in $(echo "$programs" | wc -w) programs, no build path"
