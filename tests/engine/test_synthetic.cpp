// Synthetic generators: the paper's linear data satisfy y = x . (10 * 1) exactly, features lie in
// [0, 1) with the moments of U(0, 1), seeds reproduce and differ, and the binary teacher's labels
// flip at the requested rate.
#include <QTest>

#include <algorithm>

#include "core/error.h"
#include "data/dataset_catalog.h"
#include "data/synthetic.h"
#include "support/numeric_compare.h"
#include "support/test_registry.h"

using namespace dplab;
using namespace dplab::data;

namespace {

// Smallest / largest entry. (Not Eigen's minCoeff/maxCoeff: with -march=native GCC 12 reports a
// false -Wmaybe-uninitialized inside their AVX-512 reductions.)
float min_of(const dplab::Matrix& m) {
  return *std::min_element(m.data(), m.data() + m.size());
}
float max_of(const dplab::Matrix& m) {
  return *std::max_element(m.data(), m.data() + m.size());
}
}  // namespace

class TestSynthetic : public QObject {
  Q_OBJECT

 private slots:
  void linear_is_exact() {
    const Dataset data = make_synthetic_linear();  // paper defaults: n = 10,000, d = 10, w* = 10
    QCOMPARE(data.size(), Index{10000});
    QCOMPARE(data.dim(), Index{10});
    QVERIFY(data.is_regression());
    for (Index i = 0; i < data.size(); ++i) {
      double y = 0;
      for (Index j = 0; j < 10; ++j) y += 10.0 * data.features(i, j);
      QCOMPARE(data.targets[i], static_cast<float>(y));
    }
    QVERIFY(min_of(data.features) >= 0.0f);
    QVERIFY(max_of(data.features) < 1.0f);
    // U(0,1): mean 1/2, variance 1/12; 100,000 draws -> standard errors 0.0009 and 0.0003.
    const double mean = data.features.cast<double>().mean();
    const double var = (data.features.cast<double>().array() - mean).square().mean();
    DPLAB_COMPARE_ABS(mean, 0.5, 0.005);
    DPLAB_COMPARE_ABS(var, 1.0 / 12.0, 0.002);
    // E[y] = 10 * d * 1/2 = 50.
    DPLAB_COMPARE_ABS(data.targets.cast<double>().mean(), 50.0, 0.5);
    data.validate();
  }

  void linear_seeds() {
    const Dataset a = make_synthetic_linear({200, 4, 10.0, 5});
    const Dataset b = make_synthetic_linear({200, 4, 10.0, 5});
    const Dataset c = make_synthetic_linear({200, 4, 10.0, 6});
    QVERIFY(a.features == b.features);
    QVERIFY(a.targets == b.targets);
    QVERIFY(a.features != c.features);
    QCOMPARE(a.dim(), Index{4});
    QCOMPARE(QString::fromStdString(a.feature_names[3]), QStringLiteral("x4"));
  }

  void binary_without_noise_follows_teacher() {
    SyntheticBinaryOptions options{5000, 8, 0.0, 3};
    const Dataset data = make_synthetic_binary(options);
    const Vector w = synthetic_binary_teacher(options);
    QCOMPARE(data.num_classes, 2);
    Index positives = 0;
    for (Index i = 0; i < data.size(); ++i) {
      double margin = 0;
      for (Index j = 0; j < 8; ++j) margin += double(w[j]) * (double(data.features(i, j)) - 0.5);
      QCOMPARE(data.targets[i], margin > 0 ? 1.0f : 0.0f);
      positives += data.targets[i] > 0;
    }
    // Centred teacher: balanced classes up to sampling noise (sd of the count ~ 35).
    QVERIFY2(positives > 2300 && positives < 2700, qPrintable(QString::number(positives)));
    QVERIFY(min_of(data.features) >= 0.0f && max_of(data.features) < 1.0f);
    data.validate();
  }

  void binary_noise_rate() {
    SyntheticBinaryOptions clean{20000, 5, 0.0, 9};
    SyntheticBinaryOptions noisy{20000, 5, 0.1, 9};
    const Dataset a = make_synthetic_binary(clean);
    const Dataset b = make_synthetic_binary(noisy);
    QVERIFY(a.features == b.features);  // same features, only labels flipped
    const double flipped = (a.targets - b.targets).cwiseAbs().cast<double>().mean();
    DPLAB_COMPARE_ABS(flipped, 0.1, 0.01);  // sd of the rate ~ 0.002
  }

  void errors() {
    try {
      make_synthetic_binary({100, 2, 0.5, 0});
      QFAIL("label_noise = 0.5 accepted");
    } catch (const InvalidArgument& e) {
      QVERIFY(QString(e.what()).contains("label_noise = 0.5"));
    }
    try {
      make_synthetic_linear({0, 10, 10.0, 0});
      QFAIL("num_samples = 0 accepted");
    } catch (const InvalidArgument& e) {
      QVERIFY(QString(e.what()).contains("num_samples = 0"));
    }
  }

  void catalog() {
    DatasetSource source;
    source.name = "synthetic-linear";
    source.num_samples = 300;
    source.seed = 11;
    const Dataset data = load_dataset(source);
    QVERIFY(data.features == make_synthetic_linear({300, 10, 10.0, 11}).features);
    source.name = "synthetic-binary";
    source.dim = 3;
    source.label_noise = 0.2;
    const Dataset binary = load_dataset(source);
    QVERIFY(binary.targets == make_synthetic_binary({300, 3, 0.2, 11}).targets);
  }
};

DPLAB_TEST_APPLESS_MAIN(TestSynthetic)
#include "test_synthetic.moc"
