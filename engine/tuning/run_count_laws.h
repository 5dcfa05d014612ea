// The laws of the number of runs a random-stopping selection trains, with exact samplers (by
// inversion of the CDF, one uniform per draw) and their probability mass functions (for the
// chi-square tests and the GUI). The number of runs never depends on the data, which is what
// lets private_search.h draw it up front and train the runs in parallel.
//
// - Liu & Talwar (main paper Alg. 1 / Theorem 1): after each run stop with probability gamma, at
//   the latest after the integer hard stop Upsilon: K = min(Geometric(gamma), Upsilon),
//   P[K = k] = gamma (1-gamma)^{k-1} for k < Upsilon, P[K = Upsilon] = (1-gamma)^{Upsilon-1}.
// - Poisson(mu): P[K = k] = e^{-mu} mu^k / k!, k >= 0 (K = 0 trains and releases nothing).
// - Truncated negative binomial D_{eta,gamma} (Papernot & Steinke 2022, Definition 1), k >= 1:
//   P[K = k] = (1-gamma)^k / (gamma^{-eta} - 1) prod_{l<k} (l+eta)/(l+1); eta = 0: logarithmic.
// Pure functions except the samplers, which only advance the Rng passed in.
#pragma once

#include <cstdint>

#include "core/random.h"

namespace dplab::tuning {

// ceil(ln(1/delta2) / gamma): the integer hard stop that run_liu_talwar and the private LT
// search enforce; gamma in (0, 1], delta2 in (0, 1).
std::int64_t lt_hard_stop(double gamma, double delta2);

std::int64_t sample_truncated_geometric(Rng& rng, double gamma, std::int64_t hard_stop);
double truncated_geometric_pmf(std::int64_t k, double gamma, std::int64_t hard_stop);

// mu in (0, 700].
std::int64_t sample_poisson(Rng& rng, double mu);
double poisson_pmf(std::int64_t k, double mu);

// eta > -1, gamma in (0, 1).
std::int64_t sample_truncated_negative_binomial(Rng& rng, double eta, double gamma);
double truncated_negative_binomial_pmf(std::int64_t k, double eta, double gamma);

}  // namespace dplab::tuning
