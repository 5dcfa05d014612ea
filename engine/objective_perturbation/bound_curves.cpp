#include "objective_perturbation/bound_curves.h"

#include <algorithm>
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

namespace {

std::string escape_xml(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '&')
      out += "&amp;";
    else
      out += c;
  }
  return out;
}

}  // namespace

std::string bound_curves_svg(const std::vector<BoundCurvePoint>& curve, const std::string& title) {
  if (curve.size() < 2) throw InvalidArgument("bound_curves_svg needs at least 2 points");
  const double width = 640, height = 420, left = 60, right = 20, top = 40, bottom = 50;
  const double x_lo = std::log10(curve.front().delta), x_hi = std::log10(curve.back().delta);
  double y_hi = 0;
  for (const auto& p : curve) y_hi = std::max({y_hi, p.kifer, p.rdp, p.profile});
  y_hi = std::ceil(y_hi);
  auto px = [&](double delta) {
    return left + (std::log10(delta) - x_lo) / (x_hi - x_lo) * (width - left - right);
  };
  auto py = [&](double eps) { return top + (1.0 - eps / y_hi) * (height - top - bottom); };
  std::string out;
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%g\" height=\"%g\" "
                "font-family=\"sans-serif\" font-size=\"12\">\n"
                "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
                width, height);
  out += buf;
  out += "<text x=\"" + std::to_string(static_cast<int>(left)) + "\" y=\"22\" font-size=\"14\">" +
         escape_xml(title) + "</text>\n";
  // Axes, ticks at every power of ten of delta and every integer epsilon (at most 10 ticks).
  std::snprintf(buf, sizeof buf, "<path d=\"M%g %g V%g H%g\" stroke=\"black\" fill=\"none\"/>\n",
                left, top, height - bottom, width - right);
  out += buf;
  for (int e = static_cast<int>(std::ceil(x_lo)); e <= static_cast<int>(std::floor(x_hi)); ++e) {
    std::snprintf(buf, sizeof buf, "<text x=\"%g\" y=\"%g\" text-anchor=\"middle\">1e%d</text>\n",
                  px(std::pow(10.0, e)), height - bottom + 18, e);
    out += buf;
  }
  const int y_step = std::max(1, static_cast<int>(std::ceil(y_hi / 10)));
  for (int k = 0; k <= static_cast<int>(y_hi); k += y_step) {
    std::snprintf(buf, sizeof buf,
                  "<text x=\"%g\" y=\"%g\" text-anchor=\"end\">%d</text>"
                  "<path d=\"M%g %g H%g\" stroke=\"#ddd\"/>\n",
                  left - 6, py(k) + 4, k, left, py(k), width - right);
    out += buf;
  }
  std::snprintf(buf, sizeof buf,
                "<text x=\"%g\" y=\"%g\" text-anchor=\"middle\">delta</text>"
                "<text x=\"16\" y=\"%g\" transform=\"rotate(-90 16 %g)\" "
                "text-anchor=\"middle\">epsilon</text>\n",
                (left + width - right) / 2, height - 12, (top + height - bottom) / 2,
                (top + height - bottom) / 2);
  out += buf;
  struct Series {
    const char* name;
    const char* color;
    double BoundCurvePoint::*value;
  };
  const Series series[] = {
      {"Kifer et al. 2012 (Thm 2.8)", "#d62728", &BoundCurvePoint::kifer},
      {"RDP (Thm 3.2)", "#1f77b4", &BoundCurvePoint::rdp},
      {"privacy profile (Thm 3.1)", "#2ca02c", &BoundCurvePoint::profile},
      {"Gaussian lower bound (Cor 3.5)", "#7f7f7f", &BoundCurvePoint::gaussian_lower_bound}};
  int row = 0;
  for (const Series& s : series) {
    out += "<polyline fill=\"none\" stroke-width=\"2\" stroke=\"" + std::string(s.color) +
           "\" points=\"";
    for (const auto& p : curve) {
      std::snprintf(buf, sizeof buf, "%.1f,%.1f ", px(p.delta), py(p.*s.value));
      out += buf;
    }
    out += "\"/>\n";
    std::snprintf(buf, sizeof buf,
                  "<path d=\"M%g %g h24\" stroke=\"%s\" stroke-width=\"2\"/>"
                  "<text x=\"%g\" y=\"%g\">%s</text>\n",
                  width - right - 250, top + 12 + 18 * row, s.color, width - right - 220,
                  top + 16 + 18 * row, s.name);
    out += buf;
    ++row;
  }
  out += "</svg>\n";
  return out;
}

}  // namespace dplab::objpert
