#include "privacy/accounting/default_delta.h"

#include <string>

#include "core/validate.h"

namespace dplab::privacy {

double default_delta(std::int64_t n) {
  if (n < 2) fail_field("n", static_cast<double>(n), "must be >= 2");
  // Smallest e with 10^e >= n, in integers (no log10 rounding at exact powers of ten).
  int exponent = 0;
  for (std::int64_t power = 1; power < n; power *= 10) {
    ++exponent;
    if (power > INT64_MAX / 10) break;
  }
  // "1e-<e>" parsed, so the result is the double nearest 10^-e.
  return std::stod("1e-" + std::to_string(exponent));
}

}  // namespace dplab::privacy
