#include "reproduction/number_text.h"

#include <cmath>
#include <cstdio>

namespace dplab::reproduction {

std::string fixed(double v, int digits) {
  if (!std::isfinite(v)) return "n/a";
  char buffer[48];
  std::snprintf(buffer, sizeof buffer, "%.*f", digits, v);
  return buffer;
}

std::string general(double v) {
  char buffer[48];
  std::snprintf(buffer, sizeof buffer, "%.6g", v);
  return buffer;
}

}  // namespace dplab::reproduction
