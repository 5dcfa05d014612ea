// Clipped-gradient GLM losses (the objective-perturbation paper, section 4 "Gradient clipping";
// Song et al. 2020). For l(theta; z) = f(u; y), u = x^T theta, the per-example gradient is
// f'(u) x; clipping it to norm C is the same as clamping f'(u) to [-C/||x||, C/||x||], and the
// clipped gradient is the gradient of f_C: f where |f'| <= C/||x||, continued LINEARLY beyond
// (convex, GLM, same smoothness: paper Theorem E.3).
//   logistic: f(u; y) = log(1 + e^{-y u}), y in {-1, +1}; f'' <= 1/4.
//     With m = y u, |f'| = sigmoid(-m) <= c <=> m >= m0 = log(1/c - 1) (no clipping when c >= 1);
//     f_C(m) = log1p(e^{-m0}) - c (m - m0) for m < m0.
//   squared:  f(u; y) = (u - y)^2 / 2; f'' = 1. f_C = Huber: r^2/2 if |r| <= c, c|r| - c^2/2 else.
// beta of Theorems 3.1/3.2/4.1 is the Hessian bound of l: f'' bound times max ||x||^2.
#pragma once

#include <string>

namespace dplab::objpert {

enum class GlmLoss { kLogistic, kSquared };

// "logistic" / "squared"; throws InvalidArgument naming the value otherwise.
GlmLoss parse_glm_loss(const std::string& text);
const char* to_string(GlmLoss loss);

// sup f'' (1/4 logistic, 1 squared).
double second_derivative_bound(GlmLoss loss);

struct LossValue {
  double value = 0;       // f_C(u; y)
  double derivative = 0;  // f_C'(u; y), |.| <= c
};

// c = C / ||x|| (> 0; +infinity = no clipping).
LossValue clipped_loss(GlmLoss loss, double u, double y, double c);

}  // namespace dplab::objpert
