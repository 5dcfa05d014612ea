#include "privacy/accounting/pld/privacy_loss_pmf.h"

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
  // lower is held scaled by e^{top}, top = the largest loss (e^{-loss} underflows for losses of
  // thousands, e.g. 10^6 steps without noise to speak of); e^{top - loss} by recurrence.
  const double top = pmf.loss_at(pmf.probs.size() - 1);
  const long double step = std::exp(static_cast<long double>(pmf.discretization));
  long double scaled_exp = 1.0L;  // e^{top - loss}
  for (std::size_t i = pmf.probs.size(); i-- > 0; scaled_exp *= step) {
    const double loss = pmf.loss_at(i);
    if (loss <= 0.0) break;  // epsilon is clamped at 0 below
    if (upper > delta && lower > 0.0L &&
        static_cast<double>(std::log((upper - delta) / lower)) + top >= loss) {
      break;  // the root lies above this loss: the piece above it holds it
    }
    if (std::isinf(scaled_exp)) break;  // 11,000 loss units below the top: the root is above
    upper += pmf.probs[i];
    lower += pmf.probs[i] * scaled_exp;
  }
  if (upper <= delta) return 0.0;
  if (lower <= 0.0L) return std::numeric_limits<double>::infinity();
  return std::max(0.0, static_cast<double>(std::log((upper - delta) / lower)) + top);
}

}  // namespace dplab::privacy::pld
