#!/usr/bin/env bash
# Generates dplab's man pages and dplab-cli's bash completion from the programs' own --help, so
# they cannot drift from the code (run by the build; see app/CMakeLists.txt).
#   cli-docs.sh man PROGRAM NAME VERSION "ONE-LINE SUMMARY"  > NAME.1
#   cli-docs.sh bash-completion PROGRAM NAME                 > NAME (bash-completion file)
set -euo pipefail
mode=$1 program=$2 name=$3

# The program, run under its installed name: a help text that prints argv[0] (Qt's "Usage:")
# then says "dplab", not the build folder's path.
run() { (exec -a "$name" "$program" "$@"); }

# The subcommands listed under "Subcommands:" in CLI11's help of the program or of one of its
# commands (arguments: the command; none for the GUI).
subcommands() {
  run "$@" --help | awk '/^Subcommands:/ {on = 1; next} on && /^  [a-z]/ {print $1} on && /^$/ {on = 0}'
}
# Every --flag of a help text (CLI11 and QCommandLineParser both indent options by two spaces).
flags_of() {
  run "$@" --help | grep -oE '^  (-[a-zA-Z], ?)?--[a-z0-9-]+' | grep -oE -- '--[a-z0-9-]+' | sort -u
}
# The flags whose value is one of a few words, as "--flag word word ...": CLI11 prints the value
# name that the command gives the flag (cli/arguments.h add_value), "a|b|c" for a choice of
# words, next to the flag. Upper-case value names (FILE, NAME|PATH) are not a choice of words.
enum_flags_of() {
  run "$@" --help |
    sed -nE 's/^  (-[a-zA-Z], ?)?(--[a-z0-9-]+) ([a-z0-9_.-]+(\|[a-z0-9_.-]+)+)( .*)?$/\2 \3/p' |
    tr '|' ' '
}
# The commands, each on a line as the words that name it: "train", ..., "history list", ...
command_paths() {
  local command sub
  for command in $(subcommands); do
    echo "$command"
    for sub in $(subcommands "$command"); do echo "$command $sub"; done
  done
}
# Help text as roff: verbatim lines, with backslashes and leading dots/quotes made literal.
roff_verbatim() {
  printf '.nf\n'
  sed -e 's/\\/\\e/g' -e "s/^\([.']\)/\\\\\&\1/"
  printf '.fi\n'
}

case "$mode" in
  man)
    version=$4 summary=$5
    printf '.TH %s 1 "" "%s %s" "User Commands"\n' "$(echo "$name" | tr a-z A-Z)" "$name" "$version"
    printf '.SH NAME\n%s \\- %s\n' "$name" "$summary"
    printf '.SH SYNOPSIS\n'
    run --help | grep -m1 -i '^usage:' | sed 's/^[Uu]sage: *//' | roff_verbatim
    printf '.SH DESCRIPTION\nThis page is generated from \\fB%s \\-\\-help\\fR' "$name"
    if [ -n "$(subcommands)" ]; then printf ' and each command'"'"'s \\fB\\-\\-help\\fR'; fi
    printf '.\n.SH OPTIONS\n'
    run --help | roff_verbatim
    if [ -n "$(subcommands)" ]; then
      printf '.SH COMMANDS\n'
      for command in $(subcommands); do
        printf '.SS %s\n' "$command"
        run "$command" --help | roff_verbatim
      done
    fi
    printf '.SH FILES\n.TP\n.I /usr/share/dplab/presets/\nexperiment files reproducing the paper'"'"'s figures and tables; a command takes one by its name (\\fBtune \\-\\-config quick\\-demo\\fR)\n'
    printf '.TP\n.I /usr/share/dplab/datasets/\ndata sets that ship with dplab, with SHA256SUMS\n'
    printf '.SH ENVIRONMENT\n.TP\n.B DPLAB_DATA_DIR\nfolder of the shipped data sets (overrides the installed one)\n'
    printf '.TP\n.B DPLAB_PRESETS_DIR\nfolder of the presets found by name (overrides the installed one)\n'
    printf '.TP\n.B DPLAB_FASHION_MNIST_DIR\nfolder of Fashion-MNIST (default: Debian package dataset-fashion-mnist)\n'
    printf '.SH SEE ALSO\n\\fBdplab\\fR(1), \\fBdplab-cli\\fR(1)\n'
    ;;
  bash-completion)
    # COMP_WORDS[1] is the command; for a command with subcommands (history), COMP_WORDS[2] is
    # the subcommand. After a flag whose value is a choice of words, those words; after another
    # flag, file names (complete -o default); else the command's flags.
    function_name="_$(echo "$name" | tr -c 'a-zA-Z0-9\n' _)"
    echo "# bash completion for $name (generated from its --help by scripts/cli-docs.sh)"
    echo "$function_name() {"
    echo '  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} command=${COMP_WORDS[1]}'
    echo '  if [[ $COMP_CWORD -eq 1 ]]; then'
    echo "    COMPREPLY=(\$(compgen -W \"$(subcommands | tr '\n' ' ')$(flags_of | tr '\n' ' ')\" -- \"\$cur\"))"
    echo '    return'
    echo '  fi'
    echo '  local subcommands='
    echo '  case $command in'
    for command in $(subcommands); do
      subs=$(subcommands "$command" | tr '\n' ' ')
      [ -n "$subs" ] && echo "    $command) subcommands=\"$subs\" ;;"
    done
    echo '  esac'
    echo '  if [[ -n $subcommands ]]; then'
    echo '    if [[ $COMP_CWORD -eq 2 ]]; then'
    echo '      COMPREPLY=($(compgen -W "$subcommands" -- "$cur"))'
    echo '      return'
    echo '    fi'
    echo '    command="$command ${COMP_WORDS[2]}"'
    echo '  fi'
    echo '  local values='
    echo '  case "$command $prev" in'
    command_paths | while read -r path; do
      # shellcheck disable=SC2086
      enum_flags_of $path | while read -r flag words; do
        echo "    \"$path $flag\") values=\"$words\" ;;"
      done
    done
    echo '  esac'
    echo '  if [[ -n $values ]]; then'
    echo '    COMPREPLY=($(compgen -W "$values" -- "$cur"))'
    echo '    return'
    echo '  fi'
    echo '  [[ $cur == -* ]] || return 0  # values: fall back to file names (complete -o default)'
    echo '  local flags='
    echo '  case $command in'
    command_paths | while read -r path; do
      # shellcheck disable=SC2086
      echo "    \"$path\") flags=\"$(flags_of $path | tr '\n' ' ')\" ;;"
    done
    echo '  esac'
    echo '  COMPREPLY=($(compgen -W "$flags" -- "$cur"))'
    echo '}'
    echo "complete -o default -F $function_name $name"
    ;;
  *) echo "usage: $0 man|bash-completion PROGRAM NAME ..." >&2; exit 2 ;;
esac
