#include "privacy/pld/privacy_loss_pmf.h"

#include <cmath>
#include <limits>

namespace dplab::privacy::pld {

double delta_for_epsilon(const PrivacyLossPmf& pmf, double epsilon) {
  // delta = inf + sum_{loss > eps} p (1 - e^{eps - loss}); -expm1 keeps the small terms exact.
  long double delta = pmf.infinity_mass;
  for (std::size_t i = pmf.probs.size(); i-- > 0;) {
    const double loss = pmf.loss_at(i);
    if (loss <= epsilon) break;
    delta += static_cast<long double>(pmf.probs[i]) * -std::expm1(epsilon - loss);
  }
  return static_cast<double>(std::min<long double>(delta, 1.0L));
}

double epsilon_for_delta(const PrivacyLossPmf& pmf, double delta) {
  if (pmf.infinity_mass > delta) return std::numeric_limits<double>::infinity();
  if (pmf.probs.empty()) return 0.0;
  // Walk the losses downwards. With upper = inf + sum_{loss_j > eps} p_j and
  // lower = sum_{loss_j > eps} p_j e^{-loss_j}, delta(eps) = upper - e^eps lower on the piece
  // between two consecutive losses; its root there is eps = ln((upper - delta)/lower).
  long double upper = pmf.infinity_mass, lower = 0.0L;
  // e^{-loss} by recurrence (one exp, then one multiplication per cell).
  const long double step = std::exp(static_cast<long double>(pmf.discretization));
  long double exp_minus_loss =
      std::exp(-static_cast<long double>(pmf.loss_at(pmf.probs.size() - 1)));
  for (std::size_t i = pmf.probs.size(); i-- > 0; exp_minus_loss *= step) {
    const double loss = pmf.loss_at(i);
    if (loss <= 0.0) break;  // epsilon is clamped at 0 below
    if (upper > delta && lower > 0.0L &&
        std::log(static_cast<double>((upper - delta) / lower)) >= loss) {
      break;  // the root lies above this loss: the piece above it holds it
    }
    upper += pmf.probs[i];
    lower += pmf.probs[i] * exp_minus_loss;
  }
  if (upper <= delta) return 0.0;
  if (lower <= 0.0L) return std::numeric_limits<double>::infinity();
  return std::max(0.0, static_cast<double>(std::log((upper - delta) / lower)));
}

}  // namespace dplab::privacy::pld
