#include "tuning/release_cost.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/error.h"
#include "privacy/accounting/composition.h"
#include "privacy/accounting/epsilon_display.h"
#include "privacy/accounting/rdp_accountant.h"
#include "privacy/accounting/rdp_conversion.h"
#include "privacy/selection/linear_scaling_tuning.h"
#include "privacy/selection/papernot_steinke.h"
#include "privacy/selection/private_selection.h"
#include "privacy/selection/subsampled_tuning.h"
#include "tuning/accounting.h"
#include "tuning/runner.h"

namespace dplab::tuning {
namespace {

using experiment::PrivateSelection;
using experiment::ReleaseMode;
using experiment::RunCountDistribution;
using experiment::ValidationAssumption;

// Adds `times` x the T-step curve of (sigma, q) to `total` (orders: the default grid).
void add_run(std::vector<double>& total, double sigma, double q, std::int64_t steps, double times) {
  if (steps <= 0 || times <= 0) return;
  const auto curve = privacy::rdp_curve(sigma, q);
  if (total.empty()) total.assign(curve->orders.size(), 0.0);
  for (std::size_t i = 0; i < total.size(); ++i) {
    total[i] += times * static_cast<double>(steps) * curve->rdp_per_step[i];
  }
}

// epsilon at delta of `times` independent releases with this RDP curve (Mironov 2017 Prop. 1).
double rdp_times(const std::vector<double>& orders, const std::vector<double>& rdp, int times,
                 double delta) {
  std::vector<double> total(rdp);
  for (double& r : total) r *= times;
  return privacy::epsilon_from_rdp(orders, total, delta).epsilon;
}

ReleaseCost base(const SearchResults& results) {
  ReleaseCost cost;
  cost.release = results.config.release;
  cost.delta = results.mechanism.delta;
  cost.num_candidates = static_cast<int>(results.candidates.size());
  if (results.config.release.mode == ReleaseMode::kExplore) {
    cost.not_covered = {"train_loss", "final_train_loss"};
    cost.not_covered_clauses.push_back(kTrainingLossNotCovered);
  }
  // From the config alone (not the loaded data), so a reloaded search says the same.
  if (data::preprocessing_of(dataset_source(results.config)).fitted_on_private_data) {
    cost.not_covered.push_back("preprocessing");
    cost.not_covered_clauses.push_back(data::kPreprocessingNotCovered);
  }
  if (results.config.variants.divide_by_realized_lot) {
    // The caveat is part of the epsilon's own label, wherever it is printed (CLI, CSV, GUI).
    cost.divides_by_realized_lot = true;
    cost.not_covered_clauses.push_back(
        "NOT covered: the runs divided by the realised |lot| (variant lot_normalization = "
        "realized), a data-dependent step the accountant does not analyse");
  }
  return cost;
}

// Release mode private-subsampled: the tuning phase on X1 and the final run (release_cost.h).
ReleaseCost subsampled_release_cost(const SearchResults& results) {
  ReleaseCost cost = base(results);
  const auto& release = results.config.release;
  if (release.validation == ValidationAssumption::kPrivate) {
    throw InvalidArgument("private-subsampled: validation \"private\" is not available yet");
  }
  const RunMechanism& m = results.mechanism;
  const double final_rate = m.sampling_rate;
  cost.tuning_sampling_rate =
      privacy::subset_sampling_rate(final_rate, release.tuning_fraction, release.subset_batching);
  privacy::SubsampledTuningSetting setting;
  setting.tuning_fraction = release.tuning_fraction;
  setting.final_data = release.final_data;
  setting.law.poisson = release.ps_distribution == RunCountDistribution::kPoisson;
  setting.law.mu = release.ps_mu;
  setting.law.eta = release.ps_eta;
  setting.law.gamma = release.ps_gamma;
  const privacy::SubsampledTuningCost kk = privacy::subsampled_tuning_cost(
      {m.noise_multiplier, cost.tuning_sampling_rate, m.steps},
      {m.noise_multiplier, final_rate, m.steps}, setting, cost.delta);
  cost.epsilon = kk.epsilon;
  const int replicates = std::max(1, results.config.repeats);
  cost.replicates = replicates;
  double epsilon_total = kk.epsilon;
  {
    // R whole two-phase procedures on the same data, each its own X1 draw, search and final
    // run (independent randomness): the release is their composition. The procedure's RDP
    // curve (subsampled_tuning_rdp's total, the curve kk.epsilon converts) times R (Mironov
    // 2017 Prop. 1), converted at the same delta, as for private ps (docs/privacy-model.md).
    const std::vector<double> orders = privacy::rdp_orders();
    auto steps_curve = [&](double rate) {
      const auto curve = privacy::rdp_curve(m.noise_multiplier, rate);
      std::vector<double> rdp(curve->rdp_per_step);
      for (double& r : rdp) r *= static_cast<double>(m.steps);
      return rdp;
    };
    const privacy::SubsampledTuningCurves curves = privacy::subsampled_tuning_rdp(
        orders, steps_curve(cost.tuning_sampling_rate), steps_curve(final_rate), setting);
    if (replicates > 1)
      epsilon_total = rdp_times(curves.orders, curves.total_rdp, replicates, cost.delta);
    cost.rdp_orders = curves.orders;
    cost.rdp = curves.total_rdp;
    for (double& r : cost.rdp) r *= replicates;
  }
  cost.epsilon_tuning_phase = kk.epsilon_tuning_phase;
  cost.epsilon_per_run = kk.epsilon_final_run;
  cost.expected_runs = kk.expected_candidates;
  cost.learning_rate_multiplier =
      experiment::learning_rate_multiplier(release.lr_transfer, release.tuning_fraction);
  cost.epsilon_per_replicate = cost.epsilon;
  cost.delta_per_replicate = cost.delta;
  if (replicates > 1) {
    cost.composition = "rdp";
    cost.epsilon = epsilon_total;
  }
  char text[400];
  std::snprintf(text, sizeof text,
                "both phases: a Papernot-Steinke search (E[K] = %g candidate runs) on a Poisson "
                "subsample of rate q = %g (lot sampling rate %g on it), then one final run of "
                "the winner (%s) on %s; only the final run's results released",
                kk.expected_candidates, release.tuning_fraction, cost.tuning_sampling_rate,
                experiment::describe_transfer(release.lr_transfer, release.tuning_fraction).c_str(),
                release.final_data == privacy::FinalRunData::kFullData
                    ? "the full data"
                    : "the complement of the subset");
  cost.covers = text;
  return cost;
}

// Release mode private-linear-scaling: 2K trial runs at the trial budgets and the final run
// (privacy/selection/linear_scaling_tuning.h). `results` is the final run (its mechanism is the
// final run's); K is release.trial_candidates, or the grid's size for a plan.
ReleaseCost linear_scaling_release_cost(const SearchResults& results) {
  ReleaseCost cost = base(results);
  const auto& release = results.config.release;
  const RunMechanism& m = results.mechanism;
  const int k = release.trial_candidates > 0 ? release.trial_candidates : cost.num_candidates;
  privacy::LinearScalingSetting setting;
  setting.trial_fraction_low = release.trial_fraction_low;
  setting.trial_fraction_high = release.trial_fraction_high;
  setting.candidates = k;
  const privacy::LinearScalingCost ls = privacy::linear_scaling_cost(
      {m.noise_multiplier, m.sampling_rate, m.steps}, cost.delta, setting);
  cost.num_candidates = k;
  cost.epsilon = ls.epsilon;
  cost.epsilon_tuning_phase = ls.epsilon_trials;
  cost.epsilon_per_run = ls.epsilon_final;
  cost.runs_charged = 2 * static_cast<std::int64_t>(k) + 1;
  cost.expected_runs = static_cast<double>(cost.runs_charged);
  cost.epsilon_per_replicate = cost.epsilon;
  cost.delta_per_replicate = cost.delta;
  cost.rdp_orders = ls.orders;
  cost.rdp = ls.rdp;
  char text[400];
  std::snprintf(text, sizeof text,
                "linear scaling: %d candidates trained at each of two trial budgets (eps %.4g at "
                "sigma %.4g, eps %.4g at sigma %.4g), then one final run (eps %.4g alone) at the "
                "extrapolated learning rate; only the final run and the fit released",
                k, ls.budgets.trial_epsilon[0], ls.budgets.trial_noise[0],
                ls.budgets.trial_epsilon[1], ls.budgets.trial_noise[1], ls.epsilon_final);
  cost.covers = text;
  return cost;
}

}  // namespace

void per_run_rdp(const SearchResults& results, std::vector<double>& orders,
                 std::vector<double>& rdp) {
  const RunMechanism& m = results.mechanism;
  orders = privacy::rdp_orders();
  rdp.clear();
  add_run(rdp, m.noise_multiplier, m.sampling_rate, m.steps, 1.0);
  if (rdp.empty()) rdp.assign(orders.size(), 0.0);
  const auto& release = results.config.release;
  if (release.validation == ValidationAssumption::kPrivate) {
    // Gaussian mechanism on the accuracy: sensitivity 1/n_val, std s/n_val -> alpha/(2 s^2).
    const double s = release.validation_noise_multiplier;
    for (std::size_t i = 0; i < orders.size(); ++i) rdp[i] += orders[i] / (2.0 * s * s);
  }
}

ReleaseCost explore_release_cost(const SearchResults& results) {
  ReleaseCost cost = base(results);
  if (results.config.release.validation == ValidationAssumption::kPrivate) {
    throw InvalidArgument("release.validation = private is not available in explore mode");
  }
  // Every run of one experiment has the same (sigma, q); runs differ only in their number of
  // queries (a cancelled run stopped early). Composition adds the per-order curves, so the
  // total is the curve of ONE run of sum(queries) steps: exactly what `dplab-cli account
  // --steps <sum>` computes.
  const RunMechanism& m = results.mechanism;
  std::int64_t runs = 0, queries = 0;
  for (const JobResult& job : results.jobs) {
    if (job.queries <= 0) continue;  // never touched the data
    ++runs;
    queries += job.queries;
  }
  cost.runs_charged = runs;
  cost.total_queries = queries;
  cost.expected_runs = static_cast<double>(runs);
  cost.covers = "all " + std::to_string(runs) + " runs trained (" +
                std::to_string(cost.num_candidates) + " candidates x " +
                std::to_string(results.config.repeats) + " repeats)";
  cost.epsilon_per_run =
      privacy::epsilon_for_delta({m.noise_multiplier, m.sampling_rate, m.steps}, cost.delta)
          .epsilon;
  if (runs > 0) {
    cost.epsilon =
        privacy::epsilon_for_delta({m.noise_multiplier, m.sampling_rate, queries}, cost.delta)
            .epsilon;
  }
  if (m.noise_multiplier > 0 && m.sampling_rate > 0) {
    cost.rdp_orders = privacy::rdp_orders();
    cost.rdp.assign(cost.rdp_orders.size(), 0.0);
    add_run(cost.rdp, m.noise_multiplier, m.sampling_rate, queries, 1.0);
  }
  cost.epsilon_per_replicate = cost.epsilon;
  cost.delta_per_replicate = cost.delta;
  return cost;
}

ReleaseCost private_release_cost(const SearchResults& results) {
  if (results.config.release.subsampled) return subsampled_release_cost(results);
  if (results.config.release.linear_scaling) return linear_scaling_release_cost(results);
  ReleaseCost cost = base(results);
  const auto& release = results.config.release;
  std::vector<double> orders, one;
  per_run_rdp(results, orders, one);
  cost.epsilon_per_run = privacy::epsilon_from_rdp(orders, one, cost.delta).epsilon;
  const int k = cost.num_candidates;
  const int replicates = std::max(1, results.config.repeats);
  cost.replicates = replicates;
  double epsilon_total = 0.0;  // all R replicates (set below when R > 1)
  double delta_total = cost.delta;
  switch (release.selection) {
    case PrivateSelection::kMa: {
      if (release.validation == ValidationAssumption::kPublic) {
        // K runs of T steps = one run of K*T steps (what `account --selection ma` computes);
        // R replicates = R*K runs (RDP composition), i.e. MA over R*K candidates.
        const RunMechanism& m = results.mechanism;
        const privacy::SubsampledGaussian run{m.noise_multiplier, m.sampling_rate, m.steps};
        cost.epsilon = privacy::moments_accountant_selection(run, k, cost.delta).epsilon;
        if (m.noise_multiplier > 0 && m.sampling_rate > 0) {
          cost.rdp_orders = orders;
          cost.rdp.assign(orders.size(), 0.0);
          add_run(cost.rdp, m.noise_multiplier, m.sampling_rate, m.steps,
                  static_cast<double>(k) * replicates);
        }
        if (replicates > 1) {
          epsilon_total =
              privacy::moments_accountant_selection(run, k * replicates, cost.delta).epsilon;
        }
      } else {
        std::vector<double> total(one);
        for (double& r : total) r *= k;
        cost.epsilon = privacy::epsilon_from_rdp(orders, total, cost.delta).epsilon;
        if (replicates > 1) epsilon_total = rdp_times(orders, total, replicates, cost.delta);
        cost.rdp_orders = orders;
        cost.rdp = total;
        for (double& r : cost.rdp) r *= replicates;
      }
      cost.runs_charged = k;
      cost.expected_runs = k;
      cost.covers = "the best of " + std::to_string(k) +
                    " runs (one per candidate), only the winner released";
      break;
    }
    case PrivateSelection::kLt: {
      cost.gamma = results.config.tuning.gamma ? *results.config.tuning.gamma : 1.0 / k;
      cost.delta2 = results.config.tuning.delta2;
      const auto lt =
          privacy::liu_talwar_selection_enforced(orders, one, cost.gamma, cost.delta, cost.delta2);
      cost.epsilon = lt.epsilon;
      // Liu-Talwar is an (eps, delta) bound, not an RDP curve: R replicates by basic composition.
      if (replicates > 1) {
        const auto total = privacy::basic_composition({lt.epsilon, cost.delta}, replicates);
        epsilon_total = total.epsilon;
        delta_total = total.delta;
      }
      cost.hard_stop = static_cast<std::int64_t>(lt.upsilon);
      cost.runs_charged = cost.hard_stop;
      // E[min(Geometric(gamma), Upsilon)] = (1 - (1-gamma)^Upsilon) / gamma.
      cost.expected_runs =
          -std::expm1(static_cast<double>(cost.hard_stop) * std::log1p(-cost.gamma)) / cost.gamma;
      char text[160];
      std::snprintf(text, sizeof text,
                    "LT random stopping over %d candidates (gamma = %g, hard stop %lld), only the "
                    "winner released",
                    k, cost.gamma, static_cast<long long>(cost.hard_stop));
      cost.covers = text;
      break;
    }
    case PrivateSelection::kPs: {
      privacy::PapernotSteinkeCost ps;
      const bool poisson = release.ps_distribution == RunCountDistribution::kPoisson;
      if (poisson) {
        ps = privacy::papernot_steinke_poisson(orders, one, release.ps_mu, cost.delta);
      } else {
        ps = privacy::papernot_steinke_tnb(orders, one, release.ps_eta, release.ps_gamma,
                                           cost.delta);
      }
      cost.epsilon = ps.epsilon;
      // The selection's RDP curve (Thm 6 / Thm 2), composed R times.
      const std::vector<double> selection =
          poisson
              ? privacy::papernot_steinke_poisson_rdp(orders, one, release.ps_mu)
              : privacy::papernot_steinke_tnb_rdp(orders, one, release.ps_eta, release.ps_gamma);
      if (replicates > 1) epsilon_total = rdp_times(orders, selection, replicates, cost.delta);
      cost.rdp_orders = orders;
      cost.rdp = selection;
      for (double& r : cost.rdp) r *= replicates;
      cost.expected_runs = ps.expected_runs;
      // describe_release gives "private ps (poisson mu=10)": its parenthesis, once.
      cost.covers = "Papernot-Steinke random stopping over " + std::to_string(k) + " candidates " +
                    experiment::describe_release(release).substr(11) + ", only the winner released";
      break;
    }
  }
  // The headline covers all R replicates; one replicate is kept beside it.
  cost.epsilon_per_replicate = cost.epsilon;
  cost.delta_per_replicate = cost.delta;
  if (replicates > 1) {
    cost.composition = release.selection == PrivateSelection::kLt ? "basic" : "rdp";
    cost.epsilon = epsilon_total;
    cost.delta = delta_total;
  }
  return cost;
}

ReleaseCost release_cost(const SearchResults& results) {
  return results.config.release.mode == ReleaseMode::kExplore ? explore_release_cost(results)
                                                              : private_release_cost(results);
}

ReleaseCost planned_release_cost(const experiment::ExperimentConfig& config,
                                 std::int64_t training_size, std::int64_t validation_size) {
  if (training_size <= 0) throw InvalidArgument("planned_release_cost: n must be > 0");
  SearchResults plan;
  plan.config = config;
  plan.candidates = experiment::expand_candidates(config);
  plan.training_size = training_size;
  plan.validation_size = validation_size;
  plan.mechanism = run_mechanism(config, training_size);
  if (config.release.mode == ReleaseMode::kExplore) {
    plan.jobs.resize(plan.candidates.size() * static_cast<std::size_t>(config.repeats));
    for (JobResult& job : plan.jobs) job.queries = config.privacy.steps;
  }
  return release_cost(plan);
}

std::string epsilon_csv_label(const ReleaseCost& cost) {
  return epsilon_label(cost, privacy::kEpsilonDigits) + "; accountant: rdp; eps rounded up to " +
         std::to_string(privacy::kEpsilonDigits) + " decimals";
}

std::string epsilon_label(const ReleaseCost& cost, int digits) {
  char delta[32];
  std::snprintf(delta, sizeof delta, "%g", cost.delta);
  std::string text = "eps <= " + privacy::format_epsilon_up(cost.epsilon, digits) + " (" +
                     experiment::describe_release(cost.release) + ": " + cost.covers;
  if (cost.release.mode == ReleaseMode::kPrivate && cost.replicates > 1) {
    // The headline covers every replicate's released winner; one replicate beside it.
    char per[32];
    std::snprintf(per, sizeof per, "%g", cost.delta_per_replicate);
    text += "; total over " + std::to_string(cost.replicates) + " replicate searches by " +
            (cost.composition == "basic" ? std::string("basic composition (R eps, R delta)")
                                         : std::string("RDP composition")) +
            "; delta = " + delta +
            "; validation: " + experiment::to_string(cost.release.validation) +
            "; per replicate search: eps <= " +
            privacy::format_epsilon_up(cost.epsilon_per_replicate, digits) + ", delta = " + per;
    for (const auto& clause : cost.not_covered_clauses) text += "; " + clause;
    return text + ")";
  }
  text += std::string("; delta = ") + delta +
          "; validation: " + experiment::to_string(cost.release.validation);
  if (cost.release.mode == ReleaseMode::kPrivate) text += "; one replicate search";
  for (const auto& clause : cost.not_covered_clauses) text += "; " + clause;
  return text + ")";
}

}  // namespace dplab::tuning
