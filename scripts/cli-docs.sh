#!/usr/bin/env bash
# Generates dplab's man pages and dplab-cli's bash completion from the programs' own --help, so
# they cannot drift from the code (run by the build; see app/CMakeLists.txt).
#   cli-docs.sh man PROGRAM NAME VERSION "ONE-LINE SUMMARY"  > NAME.1
#   cli-docs.sh bash-completion PROGRAM NAME                 > NAME (bash-completion file)
set -euo pipefail
mode=$1 program=$2 name=$3

# The subcommands listed under "Subcommands:" in CLI11's help (none for the GUI).
subcommands() {
  "$program" --help | awk '/^Subcommands:/ {on = 1; next} on && /^  [a-z]/ {print $1} on && /^$/ {on = 0}'
}
# Every --flag of a help text (CLI11 and QCommandLineParser both indent options by two spaces).
flags_of() {
  "$program" "$@" --help | grep -oE '^  (-[a-zA-Z], ?)?--[a-z0-9-]+' | grep -oE -- '--[a-z0-9-]+' | sort -u
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
    "$program" --help | grep -m1 -i '^usage:' | sed 's/^[Uu]sage: *//' | roff_verbatim
    printf '.SH DESCRIPTION\nThis page is generated from \\fB%s \\-\\-help\\fR' "$name"
    if [ -n "$(subcommands)" ]; then printf ' and each command'"'"'s \\fB\\-\\-help\\fR'; fi
    printf '.\n.SH OPTIONS\n'
    "$program" --help | roff_verbatim
    if [ -n "$(subcommands)" ]; then
      printf '.SH COMMANDS\n'
      for command in $(subcommands); do
        printf '.SS %s\n' "$command"
        "$program" "$command" --help | roff_verbatim
      done
    fi
    printf '.SH FILES\n.TP\n.I /usr/share/dplab/presets/\nexperiment files reproducing the paper'"'"'s figures and tables\n'
    printf '.TP\n.I /usr/share/dplab/datasets/\ndata sets that ship with dplab, with SHA256SUMS\n'
    printf '.SH ENVIRONMENT\n.TP\n.B DPLAB_DATA_DIR\nfolder of the shipped data sets (overrides the installed one)\n'
    printf '.TP\n.B DPLAB_FASHION_MNIST_DIR\nfolder of Fashion-MNIST (default: Debian package dataset-fashion-mnist)\n'
    printf '.SH SEE ALSO\n\\fBdplab\\fR(1), \\fBdplab-cli\\fR(1)\n'
    ;;
  bash-completion)
    function_name="_$(echo "$name" | tr -c 'a-zA-Z0-9\n' _)"
    echo "# bash completion for $name (generated from its --help by scripts/cli-docs.sh)"
    echo "$function_name() {"
    echo '  local cur=${COMP_WORDS[COMP_CWORD]}'
    echo '  if [[ $COMP_CWORD -eq 1 ]]; then'
    echo "    COMPREPLY=(\$(compgen -W \"$(subcommands | tr '\n' ' ')$(flags_of | tr '\n' ' ')\" -- \"\$cur\"))"
    echo '    return'
    echo '  fi'
    echo '  [[ $cur == -* ]] || return 0  # values: fall back to file names (complete -o default)'
    echo '  local flags='
    echo '  case ${COMP_WORDS[1]} in'
    for command in $(subcommands); do
      echo "    $command) flags=\"$(flags_of "$command" | tr '\n' ' ')\" ;;"
    done
    echo '  esac'
    echo '  COMPREPLY=($(compgen -W "$flags" -- "$cur"))'
    echo '}'
    echo "complete -o default -F $function_name $name"
    ;;
  *) echo "usage: $0 man|bash-completion PROGRAM NAME ..." >&2; exit 2 ;;
esac
