// The Release of a search, one builder per mode. See search_release.h.
#include "release/search_release.h"

#include <cmath>

#include "core/error.h"
#include "core/json_guard.h"
#include "data/dataset.h"
#include "privacy/accounting/epsilon_display.h"
#include "release/search_tables.h"
#include "tuning/aggregates.h"
#include "tuning/private_release_view.h"
#include "tuning/run_summary.h"
#include "tuning/runner.h"

namespace dplab::release {
namespace {

using experiment::PrivateSelection;
using experiment::ReleaseMode;

nlohmann::json number(double value) {
  return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json(nullptr);
}

std::string run_count_policy(const experiment::ReleaseConfig& release) {
  if (release.mode == ReleaseMode::kExplore)
    return "explore: every run trained is released and charged";
  if (release.linear_scaling)
    return "private-linear-scaling: each candidate runs once at each of the two trial budgets, "
           "then one final run; K = the candidate count (public)";
  if (release.selection == PrivateSelection::kMa && !release.subsampled)
    return "private ma: each candidate runs once, K = the candidate count (public)";
  return "K, the number of runs the selection drew, is random and never released "
         "(curator-only.json only)";
}

// How the candidates clip: flat at their C, and (entries with "clipping": "automatic")
// g/(||g|| + gamma) of norm < 1, at C = 1.
std::string clipping_text(const experiment::ExperimentConfig& config) {
  const std::string flat = "each example's gradient clipped to norm C, the candidate's C";
  bool any_flat = false, any_automatic = false;
  for (const auto& o : config.optimizers) {
    const bool automatic = o.clipping == models::ClippingMode::kAutomatic;
    any_automatic = any_automatic || automatic;
    any_flat = any_flat || !automatic;
  }
  const std::string automatic =
      "automatic (Bu et al. 2023): each example's gradient g scaled to g/(||g|| + gamma), norm < "
      "1, so C = 1";
  if (!any_automatic) return flat;
  return any_flat ? flat + "; entries with clipping automatic: " + automatic : automatic;
}

// The card's ε and label: this attempt's cost, or the stored run's spent ε over its attempts.
tuning::ReleaseCost headline(const tuning::ReleaseCost& cost,
                             const std::optional<SpentBudget>& spent) {
  return spent && spent->attempts > 1 ? with_spent_budget(cost, *spent) : cost;
}

}  // namespace

nlohmann::json search_privacy_card(const tuning::SearchResults& results,
                                   const tuning::ReleaseCost& attempt_cost,
                                   const std::optional<SpentBudget>& spent) {
  const experiment::ExperimentConfig& config = results.config;
  const tuning::RunMechanism& m = results.mechanism;
  const tuning::ReleaseCost cost = headline(attempt_cost, spent);
  const data::Preprocessing scaling =
      data::preprocessing_of(tuning::dataset_source(results.config));
  nlohmann::json card{
      {"unit", "one training example"},
      {"adjacency", "add or remove one example"},
      {"sampler", "Poisson: each example joins each lot independently with probability q"},
      {"training_size", results.training_size},
      {"lot_size", config.privacy.lot_size},
      {"sampling_rate", m.sampling_rate},
      {"sampling_rate_rule", "q = L / n: the expected lot size over the training-set size"},
      {"normalisation",
       cost.divides_by_realized_lot
           ? "NOT covered: the noisy sum divided by the realised lot size (reproduction variant "
             "lot_normalization = realized), a data-dependent step the accountant does not "
             "analyse"
           : "the sum of the clipped per-example gradients plus N(0, sigma^2 C^2) noise, divided "
             "by the expected lot size L (post-processing by a public constant)"},
      {"noise_multiplier", m.noise_multiplier},
      {"clipping", clipping_text(config)},
      {"steps", m.steps},
      {"steps_unit", "noisy-gradient queries per run (an ADADP step makes two)"},
      {"accountant", "rdp"},
      {"conversion", "improved"},
      {"delta", cost.delta},
      {"delta_rule", config.privacy.delta ? "the experiment's privacy.delta"
                                          : "1/n rounded down to a power of ten (the default)"},
      {"epsilon", number(cost.epsilon)},
      {"epsilon_rounded_up", privacy::format_epsilon_up(cost.epsilon, privacy::kEpsilonDigits)},
      {"epsilon_label", tuning::epsilon_csv_label(cost)},
      {"covers", cost.covers},
      {"epsilon_single_run", number(cost.epsilon_per_run)},
      {"tuning",
       {{"mode", experiment::describe_release(config.release)},
        {"validation", experiment::to_string(config.release.validation)},
        {"candidates", cost.num_candidates},
        {"run_count_policy", run_count_policy(config.release)}}},
      {"secure", config.release.secure},
      {"noise_source", config.release.mode == ReleaseMode::kExplore
                           ? "seeded: the seed in the config reproduces the noise"
                           : tuning::noise_source_text(config.release)},
      {"preprocessing",
       {{"fitted_on_private_data", scaling.fitted_on_private_data},
        {"description", scaling.description}}}};
  if (spent && spent->attempts > 1) {
    card["attempts"] = spent->attempts;
    card["epsilon_this_attempt"] = number(attempt_cost.epsilon);
  }
  if (config.release.mode == ReleaseMode::kExplore) {
    card["runs_trained"] = cost.runs_charged;
    card["total_queries"] = cost.total_queries;
  } else {
    card["replicate_searches"] = cost.replicates;
    card["composition"] = cost.replicates == 1 ? "one replicate search"
                          : cost.composition == "basic"
                              ? "basic composition of the R replicate searches (R eps, R delta)"
                              : "RDP composition of the R replicate searches";
    card["epsilon_per_replicate"] = number(cost.epsilon_per_replicate);
    card["delta_per_replicate"] = cost.delta_per_replicate;
    card["expected_runs_per_replicate"] = cost.expected_runs;
  }
  return card;
}

std::string search_epsilon_label(const nlohmann::json& card) {
  std::string label = card.at("epsilon_label").get<std::string>();
  if (card.at("tuning").at("run_count_policy").get<std::string>().rfind("explore", 0) != 0)
    label += "; " + card.at("noise_source").get<std::string>();
  return label;
}

SaveModels parse_save_models(const std::string& text) {
  if (text == "none") return SaveModels::kNone;
  if (text == "best") return SaveModels::kBest;
  if (text == "all") return SaveModels::kAll;
  throw InvalidArgument("--save-models '" + text + "': expected none, best or all");
}

namespace {

// The model of results.jobs[job] in `folder`, or false when the job's model is not in memory.
bool add_model(Release& r, const tuning::SearchResults& results, std::size_t job,
               const std::string& folder) {
  const auto& model = results.jobs[job].model;
  if (!model) return false;
  r.models.push_back({folder, model, results.input});
  return true;
}

void add_explore_models(Release& r, const tuning::SearchResults& results, SaveModels save) {
  nlohmann::json not_kept = nlohmann::json::array();
  if (save == SaveModels::kAll) {
    for (std::size_t j = 0; j < results.jobs.size(); ++j) {
      const auto& job = results.jobs[j];
      if (!tuning::is_scored(job)) continue;
      const std::string folder = "models/candidate-" + std::to_string(job.candidate) + "-repeat-" +
                                 std::to_string(job.repeat);
      if (!add_model(r, results, j, folder)) not_kept.push_back(folder);
    }
  } else if (save == SaveModels::kBest) {
    std::optional<std::size_t> best;
    for (std::size_t j = 0; j < results.jobs.size(); ++j) {
      if (!tuning::is_scored(results.jobs[j])) continue;
      const double score = tuning::selection_score(results.jobs[j], results.is_regression);
      if (!best || score > tuning::selection_score(results.jobs[*best], results.is_regression)) {
        best = j;
      }
    }
    if (best && !add_model(r, results, *best, kModelFolder)) not_kept.push_back(kModelFolder);
  }
  if (!not_kept.empty()) r.released["models_not_kept"] = not_kept;
}

}  // namespace

Release explore_release(const tuning::SearchResults& results, bool cancelled,
                        const std::optional<SpentBudget>& spent,
                        const tuning::ObjpertSearch* objpert, SaveModels save_models) {
  Release r;
  r.experiment = results.config.name;
  r.mode = experiment::describe_release(results.config.release);
  r.cancelled = cancelled;
  r.privacy = search_privacy_card(results,
                                  objpert && !objpert->candidates.empty()
                                      ? tuning::release_cost_with_objpert(results, *objpert)
                                      : tuning::release_cost(results),
                                  spent);
  r.csv_label = search_epsilon_label(r.privacy);
  r.released = {{"runs", results.jobs.size()}};
  const auto aggregates = tuning::aggregate_all(results);
  const std::string metric = tuning::curve_metric_column(results.is_regression);
  r.tables = {{"curves.csv", curves_table(results)},
              {"aggregate_curves.csv", aggregate_curves_table(aggregates, metric)},
              {"alpha_clip_grid.csv", alpha_clip_grid_table(aggregates)}};
  add_explore_models(r, results, save_models);
  return r;
}

tuning::PrivateRelease released_winners(const tuning::PrivateRelease& selected, bool cancelled) {
  tuning::PrivateRelease winners = selected;
  if (!cancelled) return winners;
  // Nothing of a cancelled search: which replicates happened to finish depends on their K.
  for (auto& rep : winners.replicates) {
    rep.winner_candidate = -1;
    rep.winner_job = -1;
  }
  winners.released = 0;
  winners.mean_score = winners.ci_low = winners.ci_high = std::nan("");
  return winners;
}

Release private_release(const tuning::SearchResults& results,
                        const tuning::PrivateRelease& selected, bool cancelled,
                        const std::optional<SpentBudget>& spent) {
  Release r;
  r.experiment = results.config.name;
  r.mode = experiment::describe_release(results.config.release);
  r.cancelled = cancelled;
  r.privacy = search_privacy_card(results, tuning::private_release_cost(results), spent);
  r.csv_label = search_epsilon_label(r.privacy);
  const tuning::PrivateRelease winners = released_winners(selected, cancelled);
  const bool accuracy_public =
      results.config.release.validation == experiment::ValidationAssumption::kPublic;
  nlohmann::json replicates = nlohmann::json::array();
  int released = 0;
  for (const auto& rep : winners.replicates) {
    released += rep.winner_job >= 0 ? 1 : 0;
    replicates.push_back(
        {{"released_candidate", tuning::candidate_json(results, rep.winner_candidate)},
         {"released_accuracy",
          rep.winner_job >= 0 ? number(rep.released_score) : nlohmann::json(nullptr)}});
  }
  r.released = {
      {"replicate_searches", winners.replicates.size()},
      {"replicates", replicates},
      {"replicates_released", released},
      {"score", accuracy_public ? "validation accuracy (validation: public)"
                : results.config.release.secure
                    ? "(correct count + discrete Gaussian noise) / n_val (validation: private)"
                    : "validation accuracy + Gaussian noise (validation: private)"}};
  if (!cancelled) {
    r.released["mean_accuracy"] = number(winners.mean_score);
    r.released["ci95_low"] = number(winners.ci_low);
    r.released["ci95_high"] = number(winners.ci_high);
  }
  r.tables = {{"winners.csv", winners_table(results, winners)}};
  // Each released winner's model (none when cancelled: released_winners cleared them).
  nlohmann::json not_kept = nlohmann::json::array();
  for (std::size_t rep = 0; rep < winners.replicates.size(); ++rep) {
    const auto job = winners.replicates[rep].winner_job;
    if (job < 0) continue;
    const std::string folder = winners.replicates.size() == 1
                                   ? std::string(kModelFolder)
                                   : "models/replicate-" + std::to_string(rep + 1);
    if (!add_model(r, results, static_cast<std::size_t>(job), folder)) not_kept.push_back(folder);
  }
  if (!not_kept.empty()) r.released["models_not_kept"] = not_kept;
  // The curator's: K per replicate, the hard-stop flags, which run won.
  nlohmann::json curator_replicates = nlohmann::json::array();
  for (const auto& rep : selected.replicates) {
    curator_replicates.push_back({{"runs_trained", rep.runs_trained},
                                  {"complete", rep.complete},
                                  {"winner_job", rep.winner_job},
                                  {"hit_hard_stop", rep.hit_hard_stop}});
  }
  r.curator.facts = {{"runs_trained", selected.runs_trained}, {"replicates", curator_replicates}};
  // What the mode releases beside its winners (private-linear-scaling's fit); nothing of a
  // cancelled search. A key of the mode's own is never overwritten.
  if (!cancelled && !selected.released_facts.empty()) {
    const nlohmann::json facts = parse_json_text(selected.released_facts, "released facts");
    for (const auto& [key, value] : facts.items()) {
      if (r.released.contains(key))
        throw InvalidArgument("released facts: '" + key + "' is already in the release");
      r.released[key] = value;
    }
  }
  return r;
}

Release search_release(const tuning::SearchResults& runs,
                       const std::optional<tuning::PrivateRelease>& winners, bool cancelled,
                       const std::optional<SpentBudget>& spent) {
  if (runs.config.release.mode == ReleaseMode::kExplore)
    return explore_release(runs, cancelled, spent);
  return private_release(runs, winners.value_or(tuning::PrivateRelease{}), cancelled, spent);
}

}  // namespace dplab::release
