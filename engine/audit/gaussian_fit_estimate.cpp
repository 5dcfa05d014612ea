#include "audit/gaussian_fit_estimate.h"

#include <cmath>
#include <limits>
#include <string>

#include "core/error.h"
#include "core/validate.h"
#include "privacy/mechanisms/gaussian_mechanism.h"

namespace dplab::audit {

GaussianFitEstimate gaussian_fit_estimate(const std::vector<double>& scores,
                                          const std::vector<bool>& included, double delta) {
  if (scores.size() != included.size()) {
    throw InvalidArgument("canary scores (" + std::to_string(scores.size()) + ") and inclusions (" +
                          std::to_string(included.size()) + ") differ in size");
  }
  require_open_interval("delta", delta, 0, 1);
  // Two-pass mean and sum of squared deviations per group (no cancellation of large means).
  double sum[2] = {0, 0};
  double count[2] = {0, 0};
  for (std::size_t i = 0; i < scores.size(); ++i) {
    if (!std::isfinite(scores[i]))
      throw InvalidArgument("canary score " + std::to_string(i) + " is not finite");
    const int g = included[i] ? 1 : 0;
    sum[g] += scores[i];
    count[g] += 1;
  }
  if (count[0] < 2 || count[1] < 2) {
    throw InvalidArgument(
        "the Gaussian fit needs at least 2 included and 2 excluded canaries (got " +
        std::to_string(static_cast<long long>(count[1])) + " and " +
        std::to_string(static_cast<long long>(count[0])) + ")");
  }
  const double mean[2] = {sum[0] / count[0], sum[1] / count[1]};
  double squares = 0;
  for (std::size_t i = 0; i < scores.size(); ++i) {
    const double d = scores[i] - mean[included[i] ? 1 : 0];
    squares += d * d;
  }
  GaussianFitEstimate e;
  e.mean_in = mean[1];
  e.mean_out = mean[0];
  e.pooled_std = std::sqrt(squares / (count[0] + count[1] - 2));
  const double gap = e.mean_in - e.mean_out;
  if (!(gap > 0)) return e;  // mu = eps = 0: the fit shows no separation
  if (!(e.pooled_std > 0)) {
    e.mu = e.epsilon = std::numeric_limits<double>::infinity();
    return e;
  }
  e.mu = gap / e.pooled_std;
  // Beyond mu ~ 1e5 (eps ~ mu^2 / 2 ~ 5e9) the groups are separated for any practical purpose.
  if (e.mu > 1e5) {
    e.epsilon = std::numeric_limits<double>::infinity();
    return e;
  }
  // Sensitivity 1, noise 1 / mu: the Gaussian mechanism that is exactly mu-GDP.
  e.epsilon = privacy::analytic_gaussian_epsilon(1.0 / e.mu, delta);
  return e;
}

}  // namespace dplab::audit
