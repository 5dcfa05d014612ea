// Queries versus optimizer updates (optim/update_count.h): the mapping agrees with what each
// optimizer really does (queries_per_step of the built optimizer, and the oracle's query count
// after real updates), and ADADP makes floor(T / 2) updates at T queries.
#include <QTest>

#include "core/error.h"
#include "dp_gradient/noisy_gradient.h"
#include "engine/quadratic_test_model.h"
#include "optim/optimizer.h"
#include "optim/update_count.h"
#include "support/test_registry.h"

using namespace dplab;

class TestUpdateCount : public QObject {
  Q_OBJECT

 private slots:
  void mappingMatchesEveryOptimizer() {
    Matrix x(4, 3);
    x << 1, 2, -1, 3, 0, 1, 0, 0, 1, 2, 2, 2;
    const data::Dataset train = testing::make_points(x);
    const privacy::DpSettings dp{1.0, 0.5, 2.0};
    for (optim::OptimizerKind kind : optim::kAllOptimizerKinds) {
      testing::QuadraticTestModel model(3);
      privacy::NoisyGradientOracle oracle(train, model, dp, 3);
      auto opt = optim::make_optimizer(optim::default_spec(kind), optim::RunShape{3, 100, dp});
      QCOMPARE(opt->queries_per_step(), optim::queries_per_update(kind));
      for (int update = 0; update < 5; ++update) opt->step(model, oracle);
      // 5 real updates cost exactly queries_for_updates(kind, 5) oracle queries.
      QCOMPARE(oracle.queries_made(), optim::queries_for_updates(kind, 5));
      QCOMPARE(optim::updates_for_queries(kind, oracle.queries_made()), std::int64_t{5});
    }
  }

  void adadpMakesHalfTheUpdates() {
    using optim::OptimizerKind;
    QCOMPARE(optim::queries_per_update(OptimizerKind::kAdaDp), 2);
    QCOMPARE(optim::updates_for_queries(OptimizerKind::kAdaDp, 10000), std::int64_t{5000});
    QCOMPARE(optim::updates_for_queries(OptimizerKind::kAdaDp, 10001), std::int64_t{5000});
    QCOMPARE(optim::updates_for_queries(OptimizerKind::kDpAdam, 10001), std::int64_t{10001});
    QCOMPARE(optim::queries_for_updates(OptimizerKind::kAdaDp, 5000), std::int64_t{10000});
    QVERIFY_THROWS_EXCEPTION(InvalidArgument,
                             optim::updates_for_queries(OptimizerKind::kDpSgd, -1));
  }
};

DPLAB_TEST_GUILESS_MAIN(TestUpdateCount)
#include "test_update_count.moc"
