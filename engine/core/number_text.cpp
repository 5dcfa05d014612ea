#include "core/number_text.h"

#include <charconv>
#include <cmath>

namespace dplab {

std::string number_text(double value) {
  if (std::isnan(value)) return "";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buffer[32];  // the longest shortest-round-trip double is 24 characters
  const auto end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr;
  return std::string(buffer, end);
}

}  // namespace dplab
