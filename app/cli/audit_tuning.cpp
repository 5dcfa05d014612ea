// dplab-cli audit --config EXPERIMENT --release private --strategy lt|ps|ma (or --release
// private-subsampled): the audit of a tuning release (engine/release/tuning_audit.h). The whole
// private search runs once, as `tune` runs it, with m canaries in every run's training data (ONE
// set for the whole search, each canary in or out of the whole search, decided by --audit-seed
// before anything runs); the released winner's final model alone is scored, and the lower bound
// on the epsilon of the WHOLE procedure (Steinke, Nasr & Jagielski 2023; the f-DP bound beside
// it) is printed beside the procedure's epsilon (tuning::release_cost, the upper bound). Nothing
// printed reveals K, the number of runs the selection drew, or the search's wall time unless
// --show-curator asks for it (experiment::hides_run_count). --out DIR writes
// DIR/tuning_audit.csv.
#include <filesystem>
#include <iostream>
#include <set>
#include <string>
#include <vector>

#include "cli/audit_output.h"
#include "cli/commands.h"
#include "cli/output_files.h"
#include "cli/tune_dataset.h"
#include "cli/tune_release.h"
#include "core/atomic_file.h"
#include "core/csv_table.h"
#include "core/error.h"
#include "data/preset_files.h"
#include "experiment/experiment_config.h"
#include "experiment/run_count_visibility.h"
#include "release/tuning_audit.h"

namespace dplab::cli {
namespace {

// The flags of the tuning-release audit; all the others (the run-config flags of the one-run
// audit) are refused with --release.
const std::set<std::string>& tuning_audit_flags() {
  static const std::set<std::string> flags = {"config",
                                              "release",
                                              "strategy",
                                              "tuning-fraction",
                                              "final-data",
                                              "subset-batching",
                                              "lr-transfer",
                                              "lr-transfer-factor",
                                              "validation",
                                              "validation-noise",
                                              "ps-distribution",
                                              "ps-mu",
                                              "ps-eta",
                                              "ps-gamma",
                                              "repeats",
                                              "secure",
                                              "dataset",
                                              "label-column",
                                              "canaries",
                                              "mode",
                                              "whitebox-canaries",
                                              "blackbox-canaries",
                                              "confidence",
                                              "audit-seed",
                                              "out",
                                              "threads",
                                              "max-memory",
                                              "show-curator"};
  return flags;
}

csv::CsvTable audit_table(const experiment::ExperimentConfig& config,
                          const release::TuningAuditResult& r, double confidence) {
  csv::CsvTable table;
  table.constant_columns.push_back(
      {"note",
       "audit of a tuning release: the whole search is the audited mechanism and only the "
       "released winner's final model is scored; epsilon_lower_bound (and "
       "fdp_epsilon_lower_bound, under the Gaussian trade-off shape hypothesis) is a LOWER bound "
       "at the stated confidence; procedure_epsilon is the release's UPPER bound (the epsilon tune "
       "prints for the search)"});
  table.header = {"experiment", "release", "mode", "canary_kind", "score"};
  for (const std::string& column : bound_csv_columns()) table.header.push_back(column);
  for (const char* column : {"fdp_epsilon_lower_bound", "fdp_ceiling", "procedure_epsilon",
                             "epsilon_per_run", "validation_accuracy", "released"})
    table.header.push_back(column);
  const audit::AuditBound& b = r.bound;
  const bool white = r.mode == audit::AuditMode::kWhiteBox;
  std::vector<std::string> row = {
      config.name, experiment::describe_release(config.release), audit::to_string(r.mode),
      white ? "reserved" : audit::to_string(r.blackbox_canaries),
      white ? "released_final_model_reserved_coordinates" : "released_final_model_loss"};
  for (std::string& cell : bound_csv_cells(b, r.canaries_included, confidence, r.cost.delta))
    row.push_back(std::move(cell));
  for (std::string cell : {b.fdp ? number_text(b.fdp->epsilon_lower_bound) : "",
                           b.fdp ? number_text(b.fdp->ceiling) : "", number_text(r.cost.epsilon),
                           number_text(r.cost.epsilon_per_run),
                           r.released ? number_text(r.released_validation_accuracy) : "",
                           std::string(r.released ? "true" : "false")})
    row.push_back(std::move(cell));
  table.rows.push_back(std::move(row));
  return table;
}

}  // namespace

void add_tuning_audit_flags(CLI::App& command, Arguments& args) {
  add_release_flags(command, args);
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
        "ps-eta", "ps-gamma", "repeats", "secure", "threads", "show-curator"}) {
    if (args.has(flag)) {
      throw UsageError(std::string("--") + flag +
                       " belongs to the audit of a tuning release: add --release private (or "
                       "private-subsampled) and --config EXPERIMENT");
    }
  }
}

int run_tuning_audit(const Arguments& args) {
  args.require_only(tuning_audit_flags(), "--release (the audit of a tuning release)");
  experiment::ExperimentConfig config;
  try {
    config =
        experiment::load_experiment_file(data::resolve_preset_path(args.required_text("config")));
  } catch (const ParseError& error) {
    std::cerr << "dplab-cli audit: --config: " << error.what() << "\n";
    return 2;
  } catch (const IoError& error) {
    throw UsageError(std::string("--config: ") + error.what());
  }
  apply_tune_dataset_flags(args, config);
  apply_release_flags(args, config);
  if (config.release.mode != experiment::ReleaseMode::kPrivate) {
    throw UsageError(
        "--release explore: every run of an explore search is released; the audit of a tuning "
        "release audits a private one (--release private --strategy lt|ps|ma, or "
        "private-subsampled)");
  }
  const audit::OneRunAuditOptions options = read_audit_options(args, config.seed + 1);
  const std::string out = args.text_or("out", "");
  if (!out.empty()) require_writable_folder(out, "--out");
  const bool show_curator = args.has("show-curator");
  tuning::RunOptions run_options;
  run_options.threads = args.threads();

  std::cerr << "dplab-cli audit: the search " << config.name << " ("
            << experiment::describe_release(config.release) << ") with " << options.canaries << " "
            << audit::to_string(options.mode) << " canaries...\n";
  release::TuningAuditResult r;
  try {
    r = release::run_tuning_release_audit(config, options, run_options);
  } catch (const InvalidArgument& e) {
    throw UsageError(e.what());
  }
  const bool white = options.mode == audit::AuditMode::kWhiteBox;
  std::cout << "audit of a tuning release (Steinke, Nasr & Jagielski 2023, the whole search as the "
               "mechanism; f-DP bound: Mahloujifar, Melis & Chaudhuri 2025): "
            << config.name << ", " << experiment::describe_release(config.release) << ", "
            << options.canaries << " "
            << (white ? "white-box canaries (Dirac, on reserved coordinates)"
                      : std::string("black-box canaries (") +
                            audit::to_string(options.blackbox_canaries) + ")")
            << ", one set for the whole search (each canary in or out of the whole search), delta "
            << r.cost.delta << ", confidence " << options.confidence << ", best of "
            << r.bound.sets_tried << " pre-declared (k+, k-) sets (Bonferroni)\n";
  std::cout << "scored: " << release::kTuningAuditScores << "\n";
  std::cout << "    procedure's epsilon (upper bound; " << r.cost.covers
            << "): eps <= " << audit_fixed(r.cost.epsilon)
            << "; one run: eps <= " << audit_fixed(r.cost.epsilon_per_run) << "\n";
  if (r.released) {
    std::cout << "released model (validation accuracy "
              << audit_fixed(r.released_validation_accuracy) << ", " << r.canaries_included
              << " of " << r.canaries << " canaries included)\n";
    print_audit_bound("audited lower bound on the procedure, released model", r.bound);
  } else {
    std::cout << "the search released nothing (" << (r.cancelled ? "cancelled" : "no run drawn")
              << "): no output, no evidence; no bound\n";
  }
  if (show_curator || !experiment::hides_run_count(config.release)) {
    std::cerr << "dplab-cli audit: " << (show_curator ? "--show-curator: curator only: " : "")
              << r.runs_trained << " runs trained, " << audit_fixed(r.wall_seconds, 1) << " s\n";
  }
  if (!out.empty()) {
    const std::string path = (std::filesystem::path(out) / "tuning_audit.csv").string();
    csv::write_csv_file(path, audit_table(config, r, options.confidence));
    std::cout << "wrote " << path << "\n";
  }
  return 0;
}

}  // namespace dplab::cli
