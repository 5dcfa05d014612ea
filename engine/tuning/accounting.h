// The privacy numbers of a search, in one place: thin adapters over the RDP accountant and
// private-selection functions of engine/privacy, so tuning code states *what* it charges
// (main paper section 3) and this file states *how*.
//   single run : (epsilon, delta) of one Poisson-subsampled Gaussian run of T steps;
//   MA         : K runs composed in RDP, eps_RDP,total(alpha) = K * eps_RDP,run(alpha) (sec. 3.2);
//   LT         : Liu & Talwar 2019 Thm 3.4 (paper Theorem 1), gamma, delta_2 (sec. 3.1).
// Each takes the experiment's accounting setting (experiment/accounting_config.h: the RDP
// conversion and LT's logarithm) as a required argument, so every door that prints these
// figures — the CLI's summary, the GUI's report, its table and its form — computes the same
// numbers for the same experiment file (issue #42 item 4: the GUI used to drop the setting).
// All are pure functions; thread-safe.
#pragma once

#include <cstdint>

#include "experiment/accounting_config.h"
#include "experiment/experiment_config.h"
#include "tuning/results.h"

namespace dplab::tuning {

double epsilon_single_run(double noise_multiplier, double sampling_rate, std::int64_t steps,
                          double delta, const experiment::AccountingConfig& accounting);
double epsilon_moments_accountant(double noise_multiplier, double sampling_rate, std::int64_t steps,
                                  int num_candidates, double delta,
                                  const experiment::AccountingConfig& accounting);
double epsilon_liu_talwar(double noise_multiplier, double sampling_rate, std::int64_t steps,
                          double gamma, double delta, double delta2,
                          const experiment::AccountingConfig& accounting);
// 1/n rounded down to a power of ten (main paper appendix A).
double default_delta_for(std::int64_t training_size);

// The mechanism every run of `config` on n training examples is charged for, the one rule the
// runner, the plans and the phased modes share: sigma, q = privacy.sampling_rate or L/n, T, and
// delta = privacy.delta or default_delta_for(n).
RunMechanism run_mechanism(const experiment::ExperimentConfig& config, std::int64_t training_size);

}  // namespace dplab::tuning
