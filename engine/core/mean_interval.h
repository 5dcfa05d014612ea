// The mean of repeated measurements and its 95 % normal-approximation interval, the one rule for
// every "mean ± 1.96 sd/√n" dplab prints (leaderboard cells, replicated private searches, the
// objective-perturbation comparison):
//   mean = Σx/n,  sd = sqrt(Σ(x − mean)²/(n − 1)),  half width = z₀.₉₇₅ · sd/√n,
// z₀.₉₇₅ = Φ⁻¹(0.975) = 1.959963984540054. With fewer than two values sd and the half width are
// NaN (no spread is known), and with none the mean is NaN too. The two-pass sum keeps the
// variance exact to rounding for values of equal magnitude (no Σx² − n·mean² cancellation).
#pragma once

#include <vector>

namespace dplab {

inline constexpr double kZ95 = 1.959963984540054;  // Φ⁻¹(0.975)

struct MeanInterval {
  double mean = 0;
  double sd = 0;
  double half_width = 0;  // kZ95 · sd / √n
  double low() const { return mean - half_width; }
  double high() const { return mean + half_width; }
};

MeanInterval normal_mean_interval(const std::vector<double>& values);

}  // namespace dplab
