#include "privacy/mechanisms/discrete_gaussian.h"

#include <cmath>
#include <string>

#include "core/error.h"
#include "core/random.h"

namespace dplab::privacy {
namespace {

constexpr std::uint64_t kMaxLaplaceMagnitude = std::uint64_t{1} << 36;

// Uniform in [0, n), n >= 1, by rejection on the smallest power-of-two range covering n.
Uint128 uniform_below(Uint128 n, ChaCha20& rng) {
  if (n <= 1) return 0;
  int bits = 0;
  for (Uint128 m = n - 1; m != 0; m >>= 1) ++bits;
  const Uint128 mask = bits >= 128 ? ~Uint128{0} : (Uint128{1} << bits) - 1;
  for (;;) {
    Uint128 word = rng.next_u64();
    if (bits > 64) word |= static_cast<Uint128>(rng.next_u64()) << 64;
    word &= mask;
    if (word < n) return word;
  }
}

// Bernoulli(n / d), 0 <= n <= d, d >= 1: exact.
bool bernoulli(Uint128 n, Uint128 d, ChaCha20& rng) {
  return uniform_below(d, rng) < n;
}

// Bernoulli(exp(-n/d)) for 0 <= n/d <= 1 (CKS20 Alg. 1, first case): the parity of the first
// K with a failed Bernoulli(gamma / K) (P[K > k] = gamma^k / k!, so P[K odd] = exp(-gamma)).
bool bernoulli_exp_at_most_one(Uint128 n, Uint128 d, ChaCha20& rng) {
  std::uint64_t k = 1;
  while (bernoulli(n, d * k, rng)) {
    ++k;
    if (k > (std::uint64_t{1} << 20)) throw Error("discrete Gaussian: Bernoulli loop overflow");
  }
  return (k % 2) == 1;
}

// Bernoulli(exp(-n/d)) for any n/d >= 0 (CKS20 Alg. 1).
bool bernoulli_exp(Uint128 n, Uint128 d, ChaCha20& rng) {
  const Uint128 whole = n / d;
  for (Uint128 i = 0; i < whole; ++i) {
    if (!bernoulli_exp_at_most_one(1, 1, rng)) return false;
  }
  return bernoulli_exp_at_most_one(n % d, d, rng);
}

}  // namespace

std::int64_t sample_discrete_laplace(std::uint64_t t, ChaCha20& rng) {
  if (t < 1) throw InvalidArgument("discrete Laplace: t must be >= 1, got 0");
  for (;;) {
    const Uint128 u = uniform_below(t, rng);
    if (!bernoulli_exp_at_most_one(u, t, rng)) continue;
    std::uint64_t v = 0;
    while (bernoulli_exp_at_most_one(1, 1, rng)) ++v;
    const Uint128 x = u + static_cast<Uint128>(t) * v;
    const bool negative = bernoulli(1, 2, rng);
    if (negative && x == 0) continue;
    if (x > kMaxLaplaceMagnitude) continue;  // see the header: never in practice
    const auto magnitude = static_cast<std::int64_t>(x);
    return negative ? -magnitude : magnitude;
  }
}

std::int64_t sample_discrete_gaussian(std::uint64_t sigma, ChaCha20& rng) {
  if (sigma < 1 || sigma > kMaxDiscreteGaussianSigma) {
    throw InvalidArgument("sigma: the discrete Gaussian takes an integer sigma in [1, 2^24], got " +
                          std::to_string(sigma));
  }
  const std::uint64_t t = sigma + 1;  // floor(sigma) + 1
  const Uint128 s2 = static_cast<Uint128>(sigma) * sigma;
  const Uint128 denominator = 2 * s2 * t * t;  // 2 s^2 t^2 <= 2^98
  for (;;) {
    const std::int64_t y = sample_discrete_laplace(t, rng);
    const Uint128 magnitude = static_cast<Uint128>(y < 0 ? -y : y);
    // (|Y| - s^2/t)^2 / (2 s^2) = (|Y| t - s^2)^2 / (2 s^2 t^2); |Y| t <= 2^61.
    const Uint128 scaled = magnitude * t;
    const Uint128 difference = scaled >= s2 ? scaled - s2 : s2 - scaled;
    if (bernoulli_exp(difference * difference, denominator, rng)) return y;
  }
}

double discrete_gaussian_pmf(std::int64_t x, double sigma) {
  const auto range = static_cast<std::int64_t>(40 * sigma + 40);
  double normaliser = 0;
  for (std::int64_t y = -range; y <= range; ++y) {
    normaliser += std::exp(-static_cast<double>(y * y) / (2 * sigma * sigma));
  }
  return std::exp(-static_cast<double>(x) * static_cast<double>(x) / (2 * sigma * sigma)) /
         normaliser;
}

double discrete_gaussian_variance(double sigma) {
  const auto range = static_cast<std::int64_t>(40 * sigma + 40);
  double normaliser = 0, second = 0;
  for (std::int64_t y = -range; y <= range; ++y) {
    const double w = std::exp(-static_cast<double>(y * y) / (2 * sigma * sigma));
    normaliser += w;
    second += static_cast<double>(y * y) * w;
  }
  return second / normaliser;
}

}  // namespace dplab::privacy
