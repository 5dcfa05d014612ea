#include "cli/bench_accounting.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <vector>

#include "privacy/accounting/pld/pld_accountant.h"
#include "privacy/accounting/rdp_accountant.h"
#include "privacy/selection/private_selection.h"
#include "privacy/selection/tuning_cost_series.h"

namespace dplab::cli {
namespace {

using Clock = std::chrono::steady_clock;

std::atomic<std::int64_t> fresh_key{0};  // distinct sigmas for every cold measurement

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

double micros_since(Clock::time_point start) {
  return std::chrono::duration<double, std::micro>(Clock::now() - start).count();
}

}  // namespace

nlohmann::json bench_accounting(std::ostream& table_out) {
  // The paper's setting at n = 60,000: sigma = 4, q = 250/60000, T = 10,000, delta = 1e-5.
  const double q = 250.0 / 60'000.0, delta = 1e-5;
  const std::int64_t steps = 10'000;
  volatile double sink = 0.0;  // keeps the optimiser from dropping the calls

  // Cold: each repetition uses a sigma never seen before, so the curve is computed.
  constexpr int kColdReps = 15;
  std::vector<double> cold;
  for (int rep = 0; rep < kColdReps; ++rep) {
    // A fresh key on every call of bench_accounting too (the cache keeps recent curves).
    const double sigma = 4.0 + 1e-7 * static_cast<double>(++fresh_key);
    const auto start = Clock::now();
    sink = sink + privacy::epsilon_for_delta({sigma, q, steps}, delta).epsilon;
    cold.push_back(micros_since(start));
  }

  // Warm: same (sigma, q), T and K varying.
  privacy::epsilon_for_delta({4.0, q, steps}, delta);
  constexpr int kWarmReps = 20'000;
  std::vector<double> warm;
  warm.reserve(kWarmReps / 100);
  for (int block = 0; block < kWarmReps / 100; ++block) {
    const auto start = Clock::now();
    for (int i = 0; i < 100; ++i) {
      const std::int64_t t = steps * (1 + (block * 100 + i) % 200);  // K runs of T steps
      sink = sink + privacy::epsilon_for_delta({4.0, q, t}, delta).epsilon;
    }
    warm.push_back(micros_since(start) / 100.0);
  }

  // A full eps-vs-K chart: K = 1..200, MA and LT (gamma = 1/K), warm curve.
  constexpr int kSweepReps = 20;
  std::vector<double> sweep;
  for (int rep = 0; rep < kSweepReps; ++rep) {
    const auto start = Clock::now();
    const auto points = privacy::epsilon_vs_candidates({4.0, q, steps}, delta, 1, 200);
    sink = sink + points.back().epsilon_ma;
    sweep.push_back(micros_since(start) / 1000.0);
  }

  // Paper-compatible mode (classic conversion, exact continuous order search), warm curve.
  constexpr int kPaperReps = 50;
  std::vector<double> paper;
  const auto paper_options = privacy::paper_compatible_options();
  privacy::epsilon_for_delta({4.0, q, steps}, delta, paper_options);
  for (int rep = 0; rep < kPaperReps; ++rep) {
    const auto start = Clock::now();
    sink = sink +
           privacy::epsilon_for_delta({4.0, q, steps * (rep + 1)}, delta, paper_options).epsilon;
    paper.push_back(micros_since(start));
  }

  // PLD accountant (engine/privacy/accounting/pld), default precision: cold = per-step
  // distributions recomputed (cache cleared), warm = cached distributions, T varying; plus T =
  // 400,000 (K = 40).
  constexpr int kPldReps = 7;
  std::vector<double> pld_cold, pld_warm, pld_long;
  double pld_epsilon = 0.0, pld_error = 0.0;
  for (int rep = 0; rep < kPldReps; ++rep) {
    privacy::clear_pld_cache();
    auto start = Clock::now();
    const auto r = privacy::pld_epsilon_for_delta({4.0, q, steps}, delta);
    pld_cold.push_back(micros_since(start) / 1000.0);
    pld_epsilon = r.epsilon;
    pld_error = r.error_bound;
    start = Clock::now();
    sink = sink + privacy::pld_epsilon_for_delta({4.0, q, steps + 1 + rep}, delta).epsilon;
    pld_warm.push_back(micros_since(start) / 1000.0);
  }
  for (int rep = 0; rep < 3; ++rep) {
    const auto start = Clock::now();
    sink = sink + privacy::pld_epsilon_for_delta({4.0, q, 40 * steps}, delta).epsilon;
    pld_long.push_back(micros_since(start) / 1000.0);
  }

  nlohmann::json result;
  result["pld_epsilon_cold_ms"] = median(pld_cold);
  result["pld_epsilon_warm_ms"] = median(pld_warm);
  result["pld_epsilon_400k_steps_ms"] = median(pld_long);
  result["pld_epsilon"] = pld_epsilon;
  result["pld_error_estimate"] = pld_error;  // Richardson: eps(2d) - eps(d)
  result["setting"] = {
      {"noise_multiplier", 4.0}, {"sampling_rate", q}, {"steps", steps}, {"delta", delta}};
  result["epsilon_cold_us"] = median(cold);
  result["epsilon_warm_us"] = median(warm);
  result["sweep_1_200_ms"] = median(sweep);
  result["epsilon_paper_mode_warm_us"] = median(paper);
  result["repetitions"] = {{"cold", kColdReps},
                           {"warm", kWarmReps},
                           {"sweep", kSweepReps},
                           {"paper", kPaperReps},
                           {"pld", kPldReps}};

  table_out << "privacy accounting (sigma = 4, q = 250/60000, T = 10000, delta = 1e-5), medians\n"
            << std::fixed << std::setprecision(1) << "  epsilon, cold (curve computed)       "
            << std::setw(10) << median(cold) << " us\n"
            << "  epsilon, warm (cached curve)         " << std::setw(10) << median(warm) << " us\n"
            << "  epsilon, paper mode (exact alpha)    " << std::setw(10) << median(paper)
            << " us\n"
            << std::setprecision(3) << "  eps-vs-K sweep K = 1..200 (MA + LT)  " << std::setw(10)
            << median(sweep) << " ms\n"
            << "  PLD epsilon, cold (accountant: pld)  " << std::setw(10) << median(pld_cold)
            << " ms\n"
            << "  PLD epsilon, warm (cached per-step)  " << std::setw(10) << median(pld_warm)
            << " ms\n"
            << "  PLD epsilon, T = 400000 (K = 40)     " << std::setw(10) << median(pld_long)
            << " ms\n";
  table_out.unsetf(std::ios::floatfield);
  return result;
}

}  // namespace dplab::cli
