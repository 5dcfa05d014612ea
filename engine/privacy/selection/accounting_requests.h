// The accounting questions a user asks by name, answered once for every door: `dplab-cli account`
// and `dplab-cli calibrate` print these answers, the Python module's dplab.account,
// dplab.calibrate and dplab.selection_epsilon return them. The settings are the commands' flags
// by canonical name (core/settings.h: "noise-multiplier", "sampling-rate", "steps", "delta",
// "candidates", "selection", ...; the flags' --help lines say what each means), and every error
// is an InvalidArgument naming the setting as the caller spells it.
//
// account: the privacy of one DP-SGD run (selection none), of K candidates composed (ma, Abadi
// et al. 2016 moments accountant in RDP), selected by Liu-Talwar random stopping (lt, Liu &
// Talwar 2019 Thm 3.4 / the paper's Theorem 1), by Papernot-Steinke (ps, Papernot & Steinke 2022
// Thms 2 and 6) or the whole private-subsampled procedure (ps with tuning-fraction, Koskela &
// Kulkarni 2023); or a sweep over K (sweep-candidates A:B) or over the tuning fraction
// (sweep-tuning-fraction). The math lives in privacy/accounting and privacy/selection; this file
// only reads the settings, checks how they combine and says what each number is.
//
// calibrate: the smallest noise multiplier whose run reaches a target (epsilon, delta) under the
// chosen accountant (bisection from the safe side: the achieved epsilon never exceeds the target).
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "core/settings.h"
#include "privacy/selection/tuning_cost_series.h"

namespace dplab::privacy {

// What `account` answers: one JSON object, or one of the two sweeps (a table of numbers).
struct AccountAnswer {
  enum class Kind { kObject, kCandidateSweep, kTuningFractionSweep };
  Kind kind = Kind::kObject;
  nlohmann::json object;                             // kObject
  std::vector<CandidatesPoint> candidates;           // kCandidateSweep: K, eps_ma, eps_lt
  std::vector<TuningFractionPoint> tuning_fraction;  // kTuningFractionSweep
  // kTuningFractionSweep: the mechanism the sweep is about (for the table's note).
  SubsampledGaussian run;
  double delta = 0;
};

AccountAnswer account_request(const Settings& settings);

// The calibrated noise multiplier, the epsilon it achieves and the settings it answers.
nlohmann::json calibrate_request(const Settings& settings);

}  // namespace dplab::privacy
