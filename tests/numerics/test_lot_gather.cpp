// gather_lot (the lot copy of every DP step): each gathered row is bit-for-bit the training row
// it names, in the order given (sorted sampler lots, but also repeated and unsorted indices), the
// targets follow their rows, and rows past the lot are left untouched.
#include <QTest>

#include <cstring>
#include <vector>

#include "core/random.h"
#include "data/dataset.h"
#include "data/lot_gather.h"
#include "privacy/mechanisms/poisson_sampler.h"
#include "support/test_registry.h"

using namespace dplab;
using namespace dplab::data;

namespace {

// n x d random floats (including negative values and non-round numbers), targets = row % 10.
Dataset random_rows(Index n, Index d, std::uint64_t seed) {
  Dataset data;
  data.name = "random";
  data.num_classes = 10;
  data.features.resize(n, d);
  data.targets.resize(n);
  Rng rng(seed);
  for (Index i = 0; i < n; ++i) {
    for (Index j = 0; j < d; ++j)
      data.features(i, j) = static_cast<float>((rng.uniform() - 0.5) * 7.3);
    data.targets[i] = static_cast<float>(i % 10);
  }
  return data;
}

bool same_bits(const float* a, const float* b, Index count) {
  return std::memcmp(a, b, static_cast<std::size_t>(count) * sizeof(float)) == 0;
}

}  // namespace

class TestLotGather : public QObject {
  Q_OBJECT

 private slots:
  void copiesTheNamedRowsBitForBit() {
    const Dataset train = random_rows(1000, 37, 3);
    const std::vector<Index> rows = {999, 0, 17, 17, 500, 1, 998};  // unsorted, repeated, ends
    Matrix lot(10, 37);
    Vector targets(10);
    lot.setConstant(-7.0f);
    targets.setConstant(-7.0f);
    gather_lot(train, rows, lot, targets);
    for (std::size_t k = 0; k < rows.size(); ++k) {
      const auto r = static_cast<Index>(k);
      QVERIFY2(same_bits(lot.row(r).data(), train.features.row(rows[k]).data(), 37),
               qPrintable(QString("lot row %1 != training row %2").arg(k).arg(rows[k])));
      QCOMPARE(targets[r], train.targets[rows[k]]);
    }
    for (Index k = static_cast<Index>(rows.size()); k < 10; ++k) {
      QVERIFY((lot.row(k).array() == -7.0f).all());
      QCOMPARE(targets[k], -7.0f);
    }
  }

  void gathersPoissonLotsOfALargeMatrix() {
    // Rows long enough for several prefetched cache lines, lots from the real sampler.
    const Dataset train = random_rows(4000, 300, 9);
    const privacy::PoissonSampler sampler(train.size(), 0.05);
    Rng rng(4);
    std::vector<Index> rows;
    Matrix lot(sampler.suggested_capacity(), 300);
    Vector targets(sampler.suggested_capacity());
    for (int repeat = 0; repeat < 5; ++repeat) {
      sampler.sample(rng, rows);
      QVERIFY(rows.size() > 100);
      gather_lot(train, rows, lot, targets);
      const Dataset expected = select_rows(train, rows);
      const auto m = static_cast<Index>(rows.size());
      QVERIFY(same_bits(lot.topRows(m).data(), expected.features.data(), m * 300));
      QVERIFY(targets.head(m) == expected.targets);
    }
  }

  void emptyLotWritesNothing() {
    const Dataset train = random_rows(10, 4, 1);
    Matrix lot = Matrix::Constant(2, 4, 5.0f);
    Vector targets = Vector::Constant(2, 5.0f);
    gather_lot(train, {}, lot, targets);
    QVERIFY((lot.array() == 5.0f).all());
    QVERIFY((targets.array() == 5.0f).all());
  }
};

DPLAB_TEST_GUILESS_MAIN(TestLotGather)
#include "test_lot_gather.moc"
