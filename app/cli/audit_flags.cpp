// The flags of `dplab-cli audit`, both audits' (audit_command.cpp, audit_tuning.cpp), and how the
// one-run audit's options are read from them.
#include <string>

#include "cli/audit_output.h"
#include "cli/command_flags.h"
#include "cli/release_flags.h"
#include "cli/run_config.h"
#include "core/validate.h"

namespace dplab::cli {

CLI::App* add_audit_flags(CLI::App& cli, Arguments& args) {
  CLI::App* cmd = add_command(
      cli, "audit",
      "how private is it really: one-run audited epsilon lower bound beside the accountant");
  add_run_config_flags(*cmd, args);
  add_audit_option_flags(*cmd, args);
  add_tuning_audit_flags(*cmd, args);
  set_footer(
      *cmd,
      "The lower bound is a statistic of the canaries only. Mislabelled black-box canaries are "
      "drawn from the validation set (>= m rows). With --release private|private-subsampled "
      "and --config EXPERIMENT the whole private search is audited: one canary set for the "
      "whole search, the released winner's final model scored, the bound printed beside the "
      "search's epsilon (the run flags are then refused).");
  add_examples(
      *cmd, {"dplab-cli audit --dataset synthetic-binary --steps 300 --canaries 200 --out audit",
             "dplab-cli audit --config quick-demo --release private --strategy lt --canaries 200"});
  return cmd;
}

void add_audit_option_flags(CLI::App& command, Arguments& args) {
  const audit::OneRunAuditOptions defaults;  // the engine's, which read_audit_options uses
  add_value(command, args, "canaries",
            "canaries m, each included with probability 1/2 (default " +
                std::to_string(defaults.canaries) + ")",
            "M");
  add_value(command, args, "mode",
            "whitebox (gradient canaries, all iterates and final model) or blackbox (labelled "
            "canary examples, -loss on the final model) (default " +
                std::string(audit::to_string(defaults.mode)) + ")",
            "blackbox|whitebox");
  add_value(command, args, "whitebox-canaries",
            "white-box canary directions: reserved (Dirac canaries on coordinates the model never "
            "reads) or random (random unit directions in the model's parameters) (default " +
                std::string(audit::to_string(defaults.whitebox_canaries)) + ")",
            "reserved|random");
  add_value(command, args, "blackbox-canaries",
            "black-box canaries: mislabelled (held-out rows with a wrong label) or crafted "
            "(out-of-domain inputs on extra features the data never sets; logistic and tlnn) "
            "(default " +
                std::string(audit::to_string(defaults.blackbox_canaries)) + ")",
            "mislabelled|crafted");
  add_value(
      command, args, "confidence",
      "confidence 1 - beta of the lower bound (default " + format_number(defaults.confidence) + ")",
      "P");
  add_value(command, args, "audit-seed", "seed of the canaries (default --seed + 1)", "N");
}

audit::OneRunAuditOptions read_audit_options(const Arguments& args, std::uint64_t default_seed) {
  audit::OneRunAuditOptions options;
  const int canaries = args.int_or("canaries", options.canaries);
  if (canaries < 2) throw UsageError("--canaries must be >= 2, got " + std::to_string(canaries));
  options.canaries = canaries;
  try {
    if (auto mode = args.text("mode")) options.mode = audit::parse_audit_mode(*mode);
  } catch (const InvalidArgument& e) {
    throw UsageError(std::string("--mode: ") + e.what());
  }
  try {
    if (auto kind = args.text("whitebox-canaries"))
      options.whitebox_canaries = audit::parse_whitebox_canaries(*kind);
  } catch (const InvalidArgument& e) {
    throw UsageError(std::string("--whitebox-canaries: ") + e.what());
  }
  try {
    if (auto kind = args.text("blackbox-canaries"))
      options.blackbox_canaries = audit::parse_blackbox_canaries(*kind);
  } catch (const InvalidArgument& e) {
    throw UsageError(std::string("--blackbox-canaries: ") + e.what());
  }
  options.confidence = args.number_or("confidence", options.confidence);
  if (!(options.confidence > 0 && options.confidence < 1))
    throw UsageError("--confidence must be strictly between 0 and 1");
  options.seed = args.seed_or("audit-seed", default_seed);
  return options;
}

void add_tuning_audit_flags(CLI::App& command, Arguments& args) {
  add_release_flags(command, args);
  add_value(command, args, "mu-sweep",
            "with --strategy ps (Poisson): audit the search once per mu in this comma list and, "
            "with --out, draw tuning_audit.png|svg (epsilon upper and lower against mu)",
            "MU,...");
  add_value(command, args, "threads", "worker threads of the audited search (default: all cores)",
            "N");
  add_switch(command, args, "show-curator",
             "with --release: also print what only the curator may see (K, the runs the search "
             "drew, and its wall time); without it nothing printed reveals K");
}

void refuse_tuning_audit_flags(const Arguments& args) {
  for (const char* flag :
       {"strategy", "tuning-fraction", "final-data", "subset-batching", "lr-transfer",
        "lr-transfer-factor", "validation", "validation-noise", "ps-distribution", "ps-mu",
        "mu-sweep", "ps-eta", "ps-gamma", "repeats", "secure", "threads", "show-curator"}) {
    if (args.has(flag)) {
      throw UsageError(std::string("--") + flag +
                       " belongs to the audit of a tuning release: add --release private (or "
                       "private-subsampled) and --config EXPERIMENT");
    }
  }
}

}  // namespace dplab::cli
