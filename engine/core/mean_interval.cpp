#include "core/mean_interval.h"

#include <cmath>
#include <limits>

namespace dplab {

MeanInterval normal_mean_interval(const std::vector<double>& values) {
  constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
  MeanInterval out;
  out.mean = out.sd = out.half_width = kNan;
  if (values.empty()) return out;
  const double n = static_cast<double>(values.size());
  double sum = 0;
  for (double x : values) sum += x;
  out.mean = sum / n;
  if (values.size() < 2) return out;
  double squares = 0;
  for (double x : values) squares += (x - out.mean) * (x - out.mean);
  out.sd = std::sqrt(squares / (n - 1));
  out.half_width = kZ95 * out.sd / std::sqrt(n);
  return out;
}

}  // namespace dplab
