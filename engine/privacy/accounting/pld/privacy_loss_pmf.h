// A discretised privacy loss distribution (PLD): the law of the privacy loss
// L(o) = ln(P(o)/Q(o)), o ~ P, for a dominating pair (P, Q) of a mechanism on neighbouring
// datasets (Sommer, Meiser & Mohammadi 2019; Koskela, Jalko & Honkela 2020).
//
// The support is the grid k * d, k = lower_index .. lower_index + probs.size() - 1, plus a mass
// at +infinity. The pair is (epsilon, delta)-DP exactly for
//   delta(epsilon) = infinity_mass + sum_k probs[k] * max(0, 1 - e^{epsilon - k d})
// (the hockey-stick divergence H_{e^eps}(P || Q); Sommer et al. 2019, Lemma 5). As a function of
// x = e^epsilon this is piecewise linear and convex, so epsilon(delta) is solved in closed form on
// each piece. Accumulations use long double (a composed PLD has up to ~1e7 cells).
#pragma once

#include <cstdint>
#include <vector>

namespace dplab::privacy::pld {

struct PrivacyLossPmf {
  double discretization = 1e-4;  // d, the grid step of the losses
  std::int64_t lower_index = 0;  // loss of probs[0] is lower_index * d
  std::vector<double> probs;     // masses on the grid (>= 0)
  double infinity_mass = 0.0;    // mass at loss +infinity (tails pushed there, pessimistically)

  double loss_at(std::size_t i) const {
    return static_cast<double>(lower_index + static_cast<std::int64_t>(i)) * discretization;
  }
};

// The hockey-stick divergence of the pair at epsilon (any real epsilon).
double delta_for_epsilon(const PrivacyLossPmf& pmf, double epsilon);

// The smallest epsilon >= 0 with delta_for_epsilon(epsilon) <= delta; +infinity when the
// infinity mass alone exceeds delta. delta in (0, 1).
double epsilon_for_delta(const PrivacyLossPmf& pmf, double delta);

}  // namespace dplab::privacy::pld
