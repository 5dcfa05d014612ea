// NoisyGradientOracle::query — one DP-SGD gradient query (Abadi et al. 2016, Alg. 1; main paper
// Alg. 2 lines 5-8, with the division by the expected lot size L as in docs/architecture.md):
//   lot  ~ Poisson(q = L / n)                         (PoissonSampler)
//   S    = sum_{i in lot} g_i min(1, C / ||g_i||)     (Model::clipped_gradient_sum; automatic
//          clipping: g_i C / (||g_i|| + gamma), Bu et al. 2023, models/clipping.h)
//   g~   = S / L + N(0, (sigma C / L)^2 I)            (= (S + N(0, sigma^2 C^2 I)) / L)
// returns the mean per-example loss over the lot (0 for an empty lot).
#include "dp_gradient/noisy_gradient.h"

#include "core/os_entropy.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/error.h"
#include "core/validate.h"
#include "data/feature_rows.h"
#include "data/lot_gather.h"

namespace dplab::privacy {
namespace {

// Checks the settings against the training set; throws InvalidArgument naming the field.
const DpSettings& validated(const DpSettings& settings, const data::Dataset& train) {
  if (train.size() == 0) throw InvalidArgument("the training set is empty (n = 0)");
  if (train.targets.size() != train.size()) {
    throw InvalidArgument("the training set has " + std::to_string(train.size()) +
                          " feature rows but " + std::to_string(train.targets.size()) + " targets");
  }
  const double n = static_cast<double>(train.size());
  require_positive("lot_size", settings.lot_size);
  if (settings.sampling_rate != 0) {
    if (!(settings.sampling_rate > 0 && settings.sampling_rate <= 1)) {
      fail_field("sampling_rate", settings.sampling_rate, "must be in (0, 1] (0: L / n)");
    }
  } else if (settings.lot_size > n) {
    fail_field("lot_size", settings.lot_size,
               "must be <= the training set size n = " + format_number(n));
  }
  // clip may be +infinity (kNoClipping) but must be > 0 and not NaN.
  if (!(settings.clip > 0)) fail_field("clip", settings.clip, "must be > 0");
  require_non_negative("noise_multiplier", settings.noise_multiplier);
  if (settings.noise_multiplier > 0 && !std::isfinite(settings.clip)) {
    fail_field(
        "clip", settings.clip,
        "must be finite when noise_multiplier > 0 (the noise std is noise_multiplier * clip)");
  }
  if (settings.clipping == models::ClippingMode::kAutomatic) {
    // g_i C / (||g_i|| + gamma): a finite C (the sensitivity, 1 in experiments) and gamma > 0.
    require_finite("clip", settings.clip);
    require_positive("clip_stability", settings.clip_stability);
  }
  return settings;
}

}  // namespace

NoisyGradientOracle::NoisyGradientOracle(const data::Dataset& train, models::Model& model,
                                         const DpSettings& settings, std::uint64_t seed,
                                         bool secure)
    : train_(train),
      model_(model),
      settings_(validated(settings, train)),
      sampling_rate_(settings_.sampling_rate > 0
                         ? settings_.sampling_rate
                         : std::min(1.0, settings_.lot_size / static_cast<double>(train.size()))),
      sampler_(train.size(), sampling_rate_),
      rng_(secure ? os_random_u64() : derive_seed(seed, 0)),
      noise_(secure ? GaussianNoise::secure() : GaussianNoise(derive_seed(seed, 1))) {
  const Index n = train.size();
  if (sampling_rate_ >= 1.0) {
    // Every example in every lot: the training matrix itself is the lot (no gather); pixel data
    // are converted to floats once, here.
    lot_indices_.reserve(static_cast<std::size_t>(n));
    norms_.resize(n);
    weights_.resize(n);
    if (train.stores_pixels()) {
      (void)data::feature_rows(train, 0, n, lot_features_);
      lot_targets_ = train.targets;
    }
  } else {
    const Index capacity = sampler_.suggested_capacity();
    lot_indices_.reserve(static_cast<std::size_t>(capacity));
    lot_features_.resize(capacity, train.dim());
    lot_targets_.resize(capacity);
    norms_.resize(capacity);
    weights_.resize(capacity);
  }
  count_noise_.resize(1);
  if (secure && settings_.is_private()) {
    grid_noise_.emplace(settings_.noise_multiplier, settings_.clip, model.num_params(),
                        ChaCha20::from_os_entropy());
  }
}

double NoisyGradientOracle::noise_std_of_mean() const {
  if (!settings_.is_private()) return 0;
  return settings_.noise_multiplier * settings_.clip / settings_.lot_size;
}

void NoisyGradientOracle::check_output(VectorSpan out, const char* what) const {
  if (out.size() != model_.num_params()) {
    throw InvalidArgument(std::string(what) + " has " + std::to_string(out.size()) +
                          " entries but the model has " + std::to_string(model_.num_params()) +
                          " parameters");
  }
}

Index NoisyGradientOracle::sample_lot() {
  ++queries_;
  sampler_.sample(rng_, lot_indices_);
  const Index lot = static_cast<Index>(lot_indices_.size());
  last_lot_size_ = lot;
  if (lot == 0 || sampling_rate_ >= 1.0) return lot;
  if (lot > lot_features_.rows()) {
    // A lot more than 10 standard deviations above its mean: grow (the only allocation).
    const Index rows = std::max(lot, lot_features_.rows() + lot_features_.rows() / 2);
    lot_features_.resize(rows, train_.dim());
    lot_targets_.resize(rows);
    norms_.resize(rows);
    weights_.resize(rows);
  }
  data::gather_lot(train_, lot_indices_, lot_features_, lot_targets_);
  return lot;
}

MatrixView NoisyGradientOracle::lot_features(Index lot) const {
  return sampling_rate_ >= 1.0 && !train_.stores_pixels() ? MatrixView(train_.features)
                                                          : MatrixView(lot_features_.topRows(lot));
}

VectorView NoisyGradientOracle::lot_targets(Index lot) const {
  return sampling_rate_ >= 1.0 && !train_.stores_pixels() ? VectorView(train_.targets)
                                                          : VectorView(lot_targets_.head(lot));
}

double NoisyGradientOracle::clipped_sum_on_lot(Index lot, const models::Clipping& clip,
                                               VectorSpan gradient) {
  if (lot == 0) {
    gradient.setZero();
    return 0.0;
  }
  return model_.clipped_gradient_sum(lot_features(lot), lot_targets(lot), clip, gradient,
                                     norms_.head(lot));
}

namespace {
[[noreturn]] void refuse_clipped_sum_hook() {
  throw InvalidArgument(
      "audit canaries need the float-noise mean over L: not available in secure mode or with the "
      "divide-by-realised-lot variant");
}
}  // namespace

void NoisyGradientOracle::set_clipped_sum_hook(ClippedSumHook* hook) {
  if (hook && (grid_noise_ || divide_by_realized_lot_)) refuse_clipped_sum_hook();
  hook_ = hook;
}

double NoisyGradientOracle::query(VectorSpan gradient) {
  check_output(gradient, "gradient");
  if (hook_ && divide_by_realized_lot_) refuse_clipped_sum_hook();
  const Index lot = sample_lot();
  if (grid_noise_) {
    // Secure: the sum on the integer grid plus exact discrete Gaussian noise, then / L.
    const double loss_sum =
        clipped_sum_on_lot(lot, settings_.clip_rule(grid_noise_->rounding_clip()), gradient);
    grid_noise_->privatize(gradient, 1.0 / settings_.lot_size);
    return lot == 0 ? 0.0 : loss_sum / static_cast<double>(lot);
  }
  const double loss_sum = clipped_sum_on_lot(lot, settings_.clip_rule(), gradient);
  if (divide_by_realized_lot_) {
    // Variant: g~ = (S + N(0, sigma^2 C^2 I)) / max(|lot|, 1) (paper Alg. 2 line 8 as written).
    const double divisor = static_cast<double>(std::max<Index>(lot, 1));
    gradient *= static_cast<float>(1.0 / divisor);
    if (settings_.is_private()) {
      noise_.add(settings_.noise_multiplier * settings_.clip / divisor, gradient);
    }
    return lot == 0 ? 0.0 : loss_sum / static_cast<double>(lot);
  }
  if (hook_) hook_->add_to_clipped_sum(sampling_rate_, settings_.clip, gradient);
  // Divide by the expected lot size L (not |lot|), then add the noise of the mean.
  gradient *= static_cast<float>(1.0 / settings_.lot_size);
  noise_.add(noise_std_of_mean(), gradient);
  if (keep_last_release_) last_release_ = gradient;
  if (hook_) hook_->observe_release(gradient);
  return lot == 0 ? 0.0 : loss_sum / static_cast<double>(lot);
}

// The one shape of an adaptive-clipping query (OSO-DPSGD, FixedQuantile): ONE Poisson lot;
//   gradient = (sum_i g_i min(1, C/||g_i||) + N(0, (nu_g C)^2 I)) / L,
// then second_release(lot) releases a second noisy statistic of the SAME lot from the per-example
// norms (norms_) with its own noise. The accountant charges the pair as one Gaussian mechanism
// (privacy/accounting/joint_gaussian.h). Returns the mean lot loss.
template <typename SecondRelease>
double NoisyGradientOracle::joint_query(double clip, double gradient_noise_multiplier,
                                        VectorSpan gradient, SecondRelease&& second_release) {
  check_output(gradient, "gradient");
  check_adaptive_clip(clip, gradient_noise_multiplier);
  const Index lot = sample_lot();
  const double loss_sum = clipped_sum_on_lot(lot, clip, gradient);
  if (hook_) hook_->add_to_clipped_sum(sampling_rate_, clip, gradient);
  const double inverse_lot = 1.0 / settings_.lot_size;
  gradient *= static_cast<float>(inverse_lot);
  noise_.add(gradient_noise_multiplier * clip * inverse_lot, gradient);
  if (hook_) hook_->observe_release(gradient);
  second_release(lot, inverse_lot);
  return lot == 0 ? 0.0 : loss_sum / static_cast<double>(lot);
}

double NoisyGradientOracle::query_with_directions(double clip, double gradient_noise_multiplier,
                                                  double direction_noise_multiplier,
                                                  VectorSpan gradient,
                                                  VectorSpan clipped_directions) {
  check_output(clipped_directions, "clipped_directions");
  require_non_negative("direction_noise_multiplier", direction_noise_multiplier);
  return joint_query(clip, gradient_noise_multiplier, gradient, [&](Index lot, double inverse_lot) {
    if (lot == 0) {
      clipped_directions.setZero();
    } else {
      // q_i = g_i / ||g_i|| if ||g_i|| > C else 0 (Galli et al. eq. 11): unit norm or zero.
      for (Index i = 0; i < lot; ++i) {
        const double norm = norms_[i];
        weights_[i] = std::isfinite(norm) && norm > clip ? static_cast<float>(1.0 / norm) : 0.f;
      }
      model_.weighted_gradient_sum(lot_features(lot), lot_targets(lot), weights_.head(lot),
                                   clipped_directions);
    }
    clipped_directions *= static_cast<float>(inverse_lot);
    noise_.add(direction_noise_multiplier * inverse_lot, clipped_directions);
  });
}

double unclipped_fraction_estimate(double noisy_centred_count, double lot_size) {
  require_positive("lot_size", lot_size);
  return noisy_centred_count / lot_size + 0.5;
}

double NoisyGradientOracle::query_with_unclipped_count(double clip,
                                                       double gradient_noise_multiplier,
                                                       double count_noise_std, VectorSpan gradient,
                                                       double& noisy_centred_count) {
  require_non_negative("count_noise_std", count_noise_std);
  return joint_query(clip, gradient_noise_multiplier, gradient, [&](Index lot, double) {
    // sum_i (b_i - 1/2), b_i = [||g_i|| <= C] (Andrew et al. 2021, Alg. 1 and Thm 1): each
    // example contributes +-1/2, so adding or removing one moves it by exactly 1/2.
    double centred = 0;
    for (Index i = 0; i < lot; ++i) centred += norms_[i] <= clip ? 0.5 : -0.5;
    count_noise_[0] = 0.f;
    noise_.add(count_noise_std, count_noise_);
    noisy_centred_count = centred + static_cast<double>(count_noise_[0]);
  });
}

void NoisyGradientOracle::check_adaptive_clip(double clip, double gradient_noise_multiplier) const {
  if (settings_.clipping == models::ClippingMode::kAutomatic) {
    throw InvalidArgument(
        "clipping = automatic has no clip C_t to adapt: the adaptive-clipping queries "
        "(OSO-DPSGD, FixedQuantile) need flat clipping");
  }
  require_non_negative("noise_multiplier", gradient_noise_multiplier);
  // clip may be +infinity (kNoClipping) only without noise, as in the constructor.
  if (!(clip > 0)) fail_field("clip", clip, "must be > 0");
  if (gradient_noise_multiplier > 0) require_finite("clip", clip);
}

}  // namespace dplab::privacy
