// Choosing Algorithm 1's privacy parameters (sigma, lambda) for a target (epsilon, delta), as the
// objective-perturbation paper does (section 5, "privacy parameters"): take the analytic Gaussian
// mechanism's noise sigma_G for sensitivity L at (epsilon, delta) (Balle & Wang 2018), set
// sigma = f sigma_G (f = 1.3 in the paper), then take the SMALLEST lambda > beta for which
// Algorithm 1 is (epsilon, delta)-DP under Theorem 4.1 (RDP, converted). Smaller lambda means less
// bias; epsilon decreases in lambda, so the search is a bisection from the safe side.
//
// If no lambda works at f sigma_G (the RDP conversion of Theorem 4.1 can need more noise than
// the tight Gaussian bound allows, at small epsilon), f is raised in steps of 2% until one does,
// and the factor actually used is reported: the guarantee is never traded for the rule.
// The returned parameters satisfy algorithm1_rdp_epsilon(...) <= target epsilon (checked).
#pragma once

#include "objective_perturbation/privacy_bounds.h"

namespace dplab::objpert {

inline constexpr double kPaperNoiseFactor = 1.3;  // f

struct CalibrationRequest {
  double epsilon = 1.0;
  double delta = 1e-5;
  double gradient_bound = 1.0;              // L = C
  double smoothness = 0.25;                 // beta
  double tau = 0.0;                         // Algorithm 1 gradient-norm threshold
  double output_noise_std = 0.0;            // sigma_out
  double noise_factor = kPaperNoiseFactor;  // f >= 1
};

struct Calibration {
  ObjPertPrivacy privacy;         // sigma and lambda filled in
  double gaussian_noise_std = 0;  // sigma_G, analytic Gaussian for sensitivity L
  double noise_factor = 0;        // the f used (>= the requested one)
  double epsilon = 0;             // Theorem 4.1 epsilon of the result, <= requested
};

// Throws InvalidArgument naming the field; dplab::Error if no lambda below 1e12 works.
Calibration calibrate_algorithm1(const CalibrationRequest& request);

}  // namespace dplab::objpert
