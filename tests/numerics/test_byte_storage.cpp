// Byte storage of image data (Dataset::pixels, data/feature_rows.h) changes where the features
// live, not what they are: every check here compares pixel storage with the float storage of the
// same data (feature = byte / 255, as the IDX loader computed it before) BIT FOR BIT:
//   - the byte -> float map on all 256 bytes, scalar and in the vectorised pass;
//   - gathered lots, float views, split / select / concatenate, scaling;
//   - a few hundred DP training steps (logistic and TLNN; DP-SGD and DP-Adam; Poisson lots and
//     q = 1) from the same seed end in the same parameters, and a full training job gives the
//     same curve and final evaluations;
//   - and the storage is 4x smaller.
// GCC 12 false positive in its AVX-512 headers under Eigen (bug 105593); see gaussian_noise.cpp.
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <QTest>

#include <cstdint>
#include <cstring>
#include <vector>

#include "core/random.h"
#include "data/dataset.h"
#include "data/feature_rows.h"
#include "data/lot_gather.h"
#include "data/prepare_split.h"
#include "dp_gradient/noisy_gradient.h"
#include "models/model.h"
#include "optim/optimizer.h"
#include "privacy/mechanisms/poisson_sampler.h"
#include "support/test_registry.h"
#include "training/trainer.h"

using namespace dplab;
using namespace dplab::data;

namespace {

// The loader's former scaling, the definition the byte storage must reproduce.
float loader_feature(std::uint8_t byte) {
  return static_cast<float>(byte) / 255.0f;
}

bool same_bits(const float* a, const float* b, Index count) {
  return std::memcmp(a, b, static_cast<std::size_t>(count) * sizeof(float)) == 0;
}

std::uint32_t bits_of(float value) {
  std::uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

// n x d image-like bytes: a class-dependent bright block on a noisy background (so training
// actually moves the parameters), labels 0..9, both from `seed`.
Dataset random_images(Index n, Index d, std::uint64_t seed) {
  Dataset data;
  data.name = "random images";
  data.num_classes = 10;
  data.pixels.resize(n, d);
  data.targets.resize(n);
  Rng rng(seed);
  for (Index i = 0; i < n; ++i) {
    const auto label = static_cast<Index>(rng.below(10));
    data.targets[i] = static_cast<float>(label);
    for (Index j = 0; j < d; ++j) {
      const bool lit = (j * 10 / d) == label;
      data.pixels(i, j) = static_cast<std::uint8_t>(lit ? 128 + rng.below(128) : rng.below(90));
    }
  }
  return data;
}

// The same data stored as floats computed with the loader's division (independent of
// feature_rows.h).
Dataset as_loader_floats(const Dataset& pixels) {
  Dataset data = pixels;
  data.pixels = PixelMatrix();
  data.features.resize(pixels.size(), pixels.dim());
  for (Index i = 0; i < pixels.size(); ++i)
    for (Index j = 0; j < pixels.dim(); ++j)
      data.features(i, j) = loader_feature(pixels.pixels(i, j));
  return data;
}

// `steps` optimizer steps of a fresh model (seeded) on `train`; returns the parameters.
Vector train_steps(const Dataset& train, models::ModelKind kind, optim::OptimizerKind optimizer,
                   double lot_size, int steps) {
  models::ModelSpec spec;
  spec.kind = kind;
  spec.hidden_units = 32;
  auto model = models::make_model(spec, train.dim(), train.num_classes);
  model->initialize(17);
  if (steps == 0) return model->params();
  const privacy::DpSettings dp{0.5, 1.1, lot_size};
  privacy::NoisyGradientOracle oracle(train, *model, dp, 99);
  optim::OptimizerSpec ospec = optim::default_spec(optimizer);
  ospec.learning_rate = optimizer == optim::OptimizerKind::kDpSgd ? 0.5 : 0.01;
  auto opt = optim::make_optimizer(ospec, {model->num_params(), steps, dp});
  for (int s = 0; s < steps; ++s) opt->step(*model, oracle);
  return model->params();
}

}  // namespace

class TestByteStorage : public QObject {
  Q_OBJECT

 private slots:
  void everyByteMapsToTheLoadersFloat() {
    std::vector<std::uint8_t> bytes(256 * 3);
    for (std::size_t k = 0; k < bytes.size(); ++k) bytes[k] = static_cast<std::uint8_t>(k * 7);
    std::vector<float> converted(bytes.size(), -1.0f);
    pixels_to_features(bytes.data(), static_cast<Index>(bytes.size()), converted.data());
    for (int b = 0; b < 256; ++b) {
      const auto byte = static_cast<std::uint8_t>(b);
      QVERIFY2(bits_of(pixel_feature(byte)) == bits_of(loader_feature(byte)),
               qPrintable(QString("byte %1").arg(b)));
    }
    for (std::size_t k = 0; k < bytes.size(); ++k) {
      QVERIFY2(bits_of(converted[k]) == bits_of(loader_feature(bytes[k])),
               qPrintable(QString("vectorised pass, byte %1").arg(bytes[k])));
    }
    QCOMPARE(pixel_feature(255), 1.0f);
    QCOMPARE(pixel_feature(0), 0.0f);
  }

  void storageIsFourTimesSmaller() {
    const Dataset pixels = random_images(500, 784, 1);
    const Dataset floats = as_loader_floats(pixels);
    QVERIFY(pixels.stores_pixels());
    QCOMPARE(pixels.features.size(), Index{0});
    QCOMPARE(pixels.feature_bytes(), std::size_t{500 * 784});
    QCOMPARE(floats.feature_bytes(), 4 * pixels.feature_bytes());
    QCOMPARE(pixels.size(), Index{500});
    QCOMPARE(pixels.dim(), Index{784});
    pixels.validate();
    // A split keeps the bytes.
    const TrainValidationSplit split = prepare_split(pixels, 0.2, 3);
    QVERIFY(split.train.stores_pixels() && split.validation.stores_pixels());
    QCOMPARE(split.train.feature_bytes() + split.validation.feature_bytes(),
             pixels.feature_bytes());
  }

  void gatheredLotsAreTheFloatLots() {
    const Dataset pixels = random_images(3000, 301, 2);
    const Dataset floats = as_loader_floats(pixels);
    const privacy::PoissonSampler sampler(pixels.size(), 0.05);
    Rng rng(4);
    std::vector<Index> rows;
    const Index capacity = sampler.suggested_capacity();
    Matrix from_pixels(capacity, 301), from_floats(capacity, 301);
    Vector targets_p(capacity), targets_f(capacity);
    for (int repeat = 0; repeat < 5; ++repeat) {
      sampler.sample(rng, rows);
      QVERIFY(rows.size() > 100);
      gather_lot(pixels, rows, from_pixels, targets_p);
      gather_lot(floats, rows, from_floats, targets_f);
      const auto m = static_cast<Index>(rows.size());
      QVERIFY(same_bits(from_pixels.data(), from_floats.data(), m * 301));
      QVERIFY(targets_p.head(m) == targets_f.head(m));
    }
  }

  void viewsSplitsAndScalingAgreeWithFloats() {
    const Dataset pixels = random_images(200, 50, 5);
    const Dataset floats = as_loader_floats(pixels);
    Matrix scratch;
    const MatrixView view = feature_rows(pixels, 10, 30, scratch);
    QCOMPARE(view.rows(), Index{30});
    QVERIFY(same_bits(view.data(), floats.features.row(10).data(), 30 * 50));
    // Float data are viewed in place (no copy).
    QCOMPARE(feature_rows(floats, 10, 30, scratch).data(), floats.features.row(10).data());

    const std::vector<Index> rows = {199, 0, 7, 7, 120};
    const Dataset picked = select_rows(pixels, rows);
    QVERIFY(picked.stores_pixels());
    QVERIFY(same_bits(as_loader_floats(picked).features.data(),
                      select_rows(floats, rows).features.data(), 5 * 50));

    const Dataset both = concatenate(pixels, picked, "both");
    QVERIFY(both.stores_pixels());
    QCOMPARE(both.size(), Index{205});
    const Dataset mixed = concatenate(floats, picked, "mixed");  // one float part: floats
    QVERIFY(!mixed.stores_pixels());
    QVERIFY(same_bits(mixed.features.data(), as_loader_floats(both).features.data(), 205 * 50));

    Dataset converted = pixels;
    store_as_floats(converted);
    QVERIFY(!converted.stores_pixels());
    QVERIFY(same_bits(converted.features.data(), floats.features.data(), 200 * 50));

    // Min-max scaling fitted on pixels equals the one fitted on floats, and converts.
    const MinMaxScaler on_pixels = MinMaxScaler::fit(pixels);
    const MinMaxScaler on_floats = MinMaxScaler::fit(floats);
    QVERIFY(on_pixels.minimum == on_floats.minimum && on_pixels.range == on_floats.range);
    Dataset scaled_p = pixels, scaled_f = floats;
    on_pixels.apply(scaled_p);
    on_floats.apply(scaled_f);
    QVERIFY(!scaled_p.stores_pixels());
    QVERIFY(same_bits(scaled_p.features.data(), scaled_f.features.data(), 200 * 50));
  }

  void trainingStepsAreBitIdentical_data() {
    QTest::addColumn<int>("model");
    QTest::addColumn<int>("optimizer");
    QTest::addColumn<double>("lot_size");
    using models::ModelKind;
    using optim::OptimizerKind;
    QTest::newRow("logistic dpsgd")
        << int(ModelKind::kLogisticRegression) << int(OptimizerKind::kDpSgd) << 60.0;
    QTest::newRow("logistic dpadam")
        << int(ModelKind::kLogisticRegression) << int(OptimizerKind::kDpAdam) << 60.0;
    QTest::newRow("tlnn dpsgd") << int(ModelKind::kTwoLayerNetwork) << int(OptimizerKind::kDpSgd)
                                << 60.0;
    QTest::newRow("tlnn dpadam") << int(ModelKind::kTwoLayerNetwork) << int(OptimizerKind::kDpAdam)
                                 << 60.0;
    QTest::newRow("logistic q = 1")
        << int(ModelKind::kLogisticRegression) << int(OptimizerKind::kDpSgd) << 2000.0;
  }

  void trainingStepsAreBitIdentical() {
    QFETCH(int, model);
    QFETCH(int, optimizer);
    QFETCH(double, lot_size);
    const Dataset pixels = random_images(2000, 784, 6);
    const Dataset floats = as_loader_floats(pixels);
    const auto kind = static_cast<models::ModelKind>(model);
    const auto opt = static_cast<optim::OptimizerKind>(optimizer);
    const int steps = lot_size >= 2000 ? 40 : 300;
    const Vector from_pixels = train_steps(pixels, kind, opt, lot_size, steps);
    const Vector from_floats = train_steps(floats, kind, opt, lot_size, steps);
    // Training moved the parameters (the comparison is not between two initial states).
    QVERIFY(from_floats.allFinite());
    const Vector initial = train_steps(floats, kind, opt, lot_size, 0);
    QVERIFY((from_floats - initial).norm() > 1e-3f);
    QVERIFY2(same_bits(from_pixels.data(), from_floats.data(), from_floats.size()),
             "parameters after training on pixels differ from those after training on floats");
  }

  void trainingJobGivesTheSameCurve() {
    const Dataset pixels = random_images(2500, 784, 8);
    const TrainValidationSplit on_pixels = prepare_split(pixels, 0.2, 1);
    TrainValidationSplit on_floats{as_loader_floats(on_pixels.train),
                                   as_loader_floats(on_pixels.validation)};
    training::TrainingConfig config;
    config.model.kind = models::ModelKind::kTwoLayerNetwork;
    config.model.hidden_units = 20;
    config.optimizer = optim::default_spec(optim::OptimizerKind::kDpAdam);
    config.dp = {1.0, 1.0, 50};
    config.steps = 200;
    config.eval_every = 50;
    config.seed = 12;
    const training::TrainingResult a = training::train(on_pixels, config);
    const training::TrainingResult b = training::train(on_floats, config);
    QCOMPARE(a.curve.size(), std::size_t{4});
    QCOMPARE(a.curve.size(), b.curve.size());
    for (std::size_t k = 0; k < a.curve.size(); ++k) {
      QCOMPARE(a.curve[k].iteration, b.curve[k].iteration);
      QVERIFY(a.curve[k].train_loss == b.curve[k].train_loss);
      QVERIFY(a.curve[k].val_loss == b.curve[k].val_loss);
      QVERIFY(a.curve[k].val_accuracy == b.curve[k].val_accuracy);
    }
    QVERIFY(a.final_validation.mean_loss == b.final_validation.mean_loss);
    QVERIFY(a.final_validation.accuracy == b.final_validation.accuracy);
    QVERIFY(a.final_train_loss == b.final_train_loss);
    QVERIFY(a.final_validation.accuracy > 0.3);  // it learned (10 classes: chance is 0.1)
  }
};

DPLAB_TEST_GUILESS_MAIN(TestByteStorage)
#include "test_byte_storage.moc"
