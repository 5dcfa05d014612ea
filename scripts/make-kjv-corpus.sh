#!/usr/bin/env bash
# Writes the King James Bible as plain text, one verse per line without its reference, for the
# sparse-DP word2vec experiment (dplab-cli sparse-train / canary). Source: Debian's
# bible-kjv-text (public domain text, compressed), read with the `bible` program of bible-kjv
# (both installed by scripts/install-deps.sh).
# Usage: scripts/make-kjv-corpus.sh [OUTPUT]   (default: datasets/kjv/kjv.txt)
set -euo pipefail
out="${1:-$(dirname "$0")/../datasets/kjv/kjv.txt}"
command -v bible >/dev/null || { echo "make-kjv-corpus: the 'bible' program is missing (apt-get install bible-kjv)" >&2; exit 1; }
mkdir -p "$(dirname "$out")"
# -f turns pretty-printing off: one verse per line, prefixed by its reference ("Ge1:1 ").
bible -f 'gen1:1-rev22:21' </dev/null | sed -E 's/^[1-9]?[A-Za-z]+[0-9]+:[0-9]+ //' > "$out.tmp"
lines=$(wc -l < "$out.tmp")
[ "$lines" -eq 31102 ] || { echo "make-kjv-corpus: expected 31102 verses, got $lines" >&2; rm -f "$out.tmp"; exit 1; }
mv "$out.tmp" "$out"
echo "wrote $out ($lines verses)"
