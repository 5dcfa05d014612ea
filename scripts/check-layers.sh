#!/usr/bin/env bash
# No include runs up the house (issue #26, issue #42 "the house"). Three layer orders, each written
# once, bottom to top, folders on one line being one layer:
#   engine/layers.txt          the engine's folders (above them come ui/ and then app/);
#   engine/privacy/layers.txt  the sub-folders of engine/privacy/ (accounting, mechanisms, ...);
#   ui/layers.txt              ui/'s folders (async at the bottom: every ui folder may include it).
# Fails, naming the file, the line and the include, when
#   - an engine file includes a folder of a higher layer, or ui/ or app/ code (app/cli, app/gui,
#     app/python: the three doors);
#   - a file of engine/privacy/X/ includes privacy/Y/ of a higher privacy layer;
#   - a ui/ file includes app/ code (cli/ or python/), or a ui folder of a higher ui layer (an include "F/h.h" is
#     ui's when ui/F/h.h exists, else the engine's: ui/playground and engine/playground share a
#     name); the engine includes Qt;
#   - a folder is missing from its layers file (or a layers file names a folder that does not
#     exist), an engine folder or a ui folder is missing from docs/architecture.md.
# Usage: bash scripts/check-layers.sh   (from anywhere; exit 0 = the house stands)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

declare -A rank
level=0
while IFS= read -r line; do
  line="${line%%#*}"
  [[ -z "${line// /}" ]] && continue
  level=$((level + 1))
  for folder in $line; do rank[$folder]=$level; done
done < engine/layers.txt

failures=0
fail() {
  echo "check-layers: $*" >&2
  failures=$((failures + 1))
}

# Every engine folder has a layer and a line in the architecture page.
for dir in engine/*/; do
  folder="$(basename "$dir")"
  [[ -n "${rank[$folder]:-}" ]] || fail "engine/$folder/ has no layer in engine/layers.txt"
  grep -qE "^  $folder( |$)" docs/architecture.md ||
    fail "engine/$folder/ is not described in docs/architecture.md"
done
for folder in "${!rank[@]}"; do
  [[ -d "engine/$folder" ]] || fail "engine/layers.txt names engine/$folder/, which does not exist"
done

# Project includes are written "folder/file.h" (engine/ and ui/ are include roots; the CLI's are
# "cli/..."). One awk pass over every include line: file:line:text.
ranks="$(for folder in "${!rank[@]}"; do printf '%s=%s ' "$folder" "${rank[$folder]}"; done)"
ui_folders="$(cd ui && ls -d -- */ | tr -d / | tr '\n' ' ')"
problems="$(grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^/"]+/' engine ui \
  --include='*.h' --include='*.cpp' |
  awk -v ranks="$ranks" -v ui_folders="$ui_folders" '
    BEGIN {
      n = split(ranks, pairs, " ")
      for (i = 1; i <= n; i++) { split(pairs[i], kv, "="); rank[kv[1]] = kv[2] }
      n = split(ui_folders, names, " ")
      for (i = 1; i <= n; i++) ui[names[i]] = 1
    }
    {
      first = index($0, ":"); rest = substr($0, first + 1); second = index(rest, ":")
      file = substr($0, 1, first - 1); line = substr(rest, 1, second - 1)
      text = substr(rest, second + 1)
      target = text; sub(/^[^"]*"/, "", target); sub(/\/.*/, "", target)
      split(file, parts, "/")
      if (parts[1] == "engine") {
        own = parts[2]
        if (target in rank) {
          if (rank[target] > rank[own])
            printf "%s:%s includes %s/ (layer %d) from %s/ (layer %d): %s\n", file, line, target,
                   rank[target], own, rank[own], text
        } else if ((target in ui) || target == "cli" || target == "python") {
          printf "%s:%s: the engine includes the GUI, the CLI or the Python module: %s\n", file,
                 line, text
        }
      } else if (parts[1] == "ui" && (target == "cli" || target == "python")) {
        printf "%s:%s: ui/ includes an app (the CLI or the Python module): %s\n", file, line, text
      }
    }')"
if [[ -n "$problems" ]]; then
  while IFS= read -r p; do fail "$p"; done <<<"$problems"
fi

# A layers file of sub-folders: read_layers FILE fills sub_rank (folder -> layer, 1 = bottom).
declare -A sub_rank
read_layers() {
  sub_rank=()
  local line folder level=0
  while IFS= read -r line; do
    line="${line%%#*}"
    [[ -z "${line// /}" ]] && continue
    level=$((level + 1))
    for folder in $line; do sub_rank[$folder]=$level; done
  done <"$1"
}

# check_sub_layers LAYERS DIR PREFIX: every folder of DIR is in LAYERS and back; a file of
# DIR/own/ never includes "PREFIXtarget/..." of a higher layer (PREFIX: "privacy/" for the
# engine's privacy sub-folders, "" for ui/, whose includes resolve against ui/ first).
check_sub_layers() {
  local layers="$1" dir="$2" prefix="$3" folder
  read_layers "$layers"
  for folder in "$dir"/*/; do
    folder="$(basename "$folder")"
    [[ -n "${sub_rank[$folder]:-}" ]] || fail "$dir/$folder/ has no layer in $layers"
  done
  for folder in "${!sub_rank[@]}"; do
    [[ -d "$dir/$folder" ]] || fail "$layers names $dir/$folder/, which does not exist"
  done
  local pairs headers found
  pairs="$(for folder in "${!sub_rank[@]}"; do printf '%s=%s ' "$folder" "${sub_rank[$folder]}"; done)"
  # The project headers that resolve inside DIR, as written in an include (without PREFIX).
  headers="$(cd "$dir" && find . -name '*.h' | sed 's|^\./||' | tr '\n' ' ')"
  found="$(grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"'"$prefix"'[^/"]+/' "$dir" \
    --include='*.h' --include='*.cpp' |
    awk -v ranks="$pairs" -v headers="$headers" -v dir="$dir" -v prefix="$prefix" -v layers="$layers" '
      BEGIN {
        n = split(ranks, kv_pairs, " ")
        for (i = 1; i <= n; i++) { split(kv_pairs[i], kv, "="); rank[kv[1]] = kv[2] }
        n = split(headers, names, " ")
        for (i = 1; i <= n; i++) inside[names[i]] = 1
        depth = split(dir, unused, "/")
      }
      {
        first = index($0, ":"); rest = substr($0, first + 1); second = index(rest, ":")
        file = substr($0, 1, first - 1); line = substr(rest, 1, second - 1)
        text = substr(rest, second + 1)
        path = text; sub(/^[^"]*"/, "", path); sub(/".*/, "", path)
        path = substr(path, length(prefix) + 1)
        if (!(path in inside)) next          # an engine header of the same folder name
        target = path; sub(/\/.*/, "", target)
        split(file, parts, "/"); own = parts[depth + 1]
        if ((target in rank) && (own in rank) && rank[target] > rank[own])
          printf "%s:%s includes %s/ (layer %d) from %s/ (layer %d of %s): %s\n", file, line,
                 target, rank[target], own, rank[own], layers, text
      }')"
  if [[ -n "$found" ]]; then
    while IFS= read -r p; do fail "$p"; done <<<"$found"
  fi
}

check_sub_layers engine/privacy/layers.txt engine/privacy "privacy/"
check_sub_layers ui/layers.txt ui ""
for folder in "${!sub_rank[@]}"; do
  grep -q "ui/$folder/" docs/architecture.md ||
    fail "ui/$folder/ is not described in docs/architecture.md"
done

# The engine is plain C++: no Qt.
if grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*<(Q[A-Za-z]+|qcustomplot\.h)' engine \
  --include='*.h' --include='*.cpp' >/tmp/check-layers-qt.$$ 2>/dev/null; then
  while IFS= read -r hit; do fail "the engine includes Qt: $hit"; done </tmp/check-layers-qt.$$
fi
rm -f /tmp/check-layers-qt.$$

# ---- One reader of input files (issue #45 item 4) -------------------------------------------
# Every input file is read by engine/data/file_reader.* (regular files only, a size cap, the
# memory budget before allocating, UTF-8 for text with names). A raw std::ifstream or fopen() in
# engine/, ui/ or app/ bypasses those rules (a FIFO blocked for ever, /dev/zero grew to 8 GB), so
# each is a failure unless its file is allowed below, with the reason.
declare -A raw_read_allowed=(
  # The reader itself.
  [engine/data/file_reader.cpp]="the one reader"
  # Streams a shipped data file in 64 KiB blocks (constant memory) to check its SHA-256; its one
  # caller (data/shipped_datasets.cpp) calls require_regular_file first.
  [engine/core/sha256.cpp]="constant-memory hash of a file checked by the reader's rule"
  # Kernel pseudo-files (/proc/meminfo, /proc/PID/stat): not user input, and stat() says 0 bytes,
  # so the size-checked reader would read nothing.
  [engine/core/memory_check.cpp]="/proc/meminfo"
  [engine/store/writer_identity.cpp]="/proc/PID/stat"
)
while IFS= read -r hit; do
  [[ -z "$hit" ]] && continue
  file="${hit%%:*}"
  [[ -n "${raw_read_allowed[$file]:-}" ]] && continue
  fail "$hit: reads a file outside the one reader (use data::read_file_text / read_json_file of" \
    "engine/data/file_reader.h, or allow the file in scripts/check-layers.sh with the reason)"
done < <(grep -rnE '(std::)?\bifstream\b|\bfopen[[:space:]]*\(' engine ui app \
  --include='*.h' --include='*.cpp' | grep -vE '^[^:]+:[0-9]+:[[:space:]]*//' || true)
# Qt's own file reading in ui/ and app/ (QFile opened for reading) bypasses the same rules; only
# the presets compiled into the program (":/...", Qt resources, not user files) may use it.
while IFS= read -r hit; do
  file="${hit%%:*}"
  [[ "$file" == ui/form/resource_or_file.cpp ]] && continue  # ":/" resources; users' files: the reader
  fail "$hit: reads a file with QFile outside the one reader (use data::read_file_text of" \
    "engine/data/file_reader.h)"
done < <(grep -rnE 'QIODevice::(ReadOnly|ReadWrite)' ui app --include='*.h' --include='*.cpp' \
  | grep -vE '^[^:]+:[0-9]+:[[:space:]]*//' || true)
# ---- end of the one-reader check ------------------------------------------------------------

if ((failures > 0)); then
  echo "check-layers: $failures problem(s); the layer orders are engine/layers.txt," \
    "engine/privacy/layers.txt and ui/layers.txt" >&2
  exit 1
fi
echo "check-layers: no include runs up the house ($level engine layers, engine/privacy's" \
  "sub-folders in order, then ui/'s folders in order (ui/layers.txt), then app/)"
