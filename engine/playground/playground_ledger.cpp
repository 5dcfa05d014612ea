#include "playground/playground_ledger.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <sstream>

#include "playground/playground_state.h"
#include "privacy/accounting/epsilon_display.h"
#include "tuning/release_cost.h"

namespace dplab::playground {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// The data set a ledger line was trained on (the ledger keeps lines of earlier data sets, whose
// cost is theirs): "gaussians n=400", then what differs from a clean set.
std::string data_summary(const DataOptions& d) {
  std::ostringstream out;
  out << to_string(d.shape) << " n=" << d.num_points;
  if (d.label_noise > 0) out << " noise=" << d.label_noise;
  if (d.minority_fraction > 0) out << " minority=" << d.minority_fraction;
  if (d.outlier) out << " +outlier";
  out << " (data seed " << d.seed << ")";
  return out.str();
}

std::string summary_of(const PlaygroundSettings& s) {
  const TrainingOptions& t = s.training;
  char text[200];
  std::string model = "logistic";
  if (!s.model.hidden.empty()) {
    model = to_string(s.model.activation);
    for (int units : s.model.hidden) model.append(" ").append(std::to_string(units));
  }
  if (t.is_private) {
    // Automatic clipping runs at C = 1 whatever the knob says (run_identity drops it).
    const std::string clip =
        t.automatic_clipping ? std::string("auto") : (std::ostringstream() << t.clip).str();
    std::snprintf(text, sizeof text, "%s sigma=%g C=%s L=%g T=%lld alpha=%g, %s, seed %llu",
                  to_string(t.optimizer).c_str(), t.noise_multiplier, clip.c_str(), t.lot_size,
                  static_cast<long long>(t.steps), t.learning_rate, model.c_str(),
                  static_cast<unsigned long long>(t.seed));
  } else {
    std::snprintf(text, sizeof text, "%s non-private L=%g T=%lld alpha=%g, %s, seed %llu",
                  to_string(t.optimizer).c_str(), t.lot_size, static_cast<long long>(t.steps),
                  t.learning_rate, model.c_str(), static_cast<unsigned long long>(t.seed));
  }
  return std::string(text) + "; on " + data_summary(s.data);
}

// tuning::release_cost of a private search of k candidates of one mechanism.
double selection_cost(experiment::PrivateSelection selection,
                      const privacy::SubsampledGaussian& run, int k, double delta,
                      Index train_size) {
  tuning::SearchResults plan;
  plan.config.release.mode = experiment::ReleaseMode::kPrivate;
  plan.config.release.selection = selection;
  plan.config.release.ps_mu = std::max(1, k);
  plan.candidates.resize(static_cast<std::size_t>(k));
  plan.training_size = train_size;
  plan.mechanism = {run.noise_multiplier, run.sampling_rate, run.steps, delta};
  return tuning::release_cost(plan).epsilon;
}

}  // namespace

void PlaygroundLedger::record(const PlaygroundSettings& settings, Index train_size) {
  const std::string id = run_identity(settings);
  for (const auto& e : entries_) {
    if (e.identity == id) return;
  }
  entries_.push_back({id, data_identity(settings.data), summary_of(settings),
                      mechanism_of(settings.training, train_size), 0.0});
}

void PlaygroundLedger::note_accuracy(const PlaygroundSettings& settings, double test_accuracy) {
  const std::string id = run_identity(settings);
  for (auto& e : entries_) {
    if (e.identity == id) e.best_test_accuracy = std::max(e.best_test_accuracy, test_accuracy);
  }
}

int PlaygroundLedger::count_on(const DataOptions& data) const {
  const std::string id = data_identity(data);
  return static_cast<int>(
      std::count_if(entries_.begin(), entries_.end(), [&](const auto& e) { return e.data == id; }));
}

double PlaygroundLedger::best_accuracy_on(const DataOptions& data) const {
  const std::string id = data_identity(data);
  double best = 0;
  for (const auto& e : entries_)
    if (e.data == id) best = std::max(best, e.best_test_accuracy);
  return best;
}

LedgerCost PlaygroundLedger::cost(const PlaygroundSettings& current, Index train_size) const {
  LedgerCost cost;
  cost.delta = current.training.delta;
  cost.current_epsilon = setting_epsilon(current.training, train_size, privacy::Accountant::kRdp);
  const std::string data = data_identity(current.data);
  std::vector<privacy::SubsampledGaussian> runs;
  for (const auto& e : entries_) {
    if (e.data != data) continue;
    runs.push_back(e.mechanism);
    cost.best_test_accuracy = std::max(cost.best_test_accuracy, e.best_test_accuracy);
  }
  cost.settings = static_cast<int>(runs.size());
  if (runs.empty()) return cost;
  const bool any_non_private =
      std::any_of(runs.begin(), runs.end(), [](const auto& r) { return r.noise_multiplier <= 0; });
  if (any_non_private) {
    cost.ma = cost.lt = cost.ps = kInfinity;
    return cost;
  }
  const auto same = [&](const privacy::SubsampledGaussian& r) {
    return r.noise_multiplier == runs[0].noise_multiplier &&
           r.sampling_rate == runs[0].sampling_rate && r.steps == runs[0].steps;
  };
  privacy::SubsampledGaussian bound = runs[0];
  for (const auto& r : runs) {
    bound.noise_multiplier = std::min(bound.noise_multiplier, r.noise_multiplier);
    bound.sampling_rate = std::max(bound.sampling_rate, r.sampling_rate);
    bound.steps = std::max(bound.steps, r.steps);
  }
  cost.dominated = !std::all_of(runs.begin(), runs.end(), same);
  const int k = cost.settings;
  using experiment::PrivateSelection;
  cost.ma = cost.dominated
                ? privacy::runs_epsilon(runs, cost.delta, privacy::Accountant::kRdp).epsilon
                : selection_cost(PrivateSelection::kMa, bound, k, cost.delta, train_size);
  cost.lt = selection_cost(PrivateSelection::kLt, bound, k, cost.delta, train_size);
  cost.ps = selection_cost(PrivateSelection::kPs, bound, k, cost.delta, train_size);
  return cost;
}

std::string ledger_sentence(const LedgerCost& cost) {
  using privacy::format_epsilon_up;
  if (cost.settings == 0) return "No setting trained on this data set yet.";
  // ostringstream, not operator+ chains: GCC 12's -Wrestrict misfires on those (PR 105329).
  std::ostringstream out;
  // MA is the price of what the student did (every run seen); LT and PS are not: they price a
  // private selection that would have trained a random number of runs over these settings and
  // shown only its winner, which is not what happened.
  out << "You tried " << cost.settings << (cost.settings == 1 ? " setting" : " settings")
      << ": the accuracy you see cost eps = " << format_epsilon_up(cost.ma) << " (MA), not "
      << format_epsilon_up(cost.current_epsilon)
      << ". A private selection over these settings (random stopping, only its winner shown) "
         "would cost LT "
      << format_epsilon_up(cost.lt) << ", PS " << format_epsilon_up(cost.ps) << ".";
  return out.str();
}

}  // namespace dplab::playground
