#include "tuning/private_search.h"

#include <cmath>
#include <limits>
#include <optional>

#include "core/chacha20.h"
#include "core/error.h"
#include "core/mean_interval.h"
#include "core/random.h"
#include "privacy/mechanisms/discrete_gaussian.h"
#include "tuning/data_checks.h"
#include "tuning/run_count_laws.h"

namespace dplab::tuning {
namespace {

using experiment::PrivateSelection;
using experiment::RunCountDistribution;

constexpr std::uint64_t kCountStream = 0x50434E54;  // "PCNT": the number of runs
constexpr std::uint64_t kDrawStream = 0x50445257;   // "PDRW": the candidate of each run
constexpr std::uint64_t kRunStream = 0x5052554E;    // "PRUN": the seed of each run
constexpr std::uint64_t kScoreStream = 0x53434F52;  // "SCOR": the validation-score noise
constexpr double kTwoPi = 6.283185307179586;

}  // namespace

PrivatePlan draw_private_plan(const experiment::ExperimentConfig& config, int num_candidates,
                              std::uint64_t seed) {
  const auto& release = config.release;
  if (release.mode != experiment::ReleaseMode::kPrivate) {
    throw InvalidArgument("draw_private_plan: release.mode must be private");
  }
  if (num_candidates < 1) throw InvalidArgument("draw_private_plan: no candidates");
  if (release.subsampled) {
    // Its epsilon (release_cost) charges a search on a SUBSAMPLE plus a final run: drawing a
    // plain search on the full data here would be charged the wrong, smaller epsilon.
    throw InvalidArgument(
        "release mode private-subsampled runs in two phases: run it with "
        "run_subsampled_search (tuning/subsampled_search.h), as `dplab-cli tune` and the GUI do");
  }
  PrivatePlan plan;
  plan.selection = release.selection;
  if (plan.selection == PrivateSelection::kLt) {
    plan.gamma = config.tuning.gamma ? *config.tuning.gamma : 1.0 / num_candidates;
    plan.hard_stop = lt_hard_stop(plan.gamma, config.tuning.delta2);
  }
  for (int r = 0; r < config.repeats; ++r) {
    ReplicatePlan rep;
    rep.first_job = static_cast<std::int64_t>(plan.jobs.size());
    Rng count_rng(derive_seed(seed, kCountStream, static_cast<std::uint64_t>(r)));
    Rng draw_rng(derive_seed(seed, kDrawStream, static_cast<std::uint64_t>(r)));
    std::int64_t runs = 0;
    switch (plan.selection) {
      case PrivateSelection::kMa:
        runs = num_candidates;
        break;
      case PrivateSelection::kLt:
        runs = sample_truncated_geometric(count_rng, plan.gamma, plan.hard_stop);
        rep.hit_hard_stop = runs == plan.hard_stop;
        break;
      case PrivateSelection::kPs:
        runs =
            release.ps_distribution == RunCountDistribution::kPoisson
                ? sample_poisson(count_rng, release.ps_mu)
                : sample_truncated_negative_binomial(count_rng, release.ps_eta, release.ps_gamma);
        break;
    }
    if (runs > 1'000'000) throw InvalidArgument("the selection drew more than 1,000,000 runs");
    for (std::int64_t j = 0; j < runs; ++j) {
      const int candidate =
          plan.selection == PrivateSelection::kMa
              ? static_cast<int>(j)
              : static_cast<int>(draw_rng.below(static_cast<std::uint64_t>(num_candidates)));
      rep.candidates.push_back(candidate);
      PlannedJob job;
      job.candidate = candidate;
      job.repeat = static_cast<int>(plan.jobs.size());
      job.seed = derive_seed(seed, kRunStream, plan.jobs.size());
      plan.jobs.push_back(job);
    }
    plan.replicates.push_back(std::move(rep));
  }
  return plan;
}

PrivatePlan draw_private_jobs(const experiment::ExperimentConfig& config,
                              const data::TrainValidationSplit& data, RunOptions& options) {
  if (!config.objective_perturbation.empty()) {
    throw InvalidArgument(
        "release mode private: objpert entries are searched in explore mode only (the private "
        "release modes do not draw objective-perturbation candidates yet)");
  }
  if (data.train.is_regression()) {
    throw InvalidArgument(
        "release mode private needs a classification data set: a private release selects and "
        "releases its winner by validation accuracy (winners.csv, the released score); search "
        "a regression (model linear) with release mode explore");
  }
  PrivatePlan plan = draw_private_plan(
      config, static_cast<int>(experiment::expand_candidates(config).size()), config.seed);
  options.plan = plan.jobs;
  return plan;
}

std::uint64_t score_noise_seed(std::uint64_t experiment_seed) {
  return derive_seed(experiment_seed, kScoreStream);
}

PrivateRelease select_private_winners(const SearchResults& results, const PrivatePlan& plan,
                                      std::uint64_t score_noise_seed) {
  const auto& release = results.config.release;
  const bool noisy = release.validation == experiment::ValidationAssumption::kPrivate;
  if (noisy && results.validation_size <= 0)
    throw InvalidArgument("validation private needs n_val > 0");
  // validate_against_data refuses this before any training; checked again for direct callers.
  check_score_noise_applies(release, results.is_regression);
  const bool regression = results.is_regression;
  const double noise_std =
      noisy ? release.validation_noise_multiplier / static_cast<double>(results.validation_size)
            : 0.0;
  const bool secure = release.secure;
  const auto n_val = static_cast<double>(results.validation_size);
  std::uint64_t count_sigma = 0;
  std::optional<ChaCha20> os;
  if (noisy && secure) {
    const double s = std::ceil(release.validation_noise_multiplier);
    if (!(s >= 1.0 && s <= static_cast<double>(privacy::kMaxDiscreteGaussianSigma))) {
      throw InvalidArgument("release.validation_noise_multiplier: secure mode needs it in (0, " +
                            std::to_string(privacy::kMaxDiscreteGaussianSigma) + "]");
    }
    count_sigma = static_cast<std::uint64_t>(s);
    os.emplace(ChaCha20::from_os_entropy());
  }
  PrivateRelease out;
  std::vector<double> released_scores;  // of the replicates that released a winner
  for (std::size_t r = 0; r < plan.replicates.size(); ++r) {
    const ReplicatePlan& rep = plan.replicates[r];
    ReplicateRelease rel;
    rel.runs_trained = static_cast<std::int64_t>(rep.candidates.size());
    rel.hit_hard_stop = rep.hit_hard_stop;
    rel.complete = true;
    double best = -std::numeric_limits<double>::infinity();
    for (std::size_t j = 0; j < rep.candidates.size(); ++j) {
      const std::int64_t index = rep.first_job + static_cast<std::int64_t>(j);
      const JobResult& job = results.jobs.at(static_cast<std::size_t>(index));
      if (job.status == JobStatus::kFailed) continue;  // trained (charged), but has no score
      if (!is_scored(job)) {
        rel.complete = false;
        continue;
      }
      // A diverged run (decided from its parameters) scores the worst value (accuracy 0, MSE
      // +inf): it stays in the replicate instead of voiding it (results.h). A search scored by
      // loss is scored by the validation MSE, lower is better (never the training loss); its
      // released score is that MSE.
      double score = regression ? -scored_val_mse(job) : scored_accuracy(job);
      if (noisy && secure) {
        // Secure mode: the discrete Gaussian N_Z(0, s^2) on the integer correct-count
        // (Canonne, Kamath & Steinke 2020), s = ceil(S) >= S, so the released score is
        // (count + noise) / n_val, an exact rational: no floating-point noise whose low bits
        // leak the input (Mironov 2012). It is (alpha, alpha / (2 s^2))-RDP for a count of
        // sensitivity 1 (CKS20 Thm 4: 1/(2 s^2)-zCDP), within the alpha / (2 S^2) that is charged.
        const auto count = static_cast<std::int64_t>(std::llround(score * n_val));
        score = static_cast<double>(count + privacy::sample_discrete_gaussian(count_sigma, *os)) /
                n_val;
      } else if (noisy) {
        Rng rng(derive_seed(score_noise_seed, static_cast<std::uint64_t>(index)));
        const double u = rng.uniform_open_zero(), v = rng.uniform();
        score += noise_std * std::sqrt(-2.0 * std::log(u)) * std::cos(kTwoPi * v);  // Box-Muller
      }
      if (std::isnan(score)) score = -std::numeric_limits<double>::infinity();
      if (rel.winner_job < 0 || score > best) {
        best = score;
        rel.winner_job = index;
        rel.winner_candidate = job.candidate;
        rel.released_score = regression ? -score : score;
      }
    }
    out.runs_trained += rel.runs_trained;
    if (!rel.complete) {
      rel.winner_job = -1;
      rel.winner_candidate = -1;
    }
    if (rel.winner_job >= 0) {
      ++out.released;
      released_scores.push_back(rel.released_score);
    }
    out.replicates.push_back(rel);
  }
  const MeanInterval interval = normal_mean_interval(released_scores);
  out.mean_score = interval.mean;
  out.ci_low = interval.low();
  out.ci_high = interval.high();
  return out;
}

}  // namespace dplab::tuning
