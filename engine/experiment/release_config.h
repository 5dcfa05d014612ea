// What a search releases, and therefore what its epsilon must cover (the "release mode").
//
//   explore  every run of every candidate and repeat is shown (curves, table, heatmaps), so the
//            epsilon of the search is the RDP composition of ALL runs trained. MA / LT numbers
//            of the pool are shown only as planning figures.
//   private  a selection algorithm runs for real and releases only its winner:
//            ma  each candidate trained once, best released; eps = RDP composition of K runs;
//            lt  Liu & Talwar random stopping (main paper Theorem 1 / Alg. 1): uniform candidate
//                draws, stop with probability gamma after each, hard stop Upsilon;
//            ps  Papernot & Steinke 2022: K ~ Poisson(mu) or truncated negative binomial
//                (eta, gamma) uniform candidate draws
//                (engine/privacy/selection/papernot_steinke.h).
//            `repeats` R means R independent replicate searches, each costing the mode's eps.
//   validation  public (default, as the main paper: the validation set is not protected) or
//            private: the selection score is released with Gaussian noise of std
//            validation_noise_multiplier / n_val on the accuracy (sensitivity 1/n_val), and that
//            mechanism is composed into the cost of each run. Only in private modes (explore
//            releases every validation curve, which the score noise would not cover).
//   secure   noise and lots from the operating system's entropy (getrandom) and a ChaCha20
//            stream for the noise; no seed is written anywhere. Not allowed with explore.
// JSON: "release": {"mode": "explore"|"private", "selection": "ma"|"lt"|"ps",
//   "validation": "public"|"private", "validation_noise_multiplier": s,
//   "ps_distribution": "poisson"|"tnb", "ps_mu": mu, "ps_eta": eta, "ps_gamma": g, "secure": bool}
// The LT parameters gamma and delta2 stay in "tuning".
//
//   private-subsampled  ("mode": "private-subsampled"; Koskela & Kulkarni 2023,
//            privacy/selection/subsampled_tuning.h): a Papernot-Steinke search (the ps_* keys) on a
//            Poisson subsample X1 of rate "tuning_fraction" q, then ONE final run with the
//            winner's hyperparameters (learning rate transferred by "lr_transfer": heuristic,
//            experiment/hyperparameter_transfer.h) on "final_data": "full" (variant 1) or
//            "complement" (X \ X1, variant 2); "subset_batching": "same_sampling_rate" |
//            "same_lot_size" fixes the lot sampling rate on X1. Only the final run's results are
//            released; the epsilon covers both phases. Held as mode private + selection ps +
//            subsampled = true, so every private-mode rule (K hidden, winners only) applies.
//            Validation private and secure are refused for now; repeats R > 1 runs R whole
//            procedures, epsilon composed over them (the GUI runs R = 1).
//
//   private-linear-scaling  ("mode": "private-linear-scaling"; Panda et al. 2024,
//            privacy/selection/linear_scaling_tuning.h): every candidate trains once at each of
//            two cheap trial budgets eps_i = f_i eps_f ("trial_fractions": [f_1, f_2], 0 < f_1 <
//            f_2 < 1, eps_f the final run's single-run epsilon), the best learning rates give the
//            radii r_i = eta_i T, the line through them is extrapolated to eps_f, and ONE final
//            run with eta_f = r_f / T is released with the fit. The epsilon composes all 2K trial
//            runs and the final run. Held as mode private + selection ma + linear_scaling = true
//            (K, the grid size, is public as in ma). "trial_candidates" is written by dplab on
//            the final run's config (the grid size K the trials ran); leave it out. Validation
//            private, secure and repeats > 1 are refused for now.
#pragma once

#include <string>

#include <nlohmann/json_fwd.hpp>

#include "experiment/hyperparameter_transfer.h"
#include "privacy/selection/linear_scaling_tuning.h"
#include "privacy/selection/subsampled_tuning.h"

namespace dplab::experiment {

enum class ReleaseMode { kExplore, kPrivate };
enum class PrivateSelection { kMa, kLt, kPs };
enum class ValidationAssumption { kPublic, kPrivate };
enum class RunCountDistribution { kPoisson, kTruncatedNegativeBinomial };

std::string to_string(ReleaseMode m);
std::string to_string(PrivateSelection s);
std::string to_string(ValidationAssumption v);
std::string to_string(RunCountDistribution d);
std::string to_string(privacy::FinalRunData d);    // "full", "complement"
std::string to_string(privacy::SubsetBatching b);  // "same_sampling_rate", "same_lot_size"

struct ReleaseConfig {
  ReleaseMode mode = ReleaseMode::kExplore;
  PrivateSelection selection = PrivateSelection::kMa;  // private mode only
  ValidationAssumption validation = ValidationAssumption::kPublic;
  double validation_noise_multiplier = 0.0;  // > 0 when validation is private
  RunCountDistribution ps_distribution = RunCountDistribution::kPoisson;
  double ps_mu = 10.0;    // Poisson mean, >= 1
  double ps_eta = 1.0;    // TNB shape, > -1
  double ps_gamma = 0.1;  // TNB gamma, in (0, 1)
  bool secure = false;
  // private-subsampled only (subsampled = true implies mode private, selection ps).
  bool subsampled = false;
  double tuning_fraction = 0.1;  // q in (0, 1]
  privacy::FinalRunData final_data = privacy::FinalRunData::kFullData;
  privacy::SubsetBatching subset_batching = privacy::SubsetBatching::kSameSamplingRate;
  HyperparameterTransfer lr_transfer;
  // private-linear-scaling only (linear_scaling = true implies mode private, selection ma).
  bool linear_scaling = false;
  double trial_fraction_low = privacy::kDefaultTrialFractionLow;    // f_1
  double trial_fraction_high = privacy::kDefaultTrialFractionHigh;  // f_2
  int trial_candidates = 0;  // K of the trials, set on the final run's config (0: the grid's)

  bool operator==(const ReleaseConfig& other) const = default;
};

// The one form of a release: every field the mode does not use (ps_* outside ps, the subsample
// fields outside private-subsampled, the validation noise with validation public, ...) at its
// default. parse_release returns it and release_to_json writes it (and writes only the used
// fields), so parse(release_to_json(r)) == canonical_release(r) for every r, and a config's JSON,
// its plan.json and the plan's id (a hash of that JSON) agree whatever a front end left in an
// unused field (issue #45 item 3: "plan_id does not match the content").
ReleaseConfig canonical_release(ReleaseConfig release);
// Parses the "release" object (`path` names it in errors) and checks its consistency; throws
// ParseError naming the key, e.g. `release.ps_mu: must be >= 1, got 0.5`. Returns the canonical
// form.
ReleaseConfig parse_release(const nlohmann::json& j, const std::string& path = "release");
// Throws ParseError (path "release...") when the combination is not allowed.
void check_release(const ReleaseConfig& release, const std::string& path = "release");
nlohmann::json release_to_json(const ReleaseConfig& release);

// "explore", "private lt", "private ps (poisson mu=10)", "private-subsampled (q=0.1, poisson
// mu=10, final run on the full data)", ... for labels.
std::string describe_release(const ReleaseConfig& release);

}  // namespace dplab::experiment
