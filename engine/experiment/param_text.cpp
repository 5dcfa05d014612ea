// Text form of a ParamSpec <-> the JSON form parsed by parse_param_spec. See param_text.h.
#include "experiment/param_text.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <vector>

#include "core/error.h"

namespace dplab::experiment {
namespace {

using nlohmann::json;

[[noreturn]] void fail(const std::string& path, const std::string& message) {
  throw ParseError(path + ": " + message);
}

std::string trim(const std::string& s) {
  std::size_t a = 0, b = s.size();
  while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
  return s.substr(a, b - a);
}

// Numbers separated by ',', ';' or white space; each must be a whole finite number.
std::vector<double> parse_numbers(const std::string& text, const std::string& path) {
  std::vector<double> values;
  std::string token;
  auto flush = [&] {
    if (token.empty()) return;
    char* end = nullptr;
    const double v = std::strtod(token.c_str(), &end);
    if (end != token.c_str() + token.size() || !std::isfinite(v)) {
      fail(path, "'" + token + "' is not a number");
    }
    values.push_back(v);
    token.clear();
  };
  for (char c : text) {
    if (c == ',' || c == ';' || std::isspace(static_cast<unsigned char>(c))) {
      flush();
    } else {
      token += c;
    }
  }
  flush();
  return values;
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string shortest(double v) {
  char buffer[40];
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(buffer, sizeof buffer, "%.*g", digits, v);
    if (std::strtod(buffer, nullptr) == v) break;
  }
  return buffer;
}

}  // namespace

ParamSpec parse_param_text(const std::string& raw, Param param, const std::string& path) {
  const std::string text = trim(raw);
  if (text.empty()) fail(path, "empty grid: give at least one value");
  const std::size_t open = text.find('(');
  if (open != std::string::npos) {
    const std::string fn = lower(trim(text.substr(0, open)));
    if (text.back() != ')') fail(path, "missing ')' after " + fn + "(");
    const std::vector<double> args =
        parse_numbers(text.substr(open + 1, text.size() - open - 2), path);
    if (fn == "logspace") {
      if (args.size() != 3) fail(path, "logspace needs (low exponent, high exponent, count)");
      return parse_param_spec(json{{"log10", {args[0], args[1]}}, {"num", args[2]}}, param, path);
    }
    if (fn == "uniform" || fn == "loguniform") {
      if (args.size() != 2) fail(path, fn + " needs (low, high)");
      return parse_param_spec(json{{fn == "uniform" ? "uniform" : "log_uniform", args}}, param,
                              path);
    }
    fail(path, "unknown function '" + fn + "' (use logspace, uniform or loguniform)");
  }
  const std::vector<double> values = parse_numbers(text, path);
  if (values.empty()) fail(path, "empty grid: give at least one value");
  return parse_param_spec(json(values), param, path);
}

std::string format_param_text(const ParamSpec& spec) {
  switch (spec.kind) {
    case ParamSpec::Kind::kValues: {
      std::string text;
      for (std::size_t i = 0; i < spec.values.size(); ++i) {
        if (i > 0) text += ", ";
        text += shortest(spec.values[i]);
      }
      return text;
    }
    case ParamSpec::Kind::kLog10Grid:
      return "logspace(" + shortest(spec.low) + ", " + shortest(spec.high) + ", " +
             std::to_string(spec.num) + ")";
    case ParamSpec::Kind::kUniform:
      return "uniform(" + shortest(spec.low) + ", " + shortest(spec.high) + ")";
    case ParamSpec::Kind::kLogUniform:
      return "loguniform(" + shortest(spec.low) + ", " + shortest(spec.high) + ")";
  }
  return {};
}

}  // namespace dplab::experiment
