// White-box audits with Dirac canaries on reserved coordinates (audit/reserved_coordinates_model.h,
// audit/dirac_canaries.h; Steinke, Nasr & Jagielski 2023, white-box Dirac canaries):
//   - the reserved coordinates really have zero data gradient: checked on every training row, for
//     logistic regression, the two-layer network and a small conv network, and through the DP
//     oracle (a sigma = 0 release is exactly 0 there unless a canary was sampled, then -c / L);
//   - the padded model computes what the inner model computes (loss, clipped sum, norms);
//   - on LOW-dimensional data (d = 50 < m = 1000), where random-direction canaries audit to 0
//     (the data gradient's component along them swamps the canary; see test_one_run_audit.cpp),
//     the default audit is positive and below the accountant's eps at eps = 2 and 8 in every seed
//     of a small sweep, and the non-private run reaches the ceiling.
#include <QTest>

#include <cmath>

#include "audit/dirac_canaries.h"
#include "audit/one_run_audit.h"
#include "audit/reserved_coordinates_model.h"
#include "core/error.h"
#include "data/synthetic.h"
#include "dp_gradient/noisy_gradient.h"
#include "models/network_description.h"
#include "privacy/accounting/accountant_choice.h"
#include "support/audit_tasks.h"
#include "support/expect_error.h"
#include "support/numeric_compare.h"
#include "support/test_registry.h"

using namespace dplab;

namespace {

models::ModelSpec spec_of(models::ModelKind kind, int hidden_units = 100) {
  models::ModelSpec spec;
  spec.kind = kind;
  spec.hidden_units = hidden_units;
  return spec;
}

constexpr double kDelta = 1e-5;
constexpr Index kLowDim = 50;  // d = 50 features: fewer parameters than canaries

data::TrainValidationSplit low_dimensional_task(Index dim = kLowDim, Index samples = 600) {
  return testing::synthetic_audit_task(dim, samples);
}

// 36 features read as a 6 x 6 one-channel image.
std::unique_ptr<models::Model> tiny_conv_network() {
  const std::string json =
      "{\"name\": \"tiny\", \"input\": [6, 6, 1], \"loss\": \"cross_entropy\", "
      "\"layers\": [{\"type\": \"conv\", \"channels\": 2, \"kernel\": 3}, "
      "{\"type\": \"relu\"}, {\"type\": \"dense\", \"units\": 2}]}";
  return models::make_network(json, 36, 2);
}

training::TrainingConfig subsampled_logistic_run(double sigma, std::uint64_t seed) {
  // L = 150, q = 1/3 of the 450 training rows: the mixture score's path.
  return testing::dpsgd_logistic_run(sigma, 150, 60, seed);
}

// Every row of `data` alone: the padded model's gradient is the inner model's in the first d
// coordinates and exactly 0 in the reserved ones.
void check_zero_data_gradient(std::unique_ptr<models::Model> inner, const data::Dataset& data) {
  inner->initialize(5);
  auto reference = inner->clone();
  audit::ReservedCoordinatesModel padded(std::move(inner), 7);
  padded.initialize(5);
  const Index d = padded.inner_params();
  QCOMPARE(padded.num_params(), d + 7);
  QCOMPARE(padded.reserved_coordinate(0), d);
  QCOMPARE(padded.params().tail(7).norm(), 0.0f);
  // Move the reserved coordinates: the model must not read them.
  padded.params().tail(7).setConstant(3.0f);
  Vector g(padded.num_params()), g_ref(d), norm(1), norm_ref(1);
  for (Index i = 0; i < data.size(); ++i) {
    const MatrixView x = data.features.middleRows(i, 1);
    const VectorView y = data.targets.segment(i, 1);
    g.setConstant(-1.0f);  // garbage the model must overwrite
    const double loss = padded.clipped_gradient_sum(x, y, models::kNoClipping, g, norm);
    const double loss_ref =
        reference->clipped_gradient_sum(x, y, models::kNoClipping, g_ref, norm_ref);
    for (Index k = d; k < padded.num_params(); ++k) {
      if (g[k] != 0.0f)
        QFAIL(qPrintable(
            QString("row %1: reserved coordinate %2 has gradient %3").arg(i).arg(k).arg(g[k])));
    }
    DPLAB_COMPARE_ABS((g.head(d) - g_ref).norm(), 0.0, 1e-6);
    DPLAB_COMPARE_ABS(norm[0], norm_ref[0], 1e-6);
    DPLAB_COMPARE_ABS(loss, loss_ref, 1e-9);
  }
  DPLAB_COMPARE_ABS(padded.loss_sum(data.features, data.targets),
                    reference->loss_sum(data.features, data.targets), 1e-6);
}

}  // namespace

class TestReservedCoordinatesAudit : public QObject {
  Q_OBJECT

 private slots:
  void reserved_coordinates_have_zero_data_gradient() {
    const auto data = low_dimensional_task(36, 120);
    check_zero_data_gradient(
        models::make_model(spec_of(models::ModelKind::kLogisticRegression), 36, 2), data.train);
    check_zero_data_gradient(
        models::make_model(spec_of(models::ModelKind::kTwoLayerNetwork, 8), 36, 2), data.train);
    check_zero_data_gradient(tiny_conv_network(), data.train);
  }

  // Through the DP oracle with sigma = 0: the released mean gradient on a reserved coordinate is
  // exactly -c / L when its canary was sampled into the lot and exactly 0 otherwise — the data
  // never adds to it.
  void oracle_release_on_reserved_coordinates_is_the_canary_only() {
    const auto data = low_dimensional_task();
    auto padded = std::make_unique<audit::ReservedCoordinatesModel>(
        models::make_model(spec_of(models::ModelKind::kLogisticRegression), kLowDim, 2), 40);
    padded->initialize(1);
    const Index d = padded->inner_params();
    std::vector<Index> coordinates;
    for (Index i = 0; i < 40; ++i) coordinates.push_back(padded->reserved_coordinate(i));
    privacy::DpSettings dp{1.0, 0.0, 150.0};
    audit::DiracCanaries canaries(coordinates, padded->num_params(), 1.0, 0.0, dp.lot_size, 9);
    QCOMPARE(canaries.coordinates(), coordinates);
    privacy::NoisyGradientOracle oracle(data.train, *padded, dp, 2);
    oracle.set_clipped_sum_hook(&canaries);
    Vector g(padded->num_params());
    std::int64_t seen = 0;
    for (int step = 0; step < 5; ++step) {
      oracle.query(g);
      for (Index i = 0; i < 40; ++i) {
        const float v = g[d + i];
        QVERIFY2(v == 0.0f || std::abs(v + 1.0f / 150.0f) < 1e-9f,
                 qPrintable(QString("step %1 canary %2: released %3").arg(step).arg(i).arg(v)));
        if (v != 0.0f) {
          QVERIFY(canaries.included()[static_cast<std::size_t>(i)]);
          ++seen;
        }
      }
      QVERIFY(g.head(d).norm() > 0);  // the data still trains the model's own parameters
    }
    QCOMPARE(seen, canaries.canary_insertions());
    QVERIFY(seen > 0);
  }

  void dirac_coordinates_are_checked() {
    QVERIFY(testing::error_of<InvalidArgument>([] {
              audit::DiracCanaries(std::vector<Index>{3, 3}, 10, 1.0, 1.0, 5.0, 1);
            }).contains("twice"));
    QVERIFY(testing::error_of<InvalidArgument>([] {
              audit::DiracCanaries(std::vector<Index>{10}, 10, 1.0, 1.0, 5.0, 1);
            }).contains("outside"));
  }

  // The fix: on d = 50 data the default white-box audit (Dirac canaries on reserved coordinates)
  // is positive and below the accountant at eps = 2 and 8 in every seed.
  void dp_sgd_bound_is_positive_and_below_the_accountant_in_low_dimension() {
    const auto data = low_dimensional_task();
    const double q = 150.0 / static_cast<double>(data.train.size());
    for (const double target : {2.0, 8.0}) {
      const double sigma = privacy::calibrate_noise_multiplier_with(target, kDelta, q, 60,
                                                                    privacy::Accountant::kRdp);
      const double accountant_eps =
          privacy::run_epsilon({sigma, q, 60}, 1, kDelta, privacy::Accountant::kRdp).epsilon;
      QVERIFY(accountant_eps <= target + 1e-6);
      double lowest = 1e300, highest = 0;
      for (std::uint64_t seed = 1; seed <= 8; ++seed) {
        audit::OneRunAuditOptions options;  // defaults: white-box, reserved coordinates
        options.canaries = 1000;
        options.seed = seed;
        options.delta = kDelta;
        const auto result =
            audit::run_one_run_audit(data, subsampled_logistic_run(sigma, seed), options);
        QVERIFY(result.whitebox_canaries == audit::WhiteBoxCanaries::kReservedCoordinates);
        const double bound = result.bound.epsilon_lower_bound;
        const QString what = QString("eps %1 seed %2: bound %3 (final model %4), accountant %5")
                                 .arg(target)
                                 .arg(seed)
                                 .arg(bound)
                                 .arg(result.final_model_bound->epsilon_lower_bound)
                                 .arg(accountant_eps);
        QVERIFY2(bound > 0, qPrintable(what));
        QVERIFY2(bound < accountant_eps, qPrintable(what));
        QVERIFY2(result.final_model_bound->epsilon_lower_bound < accountant_eps, qPrintable(what));
        lowest = std::min(lowest, bound);
        highest = std::max(highest, bound);
      }
      qInfo("eps %g: reserved-coordinate bounds in [%g, %g] over 8 seeds", target, lowest, highest);
    }
  }

  // sigma = 0, no clipping: nothing hides a canary on its own coordinate, so every guess is right
  // and the bound is the ceiling of the largest guess set.
  void non_private_run_audits_at_the_ceiling() {
    const auto data = low_dimensional_task();
    auto config = subsampled_logistic_run(0.0, 1);
    config.dp.clip = models::kNoClipping;
    audit::OneRunAuditOptions options;
    options.canaries = 1000;
    options.canary_norm = 1.0;
    const auto result = audit::run_one_run_audit(data, config, options);
    QCOMPARE(result.bound.counts.correct, result.bound.counts.guesses);
    DPLAB_COMPARE_ABS(result.bound.epsilon_lower_bound, result.bound.ceiling, 1e-9);
    QVERIFY(result.bound.epsilon_lower_bound > 4.0);
  }

  void option_text_round_trips() {
    for (const auto kind : {audit::WhiteBoxCanaries::kReservedCoordinates,
                            audit::WhiteBoxCanaries::kRandomDirections})
      QVERIFY(audit::parse_whitebox_canaries(audit::to_string(kind)) == kind);
    QVERIFY(testing::error_of<InvalidArgument>([] {
              audit::parse_whitebox_canaries("diagonal");
            }).contains("whitebox canaries"));
  }
};

DPLAB_TEST_APPLESS_MAIN(TestReservedCoordinatesAudit)
#include "test_reserved_coordinates_audit.moc"
