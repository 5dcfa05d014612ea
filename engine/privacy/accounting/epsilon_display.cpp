#include "privacy/accounting/epsilon_display.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "core/validate.h"

namespace dplab::privacy {
namespace {

// The decimal text of epsilon rounded UP to `digits` decimals. Rounds to nearest in decimal,
// reads it back, and steps one unit up while that is below epsilon (scaling by 10^digits and
// calling ceil would turn 1.23, whose product may be a hair above 123, into 1.24).
std::string up_text(double epsilon, int digits) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", digits, epsilon);
  const double unit = std::pow(10.0, -digits);
  for (int guard = 0; std::strtod(text, nullptr) < epsilon && guard < 4; ++guard) {
    std::snprintf(text, sizeof text, "%.*f", digits, std::strtod(text, nullptr) + unit);
  }
  return text;
}

}  // namespace

double round_epsilon_up(double epsilon, int digits) {
  if (digits < 0 || digits > 12) fail_field("digits", digits, "must be in [0, 12]");
  if (!std::isfinite(epsilon)) return epsilon;
  return std::strtod(up_text(epsilon, digits).c_str(), nullptr);
}

std::string format_epsilon_up(double epsilon, int digits) {
  if (digits < 0 || digits > 12) fail_field("digits", digits, "must be in [0, 12]");
  if (std::isnan(epsilon)) return "nan";
  if (!std::isfinite(epsilon)) return epsilon > 0 ? "inf" : "-inf";
  return up_text(epsilon, digits);
}

}  // namespace dplab::privacy
