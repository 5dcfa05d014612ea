#include "objective_perturbation/honest_comparison.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "core/error.h"
#include "core/mean_interval.h"
#include "core/random.h"
#include "core/validate.h"
#include "data/dataset.h"
#include "data/feature_rows.h"
#include "objective_perturbation/algorithm1.h"
#include "objective_perturbation/calibration.h"
#include "objective_perturbation/glm_data.h"
#include "privacy/accounting/rdp_accountant.h"
#include "privacy/selection/papernot_steinke.h"
#include "training/trainer.h"

namespace dplab::objpert {
namespace {

// P[Poisson(mu) <= s].
double poisson_cdf(int s, double mu) {
  double term = std::exp(-mu), sum = term;
  for (int k = 1; k <= s; ++k) {
    term *= mu / k;
    sum += term;
  }
  return sum;
}

// Knuth's multiplication method: exact Poisson law (fine for mu up to ~700).
int sample_poisson(double mu, Rng& rng) {
  const double limit = std::exp(-mu);
  int k = 0;
  for (double product = rng.uniform_open_zero(); product > limit;
       product *= rng.uniform_open_zero())
    ++k;
  return k;
}

// Feature rows scaled to unit L2 norm (per row: free), as for Algorithm 1.
data::Dataset unit_rows(data::Dataset d) {
  data::store_as_floats(d);
  for (Index i = 0; i < d.size(); ++i) {
    const float norm = d.features.row(i).norm();
    if (norm > 0) d.features.row(i) /= norm;
  }
  return d;
}

// Mean and 95 % half width (core/mean_interval.h); the half width stays 0 for one trial.
void summarise(MethodSummary& m) {
  if (m.accuracy.empty()) return;
  const MeanInterval interval = normal_mean_interval(m.accuracy);
  m.mean = interval.mean;
  if (m.accuracy.size() >= 2) m.half_width = interval.half_width;
}

// Smallest sigma (to 1e-4 relative, safe side) with the Papernot-Steinke Poisson(mu) selection of
// T-step DP-SGD runs within epsilon.
double calibrate_honest_noise(double epsilon, double delta, double q, std::int64_t steps,
                              double mu) {
  auto cost = [&](double sigma) {
    return privacy::papernot_steinke_poisson(privacy::SubsampledGaussian{sigma, q, steps}, mu,
                                             delta)
        .epsilon;
  };
  double lo = 0.3, hi = 1.0;
  while (cost(hi) > epsilon) {
    lo = hi;
    hi *= 2.0;
    if (hi > 1e5) throw Error("honest DP-SGD: no noise multiplier below 1e5 reaches epsilon");
  }
  if (cost(lo) <= epsilon) return lo;
  while (hi / lo > 1.0 + 1e-4) {
    const double mid = std::sqrt(lo * hi);
    (cost(mid) > epsilon ? lo : hi) = mid;
  }
  return hi;
}

}  // namespace

double poisson_mean_for_tail(int s, double p) {
  if (s < 0) throw InvalidArgument("grid_size must be >= 0");
  require_open_interval("prob_more_than_grid", p, 0.0, 1.0);
  // P[K > s] = 1 - cdf(s; mu) increases in mu.
  double lo = 0.0, hi = 1.0;
  while (1.0 - poisson_cdf(s, hi) < p) lo = hi, hi *= 2.0;
  while (hi - lo > 1e-10 * hi) {
    const double mid = 0.5 * (lo + hi);
    (1.0 - poisson_cdf(s, mid) < p ? lo : hi) = mid;
  }
  return hi;
}

ComparisonResult run_comparison(const data::Dataset& all, const ComparisonConfig& config,
                                const ComparisonProgress& progress,
                                const std::atomic<bool>* cancel) {
  const auto start = std::chrono::steady_clock::now();
  if (all.num_classes != 2) {
    throw InvalidArgument("data set '" + all.name +
                          "' is not binary: the comparison is for "
                          "binary logistic regression");
  }
  if (config.epsilons.empty()) throw InvalidArgument("epsilons must not be empty");
  for (double e : config.epsilons) require_positive("epsilon", e);
  require_open_interval("delta", config.delta, 0.0, 1.0);
  if (config.trials < 1) throw InvalidArgument("trials must be >= 1");
  if (config.grid_size < 1) throw InvalidArgument("grid_size must be >= 1");
  require_positive("epochs", config.epochs);
  require_positive("learning_rate_low", config.learning_rate_low);
  if (!(config.learning_rate_high > config.learning_rate_low)) {
    throw InvalidArgument("learning_rate_high must be > learning_rate_low");
  }
  // Work shares within one (epsilon, trial): DP-SGD runs dominate; Algorithm 1 is one solve.
  const double total_trials = static_cast<double>(config.epsilons.size()) * config.trials;
  double trials_done = 0, share_done = 0;
  auto say = [&](const std::string& m) {
    if (progress) progress(m, std::min(1.0, (trials_done + share_done) / total_trials));
  };
  auto check_cancel = [&] {
    if (cancel && cancel->load()) throw Cancelled();
  };

  const data::TrainValidationSplit split =
      data::split_train_validation(all, config.test_fraction, config.split_seed);
  const data::TrainValidationSplit dpsgd_data{unit_rows(split.train), unit_rows(split.validation),
                                              split.notes};
  const GlmData glm_train = make_glm_data(split.train);
  const GlmData glm_test = make_glm_data(split.validation);

  ComparisonResult out;
  out.train_size = split.train.size();
  out.test_size = split.validation.size();
  out.dim = split.train.dim();
  const double n = static_cast<double>(out.train_size);
  if (!(config.lot_size > 0 && config.lot_size <= n)) {
    throw InvalidArgument("lot_size = " + format_number(config.lot_size) + " must be in (0, n]");
  }
  const double q = config.lot_size / n;
  out.dpsgd_steps = std::max<std::int64_t>(1, std::llround(config.epochs * n / config.lot_size));
  out.poisson_mean = poisson_mean_for_tail(config.grid_size, config.prob_more_than_grid);
  double zero_model_accuracy = 0;  // K = 0: the all-zero logistic model predicts class 0
  for (Index i = 0; i < split.validation.size(); ++i)
    zero_model_accuracy += split.validation.targets(i) < 0.5 ? 1.0 : 0.0;
  zero_model_accuracy /= std::max<double>(1.0, static_cast<double>(split.validation.size()));

  auto dpsgd_accuracy = [&](double sigma, double learning_rate, std::uint64_t seed) {
    training::TrainingConfig tc;
    tc.model.kind = models::ModelKind::kLogisticRegression;
    tc.optimizer.kind = optim::OptimizerKind::kDpAdam;
    tc.optimizer.learning_rate = learning_rate;
    tc.dp = {config.clip, sigma, config.lot_size};
    tc.steps = out.dpsgd_steps;
    tc.eval_every = out.dpsgd_steps;
    tc.seed = seed;
    training::TrainingHooks hooks;
    hooks.cancel = cancel;
    const training::TrainingResult r = training::train(dpsgd_data, tc, hooks);
    if (r.cancelled) throw Cancelled();
    return r.final_validation.accuracy;
  };

  for (std::size_t e = 0; e < config.epsilons.size(); ++e) {
    const double eps = config.epsilons[e];
    ComparisonRow row;
    row.epsilon = eps;
    // Calibrations (data-independent: n, q, T are public).
    const double sigma_dishonest =
        privacy::calibrate_noise_multiplier(eps, config.delta, q, out.dpsgd_steps);
    row.dishonest.noise_multiplier = sigma_dishonest;
    row.dishonest.epsilon =
        privacy::epsilon_for_delta({sigma_dishonest, q, out.dpsgd_steps}, config.delta).epsilon;
    row.dishonest.accounting = "one DP-SGD run (RDP); the best-of-" +
                               std::to_string(config.grid_size) + " selection is not charged";
    const double sigma_honest =
        calibrate_honest_noise(eps, config.delta, q, out.dpsgd_steps, out.poisson_mean);
    row.honest.noise_multiplier = sigma_honest;
    row.honest.epsilon = privacy::papernot_steinke_poisson(
                             privacy::SubsampledGaussian{sigma_honest, q, out.dpsgd_steps},
                             out.poisson_mean, config.delta)
                             .epsilon;
    row.honest.accounting = "Papernot-Steinke Thm 6, K ~ Poisson(" +
                            format_number(out.poisson_mean) + "), whole selection (RDP)";
    CalibrationRequest request;
    request.epsilon = eps;
    request.delta = config.delta;
    request.gradient_bound = config.clip;
    request.smoothness = smoothness_of(GlmLoss::kLogistic, glm_train);
    request.tau = config.tau;
    request.output_noise_std = config.output_noise_std;
    request.noise_factor = config.noise_factor;
    const Calibration cal = calibrate_algorithm1(request);
    row.algorithm1.noise_multiplier = cal.privacy.noise_std;
    row.algorithm1.regularization = cal.privacy.regularization;
    row.algorithm1.noise_factor = cal.noise_factor;
    row.algorithm1.epsilon = cal.epsilon;
    row.algorithm1.accounting = "Algorithm 1, Theorem 4.1 (RDP), one release";
    say("epsilon " + format_number(eps) + ": DP-SGD sigma dishonest " +
        format_number(sigma_dishonest) + ", honest " + format_number(sigma_honest) +
        "; Algorithm 1 sigma " + format_number(cal.privacy.noise_std) + ", lambda " +
        format_number(cal.privacy.regularization));

    for (int t = 0; t < config.trials; ++t) {
      const std::uint64_t trial_seed = derive_seed(config.seed, e, static_cast<std::uint64_t>(t));
      if (config.run_dishonest) {
        double best = 0;
        for (int i = 0; i < config.grid_size; ++i) {
          check_cancel();
          const double lr = config.grid_size == 1
                                ? config.learning_rate_high
                                : config.learning_rate_low *
                                      std::pow(config.learning_rate_high / config.learning_rate_low,
                                               static_cast<double>(i) / (config.grid_size - 1));
          best = std::max(best, dpsgd_accuracy(sigma_dishonest, lr, derive_seed(trial_seed, 1, i)));
        }
        row.dishonest.accuracy.push_back(best);
        row.dishonest.runs.push_back(config.grid_size);
        share_done = 0.45;
        say("epsilon " + format_number(eps) + " trial " + std::to_string(t + 1) +
            ": dishonest DP-SGD done");
      }
      if (config.run_algorithm1) {
        check_cancel();
        Algorithm1Settings s;
        s.loss = GlmLoss::kLogistic;
        s.clip = config.clip;
        s.noise_std = cal.privacy.noise_std;
        s.regularization = cal.privacy.regularization;
        s.tau = config.tau;
        s.output_noise_std = config.output_noise_std;
        s.solver.kind = config.solver;
        s.seed = derive_seed(trial_seed, 2);
        const Algorithm1Result r = run_algorithm1(glm_train, s);
        row.algorithm1.accuracy.push_back(glm_accuracy(glm_test, r.theta));
        row.algorithm1.runs.push_back(1);
        share_done = 0.5;
        say("epsilon " + format_number(eps) + " trial " + std::to_string(t + 1) +
            ": Algorithm 1 done");
      }
      if (config.run_honest) {
        Rng rng(derive_seed(trial_seed, 3));
        const int k = sample_poisson(out.poisson_mean, rng);
        double best = k == 0 ? zero_model_accuracy : 0.0;
        const double log_lo = std::log(config.learning_rate_low);
        const double log_hi = std::log(config.learning_rate_high);
        for (int i = 0; i < k; ++i) {
          check_cancel();
          const double lr = std::exp(log_lo + (log_hi - log_lo) * rng.uniform());
          best = std::max(best, dpsgd_accuracy(sigma_honest, lr, derive_seed(trial_seed, 4, i)));
        }
        row.honest.accuracy.push_back(best);
        row.honest.runs.push_back(k);
      }
      trials_done += 1;
      share_done = 0;
      say("epsilon " + format_number(eps) + " trial " + std::to_string(t + 1) + "/" +
          std::to_string(config.trials) + " done");
    }
    summarise(row.dishonest);
    summarise(row.algorithm1);
    summarise(row.honest);
    out.rows.push_back(std::move(row));
  }
  out.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace dplab::objpert
