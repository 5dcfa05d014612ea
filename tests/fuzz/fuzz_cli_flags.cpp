// libFuzzer harness: the command line of every dplab-cli command. The input is split at NUL bytes
// into at most 40 arguments after "dplab-cli", so its first word names the command (the seed
// corpus has one input per command; "history show" is two words). The whole command tree is
// declared as dplab-cli declares it (app/cli/*_flags.cpp, cli/command_flags.h), without the code
// the commands run, so no command trains, reads or writes a file here. After CLI11's parse the
// selected command's flags are read the way the commands read them: the typed accessors over
// every flag given, and the shared flag readers of the commands that have one (train's settings,
// the release flags of tune / slurm / audit, tune's --dataset, the sparse preset of sparse-train
// and canary, the audit options). Each must end in a value or in a CLI11 error, a UsageError or
// a dplab::Error naming the problem: any other exception escapes and is a finding, like a crash
// or a sanitizer report.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "cli/audit_output.h"
#include "cli/command_flags.h"
#include "cli/release_flags.h"
#include "cli/run_config.h"
#include "cli/sparse_options.h"
#include "cli/tune_dataset.h"
#include "core/error.h"
#include "experiment/experiment_config.h"

namespace {

using dplab::cli::Arguments;

// dplab-cli's command tree; each command's flags land in args[its path].
struct CommandTree {
  CLI::App cli{"fuzz", "dplab-cli"};
  std::map<std::string, Arguments> args;
  std::vector<std::string> sbatch_args;

  // Declares the command `only` names (the input's first word), or all of them when it names
  // none: declaring every command's help texts costs ~20x a parse under ASan.
  explicit CommandTree(const std::string& only) {
    using namespace dplab::cli;
    cli.require_subcommand(1);
    const struct {
      const char* name;
      CLI::App* (*add)(CLI::App&, Arguments&);
    } commands[] = {{"train", add_train_flags},
                    {"tune", add_tune_flags},
                    {"account", add_account_flags},
                    {"calibrate", add_calibrate_flags},
                    {"bench", add_bench_flags},
                    {"sparse-train", add_sparse_train_flags},
                    {"canary", add_canary_flags},
                    {"label-canary", add_label_canary_flags},
                    {"audit", add_audit_flags},
                    {"predict", add_predict_flags},
                    {"plot", add_plot_flags},
                    {"leaderboard", add_leaderboard_flags},
                    {"oso-protocol", add_oso_protocol_flags},
                    {"objpert", add_objpert_flags},
                    {"reproduce", add_reproduce_flags},
                    {"run-jobs", add_run_jobs_flags},
                    {"slurm-status", add_slurm_status_flags}};
    bool known = only == "slurm" || only == "history";
    for (const auto& c : commands) known = known || only == c.name;
    for (const auto& c : commands)
      if (!known || only == c.name) c.add(cli, args[c.name]);
    if (!known || only == "slurm") add_slurm_flags(cli, args["slurm"], sbatch_args);
    if (!known || only == "history") {
      CLI::App* history = add_history_group(cli);
      for (const char* name : {"list", "show", "export"})
        add_history_query_flags(*history, name, args[std::string("history ") + name]);
      add_history_merge_flags(*history, args["history merge"]);
    }
  }

  // "train", "history show": the command the parse selected.
  std::string selected() const {
    std::string path;
    for (const CLI::App* app = &cli; !app->get_subcommands().empty();) {
      app = app->get_subcommands().front();
      path += (path.empty() ? "" : " ") + app->get_name();
    }
    return path;
  }
};

// Runs one reader; the errors a bad flag may end in are its answer.
template <typename Read>
void read(Read&& reader) {
  try {
    reader();
  } catch (const dplab::cli::UsageError&) {
  } catch (const dplab::Error&) {
  }
}

void read_flags(const std::string& command, const Arguments& args) {
  using namespace dplab::cli;
  for (const std::string& name : args.given()) {
    read([&] { (void)args.text_or(name, ""); });
    read([&] { (void)args.number_or(name, 0); });
    read([&] { (void)args.integer_or(name, 0); });
    read([&] { (void)args.int_or(name, 0); });
    read([&] { (void)args.seed_or(name, 0); });
    read([&] { (void)parse_number_list(name, args.text_or(name, "")); });
    read([&] { (void)parse_int_list(name, args.text_or(name, "")); });
  }
  read([&] { (void)args.threads(); });
  if (command == "train" || command == "label-canary" || command == "audit")
    read([&] { (void)parse_run_config(args).to_json(); });
  if (command == "tune" || command == "slurm" || command == "audit") {
    read([&] {
      dplab::experiment::ExperimentConfig config;
      if (command == "tune") apply_tune_dataset_flags(args, config);
      apply_release_flags(args, config);
    });
  }
  if (command == "audit") {
    read([&] { (void)read_audit_options(args, 1); });
    read([&] { refuse_tuning_audit_flags(args); });
  }
  if (command == "sparse-train" || command == "canary")
    read([&] { (void)sparse_preset_from(args); });
}

// slurm: the sbatch settings its flags give, checked and written into the script as run_slurm
// does (paths as on a cluster; fuzz_slurm_json checks the script line by line).
void read_slurm_flags(const Arguments& args, const std::vector<std::string>& sbatch_args) {
  read([&] {
    dplab::cluster::SlurmOptions o = dplab::cli::slurm_options_from(args, sbatch_args);
    o.cli_path = "/shared/bin/dplab-cli";
    o.plan_dir = "/shared/plan";
    o.job_name = "fuzz";
    dplab::cluster::check_slurm_options(o);
    (void)dplab::cluster::sbatch_script(o);
  });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> tokens = {"dplab-cli"};
  std::string current;
  for (std::size_t k = 0; k < size && tokens.size() < 41; ++k) {
    if (data[k] == 0) {
      tokens.push_back(current);
      current.clear();
    } else {
      current.push_back(static_cast<char>(data[k]));
    }
  }
  if (tokens.size() < 41) tokens.push_back(current);
  std::vector<char*> argv;
  for (auto& token : tokens) argv.push_back(token.data());

  CommandTree tree(tokens.size() > 1 ? tokens[1] : "");
  try {
    tree.cli.parse(static_cast<int>(argv.size()), argv.data());
  } catch (const CLI::Error&) {
    return 0;
  } catch (const dplab::cli::UsageError&) {
    return 0;
  }
  const std::string command = tree.selected();
  read_flags(command, tree.args[command]);
  if (command == "slurm") read_slurm_flags(tree.args[command], tree.sbatch_args);
  return 0;
}
