// See memory_check.h.
#include "core/memory_check.h"

#include <unistd.h>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "core/error.h"

namespace dplab {

double physical_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page_size <= 0) return 0;
  return static_cast<double>(pages) * static_cast<double>(page_size);
}

double available_memory_bytes() {
  std::FILE* file = std::fopen("/proc/meminfo", "r");
  if (file == nullptr) return 0;
  char line[256];
  double bytes = 0;
  while (std::fgets(line, sizeof line, file) != nullptr) {
    unsigned long long kib = 0;
    if (std::sscanf(line, "MemAvailable: %llu kB", &kib) == 1) {
      bytes = static_cast<double>(kib) * 1024.0;
      break;
    }
  }
  std::fclose(file);
  return bytes;
}

namespace {
double g_limit_override = 0;

// The default budget and the memory it is a share of (0 if unknown).
struct DefaultBudget {
  double budget = 0;
  double base = 0;
  bool physical = false;  // MemAvailable unknown: the base is the physical memory
};
DefaultBudget read_default_budget() {
  DefaultBudget out;
  out.base = available_memory_bytes();
  if (out.base <= 0) {
    out.base = physical_memory_bytes();
    out.physical = true;
  }
  out.budget = kDefaultAvailableShare * out.base;
  return out;
}

// Read once, during static initialisation (before main, before dplab allocates anything); the
// function-local static makes an earlier use from another file's initialiser safe too.
const DefaultBudget& default_budget() {
  static const DefaultBudget budget = read_default_budget();
  return budget;
}
[[maybe_unused]] const DefaultBudget& g_read_at_start = default_budget();
}  // namespace

double default_memory_budget_bytes() {
  return default_budget().budget;
}

void set_memory_limit_bytes(double bytes) {
  g_limit_override = bytes;
}

double memory_budget_bytes() {
  return g_limit_override > 0 ? g_limit_override : default_budget().budget;
}

std::string memory_budget_description() {
  if (g_limit_override > 0)
    return "the memory budget is " + format_bytes(g_limit_override) + " (--max-memory)";
  const DefaultBudget& d = default_budget();
  if (d.base <= 0) return "this machine's memory is unknown";
  return "the memory budget is " + format_bytes(d.budget) + " (half of the " +
         format_bytes(d.base) + (d.physical ? " of physical memory" : " available at start") +
         "; change it with --max-memory)";
}

std::optional<double> parse_memory_size(const std::string& text) {
  std::size_t used = 0;
  double value = 0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    return std::nullopt;
  }
  std::string unit;
  for (std::size_t k = used; k < text.size(); ++k) {
    if (text[k] != ' ')
      unit += static_cast<char>(std::toupper(static_cast<unsigned char>(text[k])));
  }
  static const struct {
    const char* name;
    double factor;
  } kUnits[] = {{"", 1},
                {"B", 1},
                {"K", 1e3},
                {"KB", 1e3},
                {"M", 1e6},
                {"MB", 1e6},
                {"G", 1e9},
                {"GB", 1e9},
                {"T", 1e12},
                {"TB", 1e12},
                {"KIB", 1024.0},
                {"MIB", 1048576.0},
                {"GIB", 1073741824.0},
                {"TIB", 1099511627776.0}};
  for (const auto& u : kUnits) {
    if (unit == u.name) {
      const double bytes = value * u.factor;
      if (!std::isfinite(bytes) || !(bytes >= 1)) return std::nullopt;
      return bytes;
    }
  }
  return std::nullopt;
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
  const double budget = memory_budget_bytes();
  if (std::isfinite(bytes) && (budget <= 0 || bytes <= budget)) return;
  throw InvalidArgument(what + " would need " + format_bytes(bytes) + " of memory; " +
                        memory_budget_description());
}

}  // namespace dplab
