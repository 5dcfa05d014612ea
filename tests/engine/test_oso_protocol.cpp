// The OSO paper's grid protocol (tuning/oso_protocol.h): grid sizes per strategy (k, k^2, 5k,
// k), each grid's sigma calibrated so its K runs composed (K T steps) meet the per-grid epsilon
// and not much less, the best configuration is one of the grid's, and preset errors name keys.
#include <QFile>
#include <QTest>
#include <cmath>

#include "core/error.h"
#include "core/random.h"
#include "privacy/rdp_accountant.h"
#include "tuning/oso_protocol.h"

using namespace dplab;

namespace {

data::TrainValidationSplit separable_data(Index n, std::uint64_t seed) {
  Rng rng(seed);
  auto make = [&](Index rows) {
    data::Dataset d;
    d.num_classes = 2;
    d.features.resize(rows, 4);
    d.targets.resize(rows);
    for (Index i = 0; i < rows; ++i) {
      const float label = rng.uniform() < 0.5 ? 0.f : 1.f;
      for (Index j = 0; j < 4; ++j) {
        d.features(i, j) = static_cast<float>(rng.uniform() + (j == 0 ? label : 0.f));
      }
      d.targets[i] = label;
    }
    return d;
  };
  return {make(n), make(n / 4)};
}

}  // namespace

class TestOsoProtocol : public QObject {
  Q_OBJECT

 private slots:
  void gridsAndBudgets() {
    tuning::OsoProtocolConfig c;
    c.model = models::ModelKind::kLogisticRegression;
    c.epsilons = {1.0, 3.0};
    c.granularities = {2};
    c.lot_size = 50;
    c.steps = 20;
    c.seeds = 1;
    c.eval_every = 10;
    const auto data = separable_data(500, 3);
    const auto results = tuning::run_oso_protocol(c, data);
    QCOMPARE(results.size(), std::size_t{8});  // 4 strategies x 2 epsilons
    const double q = 50.0 / 500.0;
    for (const auto& r : results) {
      const int expected_runs = r.strategy == optim::OptimizerKind::kDpSgd           ? 4
                                : r.strategy == optim::OptimizerKind::kFixedQuantile ? 10
                                                                                     : 2;
      QCOMPARE(r.runs, expected_runs);
      const double spent =
          privacy::epsilon_for_delta({r.noise_multiplier, q, r.runs * c.steps}, c.delta).epsilon;
      QVERIFY2(spent <= r.epsilon && spent >= 0.99 * r.epsilon,
               qPrintable(QString("grid of %1 runs at eps %2 spends %3")
                              .arg(r.runs)
                              .arg(r.epsilon)
                              .arg(spent)));
      QVERIFY(r.score > 0.5 && r.score <= 1.0);  // separable data: better than chance
      QVERIFY(r.clip >= c.clip_low && r.clip <= c.clip_high);
    }
    // A bigger grid pays with more noise at the same epsilon.
    QVERIFY(results[2].noise_multiplier > results[0].noise_multiplier);  // dpsgd K=4 vs oso K=2
  }

  void presetErrorsNameTheKey() {
    QVERIFY_THROWS_EXCEPTION(InvalidArgument,
                             tuning::parse_oso_protocol(R"({"epsilon": [1]})", "p.json"));
    try {
      tuning::parse_oso_protocol(R"({"target_quantiles": [0.5, 1.2]})", "p.json");
      QFAIL("no exception");
    } catch (const InvalidArgument& e) {
      QVERIFY(QString(e.what()).contains("target_quantiles"));
    }
    const auto c =
        tuning::parse_oso_protocol(R"({"model": "logistic", "granularities": [7]})", "p.json");
    QCOMPARE(c.granularities.size(), std::size_t{1});
    QCOMPARE(c.strategies.size(), std::size_t{4});
    try {
      tuning::parse_oso_protocol(R"({"validation_subset": 0})", "p.json");
      QFAIL("no exception");
    } catch (const InvalidArgument& e) {
      QVERIFY(QString(e.what()).contains("validation_subset"));
    }
    // The scaled autoencoder preset (docs/oso_autoencoder.md) parses to what the docs say.
    QFile file(QStringLiteral(DPLAB_DATASETS_DIR "/../resources/presets/"
                                                 "oso-fashion-mnist-autoencoder-scaled.json"));
    QVERIFY(file.open(QIODevice::ReadOnly));
    const auto scaled = tuning::parse_oso_protocol(file.readAll().toStdString(), "scaled");
    QCOMPARE(scaled.validation_subset.value_or(0), std::int64_t{128});
    QCOMPARE(scaled.train_subset.value_or(0), std::int64_t{800});
    QVERIFY(!tuning::higher_is_better(scaled.model));  // MSE: lower is better
  }
};

QTEST_APPLESS_MAIN(TestOsoProtocol)
#include "test_oso_protocol.moc"
