// BatchParallelModel (issues #30, #49, batch_parallel_model.h): the lot's rows split over T threads
// give the unwrapped model's results — the per-example norms, the clipped sum, the plain sum,
// the weighted sum and the loss — to float rounding (1e-5 relative: the sum is grouped by chunks
// S_0 + S_1 + ..., so not bit for bit), for the cnn, the conv-autoencoder and the TLNN; and,
// since the chunks are fixed by the number of rows alone, T = 1, 2 and 3 give the SAME floats bit
// for bit (memcmp) for every model kind the trainer runs — and so does a whole training run of
// the trainer (training/trainer.h, TrainingConfig::threads: logistic, TLNN, cnn; DPSGD, DP-Adam,
// OSO-DPSGD's weighted sums, FixedQuantile's norms), while secure mode trains on 2 threads too;
// the replicas follow parameter updates; one-row lots, bad shapes and thread counts are refused or
// handled.
#include <QTest>
#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/random.h"
#include "core/types.h"
#include "models/batch_parallel_model.h"
#include "models/model.h"
#include "models/network_description.h"
#include "optim/optimizer.h"
#include "release/train_session.h"
#include "support/numeric_compare.h"
#include "support/random_batch.h"
#include "support/test_registry.h"
#include "training/trainer.h"

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

// The same floats, bit for bit (the same code path at another thread count: not a float
// comparison across code paths).
bool same_bits(const float* a, const float* b, Index n) {
  return std::memcmp(a, b, static_cast<std::size_t>(n) * sizeof(float)) == 0;
}
bool same_bits(const Vector& a, const Vector& b) {
  return a.size() == b.size() && same_bits(a.data(), b.data(), a.size());
}

std::unique_ptr<models::Model> make_kind(const QString& kind) {
  models::ModelSpec spec;
  if (kind == "custom") {
    spec.kind = models::ModelKind::kCustom;
    spec.network = R"({"name": "small", "input": [28, 28, 1],
        "layers": [{"type": "conv", "channels": 3, "kernel": 5, "stride": 2},
                   {"type": "tanh"}, {"type": "max_pool", "kernel": 2, "stride": 2},
                   {"type": "dense", "units": 10}]})";
  } else {
    spec.kind = models::parse_model_kind(kind.toStdString());
  }
  auto model = models::make_model(spec, 784, kind == "linear" ? 0 : 10);
  model->initialize(11);
  return model;
}

// Everything one call set gives at `threads` threads.
struct Outputs {
  Vector clipped, norms, plain, weighted;
  double clipped_loss = 0, weighted_loss = 0, loss = 0;
};

Outputs outputs_on(const models::Model& prototype, int threads, const testing::RandomBatch& lot) {
  models::BatchParallelModel parallel(prototype, threads);
  const Index rows = lot.x.rows(), d = parallel.num_params();
  Outputs out{Vector(d), Vector(rows), Vector(d), Vector(d)};
  out.clipped_loss = parallel.clipped_gradient_sum(lot.x, lot.y, 0.05, out.clipped, out.norms);
  Vector none;
  parallel.clipped_gradient_sum(lot.x, lot.y, models::kNoClipping, out.plain, none);
  Vector weights(rows);
  for (Index i = 0; i < rows; ++i) weights[i] = 0.25f + static_cast<float>(i % 5) * 0.5f;
  out.weighted_loss = parallel.weighted_gradient_sum(lot.x, lot.y, weights, out.weighted);
  out.loss = parallel.loss_sum(lot.x, lot.y);
  return out;
}

// A small training job for the trainer tests: n = 600 random 28 x 28 "images" of 10 classes.
training::TrainingConfig small_job(models::ModelKind kind, optim::OptimizerKind optimizer) {
  training::TrainingConfig config;
  config.model.kind = kind;
  config.model.hidden_units = 16;
  config.optimizer = optim::default_spec(optimizer);
  config.dp = {1.0, 1.0, 400.0};  // C, sigma, L: q = 2/3, lots of ~400 rows (4 chunks)
  config.steps = 4;
  config.eval_every = 2;
  config.seed = 7;
  return config;
}

data::TrainValidationSplit small_split() {
  data::TrainValidationSplit split;
  split.train = testing::random_dataset(600, 784, 10, 21);
  split.validation = testing::random_dataset(40, 784, 10, 22);
  return split;
}

std::vector<float> final_parameters(const training::TrainingResult& result) {
  std::vector<float> values;
  for (const auto& tensor : result.model->graph.tensors)
    values.insert(values.end(), tensor.values.begin(), tensor.values.end());
  return values;
}

}  // namespace

class TestBatchParallelModel : public QObject {
  Q_OBJECT

 private slots:
  void matchesOneThread_data() {
    QTest::addColumn<int>("kind");
    QTest::addColumn<int>("rows");
    QTest::addColumn<int>("threads");
    QTest::newRow("cnn, 2 threads") << int(models::ModelKind::kCnn) << 170 << 2;
    QTest::newRow("cnn, 3 threads") << int(models::ModelKind::kCnn) << 330 << 3;
    QTest::newRow("conv-autoencoder") << int(models::ModelKind::kConvAutoencoder) << 7 << 2;
    QTest::newRow("tlnn") << int(models::ModelKind::kTwoLayerNetwork) << 53 << 2;
    QTest::newRow("tlnn, 8 chunks") << int(models::ModelKind::kTwoLayerNetwork) << 700 << 2;
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

  // The fixed partition: T = 1, 2 and 3 threads give the same floats bit for bit, for every model
  // kind the trainer runs, for lots of 1 chunk (few rows), 2 chunks and the full 8 (not the
  // conv-autoencoder: 700 rows of it take seconds).
  void sameFloatsOnEveryThreadCount_data() {
    QTest::addColumn<QString>("kind");
    QTest::addColumn<int>("rows");
    for (const char* kind : {"logistic", "linear", "tlnn", "cnn", "conv-autoencoder", "custom"}) {
      for (const int rows : {700, 170, 1}) {
        if (rows == 700 && std::string(kind) == "conv-autoencoder") continue;
        QTest::newRow((std::string(kind) + ", " + std::to_string(rows) + " rows").c_str())
            << QString(kind) << rows;
      }
    }
  }
  void sameFloatsOnEveryThreadCount() {
    QFETCH(QString, kind);
    QFETCH(int, rows);
    auto prototype = make_kind(kind);
    testing::RandomBatch lot = testing::random_batch(rows, 784, 10, 13);
    if (kind == "linear") lot.y = lot.y * 0.1f;  // regression targets
    const Outputs one = outputs_on(*prototype, 1, lot);
    // What an exported model says of itself names no thread count.
    QCOMPARE(models::BatchParallelModel(*prototype, 2).description(), prototype->description());
    QVERIFY(one.clipped.norm() > 0);
    for (const int threads : {2, 3}) {
      const Outputs many = outputs_on(*prototype, threads, lot);
      QVERIFY2(same_bits(many.clipped, one.clipped), "clipped sum");
      QVERIFY2(same_bits(many.norms, one.norms), "norms");
      QVERIFY2(same_bits(many.plain, one.plain), "plain sum");
      QVERIFY2(same_bits(many.weighted, one.weighted), "weighted sum");
      QVERIFY(std::memcmp(&many.clipped_loss, &one.clipped_loss, sizeof(double)) == 0);
      QVERIFY(std::memcmp(&many.weighted_loss, &one.weighted_loss, sizeof(double)) == 0);
      QVERIFY(std::memcmp(&many.loss, &one.loss, sizeof(double)) == 0);
    }
  }

  void chunksAreFixedByRows() {
    using models::BatchParallelModel;
    QCOMPARE(BatchParallelModel::chunk_count(0), Index{1});
    QCOMPARE(BatchParallelModel::chunk_count(159), Index{1});
    QCOMPARE(BatchParallelModel::chunk_count(160), Index{2});
    QCOMPARE(BatchParallelModel::chunk_count(250), Index{2});  // L = 250: 2 chunks, +-4 sd
    QCOMPARE(BatchParallelModel::chunk_count(319), Index{2});
    QCOMPARE(BatchParallelModel::chunk_count(320), Index{4});
    QCOMPARE(BatchParallelModel::chunk_count(639), Index{4});
    QCOMPARE(BatchParallelModel::chunk_count(640), Index{8});
    QCOMPARE(BatchParallelModel::chunk_count(60000), Index{8});
  }

  // A whole training run (training/trainer.h): threads 1, 2 and 3 give the same final parameters
  // bit for bit — seeded lots and noise, drawn on the calling thread — and threads 0 (the model
  // itself) the same to rounding.
  void trainingOnEveryThreadCount_data() {
    QTest::addColumn<int>("kind");
    QTest::addColumn<int>("optimizer");
    using models::ModelKind;
    using optim::OptimizerKind;
    QTest::newRow("logistic, DPSGD")
        << int(ModelKind::kLogisticRegression) << int(OptimizerKind::kDpSgd);
    QTest::newRow("tlnn, DP-Adam")
        << int(ModelKind::kTwoLayerNetwork) << int(OptimizerKind::kDpAdam);
    QTest::newRow("cnn, DPSGD") << int(ModelKind::kCnn) << int(OptimizerKind::kDpSgd);
    QTest::newRow("tlnn, OSO-DPSGD")
        << int(ModelKind::kTwoLayerNetwork) << int(OptimizerKind::kOsoDpSgd);
    QTest::newRow("logistic, FixedQuantile")
        << int(ModelKind::kLogisticRegression) << int(OptimizerKind::kFixedQuantile);
  }
  void trainingOnEveryThreadCount() {
    QFETCH(int, kind);
    QFETCH(int, optimizer);
    const data::TrainValidationSplit split = small_split();
    training::TrainingConfig config = small_job(static_cast<models::ModelKind>(kind),
                                                static_cast<optim::OptimizerKind>(optimizer));
    std::vector<std::vector<float>> parameters;
    for (const int threads : {1, 2, 3, 0}) {
      config.threads = threads;
      const training::TrainingResult result = training::train(split, config);
      QVERIFY(!result.diverged);
      QCOMPARE(result.queries, config.steps);
      parameters.push_back(final_parameters(result));
    }
    const std::vector<float>& one = parameters[0];
    QVERIFY(!one.empty());
    for (std::size_t i = 1; i < 3; ++i) {
      QCOMPARE(parameters[i].size(), one.size());
      QVERIFY2(same_bits(parameters[i].data(), one.data(), static_cast<Index>(one.size())),
               ("threads " + std::to_string(i + 1) + " vs 1").c_str());
    }
    // The unwrapped model: the same run to rounding (the chunks regroup each lot's sum).
    const Eigen::Map<const Vector> wrapped(one.data(), static_cast<Index>(one.size()));
    const Eigen::Map<const Vector> plain(parameters[3].data(), static_cast<Index>(one.size()));
    QVERIFY((wrapped - plain).norm() <= 1e-3f * plain.norm());
  }

  // Secure noise (OS entropy, the discrete Gaussian on the grid) on 2 threads: it trains, and the
  // request's --threads reaches the trainer.
  void secureTrainingOnTwoThreads() {
    const data::TrainValidationSplit split = small_split();
    training::TrainingConfig config =
        small_job(models::ModelKind::kTwoLayerNetwork, optim::OptimizerKind::kDpSgd);
    config.secure = true;
    config.threads = 2;
    const training::TrainingResult result = training::train(split, config);
    QVERIFY(!result.diverged);
    QCOMPARE(result.queries, config.steps);
    for (const float value : final_parameters(result)) QVERIFY(std::isfinite(value));
  }

  void rejectsBadThreadCounts() {
    const data::TrainValidationSplit split = small_split();
    training::TrainingConfig config =
        small_job(models::ModelKind::kLogisticRegression, optim::OptimizerKind::kDpSgd);
    for (const int threads : {-1, training::kMaxLotThreads + 1}) {
      config.threads = threads;
      try {
        training::train(split, config);
        QFAIL("threads out of range accepted");
      } catch (const InvalidArgument& e) {
        QVERIFY2(std::string(e.what()).find("threads = ") == 0, e.what());
      }
    }
    for (const char* text : {"0", "9", "1.5", "two"}) {
      Settings settings(SettingSpelling::kFlag);
      settings.set("threads", text);
      try {
        release::read_train_request(settings);
        QFAIL("--threads out of range accepted");
      } catch (const InvalidArgument& e) {
        QVERIFY2(std::string(e.what()).find("--threads") == 0, e.what());
      }
    }
    Settings good(SettingSpelling::kFlag);
    good.set("threads", "2");
    QCOMPARE(release::read_train_request(good).threads, 2);
    QCOMPARE(release::read_train_request(Settings(SettingSpelling::kFlag)).threads, 0);
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
    QVERIFY_THROWS_EXCEPTION(InvalidArgument, models::BatchParallelModel(*single, 9));
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
