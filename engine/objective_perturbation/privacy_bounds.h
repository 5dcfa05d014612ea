// Privacy of objective perturbation for GLMs and of Algorithm 1 (computational objective
// perturbation) of Redberg, Koskela & Wang, "Improving the Privacy and Practicality of Objective
// Perturbation for Differentially Private Linear Learners";
// docs/objective_perturbation.md.
//
// Setting: per-example loss l(theta; z) = f(x^T theta; y), ||grad l|| <= L (L = the clip C of
// Algorithm 1), Hessian of l <= beta I (beta = f'' bound times max ||x||^2), objective
// sum_z l + lambda/2 ||theta||^2 + b^T theta with b ~ N(0, sigma^2 I), lambda > beta.
// With c = -log(1 - beta/lambda) (the Jacobian ratio) and mu = L^2/(2 sigma^2), the privacy loss
// random variable is bounded by c + mu + |X|, X ~ N(0, L^2/sigma^2) (the GLM argument of the
// paper's appendix). Everything below follows from that one bound:
//
// - Theorem 3.2 (RDP, alpha > 1):
//     eps(alpha) = c + mu + 1/(alpha-1) log E[e^{(alpha-1)|X|}]
//                = c + alpha L^2/(2 sigma^2) + log(2 Phi((alpha-1) L/sigma))/(alpha-1)
//   (E e^{t|X|} = 2 e^{t^2 s^2/2} Phi(t s) for X ~ N(0, s^2)); alpha = 1: c + mu + (L/sigma)
//   sqrt(2/pi).
// - Theorem 4.1 (RDP of Algorithm 1): Theorem 3.2 plus the Gaussian mechanism releasing
//   theta_hat - theta_P: ||theta_hat - theta_P|| <= tau/lambda by lambda-strong convexity, so the
//   difference between neighbours has L2 sensitivity <= 2 tau/lambda and costs
//   alpha (2 tau/lambda)^2 / (2 sigma_out^2) = 2 alpha tau^2/(lambda^2 sigma_out^2).
//   (We charge the two-sided sensitivity 2 tau/lambda: it holds for any pair of neighbours.)
// - Theorem 3.1 (privacy profile, eps >= 0), with eps~ = eps - c and eps^ = eps~ - mu and
//   H(t) = H_{e^t}(N(L, sigma^2) || N(0, sigma^2)) (Balle & Wang 2018, Thm 8):
//     delta(eps) = 2 H(eps~)                                  if eps^ >= 0,
//                = (1 - e^{eps^}) + e^{eps^} 2 H(mu)          otherwise.
//   (delta(eps) = E[(1 - e^{eps - c - mu - |X|})_+], split at |X| = eps^.)
// - Kifer, Smith & Thakurta 2012 (the paper's Theorem 2.8): (eps, delta)-DP when
//   lambda >= 2 beta/eps and sigma^2 >= L^2 (8 log(2/delta) + 4 eps)/eps^2.
// - Lower bound (Example 3.4 / Corollary 3.5): objective perturbation contains the Gaussian
//   mechanism with sensitivity L and noise sigma, so no valid bound is below
//   alpha L^2/(2 sigma^2) (RDP) or H(eps) (profile).
// Every epsilon returned is rounded UP (bisection from the safe side). Pure functions.
#pragma once

namespace dplab::objpert {

struct ObjPertPrivacy {
  double noise_std = 1.0;         // sigma, std of each coordinate of b
  double regularization = 1.0;    // lambda (> smoothness)
  double smoothness = 0.25;       // beta, Hessian bound of the per-example loss
  double gradient_bound = 1.0;    // L (= clip C)
  double tau = 0.0;               // Algorithm 1: gradient-norm threshold (0 = exact minimiser)
  double output_noise_std = 0.0;  // Algorithm 1: sigma_out (0 only with tau = 0)
};

// Throws InvalidArgument naming the field (sigma, L > 0; lambda > beta >= 0; tau, sigma_out >= 0;
// sigma_out > 0 when tau > 0).
void validate(const ObjPertPrivacy& p);

// c = -log(1 - beta/lambda).
double jacobian_cost(const ObjPertPrivacy& p);

// Theorem 3.2, alpha >= 1 (objective perturbation with an exact minimiser).
double objpert_rdp(const ObjPertPrivacy& p, double alpha);
// Theorem 4.1, alpha > 1 (Algorithm 1: Theorem 3.2 + output perturbation).
double algorithm1_rdp(const ObjPertPrivacy& p, double alpha);
// Example 3.4: alpha L^2 / (2 sigma^2).
double gaussian_lower_bound_rdp(const ObjPertPrivacy& p, double alpha);

// Theorem 3.1: delta(eps) for eps >= 0, in [0, 1].
double objpert_profile_delta(const ObjPertPrivacy& p, double epsilon);
// Corollary 3.5: H_{e^eps}(N(L, sigma^2) || N(0, sigma^2)).
double gaussian_lower_bound_delta(const ObjPertPrivacy& p, double epsilon);

// (eps, delta) views, each the smallest eps (rounded up) the named bound certifies; delta in (0,1).
double objpert_profile_epsilon(const ObjPertPrivacy& p, double delta);  // Thm 3.1
double objpert_rdp_epsilon(const ObjPertPrivacy& p, double delta);      // Thm 3.2 -> (eps, delta)
double algorithm1_rdp_epsilon(const ObjPertPrivacy& p, double delta);   // Thm 4.1 -> (eps, delta)
double kifer_epsilon(const ObjPertPrivacy& p, double delta);            // Thm 2.8
double gaussian_lower_bound_epsilon(const ObjPertPrivacy& p, double delta);

}  // namespace dplab::objpert
