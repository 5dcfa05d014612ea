#include "cli/tune_release.h"
#include "core/json_text.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/random.h"
#include "core/validate.h"
#include "privacy/accounting/epsilon_display.h"
#include "release/release_writer.h"
#include "release/search_release.h"
#include "store/store.h"
#include "tuning/private_release_view.h"
#include "tuning/run_summary.h"
#include "tuning/runner.h"

namespace dplab::cli {
namespace {

using experiment::PrivateSelection;
using experiment::ReleaseMode;
using experiment::RunCountDistribution;
using experiment::ValidationAssumption;

// Shortest text that reads back as exactly `value`.
std::string g(double value) {
  char text[64];
  const auto end = std::to_chars(text, text + sizeof text, value).ptr;
  return std::string(text, end);
}

nlohmann::json number(double value) {
  return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json(nullptr);
}

}  // namespace

std::string recompute_command(const tuning::ReleaseCost& cost,
                              const tuning::SearchResults& results) {
  const auto& m = results.mechanism;
  const auto& r = cost.release;
  // Linear scaling composes runs at three noise multipliers: no single `account` command.
  if (r.linear_scaling) return "";
  if (r.subsampled) {
    // Both phases from the public settings: the final run's (sigma, rate, T); the subset's rate
    // follows subset_batching inside `account`.
    if (r.validation == ValidationAssumption::kPrivate) return "";
    std::string command =
        "dplab-cli account --noise-multiplier " + g(m.noise_multiplier) + " --sampling-rate " +
        g(m.sampling_rate) + " --steps " + std::to_string(m.steps) + " --delta " + g(cost.delta) +
        " --selection ps --ps-distribution " + experiment::to_string(r.ps_distribution);
    command += r.ps_distribution == RunCountDistribution::kPoisson
                   ? " --ps-mu " + g(r.ps_mu)
                   : " --ps-eta " + g(r.ps_eta) + " --ps-gamma " + g(r.ps_gamma);
    return command + " --tuning-fraction " + g(r.tuning_fraction) + " --final-data " +
           experiment::to_string(r.final_data) + " --subset-batching " +
           experiment::to_string(r.subset_batching);
  }
  // Private modes: the command gives ONE replicate search (epsilon_per_replicate).
  std::string base = "dplab-cli account --noise-multiplier " + g(m.noise_multiplier) +
                     " --sampling-rate " + g(m.sampling_rate) + " --delta " +
                     g(r.mode == ReleaseMode::kExplore ? cost.delta : cost.delta_per_replicate);
  if (r.mode == ReleaseMode::kExplore)
    return base + " --steps " + std::to_string(cost.total_queries) + " --accountant rdp";
  if (r.validation == ValidationAssumption::kPrivate)
    return "";  // the score mechanism is not in `account`
  base += " --steps " + std::to_string(m.steps);
  switch (r.selection) {
    case PrivateSelection::kMa:
      return base + " --selection ma --candidates " + std::to_string(cost.num_candidates) +
             " --accountant rdp";
    case PrivateSelection::kLt:
      return base + " --selection lt --gamma " + g(cost.gamma) + " --delta2 " + g(cost.delta2) +
             " --lt-integer-hard-stop";
    case PrivateSelection::kPs:
      return r.ps_distribution == RunCountDistribution::kPoisson
                 ? base + " --selection ps --ps-distribution poisson --ps-mu " + g(r.ps_mu)
                 : base + " --selection ps --ps-distribution tnb --ps-eta " + g(r.ps_eta) +
                       " --ps-gamma " + g(r.ps_gamma);
  }
  return "";
}

nlohmann::json release_cost_json(const tuning::ReleaseCost& cost,
                                 const tuning::SearchResults& results) {
  nlohmann::json j = experiment::release_to_json(cost.release);
  j["label"] = tuning::epsilon_label(cost, privacy::kEpsilonDigits);
  j["epsilon"] = number(cost.epsilon);
  j["epsilon_rounded_up"] = privacy::format_epsilon_up(cost.epsilon, privacy::kEpsilonDigits);
  j["epsilon_digits"] = privacy::kEpsilonDigits;
  j["delta"] = cost.delta;
  j["covers"] = cost.covers;
  j["not_covered"] = cost.not_covered;  // output fields no epsilon covers (release_cost.h)
  const data::Preprocessing scaling =
      data::preprocessing_of(tuning::dataset_source(results.config));
  j["preprocessing"] = {{"fitted_on_private_data", scaling.fitted_on_private_data},
                        {"description", scaling.description}};
  j["num_candidates"] = cost.num_candidates;
  j["epsilon_single_run"] = number(cost.epsilon_per_run);
  if (cost.release.mode == ReleaseMode::kExplore) {
    j["runs_trained"] = cost.runs_charged;
    j["total_queries"] = cost.total_queries;
  } else {
    // epsilon / delta: all R replicate searches (the headline); one replicate beside it.
    j["replicate_searches"] = cost.replicates;
    j["epsilon_per_replicate"] = number(cost.epsilon_per_replicate);
    j["delta_per_replicate"] = cost.delta_per_replicate;
    j["composition"] =
        cost.replicates == 1
            ? "one replicate search"
            : (cost.composition == "basic"
                   ? "basic composition of the R replicate searches (R eps, R delta): "
                     "Liu-Talwar gives an (eps, delta) bound, not an RDP curve"
                   : "RDP composition of the R replicate searches (their RDP curves added, "
                     "converted at delta)");
    j["expected_runs_per_replicate"] = cost.expected_runs;
    if (cost.release.selection == PrivateSelection::kLt) {
      j["gamma"] = cost.gamma;
      j["delta2"] = cost.delta2;
      j["hard_stop"] = cost.hard_stop;
    }
    j["noise_source"] = tuning::noise_source_text(cost.release);
    if (cost.release.subsampled) {
      j["epsilon_tuning_phase"] = number(cost.epsilon_tuning_phase);
      j["epsilon_final_run"] = number(cost.epsilon_per_run);
      j["tuning_sampling_rate"] = cost.tuning_sampling_rate;
      j["learning_rate_multiplier"] = cost.learning_rate_multiplier;
      j["learning_rate_transfer"] =
          "heuristic (no privacy cost): " +
          experiment::describe_transfer(cost.release.lr_transfer, cost.release.tuning_fraction);
    }
    if (cost.release.linear_scaling) {
      j["epsilon_trials"] = number(cost.epsilon_tuning_phase);
      j["epsilon_final_run"] = number(cost.epsilon_per_run);
      j["trial_runs"] = 2 * static_cast<std::int64_t>(cost.num_candidates);
    }
  }
  const std::string command = recompute_command(cost, results);
  j["recompute"] = command.empty() ? nlohmann::json(nullptr) : nlohmann::json(command);
  if (cost.release.mode == ReleaseMode::kPrivate && !command.empty())
    j["recompute_gives"] = "epsilon_per_replicate";
  if (cost.release.secure) {
    j["secure_noise"] =
        "lots and noise drawn from the OS (getrandom) and ChaCha20; no seed was written";
  }
  return j;
}

int finish_private_tune(const tuning::SearchResults& results, const tuning::PrivatePlan& plan,
                        const std::string& out_dir, const std::string& config_path,
                        double wall_seconds, bool cancelled, store::Store* db,
                        std::int64_t experiment_id, const nlohmann::json* extra_curator,
                        const nlohmann::json* extra_released) {
  namespace fs = std::filesystem;
  const auto& config = results.config;
  const tuning::ReleaseCost this_attempt = tuning::private_release_cost(results);
  tuning::PrivateRelease selected =
      tuning::select_private_winners(results, plan, tuning::score_noise_seed(config.seed));
  // Released beside the winners (private-linear-scaling's fit): kept with them, so the stored
  // copy (history export, the GUI) releases it too.
  if (extra_released) selected.released_facts = extra_released->dump();
  // RELEASED: only what Liu-Talwar / Papernot-Steinke cover, the winners with K integrated out,
  // and nothing at all from a cancelled search (engine/release/search_release.h). The number of
  // runs K, the hard-stop flag, the wall time (it grows with K) and anything else that depends on
  // K go to curator-only.json and the store's "curator_only" summary, never here.
  const tuning::PrivateRelease release = release::released_winners(selected, cancelled);
  const std::optional<release::SpentBudget> spent =
      db ? std::optional(db->spent_budget(experiment_id)) : std::nullopt;
  release::Release released = release::private_release(results, selected, cancelled, spent);
  // stdout and summary.json state what the run spent over all its attempts, as release.json.
  const bool attempts = spent && spent->attempts > 1;
  const tuning::ReleaseCost cost =
      attempts ? release::with_spent_budget(this_attempt, *spent) : this_attempt;

  nlohmann::json summary{
      {"experiment", config.name},
      {"config", config_path},
      {"cancelled", cancelled},
      {"training_size", results.training_size},
      {"validation_size", results.validation_size},
      {"noise_multiplier", results.mechanism.noise_multiplier},
      {"sampling_rate", results.mechanism.sampling_rate},
      {"steps", results.mechanism.steps},
      {"release", release_cost_json(cost, results)},
      // The winners and what their score is, as the release states them (release.json).
      {"replicates", released.released["replicates"]},
      {"released_accuracy",
       {{"replicates_released", release.released},
        {"mean", number(release.mean_score)},
        {"ci95_low", number(release.ci_low)},
        {"ci95_high", number(release.ci_high)},
        {"score", released.released["score"]}}},
      {"not_released",
       "per-run curves, scores and the lot losses of every run; the number of runs K, the stop "
       "flag and the wall time (curator-only.json); only each replicate's winner is released "
       "(winners.csv), and nothing from a cancelled search"}};
  if (attempts) summary["release"]["epsilon_this_attempt"] = number(this_attempt.epsilon);
  if (extra_released && !cancelled) {
    for (const auto& [key, value] : extra_released->items()) summary[key] = value;
  }
  // CURATOR ONLY (docs/privacy-model.md): what resuming and auditing the run need.
  released.curator.facts["wall_seconds"] = wall_seconds;
  if (db) {
    released.curator.facts["db"] = db->path();
    released.curator.facts["run_id"] = experiment_id;
  }
  if (extra_curator) {
    for (const auto& [key, value] : extra_curator->items()) released.curator.facts[key] = value;
  }
  fs::create_directories(out_dir);
  const fs::path summary_path = fs::path(out_dir) / "summary.json";
  // All files atomically (core/atomic_file.h): a full disk is an error with its reason.
  write_file_atomically(summary_path.string(), json_text(summary, 2) + "\n");
  const std::string curator_path = release::write_curator_record(released.curator, out_dir);
  // winners.csv (the winners' validation curves; validation private: the noisy score) and
  // release.json, through the one release writer.
  release::write_release(released, out_dir);
  const fs::path winners_path = fs::path(out_dir) / "winners.csv";
  if (db) {
    db->save_summary(experiment_id, "summary", json_text(summary));
    // The winners, so that the GUI reopens this run showing only what was released (this
    // summary and "curator_only" hold K: the store keeps them, no export writes them).
    db->save_summary(experiment_id, "private_release",
                     json_text(tuning::private_release_json(release)));
    db->save_summary(experiment_id, "curator_only",
                     json_text(nlohmann::json(released.curator.facts)));
  }

  std::printf("%s: %zu replicate search(es) over %d candidates\n",
              experiment::describe_release(config.release).c_str(), release.replicates.size(),
              cost.num_candidates);
  for (std::size_t r = 0; r < release.replicates.size(); ++r) {
    const auto& rep = release.replicates[r];
    std::printf(
        "  replicate %zu: released %s", r + 1,
        rep.winner_candidate >= 0
            ? results.candidates[static_cast<std::size_t>(rep.winner_candidate)].label().c_str()
            : "nothing");
    if (rep.winner_job >= 0) std::printf(", accuracy %.4f", rep.released_score);
    std::printf("\n");
  }
  if (release.released >= 2) {
    std::printf("released accuracy over %d replicates: mean %.4f, 95%% CI [%.4f, %.4f]\n",
                release.released, release.mean_score, release.ci_low, release.ci_high);
  }
  std::printf("%s\n", tuning::epsilon_label(cost, privacy::kEpsilonDigits).c_str());
  const std::string command = attempts ? std::string() : recompute_command(cost, results);
  if (attempts) {
    std::printf(
        "recompute: not one `account` command: the run spent over several attempts (their "
        "charges composed; dplab-cli history show --db DB --id ID lists them)\n");
  } else if (!command.empty()) {
    std::printf("recompute: %s\n", command.c_str());
    if (cost.replicates > 1) {
      std::printf("  (gives one replicate search's eps %s; the headline composes %d of them)\n",
                  privacy::format_epsilon_up(cost.epsilon_per_replicate).c_str(), cost.replicates);
    }
  }
  std::printf("%s\n", tuning::noise_source_text(config.release).c_str());
  std::printf("wrote %s, %s and release.json; curator only, do not release: %s\n",
              summary_path.string().c_str(), winners_path.string().c_str(), curator_path.c_str());
  if (cancelled) {
    std::cerr << "dplab-cli tune: cancelled; a cancelled private search releases nothing (which "
                 "replicates finished depends on their number of runs)\n";
    return 130;
  }
  return 0;
}

}  // namespace dplab::cli
