// Issue #23 items 6 and 7 (engine/tuning/release_cost.h, private_search.h):
// - with R > 1 replicate searches every replicate's winner is released, so the epsilon is the
//   composition over the R replicates: checked against an independent composition (MA: R*K
//   runs; PS: the Papernot-Steinke RDP curve times R; LT: basic composition, R eps and R delta),
//   with one replicate's epsilon beside it; the grid layout of the released winners keeps R;
// - secure mode releases the noisy validation score as a discrete Gaussian on the integer
//   correct-count: every released score times n_val is an integer, the noise has mean 0 and
//   variance ceil(S)^2 (within statistical tolerance), and the seeded mode is not integer.
#include <QTest>

#include <cmath>
#include <vector>

#include "privacy/accounting/composition.h"
#include "privacy/accounting/epsilon_display.h"
#include "privacy/accounting/rdp_accountant.h"
#include "privacy/accounting/rdp_conversion.h"
#include "privacy/selection/papernot_steinke.h"
#include "privacy/selection/private_selection.h"
#include "support/numeric_compare.h"
#include "support/test_registry.h"
#include "support/tiny_experiment.h"
#include "tuning/private_release_view.h"
#include "tuning/private_search.h"
#include "tuning/release_cost.h"

using namespace dplab;
using namespace dplab::tuning;
using experiment::PrivateSelection;
using experiment::ReleaseMode;

namespace {

constexpr std::int64_t kN = 600;

experiment::ExperimentConfig private_config(PrivateSelection selection, int repeats) {
  auto config = testing::tiny_experiment(50, 1);
  config.repeats = repeats;
  config.release.mode = ReleaseMode::kPrivate;
  config.release.selection = selection;
  config.release.ps_mu = 3.0;
  config.tuning.gamma = 0.2;
  return config;
}

// The per-run RDP curve of the tiny experiment (T steps of (sigma, q)), on the default orders.
std::vector<double> per_run_curve(const experiment::ExperimentConfig& c, std::vector<double>& a) {
  const auto curve =
      privacy::rdp_curve(c.privacy.noise_multiplier, c.privacy.lot_size / double(kN));
  a = curve->orders;
  std::vector<double> rdp(curve->rdp_per_step);
  for (double& r : rdp) r *= static_cast<double>(c.privacy.steps);
  return rdp;
}

}  // namespace

class TestReleaseReplicates : public QObject {
  Q_OBJECT
 private slots:
  void one_replicate_is_the_headline() {
    for (auto s : {PrivateSelection::kMa, PrivateSelection::kLt, PrivateSelection::kPs}) {
      const ReleaseCost cost = planned_release_cost(private_config(s, 1), kN, 100);
      QCOMPARE(cost.replicates, 1);
      QCOMPARE(cost.epsilon, cost.epsilon_per_replicate);
      QCOMPARE(cost.delta, cost.delta_per_replicate);
      QVERIFY(epsilon_label(cost).find("one replicate search") != std::string::npos);
    }
  }

  void ma_total_is_r_times_k_runs() {
    const auto config = private_config(PrivateSelection::kMa, 3);
    const ReleaseCost cost = planned_release_cost(config, kN, 100);
    const privacy::SubsampledGaussian run{config.privacy.noise_multiplier,
                                          config.privacy.lot_size / double(kN),
                                          config.privacy.steps};
    const double delta = cost.delta_per_replicate;
    DPLAB_COMPARE_REL(cost.epsilon_per_replicate,
                      privacy::moments_accountant_selection(run, 5, delta).epsilon, 1e-12);
    DPLAB_COMPARE_REL(cost.epsilon, privacy::moments_accountant_selection(run, 15, delta).epsilon,
                      1e-12);
    QCOMPARE(cost.delta, delta);
    QCOMPARE(cost.composition, std::string("rdp"));
    QVERIFY(cost.epsilon > 1.2 * cost.epsilon_per_replicate);
    const std::string label = epsilon_label(cost);
    QVERIFY2(label.find("total over 3 replicate searches by RDP composition") != std::string::npos,
             label.c_str());
    QVERIFY2(
        label.find("per replicate search: eps <= " +
                   privacy::format_epsilon_up(cost.epsilon_per_replicate)) != std::string::npos,
        label.c_str());
  }

  void ps_total_composes_the_selection_curve() {
    const auto config = private_config(PrivateSelection::kPs, 4);
    const ReleaseCost cost = planned_release_cost(config, kN, 100);
    std::vector<double> orders;
    const auto one = per_run_curve(config, orders);
    auto selection = privacy::papernot_steinke_poisson_rdp(orders, one, 3.0);
    const double delta = cost.delta_per_replicate;
    DPLAB_COMPARE_REL(cost.epsilon_per_replicate,
                      privacy::epsilon_from_rdp(orders, selection, delta).epsilon, 1e-12);
    for (double& r : selection) r *= 4;
    DPLAB_COMPARE_REL(cost.epsilon, privacy::epsilon_from_rdp(orders, selection, delta).epsilon,
                      1e-12);
    QVERIFY(cost.epsilon > cost.epsilon_per_replicate);
    QVERIFY(cost.epsilon < 4 * cost.epsilon_per_replicate);  // RDP beats basic composition
  }

  void lt_total_is_basic_composition() {
    const auto config = private_config(PrivateSelection::kLt, 3);
    const ReleaseCost cost = planned_release_cost(config, kN, 100);
    std::vector<double> orders;
    const auto one = per_run_curve(config, orders);
    const auto lt = privacy::liu_talwar_selection_enforced(
        orders, one, 0.2, cost.delta_per_replicate, config.tuning.delta2);
    DPLAB_COMPARE_REL(cost.epsilon_per_replicate, lt.epsilon, 1e-12);
    DPLAB_COMPARE_REL(cost.epsilon, 3 * lt.epsilon, 1e-12);
    DPLAB_COMPARE_REL(cost.delta, 3 * cost.delta_per_replicate, 1e-12);
    QCOMPARE(cost.composition, std::string("basic"));
    QVERIFY(epsilon_label(cost).find("basic composition") != std::string::npos);
  }

  void grid_layout_keeps_the_replicates() {
    // The released winners laid out as a grid (history export, the GUI) change config.repeats;
    // their epsilon must still compose all R replicates.
    const auto config = private_config(PrivateSelection::kMa, 3);
    SearchResults results;
    results.config = config;
    results.candidates = experiment::expand_candidates(config);
    results.training_size = kN;
    results.validation_size = 100;
    results.mechanism = {config.privacy.noise_multiplier, config.privacy.lot_size / double(kN),
                         config.privacy.steps, 1e-5};
    const PrivatePlan plan = draw_private_plan(config, 5, 1);
    for (const auto& planned : plan.jobs) {
      JobResult job;
      job.candidate = planned.candidate;
      job.repeat = planned.repeat;
      job.status = JobStatus::kFinished;
      job.queries = config.privacy.steps;
      job.final_val_accuracy = 0.5;
      results.jobs.push_back(job);
    }
    const auto shown = grid_shaped_runs(results, {0, 5, 10});  // candidate 0 of each replicate
    QCOMPARE(shown.config.repeats, 3);
    const auto one = grid_shaped_runs(results, {0});  // one winner: still 3 replicates released
    QCOMPARE(one.config.repeats, 3);
    QCOMPARE(private_release_cost(one).epsilon, private_release_cost(results).epsilon);
    QCOMPARE(private_release_cost(shown).epsilon, private_release_cost(results).epsilon);
    QVERIFY(private_release_cost(results).epsilon >
            private_release_cost(results).epsilon_per_replicate);
  }

  void secure_score_is_a_discrete_gaussian_on_the_count() {
    // R = 4000 replicates of one run each (a plan built by hand): the winner is that run, its
    // score the noisy accuracy.
    for (const bool secure : {true, false}) {
      auto config = private_config(PrivateSelection::kMa, 1);
      config.release.validation = experiment::ValidationAssumption::kPrivate;
      config.release.validation_noise_multiplier = 2.5;  // discrete sigma = ceil(2.5) = 3
      config.release.secure = secure;
      SearchResults results;
      results.config = config;
      results.candidates = experiment::expand_candidates(config);
      results.validation_size = 200;
      PrivatePlan plan;
      plan.selection = PrivateSelection::kMa;
      constexpr int kReplicates = 4000;
      for (int r = 0; r < kReplicates; ++r) {
        ReplicatePlan rep;
        rep.first_job = r;
        rep.candidates = {0};
        plan.replicates.push_back(rep);
        JobResult job;
        job.candidate = 0;
        job.repeat = r;
        job.status = JobStatus::kFinished;
        job.final_val_accuracy = 131.0 / 200.0;  // 131 correct
        results.jobs.push_back(job);
      }
      const PrivateRelease release = select_private_winners(results, plan, 77);
      int integer = 0;
      double sum = 0, sum_sq = 0;
      for (const auto& rep : release.replicates) {
        const double count = rep.released_score * 200.0;
        integer += std::abs(count - std::round(count)) < 1e-6 ? 1 : 0;
        const double noise = count - 131.0;
        sum += noise;
        sum_sq += noise * noise;
      }
      const double mean = sum / kReplicates, variance = sum_sq / kReplicates - mean * mean;
      if (secure) {
        // Every released count is an integer: no float noise to attack (Mironov 2012).
        QCOMPARE(integer, kReplicates);
        // N_Z(0, 9): mean 0 (sd of the mean 3/sqrt(4000) = 0.047), variance <= 9 and within
        // 10% of it (CKS20 Prop. 19: the variance of N_Z(0, s^2) is below s^2 and, for s = 3,
        // within 1e-8 of it; sampling sd of the variance ~ 9 sqrt(2/4000) = 0.2).
        QVERIFY2(std::abs(mean) < 0.25, qPrintable(QString::number(mean)));
        QVERIFY2(std::abs(variance - 9.0) < 0.9, qPrintable(QString::number(variance)));
      } else {
        // Seeded Box-Muller: std 2.5 counts, not on the integers.
        QVERIFY(integer < kReplicates / 10);
        QVERIFY2(std::abs(variance - 6.25) < 0.7, qPrintable(QString::number(variance)));
      }
    }
  }

  void noise_source_is_stated() {
    auto config = private_config(PrivateSelection::kLt, 1);
    QVERIFY(noise_source_text(config.release)
                .starts_with("not secure: the seed in the config reproduces the noise"));
    config.release.secure = true;
    QVERIFY(noise_source_text(config.release).starts_with("secure:"));
  }
};

DPLAB_TEST_GUILESS_MAIN(TestReleaseReplicates)
#include "test_release_replicates.moc"
