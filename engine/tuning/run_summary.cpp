#include "tuning/run_summary.h"

#include <cmath>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <sstream>

#include "privacy/accounting/epsilon_display.h"
#include "tuning/accounting.h"

namespace dplab::tuning {

namespace {
nlohmann::json number_or_null(double v) {
  return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json();
}

std::string fixed(double v, int digits) {
  if (!std::isfinite(v)) return "–";
  std::ostringstream s;
  s << std::setprecision(digits) << v;
  return s.str();
}
}  // namespace

nlohmann::json candidate_json(const SearchResults& results, int index) {
  if (index < 0 || index >= static_cast<int>(results.candidates.size())) return nullptr;
  const auto& c = results.candidates[static_cast<std::size_t>(index)];
  nlohmann::json j{{"index", c.index},
                   {"label", c.label()},
                   {"optimizer", optim::to_string(c.optimizer.kind)},
                   {"learning_rate", c.optimizer.learning_rate},
                   {"clip", c.clip}};
  if (c.clipping == models::ClippingMode::kAutomatic) {
    // C above is 1, the sensitivity; each g_i was scaled to g_i / (||g_i|| + clip_stability).
    j["clipping"] = models::to_string(c.clipping);
    j["clip_stability"] = c.clip_stability;
  }
  if (c.optimizer.kind == optim::OptimizerKind::kDpMomentum) j["momentum"] = c.optimizer.momentum;
  if (c.optimizer.kind == optim::OptimizerKind::kDpAdam ||
      c.optimizer.kind == optim::OptimizerKind::kDpAdamWosm ||
      c.optimizer.kind == optim::OptimizerKind::kDpAdamBc) {
    j["beta1"] = c.optimizer.beta1;
    j["beta2"] = c.optimizer.beta2;
    j["adam_epsilon"] = c.optimizer.epsilon;  // DP-AdamBC: its floor gamma'
  }
  return j;
}

nlohmann::json selection_report_json(const SearchResults& results, const SelectionReport& r) {
  nlohmann::json protocol = nlohmann::json::array();
  for (const auto& row : r.protocol) {
    protocol.push_back({{"k", row.k},
                        {"mean", row.mean},
                        {"ci_low", row.ci_low},
                        {"ci_high", row.ci_high},
                        {"trials", row.trials}});
  }
  return {{"optimizer", r.scope},
          {"num_candidates", r.num_candidates},
          {"best_candidate", candidate_json(results, r.best_candidate)},
          {"best_accuracy", number_or_null(r.best_accuracy)},
          {"best_val_mse", number_or_null(r.best_val_mse)},
          {"best_train_loss", number_or_null(r.best_train_loss)},
          {"delta", r.delta},
          {"gamma", r.gamma},
          {"delta2", r.delta2},
          {"epsilon_single_run", number_or_null(r.epsilon_single_run)},
          {"epsilon_ma", number_or_null(r.epsilon_ma)},
          {"epsilon_lt", number_or_null(r.epsilon_lt)},
          {"protocol_5_2", protocol}};
}

RunSummary summarize_run(const SearchResults& results) {
  RunSummary s;
  s.jobs_total = static_cast<int>(results.jobs.size());
  for (const auto& job : results.jobs)
    s.jobs_finished += job.status == JobStatus::kFinished ? 1 : 0;
  s.per_optimizer = honest_selection_per_optimizer(results);
  s.release = release_cost(results);
  return s;
}

nlohmann::json run_summary_json(const SearchResults& results, const RunSummary& summary) {
  const auto& m = results.mechanism;
  nlohmann::json per = nlohmann::json::array();
  for (const auto& r : summary.per_optimizer) per.push_back(selection_report_json(results, r));
  return {{"experiment", results.config.name},
          {"dataset", results.config.dataset.source},
          {"training_size", results.training_size},
          {"task", results.is_regression ? "regression" : "classification"},
          {"score", results.is_regression ? "final validation MSE (lower is better)"
                                          : "final validation accuracy (higher is better)"},
          {"mechanism",
           {{"noise_multiplier", m.noise_multiplier},
            {"sampling_rate", m.sampling_rate},
            {"lot_size", results.config.privacy.lot_size},
            {"steps", m.steps},
            {"delta", m.delta}}},
          {"repeats", results.config.repeats},
          {"jobs_total", summary.jobs_total},
          {"jobs_finished", summary.jobs_finished},
          {"release_mode", experiment::describe_release(summary.release.release)},
          {"epsilon_release", number_or_null(summary.release.epsilon)},
          {"epsilon_release_rounded_up",
           privacy::format_epsilon_up(summary.release.epsilon, privacy::kEpsilonDigits)},
          {"epsilon_release_label", epsilon_label(summary.release, privacy::kEpsilonDigits)},
          {"runs_charged", summary.release.runs_charged},
          {"epsilon_release_note",
           "the epsilon of what this report releases (accountant: rdp, at delta): explore = every "
           "run trained composed with the queries it made (heterogeneous runs compose per RDP "
           "order); private = the selection's cost composed over the R replicate searches, only "
           "each replicate's winner released. per_optimizer epsilon_ma / epsilon_lt are planning "
           "figures."},
          {"per_optimizer", per}};
}

std::string run_summary_markdown(const SearchResults& results, const RunSummary& summary) {
  const auto& m = results.mechanism;
  std::ostringstream s;
  s << "# dplab report: " << results.config.name << "\n\n";
  s << "- data set: `" << results.config.dataset.source << "`, n = " << results.training_size
    << (results.is_regression ? " (regression)" : " (classification)") << "\n";
  s << "- mechanism of every run: sigma = " << fixed(m.noise_multiplier, 4)
    << ", L = " << results.config.privacy.lot_size << ", q = " << fixed(m.sampling_rate, 4)
    << ", T = " << m.steps << ", delta = " << fixed(m.delta, 3) << "\n";
  s << "- jobs: " << summary.jobs_finished << " of " << summary.jobs_total << " finished ("
    << results.config.repeats << " repeat(s) per candidate)\n";
  s << "- what this report releases: " << epsilon_label(summary.release, privacy::kEpsilonDigits)
    << "\n\n";
  s << "| optimizer | K | best candidate | "
    << (results.is_regression ? "final val. MSE" : "final val. accuracy")
    << " | eps one run | plan: eps MA (K) | plan: eps LT (K) |\n|---|---|---|---|---|---|---|\n";
  for (const auto& r : summary.per_optimizer) {
    const nlohmann::json best = candidate_json(results, r.best_candidate);
    s << "| " << r.scope << " | " << r.num_candidates << " | "
      << (best.is_null() ? std::string("–") : best["label"].get<std::string>()) << " | "
      << fixed(results.is_regression ? r.best_val_mse : r.best_accuracy, 4) << " | "
      << privacy::format_epsilon_up(r.epsilon_single_run) << " | "
      << privacy::format_epsilon_up(r.epsilon_ma) << " | "
      << privacy::format_epsilon_up(r.epsilon_lt) << " |\n";
  }
  s << "\n`experiment.json` is the configuration of exactly these results; `summary.json` holds "
       "the "
       "same numbers unrounded; `curves.csv`, `aggregate_curves.csv` and `alpha_clip_grid.csv` the "
       "data behind the charts.\n";
  return s.str();
}

}  // namespace dplab::tuning
