// See memory_check.h.
#include "core/memory_check.h"

#include <unistd.h>

#include <cmath>
#include <cstdio>

#include "core/error.h"

namespace dplab {

double physical_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page_size <= 0) return 0;
  return static_cast<double>(pages) * static_cast<double>(page_size);
}

namespace {
double g_limit_override = 0;
}  // namespace

void set_memory_limit_bytes(double bytes) {
  g_limit_override = bytes;
}

std::string format_bytes(double bytes) {
  static const char* const kUnits[] = {"bytes", "KB", "MB", "GB", "TB", "PB", "EB"};
  if (!std::isfinite(bytes)) return "an unbounded amount";
  int unit = 0;
  double value = bytes;
  while (value >= 1000 && unit < 6) {
    value /= 1000;
    ++unit;
  }
  char buffer[48];
  if (value >= 1000)
    std::snprintf(buffer, sizeof buffer, "%.3g bytes", bytes);
  else if (unit == 0)
    std::snprintf(buffer, sizeof buffer, "%.0f bytes", value);
  else
    std::snprintf(buffer, sizeof buffer, "%.1f %s", value, kUnits[unit]);
  return buffer;
}

void require_memory(const std::string& what, double bytes) {
  const double available = g_limit_override > 0 ? g_limit_override : physical_memory_bytes();
  if (std::isfinite(bytes) && (available <= 0 || bytes <= available)) return;
  throw InvalidArgument(
      what + " would need " + format_bytes(bytes) + " of memory; this machine has " +
      (available > 0 ? format_bytes(available) : std::string("an unknown amount")));
}

}  // namespace dplab
