// (epsilon, delta) from an arbitrary Renyi-DP curve: a list of orders alpha > 1 and a bound
// eps_RDP(alpha) of the whole release at each. Used where the curve is not "T steps of one
// subsampled Gaussian": heterogeneous compositions (runs with different sigma, q, T add their
// curves order by order, Mironov 2017 Prop. 1) and the Papernot-Steinke selection bound.
//
// Conversion (the improved one of rdp_accountant.h; Balle et al. 2020 Thm 21, Canonne, Kamath &
// Steinke 2020 Prop. 12), minimised over the given orders only (no interpolation):
//   eps = eps_RDP(alpha) + log((alpha-1)/alpha) - (log delta + log alpha)/(alpha-1),
//   log delta = (alpha-1)(eps_RDP(alpha) - eps + log(1-1/alpha)) - log alpha  (the inverse).
// Plus Bretagnolle-Huber: delta <= sqrt(1 - exp(-KL)) with KL <= eps_RDP at the smallest order
// (Renyi divergences grow with the order), which gives eps = 0 for tiny losses.
// Each order yields a valid bound, so the minimum over any subset of orders is valid.
// Pure functions, thread-safe.
#pragma once

#include <vector>

#include "privacy/accounting/rdp_accountant.h"

namespace dplab::privacy {

// orders strictly ascending, all > 1; rdp the same length, each >= 0 (+infinity allowed).
// delta in (0, 1). best_order is the minimising order (1 for the KL bound).
EpsilonResult epsilon_from_rdp(const std::vector<double>& orders, const std::vector<double>& rdp,
                               double delta);

// Smallest delta at epsilon >= 0 over the orders (and the KL bound), in [0, 1].
double delta_from_rdp(const std::vector<double>& orders, const std::vector<double>& rdp,
                      double epsilon);

// Throws InvalidArgument naming `what` unless orders/rdp are a usable curve (see above).
void validate_rdp_curve(const std::vector<double>& orders, const std::vector<double>& rdp,
                        const char* what = "rdp");

}  // namespace dplab::privacy
