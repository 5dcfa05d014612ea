// PoissonSampler: seeded statistical checks with wide margins that the lots have the law of n
// independent Bernoulli(q) trials (mean size qn, per-index inclusion frequency q — a chi-square
// bound — and pair inclusion q^2 for neighbours, which catches off-by-one gaps), plus exact
// properties: q = 1 gives everyone, lots are sorted and unique, same seed => same lots, the
// reserved buffer is never reallocated, invalid settings name their field.
#include <QTest>
#include <cmath>
#include <limits>
#include <vector>

#include "core/error.h"
#include "core/random.h"
#include "privacy/mechanisms/poisson_sampler.h"
#include "support/numeric_compare.h"
#include "support/test_registry.h"

using namespace dplab;
using privacy::PoissonSampler;

class TestPoissonSampler : public QObject {
  Q_OBJECT

 private slots:
  void meanLotSize() {
    // |lot| ~ Binomial(n, q): mean qn = 100, std of the mean over R lots = sqrt(qn(1-q)/R).
    const Index n = 10000;
    const double q = 0.01;
    const int lots = 4000;
    PoissonSampler sampler(n, q);
    Rng rng(11);
    std::vector<Index> lot;
    double sum = 0, sum_sq = 0;
    for (int r = 0; r < lots; ++r) {
      sampler.sample(rng, lot);
      sum += lot.size();
      sum_sq += double(lot.size()) * lot.size();
    }
    const double mean = sum / lots;
    const double variance = sum_sq / lots - mean * mean;
    const double std_of_mean = std::sqrt(n * q * (1 - q) / lots);  // 0.157
    DPLAB_COMPARE_ABS(mean, n * q, 6 * std_of_mean);
    // Variance of the lot size = nq(1-q) = 99; its estimate has relative std ~ sqrt(2/R) = 2%.
    DPLAB_COMPARE_REL(variance, n * q * (1 - q), 0.12);
  }

  void inclusionFrequencyPerIndex() {
    // Each index is included in ~ Binomial(R, q) lots. Chi-square over the n indices:
    // X = sum (c_i - Rq)^2 / (Rq(1-q)) ~ chi2(n) (mean n, std sqrt(2n) = 20 for n = 200).
    const Index n = 200;
    const double q = 0.1;
    const int lots = 20000;
    PoissonSampler sampler(n, q);
    Rng rng(12);
    std::vector<Index> lot;
    std::vector<double> count(n, 0.0);
    double adjacent_pairs = 0;  // lots containing both i and i + 1, summed over i
    for (int r = 0; r < lots; ++r) {
      sampler.sample(rng, lot);
      for (std::size_t k = 0; k < lot.size(); ++k) {
        count[lot[k]] += 1;
        if (k + 1 < lot.size() && lot[k + 1] == lot[k] + 1) adjacent_pairs += 1;
      }
    }
    const double expected = lots * q, var = lots * q * (1 - q);
    double chi2 = 0, worst = 0;
    for (Index i = 0; i < n; ++i) {
      const double z = (count[i] - expected) / std::sqrt(var);
      chi2 += z * z;
      worst = std::max(worst, std::abs(z));
    }
    if (!(chi2 > n - 5 * std::sqrt(2.0 * n) && chi2 < n + 5 * std::sqrt(2.0 * n)))
      QFAIL(qPrintable(QString("chi-square %1 outside n +- 5 sqrt(2n), n = %2").arg(chi2).arg(n)));
    QVERIFY2(worst < 5.5, qPrintable(QString("an index is %1 standard deviations off").arg(worst)));
    // Neighbours are independent: P(i and i+1 both in) = q^2; expected R (n-1) q^2 = 39,800,
    // std < 200. 2% = 4 std.
    DPLAB_COMPARE_REL(adjacent_pairs, lots * (n - 1) * q * q, 0.02);
  }

  void rateOneTakesEveryone() {
    PoissonSampler sampler(37, 1.0);
    Rng rng(1);
    std::vector<Index> lot;
    for (int r = 0; r < 3; ++r) {
      sampler.sample(rng, lot);
      QCOMPARE(lot.size(), std::size_t(37));
      for (Index i = 0; i < 37; ++i) QCOMPARE(lot[i], i);
    }
    QCOMPARE(sampler.suggested_capacity(), Index(37));
  }

  void sortedUniqueInRange() {
    PoissonSampler sampler(1000, 0.3);
    Rng rng(5);
    std::vector<Index> lot;
    for (int r = 0; r < 200; ++r) {
      sampler.sample(rng, lot);
      for (std::size_t k = 0; k < lot.size(); ++k) {
        QVERIFY(lot[k] >= 0 && lot[k] < 1000);
        if (k > 0) QVERIFY(lot[k] > lot[k - 1]);  // strictly increasing => sorted and unique
      }
    }
  }

  void deterministicPerSeed() {
    PoissonSampler sampler(5000, 0.02);
    Rng a(77), b(77), c(78);
    std::vector<Index> la, lb, lc;
    bool any_difference = false;
    for (int r = 0; r < 20; ++r) {
      sampler.sample(a, la);
      sampler.sample(b, lb);
      sampler.sample(c, lc);
      QVERIFY(la == lb);
      any_difference |= la != lc;
    }
    QVERIFY(any_difference);
  }

  void noReallocationInSteadyState() {
    PoissonSampler sampler(60000, 250.0 / 60000);
    QCOMPARE(sampler.suggested_capacity(), Index(250 + 159 + 64));  // ceil(250 + 10 sqrt(250) + 64)
    std::vector<Index> lot;
    lot.reserve(sampler.suggested_capacity());
    const Index* data = lot.data();
    const std::size_t capacity = lot.capacity();
    Rng rng(3);
    for (int r = 0; r < 2000; ++r) sampler.sample(rng, lot);
    QCOMPARE(lot.capacity(), capacity);
    QVERIFY(lot.data() == data);
  }

  void tinyRateDoesNotOverflow() {
    // Gaps of ~1e12 / q positions must end the lot, not wrap an integer.
    PoissonSampler sampler(1000000, 1e-12);
    Rng rng(9);
    std::vector<Index> lot;
    std::size_t total = 0;
    for (int r = 0; r < 1000; ++r) {
      sampler.sample(rng, lot);
      total += lot.size();
    }
    QVERIFY(total <= 1);  // expected 1e-3
  }

  void invalidSettingsNameTheField() {
    auto message = [](Index n, double q) -> QString {
      try {
        PoissonSampler sampler(n, q);
      } catch (const InvalidArgument& e) {
        return e.what();
      }
      return {};
    };
    QVERIFY(message(100, 0).contains("sampling_rate = 0"));
    QVERIFY(message(100, 1.5).contains("sampling_rate = 1.5"));
    QVERIFY(message(100, std::numeric_limits<double>::quiet_NaN()).contains("sampling_rate"));
    QVERIFY(message(0, 0.5).contains("population = 0"));
  }
};

DPLAB_TEST_APPLESS_MAIN(TestPoissonSampler)
#include "test_poisson_sampler.moc"
