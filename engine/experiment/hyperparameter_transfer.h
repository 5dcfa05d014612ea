// How the winner of a search on the tuning subset X1 (expected size q n) is carried over to the
// final run on the larger data (privacy/selection/subsampled_tuning.h, Koskela & Kulkarni 2023).
//
// A HEURISTIC, not a theorem: it only post-processes the released hyperparameters, so it costs
// no privacy, but nothing guarantees that the transferred values are good. It is a visible,
// editable setting (experiment "release.lr_transfer", `tune --lr-transfer`).
//
//   inverse_fraction (default)  eta_final = eta_subset / q. Reasoning (ours, labelled: we could
//        not retrieve KK23's exact wording while writing this): with the same lot sampling rate
//        gamma and the same number of steps, the final run's lots are 1/q times larger, so the
//        Gaussian noise in the lot-mean gradient (std sigma C / (gamma n)) is q times smaller
//        than on X1; the linear scaling rule (learning rate proportional to the lot size, Goyal
//        et al. 2017) then scales eta by 1/q. KK23 scale the learning rate with the data size;
//        check their section 3 before relying on the exact exponent.
//   keep                        eta_final = eta_subset (e.g. with same_lot_size batching, where
//        the lots have the same expected size on X1 and on X).
//   factor                      eta_final = factor * eta_subset, a user-chosen factor > 0.
// Every other hyperparameter (clip, momentum, Adam's betas) is carried over unchanged.
#pragma once

#include <string>

namespace dplab::experiment {

enum class LearningRateTransfer { kInverseFraction, kKeep, kFactor };

struct HyperparameterTransfer {
  LearningRateTransfer rule = LearningRateTransfer::kInverseFraction;
  double factor = 1.0;  // rule kFactor only, > 0

  bool operator==(const HyperparameterTransfer& other) const = default;
};

std::string to_string(LearningRateTransfer rule);  // "inverse_fraction", "keep", "factor"
// Throws InvalidArgument naming the value for unknown text.
LearningRateTransfer parse_learning_rate_transfer(const std::string& text);

// The multiplier applied to the winner's learning rate; tuning_fraction q in (0, 1].
double learning_rate_multiplier(const HyperparameterTransfer& transfer, double tuning_fraction);

// "learning rate x 1/q = x 10 (heuristic: inverse_fraction)" for labels.
std::string describe_transfer(const HyperparameterTransfer& transfer, double tuning_fraction);

}  // namespace dplab::experiment
