#!/usr/bin/env bash
# One hostile 1 MB input per reader of user files (issue #45), each through the command a user
# would give it to: prints a Markdown table of exit status, peak RSS (GNU time's %M), wall time
# and the first line of the message. Every row must exit 1 or 2 (never 0, never "internal
# error", never a timeout: 124) and stay within the memory budget (half of MemAvailable at start,
# printed by train/tune as a note). A measurement for the closing notes, not a CI stage: the
# regression tests of each reader are in tests/ (test_file_reader, test_cli_memory_budget, ...).
#
#   scripts/hostile-inputs.sh build/app/dplab-cli
set -uo pipefail
cli="$(realpath "${1:?usage: hostile-inputs.sh DPLAB_CLI}")"
presets="$(cd "$(dirname "$0")/.." && pwd)/resources/presets"
work="$(mktemp -d "${TMPDIR:-/tmp}/dplab-hostile.XXXXXX")"
trap 'rm -rf "$work"' EXIT
cd "$work"
/usr/bin/python3 - <<'PY'
import os, gzip, struct
MB = 1 << 20
def w(name, data):
    with open(name, 'wb') as f:
        f.write(data)
w('header.csv', b',' * MB + b'\n')                                  # 1 MB header of empty names
w('wide.svm', b'1 16777216:1\n' * (MB // 13))                       # an index that asks d = 2^24
w('bad-utf8.csv', b'a,b,label\n' + b'1,\xe9,0\n' * (MB // 7))
w('images-idx3-ubyte', struct.pack('>IIII', 0x803, 60000, 28000, 28000) + b'\0' * (MB - 16))
w('bomb.csv.gz', gzip.compress(b'0,' * (512 * MB), 9)[:MB])        # truncated bomb: ~1 GB inside
w('corpus.txt', b'x' * MB)                                          # one 1 MB word
w('corpus-latin1.txt', b'the caf\xe9 ' * (MB // 10))
w('deep.json', b'[' * MB)
w('dupkeys.json', b'{' + b'"a":1,' * (MB // 6) + b'"a":2}')
w('bigstr.json', b'{"name": "' + b'A' * MB + b'"}')
os.makedirs('plan', exist_ok=True)
w('plan/plan.json', b'{"jobs": [' + b'{},' * (MB // 3) + b'{}]}')
PY
mkfifo fifo.json
"$cli" tune --config "$presets/quick-demo.json" --plan slurm >/dev/null 2>&1
{ printf '{"shards": "'; head -c 1048576 /dev/urandom | base64 -w0; printf '"}'; } >slurm/slurm.json
t() {
  local name="$1"
  shift
  /usr/bin/time -f "%M %e" -o time.txt timeout 120 "$@" >out.txt 2>err.txt
  local rc=$? rss wall msg
  read -r rss wall < <(tail -1 time.txt)
  msg=$(grep -v '^note:' err.txt | grep -v '^[[:space:]]*$' | head -1 | cut -c1-140)
  printf '| %s | %s | %.1f | %s | %s |\n' "$name" "$rc" "$(echo "$rss / 1024" | bc -l)" "$wall" "$msg"
}
echo "| input (about 1 MB) | exit | peak RSS MB | wall s | message |"
echo "|---|---|---|---|---|"
t "CSV header of 1M empty names" "$cli" train --dataset header.csv --steps 5 --out o
t "LIBSVM index 2^24" "$cli" train --dataset wide.svm --steps 5 --out o
t "CSV with a Latin-1 byte" "$cli" train --dataset bad-utf8.csv --steps 5 --out o
t "IDX claiming 60000x28000x28000" "$cli" train --dataset images-idx3-ubyte --steps 5 --out o
t "gzip bomb (1 MB, ~1 GB inside)" "$cli" train --dataset bomb.csv.gz --steps 5 --out o
t "corpus: one 1 MB word" "$cli" sparse-train --corpus corpus.txt
t "corpus: Latin-1" "$cli" sparse-train --corpus corpus-latin1.txt
t "corpus: a FIFO" "$cli" sparse-train --corpus fifo.json
t "experiment: 1M nested [" "$cli" tune --config deep.json --out o
t "experiment: duplicate keys" "$cli" tune --config dupkeys.json --out o
t "experiment: a 1 MB name" "$cli" tune --config bigstr.json --out o
t "experiment: /dev/zero" "$cli" tune --config /dev/zero --out o
t "train --config: 1M nested [" "$cli" train --config deep.json
t "--feature-bounds: 1M nested [" "$cli" train --dataset header.csv --feature-bounds deep.json --out o
t "plan.json: 349,525 empty jobs" "$cli" run-jobs plan --shard 0 --shards 1
t "slurm.json: a 1.4 MB string" "$cli" slurm-status slurm
t "objpert preset: duplicate keys" "$cli" objpert --compare dupkeys.json
