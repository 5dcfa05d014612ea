#include "objective_perturbation/bound_curves.h"

#include <cmath>
#include <cstdio>

#include "core/error.h"
#include "core/validate.h"

namespace dplab::objpert {

std::vector<BoundCurvePoint> bound_curves(const ObjPertPrivacy& p, double delta_low,
                                          double delta_high, int points) {
  validate(p);
  require_open_interval("delta_low", delta_low, 0.0, 1.0);
  require_open_interval("delta_high", delta_high, delta_low, 1.0);
  if (points < 2) throw InvalidArgument("points must be >= 2");
  std::vector<BoundCurvePoint> out;
  for (int i = 0; i < points; ++i) {
    BoundCurvePoint pt;
    pt.delta = std::exp(std::log(delta_low) +
                        (std::log(delta_high) - std::log(delta_low)) * i / (points - 1));
    pt.gaussian_lower_bound = gaussian_lower_bound_epsilon(p, pt.delta);
    pt.profile = objpert_profile_epsilon(p, pt.delta);
    pt.rdp = objpert_rdp_epsilon(p, pt.delta);
    pt.kifer = kifer_epsilon(p, pt.delta);
    out.push_back(pt);
  }
  return out;
}

std::string bound_curves_csv(const std::vector<BoundCurvePoint>& curve) {
  std::string out = "delta,gaussian_lower_bound,profile_thm31,rdp_thm32,kifer_thm28\n";
  char line[256];
  for (const BoundCurvePoint& p : curve) {
    std::snprintf(line, sizeof line, "%.6g,%.10g,%.10g,%.10g,%.10g\n", p.delta,
                  p.gaussian_lower_bound, p.profile, p.rdp, p.kifer);
    out += line;
  }
  return out;
}

}  // namespace dplab::objpert
