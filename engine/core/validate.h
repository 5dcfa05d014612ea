// Validators written once and reused by every builder: each throws InvalidArgument naming the
// field, its value and the rule, e.g. "noise_multiplier = -1 must be > 0".
#pragma once

#include <cmath>
#include <sstream>
#include <string>
#include <string_view>

#include "core/error.h"

namespace dplab {

// Formats a number with enough digits to be recognised in an error message.
std::string format_number(double value);

[[noreturn]] void fail_field(std::string_view field, double value, std::string_view rule);

inline void require_finite(std::string_view field, double value) {
  if (!std::isfinite(value)) fail_field(field, value, "must be a finite number");
}
inline void require_positive(std::string_view field, double value) {
  require_finite(field, value);
  if (!(value > 0)) fail_field(field, value, "must be > 0");
}
inline void require_non_negative(std::string_view field, double value) {
  require_finite(field, value);
  if (!(value >= 0)) fail_field(field, value, "must be >= 0");
}
// value in the open interval (lo, hi)
inline void require_open_interval(std::string_view field, double value, double lo, double hi) {
  require_finite(field, value);
  if (!(value > lo && value < hi)) {
    fail_field(field, value,
               "must be strictly between " + format_number(lo) + " and " + format_number(hi));
  }
}
// value in the half-open interval (lo, hi]
inline void require_left_open_interval(std::string_view field, double value, double lo, double hi) {
  require_finite(field, value);
  if (!(value > lo && value <= hi)) {
    fail_field(field, value, "must be in (" + format_number(lo) + ", " + format_number(hi) + "]");
  }
}
inline void require_at_least(std::string_view field, double value, double lo) {
  require_finite(field, value);
  if (!(value >= lo)) fail_field(field, value, "must be >= " + format_number(lo));
}

}  // namespace dplab
