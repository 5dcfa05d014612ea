// The objective-perturbation paper's Figure 1: epsilon(delta) of objective perturbation (exact
// minimiser) under each bound of privacy_bounds.h, plus the Gaussian lower bound, for one
// (sigma, L, beta, lambda), on log-spaced deltas. As CSV: delta,gaussian_lower_bound,
// profile_thm31,rdp_thm32,kifer_thm28 (every epsilon rounded up by its bound's rule).
#pragma once

#include <string>
#include <vector>

#include "objective_perturbation/privacy_bounds.h"

namespace dplab::objpert {

struct BoundCurvePoint {
  double delta = 0;
  double gaussian_lower_bound = 0, profile = 0, rdp = 0, kifer = 0;
};

// points >= 2 log-spaced deltas in [delta_low, delta_high] (0 < low < high < 1).
std::vector<BoundCurvePoint> bound_curves(const ObjPertPrivacy& p, double delta_low,
                                          double delta_high, int points);

std::string bound_curves_csv(const std::vector<BoundCurvePoint>& curve);

// The same curves as a self-contained SVG line chart (x: log10 delta, y: epsilon), for docs and
// the README (no plotting library needed). `title` is drawn on top (plain text, escaped).
std::string bound_curves_svg(const std::vector<BoundCurvePoint>& curve, const std::string& title);

}  // namespace dplab::objpert
