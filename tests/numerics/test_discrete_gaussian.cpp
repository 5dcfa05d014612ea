// Secure mode's discrete Gaussian (privacy/mechanisms/discrete_gaussian.h, Canonne, Kamath &
// Steinke 2020) and its integer-grid mechanism (privacy/mechanisms/grid_gaussian_noise.h):
//  - samples of N_Z(0, sigma^2) against the exact pmf (Pearson chi-square, fixed ChaCha20 key,
//    sigma = 1 and 3), the discrete Laplace likewise;
//  - the variance: the exact sum (CKS20: below sigma^2, equal to it up to exp(-2 pi^2 sigma^2))
//    and the sample variance against it, also at the grid's sigma = 2^20;
//  - the same key gives the same samples, another key others; a bad sigma is refused by name;
//  - the grid mechanism: rounding keeps the l2 sensitivity of the integer vector within C / g
//    for sums clipped at C' (worst-case half-integer straddles), outputs lie on the grid, and
//    the noise of the released mean has std sigma C / L;
//  - the fast sampler of the grid (privacy/mechanisms/dyadic_discrete_gaussian.h): chi-square
//    against the exact pmf at sigma = 4, 8, 16 (with the default blocks and with large blocks,
//    where most proposals go through the exact digit comparison) and, by cells, at the grid's
//    sigma = 2^20; fill() (into 64- or 32-bit integers) gives the same integers as sample() for
//    the same key; the exact
//    digits of exp(-a / 2^e) against known values (Python decimal, 120 digits); the tie path of
//    the digit comparison draws true with probability frac(2^64 c); bad arguments by name;
//  - the grid's rounding: round_half_away is std::llround on the edge cases.
#include <QTest>

#include <algorithm>
#include <cmath>
#include <span>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "audit/chi_square.h"
#include "core/chacha20.h"
#include "core/error.h"
#include "privacy/mechanisms/discrete_gaussian.h"
#include "privacy/mechanisms/dyadic_discrete_gaussian.h"
#include "privacy/mechanisms/grid_gaussian_noise.h"
#include "support/test_registry.h"

using namespace dplab;
using namespace dplab::privacy;

namespace {

ChaCha20 keyed(std::uint32_t seed) {
  ChaCha20::Key key{};
  for (std::uint32_t i = 0; i < 8; ++i) key[i] = seed * 0x9E3779B9u + i;
  return ChaCha20(key, {seed, 0u, 1u}, 0);
}

// Chi-square of `n` samples against the exact pmf over the cells |x| <= cut, tails merged.
audit::ChiSquareResult fit(const std::vector<std::int64_t>& samples, int cut,
                           double (*pmf)(std::int64_t, double), double parameter) {
  const int cells = 2 * cut + 3;  // (-inf, -cut-1], -cut..cut, [cut+1, inf)
  std::vector<double> observed(cells, 0), expected(cells, 0);
  for (std::int64_t x : samples) {
    const std::int64_t clamped =
        std::max<std::int64_t>(-cut - 1, std::min<std::int64_t>(cut + 1, x));
    observed[static_cast<std::size_t>(clamped + cut + 1)] += 1;
  }
  double inner = 0;
  for (int x = -cut; x <= cut; ++x) {
    expected[static_cast<std::size_t>(x + cut + 1)] = pmf(x, parameter);
    inner += pmf(x, parameter);
  }
  expected.front() = expected.back() = 0.5 * (1.0 - inner);  // symmetric tails
  return audit::chi_square_test(observed, expected);
}

double laplace_pmf(std::int64_t x, double t) {
  const double r = std::exp(-1.0 / t);
  return (1 - r) / (1 + r) * std::pow(r, std::abs(static_cast<double>(x)));
}

}  // namespace

class TestDiscreteGaussian : public QObject {
  Q_OBJECT

 private slots:
  void matches_the_exact_pmf() {
    for (const std::uint64_t sigma : {std::uint64_t{1}, std::uint64_t{3}}) {
      ChaCha20 rng = keyed(static_cast<std::uint32_t>(sigma));
      std::vector<std::int64_t> samples(200'000);
      for (auto& x : samples) x = sample_discrete_gaussian(sigma, rng);
      const int cut = static_cast<int>(3 * sigma);
      const auto result = fit(samples, cut, discrete_gaussian_pmf, static_cast<double>(sigma));
      QVERIFY2(result.p_value > 1e-4, qPrintable(QString("sigma %1: chi-square %2, dof %3, p = %4")
                                                     .arg(sigma)
                                                     .arg(result.statistic)
                                                     .arg(result.degrees_of_freedom)
                                                     .arg(result.p_value)));
    }
  }

  void a_wrong_law_is_rejected() {
    // The same test must be able to fail: sigma = 3 samples against the sigma = 3.3 pmf.
    ChaCha20 rng = keyed(33);
    std::vector<std::int64_t> samples(200'000);
    for (auto& x : samples) x = sample_discrete_gaussian(3, rng);
    QVERIFY(fit(samples, 9, discrete_gaussian_pmf, 3.3).p_value < 1e-6);
  }

  void discrete_laplace_matches_its_pmf() {
    ChaCha20 rng = keyed(7);
    std::vector<std::int64_t> samples(100'000);
    for (auto& x : samples) x = sample_discrete_laplace(2, rng);
    const auto result = fit(samples, 8, laplace_pmf, 2.0);
    QVERIFY2(result.p_value > 1e-4, qPrintable(QString("p = %1").arg(result.p_value)));
  }

  void variance() {
    // Exact: below sigma^2, and equal to it up to ~ 4 pi^2 sigma^4 exp(-2 pi^2 sigma^2).
    // (at sigma = 3 the gap, ~exp(-177), is far below double precision: equal to the last bits).
    QVERIFY(std::abs(discrete_gaussian_variance(3.0) - 9.0) < 1e-12);
    QVERIFY(discrete_gaussian_variance(0.5) < 0.25);
    QVERIFY(discrete_gaussian_variance(0.3) < 0.09 * 0.5);  // far below for tiny sigma
    // Sampled, sigma = 3: within 5 standard errors (SE of s^2 ~ sigma^2 sqrt(2/n)).
    {
      ChaCha20 rng = keyed(11);
      const int n = 200'000;
      double sum = 0, sum_sq = 0;
      for (int i = 0; i < n; ++i) {
        const double x = static_cast<double>(sample_discrete_gaussian(3, rng));
        sum += x;
        sum_sq += x * x;
      }
      const double mean = sum / n, var = sum_sq / n - mean * mean;
      QVERIFY2(std::abs(mean) < 5 * 3 / std::sqrt(n), qPrintable(QString::number(mean)));
      QVERIFY2(std::abs(var - discrete_gaussian_variance(3.0)) < 5 * 9 * std::sqrt(2.0 / n),
               qPrintable(QString::number(var)));
    }
    // The grid's sigma = 2^20 (128-bit rational exponents): mean and variance.
    {
      ChaCha20 rng = keyed(12);
      const double sigma = static_cast<double>(GridGaussianNoise::kGridSigma);
      const int n = 20'000;
      double sum = 0, sum_sq = 0;
      for (int i = 0; i < n; ++i) {
        const double x =
            static_cast<double>(sample_discrete_gaussian(GridGaussianNoise::kGridSigma, rng));
        sum += x;
        sum_sq += x * x;
      }
      const double mean = sum / n, var = sum_sq / n - mean * mean;
      QVERIFY2(std::abs(mean) < 5 * sigma / std::sqrt(n), qPrintable(QString::number(mean)));
      QVERIFY2(std::abs(var / (sigma * sigma) - 1.0) < 5 * std::sqrt(2.0 / n),
               qPrintable(QString::number(var / (sigma * sigma))));
    }
  }

  void keyed_streams_and_bad_sigma() {
    ChaCha20 a = keyed(5), b = keyed(5), c = keyed(6);
    std::vector<std::int64_t> xa, xb, xc;
    for (int i = 0; i < 64; ++i) {
      xa.push_back(sample_discrete_gaussian(1000, a));
      xb.push_back(sample_discrete_gaussian(1000, b));
      xc.push_back(sample_discrete_gaussian(1000, c));
    }
    QCOMPARE(xa, xb);
    QVERIFY(xa != xc);
    for (const std::uint64_t bad : {std::uint64_t{0}, kMaxDiscreteGaussianSigma + 1}) {
      try {
        sample_discrete_gaussian(bad, a);
        QFAIL("no error");
      } catch (const InvalidArgument& e) {
        QVERIFY2(std::string(e.what()).find("sigma") != std::string::npos, e.what());
      }
    }
  }

  void grid_rounding_keeps_the_sensitivity() {
    // sigma = 4, C = 1, d = 50: C' = C (1 - 4 sqrt(50) / 2^20). Two sums differing by a vector
    // of norm C' whose coordinates straddle half-integers of the grid as badly as possible.
    const double sigma = 4, clip = 1;
    const Index d = 50;
    GridGaussianNoise grid(sigma, clip, d, keyed(1));
    const double g = grid.grid();
    QCOMPARE(g, sigma * clip / static_cast<double>(GridGaussianNoise::kGridSigma));
    QCOMPARE(grid.rounding_clip(), clip * (1 - sigma * std::sqrt(50.0) / 1048576.0));
    const double step = grid.rounding_clip() / std::sqrt(static_cast<double>(d));
    double norm_sq = 0;
    for (Index j = 0; j < d; ++j) {
      // a_j just below a half-integer, b_j = a_j + step just above the next one.
      const double a = (std::floor(j * 37.0) + 0.5) * g - 1e-9 * g;
      const double b = a + step;
      const double k = static_cast<double>(std::llround(b / g) - std::llround(a / g));
      norm_sq += k * k;
    }
    QVERIFY2(std::sqrt(norm_sq) <= clip / g, qPrintable(QString::number(std::sqrt(norm_sq))));
    // Without the shrink the same straddles would exceed C / g.
    norm_sq = 0;
    const double full_step = clip / std::sqrt(static_cast<double>(d));
    for (Index j = 0; j < d; ++j) {
      const double a = (std::floor(j * 37.0) + 0.5) * g - 1e-9 * g;
      const double k = static_cast<double>(std::llround((a + full_step) / g) - std::llround(a / g));
      norm_sq += k * k;
    }
    QVERIFY(std::sqrt(norm_sq) > clip / g);
  }

  void grid_outputs_are_on_the_grid_with_the_right_noise() {
    const double sigma = 2, clip = 0.5, lot = 10;
    const Index d = 20'000;
    GridGaussianNoise grid(sigma, clip, d, keyed(2));
    Vector sum = Vector::Constant(d, 0.25f);
    grid.privatize(sum, 1.0 / lot);
    const double unit = grid.grid() / lot;
    const double centre = std::llround(0.25 / grid.grid()) * unit;
    double s = 0, s2 = 0;
    for (Index j = 0; j < d; ++j) {
      const double v = static_cast<double>(sum[j]) - centre;
      s += v;
      s2 += v * v;
    }
    const double mean = s / d, sd = std::sqrt(s2 / d - mean * mean);
    const double expected_sd = sigma * clip / lot;  // the continuous mechanism's sigma C / L
    QVERIFY2(std::abs(sd / expected_sd - 1) < 5 * std::sqrt(0.5 / d),
             qPrintable(QString::number(sd)));
    QVERIFY(std::abs(mean) < 5 * expected_sd / std::sqrt(static_cast<double>(d)));
    // Each released coordinate is an integer number of grid steps (up to float32 rounding).
    const double steps = static_cast<double>(sum[0]) / unit;
    QVERIFY(std::abs(steps - std::round(steps)) < 1e-6 * std::abs(steps) + 1e-3);
    try {
      GridGaussianNoise too_coarse(600, 1, 1'000'000, keyed(3));
      QFAIL("no error");
    } catch (const InvalidArgument& e) {
      QVERIFY(std::string(e.what()).find("grid") != std::string::npos);
    }
  }

  void dyadic_sampler_matches_the_exact_pmf() {
    // (k, core block bits): default blocks, then blocks of 2^(k-2) (sigma / 4), where the factor
    // exp(-(m^2 - s^2) / 2 sigma^2) is mostly decided by detail::exact_less.
    const std::vector<std::pair<int, int>> cases{{2, -1}, {3, -1}, {4, -1}, {3, 1}, {4, 2}};
    for (const auto& [k, bits] : cases) {
      DyadicDiscreteGaussian sampler(k, keyed(static_cast<std::uint32_t>(40 + k + bits)), bits);
      std::vector<std::int64_t> samples(200'000);
      sampler.fill(samples);
      const double sigma = std::ldexp(1.0, k);
      const auto result = fit(samples, static_cast<int>(3 * sigma), discrete_gaussian_pmf, sigma);
      QVERIFY2(result.p_value > 1e-4, qPrintable(QString("k %1, blocks %2: chi-square %3, p = %4")
                                                     .arg(k)
                                                     .arg(bits)
                                                     .arg(result.statistic)
                                                     .arg(result.p_value)));
    }
    // The same test rejects a wrong law: sigma = 8 samples against the sigma = 8.4 pmf.
    DyadicDiscreteGaussian eight(3, keyed(77));
    std::vector<std::int64_t> samples(200'000);
    eight.fill(samples);
    QVERIFY(fit(samples, 24, discrete_gaussian_pmf, 8.4).p_value < 1e-6);
  }

  void dyadic_sampler_at_the_grid_sigma() {
    // sigma = 2^20: 64 cells of sigma / 8 over [-4 sigma, 4 sigma) and two tails. Cell
    // probabilities by the midpoint rule on the normal CDF (for sigma = 2^20 the discrete sums
    // agree with it far below the test's resolution).
    DyadicDiscreteGaussian sampler(20, keyed(90));
    const int n = 1'000'000, cells = 64;
    const double sigma = 1048576.0, width = sigma / 8;
    std::vector<double> observed(cells + 2, 0), expected(cells + 2, 0);
    double sum = 0, sum_sq = 0;
    for (int i = 0; i < n; ++i) {
      const auto x = static_cast<double>(sampler.sample());
      sum += x;
      sum_sq += x * x;
      const double cell = std::floor(x / width) + cells / 2;
      observed[static_cast<std::size_t>(std::clamp(cell + 1, 0.0, cells + 1.0))] += 1;
    }
    const auto cdf = [&](double t) { return 0.5 * std::erfc(-t / (sigma * std::sqrt(2.0))); };
    for (int c = 0; c <= cells + 1; ++c) {
      const double lo = c == 0 ? -1e300 : (c - 1 - cells / 2) * width - 0.5;
      const double hi = c == cells + 1 ? 1e300 : (c - cells / 2) * width - 0.5;
      expected[static_cast<std::size_t>(c)] = cdf(hi) - cdf(lo);
    }
    const auto result = audit::chi_square_test(observed, expected);
    QVERIFY2(
        result.p_value > 1e-4,
        qPrintable(QString("chi-square %1, p = %2").arg(result.statistic).arg(result.p_value)));
    const double mean = sum / n, var = sum_sq / n - mean * mean;
    QVERIFY2(std::abs(mean) < 5 * sigma / std::sqrt(n), qPrintable(QString::number(mean)));
    QVERIFY2(std::abs(var / (sigma * sigma) - 1) < 5 * std::sqrt(2.0 / n),
             qPrintable(QString::number(var / (sigma * sigma))));
  }

  void dyadic_fill_equals_sample_and_keys_differ() {
    // Across batches of 512 proposals (some values come from one batch's leftovers), in 64-bit
    // and 32-bit integers.
    DyadicDiscreteGaussian a(20, keyed(5)), b(20, keyed(5)), c(20, keyed(6)), d(20, keyed(5));
    std::vector<std::int64_t> batch(3000), single, other(3000);
    a.fill(std::span(batch).first(600));
    a.fill(std::span(batch).subspan(600, 7));
    a.fill(std::span(batch).subspan(607));
    for (int i = 0; i < 3000; ++i) single.push_back(b.sample());
    QCOMPARE(batch, single);
    std::vector<std::int32_t> narrow(3000);
    d.fill(std::span(narrow).first(1100));
    d.fill(std::span(narrow).subspan(1100));
    QVERIFY(std::equal(batch.begin(), batch.end(), narrow.begin()));
    c.fill(other);
    QVERIFY(batch != other);
  }

  void dyadic_exact_digits() {
    using detail::exp_neg_dyadic_digits;
    // floor(2^(64 limbs) exp(-x)) by Python's decimal module at 120 digits.
    QCOMPARE(exp_neg_dyadic_digits(1, 0, 3),
             (std::vector<std::uint64_t>{0x5e2d58d8b3bcdf1aULL, 0xbadec7829054f90dULL,
                                         0xda9805aab56c7733ULL}));  // exp(-1)
    QCOMPARE(exp_neg_dyadic_digits(1, 8, 2),
             (std::vector<std::uint64_t>{0xff007fd55ffdde38ULL, 0xd68f08c257e0ce3fULL}));
    QCOMPARE(exp_neg_dyadic_digits(3, 1, 2),
             (std::vector<std::uint64_t>{0x391f0ee496b83ac8ULL, 0xd7d24bee20b169dfULL}));
    QCOMPARE(exp_neg_dyadic_digits(12345, 41, 2),
             (std::vector<std::uint64_t>{0xffffffe7e3800122ULL, 0xad9616dfc9de24d2ULL}));
  }

  void dyadic_tie_path_draws_the_next_digits() {
    // V's first 64 digits equal those of c = exp(-1): V < c with probability frac(2^64 c).
    constexpr std::uint64_t kDigits = 0x5e2d58d8b3bcdf1aULL;
    const double frac = 0.72996184289543809906;
    ChaCha20 rng = keyed(91);
    const int n = 20'000;
    int below = 0;
    for (int i = 0; i < n; ++i) below += detail::exact_less(kDigits, 1, 0, 1, 1, rng) ? 1 : 0;
    QVERIFY2(std::abs(below / double(n) - frac) < 5 * std::sqrt(frac * (1 - frac) / n),
             qPrintable(QString::number(below / double(n))));
    QVERIFY(detail::exact_less(kDigits - 1, 1, 0, 1, 1, rng));
    QVERIFY(!detail::exact_less(kDigits + 1, 1, 0, 1, 1, rng));
    // With a multiplier and a divisor: c = exp(-1) 3 / 2 = 0.5518...: V = 0.5 is below.
    QVERIFY(detail::exact_less(std::uint64_t{1} << 63, 1, 0, 3, 2, rng));
    QVERIFY(!detail::exact_less(std::uint64_t{9} << 60, 1, 0, 3, 2, rng));  // 0.5625
  }

  void dyadic_bad_arguments() {
    for (const auto& [k, bits, field] :
         std::vector<std::tuple<int, int, std::string>>{{1, -1, "log2_sigma"},
                                                        {23, -1, "log2_sigma"},
                                                        {20, 11, "core_block_bits"},
                                                        {20, 19, "core_block_bits"}}) {
      try {
        DyadicDiscreteGaussian sampler(k, keyed(1), bits);
        QFAIL("no error");
      } catch (const InvalidArgument& e) {
        QVERIFY2(std::string(e.what()).find(field) != std::string::npos, e.what());
      }
    }
  }

  void grid_rounding_is_llround() {
    for (const double x : {0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49999999999999994,
                           -0.49999999999999994, 4503599627370495.5, -4503599627370495.5,
                           4503599627370497.0, 9.0e18, -9.0e18, 123456.49999, -7.5000001}) {
      QCOMPARE(GridGaussianNoise::round_half_away(x), static_cast<std::int64_t>(std::llround(x)));
    }
  }
};

DPLAB_TEST_GUILESS_MAIN(TestDiscreteGaussian)
#include "test_discrete_gaussian.moc"
