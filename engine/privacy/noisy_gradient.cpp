// NoisyGradientOracle::query — one DP-SGD gradient query (Abadi et al. 2016, Alg. 1; main paper
// Alg. 2 lines 5-8, with the division by the expected lot size L as in DESIGN.md):
//   lot  ~ Poisson(q = L / n)                         (PoissonSampler)
//   S    = sum_{i in lot} g_i min(1, C / ||g_i||)     (Model::clipped_gradient_sum)
//   g~   = S / L + N(0, (sigma C / L)^2 I)            (= (S + N(0, sigma^2 C^2 I)) / L)
// returns the mean per-example loss over the lot (0 for an empty lot).
#include "privacy/noisy_gradient.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/error.h"
#include "core/validate.h"
#include "data/lot_gather.h"

namespace dplab::privacy {
namespace {

// Checks the settings against the training set; throws InvalidArgument naming the field.
const DpSettings& validated(const DpSettings& settings, const data::Dataset& train) {
  if (train.size() == 0) throw InvalidArgument("the training set is empty (n = 0)");
  if (train.targets.size() != train.size()) {
    throw InvalidArgument("the training set has " + std::to_string(train.size()) +
                          " feature rows but " + std::to_string(train.targets.size()) +
                          " targets");
  }
  const double n = static_cast<double>(train.size());
  require_positive("lot_size", settings.lot_size);
  if (settings.lot_size > n) {
    fail_field("lot_size", settings.lot_size,
               "must be <= the training set size n = " + format_number(n));
  }
  // clip may be +infinity (kNoClipping) but must be > 0 and not NaN.
  if (!(settings.clip > 0)) fail_field("clip", settings.clip, "must be > 0");
  require_non_negative("noise_multiplier", settings.noise_multiplier);
  if (settings.noise_multiplier > 0 && !std::isfinite(settings.clip)) {
    fail_field("clip", settings.clip,
               "must be finite when noise_multiplier > 0 (the noise std is noise_multiplier * clip)");
  }
  return settings;
}

}  // namespace

NoisyGradientOracle::NoisyGradientOracle(const data::Dataset& train, models::Model& model,
                                         const DpSettings& settings, std::uint64_t seed)
    : train_(train),
      model_(model),
      settings_(validated(settings, train)),
      sampling_rate_(std::min(1.0, settings_.lot_size / static_cast<double>(train.size()))),
      sampler_(train.size(), sampling_rate_),
      rng_(derive_seed(seed, 0)),
      noise_(derive_seed(seed, 1)) {
  const Index n = train.size();
  if (sampling_rate_ >= 1.0) {
    // Every example in every lot: the training matrix itself is the lot (no gather).
    lot_indices_.reserve(static_cast<std::size_t>(n));
    norms_.resize(n);
  } else {
    const Index capacity = sampler_.suggested_capacity();
    lot_indices_.reserve(static_cast<std::size_t>(capacity));
    lot_features_.resize(capacity, train.dim());
    lot_targets_.resize(capacity);
    norms_.resize(capacity);
  }
}

double NoisyGradientOracle::noise_std_of_mean() const {
  if (!settings_.is_private()) return 0;
  return settings_.noise_multiplier * settings_.clip / settings_.lot_size;
}

double NoisyGradientOracle::query(VectorSpan gradient) {
  if (gradient.size() != model_.num_params()) {
    throw InvalidArgument("gradient has " + std::to_string(gradient.size()) +
                          " entries but the model has " + std::to_string(model_.num_params()) +
                          " parameters");
  }
  ++queries_;
  sampler_.sample(rng_, lot_indices_);
  const Index lot = static_cast<Index>(lot_indices_.size());
  last_lot_size_ = lot;

  double loss_sum = 0;
  if (lot == 0) {
    gradient.setZero();
  } else if (sampling_rate_ >= 1.0) {
    loss_sum = model_.clipped_gradient_sum(train_.features, train_.targets, settings_.clip,
                                           gradient, norms_);
  } else {
    if (lot > lot_features_.rows()) {
      // A lot more than 10 standard deviations above its mean: grow (the only allocation).
      const Index rows = std::max(lot, lot_features_.rows() + lot_features_.rows() / 2);
      lot_features_.resize(rows, train_.dim());
      lot_targets_.resize(rows);
      norms_.resize(rows);
    }
    data::gather_lot(train_, lot_indices_, lot_features_, lot_targets_);
    loss_sum = model_.clipped_gradient_sum(lot_features_.topRows(lot), lot_targets_.head(lot),
                                           settings_.clip, gradient, norms_.head(lot));
  }
  // Divide by the expected lot size L (not |lot|), then add the noise of the mean.
  gradient *= static_cast<float>(1.0 / settings_.lot_size);
  noise_.add(noise_std_of_mean(), gradient);
  return lot == 0 ? 0.0 : loss_sum / static_cast<double>(lot);
}

}  // namespace dplab::privacy
