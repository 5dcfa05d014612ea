// BatchParallelModel (issue #30, batch_parallel_model.h): the lot's rows split over T threads
// give the one-thread model's results — the per-example norms, the clipped sum, the plain sum,
// the weighted sum and the loss — to float rounding (1e-5 relative: the sum is re-associated as
// S_0 + S_1, so not bit for bit), for the cnn, the conv-autoencoder and the TLNN; the same call
// run twice gives the same floats (bit for bit: same code path); the replicas follow parameter
// updates; lots with fewer rows than threads and bad shapes are handled.
#include <QTest>
#include <memory>
#include <string>

#include "core/error.h"
#include "core/random.h"
#include "core/types.h"
#include "models/batch_parallel_model.h"
#include "models/model.h"
#include "support/numeric_compare.h"
#include "support/random_batch.h"
#include "support/test_registry.h"

using namespace dplab;

namespace {

constexpr double kRel = 1e-5;

std::unique_ptr<models::Model> make(models::ModelKind kind) {
  models::ModelSpec spec;
  spec.kind = kind;
  auto model = models::make_model(spec, 784, 10);
  model->initialize(5);
  return model;
}

// ||a - b|| <= rel ||b||: the vectors agree to rel, relative to the reference's size.
void compare_vectors(const Vector& actual, const Vector& expected, const char* what) {
  QCOMPARE(actual.size(), expected.size());
  const double error = static_cast<double>((actual - expected).norm());
  const double size = static_cast<double>(expected.norm());
  if (!(error <= kRel * size)) {
    QFAIL((std::string(what) + ": ||difference|| = " + std::to_string(error) + " > " +
           std::to_string(kRel) + " * ||expected|| = " + std::to_string(kRel * size))
              .c_str());
  }
}

}  // namespace

class TestBatchParallelModel : public QObject {
  Q_OBJECT

 private slots:
  void matchesOneThread_data() {
    QTest::addColumn<int>("kind");
    QTest::addColumn<int>("rows");
    QTest::addColumn<int>("threads");
    QTest::newRow("cnn, 2 threads") << int(models::ModelKind::kCnn) << 41 << 2;
    QTest::newRow("cnn, 3 threads") << int(models::ModelKind::kCnn) << 37 << 3;
    QTest::newRow("conv-autoencoder") << int(models::ModelKind::kConvAutoencoder) << 7 << 2;
    QTest::newRow("tlnn") << int(models::ModelKind::kTwoLayerNetwork) << 53 << 2;
    QTest::newRow("fewer rows than threads") << int(models::ModelKind::kCnn) << 1 << 2;
  }
  void matchesOneThread() {
    QFETCH(int, kind);
    QFETCH(int, rows);
    QFETCH(int, threads);
    auto single = make(static_cast<models::ModelKind>(kind));
    models::BatchParallelModel parallel(*single, threads);
    QCOMPARE(parallel.threads(), threads);
    QCOMPARE(parallel.num_params(), single->num_params());
    const testing::RandomBatch lot = testing::random_batch(rows, 784, 10, 9);
    const Index d = single->num_params();
    // C = 0.05 binds for most examples: the clip factors are exercised.
    const double clip = 0.05;
    Vector sum1(d), sum2(d), norms1(rows), norms2(rows);
    const double loss1 = single->clipped_gradient_sum(lot.x, lot.y, clip, sum1, norms1);
    const double loss2 = parallel.clipped_gradient_sum(lot.x, lot.y, clip, sum2, norms2);
    DPLAB_COMPARE_REL(loss2, loss1, kRel);
    compare_vectors(norms2, norms1, "norms");
    compare_vectors(sum2, sum1, "clipped sum");
    for (Index i = 0; i < rows; ++i) DPLAB_COMPARE_REL(norms2[i], norms1[i], kRel);

    // The non-private sum without norms (an empty span).
    Vector none;
    single->clipped_gradient_sum(lot.x, lot.y, models::kNoClipping, sum1, none);
    parallel.clipped_gradient_sum(lot.x, lot.y, models::kNoClipping, sum2, none);
    compare_vectors(sum2, sum1, "plain sum");

    // Weighted sum (OSO's clipped directions) and the loss sum.
    Vector weights(rows);
    for (Index i = 0; i < rows; ++i) weights[i] = static_cast<float>(i % 3) * 0.5f;
    DPLAB_COMPARE_REL(parallel.weighted_gradient_sum(lot.x, lot.y, weights, sum2),
                      single->weighted_gradient_sum(lot.x, lot.y, weights, sum1), kRel);
    compare_vectors(sum2, sum1, "weighted sum");
    DPLAB_COMPARE_REL(parallel.loss_sum(lot.x, lot.y), single->loss_sum(lot.x, lot.y), kRel);
  }

  void sameCallSameFloats() {
    auto single = make(models::ModelKind::kCnn);
    models::BatchParallelModel parallel(*single, 2);
    const testing::RandomBatch lot = testing::random_batch(40, 784, 10, 4);
    Vector a(parallel.num_params()), b(parallel.num_params()), na(40), nb(40);
    parallel.clipped_gradient_sum(lot.x, lot.y, 0.1, a, na);
    parallel.clipped_gradient_sum(lot.x, lot.y, 0.1, b, nb);
    QVERIFY(a == b);  // same code path, same static split: bit for bit
    QVERIFY(na == nb);
  }

  void replicasFollowParameters() {
    // The optimizer updates params() of the wrapper; the next call must use them.
    auto single = make(models::ModelKind::kTwoLayerNetwork);
    models::BatchParallelModel parallel(*single, 2);
    const testing::RandomBatch lot = testing::random_batch(30, 784, 10, 6);
    Vector before(parallel.num_params()), after(parallel.num_params()), norms(30);
    parallel.clipped_gradient_sum(lot.x, lot.y, 1.0, before, norms);
    Rng rng(3);
    for (Index j = 0; j < parallel.num_params(); ++j)
      parallel.params()[j] += static_cast<float>(0.1 * (rng.uniform() - 0.5));
    single->params() = parallel.params();
    parallel.clipped_gradient_sum(lot.x, lot.y, 1.0, after, norms);
    Vector expected(parallel.num_params()), expected_norms(30);
    single->clipped_gradient_sum(lot.x, lot.y, 1.0, expected, expected_norms);
    compare_vectors(after, expected, "sum after an update");
    QVERIFY((after - before).norm() > 1e-3f * before.norm());  // the update changed the sum
    // clone() carries the current parameters.
    auto copy = parallel.clone();
    QVERIFY(copy->params() == parallel.params());
  }

  void rejectsBadArguments() {
    auto single = make(models::ModelKind::kCnn);
    QVERIFY_THROWS_EXCEPTION(InvalidArgument, models::BatchParallelModel(*single, 0));
    models::BatchParallelModel parallel(*single, 2);
    const testing::RandomBatch lot = testing::random_batch(10, 784, 10, 1);
    Vector wrong(parallel.num_params() - 1), norms(10), short_norms(9), sum(parallel.num_params());
    QVERIFY_THROWS_EXCEPTION(InvalidArgument,
                             parallel.clipped_gradient_sum(lot.x, lot.y, 1.0, wrong, norms));
    QVERIFY_THROWS_EXCEPTION(InvalidArgument,
                             parallel.clipped_gradient_sum(lot.x, lot.y, 1.0, sum, short_norms));
    QVERIFY_THROWS_EXCEPTION(InvalidArgument,
                             parallel.clipped_gradient_sum(lot.x, lot.y.head(9), 1.0, sum, norms));
    // clip <= 0 is refused by the replicas, from inside the worker threads.
    QVERIFY_THROWS_EXCEPTION(InvalidArgument,
                             parallel.clipped_gradient_sum(lot.x, lot.y, 0.0, sum, norms));
  }
};

DPLAB_TEST_APPLESS_MAIN(TestBatchParallelModel)
#include "test_batch_parallel_model.moc"
