// The flags of `dplab-cli history list|show|export` (read by history_command.cpp; `history merge`
// is cluster_flags.cpp's).
#include <string>

#include "cli/command_flags.h"
#include "core/error.h"

namespace dplab::cli {

CLI::App* add_history_group(CLI::App& cli) {
  CLI::App* history = add_command(
      cli, "history", "list, show, export or merge the runs of a SQLite run history (--db)");
  require_one_subcommand(*history);
  add_examples(*history, {"dplab-cli history list --db runs.sqlite",
                          "dplab-cli history show --db runs.sqlite --id 1"});
  return history;
}

CLI::App* add_history_query_flags(CLI::App& history, const std::string& name, Arguments& args) {
  struct Sub {
    const char* name;
    const char* help;
    const char* example;
  };
  static const Sub kSubs[] = {
      {"list", "experiments in the history, newest first",
       "dplab-cli history list --db runs.sqlite --json"},
      {"show", "one experiment: mechanism, each candidate's result, its stored summary",
       "dplab-cli history show --db runs.sqlite --id 1"},
      {"export", "one experiment's curves and aggregates as CSV (+ summary.json)",
       "dplab-cli history export --db runs.sqlite --id 1 --out export"}};
  for (const Sub& sub : kSubs) {
    if (name != sub.name) continue;
    CLI::App* cmd = add_command(history, sub.name, sub.help);
    add_value(*cmd, args, "db", "the SQLite run history (tune --db, or the GUI's)", "FILE")
        .required();
    if (name != "list")
      add_value(*cmd, args, "id", "experiment id (see 'history list')", "N").required();
    if (name == "export")
      add_value(*cmd, args, "out", "output folder (created)", "DIR").required();
    else
      add_switch(*cmd, args, "json", "print JSON instead of a table");
    add_examples(*cmd, {sub.example});
    return cmd;
  }
  throw InvalidArgument("history: no subcommand '" + name + "' (list, show or export)");
}

}  // namespace dplab::cli
