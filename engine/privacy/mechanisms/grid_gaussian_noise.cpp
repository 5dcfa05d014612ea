#include "privacy/mechanisms/grid_gaussian_noise.h"

#include <algorithm>
#include <cmath>
#include <span>
#include <string>

#include "core/error.h"
#include "core/validate.h"

namespace dplab::privacy {

GridGaussianNoise::GridGaussianNoise(double noise_multiplier, double clip, Index dim, ChaCha20 rng)
    : grid_(0), rounding_clip_(0), dim_(dim), sampler_(kLog2GridSigma, rng) {
  if (!(noise_multiplier > 0) || !std::isfinite(noise_multiplier))
    fail_field("noise_multiplier", noise_multiplier, "must be finite and > 0 for secure noise");
  if (!(clip > 0) || !std::isfinite(clip))
    fail_field("clip", clip, "must be finite and > 0 for secure noise");
  if (dim < 1) throw InvalidArgument("secure noise: the model has no parameters");
  const double shrink =
      noise_multiplier * std::sqrt(static_cast<double>(dim)) / static_cast<double>(kGridSigma);
  if (shrink >= 0.5) {
    throw InvalidArgument("secure noise: noise_multiplier * sqrt(parameters) = " +
                          format_number(shrink * static_cast<double>(kGridSigma)) +
                          " is too large for the 2^20 integer grid (must be < 2^19)");
  }
  grid_ = noise_multiplier * clip / static_cast<double>(kGridSigma);
  rounding_clip_ = clip * (1.0 - shrink);
}

void GridGaussianNoise::privatize(VectorSpan sum, double scale) {
  if (sum.size() != dim_) {
    throw InvalidArgument("secure noise: the sum has " + std::to_string(sum.size()) +
                          " coordinates, the grid was made for " + std::to_string(dim_));
  }
  constexpr double kLimit = 9.0e18;  // < 2^63, with room for the noise
  const double factor = grid_ * scale;
  for (Index begin = 0; begin < sum.size(); begin += static_cast<Index>(kChunk)) {
    const auto count =
        static_cast<std::size_t>(std::min<Index>(static_cast<Index>(kChunk), sum.size() - begin));
    sampler_.fill(std::span(noise_.data(), count));
    float* out = sum.data() + begin;
    // Two passes the compiler vectorizes: the grid units and their check, then the rounding, the
    // noise and the release (the same integers as round_half_away one coordinate at a time).
    unsigned out_of_range = 0;  // an integer reduction (a bool one is not vectorized)
    for (std::size_t i = 0; i < count; ++i) {
      units_[i] = static_cast<double>(out[i]) / grid_;
      out_of_range |= std::abs(units_[i]) < kLimit ? 0u : 1u;  // 1 for NaN too
    }
    if (out_of_range != 0) {
      for (std::size_t i = 0; i < count; ++i) {
        if (!(std::abs(units_[i]) < kLimit)) {
          throw InvalidArgument("secure noise: gradient sum coordinate " +
                                std::to_string(begin + static_cast<Index>(i)) +
                                " is not finite or too large for the integer grid");
        }
      }
    }
    for (std::size_t i = 0; i < count; ++i) {
      const std::int64_t noisy = round_half_away(units_[i]) + noise_[i];
      out[i] = static_cast<float>(static_cast<double>(noisy) * factor);
    }
  }
}

}  // namespace dplab::privacy
