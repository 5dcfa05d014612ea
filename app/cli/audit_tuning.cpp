// dplab-cli audit --config EXPERIMENT --release private --strategy lt|ps|ma (or --release
// private-subsampled): the audit of a tuning release (engine/release/tuning_audit.h). The whole
// private search runs once, as `tune` runs it, with m canaries in every run's training data (ONE
// set for the whole search, each canary in or out of the whole search, decided by --audit-seed
// before anything runs); the released winner's final model alone is scored, and the lower bound
// on the epsilon of the WHOLE procedure (Steinke, Nasr & Jagielski 2023; the f-DP bound beside
// it) is printed beside the procedure's epsilon (tuning::release_cost, the upper bound). Nothing
// printed reveals K, the number of runs the selection drew, or the search's wall time unless
// --show-curator asks for it (experiment::hides_run_count). --out DIR writes
// DIR/tuning_audit.csv. --mu-sweep MU1,MU2,... (Papernot-Steinke, Poisson) audits the search once
// per mu (the expected number of runs: public) and, with --out, draws tuning_audit.png|svg: the
// procedure's epsilon (upper) and the audited epsilon (lower) against mu.
#include <cmath>
#include <filesystem>
#include <iostream>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "cli/audit_output.h"
#include "cli/commands.h"
#include "cli/figure_file.h"
#include "cli/output_files.h"
#include "cli/tune_dataset.h"
#include "cli/tune_release.h"
#include "core/atomic_file.h"
#include "core/csv_table.h"
#include "core/error.h"
#include "data/preset_files.h"
#include "experiment/experiment_config.h"
#include "experiment/run_count_visibility.h"
#include "figures/plot.h"
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
                                              "mu-sweep",
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

// The upper and lower bounds against mu: one figure for a sweep. A search that released nothing
// has no lower bound (no output, no evidence): its mu has an upper point only.
figures::Plot sweep_plot(const experiment::ExperimentConfig& config, const std::vector<double>& mus,
                         const std::vector<release::TuningAuditResult>& results) {
  figures::Plot plot;
  plot.title = "Audit of a tuning release: the procedure's epsilon and what an attack shows";
  plot.subtitle = config.name + ", Papernot-Steinke (Poisson), " +
                  audit::to_string(results.front().mode) + " canaries, released model only";
  plot.x_label = "mu (expected number of runs)";
  plot.y_label = "epsilon";
  plot.log_x = true;
  figures::Series upper, steinke, fdp;
  upper.label = "procedure's epsilon (upper bound)";
  steinke.label = "audited lower bound (Steinke et al.)";
  fdp.label = "audited lower bound (f-DP, Gaussian-shape hypothesis)";
  upper.color = figures::palette(0);
  steinke.color = figures::palette(1);
  fdp.color = figures::palette(2);
  fdp.dash = 4;
  for (figures::Series* s : {&upper, &steinke, &fdp}) s->marker = 3;
  for (std::size_t i = 0; i < mus.size(); ++i) {
    const release::TuningAuditResult& r = results[i];
    if (std::isfinite(r.cost.epsilon)) {
      upper.x.push_back(mus[i]);
      upper.y.push_back(r.cost.epsilon);
    }
    if (!r.released) continue;
    steinke.x.push_back(mus[i]);
    steinke.y.push_back(r.bound.epsilon_lower_bound);
    if (r.bound.fdp) {
      fdp.x.push_back(mus[i]);
      fdp.y.push_back(r.bound.fdp->epsilon_lower_bound);
    }
  }
  for (figures::Series* s : {&upper, &steinke, &fdp})
    if (!s->x.empty()) plot.series.push_back(*s);
  return plot;
}

}  // namespace

// One audited search: its lines on stdout (nothing reveals K) and the curator's line on stderr.
release::TuningAuditResult audit_once(const experiment::ExperimentConfig& config,
                                      const audit::OneRunAuditOptions& options,
                                      const tuning::RunOptions& run_options, bool show_curator) {
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
  return r;
}

// --mu-sweep: the mus, each >= 1, for a Papernot-Steinke search with a Poisson run count only
// (the one whose expected number of runs is mu).
std::vector<double> sweep_mus(const Arguments& args, const experiment::ExperimentConfig& config) {
  const std::optional<std::string> text = args.text("mu-sweep");
  if (!text) return {};
  const bool poisson_ps =
      config.release.selection == experiment::PrivateSelection::kPs &&
      config.release.ps_distribution == experiment::RunCountDistribution::kPoisson &&
      !config.release.linear_scaling;
  if (!poisson_ps) {
    throw UsageError(
        "--mu-sweep: sweeps the mean of a Papernot-Steinke search's Poisson run count: use it "
        "with --strategy ps (or --release private-subsampled) and --ps-distribution poisson");
  }
  if (args.has("ps-mu")) throw UsageError("--mu-sweep replaces --ps-mu: give one of them");
  std::vector<double> mus = parse_number_list("mu-sweep", *text);
  for (double mu : mus) {
    if (!(mu >= 1) || !std::isfinite(mu))
      throw UsageError("--mu-sweep: every mu must be a finite number >= 1, got " + number_text(mu));
  }
  return mus;
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
  const std::vector<double> mus = sweep_mus(args, config);
  const audit::OneRunAuditOptions options = read_audit_options(args, config.seed + 1);
  const std::string out = args.text_or("out", "");
  if (!out.empty()) require_writable_folder(out, "--out");
  const bool show_curator = args.has("show-curator");
  tuning::RunOptions run_options;
  run_options.threads = args.threads();

  std::vector<experiment::ExperimentConfig> configs;
  for (double mu : mus) {
    configs.push_back(config);
    configs.back().release.ps_mu = mu;
  }
  if (configs.empty()) configs.push_back(config);
  std::vector<release::TuningAuditResult> results;
  csv::CsvTable table;
  for (const experiment::ExperimentConfig& c : configs) {
    results.push_back(audit_once(c, options, run_options, show_curator));
    csv::CsvTable one = audit_table(c, results.back(), options.confidence);
    if (table.header.empty()) {
      table = std::move(one);
    } else {
      table.rows.push_back(std::move(one.rows.at(0)));
    }
  }
  if (!out.empty()) {
    const std::string path = (std::filesystem::path(out) / "tuning_audit.csv").string();
    csv::write_csv_file(path, table);
    std::cout << "wrote " << path << "\n";
    if (mus.size() >= 2) {
      const figures::Plot plot = sweep_plot(config, mus, results);
      for (const char* ext : {".png", ".svg"}) {
        const auto figure = std::filesystem::path(out) / (std::string("tuning_audit") + ext);
        write_figure(plot, figure);
        std::cout << "wrote " << figure.string() << "\n";
      }
    }
  }
  return 0;
}

}  // namespace dplab::cli
