// GaussianNoise: seeded statistical checks with wide margins (mean, variance, kurtosis = 3,
// tail frequency beyond 4 sigma, independence of the Box–Muller pair) on millions of draws;
// the exact tail reach of the Box–Muller map (a 53-bit U gives |z| up to 8.57, beyond the
// 5.8 sigma a 24-bit float uniform allows); determinism per seed; fill vs add consistency.
#include <QTest>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "core/error.h"
#include "core/random.h"
#include "privacy/mechanisms/gaussian_noise.h"
#include "support/numeric_compare.h"
#include "support/test_registry.h"

using namespace dplab;
using privacy::GaussianNoise;

namespace {

struct Moments {
  double mean = 0, variance = 0, kurtosis = 0, beyond4 = 0, max_abs = 0;
  double pair_square_correlation = 0;  // corr(z_cos^2, z_sin^2) within Box–Muller pairs
};

// Moments of `draws` normals generated with standard deviation s (standardised by s).
Moments moments(std::uint64_t seed, double s, Index draws) {
  GaussianNoise noise(seed);
  Vector buffer(1 << 20);  // a multiple of the block size: pairs stay aligned with blocks
  double sum = 0, sum2 = 0, sum4 = 0, beyond4 = 0, max_abs = 0;
  double sxy = 0, sx = 0, sxx = 0, pairs = 0;
  const Index half = GaussianNoise::kBlock / 2;
  for (Index done = 0; done < draws; done += buffer.size()) {
    noise.fill(s, buffer);
    for (Index i = 0; i < buffer.size(); ++i) {
      const double z = buffer[i] / s;
      sum += z;
      sum2 += z * z;
      sum4 += z * z * z * z;
      if (std::abs(z) > 4) beyond4 += 1;
      max_abs = std::max(max_abs, std::abs(z));
    }
    for (Index b = 0; b < buffer.size(); b += GaussianNoise::kBlock) {
      for (Index k = 0; k < half; ++k) {
        const double x = std::pow(buffer[b + k] / s, 2), y = std::pow(buffer[b + half + k] / s, 2);
        sxy += x * y;
        sx += x + y;
        sxx += x * x + y * y;
        pairs += 1;
      }
    }
  }
  const double n = static_cast<double>((draws + buffer.size() - 1) / buffer.size() * buffer.size());
  Moments m;
  m.mean = sum / n;
  m.variance = sum2 / n - m.mean * m.mean;
  m.kurtosis = (sum4 / n) / (m.variance * m.variance);
  m.beyond4 = beyond4;
  m.max_abs = max_abs;
  const double mean_sq = sx / (2 * pairs), var_sq = sxx / (2 * pairs) - mean_sq * mean_sq;
  m.pair_square_correlation = (sxy / pairs - mean_sq * mean_sq) / var_sq;
  return m;
}

}  // namespace

class TestGaussianNoise : public QObject {
  Q_OBJECT

 private slots:
  void momentsAndTails() {
    const Index draws = 4 << 20;  // 4,194,304
    const double n = static_cast<double>(draws);
    const Moments m = moments(2024, 2.5, draws);
    // mean: std 1/sqrt(n) = 4.9e-4; 6 std.
    DPLAB_COMPARE_ABS(m.mean, 0.0, 6 / std::sqrt(n));
    // variance: relative std sqrt(2/n) = 6.9e-4; 0.5% ~ 7 std.
    DPLAB_COMPARE_REL(m.variance, 1.0, 5e-3);
    // kurtosis: std sqrt(24/n) = 2.4e-3; 0.02 ~ 8 std.
    DPLAB_COMPARE_ABS(m.kurtosis, 3.0, 0.02);
    // P(|z| > 4) = 6.334e-5 -> 265.7 expected, Poisson std 16.3; +-30%  ~ 5 std.
    DPLAB_COMPARE_REL(m.beyond4, 6.334248e-5 * n, 0.3);
    // Over 4M draws the maximum is ~5.2 (P(max > 4.5) ~ 1 - exp(-28.5)).
    QVERIFY2(m.max_abs > 4.5, qPrintable(QString("max |z| = %1").arg(m.max_abs)));
    // Box–Muller pairs are independent: z_cos^2 and z_sin^2 uncorrelated (a wrong radius or
    // angle makes this clearly non-zero); std 1/sqrt(2M pairs) = 7e-4.
    DPLAB_COMPARE_ABS(m.pair_square_correlation, 0.0, 5e-3);
  }

  void tailsReachBeyondEightSigma() {
    // The smallest U (all 53 bits zero) gives R = sqrt(2 * 53 ln 2) = 8.5716; a float-only
    // 24-bit uniform would stop at sqrt(2 * 24 ln 2) = 5.77. Angle words: 0 -> V = -1/2,
    // cos = -1, sin ~ 0; so normals[0] = -8.5716.
    std::vector<std::uint64_t> words(GaussianNoise::kWordsPerBlock, 0);
    std::vector<float> normals(GaussianNoise::kBlock);
    GaussianNoise::transform_block(words.data(), normals.data());
    const double r_max = std::sqrt(2 * 53 * std::log(2.0));
    DPLAB_COMPARE_REL(normals[0], -r_max, 1e-6);
    DPLAB_COMPARE_ABS(normals[GaussianNoise::kBlock / 2], 0.0, 1e-5);
    // A word giving U = 2^-40 (|z| = 7.45 > 6): w >> 11 = 2^13 - 1.
    words[1] = ((std::uint64_t(1) << 13) - 1) << 11;
    GaussianNoise::transform_block(words.data(), normals.data());
    DPLAB_COMPARE_REL(std::abs(normals[1]), std::sqrt(2 * 40 * std::log(2.0)), 1e-6);
    // U = 1 (all bits set) gives R = 0.
    std::vector<std::uint64_t> ones(GaussianNoise::kWordsPerBlock, ~std::uint64_t(0));
    GaussianNoise::transform_block(ones.data(), normals.data());
    for (float z : normals) QCOMPARE(z, 0.0f);
  }

  void radiusAccurateOverTheWholeRange() {
    // R = sqrt(-2 ln U) must keep U's 53 bits at both ends: U near 0 (the tails) and U near 1
    // (R near 0, where a float U would round to 1 and give R = 0). Angle words with both 24-bit
    // fields (bits 40-63 and 8-31) at 2^23 give V = 0, so normals[k] = R_k exactly (cos 0 = 1).
    // Reference: long double. Bound: 4e-7 relative (a few float ulp; measured 1.9e-7).
    constexpr int kPairs = GaussianNoise::kBlock / 2;
    const std::uint64_t zero_angles = (std::uint64_t(1) << 63) | (std::uint64_t(1) << 31);
    std::vector<std::uint64_t> words(GaussianNoise::kWordsPerBlock, zero_angles);
    std::vector<float> normals(GaussianNoise::kBlock);
    Rng rng(17);
    double worst = 0;
    for (int round = 0; round < 400; ++round) {
      for (int k = 0; k < kPairs; ++k) {
        std::uint64_t w = rng();
        // A quarter of the words near each end: v = 2^53 - small (U just below 1), v small.
        if (k % 4 == 1) w = (((std::uint64_t(1) << 53) - 1 - (w >> (11 + 10 + k % 40))) << 11);
        if (k % 4 == 2) w = (w >> (11 + k % 50)) << 11;
        words[k] = w;
      }
      GaussianNoise::transform_block(words.data(), normals.data());
      for (int k = 0; k < kPairs; ++k) {
        const long double u = static_cast<long double>((words[k] >> 11) + 1) * 0x1.0p-53L;
        const long double r = std::sqrt(-2.0L * std::log(u));
        if (r == 0) {
          QCOMPARE(normals[k], 0.0f);
          continue;
        }
        worst = std::max(worst, static_cast<double>(std::fabs((normals[k] - r) / r)));
      }
    }
    QVERIFY2(worst < 4e-7, qPrintable(QString("worst relative error of R: %1").arg(worst)));
    // U = 1 - 2^-40: R = sqrt(2 * 2^-40) (1 + O(2^-41)) = 1.3487e-6; a float U gives 0.
    words[0] = ((std::uint64_t(1) << 53) - 1 - (std::uint64_t(1) << 13)) << 11;
    GaussianNoise::transform_block(words.data(), normals.data());
    DPLAB_COMPARE_REL(normals[0], std::sqrt(2.0 * 0x1.0p-40), 1e-6);
  }

  void deterministicPerSeed() {
    GaussianNoise a(5), b(5), c(6);
    Vector x(1000), y(1000), z(1000);
    for (int r = 0; r < 3; ++r) {
      a.fill(1.0, x);
      b.fill(1.0, y);
      c.fill(1.0, z);
      QVERIFY(x == y);
      QVERIFY(x != z);
    }
  }

  void addEqualsFillAndScales() {
    // add(s) on zeros == fill(s) with the same seed; fill(s) == s * fill(1).
    GaussianNoise a(9), b(9), c(9);
    Vector zeros = Vector::Zero(777), filled(777), unit(777);
    a.add(0.3, zeros);
    b.fill(0.3, filled);
    c.fill(1.0, unit);
    QVERIFY(zeros == filled);
    for (Index i = 0; i < 777; ++i) DPLAB_COMPARE_ABS(filled[i], 0.3f * unit[i], 1e-6);
  }

  void partialBlocksConsumeWholeBlocks() {
    // 300 values consume 2 blocks; the next call starts on a fresh block (documented).
    GaussianNoise a(3), b(3);
    Vector first(300), second(212), whole(512 + 212);
    a.fill(1.0, first);
    a.fill(1.0, second);
    b.fill(1.0, whole);
    QVERIFY(first == whole.head(300));
    QVERIFY(second == whole.segment(512, 212));
  }

  void zeroStddevAddIsNoOp() {
    GaussianNoise a(1);
    Vector x = Vector::Constant(10, 2.0f);
    a.add(0.0, x);
    QVERIFY(x == Vector::Constant(10, 2.0f));
  }

  void negativeStddevRejected() {
    GaussianNoise a(1);
    Vector x(10);
    QVERIFY_THROWS_EXCEPTION(InvalidArgument, a.fill(-1.0, x));
  }
};

DPLAB_TEST_APPLESS_MAIN(TestGaussianNoise)
#include "test_gaussian_noise.moc"
