// A small command-line parser for dplab-cli: "--name value", "--name=value" and switches.
// Every problem throws UsageError with a message that names the flag; main() prints it and
// exits with status 2.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace dplab::cli {

class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Arguments {
 public:
  // Parses argv[first..argc). `switches` are flags that take no value.
  Arguments(int argc, char** argv, int first, std::set<std::string> switches = {});

  bool has(const std::string& flag) const;
  std::optional<std::string> text(const std::string& flag) const;
  std::string text_or(const std::string& flag, const std::string& fallback) const;
  std::string required_text(const std::string& flag) const;
  double number_or(const std::string& flag, double fallback) const;
  double required_number(const std::string& flag) const;
  std::int64_t integer_or(const std::string& flag, std::int64_t fallback) const;
  std::int64_t required_integer(const std::string& flag) const;
  std::uint64_t seed_or(const std::string& flag, std::uint64_t fallback) const;

  // Throws UsageError naming the first flag that is not in `known` (typos must not pass).
  void reject_unknown(const std::set<std::string>& known) const;

 private:
  std::map<std::string, std::string> values_;
  std::set<std::string> switches_seen_;
};

double parse_number(const std::string& flag, const std::string& text);
std::int64_t parse_integer(const std::string& flag, const std::string& text);

}  // namespace dplab::cli
