#include "objective_perturbation/clipped_glm_loss.h"

#include <cmath>

#include "core/error.h"

namespace dplab::objpert {

GlmLoss parse_glm_loss(const std::string& text) {
  if (text == "logistic") return GlmLoss::kLogistic;
  if (text == "squared") return GlmLoss::kSquared;
  throw InvalidArgument("loss = \"" + text + "\" must be \"logistic\" or \"squared\"");
}

const char* to_string(GlmLoss loss) {
  return loss == GlmLoss::kLogistic ? "logistic" : "squared";
}

double second_derivative_bound(GlmLoss loss) {
  return loss == GlmLoss::kLogistic ? 0.25 : 1.0;
}

namespace {

// log(1 + e^{-m}), stable for both signs.
double softplus_neg(double m) {
  return m > 0 ? std::log1p(std::exp(-m)) : -m + std::log1p(std::exp(m));
}

}  // namespace

LossValue clipped_loss(GlmLoss loss, double u, double y, double c) {
  if (loss == GlmLoss::kLogistic) {
    const double m = y * u;
    if (c < 1.0) {
      const double m0 = std::log(1.0 / c - 1.0);
      if (m < m0) return {softplus_neg(m0) - c * (m - m0), -c * y};
    }
    // d/du log(1 + e^{-y u}) = -y sigmoid(-m).
    const double sig_neg = m > 0 ? std::exp(-m) / (1.0 + std::exp(-m)) : 1.0 / (1.0 + std::exp(m));
    return {softplus_neg(m), -y * sig_neg};
  }
  const double r = u - y;
  if (std::abs(r) <= c) return {0.5 * r * r, r};
  return {c * std::abs(r) - 0.5 * c * c, r > 0 ? c : -c};
}

}  // namespace dplab::objpert
