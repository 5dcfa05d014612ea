// Validation shared by the optimizers (internal to engine/optim): every check throws
// InvalidArgument naming the field, e.g. "beta2 = 1 must be in [0, 1)".
#pragma once

#include <string>

#include "core/error.h"
#include "core/types.h"
#include "core/validate.h"
#include "dp_gradient/noisy_gradient.h"
#include "models/model.h"

namespace dplab::optim::detail {

inline void require_num_params(Index num_params) {
  require_positive("num_params", static_cast<double>(num_params));
}

// value in [0, 1): momentum and decay rates (1 would never forget, and 1 - beta^t = 0).
inline void require_unit_interval(std::string_view field, double value) {
  require_finite(field, value);
  if (!(value >= 0 && value < 1)) fail_field(field, value, "must be in [0, 1)");
}

// The model stepped must be the one the optimizer was sized for.
inline void require_model_size(const models::Model& model, Index num_params) {
  if (model.num_params() != num_params) {
    throw InvalidArgument(
        "the model has " + std::to_string(model.num_params()) +
        " parameters but the optimizer was built for num_params = " + std::to_string(num_params));
  }
}

// C_0 of the adaptive-clipping optimizers: > 0; +infinity (kNoClipping) only without noise
// (the non-private baseline then never clips and C stays infinite).
// Automatic clipping has no C to adapt: refused (the oracle's adaptive queries refuse it too).
inline void require_initial_clip(const privacy::DpSettings& dp) {
  if (dp.clipping == models::ClippingMode::kAutomatic) {
    throw InvalidArgument(
        "clipping = automatic: the adaptive-clipping optimizers (OSO-DPSGD, FixedQuantile) adapt "
        "a flat C_t and cannot use automatic clipping");
  }
  if (!(dp.clip > 0)) fail_field("clip", dp.clip, "must be > 0");
  if (dp.noise_multiplier > 0) require_finite("clip", dp.clip);
}

}  // namespace dplab::optim::detail
