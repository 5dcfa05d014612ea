#!/usr/bin/env bash
# Checks that every C++ file tracked by git matches the repository's .clang-format; prints the
# files that do not and exits 1 if there are any. `--fix` reformats them in place instead.
#   bash scripts/check-format.sh [--fix]
set -euo pipefail
cd "$(dirname "$0")/.."
command -v clang-format >/dev/null || { echo "check-format: clang-format is not installed" >&2; exit 2; }
mapfile -t files < <(git ls-files '*.cpp' '*.h' '*.hpp')
if [ "${1:-}" = --fix ]; then
  clang-format -i "${files[@]}"
  exit 0
fi
bad=()
for f in "${files[@]}"; do
  clang-format --dry-run --Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done
if ((${#bad[@]})); then
  printf 'not clang-formatted (%d of %d files; fix with: bash scripts/check-format.sh --fix):\n' \
    "${#bad[@]}" "${#files[@]}"
  printf '  %s\n' "${bad[@]}"
  exit 1
fi
echo "check-format: all ${#files[@]} files match .clang-format"
