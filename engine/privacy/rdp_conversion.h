// Conversion of an arbitrary Rényi-DP curve alpha -> eps_RDP(alpha) to (epsilon, delta)-DP, for
// mechanisms whose RDP is known in closed form at every real order (e.g. objective perturbation,
// docs/objective_perturbation.md). DP-SGD's accountant (rdp_accountant.h) keeps its own cached
// order grid; this is the same conversion rule for a callable curve.
//
// Rule (Balle, Barthe, Gaboardi, Hsu & Sato 2020, Thm 21; Canonne, Kamath & Steinke 2020,
// Prop. 12): an (alpha, r)-RDP mechanism is (epsilon, delta)-DP with
//     epsilon = r + log((alpha - 1)/alpha) - (log delta + log alpha)/(alpha - 1),
// valid at EVERY alpha > 1, so any order we evaluate gives an upper bound; we minimise over a
// log-spaced grid of orders in (1, max_order] and refine by golden section around the best grid
// point (every evaluated point is a valid bound, so the refinement can only tighten).
#pragma once

#include <functional>

namespace dplab::privacy {

struct RdpConversion {
  double epsilon = 0.0;     // >= 0
  double best_order = 0.0;  // the minimising alpha
};

// rdp(alpha) must be finite or +infinity for alpha in (1, max_order]; delta in (0, 1).
RdpConversion epsilon_from_rdp_curve(const std::function<double(double)>& rdp, double delta,
                                     double max_order = 1e5);

}  // namespace dplab::privacy
