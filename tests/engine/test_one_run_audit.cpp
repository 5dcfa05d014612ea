// One-run audit on known ground (audit/one_run_audit.h, audit/dirac_canaries.h):
//   (i)   the plain Gaussian mechanism audited with m canaries, no training: the (eps, delta) lower
//         bound never exceeds the mechanism's true eps(delta) (analytic Gaussian, Balle & Wang
//         2018) and, when that eps is large, reaches the ceiling of one run with m canaries;
//   (ii)  non-private training: the white-box bound is near the ceiling;
//   (iii) DP-SGD at eps = 2 and 8 on a small synthetic logistic task: the white-box all-iterates
//         bound is positive and below the accountant's eps for several seeds (the 20-seed sweep
//         is a CLI run reported in the README, too slow for a test);
//   plus the oracle hook's contract: a canary is one more clipped example (norm c, only when
//   sampled), and black-box mode's checks.
#include <QTest>

#include <cmath>

#include "audit/dirac_canaries.h"
#include "audit/one_run_audit.h"
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
// The DP-SGD sanity task: d = 1000 features >= m = 1000 canaries. It was chosen for random-
// direction canaries (orthonormal when m <= d; the data gradient's projection on one is
// ~ |G| / sqrt(d), and with d = 50 such a run audits to 0 at eps = 2). The audit's default now puts
// Dirac canaries on reserved coordinates, where the data gradient is exactly 0 whatever d is
// (test_reserved_coordinates_audit.cpp audits d = 50).
constexpr Index kWideDim = 1000;
constexpr int kWideCanaries = 1000;

// m canaries through the Gaussian mechanism y = b + N(0, sigma^2 I), b_i in {0, 1} the
// inclusion bits (L2 sensitivity 1 per canary); score = y_i.
audit::AuditBound audit_gaussian_mechanism(int m, double sigma, std::uint64_t seed) {
  Rng coin(seed);
  privacy::GaussianNoise noise(seed + 1);
  Vector z(m);
  noise.fill(sigma, z);
  std::vector<double> scores;
  std::vector<bool> included;
  for (int i = 0; i < m; ++i) {
    included.push_back((coin() >> 63) != 0);
    scores.push_back((included.back() ? 1.0 : 0.0) + static_cast<double>(z[i]));
  }
  return audit::best_bound_over_guess_sets(scores, included, audit::default_guess_sets(m), kDelta,
                                           0.95);
}

data::TrainValidationSplit small_task(Index dim = 50) {
  return testing::synthetic_audit_task(dim, 600);
}

training::TrainingConfig logistic_run(double sigma, std::uint64_t seed) {
  // L = 450 of the 450 training rows, q = 1: full-batch DP-GD, the strongest white-box setting.
  return testing::dpsgd_logistic_run(sigma, 450, 100, seed);
}

}  // namespace

class TestOneRunAudit : public QObject {
  Q_OBJECT

 private slots:
  void gaussian_mechanism_bound_is_below_the_true_epsilon() {
    const int m = 1000;
    for (const double sigma : {0.5, 1.0, 2.0}) {
      const double true_eps = privacy::analytic_gaussian_epsilon(sigma, kDelta);
      for (std::uint64_t seed = 1; seed <= 5; ++seed) {
        const auto bound = audit_gaussian_mechanism(m, sigma, seed);
        QVERIFY2(bound.epsilon_lower_bound <= true_eps,
                 qPrintable(QString("sigma %1 seed %2: bound %3 > true eps %4")
                                .arg(sigma)
                                .arg(seed)
                                .arg(bound.epsilon_lower_bound)
                                .arg(true_eps)));
        if (sigma <= 1.0) QVERIFY(bound.epsilon_lower_bound > 0.5);
      }
    }
  }

  void gaussian_mechanism_reaches_the_one_run_ceiling() {
    // sigma = 0.1: true eps ~ 48, far above what 1000 canaries can show; every guess is right and
    // the bound is the ceiling of the largest guess set.
    const int m = 1000;
    const auto bound = audit_gaussian_mechanism(m, 0.1, 7);
    QCOMPARE(bound.counts.correct, bound.counts.guesses);
    DPLAB_COMPARE_ABS(bound.epsilon_lower_bound, bound.ceiling, 1e-9);
    const auto sets = audit::default_guess_sets(m);
    const double best_ceiling =
        audit::one_run_ceiling(m, 500, kDelta, 1 - 0.05 / static_cast<double>(sets.size()));
    DPLAB_COMPARE_ABS(bound.epsilon_lower_bound, best_ceiling, 1e-6);
  }

  // A canary is one more clipped example: norm min(canary_norm, C), only when sampled (q = 1:
  // every step), only when included, and never when q -> 0.
  void canary_is_one_clipped_example() {
    audit::DiracCanaries canaries(8, 20, 5.0, 1.0, 10.0, 3);
    Vector sum = Vector::Zero(20);
    canaries.add_to_clipped_sum(1.0, 2.0, sum);
    Vector expected = Vector::Zero(20);
    for (int i = 0; i < 8; ++i) {
      if (!canaries.included()[static_cast<std::size_t>(i)]) continue;
      // Recover u_i from the final-model score of a unit move along each basis vector.
      Vector u(20);
      for (int j = 0; j < 20; ++j) {
        Vector e = Vector::Zero(20);
        e[j] = 1;
        u[j] = static_cast<float>(canaries.final_model_scores(Vector::Zero(20), e)[i]);
      }
      DPLAB_COMPARE_ABS(u.norm(), 1.0, 1e-5);
      expected -= 2.0f * u;  // c = min(5, C = 2)
    }
    QVERIFY(canaries.included_count() > 0 && canaries.included_count() < 8);
    QCOMPARE(canaries.canary_insertions(), static_cast<std::int64_t>(canaries.included_count()));
    DPLAB_COMPARE_ABS((sum - expected).norm(), 0.0, 1e-5);
    Vector untouched = Vector::Zero(20);
    canaries.add_to_clipped_sum(0.0, 2.0, untouched);
    QCOMPARE(untouched.norm(), 0.0f);
  }

  void non_private_training_is_audited_near_the_ceiling() {
    // sigma = 0 (eps = infinity), clipped at C = 1, wide inputs (d = 1000 > m = 200): each canary
    // direction is nearly orthogonal to the data's clipped gradients, so without noise the audit
    // must come within 0.5 of the most it can show. (With no clipping at all, or d = 50, the data
    // gradients' components along the canary directions drown the norm-1 canaries and the bound is
    // 0: the ceiling is the largest guess set's, so that no longer passes as "near the ceiling".)
    const auto data = small_task(kWideDim);
    auto config = logistic_run(0.0, 1);
    audit::OneRunAuditOptions options;
    options.canaries = 200;
    options.canary_norm = 1.0;
    const auto result = audit::run_one_run_audit(data, config, options);
    QVERIFY(!result.diverged);
    QVERIFY2(result.bound.epsilon_lower_bound >= result.bound.ceiling - 0.5,
             qPrintable(QString("bound %1, ceiling %2")
                            .arg(result.bound.epsilon_lower_bound)
                            .arg(result.bound.ceiling)));
  }

  void dp_sgd_bound_is_positive_and_below_the_accountant() {
    const auto data = small_task(kWideDim);
    for (const double target : {2.0, 8.0}) {
      const double q = 450.0 / static_cast<double>(data.train.size());
      const double sigma = privacy::calibrate_noise_multiplier_with(target, kDelta, q, 100,
                                                                    privacy::Accountant::kRdp);
      const double accountant_eps =
          privacy::run_epsilon({sigma, q, 100}, 1, kDelta, privacy::Accountant::kRdp).epsilon;
      QVERIFY(accountant_eps <= target + 1e-6);
      for (std::uint64_t seed = 1; seed <= 3; ++seed) {
        audit::OneRunAuditOptions options;
        options.canaries = kWideCanaries;
        options.seed = seed;
        options.delta = kDelta;
        const auto result = audit::run_one_run_audit(data, logistic_run(sigma, seed), options);
        const double bound = result.bound.epsilon_lower_bound;
        const QString what = QString("eps %1 seed %2: bound %3, accountant %4")
                                 .arg(target)
                                 .arg(seed)
                                 .arg(bound)
                                 .arg(accountant_eps);
        qInfo("%s (final model only %g)", qPrintable(what),
              result.final_model_bound->epsilon_lower_bound);
        QVERIFY2(bound > 0, qPrintable(what));
        QVERIFY2(bound < accountant_eps, qPrintable(what));
        QVERIFY(result.final_model_bound->epsilon_lower_bound < accountant_eps);
      }
    }
  }

  void black_box_audits_mislabelled_canaries() {
    const auto data = small_task();
    auto config = logistic_run(0.0, 2);
    config.dp.clip = models::kNoClipping;
    audit::OneRunAuditOptions options;
    options.mode = audit::AuditMode::kBlackBox;
    options.canaries = 100;
    const auto result = audit::run_one_run_audit(data, config, options);
    QCOMPARE(result.scores.size(), std::size_t{100});
    QVERIFY(result.canaries_included > 20 && result.canaries_included < 80);
    // n counts the included canaries: q = L / (n + included).
    DPLAB_COMPARE_REL(result.sampling_rate,
                      450.0 / static_cast<double>(data.train.size() + result.canaries_included),
                      1e-12);
    QVERIFY(result.bound.epsilon_lower_bound >= 0);
    QVERIFY(result.bound.epsilon_lower_bound <= result.bound.ceiling + 1e-9);
    options.canaries = static_cast<int>(data.validation.size()) + 1;
    QVERIFY(testing::error_of<InvalidArgument>([&] {
              audit::run_one_run_audit(data, config, options);
            }).contains("validation set"));
  }

  void secure_mode_is_refused() {
    const auto data = small_task();
    auto config = logistic_run(1.0, 1);
    config.secure = true;
    QVERIFY(testing::error_of<InvalidArgument>([&] {
              audit::run_one_run_audit(data, config, {});
            }).contains("secure"));
  }
};

DPLAB_TEST_APPLESS_MAIN(TestOneRunAudit)
#include "test_one_run_audit.moc"
