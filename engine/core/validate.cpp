#include "core/validate.h"

#include <cstdio>

namespace dplab {

std::string format_number(double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.10g", value);
  return buffer;
}

void fail_field(std::string_view field, double value, std::string_view rule) {
  std::string message(field);
  message += " = ";
  message += format_number(value);
  message += ' ';
  message += rule;
  throw InvalidArgument(message);
}

}  // namespace dplab
