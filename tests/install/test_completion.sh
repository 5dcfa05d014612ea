#!/usr/bin/env bash
# dplab-cli's generated bash completion (scripts/cli-docs.sh, from the program's --help), run the
# way bash runs it: `complete -p` names its function, which is called with COMP_WORDS /
# COMP_CWORD as bash sets them. Checked: commands, the subcommands of `history` and their flags,
# a command's flags, the words a choice flag takes (--release, --accountant), and file names
# (no words) after a flag that takes a path.
#   test_completion.sh COMPLETION_FILE
set -uo pipefail
fail() { echo "FAIL: $*" >&2; exit 1; }
# shellcheck source=/dev/null
source "$1" || fail "cannot source $1"
spec=$(complete -p dplab-cli) || fail "no completion registered for dplab-cli"
function_name=$(echo "$spec" | sed -nE 's/.*-F ([^ ]+).*/\1/p')
[ -n "$function_name" ] || fail "no completion function in: $spec"

# The words offered for the command line "$@" (the last word is the one being completed).
offered() {
  COMP_WORDS=("$@")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMPREPLY=()
  "$function_name" dplab-cli "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
  echo "${COMPREPLY[*]}"
}
expect() {  # expect "WORDS" COMMAND-LINE...: exactly these words are offered
  local want=$1 got
  shift
  got=$(offered "$@")
  [ "$got" = "$want" ] || fail "'$*': offered '$got', expected '$want'"
}
expect_has() {  # expect_has WORD COMMAND-LINE...: WORD is among the words offered
  local want=$1 got
  shift
  got=" $(offered "$@") "
  [[ $got == *" $want "* ]] || fail "'$*': '$want' not among '$got'"
}

expect_has history dplab-cli ''
expect_has tune dplab-cli t
expect "list show export merge" dplab-cli history ''
expect "merge" dplab-cli history m
expect_has --id dplab-cli history show --
expect_has --json dplab-cli history list --j
expect_has --db dplab-cli history merge plan-folder --
expect_has --release dplab-cli tune --config quick-demo --
expect "explore private private-subsampled private-linear-scaling" dplab-cli tune --release ''
expect "private private-subsampled private-linear-scaling" dplab-cli tune --config quick-demo --release pri
expect "rdp pld" dplab-cli account --accountant ''
expect "pld" dplab-cli train --accountant p
expect "" dplab-cli tune --config ''
echo "completion OK"
