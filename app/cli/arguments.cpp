#include "cli/arguments.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace dplab::cli {

Arguments::Arguments(int argc, char** argv, int first, std::set<std::string> switches) {
  for (int i = first; i < argc; ++i) {
    std::string token = argv[i];
    if (token.rfind("--", 0) != 0 || token.size() < 3) {
      throw UsageError("unexpected argument '" + token + "' (flags start with --)");
    }
    std::string name = token.substr(2);
    std::optional<std::string> value;
    if (const auto eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
    }
    if (switches.count(name)) {
      if (value) throw UsageError("--" + name + " takes no value");
      switches_seen_.insert(name);
      continue;
    }
    if (!value) {
      if (i + 1 >= argc) throw UsageError("--" + name + " needs a value");
      value = argv[++i];
    }
    if (values_.count(name)) throw UsageError("--" + name + " is given twice");
    values_[name] = *value;
  }
}

bool Arguments::has(const std::string& flag) const {
  return values_.count(flag) || switches_seen_.count(flag);
}

std::optional<std::string> Arguments::text(const std::string& flag) const {
  auto it = values_.find(flag);
  if (it == values_.end()) return std::nullopt;
  return it->second;
}

std::string Arguments::text_or(const std::string& flag, const std::string& fallback) const {
  return text(flag).value_or(fallback);
}

std::string Arguments::required_text(const std::string& flag) const {
  auto value = text(flag);
  if (!value) throw UsageError("missing required flag --" + flag);
  return *value;
}

double parse_number(const std::string& flag, const std::string& text) {
  errno = 0;
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || errno == ERANGE || !std::isfinite(value)) {
    throw UsageError("--" + flag + ": expected a finite number, got '" + text + "'");
  }
  return value;
}

std::int64_t parse_integer(const std::string& flag, const std::string& text) {
  errno = 0;
  char* end = nullptr;
  const long long value = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || end != text.c_str() + text.size() || errno == ERANGE) {
    // Accept integral values written in scientific notation, e.g. 1e4.
    const double as_double = parse_number(flag, text);
    if (as_double != std::floor(as_double) || std::abs(as_double) > 9e15) {
      throw UsageError("--" + flag + ": expected an integer, got '" + text + "'");
    }
    return static_cast<std::int64_t>(as_double);
  }
  return value;
}

double Arguments::number_or(const std::string& flag, double fallback) const {
  auto value = text(flag);
  return value ? parse_number(flag, *value) : fallback;
}

double Arguments::required_number(const std::string& flag) const {
  return parse_number(flag, required_text(flag));
}

std::int64_t Arguments::integer_or(const std::string& flag, std::int64_t fallback) const {
  auto value = text(flag);
  return value ? parse_integer(flag, *value) : fallback;
}

std::int64_t Arguments::required_integer(const std::string& flag) const {
  return parse_integer(flag, required_text(flag));
}

std::uint64_t Arguments::seed_or(const std::string& flag, std::uint64_t fallback) const {
  auto value = text(flag);
  if (!value) return fallback;
  const std::int64_t seed = parse_integer(flag, *value);
  if (seed < 0) throw UsageError("--" + flag + ": expected a non-negative integer, got '" + *value + "'");
  return static_cast<std::uint64_t>(seed);
}

void Arguments::reject_unknown(const std::set<std::string>& known) const {
  for (const auto& [name, value] : values_) {
    if (!known.count(name)) throw UsageError("unknown flag --" + name);
  }
  for (const auto& name : switches_seen_) {
    if (!known.count(name)) throw UsageError("unknown flag --" + name);
  }
}

}  // namespace dplab::cli
