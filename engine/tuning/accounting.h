// The privacy numbers of a search, in one place: thin adapters over the RDP accountant and
// private-selection functions of engine/privacy, so tuning code states *what* it charges
// (main paper section 3) and this file states *how*.
//   single run : (epsilon, delta) of one Poisson-subsampled Gaussian run of T steps;
//   MA         : K runs composed in RDP, eps_RDP,total(alpha) = K * eps_RDP,run(alpha) (sec. 3.2);
//   LT         : Liu & Talwar 2019 Thm 3.4 (paper Theorem 1), gamma, delta_2 (sec. 3.1).
// All are pure functions; thread-safe.
#pragma once

#include <cstdint>

namespace dplab::tuning {

double epsilon_single_run(double noise_multiplier, double sampling_rate, std::int64_t steps,
                          double delta);
double epsilon_moments_accountant(double noise_multiplier, double sampling_rate, std::int64_t steps,
                                  int num_candidates, double delta);
double epsilon_liu_talwar(double noise_multiplier, double sampling_rate, std::int64_t steps,
                          double gamma, double delta, double delta2);
// 1/n rounded down to a power of ten (main paper appendix A).
double default_delta_for(std::int64_t training_size);

}  // namespace dplab::tuning
