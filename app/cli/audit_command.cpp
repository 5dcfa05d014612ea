// dplab-cli audit: "how private is it really?" — the one-run audit (engine/audit/one_run_audit.h;
// Steinke, Nasr & Jagielski 2023). The run that `train`'s flags (or --config RUN.json) describe is
// trained ONCE with m canaries, each included with probability 1/2; membership guesses from the
// canary scores give a statistically valid LOWER bound on epsilon, printed beside the
// accountants' UPPER bounds (RDP and PLD) and beside the same run without privacy (sigma = 0, no
// clipping), whose bound is the attack's power on this data. Beside each Steinke bound the f-DP
// bound on the same guesses (Mahloujifar, Melis & Chaudhuri 2025: valid under the Gaussian
// trade-off shape, audit/fdp_one_run_bound.h), and beside every final-model audit the
// last-iterate prediction computed before the run (Steinke et al. 2025: a heuristic, not a bound,
// audit/last_iterate_heuristic.h). --out DIR writes DIR/audit.csv.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <optional>
#include <sstream>

#include "audit/fdp_one_run_bound.h"
#include "audit/gaussian_fit_estimate.h"
#include "audit/last_iterate_heuristic.h"
#include "audit/one_run_audit.h"
#include "audit/privacy_gap_sweep.h"
#include "cli/arguments.h"
#include "cli/audit_output.h"
#include "cli/command_flags.h"
#include "cli/commands.h"
#include "cli/output_files.h"
#include "cli/progress_line.h"
#include "cli/run_config.h"
#include "core/atomic_file.h"
#include "core/csv_table.h"
#include "core/error.h"
#include "core/validate.h"
#include "data/dataset_catalog.h"
#include "data/prepare_split.h"
#include "privacy/accounting/accountant_choice.h"
#include "privacy/accounting/default_delta.h"

namespace dplab::cli {
namespace {

struct AuditedRun {
  std::string label;  // "private" | "non-private"
  audit::OneRunAuditResult result;
  double epsilon_rdp = std::numeric_limits<double>::infinity();
  double epsilon_pld = std::numeric_limits<double>::infinity();
  // The Gaussian fit to the scores of `result.bound` (Andrew et al. 2024): an estimate, not a
  // bound; none when one side has fewer than 2 canaries.
  std::optional<audit::GaussianFitEstimate> estimate = std::nullopt;
  // The last-iterate heuristic for this run's final model, computed before it was trained (not a
  // bound); +inf without noise.
  double last_iterate_epsilon = std::numeric_limits<double>::infinity();
};

std::optional<audit::GaussianFitEstimate> estimate_of(const audit::OneRunAuditResult& r,
                                                      double delta) {
  const auto in = std::count(r.included.begin(), r.included.end(), true);
  if (in < 2 || static_cast<std::size_t>(in) + 2 > r.included.size()) return std::nullopt;
  return audit::gaussian_fit_estimate(r.scores, r.included, delta);
}

void print_last_iterate(double epsilon) {
  std::cout << "      last-iterate prediction, " << audit::kLastIterateLabel << ": eps ~ "
            << audit_fixed(epsilon) << (std::isinf(epsilon) ? " (no noise)" : "")
            << "  (computed before the run)\n";
}

std::vector<std::string> csv_row(const AuditedRun& run, const char* score,
                                 const audit::AuditBound& b, const RunConfig& config, double sigma,
                                 double confidence, double delta,
                                 const std::optional<audit::GaussianFitEstimate>& estimate,
                                 bool final_model) {
  const auto& r = run.result;
  const auto& f = b.fdp;
  std::vector<std::string> row = {
      run.label, audit::to_string(r.mode),
      r.mode == audit::AuditMode::kWhiteBox ? audit::to_string(r.whitebox_canaries) : "",
      r.mode == audit::AuditMode::kBlackBox ? audit::to_string(r.blackbox_canaries) : "", score};
  for (std::string& cell : bound_csv_cells(b, r.canaries_included, confidence, delta))
    row.push_back(std::move(cell));
  for (std::string cell :
       {number_text(run.epsilon_rdp), number_text(run.epsilon_pld), number_text(sigma),
        number_text(r.sampling_rate), std::to_string(r.queries), config.model, config.optimizer,
        number_text(r.final_validation_accuracy), number_text(r.wall_seconds),
        estimate ? (std::isinf(estimate->epsilon) ? "inf" : number_text(estimate->epsilon)) : "",
        estimate ? (std::isinf(estimate->mu) ? "inf" : number_text(estimate->mu)) : "",
        f ? number_text(f->epsilon_lower_bound) : "", f ? std::to_string(f->guess_set.top_in) : "",
        f ? std::to_string(f->guess_set.bottom_out) : "",
        f ? std::to_string(f->counts.guesses) : "", f ? std::to_string(f->counts.correct) : "",
        f ? number_text(f->ceiling) : "", final_model ? number_text(run.last_iterate_epsilon) : ""})
    row.push_back(std::move(cell));
  return row;
}

int run_audit(const Arguments& args) {
  if (args.has("release")) return run_tuning_audit(args);  // audit_tuning.cpp
  refuse_tuning_audit_flags(args);
  const RunConfig config = parse_run_config(args);
  audit::OneRunAuditOptions options = read_audit_options(args, config.seed + 1);
  const int canaries = options.canaries;
  if (!config.out.empty()) require_writable_folder(config.out, "--out");

  data::DatasetSource source = data::source_for(config.dataset);
  source.format = data::parse_data_format(config.format);
  source.label_column = config.label_column;
  config.apply_data_limits(source);  // --categorical, --delimiter, --na-*, --max-memory
  source.regression = config.model == "linear";
  const data::Dataset all = data::load_dataset(source);
  const auto split = data::prepare_split(all, config.validation_fraction, 0);
  const auto n = split.train.size();
  if (config.lot_size > static_cast<double>(n)) {
    throw UsageError("--lot-size = " + format_number(config.lot_size) +
                     " exceeds the training set size n = " + std::to_string(n));
  }
  const double delta = config.delta > 0 ? config.delta : privacy::default_delta(n);
  options.delta = delta;
  training::TrainingConfig private_config;
  try {
    private_config = config.training_config();
  } catch (const InvalidArgument& e) {
    throw UsageError(e.what());
  }
  const double sigma = config.is_private() ? config.noise_multiplier : 0.0;
  // The non-private twin: same model, optimizer, lots and canaries; sigma = 0, no clipping, the
  // canaries keep the private run's norm C (the sweep's rule, audit/privacy_gap_sweep.h).
  if (std::isfinite(private_config.dp.clip)) options.canary_norm = private_config.dp.clip;
  const audit::NonPrivateTwin twin = audit::non_private_twin(private_config, options);

  // The last-iterate prediction, before any run (q = L / n of the data as loaded; black-box
  // canaries then add up to m rows, so the trained q is a little lower).
  const double last_iterate =
      audit::predicted_last_iterate_epsilon(private_config, static_cast<std::int64_t>(n), delta);

  std::vector<AuditedRun> runs;
  std::cerr << "dplab-cli audit: training with " << canaries << " "
            << audit::to_string(options.mode) << " canaries...\n";
  const bool white = options.mode == audit::AuditMode::kWhiteBox;
  // Both trainings (the private run and its non-private twin) as one progress line with ETA
  // (cli/progress_line.h).
  const double steps_each = static_cast<double>(private_config.steps);
  const double runs_total = config.is_private() ? 2 : 1;
  double runs_done = 0;
  ProgressLine progress("audit", "steps");
  const auto with_progress = [&](audit::OneRunAuditOptions o, const char* which) {
    o.on_step = [&progress, &runs_done, steps_each, runs_total, which](std::int64_t queries) {
      progress.update(runs_done * steps_each + static_cast<double>(queries),
                      runs_total * steps_each, std::string(which) + " run");
    };
    return o;
  };
  if (config.is_private()) {
    AuditedRun run{"private", audit::run_one_run_audit(split, private_config,
                                                       with_progress(options, "private"))};
    runs_done = 1;
    run.last_iterate_epsilon = last_iterate;
    const privacy::SubsampledGaussian mechanism{sigma, run.result.sampling_rate,
                                                run.result.queries};
    run.epsilon_rdp = privacy::run_epsilon(mechanism, 1, delta, privacy::Accountant::kRdp).epsilon;
    run.epsilon_pld = privacy::run_epsilon(mechanism, 1, delta, privacy::Accountant::kPld).epsilon;
    runs.push_back(std::move(run));
  }
  runs.push_back(
      {"non-private",
       audit::run_one_run_audit(split, twin.config, with_progress(twin.options, "non-private"))});
  progress.finish(runs_total * steps_each, runs_total * steps_each, "done");
  for (AuditedRun& run : runs) run.estimate = estimate_of(run.result, delta);

  std::cout << "one-run audit (Steinke, Nasr & Jagielski 2023; f-DP bound: Mahloujifar, Melis & "
               "Chaudhuri 2025): "
            << config.model << ", " << config.optimizer << ", sigma " << sigma << ", q "
            << runs.front().result.sampling_rate << ", " << runs.front().result.queries
            << " steps, delta " << delta << ", confidence " << options.confidence << ", best of "
            << runs.front().result.bound.sets_tried << " pre-declared (k+, k-) sets (Bonferroni)\n";
  if (white) {
    std::cout << (options.whitebox_canaries == audit::WhiteBoxCanaries::kReservedCoordinates
                      ? "white-box canaries: Dirac, one per reserved coordinate the model never "
                        "reads (data gradient exactly 0 there)\n"
                      : "white-box canaries: random unit directions in the model's parameters\n");
  } else {
    std::cout << (options.blackbox_canaries == audit::BlackBoxCanaries::kCrafted
                      ? "black-box canaries: crafted, the input s e_{d+i} on one of m extra "
                        "features the data never sets (s = " +
                            audit_fixed(audit::crafted_canary_value(), 0) + "), label 0\n"
                      : std::string("black-box canaries: mislabelled validation rows\n"));
  }
  csv::CsvTable table;
  table.constant_columns.push_back(
      {"note",
       "one-run audit; epsilon_lower_bound is a LOWER bound at the stated confidence "
       "(statistic of the canaries only); epsilon_rdp / epsilon_pld are the accountants' UPPER "
       "bounds for the private run; fdp_epsilon_lower_bound is a LOWER bound at the same "
       "confidence on the same pre-declared guess sets under the hypothesis that the run's "
       "trade-off curve is Gaussian (f-DP, Mahloujifar et al. 2025); "
       "estimate_epsilon_not_a_bound is an ESTIMATE, not a bound (Gaussian fit to the "
       "canary scores, Andrew et al. 2024); last_iterate_heuristic_epsilon_not_a_bound is the "
       "last-iterate HEURISTIC for the final model (Steinke et al. 2025), computed before the "
       "run, not a bound"});
  table.header = {"run", "mode", "whitebox_canaries", "blackbox_canaries", "score"};
  for (const std::string& column : bound_csv_columns()) table.header.push_back(column);
  for (const char* column :
       {"epsilon_rdp", "epsilon_pld", "noise_multiplier", "sampling_rate", "steps", "model",
        "optimizer", "validation_accuracy", "wall_seconds", "estimate_epsilon_not_a_bound",
        "estimate_mu", "fdp_epsilon_lower_bound", "fdp_k_plus", "fdp_k_minus", "fdp_guesses",
        "fdp_correct", "fdp_ceiling", "last_iterate_heuristic_epsilon_not_a_bound"})
    table.header.push_back(column);
  for (const AuditedRun& run : runs) {
    const auto& r = run.result;
    std::cout << run.label << " run (" << audit_fixed(r.wall_seconds, 1)
              << " s, validation accuracy " << audit_fixed(r.final_validation_accuracy) << ", "
              << r.canaries_included << " of " << canaries << " canaries included"
              << (r.diverged ? ", DIVERGED: scores of a diverged run" : "") << ")\n";
    if (run.label == "private") {
      std::cout << "    accountant upper bound: eps <= " << audit_fixed(run.epsilon_rdp)
                << " (rdp), " << audit_fixed(run.epsilon_pld) << " (pld)\n";
    } else {
      std::cout << "    accountant upper bound: none (not private): its audit is the attack's "
                   "power on this data\n";
    }
    print_audit_bound(
        white ? "audited lower bound, all iterates" : "audited lower bound, final model", r.bound);
    if (!white) print_last_iterate(run.last_iterate_epsilon);
    if (run.estimate) {
      std::cout << "    Gaussian-fit estimate (estimate, not a bound): eps ~ "
                << audit_fixed(run.estimate->epsilon) << "  (mu " << audit_fixed(run.estimate->mu)
                << ", Andrew et al. 2024; same scores)\n";
    }
    table.rows.push_back(csv_row(run, white ? "all_iterates" : "final_model_loss", r.bound, config,
                                 run.label == "private" ? sigma : 0.0, options.confidence, delta,
                                 run.estimate, !white));
    if (r.final_model_bound) {
      print_audit_bound("audited lower bound, final model only", *r.final_model_bound);
      print_last_iterate(run.last_iterate_epsilon);
      table.rows.push_back(csv_row(run, "final_model", *r.final_model_bound, config,
                                   run.label == "private" ? sigma : 0.0, options.confidence, delta,
                                   std::nullopt, true));
    }
  }
  if (!config.out.empty()) {
    require_writable_folder(config.out, "--out");  // checked before the audit too
    const std::string path = (std::filesystem::path(config.out) / "audit.csv").string();
    csv::write_csv_file(path, table);
    std::cout << "wrote " << path << "\n";
  }
  return 0;
}

}  // namespace

void add_audit_command(CLI::App& cli) {
  auto args = std::make_shared<Arguments>();
  on_run(*add_audit_flags(cli, *args), [args] { return run_audit(*args); });
}

}  // namespace dplab::cli
