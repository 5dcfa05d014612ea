// "How private is it really?" in the engine (audit/privacy_gap_sweep.h, audit/gaussian_fit_
// estimate.h):
//   - the Gaussian-fit ESTIMATE (Andrew et al. 2024) recovers the Gaussian-DP epsilon of mu from
//     scores drawn from N(0, 1) (excluded) and N(mu, 1) (included), within a stated tolerance;
//   - the 20-seed sanity of issue #29 (iii): DP-SGD at eps = 2 and 8 on a small logistic task,
//     white-box all iterates: in EVERY seed the audited lower bound is positive and below the
//     accountant's eps (a bound above the accountant is a bug in one of them);
//     The f-DP bound on the same guesses too: full batch, the run is exactly mu-GDP, so the
//     bound's Gaussian-shape hypothesis holds and it must stay below the accountant as well;
//   - the sweep's rows: one per target then the non-private twin, each with the accountant's
//     upper bounds of the q the run used, the lower bounds at most their ceilings, and the
//     last-iterate heuristic, which at q = 1 is the composition's Gaussian epsilon itself.
#include <QTest>

#include <chrono>
#include <cmath>

#include "audit/gaussian_fit_estimate.h"
#include "audit/last_iterate_heuristic.h"
#include "audit/privacy_gap_sweep.h"
#include "core/error.h"
#include "core/random.h"
#include "data/synthetic.h"
#include "privacy/accounting/accountant_choice.h"
#include "privacy/mechanisms/gaussian_mechanism.h"
#include "privacy/mechanisms/gaussian_noise.h"
#include "support/audit_tasks.h"
#include "support/expect_error.h"
#include "support/numeric_compare.h"
#include "support/test_registry.h"

using namespace dplab;

namespace {

constexpr double kDelta = 1e-5;

// The sanity task: d = 1000 features (1001 parameters) for m = 1000 canaries (random unit
// directions, nearly orthogonal: |<u_i, u_j>| ~ 1/sqrt(d); see audit/dirac_canaries.h), full batch
// (q = 1: DP-GD, where the all-iterates score is the Neyman-Pearson test) and T = 20 steps: with q
// = 1 the run is mu-GDP with mu = sqrt(T) / sigma whatever T, so few steps audit as strongly as
// many and keep 40 runs well under 20 s (measured: 0.4 s).
constexpr Index kDim = 1000;
constexpr int kCanaries = 1000;
constexpr std::int64_t kSteps = 20;

data::TrainValidationSplit wide_task() {
  return testing::synthetic_audit_task(kDim, 400);
}

training::TrainingConfig full_batch_logistic(const data::TrainValidationSplit& data,
                                             std::uint64_t seed) {
  training::TrainingConfig config;
  config.model.kind = models::ModelKind::kLogisticRegression;
  config.optimizer = optim::default_spec(optim::OptimizerKind::kDpSgd);
  config.optimizer.learning_rate = 0.5;
  config.dp.clip = 1.0;
  config.dp.lot_size = static_cast<double>(data.train.size());
  config.steps = kSteps;
  config.seed = seed;
  return config;
}

}  // namespace

class TestPrivacyGapSweep : public QObject {
  Q_OBJECT

 private slots:
  // Scores N(0, 1) out, N(mu, 1) in: the fit's mu^ has standard error ~ sqrt(4 / m) = 0.014 at
  // m = 20000, which moves eps by at most ~5 % over mu in [0.5, 2]: tolerance 10 % relative.
  void gaussian_fit_recovers_the_gdp_epsilon() {
    const int m = 20000;
    for (const double mu : {0.5, 1.0, 2.0}) {
      Rng coin(11);
      privacy::GaussianNoise noise(12);
      Vector z(m);
      noise.fill(1.0, z);
      std::vector<double> scores;
      std::vector<bool> included;
      for (int i = 0; i < m; ++i) {
        included.push_back((coin() >> 63) != 0);
        scores.push_back((included.back() ? mu : 0.0) + static_cast<double>(z[i]));
      }
      const auto e = audit::gaussian_fit_estimate(scores, included, kDelta);
      const double gdp_eps = privacy::analytic_gaussian_epsilon(1.0 / mu, kDelta);
      qInfo("mu %g: fitted mu %g, estimate %g, Gaussian-DP eps %g", mu, e.mu, e.epsilon, gdp_eps);
      DPLAB_COMPARE_ABS(e.pooled_std, 1.0, 0.03);
      DPLAB_COMPARE_ABS(e.mu, mu, 0.05);
      DPLAB_COMPARE_REL(e.epsilon, gdp_eps, 0.10);
    }
  }

  void gaussian_fit_edges() {
    // No separation: 0. Groups without spread: infinite. Too few on one side: refused.
    const std::vector<bool> in = {true, true, false, false};
    QCOMPARE(audit::gaussian_fit_estimate({0, 1, 0, 1}, in, kDelta).epsilon, 0.0);
    QCOMPARE(audit::gaussian_fit_estimate({1, 0, 1, 0}, in, kDelta).epsilon, 0.0);
    QVERIFY(std::isinf(audit::gaussian_fit_estimate({1, 1, 0, 0}, in, kDelta).epsilon));
    QVERIFY(testing::error_of<InvalidArgument>([&] {
              audit::gaussian_fit_estimate({1, 0, 0}, {true, false, false}, kDelta);
            }).contains("at least 2"));
    QVERIFY(testing::error_of<InvalidArgument>([&] {
              audit::gaussian_fit_estimate({1, 0}, in, kDelta);
            }).contains("size"));
  }

  // Issue #29 (iii): 20 seeds, eps 2 and 8: bound > 0 and bound < accountant eps in every one.
  void twenty_seed_sweep_is_positive_and_below_the_accountant() {
    const auto started = std::chrono::steady_clock::now();
    const auto data = wide_task();
    int zero_bounds = 0;
    for (const double target : {2.0, 8.0}) {
      const double sigma = privacy::calibrate_noise_multiplier_with(target, kDelta, 1.0, kSteps,
                                                                    privacy::Accountant::kRdp);
      const double accountant_eps =
          privacy::run_epsilon({sigma, 1.0, kSteps}, 1, kDelta, privacy::Accountant::kRdp).epsilon;
      QVERIFY(accountant_eps <= target + 1e-6);
      double lowest = 1e300, highest = 0, fdp_lowest = 1e300, fdp_highest = 0;
      for (std::uint64_t seed = 1; seed <= 20; ++seed) {
        auto config = full_batch_logistic(data, seed);
        config.dp.noise_multiplier = sigma;
        audit::OneRunAuditOptions options;
        options.canaries = kCanaries;
        options.seed = 100 + seed;
        options.delta = kDelta;
        const auto result = audit::run_one_run_audit(data, config, options);
        const double bound = result.bound.epsilon_lower_bound;
        const QString what = QString("eps %1 seed %2: bound %3, accountant %4")
                                 .arg(target)
                                 .arg(seed)
                                 .arg(bound)
                                 .arg(accountant_eps);
        QVERIFY2(!result.diverged, qPrintable(what));
        QVERIFY2(bound < accountant_eps, qPrintable(what));
        if (!(bound > 0)) ++zero_bounds;
        QVERIFY2(bound > 0, qPrintable(what));
        lowest = std::min(lowest, bound);
        highest = std::max(highest, bound);
        QVERIFY(result.bound.fdp.has_value());
        const double fdp = result.bound.fdp->epsilon_lower_bound;
        QVERIFY2(fdp < accountant_eps, qPrintable(what + QString(", f-DP %1").arg(fdp)));
        fdp_lowest = std::min(fdp_lowest, fdp);
        fdp_highest = std::max(fdp_highest, fdp);
      }
      qInfo("eps %g (sigma %g): 20 seeds, bound in [%g, %g], f-DP bound in [%g, %g]", target, sigma,
            lowest, highest, fdp_lowest, fdp_highest);
    }
    QCOMPARE(zero_bounds, 0);
    qInfo("20-seed sweep: %.1f s",
          std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
  }

  void sweep_rows_are_the_accountant_and_the_audit_of_each_target() {
    const auto data = wide_task();
    audit::PrivacyGapSweepConfig config;
    config.run = full_batch_logistic(data, 5);
    config.epsilon_targets = {1.0, 8.0};
    config.options.canaries = 200;
    config.options.delta = kDelta;
    config.options.seed = 9;
    std::vector<double> fractions;
    const auto rows = audit::run_privacy_gap_sweep(
        data, config, [&](const std::string&, double f) { fractions.push_back(f); });
    QCOMPARE(rows.size(), std::size_t{3});
    QCOMPARE(fractions.back(), 1.0);
    for (std::size_t i = 0; i < 2; ++i) {
      const auto& r = rows[i];
      QVERIFY(r.is_private);
      QCOMPARE(r.epsilon_target, config.epsilon_targets[i]);
      QVERIFY(r.noise_multiplier > 0);
      QVERIFY(r.epsilon_rdp <= r.epsilon_target + 1e-6);
      QVERIFY(r.epsilon_pld <= r.epsilon_rdp * 1.001);
      QVERIFY(r.audit.bound.epsilon_lower_bound <= r.audit.bound.ceiling + 1e-9);
      QVERIFY(r.audit.bound.epsilon_lower_bound < r.epsilon_pld);
      QCOMPARE(r.audit.bound.counts.canaries, std::int64_t{200});
      QVERIFY(r.estimate.epsilon >= 0);
      QVERIFY(r.audit.bound.fdp && r.audit.final_model_bound && r.audit.final_model_bound->fdp);
      QVERIFY(r.audit.bound.fdp->epsilon_lower_bound <= r.audit.bound.fdp->ceiling + 1e-9);
      QVERIFY(r.audit.bound.fdp->epsilon_lower_bound < r.epsilon_pld);
      // Full batch: the last iterate of T Gaussian steps is the Gaussian mechanism with noise
      // multiplier sigma / sqrt(T), as the T-fold composition is: the heuristic equals it.
      DPLAB_COMPARE_REL(r.last_iterate_epsilon,
                        privacy::analytic_gaussian_epsilon(
                            r.noise_multiplier / std::sqrt(static_cast<double>(kSteps)), kDelta),
                        1e-8);
      DPLAB_COMPARE_REL(r.last_iterate_epsilon, r.epsilon_pld, 2e-3);
    }
    QVERIFY(rows[0].noise_multiplier > rows[1].noise_multiplier);
    const auto& open = rows.back();
    QVERIFY(!open.is_private);
    QVERIFY(std::isinf(open.epsilon_rdp) && std::isinf(open.epsilon_target));
    QCOMPARE(open.noise_multiplier, 0.0);
    QVERIFY(std::isinf(open.last_iterate_epsilon));
    QVERIFY(open.audit.bound.epsilon_lower_bound <= open.audit.bound.ceiling + 1e-9);
    // The same sweep twice: the same numbers (every run is seeded).
    const auto again = audit::run_privacy_gap_sweep(data, config);
    for (std::size_t i = 0; i < rows.size(); ++i) {
      QCOMPARE(again[i].audit.bound.epsilon_lower_bound, rows[i].audit.bound.epsilon_lower_bound);
      QCOMPARE(again[i].estimate.epsilon, rows[i].estimate.epsilon);
      QCOMPARE(again[i].audit.bound.fdp->epsilon_lower_bound,
               rows[i].audit.bound.fdp->epsilon_lower_bound);
    }
  }

  void sweep_refuses_bad_targets_and_cancels() {
    const auto data = wide_task();
    audit::PrivacyGapSweepConfig config;
    config.run = full_batch_logistic(data, 5);
    config.options.canaries = 50;
    QVERIFY(testing::error_of<InvalidArgument>([&] {
              audit::run_privacy_gap_sweep(data, config);
            }).contains("epsilon targets"));
    config.epsilon_targets = {2.0, -1.0};
    QVERIFY(testing::error_of<InvalidArgument>([&] {
              audit::run_privacy_gap_sweep(data, config);
            }).contains("-1"));
    config.epsilon_targets = {2.0};
    const std::atomic<bool> cancel{true};
    QVERIFY_THROWS_EXCEPTION(Cancelled, audit::run_privacy_gap_sweep(data, config, {}, &cancel));
  }
};

DPLAB_TEST_APPLESS_MAIN(TestPrivacyGapSweep)
#include "test_privacy_gap_sweep.moc"
