// The rule files compiled into the engine (see rule_files.h).
#include "reproduction/rule_files.h"

#include <algorithm>

#include "core/error.h"
#include "core/sha256.h"

namespace dplab::reproduction {

const std::vector<RuleFile>& rule_files() {
  // rule_texts.inc: {"<name>", std::string_view("\xNN...", <size>)}, one per resources/rules/*.md,
  // sorted by name (written at build time by cmake/embed_rules.cmake).
  static const std::vector<RuleFile> files = {
#include "rule_texts.inc"
  };
  return files;
}

const RuleFile& rule_file(std::string_view name) {
  const auto& files = rule_files();
  const auto it =
      std::find_if(files.begin(), files.end(), [&](const RuleFile& f) { return f.name == name; });
  if (it != files.end()) return *it;
  std::string names;
  for (const auto& f : files) names += (names.empty() ? "" : ", ") + std::string(f.name);
  throw InvalidArgument("no rule file resources/rules/" + std::string(name) +
                        ".md (the rule files: " + names + ")");
}

std::string rule_path(std::string_view name) {
  return "resources/rules/" + std::string(name) + ".md";
}

std::string rule_text(std::string_view name) {
  std::string_view bytes = rule_file(name).bytes;
  if (!bytes.empty() && bytes.back() == '\n') bytes.remove_suffix(1);
  return std::string(bytes);
}

std::string rule_sha256(std::string_view name) {
  return sha256_hex(rule_file(name).bytes);
}

}  // namespace dplab::reproduction
