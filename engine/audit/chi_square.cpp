#include "audit/chi_square.h"

#include <cmath>
#include <limits>

#include "core/error.h"
#include "core/validate.h"

namespace dplab::audit {

double regularized_upper_gamma(double a, double x) {
  require_positive("a", a);
  require_non_negative("x", x);
  if (x == 0) return 1.0;
  const double log_prefactor = a * std::log(x) - x - std::lgamma(a);
  if (x < a + 1) {
    // P(a, x) = x^a e^-x / Gamma(a+1) * sum_n x^n / ((a+1)...(a+n))
    double term = 1.0 / a, sum = term;
    for (int n = 1; n < 10000; ++n) {
      term *= x / (a + n);
      sum += term;
      if (term < sum * 1e-16) break;
    }
    return 1.0 - std::exp(log_prefactor) * sum;
  }
  // Q(a, x) = x^a e^-x / Gamma(a) * 1/(x+1-a- 1(1-a)/(x+3-a- 2(2-a)/(x+5-a- ...))) (Lentz).
  const double tiny = 1e-300;
  double b = x + 1.0 - a, c = 1.0 / tiny, d = 1.0 / b, h = d;
  for (int n = 1; n < 10000; ++n) {
    const double an = -n * (n - a);
    b += 2.0;
    d = an * d + b;
    if (std::abs(d) < tiny) d = tiny;
    c = b + an / c;
    if (std::abs(c) < tiny) c = tiny;
    d = 1.0 / d;
    const double delta = d * c;
    h *= delta;
    if (std::abs(delta - 1.0) < 1e-16) break;
  }
  return std::exp(log_prefactor) * h;
}

double chi_square_survival(double statistic, double degrees_of_freedom) {
  require_positive("degrees_of_freedom", degrees_of_freedom);
  return regularized_upper_gamma(degrees_of_freedom / 2.0, std::max(statistic, 0.0) / 2.0);
}

ChiSquareResult chi_square_test(std::span<const double> observed,
                                std::span<const double> expected_probability) {
  if (observed.size() != expected_probability.size() || observed.size() < 2) {
    throw InvalidArgument("chi-square test: need >= 2 cells and as many probabilities as counts");
  }
  double total = 0;
  for (const double o : observed) total += o;
  if (!(total > 0)) throw InvalidArgument("chi-square test: no observations");
  ChiSquareResult result;
  for (std::size_t i = 0; i < observed.size(); ++i) {
    require_positive("expected probability", expected_probability[i]);
    const double expected = total * expected_probability[i];
    result.statistic += (observed[i] - expected) * (observed[i] - expected) / expected;
  }
  result.degrees_of_freedom = static_cast<int>(observed.size()) - 1;
  result.distance = result.statistic / total;
  result.p_value = chi_square_survival(result.statistic, result.degrees_of_freedom);
  return result;
}

}  // namespace dplab::audit
