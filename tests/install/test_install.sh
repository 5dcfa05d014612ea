#!/usr/bin/env bash
# Installs the build into a DESTDIR staging prefix and runs the installed programs from there:
# dplab-cli --version, a short training on the shipped (checksum-verified) Adult data found
# relative to the installed binary, presets by name from an empty folder (tune, slurm,
# oso-protocol, objpert), the generated man page and completion, and (GUI builds) the
# desktop entry and AppStream metainfo validated, dplab --version, and the Python module imported
# from the installed tree.
#   test_install.sh BUILD_DIR WITH_GUI(ON|OFF)
set -euo pipefail
build=$1 with_gui=$2
stage=$(mktemp -d "${TMPDIR:-/tmp}/dplab-stage.XXXXXX")
trap 'rm -rf "$stage"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

DESTDIR="$stage" cmake --install "$build" --prefix /usr >/dev/null
root="$stage/usr"
cli="$root/bin/dplab-cli"
[ -x "$cli" ] || fail "no installed $cli"

"$cli" --version | grep -qE '^dplab-cli [0-9]+\.[0-9]+\.[0-9]+$' || fail "dplab-cli --version"
for f in share/dplab/presets/quick-demo.json share/dplab/lessons/01-clipping-vs-noise.json \
         share/dplab/datasets/SHA256SUMS \
         share/dplab/datasets/adult/adult.data.csv share/man/man1/dplab-cli.1.gz \
         share/doc/dplab/copyright share/doc/dplab/changelog.gz \
         share/bash-completion/completions/dplab-cli; do
  [ -s "$root/$f" ] || fail "missing $f"
done
(cd "$root/share/dplab/datasets" && sha256sum --quiet -c SHA256SUMS) || fail "installed data sets do not match SHA256SUMS"
zgrep -q -- '--sampling-rate' "$root/share/man/man1/dplab-cli.1.gz" || fail "man page lacks account's flags"
bash -n "$root/share/bash-completion/completions/dplab-cli" || fail "completion is not valid bash"

# The installed binary finds the installed data next to it (<bin>/../share/dplab/datasets).
out="$stage/run"
env -u DPLAB_DATA_DIR "$cli" train --dataset adult --model logistic --optimizer dpsgd --steps 20 \
  --eval-every 10 --lot-size 256 --out "$out" >/dev/null 2>"$stage/err" || { cat "$stage/err" >&2; fail "train on adult"; }
grep -q '"examples": 45222' "$out/summary.json" || fail "adult did not load 45,222 rows"
# A damaged installed file is refused (exit 1, the message names the installed file) - which
# also proves the installed copy, not the source tree's, is the one read.
chmod u+w "$root/share/dplab/datasets/adult/adult.test.csv"
echo "tampered" >>"$root/share/dplab/datasets/adult/adult.test.csv"
status=0
env -u DPLAB_DATA_DIR "$cli" train --dataset adult --steps 1 --out "$stage/x" 2>"$stage/err" || status=$?
[ "$status" = 1 ] || fail "a changed data file gave exit status $status, not 1"
grep -q "$root/share/dplab/datasets/adult/adult.test.csv" "$stage/err" ||
  fail "the checksum error does not name the installed file: $(cat "$stage/err")"

# Presets by name (issue #43 item 3), from an empty folder and with no environment pointing at
# them: found in the installed share/dplab/presets next to the installed data.
empty="$stage/empty"
mkdir "$empty"
in_empty() { (cd "$empty" && env -u DPLAB_DATA_DIR -u DPLAB_PRESETS_DIR "$cli" "$@"); }
in_empty tune --config quick-demo --out x >"$stage/out" 2>"$stage/err" ||
  { cat "$stage/err" >&2; fail "tune --config quick-demo from an empty folder"; }
grep -q '"experiment": "quick-demo"' "$empty/x/summary.json" || fail "tune --config quick-demo wrote no summary"
# The new user's path with the installed programs: a private search's model, then predict on a
# CSV of the same columns (the synthetic data's x0..x9 written by the shell) and a figure.
in_empty tune --config quick-demo --release private --strategy ma --out private >/dev/null \
  2>"$stage/err" || { cat "$stage/err" >&2; fail "tune --config quick-demo --release private"; }
[ -s "$empty/private/model/model.npz" ] || fail "the private search wrote no model"
printf 'x1,x2,x3,x4,x5,x6,x7,x8,x9,x10\n0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9,0.5\n' >"$empty/rows.csv"
in_empty predict --model private --dataset rows.csv --out preds.csv 2>"$stage/err" &&
  grep -q '^row,predicted,p_0,p_1,epsilon_label$' "$empty/preds.csv" ||
  { cat "$stage/err" >&2; fail "predict with the private search's model"; }
in_empty plot private --out private/winner.png 2>"$stage/err" ||
  { cat "$stage/err" >&2; fail "plot of the private release"; }
in_empty tune --config quick-demo.json --plan plan >/dev/null 2>"$stage/err" ||
  { cat "$stage/err" >&2; fail "tune --config quick-demo.json --plan"; }
in_empty slurm quick-demo --out slurm-plan >/dev/null 2>"$stage/err" ||
  { cat "$stage/err" >&2; fail "slurm quick-demo"; }
in_empty objpert --compare objpert-vs-dpsgd-synthetic-l --trials 1 --quiet >/dev/null 2>"$stage/err" ||
  { cat "$stage/err" >&2; fail "objpert --compare objpert-vs-dpsgd-synthetic-l"; }
# A name that is no preset: usage error (exit 2) naming the folder and the presets in it.
for command in "tune --config quick-dem" "slurm quick-dem --out y" "oso-protocol --preset quick-dem" \
               "objpert --compare quick-dem"; do
  status=0
  # shellcheck disable=SC2086
  in_empty $command >/dev/null 2>"$stage/err" || status=$?
  [ "$status" = 2 ] || fail "$command: exit status $status, not 2"
  grep -q "$root/share/dplab/presets" "$stage/err" && grep -q 'quick-demo' "$stage/err" ||
    fail "$command: the error does not name the presets folder and its presets: $(cat "$stage/err")"
done

# The completion offers history's subcommands and the words of choice flags.
bash "$(dirname "$0")/test_completion.sh" "$root/share/bash-completion/completions/dplab-cli" >/dev/null ||
  fail "the installed completion"

# The KJV corpus (scripts/make-kjv-corpus.sh) is installed with the data and is sparse-train's
# default from any working directory, found like Adult (issue #24 item 9).
if [ -s "$root/share/dplab/datasets/kjv/kjv.txt" ]; then
  (cd "$stage" && env -u DPLAB_DATA_DIR "$cli" sparse-train --methods nonprivate --vocabulary 50 \
    --dim 8 --train-tokens 400 --test-tokens 200 --epochs 1 --eval-examples 300 --eval-points 2 \
    --out "$stage/sparse" >"$stage/sparse.out" 2>"$stage/err") ||
    { cat "$stage/err" >&2; fail "sparse-train on the installed KJV corpus"; }
  grep -q "corpus $root/share/dplab/datasets/kjv/kjv.txt" "$stage/sparse.out" ||
    fail "sparse-train did not read the installed corpus: $(head -1 "$stage/sparse.out")"
else
  echo "test_install: note: no KJV corpus installed (apt-get install bible-kjv; see cmake/install.cmake)" >&2
fi

if [ "$with_gui" = ON ]; then
  [ -x "$root/bin/dplab" ] || fail "no installed dplab"
  QT_QPA_PLATFORM=offscreen "$root/bin/dplab" --version | grep -q '^dplab ' || fail "dplab --version"
  for f in share/applications/org.dplab.Dplab.desktop share/metainfo/org.dplab.Dplab.metainfo.xml \
           share/icons/hicolor/scalable/apps/org.dplab.Dplab.svg \
           share/icons/hicolor/256x256/apps/org.dplab.Dplab.png share/man/man1/dplab.1.gz; do
    [ -s "$root/$f" ] || fail "missing $f"
  done
  # The GUI's man page lists every option dplab accepts (one list: ui/shell/launcher.h).
  for option in --open --run --screenshot-dir --export-report --quit-when-done --timeout; do
    zgrep -q -- "$option" "$root/share/man/man1/dplab.1.gz" || fail "man dplab lacks $option"
  done
  zgrep -q '^dplab \[options\]' "$root/share/man/man1/dplab.1.gz" ||
    fail "man dplab's synopsis is not 'dplab [options]': $(zgrep -A1 SYNOPSIS "$root/share/man/man1/dplab.1.gz")"
  if command -v desktop-file-validate >/dev/null; then
    desktop-file-validate "$root/share/applications/org.dplab.Dplab.desktop" || fail "desktop-file-validate"
  fi
  if command -v appstreamcli >/dev/null; then
    appstreamcli validate --no-net "$root/share/metainfo/org.dplab.Dplab.metainfo.xml" >/dev/null ||
      fail "appstreamcli validate"
  fi
fi
# The Python module (app/python), when built: Debian's python3 imports it from the installed
# dist-packages, and its numbers are the installed dplab-cli's.
module=$(find "$root/lib/python3/dist-packages" -name 'dplab.*.so' 2>/dev/null | head -1)
if [ -n "$module" ]; then
  installed_eps=$(cd "$stage" && PYTHONPATH="$root/lib/python3/dist-packages" /usr/bin/python3 -c \
    "import dplab; print(repr(dplab.account(noise_multiplier=1.1, sampling_rate=0.01, steps=100, delta=1e-5)['epsilon']))") ||
    fail "python3 -c 'import dplab' from the installed tree"
  cli_eps=$("$cli" account --noise-multiplier 1.1 --sampling-rate 0.01 --steps 100 --delta 1e-5 |
    /usr/bin/python3 -c "import json, sys; print(repr(json.load(sys.stdin)['epsilon']))")
  [ "$installed_eps" = "$cli_eps" ] || fail "installed module eps $installed_eps != dplab-cli's $cli_eps"
fi
echo "installed tree OK: $(cd "$root" && find . -type f | wc -l) files"
